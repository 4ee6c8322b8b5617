"""The risk of knocking now: how likely the knocker is to lose one life, or two.

**Model.** The knocker keeps the hand (C6). Each opponent's unknown cards are a uniformly
random set of the unseen cards (cards known to be in an opponent's hand stay there), and
the stock holds the other unseen cards in uniformly random order. Every opponent, in turn
order, takes one last turn with this **policy**: take the top discard if keeping it makes a
stronger hand than the one held, otherwise draw from the stock; then discard the card that
leaves the strongest hand (on a tie, the drawn card goes back, else the lowest card; a 31
is declared at once and ends the hand, C8). Then the hands
are compared under the rule set's showdown rules (C7, V7, V8, V9; V14's letters; V16's
points, where "losing" means not scoring the point).

**Opponent models** (:mod:`scatlab.analysis.model.weights`). Under ``opponent_model="uniform"``
each opponent's unknown cards are uniformly random unseen cards, as if just dealt: it does
not exclude hands that hold 31 (those would have been declared), nor make opponents who
have been collecting a suit hold better hands, so late in a hand it underestimates the risk
(the calibration study in research/calibration measures by how much). Under
``"adaptive"`` (the default) each candidate hand is weighted by the chance of reaching it in
the turns that opponent has played and by what they were seen to take, throw or pass over
(``observations``: with the game's log, turn by turn, read by
:meth:`Observations.from_view`, where a strong opponent knocks by the expert's own rule at
each of its turns); the exact count is then a weighted count, and the Monte Carlo draws the
opponents' hands from those weights. With nothing observed the two models agree.

Against one opponent the risk is **exact**: every opponent hand and every stock card is
counted. Against more, it is a seeded Monte Carlo estimate whose standard error is reported
(10,000 deals by default, so at most 0.5 percentage points).

>>> from scatlab.analysis.counting.knowledge import Knowledge
>>> risk = knock_risk(Knowledge.of("AH KH QS", discard="2C"))
>>> risk.exact, risk.value, float(risk.p_lose_one + risk.p_lose_two) < 0.5
(True, Fraction(21, 1), True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ...checks import MAX_SAMPLES, SEED_RANGE, shown, whole_number
from ...errors import AnalysisError
from ...rules.options import RuleSet
from ...rules.scoring import settle
from ..counting.knowledge import Knowledge
from ..counting.store import cached
from ..counting.tables import BLITZ2, RANK_BITS, Tables, hand_index, pair_indices, scoring_rules, tables_for
from ..counting.tables import SOURCE as TABLES_SOURCE
from .candidates import HandWeights, OpponentModelName, check_model, uniform_hand_weights

if TYPE_CHECKING:  # the adaptive model is imported only when an analysis uses it
    from .observations import Observations

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

__all__ = ["KnockRisk", "knock_risk", "OPPONENT_POLICY", "knock_refusal"]

OPPONENT_POLICY = (
    "each opponent takes the top discard if keeping it makes a stronger hand, otherwise draws "
    "from the stock, then discards the card that leaves the strongest hand (on a tie: the drawn "
    "card back, else the lowest card); a 31 is declared at once"
)


@dataclass(frozen=True)
class KnockRisk:
    """The risk of knocking now with a hand worth ``value``.

    ``p_lose_one`` and ``p_lose_two``: the probabilities that the knocker loses exactly one
    or two lives (letters under V14; under V16, ``p_lose_one`` is the chance of not scoring
    the point). ``exact`` is False for a Monte Carlo estimate, which then has ``samples``
    and the ``std_error`` of each probability. ``allowed`` says whether the rules let this
    hand knock now, and ``refusal`` why not.
    """

    value: Fraction
    opponents: int
    p_lose_one: Fraction
    p_lose_two: Fraction
    exact: bool
    allowed: bool
    refusal: str | None = None
    samples: int | None = None
    std_error_one: float | None = None
    std_error_two: float | None = None
    policy: str = OPPONENT_POLICY
    model: OpponentModelName = "uniform"
    """The opponent model the risk was computed under (``"uniform"`` when nothing was observed)."""
    effective_samples: float | None = None
    """For the adaptive model's weighted deals (sequential importance sampling, two or more
    opponents): the effective sample size ``(sum w)^2 / sum w^2``, at most ``samples``."""

    @property
    def p_lose(self) -> Fraction:
        """The probability of losing anything."""
        return self.p_lose_one + self.p_lose_two

    @property
    def expected_loss(self) -> Fraction:
        """The expected number of lives lost by knocking now."""
        return self.p_lose_one + 2 * self.p_lose_two

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "value": str(self.value),
            "allowed": self.allowed,
            "opponents": self.opponents,
            "p_lose_one": _shown(self.p_lose_one, self.exact),
            "p_lose_two": _shown(self.p_lose_two, self.exact),
            "expected_loss": _shown(self.expected_loss, self.exact),
            "exact": self.exact,
            "opponent_model": self.model,
        }
        if self.refusal:
            data["refusal"] = self.refusal
        if not self.exact:
            data["samples"] = self.samples
            if self.effective_samples is not None:
                data["effective_samples"] = round(self.effective_samples, 1)
            data["std_error_one"] = self.std_error_one
            data["std_error_two"] = self.std_error_two
        return data


def _shown(p: Fraction, exact: bool) -> str:
    """Exact numbers as fractions (``"5/23"``); a Monte Carlo estimate as a decimal
    (``"0.0084"``), so that it never looks exact (both read back with Fraction)."""
    return str(p) if exact else f"{float(p):.4f}"


def knock_refusal(knowledge: Knowledge) -> str | None:
    """Why the rules forbid knocking with this hand now (V4, V5, V6), or None."""
    rules = knowledge.rules
    if len(knowledge.hand) != 3:
        return "C6: a knock is made at the start of a turn, instead of drawing"
    if knowledge.first_round and rules.no_knock_first_round:
        return "V6: no knocking in the first round"
    if rules.min_knock is not None and knowledge.value < rules.min_knock:
        return f"V4: a knock needs at least {rules.min_knock}"
    if rules.knock_needs_flush and len({c.suit for c in knowledge.hand}) != 1:
        return "V5: a knock needs three cards of one suit"
    return None


class _Outcomes:
    """Knocker's loss for a showdown, memoised on the strengths involved."""

    def __init__(self, rules: RuleSet, knocker: int) -> None:
        self.rules = rules
        self.knocker = knocker
        self.memo: dict[tuple[int, ...], int] = {}

    def loss(self, opponent_strengths: Sequence[int], blitzer: int | None) -> int:
        key = (*opponent_strengths, -1 if blitzer is None else blitzer)
        try:
            return self.memo[key]
        except KeyError:
            pass
        n = len(opponent_strengths)
        players = tuple(range(n + 1))
        keys: dict[int, tuple[Fraction | int, ...]] = {0: (self.knocker,)}
        for i, s in enumerate(opponent_strengths, start=1):
            keys[i] = (s,)
        if blitzer is not None:
            result = settle(self.rules, "31", players=players, keys=keys, knocker=0, declarers=(blitzer + 1,))
        else:
            result = settle(self.rules, "knock", players=players, keys=keys, knocker=0, declarers=())
        if self.rules.score_keeping == "points":
            lost = 0 if result.points[0] else 1
        else:
            lost = result.losses[0]
        self.memo[key] = lost
        return lost


