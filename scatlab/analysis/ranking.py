"""One ranking of the moves at a position: the advice, the table's hints and the review's
best move all read it, so they never disagree.

:func:`rank` lists every legal move of a position, best first, with its figures. **The
rule** (each part tested by name in ``tests/test_ranking.py``):

1. **A sure 31 first.** A move that makes a 31 that is declared at once with certainty
   (declaring it, C8/C9; taking a discard that makes 31; keeping a 31 with the discard) is
   ranked above everything: it costs the player nothing and every other player a life
   (a letter under V14, a point for the player under V16). Among several, the highest
   hand first (a Grand Cadillac, V13, before a 31).
2. **Ending the hand is weighed against playing on, in expected lives this hand.** A knock
   (C6), a hammer (V10) or stopping the bus (V19) is ranked first only when the lives it
   is expected to cost are **fewer than those of every way of playing on** (drawing and
   taking; at a bus stop, every discard); on a tie the player plays on. There is no fixed
   knock line: :func:`knock_line` derives the line the lessons teach from this comparison.
3. **Ways of playing on are weighed by expected hand value** :data:`HORIZON` (5) own turns
   ahead (the exact horizon tables of :mod:`scatlab.analysis.horizon`, the horizon the
   expert player plans with): drawing is worth the average over every unseen card of the
   best hand it can keep, taking the best hand the discard makes. On a last turn (someone
   knocked, the bus was stopped) and with the stock gone (C11) only the hand now counts.
   Ties keep the order draw, take, pass, then the discards in hand order.

**Why two scales.** Lives are what the game is scored in, so the one decision that ends
the hand is made in lives. But a hand that goes on is not scored yet: how to play on is a
question of building the strongest hand, which the hand-value horizon answers exactly and
far more finely than a one-step guess at lives would. The two scales are never added: a
cost is on the scale of the question it answers (:meth:`Ranking.cost`).

**The lives model** (exact fractions; the turn model the expert player screens its knocks
with). An opponent's hand is a dealt hand improved by as many turns as that opponent has
completed in this hand, each turn drawing a uniformly random card of the other
``deck - 3`` and keeping the best three (a 31 stays); hands after more than
:data:`TURN_CAP` (8) turns are taken as after 8. Opponents are independent. Knocking with
value ``v`` gives each opponent one more turn (a hammer or a stopped bus none), the next
player's with the card on the discard pile to take (taken when a kept three with it is
stronger than its hand, else a draw), then a showdown under the rule set's C7, V7, V8, V9,
V14 or V16 rule. Playing on is one more
draw (or the take), keeping the best three, then a showdown the player did not call
against opponents with two more turns, lost by being lowest (ties included) or to an
opponent's 31. The cards the player has seen (the discard pile, cards known in an
opponent's hand) are left out of the player's own draws but not used to picture the
opponents; V17's rank tie-break is not used.

>>> from scatlab.analysis.knowledge import Knowledge
>>> r = rank(Position.of(Knowledge.of("10H 8H JH", discard="AH", opponents=2)))
>>> [m.name for m in r.moves]          # taking the A-heart makes 31: first, never a knock
['take', 'draw', 'knock']
>>> r.best.sure_31, r.move(Action.KNOCK).lives > 0
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Literal

import numpy as np
import numpy.typing as npt

from ..cards import Card
from ..checks import shown
from ..errors import AnalysisError
from ..rules.actions import Action, ActionKind
from ..rules.options import RuleSet, find_rules
from ..rules.state import Phase
from ..rules.values import blitz_of
from ..rules.view import PlayerView
from .horizon import horizon_table
from .knowledge import Knowledge
from .store import cached
from .tables import BLITZ2, RANK_BITS, SOURCE as TABLES_SOURCE, Tables, scoring_rules, tables_for
from .knowledge import opponent_turns

__all__ = [
    "HORIZON",
    "TURN_CAP",
    "Scale",
    "Position",
    "RankedMove",
    "Ranking",
    "rank",
    "knock_line",
    "KnockLine",
    "lives_unit",
    "knock_loss",
    "knock_odds",
    "play_on_loss",
    "prepare",
]

HORIZON = 5
"""Own turns ahead a way of playing on is valued at: the expert player's horizon."""
TURN_CAP = 8
"""Opponent hands after more turns than this are modelled as after this many."""

Scale = Literal["value", "lives"]

_ONE = Fraction(1)
_ZERO = Fraction(0)
_ENDING = (ActionKind.KNOCK, ActionKind.HAMMER, ActionKind.STOP_BUS)
_ORDER = {ActionKind.DECLARE: 0, ActionKind.DRAW: 1, ActionKind.TAKE: 2, ActionKind.PASS: 3, ActionKind.DISCARD: 4,
          ActionKind.KNOCK: 5, ActionKind.HAMMER: 6, ActionKind.STOP_BUS: 7}


