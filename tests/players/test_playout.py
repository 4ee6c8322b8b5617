"""The master's play-out engine (scatlab.players.playout) against the rules engine: seeded
play-outs under every preset replayed in scatlab.rules give the same actions, the same final
hands and the same end; the sampler's replay in card indices accepts and builds the same deals;
a search gives the same figures by either engine. benchmarks/bench_rollouts.py --check runs a
larger sample."""

from __future__ import annotations

import random

import numpy as np
import pytest

from scatlab.analysis import rank
from scatlab.cards import ALL_CARDS, Suit
from scatlab.players.master import MasterPlayer, RolloutPolicy, WorldSampler, _play_out, search
from scatlab.players.playout import DISCARD_ACTION, Hand, action_code, play_out
from scatlab.rules import Action, ActionKind, GameState, Phase, deal_order, find_rules
from scatlab.rules.options import PRESETS
from scatlab.rules.record import shuffled_deck

SUITS = tuple(Suit)
Move = tuple[int, int, int]
ODD = (ActionKind.HAMMER, ActionKind.THROW_DOWN, ActionKind.STOP_BUS)


def mid_hand(rules: str, players: int, rng: random.Random) -> GameState:
    """A seeded hand some actions in: every seat plays the rollout policy, with now and then a
    random legal action (a knock, a take, a throw the policy would not play) for variety."""
    ruleset = find_rules(rules)
    policy = RolloutPolicy.of(ruleset)
    state = GameState.new(ruleset, players, rng.randrange(players)).deal(shuffled_deck(ruleset, rng))
    lives = [ruleset.lives] * players
    for _ in range(rng.randrange(12)):
        if state.phase not in (Phase.TURN, Phase.DISCARD, Phase.THROW_DOWN, Phase.DECLARE):
            break
        legal = [a for a in state.legal_actions() if a.kind not in ODD]
        if state.phase in (Phase.TURN, Phase.DISCARD) and rng.random() < 0.7:
            action = policy.choose(state, lives)
        else:
            action = rng.choice(legal)
        state = state.apply(action)
    return state


def moves_of(trace: list[tuple[int, Action]]) -> list[Move]:
    return [(seat, *action_code(action)) for seat, action in trace]


@pytest.mark.parametrize("rules", sorted(PRESETS))
def test_C5_C6_C11_the_playout_engine_plays_every_preset_as_the_rules_engine(rules: str) -> None:
    rng = random.Random(f"playout:{rules}")
    policy = RolloutPolicy.of(find_rules(rules))
    played = 0
    while played < 50:
        players = 4 if played % 10 == 9 else 2 + played % 2
        state = mid_hand(rules, players, rng)
        if not Hand.covers(state):
            continue
        lives = [rng.choice((1, state.rules.lives)) for _ in range(players)]
        bits = [rng.randrange(16) for _ in range(players)]
        suits = [frozenset(s for i, s in enumerate(SUITS) if b >> i & 1) for b in bits]
        expected: list[tuple[int, Action]] = []
        end = _play_out(state, policy, lives, suits, expected).results[-1]
        got: list[Move] = []
        ending = play_out(Hand.of(state, bits), policy, lives, trace=got)
        assert got == moves_of(expected), (rules, played)
        knocker = -1 if end.knocker is None else end.knocker
        assert ending[:3] == (end.ended, knocker, end.declarers)
        assert ending[3] == tuple(tuple(c.index for c in hand) for hand in end.final)
        played += 1


