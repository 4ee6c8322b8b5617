"""Skat game values from the seed ``002_…`` (Scoring points 5-11): the contrast in lesson 7.

Tests are named after the seed's rule they check.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scatlab.course.skat import (
    BASE_VALUES,
    NULL_VALUES,
    SkatError,
    count_matadors,
    game_value,
    parse_skat_cards,
    settle,
)
from scatlab.errors import ScatlabError


def test_base_values_are_the_seeds() -> None:
    assert BASE_VALUES == {"diamonds": 9, "hearts": 10, "spades": 11, "clubs": 12, "grand": 24}


@pytest.mark.parametrize(
    ("hand", "ouvert", "value"),
    [(False, False, 23), (True, False, 35), (False, True, 46), (True, True, 59)],
)
def test_null_values_are_fixed(hand: bool, ouvert: bool, value: int) -> None:
    assert NULL_VALUES[(hand, ouvert)] == value
    assert game_value("null", hand=hand, ouvert=ouvert).value == value
    # "46 lost if unsuccessful" ... "118 lost": twice the value
    assert settle(game_value("null", hand=hand, ouvert=ouvert), won=False) == -2 * value


@pytest.mark.parametrize(
    ("kwargs", "value"),
    [
        ({"contract": "diamonds"}, 18),  # with or without 1: the lowest game, the lowest bid
        ({"contract": "clubs", "matadors": 2}, 36),
        ({"contract": "grand", "matadors": 4}, 120),
        ({"contract": "grand", "matadors": 1, "hand": True}, 72),
        ({"contract": "hearts", "matadors": 3, "schneider": True}, 50),
        ({"contract": "spades", "matadors": 1, "hand": True, "schneider": True, "schneider_announced": True}, 55),
        # schwarz is also schneider: game 1 + 1 matador + schneider + schwarz = 4
        ({"contract": "hearts", "matadors": 1, "schwarz": True}, 40),
        # ouvert announces schwarz and schneider too: 1 + 2 + hand + 2 schneider + 2 schwarz + ouvert
        ({"contract": "clubs", "matadors": 2, "hand": True, "schwarz": True, "ouvert": True}, 12 * 9),
    ],
)
def test_game_value_is_base_times_the_added_levels(kwargs: dict[str, object], value: int) -> None:
    options = dict(kwargs)
    contract = str(options.pop("contract"))
    assert game_value(contract, **options).value == value  # type: ignore[arg-type]


def test_a_schneider_announced_and_made_adds_two() -> None:
    """Seed point 7: 'if a declarer both calls and achieves Schneider, they will add 2'."""
    made = game_value("grand", matadors=1, hand=True, schneider=True)
    called = game_value("grand", matadors=1, hand=True, schneider=True, schneider_announced=True)
    assert called.multiplier - game_value("grand", matadors=1, hand=True).multiplier == 2
    assert called.value - made.value == 24


def test_matadors_with_count_the_unbroken_run_from_the_jack_of_clubs() -> None:
    assert count_matadors("JC JS JH JD 7D 8D 9D AH 10H KH QH AS", "grand") == ("with", 4)
    assert count_matadors("JC JS 7D 8D 9D AH 10H KH QH AS 10S KS", "grand") == ("with", 2)
    assert count_matadors("JC JH JD AH 10H KH QH 9H 8H 7H AS 10S", "hearts") == ("with", 1)


def test_matadors_without_count_the_missing_top_trumps() -> None:
    assert count_matadors("JH JD AH 10H KH QH 9H 8H 7H AS 10S KS", "hearts") == ("without", 2)
    # no Jack at all and no ace of trumps: without 5 in a suit game
    assert count_matadors("10D KD QD 9D 8D 7D AS 10S KS AC 10C KC", "diamonds") == ("without", 5)
    assert count_matadors("AC 10C KC QC 9C 8C 7C AS 10S KS QS 9S", "grand") == ("without", 4)


def test_matadors_feed_the_game_value() -> None:
    kind, n = count_matadors("JS JH AC 10C KC QC 9C 8C 7C AS 10S KS", "clubs")
    assert (kind, n) == ("without", 1)
    assert game_value("clubs", matadors=n).value == 24


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: game_value("trumps"), "'trumps' is not a Skat contract"),
        (lambda: game_value("grand", matadors=5), "matadors=5 is impossible in a grand"),
        (lambda: game_value("hearts", matadors=0), "matadors=0 is impossible in a hearts"),
        (lambda: game_value("hearts", matadors=12), "matadors=12"),
        (lambda: game_value("hearts", schwarz_announced=True), "needs a hand game"),
        (lambda: game_value("grand", ouvert=True), "needs a hand game"),
        (lambda: parse_skat_cards("6H"), "'6H' is not a Skat card"),
        (lambda: parse_skat_cards("JC jc"), "appears twice"),
        (lambda: count_matadors("JC JS", "clubs"), "has 2 cards"),
        (lambda: count_matadors("JC JS", "null"), "no matadors"),
        (lambda: settle(game_value("hearts"), won=True, bid=17), "bid=17"),
    ],
)
def test_bad_input_is_refused_with_a_message_that_quotes_it(call: object, message: str) -> None:
    with pytest.raises(SkatError, match=message) as info:
        call()  # type: ignore[operator]
    assert isinstance(info.value, ScatlabError) and isinstance(info.value, ValueError)


def test_a_lost_game_subtracts_twice_its_value() -> None:
    assert settle(game_value("grand", matadors=2), won=False) == -144


def test_an_overbid_game_is_lost_at_the_next_multiple_of_the_base_value() -> None:
    # hearts with 1 is worth 20; bid 22: lost, valued at 30 (3 x 10), minus 60
    assert settle(game_value("hearts", matadors=1), won=True, bid=22) == -60
    assert settle(game_value("hearts", matadors=1), won=True, bid=20) == 20


@settings(derandomize=True, max_examples=200)
@given(
    contract=st.sampled_from(["diamonds", "hearts", "spades", "clubs", "grand"]),
    matadors=st.integers(1, 4),
    hand=st.booleans(),
    schneider=st.booleans(),
    schwarz=st.booleans(),
)
def test_every_suit_or_grand_value_is_a_multiple_of_its_base(
    contract: str, matadors: int, hand: bool, schneider: bool, schwarz: bool
) -> None:
    v = game_value(contract, matadors=matadors, hand=hand, schneider=schneider, schwarz=schwarz)
    assert v.value % BASE_VALUES[contract] == 0
    assert v.value == BASE_VALUES[contract] * (1 + matadors + hand + (schneider or schwarz) + schwarz)
    assert str(v.value) in v.explain()
