"""Hand values under every scoring variant, exact (C4, V1, V2, V3, V13) and the V17
tie-break.

A value is a :class:`~fractions.Fraction` (V2 makes three of a kind worth 61/2, so half
points exist); it is never a float. Values are cached per rule set's scoring options, so
the engine and the analysis can ask for them in their inner loops.

>>> from scatlab.rules.options import find_rules
>>> hand_value("AH KH 4C")
Fraction(21, 1)
>>> hand_value("7S 7H 7D"), hand_value("7S 7H 7D", find_rules("gin"))
(Fraction(7, 1), Fraction(61, 2))
>>> hand_value("AS AH AD", find_rules("cadillac"))
Fraction(33, 1)
>>> str(hand_value("9C 10C JC", RuleSet.from_codes("V3")))
'30'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from ..cards import Card, CardsLike, Rank, parse_cards
from .options import CLASSIC, RuleSet, find_rules

__all__ = [
    "hand_value",
    "value_of",
    "tiebreak_key",
    "is_blitz",
    "blitz_of",
    "is_flush",
    "pretty_value",
    "format_value",
    "value_rule",
    "BLITZ",
]

BLITZ = Fraction(31)
"""31: a hand this high (or a Grand Cadillac, 33) is declared at once (C8, C9, V13)."""

_SMALL = tuple(Fraction(n) for n in range(45))  # up to four cards of one suit
# One table per scoring configuration (RuleSet.hand_scoring): card bit mask -> value.
_TABLES: dict[tuple[object, ...], dict[int, Fraction]] = {}
_BLITZ_TABLES: dict[tuple[object, ...], dict[int, bool]] = {}


def hand_value(cards: CardsLike, rules: RuleSet | str | Mapping[str, Any] = CLASSIC) -> Fraction:
    """The exact value of a three-card hand under ``rules`` (a :class:`RuleSet`, a preset
    name or alias, or an object of options; cards-like input is parsed and must be three
    cards of the rule set's deck).

    C4: the best total of the cards of any single suit (three different suits: the
    highest single card); V1/V2: three of a kind counts 30 or 30.5; V3: a straight flush
    counts 30, A-K-Q of a suit 31 (the Ace may also be low: A-2-3); V13: three Aces are a
    Grand Cadillac, 33.

    >>> hand_value("AH 10C 9C"), hand_value("2C 5D 9H"), hand_value("7S 7H 7D", "quick")
    (Fraction(19, 1), Fraction(9, 1), Fraction(30, 1))
    >>> hand_value("AH KH")
    Traceback (most recent call last):
    ...
    scatlab.errors.CardError: expected 3 cards in a hand, got 2: 'AH KH'
    """
    ruleset = find_rules(rules)
    return value_of(parse_cards(cards, count=3, deck_size=ruleset.deck_size, what="cards in a hand"), ruleset)


def value_of(cards: Sequence[Card], rules: RuleSet = CLASSIC) -> Fraction:
    """:func:`hand_value` for cards already parsed (the fast, cached path; no
    validation)."""
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    try:
        table = _TABLES[rules.hand_scoring]
    except KeyError:
        table = _TABLES[rules.hand_scoring] = {}
    try:
        return table[mask]
    except KeyError:
        value = table[mask] = _compute(cards, rules)
        return value


def blitz_of(cards: Sequence[Card], rules: RuleSet = CLASSIC) -> bool:
    """Whether ``cards`` make a hand that is declared at once (31, or 33 under V13):
    :func:`is_blitz` of :func:`value_of`, cached (the engine asks after every discard)."""
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    try:
        table = _BLITZ_TABLES[rules.hand_scoring]
    except KeyError:
        table = _BLITZ_TABLES[rules.hand_scoring] = {}
    try:
        return table[mask]
    except KeyError:
        flag = table[mask] = is_blitz(value_of(cards, rules))
        return flag


def _compute(cards: Sequence[Card], rules: RuleSet) -> Fraction:
    sums: dict[object, int] = {}
    for card in cards:
        sums[card.suit] = sums.get(card.suit, 0) + card.value
    value = _SMALL[max(sums.values())] if sums else _SMALL[0]
    if len(cards) != 3:
        return value
    three_of_a_kind, straight_flush, grand_cadillac = rules.hand_scoring
    if cards[0].rank == cards[1].rank == cards[2].rank:
        if grand_cadillac and cards[0].rank is Rank.ACE:
            return _SMALL[33]
        if three_of_a_kind is not None and three_of_a_kind > value:
            value = three_of_a_kind
    if straight_flush and _is_straight_flush(cards):
        value = max(value, _SMALL[30])
    return value


def _is_straight_flush(cards: Sequence[Card]) -> bool:
    if not is_flush(cards):
        return False
    ranks = sorted(int(c.rank) for c in cards)
    if ranks[2] - ranks[0] == 2 and len(set(ranks)) == 3:
        return True
    return ranks == [2, 3, 14]  # A-2-3: the Ace plays low


def is_flush(cards: Sequence[Card]) -> bool:
    """Whether all the cards are of one suit (V5: only such a hand may knock).

    >>> is_flush(parse_cards("2H 9H KH")), is_flush(parse_cards("2H 9H KS"))
    (True, False)
    """
    return len({c.suit for c in cards}) == 1


def is_blitz(value: Fraction) -> bool:
    """Whether a hand of this value is declared at once: 31, or a Grand Cadillac (V13)."""
    return value >= BLITZ


def tiebreak_key(cards: Sequence[Card], rules: RuleSet = CLASSIC) -> tuple[Fraction | int, ...]:
    """What decides who is higher at a showdown: the value, then (with V17) the ranks of
    the counted cards from the highest down, as in poker.

    Without ``rank_tiebreak`` the key is the value alone, so equal values tie.

    >>> from scatlab.rules.options import find_rules
    >>> fc = find_rules("french-canadian")
    >>> key = lambda text: tiebreak_key(parse_cards(text), fc)
    >>> key("AH 10H 9H") > key("KS QS JS"), key("KH 10H 9H") > key("QC JC 9C")
    (True, True)
    >>> key("KD JD 7D") > key("KH 9H 8H")
    True
    """
    value = value_of(cards, rules)
    if not rules.rank_tiebreak:
        return (value,)
    return (value, *_counted_ranks(cards, value, rules))


def _counted_ranks(cards: Sequence[Card], value: Fraction, rules: RuleSet) -> list[int]:
    by_suit: dict[object, list[Card]] = {}
    for card in cards:
        by_suit.setdefault(card.suit, []).append(card)
    best: list[int] = []
    for group in by_suit.values():
        if sum(c.value for c in group) == value or len(group) == len(cards):
            ranks = sorted((int(c.rank) for c in group), reverse=True)
            best = max(best, ranks)
    if not best:  # a special value (three of a kind): every card counts
        best = sorted((int(c.rank) for c in cards), reverse=True)
    return best


def value_rule(cards: CardsLike, rules: RuleSet | str | Mapping[str, Any] = CLASSIC) -> str:
    """The code of the rule that gives three cards their value under ``rules``: a Grand
    Cadillac's 33 (V13), three of a kind's 30 (V1) or 30½ (V2, whichever preset plays it:
    GIN's 30½ is V2's value), a straight flush's 30 (V3), else the best suit (C4).

    >>> from scatlab.rules.options import find_rules
    >>> value_rule("7S 7H 7D", "gin"), value_rule("7S 7H 7D", "quick"), value_rule("7S 7H 7D")
    ('V2', 'V1', 'C4')
    >>> value_rule("AS AH AD", "cadillac"), value_rule("9C 10C JC", RuleSet.from_codes("V3"))
    ('V13', 'V3')
    >>> value_rule("AH KH 4C", "gin")
    'C4'
    """
    ruleset = find_rules(rules)
    hand = parse_cards(cards, count=3, deck_size=ruleset.deck_size, what="cards in a hand")
    suit_value = _compute(hand, CLASSIC)
    value = value_of(hand, ruleset)
    if value == suit_value:
        return "C4"
    if hand[0].rank == hand[1].rank == hand[2].rank:
        if ruleset.grand_cadillac and hand[0].rank is Rank.ACE:
            return "V13"
        return "V2" if value == Fraction(61, 2) else "V1"
    return "V3"


def pretty_value(value: Fraction) -> str:
    """A hand value as the table and charts show it: whole numbers as they are, 30.5 (V2)
    as ``30½``, anything else to two places.

    >>> pretty_value(Fraction(61, 2)), pretty_value(Fraction(21))
    ('30½', '21')
    """
    if value.denominator == 1:
        return str(value.numerator)
    if value.denominator == 2:
        return f"{value.numerator // 2}½"
    return f"{float(value):.2f}"


def format_value(value: Fraction | None) -> str:
    """An exact value as text: ``"21"``, a half as ``"30.5"`` (never ``"61/2"``; ``Fraction``
    reads it back exactly), anything else as its fraction; ``None`` gives ``"-"``.

    >>> format_value(Fraction(61, 2)), format_value(Fraction(21)), Fraction(format_value(Fraction(61, 2)))
    ('30.5', '21', Fraction(61, 2))
    """
    if value is None:
        return "-"
    if value.denominator == 2:
        return f"{value.numerator / 2:.1f}"
    return str(value)
