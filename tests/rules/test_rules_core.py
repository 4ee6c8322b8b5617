"""Scenario tests for the core rules C1-C14 of RULES.md (the ``classic`` preset).

Every scenario is dealt from an explicit deck order (:func:`scatlab.rules.deal_order`, or a
raw order where the deal itself is under test) and checks exactly who loses what.

Seats are numbered clockwise: player ``i + 1`` sits to the left of player ``i``, so with
dealer 0 in a three-player game the turn order is 1, 2, 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import pytest

from scatlab.cards import Card, Rank, Suit, deck, parse_cards
from scatlab.errors import CardError, IllegalActionError, RulesError, ScatlabError
from scatlab.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    GameState,
    Phase,
    RuleSet,
    deal_order,
    find_rules,
    hand_value,
)

CLASSIC = find_rules("classic")
BLITZ_HAND = "AH KH QH"
"""A hand dealt 31 (C9)."""
LOW_HANDS = ("2C 3D 4S", "5C 6D 7S", "8C 9D 2S", "3C 4D 5S", "6C 7D 8S")
"""Low hands with no 31 anywhere near, one per seat, for hands ended by a dealt 31."""


# -- helpers -------------------------------------------------------------------------------


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def start(
    hands: Sequence[str | None],
    up: str,
    stock: str = "",
    *,
    dealer: int = 0,
    rules: RuleSet = CLASSIC,
) -> GameState:
    """A new game of ``len(hands)`` players, dealt the given hands (one per seat)."""
    state = GameState.new(rules, players=len(hands), dealer=dealer)
    return state.deal(deal_order(hands, up=up, stock=stock, dealer=dealer, rules=rules))


def deal_next(state: GameState, hands: Sequence[str | None], up: str, stock: str = "") -> GameState:
    """Deal the next hand of a running game (the dealer is whoever's turn it is to deal)."""
    assert state.phase is Phase.DEAL
    return state.deal(deal_order(hands, up=up, stock=stock, dealer=state.dealer, rules=state.rules))


def play(state: GameState, *actions: str) -> GameState:
    """Apply the actions in order, each by the player to move."""
    for action in actions:
        state = state.apply(action)
    return state


def dealt_31_to(state: GameState, seat: int) -> GameState:
    """Deal a hand in which ``seat`` is dealt 31 (C9): everyone else still in loses a life."""
    hands: list[str | None] = []
    for p in range(state.num_players):
        if state.out[p]:
            hands.append(None)
        elif p == seat:
            hands.append(BLITZ_HAND)
        else:
            hands.append(LOW_HANDS[p])
    result = deal_next(state, hands, up="10D")
    assert result.phase in (Phase.DEAL, Phase.GAME_OVER)
    assert result.results[-1].ended == "dealt_31"
    return result


def exhaust_stock(state: GameState, leave: int = 0) -> GameState:
    """Every player in turn draws the top of the stock and discards that same card (C5),
    until ``leave`` cards are left in the stock; hands do not change."""
    while state.stock_size > leave:
        card = state.remaining_stock[0]
        state = state.apply("draw")
        state = state.apply(f"discard {card}")
    return state


def names(state: GameState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def snapshot(state: GameState) -> tuple[object, ...]:
    return (
        state.phase,
        state.to_move,
        state.hands,
        state.discards,
        state.stock_pos,
        state.taken,
        state.drawn,
        state.knocker,
        state.lives,
        state.events,
        state.results,
    )


# -- C1 deck and card values ---------------------------------------------------------------


def test_C1_deck_has_52_distinct_cards_of_four_suits_and_thirteen_ranks() -> None:
    full = deck()
    assert len(full) == 52
    assert len(set(full)) == 52
    for suit in Suit:
        assert sum(1 for c in full if c.suit is suit) == 13
    for rank in Rank:
        assert sum(1 for c in full if c.rank is rank) == 4
    assert deck(52) == full


def test_C1_card_values_ace_11_faces_10_pips_their_number() -> None:
    expected = {
        "A": 11,
        "K": 10,
        "Q": 10,
        "J": 10,
        "10": 10,
        "9": 9,
        "8": 8,
        "7": 7,
        "6": 6,
        "5": 5,
        "4": 4,
        "3": 3,
        "2": 2,
    }
    for suit in "CDHS":
        for rank, value in expected.items():
            assert Card.parse(rank + suit).value == value
    assert sum(c.value for c in deck()) == 4 * (11 + 3 * 10 + sum(range(2, 11)))


def test_C1_a_deal_needs_the_whole_52_card_deck() -> None:
    state = GameState.new(CLASSIC, players=2, dealer=0)
    order = deal_order(["AH KH 4C", "2S 3S 4S"], up="9S")
    assert len(order) == 52 and set(order) == set(deck())
    with pytest.raises(CardError) as short:
        state.deal(order[:51])
    assert "51 cards" in str(short.value) and str(order[51]) in str(short.value)
    with pytest.raises(CardError):
        state.deal(order[:51] + (order[0],))  # a duplicate card
    assert state.phase is Phase.DEAL and state.hand_number == 0


# -- C2 players ----------------------------------------------------------------------------


def test_C2_two_to_nine_players() -> None:
    assert (MIN_PLAYERS, MAX_PLAYERS) == (2, 9)
    for n in range(2, 10):
        state = GameState.new(CLASSIC, players=n, dealer=0)
        assert state.num_players == n
        assert state.lives == (3,) * n
    for bad in (0, 1, 10, 52):
        with pytest.raises(RulesError) as info:
            GameState.new(CLASSIC, players=bad, dealer=0)
        assert isinstance(info.value, ValueError)
        assert isinstance(info.value, ScatlabError)
        assert "C2" in str(info.value)
        assert "2 to 9" in str(info.value)
        assert f"players={bad}" in str(info.value)


def test_C2_nine_players_deal_from_one_deck() -> None:
    state = GameState.new(CLASSIC, players=9, dealer=0).deal(deck())
    assert all(len(h) == 3 for h in state.hands)
    assert len({c for h in state.hands for c in h}) == 27
    assert state.top_discard == deck()[27]
    assert state.stock_size == 52 - 27 - 1 == 24
    assert state.to_move == 1


# -- C3 the deal ---------------------------------------------------------------------------


def test_C3_deal_one_at_a_time_clockwise_from_dealers_left_then_up_card_then_stock() -> None:
    top = cards("AH 2C 3D 4S 5H 6C 7D 8S 9H 10C")
    order = top + tuple(c for c in deck() if c not in top)
    state = GameState.new(CLASSIC, players=3, dealer=1).deal(order)
    # The dealer is seat 1: seat 2 (the dealer's left) gets the first card, then 0, then 1.
    assert state.hands[2] == cards("AH 4S 7D")
    assert state.hands[0] == cards("2C 5H 8S")
    assert state.hands[1] == cards("3D 6C 9H")
    assert state.discards == cards("10C")
    assert state.remaining_stock == order[10:]
    assert state.stock_size == 42
    assert state.dealer == 1
    assert state.to_move == 2
    assert state.phase is Phase.TURN
    # The top of the stock is what the first player draws.
    drawn = state.apply("draw")
    assert drawn.hands[2] == cards("AH 4S 7D") + (order[10],)
    assert drawn.stock_size == 41


def test_C3_deal_order_helper_puts_the_hands_up_card_and_stock_where_asked() -> None:
    order = deal_order(["AH KH 4C", "2S 3S 4S", "9D 8D 7D"], up="9S", stock="QH JC", dealer=2)
    assert order[:11] == cards("AH 2S 9D KH 3S 8D 4C 4S 7D 9S QH")
    state = GameState.new(CLASSIC, players=3, dealer=2).deal(order)
    assert state.hands == (cards("AH KH 4C"), cards("2S 3S 4S"), cards("9D 8D 7D"))
    assert state.top_discard == Card.parse("9S")
    assert state.remaining_stock[:2] == cards("QH JC")
    assert state.to_move == 0


def test_C3_dealer_rotates_clockwise_over_the_players_still_in() -> None:
    state = GameState.new(CLASSIC, players=3, dealer=0)
    state = dealt_31_to(state, 0)  # dealer 0: players 1 and 2 lose a life
    assert state.dealer == 1
    state = dealt_31_to(state, 2)  # dealer 1
    assert state.dealer == 2
    state = dealt_31_to(state, 0)  # dealer 2
    assert state.dealer == 0
    assert state.lives == (2, 0, 1)
    assert state.out == (False, False, False)
    state = dealt_31_to(state, 2)  # dealer 0: player 1 loses a life on the county and is out
    assert state.out == (False, True, False)
    assert state.lives == (1, 0, 1)
    # The deal passes from seat 0 to seat 2, skipping seat 1, who is out.
    assert state.dealer == 2
    top = cards("AH 2C 3D 4S 5H 6C 7D")
    order = top + tuple(c for c in deck() if c not in top)
    state = state.deal(order)
    # Cards go to seat 0 (the dealer's left among players still in), then seat 2.
    assert state.hands == (cards("AH 3D 5H"), (), cards("2C 4S 6C"))
    assert state.top_discard == Card.parse("7D")
    assert state.stock_size == 52 - 7
    assert state.to_move == 0
    state = play(state, "knock", "draw", f"discard {order[7]}")
    assert state.results[-1].dealer == 2
    assert state.dealer == 0


# -- C4 hand values ------------------------------------------------------------------------


def test_C4_hand_value_is_the_best_single_suit_total() -> None:
    assert hand_value("AH KH QH") == Fraction(31)
    assert hand_value("AS 10S JS") == Fraction(31)
    assert hand_value("AH KH 4C") == Fraction(21)
    assert hand_value("AH 10C 9C") == Fraction(19)
    assert hand_value("9C 6C 3C") == Fraction(18)
    assert hand_value("2D 3D 4D") == Fraction(9)
    assert hand_value("KS QS 2D") == Fraction(20)


def test_C4_three_different_suits_count_the_highest_card() -> None:
    assert hand_value("2C 5D 9H") == Fraction(9)
    assert hand_value("KC QD JH") == Fraction(10)
    assert hand_value("AC 2D 3H") == Fraction(11)
    assert hand_value("AS AH AD") == Fraction(11)  # classic: three of a kind is nothing special
    assert hand_value("7S 7H 7D") == Fraction(7)


def test_C4_31_is_the_maximum_of_every_three_card_hand() -> None:
    full = deck()
    best = max(
        hand_value((a, b, c))
        for i, a in enumerate(full)
        for j, b in enumerate(full[i + 1 :], i + 1)
        for c in full[j + 1 :]
    )
    assert best == Fraction(31)


def test_C4_showdown_values_are_the_hand_values() -> None:
    state = start(["AH 10C 9C", "2C 5D 9H", "KS QS 2D"], up="3H", stock="4H 5H", dealer=2)
    # Dealer 2: player 0 begins, knocks; players 1 and 2 draw and throw the card back.
    state = play(state, "knock", "draw", "discard 4H", "draw", "discard 5H")
    result = state.results[-1]
    assert result.values == (Fraction(19), Fraction(9), Fraction(20))
    assert result.lives_lost == (0, 1, 0)


# -- C5 turns ------------------------------------------------------------------------------


def test_C5_player_to_dealers_left_begins_and_play_passes_clockwise() -> None:
    state = start(["2C 5D 9H", "AH KH 4C", "KS QS 2D"], up="3H", stock="4H 5H 6H 7H", dealer=2)
    assert state.to_move == 0
    assert names(state) == ["draw", "take", "knock"]
    state = play(state, "draw", "discard 4H")
    assert state.to_move == 1
    state = play(state, "draw", "discard 5H")
    assert state.to_move == 2
    state = play(state, "draw", "discard 6H")
    assert state.to_move == 0
    assert [(e.player, str(e.action)) for e in state.events] == [
        (0, "draw"),
        (0, "discard 4H"),
        (1, "draw"),
        (1, "discard 5H"),
        (2, "draw"),
        (2, "discard 6H"),
    ]


def test_C5_a_card_taken_from_the_discard_pile_may_not_be_discarded_the_same_turn() -> None:
    state = start(["2C 4C 6C", "3C 5C 7C"], up="8C", dealer=0)
    assert state.to_move == 1
    taken = state.apply("take")
    assert taken.phase is Phase.DISCARD
    assert taken.hands[1] == cards("3C 5C 7C 8C")
    assert names(taken) == ["discard 3C", "discard 5C", "discard 7C"]
    before = snapshot(taken)
    with pytest.raises(IllegalActionError) as info:
        taken.apply("discard 8C")
    assert str(info.value).startswith("C5:")
    assert "8C" in str(info.value)
    assert snapshot(taken) == before
    after = taken.apply("discard 3C")
    assert after.hands[1] == cards("5C 7C 8C")
    assert after.top_discard == Card.parse("3C")
    assert after.to_move == 0


def test_C5_a_card_drawn_from_the_stock_may_be_discarded_at_once() -> None:
    state = start(["2C 4C 6C", "3C 5C 7C"], up="8C", stock="KD", dealer=0)
    drawn = state.apply("draw")
    assert drawn.hands[1] == cards("3C 5C 7C KD")
    assert drawn.drawn == Card.parse("KD")
    assert "discard KD" in names(drawn)
    after = drawn.apply("discard KD")
    assert after.hands[1] == cards("3C 5C 7C")
    assert after.discards == cards("8C KD")
    assert after.stock_size == state.stock_size - 1
    assert after.to_move == 0


def test_C5_drawn_card_is_unseen_by_the_others() -> None:
    state = start(["2C 4C 6C", "3C 5C 7C"], up="8C", stock="KD", dealer=0)
    drawn = state.apply("draw")
    assert drawn.view(1).history[-1].card == Card.parse("KD")
    assert drawn.view(0).history[-1].card is None
    assert drawn.view(0).hand == cards("2C 4C 6C")


def test_C5_illegal_actions_raise_cite_the_rule_and_leave_the_state_untouched() -> None:
    state = start(["2C 4C 6C", "3C 5C 7C"], up="8C", stock="KD", dealer=0)
    before = snapshot(state)
    with pytest.raises(IllegalActionError) as no_draw:
        state.apply("discard 3C")  # discard before drawing
    assert str(no_draw.value).startswith("C5:")
    assert snapshot(state) == before
    drawn = state.apply("draw")
    before_drawn = snapshot(drawn)
    with pytest.raises(IllegalActionError) as not_held:
        drawn.apply("discard 2C")  # player 0's card, not player 1's
    assert str(not_held.value).startswith("C5:")
    assert "2C" in str(not_held.value)
    with pytest.raises(IllegalActionError) as twice:
        drawn.apply("draw")  # one draw a turn
    assert str(twice.value).startswith("C5:")
    with pytest.raises(IllegalActionError) as late_knock:
        drawn.apply("knock")  # knocking is instead of drawing
    assert "C5" in str(late_knock.value)
    assert snapshot(drawn) == before_drawn
    assert isinstance(no_draw.value, ValueError)
    with pytest.raises(IllegalActionError) as wrong_player:
        state.apply_for(0, "draw")
    assert "player 1" in str(wrong_player.value)
    assert snapshot(state) == before


# -- C6 knocking ---------------------------------------------------------------------------


def test_C6_after_a_knock_everyone_else_gets_exactly_one_turn() -> None:
    # Four players, dealer 0: the turn order is 1, 2, 3, 0.
    state = start(["7D 8D 2H", "2C 5D 9H", "AH KH 4C", "QS JS 3C"], up="10C", stock="3H 4H 5H 6H 7H", dealer=0)
    state = play(state, "draw", "discard 3H")
    assert state.to_move == 2
    knocked = state.apply("knock")
    assert knocked.knocker == 2
    assert knocked.hands[2] == cards("AH KH 4C")  # the knocker keeps their hand
    assert knocked.to_move == 3
    assert names(knocked) == ["draw", "take"]  # one knock a hand
    with pytest.raises(IllegalActionError) as second:
        knocked.apply("knock")
    assert str(second.value).startswith("C6:")
    state = play(knocked, "draw", "discard 4H")
    assert (state.phase, state.to_move) == (Phase.TURN, 0)
    state = play(state, "draw", "discard 5H")
    assert (state.phase, state.to_move) == (Phase.TURN, 1)
    # Player 1 sits to the knocker's right: after their discard all hands are shown.
    state = play(state, "draw", "discard 6H")
    assert state.phase is Phase.DEAL
    assert [(e.player, str(e.action)) for e in state.logs[-1]] == [
        (1, "draw"),
        (1, "discard 3H"),
        (2, "knock"),
        (3, "draw"),
        (3, "discard 4H"),
        (0, "draw"),
        (0, "discard 5H"),
        (1, "draw"),
        (1, "discard 6H"),
    ]
    result = state.results[-1]
    assert result.ended == "knock"
    assert result.knocker == 2
    assert result.final[2] == cards("AH KH 4C")
    assert result.values == (Fraction(15), Fraction(9), Fraction(21), Fraction(20))
    assert result.lives_lost == (0, 1, 0, 0)
    assert state.lives == (3, 2, 3, 3)


def test_C6_first_player_may_knock_at_once_and_the_dealer_ends_the_hand() -> None:
    state = start(["KS QS 2D", "AH 10H 9C", "2C 5D 9H"], up="3H", stock="4H 5H", dealer=0)
    state = state.apply("knock")
    assert (state.knocker, state.to_move) == (1, 2)
    state = play(state, "draw", "discard 4H")
    assert state.to_move == 0
    state = play(state, "draw", "discard 5H")
    result = state.results[-1]
    assert (result.ended, result.knocker) == ("knock", 1)
    assert result.values == (Fraction(20), Fraction(21), Fraction(9))
    assert result.lives_lost == (0, 0, 1)


# -- C7 showdown ---------------------------------------------------------------------------
# Three players, dealer 0: player 1 knocks, then players 2 and 0 take their one turn each.


def test_C7_single_lowest_non_knocker_loses_one_life() -> None:
    state = start(["9C 6C 3D", "AH 4H 10H", "KS 10S 2D"], up="5D", stock="2S 4C", dealer=0)
    state = play(state, "knock", "draw", "discard 2S", "draw", "discard 3D")
    result = state.results[-1]
    assert result.final[0] == cards("9C 6C 4C")
    assert result.values == (Fraction(19), Fraction(25), Fraction(20))
    assert (result.ended, result.knocker) == ("knock", 1)
    assert result.lives_lost == (1, 0, 0)
    assert result.codes == ("C7",)
    assert state.lives == (2, 3, 3)
    assert state.out == (False, False, False)


def test_C7_knocker_tied_lowest_other_tied_players_lose() -> None:
    state = start(["KS 10S 2D", "9C 6C 3D", "9H 6H 2S"], up="5D", stock="3S 4S", dealer=0)
    state = play(state, "knock", "draw", "discard 3S", "draw", "discard 4S")
    result = state.results[-1]
    assert result.values == (Fraction(20), Fraction(15), Fraction(15))
    assert result.knocker == 1
    assert result.lives_lost == (0, 0, 1)
    assert result.codes == ("C7",)
    assert state.lives == (3, 3, 2)


def test_C7_knocker_strictly_lowest_loses_two_lives() -> None:
    state = start(["AH 4H 10H", "9C 6C 3D", "KS 10S 2D"], up="5D", stock="3S 4S", dealer=0)
    state = play(state, "knock", "draw", "discard 3S", "draw", "discard 4S")
    result = state.results[-1]
    assert result.values == (Fraction(25), Fraction(15), Fraction(20))
    assert result.knocker == 1
    assert result.lives_lost == (0, 2, 0)
    assert result.codes == ("C7",)
    assert state.lives == (3, 1, 3)
    assert state.out == (False, False, False)


def test_C7_tie_for_lowest_among_non_knockers_all_lose_one() -> None:
    state = start(["9H 6H 2S", "AH 4H 10H", "9C 6C 3D"], up="5D", stock="3S 4S", dealer=0)
    state = play(state, "knock", "draw", "discard 3S", "draw", "discard 4S")
    result = state.results[-1]
    assert result.values == (Fraction(15), Fraction(25), Fraction(15))
    assert result.knocker == 1
    assert result.lives_lost == (1, 0, 1)
    assert result.codes == ("C7",)
    assert state.lives == (2, 3, 2)


def test_C7_three_way_tie_including_the_knocker_the_others_lose_one() -> None:
    state = start(["9S 6S 2D", "9C 6C 3D", "9H 6H 2S"], up="5D", stock="3S 4S", dealer=0)
    state = play(state, "knock", "draw", "discard 3S", "draw", "discard 4S")
    result = state.results[-1]
    assert result.values == (Fraction(15), Fraction(15), Fraction(15))
    assert result.knocker == 1
    assert result.lives_lost == (1, 0, 1)
    assert result.codes == ("C7",)
    assert state.lives == (2, 3, 2)


def test_C7_knocker_tied_lowest_in_four_players_only_the_tied_lose() -> None:
    # Dealer 3: the order is 0, 1, 2, 3; player 1 knocks after player 0's turn.
    state = start(["9S 6S 2D", "9C 6C 3D", "AH 4H 10H", "KS 10S 2H"], up="5D", stock="3S 4S 5S 7S", dealer=3)
    state = play(state, "draw", "discard 3S", "knock", "draw", "discard 4S", "draw", "discard 5S", "draw", "discard 7S")
    result = state.results[-1]
    assert result.values == (Fraction(15), Fraction(15), Fraction(25), Fraction(20))
    assert result.knocker == 1
    assert result.lives_lost == (1, 0, 0, 0)
    assert state.lives == (2, 3, 3, 3)


# -- C8 declaring 31 -----------------------------------------------------------------------


def test_C8_declared_31_ends_the_hand_and_every_other_player_loses_one() -> None:
    state = start(["9C 6C 3D", "AH KH 4C", "KS 10S 2D"], up="5D", stock="QH", dealer=0)
    state = play(state, "draw", "discard 4C")
    assert state.phase is Phase.DEAL  # player 2 never gets a turn
    result = state.results[-1]
    assert result.ended == "31"
    assert result.declarers == (1,)
    assert result.knocker is None
    assert result.final[1] == cards("AH KH QH")
    assert result.values == (Fraction(15), Fraction(31), Fraction(20))
    assert result.lives_lost == (1, 0, 1)
    assert result.codes == ("C8",)
    assert state.lives == (2, 3, 2)
    assert len(state.logs[-1]) == 2


def test_C8_31_made_by_taking_the_discard() -> None:
    state = start(["9C 6C 3D", "AH KH 4C"], up="QH", dealer=0)
    state = play(state, "take", "discard 4C")
    result = state.results[-1]
    assert (result.ended, result.declarers) == ("31", (1,))
    assert result.values == (Fraction(15), Fraction(31))
    assert result.lives_lost == (1, 0)
    assert state.lives == (2, 3)


def test_C8_31_after_a_knock_the_knocker_loses_one_like_everyone_else() -> None:
    state = start(["9C 6C 3D", "AD 10D 9D", "AS KS 2D"], up="5H", stock="QS", dealer=0)
    state = state.apply("knock")  # player 1 knocks with 30
    state = play(state, "draw", "discard 2D")  # player 2 makes 31
    assert state.phase is Phase.DEAL  # player 0 never gets a turn
    result = state.results[-1]
    assert result.ended == "31"
    assert result.knocker == 1
    assert result.declarers == (2,)
    assert result.values == (Fraction(15), Fraction(30), Fraction(31))
    assert result.lives_lost == (1, 1, 0)
    assert result.codes == ("C8",)
    assert state.lives == (2, 2, 3)


# -- C9 dealt 31 ---------------------------------------------------------------------------


def test_C9_a_player_dealt_31_wins_before_any_play() -> None:
    state = start(["9C 6C 3D", "KS 10S 2D", "AD KD QD"], up="5H", dealer=0)
    assert state.phase is Phase.DEAL
    assert state.logs[-1] == ()
    result = state.results[-1]
    assert result.ended == "dealt_31"
    assert result.declarers == (2,)
    assert result.knocker is None
    assert result.values == (Fraction(15), Fraction(20), Fraction(31))
    assert result.lives_lost == (1, 1, 0)
    assert result.codes == ("C9",)
    assert state.lives == (2, 2, 3)
    assert state.dealer == 1


def test_C9_two_players_dealt_31_everyone_else_loses_one() -> None:
    state = start(["9C 6C 3D", "AH KH QH", "KS 10S 2D", "AC JC 10C"], up="5H", dealer=0)
    result = state.results[-1]
    assert result.ended == "dealt_31"
    assert result.declarers == (1, 3)
    assert result.values == (Fraction(15), Fraction(31), Fraction(20), Fraction(31))
    assert result.lives_lost == (1, 0, 1, 0)
    assert state.lives == (2, 3, 2, 3)
    assert "player 1 and player 3 were dealt 31" in result.explain()  # plural, as a sentence reads


def test_C9_both_of_two_players_dealt_31_nobody_loses() -> None:
    state = start(["AC JC 10C", "AH KH QH"], up="5H", dealer=0)
    result = state.results[-1]
    assert result.ended == "dealt_31"
    assert result.declarers == (1, 0)
    assert result.lives_lost == (0, 0)
    assert state.lives == (3, 3)


# -- C10 undeclared 31 ---------------------------------------------------------------------

MANUAL = CLASSIC.replace(declare="manual")


def test_C10_software_declares_31_by_default() -> None:
    assert CLASSIC.declare == "auto"
    state = start(["9C 6C 3D", "AH KH 4C"], up="QH", dealer=0)
    state = play(state, "take", "discard 4C")
    assert state.results[-1].declarers == (1,)
    assert state.results[-1].codes == ("C8",)


def test_C10_undeclared_31_counts_30_and_loses_when_another_declares() -> None:
    state = start(["AS KS 2C", "AH KH 5C"], up="3D", stock="QH QS", dealer=0, rules=MANUAL)
    state = play(state, "draw", "discard 5C")
    assert state.phase is Phase.DECLARE
    assert state.to_move == 1
    assert names(state) == ["declare", "pass"]
    state = state.apply("pass")  # player 1 forgets to declare
    assert (state.phase, state.to_move) == (Phase.TURN, 0)
    assert state.hands[1] == cards("AH KH QH")
    state = play(state, "draw", "discard 2C")  # player 0 makes 31 too
    assert state.phase is Phase.DECLARE
    state = state.apply("declare")
    result = state.results[-1]
    assert result.ended == "31"
    assert result.declarers == (0,)
    assert result.final[1] == cards("AH KH QH")
    assert result.values == (Fraction(31), Fraction(30))
    assert result.lives_lost == (0, 1)
    assert result.codes == ("C8", "C10")
    assert state.lives == (3, 2)


def test_C10_dealt_31_not_declared_counts_30_at_the_showdown() -> None:
    # Dealer 1: player 1 is dealt 31 but passes; player 0 begins and knocks with 30.
    state = start(["AS KS 9S", "AH KH QH"], up="3D", stock="2C", dealer=1, rules=MANUAL)
    assert (state.phase, state.to_move) == (Phase.DECLARE, 1)
    state = state.apply("pass")
    assert (state.phase, state.to_move) == (Phase.TURN, 0)
    state = play(state, "knock", "draw", "discard 2C")
    if state.phase is Phase.DECLARE:  # still holding the 31: pass again
        state = state.apply("pass")
    result = state.results[-1]
    assert result.ended == "knock"
    assert result.knocker == 0
    assert result.final[1] == cards("AH KH QH")
    # The 31 counts as 30: the knocker ties for lowest and is safe, player 1 loses one.
    assert result.values == (Fraction(30), Fraction(30))
    assert result.lives_lost == (0, 1)
    assert "C10" in result.codes and "C7" in result.codes
    assert state.lives == (3, 2)


def test_C10_manual_declare_of_a_dealt_31_wins_as_C9() -> None:
    state = start(["AS KS 9S", "AH KH QH"], up="3D", dealer=1, rules=MANUAL)
    state = state.apply("declare")
    result = state.results[-1]
    assert (result.ended, result.declarers) == ("dealt_31", (1,))
    assert result.lives_lost == (1, 0)


# -- C11 stock exhausted -------------------------------------------------------------------


def test_C11_only_take_or_pass_when_the_stock_is_exhausted() -> None:
    state = start(["KS 10S 2D", "9C 6C 3D"], up="5D", dealer=0)
    assert state.stock_size == 45
    state = exhaust_stock(state)
    assert state.stock_size == 0
    assert state.to_move == 0  # player 1 drew the 45th card
    assert state.top_discard == Card.parse("AS")
    assert names(state) == ["take", "pass"]
    before = snapshot(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply("draw")
    assert str(info.value).startswith("C11:")
    assert snapshot(state) == before


def test_C11_pass_ends_the_hand_lowest_loses_one() -> None:
    state = exhaust_stock(start(["KS 10S 2D", "9C 6C 3D"], up="5D", dealer=0))
    state = state.apply("pass")
    assert state.phase is Phase.DEAL
    result = state.results[-1]
    assert result.ended == "stock_exhausted"
    assert result.knocker is None
    assert result.values == (Fraction(20), Fraction(15))
    assert result.lives_lost == (0, 1)
    assert result.codes == ("C11",)
    assert state.lives == (3, 2)


def test_C11_no_knocker_all_tied_lowest_lose_one() -> None:
    state = exhaust_stock(start(["KS 10S 2D", "9C 6C 3D", "9H 6H 2S"], up="5D", dealer=0))
    assert state.to_move == 1  # 42 cards: player 0 drew the last one
    state = state.apply("pass")
    result = state.results[-1]
    assert (result.ended, result.knocker) == ("stock_exhausted", None)
    assert result.values == (Fraction(20), Fraction(15), Fraction(15))
    assert result.lives_lost == (0, 1, 1)
    assert state.lives == (3, 2, 2)


def test_C11_play_continues_while_players_take_the_discard() -> None:
    state = exhaust_stock(start(["2H 3H 4D", "9C 6C 3D"], up="5D", dealer=0))
    assert state.to_move == 0
    state = play(state, "take", "discard 4D")
    assert state.hands[0] == cards("2H 3H AS")
    assert (state.phase, state.to_move) == (Phase.TURN, 1)
    assert state.top_discard == Card.parse("4D")
    assert (state.can("take"), state.can("pass"), state.can("draw")) == (True, True, False)
    state = play(state, "take", "discard 3D")
    assert (state.phase, state.to_move) == (Phase.TURN, 0)
    assert (state.can("take"), state.can("pass"), state.can("draw")) == (True, True, False)
    state = state.apply("pass")
    result = state.results[-1]
    assert result.ended == "stock_exhausted"
    assert result.values == (Fraction(11), Fraction(15))
    assert result.lives_lost == (1, 0)


def test_C11_stock_exhausted_after_a_knock_is_scored_as_a_showdown_with_the_knocker() -> None:
    state = start(["9C 6C 3D", "KS 10S 2D", "AH 4H 10H"], up="5D", dealer=0)
    state = exhaust_stock(state, leave=1)
    assert state.to_move == 0
    state = state.apply("knock")  # player 0 knocks, strictly lowest
    state = play(state, "draw", f"discard {state.remaining_stock[0]}")
    assert state.stock_size == 0
    assert state.to_move == 2
    assert names(state) == ["take", "pass"]
    state = state.apply("pass")
    result = state.results[-1]
    assert result.ended == "stock_exhausted"
    assert result.knocker == 0
    assert result.values == (Fraction(15), Fraction(20), Fraction(25))
    assert result.lives_lost == (2, 0, 0)
    assert state.lives == (1, 3, 3)


# -- C12 taking back your own discard ------------------------------------------------------


def _own_discard_on_top(rules: RuleSet) -> GameState:
    """Two players, dealer 0: player 1 draws 7H and throws away 3C; player 0 knocks."""
    state = start(["KS 10S 2D", "9C 6C 3C"], up="5D", stock="7H", dealer=0, rules=rules)
    state = play(state, "draw", "discard 3C", "knock")
    assert (state.to_move, state.knocker, state.top_discard) == (1, 0, Card.parse("3C"))
    return state


def test_C12_two_players_opponent_knocked_may_take_back_own_discard() -> None:
    state = _own_discard_on_top(CLASSIC)
    assert names(state) == ["draw", "take"]
    state = state.apply("take")
    assert state.hands[1] == cards("9C 6C 7H 3C")
    with pytest.raises(IllegalActionError) as info:
        state.apply("discard 3C")  # C5 still holds for the card taken back
    assert str(info.value).startswith("C5:")
    state = state.apply("discard 7H")
    result = state.results[-1]
    assert (result.ended, result.knocker) == ("knock", 0)
    assert result.final[1] == cards("9C 6C 3C")
    assert result.values == (Fraction(20), Fraction(18))
    assert result.lives_lost == (0, 1)


def test_C12_without_the_rule_own_discard_may_not_be_taken() -> None:
    state = _own_discard_on_top(CLASSIC.replace(take_back=False))
    assert names(state) == ["draw"]
    before = snapshot(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply("take")
    assert str(info.value).startswith("C12:")
    assert snapshot(state) == before


def test_C12_applies_when_two_of_three_seats_are_left() -> None:
    state = GameState.new(CLASSIC, players=3, dealer=0)
    for seat in (0, 2, 0, 2):
        state = dealt_31_to(state, seat)
    assert state.out == (False, True, False)
    assert state.dealer == 2
    # Dealer 2: player 0 begins; player 0 throws away 3C, player 2 knocks.
    state = deal_next(state, ["9C 6C 3C", None, "KS 10S 2D"], up="5D", stock="7H")
    state = play(state, "draw", "discard 3C", "knock")
    assert (state.to_move, state.top_discard) == (0, Card.parse("3C"))
    assert names(state) == ["draw", "take"]
    state = play(state, "take", "discard 7H")
    result = state.results[-1]
    assert result.values == (Fraction(18), None, Fraction(20))
    assert result.lives_lost == (1, 0, 0)


# -- C13 lives and the county --------------------------------------------------------------


def test_C13_each_player_starts_with_three_lives() -> None:
    state = GameState.new(CLASSIC, players=4, dealer=0)
    assert CLASSIC.lives == 3 and CLASSIC.county is True
    assert state.lives == (3, 3, 3, 3)
    assert state.out == (False, False, False, False)
    assert state.winner is None


def test_C13_on_the_county_a_player_with_no_lives_still_plays() -> None:
    state = GameState.new(CLASSIC, players=2, dealer=0)
    for _ in range(3):
        state = dealt_31_to(state, 0)
    assert state.lives == (3, 0)
    assert state.out == (False, False)
    assert state.winner is None
    assert state.phase is Phase.DEAL
    assert "C13" in state.results[-1].codes
    assert state.results[-1].newly_out == ()
    # Hand 4, dealer 1: player 0 begins. Player 1, on the county, plays and wins.
    assert state.dealer == 1
    state = deal_next(state, ["9C 6C 3D", "KS 10S 2D"], up="5D", stock="2H 3H 4H")
    assert state.to_move == 0
    state = play(state, "draw", "discard 2H")
    assert state.to_move == 1
    state = play(state, "draw", "discard 3H", "knock", "draw", "discard 4H")
    result = state.results[-1]
    assert (result.ended, result.knocker) == ("knock", 0)
    assert result.values == (Fraction(15), Fraction(20))
    assert result.lives_lost == (2, 0)
    assert state.lives == (1, 0)
    assert state.out == (False, False)


def test_C13_losing_a_life_on_the_county_means_out_and_the_last_player_wins() -> None:
    state = GameState.new(CLASSIC, players=2, dealer=0)
    for _ in range(3):
        state = dealt_31_to(state, 0)
    assert state.lives == (3, 0)
    state = deal_next(state, ["KS 10S 2D", "9C 6C 3D"], up="5D", stock="2H 3H")
    state = play(state, "knock", "draw", "discard 2H")
    result = state.results[-1]
    assert result.values == (Fraction(20), Fraction(15))
    assert result.lives_lost == (0, 1)
    assert result.newly_out == (1,)
    assert result.out_after == (False, True)
    assert "C13" in result.codes
    assert state.lives == (3, 0)
    assert state.out == (False, True)
    assert state.out_order == (1,)
    assert state.winner == 0
    assert state.phase is Phase.GAME_OVER
    assert state.is_over
    assert state.legal_actions() == []
    with pytest.raises(IllegalActionError):
        state.apply("draw")
    with pytest.raises(IllegalActionError):
        state.deal(deck())


def test_C13_losing_two_lives_with_one_left_means_out() -> None:
    state = GameState.new(CLASSIC, players=2, dealer=0)
    state = dealt_31_to(state, 0)
    state = dealt_31_to(state, 0)
    assert state.lives == (3, 1)
    assert state.dealer == 0
    # Player 1 knocks and is strictly lowest: two lives, with one left.
    state = deal_next(state, ["KS 10S 2D", "9C 6C 3D"], up="5D", stock="2H")
    state = play(state, "knock", "draw", "discard 2H")
    result = state.results[-1]
    assert (result.ended, result.knocker) == ("knock", 1)
    assert result.values == (Fraction(20), Fraction(15))
    assert result.lives_lost == (0, 2)
    assert result.lives_after == (3, 0)
    assert result.newly_out == (1,)
    assert state.out == (False, True)
    assert state.winner == 0
    assert state.phase is Phase.GAME_OVER


def test_C13_losing_two_lives_with_two_left_goes_on_the_county() -> None:
    state = dealt_31_to(GameState.new(CLASSIC, players=2, dealer=0), 0)
    assert state.lives == (3, 2)
    assert state.dealer == 1
    # Dealer 1: player 0 begins, then player 1 knocks and is strictly lowest.
    state = deal_next(state, ["KS 10S 2D", "9C 6C 3D"], up="5D", stock="2H 3H")
    state = play(state, "draw", "discard 2H", "knock", "draw", "discard 3H")
    result = state.results[-1]
    assert result.knocker == 1
    assert result.lives_lost == (0, 2)
    assert result.newly_out == ()
    assert state.lives == (3, 0)
    assert state.out == (False, False)
    assert state.winner is None
    assert state.phase is Phase.DEAL


def test_C13_three_players_game_goes_on_until_one_is_left() -> None:
    state = GameState.new(CLASSIC, players=3, dealer=0)
    for seat in (0, 2, 0, 2):
        state = dealt_31_to(state, seat)
    assert state.lives == (1, 0, 1)
    assert state.out == (False, True, False)
    assert state.winner is None
    assert state.phase is Phase.DEAL
    state = dealt_31_to(state, 0)
    assert state.lives == (1, 0, 0)
    assert state.out == (False, True, False)
    assert state.winner is None
    state = dealt_31_to(state, 0)
    assert state.results[-1].lives_lost == (0, 0, 1)
    assert state.out == (False, True, True)
    assert state.out_order == (1, 2)
    assert state.winner == 0
    assert state.phase is Phase.GAME_OVER


# -- C14 draw game -------------------------------------------------------------------------


def _both_on_the_county() -> GameState:
    state = GameState.new(CLASSIC, players=2, dealer=0)
    for seat in (0, 1, 0, 1, 0, 1):
        state = dealt_31_to(state, seat)
    assert state.lives == (0, 0)
    assert state.out == (False, False)
    assert state.dealer == 0
    return state


def test_C14_draw_game_on_the_county_stock_exhausted_equal_scores_is_replayed() -> None:
    state = _both_on_the_county()
    state = deal_next(state, ["9H 6H 2S", "9C 6C 3D"], up="5D")
    state = exhaust_stock(state)
    state = state.apply("pass")
    result = state.results[-1]
    assert result.ended == "stock_exhausted"
    assert result.knocker is None
    assert result.values == (Fraction(15), Fraction(15))
    assert result.tie_break is True
    assert "C14" in result.codes
    assert result.lives_lost == (0, 0)
    assert result.newly_out == ()
    assert state.lives == (0, 0)
    assert state.out == (False, False)
    assert state.winner is None
    assert state.phase is Phase.DEAL
    # The hand is replayed: a new deal, both players still in.
    state = deal_next(state, ["KS 10S 2D", "9C 6C 3D"], up="5D")
    assert state.phase is Phase.TURN
    assert state.hand_number == 8
    assert state.hands[0] == cards("KS 10S 2D") and state.hands[1] == cards("9C 6C 3D")


def test_C14_not_a_draw_when_the_scores_differ() -> None:
    state = _both_on_the_county()
    state = deal_next(state, ["KS 10S 2D", "9C 6C 3D"], up="5D")
    state = exhaust_stock(state).apply("pass")
    result = state.results[-1]
    assert result.tie_break is False
    assert "C14" not in result.codes
    assert result.values == (Fraction(20), Fraction(15))
    assert result.lives_lost == (0, 1)
    assert state.out == (False, True)
    assert state.winner == 0
    assert state.phase is Phase.GAME_OVER


def test_C14_not_a_draw_after_a_knock() -> None:
    state = _both_on_the_county()
    # Dealer 0: player 1 knocks with 15, player 0 ties at 15: the knocker is safe (C7).
    state = deal_next(state, ["9H 6H 2S", "9C 6C 3D"], up="5D", stock="2H")
    state = play(state, "knock", "draw", "discard 2H")
    result = state.results[-1]
    assert result.tie_break is False
    assert "C14" not in result.codes
    assert result.values == (Fraction(15), Fraction(15))
    assert result.lives_lost == (1, 0)
    assert state.out == (True, False)
    assert state.winner == 1


def test_C7_finished_hands_are_remembered_in_every_view_with_stock_draws_hidden() -> None:
    """After a showdown (C7: hands are shown), each view keeps the finished hand's public log
    and its final discard pile, beside its result; another player's stock draw stays hidden
    (C5), the viewer's own is kept."""
    state = start(["2C 4C 6C", "3C 5C 7C"], up="8C", stock="KD QH", dealer=0)
    assert state.view(0).past_hands == () and state.view(1).past_hands == ()
    state = play(state, "draw", "discard 3C", "knock", "draw", "discard QH")
    assert state.phase is Phase.DEAL and len(state.results) == 1
    for viewer in (0, 1):
        view = state.view(viewer)
        assert len(view.past_hands) == len(view.results) == 1
        past = view.past_hands[0]
        assert past.discard_pile == cards("8C 3C QH")
        assert [(e.player, str(e.action)) for e in past.history] == [
            (1, "draw"),
            (1, "discard 3C"),
            (0, "knock"),
            (1, "draw"),
            (1, "discard QH"),
        ]
        assert past.history[0].card == (Card.parse("KD") if viewer == 1 else None)
    assert state.view(0).results[0].final[1] == cards("5C 7C KD")
    nxt = deal_next(state, ["2C 4C 6C", "3C 5C 7C"], up="8C")
    assert nxt.view(0).past_hands == state.view(0).past_hands and nxt.view(0).history == ()
