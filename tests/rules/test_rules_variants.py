"""Scenario tests for every variant of RULES.md (V1-V19), the presets and the rule-set
contradictions.

Each game scenario is built from an explicit deck order (:func:`deal_order`), so every
hand, draw and showdown is known in advance, and each test checks exactly who loses (or
wins) what, with the rule codes that decided it.

Seats are numbered clockwise; the player to the dealer's left (``dealer + 1``) moves first.
The helper :func:`pass_turn` draws from the stock and discards the drawn card at once, so
a player's hand is unchanged by their turn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

import pytest

from scatlab.cards import Card, Rank, deck, parse_cards
from scatlab.errors import CardError, IllegalActionError, RulesError
from scatlab.rules import (
    BUS_STEPS,
    Action,
    GameState,
    Phase,
    RuleSet,
    deal_order,
    find_rules,
    hand_value,
    result_json,
    tiebreak_key,
)

F = Fraction


# -- helpers -------------------------------------------------------------------------------


def start(
    rules: RuleSet | str,
    hands: Sequence[str | None],
    up: str,
    stock: str = "",
    *,
    dealer: int = 0,
    state: GameState | None = None,
) -> GameState:
    """Deal ``hands`` (seat order) with ``up`` face up and ``stock`` on top of the stock,
    in a new game (or the next hand of ``state``)."""
    s = state if state is not None else GameState.new(rules, len(hands), dealer)
    order = deal_order(hands, up=up, stock=stock, dealer=s.dealer, rules=s.rules)
    return s.deal(order)


def pass_turn(s: GameState) -> GameState:
    """Draw from the stock and discard the drawn card (the hand stays as it was)."""
    s = s.apply("draw")
    assert s.drawn is not None
    return s.apply(Action.discard(s.drawn))


def knock_hand(
    rules: RuleSet | str,
    hands: Sequence[str | None],
    up: str,
    *,
    dealer: int = 0,
    state: GameState | None = None,
) -> GameState:
    """Deal, let the first player knock, and let everyone else take one turn that keeps
    their hand: the showdown compares exactly the dealt hands."""
    s = start(rules, hands, up, dealer=dealer, state=state)
    s = s.apply("knock")
    while s.phase is Phase.TURN:
        s = pass_turn(s)
    assert s.phase in (Phase.DEAL, Phase.GAME_OVER)
    return s


def snapshot(s: GameState) -> tuple[object, ...]:
    """What an illegal action must leave unchanged."""
    return (s.phase, s.to_move, s.hands, s.knocker, s.turns, s.discards, s.stock_size, s.lives, s.results)


LOW3 = ["AD KD 9C", "2C 3D 5H", "KS QS 2D"]
"""Three seats (dealer 0): player 1 (first to move) is lowest with 5, player 2 has 20,
player 0 has 21."""


# -- V1 / V2: three of a kind ------------------------------------------------------------------


def test_V1_three_of_a_kind_counts_30_and_ties_three_ten_cards() -> None:
    v1 = RuleSet.from_codes("V1")
    assert hand_value("7S 7H 7D", v1) == F(30)
    assert hand_value("7S 7H 7D") == F(7)
    assert hand_value("KH QH JH", v1) == F(30)
    # Showdown: player 1 knocks with 7-7-7 (30) and ties player 0's K-Q-J of hearts (30):
    # a tie involving the knocker, so the other tied player loses and the knocker is safe.
    s = knock_hand(v1, ["KH QH JH", "7S 7H 7D"], up="2C")
    r = s.results[-1]
    assert r.ended == "knock"
    assert r.knocker == 1
    assert r.values == (F(30), F(30))
    assert r.lives_lost == (1, 0)
    assert r.codes == ("C7",)
    assert s.lives == (2, 3)
    # The same hand under the classic rules: 7-7-7 is worth 7, the knocker is strictly
    # lowest and loses two.
    c = knock_hand("classic", ["KH QH JH", "7S 7H 7D"], up="2C")
    assert c.results[-1].values == (F(30), F(7))
    assert c.results[-1].lives_lost == (0, 2)


def test_V2_three_of_a_kind_counts_61_halves_exactly_and_beats_30() -> None:
    v2 = RuleSet.from_codes("V2")
    value = hand_value("7S 7H 7D", v2)
    assert value == F(61, 2)
    assert type(value) is Fraction
    assert value > F(30) and value < F(31)
    # Showdown: player 1 knocks with 7-7-7 (61/2); player 0's A-K-9 of hearts (30) is lowest.
    s = knock_hand(v2, ["AH KH 9H", "7S 7H 7D"], up="2C")
    r = s.results[-1]
    assert r.values == (F(30), F(61, 2))
    assert all(type(v) is Fraction for v in r.values)
    assert r.lives_lost == (1, 0)
    assert r.codes == ("C7",)
    assert s.lives == (2, 3)
    assert result_json(s)["hands"][0]["values"] == ["30", "30.5"]


def test_V2_three_of_a_kind_is_not_declared_like_31() -> None:
    # 61/2 beats everything but 31: a player who makes it after drawing plays on.
    v2 = RuleSet.from_codes("V2")
    s = start(v2, ["AH KH 4C", "7S 7H 2C", "QD JD 3S"], up="9C", stock="7D")
    s = s.apply("draw").apply("discard 2C")
    assert s.phase is Phase.TURN
    assert s.to_move == 2
    assert s.results == ()
    assert s.value(1) == F(61, 2)


# -- V3: straight flush ------------------------------------------------------------------------


def test_V3_straight_flush_counts_30_and_wins_a_showdown() -> None:
    v3 = RuleSet.from_codes("V3")
    assert hand_value("9C 10C JC", v3) == F(30)
    assert hand_value("9C 10C JC") == F(29)
    assert hand_value("2H 3H 4H", v3) == F(30)
    assert hand_value("2H 4H 6H", v3) == F(12)  # a flush but not a run
    assert hand_value("2H 3H 4S", v3) == F(5)  # a run but not a flush
    # Player 1 knocks with 2-3-4 of hearts (30 under V3); player 0's A-K-8 of spades (29)
    # is lowest and loses one.
    s = knock_hand(v3, ["AS KS 8S", "2H 3H 4H"], up="5C")
    r = s.results[-1]
    assert r.values == (F(29), F(30))
    assert r.lives_lost == (1, 0)
    # Classic rules: 2-3-4 of hearts is 9, and the knocker is strictly lowest.
    c = knock_hand("classic", ["AS KS 8S", "2H 3H 4H"], up="5C")
    assert c.results[-1].values == (F(29), F(9))
    assert c.results[-1].lives_lost == (0, 2)


def test_V3_ace_king_queen_counts_31_and_is_declared() -> None:
    v3 = RuleSet.from_codes("V3")
    assert hand_value("AH KH QH", v3) == F(31)
    # A straight flush worth 30 is not declared: play goes on.
    s = start(v3, ["AD 5D 3S", "9C 10C 2S", "4H 6H 8S"], up="7D", stock="JC")
    s = s.apply("draw").apply("discard 2S")
    assert s.value(1) == F(30)
    assert s.phase is Phase.TURN and s.to_move == 2 and s.results == ()
    # Player 1 draws the queen to A-K of hearts and declares 31 at once.
    s = start(v3, ["AD 5D 3S", "AH KH 2S", "4H 6H 8S"], up="7D", stock="QH")
    s = s.apply("draw").apply("discard 2S")
    r = s.results[-1]
    assert r.ended == "31"
    assert r.declarers == (1,)
    assert r.values[1] == F(31)
    assert r.lives_lost == (1, 0, 1)
    assert r.codes == ("C8",)
    assert s.lives == (2, 3, 2)


# -- V4 / V5 / V6: who may knock ---------------------------------------------------------------


def test_V4_minimum_knock_refuses_a_lower_hand() -> None:
    rules = find_rules("classic").replace(min_knock=21)
    assert rules.codes() == ("V4",)
    # Player 1 holds K-Q of hearts (20), one short of the minimum.
    s = start(rules, ["AH KH 4C", "KD QD 4S", "9S 8S 2H"], up="3C")
    assert s.to_move == 1
    assert Action.KNOCK not in s.legal_actions()
    assert [str(a) for a in s.legal_actions()] == ["draw", "take"]
    before = snapshot(s)
    with pytest.raises(IllegalActionError, match="V4") as err:
        s.apply("knock")
    assert "21" in str(err.value)
    assert snapshot(s) == before
    # The refused state plays on as if nothing had happened.
    s = pass_turn(pass_turn(s))
    # Player 0 holds A-K of hearts (21): exactly the minimum may knock.
    assert s.to_move == 0
    assert Action.KNOCK in s.legal_actions()
    s = s.apply("knock")
    assert s.knocker == 0
    # The same 20 may knock under the classic rules.
    c = start("classic", ["AH KH 4C", "KD QD 4S", "9S 8S 2H"], up="3C")
    assert Action.KNOCK in c.legal_actions()


def test_V5_knock_only_with_three_cards_of_one_suit() -> None:
    v5 = RuleSet.from_codes("V5")
    # Player 1 holds A-K of hearts and a club (21): not one suit, no knock.
    s = start(v5, ["2S 3S 5S", "AH KH 4C"], up="9D")
    assert Action.KNOCK not in s.legal_actions()
    before = snapshot(s)
    with pytest.raises(IllegalActionError, match="V5"):
        s.apply("knock")
    assert snapshot(s) == before
    # Player 0 holds 2-3-5 of spades (10): three of one suit may knock, however low.
    s = pass_turn(s)
    assert s.to_move == 0
    assert Action.KNOCK in s.legal_actions()
    s = s.apply("knock")
    s = pass_turn(s)
    r = s.results[-1]
    assert r.knocker == 0
    assert r.values == (F(10), F(21))
    assert r.lives_lost == (2, 0)


def test_V6_no_knocking_in_the_first_round() -> None:
    v6 = RuleSet.from_codes("V6")
    s = start(v6, ["AD KD 9C", "AH KH QC", "KS QS 2D"], up="3C")
    # First round: nobody may knock, however good the hand.
    for expected in (1, 2, 0):
        assert s.to_move == expected
        assert [str(a) for a in s.legal_actions()] == ["draw", "take"]
        before = snapshot(s)
        with pytest.raises(IllegalActionError, match="V6"):
            s.apply("knock")
        assert snapshot(s) == before
        s = pass_turn(s)
    # Second round: player 1 may knock.
    assert s.to_move == 1
    assert Action.KNOCK in s.legal_actions()
    s = s.apply("knock")
    s = pass_turn(pass_turn(s))
    r = s.results[-1]
    assert r.knocker == 1
    assert r.values == (F(21), F(21), F(20))
    assert r.lives_lost == (0, 0, 1)
    # Classic rules: the first player may knock at once.
    c = start("classic", ["AD KD 9C", "AH KH QC", "KS QS 2D"], up="3C")
    assert Action.KNOCK in c.legal_actions()


# -- V7 / V8 / V9: who loses after a knock ----------------------------------------------------

TIE3 = ["AD KD 4D", "KH QH 2S", "KC QC 3H"]
"""Dealer 0: player 1 knocks with 20, player 2 ties at 20, player 0 has 25."""


@pytest.mark.parametrize(
    ("tie", "lost", "codes"),
    [
        ("classic", (0, 0, 1), ("C7",)),  # V7(a): the other tied player loses, the knocker is safe
        ("knocker_two", (0, 2, 1), ("V7",)),  # V7(b)
        ("knocker_only", (0, 1, 0), ("V7",)),  # V7(c)
        ("cadillac", (0, 2, 0), ("V7",)),  # V7(d)
    ],
)
def test_V7_knocker_tie_rules(tie: str, lost: tuple[int, int, int], codes: tuple[str, ...]) -> None:
    rules = find_rules("classic").replace(knocker_tie=tie)
    assert rules.codes() == (() if tie == "classic" else ("V7",))
    s = knock_hand(rules, TIE3, up="9S")
    r = s.results[-1]
    assert r.ended == "knock"
    assert r.knocker == 1
    assert r.values == (F(25), F(20), F(20))
    assert r.lives_lost == lost
    assert r.codes == codes
    assert s.lives == tuple(3 - k for k in lost)


def test_V7_knocker_tie_among_three_tied_players() -> None:
    # The knocker and both others tie at 20: V7(b) costs the knocker two and each other one.
    rules = find_rules("classic").replace(knocker_tie="knocker_two")
    s = knock_hand(rules, ["KD QD 4C", "KH QH 2S", "KC QC 3H"], up="9S")
    assert s.results[-1].lives_lost == (1, 2, 1)
    rules_c = find_rules("classic").replace(knocker_tie="knocker_only")
    s = knock_hand(rules_c, ["KD QD 4C", "KH QH 2S", "KC QC 3H"], up="9S")
    assert s.results[-1].lives_lost == (0, 1, 0)


def test_V7_knocker_tie_rules_leave_a_non_knocker_tie_alone() -> None:
    # Players 2 and 0 tie for lowest; the knocker is higher: both lose one under every V7 rule.
    for tie in ("classic", "knocker_two", "knocker_only", "cadillac"):
        rules = find_rules("classic").replace(knocker_tie=tie)
        s = knock_hand(rules, ["KD QD 4C", "AH KH 2S", "KC QC 3H"], up="9S")
        assert s.results[-1].lives_lost == (1, 0, 1), tie


def test_V8_knocker_strictly_lowest_loses_only_one() -> None:
    v8 = RuleSet.from_codes("V8")
    s = knock_hand(v8, LOW3, up="9S")
    r = s.results[-1]
    assert r.knocker == 1
    assert r.values == (F(21), F(5), F(20))
    assert r.lives_lost == (0, 1, 0)
    assert r.codes == ("V8",)
    assert s.lives == (3, 2, 3)
    # Classic: two lives.
    c = knock_hand("classic", LOW3, up="9S")
    assert c.results[-1].lives_lost == (0, 2, 0)
    assert c.results[-1].codes == ("C7",)


def test_V8_knocker_tied_for_lowest_is_still_safe() -> None:
    v8 = RuleSet.from_codes("V8")
    s = knock_hand(v8, TIE3, up="9S")
    assert s.results[-1].lives_lost == (0, 0, 1)


def _thirty_one_after_knock(rules: RuleSet | str) -> GameState:
    # Dealer 0: player 1 knocks with 20; player 2 draws the ace of clubs to K-Q of clubs and
    # declares 31; player 0 (25) never gets a turn.
    s = start(rules, ["AD KD 4D", "KH QH 2S", "KC QC 3H"], up="9S", stock="AC")
    s = s.apply("knock")
    s = s.apply("draw").apply("discard 3H")
    return s


def test_V9_31_after_knock_knocker_loses_two() -> None:
    v9 = RuleSet.from_codes("V9")
    s = _thirty_one_after_knock(v9)
    r = s.results[-1]
    assert r.ended == "31"
    assert r.knocker == 1
    assert r.declarers == (2,)
    assert r.values == (F(25), F(20), F(31))
    assert r.lives_lost == (1, 2, 0)
    assert r.codes == ("C8", "V9")
    assert s.lives == (2, 1, 3)
    # C8 (classic): the knocker loses one like everyone else.
    c = _thirty_one_after_knock("classic")
    assert c.results[-1].lives_lost == (1, 1, 0)
    assert c.results[-1].codes == ("C8",)


def test_V9_31_without_a_knock_costs_everyone_else_one() -> None:
    v9 = RuleSet.from_codes("V9")
    s = start(v9, ["AD KD 4C", "KH QH 2S", "KC QC 3H"], up="9S", stock="AC 5S")
    s = pass_turn(s)  # player 1 draws and discards the ace of clubs
    s = s.apply("take").apply("discard 3H")  # player 2 takes it: 31
    r = s.results[-1]
    assert r.ended == "31"
    assert r.knocker is None
    assert r.lives_lost == (1, 1, 0)


def test_V9_everyone_losing_their_last_life_at_once_plays_a_tie_break_hand() -> None:
    # V7(b) with one life and no county: a knocker tie would put both players out at
    # once; they stay in at their last standing and play another hand.
    rules = RuleSet.from_codes("V9", "V12", knocker_tie="knocker_two", lives=1)
    s = knock_hand(rules, ["KC QC 3H", "KH QH 2S"], up="9S")
    r = s.results[-1]
    assert r.values == (F(20), F(20))
    assert r.tie_break is True
    assert r.lives_lost == (0, 0)
    assert r.newly_out == ()
    assert s.lives == (1, 1)
    assert s.out == (False, False)
    assert s.winner is None
    assert s.phase is Phase.DEAL
    assert "V9" in r.codes
    assert result_json(s)["hands"][0]["tie_break"] is True


# -- V10 / V11: hammer and throw-down ------------------------------------------------------------


def test_V10_hammer_caller_lowest_loses_two() -> None:
    v10 = RuleSet.from_codes("V10")
    s = start(v10, LOW3, up="9S")
    assert s.to_move == 1
    assert [str(a) for a in s.legal_actions()] == ["draw", "take", "knock", "hammer"]
    s = s.apply("hammer")
    r = s.results[-1]
    assert r.ended == "hammer"
    assert r.knocker == 1
    assert r.values == (F(21), F(5), F(20))
    assert r.lives_lost == (0, 2, 0)
    assert r.codes == ("C7",)
    assert s.lives == (3, 1, 3)
    # Nobody drew: the showdown was immediate.
    assert s.results[-1].final == tuple(parse_cards(h) for h in LOW3)


def test_V10_hammer_scored_like_a_knock() -> None:
    v10 = RuleSet.from_codes("V10")
    # The caller (player 1, 21) is not lowest: the lowest (player 2, 5) loses one.
    s = start(v10, ["KS QS 2D", "AD KD 9C", "2C 3D 5H"], up="9S").apply("hammer")
    assert s.results[-1].lives_lost == (0, 0, 1)
    # The caller ties for lowest: the other tied player loses, the caller is safe.
    s = start(v10, ["AD KD 9C", "KH QH 2S", "KC QC 3H"], up="9S").apply("hammer")
    assert s.results[-1].lives_lost == (0, 0, 1)
    # With V8 a strictly lowest caller loses one.
    s = start(RuleSet.from_codes("V10", "V8"), LOW3, up="9S").apply("hammer")
    assert s.results[-1].lives_lost == (0, 1, 0)


def test_V10_hammer_only_first_player_on_the_very_first_turn() -> None:
    v10 = RuleSet.from_codes("V10")
    s = start(v10, LOW3, up="9S")
    s = pass_turn(s)
    # Player 2 (not the first player) cannot hammer.
    assert s.to_move == 2
    assert Action.HAMMER not in s.legal_actions()
    before = snapshot(s)
    with pytest.raises(IllegalActionError, match="V10"):
        s.apply("hammer")
    assert snapshot(s) == before
    s = pass_turn(pass_turn(s))
    # The first player's second turn: no hammer either.
    assert s.to_move == 1
    assert Action.HAMMER not in s.legal_actions()
    with pytest.raises(IllegalActionError, match="V10"):
        s.apply("hammer")
    # Classic rules have no hammer at all.
    c = start("classic", LOW3, up="9S")
    assert Action.HAMMER not in c.legal_actions()
    with pytest.raises(IllegalActionError, match="V10"):
        c.apply("hammer")


def test_V10_hammer_belongs_to_the_first_player_of_each_hand() -> None:
    v10 = RuleSet.from_codes("V10")
    s = start(v10, LOW3, up="9S").apply("hammer")
    assert s.phase is Phase.DEAL and s.dealer == 1
    # Hand 2, dealer 1: player 2 moves first and may hammer.
    s = start(v10, ["2C 3D 5H", "AD KD 9C", "KS QS 2D"], up="9S", state=s)
    assert s.to_move == 2
    assert Action.HAMMER in s.legal_actions()
    s = s.apply("hammer")
    r = s.results[-1]
    assert r.knocker == 2
    assert r.lives_lost == (1, 0, 0)
    assert s.lives == (2, 1, 3)


def test_V11_throw_down_before_looking() -> None:
    v11 = RuleSet.from_codes("V11")
    s = start(v11, LOW3, up="9S")
    assert s.phase is Phase.THROW_DOWN
    assert s.to_move == 1
    assert [str(a) for a in s.legal_actions()] == ["throw_down", "pass"]
    s = s.apply("throw_down")
    r = s.results[-1]
    assert r.ended == "throw_down"
    assert r.knocker == 1
    assert r.values == (F(21), F(5), F(20))
    assert r.lives_lost == (0, 2, 0)
    assert s.lives == (3, 1, 3)
    # The thrower-down is not lowest: the lowest loses one.
    s = start(v11, ["KS QS 2D", "AD KD 9C", "2C 3D 5H"], up="9S").apply("throw_down")
    assert s.results[-1].lives_lost == (0, 0, 1)


def test_V11_throw_down_is_decided_before_looking_at_the_cards() -> None:
    # V11: the first player calls (or not) "before looking at their cards", so their view
    # during the decision must not show the hand; after passing, it does.
    v11 = RuleSet.from_codes("V11")
    s = start(v11, LOW3, up="9S")
    assert s.phase is Phase.THROW_DOWN
    view = s.view(1)
    assert view.legal_actions == (Action.THROW_DOWN, Action.PASS)
    assert view.hand == ()
    assert view.value is None
    s = s.apply("pass")
    view = s.view(1)
    assert view.hand == parse_cards("2C 3D 5H")
    assert view.value == F(5)


def test_V11_throw_down_declined_is_gone_for_the_hand() -> None:
    v11 = RuleSet.from_codes("V11")
    s = start(v11, LOW3, up="9S").apply("pass")
    assert s.phase is Phase.TURN
    assert s.to_move == 1
    assert [str(a) for a in s.legal_actions()] == ["draw", "take", "knock"]
    before = snapshot(s)
    with pytest.raises(IllegalActionError, match="V11"):
        s.apply("throw_down")
    assert snapshot(s) == before
    s = pass_turn(s)
    assert Action.THROW_DOWN not in s.legal_actions()
    # Without V11 there is no throw-down phase.
    c = start("classic", LOW3, up="9S")
    assert c.phase is Phase.TURN
    assert Action.THROW_DOWN not in c.legal_actions()


# -- V12: no county ----------------------------------------------------------------------------


def _two_hands(rules: RuleSet | str) -> GameState:
    # Hand 1 (dealer 0): player 1 knocks strictly lowest and loses two.
    s = knock_hand(rules, LOW3, up="9S")
    assert s.lives == (3, 1, 3)
    # Hand 2 (dealer 1): player 2 knocks with 21; player 1 (5) is lowest and loses their last.
    return knock_hand(rules, ["KS QS 2D", "2C 3D 5H", "AD KD 9C"], up="9S", state=s)


def test_V12_no_lives_left_means_out() -> None:
    v12 = RuleSet.from_codes("V12")
    s = _two_hands(v12)
    r = s.results[-1]
    assert r.knocker == 2
    assert r.lives_lost == (0, 1, 0)
    assert r.newly_out == (1,)
    assert r.codes == ("C7", "V12")
    assert s.lives == (3, 0, 3)
    assert s.out == (False, True, False)
    assert s.out_order == (1,)
    assert s.winner is None
    assert result_json(s)["out"] == [1]
    # Classic (C13): the same loss puts player 1 on the county, still in.
    c = _two_hands("classic")
    assert c.lives == (3, 0, 3)
    assert c.out == (False, False, False)
    assert c.results[-1].newly_out == ()
    assert c.results[-1].codes == ("C7", "C13")


def test_V12_last_player_standing_wins() -> None:
    v12 = RuleSet.from_codes("V12", lives=1)
    # Dealer 1: player 0 knocks with 21; player 1 (5) loses their only life.
    s = knock_hand(v12, ["AD KD 9C", "2C 3D 5H"], up="9S", dealer=1)
    assert s.results[-1].knocker == 0
    assert s.results[-1].lives_lost == (0, 1)
    assert s.out == (False, True)
    assert s.winner == 0
    assert s.phase is Phase.GAME_OVER


# -- V13: Cadillac -----------------------------------------------------------------------------


def test_V13_cadillac_four_nickels_and_hand_values() -> None:
    cad = find_rules("cadillac")
    assert cad.lives == 4
    assert GameState.new(cad, 3).lives == (4, 4, 4)
    assert hand_value("AS AH AD", cad) == F(33)
    assert hand_value("KS KH KD", cad) == F(30)
    assert hand_value("7S 7H 7D", cad) == F(30)
    assert hand_value("AS AH AD") == F(11)


def test_V13_grand_cadillac_dealt_is_declared_like_31() -> None:
    s = start("cadillac", ["KD QD 4C", "KH QH 2S", "AS AH AD"], up="9S")
    r = s.results[-1]
    assert r.ended == "dealt_31"
    assert r.declarers == (2,)
    assert r.values == (F(20), F(20), F(33))
    assert r.lives_lost == (1, 1, 0)
    assert r.codes == ("C9",)
    assert s.lives == (3, 3, 4)


def test_V13_grand_cadillac_drawn_is_declared_at_once() -> None:
    s = start("cadillac", ["KD QD 4C", "AS AH 2S", "KC QC 3H"], up="9S", stock="AD")
    s = s.apply("draw").apply("discard 2S")
    r = s.results[-1]
    assert r.ended == "31"
    assert r.declarers == (1,)
    assert r.values[1] == F(33)
    assert r.lives_lost == (1, 0, 1)
    assert s.lives == (3, 4, 3)


def test_V13_other_three_of_a_kind_is_30_and_not_declared() -> None:
    s = start("cadillac", ["KD QD 4C", "KS KH 2S", "AC QC 3H"], up="9S", stock="KC")
    s = s.apply("draw").apply("discard 2S")
    assert s.value(1) == F(30)
    assert s.phase is Phase.TURN and s.to_move == 2 and s.results == ()


def test_V13_cadillac_knocker_tie_knocker_loses_two_others_nothing() -> None:
    s = knock_hand("cadillac", TIE3, up="9S")
    r = s.results[-1]
    assert r.values == (F(25), F(20), F(20))
    assert r.lives_lost == (0, 2, 0)
    assert r.codes == ("V7",)
    assert s.lives == (4, 2, 4)


# -- V14: GIN ----------------------------------------------------------------------------------


def test_V14_gin_knocker_highest_or_tied_gives_everyone_else_a_letter() -> None:
    # Player 1 knocks with 25; player 0 ties at 25, player 2 has 20.
    s = knock_hand("gin", ["AD KD 4D", "KH QH 5H", "KC QC 3H"], up="9S")
    r = s.results[-1]
    assert r.values == (F(25), F(25), F(20))
    assert r.lives_lost == (1, 0, 1)
    assert r.codes == ("V14",)
    assert result_json(s)["letters"] == ["G", "", "G"]
    # Strictly highest knocker: the same.
    s = knock_hand("gin", ["AD KD 2C", "KH QH 5H", "KC QC 3H"], up="9S")
    assert s.results[-1].lives_lost == (1, 0, 1)


def test_V14_gin_beaten_knocker_gets_a_letter() -> None:
    # Player 1 knocks with 20 and is beaten by player 0's 25: only the knocker gets a letter,
    # not the lowest player 2 (5).
    s = knock_hand("gin", ["AD KD 4D", "KH QH 2S", "2C 3D 5H"], up="9S")
    r = s.results[-1]
    assert r.values == (F(25), F(20), F(5))
    assert r.lives_lost == (0, 1, 0)
    assert r.codes == ("V14",)
    assert result_json(s)["letters"] == ["", "G", ""]


def test_V14_gin_31_gives_everyone_else_a_letter() -> None:
    s = _thirty_one_after_knock("gin")
    r = s.results[-1]
    assert r.ended == "31"
    assert r.lives_lost == (1, 1, 0)
    assert "V14" in r.codes
    assert result_json(s)["letters"] == ["G", "G", ""]


def test_V14_gin_three_of_a_kind_is_61_halves() -> None:
    gin = find_rules("gin")
    assert hand_value("7S 7H 7D", gin) == F(61, 2)
    # The knocker's 7-7-7 (61/2) beats A-K-9 of hearts (30): the other player gets a letter.
    s = knock_hand(gin, ["AH KH 9H", "7S 7H 7D"], up="2C")
    r = s.results[-1]
    assert r.values == (F(30), F(61, 2))
    assert r.lives_lost == (1, 0)


def test_V14_gin_three_letters_mean_out() -> None:
    gin = find_rules("gin")
    # Hand 1 (dealer 0): player 1 knocks with 5 and is beaten: G.
    s = knock_hand(gin, ["AD KD 9C", "2C 3D 5H"], up="9S")
    assert result_json(s)["letters"] == ["", "G"]
    # Hand 2 (dealer 1): player 0 knocks with 21 and is highest: player 1 gets I.
    s = knock_hand(gin, ["AD KD 9C", "2C 3D 5H"], up="9S", state=s)
    assert s.results[-1].knocker == 0
    assert result_json(s)["letters"] == ["", "GI"]
    assert s.out == (False, False)
    # Hand 3 (dealer 0): player 1 knocks and is beaten again: N, out.
    s = knock_hand(gin, ["AD KD 9C", "2C 3D 5H"], up="9S", state=s)
    r = s.results[-1]
    assert r.lives_lost == (0, 1)
    assert r.newly_out == (1,)
    assert r.codes == ("V14",)
    assert s.out == (False, True)
    assert s.winner == 0
    assert s.phase is Phase.GAME_OVER
    data = result_json(s)
    assert data["letters"] == ["", "GIN"]
    assert data["winner"] == 0
    assert data["out"] == [1]


# -- V15: Ride the Bus -------------------------------------------------------------------------


def test_V15_ride_the_bus_positions_until_off_the_bus() -> None:
    bus = find_rules("ride-the-bus")
    assert bus.lives == len(BUS_STEPS) == 5
    s = GameState.new(bus, 2, 0)
    assert result_json(s)["positions"] == ["seated at the back", "seated at the back"]
    # Hand 1 (dealer 0): player 1 knocks strictly lowest: two steps forward.
    s = knock_hand(bus, ["AD KD 9C", "2C 3D 5H"], up="9S", state=s)
    assert s.results[-1].lives_lost == (0, 2)
    assert result_json(s)["positions"] == ["seated at the back", "in the middle"]
    # Hand 2 (dealer 1): player 0 knocks, player 1 is lowest: one step.
    s = knock_hand(bus, ["AD KD 9C", "2C 3D 5H"], up="9S", state=s)
    assert s.results[-1].lives_lost == (0, 1)
    assert result_json(s)["positions"] == ["seated at the back", "at the front"]
    # Hand 3 (dealer 0): player 1 knocks strictly lowest again: off the bus, out.
    s = knock_hand(bus, ["AD KD 9C", "2C 3D 5H"], up="9S", state=s)
    r = s.results[-1]
    assert r.lives_lost == (0, 2)
    assert r.newly_out == (1,)
    assert "V15" in r.codes
    assert s.out == (False, True)
    assert s.winner == 0
    assert result_json(s)["positions"] == ["seated at the back", "off the bus"]


def test_V15_every_step_is_named() -> None:
    bus = find_rules("ride-the-bus").replace(lives=1, bus_steps=("on the stairs",))
    s = GameState.new(bus, 2, 0)
    assert result_json(s)["positions"] == ["on the stairs", "on the stairs"]
    s = knock_hand(bus, ["AD KD 9C", "2C 3D 5H"], up="9S", state=s)
    assert s.out == (False, True)
    assert result_json(s)["positions"] == ["on the stairs", "off the bus"]
    # The number of steps can be extended by agreement.
    longer = find_rules("ride-the-bus").replace(bus_steps=BUS_STEPS + ("at the door",), lives=6)
    s = knock_hand(longer, ["AD KD 9C", "2C 3D 5H"], up="9S")
    assert s.lives == (6, 4)
    assert result_json(s)["positions"] == ["seated at the back", "in the middle"]


# -- V16: French-Canadian points --------------------------------------------------------------


def test_V16_highest_hand_scores_a_point() -> None:
    fc = find_rules("french-canadian")
    # Player 1 knocks with 2-3-5 of hearts (10); player 0 is highest with 21.
    s = knock_hand(fc, ["AD KD 9C", "2H 3H 5H", "KS QS 2D"], up="9S")
    r = s.results[-1]
    assert r.ended == "knock"
    assert r.values == (F(21), F(10), F(20))
    assert r.points_won == (1, 0, 0)
    assert r.lives_lost == (0, 0, 0)
    assert r.codes == ("V16",)
    assert s.points == (1, 0, 0)
    assert s.lives == (3, 3, 3)
    data = result_json(s)
    assert data["points"] == [1, 0, 0]
    assert data["target"] == 31
    assert data["hands"][0]["points_won"] == [1, 0, 0]


def test_V16_knocker_highest_scores_the_point() -> None:
    fc = find_rules("french-canadian")
    s = knock_hand(fc, ["KS QS 2D", "AH KH 9H", "2C 3D 5C"], up="9S")
    assert s.results[-1].points_won == (0, 1, 0)


def test_V16_knocker_tie_the_non_knocker_wins_the_point() -> None:
    fc = find_rules("french-canadian")
    # Knocker K-Q-2 of hearts and K-Q-2 of spades: equal even by ranks.
    s = knock_hand(fc, ["KS QS 2S", "KH QH 2H"], up="9C")
    r = s.results[-1]
    assert r.values == (F(22), F(22))
    assert r.points_won == (1, 0)
    assert s.points == (1, 0)


def test_V16_tied_non_knockers_each_score() -> None:
    fc = find_rules("french-canadian")
    s = knock_hand(fc, ["KD QD 2D", "2H 3H 5H", "KS QS 2S"], up="9C")
    r = s.results[-1]
    assert r.values == (F(22), F(10), F(22))
    assert r.points_won == (1, 0, 1)
    assert s.points == (1, 0, 1)


def test_V16_declared_31_scores_a_point_at_once() -> None:
    fc = find_rules("french-canadian")
    s = start(fc, ["AD KD 4C", "AH KH 2S", "KC QC 3H"], up="9S", stock="QH")
    s = s.apply("draw").apply("discard 2S")
    r = s.results[-1]
    assert r.ended == "31"
    assert r.declarers == (1,)
    assert r.points_won == (0, 1, 0)
    assert r.lives_lost == (0, 0, 0)
    assert r.codes == ("V16",)
    assert s.points == (0, 1, 0)
    assert s.lives == (3, 3, 3)


def test_V16_first_to_the_points_target_wins() -> None:
    fc = find_rules("french-canadian").replace(points_target=2)
    # Hand 1 (dealer 0): player 1 knocks with A-K-9 of hearts (30) and is highest.
    s = knock_hand(fc, ["KS QS 2D", "AH KH 9H"], up="9C")
    assert s.points == (0, 1)
    assert s.winner is None
    assert s.phase is Phase.DEAL
    # Hand 2 (dealer 1): player 0 knocks with 2-3-5 of hearts (10); player 1 is highest.
    s = knock_hand(fc, ["2H 3H 5H", "AS KS 9S"], up="9C", state=s)
    assert s.results[-1].knocker == 0
    assert s.results[-1].points_won == (0, 1)
    assert s.points == (0, 2)
    assert s.winner == 1
    assert s.phase is Phase.GAME_OVER
    data = result_json(s)
    assert data["points"] == [0, 2]
    assert data["target"] == 2
    assert data["winner"] == 1


# -- V17: Jacobs' tie-break --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("better", "worse"),
    [("AH 10H 9H", "KS QS JS"), ("KH 10H 9H", "QC JC 9C"), ("KD JD 7D", "KH 9H 8H")],
)
def test_V17_jacobs_tiebreak_key(better: str, worse: str) -> None:
    fc = find_rules("french-canadian")
    b, w = parse_cards(better), parse_cards(worse)
    assert hand_value(b, fc) == hand_value(w, fc)
    assert tiebreak_key(b, fc) > tiebreak_key(w, fc)
    # Without V17 the values tie.
    classic = find_rules("classic")
    assert tiebreak_key(b, classic) == tiebreak_key(w, classic) == (hand_value(b),)


def test_V17_jacobs_tiebreak_decides_a_showdown() -> None:
    fc = find_rules("french-canadian")
    # Player 1 knocks with K-J-7 of hearts; player 0 holds K-9-8 of spades: both 27, the
    # knocker wins on ranks.
    s = knock_hand(fc, ["KS 9S 8S", "KH JH 7H"], up="2C")
    r = s.results[-1]
    assert r.values == (F(27), F(27))
    assert r.points_won == (0, 1)
    # Player 1 knocks with K-Q-J of hearts; player 0's A-10-9 of spades wins on ranks.
    s = knock_hand(fc, ["AS 10S 9S", "KH QH JH"], up="2C")
    assert s.results[-1].points_won == (1, 0)
    # Three players: K-10-9 beats Q-J-9 (both 29), the knocker's 10 is lowest.
    s = knock_hand(fc, ["QC JC 9C", "2H 3H 5H", "KD 10D 9D"], up="2C")
    assert s.results[-1].values == (F(29), F(10), F(29))
    assert s.results[-1].points_won == (0, 0, 1)
    # V16 alone: K-J-7 and K-9-8 tie, and the non-knocker wins the tie.
    v16 = RuleSet.from_codes("V16")
    s = knock_hand(v16, ["KS 9S 8S", "KH JH 7H"], up="2C")
    assert s.results[-1].points_won == (1, 0)


def test_V17_knock_only_with_three_cards_of_one_suit() -> None:
    for rules in (find_rules("french-canadian"), RuleSet.from_codes("V17")):
        s = start(rules, ["2S 3S 5S", "AH KH 4C"], up="9D")
        assert s.to_move == 1
        assert [str(a) for a in s.legal_actions()] == ["draw", "take"]
        before = snapshot(s)
        with pytest.raises(IllegalActionError, match="three cards of one suit"):
            s.apply("knock")
        assert snapshot(s) == before
        s = pass_turn(s)
        assert s.to_move == 0
        assert Action.KNOCK in s.legal_actions()


# -- V18: Eenendertigen ------------------------------------------------------------------------


def test_V18_eenendertigen_deals_32_cards_seven_and_higher() -> None:
    rules = find_rules("eenendertigen")
    assert rules.deck_size == 32
    order = deal_order(["AD KD QC", "7S 8S 9S"], up="10D", rules=rules)
    assert len(order) == 32
    assert len(set(order)) == 32
    assert all(c.rank >= Rank.SEVEN for c in order)
    assert set(order) == set(deck(32))
    s = GameState.new(rules, 2, 0).deal(order)
    assert s.hands == (parse_cards("AD KD QC"), parse_cards("7S 8S 9S"))
    assert s.top_discard == Card.parse("10D")
    assert s.stock_size == 32 - 7
    assert all(c.rank >= Rank.SEVEN for c in s.remaining_stock)
    # Player 1 knocks with 24; player 0 (21) is lowest.
    s = s.apply("knock")
    s = pass_turn(s)
    r = s.results[-1]
    assert r.values == (F(21), F(24))
    assert r.lives_lost == (1, 0)


def test_V18_deal_refuses_a_52_card_deck_or_a_six() -> None:
    rules = find_rules("eenendertigen")
    s = GameState.new(rules, 2, 0)
    with pytest.raises(CardError, match="V18"):
        s.deal(deck(52))
    order = list(deal_order(["AD KD QC", "7S 8S 9S"], up="10D", rules=rules))
    order[order.index(Card.parse("7C"))] = Card.parse("6C")
    with pytest.raises(CardError, match="6C"):
        s.deal(order)
    with pytest.raises(CardError):
        s.deal(deck(32)[:31])
    with pytest.raises(CardError, match="V18"):
        deal_order(["AD KD 6C", "7S 8S 9S"], up="10D", rules=rules)
    # The refused deals leave the game waiting for a deck.
    assert s.phase is Phase.DEAL
    assert s.decks == ()
    # And the classic game refuses a 32-card deck.
    with pytest.raises(CardError):
        GameState.new("classic", 2, 0).deal(deck(32))


# -- V19: bus stop -----------------------------------------------------------------------------


def test_V19_bus_stop_not_in_first_turn_and_ends_the_hand_after_the_discard() -> None:
    bus = find_rules("ride-the-bus")
    s = start(bus, ["AD KD 9C", "2C 3D 5H"], up="9S")
    # Before drawing: no stop.
    assert Action.STOP_BUS not in s.legal_actions()
    with pytest.raises(IllegalActionError, match="V19"):
        s.apply("stop_bus")
    # Player 1's first turn, after drawing: still no stop.
    s = s.apply("draw")
    assert Action.STOP_BUS not in s.legal_actions()
    before = snapshot(s)
    with pytest.raises(IllegalActionError, match="V19"):
        s.apply("stop_bus")
    assert snapshot(s) == before
    assert s.drawn is not None
    s = s.apply(Action.discard(s.drawn))
    # Player 0's first turn: no stop either.
    s = s.apply("draw")
    assert Action.STOP_BUS not in s.legal_actions()
    assert s.drawn is not None
    s = s.apply(Action.discard(s.drawn))
    # Player 1's second turn: after drawing, the bus may be stopped.
    assert s.to_move == 1
    assert Action.STOP_BUS not in s.legal_actions()
    s = s.apply("draw")
    assert Action.STOP_BUS in s.legal_actions()
    s = s.apply("stop_bus")
    assert s.phase is Phase.DISCARD
    assert s.to_move == 1
    assert s.results == ()
    assert s.drawn is not None
    s = s.apply(Action.discard(s.drawn))
    # The hand ends at once: player 0 gets no further turn.
    assert s.phase is Phase.DEAL
    r = s.results[-1]
    assert r.ended == "bus_stop"
    assert r.knocker == 1
    assert r.values == (F(21), F(5))
    # Scored like a knock with the stopper as knocker: strictly lowest, two steps.
    assert r.lives_lost == (0, 2)
    assert r.codes == ("C7",)
    assert result_json(s)["positions"] == ["seated at the back", "in the middle"]


def test_V19_bus_stopper_not_lowest() -> None:
    v19 = RuleSet.from_codes("V19")
    s = start(v19, ["2C 3D 5H", "AD KD 9C", "KS QS 2D"], up="9S")
    s = pass_turn(pass_turn(pass_turn(s)))
    assert s.to_move == 1
    s = s.apply("draw").apply("stop_bus")
    assert s.drawn is not None
    s = s.apply(Action.discard(s.drawn))
    r = s.results[-1]
    assert r.ended == "bus_stop"
    assert r.knocker == 1
    assert r.values == (F(5), F(21), F(20))
    assert r.lives_lost == (1, 0, 0)
    assert s.lives == (2, 3, 3)


def test_V19_no_bus_stop_without_the_variant() -> None:
    s = start("classic", ["2C 3D 5H", "AD KD 9C"], up="9S")
    s = pass_turn(pass_turn(s))
    s = s.apply("draw")
    assert Action.STOP_BUS not in s.legal_actions()
    with pytest.raises(IllegalActionError, match="V19"):
        s.apply("stop_bus")


# -- contradictions and presets ----------------------------------------------------------------


@pytest.mark.parametrize(
    "build",
    [
        lambda: RuleSet.from_codes("V1", "V2"),
        lambda: RuleSet.from_codes("V10", "V6"),
        lambda: find_rules("quick").replace(hammer=True),
        lambda: find_rules("gin").replace(knocker_tie="cadillac"),
        lambda: find_rules("gin").replace(knocker_lowest_loses=1),
        lambda: find_rules("gin").replace(thirty_one_after_knock="knocker_two"),
        lambda: RuleSet.from_codes("V14", "V9"),
        lambda: RuleSet.from_codes("V13", "V14"),
        lambda: RuleSet.from_codes("V16", "V8"),
        lambda: find_rules("french-canadian").replace(knocker_tie="knocker_only"),
        lambda: find_rules("gin").replace(county=True),
        lambda: find_rules("ride-the-bus").replace(county=True),
        lambda: find_rules("ride-the-bus").replace(lives=3),
        lambda: find_rules("classic").replace(bus_steps=("at the back",)),
        lambda: find_rules("classic").replace(min_knock=32),
        lambda: find_rules("classic").replace(knocker_tie="nobody"),
        lambda: find_rules("classic").replace(deck_size=36),
        lambda: RuleSet.from_codes("V20"),
    ],
)
def test_contradictory_rules_are_refused(build: Callable[[], RuleSet]) -> None:
    with pytest.raises(RulesError):
        build()


def test_contradiction_messages_name_the_clash() -> None:
    with pytest.raises(RulesError, match="V1 and V2 contradict each other"):
        RuleSet.from_codes("V1", "V2")
    with pytest.raises(RulesError, match=r"hammer \(V10\) contradicts no_knock_first_round \(V6\)"):
        RuleSet.from_codes("V6", "V10")
    with pytest.raises(RulesError, match="knocker_tie='cadillac'"):
        find_rules("gin").replace(knocker_tie="cadillac")


@pytest.mark.parametrize(
    ("name", "codes"),
    [
        ("classic", ()),
        ("quick", ("V1", "V6", "V12")),
        ("cadillac", ("V7", "V13")),
        ("gin", ("V14",)),
        ("ride-the-bus", ("V15", "V19")),
        ("french-canadian", ("V16", "V17")),
        ("eenendertigen", ("V18",)),
    ],
)
def test_preset_codes(name: str, codes: tuple[str, ...]) -> None:
    rules = find_rules(name)
    assert rules.name == name
    assert rules.codes() == codes
