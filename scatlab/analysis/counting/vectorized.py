"""The adaptive opponent model's two hot loops, as numpy array operations (vectorized over
every hand, not a loop per hand in Python).

A tournament or a study asks the adaptive opponent model (:mod:`scatlab.analysis.model.hand_filter`,
:mod:`scatlab.analysis.model.weights`) tens of thousands of questions; two passes over the
22,100 hands take most of that time:

- :func:`draw_step`: the filter's step for a turn that drew from the stock: each hand's
  weight times the chance it played on (no knock, did not take the card on the pile), then,
  for every hand kept without the card thrown, the sum over the four hands it may have
  come from, times the chance the card was thrown;
- :func:`sparse_dot`: the value after a last turn, a sparse matrix-vector product.

Both are bound by memory, not arithmetic, so they stay numpy: compiled with numba they ran
little faster inside a tournament, for a costly import and more memory (``docs/speed.md``).

>>> lay = Layout.of(np.arange(5))         # a deck of 5 cards: 10 hands
>>> [int(lay.row(np.array([[0, 1, 2]]))[0]), int(lay.row(np.array([[2, 3, 4]]))[0])]
[0, 9]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["Layout", "draw_step", "sparse_dot"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True, eq=False)
class Layout:
    """How the hands of one deck are numbered: ``cards[p]``, the card index at deck place
    ``p``; hand ``{p < q < r}`` (places) is row ``rank2[p, q] + r`` (the rows are the deck's
    3-card hands in lexicographic order, ``hands``); the set of four ``p < q < r < s`` has id
    ``binom[1, p] + binom[2, q] + binom[3, r] + binom[4, s]`` (colexicographic)."""

    cards: IntArray
    rank2: IntArray
    binom: IntArray
    hands: IntArray
    _moves: dict[int, tuple[IntArray, IntArray, npt.NDArray[np.int32]]]
    _memo: dict[object, object]

    @staticmethod
    def of(deck_cards: IntArray) -> Layout:
        """The layout of a deck whose cards, in index order, are ``deck_cards``.

        >>> int(Layout.of(np.arange(52)).rank2[0, 1] + 2), int(Layout.of(np.arange(52)).rank2[49, 50] + 51)
        (0, 22099)
        """
        n = len(deck_cards)
        binom = np.array([[math.comb(k, j) for k in range(n + 1)] for j in range(5)], dtype=np.int64)
        rank2 = np.zeros((n, n), dtype=np.int64)
        first = 0
        for p in range(n):
            second = first
            for q in range(p + 1, n):
                rank2[p, q] = second - q - 1
                second += n - 1 - q
            first = second
        hands = np.array(list(combinations(range(n), 3)), dtype=np.int64).reshape(-1, 3)
        return Layout(np.asarray(deck_cards, dtype=np.int64), rank2, binom, hands, {}, {})

    def row(self, places: IntArray) -> IntArray:
        """The rows of hands given as sorted places (shape (k, 3))."""
        return np.asarray(self.rank2[places[:, 0], places[:, 1]] + places[:, 2], dtype=np.int64)

    def quad(self, places: IntArray) -> npt.NDArray[np.int32]:
        """The ids of sets of four given as sorted places (shape (k, 4))."""
        b = self.binom
        return np.asarray(
            b[1, places[:, 0]] + b[2, places[:, 1]] + b[3, places[:, 2]] + b[4, places[:, 3]], dtype=np.int32
        )

    def pairs(self) -> tuple[IntArray, IntArray, IntArray]:
        """Per row ``{a < b < c}`` (places): its pairs ``(a, b)``, ``(a, c)``, ``(b, c)`` as
        ``first * n + second``."""
        found = self._memo.get("pairs")
        if found is None:
            n, h = len(self.cards), self.hands
            found = (h[:, 0] * n + h[:, 1], h[:, 0] * n + h[:, 2], h[:, 1] * n + h[:, 2])
            self._memo["pairs"] = found
        return found  # type: ignore[return-value]

    def holding(self, place: int) -> tuple[IntArray, IntArray]:
        """The rows holding the card at ``place`` and their other two places as a pair
        (``first * n + second``)."""
        found = self._memo.get(("holding", place))
        if found is None:
            n, h = len(self.cards), self.hands
            rows = np.flatnonzero((h == place).any(axis=1))
            others = h[rows][h[rows] != place].reshape(-1, 2)
            found = (rows, others[:, 0] * n + others[:, 1])
            self._memo[("holding", place)] = found
        return found  # type: ignore[return-value]

    def quads_by_place(self) -> npt.NDArray[np.int32]:
        """``[place, row]``: the id of the set of four that row plus the card at ``place``
        make (0 where the row holds it), 4.6 MB for 52 cards."""
        found = self._memo.get("quads")
        if found is None:
            n, h, b = len(self.cards), self.hands, self.binom
            p = np.arange(n)[:, None]
            a, q, c = h[None, :, 0], h[None, :, 1], h[None, :, 2]
            ids = np.where(
                p < a,
                b[1, p] + b[2, a] + b[3, q] + b[4, c],
                np.where(
                    p < q,
                    b[1, a] + b[2, p] + b[3, q] + b[4, c],
                    np.where(p < c, b[1, a] + b[2, q] + b[3, p] + b[4, c], b[1, a] + b[2, q] + b[3, c] + b[4, p]),
                ),
            )
            found = np.where((p == a) | (p == q) | (p == c), 0, ids).astype(np.int32)
            self._memo["quads"] = found
        return found  # type: ignore[return-value]

    def moves(self, place: int) -> tuple[IntArray, IntArray, npt.NDArray[np.int32]]:
        """For the card at ``place`` thrown after a draw, the numpy form's tables: the rows
        without it (``dest``), ``src[j]`` the row holding it instead of ``dest``'s ``j``-th
        card, and the id of each ``dest`` plus it (the 104 latest kept, 0.75 MB each)."""
        found = self._moves.get(place)
        if found is None:
            kept = self.hands[(self.hands != place).all(axis=1)]
            dest = self.row(kept)
            with_x = np.full((len(kept), 1), place)
            src = np.stack(
                [
                    self.row(np.sort(np.concatenate([kept[:, [a, b]], with_x], axis=1), axis=1))
                    for a, b in ((1, 2), (0, 2), (0, 1))
                ]
            )
            found = (dest, src, self.quad(np.sort(np.concatenate([kept, with_x], axis=1), axis=1)))
            if len(self._moves) >= 104:
                self._moves.pop(next(iter(self._moves)))
            self._moves[place] = found
        return found


def draw_step(
    w: FloatArray,
    factor: FloatArray,
    x: int,
    place: int,
    layout: Layout,
    thrown: npt.NDArray[np.int8],
    keep: float,
    slip: float,
) -> FloatArray:
    """The filter's draw step (see the module doc) for the card ``x`` thrown (deck place
    ``place``): with ``v = w * factor``, every hand ``h`` without ``x`` gets ``(keep if
    thrown[h] == x else slip) * (v[h] + the v of the three hands that become h when the card
    drawn is one of h's and x goes)``; the hands with ``x`` get 0. ``thrown[h]``: the card
    thrown from ``h`` plus ``x``.

    The three hands are ``h``'s pairs plus ``x``: their weights are put in a small table by
    pair (:meth:`Layout.holding`), read three times in the order of the hands
    (:meth:`Layout.pairs`), so every pass reads memory in order or from that small table.

    >>> lay = Layout.of(np.arange(5))         # a deck of 5 cards: 10 hands
    >>> w = np.arange(10.0)
    >>> out = draw_step(w, np.ones(10), 4, 4, lay, np.full(10, 4, dtype=np.int8), 1.0, 0.0)
    >>> out.tolist()  # {0,1,2} (row 0) comes from {0,1,2}, {0,1,4}, {0,2,4}, {1,2,4}: rows 0, 2, 4, 7
    [13.0, 16.0, 0.0, 21.0, 0.0, 0.0, 30.0, 0.0, 0.0, 0.0]
    """
    v = w * factor
    rows_x, pairs_x = layout.holding(place)
    n = len(layout.cards)
    by_pair = np.zeros(n * n)
    by_pair[pairs_x] = v[rows_x]
    ab, ac, bc = layout.pairs()
    out = np.take(by_pair, bc)  # the sum in this order, each term added in place (no temporary arrays)
    out += np.take(by_pair, ac)
    out += np.take(by_pair, ab)
    out += v
    out *= np.where(thrown == x, keep, slip)
    out[rows_x] = 0.0
    return out


def sparse_dot(
    w: FloatArray,
    rows: npt.NDArray[np.integer[Any]],
    counts: npt.NDArray[Any],
    values: IntArray,
    starts: IntArray,
    size: int,
) -> FloatArray:
    """``out[values[j]]``: the sum of ``w[rows[e]] * counts[e]`` over the entries ``e`` from
    ``starts[j]`` to the next start (a sparse matrix, sorted by column, times ``w``);
    ``size`` numbers. Fastest with ``rows`` of the platform's index type (``np.intp``) and
    ``counts`` as floats: nothing is converted then (the sums are the same either way).

    >>> sparse_dot(np.array([0.5, 0.25]), np.array([0, 1, 1], dtype=np.int32), np.array([2, 1, 1], dtype=np.uint8),
    ...            np.array([3, 7]), np.array([0, 1]), 8).tolist()
    [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.5]
    """
    terms = np.take(w, rows)
    terms *= counts
    out = np.zeros(size)
    out[values] = np.add.reduceat(terms, starts)
    return out
