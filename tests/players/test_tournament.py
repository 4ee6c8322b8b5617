"""Tournaments: reproducibility across executors, fair seating, statistics, the players'
honesty (only legal actions, no hidden cards reachable from a view) and the CLI."""

from __future__ import annotations

import concurrent.futures
import functools
import importlib
import json
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.hidden_cards import held_from, public_cards, reachable, three_seat_states
from scatlab.cards import Card, deck
from scatlab.errors import IllegalActionError, RulesError, ScatlabError
from scatlab.players import PLAYER_KINDS, PlayerError, RandomPlayer, TournamentResult, run_tournament
from scatlab.players import tournament as tournament_module
from scatlab.players.base import Decision, Player
from scatlab.players.tournament import entrant_labels, play_chunk, play_game, seating, wilson_interval
from scatlab.rules import PRESETS, Action, ActionKind, GameState, Phase, PlayerView, RuleSet, find_rules, shuffled_deck
from scatlab.rules.view import Event


def _expert_available() -> bool:
    if "expert" not in PLAYER_KINDS:
        return False
    try:
        importlib.import_module("scatlab.players.expert")
    except ImportError:
        return False
    return True


EXPERT = _expert_available()
KINDS = ["random", "tip", "greedy"] + (["expert"] if EXPERT else [])
# French-Canadian games run to 31 points; a target of 3 keeps them short without changing a hand.
RULE_SETS = [r if r.score_keeping != "points" else r.replace(points_target=3) for r in PRESETS.values()]
MIXED = ["expert", "tip", "random"] if EXPERT else ["greedy", "tip", "random"]


# -- reproducibility -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def baseline() -> TournamentResult:
    return run_tournament(MIXED, 24, "classic", seed=5, progress=False)


def test_same_seed_same_result_and_different_seed_different_result(baseline: TournamentResult) -> None:
    again = run_tournament(MIXED, 24, "classic", seed=5, progress=False)
    assert again == baseline
    other = run_tournament(MIXED, 24, "classic", seed=6, progress=False)
    assert other != baseline and other.winners != baseline.winners


def test_jobs_2_process_pool_gives_the_same_result(baseline: TournamentResult) -> None:
    assert run_tournament(MIXED, 24, "classic", seed=5, jobs=2, progress=False) == baseline


@pytest.mark.parametrize("chunk_size", [1, 5, 7, 100])
def test_thread_pool_and_any_chunk_size_give_the_same_result(baseline: TournamentResult, chunk_size: int) -> None:
    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        result = run_tournament(MIXED, 24, "classic", seed=5, executor=pool, chunk_size=chunk_size, progress=False)
    assert result == baseline
    assert run_tournament(MIXED, 24, "classic", seed=5, chunk_size=chunk_size, progress=False) == baseline


def test_custom_rules_reach_the_workers_as_data() -> None:
    rules = find_rules("french-canadian").replace(points_target=3)
    one = run_tournament(["tip", "greedy"], 6, rules, seed=2, progress=False)
    two = run_tournament(["tip", "greedy"], 6, rules, seed=2, jobs=2, chunk_size=2, progress=False)
    assert one == two and one.rules == "custom"
    assert sum(e.points_won for e in one.entrants) > 0 and all(e.lives_lost == 0 for e in one.entrants)


def test_progress_bar_goes_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    run_tournament(["tip", "tip"], 4, seed=1, progress=True, chunk_size=2)
    captured = capsys.readouterr()
    assert captured.out == "" and "4/4" in captured.err
    run_tournament(["tip", "tip"], 4, seed=1, progress=False)
    assert capsys.readouterr().err == ""


# -- fair seating --------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(2, 10))
def test_seating_gives_every_entrant_every_seat_and_dealer_position(n: int) -> None:
    seat_counts: Counter[tuple[int, int]] = Counter()
    relative: Counter[tuple[int, int]] = Counter()
    full: Counter[tuple[int, int, int]] = Counter()
    for g in range(n * n):
        seats, dealer = seating(g, n)
        assert sorted(seats) == list(range(n))  # a permutation: one entrant per seat
        for i, s in enumerate(seats):
            seat_counts[i, s] += 1
            relative[i, (s - dealer) % n] += 1
            full[i, s, dealer] += 1
    assert set(seat_counts.values()) == {n} and len(seat_counts) == n * n
    assert set(relative.values()) == {n} and len(relative) == n * n
    assert set(full.values()) == {1} and len(full) == n**3