@pytest.mark.parametrize("rules", sorted(PRESETS))
def test_C3_C9_the_sampler_deals_the_same_hands_by_either_replay(rules: str) -> None:
    rng = random.Random(f"sampler:{rules}")
    compared = accepted = 0
    while compared < 50:
        players = 2 + compared % 3
        state = mid_hand(rules, players, rng)
        if state.phase not in (Phase.TURN, Phase.DISCARD):
            continue
        assert state.to_move is not None
        sampler = WorldSampler(state.view(state.to_move))
        assert sampler.plain
        seed = rng.getrandbits(32)
        world = sampler.sample(np.random.default_rng(seed), random.Random(seed))
        hand = sampler.sample_hand(np.random.default_rng(seed), random.Random(seed))
        assert (world is None) == (hand is None), (rules, compared)
        if world is not None and hand is not None:
            expected = Hand.of(world, sampler.collect_bits)
            for name in Hand.__slots__:
                assert getattr(hand, name) == getattr(expected, name), (rules, compared, name)
            accepted += 1
        compared += 1
    assert accepted > 25


def searched_views(rules: str, count: int) -> list[tuple[object, tuple[object, ...]]]:
    rng = random.Random(f"search:{rules}")
    master = MasterPlayer()
    found: list[tuple[object, tuple[object, ...]]] = []
    while len(found) < count:
        state = mid_hand(rules, 2 + len(found) % 2, rng)
        if state.phase not in (Phase.TURN, Phase.DISCARD):
            continue
        assert state.to_move is not None
        view = state.view(state.to_move)
        moves = master.candidates_for(rank(view, master.style))
        if len(moves) >= 2:
            found.append((view, moves))
    return found


@pytest.mark.parametrize("rules", sorted(PRESETS))
def test_a_search_finds_the_same_by_either_engine(rules: str) -> None:
    for k, (view, moves) in enumerate(searched_views(rules, 2)):
        fast = search(view, moves, 40, random.Random(k))  # type: ignore[arg-type]
        slow = search(view, moves, 40, random.Random(k), engine="rules")  # type: ignore[arg-type]
        assert fast.deals == slow.deals > 0
        assert fast.scores == slow.scores and fast.margins == slow.margins


def test_C10_a_hand_with_a_31_left_undeclared_is_searched_by_the_rules_engine() -> None:
    rules = find_rules("classic").replace(declare="manual")
    deck = deal_order(["AH KH QH", "2S 3S 9H"], up="4D", stock="7S 3C 8H 6D 5C 9C")
    state = GameState.new(rules, 2).deal(deck)
    assert state.phase is Phase.DECLARE
    state = state.apply("pass")  # C10: player 1 keeps its 31 undeclared
    assert state.undeclared and not Hand.covers(state)
    with pytest.raises(ValueError, match="played by the rules engine"):
        Hand.of(state)
    state = state.apply("draw").apply("discard 7S")
    view = state.view(0)
    sampler = WorldSampler(view)
    assert not sampler.plain
    master = MasterPlayer()
    moves = master.candidates_for(rank(view, master.style))
    fast = search(view, moves, 40, random.Random(1))
    slow = search(view, moves, 40, random.Random(1), engine="rules")
    assert fast.deals == slow.deals > 0 and fast.scores == slow.scores


def test_C5_a_take_is_never_thrown_back_by_the_fast_throw() -> None:
    policy = RolloutPolicy.of(find_rules("classic"))
    rng = random.Random(5)
    for _ in range(2000):
        four = rng.sample(range(52), 4)
        taken = rng.random() < 0.5
        avoid = rng.randrange(16)
        last = rng.random() < 0.3
        card = policy.throw_card(four[:3], four[3], taken, avoid, last)
        assert card in four and not (taken and card == four[3])
        suits = frozenset(s for i, s in enumerate(SUITS) if avoid >> i & 1)
        from scatlab.analysis import throw_choice
        from scatlab.players.master import _WAYS

        cards = (ALL_CARDS[four[0]], ALL_CARDS[four[1]], ALL_CARDS[four[2]])
        expected = throw_choice(policy.rules, _WAYS[last], cards, ALL_CARDS[four[3]], taken=taken, avoid=suits)
        assert card == expected.card.index
    assert DISCARD_ACTION == action_code(Action.discard(ALL_CARDS[0]))[0]
