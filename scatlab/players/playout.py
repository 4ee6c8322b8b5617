"""The master's play-out engine: one hand played to its end in plain integers.

The master (:mod:`scatlab.players.master`) plays thousands of hands to their end a decision.
Through the rules engine (:class:`scatlab.rules.GameState`, immutable, every action checked
and logged) an action costs some ten microseconds; here a hand is a few lists of card
indices changed in place, and the rollout policy
(:class:`~scatlab.players.master.RolloutPolicy`) reads them directly. It plays only what the
rollout policy plays: draw, take, knock, discard, pass when the stock is gone, a 31 declared
at once. It never hammers (V10), throws down (V11) or stops the bus (V19), so those rules
change nothing here; a hand the policy could not have reached (a 31 left undeclared, C10; a
bus stopped; a declaration pending) is played by the rules engine instead
(:meth:`Hand.covers`).

**It is checked against the rules.** ``tests/players/test_playout.py`` replays thousands of
seeded play-outs under every preset in :class:`~scatlab.rules.GameState` and asserts the
same actions, the same final hands, the same end (knock, 31, stock exhausted), knocker and
declarers; ``benchmarks/bench_rollouts.py --check`` replays a larger sample. The rules
coded here, each where it is used: C5 (draw or take, then discard, never the card just
taken), C6 (one knock a hand; the hand ends when the turn comes back to the knocker), C8-C10
(a 31 ends the hand at once, declared), C11 (an empty stock leaves take or pass; a pass
ends the hand), C12 (a discard taken back only heads-up after the other knocked, unless
``take_back`` is off), V4-V6 (a knock's minimum, flush, not in the first round).

>>> from scatlab.rules import GameState, deal_order
>>> s = GameState.new("classic", 2).deal(deal_order(["AH KH 4C", "2S 3S 9H"], up="QH"))
>>> h = Hand.of(s)
>>> h.hands, h.pile, h.to_move
([[38, 37, 2], [39, 40, 33]], [36], 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from ..cards import ALL_CARDS
from ..rules.actions import Action, ActionKind
from ..rules.options import RuleSet
from ..rules.state import GameState, Phase
from ..rules.values import blitz_of

if TYPE_CHECKING:
    from .master import RolloutPolicy

__all__ = ["Hand", "Ending", "TURN", "DISCARD", "play_out", "apply", "action_code", "Blitz"]

TURN, DISCARD = 0, 1
"""A hand's phase here: a seat to draw, take, knock or pass (``TURN``), or to discard."""


class Ending(NamedTuple):
    """How a hand ended: how (``"knock"``, ``"31"``, ``"stock_exhausted"``), the knocker (-1:
    none), the declarers, and each seat's final cards (card indices)."""

    ended: str
    knocker: int
    declarers: tuple[int, ...]
    finals: tuple[tuple[int, ...], ...]


_KIND = {ActionKind.DRAW: 0, ActionKind.TAKE: 1, ActionKind.KNOCK: 2, ActionKind.PASS: 3, ActionKind.DISCARD: 4}
DRAW, TAKE, KNOCK, PASS, DISCARD_ACTION = 0, 1, 2, 3, 4
"""The actions here, as small integers (a discard's card beside it)."""


class Hand:
    """One hand in play, every seat of it still in (the master's sampled games start with
    the seats still in): each seat's cards (card indices, in the rules engine's order), the
    stock still to draw (top first), the discard pile (top last), whose move and which phase,
    the card just taken or drawn (-1: none), the knocker and the last to discard (-1: none),
    each seat's turns played and the suits each seat has taken from the pile (bits, the
    throw avoids the next seat's)."""

    __slots__ = (
        "hands",
        "stock",
        "pile",
        "to_move",
        "phase",
        "taken",
        "drawn",
        "knocker",
        "last_discarder",
        "turns",
        "collects",
    )

    def __init__(
        self,
        hands: list[list[int]],
        stock: list[int],
        pile: list[int],
        to_move: int,
        phase: int,
        taken: int,
        drawn: int,
        knocker: int,
        last_discarder: int,
        turns: list[int],
        collects: list[int],
    ) -> None:
        self.hands = hands
        self.stock = stock
        self.pile = pile
        self.to_move = to_move
        self.phase = phase
        self.taken = taken
        self.drawn = drawn
        self.knocker = knocker
        self.last_discarder = last_discarder
        self.turns = turns
        self.collects = collects

    @staticmethod
    def covers(state: GameState) -> bool:
        """Whether this engine plays ``state`` on exactly as the rules engine would under the
        rollout policy: a seat to take its turn or discard, every seat in, no 31 left
        undeclared (C10), no bus stopped (V19)."""
        return (
            state.phase in (Phase.TURN, Phase.DISCARD)
            and not any(state.out)
            and not state.undeclared
            and state.stopper is None
        )

    @classmethod
    def of(cls, state: GameState, collects: Sequence[int] = ()) -> Hand:
        """The hand of ``state`` (one :meth:`covers`), ``collects`` the suits each seat has
        taken from the pile (bits; none when not given)."""
        if not cls.covers(state):
            raise ValueError(f"a hand in the {state.phase.value!r} phase is played by the rules engine")
        n = state.num_players
        assert state.to_move is not None
        return cls(
            [[c.index for c in hand] for hand in state.hands],
            [c.index for c in state.stock[state.stock_pos :]],
            [c.index for c in state.discards],
            state.to_move,
            TURN if state.phase is Phase.TURN else DISCARD,
            -1 if state.taken is None else state.taken.index,
            -1 if state.drawn is None else state.drawn.index,
            -1 if state.knocker is None else state.knocker,
            -1 if state.last_discarder is None else state.last_discarder,
            list(state.turns),
            list(collects) if collects else [0] * n,
        )

    def copy(self) -> Hand:
        """A copy to play on (the lists copied)."""
        return Hand(
            [list(h) for h in self.hands],
            list(self.stock),
            list(self.pile),
            self.to_move,
            self.phase,
            self.taken,
            self.drawn,
            self.knocker,
            self.last_discarder,
            list(self.turns),
            list(self.collects),
        )


