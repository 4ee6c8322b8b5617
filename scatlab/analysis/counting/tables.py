"""Exact lookup tables over every 3-card hand, built once per scoring configuration.

The analysis counts outcomes over all unseen cards and all opponent hands; these tables make
that counting a matter of indexing. Everything is an integer:

- a hand's **strength** orders hands at a showdown: ``2 * value`` (so half points stay
  whole) times 4096, plus, when V17's rank tie-break is on, a code of the counted cards'
  ranks. Strengths compare exactly as :func:`~scatlab.rules.tiebreak_key` does;
- ``strength >> 12`` is twice the hand's value (``value2``), so a value is
  ``Fraction(value2, 2)``.

Tables (numpy arrays, card indices 0-51 as in :attr:`Card.index`, for either deck):

- ``triple[a, b, c]``: the strength of the hand {a, b, c} (-1 when two indices repeat or a
  card is not in the deck);
- ``rows``: every 3-card hand of the deck (sorted indices); ``row_of[a, b, c]`` its row;
- ``after_draw[row, d]``: the strength kept after drawing card ``d`` to hand ``row`` and
  discarding the best card; ``discard[row, d]``: which card that is (-1 where ``d`` is in
  the hand or not in the deck). Among equally strong discards the drawn card is thrown
  back first, then the lowest-valued card.

Values are checked against :func:`scatlab.rules.value_of` for every hand in the tests.

>>> from scatlab.rules import find_rules
>>> t = tables_for(find_rules("classic"))
>>> len(t.rows), t.value2_of_cards([0, 1, 2])      # 2C 3C 4C is worth 9
(22100, 18)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cached_property, lru_cache
from itertools import combinations
from typing import overload

import numpy as np
import numpy.typing as npt

from ...cards import ALL_CARDS, deck
from ...rules.options import RuleSet
from ...rules.values import tiebreak_key

__all__ = ["Tables", "tables_for", "scoring_rules", "RANK_BITS", "BLITZ2", "hand_index", "pair_index", "pair_indices"]

RANK_BITS = 12
"""Strength = value2 << RANK_BITS | rank code."""
BLITZ2 = 62
"""Twice 31: a hand with value2 >= BLITZ2 is declared at once."""

IntArray = npt.NDArray[np.int64]


# -- the index of a hand in a flattened table -------------------------------------------------


@overload
def pair_index(a: int, b: int) -> int: ...
@overload
def pair_index(a: IntArray, b: IntArray) -> IntArray: ...
def pair_index(a: int | IntArray, b: int | IntArray) -> int | IntArray:
    """Where the hands holding cards ``a`` and ``b`` start in a table over card indices
    flattened to one axis (``triple.ravel()``, :attr:`Tables.triple_list`,
    :attr:`Tables.row_list`): the hand {a, b, c} is at ``pair_index(a, b) + c``. Card
    indices or arrays of them (then an array).

    >>> pair_index(1, 2) + 3 == hand_index(1, 2, 3) == 1 * 52 * 52 + 2 * 52 + 3
    True
    """
    return a * 2704 + b * 52  # 2704 = 52 * 52


@overload
def hand_index(a: int, b: int, c: int) -> int: ...
@overload
def hand_index(a: IntArray, b: IntArray, c: IntArray) -> IntArray: ...
def hand_index(a: int | IntArray, b: int | IntArray, c: int | IntArray) -> int | IntArray:
    """The index of the hand {a, b, c} in a flattened table (see :func:`pair_index`)."""
    return a * 2704 + b * 52 + c


def pair_indices(a: int, b: int, c: int) -> tuple[int, int, int]:
    """The :func:`pair_index` of the three pairs of the hand {a, b, c}: without ``a``,
    without ``b``, without ``c`` (adding a drawn card gives the hand kept throwing that one).

    >>> pair_indices(1, 2, 3) == (pair_index(2, 3), pair_index(1, 3), pair_index(1, 2))
    True
    """
    return b * 2704 + c * 52, a * 2704 + c * 52, a * 2704 + b * 52


SOURCE = __file__
"""This module's file: the code that builds the tables (part of the name of files that
keep tables built from them, :mod:`scatlab.analysis.counting.store`)."""

_VALUES = np.array([c.value for c in ALL_CARDS], dtype=np.int64)
_SUITS = np.array([c.index // 13 for c in ALL_CARDS], dtype=np.int64)
_RANKS = np.array([int(c.rank) for c in ALL_CARDS], dtype=np.int64)


class Tables:
    """The exact tables for one scoring configuration (see the module doc)."""

    def __init__(self, rules: RuleSet) -> None:
        self.deck_size = rules.deck_size
        self.key = (
            str(rules.three_of_a_kind),
            rules.straight_flush,
            rules.grand_cadillac,
            rules.rank_tiebreak,
            rules.deck_size,
        )
        """What the tables depend on (names their files in :mod:`scatlab.analysis.counting.store`)."""
        self.cards = deck(rules.deck_size)
        self.in_deck = np.zeros(52, dtype=bool)
        self.in_deck[[c.index for c in self.cards]] = True
        idx = [c.index for c in self.cards]
        self.rows: IntArray = np.array(list(combinations(sorted(idx), 3)), dtype=np.int64)
        self.strength: IntArray = _strengths(self.rows, rules)
        self.value2: IntArray = self.strength >> RANK_BITS
        m = len(self.rows)
        self.row_of = np.full((52, 52, 52), -1, dtype=np.int64)
        self.triple = np.full((52, 52, 52), -1, dtype=np.int64)
        a, b, c = self.rows[:, 0], self.rows[:, 1], self.rows[:, 2]
        for x, y, z in ((a, b, c), (a, c, b), (b, a, c), (b, c, a), (c, a, b), (c, b, a)):
            self.row_of[x, y, z] = np.arange(m)
            self.triple[x, y, z] = self.strength
        self._full: tuple[IntArray, IntArray] | None = None
        self.horizon_takes: dict[int, npt.NDArray[np.bool_]] = {}
        """Cache of the filter's take masks by horizon (:mod:`scatlab.analysis.model.hand_filter`)."""
        self.horizon_levels: list[IntArray] = []
        """Cache of :func:`scatlab.analysis.counting.horizon.horizon_table`: E_0, E_1, … scaled."""
        self._best_rows: dict[int, list[int]] = {}
        self._discard_rows: dict[int, list[int]] = {}
        self.strength_list: list[int] = self.strength.tolist()
        order = np.argsort(_VALUES[self.rows] * 64 + self.rows, axis=1, kind="stable")
        self.rows_sorted_by_value: list[list[int]] = np.take_along_axis(self.rows, order, axis=1).tolist()
        """Each row's cards from the lowest value up (the order ties are thrown in)."""
        self.deck_indices: list[int] = [c.index for c in self.cards]
        self.outside_deck: tuple[int, ...] = tuple(i for i in range(52) if not self.in_deck[i])
        self.pair_rows: IntArray = self.triple.reshape(52 * 52, 52)
        """``pair_rows[a * 52 + b, d]`` is ``triple[a, b, d]``: the hand {a, b, d} for every d."""
        self.cards_mask: IntArray = (np.int64(1) << self.rows).sum(axis=1)
        """``cards_mask[row]``: the bit mask of the hand's card indices."""

    @cached_property
    def distinct_strengths(self) -> IntArray:
        """Every strength a hand can have, ascending (30 under the classic rules, 377 with
        the rank tie-break of V17). Sorted by hand: ``np.unique`` imports ``numpy.ma`` (25 ms
        of a command's start)."""
        ordered = np.sort(self.strength)
        return ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))]

    @cached_property
    def triple_list(self) -> list[int]:
        """``triple`` flattened (index :func:`hand_index`) for pure-Python lookups
        (built on first use: 140,608 numbers)."""
        return list(self.triple.ravel().tolist())

    @cached_property
    def row_list(self) -> list[int]:
        """``row_of`` flattened (index :func:`hand_index`), built on first use."""
        return list(self.row_of.ravel().tolist())

    @property
    def after_draw(self) -> IntArray:
        """``after_draw[row, d]`` for every hand (built on first use, about 0.1 s)."""
        return self._full_tables()[0]

    @property
    def discard(self) -> IntArray:
        """``discard[row, d]`` for every hand (built with :attr:`after_draw`)."""
        return self._full_tables()[1]

    def draw_moves(self) -> tuple[IntArray, npt.NDArray[np.bool_]]:
        """``(nxt, valid)``: ``nxt[row, d]`` is the row of the hand kept after drawing card
        ``d`` into hand ``row`` and throwing the card of :attr:`discard` (the hand itself
        when ``d`` is thrown); ``valid[row, d]`` says that ``d`` could be drawn (it is in the
        deck and not in the hand). The Markov chains of the opponent models step with it.
        """
        rows = self.rows
        m = len(rows)
        thrown = self.discard
        d = np.broadcast_to(np.arange(52)[None, :], (m, 52))
        a, b, c = (np.broadcast_to(rows[:, j : j + 1], (m, 52)) for j in range(3))
        # The two hand cards kept beside d: throw a -> (b, c); throw b -> (a, c); throw c -> (a, b).
        keep_x = np.where(thrown == a, b, a)
        keep_y = np.where(thrown == c, b, c)
        valid = thrown >= 0
        nxt = np.where(thrown == d, np.arange(m)[:, None], self.row_of[keep_x, keep_y, np.where(valid, d, 0)])
        return nxt, valid

    def _full_tables(self) -> tuple[IntArray, IntArray]:
        if self._full is None:  # kept on disk between processes (scatlab.analysis.counting.store)
            from .store import cached

            def build() -> dict[str, npt.NDArray[np.generic]]:
                best, discard = self._after_draw(self.rows, self.strength, self.triple)
                return {"best": best.astype(np.int32), "discard": discard.astype(np.int8)}

            stored = cached("after-draw", self.key, build, sources=(__file__,))
            self._full = (stored["best"].astype(np.int64), stored["discard"].astype(np.int64))
        return self._full

    def after_draw_by(self, worth: IntArray) -> tuple[IntArray, IntArray]:
        """``(best, discard)`` as :attr:`after_draw` and :attr:`discard`, for a player who
        values hand ``row`` at ``worth[row]`` (a whole number of 0 or more; the same tie rule:
        the drawn card back, else the lowest card). The filter's strong kind uses it with the
        horizon tables (hands valued turns ahead)."""
        triple = np.where(self.row_of >= 0, worth[np.maximum(self.row_of, 0)], -1)
        return self._after_draw(self.rows, worth, triple)

    def _after_draw(self, rows: IntArray, strength: IntArray, triple: IntArray) -> tuple[IntArray, IntArray]:
        # Order the hand's cards by value so that ties discard the lowest card first.
        order = np.argsort(_VALUES[rows] * 64 + rows, axis=1, kind="stable")
        cards = np.take_along_axis(rows, order, axis=1)  # low, mid, high
        lo, mid, hi = cards[:, 0:1], cards[:, 1:2], cards[:, 2:3]
        d = np.arange(52)[None, :]
        keep_hand = strength[:, None]
        drop_lo = triple[mid, hi, d]
        drop_mid = triple[lo, hi, d]
        drop_hi = triple[lo, mid, d]
        best = np.maximum(np.maximum(keep_hand, drop_lo), np.maximum(drop_mid, drop_hi))
        discard = np.where(keep_hand == best, d, np.where(drop_lo == best, lo, np.where(drop_mid == best, mid, hi)))
        invalid = (drop_lo < 0) | (drop_mid < 0) | (drop_hi < 0)  # d in the hand, or not in the deck
        best = np.where(invalid, -1, best)
        discard = np.where(invalid, -1, discard)
        return best, discard

    # -- small lookups for the pure-Python paths ----------------------------------------

    def row(self, cards: Sequence[int]) -> int:
        """The row of a 3-card hand given by card indices."""
        return self.row_list[hand_index(cards[0], cards[1], cards[2])]

    def strength_of(self, cards: Sequence[int]) -> int:
        """The strength of a 3-card hand given by card indices."""
        return self.triple_list[hand_index(cards[0], cards[1], cards[2])]

    def value2_of_cards(self, cards: Sequence[int]) -> int:
        """Twice the value of a 3-card hand given by card indices."""
        return self.strength_of(cards) >> RANK_BITS

    def after_draw_row(self, row: int) -> list[int]:
        """``after_draw[row]`` as a Python list (cached): the one-turn analysis reads it per
        unseen card without numpy call overhead. Built from the three :attr:`pair_rows` of
        the hand's pairs (one numpy maximum), unless the full table exists."""
        try:
            return self._best_rows[row]
        except KeyError:
            pass
        if self._full is not None:
            best = [int(x) for x in self._full[0][row]]
        else:
            lo, mid, hi = self.rows_sorted_by_value[row]
            pairs = self.pair_rows
            best = np.maximum(
                np.maximum(pairs[mid * 52 + hi], pairs[lo * 52 + hi]),
                np.maximum(pairs[lo * 52 + mid], self.strength_list[row]),
            ).tolist()
            for d in (lo, mid, hi, *self.outside_deck):
                best[d] = -1
        self._best_rows[row] = best
        return best

    def discard_row(self, row: int) -> list[int]:
        """``discard[row]`` as a Python list (cached; same tie rule as the full table)."""
        try:
            return self._discard_rows[row]
        except KeyError:
            pass
        if self._full is not None:
            thrown = [int(x) for x in self._full[1][row]]
        else:
            lo, mid, hi = self.rows_sorted_by_value[row]
            keep = self.strength_list[row]
            t = self.triple_list
            drop_lo, drop_mid, drop_hi = pair_indices(lo, mid, hi)
            thrown = [-1] * 52
            for d in self.deck_indices:
                if d in (lo, mid, hi):
                    continue
                s_hi = t[drop_hi + d]
                b, x = keep, d
                s_lo = t[drop_lo + d]
                if s_lo > b:
                    b, x = s_lo, lo
                s_mid = t[drop_mid + d]
                if s_mid > b:
                    b, x = s_mid, mid
                if s_hi > b:
                    x = hi
                thrown[d] = x
        self._discard_rows[row] = thrown
        return thrown

    @staticmethod
    def value(strength: int) -> Fraction:
        """The exact value of a strength."""
        return Fraction(strength >> RANK_BITS, 2)