def knock_risk(
    knowledge: Knowledge,
    *,
    samples: int = 10_000,
    seed: int = 0,
    opponent_model: OpponentModelName = "adaptive",
    observations: Observations | None = None,
) -> KnockRisk:
    """The risk of knocking now (see the module doc for the model and the policy).

    Exact against one opponent; against more, a Monte Carlo estimate over ``samples``
    deals drawn with ``random.Random(seed)`` (1 to :data:`~scatlab.checks.MAX_SAMPLES`).
    ``opponent_model`` says how the opponents' hands are weighted
    (:mod:`scatlab.analysis.model.weights`): ``"uniform"``, or ``"adaptive"`` with what was
    seen of them (``observations``; with none, the adaptive model is the uniform one).
    Bad arguments raise :class:`~scatlab.errors.AnalysisError`.
    """
    model = _checked_model(knowledge, samples, seed, opponent_model, observations)
    weighted = model == "adaptive" and observations is not None and not observations.empty
    tables = tables_for(knowledge.rules)
    refusal = knock_refusal(knowledge)
    strength = _knocker_strength(knowledge, tables)
    value = Fraction(strength >> RANK_BITS, 2)
    outcomes = _Outcomes(knowledge.rules, strength)
    used: OpponentModelName = "adaptive" if weighted else "uniform"
    policy = _policy(weighted, observations is not None and observations.log is not None)
    if knowledge.opponents == 1:
        one, two, total = (
            _heads_up(knowledge, strength, observations, model)
            if weighted
            else _heads_up(knowledge, strength, None, "uniform")
        )
        return KnockRisk(
            value,
            1,
            Fraction(one, total),
            Fraction(two, total),
            True,
            refusal is None,
            refusal,
            policy=policy,
            model=used,
        )
    p1, p2, se1, se2, ess = _estimate(knowledge, observations if weighted else None, tables, outcomes, samples, seed)
    return KnockRisk(
        value,
        knowledge.opponents,
        p1,
        p2,
        False,
        refusal is None,
        refusal,
        samples,
        se1,
        se2,
        policy=policy,
        model=used,
        effective_samples=ess,
    )


