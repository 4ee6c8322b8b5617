"""One turn, exactly: taking the discard, drawing from the stock, or choosing a discard.

Under the model of :mod:`scatlab.analysis.counting.knowledge` (the top of the stock is equally
likely to be any unseen card), every number here is an exact :class:`Fraction`: a count
of unseen cards over their number.

>>> from scatlab.analysis.counting.knowledge import Knowledge
>>> turn = analyze_turn(Knowledge.of("AH KH 4C", discard="9S"))
>>> turn.draw.expected_value, turn.draw.p_31, turn.draw.p_improve
(Fraction(541, 24), Fraction(1, 16), Fraction(11, 48))
>>> [str(c) for c in turn.draw.outs_31]
['10H', 'JH', 'QH']
>>> turn.take.best.discard, turn.take.best.value
(Card('4C'), Fraction(21, 1))
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cached_property
from typing import NamedTuple

from ...cards import ALL_CARDS, Card
from .knowledge import Knowledge
from .tables import BLITZ2, RANK_BITS, Tables, hand_index, tables_for

__all__ = ["DiscardOption", "TakeAnalysis", "DrawOutcome", "DrawAnalysis", "TurnAnalysis", "analyze_turn"]


class DiscardOption(NamedTuple):
    """Discarding ``discard`` leaves a hand worth ``value`` (a named tuple: the hot path
    builds many)."""

    discard: Card
    value: Fraction
    strength: int

    def to_json(self) -> dict[str, str]:
        return {"discard": str(self.discard), "value": str(self.value)}


class TakeAnalysis(NamedTuple):
    """Taking the top discard ``card``: the value after each allowed discard (C5: the taken
    card may not go back), best first."""

    card: Card
    options: tuple[DiscardOption, ...]

    @property
    def best(self) -> DiscardOption:
        """The discard that keeps the strongest hand."""
        return self.options[0]

    def to_json(self) -> dict[str, object]:
        return {"card": str(self.card), "options": [o.to_json() for o in self.options]}


class DrawOutcome(NamedTuple):
    """Drawing ``card``: the best ``discard`` and the ``value`` kept."""

    card: Card
    discard: Card
    value: Fraction


class DrawAnalysis:
    """Drawing from the stock, over every unseen card (each equally likely).

    ``expected_value``, ``p_31`` and ``p_improve`` are exact; ``distribution`` maps each
    resulting value to its probability; ``outs_31`` and ``outs_improve`` are the unseen
    cards that make 31 or raise the value, as a poker player counts outs. With a drawn
    card the best discard is chosen (ties: throw the drawn card back, else the lowest).
    """

    __slots__ = (
        "current",
        "unseen",
        "_cards",
        "_strengths",
        "_tables",
        "_row",
        "_counts",
        "total2",
        "count_31",
        "count_improve",
        "__dict__",
    )

    def __init__(self, current2: int, cards: tuple[int, ...], strengths: list[int], tables: Tables, row: int) -> None:
        self.current = _HALVES[current2]
        self.unseen = len(cards)
        self._cards = cards
        self._strengths = strengths
        self._tables = tables
        self._row = row
        counts = self._counts = Counter([s >> RANK_BITS for s in strengths])  # value2 -> cards
        total = n31 = better = 0
        for v2, n in counts.items():
            total += v2 * n
            if v2 >= BLITZ2:
                n31 += n
            if v2 > current2:
                better += n
        self.total2, self.count_31, self.count_improve = total, n31, better

    @property
    def expected_value(self) -> Fraction:
        """The exact expected value of the hand kept after drawing."""
        return Fraction(self.total2, 2 * self.unseen)

    @property
    def p_31(self) -> Fraction:
        """The probability of drawing to 31 (or a Grand Cadillac, V13)."""
        return Fraction(self.count_31, self.unseen)

    @property
    def p_improve(self) -> Fraction:
        """The probability that the kept hand is worth more than the hand now."""
        return Fraction(self.count_improve, self.unseen)

    @cached_property
    def outcomes(self) -> tuple[DrawOutcome, ...]:
        """For every unseen card, the best discard and the value kept."""
        thrown = self._tables.discard_row(self._row)
        return tuple(
            DrawOutcome(ALL_CARDS[c], ALL_CARDS[thrown[c]], _HALVES[s >> RANK_BITS])
            for c, s in zip(self._cards, self._strengths)
        )

    @cached_property
    def distribution(self) -> dict[Fraction, Fraction]:
        """Resulting value -> probability, highest value first; the probabilities sum to 1."""
        return {_HALVES[v]: Fraction(n, self.unseen) for v, n in sorted(self._counts.items(), reverse=True)}

    @cached_property
    def outs_31(self) -> tuple[Card, ...]:
        """The unseen cards that make 31."""
        return tuple(ALL_CARDS[c] for c, s in zip(self._cards, self._strengths) if s >> RANK_BITS >= BLITZ2)

    @cached_property
    def outs_improve(self) -> tuple[Card, ...]:
        """The unseen cards that raise the hand's value."""
        cur2 = int(self.current * 2)
        return tuple(ALL_CARDS[c] for c, s in zip(self._cards, self._strengths) if s >> RANK_BITS > cur2)

    def plan(self) -> dict[Card, Card]:
        """Which card to throw for each card that may be drawn."""
        return {o.card: o.discard for o in self.outcomes}

    def to_json(self) -> dict[str, object]:
        return {
            "expected_value": str(self.expected_value),
            "p_31": str(self.p_31),
            "p_improve": str(self.p_improve),
            "distribution": {str(v): str(p) for v, p in self.distribution.items()},
            "outs_31": [str(c) for c in self.outs_31],
            "outs_improve": [str(c) for c in self.outs_improve],
            "plan": {str(o.card): str(o.discard) for o in self.outcomes},
        }


