"""The expert's decision rules (scatlab.players.expert): the knock weighed by everyone's
standing (C7, V14, V16), under the stated model of the chance of winning the game."""

from __future__ import annotations

import random

import pytest

from scatlab.errors import AnalysisError
from scatlab.players.base import PlayerError
from scatlab.players.expert import ExpertPlayer
from scatlab.rules import GameState, deal_order
from scatlab.rules.actions import ActionKind


def first_turn(preset: str, hand: str, players: int = 3) -> ActionKind:
    hands = ["2S 3S 5D", hand, "5C 6D 8C", "9C 10C 2D"][:players]
    g = GameState.new(preset, players).deal(deal_order(hands, up="4S"))
    return ExpertPlayer().decide(g.view(1 % players), random.Random(0)).action.kind


@pytest.mark.parametrize("preset", ["classic", "gin", "cadillac", "french-canadian"])
def test_C7_V14_V16_expert_knocks_a_30_against_fresh_hands(preset: str) -> None:
    assert first_turn(preset, "KH QH JH") is ActionKind.KNOCK


@pytest.mark.parametrize("preset", ["classic", "gin", "french-canadian"])
def test_C7_V14_V16_expert_does_not_knock_a_weak_hand(preset: str) -> None:
    assert first_turn(preset, "KH 7D 2C") is not ActionKind.KNOCK


def test_V14_gin_knock_reason_counts_the_letters_it_gives() -> None:
    g = GameState.new("gin", 3).deal(deal_order(["2S 3S 5D", "KH QH JH", "5C 6D 8C"], up="4S"))
    reason = ExpertPlayer().decide(g.view(1), random.Random(0)).reason
    assert "stands (everyone else a letter, V14)" in reason and "letters expected" in reason


def test_standing_model_own_last_life_is_worth_more_than_the_first() -> None:
    expert = ExpertPlayer()
    me = 0
    lose_first = expert.valuation.p_win([4.0, 3.0, 3.0], me, False) - expert.valuation.p_win([3.0, 3.0, 3.0], me, False)
    lose_last = expert.valuation.p_win([1.0, 3.0, 3.0], me, False) - expert.valuation.p_win([0.0, 3.0, 3.0], me, False)
    assert lose_last > lose_first > 0


def test_standing_model_an_opponents_lost_life_is_worth_something() -> None:
    expert = ExpertPlayer()
    before = expert.valuation.p_win([2.0, 3.0, 3.0], 0, False)
    after = expert.valuation.p_win([2.0, 2.0, 3.0], 0, False)
    out = expert.valuation.p_win([2.0, 0.0, 3.0], 0, False)
    assert before < after < out
    assert expert.valuation.p_win([5.0, 3.0], 0, True) > expert.valuation.p_win([4.0, 3.0], 0, True)  # V16: a point


def test_expert_parameters_are_checked() -> None:
    with pytest.raises(PlayerError, match="alpha=0"):
        ExpertPlayer(alpha=0)
    with pytest.raises(PlayerError, match="margin=2"):
        ExpertPlayer(margin=2)


def test_C6_knock_valuation_rule_knocks_by_the_experts_valuation_and_refuses_bad_input() -> None:
    """``KnockValuation.knock_rule`` (the expert's ``valuation``) writes the expert's knock
    decision for every value at once:
    against an opponent sure to end on 20 a 26 (C6's lowest knock) beats it and knocks
    whatever playing on risks, below 26 there is no rule, and a hand that beats nobody never
    knocks; bad input is refused with the value quoted."""
    import numpy as np

    g = GameState.new("classic", 2).deal(deal_order(["AH KH 4C", "2S 3S 9H"], up="QH"))
    view = g.view(0)
    sure20 = np.zeros(67)
    sure20[40] = 1.0
    rule = ExpertPlayer().valuation.knock_rule(view, [sure20], [0])
    assert rule.threshold[51] == float("inf") and rule.threshold[52] == float("-inf")
    sure30 = np.zeros(67)
    sure30[60] = 1.0
    assert ExpertPlayer().valuation.knock_rule(view, [sure30], [0]).threshold[52] > 1  # above any chance of losing
    with pytest.raises(AnalysisError, match="knock_rule needs a PlayerView or a Standing, not 'view'"):
        ExpertPlayer().valuation.knock_rule("view", [sure20], [0])  # type: ignore[arg-type]
    with pytest.raises(AnalysisError, match=r"dists=\[\] is not allowed: .* for each of the 1 opponents"):
        ExpertPlayer().valuation.knock_rule(view, [], [0])
    with pytest.raises(AnalysisError, match="dists=.* is not allowed"):
        ExpertPlayer().valuation.knock_rule(view, [np.full(67, np.nan)], [0])
    with pytest.raises(AnalysisError, match=r"played=\[-1\] is not allowed: a whole number of turns"):
        ExpertPlayer().valuation.knock_rule(view, [sure20], [-1])
    with pytest.raises(AnalysisError, match=r"played=\[True\] is not allowed"):
        ExpertPlayer().valuation.knock_rule(view, [sure20], [True])
