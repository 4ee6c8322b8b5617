"""Game review (scatlab.analysis.explain.review, issues 10 and 64): decisions priced from the
player's own view, the preferred move, costs on the one scale the advice decides by (the
chance of winning the game), a close call never a mistake, classes, and the CLI. The figures
are the engine's estimates, refitted often: the tests assert relations, not values."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.hidden_cards import public_cards, reachable
from scatlab.analysis import win_level
from scatlab.analysis.counting.horizon import horizon_values
from scatlab.analysis.explain.review import (
    CLASSES,
    HORIZON,
    VALUE_THRESHOLDS,
    WIN_THRESHOLDS,
    WIN_UNIT,
    GameReview,
    assess,
    classify,
    costliest,
    review_game,
)
from scatlab.cards import parse_cards
from scatlab.cli import main
from scatlab.errors import AnalysisError, RecordError, ScatlabError
from scatlab.players import make_player
from scatlab.players.expert import ExpertPlayer
from scatlab.rules import (
    PRESETS,
    Action,
    ActionKind,
    GameRecord,
    GameState,
    Phase,
    RuleSet,
    deal_order,
    find_rules,
    play_random_game,
    shuffled_deck,
)


def _game(kinds: list[str], rules: str, seed: int, max_hands: int = 99) -> GameRecord:
    rng = random.Random(seed)
    players = [make_player(k) for k in kinds]
    state = GameState.new(rules, len(kinds))
    while state.phase is not Phase.GAME_OVER:
        if state.phase is Phase.DEAL:
            if state.hand_number >= max_hands:
                break
            state = state.deal(shuffled_deck(state.rules, rng))
            continue
        mover = state.to_move
        assert mover is not None
        state = state.apply(players[mover].choose(state.view(mover), rng))
    return GameRecord.from_state(state)


def _state_at(record: GameRecord, hand: int, index: int) -> GameState:
    """The real state just before action ``index`` (from 1) of hand ``hand`` (from 1)."""
    state = GameState.new(record.rules, record.players, record.dealer)
    for h, hand_record in enumerate(record.hands, start=1):
        state = state.deal(hand_record.deck)
        for i, (p, action) in enumerate(hand_record.actions, start=1):
            if (h, i) == (hand, index):
                return state
            state = state.apply_for(p, action)
    raise AssertionError("no such action")


def _record(
    hands: list[str], up: str, stock: str, actions: list[tuple[int, str]], rules: str = "classic"
) -> GameRecord:
    deck = deal_order(hands, up=up, stock=stock, rules=rules)
    return GameRecord.from_json(
        {
            "rules": rules,
            "players": len(hands),
            "dealer": 0,
            "hands": [
                {
                    "deck": [str(c) for c in deck],
                    "actions": [{"player": p, **Action.parse(a).to_json()} for p, a in actions],
                }
            ],
        }
    )


# -- classes ----------------------------------------------------------------------------------


def test_classes_follow_the_stated_thresholds() -> None:
    for scale, limits in (("value", VALUE_THRESHOLDS), ("win", WIN_THRESHOLDS)):
        assert classify(Fraction(0), scale) == "best"  # type: ignore[arg-type]
        for name, limit in zip(CLASSES[1:], limits):
            assert classify(limit, scale) == name  # type: ignore[arg-type]
            assert classify(limit - Fraction(1, 10**6), scale) != name  # type: ignore[arg-type]
    with pytest.raises(AnalysisError, match="'points'"):
        classify(Fraction(1), "points")  # type: ignore[arg-type]


def test_review_uses_the_expert_horizon() -> None:
    assert HORIZON == ExpertPlayer().horizon


# -- known blunders ---------------------------------------------------------------------------


def test_throwing_the_card_that_made_31_is_costly_on_the_chance_of_winning() -> None:
    # Player 1 holds AH KH 4C and takes the QH (C5): throwing the 4C makes 31; they throw the AH.
    record = _record(["2S 3S 9D", "AH KH 4C", "5D 6D 8C"], "QH", "9C 9H 2D", [(1, "take"), (1, "discard AH")])
    take, discard = review_game(record, player=1).decisions
    assert (take.hand, take.index, take.played, take.label) == (1, 1, "take", "best")
    assert (discard.hand, discard.index) == (1, 2)
    assert discard.best == "discard 4C" and discard.played == "discard AH"
    assert discard.scale == "win" and discard.unit == WIN_UNIT
    figures = dict(discard.assessment.figures)
    assert discard.cost == figures["discard 4C"] - figures["discard AH"] > 0
    assert discard.label == classify(discard.cost, "win") != "best"
    assert figures["discard 4C"] == max(figures.values())
    values = dict(discard.assessment.values)  # the figure the chance is built from, exact
    kept = horizon_values(parse_cards("KH QH 4C"), HORIZON, find_rules("classic"))[HORIZON]
    assert values["discard 4C"] == 31 and values["discard AH"] == kept


def _knock_with_12_record() -> GameRecord:
    # Dealer 0: players 1 and 2 play five turns each (drawing and throwing back), player 0
    # four turns, then player 0 knocks with 2S QS 5D, worth 12.
    draws = parse_cards("2C 3C 4C 5C 6C 7C 8C 9C 10C JC 2H 3H 4H 5H")
    actions: list[tuple[int, str]] = []
    it = iter(draws)
    for round_ in range(5):
        for p in (1, 2, 0):
            if p == 0 and round_ == 4:
                actions.append((0, "knock"))
                break
            card = next(it)
            actions += [(p, "draw"), (p, f"discard {card}")]
    return _record(["2S QS 5D", "6H 7D 8S", "9H 10D JS"], "KD", " ".join(str(c) for c in draws), actions)


def test_knocking_with_12_against_opponents_five_turns_in_is_a_blunder_on_the_win_scale() -> None:
    """The knock's cost is what it gives up of the chance of winning the game against the
    best move (a way of playing on), the engine's figures: the review reads :func:`rank`."""
    from scatlab.analysis import Position, rank

    record = _knock_with_12_record()
    result = review_game(record, player=0)
    knock = result.decisions[-1]
    assert knock.played == "knock" and knock.index == 29
    assert knock.scale == "win" and knock.unit == WIN_UNIT
    figures = dict(knock.assessment.figures)
    assert knock.best in ("draw", "take")
    assert knock.cost == figures[knock.best] - figures["knock"] == max(figures.values()) - figures["knock"]
    assert knock.label == "blunder" and knock.cost >= WIN_THRESHOLDS[-1]
    ranking = rank(Position.from_view(_state_at(record, 1, 29).view(0)))
    assert knock.cost == ranking.cost("knock") and knock.best == ranking.best.name
    move = ranking.move("knock")
    assert move.p_two is not None and move.p_two > Fraction(8, 10)  # lowest alone against two five-turn hands