class TurnAnalysis(NamedTuple):
    """The exact one-turn numbers for a :class:`Knowledge`.

    With three cards: ``take`` (None when there is no discard to take) and ``draw`` (None
    when the stock is known to be exhausted). With
    four cards (just after drawing or taking): ``discards``, the value after each allowed
    discard.
    """

    knowledge: Knowledge
    value: Fraction
    take: TakeAnalysis | None
    draw: DrawAnalysis | None
    discards: tuple[DiscardOption, ...] = ()


_HALVES = tuple(Fraction(n, 2) for n in range(100))
"""Exact values by twice their value (shared, so the hot path allocates no Fraction)."""
_POINTS = tuple(c.value for c in ALL_CARDS)


def _options(tables: Tables, hand: tuple[Card, ...], banned: Card | None) -> tuple[DiscardOption, ...]:
    """Discard options of a 4-card hand, strongest first (ties: lowest card thrown first)."""
    scored = []
    t = tables.triple_list
    idx = [c.index for c in hand]
    for i, d in enumerate(hand):
        if d is banned:
            continue
        a, b, c = idx[:i] + idx[i + 1 :]
        s = t[hand_index(a, b, c)]
        scored.append((-s, _POINTS[d.index], d.index, d))
    scored.sort()
    return tuple(DiscardOption(d, _HALVES[-s >> RANK_BITS], -s) for s, _, _, d in scored)


def analyze_turn(knowledge: Knowledge) -> TurnAnalysis:
    """The exact one-turn analysis (see the module doc)."""
    tables = tables_for(knowledge.rules)
    hand = knowledge.hand
    if len(hand) == 4:
        options = _options(tables, hand, knowledge.taken)
        return TurnAnalysis(knowledge, options[0].value, None, None, options)
    idx = [c.index for c in hand]
    current2 = tables.strength_of(idx) >> RANK_BITS
    take = None
    if knowledge.top is not None:
        take = TakeAnalysis(knowledge.top, _options(tables, hand + (knowledge.top,), knowledge.top))
    if knowledge.stock_size == 0:  # C11: the stock is exhausted, nothing to draw
        return TurnAnalysis(knowledge, _HALVES[current2], take, None)
    row = tables.row(idx)
    after = tables.after_draw_row(row)
    unseen = knowledge.unseen_index
    draw = DrawAnalysis(current2, unseen, [after[c] for c in unseen], tables, row)
    return TurnAnalysis(knowledge, _HALVES[current2], take, draw)
