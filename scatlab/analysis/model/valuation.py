"""How the engine values ending the hand: the knock model and its quick screen (layer 2).

The engine (:mod:`scatlab.analysis.engine.ranking`) values a knock, a hammer (V10) and a bus
stop (V19) by :meth:`KnockValuation.outcome`, on the chance of winning the game of
:mod:`~scatlab.analysis.model.winning`:

- **the outcomes**: each opponent's final value is distributed as given (67 chances, one
  per value in half points, e.g. by
  :func:`~scatlab.analysis.model.weights.final_value_distribution`), the opponents independent;
  from those the chance of every outcome of the knock under the rule set (C7, V7, V8, V9,
  V14, V16): who loses a life or a letter, who scores;
- **each outcome** is valued by what it leaves of the player's chance of winning the game
  (a ``Chances``: the game model of :class:`~scatlab.analysis.model.winning.GameModel`; without one, the lives
  share ``s_me / sum of s``
  over the players still in, ``s`` the lives left with the county as one, letters under V14,
  bus positions under V15, or ``exp(points / 4)`` under V16: :meth:`KnockValuation.p_win`);
- **the quick screen** (:meth:`KnockValuation.hopeless`): under the simple turn model a
  knock that leaves the player lowest with a chance over 30% (under V14 or V16: highest or
  tied with a chance under 30%); the opponent model's picture of a strong player's knocks
  (:func:`~scatlab.analysis.model.winning.knock_rule`) takes such a knock as never made. The
  engine itself values every knock.

>>> import numpy as np
>>> from scatlab.rules import GameState, deal_order
>>> s = GameState.new("classic", 2).deal(deal_order(["AH KH 4C", "2S 3S 9H"], up="QH"))
>>> sure20 = np.zeros(67); sure20[40] = 1.0      # the opponent surely ends on 20
>>> out = KnockValuation().outcome(s.view(0), [sure20], 2 * 26)
>>> out.own, round(out.gain, 3), out.phrase    # the opponent surely loses a life: P(win) from 4/8 to 4/7
(0.0, 0.071, 'about 0% to be lowest, 0% to tie lowest and 0% that someone makes 31')
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from ...checks import real_number
from ...errors import AnalysisError
from ...rules.options import RuleSet
from ...rules.view import PlayerView
from ..counting.knowledge import opponent_turns
from ..counting.store import cached
from ..counting.tables import BLITZ2, RANK_BITS, Tables, scoring_rules, tables_for
from ..counting.tables import SOURCE as TABLES_SOURCE

__all__ = [
    "KnockValuation",
    "KnockOutcome",
    "Chances",
    "Seats",
    "Standing",
    "TurnOdds",
    "turn_odds",
    "opponent_turns",
    "MAX_TURNS",
]

MAX_TURNS = 20
""":class:`!TurnOdds` holds the simple turn model up to this many turns (and one more)."""


class Chances(Protocol):
    """A model of the chance of winning the game (:class:`~scatlab.analysis.model.winning.GameModel`):
    ``now``, and ``after`` a hand that cost each seat in ``changes`` that many lives
    (under V16: gave it that many points)."""

    @property
    def now(self) -> float: ...
    def after(self, changes: Mapping[int, int]) -> float: ...


class Seats(Protocol):
    """The public facts a valuation reads: a :class:`~scatlab.rules.PlayerView` has them,
    and so does a :class:`Standing` (a position typed in, with no game around it)."""

    @property
    def rules(self) -> RuleSet: ...
    @property
    def player(self) -> int: ...
    @property
    def num_players(self) -> int: ...
    @property
    def opponents(self) -> tuple[int, ...]: ...
    @property
    def lives(self) -> tuple[int, ...]: ...
    @property
    def points(self) -> tuple[int, ...]: ...
    @property
    def out(self) -> tuple[bool, ...]: ...


@dataclass(frozen=True)
class Standing:
    """The standings of a game as the valuation reads them (:class:`Seats`): whose the
    decision is, the opponents in turn order after that player, and each seat's lives,
    points and whether it is out.

    >>> from scatlab.rules import find_rules
    >>> Standing.fresh(find_rules("classic"), opponents=2).lives     # just dealt: every life left
    (3, 3, 3)
    """

    rules: RuleSet
    player: int
    num_players: int
    opponents: tuple[int, ...]
    lives: tuple[int, ...]
    points: tuple[int, ...]
    out: tuple[bool, ...]

    @classmethod
    def from_view(cls, view: Seats) -> Standing:
        """The standings of ``view`` (a :class:`~scatlab.rules.PlayerView`)."""
        return cls(
            view.rules,
            view.player,
            view.num_players,
            tuple(view.opponents),
            tuple(view.lives),
            tuple(view.points),
            tuple(view.out),
        )

    @classmethod
    def fresh(cls, rules: RuleSet, opponents: int) -> Standing:
        """A game's first hand: player 0 against ``opponents`` opponents, every seat with
        all its lives (letters, bus positions) and no points."""
        n = opponents + 1
        return cls(rules, 0, n, tuple(range(1, n)), (rules.lives,) * n, (0,) * n, (False,) * n)


@dataclass(frozen=True)
class KnockOutcome:
    """What ending the hand now is expected to do (:meth:`KnockValuation.outcome`).

    ``own``: the expected lives (letters; under V16 the chance of not scoring the point)
    the player loses; ``p_one`` and ``p_two``: the chances of losing exactly one and exactly
    two (``own = p_one + 2 * p_two``); ``gain``: the expected change in the player's chance
    of winning the game (the standing model); ``phrase``: the odds in words."""

    own: float
    gain: float
    p_one: float
    p_two: float
    phrase: str


@dataclass(frozen=True)
class TurnOdds:
    """The simple turn model per scoring configuration: a dealt hand that draws a uniformly
    random card each turn and keeps the best three. ``gt[t, v2]``: the chance that it is
    worth more than ``v2 / 2`` after ``t`` turns; ``eq[t, v2]``: exactly ``v2 / 2``;
    ``blitz[t]``: 31 or more (31s stay)."""

    tables: Tables
    gt: npt.NDArray[Any]
    eq: npt.NDArray[Any]
    blitz: npt.NDArray[Any]


@lru_cache(maxsize=8)
def _turn_odds(scoring: RuleSet) -> TurnOdds:
    tables = tables_for(scoring)
    dist = cached(
        "turn-odds",
        (tables.key, MAX_TURNS),
        lambda: {"dist": _turn_distributions(tables)},
        sources=(__file__, TABLES_SOURCE),
    )["dist"]
    gt = 1.0 - np.cumsum(dist, axis=1)
    blitz = dist[:, BLITZ2:].sum(axis=1)
    return TurnOdds(tables, gt, dist, blitz)


def turn_odds(rules: RuleSet) -> TurnOdds:
    """The :class:`TurnOdds` of ``rules`` (cached per scoring configuration).

    >>> from scatlab.rules import find_rules
    >>> odds = turn_odds(find_rules("classic"))
    >>> round(float(odds.eq[0].sum()), 9), odds.gt.shape
    (1.0, (22, 67))
    """
    return _turn_odds(scoring_rules(rules))


def _turn_distributions(tables: Tables) -> npt.NDArray[Any]:
    """``dist[t, v2]``: the chance that a dealt hand, after t turns of drawing a uniformly
    random card and keeping the best three, is worth ``v2 / 2`` (31s stay)."""
    rows = tables.rows
    m = len(rows)
    nxt, valid = tables.draw_moves()
    blitz = tables.value2 >= BLITZ2
    nxt = np.where(blitz[:, None], np.arange(m)[:, None], nxt)
    others = tables.deck_size - 3
    p: npt.NDArray[Any] = np.full(m, 1.0 / m)
    out = np.zeros((MAX_TURNS + 2, 67))
    flat_next = nxt[valid]
    owner = np.broadcast_to(np.arange(m)[:, None], (m, 52))[valid]
    for t in range(MAX_TURNS + 2):
        out[t] = np.bincount(tables.value2, weights=p, minlength=67)[:67]
        p = np.bincount(flat_next, weights=p[owner] / others, minlength=m)
    return out


@dataclass(frozen=True)
class KnockValuation:
    """How the engine values ending the hand (see the module doc), from the public facts of
    a :class:`PlayerView` (its player, the rules, the standings, the opponents and their
    turns; never the hand). ``alpha``: the exponent of the lives share used without a game
    model (``p_win``).

    >>> KnockValuation(alpha=0)
    Traceback (most recent call last):
    ...
    scatlab.errors.AnalysisError: alpha=0 is not allowed: use a number more than 0, up to 10
    """

    alpha: float = 1.0

    def __post_init__(self) -> None:
        if real_number("alpha", self.alpha, 0, 10, error=AnalysisError) == 0:
            raise AnalysisError(f"alpha={self.alpha!r} is not allowed: use a number more than 0, up to 10")

    @staticmethod
    def hopeless(
        view: Seats, odds: TurnOdds, strength: int, extra_turn: bool, turns: Sequence[int] | None = None
    ) -> bool:
        """The quick screen before the full estimate: under the simple turn model (dealt
        hands improved by ``turns``, one per opponent, default the turns they have played
        now; one more with ``extra_turn``), a knock with ``strength`` (a table strength) is
        lowest with P > 0.3 (under V14 or V16: highest or tied with P < 0.3)."""
        v2 = strength >> RANK_BITS
        if v2 >= BLITZ2:
            return False
        lowest = at_most = 1.0
        for played in _turns(view) if turns is None else turns:
            t = min(played + (1 if extra_turn else 0), MAX_TURNS + 1)
            lowest *= float(odds.gt[t, v2])
            at_most *= 1.0 - float(odds.gt[t, v2])
        if view.rules.score_keeping in ("gin", "points"):
            return at_most < 0.3
        return lowest > 0.3

    # -- standing: a stated model of the chance of winning the game -----------------------

    @staticmethod
    def standing(view: Seats) -> list[float]:
        """Per seat: lives left (counting the county as one) or points; 0 when out."""
        rules = view.rules
        if rules.score_keeping == "points":
            return [float(p) for p in view.points]
        extra = 1 if rules.county else 0
        return [0.0 if view.out[s] else float(view.lives[s] + extra) for s in range(view.num_players)]

    def p_win(self, standing: Sequence[float], me: int, points: bool) -> float:
        """The standing model: P(win) is proportional to lives ** alpha (points: to
        exp(alpha * points / 4)) among the players still in."""
        if points:
            weights = [math.exp(self.alpha * p / 4) for p in standing]
        else:
            weights = [max(p, 0.0) ** self.alpha for p in standing]
        total = sum(weights)
        return weights[me] / total if total > 0 else 0.0

    def outcome(
        self, view: Seats, dists: Sequence[npt.NDArray[Any]], k: int, chances: Chances | None = None
    ) -> KnockOutcome:
        """The :class:`!KnockOutcome` of ending the hand now with a hand worth ``k / 2``, the
        opponents' final values distributed as ``dists`` (one per opponent of ``view``,
        assumed independent); its ``gain`` by ``chances`` (the game model of
        :mod:`~scatlab.analysis.model.winning`; None: the lives share :meth:`p_win`)."""
        rules = view.rules
        me = view.player
        seats = view.opponents
        points = rules.score_keeping == "points"
        base_standing = self.standing(view)
        base = self.p_win(base_standing, me, points) if chances is None else chances.now

        def du(changes: dict[int, int]) -> float:
            if chances is not None:
                return chances.after(changes) - base
            st = list(base_standing)
            for seat, x in changes.items():
                st[seat] = st[seat] + x if points else max(0.0, st[seat] - x)
            return self.p_win(st, me, points) - base

        p31 = [float(d[BLITZ2:].sum()) for d in dists]
        lt = [float(d[:k].sum()) for d in dists]
        eq = [float(d[k]) if k < BLITZ2 else 0.0 for d in dists]
        gt = [max(0.0, 1.0 - a - b - c) for a, b, c in zip(p31, lt, eq)]
        no31 = math.prod(1.0 - x for x in p31)
        some31 = 1.0 - no31
        all_above = math.prod(gt)
        all_at_least = math.prod(g + e for g, e in zip(gt, eq))
        all_at_most = math.prod(a + e for a, e in zip(lt, eq))
        all_below = math.prod(lt)
        tie = max(0.0, all_at_least - all_above)
        low, high = _lowest_highest(dists, p31, k)
        if rules.score_keeping == "gin":
            return _gin_outcome(me, seats, p31, some31, all_at_most, du)
        if points:
            return _points_outcome(me, seats, p31, some31, no31, all_below, high, du)
        return _lives_outcome(rules, me, seats, p31, eq, some31, no31, all_above, all_at_least, tie, low, du)


_Gain = Callable[[dict[int, int]], float]
"""The change in the chance of winning the game after a hand that cost each seat that many lives."""


def _gin_outcome(
    me: int, seats: Sequence[int], p31: list[float], some31: float, all_at_most: float, du: _Gain
) -> KnockOutcome:
    """The knock's outcome under V14: it stands (everyone else a letter) or the knocker gets one."""
    stand = all_at_most
    fail = max(0.0, 1.0 - stand - some31)
    gain = stand * du(dict.fromkeys(seats, 1)) + fail * du({me: 1})
    for i, (w, _) in enumerate(_blitzers(p31, some31)):
        gain += w * du({me: 1, **{s: 1 for j, s in enumerate(seats) if j != i}})
    own = fail + some31
    return KnockOutcome(own, gain, own, 0.0, f"about {stand:.0%} that the knock stands (everyone else a letter, V14)")


