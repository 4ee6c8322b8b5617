"""The chance of winning the game: the one scale the engine judges every move on (layer 2).

Every legal move of a position gets one figure, the player's chance of winning the game if
it makes that move (and plays on as the engine advises), and the engine advises the move
with the highest figure (:mod:`scatlab.analysis.engine.ranking`). The figure has two parts,
each a stated model whose numbers were measured on seeded games
(``research/winchance``) and are checked against play by
``benchmarks/bench_calibration.py``:

- **The game** (:class:`GameModel`). A hand costs lives (letters, bus steps; under V16 it
  gives points) in one of three ways: one player loses one life; one player loses two (a
  knocker strictly lowest, C7); or one player loses none and every other player one (a 31
  declared, C8; a GIN knock that stands, V14). Which player is drawn in proportion to a
  weight by the kind of player: the player being advised plays as the engine does (the
  ``expert``), each opponent is casual (``tip``-like) or strong (``expert``-like) as the
  table announced it, else in the odds the opponent model has learned from the hands shown
  so far (:mod:`~scatlab.analysis.model.weights`). From the standings, the chance that
  the player is the last one in (under V16: the first to the target) is then exact for that
  model (:func:`game_chance`, worked out over every standing the game can pass through, each
  hand by the numbers measured for the players still in at that hand; with more than
  :data:`EXACT_SEATS` players still in, the lives share weighted by the kinds).
- **This hand** (:class:`HandModel`). Playing on, the chance that this hand costs the player
  a life, and the chance that it costs every other player one (a sweep: its 31; under V14
  its knock that stands), are logistic functions of the hand it keeps after its turn: of
  the hand's exact expected value five own turns ahead and of its value now (each
  piecewise linear), for the turns the opponents have played, of how likely they are to be
  strong players, and of whether the card thrown is of a suit the next player was seen to
  collect (:meth:`HandModel.loss`, :meth:`HandModel.sweep_chance`). On a last turn (someone
  knocked) the chance is a function of the value kept (:meth:`HandModel.last_turn_loss`).
  Ending the hand (a knock) is valued by the calibrated knock model instead
  (:meth:`!KnockValuation.outcome <scatlab.analysis.model.valuation.KnockValuation.outcome>`).

>>> from scatlab.rules import find_rules
>>> from scatlab.analysis.model.valuation import Standing
>>> seats = Standing.fresh(find_rules("classic"), opponents=1)
>>> g = GameModel.of(seats, strong=(1.0,))          # heads-up against a strong player
>>> round(g.now, 3)                                  # the same kind: an even game
0.5
>>> g.after({0: 1}) < g.now < g.after({1: 1})       # a life lost, or won from the opponent
True
"""

from __future__ import annotations

import json
import math
from array import array
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ...checks import shown
from ...errors import AnalysisError
from ...rules.options import PRESETS, RuleSet
from ...rules.view import PlayerView
from ..counting import horizon
from ..counting.horizon import horizon_table
from ..counting.store import cached
from ..counting.tables import BLITZ2, RANK_BITS, scoring_rules, tables_for
from ..counting.tables import SOURCE as TABLES_SOURCE
from .hand_filter import KnockRule
from .valuation import KnockValuation, Seats, Standing, turn_odds

__all__ = [
    "HandModel",
    "GameModel",
    "hand_model",
    "family_of",
    "game_chance",
    "loss_by_row",
    "draw_level_by_row",
    "last_turn_by_value",
    "knock_rule",
    "HORIZON",
    "EXACT_SEATS",
    "MODEL_FILE",
    "PLAY_ON_FEATURES",
    "LAST_TURN_FEATURES",
    "play_on_features",
    "last_turn_features",
]

HORIZON = 5
"""Own turns ahead the hand model reads a kept hand's expected value at."""
EXACT_SEATS = 4
"""Up to this many players still in, :func:`game_chance` is worked out exactly for the game
model; with more, it is the lives share weighted by the players' kinds."""
MODEL_FILE = "winning.json"
"""The measured numbers of the models, beside this module (written by
``research/winchance/fit.py``)."""
E_KNOTS: tuple[float, ...] = tuple(float(x) for x in range(15, 32))
"""Where the hand model's function of the expected value five turns ahead may bend."""
V_KNOTS: tuple[float, ...] = (
    6.0,
    10.0,
    14.0,
    16.0,
    18.0,
    20.0,
    21.0,
    22.0,
    23.0,
    24.0,
    25.0,
    26.0,
    27.0,
    28.0,
    29.0,
    30.0,
    31.0,
)
"""Where its function of the value now may bend."""
T_BUCKETS: tuple[float, ...] = (0.0, 1.0, 2.0, 3.0, 4.0, 6.0)
"""The opponents' mean turns played from which each of its functions holds (the last from 6 on)."""
PLAY_ON_FEATURES: tuple[str, ...] = ("1", *(f"e<{k:g}" for k in E_KNOTS), *(f"v<{k:g}" for k in V_KNOTS), "s", "f")
"""The terms of :meth:`HandModel.loss`'s logistic function, one set of coefficients per
bucket of :data:`T_BUCKETS`: a constant; a piecewise-linear function of the kept hand's
expected value five turns ahead (``e<k`` is ``(min(E5, k) - 20) / 10``, one bend at each
of :data:`E_KNOTS`) and of its value now (``v<k``, :data:`V_KNOTS`), each made never to
rise (coefficients of 0 or less: a better hand never loses more often; for the sweep, never
to fall); ``s`` the opponents' mean chance of being strong; ``f`` 1 when the card thrown
feeds the next player."""
LAST_TURN_FEATURES: tuple[str, ...] = ("1", *(f"v<{k:g}" for k in V_KNOTS), "s")
"""The terms of :meth:`HandModel.last_turn_loss`'s logistic function (per bucket)."""

