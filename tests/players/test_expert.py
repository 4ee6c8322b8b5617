"""The expert's decisions (scatlab.players.expert): the engine's move with the highest chance
of winning the game, the knock valued by everyone's standing (C7, V14, V16)."""

from __future__ import annotations

import random

import pytest

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


def test_V14_gin_knock_reason_says_the_chance_the_knock_stands_and_of_winning() -> None:
    g = GameState.new("gin", 3).deal(deal_order(["2S 3S 5D", "KH QH JH", "5C 6D 8C"], up="4S"))
    reason = ExpertPlayer().decide(g.view(1), random.Random(0)).reason
    assert "stands (everyone else a letter, V14)" in reason and "its chance of winning the game: " in reason


def test_the_experts_horizon_is_checked_and_changes_only_the_figures_it_quotes() -> None:
    with pytest.raises(PlayerError, match="horizon=7"):
        ExpertPlayer(horizon=7)
    g = GameState.new("classic", 3).deal(deal_order(["2S 3S 5D", "KH 7D 2C", "5C 6D 8C"], up="4S"))
    assert (
        ExpertPlayer(horizon=2).decide(g.view(1), random.Random(0)).action
        == ExpertPlayer().decide(g.view(1), random.Random(0)).action
    )