def _strengths(rows: IntArray, rules: RuleSet) -> IntArray:
    """Vectorised hand values (C4, V1-V3, V13) as strengths, plus V17 rank codes."""
    vals = _VALUES[rows]
    suits = _SUITS[rows]
    ranks = _RANKS[rows]
    suit_sums = np.stack([(vals * (suits == s)).sum(axis=1) for s in range(4)], axis=1)
    value2 = suit_sums.max(axis=1) * 2
    three_of_a_kind, straight_flush, grand_cadillac = rules.hand_scoring
    same_rank = (ranks[:, 0] == ranks[:, 1]) & (ranks[:, 1] == ranks[:, 2])
    if three_of_a_kind is not None:
        value2 = np.where(same_rank, np.maximum(value2, int(three_of_a_kind * 2)), value2)
    if straight_flush:
        flush = (suits[:, 0] == suits[:, 1]) & (suits[:, 1] == suits[:, 2])
        r = np.sort(ranks, axis=1)
        run = (r[:, 2] - r[:, 0] == 2) & (r[:, 1] - r[:, 0] == 1)
        wheel = (r[:, 0] == 2) & (r[:, 1] == 3) & (r[:, 2] == 14)
        value2 = np.where(flush & (run | wheel), np.maximum(value2, 60), value2)
    if grand_cadillac:
        value2 = np.where(same_rank & (ranks[:, 0] == 14), 66, value2)
    strength: IntArray = np.asarray(value2, dtype=np.int64) << RANK_BITS
    if rules.rank_tiebreak:
        codes = np.zeros(len(rows), dtype=np.int64)
        for i, row in enumerate(rows.tolist()):
            key = tiebreak_key([ALL_CARDS[j] for j in row], rules)
            ranks_counted = [int(k) for k in key[1:]] + [0, 0, 0]
            codes[i] = ranks_counted[0] * 225 + ranks_counted[1] * 15 + ranks_counted[2]
        strength = strength | codes
    return strength


@lru_cache(maxsize=16)
def _tables(scoring: RuleSet) -> Tables:
    return Tables(scoring)


def tables_for(rules: RuleSet) -> Tables:
    """The tables for ``rules``' scoring, built on first use and kept (rule sets that score
    hands alike share them)."""
    return _tables(scoring_rules(rules))


def scoring_rules(rules: RuleSet) -> RuleSet:
    """``rules`` reduced to what scores and compares hands (the deck, V1-V3, V13, V17), so
    that rule sets which score alike share one cache key.

    >>> from scatlab.rules import find_rules
    >>> scoring_rules(find_rules("classic")) == scoring_rules(find_rules("classic").replace(min_knock=21))
    True
    """
    return _scoring_rules(
        rules.three_of_a_kind, rules.straight_flush, rules.grand_cadillac, rules.rank_tiebreak, rules.deck_size
    )


@lru_cache(maxsize=16)
def _scoring_rules(three: Fraction | None, straight: bool, grand: bool, rank_tiebreak: bool, deck_size: int) -> RuleSet:
    return RuleSet(
        name="scoring",
        three_of_a_kind=three,
        straight_flush=straight,
        grand_cadillac=grand,
        rank_tiebreak=rank_tiebreak,
        deck_size=deck_size,
    )