def lives_unit(rules: RuleSet) -> str:
    """The unit of the lives scale under ``rules``: lives, letters (V14) or points (V16).

    >>> lives_unit(find_rules("gin")), lives_unit(find_rules("classic"))
    ('letters', 'lives')
    """
    return {"gin": "letters", "points": "points"}.get(rules.score_keeping, "lives")


# -- the exact turn model ------------------------------------------------------------------


@dataclass(frozen=True)
class _Model:
    tables: Tables
    future: list[int]  # E_HORIZON per row, scaled by ``scale``
    scale: int  # 2 * others**HORIZON
    value2: list[int]  # value2 per row (horizon 0, scale 2)
    gt: list[list[int]]  # gt[t][v2]: paths whose value2 after t turns is > v2
    eq: list[list[int]]  # eq[t][v2]: paths whose value2 is == v2
    blitz: list[int]  # paths at 31 or more after t turns
    total: list[int]  # all paths after t turns: m * others**t
    paths: list[npt.NDArray[np.int64]]  # paths[t][row]: paths that hold the hand ``row`` after t turns


@lru_cache(maxsize=8)
def _model(scoring: RuleSet) -> _Model:
    tables = tables_for(scoring)
    future = [int(x) for x in horizon_table(tables, HORIZON)]
    others = tables.deck_size - 3
    stored = cached("turn-paths", tables.key, lambda: _paths(tables), sources=(__file__, TABLES_SOURCE))
    paths = [np.ascontiguousarray(p) for p in stored["paths"]]
    value2 = tables.value2
    gt: list[list[int]] = []
    eq: list[list[int]] = []
    blitz: list[int] = []
    total: list[int] = []
    for by_value in stored["counts"].tolist():
        above: list[int] = []
        running = 0
        for v in reversed(range(len(by_value))):
            above.append(running)
            running += by_value[v]
        above.reverse()
        gt.append(above)
        eq.append(by_value)
        blitz.append(sum(by_value[BLITZ2:]))
        total.append(running)
    return _Model(tables, future, 2 * others**HORIZON, [int(x) for x in value2], gt, eq, blitz, total, paths)


def _paths(tables: Tables) -> dict[str, npt.NDArray[np.int64]]:
    """``paths[t, row]``: the draw paths of t turns from a uniformly dealt hand that hold
    ``row`` (a hand of 31 stays), t = 0 to TURN_CAP; ``counts[t, v2]``: those paths by the
    value kept (all exact in int64: below m * 49**8 < 2**63)."""
    m = len(tables.rows)
    nxt, valid = tables.draw_moves()
    blitz_rows = tables.value2 >= BLITZ2
    nxt = np.where(blitz_rows[:, None], np.arange(m)[:, None], nxt)
    flat_next = nxt[valid]
    owner = np.broadcast_to(np.arange(m)[:, None], (m, 52))[valid]
    order = np.argsort(flat_next, kind="stable")  # the moves by the hand they reach, summed exactly in int64
    owner_by_next = owner[order]
    reached, starts = np.unique(flat_next[order], return_index=True)
    value2 = tables.value2
    size = max(int(value2.max()) + 1, BLITZ2 + 1)
    p = np.ones(m, dtype=np.int64)
    paths, counts = [], []
    for _ in range(TURN_CAP + 1):
        paths.append(p)
        by_value = np.zeros(size, dtype=np.int64)
        np.add.at(by_value, value2, p)  # 22,100 numbers: quick
        counts.append(by_value)
        nxt_p = np.zeros(m, dtype=np.int64)
        nxt_p[reached] = np.add.reduceat(p[owner_by_next], starts)
        p = nxt_p
    return {"paths": np.stack(paths), "counts": np.stack(counts)}


def _model_for(rules: RuleSet) -> _Model:
    return _model(scoring_rules(rules))


def prepare(rules: RuleSet | str) -> None:
    """Build the exact tables :func:`rank` uses for ``rules`` now (about a second, once
    per scoring configuration and process), so the first ranking answers at once."""
    _model_for(find_rules(rules))


def _probs(model: _Model, t: int, v2: int) -> tuple[Fraction, Fraction, Fraction]:
    """P(an opponent after t turns is above v2/2), P(equal), P(31 or more)."""
    t = min(t, TURN_CAP)
    n = model.total[t]
    eq = model.eq[t][v2] if v2 < len(model.eq[t]) else 0
    gt = model.gt[t][v2] if v2 < len(model.gt[t]) else 0
    return Fraction(gt, n), Fraction(eq, n), Fraction(model.blitz[t], n)