def test_games_are_played_with_that_seating(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[Spy] = []

    class Spy(RandomPlayer):
        def __init__(self, tag: str) -> None:
            self.tag = tag
            self.seats: set[int] = set()
            self.first_dealer: set[int] = set()
            made.append(self)

        def decide(self, view: PlayerView, rng: random.Random) -> Decision:
            self.seats.add(view.player)
            if view.hand_number == 1:
                self.first_dealer.add(view.dealer)
            return super().decide(view, rng)

    for tag in "abc":
        monkeypatch.setitem(PLAYER_KINDS, f"spy{tag}", lambda tag=tag: Spy(tag))
    made.clear()
    run_tournament(["spya", "spyb", "spyc"], 9, seed=3, chunk_size=1, progress=False)
    made[:3] = []  # the instances made while checking the kinds
    assert len(made) == 27
    for j, spy in enumerate(made):
        game, entrant = divmod(j, 3)
        assert spy.tag == "abc"[entrant]
        seats, dealer = seating(game, 3)
        assert spy.seats == {seats[entrant]}
        assert spy.first_dealer == {dealer}


def test_labels_number_repeated_kinds() -> None:
    assert entrant_labels(["tip", "expert", "tip", "tip"]) == ("tip#1", "expert", "tip#2", "tip#3")
    result = run_tournament(["tip", "greedy", "tip"], 3, progress=False)
    assert [e.label for e in result.entrants] == ["tip#1", "greedy", "tip#2"]
    assert result.players == ("tip", "greedy", "tip")


# -- statistics ----------------------------------------------------------------------------


def test_statistics_are_consistent(baseline: TournamentResult) -> None:
    r = baseline
    assert r.games == 24 and len(r.winners) == 24 and r.rules == "classic" and r.seed == 5
    assert sum(e.wins for e in r.entrants) == r.games
    assert Counter(r.winners) == {i: e.wins for i, e in enumerate(r.entrants) if e.wins}
    for e in r.entrants:
        assert isinstance(e.wins, int) and isinstance(e.hands, int) and isinstance(e.lives_lost, int)
        assert e.games == r.games and 0 < e.hands <= r.hands
        assert e.win_low <= e.win_rate <= e.win_high
        assert (e.win_low, e.win_high) == wilson_interval(e.wins, e.games)
        assert 0 <= e.knocks_lost <= e.knocks and e.declared_31 <= e.hands
        assert e.lives_per_hand == pytest.approx(e.lives_lost / e.hands)


@pytest.mark.parametrize("game", range(6))
def test_one_game_statistics_match_the_rules(game: int) -> None:
    rules = find_rules("classic")
    stats = play_game(["tip", "greedy", "random"], "classic", 11, game)
    assert stats["game"] == game
    winner = stats["winner"]
    for i, (hands, lives, points, knocks, knocks_lost, declared) in enumerate(stats["entrants"]):
        assert points == 0 and knocks_lost <= knocks and declared <= hands <= stats["hands"]
        if i == winner:
            assert hands == stats["hands"]  # the winner plays every hand
        else:  # a loser lost every life, then one more on the county (C13)
            assert lives >= rules.lives + 1


def test_wilson_interval() -> None:
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_to_json_and_table(baseline: TournamentResult) -> None:
    data = baseline.to_json()
    assert json.loads(json.dumps(data)) == data
    assert data["games"] == 24 and data["players"] == MIXED and len(data["entrants"]) == 3
    entry = data["entrants"][0]
    assert set(entry) >= {
        "label",
        "wins",
        "win_rate",
        "win_rate_ci95",
        "hands",
        "lives_lost",
        "lives_lost_per_hand",
        "knocks",
        "knocks_lost_life",
        "declared_31",
    }
    table = baseline.table()
    lines = table.splitlines()
    assert len(lines) == 2 + 3 and "95% CI" in lines[1]
    assert len({len(line) for line in lines[1:]}) == 1  # fixed width
    for e in baseline.entrants:
        assert e.label in table


# -- bad input and misbehaving players -----------------------------------------------------


@pytest.mark.parametrize(
    ("players", "games", "rules", "error"),
    [
        (["tip", "champion"], 3, "classic", PlayerError),
        (["tip"], 3, "classic", PlayerError),
        (["tip"] * 10, 3, "classic", PlayerError),
        (["tip", "tip"], 0, "classic", ScatlabError),
        (["tip", "tip"], 3, "poker", RulesError),
    ],
)
def test_bad_arguments_are_refused(players: list[str], games: int, rules: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        run_tournament(players, games, rules, progress=False)


class Cheat(Player):
    """Draws whenever it is asked to discard: an illegal action."""

    name = "cheat"

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        if any(a.kind is ActionKind.DISCARD for a in view.legal_actions):
            return Decision(Action.DRAW, "draws again")
        return Decision(view.legal_actions[0], "first legal action")


def test_an_illegal_action_stops_the_tournament(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(PLAYER_KINDS, "cheat", Cheat)
    with pytest.raises(IllegalActionError, match=r"game 0 \(tournament seed 4.*entrant 1 \(cheat\).*not legal"):
        run_tournament(["tip", "cheat"], 2, seed=4, progress=False)
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool, pytest.raises(IllegalActionError):
        run_tournament(["tip", "cheat"], 4, seed=4, executor=pool, chunk_size=1, progress=False)


def test_a_game_that_never_ends_is_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tournament_module, "MAX_ACTIONS", 5)
    with pytest.raises(RuntimeError, match=r"game 0 \(tournament seed 9.*did not end within 5 actions"):
        run_tournament(["tip", "tip"], 1, seed=9, progress=False)


@pytest.mark.parametrize("rules", RULE_SETS, ids=list(PRESETS))
def test_every_kind_plays_a_whole_tournament_under_every_preset(rules: RuleSet) -> None:
    result = run_tournament(KINDS, len(KINDS), rules, seed=1, progress=False)
    assert sum(e.wins for e in result.entrants) == len(KINDS)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(RULE_SETS),
    kinds=st.lists(st.sampled_from(KINDS), min_size=2, max_size=5),
    seed=st.integers(0, 2**32),
    first=st.integers(0, 10_000),
)
@pytest.mark.no_cover  # long and CPU-bound, its lines run by faster tests too: not traced (the suite's time)
def test_players_never_take_an_illegal_action(rules: RuleSet, kinds: list[str], seed: int, first: int) -> None:
    # play_chunk raises IllegalActionError at the first action outside legal_actions.
    stats = play_chunk(kinds, rules.to_dict(), seed, [first, first + 1])
    assert [s["game"] for s in stats] == [first, first + 1]
    assert all(0 <= s["winner"] < len(kinds) for s in stats)


# -- a view reaches no hidden card ---------------------------------------------------------


def test_the_walker_finds_states_and_cards() -> None:
    state = GameState.new("classic", 2).deal(shuffled_deck("classic", random.Random(1)))
    cards, states = reachable({"x": [state]})
    assert states == [state] and set(state.hands[0]) <= cards
    cards, states = reachable(Event(0, Action.DRAW, state.stock[0]))
    assert states == [] and state.stock[0] in cards


VIEW_RULES = [*RULE_SETS, RuleSet.from_codes("V10", "V11", declare="manual"), RuleSet.from_codes("V19", "V6")]


@pytest.mark.parametrize("rules", VIEW_RULES, ids=range(len(VIEW_RULES)))
def test_a_view_reaches_no_hidden_card(rules: RuleSet) -> None:
    checked = hidden_seen = 0
    for state in three_seat_states(rules, hands=6, every=3):
        for seat in range(3):
            view = state.view(seat)
            cards, states = reachable(view)
            assert states == [], "a GameState is reachable from a PlayerView"
            allowed = public_cards(state, seat)
            hidden = held_from(state, seat)
            assert not cards & hidden, f"hidden cards reachable from seat {seat}'s view: {cards & hidden}"
            assert cards <= allowed, f"cards beyond the public ones: {cards - allowed}"
            checked += 1
            hidden_seen += bool(hidden)
    assert checked > 20 and hidden_seen > 20


# -- the command line ----------------------------------------------------------------------


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scatlab", *args], check=False, capture_output=True, text=True, timeout=120
    )


