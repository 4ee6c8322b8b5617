"""An opponent's candidate hands and the names of the opponent models (layer 2, light).

What the exact knock count needs under the uniform model, kept apart from the adaptive model
(:mod:`scatlab.analysis.model.weights`, its filters and valuation), so that an analysis with
``opponent_model="uniform"`` imports only this: every hand of three cards the opponent could
hold (its known cards first), each weighing 1.

>>> from scatlab.analysis import Knowledge
>>> k = Knowledge.of("AH KH 4C", discard="9S")
>>> w = uniform_hand_weights(k, 0)
>>> w.hands.shape, int(w.weights.sum())        # C(48, 3) hands, each weighing 1
((17296, 3), 17296)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, combinations
from typing import Literal

import numpy as np
import numpy.typing as npt

from ...errors import AnalysisError
from ..counting.knowledge import Knowledge

__all__ = [
    "OpponentModelName",
    "OPPONENT_MODELS",
    "check_model",
    "HandWeights",
    "uniform_hand_weights",
    "combinations_table",
]

OpponentModelName = Literal["uniform", "adaptive"]
OPPONENT_MODELS: tuple[str, ...] = ("uniform", "adaptive")

IntArray = npt.NDArray[np.int64]


def check_model(name: object) -> OpponentModelName:
    """``name`` if it is an opponent model's name, else an :class:`AnalysisError`.

    >>> check_model("adaptive")
    'adaptive'
    """
    if name == "uniform":
        return "uniform"
    if name == "adaptive":
        return "adaptive"
    raise AnalysisError(f"opponent_model={name!r} is not a model: use 'uniform' or 'adaptive'")


@dataclass(frozen=True)
class HandWeights:
    """Every candidate hand of one opponent (``hands``: card indices, shape (m, 3), the
    known cards first) and its integer weight."""

    hands: IntArray
    weights: IntArray
    free_parts: IntArray
    """For each hand, the positions in ``knowledge.unseen_index`` of its unknown cards."""


@lru_cache(maxsize=32)
def combinations_table(n: int, r: int) -> IntArray:
    """Every ``r``-subset of ``range(n)`` in lexicographic order, one per row (read-only,
    shared).

    >>> combinations_table(4, 2).tolist()
    [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    """
    count = math.comb(n, r)
    parts = np.fromiter(chain.from_iterable(combinations(range(n), r)), dtype=np.int64, count=count * r)
    parts = parts.reshape(count, r)
    parts.flags.writeable = False
    return parts


def uniform_hand_weights(knowledge: Knowledge, opponent: int) -> HandWeights:
    """The candidate hands of opponent ``opponent``: its known cards (``knowledge``'s
    ``opponent_holds``) and every choice of the rest from the unseen cards, each weighing 1
    (the uniform model)."""
    known = [c.index for c in knowledge.holds_of(opponent)]
    free = np.array(knowledge.unseen_index, dtype=np.int64)
    parts = combinations_table(len(free), 3 - len(known))  # one empty combination when all 3 are known
    m = len(parts)
    hands = np.concatenate([np.broadcast_to(np.array(known, dtype=np.int64), (m, len(known))), free[parts]], axis=1)
    return HandWeights(hands, np.ones(m, dtype=np.int64), parts)
