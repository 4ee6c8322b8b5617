"""What an opponent probably holds: an opponent model that learns from the hand so far,
as weights of the hands it may hold.

The knock risk (:mod:`!scatlab.analysis.model.knock`), the advice and the ``expert`` player
weigh every 3-card hand an opponent may hold now. Its unknown cards are unseen cards (not in
your hand, not face up, not thrown, not known to be another's); the cards it took from the
pile and still holds are in every candidate hand; the opponents' hands are independent apart
from not sharing cards; a hand worth 31 has been declared (C8) and weighs nothing; the model
is never shown who holds what, nor told a kind the table did not announce. Under
``"uniform"`` (the simple case, for teaching) the unknown cards are a uniformly random set
of the unseen cards, as if just dealt. Under ``"adaptive"`` (the default) each opponent is
dealt at random and is, for the whole hand, one of two kinds of player: *casual*, the
``tip`` player (collects the suit worth most, takes a discard of it that raises the hand,
throws the lowest card outside it, knocks at 26 or more), or *strong*, the ``expert``
(values hands five turns ahead, takes a discard when the three it keeps with it are worth
more than drawing, does not feed the next player, and knocks by the expert's own rule read
from public facts, :func:`~scatlab.analysis.model.observations.with_knock_rules`, or with
``knock_rules=False`` by the expert's measured chances for the hand's value and the turns
played). Evidence multiplies each hand's weight by the chance of what was seen. With the
game's log (:meth:`Observations.from_view`: in play and in the review) every turn is
followed in order (not knocking where allowed, the card taken or passed over, the card
thrown; each kind slips against its way 2% of the time) by the filter of
:mod:`!scatlab.analysis.model.hand_filter`, and the kinds' odds, even in a game's first
hand, are learned from the hands shown at earlier showdowns (C7), one hand counting at most
:data:`~scatlab.analysis.model.kinds.KIND_EVIDENCE_CAP` (e**4) for a kind; an opponent the
table announced as a ``tip`` player is casual, as an ``expert`` or ``master`` strong
(:data:`~scatlab.analysis.model.kinds.ANNOUNCED_KINDS`). From typed-in observations (turns
played and cards rejected, without their order: the analyzer, ``scatlab analyze``) a prior
chain plays those turns of the stated policy
(:data:`~scatlab.analysis.model.kinds.ADAPTIVE_POLICY`: the casual kind knocks at 26 and
draws, the strong one knocks by :data:`~scatlab.analysis.model.kinds.STRONG_KNOCKS` and on
half of its turns takes a random face-up card that helps; a draw is any card not in the hand
nor face up; both keep the strongest three; a hand that knocked drops out), and each
rejected card that would have improved a hand multiplies its weight by 1/4 for a casual
player, by 1/8 for a strong one when just rejected and less for older rejections
(:class:`~scatlab.analysis.model.kinds.PlayerKind`). With nothing observed the adaptive
model is the uniform one. Weights for exact counting are integers (multiples of 2**-24 of
the largest, at least 1 when positive), so a count weighted by them is exact for those
weights.

>>> from scatlab.analysis import Knowledge, knock_risk
>>> k = Knowledge.of("AH KH QS", discard="2C")                # knocking 21 against one opponent
>>> uniform = knock_risk(k, opponent_model="uniform").p_lose
>>> knock_risk(k, observations=Observations.nothing(1)).p_lose == uniform     # nothing seen
True
>>> seen = Observations(turns=(3,), rejected=((),))            # it has played three turns
>>> uniform, round(float(knock_risk(k, observations=seen).p_lose), 3)
(Fraction(15397, 155664), 0.412)
"""

from __future__ import annotations

import math
from collections import OrderedDict

import numpy as np
import numpy.typing as npt

from ...errors import AnalysisError
from ..counting.knowledge import Knowledge
from ..counting.tables import tables_for
from .candidates import HandWeights, OpponentModelName, uniform_hand_weights
from .hand_filter import LOG_KINDS, LogFilter
from .kinds import MAX_TURNS, Chain, chain_for
from .last_turn import last_turn_of
from .observations import Observations