def _points_outcome(
    me: int,
    seats: Sequence[int],
    p31: list[float],
    some31: float,
    no31: float,
    all_below: float,
    high: list[float],
    du: _Gain,
) -> KnockOutcome:
    """The knock's outcome under V16: who scores the point."""
    win = all_below
    gain = win * du({me: 1})
    total_high = sum(high)
    rest = max(0.0, no31 - win)
    for i, s in enumerate(seats):
        if total_high > 0:
            gain += rest * high[i] / total_high * du({s: 1})
    for i, (w, _) in enumerate(_blitzers(p31, some31)):
        gain += w * du({seats[i]: 1})
    return KnockOutcome(1.0 - win, gain, 1.0 - win, 0.0, f"about {win:.0%} to score the point (V16)")


def _lives_outcome(
    rules: RuleSet,
    me: int,
    seats: Sequence[int],
    p31: list[float],
    eq: list[float],
    some31: float,
    no31: float,
    all_above: float,
    all_at_least: float,
    tie: float,
    low: list[float],
    du: _Gain,
) -> KnockOutcome:
    """The knock's outcome when lives are lost (C7, V7, V8, V9): who loses how many."""
    lose31 = 2 if rules.thirty_one_after_knock == "knocker_two" else 1
    tie_loss = {"classic": 0, "knocker_two": 2, "knocker_only": 1, "cadillac": 2}[rules.knocker_tie]
    kll = rules.knocker_lowest_loses
    gain = all_above * du({me: kll})
    if tie_loss:
        gain += tie * du({me: tie_loss})
    else:
        total_eq = sum(eq)
        for i, s in enumerate(seats):
            if total_eq > 0:
                gain += tie * eq[i] / total_eq * du({s: 1})
    rest = max(0.0, no31 - all_at_least)
    total_low = sum(low)
    for i, s in enumerate(seats):
        if total_low > 0:
            gain += rest * low[i] / total_low * du({s: 1})
    for i, (w, _) in enumerate(_blitzers(p31, some31)):
        gain += w * du({me: lose31, **{s: 1 for j, s in enumerate(seats) if j != i}})
    lost = {1: 0.0, 2: 0.0}
    for lives, p in ((lose31, some31), (kll, all_above), (tie_loss, tie)):
        if lives:
            lost[lives] += p
    own = lost[1] + 2 * lost[2]
    return KnockOutcome(
        own,
        gain,
        lost[1],
        lost[2],
        f"about {all_above:.0%} to be lowest, {tie:.0%} to tie lowest and {some31:.0%} that someone makes 31",
    )