def test_a_knock_with_31_in_reach_is_not_preferred_to_taking_it() -> None:
    state = GameState.new("classic", 2).deal(deal_order(["2S 3S 9D", "AH KH 4C"], up="QH"))
    a = assess(state.view(1), Action.DRAW)
    assert a is not None and a.best == Action.TAKE and a.scale == "win" and a.cost > 0 and not a.close
    assert a.label == classify(a.cost, "win") != "best"
    a = assess(state.view(1), Action.TAKE)
    assert a is not None and a.cost == 0 and a.label == "best"


def test_C10_not_declaring_a_31_is_costly() -> None:
    rules = {"preset": "classic", "declare": "manual"}
    deck = deal_order(["2S 3S 9D", "AH KH 4C"], up="QH", rules=find_rules(rules))
    state = GameState.new(rules, 2).deal(deck).apply(Action.TAKE).apply(Action.discard("4C"))
    assert state.phase is Phase.DECLARE
    a = assess(state.view(1), Action.PASS)
    assert a is not None and a.best == Action.DECLARE and a.cost > 0 and a.label != "best"
    assert a.cost == a.level("declare") - a.level("pass")


def test_assess_refuses_an_illegal_action_and_the_wrong_seat() -> None:
    state = GameState.new("classic", 2).deal(deal_order(["2S 3S 9D", "AH KH 4C"], up="QH"))
    with pytest.raises(AnalysisError, match="'discard AH'"):
        assess(state.view(1), Action.discard("AH"))
    with pytest.raises(AnalysisError, match="not to move"):
        assess(state.view(0), Action.DRAW)


# -- the expert is within its own tolerance ---------------------------------------------------


@pytest.mark.parametrize("rules, seed", [("classic", 1), ("classic", 2), ("gin", 3), ("quick", 4)])
def test_an_expert_game_reviews_as_best_moves_only(rules: str, seed: int) -> None:
    """The expert plays the engine's first move and the review's best move is that move:
    every decision of an expert-only game is best, at cost 0, on the one scale."""
    result = review_game(_game(["expert"] * 3, rules, seed, max_hands=6))
    assert len(result.decisions) > 30
    assert {d.scale for d in result.decisions} == {"win"}
    for d in result.decisions:
        assert d.cost == 0 and d.label == "best" and d.best == d.played, d.to_json()


