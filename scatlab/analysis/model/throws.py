"""How the ``tip`` and ``expert`` players throw, as tables: for every hand plus a card (and
every set of four cards of the deck), the card each way of throwing throws, whatever suits
it avoids (not feeding the next player). One choice serves the players themselves
(:func:`throw_choice`) and the adaptive opponent model's filter
(:mod:`scatlab.analysis.model.hand_filter`), which reads the same rankings for every hand at
once. The rankings of every set of four are kept on disk (:mod:`scatlab.analysis.counting.store`).

>>> from scatlab.cards import parse_cards
>>> from scatlab.rules import find_rules
>>> throw_choice(find_rules("classic"), LAST_THROW, tuple(parse_cards("AH KH 7C")), parse_cards("QH")[0]).card
Card('7C')
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from ...cards import ALL_CARDS, Card, Suit
from ...errors import AnalysisError
from ...rules.options import RuleSet
from ..counting.horizon import horizon_table
from ..counting.store import cached
from ..counting.tables import BLITZ2, Tables, scoring_rules, tables_for
from ..counting.tables import SOURCE as TABLES_SOURCE
from ..counting.vectorized import Layout

__all__ = [
    "throw_choice",
    "ThrowChoice",
    "TIP_THROW",
    "LAST_THROW",
    "expert_throw",
    "ThrowKey",
    "SUIT_ORDER",
    "Holding",
    "deck_places",
    "rows_holding",
    "deck_layout",
    "take_moves",
    "thrown_by_place",
    "quad_ranks",
    "row_throws",
    "ThrowLists",
    "throw_lists",
    "avoid_list",
]

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
ThrowKey = tuple[str, int, float]
"""A way of throwing: ``("suit", 0, 0.0)`` as ``tip`` (:data:`TIP_THROW`), ``("horizon",
horizon, feed margin)`` as the expert (:func:`expert_throw`), ``("last", 0, 0.0)`` as the
expert on a last turn (:data:`LAST_THROW`); the filter's ``("now", 0, 0.0)``: by value now."""
SUIT_ORDER = tuple(Suit)  # a card's suit is index // 13 in this order
_CARD_VALUES = np.array([c.value for c in ALL_CARDS], dtype=np.int64)


@dataclass(frozen=True)
class Holding:
    """For one card ``x``: the rows holding it (``rows``) and each one's two other cards (``pair``)."""

    rows: IntArray
    pair: IntArray


