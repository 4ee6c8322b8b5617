"""Cards and notation (C1, V18): parse/format round trips and errors that teach."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scatlab.cards import ALL_CARDS, Card, Rank, Suit, deck, format_cards, parse_card, parse_cards, sort_cards
from scatlab.errors import CardError


def test_C1_deck_has_52_distinct_cards_with_values() -> None:
    assert len(ALL_CARDS) == 52 == len(set(ALL_CARDS))
    assert sorted(c.index for c in ALL_CARDS) == list(range(52))
    values = sorted(c.value for c in ALL_CARDS)
    assert values.count(11) == 4 and values.count(10) == 16
    assert sum(values) == 4 * (11 + 10 * 4 + sum(range(2, 10)))


def test_V18_32_card_deck_is_seven_and_higher() -> None:
    d32 = deck(32)
    assert len(d32) == 32
    assert {c.rank for c in d32} == {r for r in Rank if r >= Rank.SEVEN}
    with pytest.raises(CardError, match="52 cards .* or 32"):
        deck(40)


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_every_card_round_trips_through_all_notations(card: Card) -> None:
    text = str(card)
    assert parse_card(text) is card
    assert parse_card(text.lower()) is card
    assert parse_card(card.pretty) is card
    assert eval(repr(card), {"Card": Card.parse}) is card
    if card.rank is Rank.TEN:
        assert parse_card("T" + card.suit.letter.lower()) is card
    assert pickle.loads(pickle.dumps(card)) is card


def test_parse_accepts_the_issue_examples_in_one_canonical_form() -> None:
    expected = "AH KH 10C"
    for text in ("AH KH 10C", "ah kh tc", "A♥ K♥ 10♣", "AH,KH,10C", "ah, kh, 10c", "A♡ K♡ T♧"):
        assert format_cards(parse_cards(text)) == expected


def test_cards_like_inputs_are_normalised() -> None:
    ah = Card(Rank.ACE, Suit.HEARTS)
    assert parse_cards(ah) == (ah,)
    assert parse_cards(["AH", ah.__class__.parse("kh")]) == parse_cards("AH KH")
    assert parse_cards("") == ()


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("1H", "'1H' is not a card: '1' is not a rank"),
        ("ZZ", "'ZZ' is not a card: 'Z' is not a rank"),
        ("AX", "'AX' is not a card: 'X' is not a suit"),
        ("A", "'A' is not a card: the suit is missing"),
        ("11H", "'11H' is not a card: '11' is not a rank"),
        ("AH KH AH", "'AH' appears twice in 'AH KH AH'"),
    ],
)
def test_bad_notation_names_the_token_and_what_is_accepted(text: str, fragment: str) -> None:
    with pytest.raises(CardError) as info:
        parse_cards(text)
    message = str(info.value)
    assert fragment in message
    if "twice" not in fragment:
        assert "A K Q J 10 9 8 7 6 5 4 3 2" in message and "H D C S" in message


def test_V18_card_outside_the_32_card_deck_is_refused() -> None:
    with pytest.raises(CardError, match=r"'6H' is not in the 32-card deck \(V18\)"):
        parse_cards("AH 6H", deck_size=32)
    assert len(parse_cards("AH 7H", deck_size=32)) == 2


def test_wrong_number_of_cards_is_refused() -> None:
    with pytest.raises(CardError, match=r"expected 3 cards, got 2: 'AH KH'"):
        parse_cards("AH KH", count=3)


def test_errors_are_value_errors_never_key_or_index_errors() -> None:
    for bad in ("", "  ", "H", "10", "1", "A♥♥", "♥A", "KK", "10 H"):
        try:
            parse_card(bad)
        except CardError as exc:
            assert isinstance(exc, ValueError)
        else:  # pragma: no cover - every token above is bad
            pytest.fail(f"{bad!r} was accepted")


@settings(max_examples=500)
@given(st.text(max_size=12))
def test_fuzz_parse_cards_raises_only_card_error(text: str) -> None:
    try:
        cards = parse_cards(text)
    except CardError:
        return
    assert parse_cards(format_cards(cards)) == cards


@given(st.permutations(ALL_CARDS).map(lambda cs: cs[:7]))
def test_hand_round_trip(cards: list[Card]) -> None:
    text = format_cards(cards)
    assert parse_cards(text) == tuple(cards)
    assert parse_cards(format_cards(cards, pretty=True)) == tuple(cards)


def test_cards_are_immutable_and_sort_by_suit() -> None:
    card = parse_card("AH")
    with pytest.raises(AttributeError):
        card.rank = Rank.TWO
    assert format_cards(sort_cards(parse_cards("2C AH 10C KH"))) == "10C 2C AH KH"