# -- the review never sees hidden cards -------------------------------------------------------


@pytest.mark.parametrize("rules", ["classic", "quick", "gin", "ride-the-bus"])
def test_a_review_reaches_no_hidden_card(rules: str) -> None:
    record = _game(["tip", "random", "expert"], rules, 5, max_hands=3)
    result = review_game(record)
    checked = 0
    for d in result.decisions[::2]:
        state = _state_at(record, d.hand, d.index)
        cards, states = reachable(d)
        assert states == []
        allowed = public_cards(state, d.player)
        assert cards <= allowed, f"hidden cards reachable from {d.to_json()}: {cards - allowed}"
        checked += 1
    assert checked > 10


def test_hidden_cards_do_not_change_an_assessment() -> None:
    """Two deals that agree on everything player 1 sees (hand, up card, the first stock
    card player 1 draws) but differ in the other hands and the rest of the stock give the
    same assessment."""
    first = deal_order(["2S 3S 9D", "AH KH 4C", "5D 6D 8C"], up="QH", stock="9C")
    other = deal_order(["JD QD KD", "AH KH 4C", "7S 8S 9S"], up="QH", stock="9C 2S 3S")
    for deck in (first, other):
        assert deck[9] == parse_cards("QH")[0]
    results = []
    for deck in (first, other):
        record = GameRecord.from_json(
            {
                "rules": "classic",
                "players": 3,
                "dealer": 0,
                "hands": [
                    {
                        "deck": [str(c) for c in deck],
                        "actions": [{"player": 1, "action": "draw"}, {"player": 1, "action": "discard", "card": "4C"}],
                    }
                ],
            }
        )
        results.append([d.to_json() for d in review_game(record, player=1).decisions])
    assert results[0] == results[1] and len(results[0]) == 2


# -- every preset --------------------------------------------------------------------------


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_random_game_reviews(preset: str) -> None:
    full = GameRecord.from_state(play_random_game(preset, 3, seed=2))
    record = GameRecord(full.rules, full.players, full.dealer, full.hands[:6])  # keep it fast
    result = review_game(record)
    assert result.decisions
    units = {"value": "hand value", "win": WIN_UNIT}
    for d in result.decisions:
        assert d.cost >= 0 and d.label == classify(d.cost, d.scale)
        assert d.unit == units[d.scale]
        assert (d.best == d.played) == (d.cost == 0)
        assert d.hand >= 1 and d.index >= 1
    totals = sum(result.summary(p).decisions for p in range(3))
    assert totals == len(result.decisions)
    text = result.text()
    assert text.count("Player ") >= 3


OPTION_SETS = [
    (RuleSet.from_codes("V10", "V11", declare="manual"), "hammer"),
    (RuleSet.from_codes("V3", "V4", "V8", "V9", min_knock=21, knocker_tie="knocker_only"), "knock"),
    (RuleSet.from_codes("V19", "V6"), "stop_bus"),
]


@pytest.mark.parametrize("rules, seen", OPTION_SETS, ids=["hammer-throwdown-manual", "knock-rules", "bus-stop"])
def test_option_sets_review_hammer_knocks_and_bus_stops(rules: RuleSet, seen: str) -> None:
    kinds: set[str] = set()
    for seed in range(6):
        result = review_game(GameRecord.from_state(play_random_game(rules, 3, seed=seed)))
        for d in result.decisions:
            assert d.cost >= 0 and d.label == classify(d.cost, d.scale)
            assert d.assessment.played.kind is not ActionKind.THROW_DOWN  # blind: not reviewed
            if d.assessment.played.kind.value == seen:
                assert d.scale == "win"
            kinds.add(d.assessment.played.kind.value)
    assert {seen, "draw", "discard"} <= kinds


def test_summary_keeps_the_two_scales_apart() -> None:
    result = review_game(_game(["random", "tip", "expert"], "classic", 9, max_hands=4))
    for p in range(3):
        s = result.summary(p)
        mine = [d for d in result.decisions if d.player == p]
        assert s.total_value == sum((d.cost for d in mine if d.scale == "value"), Fraction(0))
        assert s.total_win == sum((d.cost for d in mine if d.scale == "win"), Fraction(0))
        assert s.value_decisions + s.win_decisions == s.decisions == len(mine)
        assert sum(n for _, n in s.classes) == s.decisions
    with pytest.raises(AnalysisError, match="7"):
        review_game(_game(["random", "tip"], "classic", 1, max_hands=1), player=1).summary(7)