FloatArray = npt.NDArray[np.float64]
if TYPE_CHECKING:
    Floats = array[float]  # of doubles ("d"): per-row figures read one at a time


def bends(x: Any, knots: Sequence[float]) -> FloatArray:
    """The terms ``(min(x, k) - 20) / 10`` for every knot ``k``, one row per number of ``x``:
    with coefficients of one sign, a function that bends at the knots and never turns back.

    >>> bends([15.0, 40.0], (14.0, 16.0)).tolist()
    [[-0.6, -0.5], [-0.6, -0.4]]
    """
    xs = np.atleast_1d(np.asarray(x, dtype=np.float64))
    k = np.asarray(knots, dtype=np.float64)
    return np.asarray((np.minimum(xs[:, None], k[None, :]) - 20.0) / 10.0)


def bucket(turns: float) -> int:
    """The bucket of :data:`T_BUCKETS` of a mean number of turns played."""
    return max(i for i, low in enumerate(T_BUCKETS) if turns >= low) if turns >= 0 else 0


def play_on_features(e5: Any, value: Any, strong: Any, feeds: Any) -> FloatArray:
    """The terms of :data:`PLAY_ON_FEATURES`, one row per hand (numbers or arrays alike)."""
    he, hv = bends(e5, E_KNOTS), bends(value, V_KNOTS)
    n = len(he)
    return np.column_stack(
        [
            np.ones(n),
            he,
            hv,
            np.broadcast_to(np.asarray(strong, dtype=np.float64), (n,)),
            np.broadcast_to(np.asarray(feeds, dtype=np.float64), (n,)),
        ]
    )


def last_turn_features(value: Any, strong: Any) -> FloatArray:
    """The terms of :data:`LAST_TURN_FEATURES`, one row per hand."""
    hv = bends(value, V_KNOTS)
    return np.column_stack([np.ones(len(hv)), hv, np.broadcast_to(np.asarray(strong, dtype=np.float64), (len(hv),))])


def _logistic(z: Any) -> Any:
    return 1.0 / (1.0 + np.exp(-z))