def _estimate(
    knowledge: Knowledge,
    observations: Observations | None,
    tables: Tables,
    outcomes: _Outcomes,
    samples: int,
    seed: int,
) -> tuple[Fraction, Fraction, float, float, float | None]:
    """Monte Carlo P(lose one), P(lose two), their standard errors, the effective sample size (weighted only)."""
    if observations is not None:
        q1, q2, se1, se2, ess = _monte_carlo_weighted(knowledge, observations, tables, outcomes, samples, seed)
        return Fraction(q1).limit_denominator(10**9), Fraction(q2).limit_denominator(10**9), se1, se2, ess
    one, two = _monte_carlo(knowledge, tables, outcomes, samples, seed)
    p1, p2 = Fraction(one, samples), Fraction(two, samples)
    return p1, p2, _std_error(p1, samples), _std_error(p2, samples), None


def _checked_model(
    knowledge: Knowledge,
    samples: int,
    seed: int,
    opponent_model: OpponentModelName,
    observations: Observations | None,
) -> OpponentModelName:
    """:func:`knock_risk`'s arguments checked, in its order; the opponent model they name."""
    if not isinstance(knowledge, Knowledge):
        raise AnalysisError(f"knock_risk needs a Knowledge (see Knowledge.of), not {shown(knowledge)}")
    whole_number("samples", samples, 1, MAX_SAMPLES, error=AnalysisError)
    whole_number("seed", seed, *SEED_RANGE, error=AnalysisError)
    if len(knowledge.hand) != 3:
        raise AnalysisError(
            f"knock risk is for a three-card hand at the start of a turn, not {len(knowledge.hand)} cards"
        )
    model = check_model(opponent_model)
    if observations is not None:
        from .observations import Observations

        if not isinstance(observations, Observations):
            raise AnalysisError(f"observations must be an Observations (or None), not {shown(observations)}")
    if observations is not None and len(observations.turns) != knowledge.opponents:
        raise AnalysisError(
            f"observations are for {len(observations.turns)} opponents, but the knowledge has {knowledge.opponents}"
        )
    return model


def _knocker_strength(knowledge: Knowledge, tables: Tables) -> int:
    """The table strength of the knocker's hand (an undeclared 31 as 30, C10)."""
    strength = tables.strength_of([c.index for c in knowledge.hand])
    if knowledge.undeclared_31:  # C10: a 31 not declared at once counts as 30 (same tie-break)
        strength = (60 << RANK_BITS) | (strength & ((1 << RANK_BITS) - 1))
    return strength


def _policy(weighted: bool, logged: bool) -> str:
    """The opponents' policy as stated: the last turn's, after the adaptive model's if it weighs them."""
    if not weighted:
        return OPPONENT_POLICY
    from .kinds import ADAPTIVE_POLICY, LOG_POLICY

    return (LOG_POLICY if logged else ADAPTIVE_POLICY) + "; last turn: " + OPPONENT_POLICY


@lru_cache(maxsize=128)
def _heads_up(
    knowledge: Knowledge, strength: int, observations: Observations | None, model: OpponentModelName
) -> tuple[int, int, int]:
    """:func:`_exact_one` for one opponent with the knocker's ``strength`` (as
    :func:`knock_risk` reads it), remembered for the last positions (the advice and the
    analysis of one position both count its knock). Counted by :func:`_exact_rows` where the
    rules' strengths are few enough for its tables (the same integers, several times faster),
    else by :func:`_exact_one`."""
    tables = tables_for(knowledge.rules)
    classes = _draw_classes(scoring_rules(knowledge.rules))
    adaptive = observations is not None and model == "adaptive" and not observations.empty
    if classes is None:
        weights = None
        if observations is not None:
            from .weights import hand_weights

            weights = hand_weights(knowledge, observations, 0, model)
        return _exact_one(knowledge, tables, _Outcomes(knowledge.rules, strength), weights)
    row_wt = None
    if adaptive:
        assert observations is not None
        from .weights import integer_weights, row_weights

        row_wt = integer_weights(row_weights(knowledge, observations, 0))
    return _exact_rows(knowledge, tables, classes, _loss_by_class(knowledge.rules, strength), row_wt)


