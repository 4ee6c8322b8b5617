"""The master player (scatlab.players.master): it searches from the one engine, sees only
its view, is reproducible, and plays the engine's move where a search cannot tell moves apart."""

from __future__ import annotations

import random

import numpy as np
import pytest

from scatlab.analysis import decide, rank
from scatlab.cards import parse_card
from scatlab.players import make_player, seat_policy
from scatlab.players.base import PlayerError
from scatlab.players.master import MasterPlayer, SearchResult, WorldSampler
from scatlab.players.tournament import play_out
from scatlab.rules import Action, ActionKind, GameState, Phase, PlayerView, deal_order, find_rules, play_random_game


def heads_up(
    hands: list[str], up: str, stock: str = "", moves: tuple[str, ...] = (), rules: str | dict[str, object] = "classic"
) -> GameState:
    state = GameState.new(rules, 2).deal(deal_order(hands, up=up, stock=stock))
    for move in moves:
        state = state.apply(move)
    return state


def searched_position() -> GameState:
    """Heads-up, a few turns in, player 1 to move with a real choice (draw, take or knock)."""
    return heads_up(
        ["9C 10D 2H", "KH QH 5S"], up="4D", stock="7S 3C 8H 6D", moves=("draw", "discard 7S", "draw", "discard 2H")
    )


def test_C8_C9_a_sure_31_is_always_taken_without_a_search() -> None:
    master = MasterPlayer(budget=50)
    take = heads_up(["2S 3S 9D", "AH KH 4C"], up="QH")  # the QH makes A K Q of hearts (C8)
    decision = master.decide(take.view(1), random.Random(0))
    assert decision.action == Action.TAKE and master.last is None
    kept = heads_up(["2S 3S 9D", "AH KH 4C"], up="5D", stock="QH", moves=("draw",))
    decision = master.decide(kept.view(1), random.Random(0))  # throwing the 4C keeps 31 (C8)
    assert decision.action == Action.discard("4C") and master.last is None
    dealt = heads_up(["2S 3S 9D", "AH KH QH"], up="5D", rules={"declare": "manual"})
    assert dealt.phase is Phase.DECLARE  # a dealt 31 is declared (C9, C10)
    assert master.decide(dealt.view(1), random.Random(0)).action == Action.DECLARE


def test_a_seeded_master_is_reproducible() -> None:
    view = searched_position().view(1)
    one = MasterPlayer(budget=120).decide(view, random.Random(7))
    two = MasterPlayer(budget=120).decide(view, random.Random(7))
    assert one == two and "played out" in one.reason


def test_the_master_never_reads_a_card_its_view_does_not_show() -> None:
    """Two games player 1 cannot tell apart (player 0's hand and the stock differ): the same
    decision and the same reason."""
    one = searched_position()
    other = heads_up(
        ["JC 10S 2H", "KH QH 5S"], up="4D", stock="7S AD 8H 6D", moves=("draw", "discard 7S", "draw", "discard 2H")
    )
    assert one.view(1) == other.view(1) and one.hands[0] != other.hands[0] and one.stock != other.stock
    master = MasterPlayer(budget=120)
    told = {master.decide(s.view(1), random.Random(3)) for s in (one, other)}
    assert len(told) == 1 and master.last is not None


def test_the_sampler_takes_a_view_and_its_deals_replay_to_that_view() -> None:
    """Player 1 takes the 4D, player 2 draws and throws, player 0 draws: player 0's sampled
    deals replay the hand's log to exactly its view, player 1 holding the 4D in every one."""
    state = GameState.new("classic", 3).deal(deal_order(["9C 10D 2H", "KH QH 5S", "4C 4H 8D"], up="4D", stock="7S 3C"))
    for move in ("take", "discard 5S", "draw", "discard 7S", "draw"):
        state = state.apply(move)
    view = state.view(0)
    with pytest.raises(PlayerError, match="needs a PlayerView"):
        WorldSampler(state)  # type: ignore[arg-type]
    sampler = WorldSampler(view)
    gen, rnd = np.random.default_rng(0), random.Random(0)
    worlds = [w for w in (sampler.sample(gen, rnd) for _ in range(30)) if w is not None]
    assert len(worlds) >= 20
    me = sampler.seat_of[0]
    for world in worlds:
        seen = world.view(me)
        assert sorted(seen.hand) == sorted(view.hand) and seen.drawn == view.drawn
        assert seen.discard_pile == view.discard_pile and seen.stock_size == view.stock_size
        assert set(seen.legal_actions) == set(view.legal_actions)
        assert [(e.action, e.card) for e in seen.history] == [(e.action, e.card) for e in view.history]
        assert parse_card("4D") in world.hands[sampler.seat_of[1]]
    assert len({frozenset(w.hands[sampler.seat_of[2]]) for w in worlds}) > 5  # the hidden cards do vary