@dataclass(frozen=True)
class HandModel:
    """This hand's part of the chance of winning, for one family of rules and number of
    opponents still in: per bucket of :data:`T_BUCKETS`, the logistic coefficients of
    :meth:`loss` (``play_on``, one per term of :data:`PLAY_ON_FEATURES`), of
    :meth:`sweep_chance` (``sweep``, the same terms; empty heads-up and under V16) and of
    :meth:`last_turn_loss` (``last_turn``, :data:`LAST_TURN_FEATURES`), and the game model's
    numbers (``rho``, the share of hands that cost every player but one; ``double``, the
    share of the others that cost their loser two; ``casual_loses`` and ``casual_wins``, how
    much more often a casual player than a strong one is the loser, or the one player who
    loses nothing, of a hand)."""

    family: str
    opponents: int
    play_on: tuple[tuple[float, ...], ...]
    last_turn: tuple[tuple[float, ...], ...]
    sweep: tuple[tuple[float, ...], ...]
    rho: float
    double: float
    casual_loses: float
    casual_wins: float

    def loss(self, e5: float, value: float, turns: float, strong: float, feeds: bool = False) -> float:
        """The chance that this hand costs the player a life (under V14 a letter, V15 a bus
        step; under V16: that it does not score the point) when it keeps a hand with expected
        value ``e5`` five own turns ahead and worth ``value`` now, plays on, and its opponents
        have played ``turns`` turns each and are strong players with the chance ``strong``;
        ``feeds``: the card it threw is of a suit the next player collects.

        >>> from scatlab.rules import find_rules
        >>> m = hand_model(find_rules("classic"), 2)
        >>> m.loss(28.0, 26.0, 2, 0.5) < m.loss(22.0, 15.0, 2, 0.5)
        True
        """
        x = play_on_features(e5, value, strong, float(feeds))
        return float(_logistic(x @ np.asarray(self.play_on[bucket(turns)]))[0])

    def loss_by_row(self, e5: FloatArray, value: FloatArray, turns: float, strong: float) -> FloatArray:
        """:meth:`loss` for every hand of the tables at once (``e5`` and ``value`` one per
        row), nothing fed; the logit of a fed card adds :meth:`feed_logit`."""
        x = play_on_features(e5, value, strong, 0.0)
        return np.asarray(_logistic(x @ np.asarray(self.play_on[bucket(turns)])), dtype=np.float64)

    def sweep_chance(self, e5: float, value: float, turns: float, strong: float) -> float:
        """The chance that this hand costs every other player a life and the player none (its
        31, C8; under V14 its knock that stands) when it keeps that hand and plays on (the
        terms of :meth:`loss`, nothing fed). 0 heads-up and under V16, where such a hand is
        counted as an opponent's loss (or the player's point)."""
        if not self.sweep:
            return 0.0
        x = play_on_features(e5, value, strong, 0.0)
        return float(_logistic(x @ np.asarray(self.sweep[bucket(turns)]))[0])

    def sweep_by_row(self, e5: FloatArray, value: FloatArray, turns: float, strong: float) -> FloatArray:
        """:meth:`sweep_chance` for every hand of the tables at once."""
        if not self.sweep:
            return np.zeros(len(e5))
        x = play_on_features(e5, value, strong, 0.0)
        return np.asarray(_logistic(x @ np.asarray(self.sweep[bucket(turns)])), dtype=np.float64)

    def feed_logit(self, turns: float = 0.0) -> float:
        """How much throwing a card of a suit the next player collects adds to the logit of :meth:`loss`."""
        return self.play_on[bucket(turns)][PLAY_ON_FEATURES.index("f")]

    def last_turn_loss(self, value: float, turns: float, strong: float) -> float:
        """The chance that a last turn (after a knock) ending on a hand worth ``value`` costs
        the player a life (a letter, a bus step; under V16: does not score), its opponents
        having played ``turns`` turns each, strong with the chance ``strong``."""
        x = last_turn_features(value, strong)
        return float(_logistic(x @ np.asarray(self.last_turn[bucket(turns)]))[0])

    def last_turn_by_value(self, turns: float, strong: float) -> FloatArray:
        """:meth:`last_turn_loss` for every value in half points (0 to 66)."""
        x = last_turn_features(np.arange(67) / 2.0, strong)
        return np.asarray(_logistic(x @ np.asarray(self.last_turn[bucket(turns)])), dtype=np.float64)


@lru_cache(maxsize=1)
def _fits() -> dict[str, Any]:
    text = resources.files(__package__).joinpath(MODEL_FILE).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def family_of(rules: RuleSet) -> str:
    """The preset whose measured numbers stand for ``rules``: the preset of that name, else
    the preset with the same way of keeping score and deck (classic, gin, ride-the-bus,
    french-canadian, eenendertigen).

    >>> from scatlab.rules import find_rules
    >>> family_of(find_rules("gin")), family_of(find_rules("classic").replace(hammer=True))
    ('gin', 'classic')
    """
    fits = _fits()["models"]
    if rules.name in PRESETS and any(k.startswith(rules.name + "/") for k in fits):
        return rules.name
    if rules.score_keeping == "gin":
        return "gin"
    if rules.score_keeping == "bus":
        return "ride-the-bus"
    if rules.score_keeping == "points":
        return "french-canadian"
    return "eenendertigen" if rules.deck_size == 32 else "classic"


def hand_model(rules: RuleSet, opponents: int) -> HandModel:
    """The :class:`HandModel` for ``rules`` against ``opponents`` opponents still in (the
    numbers measured with three stand for more)."""
    return _hand_model(family_of(rules), max(1, min(opponents, 3)))


@lru_cache(maxsize=64)
def _hand_model(family: str, opponents: int) -> HandModel:
    models = _fits()["models"]
    key = f"{family}/{opponents}"
    if key not in models:  # measured with fewer: the nearest
        options = [k for k in models if k.startswith(family + "/")] or [k for k in models if k.startswith("classic/")]
        key = min(options, key=lambda k: abs(int(k.split("/")[1]) - opponents))
    m = models[key]

    def table(name: str) -> tuple[tuple[float, ...], ...]:
        return tuple(tuple(float(c) for c in row) for row in m.get(name) or ())

    return HandModel(
        family,
        opponents,
        table("play_on"),
        table("last_turn"),
        table("sweep"),
        m["rho"],
        m["double"],
        m["casual_loses"],
        m["casual_wins"],
    )


# -- the game ------------------------------------------------------------------------------


def _counts(seats: Seats) -> tuple[int, ...]:
    """Per seat what is left to lose (lives with the county as one, letters, bus steps; 0:
    out) or, under V16, the points still to score."""
    rules = seats.rules
    if rules.score_keeping == "points":
        return tuple(max(1, rules.points_target - p) for p in seats.points)
    return tuple(int(x) for x in KnockValuation.standing(seats))


