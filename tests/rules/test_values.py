"""Hand values (C4, V1, V2, V3, V13, V17) and the exact statistics anyone can check."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from scatlab.cards import ALL_CARDS, deck, parse_cards
from scatlab.rules import RuleSet, find_rules, hand_value, tiebreak_key, value_of


@pytest.mark.parametrize(
    ("hand", "value"),
    [
        ("AH KH 4C", 21),  # the browser text's example
        ("AH KH QH", 31),
        ("AH 10C 9C", 19),
        ("2C 5D 9H", 9),
        ("AS 2D 3H", 11),
        ("7S 7H 7D", 7),
        ("10S JS 2C", 20),
    ],
)
def test_C4_value_is_best_single_suit_total(hand: str, value: int) -> None:
    result = hand_value(hand)
    assert result == value and isinstance(result, Fraction)


def test_V1_and_V2_three_of_a_kind_are_exact() -> None:
    v1, v2 = RuleSet.from_codes("V1"), RuleSet.from_codes("V2")
    assert hand_value("7S 7H 7D", v1) == 30
    assert hand_value("7S 7H 7D", v2) == Fraction(61, 2)
    assert str(hand_value("2S 2H 2D", v2)) == "61/2"
    assert hand_value("KS KH KD", v1) == hand_value("KH QH JH", v1) == 30


def test_V3_straight_flush() -> None:
    v3 = RuleSet.from_codes("V3")
    assert hand_value("9C 10C JC", v3) == 30
    assert hand_value("2D 3D 4D", v3) == 30
    assert hand_value("AS 2S 3S", v3) == 30
    assert hand_value("AH KH QH", v3) == 31
    assert hand_value("2D 3D 5D", v3) == 10
    assert hand_value("9C 10C JD", v3) == 19


def test_V13_grand_cadillac_is_33() -> None:
    cadillac = find_rules("cadillac")
    assert hand_value("AS AH AD", cadillac) == 33
    assert hand_value("KS KH KD", cadillac) == 30
    assert hand_value("AS AH AD") == 11


def test_V17_tiebreak_orders_equal_values_by_ranks() -> None:
    fc = find_rules("french-canadian")

    def key(text: str) -> tuple[Fraction | int, ...]:
        return tiebreak_key(parse_cards(text), fc)

    assert key("AH 10H 9H") > key("KS QS JS")
    assert key("KH 10H 9H") > key("QC JC 9C")
    assert key("KD JD 7D") > key("KH 9H 8H")
    assert key("KD JD 7D") == key("KH JH 7H")
    assert tiebreak_key(parse_cards("AH 10H 9H")) == tiebreak_key(parse_cards("KS QS JS"))


def _all_hands(size: int = 52) -> list[tuple]:  # type: ignore[type-arg]
    return list(itertools.combinations(deck(size), 3))


def test_C4_exactly_24_of_22100_deals_are_worth_31() -> None:
    hands = _all_hands()
    assert len(hands) == 22100
    thirty_ones = sum(1 for h in hands if value_of(h) == 31)
    assert thirty_ones == 24
    assert Fraction(thirty_ones, len(hands)) == Fraction(6, 5525)


def test_C4_mean_value_of_a_three_card_deal_is_72311_over_5525() -> None:
    hands = _all_hands()
    mean = sum((value_of(h) for h in hands), Fraction(0)) / len(hands)
    assert mean == Fraction(72311, 5525)


def test_V1_V2_V13_counts_over_all_deals() -> None:
    """Every 3-card hand under the presets' scoring, through one distribution each
    (pokerkit-style exhaustive check). Suited hands worth 30: three ten-cards (4 per suit)
    or Ace-9-ten-card (4 per suit), 32 in all; three of a kind: 13 ranks x 4 = 52."""
    classic = Counter(value_of(h) for h in _all_hands())
    assert classic[Fraction(30)] == 32 and sum(classic.values()) == 22100
    quick = Counter(value_of(h, find_rules("quick")) for h in _all_hands())
    assert quick[Fraction(30)] == 32 + 52
    cadillac = Counter(value_of(h, find_rules("cadillac")) for h in _all_hands())
    assert cadillac[Fraction(33)] == 4 and cadillac[Fraction(30)] == 32 + 48
    gin = Counter(value_of(h, find_rules("gin")) for h in _all_hands())
    assert gin[Fraction(61, 2)] == 52 and gin[Fraction(30)] == 32
    dutch = Counter(value_of(h, find_rules("eenendertigen")) for h in _all_hands(32))
    assert sum(dutch.values()) == 4960 and dutch[Fraction(31)] == 24


def test_values_agree_with_a_direct_count() -> None:
    """The cached fast path against a plain per-suit sum for every card triple."""
    for hand in _all_hands():
        sums: dict[object, int] = {}
        for c in hand:
            sums[c.suit] = sums.get(c.suit, 0) + c.value
        assert value_of(hand) == max(sums.values())
    assert len(ALL_CARDS) == 52
