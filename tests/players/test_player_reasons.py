"""What another seat is told of a computer player's move (``Player.public_reason``): the
README's promise that the others' cards are face down holds for the players' reasons too.

A :class:`~scatlab.players.base.Decision`'s ``reason`` is the mover's own and names its
hidden cards (the two examples of the defect: the expert "throws the 2S, keeping AH KH 8H",
the tip player "throws the 9C … (not the 7D: player 0 collects D)"). The public reason is
built from the observer's view of the moment before the move and the action: it names only
cards the observer sees, and it is the same whatever the hidden cards are.
"""

from __future__ import annotations

import random

import pytest

from helpers.hidden_cards import cards_named, hidden_from
from scatlab.cards import parse_card, parse_cards
from scatlab.players import PLAYER_KINDS, make_player
from scatlab.players.public import PublicMove
from scatlab.rules import GameState, Phase, deal_order, find_rules, shuffled_deck
from scatlab.rules.actions import Action, ActionKind


def expert_after_drawing_the_2s(hand: str) -> GameState:
    """Heads-up: player 1 (to move first) holds ``hand``, passes up the 4D and draws the 2S."""
    dealt = GameState.new("classic", 2).deal(deal_order(["9S 10D 5C", hand], up="4D", stock="2S"))
    return dealt.apply("draw")


def test_expert_tells_another_seat_the_card_it_throws_not_the_cards_it_keeps() -> None:
    expert = make_player("expert")
    state = expert_after_drawing_the_2s("AH KH 8H")  # 29 in hearts: the 2S goes
    decision = expert.decide(state.view(1), random.Random(0))
    assert decision.action == Action.discard("2S")
    hidden = hidden_from(state.apply(decision.action), 0)  # after the throw, as the learner reads it
    assert cards_named(decision.reason) & hidden == set(parse_cards("AH KH 8H"))  # the defect: its own reason
    public = expert.public_reason(decision.action, state.view(0))
    assert cards_named(public) == {parse_card("2S")}
    assert public == "throws the 2S: it keeps the three cards worth most to it 5 turns ahead"


def test_tip_tells_another_seat_it_will_not_feed_it_without_naming_the_card_kept() -> None:
    tip = make_player("tip")
    # player 0 takes the KD (so it collects D) and throws the 2C; the tip player (collecting
    # H) draws the 5H and would throw its lowest card outside H, the 7D, but for player 0
    state = GameState.new("classic", 2, dealer=1).deal(
        deal_order(["9D 10D 2C", "AH 7D 9C"], up="KD", stock="5H", dealer=1)
    )
    state = state.apply("take").apply("discard 2C").apply("draw")
    decision = tip.decide(state.view(1), random.Random(0))
    assert decision.action == Action.discard("9C") and "(not the 7D: player 0 collects D)" in decision.reason
    public = tip.public_reason(decision.action, state.view(0))
    assert cards_named(public) == {parse_card("9C")}
    assert public == (
        "throws the 9C: a tip player throws its lowest card outside the suit it collects, so it "
        "probably does not collect C, and it does not feed player 0, known to collect D"
    )


def test_tip_tells_the_suit_a_take_shows_not_the_value_it_makes() -> None:
    tip = make_player("tip")
    state = GameState.new("classic", 2).deal(deal_order(["AH KH 4C", "2S 3S 9H"], up="QH"))
    decision = tip.decide(state.view(1), random.Random(0))
    assert decision.action == Action.TAKE and "from 9 to 19" in decision.reason  # its own: the hand's value
    public = tip.public_reason(decision.action, state.view(0))
    assert public == (
        "takes the QH from the pile: a tip player takes a discard only of the suit it collects, so it collects H"
    )


@pytest.mark.parametrize("kind", list(PLAYER_KINDS))
def test_a_public_reason_is_the_same_whatever_the_hidden_cards(kind: str) -> None:
    """Two positions the observer (player 0) cannot tell apart: the mover's hands differ, the
    observer's views are equal, and so is what it is told of the same move."""
    player = make_player(kind)
    one, other = expert_after_drawing_the_2s("3C 7H 8H"), expert_after_drawing_the_2s("4C 7H 9H")
    assert one.view(0) == other.view(0) and one.hands[1] != other.hands[1]
    told = {player.public_reason(Action.discard("2S"), s.view(0)) for s in (one, other)}
    assert len(told) == 1
    own = {make_player("expert").decide(s.view(1), random.Random(0)).reason for s in (one, other)}
    assert len(own) == 2  # what the mover itself would say differs: it names the kept cards


@pytest.mark.parametrize("preset", ["classic", "quick", "ride-the-bus", "eenendertigen"])
def test_public_reasons_name_no_card_hidden_from_any_seat_in_seeded_games(preset: str) -> None:
    """Seeded four-player games of a random, a tip, a greedy and an expert player: every move's
    public reason, for every other seat, against the cards hidden from that seat at that moment
    (the cards the move itself shows, a card taken or thrown, are public once it is made)."""
    rules = find_rules(preset)
    players = [make_player(k) for k in ("random", "tip", "greedy", "expert")]
    rng = random.Random(preset)
    state = GameState.new(rules, 4)
    told = 0
    kinds: set[ActionKind] = set()
    for _ in range(2):  # hands
        state = state.deal(shuffled_deck(rules, rng))
        while state.phase not in (Phase.DEAL, Phase.GAME_OVER):
            mover = state.to_move
            assert mover is not None
            decision = players[mover].decide(state.view(mover), rng)
            after = state.apply(decision.action)
            for seat in range(4):
                if seat != mover and not state.out[seat]:
                    public = players[mover].public_reason(decision.action, state.view(seat))
                    assert not cards_named(public) & hidden_from(after, seat), (seat, public)
                    move = PublicMove.of(decision.action, state.view(seat))
                    assert move.mover == mover and move.action == decision.action
                    told += 1
            kinds.add(decision.action.kind)
            state = after
        if state.is_over:
            break
    assert told > 50 and {ActionKind.DRAW, ActionKind.DISCARD} <= kinds