@dataclass(frozen=True)
class GameModel:
    """The chance of winning the game of one player at one moment (see the module doc):
    :attr:`now` from the standings, and :meth:`after` once this hand has cost (or, under V16,
    given) each seat what ``changes`` says. Build it with :meth:`of`."""

    rules: RuleSet
    player: int
    counts: tuple[int, ...]
    weights: tuple[tuple[float, float], ...]
    """Per seat (loser weight, winner weight) with the players in now; (0, 0) for a seat that is out."""
    model: HandModel
    now: float
    strong: tuple[float, ...] = ()
    """Per seat the chance it is a strong player (the player: 1, it plays as the engine does)."""

    @classmethod
    def of(cls, seats: Seats, strong: Sequence[float] | None = None) -> GameModel:
        """The game model of ``seats``'s player, its opponents (in the order of
        ``seats.opponents``) strong players with the chances ``strong`` (None: even odds)."""
        opponents = tuple(seats.opponents)
        ok = (
            isinstance(strong, (tuple, list))
            and len(strong) == len(opponents)
            and all(isinstance(s, (int, float)) and not isinstance(s, bool) and 0.0 <= s <= 1.0 for s in strong)
        )
        if strong is not None and not ok:
            raise AnalysisError(
                f"strong={shown(strong)} is not allowed: one chance from 0 to 1 for each of the "
                f"{len(opponents)} opponents"
            )
        chances = tuple(float(s) for s in strong) if strong is not None else (0.5,) * len(opponents)
        counts = _counts(seats)
        points = seats.rules.score_keeping == "points"
        alive = [s for s in range(seats.num_players) if counts[s] > 0 and not seats.out[s]]
        model = hand_model(seats.rules, max(1, len(alive) - 1))
        by_seat = {seats.player: 1.0, **dict(zip(opponents, chances))}
        # odds to 5%: one game model serves many moments
        strongs = tuple(round(by_seat.get(s, 0.5) * 20) / 20 for s in range(seats.num_players))
        counts = tuple(c if s in alive else 0 for s, c in enumerate(counts))
        w = tuple(_weight(st, model) if s in alive else (0.0, 0.0) for s, st in enumerate(strongs))
        now = game_chance(seats.rules, counts, strongs, seats.player, points)
        return cls(seats.rules, seats.player, counts, w, model, now, strongs)

    def after(self, changes: Mapping[int, int]) -> float:
        """The chance of winning once this hand has cost each seat in ``changes`` that many
        lives (letters, steps; under V16: given it that many points). Remembered per model (a
        knock's figure asks for the same few outcomes at every decision of a hand)."""
        key = tuple(sorted(changes.items()))
        memo: dict[tuple[tuple[int, int], ...], float] | None = self.__dict__.get("_after_memo")
        if memo is None:
            memo = {}
            object.__setattr__(self, "_after_memo", memo)
        found = memo.get(key)
        if found is None:
            found = memo[key] = self._after(changes)
        return found

    def _after(self, changes: Mapping[int, int]) -> float:
        """:meth:`after`, worked out."""
        points = self.rules.score_keeping == "points"
        counts = list(self.counts)
        for seat, x in changes.items():
            counts[seat] = max(0, counts[seat] - x)
        if not points and counts[self.player] == 0:
            return 0.0
        if points and counts[self.player] == 0:
            return 1.0
        return game_chance(self.rules, tuple(counts), self.strong, self.player, points)

    def play_on(self) -> tuple[float, float, float]:
        """``(lose, other, sweep)``: the chance of winning the game once this hand is over,
        when it cost the player (``lose``: one life or two, or another player's 31), when it
        cost one other player (``other``, averaged over who by the game model) and when it
        cost every other player but not the player (``sweep``: its 31, C8; under V14 its knock
        that stands). So playing on with the chances ``q`` of losing this hand and ``s`` of
        sweeping it is worth ``other + q * (lose - other) + s * (sweep - other)``. Under V16
        (points) ``lose`` is another player's point and ``other`` and ``sweep`` the player's."""
        me = self.player
        points = self.rules.score_keeping == "points"
        seats = [s for s, w in enumerate(self.weights) if w[0] > 0]
        others = [s for s in seats if s != me]
        if not others:
            return self.now, self.now, self.now
        lam = sum(self.weights[s][0] for s in seats)
        mu = sum(self.weights[s][1] for s in seats)
        m = self.model
        if points:  # one player scores the hand's point: the player or another
            wins = sum(self.weights[s][1] for s in others)
            lose = sum(self.weights[s][1] / wins * self.after({s: 1}) for s in others)
            mine = self.after({me: 1})
            return lose, mine, mine
        lose_parts: list[tuple[float, float]] = []
        other_parts: list[tuple[float, float]] = []
        for s in seats:
            p_single = (1 - m.rho) * self.weights[s][0] / lam
            one, two = self.after({s: 1}), self.after({s: 2})
            single = (1 - m.double) * one + m.double * two
            if s == me:
                lose_parts.append((p_single, single))
            else:
                other_parts.append((p_single, single))
                lose_parts.append((m.rho * self.weights[s][1] / mu, self.after({o: 1 for o in seats if o != s})))

        def mean(parts: list[tuple[float, float]]) -> float:
            total = sum(p for p, _ in parts)
            return sum(p * x for p, x in parts) / total if total > 0 else self.now

        return mean(lose_parts), mean(other_parts), self.after(dict.fromkeys(others, 1))