@lru_cache(maxsize=8)
def _draw_counts(scoring: RuleSet) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int16]]:
    """``(after2, above)``: ``after2[row, d]``, twice the value kept after drawing card ``d``
    into hand ``row`` (the best three); ``above[row, v]``: how many cards ``d`` that could be
    drawn (in the deck, not in the hand) leave a value of at least ``v / 2``."""
    tables = tables_for(scoring)

    def build() -> dict[str, npt.NDArray[np.int16]]:
        after2 = (tables.after_draw >> RANK_BITS).astype(np.int16)
        drawable = tables.discard >= 0
        m = len(tables.rows)
        rows = np.broadcast_to(np.arange(m)[:, None], after2.shape)
        counts = np.bincount(rows[drawable] * 68 + after2[drawable].astype(np.int64),
                             minlength=m * 68).reshape(m, 68).astype(np.int16)
        above = np.cumsum(counts[:, ::-1], axis=1, dtype=np.int16)[:, ::-1]  # above[:, v] = sum of counts[:, v:]
        return {"after2": after2, "above": np.ascontiguousarray(above)}

    stored = cached("draw-counts", tables.key, build, sources=(__file__, TABLES_SOURCE))
    return np.asarray(stored["after2"], dtype=np.int16), np.asarray(stored["above"], dtype=np.int16)


def _exact_dot(weights: npt.NDArray[np.int64], counts: npt.NDArray[np.int64]) -> int:
    """``sum(weights * counts)`` exactly: the weights (path counts, below 2**62) are split into
    31-bit halves so that no int64 product or sum overflows (counts are below 64, rows 22,100)."""
    high, low = weights >> 31, weights & ((1 << 31) - 1)
    return (int(np.dot(high, counts)) << 31) + int(np.dot(low, counts))


@lru_cache(maxsize=4096)
def _last_turn_probs(scoring: RuleSet, t: int, top: int, v2: int, seen: frozenset[int]) -> tuple[Fraction, Fraction, Fraction]:
    """P(above v2/2), P(equal), P(31 or more) for an opponent after ``t`` turns (capped)
    whose last turn may take the card ``top``: it takes it when a kept three with it is
    stronger than its hand, else draws one of the other cards (not ``top``, not in its
    hand) and keeps the best three, as in :data:`~scatlab.analysis.knock.OPPONENT_POLICY`.
    Its hand holds none of the cards ``seen`` elsewhere (nor ``top``)."""
    model = _model(scoring)
    tables = model.tables
    after2, above = _draw_counts(scoring)
    rows = tables.rows
    weights = model.paths[min(t, TURN_CAP)]
    strength = tables.strength
    a, b, c = rows[:, 0], rows[:, 1], rows[:, 2]
    take = np.maximum(np.maximum(tables.triple[a, b, top], tables.triple[a, c, top]), tables.triple[b, c, top])
    out = np.zeros(52, dtype=bool)
    out[list(seen | {top})] = True
    weights = np.where(out[a] | out[b] | out[c], 0, weights)  # a card seen elsewhere is in no hand
    own = strength >> RANK_BITS
    blitz_rows = own >= BLITZ2  # a 31 stays (it was declared)
    takes = (take > strength) & ~blitz_rows
    draws = ~takes & ~blitz_rows
    final_take = take >> RANK_BITS
    at_top = after2[:, top].astype(np.int64)  # the top card is not in the stock: leave it out
    v = min(v2 + 1, 67)
    gt_draw = above[:, v].astype(np.int64) - (at_top > v2)
    eq_draw = above[:, v2].astype(np.int64) - above[:, v] - (at_top == v2)
    b31_draw = above[:, BLITZ2].astype(np.int64) - (at_top >= BLITZ2)
    per = tables.deck_size - 4  # the cards such a hand may draw: not its own, not the top
    # Every row's outcomes counted over ``per`` equally likely draws (a take or a 31: all ``per`` alike).
    gt_n = np.where(draws, gt_draw, per * np.where(takes, final_take > v2, own > v2))
    eq_n = np.where(draws, eq_draw, per * np.where(takes, final_take == v2, own == v2))
    b31_n = np.where(draws, b31_draw, per * np.where(takes, final_take >= BLITZ2, True))
    total = int(weights.sum()) * per
    return (Fraction(_exact_dot(weights, gt_n), total), Fraction(_exact_dot(weights, eq_n), total),
            Fraction(_exact_dot(weights, b31_n), total))