def test_with_one_rollout_per_move_it_plays_the_engines_move() -> None:
    """One sampled deal cannot make a move clearly better: at every decision of seeded games
    (last turns after a knock, sure 31s and throws among them) the master plays the engine's move."""
    master = MasterPlayer(budget=1)
    kinds: set[ActionKind] = set()
    last_turns = 0
    rules = find_rules("classic")
    for game in range(2):

        def check(before: GameState, entrant: int, view: PlayerView, action: Action, after: GameState) -> None:
            nonlocal last_turns
            if view.phase in (Phase.TURN, Phase.DISCARD):
                assert master.decide(view, random.Random(0)).action == decide(view).action
                kinds.add(action.kind)
                last_turns += view.knocker is not None

        play_out([make_player("expert"), make_player("expert")], ["expert", "expert"], rules, 5, game, check)
    assert {ActionKind.DRAW, ActionKind.DISCARD, ActionKind.KNOCK} <= kinds and last_turns > 0


def test_with_one_rollout_per_move_the_search_reproduces_the_rankings_order_where_it_is_exact() -> None:
    """On a last turn after a knock (C6) heads-up the engine's ranking of the throws that
    keep no 31 is exact in its order: the hand kept is all that counts, and a higher hand
    never does worse in any deal. (A 31 is another matter: declared, it costs the knocker
    one life, C8, where a 30 that leaves the knocker strictly lowest costs it two, C7.)
    Played out in one sampled deal each (a budget of one rollout per move), such a throw the
    ranking puts first never scores below one it puts after it, in every seeded deal."""
    from scatlab.players.master import search

    rules = find_rules("classic")
    checked = 0
    for game in range(6):

        def check(before: GameState, entrant: int, view: PlayerView, action: Action, after: GameState) -> None:
            nonlocal checked
            if view.phase is not Phase.DISCARD or view.knocker is None:
                return
            ranking = rank(view)
            if ranking.horizon != 0 or len(ranking.moves) < 2:
                return
            moves = ranking.moves
            for seed in range(3):
                found = search(view, moves, len(moves), random.Random(seed))
                assert found.deals == 1
                for i in range(len(moves) - 1):
                    a, b = moves[i].win, moves[i + 1].win
                    assert a >= b
                    if a > b and not moves[i].sure_31 and not moves[i + 1].sure_31:  # a higher hand never does worse
                        assert found.means[i] >= found.means[i + 1], (view, i)
            checked += 1

        play_out([make_player("expert"), make_player("tip")], ["expert", "tip"], rules, 11, game, check)
    assert checked >= 3


@pytest.mark.parametrize(
    ("params", "quoted"),
    [
        ({"budget": 0}, "budget=0"),
        ({"budget": 2.5}, "budget=2.5"),
        ({"budget": True}, "budget=True"),
        ({"seconds": 0}, "seconds=0"),
        ({"seconds": -1.5}, "seconds=-1.5"),
        ({"seconds": "1"}, "seconds='1'"),
        ({"candidates": 1}, "candidates=1"),
        ({"confidence": float("nan")}, "confidence=nan"),
        ({"knock_confidence": -1}, "knock_confidence=-1"),
    ],
)
def test_bad_parameters_raise_player_error_quoting_the_value(params: dict[str, object], quoted: str) -> None:
    with pytest.raises(PlayerError, match=quoted.replace(".", r"\.")):
        MasterPlayer(**params)  # type: ignore[arg-type]
    with pytest.raises(PlayerError, match=quoted.replace(".", r"\.")):
        make_player("master", **params)


def test_make_player_master() -> None:
    budgets = [getattr(make_player(kind), "budget", None) for kind in ("master:250", " MASTER:7 ")]
    assert budgets == [250, 7]
    for bad, said in (
        ("master:0", "'master:0': budget=0"),
        ("tip:3", "only the master takes a budget"),
        ("master:x", "'master:x'"),
        ("master:", "'master:'"),
    ):
        with pytest.raises(PlayerError, match=said):
            make_player(bad)
    with pytest.raises(PlayerError, match="given a budget twice"):
        make_player("master:9", budget=3)
    master = make_player("master")
    assert isinstance(master, MasterPlayer) and master.name == "master" and master.budget > 100
    assert isinstance(make_player(" Master ", budget=40, seconds=0.5), MasterPlayer)
    with pytest.raises(PlayerError, match="bad parameters for the master player"):
        make_player("master", depth=3)