def _weight(strong: float, model: HandModel) -> tuple[float, float]:
    """(loser, winner) weight of a seat that is a strong player with the chance ``strong``,
    by the numbers of ``model``."""
    return strong + (1 - strong) * model.casual_loses, strong + (1 - strong) * model.casual_wins


def game_chance(
    rules: RuleSet, counts: tuple[int, ...], strong: tuple[float, ...], player: int, points: bool = False
) -> float:
    """The chance that ``player`` wins the game under the game model (module doc), each seat
    with ``counts`` left to lose (under V16 points to score; 0: out) and the chance
    ``strong`` that it is a strong player (the player advised: 1). Each hand is drawn by the
    numbers measured for the players still in at that hand (:func:`hand_model`), so a
    game that comes down to two players is played out by the heads-up numbers.

    >>> from scatlab.rules import find_rules
    >>> round(game_chance(find_rules("classic"), (4, 4), (1.0, 1.0), 0), 9)        # equals: even
    0.5
    >>> round(game_chance(find_rules("classic"), (4, 4, 4), (1.0, 0.0, 0.0), 0), 3)  # against two casual
    0.525
    """
    alive = tuple(s for s, c in enumerate(counts) if c > 0)
    if player not in alive:
        return 1.0 if points and counts[player] == 0 else 0.0
    if len(alive) == 1:
        return 1.0
    model = hand_model(rules, len(alive) - 1)
    sub_counts = tuple(counts[s] for s in alive)
    sub_weights = tuple(_weight(strong[s], model) for s in alive)
    me = alive.index(player)
    if points:
        return _race(sub_counts, tuple(w[1] for w in sub_weights), me)
    if len(alive) > EXACT_SEATS:
        shares = [c / w[0] for c, w in zip(sub_counts, sub_weights)]
        return shares[me] / sum(shares)
    return _chances_by_count(sub_counts, tuple(strong[s] for s in alive), model.family)[me]


@lru_cache(maxsize=4096)
def _race(counts: tuple[int, ...], weights: tuple[float, ...], me: int) -> float:
    """Under V16 each hand gives one seat a point, seat ``j`` with a chance in proportion to
    ``weights[j]``: the chance that seat ``me`` is the first to score its ``counts[me]``
    points, the others needing ``counts[j]`` (exact: the hand of its last point, with every
    other seat still short, summed by the multinomial counts)."""
    total = sum(weights)
    p = [w / total for w in weights]
    a = counts[me]
    # poly[T]: the sum over the others' points b_j < counts[j] with sum T of prod(p_j**b_j / b_j!)
    poly = np.array([1.0])
    for j, need in enumerate(counts):
        if j == me:
            continue
        b = np.arange(need)
        terms = np.exp(b * math.log(p[j]) - np.array([math.lgamma(x + 1) for x in b])) if p[j] > 0 else (b == 0) * 1.0
        poly = np.convolve(poly, terms)
    t = np.arange(len(poly))
    # times (a - 1 + T)! / (a - 1)!, and p_me**a
    logs = np.array([math.lgamma(a + x) - math.lgamma(a) for x in t]) + a * math.log(p[me])
    return float(np.sum(poly * np.exp(logs)))


@lru_cache(maxsize=200_000)
def _chances(
    counts: tuple[int, ...], weights: tuple[tuple[float, float], ...], rho: float, double: float, points: bool
) -> tuple[float, ...]:
    """Each seat's chance of winning from ``counts`` (all in), by the game model with one set
    of numbers (``weights``, ``rho``, ``double``) for every hand."""

    def sub(alive: list[int], new: list[int]) -> tuple[float, ...]:
        return _chances(tuple(new[s] for s in alive), tuple(weights[s] for s in alive), rho, double, points)

    return _expand(counts, weights, rho, double, points, sub)


@lru_cache(maxsize=200_000)
def _chances_by_count(counts: tuple[int, ...], strong: tuple[float, ...], family: str) -> tuple[float, ...]:
    """Each seat's chance of winning from ``counts`` (all in, lives kept), each hand drawn by
    the numbers of ``family``'s hand model for the players still in at that hand."""
    if len(counts) == 1:
        return (1.0,)
    model = _hand_model(family, max(1, min(len(counts) - 1, 3)))
    weights = tuple(_weight(st, model) for st in strong)

    def sub(alive: list[int], new: list[int]) -> tuple[float, ...]:
        return _chances_by_count(tuple(new[s] for s in alive), tuple(strong[s] for s in alive), family)

    return _expand(counts, weights, model.rho, model.double, False, sub)