def action_code(action: Action) -> tuple[int, int]:
    """An action the policy plays as (its code, its card index or -1)."""
    return _KIND[action.kind], -1 if action.card is None else action.card.index


class Blitz(dict[int, bool]):
    """Whether three cards (a bit mask of card indices) are a 31 declared at once under
    ``rules`` (:func:`!scatlab.rules.values.blitz_of`), filled as asked.

    >>> from scatlab.rules import find_rules
    >>> Blitz(find_rules("classic"))[(1 << 38) | (1 << 37) | (1 << 36)]  # AH KH QH
    True
    """

    def __init__(self, rules: RuleSet) -> None:
        super().__init__()
        self.rules = rules

    def __missing__(self, mask: int) -> bool:
        cards = [card for card in ALL_CARDS if mask >> card.index & 1]
        flag = self[mask] = blitz_of(cards, self.rules)
        return flag


def play_out(
    hand: Hand,
    policy: RolloutPolicy,
    lives: Sequence[int],
    limit: int = 400,
    trace: list[tuple[int, int, int]] | None = None,
) -> Ending:
    """Play ``hand`` to its end in place, every seat by ``policy`` (its
    :meth:`~scatlab.players.master.RolloutPolicy.choose`, read from the same tables),
    ``lives`` the real game's lives of the seats; how it ended (:class:`Ending`). After
    ``limit`` actions it raises RuntimeError (a hand of takers with the stock gone ends
    sooner, C11). ``trace``, when given, gets every action played (the seat, the action's
    code and its card, -1 for none). The hand's lists are played on; its other fields are
    left as they were.

    >>> from scatlab.rules import GameState, deal_order, find_rules
    >>> from scatlab.players.master import RolloutPolicy
    >>> s = GameState.new("classic", 2).deal(deal_order(["AH KH 4C", "2S 3S 9H"], up="QH", stock="JH"))
    >>> play_out(Hand.of(s), RolloutPolicy.of(find_rules("classic")), (3, 3))[:3]
    ('31', -1, (0,))
    """
    return _play(hand, policy, lives, limit, trace)