def knock_odds(rules: RuleSet, turns: Sequence[int], value2: int, extra_turn: bool = True,
               top: int | None = None, seen: Sequence[int] = ()) -> tuple[Fraction, Fraction]:
    """P(lose exactly one), P(lose exactly two) (lives; letters under V14; under V16 the
    first is the chance of not scoring the point) for a showdown the player calls now with
    a hand worth ``value2 / 2``, against opponents who have completed ``turns`` turns each
    (see the module doc's model); ``extra_turn``: each opponent has one more turn first (a
    knock), or none (a hammer, a stopped bus); ``top``: the card on the discard pile (an
    index), which the next player may take on that turn; ``seen``: card indices the player
    knows are not in that player's hand (its own, the dead cards).

    >>> one, two = knock_odds(find_rules("classic"), [0], 62)   # a 31 can only lose to a 31
    >>> two, 0 < one < Fraction(1, 100)
    (Fraction(0, 1), True)
    """
    model = _model_for(rules)
    all_above = all_at_least = no31 = all_at_most = _ONE
    for i, played in enumerate(turns):
        if i == 0 and extra_turn and top is not None:  # the next player may take the top discard
            p_gt, p_eq, p31 = _last_turn_probs(scoring_rules(rules), min(played, TURN_CAP), top, value2,
                                               frozenset(seen))
        else:
            p_gt, p_eq, p31 = _probs(model, played + (1 if extra_turn else 0), value2)
        no31 *= _ONE - p31
        above = max(p_gt - p31, _ZERO)
        all_above *= above
        all_at_least *= above + p_eq
        all_at_most *= _ONE - p_gt
    some31 = _ONE - no31
    if rules.score_keeping == "gin":
        return _ONE - all_at_most * no31, _ZERO
    if rules.score_keeping == "points":
        return _ONE - all_at_most, _ZERO
    tie = all_at_least - all_above
    losses: dict[int, Fraction] = {1: _ZERO, 2: _ZERO}

    def add(lives: int, p: Fraction) -> None:
        if lives:
            losses[lives] += p

    add(2 if rules.thirty_one_after_knock == "knocker_two" else 1, some31)
    add(rules.knocker_lowest_loses, all_above)
    add({"classic": 0, "knocker_two": 2, "knocker_only": 1, "cadillac": 2}[rules.knocker_tie], tie)
    return losses[1], losses[2]


def knock_loss(rules: RuleSet, turns: Sequence[int], value2: int, extra_turn: bool = True,
               top: int | None = None, seen: Sequence[int] = ()) -> Fraction:
    """Expected lives (letters, points) lost by calling a showdown now with a hand worth
    ``value2 / 2``: ``P(lose one) + 2 P(lose two)`` of :func:`knock_odds`."""
    one, two = knock_odds(rules, turns, value2, extra_turn, top, seen)
    return one + 2 * two


class _Showdown:
    """P(losing) a showdown the player did not call, with a hand worth v2 / 2, against
    opponents with ``extra`` more turns: lowest (ties included) or an opponent's 31."""

    def __init__(self, model: _Model, turns: Sequence[int], extra: int) -> None:
        self.model, self.turns, self.extra = model, tuple(turns), extra
        self.memo: dict[int, Fraction] = {}

    def __call__(self, v2: int) -> Fraction:
        try:
            return self.memo[v2]
        except KeyError:
            pass
        if v2 >= BLITZ2:
            loss = _ZERO
        else:
            low = no31 = _ONE
            for t in self.turns:
                p_gt, p_eq, p31 = _probs(self.model, t + self.extra, v2)
                no31 *= _ONE - p31
                low *= max(p_gt + p_eq - p31, _ZERO)
            loss = (_ONE - no31) + no31 * low
        self.memo[v2] = loss
        return loss


def play_on_loss(rules: RuleSet, turns: Sequence[int], hand: Sequence[int], unseen: Sequence[int],
                 take: int | None = None) -> Fraction:
    """Expected lives lost by playing on from the 3-card ``hand`` (card indices): one more
    draw from ``unseen`` (keeping the best three), then a showdown against opponents with
    two more turns, lost by being lowest (ties included) or to an opponent's 31. With
    ``take`` (a card index) the move is taking that card instead (it may not be thrown
    back, C5); with no card to draw and none to take, the showdown comes with the hand as it is.

    >>> from scatlab.cards import parse_cards
    >>> hand = [c.index for c in parse_cards("10H 8H JH")]
    >>> play_on_loss(find_rules("classic"), [0, 0], hand, [], take=parse_cards("AH")[0].index)
    Fraction(0, 1)
    """
    model = _model_for(rules)
    showdown = _Showdown(model, turns, 2)
    tables = model.tables
    if take is not None:
        a, b, c = hand
        best = max(tables.triple_list[x * 2704 + y * 52 + take] for x, y in ((a, b), (a, c), (b, c)))
        return showdown(best >> RANK_BITS)
    row = tables.row(sorted(hand))
    if not unseen:
        return showdown(model.value2[row])
    after = tables.after_draw_row(row)
    return sum((showdown(after[card] >> RANK_BITS) for card in unseen), _ZERO) / len(unseen)