def test_cli_tournament_json() -> None:
    proc = run_cli("tournament", "--players", "tip,greedy,tip", "--games", "6", "--seed", "7", "--json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""  # no progress bar when standard error is not a terminal
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1
    data = json.loads(lines[0])
    assert data["games"] == 6 and data["seed"] == 7 and data["rules"] == "classic"
    assert data["players"] == ["tip", "greedy", "tip"]
    assert [e["label"] for e in data["entrants"]] == ["tip#1", "greedy", "tip#2"]
    assert sum(e["wins"] for e in data["entrants"]) == 6
    for e in data["entrants"]:
        lo, hi = e["win_rate_ci95"]
        assert 0 <= lo <= e["win_rate"] <= hi <= 1
    same = run_tournament(["tip", "greedy", "tip"], 6, "classic", 7, progress=False).to_json()
    assert data == same


def test_cli_tournament_table() -> None:
    proc = run_cli("tournament", "--players", "tip,greedy", "--games", "4", "--no-progress", "--jobs", "2")
    assert proc.returncode == 0, proc.stderr
    assert "95% CI" in proc.stdout and "greedy" in proc.stdout and proc.stderr == ""


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--players", "tip,champion"], "unknown player 'champion'"),
        (["--players", "tip"], "1 entrant given"),
        (["--players", "tip,,tip"], "player kind ''"),
        (["--games", "0"], "--games 0"),
        (["--games", "many"], "invalid whole number value"),
        (["--rules", "poker"], "unknown rule set 'poker'"),
        (["--jobs", "-1"], "--jobs -1"),
    ],
)
def test_cli_tournament_bad_input_is_one_line_exit_2(args: list[str], needle: str) -> None:
    # ``args`` overrides these defaults (an option given twice is refused)
    options = {"--players": "tip,tip", "--games": "2", **dict(zip(args[::2], args[1::2]))}
    proc = run_cli("tournament", *[word for pair in options.items() for word in pair], "--no-progress")
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1 and needle in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr


