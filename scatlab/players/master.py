"""The ``master`` player: it searches from the one decision engine.

At a decision whose answer is forced or obvious it plays the engine's move
(:func:`scatlab.analysis.engine.decision.decide`, the ``expert``'s) without a search: a single
legal action, a 31 to declare or made for sure (C8, C9), a blind throw-down declined (V11),
or when the engine rates every other move far behind (between two ways of playing on
:data:`PRUNE_POINTS` points of expected hand value five turns ahead, else :data:`PRUNE_WIN`
of the chance of winning the game). Otherwise:

1. **Candidates.** The engine's first moves of :func:`~scatlab.analysis.engine.ranking.rank`
   (up to ``candidates``, the engine's first always among them).
2. **Deals consistent with the view.** It samples the cards it cannot see, from the
   :class:`~scatlab.rules.PlayerView` alone (:class:`WorldSampler` never receives a game
   state): each opponent's hand from the adaptive opponent model
   (:func:`!scatlab.analysis.model.weights.row_weights`: dealt at random, weighed by every
   turn it was seen to play, holding the cards it took from the pile), the opponents' hands
   disjoint, and the stock a uniformly random order of the remaining unseen cards. A sampled
   deal is a whole deck order: dealt, the hand's public log replays to exactly the moment
   the seat sees (its hand, the pile, the stock's size), so the deal is one the seat could
   be in; a deal that does not replay (an opponent who would have held 31, a knock the rules
   would refuse) is drawn again.
3. **Rollouts.** In every sampled deal each candidate is played, then the hand is played to
   its end by a fast policy for every seat, and the outcome is scored by the engine's game
   model: the chance of winning the game from the standings the hand leaves
   (:class:`~scatlab.analysis.model.winning.GameModel`, the opponents' kinds as learned from
   the hands shown). Every
   candidate is played in the same deals (common random numbers), so the differences
   between candidates have a small variance.
4. **The choice.** It plays the candidate with the best mean only when its margin over the
   engine's move is more than ``confidence`` (2) standard errors, or ``knock_confidence``
   (1) where one of the two moves ends the hand and the other does not (knocking against
   playing on); otherwise the engine's move. So where a search cannot tell the moves apart
   the master plays as the expert does, and with one deal a move it always does. The knock
   is trusted on less evidence because its rollouts are short and its differences large:
   after a knock only the opponents' last turns are played out, which the rollout policy
   pictures well, and nearly every deal tells knocking from playing on; two moves that both
   play on differ in few deals, so with a small budget the spread of their difference is
   itself poorly known, and a lower bar there would switch on noise.

**The rollout policy** is the engine's way of playing on, read from its exact tables, with
its knock line: draw or take by the hands' expected values five turns ahead (the horizon
tables of :mod:`!scatlab.analysis.counting.horizon`, the drawn card any card not in the hand;
on a last turn the value now), throw by the engine's own throw table
(:func:`!scatlab.analysis.model.throws.throw_choice`, not feeding the next seat), knock
at the engine's knock line (:func:`~scatlab.analysis.engine.knock_line.knock_line`: the values
where knocking's chance of winning is above playing on's for an average hand, by the
opponents, the turns played and the mover's lives), always declare a 31, never hammer,
throw down or stop the bus. Measured on this machine (one core, classic rules, positions
of seeded expert games), the engine's own ``decide`` takes 0.09 ms at a median turn but
0.6 ms on average and up to 10 ms where a knock is weighed, and a rollout plays 10 to 40
actions: about 15 ms a rollout. The table policy takes a microsecond or two a move; the
first move of each rollout is still the engine's candidate (with the throw the engine
plans after a take).

**The play-out engine.** The hands are played out by :mod:`scatlab.players.playout`, in
card indices, not by the rules engine (:class:`~scatlab.rules.GameState`, whose checked,
immutable, logged actions cost some ten microseconds each): a rollout, its deal's share of
the sampling and the scoring of its end included, takes about 50 microseconds
(``benchmarks/bench_rollouts.py``; docs/guide/master.md has the figures). It plays the same
deals to the same ends as the rules engine would (``search(..., engine="rules")``, which
the tests compare it with); a hand whose log has a declaration, a pass or a stopped bus is
searched by the rules engine.

**Budget.** ``budget`` rollouts a decision (default :data:`DEFAULT_BUDGET`, docs/guide/master.md
gives its time a decision), shared between the candidates, and optionally ``seconds``, a
time limit: the search stops at whichever comes first. Given the same view, budget and
random generator state it decides the same (with ``seconds``, only when the budget is
reached first).

>>> import random
>>> from scatlab.rules import GameState, deal_order
>>> s = GameState.new("classic", 2).deal(deal_order(["2S 3S 9D", "AH KH 4C"], up="QH"))
>>> d = MasterPlayer(budget=60).decide(s.view(1), random.Random(0))
>>> d.action, d.reason.startswith("takes the QH")      # a 31 for sure: no search
(Action(kind=<ActionKind.TAKE: 'take'>, card=None), True)
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from ..analysis import (
    BLITZ2,
    EXPERT,
    LAST_THROW,
    MAX_TURNS,
    RANK_BITS,
    GameModel,
    KnockValuation,
    Knowledge,
    Observations,
    RankedMove,
    Ranking,
    Standing,
    Style,
    Tables,
    avoid_list,
    decide,
    expert_throw,
    horizon_table,
    kind_odds,
    knock_values,
    pair_indices,
    pile_tops,
    rank,
    row_weights,
    scoring_rules,
    tables_for,
    throw_choice,
    throw_lists,
)
from ..cards import ALL_CARDS, Card, Suit
from ..checks import real_number, whole_number
from ..errors import ScatlabError
from ..rules.actions import Action, ActionKind
from ..rules.options import RuleSet
from ..rules.scoring import settle
from ..rules.state import GameState, Phase
from ..rules.values import is_flush, tiebreak_key, value_of
from ..rules.view import PlayerView
from ..words import DOES, DOING, points, win_level
from .base import Decision, Player, PlayerError, settled_choice
from .expert import ExpertPlayer
from .playout import DISCARD, DISCARD_ACTION, DRAW, TAKE, TURN, Blitz, Ending, Hand, action_code, apply, play_out
from .public import PublicMove

__all__ = [
    "MasterPlayer",
    "WorldSampler",
    "RolloutPolicy",
    "SearchResult",
    "search",
    "planned_deals",
    "DEFAULT_BUDGET",
    "PRUNE_POINTS",
    "PRUNE_WIN",
]

DEFAULT_BUDGET = 1000
"""Rollouts a decision by default: a decision then takes about 50 ms at the median and 140 ms at
the 95th percentile on one core (measured by ``benchmarks/bench_strength.py --timing-games``
in heads-up classic games against the expert: docs/guide/master.md)."""
PRUNE_POINTS = 3.0
"""A way of playing on the engine rates this many points of expected hand value (five turns
ahead) below its first move is not searched."""
PRUNE_WIN = 0.08
"""A move the engine rates this much lower in the chance of winning the game (8 points) is
not searched."""
MAX_ROLLOUT_ACTIONS = 400
"""A rollout stops after this many actions (a hand of takers with the stock gone always
ends sooner, C11)."""

_ACTIVE = (Phase.TURN, Phase.DISCARD, Phase.DECLARE, Phase.THROW_DOWN)
_EXPERT_THROW = expert_throw(EXPERT.horizon, EXPERT.feed_margin)
_WAYS = (_EXPERT_THROW, LAST_THROW)
"""The rollout policy's ways of throwing: the expert's, and on a last turn by the hand now."""
_VALUATION = KnockValuation()
_SUITS = tuple(Suit)
_CARD_VALUES = [card.value for card in ALL_CARDS]
_CODES = {ActionKind.DRAW: DRAW, ActionKind.TAKE: TAKE, ActionKind.DISCARD: DISCARD_ACTION}
_PLAIN = frozenset((ActionKind.DRAW, ActionKind.TAKE, ActionKind.DISCARD, ActionKind.KNOCK))
_EXPERT = ExpertPlayer()


# -- the rollout policy ------------------------------------------------------------------------


class RolloutPolicy:
    """The fast policy every seat plays in a rollout (see the module doc): the engine's way
    of playing on read from its exact tables, and its knock line. It reads a seat's own
    cards, the top discard and public facts of the sampled game state; ``lives`` are the
    real game's lives of the sampled game's seats.

    >>> from scatlab.rules import GameState, deal_order, find_rules
    >>> s = GameState.new("classic", 2).deal(deal_order(["AH KH 4C", "2S 3S 9H"], up="QH"))
    >>> RolloutPolicy.of(find_rules("classic")).choose(s, (3, 3))
    Action(kind=<ActionKind.TAKE: 'take'>, card=None)
    """

    def __init__(
        self, rules: RuleSet, tables: Tables, now: list[int], one: list[int], five: list[int], six: list[int]
    ) -> None:
        self.rules = rules
        self.others = tables.deck_size - 3
        self.strength = tables.triple_list
        self.row = tables.row_list
        self.one, self.five, self.six = one, five, six
        self.now = now
        self._lines: dict[tuple[int, int, int], frozenset[int]] = {}
        self._throws: dict[int, int] = {}
        self._scoring = scoring_rules(rules)
        expert, last = (throw_lists(self._scoring, way) for way in _WAYS)
        self.fast = expert, last
        """The expert's and the last turn's throws as lists (:class:`!scatlab.analysis.model.throws.ThrowLists`)."""
        self._avoiding: dict[int, bytes] = {}
        self.row_strength = tables.strength.tolist()
        """Each row's strength now (value2 << RANK_BITS | rank code), as a list."""
        self.expert_worth = five if EXPERT.horizon == 5 else horizon_table(tables, EXPERT.horizon).tolist()
        """Each row's worth by the expert's horizon (its throw's order)."""
        self.feed = EXPERT.feed_margin * 2 * (tables.deck_size - 3) ** EXPERT.horizon
        """The expert throw's feed margin in the horizon table's units."""
        self.blitz = Blitz(rules)
        """Whether three cards (a bit mask) are a 31 declared at once (for the play-out engine)."""
        self.showdown_keys: dict[int, tuple[int, ...]] = {}
        """Three cards' showdown key (:func:`~scatlab.rules.values.tiebreak_key`, its value
        doubled to a whole number) by their bit mask, kept as met (for the play-out engine)."""
        self.lines: dict[int, dict[int, frozenset[int]]] = {}
        """:meth:`knocks` by the opponents, then by the turns seen * 128 + the lives (for the
        play-out engine)."""

    @classmethod
    def of(cls, rules: RuleSet) -> RolloutPolicy:
        """The policy for ``rules`` (its tables built once per scoring configuration)."""
        return _policy(rules)

    def knocks(self, opponents: int, turns: int, lives: int) -> frozenset[int]:
        """The hand values (twice, in half points) at which the engine's knock line
        (:func:`~scatlab.analysis.knock_line`) knocks: where knocking's chance of winning the game is above
        playing on's for an average hand of that value."""
        key = (opponents, min(turns, MAX_TURNS), max(1, min(lives, 99)))
        try:
            return self._lines[key]
        except KeyError:
            value = self._lines[key] = knock_values(self.rules, min(key[0], 8), key[1], key[2])
            return value

    def choose(
        self, state: GameState, lives: Sequence[int], collects: Sequence[frozenset[Suit]] | None = None
    ) -> Action:
        """The action of the seat to move in ``state`` (a sampled game); ``collects``: the
        suits each seat has taken from the pile this hand (a throw avoids the next seat's)."""
        phase = state.phase
        seat = state.to_move
        assert seat is not None
        if phase is Phase.DISCARD:
            return self.throw(state, seat, collects)
        if phase is Phase.DECLARE:
            return Action.DECLARE
        if phase is Phase.THROW_DOWN:
            return Action.PASS
        legal = state.legal_actions()
        kinds = {a.kind for a in legal}
        a, b, c = sorted(card.index for card in state.hands[seat])
        st = self.strength
        bc, ac, ab = pair_indices(a, b, c)
        own = st[ab + c]
        top = state.discards[-1].index if ActionKind.TAKE in kinds else -1
        take = -1
        if top >= 0:
            take = max(st[ab + top], st[ac + top], st[bc + top])
            if take >> RANK_BITS >= BLITZ2:
                return Action.TAKE
        final = state.knocker is not None
        if ActionKind.KNOCK in kinds:
            opponents = len(state.active) - 1
            turns = max(t for s, t in enumerate(state.turns) if s != seat and not state.out[s])
            if own >> RANK_BITS in self.knocks(opponents, turns, lives[seat]):
                return Action.KNOCK
        if ActionKind.DRAW not in kinds:  # C11: take only what raises the hand now
            if top >= 0 and take > own:
                return Action.TAKE
            return Action.PASS if ActionKind.PASS in kinds else legal[0]
        if top >= 0:
            rl = self.row
            keeps = (rl[ab + top], rl[ac + top], rl[bc + top])
            row = rl[ab + c]
            if final:
                if max(self.now[r] for r in keeps) * self.others >= self.one[row]:
                    return Action.TAKE
            elif max(self.five[r] for r in keeps) * self.others >= self.six[row]:
                return Action.TAKE
        return Action.DRAW

    def throw_card(self, held: Sequence[int], drawn: int, taken: bool, avoid: int, last: bool) -> int:
        """:meth:`throw` in card indices (for the play-out engine,
        :mod:`scatlab.players.playout`): the card thrown from ``held`` (three) and ``drawn``
        (taken from the pile with ``taken``), ``avoid`` the suits of the next seat (bits in
        the order of :class:`~scatlab.cards.Suit`, a card's suit being its index // 13),
        ``last`` on a last turn.

        >>> from scatlab.rules import find_rules
        >>> RolloutPolicy.of(find_rules("classic")).throw_card([38, 37, 2], 36, False, 0, False)  # AH KH 4C, QH
        2
        """
        if not (taken and avoid):
            fast = self.fast[last]
            places = fast.places
            q = sorted((places[held[0]], places[held[1]], places[held[2]], places[drawn]))
            quad = q[0] + fast.c2[q[1]] + fast.c3[q[2]] + fast.c4[q[3]]  # ThrowLists.quad
            if avoid:
                return avoid_list(self._scoring, _WAYS[last], avoid)[quad] if last else self.avoiding(avoid)[quad]
            card = fast.first[quad]
            return fast.second[quad] if taken and card == drawn else card  # C5: never the card taken
        if last:  # pragma: no cover - on a last turn nothing is avoided
            cards = ALL_CARDS[held[0]], ALL_CARDS[held[1]], ALL_CARDS[held[2]]
            suits = frozenset(s for i, s in enumerate(_SUITS) if avoid >> i & 1)
            return throw_choice(self.rules, LAST_THROW, cards, ALL_CARDS[drawn], taken=True, avoid=suits).card.index
        return self._taken_avoiding(held, drawn, avoid)

    def _taken_avoiding(self, held: Sequence[int], taken: int, avoid: int) -> int:
        """The expert's throw from ``held`` after taking ``taken`` (never thrown back, C5),
        the suits ``avoid`` avoided: the card whose loss keeps the three worth most five turns
        ahead (ties: the stronger three now, then the lower card, then the lower index); if
        its suit is avoided, the best card of another suit keeping three worth at most the
        feed margin less, else that card (the order of
        :func:`~scatlab.analysis.throw_choice`, which the tests compare it with)."""
        rl, worth, strength, values = self.row, self.expert_worth, self.row_strength, _CARD_VALUES
        a, b, c = held
        options = []
        for card, kept in ((a, rl[b * 2704 + c * 52 + taken]), (b, rl[a * 2704 + c * 52 + taken])):
            options.append((-worth[kept], -(strength[kept] * 1024 + (15 - values[card]) * 64 + (63 - card)), card))
        kept = rl[a * 2704 + b * 52 + taken]
        options.append((-worth[kept], -(strength[kept] * 1024 + (15 - values[c]) * 64 + (63 - c)), c))
        options.sort()
        first = options[0]
        if not avoid >> (first[2] // 13) & 1:
            return first[2]
        for score, _, card in options[1:]:
            if -score >= -first[0] - self.feed and not avoid >> (card // 13) & 1:
                return card
        return first[2]

    def avoiding(self, avoid: int) -> bytes:
        """Per set of four cards (:meth:`!scatlab.analysis.model.throws.ThrowLists.quad`): the
        expert's throw, not taken, with the suits ``avoid`` (bits) avoided."""
        found = self._avoiding.get(avoid)
        if found is None:
            found = self._avoiding[avoid] = avoid_list(self._scoring, _EXPERT_THROW, avoid)
        return found

    def throw(self, state: GameState, seat: int, collects: Sequence[frozenset[Suit]] | None = None) -> Action:
        """The engine's throw from the four cards: for the hand now on a last turn, else
        five turns ahead, not feeding the next seat a suit it collects when that costs little."""
        hand = state.hands[seat]
        taken = state.taken
        drawn = taken if taken is not None else state.drawn
        if drawn is None or drawn not in hand:
            drawn = hand[-1]
        held = tuple(c for c in hand if c is not drawn)
        last = state.knocker is not None or state.stopper is not None
        avoid: frozenset[Suit] = frozenset()
        if collects is not None and not last:
            avoid = collects[(seat + 1) % len(collects)]
        card = throw_choice(
            self.rules,
            LAST_THROW if last else _EXPERT_THROW,
            (held[0], held[1], held[2]),
            drawn,
            taken=taken is not None,
            avoid=avoid,
        ).card
        return Action.discard(card)


@lru_cache(maxsize=16)
def _policy(rules: RuleSet) -> RolloutPolicy:
    tables = tables_for(scoring_rules(rules))
    levels = [horizon_table(tables, k) for k in (1, 5, 6)]
    return RolloutPolicy(rules, tables, [int(x) for x in tables.value2], *[lv.tolist() for lv in levels])


@lru_cache(maxsize=16)
def _row_cards(rules: RuleSet) -> list[list[int]]:
    """The cards of each row of the tables of ``rules``, as lists."""
    return [list(row) for row in tables_for(rules).rows.tolist()]


# -- sampled deals -----------------------------------------------------------------------------


class WorldSampler:
    """Deals consistent with one :class:`~scatlab.rules.PlayerView` (see the module doc):
    :meth:`sample` returns a game state of the seats still in, at the moment of the view,
    whose hidden cards (the opponents' hands, the stock's order) are drawn at random, the
    opponents' hands from the adaptive opponent model. It receives the view only.

    >>> from scatlab.rules import GameState, deal_order
    >>> s = GameState.new("classic", 3).deal(deal_order(["AH KH 4C", "2S 3S 9H", "5D 6D 7D"], up="QH"))
    >>> s = s.apply("draw").apply("discard 9H")
    >>> sampler = WorldSampler(s.view(2))
    >>> world = sampler.sample(np.random.default_rng(1), random.Random(1))
    >>> world.view(sampler.seat_of[2]).hand == s.view(2).hand, world.discards == s.discards
    (True, True)
    """

    def __init__(self, view: PlayerView) -> None:
        if not isinstance(view, PlayerView):
            raise PlayerError(f"WorldSampler needs a PlayerView, not {type(view).__name__}")
        if view.to_move != view.player or view.phase not in (Phase.TURN, Phase.DISCARD):
            raise PlayerError(f"player {view.player} has no turn to search in this view (phase {view.phase.value!r})")
        self.view = view
        self.rules = view.rules
        self.active = tuple(s for s in range(view.num_players) if not view.out[s])
        self.seat_of = {s: j for j, s in enumerate(self.active)}
        """The sampled game's seat of each real seat still in."""
        self.lives = tuple(view.lives[s] for s in self.active)
        """The real lives of the sampled game's seats (the sampled game starts fresh)."""
        self._games: dict[int, GameModel] = {}
        knowledge = Knowledge.from_view(view)
        observations = Observations.from_view(view, knock_rules=False)
        tables = tables_for(view.rules)
        self._masks = tables.cards_mask
        self._unseen = tuple(ALL_CARDS[i] for i in knowledge.unseen_index)
        self._cumulative: list[npt.NDArray[np.float64]] = []
        for i in range(knowledge.opponents):
            try:
                w = row_weights(knowledge, observations, i)
            except ScatlabError:  # pragma: no cover - the model allows no hand: uniform over the possible ones
                w = np.zeros(len(tables.rows))
            if not w.max() > 0:
                held = 0
                for card in knowledge.holds_of(i):
                    held |= 1 << card.index
                avail = held
                for idx in knowledge.unseen_index:
                    avail |= 1 << idx
                masks = self._masks
                w = (((masks & ~np.int64(avail)) == 0) & ((masks & np.int64(held)) == held)).astype(np.float64)
            cum = np.cumsum(w)
            self._cumulative.append(cum / cum[-1])
        history = view.history
        self._tops = pile_tops(history, view.discard_pile)
        self._up = self._tops[0] if history else view.discard_pile[-1]
        collects: list[set[Suit]] = [set() for _ in self.active]
        for event in history:
            if event.action.kind is ActionKind.TAKE and event.card is not None and event.player in self.seat_of:
                collects[self.seat_of[event.player]].add(event.card.suit)
        self.collects = tuple(frozenset(c) for c in collects)
        """The suits each sampled game's seat has taken from the pile this hand (public)."""
        self.collect_bits = tuple(sum(1 << _SUITS.index(s) for s in c) for c in collects)
        """:attr:`collects` as bits (a card's suit is its index // 13), for the play-out engine."""
        self._blitz = RolloutPolicy.of(self.rules).blitz
        self.showdown_keys = RolloutPolicy.of(self.rules).showdown_keys
        self.scores: dict[tuple[object, ...], float] = {}
        """The chance of winning after a hand played out, by how it ended and the order of
        the seats' showdown keys, kept as worked out (``_after_ending``)."""
        self.standing = _VALUATION.standing(view)
        """Each seat's standing before the hand (:meth:`!scatlab.analysis.model.valuation.KnockValuation.standing`)."""
        self.tries = 0
        """Deals drawn so far, including those that did not replay."""
        self._pinned = [
            frozenset(
                e.card.index
                for e in history[:k]
                if e.player == event.player and e.action.kind is ActionKind.TAKE and e.card is not None
            )
            for k, event in enumerate(history)
        ]
        """Per event of the log: the cards its seat took from the pile before it."""
        self._log = [(e.player, _CODES.get(e.action.kind, -1), -1 if e.card is None else e.card.index) for e in history]
        """The log in numbers: each event's seat, action (:mod:`scatlab.players.playout`'s codes) and card."""
        self._unseen_index = [c.index for c in self._unseen]
        self._row_cards = _row_cards(view.rules)

    def game_of(self, seat: int) -> GameModel:
        """The game model of the real seat ``seat`` (the chance of winning from the real
        standings, the opponents' kinds as learned from the hands shown)."""
        game = self._games.get(seat)
        if game is None:
            view = self.view
            strong = None
            if seat == view.player and view.past_hands:
                odds = kind_odds(view)
                strong = tuple(o[1] for o in odds) if odds is not None else None
            seats = Standing(
                view.rules,
                seat,
                view.num_players,
                tuple(
                    (seat + i) % view.num_players
                    for i in range(1, view.num_players)
                    if not view.out[(seat + i) % view.num_players]
                ),
                tuple(view.lives),
                tuple(view.points),
                tuple(view.out),
            )
            game = GameModel.of(seats, strong)
            self._games[seat] = game
        return game

    def _hands(self, gen: np.random.Generator) -> list[list[int]] | None:
        """The opponents' hands now (in turn order after the player; card indices), disjoint."""
        cards, masks = self._row_cards, self._masks
        for _ in range(64):
            used = 0
            hands: list[list[int]] = []
            for cum in self._cumulative:
                row = min(int(np.searchsorted(cum, gen.random(), side="right")), len(cum) - 1)
                mask = int(masks[row])
                if used & mask:
                    break
                used |= mask
                hands.append(list(cards[row]))
            else:
                return hands
        return None

    def sample(self, gen: np.random.Generator, rnd: random.Random) -> GameState | None:
        """One sampled deal, played to the view's moment, or None when the deal drawn does
        not replay (draw again)."""
        deal = self._deal(gen, rnd)
        return None if deal is None else self._replay(*deal)

    @property
    def plain(self) -> bool:
        """Whether the hand so far has only draws, takes, discards and a knock, so that
        :meth:`sample_hand` replays it without the rules engine."""
        return all(event.action.kind in _PLAIN for event in self.view.history)

    def sample_hand(self, gen: np.random.Generator, rnd: random.Random) -> Hand | None:
        """:meth:`sample` for the play-out engine (:mod:`scatlab.players.playout`): the same
        deal from the same generators' states, as a :class:`~scatlab.players.playout.Hand`
        (None where :meth:`sample` gives None). The hand's log is replayed in card indices
        when it is :attr:`plain` (checking what the rules engine would refuse: a 31 dealt or
        made and not declared, C8-C10; a knock refused, V4-V6), else by the rules engine.

        >>> from scatlab.rules import GameState, deal_order
        >>> s = GameState.new("classic", 3).deal(deal_order(["AH KH 4C", "2S 3S 9H", "5D 6D 7D"], up="QH"))
        >>> s = s.apply("draw").apply("discard 9H")
        >>> sampler = WorldSampler(s.view(2))
        >>> a = sampler.sample(np.random.default_rng(1), random.Random(1))
        >>> b = sampler.sample_hand(np.random.default_rng(1), random.Random(1))
        >>> b.hands == [[c.index for c in h] for h in a.hands], b.stock == [c.index for c in a.remaining_stock]
        (True, True)
        """
        deal = self._deal(gen, rnd)
        if deal is None:
            return None
        if self.plain:
            return self._replay_hand(*deal)
        world = self._replay(*deal)
        return None if world is None or not Hand.covers(world) else Hand.of(world, self.collect_bits)

    def _deal(
        self, gen: np.random.Generator, rnd: random.Random
    ) -> tuple[dict[int, list[int]], dict[int, int], list[int]] | None:
        """A deal drawn, in card indices: each seat's dealt hand, the cards drawn (by the
        log's index) and the stock left, in order; None when the cards drawn do not fit the log."""
        self.tries += 1
        view = self.view
        hands = self._hands(gen)
        if hands is None:
            return None
        now: dict[int, list[int]] = {view.player: [c.index for c in view.hand]}
        dealt_mask = 0
        for seat, dealt in zip(view.opponents, hands):
            now[seat] = dealt
            for c in dealt:
                dealt_mask |= 1 << c
        left = [c for c in self._unseen_index if not dealt_mask >> c & 1]
        if len(left) != view.stock_size:
            return None
        stock = [left[i] for i in gen.permutation(len(left)).tolist()]  # the stock in a random order
        # walk the hand's log backwards: each seat's dealt hand, and the cards drawn
        drawn: dict[int, int] = {}
        for k in range(len(self._log) - 1, -1, -1):
            player, kind, card = self._log[k]
            held = now.get(player)
            if held is None:
                return None
            if kind == DISCARD_ACTION and card >= 0:
                held.append(card)
            elif kind == TAKE and card >= 0:
                if card not in held:
                    return None
                held.remove(card)
            elif kind == DRAW:
                if card < 0:  # another seat's draw: any card of its hand it did not take earlier
                    pinned = self._pinned[k]
                    free = [c for c in held if c not in pinned]
                    if not free:
                        return None
                    card = free[rnd.randrange(len(free))]
                if card not in held:
                    return None
                held.remove(card)
                drawn[k] = card
        if self.seat_of.get(view.dealer) is None or any(len(now[s]) != 3 for s in self.active):
            return None
        return now, drawn, stock

    def _replay(self, now: dict[int, list[int]], drawn: dict[int, int], stock: list[int]) -> GameState | None:
        """The deal dealt and the hand's log replayed by the rules engine (None where it
        does not replay to the view's moment)."""
        view = self.view
        history = view.history
        n = len(self.active)
        dealer = self.seat_of[view.dealer]
        order: list[Card] = []
        for round_ in range(3):
            for step in range(1, n + 1):
                order.append(ALL_CARDS[now[self.active[(dealer + step) % n]][round_]])
        if self._up is None:  # pragma: no cover - a hand starts with a card face up (C3)
            return None
        order.append(self._up)
        order.extend(ALL_CARDS[drawn[k]] for k in sorted(drawn))
        order.extend(ALL_CARDS[c] for c in stock)
        try:
            world = GameState.new(self.rules, n, dealer).deal(order)
            for event in history:
                if world.to_move != self.seat_of.get(event.player):
                    return None
                world = world.apply(event.action)
        except ScatlabError:
            return None
        me = self.seat_of[view.player]
        if (
            world.to_move != me
            or world.phase is not view.phase
            or world.discards != view.discard_pile
            or sorted(world.hands[me]) != sorted(view.hand)
            or world.stock_size != view.stock_size
        ):
            return None
        return world

    def _replay_hand(self, now: dict[int, list[int]], drawn: dict[int, int], stock: list[int]) -> Hand | None:
        """The deal dealt and the :attr:`plain` log replayed in card indices, checking what
        the rules engine would refuse (None: the deal does not replay)."""
        view, seat_of, n = self.view, self.seat_of, len(self.active)
        hands = [now[s] for s in self.active]
        blitz = self._blitz
        if any(blitz[(1 << h[0]) | (1 << h[1]) | (1 << h[2])] for h in hands):  # C9: a 31 dealt ends the deal
            return None
        to_move = (seat_of[view.dealer] + 1) % n
        turns, knocker, last, taken, card_drawn, phase = [0] * n, -1, -1, -1, -1, TURN
        for k, event in enumerate(view.history):
            j = seat_of.get(event.player, -1)
            if j != to_move:
                return None
            kind, held = event.action.kind, hands[j]
            if kind is ActionKind.DRAW:
                card_drawn = drawn[k]
                held.append(card_drawn)
                phase = DISCARD
                continue
            if kind is ActionKind.TAKE:
                assert event.card is not None
                taken = event.card.index
                held.append(taken)
                phase = DISCARD
                continue
            if kind is ActionKind.KNOCK:
                if self._knock_refused([ALL_CARDS[i] for i in held], turns[j]):
                    return None
                knocker = j
            else:  # a discard (C5)
                assert event.card is not None
                card = event.card.index
                if card not in held or card == taken:
                    return None
                held.remove(card)
                last, taken, card_drawn = j, -1, -1
                if blitz[(1 << held[0]) | (1 << held[1]) | (1 << held[2])]:  # C8, C10: declared at once
                    return None
            turns[j] += 1
            to_move, phase = (j + 1) % n, TURN
            if to_move == knocker:  # C6: the hand would have ended
                return None
        if to_move != seat_of[view.player] or phase != (TURN if view.phase is Phase.TURN else DISCARD):
            return None
        pile = [c.index for c in view.discard_pile]
        return Hand(
            hands, stock, pile, to_move, phase, taken, card_drawn, knocker, last, turns, list(self.collect_bits)
        )

    def _knock_refused(self, held: list[Card], turns: int) -> bool:
        """Whether the rules refuse a knock from ``held`` after ``turns`` turns (V4, V5, V6)."""
        rules = self.rules
        if rules.no_knock_first_round and turns == 0:
            return True
        if rules.min_knock is not None and value_of(held, rules) < rules.min_knock:
            return True
        return rules.knock_needs_flush and not is_flush(held)


# -- the search --------------------------------------------------------------------------------


@dataclass(frozen=True)
class SearchResult:
    """What a search found: the candidates (the engine's first first), the deals played,
    each candidate's mean chance of winning the game after the hand, and its mean margin
    over the engine's move with that margin's standard error."""

    moves: tuple[RankedMove, ...]
    deals: int
    means: tuple[float, ...]
    margins: tuple[float, ...]
    errors: tuple[float, ...]
    scores: tuple[tuple[float, ...], ...] = ()
    """Each candidate's chance of winning after the hand, deal by deal (the same deals)."""

    @property
    def rollouts(self) -> int:
        return self.deals * len(self.moves)

    def difference(self, i: int, j: int) -> tuple[float, float]:
        """The mean margin of candidate ``i`` over candidate ``j`` in the same deals, and its
        standard error (infinite after fewer than two deals).

        >>> r = SearchResult((), 3, (0.5, 0.4), (0.0, -0.1), (0.0, 0.05), ((0.5, 0.6, 0.4), (0.4, 0.4, 0.4)))
        >>> [round(x, 3) for x in r.difference(0, 1)]
        [0.1, 0.058]
        """
        a, b = self.scores[i], self.scores[j]
        diffs = [x - y for x, y in zip(a, b)]
        n = len(diffs)
        if n == 0:
            return 0.0, math.inf
        mean = sum(diffs) / n
        if n < 2:
            return mean, math.inf
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return mean, math.sqrt(var / n)


def _after_hand(world: GameState, sampler: WorldSampler, me: int) -> float:
    """The chance of winning the game (the engine's game model,
    :class:`~scatlab.analysis.model.winning.GameModel`) of the real seat ``me`` after the
    sampled game's last hand."""
    result = world.results[-1]
    rules = sampler.rules
    keys = []
    for j in range(len(sampler.active)):
        value = result.values[j]
        assert value is not None
        keys.append((value, *tiebreak_key(result.final[j], rules)[1:]))
    knocker = -1 if result.knocker is None else result.knocker
    return _score(sampler, me, result.ended, knocker, result.declarers, tuple(keys))


def _after_ending(ending: Ending, sampler: WorldSampler, me: int) -> float:
    """:func:`_after_hand` for a hand played by the play-out engine."""
    ended, knocker, declarers, finals = ending
    if ended == "31":  # a 31's settlement reads no showdown (C8-C10)
        ranks: tuple[int, ...] = (0,) * len(finals)
    else:
        keys = sampler.showdown_keys
        held = []
        for cards in finals:
            mask = (1 << cards[0]) | (1 << cards[1]) | (1 << cards[2])
            key = keys.get(mask)
            if key is None:
                full = tiebreak_key([ALL_CARDS[i] for i in cards], sampler.rules)
                key = keys[mask] = (int(full[0] * 2), *(int(k) for k in full[1:]))
            held.append(key)
        order = sorted(set(held))
        ranks = tuple(order.index(key) for key in held)
    found = sampler.scores.get((me, ended, knocker, declarers, ranks))
    if found is None:
        found = sampler.scores[(me, ended, knocker, declarers, ranks)] = _score(
            sampler, me, ended, knocker, declarers, tuple((r,) for r in ranks)
        )
    return found


def _score(
    sampler: WorldSampler,
    me: int,
    ended: str,
    knocker: int,
    declarers: tuple[int, ...],
    keys: tuple[tuple[Fraction | int, ...], ...],
) -> float:
    """The chance of winning the game of the real seat ``me`` after a sampled hand that
    ``ended`` so (the knocker -1: none; the sampled game's seats), each seat's showdown key
    ``keys`` (:func:`~scatlab.rules.values.tiebreak_key`). A settlement reads only the keys'
    order (who is lowest, highest or tied: :func:`~scatlab.rules.scoring.settle`), and after a
    31 none of it, so the play-out engine passes each key's rank among the seats."""
    view = sampler.view
    rules = view.rules
    active = sampler.active
    by_seat = {seat: keys[j] for j, seat in enumerate(active)}
    settlement = settle(
        rules,
        ended,  # type: ignore[arg-type]
        players=active,
        keys=by_seat,
        knocker=None if knocker < 0 else active[knocker],
        declarers=tuple(active[j] for j in declarers),
    )
    lives, points, out = list(view.lives), list(view.points), list(view.out)
    if rules.score_keeping == "points":
        for seat, won in settlement.points.items():
            points[seat] += won
    else:
        floor = 0 if rules.county else 1
        after = {seat: lives[seat] - settlement.losses[seat] for seat in active}
        gone = [seat for seat in active if after[seat] < floor]
        if gone and len(gone) == len(active):  # V9, C14: every one would be out: they stay in
            after = {seat: max(a, floor) for seat, a in after.items()}
            gone = []
        for seat in active:
            lives[seat] = max(after[seat], 0)
        for seat in gone:
            out[seat] = True
    game = sampler.game_of(me)
    if rules.score_keeping == "points":
        chance = game.after({seat: points[seat] - view.points[seat] for seat in active})
    else:
        extra = 1 if rules.county else 0
        before = sampler.standing
        chance = game.after({seat: int(before[seat]) - (0 if out[seat] else lives[seat] + extra) for seat in active})
    return chance


def _rollout(world: GameState, move: RankedMove, policy: RolloutPolicy, sampler: WorldSampler, me: int) -> float:
    """One rollout by the rules engine: ``move`` played in the sampled ``world`` (a take
    followed by the throw the engine plans, else the policy's), then the hand to its end."""
    wme = sampler.seat_of[me]
    w = world.apply(move.action)
    collects = sampler.collects
    if move.action.kind is ActionKind.TAKE and w.phase is Phase.DISCARD and w.to_move == wme:
        assert w.taken is not None
        collects = tuple(c | {w.taken.suit} if j == wme else c for j, c in enumerate(collects))
        then = move.then if move.then is not None and move.then in w.hands[wme] and move.then != w.taken else None
        w = w.apply(Action.discard(then) if then is not None else policy.throw(w, wme, collects))
    return _after_hand(_play_out(w, policy, sampler.lives, collects), sampler, me)


def _lean_rollout(hand: Hand, move: RankedMove, policy: RolloutPolicy, sampler: WorldSampler, me: int) -> float:
    """:func:`_rollout` by the play-out engine (``hand`` is played on in place)."""
    code, card = action_code(move.action)
    ending = apply(hand, code, card, policy)
    if ending is None and code == TAKE:  # the throw the engine plans after the take, if it can
        then = -1 if move.then is None else move.then.index
        if then >= 0 and then != hand.taken and then in hand.hands[hand.to_move]:
            ending = apply(hand, DISCARD_ACTION, then, policy)
    if ending is None:
        ending = play_out(hand, policy, sampler.lives)
    return _after_ending(ending, sampler, me)


def _play_out(
    world: GameState,
    policy: RolloutPolicy,
    lives: Sequence[int],
    collects: Sequence[frozenset[Suit]],
    trace: list[tuple[int, Action]] | None = None,
) -> GameState:
    """``world`` played to the hand's end by ``policy`` for every seat (``trace``, when
    given, gets each seat and action played)."""
    suits = list(collects)
    for _ in range(MAX_ROLLOUT_ACTIONS):
        if world.phase not in _ACTIVE:
            return world
        action = policy.choose(world, lives, suits)
        if trace is not None:
            assert world.to_move is not None
            trace.append((world.to_move, action))
        if action.kind is ActionKind.TAKE:
            seat = world.to_move
            assert seat is not None
            suits[seat] = suits[seat] | {world.discards[-1].suit}
        world = world.apply(action)
    raise RuntimeError("a rollout did not end")  # pragma: no cover - C11 ends a hand of takers


def search(
    view: PlayerView,
    moves: Sequence[RankedMove],
    budget: int,
    rng: random.Random,
    seconds: float | None = None,
    progress: Callable[[int, int], None] | None = None,
    engine: str = "playout",
) -> SearchResult:
    """Play each of ``moves`` (the engine's first first) out in the same sampled deals, about
    ``budget`` rollouts in all (and within ``seconds`` when given), and compare their
    chances of winning the game after the hand (see the module doc). ``progress`` is
    called with (deals played, deals planned) after every deal. ``engine``: ``"playout"``
    plays the hands out in :mod:`scatlab.players.playout`, ``"rules"`` in the rules engine
    (:class:`~scatlab.rules.GameState`), the same deals and the same actions, some ten times
    slower (the tests compare the two)."""
    if engine not in ("playout", "rules"):
        raise PlayerError(f"engine={engine!r} is not allowed: use 'playout' or 'rules'")
    sampler = WorldSampler(view)
    policy = RolloutPolicy.of(view.rules)
    gen = np.random.default_rng(rng.getrandbits(64))
    rnd = random.Random(rng.getrandbits(64))
    me = view.player
    fast = engine == "playout" and sampler.plain  # else the rules engine plays the deals (a rare log)
    deals = planned_deals(budget, len(moves))
    start = time.perf_counter()
    scores: list[list[float]] = [[] for _ in moves]
    while len(scores[0]) < deals and sampler.tries < 4 * deals + 20:
        if seconds is not None and scores[0] and time.perf_counter() - start > seconds:
            break
        if not fast:
            world = sampler.sample(gen, rnd)
            if world is None:
                continue
            for m, out in zip(moves, scores):
                out.append(_rollout(world, m, policy, sampler, me))
        else:
            hand = sampler.sample_hand(gen, rnd)
            if hand is None:
                continue
            for m, out in zip(moves, scores):
                out.append(_lean_rollout(hand.copy(), m, policy, sampler, me))
        if progress is not None:
            progress(len(scores[0]), deals)
    n = len(scores[0])
    means = tuple(sum(s) / n if n else 0.0 for s in scores)
    found = SearchResult(tuple(moves), n, means, (), (), tuple(tuple(s) for s in scores))
    over_engine = [found.difference(i, 0) for i in range(len(moves))]  # each margin over the engine's move
    return dataclasses.replace(found, margins=tuple(m for m, _ in over_engine), errors=tuple(e for _, e in over_engine))


def planned_deals(budget: int, candidates: int) -> int:
    """The deals a search of ``candidates`` moves plays with ``budget`` rollouts (at least one).

    >>> planned_deals(600, 4), planned_deals(3, 4)
    (150, 1)
    """
    return max(1, budget // candidates)


# -- the player --------------------------------------------------------------------------------


def _said(move: RankedMove, top: Card | None, verb: bool) -> str:
    """A move's words (:mod:`scatlab.words`): as the reason's verb ("draws") or as the subject
    ("drawing is ..."); a 31 declared is never searched, and keeps its kind's name."""
    kind = move.action.kind
    words = DOES if verb else DOING
    if kind is ActionKind.DECLARE or kind.value not in words:
        return str(kind.value)
    card = top if kind is ActionKind.TAKE else move.action.card
    text = words[kind.value]
    return text.format(card) if card is not None else text.replace("the {}", "the discard")


def _doing(move: RankedMove, top: Card | None) -> str:
    """The move as a learner says it: ``drawing``, ``taking the QH``, ``throwing the 7C``."""
    return _said(move, top, verb=False)


def _does(move: RankedMove, top: Card | None) -> str:
    """The move as the reason's verb: ``draws``, ``takes the QH``, ``throws the 7C``."""
    return _said(move, top, verb=True)


def _levels(found: SearchResult, which: Sequence[int], top: Card | None) -> str:
    """What the play-outs gave ``which`` moves, as levels of the chance of winning the game
    (the hints' words, :func:`~scatlab.analysis.engine.scale.win_level`): ``"its chance of
    winning the game came to 52.0% if it takes the 2C, 50.0% if it draws"``."""
    said = ", ".join(f"{win_level(found.means[i])} if it {_does(found.moves[i], top)}" for i in which)
    return f"its chance of winning the game came to {said}"


class MasterPlayer(Player):
    """Searches from the engine (see the module doc).

    ``budget``: rollouts a decision (1 to 1,000,000); ``seconds``: an optional time limit
    a decision (more than 0, up to an hour); ``candidates``: how many of the engine's first
    moves are searched (2 to 6); ``confidence``: how many standard errors a move's margin
    over the engine's must exceed for the master to play it (0 to 10); ``knock_confidence``:
    the same where one of the two moves ends the hand and the other does not (0 to 10).

    >>> MasterPlayer(budget=0)
    Traceback (most recent call last):
    ...
    scatlab.errors.PlayerError: budget=0 is not allowed: use a whole number from 1 to 1,000,000
    """

    name = "master"

    def __init__(
        self,
        budget: int = DEFAULT_BUDGET,
        seconds: float | None = None,
        candidates: int = 4,
        confidence: float = 2.0,
        knock_confidence: float = 1.0,
    ) -> None:
        whole_number("budget", budget, 1, 1_000_000, error=PlayerError)
        if seconds is not None and real_number("seconds", seconds, 0, 3600, error=PlayerError) <= 0:
            raise PlayerError(f"seconds={seconds!r} is not allowed: use a number more than 0, up to 3600")
        whole_number("candidates", candidates, 2, 6, error=PlayerError)
        real_number("confidence", confidence, 0, 10, error=PlayerError)
        real_number("knock_confidence", knock_confidence, 0, 10, error=PlayerError)
        self.budget = budget
        self.seconds = None if seconds is None else float(seconds)
        self.candidates = candidates
        self.confidence = float(confidence)
        self.knock_confidence = float(knock_confidence)
        self.style: Style = EXPERT
        """The engine's settings it searches from (the ``expert``'s)."""
        self.last: SearchResult | None = None
        """The last decision's search (None: it played the engine's move without one)."""

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        self.last = None
        _, settled = settled_choice(view, "does not throw down blind: its cards are unknown (V11)")
        if settled is not None:
            return settled
        legal = view.legal_actions
        if len(legal) == 1:
            choice = decide(view, self.style)
            return Decision(choice.action, choice.reason)
        ranking = rank(view, self.style)
        moves = self.candidates_for(ranking)
        if len(moves) < 2:
            return Decision(ranking.best.action, ranking.reason)
        found = search(view, moves, self.budget, rng, self.seconds)
        self.last = found
        return self._choose(view, ranking, found)

    def candidates_for(self, ranking: Ranking) -> tuple[RankedMove, ...]:
        """The candidates: the engine's first moves, less those it rates far behind."""
        best = ranking.best
        if best.sure_31:
            return (best,)
        kept = [best]
        for m in ranking.moves[1 : self.candidates]:
            if m.sure_31:
                continue
            if not m.ends_hand and not best.ends_hand and m.value is not None and best.value is not None:
                if float(best.value - m.value) <= PRUNE_POINTS:
                    kept.append(m)
            elif float(best.win - m.win) <= PRUNE_WIN:
                kept.append(m)
        return tuple(kept)

    def threshold(self, found: SearchResult, i: int) -> float:
        """How many standard errors candidate ``i``'s margin over the engine's move must
        exceed: ``knock_confidence`` where exactly one of the two ends the hand (a knock
        against playing on), else ``confidence``."""
        if found.moves[i].ends_hand != found.moves[0].ends_hand:
            return self.knock_confidence
        return self.confidence

    def pick(self, found: SearchResult) -> int:
        """Which of a search's moves the master plays (an index of ``found.moves``): the one
        with the best margin over the engine's move among those whose margin exceeds
        :meth:`threshold` standard errors (strictly); else the engine's (0)."""
        pick = 0
        for i in range(1, len(found.moves)):
            margin = found.margins[i]
            if margin > self.threshold(found, i) * found.errors[i] and margin > found.margins[pick]:
                pick = i
        return pick

    def _choose(self, view: PlayerView, ranking: Ranking, found: SearchResult) -> Decision:
        top = view.top_discard if view.phase is Phase.TURN else None
        engine = found.moves[0]
        if found.deals == 0:
            return Decision(engine.action, f"{ranking.reason} (no deal consistent with what it saw could be sampled)")
        pick = self.pick(found)
        deals = f"played out {found.deals:,} deal{'s' if found.deals != 1 else ''} it could be in"
        if pick:
            move = found.moves[pick]
            return Decision(
                move.action,
                f"{_does(move, top)}: {deals}; {_levels(found, (pick, 0), top)}, give or "
                f"take {points(found.errors[pick])}",
            )
        best = max(range(1, len(found.moves)), key=lambda i: found.margins[i])
        err = found.errors[best]
        if math.isinf(err):
            told = f"{_doing(found.moves[best], top)} was not clearly better after one deal"
        else:
            told = f"{_levels(found, (0, best), top)}, give or take {points(err)}: not clearly better"
        return Decision(engine.action, f"{ranking.reason}; {deals}: {told}")

    # -- what an observer is told ------------------------------------------------------

    def inference(self, move: PublicMove) -> str | None:
        """What the master's way of playing lets an observer infer from ``move``: it plays
        the expert's move unless playing sampled deals out finds a clearly better one."""
        said = _EXPERT.inference(move)
        lead = "the master plays the expert's move unless playing out sampled deals finds a clearly better one"
        return f"{lead}; {said}" if said else lead