def _play(
    hand: Hand, policy: RolloutPolicy, lives: Sequence[int], limit: int, trace: list[tuple[int, int, int]] | None
) -> Ending:
    """:func:`play_out`'s loop: the hand's state in local names, the policy's tables read inline."""
    rules = policy.rules
    st, rl = policy.strength, policy.row
    now, one, five, six, others = policy.now, policy.one, policy.five, policy.six, policy.others
    knocks, throw_card, blitz = policy.knocks, policy.throw_card, policy.blitz
    take_back, first_round, flush = rules.take_back, rules.no_knock_first_round, rules.knock_needs_flush
    min2 = -1 if rules.min_knock is None else 2 * rules.min_knock
    hands, stock, pile, turns, collects = hand.hands, hand.stock, hand.pile, hand.turns, hand.collects
    p, phase, taken, drawn = hand.to_move, hand.phase, hand.taken, hand.drawn
    knocker, last_discarder, n = hand.knocker, hand.last_discarder, len(hands)
    lines = policy.lines.setdefault(n - 1, {})  # the knock line by the turns seen and the lives
    for _ in range(limit):
        held = hands[p]
        if phase == DISCARD:  # the engine's throw, then C5, C8-C10, C6
            d = taken if taken >= 0 else drawn if drawn >= 0 and drawn in held else held[-1]
            rest = [c for c in held if c != d]
            card = throw_card(rest, d, taken >= 0, 0 if knocker >= 0 else collects[(p + 1) % n], knocker >= 0)
            if trace is not None:
                trace.append((p, DISCARD_ACTION, card))
            held.remove(card)
            pile.append(card)
            last_discarder, taken, drawn = p, -1, -1
            turns[p] += 1
            if blitz[(1 << held[0]) | (1 << held[1]) | (1 << held[2])]:
                return Ending("31", knocker, (p,), _final(hands))
            p = (p + 1) % n
            if p == knocker:
                return Ending("knock", knocker, (), _final(hands))
            phase = TURN
            continue
        mine = last_discarder == p and not (take_back and knocker >= 0 and knocker != p and n == 2)  # C12
        top = pile[-1] if pile and not mine else -1
        a, b, c = sorted(held)
        bc, ac, ab = b * 2704 + c * 52, a * 2704 + c * 52, a * 2704 + b * 52  # pair_indices
        own = st[ab + c]
        take = -1
        action = DRAW
        if top >= 0:
            take = max(st[ab + top], st[ac + top], st[bc + top])
            if take >> 12 >= 62:  # RANK_BITS, BLITZ2: a 31 made by taking
                action = TAKE
        if (
            action == DRAW
            and knocker < 0
            and stock
            and not (first_round and turns[p] == 0)  # V6
            and (min2 < 0 or own >> 12 >= min2)  # V4
            and (not flush or held[0] // 13 == held[1] // 13 == held[2] // 13)  # V5
        ):
            seen = turns[1 - p] if n == 2 else max(turns[:p] + turns[p + 1 :])
            line = lines.get(seen * 128 + lives[p])
            if line is None:
                line = lines[seen * 128 + lives[p]] = knocks(n - 1, seen, lives[p])
            action = KNOCK if own >> 12 in line else DRAW
        if action == DRAW and not stock:  # C11: take only what raises the hand now, else pass
            action = TAKE if top >= 0 and take > own else PASS
        elif action == DRAW and top >= 0:  # take by the value now on a last turn, else five turns ahead
            k0, k1, k2 = rl[ab + top], rl[ac + top], rl[bc + top]
            ahead, base = (now, one) if knocker >= 0 else (five, six)
            action = TAKE if max(ahead[k0], ahead[k1], ahead[k2]) * others >= base[rl[ab + c]] else DRAW
        if trace is not None:
            trace.append((p, action, -1))
        if action == DRAW:
            drawn, phase = stock.pop(0), DISCARD
            held.append(drawn)
        elif action == TAKE:
            taken, phase = pile.pop(), DISCARD
            collects[p] |= 1 << (taken // 13)
            held.append(taken)
        elif action == KNOCK:  # C6: the others play one more turn
            knocker = p
            turns[p] += 1
            p = (p + 1) % n
        else:  # C11: a pass with the stock gone ends the hand
            return Ending("stock_exhausted", knocker, (), _final(hands))
    raise RuntimeError("a rollout did not end")  # pragma: no cover - C11 ends a hand of takers


def apply(hand: Hand, action: int, card: int, policy: RolloutPolicy) -> Ending | None:
    """Play ``action`` (``DRAW``, ``TAKE``, ``KNOCK``, ``PASS`` or ``DISCARD_ACTION`` of
    ``card``) for the seat to move, in place; how the hand ended, or None while it goes on.
    The action is one the rules allow (the policy's, or a legal candidate's)."""
    p = hand.to_move
    held = hand.hands[p]
    if action == DISCARD_ACTION:
        held.remove(card)
        hand.pile.append(card)
        hand.last_discarder = p
        hand.taken = hand.drawn = -1
        hand.turns[p] += 1
        if policy.blitz[(1 << held[0]) | (1 << held[1]) | (1 << held[2])]:  # C8-C10: declared at once
            return Ending("31", hand.knocker, (p,), _final(hand.hands))
        return _next(hand, p)
    if action == DRAW:
        held.append(hand.stock.pop(0))
        hand.drawn = held[-1]
        hand.phase = DISCARD
    elif action == TAKE:
        top = hand.pile.pop()
        hand.collects[p] |= 1 << (top // 13)
        held.append(top)
        hand.taken = top
        hand.phase = DISCARD
    elif action == KNOCK:
        hand.knocker = p
        hand.turns[p] += 1
        return _next(hand, p)
    else:  # PASS, the stock gone (C11)
        return Ending("stock_exhausted", hand.knocker, (), _final(hand.hands))
    return None


def _next(hand: Hand, p: int) -> Ending | None:
    """After ``p``'s discard or knock: the hand's end when the turn comes back to the
    knocker (C6), else the next seat moves (None)."""
    nxt = (p + 1) % len(hand.hands)
    if nxt == hand.knocker:
        return Ending("knock", hand.knocker, (), _final(hand.hands))
    hand.to_move = nxt
    hand.phase = TURN
    return None


def _final(hands: list[list[int]]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(h) for h in hands)