__all__ = ["hand_weights", "row_weights", "integer_weights", "final_value_distribution"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

SCALE_BITS = 24
"""Integer weights: multiples of 2**-SCALE_BITS of the largest weight."""


_WEIGHTS_CACHE: OrderedDict[tuple[object, ...], FloatArray] = OrderedDict()
_WEIGHTS_CACHE_SIZE = 16


def row_weights(knowledge: Knowledge, observations: Observations, opponent: int) -> FloatArray:
    """The adaptive weight (float, unnormalised) of every row of the tables as opponent
    ``opponent``'s hand; 0 for hands that cannot be theirs (a card seen elsewhere, or
    missing a card they are known to hold): each kind's prior after the turns played
    times its factors for the rejected cards (see the module doc), summed over the kinds.

    The array is read-only and remembered for the last few questions (a knock's figure asks
    for the same opponent's weights for its distribution and for its exact count)."""
    key = (knowledge.rules, knowledge.unseen_index, knowledge.holds_of(opponent), observations, opponent)
    found = _WEIGHTS_CACHE.get(key)
    if found is not None:
        try:
            _WEIGHTS_CACHE.move_to_end(key)
        except KeyError:  # dropped meanwhile by another thread: still the weights
            pass
        return found
    w = _row_weights(knowledge, observations, opponent)
    w.flags.writeable = False
    _WEIGHTS_CACHE[key] = w
    while len(_WEIGHTS_CACHE) > _WEIGHTS_CACHE_SIZE:
        try:
            _WEIGHTS_CACHE.popitem(last=False)
        except KeyError:
            break
    return w


def _row_weights(knowledge: Knowledge, observations: Observations, opponent: int) -> FloatArray:
    """:func:`row_weights`, worked out."""
    avail = 0
    for i in knowledge.unseen_index:
        avail |= 1 << i
    held = 0
    for c in knowledge.holds_of(opponent):
        held |= 1 << c.index
    avail |= held
    masks = tables_for(knowledge.rules).cards_mask
    ok = (masks & ~np.int64(avail)) == 0
    if held:
        ok &= (masks & np.int64(held)) == held
    if observations.log is not None:  # the filter; the chain only if no hand it allows is possible
        odds = observations.odds[opponent] if observations.odds is not None else None
        filt = LogFilter.of(
            knowledge.rules,
            observations.kinds or LOG_KINDS,
            heads_up=len(observations.turns) == 1,
            two_players=observations.players == 2,
        )
        w = np.where(ok, filt.weights(observations.log[opponent], odds), 0.0)
        if w.max() > 0:
            return w
    return np.where(ok, _chain_weights(chain_for(knowledge.rules), observations, opponent), 0.0)


def _chain_weights(chain: Chain, observations: Observations, opponent: int) -> FloatArray:
    """The prior chain's weights times the rejection factors, kinds summed (no log known)."""
    t = min(observations.turns[opponent], MAX_TURNS)
    by_age: dict[int, int] = {}  # age -> bit mask of the cards rejected that many turns ago
    for card, age in zip(observations.rejected[opponent], observations.ages_of(opponent)):
        by_age[age] = by_age.get(age, 0) | 1 << card.index
    hits = {age: np.bitwise_count(chain.improve_bits & np.int64(mask)) for age, mask in by_age.items()}
    w = np.zeros(len(chain.tables.rows))
    for k, kind in enumerate(chain.kinds):
        wk = chain.kind_priors[k, t]
        if hits and kind.decay == 1.0:  # every rejection counts the same: one power of the total count
            wk = wk * kind.lam ** sum(hits.values()).astype(np.float64)
        elif hits:  # the product of the factors, as the exponential of a sum of their logarithms
            wk = wk * np.exp(sum(h * math.log(kind.rejection_factor(age)) for age, h in hits.items()))
        w = w + wk
    return w


def hand_weights(
    knowledge: Knowledge, observations: Observations | None, opponent: int, model: OpponentModelName = "adaptive"
) -> HandWeights:
    """The candidate hands of opponent ``opponent`` with integer weights: all 1 under the
    uniform model (or with nothing observed), else the adaptive weights on the integer grid
    (see the module doc)."""
    uniform = uniform_hand_weights(knowledge, opponent)
    if model == "uniform" or observations is None or observations.empty:
        return uniform
    hands = uniform.hands
    tables = tables_for(knowledge.rules)
    w = row_weights(knowledge, observations, opponent)[tables.row_of[hands[:, 0], hands[:, 1], hands[:, 2]]]
    return HandWeights(hands, integer_weights(w), uniform.free_parts)


def integer_weights(w: FloatArray) -> IntArray:
    """Float weights on the integer grid: multiples of 2**-24 of the largest, at least 1
    when positive.

    >>> integer_weights(np.array([1.0, 0.5, 0.0, 1e-12])).tolist()
    [16777216, 8388608, 0, 1]
    """
    top = float(w.max()) if len(w) else 0.0
    if top <= 0:
        raise AnalysisError("no opponent hand is possible under the adaptive model with what was observed")
    scaled = np.rint(w / top * (1 << SCALE_BITS)).astype(np.int64)
    return np.where(w > 0, np.maximum(scaled, 1), 0)


def final_value_distribution(
    knowledge: Knowledge,
    observations: Observations,
    opponent: int,
    extra_turn: bool,
    model: OpponentModelName = "adaptive",
) -> FloatArray:
    """``dist[v2]``: the probability that opponent ``opponent``'s hand is worth ``v2 / 2``,
    now (``extra_turn`` False) or after one more turn of the last-turn policy (take the top
    discard if that makes a stronger hand, else draw and keep the strongest three). A fast
    approximation for the ``expert``: the drawn card is any card not on the discard pile
    and not in the opponent's hand (the knocker's own cards are not ruled out, so that
    anyone can work out the same figure from what the table shows:
    :func:`~scatlab.analysis.model.observations.with_knock_rules`).
    The first opponent sees the top discard; every later one sees the card the opponent
    before it threw, pictured as such a card too. Returns 67 floats summing to 1 (read-only,
    remembered for the last few questions: the ``expert``'s decision and a ranking of the
    same position, a hint or the review, ask for the same distributions)."""
    key = (
        knowledge.rules,
        knowledge.unseen_index,
        knowledge.holds_of(opponent),
        knowledge.dead,
        knowledge.top,
        observations if model != "uniform" else None,
        opponent,
        extra_turn,
        model,
    )
    found = _DIST_CACHE.get(key)
    if found is not None:
        try:
            _DIST_CACHE.move_to_end(key)
        except KeyError:  # dropped meanwhile by another thread: still the distribution
            pass
        return found
    dist = _final_value_distribution(knowledge, observations, opponent, extra_turn, model)
    dist.flags.writeable = False
    _DIST_CACHE[key] = dist
    while len(_DIST_CACHE) > _DIST_CACHE_SIZE:
        try:
            _DIST_CACHE.popitem(last=False)
        except KeyError:
            break
    return dist


_DIST_CACHE: OrderedDict[tuple[object, ...], FloatArray] = OrderedDict()
_DIST_CACHE_SIZE = 32


def _final_value_distribution(
    knowledge: Knowledge, observations: Observations, opponent: int, extra_turn: bool, model: OpponentModelName
) -> FloatArray:
    """:func:`final_value_distribution`, worked out."""
    tables = tables_for(knowledge.rules)
    obs = Observations.nothing(knowledge.opponents) if model == "uniform" else observations
    w = row_weights(knowledge, obs, opponent)
    if model == "uniform" or obs.empty:
        w = np.where(w > 0, 1.0, 0.0)
    total = w.sum()
    if total <= 0:
        raise AnalysisError("no opponent hand is possible under the adaptive model with what was observed")
    w = w / total
    if not extra_turn:
        return np.asarray(np.bincount(tables.value2, weights=w, minlength=67)[:67], dtype=np.float64)
    return last_turn_of(knowledge.rules, w, opponent, knowledge.dead, knowledge.top)