def _expand(
    counts: tuple[int, ...],
    weights: tuple[tuple[float, float], ...],
    rho: float,
    double: float,
    points: bool,
    sub: Callable[[list[int], list[int]], tuple[float, ...]],
) -> tuple[float, ...]:
    """One hand of the game model from ``counts``: each outcome's chance times ``sub``'s
    chances from the standings it leaves (``sub(alive, new)``: the seats still in, indexes
    into ``new``)."""
    n = len(counts)
    if n == 1:
        return (1.0,)
    lam = sum(w[0] for w in weights)
    mu = sum(w[1] for w in weights)
    out = [0.0] * n

    def add(p: float, new: list[int]) -> None:
        if p <= 0:
            return
        if points:
            done = [s for s in range(n) if new[s] <= 0]
            if done:
                out[done[0]] += p
                return
            every = sub(list(range(n)), new)
            for s in range(n):
                out[s] += p * every[s]
            return
        alive = [s for s in range(n) if new[s] > 0]
        if len(alive) == 1:
            out[alive[0]] += p
            return
        if not alive:  # cannot happen: a hand always leaves someone in
            return
        chances = sub(alive, new)
        for i, s in enumerate(alive):
            out[s] += p * chances[i]

    for s in range(n):
        if points:
            new = list(counts)
            new[s] -= 1
            add(weights[s][1] / mu, new)
            continue
        p_single = (1 - rho) * weights[s][0] / lam
        new = list(counts)
        new[s] = max(0, new[s] - 1)
        add(p_single * (1 - double), new)
        new = list(counts)
        new[s] = max(0, new[s] - 2)
        add(p_single * double, new)
        new = [max(0, c - 1) if o != s else c for o, c in enumerate(counts)]
        add(rho * weights[s][1] / mu, new)
    return tuple(out)


# -- the hand model for every hand at once -------------------------------------------------


@lru_cache(maxsize=16)
def e5_by_row(scoring: RuleSet) -> FloatArray:
    """Per row of the tables: the hand's exact expected value :data:`HORIZON` own turns
    ahead, as a float (the hand model's feature)."""
    tables = tables_for(scoring)
    others = tables.deck_size - 3
    return np.asarray(horizon_table(tables, HORIZON), dtype=np.float64) / float(2 * others**HORIZON)


@lru_cache(maxsize=16)
def _row_terms(scoring: RuleSet) -> FloatArray:
    """Per row of the tables: the terms of :data:`PLAY_ON_FEATURES` but ``s`` and ``f``."""
    tables = tables_for(scoring)
    value = np.asarray(tables.value2, dtype=np.float64) / 2.0
    n = len(value)
    return np.ascontiguousarray(
        np.column_stack([np.ones(n), bends(e5_by_row(scoring), E_KNOTS), bends(value, V_KNOTS)])
    )


def _family(scoring: RuleSet, family: str | None) -> str:
    """The family whose numbers the per-row tables read: ``family`` when given, else the one
    of ``scoring`` itself. The scoring rules keep only what compares hands (their way of
    keeping score is gone), so a caller with the game's rules passes ``family_of(rules)``:
    without it gin, French-Canadian and the bus would read classic's numbers."""
    return family if family is not None else family_of(scoring)


@lru_cache(maxsize=256)
def _row_logits(
    scoring: RuleSet, opponents: int, turns_bucket: int, family: str
) -> tuple[FloatArray, FloatArray | None]:
    """Per row: the logits of :meth:`HandModel.loss` and :meth:`HandModel.sweep_chance` but their
    ``s`` and ``f`` terms (None: no sweep), by ``family``'s numbers."""
    hm = _hand_model(family, opponents)
    terms = _row_terms(scoring)
    k = terms.shape[1]
    plain = terms @ np.asarray(hm.play_on[turns_bucket][:k])
    sweep = terms @ np.asarray(hm.sweep[turns_bucket][:k]) if hm.sweep else None
    return plain, sweep


def loss_by_row(
    scoring: RuleSet, opponents: int, turns: float, strong: float, family: str | None = None
) -> tuple[Floats, Floats, Floats]:
    """Per row of the tables: :meth:`HandModel.loss` of keeping that hand, nothing fed, and
    with a card fed to the next player, and :meth:`HandModel.sweep_chance` (arrays of doubles
    from the standard library: read one at a time in pure-Python loops as fast as lists, at a
    quarter of a list's memory; a game meets hundreds of these), ``scoring`` the scoring rules
    (:func:`~scatlab.analysis.counting.tables.scoring_rules`), ``family`` the game's
    (:func:`family_of` its rules; None: the scoring rules' own); ``strong`` is read to 5%."""
    return _loss_by_row(
        scoring, max(1, min(opponents, 3)), bucket(turns), round(strong * 20) / 20, _family(scoring, family)
    )