def _std_error(p: Fraction, n: int) -> float:
    x = float(p)
    return math.sqrt(x * (1 - x) / n)


def _exact_one(
    knowledge: Knowledge, tables: Tables, outcomes: _Outcomes, weights: HandWeights | None = None
) -> tuple[int, int, int]:
    """Count (lose one, lose two, total) over every opponent hand and stock card, each hand
    counted ``weights`` times (once each without weights)."""
    free = np.array(knowledge.unseen_index, dtype=np.int64)
    candidates = weights if weights is not None else uniform_hand_weights(knowledge, 0)
    hands, parts = candidates.hands, candidates.free_parts
    r = parts.shape[1]
    m = len(parts)
    h0, h1, h2 = hands[:, 0], hands[:, 1], hands[:, 2]
    rows = tables.row_of[h0, h1, h2]
    current = tables.strength[rows].astype(np.int32)
    # (m, U): the strength kept after drawing each unseen card (throwing the best card): the
    # best of the hand and the three pairs with the card, read as whole rows of the pair
    # table cut to the unseen cards (strengths fit in int32: 66 << RANK_BITS)
    by_pair = tables.pair_rows[:, free].astype(np.int32)
    draws = np.maximum(by_pair[h0 * 52 + h1], by_pair[h0 * 52 + h2])
    np.maximum(draws, by_pair[h1 * 52 + h2], out=draws)
    np.maximum(draws, current[:, None], out=draws)
    valid = np.ones(draws.shape, dtype=bool)
    if r:
        valid[np.arange(m)[:, None], parts] = False  # a card in the opponent's hand is not in the stock
    per_draw = len(free) - r
    top = knowledge.top
    if top is not None:
        t = top.index
        take_best = np.maximum(
            np.maximum(tables.triple[h0, h1, t], tables.triple[h0, h2, t]), tables.triple[h1, h2, t]
        ).astype(np.int32)
        takes = take_best > current
    else:
        take_best = current
        takes = np.zeros(m, dtype=bool)
    wt = weights.weights if weights is not None else None
    # the knocker's loss for every strength a hand can end with, as a table indexed by strength
    ends = tables.distinct_strengths
    lose = np.zeros(int(ends[-1]) + 1, dtype=np.int8)
    lose[ends] = [outcomes.loss((w,), 0 if w >> RANK_BITS >= BLITZ2 else None) for w in ends.tolist()]
    if per_draw == 0:  # the stock is exhausted: an opponent takes or passes (C11)
        losses = lose[np.where(takes, take_best, current)]
        if wt is not None:
            return int(wt[losses == 1].sum()), int(wt[losses == 2].sum()), int(wt.sum())
        return int((losses == 1).sum()), int((losses == 2).sum()), m
    drawing = valid & ~takes[:, None]  # the (hand, stock card) cells that happen: a hand that takes never draws
    loss_draw = lose[draws]
    loss_take = lose[take_best]
    if wt is not None:  # per hand: the stock cards that lose (only if it draws), then weighted
        hand_one = np.where(takes, (loss_take == 1) * per_draw, ((loss_draw == 1) & drawing).sum(axis=1))
        hand_two = np.where(takes, (loss_take == 2) * per_draw, ((loss_draw == 2) & drawing).sum(axis=1))
        return int((wt * hand_one).sum()), int((wt * hand_two).sum()), int(wt.sum()) * per_draw
    one = int(((loss_draw == 1) & drawing).sum()) + int((loss_take[takes] == 1).sum()) * per_draw
    two = int(((loss_draw == 2) & drawing).sum()) + int((loss_take[takes] == 2).sum()) * per_draw
    return one, two, m * per_draw


_MAX_CLASSES = 64
""":func:`_exact_rows` is used where the rules' hands have at most this many strengths (30
under the classic rules; 377 with V17's rank tie-break: there :func:`_exact_one` counts)."""


