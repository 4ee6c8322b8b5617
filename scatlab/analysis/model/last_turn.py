"""What a pictured opponent hand is worth after one more turn, the last turn a knock
leaves it: :func:`!value_after_last_turn` of hands weighed by the opponent model, and
:func:`!last_turn_of` for an opponent seated after a knock (the next player sees the top
discard, every later one the throw of the player before it). The last-turn policy: take the
top discard if that makes a stronger hand, else draw and keep the strongest three.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from ...cards import Card
from ...rules.options import RuleSet
from ..counting.store import cached
from ..counting.tables import RANK_BITS, Tables, pair_index, scoring_rules, tables_for
from ..counting.tables import SOURCE as TABLES_SOURCE
from ..counting.vectorized import sparse_dot

__all__ = ["last_turn_of", "value_after_last_turn"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class _LastTurn:
    rows: npt.NDArray[np.intp]  # a sparse table of the value after one draw from the rest of the deck, by value:
    counts: FloatArray  # hand row and how many of its draws keep the value (a whole number, as a float),
    values: IntArray  # the values (value2) in the table, in order,
    starts: IntArray  # and where each one's entries start
    pair_base: IntArray  # (3, rows): the pair_index of the hand's three pairs (to look up a pair + card)


@lru_cache(maxsize=8)
def _last_turn(scoring: RuleSet) -> _LastTurn:
    """What :func:`value_after_last_turn` reads, per scoring configuration (3.9 MB for 52
    cards, about 0.05 to 0.1 s to build, kept on disk: :mod:`~scatlab.analysis.counting.store`;
    the rows as indices and the counts as floats, so that the sparse product converts
    nothing)."""
    tables = tables_for(scoring)
    stored = cached("last-turn", tables.key, lambda: _by_value(tables), sources=(__file__, TABLES_SOURCE))
    hands = tables.rows
    pair_base = np.stack(
        [
            pair_index(hands[:, 0], hands[:, 1]),
            pair_index(hands[:, 0], hands[:, 2]),
            pair_index(hands[:, 1], hands[:, 2]),
        ]
    )
    rows = stored["rows"].astype(np.intp, copy=False)
    return _LastTurn(rows, stored["counts"], stored["values"], stored["starts"], pair_base)


def _by_value(tables: Tables) -> dict[str, npt.NDArray[Any]]:
    """The sparse table of :class:`_LastTurn` (``rows``, ``counts``, ``values``, ``starts``), built."""
    m = len(tables.rows)
    valid = tables.discard >= 0
    key = (tables.after_draw >> RANK_BITS) * m + np.arange(m)[:, None]  # by value, then row
    uniq, counts = np.unique(key[valid], return_counts=True)
    values, starts = np.unique(uniq // m, return_index=True)
    return {"rows": uniq % m, "counts": counts.astype(np.float64), "values": values, "starts": starts}


_NO_DRAW = 127
"""In :func:`_after_by_card`: the card is in the hand (or not in the deck)."""


@lru_cache(maxsize=8)
def _after_by_card(scoring: RuleSet) -> npt.NDArray[np.int8]:
    """``[card, row]``: the value (value2) a hand keeps after drawing ``card``, or
    :data:`_NO_DRAW` when it cannot (card by card, so a card's row of hands is contiguous)."""
    tables = tables_for(scoring)
    valid = tables.discard >= 0
    return np.ascontiguousarray(np.where(valid, tables.after_draw >> RANK_BITS, _NO_DRAW).astype(np.int8).T)


@lru_cache(maxsize=8)
def _stays(scoring: RuleSet) -> IntArray:
    """Per hand row: how many of the cards not in the hand leave its value as it is."""
    tables = tables_for(scoring)
    valid = tables.discard >= 0
    return np.asarray(
        ((tables.after_draw >> RANK_BITS) == tables.value2[:, None]).sum(axis=1, where=valid), dtype=np.int64
    )


@lru_cache(maxsize=2 * 52)
def _take_strength(scoring: RuleSet, top: int) -> IntArray:
    """Per hand row: the strength of the best three it can keep with the card ``top`` added."""
    tables = tables_for(scoring)
    tl = tables.triple.ravel()
    base = _last_turn(scoring).pair_base
    return np.asarray(np.maximum(np.maximum(tl[base[0] + top], tl[base[1] + top]), tl[base[2] + top]), dtype=np.int64)


def last_turn_of(rules: RuleSet, w: FloatArray, opponent: int, under: Sequence[Card], top: Card | None) -> FloatArray:
    """:func:`value_after_last_turn` of opponent number ``opponent`` (0: the next player)
    after a knock, the discard pile ``under`` with ``top`` on it: the next player sees
    ``top``, every later one the throw of the player before it."""
    pile = tuple(c.index for c in under) + ((top.index,) if top is not None else ())
    if opponent == 0:
        return value_after_last_turn(rules, w, top, pile)
    return value_after_last_turn(rules, w, None, pile, top_unseen=True)


def value_after_last_turn(
    rules: RuleSet, w: FloatArray, top: Card | None, seen: tuple[int, ...] = (), top_unseen: bool = False
) -> FloatArray:
    """``dist[v2]``: the chance that a hand drawn by the weights ``w`` (one per row of the
    tables, summing to 1) is worth ``v2 / 2`` after one more turn of the last-turn policy of
    :func:`~scatlab.analysis.model.weights.final_value_distribution`, with ``top`` the top discard (None: an empty
    pile). The
    card drawn is any card not in the hand and not among ``seen`` (card indices; a pictured
    hand may hold one of them, then it draws among the others). With ``top_unseen`` the top discard is such a card too,
    unknown (the throw of the opponent before): the hand takes it when it raises the value,
    else draws, so it keeps its value only when neither card raises it.

    >>> from scatlab.rules import find_rules
    >>> from scatlab.analysis.counting.tables import tables_for
    >>> rules = find_rules("classic")
    >>> w = np.zeros(len(tables_for(rules).rows)); w[0] = 1.0      # the 2 3 4 of clubs
    >>> d = value_after_last_turn(rules, w, None)
    >>> round(float(d.sum()), 9), int(d.argmax()) / 2, round(float(d[2 * 18]) * 49, 6)  # the ace of clubs makes 18
    (1.0, 9.0, 1.0)
    """
    tables = tables_for(rules)
    scoring = scoring_rules(rules)
    last = _last_turn(scoring)
    # Only the hands with weight count: every sum below but the sparse product adds the
    # weights one by one in the order of the rows (np.bincount), where a zero changes
    # nothing, so the figures are those of the same sums over every row, bit for bit.
    live = (w != 0).nonzero()[0]  # np.flatnonzero(w), faster for floats
    wl = w[live]
    n: npt.NDArray[np.float64] | float = float(tables.deck_size - 3)  # the cards a hand may draw
    after_t = None
    if seen:  # a seen card is drawn by no hand (it may be in a pictured hand: then it is in no draw)
        after_t = np.take(_after_by_card(scoring)[np.asarray(seen)], live, axis=1)
        seen_mask = 0
        for c in seen:
            seen_mask |= 1 << c
        held = np.bitwise_count(tables.cards_mask[live] & np.int64(seen_mask)).astype(np.float64)
        n = tables.deck_size - 3 - len(seen) + held
    stay = None
    takes = take = None
    if top_unseen:  # q: the chance that one card raises the hand's value; the two looks
        left = _stays(scoring)[live].astype(np.float64)
        if after_t is not None:
            left = left - (after_t == tables.value2[live][None, :]).sum(axis=0)
        q = 1.0 - left / n
        stay = wl * (1.0 - q)
        draw_w = wl * (2.0 - q)
    elif top is not None:
        take = _take_strength(scoring, top.index)[live]
        takes = take > tables.strength[live]
        draw_w = np.where(takes, 0.0, wl)
    else:
        draw_w = wl
    per_card = np.zeros(len(w))  # each hand's weight per card it may draw
    per_card[live] = draw_w / n
    # each hand's draws by the value they keep: a sparse matrix-vector product (over every row)
    dist = sparse_dot(per_card, last.rows, last.counts, last.values, last.starts, 67)
    if after_t is not None:  # the draws of a seen card, taken out (one bincount for every seen card)
        k = len(seen)
        drawn = np.bincount(
            (after_t + (np.arange(k) * (_NO_DRAW + 1))[:, None]).ravel(),
            weights=np.tile(per_card[live], k),
            minlength=k * (_NO_DRAW + 1),
        )
        for values in drawn.reshape(k, _NO_DRAW + 1)[:, :67]:
            dist = dist - values
    if stay is not None:  # took neither card: (2 - q) draws counted the value kept once too often
        dist = dist - np.bincount(tables.value2[live], weights=stay, minlength=67)[:67]
    dist = np.maximum(dist, 0.0)
    if takes is not None and take is not None:
        dist = dist + np.bincount(take[takes] >> RANK_BITS, weights=wl[takes], minlength=67)[:67]
    return np.asarray(dist, dtype=np.float64)