@lru_cache(maxsize=512)
def _loss_by_row(
    scoring: RuleSet, opponents: int, turns_bucket: int, strong: float, family: str
) -> tuple[Floats, Floats, Floats]:
    hm = _hand_model(family, opponents)
    plain_logit, sweep_logit = _row_logits(scoring, opponents, turns_bucket, family)
    coef = hm.play_on[turns_bucket]
    s_term, f_term = coef[-2] * strong, coef[-1]
    plain = 1.0 / (1.0 + np.exp(-(plain_logit + s_term)))
    fed = 1.0 / (1.0 + np.exp(-(plain_logit + s_term + f_term)))
    if sweep_logit is None:
        sweep = np.zeros(len(plain))
    else:
        sweep = np.minimum(1.0 / (1.0 + np.exp(-(sweep_logit + hm.sweep[turns_bucket][-2] * strong))), 1.0 - plain)
    return _doubles(plain), _doubles(fed), _doubles(sweep)


def _doubles(values: FloatArray) -> Floats:
    """``values`` as an array of doubles of the standard library."""
    out = array("d")
    out.frombytes(np.ascontiguousarray(values, dtype=np.float64).tobytes())
    return out


@lru_cache(maxsize=512)
def last_turn_by_value(
    scoring: RuleSet, opponents: int, turns: float, strong: float, family: str | None = None
) -> list[float]:
    """Per value in half points: :meth:`HandModel.last_turn_loss` by ``family``'s numbers (as
    :func:`loss_by_row`), made never to rise with the value (a better hand never loses more
    often)."""
    q = _hand_model(_family(scoring, family), max(1, min(opponents, 3))).last_turn_by_value(turns, strong)
    return list(np.minimum.accumulate(q).tolist())


@lru_cache(maxsize=64)
def draw_level_by_row(
    scoring: RuleSet,
    opponents: int,
    turns: float,
    strong: float,
    lose: float,
    other: float,
    sweep: float,
    family: str | None = None,
) -> tuple[FloatArray, FloatArray]:
    """Per row of the tables: the chance of winning the game, and of losing this hand, of
    drawing one card (no top discard to take) and keeping the best three by the hand model,
    nothing fed, with ``lose``, ``other`` and ``sweep`` the chances of winning once the hand
    cost the player, one other player, or every other player (:meth:`GameModel.play_on`; a
    31 made sweeps); ``family`` as :func:`loss_by_row`'s. Kept on disk
    (:mod:`~scatlab.analysis.counting.store`): each :func:`~scatlab.analysis.knock_line` reads
    one, which takes some hundredths of a second to build."""
    family = _family(scoring, family)
    key = (tables_for(scoring).key, opponents, turns, strong, lose, other, sweep, family)
    stored = cached(
        "draw-level",
        key,
        lambda: dict(zip(("win", "loss"), _draw_level(scoring, opponents, turns, strong, lose, other, sweep, family))),
        sources=(__file__, _MODEL_PATH, horizon.__file__, TABLES_SOURCE),
    )
    return stored["win"], stored["loss"]


_MODEL_PATH = str(Path(__file__).with_name(MODEL_FILE))
"""The measured numbers' file: part of the name of the files that keep tables built from them."""


def _draw_level(
    scoring: RuleSet, opponents: int, turns: float, strong: float, lose: float, other: float, sweep: float, family: str
) -> tuple[FloatArray, FloatArray]:
    """:func:`draw_level_by_row`, built."""
    tables = tables_for(scoring)
    plain, _, swept = (np.asarray(x) for x in loss_by_row(scoring, opponents, turns, strong, family))
    blitz = tables.value2 >= BLITZ2
    level = np.where(blitz, sweep, other + plain * (lose - other) + swept * (sweep - other))
    loss = np.where(blitz, 0.0, plain)
    pairs, by_pair, valid, draws = _draw_options(scoring)
    # per row and card drawn: the best of keeping the three cards or each three with the card
    # (the first best in that order: the hand, then without its first, second, third card)
    levels = np.append(level, -np.inf)[by_pair]  # [pair, card]: the level of the pair and the card
    losses = np.append(loss, 0.0)[by_pair]
    best = np.repeat(level[:, None], 52, axis=1)
    best_loss = np.repeat(loss[:, None], 52, axis=1)
    for pair in pairs:
        there = levels[pair]
        better = there > best
        best = np.where(better, there, best)
        best_loss = np.where(better, losses[pair], best_loss)
    return (
        np.asarray(np.where(valid, best, 0.0).sum(axis=1) / draws),
        np.asarray(np.where(valid, best_loss, 0.0).sum(axis=1) / draws),
    )