def test_review_refuses_a_seat_outside_the_game() -> None:
    record = _game(["random", "tip"], "classic", 1, max_hands=1)
    for bad in (2, -1, True):
        with pytest.raises(AnalysisError, match=repr(bad)):
            review_game(record, player=bad)


def test_bad_records_fail_as_replay_does() -> None:
    data = _record(["2S 3S 9D", "AH KH 4C", "5D 6D 8C"], "QH", "", [(1, "take"), (1, "discard QH")]).to_json()
    with pytest.raises(RecordError) as review_err:
        review_game(data)
    from scatlab.rules import replay

    with pytest.raises(RecordError) as replay_err:
        replay(GameRecord.from_json(data))
    assert str(review_err.value) == str(replay_err.value)


# -- the command line ------------------------------------------------------------------------


def _write(tmp_path: Path, record: GameRecord) -> Path:
    path = tmp_path / "game.json"
    path.write_text(record.dumps(), encoding="utf-8")
    return path


def test_cli_review_json_has_the_documented_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(
        tmp_path, _record(["2S 3S 9D", "AH KH 4C", "5D 6D 8C"], "QH", "9C 9H 2D", [(1, "take"), (1, "discard AH")])
    )
    assert main(["review", str(path), "--player", "1", "--json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    throw = review_game(GameRecord.loads(path.read_text(encoding="utf-8")), player=1).decisions[1]
    costly = data["decisions"][1]
    assert {
        k: costly[k] for k in ("hand", "index", "player", "played", "best", "cost", "unit", "class", "close_call")
    } == {
        "hand": 1,
        "index": 2,
        "player": 1,
        "played": "discard AH",
        "best": "discard 4C",
        "cost": str(throw.cost),
        "unit": WIN_UNIT,
        "class": throw.label,
        "close_call": False,
    }
    classes = {"best": 1, "inaccuracy": 0, "mistake": 0, "blunder": 0}
    classes[throw.label] += 1
    assert data["players"] == [
        {
            "player": 1,
            "decisions": 2,
            "total_cost": {"hand value": "0", WIN_UNIT: str(throw.cost)},
            "value_decisions": 0,
            "win_decisions": 2,
            "classes": classes,
        }
    ]
    assert main(["review", str(path)]) == 0
    text = capsys.readouterr().out
    assert "played discard A♥, best discard 4♣" in text and f"[{throw.label}]" in text  # one notation


def test_cli_review_reads_standard_input(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import io

    record = _game(["tip", "tip"], "classic", 3, max_hands=1)
    monkeypatch.setattr("sys.stdin", io.StringIO(record.dumps()))
    assert main(["review", "-", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["players"][0]["player"] == 0


@pytest.mark.parametrize(
    "content, needle",
    [
        ("not json", "not JSON"),
        ('{"rules": "classic", "players": 3, "hands": [{"deck": ["AH"]}]}', "hand 1, deck"),
        ('{"rules": "poker", "players": 3, "hands": []}', "poker"),
    ],
)
def test_cli_review_bad_record_exits_2_with_one_line(
    tmp_path: Path, content: str, needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    assert main(["review", str(path)]) == 2
    review_err = capsys.readouterr().err
    assert main(["replay", str(path)]) == 2
    replay_err = capsys.readouterr().err
    assert len(review_err.splitlines()) == 1 and needle in review_err
    assert review_err.replace("scatlab review", "scatlab replay") == replay_err


def test_cli_review_missing_file_and_bad_seat(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", str(tmp_path / "none.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    path = _write(tmp_path, _game(["tip", "tip"], "classic", 3, max_hands=1))
    assert main(["review", str(path), "--player", "4"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "player 4" in err


def test_review_result_is_a_scatlab_value() -> None:
    result = review_game(_game(["tip", "tip"], "classic", 3, max_hands=1))
    assert isinstance(result, GameReview)
    assert json.loads(result.dumps())["rules"] == "classic"
    assert issubclass(AnalysisError, ScatlabError)


# -- invariants (hypothesis, derandomized) ---------------------------------------------------


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 2**20), seat=st.integers(0, 2))
def test_reviewing_one_seat_is_that_seat_s_part_of_the_whole_review(preset: str, seed: int, seat: int) -> None:
    full = GameRecord.from_state(play_random_game(preset, 3, seed=seed))
    record = GameRecord(full.rules, full.players, full.dealer, full.hands[:3])
    whole = review_game(record)
    mine = review_game(record, player=seat)
    assert [d.to_json() for d in mine.decisions] == [d.to_json() for d in whole.decisions if d.player == seat]
    assert all(d.cost >= 0 and d.label == classify(d.cost, d.scale) for d in whole.decisions)
    assert [(d.hand, d.index) for d in whole.decisions] == sorted((d.hand, d.index) for d in whole.decisions)


def test_the_cli_report_and_the_learner_words_agree_on_the_move_the_cost_and_the_class() -> None:
    """The analyst's report keeps its precise terms (action, player, the exact-ish cost) but
    says what the widget says: the same better move, the same class, the same cost rounded."""
    record = _record(["2S 3S 9D", "AH KH 4C", "5D 6D 8C"], "QH", "9C 9H 2D", [(1, "take"), (1, "discard AH")])
    result = review_game(record, player=1)
    throw = result.decisions[1]
    words = throw.words({1: "you"})
    a = throw.assessment
    assert words.better == "Better: throwing the 4♣." and words.label == throw.label != "best"
    played, best = win_level(a.level("discard AH")), win_level(a.level("discard 4C"))
    amount = a.cost_text.split()[0]  # "12.6%": one decimal, more only where a class boundary needs it
    assert round(float(amount.rstrip("%")), 1) == round(float(throw.cost) * 100, 1)
    assert f"lowered your chance of winning the game from {best} to {played}, by about {amount}" in words.how_much, (
        words.how_much
    )  # the levels first, then the difference
    text = result.text()
    assert (
        f"played discard A♥, best discard 4♣; cost {float(throw.cost) * 100:.1f}% chance of winning "
        f"[{throw.label}]" in text
    )
    assert a.cost_text == f"{amount} chance of winning the game"


# -- a close call is never a mistake; one card notation (issue 64) ------------------------------


CARD_CODE = r"(?<![\w♣♦♥♠])(10|[2-9AKQJ])[HDCS](?![\w♣♦♥♠])"
"""A card in letters (``QD``): the learner's pages and the report write ``Q♦``."""


def _reviews() -> list[GameReview]:
    """Reviews of seeded games with casual and random players, who leave close calls behind."""
    return [
        review_game(_game(kinds, rules, seed, max_hands=4))
        for kinds, rules, seed in (
            (["random", "tip", "expert"], "classic", 9),
            (["tip", "random"], "quick", 3),
            (["tip", "tip", "random"], "gin", 5),
        )
    ]


def test_a_close_call_is_never_called_a_mistake() -> None:
    """A move within CLOSE_CALL of the best costs nothing, is ``best`` and is said to be a
    close call, in the words, on the page and in the report; the costliest never list it."""
    from scatlab.analysis import CLOSE_CALL
    from scatlab.widgets.review_steps import decision_html

    close = 0
    for result in _reviews():
        costly = costliest(result, len(result.decisions))
        for d in result.decisions:
            a = d.assessment
            gap = a.figures[0][1] - a.level(str(a.played))  # the best's chance less the move's
            assert a.close == (0 < gap < CLOSE_CALL or (gap == 0 and str(a.played) != a.figures[0][0])), d.to_json()
            if not a.close:
                continue
            close += 1
            assert a.cost == 0 and d.label == "best" and d.best == d.played and d not in costly
            words = d.words({d.player: "you"})
            assert words.better.startswith("A close call:") and words.how_much == ""
            text = words.text() + decision_html(d)
            assert not any(name in text for name in ("mistake", "blunder", "inaccuracy", "Better:")), text
            assert "No cost: a close call" in text and d.to_json()["close_call"] is True
    assert close >= 3


def test_the_review_names_cards_in_one_notation() -> None:
    """Q♦, never QD beside it: the learner's words, the page, the costliest list, the
    timeline and the analyst's report all write cards with suit symbols."""
    import re

    from scatlab.course.widgets.review_and_replay import costliest_html
    from scatlab.widgets.review_steps import ReviewSteps, decision_html

    for result in _reviews():
        texts = [result.text(), costliest_html(costliest(result, 3), {0: "you"})]
        for d in result.decisions:
            texts += [d.words({d.player: "you"}).text(), decision_html(d), d.assessment.reason, d.position()]
        for text in texts:
            shown = re.sub(r"<svg.*?</svg>|<[^>]*>", " ", text, flags=re.S)
            assert re.search(CARD_CODE, shown) is None, re.search(CARD_CODE, shown)
    steps = ReviewSteps(_game(["tip", "random"], "quick", 3, max_hands=2), player=0)
    assert not any(re.search(CARD_CODE, m["title"]) for m in steps.marks())