@dataclass(frozen=True, eq=False)
class _DrawClasses:
    """Every hand's draws, grouped by the strength they keep, as bit masks of cards:
    ``below[j, row]``, the cards ``d`` (in the deck, not in the hand) whose draw leaves hand
    ``row`` (keeping the best three) with a strength below ``strengths[j]`` (``j`` up to
    ``len(strengths)``: every card that can be drawn)."""

    strengths: IntArray
    below: IntArray


@lru_cache(maxsize=8)
def _draw_classes(scoring: RuleSet) -> _DrawClasses | None:
    """The :class:`_DrawClasses` of the scoring rules ``scoring`` (5.5 MB and about 0.05 to
    0.1 s under the classic rules, kept on disk: :mod:`~scatlab.analysis.counting.store`), or
    None where the hands have more than :data:`_MAX_CLASSES` strengths."""
    tables = tables_for(scoring)
    ends = tables.distinct_strengths
    if len(ends) > _MAX_CLASSES:
        return None
    below = cached(
        "draw-classes", tables.key, lambda: {"below": _classes_below(tables)}, sources=(__file__, TABLES_SOURCE)
    )["below"]
    return _DrawClasses(ends, below)


def _classes_below(tables: Tables) -> IntArray:
    """:attr:`_DrawClasses.below` of ``tables``, built."""
    ends = tables.distinct_strengths
    m = len(tables.rows)
    after = tables.after_draw
    valid = after >= 0
    cls = np.searchsorted(ends, np.where(valid, after, ends[0]))
    # one mask per (class, row): a sum of distinct powers of two below 2**52, exact in a float
    bits = np.broadcast_to(np.ldexp(1.0, np.arange(52))[None, :], after.shape)
    key = cls * m + np.arange(m)[:, None]
    masks = np.bincount(key[valid], weights=bits[valid], minlength=len(ends) * m).astype(np.int64)
    below = np.zeros((len(ends) + 1, m), dtype=np.int64)
    below[1:] = np.bitwise_or.accumulate(masks.reshape(len(ends), m), axis=0)
    return below


@lru_cache(maxsize=256)
def _loss_by_class(rules: RuleSet, strength: int) -> npt.NDArray[np.int8]:
    """The lives a knocker of ``strength`` loses (:class:`_Outcomes`) against one opponent
    ending with each strength of :attr:`Tables.distinct_strengths`, in their order."""
    outcomes = _Outcomes(rules, strength)
    ends = tables_for(rules).distinct_strengths.tolist()
    return np.array([outcomes.loss((w,), 0 if w >> RANK_BITS >= BLITZ2 else None) for w in ends], dtype=np.int8)


def _exact_rows(
    knowledge: Knowledge, tables: Tables, classes: _DrawClasses, lose: npt.NDArray[np.int8], row_wt: IntArray | None
) -> tuple[int, int, int]:
    """:func:`_exact_one`'s count (lose one, lose two, total) by rows of the tables instead of
    by candidate hands: the opponent's possible hands are the rows whose cards are all
    unseen or known to be theirs (with every known card), each counted ``row_wt[row]``
    times (once each with None; :func:`~scatlab.analysis.model.weights.integer_weights` of
    the adaptive row weights, which are 0 elsewhere). A hand's stock draws that cost the
    knocker ``c`` lives are counted as the unseen cards in its masks of
    :class:`_DrawClasses` for the strengths ``lose`` gives ``c`` (``lose[j]``: the lives lost
    against ``classes.strengths[j]``), so no (hand, card) table is built. The same integers
    as :func:`_exact_one` (a test compares them)."""
    free = knowledge.unseen_index
    free_mask = 0
    for i in free:
        free_mask |= 1 << i
    held = 0
    known = knowledge.holds_of(0)
    for c in known:
        held |= 1 << c.index
    if row_wt is None:
        masks = tables.cards_mask
        rows = np.flatnonzero(((masks & ~np.int64(free_mask | held)) == 0) & ((masks & np.int64(held)) == held))
        wt = None
    else:
        rows = np.flatnonzero(row_wt)
        wt = row_wt[rows]
    per_draw = len(free) - (3 - len(known))
    ends = classes.strengths
    current = tables.strength[rows]
    top = knowledge.top
    if top is not None:
        t = top.index
        cards = tables.rows[rows]
        h0, h1, h2 = cards[:, 0], cards[:, 1], cards[:, 2]
        take_best = np.maximum(np.maximum(tables.triple[h0, h1, t], tables.triple[h0, h2, t]), tables.triple[h1, h2, t])
        takes = take_best > current
    else:
        take_best = current
        takes = np.zeros(len(rows), dtype=bool)
    loss_take = lose[np.searchsorted(ends, take_best)]
    if per_draw == 0:  # the stock is exhausted: an opponent takes or passes (C11)
        losses = np.where(takes, loss_take, lose[np.searchsorted(ends, current)])
        if wt is not None:
            return int(wt[losses == 1].sum()), int(wt[losses == 2].sum()), int(wt.sum())
        return int((losses == 1).sum()), int((losses == 2).sum()), len(rows)
    counts = []
    for lives in (1, 2):
        drawn = np.zeros(len(rows), dtype=np.int64)
        for a, b in _runs(lose, lives):  # the draws keeping a strength of classes a to b - 1
            drawn |= classes.below[b][rows] & ~classes.below[a][rows]
        hand = np.where(takes, (loss_take == lives) * per_draw, np.bitwise_count(drawn & np.int64(free_mask)))
        counts.append(int((wt * hand).sum()) if wt is not None else int(hand.sum()))
    total = int(wt.sum()) * per_draw if wt is not None else len(rows) * per_draw
    return counts[0], counts[1], total