@lru_cache(maxsize=8)
def _draw_options(
    scoring: RuleSet,
) -> tuple[tuple[npt.NDArray[np.int64], ...], npt.NDArray[np.int64], npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
    """For :func:`draw_level_by_row`: per row of the tables, its three pairs of cards (without
    its first, second, third card, as ``a * 52 + b``); per pair and card, the row of the three
    (the row count where they are not a hand of the deck); per row and card, whether the card
    can be drawn; and per row the cards that can be (at least 1)."""
    tables = tables_for(scoring)
    rows = tables.rows
    m = len(rows)
    by_pair = tables.row_of.reshape(52 * 52, 52).astype(np.int64)
    by_pair = np.where(by_pair >= 0, by_pair, m)
    pairs = tuple(rows[:, i] * 52 + rows[:, j] for i, j in ((1, 2), (0, 2), (0, 1)))
    valid = tables.discard >= 0
    return pairs, by_pair, valid, np.maximum(valid.sum(axis=1), 1)


def knock_rule(
    view: PlayerView | Standing,
    dists: Sequence[FloatArray],
    played: Sequence[int],
    valuation: KnockValuation | None = None,
) -> KnockRule:
    """The rule by which ``view``'s player would decide to knock at the start of a turn as
    the engine does, for every hand value at once, its opponents' final values distributed as
    ``dists`` (one array over the 67 half-point values each, as
    :func:`~scatlab.analysis.model.weights.final_value_distribution` gives) after ``played``
    turns each, their kinds unknown (even odds): per value, knock when knocking's chance of
    winning the game (:meth:`KnockValuation.outcome` by the :class:`GameModel`) is above
    drawing's, that is when drawing's chance of losing this hand (``risk`` per value kept,
    the hand model's average over the hands of that value, averaged over the draw) is above
    the value's ``threshold``. Only public facts of ``view`` are read (never its hand).

    >>> from scatlab.rules import GameState, deal_order
    >>> s = GameState.new("classic", 2).deal(deal_order(["AH KH 4C", "2S 3S 9H"], up="QH"))
    >>> sure20 = np.zeros(67); sure20[40] = 1.0      # the opponent surely ends on 20
    >>> rule = knock_rule(s.view(0), [sure20], [0])
    >>> bool(rule.threshold[2 * 26] < 0.1)     # a 26 beats a sure 20: knock unless drawing is nearly safe
    True
    >>> bool(rule.threshold[2 * 19] > 1)       # a 19 below a sure 20: never
    True
    """
    if not isinstance(view, (PlayerView, Standing)):
        raise AnalysisError(f"knock_rule needs a PlayerView or a Standing, not {shown(view)}")
    n = len(view.opponents)
    if not (
        isinstance(dists, (list, tuple))
        and len(dists) == n
        and all(
            isinstance(d, np.ndarray) and d.shape == (67,) and bool(np.isfinite(d).all()) and bool((d >= 0).all())
            for d in dists
        )
    ):
        raise AnalysisError(
            f"dists={shown(dists)} is not allowed: one array of 67 chances (one per hand value in "
            f"half points) for each of the {n} opponents"
        )
    if not (
        isinstance(played, (list, tuple))
        and len(played) == n
        and all(isinstance(t, int) and not isinstance(t, bool) and t >= 0 for t in played)
    ):
        raise AnalysisError(
            f"played={shown(played)} is not allowed: a whole number of turns of 0 or more for each of the {n} opponents"
        )
    valuation = valuation or KnockValuation()
    seats = Standing.from_view(view)
    game = GameModel.of(seats)
    lose, other, sweep = game.play_on()
    turns = round(sum(played) / n, 2) if n else 0.0
    scoring = scoring_rules(view.rules)
    tables = tables_for(scoring)
    plain, _, swept = (np.asarray(x) for x in loss_by_row(scoring, n, turns, 0.5, family_of(view.rules)))
    span = other - lose
    odds = turn_odds(view.rules)
    if span <= 0:
        return KnockRule.never()
    # each hand's chance of winning as an effective chance of losing: other - span * risk
    level = np.where(tables.value2 >= BLITZ2, sweep, other + plain * (lose - other) + swept * (sweep - other))
    effective = np.clip((other - level) / span, 0.0, 1.0)
    counts = np.bincount(tables.value2, minlength=67)[:67]
    sums = np.bincount(tables.value2, weights=effective, minlength=67)[:67]
    risk = np.where(counts > 0, sums / np.maximum(counts, 1), 0.0)
    threshold = []
    for v2 in range(67):
        if v2 >= BLITZ2 or valuation.hopeless(view, odds, v2 << RANK_BITS, True, list(played)):
            threshold.append(math.inf)
            continue
        knock = game.now + valuation.outcome(seats, list(dists), v2, game).gain
        threshold.append((other - knock) / span)
    return KnockRule(tuple(threshold), tuple(float(r) for r in risk))