@dataclass(frozen=True)
class _Ranks:
    """How a player throws from some hands plus a card, whatever suits it avoids:
    ``cards[j, ...]``, the four cards in its order of preference (``j`` = 0 first);
    ``eligible[j, ...]``, whether that card may be thrown instead of the first when the
    first is of a suit to avoid; ``valid[...]``, whether the card can be added. (A card's
    suit bit in :data:`SUIT_ORDER` is ``1 << card // 13``: worked out when choosing.)"""

    cards: npt.NDArray[np.int8]
    eligible: BoolArray
    valid: BoolArray

    @staticmethod
    def of(ranked: npt.NDArray[np.int8], eligible: BoolArray, valid: BoolArray) -> _Ranks:
        """From ``[..., j]`` arrays (the first always eligible)."""
        return _Ranks(
            np.ascontiguousarray(np.moveaxis(ranked, -1, 0)), np.ascontiguousarray(np.moveaxis(eligible, -1, 0)), valid
        )

    def _avoided(self, j: int, mask: int) -> BoolArray:
        """Whether option ``j``'s card is of a suit in ``mask``."""
        return np.asarray((np.left_shift(1, self.cards[j] // 13, dtype=np.int16) & mask) != 0)

    def choose(self, avoid: int) -> npt.NDArray[np.int8]:
        """The card thrown when the suits ``avoid`` (a bit per suit in :data:`SUIT_ORDER`)
        are avoided: the first eligible card of another suit, else the first card (-1 where
        the card cannot be added)."""
        pick = self.cards[0].copy()
        if avoid:
            decided = ~self._avoided(0, avoid)
            for j in (1, 2, 3):
                ok = ~decided & self.eligible[j] & ~self._avoided(j, avoid)
                pick = np.where(ok, self.cards[j], pick)
                decided |= ok
        return np.asarray(np.where(self.valid, pick, -1), dtype=np.int8)


def _options(tables: Tables, hands: IntArray, drawn: IntArray) -> tuple[IntArray, IntArray]:
    """For hand rows ``hands`` plus the cards ``drawn`` (one each): the four cards that may
    be thrown (option ``j`` < 3 the hand's ``j``-th card, option 3 the card drawn) and the
    row kept (-1 where the card cannot be added)."""
    part = tables.rows[hands]
    cards = np.empty((len(hands), 4), dtype=np.int64)
    kept = np.empty((len(hands), 4), dtype=np.int64)
    cards[:, :3] = part
    cards[:, 3] = drawn
    for j, (a, b) in enumerate(((1, 2), (0, 2), (0, 1))):
        kept[:, j] = tables.row_of[part[:, a], part[:, b], drawn]
    kept[:, 3] = hands
    return cards, kept


def _expert_ranks(
    tables: Tables, worth: IntArray, margin: float, taken: bool, hands: IntArray, drawn: IntArray
) -> _Ranks:
    """How the ``expert`` throws from hands ``hands`` plus ``drawn``, valuing hand ``r`` at
    ``worth[r]``: the card whose loss keeps the three worth most; on a tie the one keeping the
    strongest hand now, then the lowest-valued card, then the lowest index (clubs before
    diamonds, hearts, spades). If that card's suit is to be avoided (suits the next player
    took from the pile), the best card of another suit by the same order instead, if it
    keeps three worth at most ``margin`` (in ``worth``'s units) less. With ``taken``, the
    card was taken and is never thrown (C5). (Without ``taken`` the order depends only on
    the four cards, not on which was drawn.)"""
    cards, kept = _options(tables, hands, drawn)
    valid = (kept[:, :3] >= 0).all(axis=1)
    kept = np.maximum(kept, 0)
    score = worth[kept]
    second = tables.strength[kept] * 1024 + (15 - _CARD_VALUES[cards]) * 64 + (63 - cards)
    if taken:  # never the card taken: last, and never eligible
        score[:, 3] = -1
    order = np.lexsort((-second, -score), axis=-1)
    score = np.take_along_axis(score, order, axis=1)
    ranked = np.take_along_axis(cards, order, axis=1).astype(np.int8)
    ok = (score >= score[:, :1] - margin) & (score >= 0)
    ok[:, 0] = True
    return _Ranks.of(ranked, ok, np.asarray(valid, dtype=np.bool_))


def _tip_ranks(tables: Tables, taken: bool, hands: IntArray, drawn: IntArray) -> _Ranks:
    """How the ``tip`` player throws from hands ``hands`` plus ``drawn``: a card whose loss
    leaves 31 if there is one; else the lowest card (by value, then index) outside the suit
    worth most among the four (ties: more cards, then clubs, diamonds, hearts, spades), all
    four of it: the lowest card; never the card drawn when it was ``taken`` (C5); and, when
    there is such a card, not one of a suit to avoid. (Without ``taken`` the order depends
    only on the four cards.)"""
    n = len(hands)
    cards, kept = _options(tables, hands, drawn)
    suit = cards // 13
    value = _CARD_VALUES[cards]
    # the suit worth most among the four: per suit, 64 * total + 8 * cards + the suit order's tie-break
    worth = np.zeros((n, 4), dtype=np.int64)
    for j in range(4):
        worth[np.arange(n), suit[:, j]] += value[:, j] * 64 + 8
    worth += 3 - np.arange(4)[None, :]
    target = worth.argmax(axis=1)
    allowed = np.ones((n, 4), dtype=np.bool_)
    if taken:
        allowed[:, 3] = False
    outside = allowed & (suit != target[:, None])
    pick = np.where(outside.any(axis=1, keepdims=True), outside, allowed)
    blitz = allowed & (kept >= 0) & (tables.value2[np.maximum(kept, 0)] >= BLITZ2)
    has_blitz = blitz.any(axis=1, keepdims=True)
    pick = np.where(has_blitz, blitz, pick)
    order = np.argsort(np.where(pick, 0, 1 << 12) + value * 64 + cards, axis=1, kind="stable")
    ranked = np.take_along_axis(cards, order, axis=1).astype(np.int8)
    ok = np.take_along_axis(pick, order, axis=1) & ~has_blitz  # a 31 is thrown for, whatever the suit
    ok[:, 0] = True
    return _Ranks.of(ranked, ok, np.asarray(tables.discard[hands, drawn] >= 0, dtype=np.bool_))


def _pair_ranks(scoring: RuleSet, key: ThrowKey, taken: bool, hands: IntArray, drawn: IntArray) -> _Ranks:
    """The ranking of one way of throwing (see
    :meth:`!scatlab.analysis.model.hand_filter.LogFilter._throw_key`, not ``"now"``)
    for hand rows ``hands`` plus the cards ``drawn``, under the scoring rules ``scoring``."""
    tables = tables_for(scoring)
    way, horizon, margin = key
    if way == "suit":
        return _tip_ranks(tables, taken, hands, drawn)
    if way == "last":  # the hand now
        return _expert_ranks(tables, tables.strength, 0.0, taken, hands, drawn)
    worth = horizon_table(tables, horizon)
    return _expert_ranks(tables, worth, margin * 2 * (tables.deck_size - 3) ** horizon, taken, hands, drawn)


TIP_THROW: ThrowKey = ("suit", 0, 0.0)
"""How the ``tip`` player throws (:func:`throw_choice`)."""
LAST_THROW: ThrowKey = ("last", 0, 0.0)
"""How the ``expert`` throws on its last turn (after a knock): for the hand now."""


def expert_throw(horizon: int, feed_margin: float) -> ThrowKey:
    """How the ``expert`` throws before a knock: for the hand's worth ``horizon`` turns
    ahead, giving up at most ``feed_margin`` points of it not to feed the next player."""
    return ("horizon", horizon, float(feed_margin))


@dataclass(frozen=True)
class ThrowChoice:
    """A player's throw from four cards: ``card`` thrown, and ``first``, the card it would
    throw if no suit were to be avoided (``card`` differs only to avoid feeding the next
    player)."""

    card: Card
    first: Card


def throw_choice(
    rules: RuleSet,
    way: ThrowKey,
    hand: tuple[Card, Card, Card],
    drawn: Card,
    *,
    taken: bool = False,
    avoid: frozenset[Suit] = frozenset(),
) -> ThrowChoice:
    """The one way the ``tip`` and ``expert`` players choose a throw, used by the players
    themselves and by the opponent model (which reads the same rankings for every hand at
    once): ``hand`` the three cards held, ``drawn`` the card drawn or, with ``taken``,
    taken from the pile (never thrown back, C5), ``avoid`` the suits the next player has
    taken from the pile. ``way`` is :data:`TIP_THROW`, :data:`LAST_THROW` or
    :func:`expert_throw`.

    >>> from scatlab.cards import parse_cards
    >>> from scatlab.rules import find_rules
    >>> h = tuple(parse_cards("AH KH 7C"))
    >>> throw_choice(find_rules("classic"), TIP_THROW, h, parse_cards("8D")[0]).card  # the lowest outside hearts
    Card('7C')
    >>> throw_choice(find_rules("classic"), TIP_THROW, h, parse_cards("8D")[0], avoid=frozenset({Suit.CLUBS}))
    ThrowChoice(card=Card('8D'), first=Card('7C'))
    """
    scoring = scoring_rules(rules)
    places = _place_list(scoring)
    four = sorted(places[c.index] for c in (*hand, drawn))
    if four[0] < 0 or len(set(four)) < 4:
        raise AnalysisError(
            f"cannot throw from {' '.join(map(str, (*hand, drawn)))}: four different cards of the deck are needed"
        )
    quad = math.comb(four[0], 1) + math.comb(four[1], 2) + math.comb(four[2], 3) + math.comb(four[3], 4)
    bits = sum(1 << SUIT_ORDER.index(s) for s in avoid)
    ranks = quad_ranks(scoring, way)  # the set's order of preference (the opponent model's table)
    first, second = int(ranks.cards[0][quad]), int(ranks.cards[1][quad])
    if taken:  # the first card other than the one taken (tested for every hand and card)
        first = second if first == drawn.index else first
        if bits:
            tables = tables_for(scoring)
            row = np.array([tables.row(sorted(c.index for c in hand))], dtype=np.int64)
            card = int(_pair_ranks(scoring, way, True, row, np.array([drawn.index])).choose(bits)[0])
        else:
            card = first
    else:
        card = int(_quad_choice(scoring, way, bits)[quad]) if bits else first
    return ThrowChoice(ALL_CARDS[card], ALL_CARDS[first])


@dataclass(frozen=True)
class ThrowLists:
    """:func:`throw_choice`'s tables as Python lists, for a play-out that throws one card at a
    time (:mod:`scatlab.players.playout`): each card's place in the deck, the binomial
    coefficients that number a set of four places, and per set of four cards (by that number)
    the first and second card the way of throwing would throw (not taken, nothing avoided), a
    byte each."""

    places: list[int]
    c2: list[int]
    c3: list[int]
    c4: list[int]
    first: bytes
    second: bytes

    def quad(self, a: int, b: int, c: int, d: int) -> int:
        """The number of the set of four cards ``a``-``d`` (card indices, any order).

        >>> from scatlab.rules import find_rules
        >>> t = throw_lists(find_rules("classic"), LAST_THROW)
        >>> t.quad(0, 1, 2, 3), t.quad(3, 2, 1, 0), t.quad(48, 49, 50, 51)
        (0, 0, 270724)
        """
        places = self.places
        p = sorted((places[a], places[b], places[c], places[d]))
        return p[0] + self.c2[p[1]] + self.c3[p[2]] + self.c4[p[3]]


@lru_cache(maxsize=16)
def throw_lists(scoring: RuleSet, way: ThrowKey) -> ThrowLists:
    """The :class:`ThrowLists` of one way of throwing (``scoring``: the rules' scoring,
    :func:`~scatlab.analysis.counting.tables.scoring_rules`)."""
    ranks = quad_ranks(scoring, way)
    n = range(52)
    return ThrowLists(
        _place_list(scoring),
        [math.comb(p, 2) for p in n],
        [math.comb(p, 3) for p in n],
        [math.comb(p, 4) for p in n],
        _as_bytes(ranks.cards[0]),
        _as_bytes(ranks.cards[1]),
    )


@lru_cache(maxsize=64)
def avoid_list(scoring: RuleSet, way: ThrowKey, avoid: int) -> bytes:
    """Per set of four cards (by :meth:`ThrowLists.quad`): the card one way of throwing
    throws, not taken, with the suits ``avoid`` (bits) avoided, a byte each."""
    return _as_bytes(_quad_choice(scoring, way, avoid))


def _as_bytes(cards: npt.NDArray[np.int8]) -> bytes:
    """Card indices as bytes (indexing bytes gives a Python int, at a byte a card; a set
    of four cards not in the deck, -1, reads 255)."""
    return cards.astype(np.uint8).tobytes()


@lru_cache(maxsize=8)
def _place_list(scoring: RuleSet) -> list[int]:
    """:func:`deck_places` as a Python list (one position at a time reads it faster)."""
    return [int(p) for p in deck_places(scoring)]


@lru_cache(maxsize=8)
def _ranks_for(scoring: RuleSet, key: ThrowKey, taken: bool) -> _Ranks:
    """The ranking for every hand row plus every card (``[j, row, card]``), for
    :meth:`~scatlab.analysis.model.hand_filter.LogFilter.throw_table` (about 0.3 s; the filter's steps do not need
    it)."""
    tables = tables_for(scoring)
    m = len(tables.rows)
    hands = np.repeat(np.arange(m), 52)
    drawn = np.tile(np.arange(52), m)
    ranks = _pair_ranks(scoring, key, taken, hands, drawn)
    return _Ranks(ranks.cards.reshape(4, m, 52), ranks.eligible.reshape(4, m, 52), ranks.valid.reshape(m, 52))


@lru_cache(maxsize=32)
def row_throws(scoring: RuleSet, key: ThrowKey, taken: bool, avoid: int) -> npt.NDArray[np.int8]:
    """``[row, card]``: the card thrown by one way of throwing with the suits ``avoid``
    avoided (:meth:`_Ranks.choose`), int8 (1.1 MB for 52 cards)."""
    return _ranks_for(scoring, key, taken).choose(avoid)


@lru_cache(maxsize=8)
def deck_places(scoring: RuleSet) -> IntArray:
    """Each card's place among the deck's cards in index order (-1 when not in the deck)."""
    tables = tables_for(scoring)
    places = np.full(52, -1, dtype=np.int64)
    places[tables.in_deck] = np.arange(int(tables.in_deck.sum()))
    return places


@lru_cache(maxsize=8)
def deck_layout(scoring: RuleSet) -> Layout:
    """How the rows and the sets of four of the deck are numbered
    (:class:`~scatlab.analysis.counting.vectorized.Layout`)."""
    return Layout.of(np.flatnonzero(tables_for(scoring).in_deck))


def _quad_ids(scoring: RuleSet, quads: IntArray) -> npt.NDArray[np.int32]:
    """The id of each set of four cards (rows of sorted card indices): its rank among the
    deck's 4-card sets in colexicographic order, from 0 to (deck choose 4) - 1."""
    return deck_layout(scoring).quad(deck_places(scoring)[quads])


@lru_cache(maxsize=16)
def quad_ranks(scoring: RuleSet, key: ThrowKey) -> _Ranks:
    """The ranking of one way of throwing (not taken) for every set of four cards of the
    deck, by id (:func:`_quad_ids`): 270,725 sets for 52 cards, 2.2 MB, about 0.05 s. The
    order depends only on the four cards (not on which was drawn), so the set's first
    three as the hand and its last as the card drawn stand for every way to hold it."""
    tables = tables_for(scoring)

    def build() -> dict[str, npt.NDArray[Any]]:
        rows = tables.rows
        deck_cards = np.flatnonzero(tables.in_deck)
        i, j = np.nonzero(rows[:, 2:3] < deck_cards[None, :])
        quads = np.concatenate([rows[i], deck_cards[j, None]], axis=1)
        ranks = _pair_ranks(scoring, key, False, i, deck_cards[j])
        order = np.empty(len(quads), dtype=np.int64)
        order[_quad_ids(scoring, quads)] = np.arange(len(quads))
        return {"cards": ranks.cards[:, order], "eligible": ranks.eligible[:, order], "valid": ranks.valid[order]}

    stored = cached("quad-ranks", (tables.key, key), build, sources=(__file__, TABLES_SOURCE))
    return _Ranks(
        np.ascontiguousarray(stored["cards"]),
        np.ascontiguousarray(stored["eligible"]),
        np.ascontiguousarray(stored["valid"]),
    )


@lru_cache(maxsize=64)
def _quad_choice(scoring: RuleSet, key: ThrowKey, avoid: int) -> npt.NDArray[np.int8]:
    """Per set of four cards (by id): the card thrown by one way of throwing with the suits
    ``avoid`` avoided (270 KB for 52 cards), shared by every filter of the same scoring
    rules; the 64 latest are kept."""
    return quad_ranks(scoring, key).choose(avoid)


def take_moves(
    scoring: RuleSet, key: ThrowKey, avoid: int, x: int, card: int
) -> tuple[IntArray, IntArray, npt.NDArray[np.int8]]:
    """A turn that took ``card`` and threw ``x``: the hands it may have started from (holding
    ``x``, not ``card``), the hand each keeps, and the card one way of throwing (see
    :meth:`!scatlab.analysis.model.hand_filter.LogFilter._throw_key`) throws from each plus ``card`` with the suits
    ``avoid``
    avoided. With no suit to avoid, that is the first card of the four's ranking
    (:func:`quad_ranks`) other than ``card``: taking a card away from the choice leaves the
    others' order as it was."""
    tables = tables_for(scoring)
    holding = rows_holding(scoring, x)
    ok = (holding.pair[:, 0] != card) & (holding.pair[:, 1] != card)
    rows, pair = holding.rows[ok], holding.pair[ok]
    if key[0] == "now":
        best = np.asarray(tables.discard[rows, card], dtype=np.int8)
    elif avoid == 0:  # the set's first card in its order that was not taken (tested for every hand and card)
        cards = quad_ranks(scoring, key).cards
        quads = deck_layout(scoring).quads_by_place()[deck_places(scoring)[card], rows]
        first, second = cards[0][quads], cards[1][quads]
        best = np.asarray(np.where(first == card, second, first), dtype=np.int8)
    else:
        best = _pair_ranks(scoring, key, True, rows, np.full(len(rows), card)).choose(avoid)
    return rows, tables.row_of[pair[:, 0], pair[:, 1], card], best


@lru_cache(maxsize=1024)
def thrown_by_place(scoring: RuleSet, key: ThrowKey, avoid: int, place: int) -> npt.NDArray[np.int8]:
    """Per hand row: the card one way of throwing throws from it plus the card at deck
    ``place``, with the suits ``avoid`` avoided (:func:`_quad_choice` laid out by hand,
    22 KB for 52 cards; the 1,024 latest kept)."""
    return np.asarray(_quad_choice(scoring, key, avoid)[deck_layout(scoring).quads_by_place()[place]], dtype=np.int8)


@lru_cache(maxsize=2 * 52)
def rows_holding(scoring: RuleSet, x: int) -> Holding:
    """The rows holding card ``x`` and their two other cards (shared by every filter of the
    scoring rules ``scoring``)."""
    rows = tables_for(scoring).rows
    has, _ = deck_layout(scoring).holding(int(deck_places(scoring)[x]))
    return Holding(has, rows[has][rows[has] != x].reshape(-1, 2))