def _runs(lose: npt.NDArray[np.int8], lives: int) -> list[tuple[int, int]]:
    """The runs ``[a, b)`` of consecutive classes where ``lose`` is ``lives``."""
    hit = np.concatenate(([False], lose == lives, [False]))
    edges = np.flatnonzero(hit[1:] != hit[:-1])
    return [(int(a), int(b)) for a, b in zip(edges[::2], edges[1::2])]


def _play_out(
    hands: Sequence[Sequence[int]], stock: Sequence[int], top: int | None, tables: Tables, outcomes: _Outcomes
) -> int:
    """One deal of a knock: each opponent in turn order takes its one last turn under the
    stated policy (take the top discard if a kept three beats the hand, else draw the next
    of ``stock`` and keep the best three; with the stock gone and no take, pass: C11; a 31
    ends the hand: C8). Returns the lives the knocker loses (0, 1 or 2)."""
    triple = tables.triple_list
    row_of = tables.row_list
    best_row = tables.after_draw_row
    discard_row = tables.discard_row
    drawn = 0
    finals: list[int] = []
    blitzer: int | None = None
    for i, (a, b, c) in enumerate(hands):
        bc, ac, ab = pair_indices(a, b, c)
        best = triple[ab + c]
        thrown = -1
        if top is not None:
            for pair, out in ((ab, c), (ac, b), (bc, a)):
                s = triple[pair + top]
                if s > best:
                    best, thrown = s, out
        if thrown < 0 and drawn < len(stock):  # no improving take: draw the next stock card
            card = stock[drawn]
            drawn += 1
            row = row_of[ab + c]
            best, thrown = best_row(row)[card], discard_row(row)[card]
        finals.append(best)
        if thrown >= 0:
            top = thrown
        if best >> RANK_BITS >= BLITZ2:
            blitzer = i
            break
    return outcomes.loss(finals, blitzer)


def _play_out_all(
    hands: npt.NDArray[np.int64], stocks: npt.NDArray[np.int64], top: int | None, tables: Tables, outcomes: _Outcomes
) -> npt.NDArray[np.int64]:
    """:func:`_play_out` for many deals at once: ``hands[s]``, the opponents' hands of deal
    ``s`` in turn order (3 cards each), ``stocks[s]`` its stock cards in order. The last
    turns are played as arrays, opponent after opponent; each deal's loss is then read
    from the memoised showdown. Returns the lives lost per deal."""
    deals, n = hands.shape[0], hands.shape[1] // 3
    triple = tables.triple
    finals = np.full((deals, n), -1, dtype=np.int64)
    blitzer = np.full(deals, -1, dtype=np.int64)
    tops = np.full(deals, -1 if top is None else top, dtype=np.int64)
    drawn = np.zeros(deals, dtype=np.int64)
    playing = np.ones(deals, dtype=np.bool_)
    depth = stocks.shape[1]
    every = np.arange(deals)
    for i in range(n):
        a, b, c = hands[:, 3 * i], hands[:, 3 * i + 1], hands[:, 3 * i + 2]
        best = triple[a, b, c]
        thrown = np.full(deals, -1, dtype=np.int64)
        has_top = tops >= 0
        t = np.maximum(tops, 0)
        for keep1, keep2, out in ((a, b, c), (a, c, b), (b, c, a)):  # as _play_out: the first strict gain
            s = np.where(has_top, triple[keep1, keep2, t], -1)
            better = s > best
            best = np.where(better, s, best)
            thrown = np.where(better, out, thrown)
        draws = (thrown < 0) & (drawn < depth)  # no improving take: draw the next stock card
        if depth > 0:
            card = stocks[every, np.minimum(drawn, depth - 1)]
            row = tables.row_of[a, b, c]
            best = np.where(draws, tables.after_draw[row, card], best)
            thrown = np.where(draws, tables.discard[row, card], thrown)
        drawn += draws
        finals[:, i] = np.where(playing, best, -1)
        tops = np.where(playing & (thrown >= 0), thrown, tops)
        blitz = playing & ((best >> RANK_BITS) >= BLITZ2)
        blitzer[blitz] = i
        playing &= ~blitz
    losses = np.zeros(deals, dtype=np.int64)
    for s_, (row_, who) in enumerate(zip(finals.tolist(), blitzer.tolist())):
        losses[s_] = outcomes.loss(row_[: who + 1] if who >= 0 else row_, who if who >= 0 else None)
    return losses