def _lowest_highest(dists: Sequence[npt.NDArray[Any]], p31: list[float], k: int) -> tuple[list[float], list[float]]:
    """Per opponent ``i`` of ``dists``: the chance that it ends below the value ``k / 2`` (no
    31) and every other opponent above it (``low[i]``), and that it ends at ``k / 2`` or more
    and every other below it (``high[i]``).

    As arrays over the values, with the very operations, in the same order, of the plain
    double loop (per value the product over the other opponents, then the values' terms
    added one after another, as :func:`numpy.cumsum` does), so the figures are the same bit
    for bit (a test keeps the loop and compares them)."""
    n = len(dists)
    below = np.array([np.cumsum(d[:BLITZ2]) for d in dists], dtype=np.float64)  # below[i][v] = P(V_i <= v)
    above = np.maximum(0.0, 1.0 - below - np.array(p31, dtype=np.float64)[:, None])  # P(V_j > v), no 31
    before = np.zeros_like(below)  # P(V_j <= v - 1)
    before[:, 1:] = below[:, :-1]
    low: list[float] = []
    high: list[float] = []
    cut = min(k, BLITZ2)
    for i in range(n):
        d = np.asarray(dists[i][:BLITZ2], dtype=np.float64)
        others_above = np.ones(BLITZ2)
        others_below = np.ones(BLITZ2)
        for j in range(n):
            if j != i:
                others_above = others_above * above[j]
                others_below = others_below * before[j]
        lo = np.cumsum(d[:cut] * others_above[:cut])
        hi = np.cumsum(d[cut:] * others_below[cut:])
        low.append(float(lo[-1]) if len(lo) else 0.0)
        high.append(float(hi[-1]) if len(hi) else 0.0)
    return low, high


def _turns(view: Seats) -> list[int]:
    if not isinstance(view, PlayerView):
        raise AnalysisError("the opponents' turns played are needed: pass them, or give a PlayerView")
    return opponent_turns(view)


def _blitzers(p31: list[float], some31: float) -> list[tuple[float, int]]:
    total = sum(p31)
    return [(some31 * p / total if total > 0 else 0.0, i) for i, p in enumerate(p31)]
