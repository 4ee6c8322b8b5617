"""``scatlab analyze --deep`` (issue 67): after the engine's ranking, the master's deeper look
at the position, with the range of its margin and the deals it played; ``--json`` holds the
look; bad ``--budget``/``--seconds`` and either without ``--deep`` exit 2 with one line."""

from __future__ import annotations

import json
import re

import pytest

from scatlab.cli import main

POSITION = ["analyze", "AH", "KH", "4C", "--discard", "9S"]
DEEP = ["--deep", "--budget", "60", "--seconds", "3600"]  # the budget ends it: the same look every run


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_analyze_deep_prints_the_masters_verdict_after_the_ranking(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run([*POSITION, *DEEP], capsys)
    assert code == 0 and err == ""
    report, _, deep = out.partition("A deeper look (the master):\n")
    assert "Moves ranked by your chance of winning the game" in report and "Advice:" in report
    lines = deep.splitlines()
    assert re.fullmatch(r"  A deeper look (agrees that .+ is the best move|finds .+ better than .+)\.", lines[0])
    assert re.search(r"somewhere between [\d.]+%( less)? and [\d.]+% (more|less) often than .+, the next best", deep)
    assert re.fullmatch(r"  Final, after \d+ deals\..*", lines[2]) and lines[3].startswith("  How: in ")
    assert not any(word in deep for word in ("±", "seed", "rollout"))


def test_analyze_deep_json_holds_the_look_and_is_the_same_every_run(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run([*POSITION, *DEEP, "--json"], capsys)
    data = json.loads(out)
    deep = data["deeper"]
    assert code == 0 and deep["final"] and deep["stopped"] == "budget" and deep["deals"] == deep["planned"] > 1
    assert deep["engine_best"] == data["ranking"]["moves"][0]["move"] == deep["moves"][0]["move"]
    assert deep["moves"][0]["margin_over_engine_best"] == 0 and deep["moves"][0]["margin_range"] is None
    for move in deep["moves"][1:]:
        low, high = move["margin_range"]
        assert low <= move["margin_over_engine_best"] <= high and move["standard_error"] >= 0
    assert deep["verdict"][0].startswith("A deeper look ") and deep["text"].startswith(deep["verdict"][0])
    assert json.loads(run([*POSITION, *DEEP, "--json"], capsys)[1])["deeper"] == deep


def test_analyze_deep_says_why_there_is_no_look_where_there_is_nothing_to_weigh(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(["analyze", "AH", "KH", "QH", "--discard", "9S", *DEEP], capsys)
    assert code == 0 and "A deeper look (the master): none here: AH KH QH is 31, declared at once" in out
    code, out, _ = run(["analyze", "AH", "KH", "QH", "--discard", "9S", *DEEP, "--json"], capsys)
    assert code == 0 and "is 31" in json.loads(out)["deeper"]["refused"]


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--deep", "--budget", "0"], "--budget 0 is not allowed: use 1 to 1,000,000"),
        (["--deep", "--budget", "-4"], "--budget -4 is not allowed"),
        (["--deep", "--budget", "99999999999"], "--budget 99,999,999,999 is not allowed"),
        (["--deep", "--budget", "lots"], "invalid whole number value: 'lots'"),
        (["--deep", "--seconds", "0"], "--seconds 0 is not allowed: use a number of seconds more than 0, up to 3600"),
        (["--deep", "--seconds", "-1"], "--seconds -1 is not allowed"),
        (["--deep", "--seconds", "1e9"], "invalid number value: '1e9'"),
        (["--deep", "--seconds", "nan"], "invalid number value: 'nan'"),
        (["--deep", "--seconds", "86400"], "--seconds 86400 is not allowed"),
        (["--budget", "50"], "--budget sets the deeper look: give --deep as well"),
        (["--seconds", "2", "--budget", "9"], "--budget and --seconds set the deeper look: give --deep as well"),
    ],
)
def test_bad_budget_and_seconds_exit_2_with_one_line(
    extra: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run([*POSITION, *extra], capsys)
    assert code == 2 and out == "" and said in err and err.count("\n") == 1 and "Traceback" not in err