def _monte_carlo(knowledge: Knowledge, tables: Tables, outcomes: _Outcomes, samples: int, seed: int) -> tuple[int, int]:
    """Monte Carlo under the uniform model: the opponents' unknown cards, then the stock,
    drawn together from the unseen cards."""
    rng = random.Random(seed)
    free = list(knowledge.unseen_index)
    n = knowledge.opponents
    holds = [[c.index for c in knowledge.holds_of(i)] for i in range(n)]
    missing = [3 - len(h) for h in holds]
    dealt = sum(missing)
    stock = min(n, len(free) - dealt)  # stock cards the opponents can draw (at least one)
    first_top = knowledge.top.index if knowledge.top is not None else None
    all_hands = np.zeros((samples, 3 * n), dtype=np.int64)
    stocks = np.zeros((samples, stock), dtype=np.int64)
    for d in range(samples):
        pick = rng.sample(free, dealt + stock)
        hand: list[int] = []
        pos = 0
        for i in range(n):
            hand += holds[i] + pick[pos : pos + missing[i]]
            pos += missing[i]
        all_hands[d] = hand
        stocks[d] = pick[dealt:]
    losses = _play_out_all(all_hands, stocks, first_top, tables, outcomes)
    return int((losses == 1).sum()), int((losses == 2).sum())


def _monte_carlo_weighted(
    knowledge: Knowledge, observations: Observations, tables: Tables, outcomes: _Outcomes, samples: int, seed: int
) -> tuple[float, float, float, float, float]:
    """Monte Carlo under the adaptive model by **sequential importance sampling**: the
    opponents' hands are dealt one after another, each from its weights restricted to the
    hands that share no card with those dealt before it, and every deal is weighted by the
    product of the restricted totals (``Z_i / total_i``), which makes the weighted deals
    follow the joint weight (the product of the weights over hands with no card in
    common) exactly, at a cost linear in the number of opponents (no deal is thrown away).
    ``Z_i`` is counted by inclusion-exclusion over the cards already dealt (per card and
    per pair of cards, sums of the weights built once). Then the stock from the remaining
    unseen cards, and the deal is played out.

    Returns P(lose one), P(lose two), their standard errors (the ratio estimator's, delta
    method) and the effective sample size ``(sum w)^2 / sum w^2``."""
    rng = np.random.default_rng(seed)
    n = knowledge.opponents
    rows = tables.rows
    used = np.full((samples, 3 * n), -1, dtype=np.int64)
    taken = np.zeros((samples, 52), dtype=np.bool_)
    log_weight = np.zeros(samples)
    alive = np.ones(samples, dtype=np.bool_)
    from .weights import row_weights

    for i in range(n):
        w = row_weights(knowledge, observations, i)
        total = float(w.sum())
        if not total > 0:
            raise AnalysisError("no opponent hand is possible under the adaptive model with what was observed")
        if i > 0:  # Z_i: the weight of the hands that share no card with the hands dealt before
            z = _free_weight(tables, w, total, used[:, : 3 * i])
            alive &= z > total * 1e-12
            log_weight += np.log(np.where(alive, z / total, 1.0))
        _deal_hand(rng, rows, w, i, used, taken, alive)
    weight = np.where(alive, np.exp(log_weight - log_weight[alive].max()) if alive.any() else 0.0, 0.0)
    free = np.array(knowledge.unseen_index, dtype=np.int64)
    unknown_total = sum(3 - len(knowledge.holds_of(i)) for i in range(n))
    stock = min(n, len(free) - unknown_total)
    first_top = knowledge.top.index if knowledge.top is not None else None
    losses = np.zeros(samples, dtype=np.int64)
    # the stock: for every deal at once, ``stock`` cards in random order from the unseen cards no hand holds
    keys = np.where(taken[:, free], np.inf, rng.random((samples, len(free))))
    stocks = free[np.argsort(keys, axis=1)[:, :stock]] if stock > 0 else np.zeros((samples, 0), dtype=np.int64)
    live = np.flatnonzero(alive)
    losses[live] = _play_out_all(used[live], stocks[live], first_top, tables, outcomes)
    return _weighted_chances(losses, weight)