def _shuffle_hidden(state: GameState, seat: int, rng: random.Random) -> GameState:
    """The same moment for ``seat`` with the hidden cards (others' unknown cards and the
    stock) dealt differently: everything ``seat`` may know is unchanged."""
    allowed = public_cards(state, seat)
    slots = [
        (p, i) for p in range(state.num_players) if p != seat for i, c in enumerate(state.hands[p]) if c not in allowed
    ]
    stock_slots = list(range(state.stock_pos, len(state.stock)))
    cards = [state.hands[p][i] for p, i in slots] + [state.stock[i] for i in stock_slots]
    rng.shuffle(cards)
    hands = [list(h) for h in state.hands]
    for (p, i), c in zip(slots, cards):
        hands[p][i] = c
    stock = list(state.stock)
    for i, c in zip(stock_slots, cards[len(slots) :]):
        stock[i] = c
    other = state._copy()
    object.__setattr__(other, "hands", tuple(tuple(h) for h in hands))
    object.__setattr__(other, "stock", tuple(stock))
    return other


@pytest.mark.parametrize("rules", VIEW_RULES, ids=range(len(VIEW_RULES)))
def test_the_table_sessions_hints_and_model_reach_no_hidden_card(rules: RuleSet) -> None:
    """The widget table's hints are built from the learner's view only: no GameState is
    reachable from them, every card they reach is public or one of the analysis' unseen
    cards, and dealing the hidden cards differently changes neither the hints nor the
    table model (opponents' cards appear only once a showdown turns them up)."""
    from scatlab.session import TableSession

    session = TableSession(rules, opponents=("tip", "random"), seed=5)
    rng = random.Random(rules.describe())
    checked = 0
    for _ in range(30):
        if session.state.is_over:
            break
        model = session.display()
        state = session.state
        allowed = public_cards(state, session.seat)
        if model.hints is not None:
            cards, states = reachable(model.hints)
            assert states == [], "a GameState is reachable from the hints"
            unseen = set(model.hints.analysis.knowledge.unseen)
            assert cards <= allowed | unseen
            assert unseen <= set(deck(rules.deck_size)) - set(state.hands[session.seat]) - set(state.discards)
        named = {Card.parse(c) for seat in model.seats for c in seat.cards if c is not None}
        named |= {Card.parse(c) for c in model.hand}
        if model.top_discard is not None:
            named.add(Card.parse(model.top_discard))
        assert named <= allowed, f"the table shows hidden cards: {named - allowed}"
        if state.phase not in (Phase.DEAL, Phase.GAME_OVER):
            session.state = _shuffle_hidden(state, session.seat, rng)
            session._hint_cache = None
            other = session.display()
            assert other.to_json() == model.to_json(), "the table shows something that depends on hidden cards"
            session.state = state
            checked += model.hints is not None
        if model.can_next_hand:
            session.next_hand()
            continue
        options: list[Callable[[], object]] = [session.click_stock] if model.can_draw else []
        options += [functools.partial(session.click_card, c) for c in model.discardable]
        options += [functools.partial(session.play, a) for a, _ in model.buttons]
        if model.can_take:
            options.append(session.click_discard)
        rng.choice(options)()
    assert checked >= 5


def test_an_announced_tournament_tells_every_seat_who_sits_where_and_strangers_are_told_nothing() -> None:
    """``announce``: every seat's view names each seat's entrant kind, whatever the seating
    of the game; without it (a tournament's default) the views name nobody. The flag is a
    bool, checked like the others."""
    from scatlab.players import make_player
    from scatlab.players.tournament import play_out
    from scatlab.rules import find_rules

    for announce in (True, False):
        for game in range(3):
            seen: set[tuple[str, ...]] = set()
            expected: list[tuple[str, ...]] = []

            def observe(before: object, entrant: int, view: object, action: object, after: object) -> None:
                seen.add(view.seats)  # type: ignore[attr-defined]

            state, entrant_at, _ = play_out(
                [make_player("tip"), make_player("random")],
                ["tip", "random"],
                find_rules("classic"),
                4,
                game,
                observe,
                announce=announce,
            )
            expected.append(tuple(("tip", "random")[e] for e in entrant_at) if announce else ())
            assert seen == {expected[0]} and state.seats == expected[0]
    with pytest.raises(ScatlabError, match="announce='yes' is not allowed"):
        run_tournament(["tip", "random"], 2, announce="yes")  # type: ignore[arg-type]
    told = run_tournament(["tip", "random"], 4, seed=3, announce=True)
    assert told.games == 4