def test_the_reason_states_the_search_in_words() -> None:
    """The master's reason gives what the play-outs found as levels of the chance of winning
    the game (the hints' words: never a change without its level), give or take one
    standard error of the difference; the engine's first move is searched first."""
    state = heads_up(["9C 10D 2H", "KH 4H 5S"], up="2C")
    view = state.view(1)
    ranking = rank(view)
    first = next(m for m in ranking.moves if m.action in (Action.TAKE, Action.DRAW))
    other = next(m for m in ranking.moves if m.action in (Action.TAKE, Action.DRAW) and m is not first)
    moves = (first, other)
    says = {Action.TAKE: "takes the 2C", Action.DRAW: "draws"}
    found = SearchResult(moves, 400, (0.5, 0.52), (0.0, 0.021), (0.0, 0.008))
    decision = MasterPlayer()._choose(view, ranking, found)
    assert decision.action == other.action
    assert decision.reason == (
        f"{says[other.action]}: played out 400 deals it could be in; its chance of winning "
        f"the game came to 52.0% if it {says[other.action]}, 50.0% if it "
        f"{says[first.action]}, give or take 0.8%"
    )
    close = SearchResult(moves, 400, (0.5, 0.51), (0.0, 0.01), (0.0, 0.008))
    decision = MasterPlayer()._choose(view, ranking, close)
    assert decision.action == first.action and "±" not in decision.reason
    assert decision.reason.endswith(
        f"played out 400 deals it could be in: its chance of winning the game came to "
        f"50.0% if it {says[first.action]}, 51.0% if it {says[other.action]}, give or "
        "take 0.8%: not clearly better"
    )


def test_a_knock_against_playing_on_needs_knock_confidence_standard_errors_the_rest_confidence() -> None:
    """The choice rule at its boundaries: a margin must exceed (strictly) ``knock_confidence``
    standard errors where one move ends the hand and the other plays on, else ``confidence``;
    among the moves that pass, the best margin wins."""
    view = heads_up(["9C 10D 2H", "KH 4H 5S"], up="2C").view(1)
    by_name = {m.name: m for m in rank(view).moves}
    draw, take, knock = by_name["draw"], by_name["take"], by_name["knock"]
    master = MasterPlayer()
    assert (master.confidence, master.knock_confidence) == (2.0, 1.0)

    def found(moves: tuple[object, ...], margins: tuple[float, ...], errors: tuple[float, ...]) -> SearchResult:
        return SearchResult(moves, 100, tuple(0.5 + m for m in margins), margins, errors)  # type: ignore[arg-type]

    moves = (draw, take, knock)
    assert master.threshold(found(moves, (0, 0, 0), (0, 1, 1)), 1) == 2.0
    assert master.threshold(found(moves, (0, 0, 0), (0, 1, 1)), 2) == 1.0
    assert master.pick(found(moves, (0.0, 0.0199, 0.01), (0.0, 0.01, 0.01))) == 0  # at 1 SE: not yet
    assert master.pick(found(moves, (0.0, 0.0199, 0.0101), (0.0, 0.01, 0.01))) == 2  # past 1 SE: knock
    assert master.pick(found(moves, (0.0, 0.02, 0.0101), (0.0, 0.01, 0.01))) == 2  # take at 2 SE: not yet
    assert master.pick(found(moves, (0.0, 0.0201, 0.0101), (0.0, 0.01, 0.01))) == 1  # past 2 SE, the best margin
    assert master.pick(found(moves, (0.0, 0.0201, 0.03), (0.0, 0.01, 0.01))) == 2  # both pass: the larger
    # the engine knocks: playing on instead is the knock decision too, trusted from 1 SE
    assert master.pick(found((knock, draw), (0.0, 0.0101), (0.0, 0.01))) == 1
    assert master.pick(found((knock, draw), (0.0, 0.01), (0.0, 0.01))) == 0
    # one deal: an infinite error never passes, whatever the thresholds
    assert MasterPlayer(knock_confidence=0).pick(found(moves, (0.0, 0.5, 0.5), (0.0, float("inf"), float("inf")))) == 0
    # the thresholds are the player's: with knock_confidence 2 the knock waits for 2 SE
    assert MasterPlayer(knock_confidence=2).pick(found(moves, (0.0, 0.0, 0.0199), (0.0, 0.01, 0.01))) == 0


def test_a_public_reason_tells_how_the_master_plays() -> None:
    state = searched_position()
    told = make_player("master").public_reason(Action.DRAW, state.view(0))
    assert told.startswith("draws") and "unless playing out sampled deals finds a clearly better one" in told


@pytest.mark.parametrize(("preset", "players"), [("classic", 2), ("quick", 3)])
def test_a_short_seeded_game_with_master_seats_ends_legally(preset: str, players: int) -> None:
    kinds = ["master"] + ["expert"] * (players - 1)
    table = [MasterPlayer(budget=12)] + [make_player("expert") for _ in range(players - 1)]
    state, _, actions = play_out(table, kinds, find_rules(preset), 3, 0)  # every action checked legal
    assert state.is_over and state.winner is not None and actions > 20
    game = play_random_game(preset, players, seed=2, policy=seat_policy(table))
    again = play_random_game(
        preset,
        players,
        seed=2,
        policy=seat_policy([MasterPlayer(budget=12)] + [make_player("expert") for _ in range(players - 1)]),
    )
    assert game.is_over and game.results == again.results