def _free_weight(tables: Tables, w: FloatArray, total: float, u: IntArray) -> FloatArray:
    """For each deal, ``Z_i`` of :func:`_monte_carlo_weighted`: the weight (``w``, summing to
    ``total``) of the hands that share no card with the cards ``u[deal]`` dealt before, by
    inclusion-exclusion (per card, per pair and per three cards)."""
    rows, row_of = tables.rows, tables.row_of
    samples = u.shape[0]
    single = np.zeros(52)
    np.add.at(single, rows.ravel(), np.repeat(w, 3))
    pair = np.zeros((52, 52))
    for a, b in ((0, 1), (0, 2), (1, 2)):
        np.add.at(pair, (rows[:, a], rows[:, b]), w)
    pair = pair + pair.T
    z = total - single[u].sum(axis=1)
    if u.shape[1] >= 2:
        ia, ib = np.triu_indices(u.shape[1], 1)
        z += pair[u[:, ia], u[:, ib]].sum(axis=1)
    if u.shape[1] >= 3:
        ja, jb, jc = (np.array(x, dtype=np.int64) for x in zip(*combinations(range(u.shape[1]), 3)))
        cube = np.where(row_of >= 0, w[np.maximum(row_of, 0)], 0.0).ravel()  # w by (a, b, c)
        for lo in range(0, samples, 1024):  # in blocks, so the index arrays stay small
            hi = lo + 1024
            z[lo:hi] -= cube[hand_index(u[lo:hi, ja], u[lo:hi, jb], u[lo:hi, jc])].sum(axis=1)
    return np.asarray(np.maximum(z, 0.0), dtype=np.float64)


def _deal_hand(
    rng: np.random.Generator,
    rows: IntArray,
    w: FloatArray,
    i: int,
    used: IntArray,
    taken: npt.NDArray[np.bool_],
    alive: npt.NDArray[np.bool_],
) -> None:
    """Deal opponent ``i``'s hand in every live deal of :func:`_monte_carlo_weighted`: drawn
    from the weights ``w`` (one per row of ``rows``) until it shares no card with the hands
    dealt before (``taken``), written into ``used`` and ``taken``; a deal where no hand fits
    is no longer ``alive``."""
    m = len(rows)
    cum = np.cumsum(w)
    pending = np.flatnonzero(alive)
    for _ in range(10_000):  # each opponent's hand: drawn from its weights until it fits
        if len(pending) == 0:
            break
        r = np.minimum(np.searchsorted(cum, rng.random(len(pending)) * cum[-1], side="right"), m - 1)
        cards = rows[r]
        fits = ~(taken[pending[:, None], cards].any(axis=1))
        ok = pending[fits]
        used[ok, 3 * i : 3 * i + 3] = cards[fits]
        taken[ok[:, None], cards[fits]] = True
        pending = pending[~fits]
    alive[pending] = False  # (only a deal with no hand left that fits, whose weight is 0)


def _weighted_chances(losses: IntArray, weight: FloatArray) -> tuple[float, float, float, float, float]:
    """P(lose one), P(lose two), their standard errors and the effective sample size of the
    deals' ``losses`` weighted by ``weight`` (:func:`_monte_carlo_weighted`)."""
    total_w = float(weight.sum())
    if not total_w > 0:
        raise AnalysisError("no opponent hands are possible together under the adaptive model with what was observed")
    out: list[float] = []
    for k in (1, 2):
        x = (losses == k).astype(np.float64)
        p = float((weight * x).sum()) / total_w
        out.append(p)
        out.append(math.sqrt(float((weight**2 * (x - p) ** 2).sum())) / total_w)
    ess = total_w**2 / float((weight**2).sum())
    return out[0], out[2], out[1], out[3], ess