# -- the position ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """A decision to rank: what the player knows (:class:`Knowledge`), the kinds of move
    the rules allow now, how many turns each opponent has completed in this hand (the lives
    model pictures their hands from it) and whether this is a last turn (someone knocked or
    the bus was stopped: only the hand now counts). Build it with :meth:`from_view` from a
    game, or :meth:`of` from a :class:`Knowledge` (the analyzer's input)."""

    knowledge: Knowledge
    kinds: frozenset[ActionKind]
    opponent_turns: tuple[int, ...]
    final: bool = False

    @classmethod
    def from_view(cls, view: PlayerView) -> Position:
        """The position of ``view``'s player, who must be to move with a hand to weigh
        (a turn, a discard, or a 31 to declare); the legal moves are the engine's."""
        if not isinstance(view, PlayerView):
            raise AnalysisError(f"Position.from_view needs a PlayerView, not {shown(view)}")
        if view.to_move != view.player:
            raise AnalysisError(f"player {view.player} is not to move in this view (player {view.to_move} is)")
        if view.phase is Phase.THROW_DOWN:
            raise AnalysisError("the throw-down choice (V11) is made before looking at the cards: there is "
                                "nothing to rank")
        final = view.knocker is not None or (
            bool(view.history) and view.history[-1].player == view.player
            and view.history[-1].action.kind is ActionKind.STOP_BUS)
        k = Knowledge.from_view(view)
        return cls(k, frozenset(a.kind for a in view.legal_actions), tuple(opponent_turns(view)), final)

    @classmethod
    def of(cls, knowledge: Knowledge, *, opponent_turns: Sequence[int] | None = None, final: bool = False) -> Position:
        """The position of a :class:`Knowledge` (no game around it): with three cards the
        player may draw (while the stock has cards), take the discard (when there is one),
        pass (C11, the stock gone) and knock (when the rules allow it now,
        :func:`~scatlab.analysis.knock.knock_refusal`, and it is not a last turn); a hand of
        three worth 31 is declared (C8, C9; not one already passed, C10); with four cards it
        discards (not the card just taken, C5). ``opponent_turns``: turns each opponent has
        completed in this hand (default none, as just dealt)."""
        from .knock import knock_refusal

        if not isinstance(knowledge, Knowledge):
            raise AnalysisError(f"Position.of needs a Knowledge (see Knowledge.of), not {shown(knowledge)}")
        turns = tuple(opponent_turns) if opponent_turns is not None else (0,) * knowledge.opponents
        if len(turns) != knowledge.opponents or not all(type(t) is int and 0 <= t <= 999 for t in turns):
            raise AnalysisError(f"opponent_turns={shown(opponent_turns)} is not allowed: give one whole number "
                                f"0 to 999 for each of the {knowledge.opponents} opponents")
        if type(final) is not bool:
            raise AnalysisError(f"final={shown(final)} is not allowed: use True or False")
        k = knowledge
        kinds: set[ActionKind] = set()
        if len(k.hand) == 4:
            kinds.add(ActionKind.DISCARD)
        elif blitz_of(k.hand, k.rules) and not k.undeclared_31:
            kinds.add(ActionKind.DECLARE)
            if k.rules.declare == "manual":
                kinds.add(ActionKind.PASS)
        else:
            stock = k.stock_size is None or k.stock_size > 0
            if stock:
                kinds.add(ActionKind.DRAW)
            if k.top is not None:
                kinds.add(ActionKind.TAKE)
            if not stock:
                kinds.add(ActionKind.PASS)
            elif not final and knock_refusal(k) is None:
                kinds.add(ActionKind.KNOCK)
        return cls(k, frozenset(kinds), turns, final)


# -- the ranking -------------------------------------------------------------------------------


@dataclass(frozen=True)
class RankedMove:
    """One legal move with its figures: ``value``, the expected hand value :data:`HORIZON`
    turns ahead (the hand now on a last turn; None for a move that ends the hand),
    ``lives``, the expected lives lost this hand (computed where the position has a move
    that ends the hand, else None), ``sure_31`` (the move makes a 31 declared at once), and
    for a take the card ``then`` thrown (the best)."""

    action: Action
    value: Fraction | None
    lives: Fraction | None
    sure_31: bool = False
    then: Card | None = None
    p_one: Fraction | None = None
    """For a knock, a hammer or a bus stop: P(lose exactly one) (its ``lives`` is
    ``p_one + 2 * p_two``)."""
    p_two: Fraction | None = None
    taken: Card | None = None
    """For a take: the card taken from the pile."""

    @property
    def name(self) -> str:
        """``"draw"``, ``"take"``, ``"knock"``, ``"discard 8H"``, ... (the action's text)."""
        return str(self.action)

    @property
    def ends_hand(self) -> bool:
        """A knock, a hammer (V10) or a bus stop (V19): the player ends the hand by choice."""
        return self.action.kind in _ENDING

    def to_json(self) -> dict[str, object]:
        """The move and its exact figures as JSON-ready data (fractions as strings)."""
        data: dict[str, object] = {"move": self.name}
        if self.then is not None:
            data["then_throw"] = str(self.then)
        if self.value is not None:
            data["value"] = str(self.value)
        if self.lives is not None:
            data["expected_loss"] = str(self.lives)
        if self.sure_31:
            data["sure_31"] = True
        return data

    def label(self) -> str:
        """The move in words, with suit symbols: ``"take the A♥ (throw the 8♥)"``."""
        kind = self.action.kind
        if kind is ActionKind.TAKE:
            taken = f" the {self.taken.pretty}" if self.taken is not None else ""
            return f"take{taken}" + (f" (throw the {self.then.pretty})" if self.then is not None else "")
        if kind is ActionKind.DISCARD and self.action.card is not None:
            return f"throw the {self.action.card.pretty}"
        words = {ActionKind.HAMMER: "hammer (V10)", ActionKind.STOP_BUS: "stop the bus (V19)", ActionKind.PASS: "pass"}
        return words.get(kind, str(kind.value))


@dataclass(frozen=True)
class Ranking:
    """Every legal move of a :class:`Position`, best first (see the module doc's rule)."""

    position: Position
    moves: tuple[RankedMove, ...]
    horizon: int
    """Turns ahead the value figures look (:data:`HORIZON`, or 0 on a last turn / with the stock gone)."""
    unit: str
    """The unit of the lives figures: lives, letters (V14) or points (V16)."""

    @property
    def ahead(self) -> str:
        """When the value figures are counted, in words: ``"five turns ahead"`` or ``"now"``."""
        if self.horizon == 0:
            return "now"
        words = ("", "one", "two", "three", "four", "five", "six", "seven", "eight")
        return f"{words[self.horizon]} turn{'s' if self.horizon != 1 else ''} ahead"

    @property
    def best(self) -> RankedMove:
        return self.moves[0]

    @property
    def play_on_lives(self) -> Fraction | None:
        """The lives of playing on: the fewest of the moves that do not end the hand (None
        where no lives were computed)."""
        lives = [m.lives for m in self.moves if not m.ends_hand and m.lives is not None]
        return min(lives) if lives else None

    def to_json(self) -> dict[str, object]:
        """The ranking as JSON-ready data: the moves best first, the horizon of their values
        and the unit of their expected losses.

        >>> from scatlab.analysis.knowledge import Knowledge
        >>> rank(Position.of(Knowledge.of("10H 8H JH", "AH", opponents=2))).to_json()["moves"][0]
        {'move': 'take', 'then_throw': '8H', 'value': '31', 'expected_loss': '0', 'sure_31': True}
        """
        data: dict[str, object] = {"horizon": self.horizon, "unit": self.unit,
                                   "moves": [m.to_json() for m in self.moves]}
        on = self.play_on_lives
        if on is not None:
            data["play_on_expected_loss"] = str(on)
        return data

    def move(self, action: Action | str) -> RankedMove:
        """The ranked move of ``action`` (a take matches whatever it then throws)."""
        act = action if isinstance(action, Action) else Action.parse(action)
        for m in self.moves:
            if m.action == act:
                return m
        raise AnalysisError(f"{str(act)!r} is not a legal move here: legal are "
                            f"{', '.join(m.name for m in self.moves)}")

    def scale_of(self, action: Action | str) -> Scale:
        """The scale a choice between the best move and ``action`` is made on: lives when
        either ends the hand (a knock, a hammer, a bus stop), else hand value."""
        m = self.move(action)
        return "lives" if (m.ends_hand or self.best.ends_hand) else "value"

    def cost(self, action: Action | str) -> Fraction:
        """How much worse ``action`` is than the best move, never negative, on
        :meth:`scale_of`'s scale: on lives, the lives it costs beyond the best move (a move
        that ends the hand against playing on: beyond the best way of playing on); on hand
        value, the value it gives up."""
        m = self.move(action)
        best = self.best
        if m is best:
            return _ZERO
        if self.scale_of(action) == "lives":
            assert m.lives is not None
            if m.ends_hand and not best.ends_hand:
                on = self.play_on_lives
                base = best.lives if best.sure_31 or on is None else on
                assert base is not None
                return max(m.lives - base, _ZERO)
            assert best.lives is not None
            return max(m.lives - best.lives, _ZERO)
        assert m.value is not None and best.value is not None
        return max(best.value - m.value, _ZERO)


def rank(position: Position | PlayerView) -> Ranking:
    """Rank every legal move of ``position`` (a :class:`Position`, or a view whose player
    is to move), best first, by the module doc's rule. Exact: every figure is a Fraction.

    >>> from scatlab.rules import GameState, deal_order
    >>> s = GameState.new("classic", 2).deal(deal_order(["2S 3S 9D", "AH KH 4C"], up="QH"))
    >>> r = rank(s.view(1))                  # taking the Q-heart makes 31
    >>> r.best.name, r.best.then, r.best.value
    ('take', Card('4C'), Fraction(31, 1))
    """
    if isinstance(position, PlayerView):
        position = Position.from_view(position)
    if not isinstance(position, Position):
        raise AnalysisError(f"rank needs a Position or a PlayerView, not {shown(position)}")
    return _rank(position)


@lru_cache(maxsize=256)
def _rank(position: Position) -> Ranking:
    """:func:`rank`, remembered for the last positions (the hints and then the review of
    the same game rank the same positions)."""
    k = position.knowledge
    rules = k.rules
    model = _model_for(rules)
    tables = model.tables
    kinds = position.kinds
    final = position.final or (len(k.hand) == 3 and ActionKind.DRAW not in kinds and ActionKind.PASS in kinds)
    scores, scale = (model.value2, 2) if final else (model.future, model.scale)
    horizon = 0 if final else HORIZON
    triple = tables.triple_list
    row_list = tables.row_list
    moves: list[RankedMove] = []
    ending = any(kind in kinds for kind in _ENDING)
    turns = position.opponent_turns
    unseen = k.unseen_index

    if ActionKind.DECLARE in kinds:
        value = k.value
        moves.append(RankedMove(Action.DECLARE, value, _ZERO if ending else None, True))
        if ActionKind.PASS in kinds:  # C10: a 31 not declared at once counts 30
            moves.append(RankedMove(Action.PASS, Fraction(30), None))
    elif len(k.hand) == 4:
        idx = [c.index for c in k.hand]
        options: list[tuple[Card, list[int]]] = [
            (out, sorted(idx[:i] + idx[i + 1:])) for i, out in enumerate(k.hand) if out is not k.taken]
        for out, rest in options:
            row = tables.row(rest)
            sure = model.value2[row] >= BLITZ2
            value = Fraction(model.value2[row], 2) if final or sure else Fraction(model.future[row], model.scale)
            lives = play_on_loss(rules, turns, rest, unseen) if ending and not sure else (_ZERO if ending else None)
            moves.append(RankedMove(Action.discard(out), value, lives, sure))
        if ActionKind.STOP_BUS in kinds:  # V19: keep the best hand and show down with no more turns
            best_rest = max((rest for _, rest in options), key=lambda r: scores[tables.row(r)])
            v2 = model.value2[tables.row(best_rest)]
            one, two = knock_odds(rules, turns, v2, extra_turn=False)
            moves.append(RankedMove(Action.STOP_BUS, None, one + 2 * two, False, None, one, two))
    else:
        idx = sorted(c.index for c in k.hand)
        row = tables.row(idx)
        own2 = 60 if k.undeclared_31 else model.value2[row]  # C10: an undeclared 31 counts 30
        keep = (60 * scale // 2) if k.undeclared_31 else scores[row]
        a, b, c = idx
        if ActionKind.DRAW in kinds and unseen:
            ab, ac, bc = a * 2704 + b * 52, a * 2704 + c * 52, b * 2704 + c * 52
            total = 0
            sure_count = 0
            for d in unseen:
                top_score = keep
                made = 0
                for base in (ab, ac, bc):
                    r = row_list[base + d]
                    s = scores[r]
                    if s > top_score:
                        top_score = s
                    if model.value2[r] >= BLITZ2:
                        made = 1
                total += top_score
                sure_count += made
            lives = play_on_loss(rules, turns, idx, unseen) if ending else None
            moves.append(RankedMove(Action.DRAW, Fraction(total, len(unseen) * scale), lives,
                                    sure_count == len(unseen)))
        top = k.top
        if ActionKind.TAKE in kinds and top is not None:
            t = top.index
            best_take, thrown, best_v2 = -1, k.hand[0], 0
            for out in k.hand:
                rest = sorted([x.index for x in k.hand if x is not out] + [t])
                r = tables.row(rest)
                if scores[r] > best_take:
                    best_take, thrown, best_v2 = scores[r], out, model.value2[r]
            lives = play_on_loss(rules, turns, idx, unseen, take=t) if ending else None
            moves.append(RankedMove(Action.TAKE, Fraction(best_take, scale), lives, best_v2 >= BLITZ2, thrown,
                                    taken=top))
        if ActionKind.PASS in kinds:
            moves.append(RankedMove(Action.PASS, Fraction(own2, 2) if final else Fraction(keep, scale), None))
        for kind in (ActionKind.KNOCK, ActionKind.HAMMER):
            if kind in kinds:
                seen = [c.index for c in k.hand] + [c.index for c in k.dead]
                one, two = knock_odds(rules, turns, own2, kind is ActionKind.KNOCK, top.index if top else None, seen)
                moves.append(RankedMove(Action(kind), None, one + 2 * two, False, None, one, two))

    if not moves:
        raise AnalysisError("there is no move to rank in this position")
    return Ranking(position, _order(moves), horizon, lives_unit(rules))


def _order(moves: list[RankedMove]) -> tuple[RankedMove, ...]:
    def by_value(m: RankedMove) -> tuple[Fraction, int]:
        assert m.value is not None
        return (-m.value, _ORDER[m.action.kind])

    sure = sorted((m for m in moves if m.sure_31), key=by_value)
    playing = sorted((m for m in moves if not m.sure_31 and not m.ends_hand), key=by_value)
    ending = sorted((m for m in moves if m.ends_hand), key=lambda m: (m.lives, _ORDER[m.action.kind]))
    if not ending:
        return tuple(sure + playing)
    on_lives = [m.lives for m in sure + playing if m.lives is not None]
    on = min(on_lives) if on_lives else None
    first = [m for m in ending if on is None or (m.lives is not None and m.lives < on)]
    later = [m for m in ending if m not in first]
    return tuple(sure + first + playing + later)


# -- the knock line ----------------------------------------------------------------------------


@dataclass(frozen=True)
class KnockLine:
    """Per hand value, at the start of a turn: the expected lives a knock costs and the
    expected lives playing on costs (averaged over every hand of that value, each drawing
    from the other ``deck - 3`` cards), against ``opponents`` opponents who have each
    completed ``turns`` turns; ``line`` is the lowest value from which every higher value
    knocks for fewer lives than playing on (None if none)."""

    rules: RuleSet
    opponents: int
    turns: int
    rows: tuple[tuple[Fraction, Fraction, Fraction], ...]
    """(value, knock's expected lives, playing on's expected lives), by value."""
    line: Fraction | None


@lru_cache(maxsize=64)
def _knock_line(rules: RuleSet, opponents: int, turns: int) -> KnockLine:
    model = _model_for(rules)
    tables = model.tables
    played = (turns,) * opponents
    showdown = _Showdown(model, played, 2)
    after = tables.after_draw >> RANK_BITS  # (rows, 52) value2 kept after drawing each card
    valid = tables.discard >= 0
    value2 = tables.value2
    # For each hand value: how many (hand, drawn card) pairs end at each value.
    pairs: dict[int, dict[int, int]] = {}
    for v2 in np.unique(value2).tolist():
        in_value = value2 == v2
        ends, counts = np.unique(after[in_value][valid[in_value]], return_counts=True)
        pairs[int(v2)] = dict(zip((int(e) for e in ends), (int(n) for n in counts)))
    rows: list[tuple[Fraction, Fraction, Fraction]] = []
    for v2 in sorted(pairs):
        if v2 >= BLITZ2:
            continue
        hands = sum(pairs[v2].values())
        on = sum((n * showdown(end) for end, n in pairs[v2].items()), _ZERO) / hands
        knock = knock_loss(rules, played, v2)
        rows.append((Fraction(v2, 2), knock, on))
    line = None
    for value, knock, on in reversed(rows):
        if knock < on:
            line = value
        else:
            break
    return KnockLine(rules, opponents, turns, tuple(rows), line)


def knock_line(rules: RuleSet | str = "classic", opponents: int = 1, turns: int = 0) -> KnockLine:
    """The knock line derived from the ranking's comparison (see :class:`KnockLine`): from
    which hand value a knock costs fewer expected lives than playing on, against
    ``opponents`` (1 to 8) opponents who have each played ``turns`` (0 to 8) turns.

    >>> line = knock_line("classic", opponents=1, turns=0)
    >>> line.line
    Fraction(20, 1)
    """
    ruleset = find_rules(rules)
    if type(opponents) is not int or not 1 <= opponents <= 8:
        raise AnalysisError(f"opponents={shown(opponents)} is not allowed: use a whole number 1 to 8")
    if type(turns) is not int or not 0 <= turns <= TURN_CAP:
        raise AnalysisError(f"turns={shown(turns)} is not allowed: use a whole number 0 to {TURN_CAP}")
    return _knock_line(ruleset, opponents, turns)

