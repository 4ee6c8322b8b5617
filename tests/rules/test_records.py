"""Game records (the save format), replay, and the command line (scatlab replay/record/demo)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scatlab.cards import format_cards
from scatlab.cli import main
from scatlab.errors import RecordError, RulesError
from scatlab.rules import GameRecord, GameState, deal_order, play_random_game, replay, result_json
from scatlab.rules.record import replay_file


def _record_31_hand() -> dict[str, Any]:
    """Three players, dealer 0: player 1 takes the 10H and declares 31 (C8)."""
    order = deal_order(["2S 3S 4S", "AH KH 4C", "5D 6D 8C"], up="QH", stock="9C 9D")
    return {
        "rules": "classic",
        "players": 3,
        "dealer": 0,
        "hands": [
            {
                "deck": [str(c) for c in order],
                "actions": [
                    {"player": 1, "action": "take"},
                    {"player": 1, "action": "discard", "card": "4C"},
                ],
            }
        ],
    }


def test_replay_result_has_the_documented_shape() -> None:
    result = result_json(replay(GameRecord.from_json(_record_31_hand())))
    hand = result["hands"][0]
    assert hand["ended"] == "31"
    assert hand["final"] == [["2S", "3S", "4S"], ["AH", "KH", "QH"], ["5D", "6D", "8C"]]
    assert hand["values"] == ["9", "31", "11"]
    assert hand["lives_lost"] == [1, 0, 1]
    assert hand["rules"] == ["C8"]
    assert result["lives"] == [2, 3, 2]
    assert result["out"] == [] and result["winner"] is None
    assert result["next"] == {"hand": 2, "dealer": 1}


def test_record_stopped_mid_hand_reports_the_state_reached() -> None:
    data = _record_31_hand()
    data["hands"][0]["actions"] = data["hands"][0]["actions"][:1]
    result = result_json(replay(GameRecord.from_json(data)))
    assert result["hands"] == []
    progress = result["in_progress"]
    assert progress["phase"] == "discard" and progress["to_move"] == 1
    assert progress["hands"][1] == ["AH", "KH", "4C", "QH"]
    assert progress["legal_actions"] == ["discard AH", "discard KH", "discard 4C"]


def test_half_points_are_exact_strings() -> None:
    order = deal_order(["7S 7H 7D", "2C 3C 5D"], up="9S", stock="8S", dealer=1)
    state = GameState.new("gin", players=2, dealer=1).deal(order)
    assert state.to_move == 0
    state = state.apply("knock").apply("draw").apply("discard 8S")
    result = result_json(state)
    assert result["hands"][0]["values"] == ["30.5", "5"]  # a half as 30.5, read back exactly by Fraction
    assert result["letters"] == ["", "G"]


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (
            lambda d: d["hands"][0]["actions"].__setitem__(1, {"player": 1, "action": "discard", "card": "QH"}),
            "hand 1, action 2 (1: discard QH): C5: a card taken from the discard pile may not be discarded",
        ),
        (
            lambda d: d["hands"][0]["actions"].__setitem__(0, {"player": 2, "action": "draw"}),
            "hand 1, action 1 (2: draw): it is player 1's turn, not player 2's",
        ),
        (lambda d: d["hands"][0]["deck"].__setitem__(0, "ZZ"), "hand 1, deck: 'ZZ' is not a card"),
        (
            lambda d: d["hands"][0]["deck"].pop(),
            "hand 1, deck: the deck has 51 cards, but the classic rules use 52 cards; missing:",
        ),
        (lambda d: d["hands"][0]["deck"].__setitem__(5, d["hands"][0]["deck"][6]), "hand 1, deck: "),
        (
            lambda d: d["hands"][0]["actions"].__setitem__(0, {"player": 1, "action": "fly"}),
            "hand 1, action 1: 'fly' is not an action",
        ),
        (lambda d: d.__setitem__("rules", "poker"), "rules: unknown rule set 'poker'"),
        (lambda d: d.__setitem__("players", 12), "players=12 is not allowed"),
    ],
)
def test_bad_records_name_the_hand_and_action_counted_from_1_and_the_reason(mutate: Any, message: str) -> None:
    data = _record_31_hand()
    mutate(data)
    with pytest.raises(RecordError) as info:
        replay(GameRecord.from_json(data))
    assert message in str(info.value)


def _action(d: dict[str, Any], i: int) -> dict[str, Any]:
    action: dict[str, Any] = d["hands"][0]["actions"][i]
    return action


ODD_FIELDS: list[tuple[Any, str]] = [
    (lambda d: d.update(comment="saved by hand"), "unknown key 'comment' in the record"),
    (lambda d: d.update(players=True), "'players' must be a whole number (the number of players), not True"),
    (lambda d: d.update(players=3.0), "'players' must be a whole number (the number of players), not 3.0"),
    (lambda d: d.update(players="3"), "'players' must be a whole number (the number of players), not '3'"),
    (lambda d: d.update(dealer=False), "'dealer' must be a whole number (the first dealer's seat), not False"),
    (lambda d: d.update(dealer=0.0), "'dealer' must be a whole number (the first dealer's seat), not 0.0"),
    (lambda d: d.update(rules=None), "'rules' must be a preset name or an object of options, not None"),
    (lambda d: d.update(rules=["classic"]), "'rules' must be a preset name or an object of options, not ['classic']"),
    (lambda d: d.update(rules={"hammer": 1}), "rules: hammer=1 is not allowed"),
    (lambda d: d.update(rules={"deck_size": 52.0}), "rules: deck_size=52.0 is not allowed"),
    (lambda d: d.update(rules={"lives": True}), "rules: lives=True is not allowed"),
    (lambda d: d.update(hands={}), "'hands' must be a list of hands, not {}"),
    (lambda d: d["hands"][0].update(note="x"), "unknown key 'note' in hand 1"),
    (lambda d: d["hands"][0].pop("deck"), "hand 1 has no 'deck'"),
    (lambda d: d["hands"][0].update(deck=" ".join(d["hands"][0]["deck"])), "hand 1, deck: 'AH 5D 2S KH"),
    (lambda d: d["hands"][0]["deck"].__setitem__(3, 5), "hand 1, deck: card 4 is 5, not a text"),
    (lambda d: d["hands"][0].update(actions={}), "hand 1: 'actions' must be a list, not {}"),
    (lambda d: _action(d, 0).update(extra=1), "hand 1, action 1: unknown key 'extra' in the action"),
    (
        lambda d: _action(d, 0).update(player=True),
        "hand 1, action 1: 'player' must be a whole number (a seat), not True",
    ),
    (lambda d: _action(d, 0).update(player=1.0), "hand 1, action 1: 'player' must be a whole number (a seat), not 1.0"),
    (lambda d: _action(d, 0).update(player="1"), "hand 1, action 1: 'player' must be a whole number (a seat), not '1'"),
    (lambda d: _action(d, 0).pop("player"), "hand 1, action 1: the action has no 'player'"),
    (lambda d: _action(d, 0).update(card=None), "hand 1, action 1: 'card' must be a card as text"),
    (lambda d: _action(d, 0).update(card="4C"), "hand 1, action 1: 'take' takes no card, but '4C' was given"),
    (lambda d: _action(d, 0).update(action=["take"]), "hand 1, action 1: 'action' must be a text"),
    (lambda d: _action(d, 1).update(card=["4C"]), "hand 1, action 2: 'card' must be a card as text"),
    (lambda d: d["hands"][0]["actions"].__setitem__(0, "take"), "hand 1, action 1: the action must be a JSON object"),
    (lambda d: d["hands"].__setitem__(0, []), "hand 1 must be a JSON object"),
    (lambda d: d.update(seats="you tip expert"), "seats: seats='you tip expert' is not allowed: give a list"),
    (lambda d: d.update(seats=["you", "tip"]), "names 2 seats, but the game has 3 players: name every seat, or none"),
    (lambda d: d.update(seats=["you", "tip", 3]), "seats: seat name 3 is not allowed: give a printable text"),
    (lambda d: d.update(seats=["you", "tip", "x" * 41]), "give a printable text of 1 to 40 characters"),
    (lambda d: d.update(seats=["you", "", "tip"]), "seat name '' is not allowed"),
    (lambda d: d.update(seats=["you", "tip", "a\nb"]), "seat name 'a\\nb' is not allowed"),
]


@pytest.mark.parametrize(("mutate", "message"), ODD_FIELDS)
def test_records_are_read_strictly_odd_fields_refused_quoting_the_key_or_value(mutate: Any, message: str) -> None:
    """Issue: records with unknown keys, bools or floats for seats, a deck as one string,
    extra fields in actions were accepted. Each is a RecordError naming where and quoting
    the key or value."""
    data = _record_31_hand()
    assert replay(GameRecord.from_json(data)).results  # the record itself is good
    mutate(data)
    with pytest.raises(RecordError) as info:
        GameRecord.from_json(data)
    assert message in str(info.value), str(info.value)


def test_record_round_trip_through_json_reproduces_the_game() -> None:
    state = play_random_game("cadillac", players=4, seed=5)
    text = GameRecord.from_state(state).dumps()
    again = replay(GameRecord.loads(text))
    assert again.results == state.results and again.winner == state.winner
    assert GameRecord.from_state(again).dumps() == text


def test_who_sits_where_is_saved_with_the_game_and_read_back_into_every_view() -> None:
    """A table announces who sits at each seat (``GameState.seats``); the record keeps it, a
    replay gives it back to every seat's view, and a record without it (older saves) loads
    with nobody announced."""
    data = _record_31_hand()
    assert replay(GameRecord.from_json(data)).seats == ()
    data["seats"] = ["you", "tip", "expert"]
    record = GameRecord.from_json(data)
    state = replay(record)
    assert state.seats == ("you", "tip", "expert")
    assert all(state.view(p).seats == ("you", "tip", "expert") for p in range(3))
    assert GameRecord.from_state(state).to_json()["seats"] == ["you", "tip", "expert"]
    assert GameRecord.loads(GameRecord.from_state(state).dumps()) == record
    assert "seats" not in GameRecord.from_state(play_random_game("classic", players=2, seed=1)).to_json()


def test_announcing_who_sits_where_checks_every_name_and_changes_nothing_else() -> None:
    """``GameState.announced`` sets the names only (one a seat, printable, 1 to 40
    characters) and leaves the game as it was; a bad list is refused with the input quoted."""
    state = play_random_game("classic", players=3, seed=2)
    told = state.announced(["you", "tip", "tip"])
    assert told.seats == ("you", "tip", "tip") and state.seats == ()
    assert told.results == state.results and told.lives == state.lives and told.decks == state.decks
    with pytest.raises(RulesError, match=r"seats=\['you'\] names 1 seat, but the game has 3 players"):
        state.announced(["you"])
    with pytest.raises(RulesError, match="seat name None is not allowed"):
        GameState.new("classic", 2, seats=("you", None))  # type: ignore[arg-type]


def test_custom_rules_are_saved_as_options() -> None:
    state = play_random_game({"preset": "classic", "min_knock": 21}, players=2, seed=1)
    data = GameRecord.from_state(state).to_json()
    assert data["rules"]["min_knock"] == 21
    assert replay(GameRecord.from_json(data)).results == state.results


# -- command line ---------------------------------------------------------------------------


def test_cli_replay_prints_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_record_31_hand()))
    assert main(["replay", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hands"][0]["lives_lost"] == [1, 0, 1]


def test_cli_record_then_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "rec.json"
    assert main(["record", "--seed", "3", "--players", "3", "--rules", "quick", "-o", str(path)]) == 0
    result = replay_file(path)
    expected = play_random_game(
        "quick", players=3, seed=3, policy=__import__("scatlab.players.simple").players.simple.greedy_policy
    )
    assert result == result_json(expected)
    assert main(["replay", str(path), "--compact"]) == 0
    assert json.loads(capsys.readouterr().out)["winner"] == expected.winner


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["replay", "missing.json"], "scatlab replay: error: cannot read 'missing.json'"),
        (["demo", "--rules", "poker"], "scatlab demo: error: unknown rule set 'poker'"),
        (["demo", "--players", "12"], "players=12 is not allowed"),
        (["demo", "--players", "x"], "argument --players: invalid whole number value: 'x'"),
        (["fly"], "invalid choice: 'fly'"),
    ],
)
def test_cli_bad_input_exits_2_with_one_line(args: list[str], fragment: str, tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "scatlab", *args], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], proc.stderr
    assert "Traceback" not in proc.stderr


def test_cli_bad_record_exits_2_naming_hand_and_action(tmp_path: Path) -> None:
    data = _record_31_hand()
    data["hands"][0]["actions"].append({"player": 2, "action": "knock"})
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    proc = subprocess.run([sys.executable, "-m", "scatlab", "replay", str(path)], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "scatlab replay: error: hand 1, action 3 (2: knock): player 2 cannot act: the next hand has not been "
        "dealt yet: deal a deck first"
    ]


def test_cli_demo_plays_a_seeded_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("classic: classic rules; 3 players; seed 7; greedy play")
    assert "Hand 1: player 0 deals" in out
    winner = play_random_game(
        "classic", 3, 7, policy=__import__("scatlab.players.simple").players.simple.greedy_policy
    ).winner
    assert out.rstrip().endswith(f"Player {winner} wins after {out.count('ended by')} hands.")
    first = play_random_game("classic", 3, 7).decks[0]
    assert format_cards(first[:0]) == ""


def test_cli_rules_lists_presets(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "classic: classic rules" and len(lines) == 7
    assert main(["rules", "blitz"]) == 0
    assert '"lives": 3' in capsys.readouterr().out
