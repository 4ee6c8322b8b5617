"""What ``scatlab analyze`` prints (issue 64, item 6): each figure once, from one source.

- The knock's chances of losing one and two lives are the ranking's knock move's own, in the
  knock's row, in the advice and in ``--json`` alike (no Monte Carlo beside the engine's
  estimate against two opponents, no second figure against one).
- A hand worth 30½ is written 30.5, never 61/2, in the text and in the JSON.
- ``--no-knock`` leaves the knock out of the ranking and the advice, and says so.
- Every chance of winning the game is a level in percent, in the text and in the JSON.

The checks read the figures from the engine (they are refitted often): they test relations,
never today's values.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from typing import Any

import pytest

from scatlab.analysis import RankedMove, Ranking, analyze, win_level
from scatlab.cli import main


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """``scatlab`` with ``argv``: its standard output (the command must succeed, silently)."""
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0 and err == "", err
    return out


def _knock(ranking: Ranking | None) -> RankedMove:
    assert ranking is not None
    return next(m for m in ranking.moves if m.action.kind.value == "knock")


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


@pytest.mark.parametrize("opponents", [1, 2])
def test_the_knock_risk_is_stated_from_one_source_the_rankings_knock_move(
    opponents: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """``scatlab analyze AH KH 4C --discard 9S --opponents 2`` once stated the chance of
    losing one life twice (0.84% by Monte Carlo in the knock section, 0.7% in the advice):
    every P(lose one) and P(lose two) the text prints is now the ranking's, and so is the
    JSON's knock section."""
    argv = ["analyze", "AH", "KH", "4C", "--discard", "9S", "--opponents", str(opponents)]
    text = _run(argv, capsys)
    knock = _knock(analyze("AH KH 4C", "9S", opponents=opponents).ranking)
    assert knock.p_one is not None and knock.p_two is not None
    assert "Monte Carlo" not in text and "±" not in text
    figure = r"(\d+/\d+ \([\d.]+%\)|[\d.]+%)"  # an exact count and its percentage, or an estimate's percentage
    ones = re.findall(r"P\(lose one\) = " + figure, text)
    twos = re.findall(r"P\(lose two\) = " + figure, text)
    assert ones and twos
    one = f"{knock.p_one} ({_pct(knock.p_one)})" if knock.exact_risk else _pct(knock.p_one)
    two = f"{knock.p_two} ({_pct(knock.p_two)})" if knock.exact_risk else _pct(knock.p_two)
    assert {x.strip() for x in ones} <= {one, _pct(knock.p_one)}, ones  # the advice writes the percentage
    assert {x.strip() for x in twos} <= {two, _pct(knock.p_two)}, twos
    assert knock.lives is not None and f"{float(knock.lives):.3f} lives expected" in text
    assert len(re.findall(r"knock", text.split("Advice:")[0])) == 1  # one row for the knock, no second section
    data = json.loads(_run([*argv, "--json"], capsys))
    risk = data["knock"]
    if knock.exact_risk:
        assert (Fraction(risk["p_lose_one"]), Fraction(risk["p_lose_two"])) == (knock.p_one, knock.p_two)
    else:
        assert risk["p_lose_one"].endswith("%") and risk["estimated_by"] == "the engine"
        assert Fraction(risk["p_lose_one"][:-1]) / 100 == knock.p_one
        assert Fraction(risk["p_lose_two"][:-1]) / 100 == knock.p_two
    ranked = next(m for m in data["ranking"]["moves"] if m["move"] == "knock")
    loss = Fraction(ranked["loss"]) if knock.exact_risk else Fraction(ranked["loss"][:-1]) / 100
    assert loss == knock.p_one + knock.p_two
    assert "numbers" not in data["advice"]  # the advice's figures are the ranking's: stated there, once


@pytest.mark.parametrize(
    "argv",
    [
        ["analyze", "7S", "7H", "7D", "--rules", "gin"],  # the hand itself, its draw, its knock
        ["analyze", "7S", "7H", "2C", "--discard", "7D", "--rules", "gin"],  # taking into 30.5
        ["analyze", "7S", "7H", "7D", "2C", "--rules", "gin"],  # a discard that keeps 30.5
        ["analyze", "7S", "7H", "7D", "--rules", "gin", "--horizon", "2"],  # the horizon's values
    ],
)
def test_thirty_and_a_half_is_written_30_5_never_61_2_in_text_and_json(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """V2, V14: three of a kind is worth 30½. Every place the analysis prints a value (the
    hand, the take and discard options, the draw's average and distribution, the knock, the
    ranking, the horizon, the advice) writes 30.5."""
    text = _run(argv, capsys)
    raw = _run([*argv, "--json"], capsys)
    for out in (text, raw):
        assert not re.search(r"(?<![\d/])61/2(?!\d)", out) and "30.50" not in out, out
        assert "30.5" in out
    data = json.loads(raw)
    assert "30.5" in (
        data["value"],
        *(o["value"] for o in data.get("take", {}).get("options", [])),
        *(o["value"] for o in data.get("discard", {}).get("options", [])),
    )

    def halves(x: Any) -> list[str]:  # every string in the JSON that is a fraction over 2
        if isinstance(x, dict):
            return [h for k, v in x.items() for h in halves(k) + halves(v)]
        if isinstance(x, list):
            return [h for v in x for h in halves(v)]
        return [x] if isinstance(x, str) and re.fullmatch(r"-?\d+/2", x) else []

    assert halves(data) == []


def test_no_knock_leaves_the_knock_out_of_the_ranking_and_the_advice_and_says_so(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--no-knock`` ("leave the knock out") ranks the other moves only: the advice is the
    best of them, with the very figures the full ranking gives them, and the output says the
    knock was left out (text and JSON)."""
    for hand, up, opponents in (("AH KH 4C", "9S", "1"), ("AH KH 9H", "2C", "2"), ("KH QH 9C", "8S", "1")):
        argv = ["analyze", *hand.split(), "--discard", up, "--opponents", opponents]
        full = analyze(hand, up, opponents=int(opponents))
        assert full.ranking is not None and any(m.action.kind.value == "knock" for m in full.ranking.moves)
        others = [m for m in full.ranking.moves if m.action.kind.value != "knock"]
        text = _run([*argv, "--no-knock"], capsys)
        ranked = text.split("Moves ranked")[1].split("Advice:")[0]
        assert "knock" not in ranked and "knock" not in text.split("Advice:")[1]
        assert "Knock: left out, as asked" in text
        assert f"Advice: {others[0].action.kind.value.upper()}" in text
        for m in others:  # the same figures as in the full ranking
            assert f"{m.label()}: {win_level(m.win)}" in ranked
        data = json.loads(_run([*argv, "--no-knock", "--json"], capsys))
        assert data["knock"] == {"left_out": True}
        assert [m["move"] for m in data["ranking"]["moves"]] == [m.name for m in others]
        assert data["advice"]["action"] == others[0].action.kind.value


@pytest.mark.parametrize(
    ("argv", "position"),
    [
        (["AH", "KH", "4C", "--discard", "9S"], dict(hand="AH KH 4C", discard="9S")),
        (["AH", "KH", "4C", "--discard", "9S", "--opponents", "2"], dict(hand="AH KH 4C", discard="9S", opponents=2)),
        (["7S", "7H", "7D", "--rules", "gin"], dict(hand="7S 7H 7D", rules="gin")),
        (["AH", "KH", "4C", "QH"], dict(hand="AH KH 4C QH")),
    ],
)
def test_every_chance_of_winning_is_a_level_in_percent_in_text_and_json(
    argv: list[str], position: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    """The chance of winning the game is a level first ("34.1% now; 37.2% if you draw"): the
    ranked moves state each move's level, the one the advice states; no signed change stands
    alone; the JSON writes the same levels in percent."""
    text = _run(["analyze", *argv], capsys)
    assert not re.search(r"[+-]\d+(\.\d+)?%", text), text  # no signed change in the chance of winning
    ranking = analyze(**position).ranking
    assert ranking is not None
    assert f"Moves ranked by your chance of winning the game ({win_level(ranking.now)} now):" in text
    advice = text.split("Advice:")[1]
    for i, m in enumerate(ranking.moves, start=1):
        assert f"  {i}. {m.label()}: {win_level(m.win)}" in text
        if i <= 4 and not m.sure_31:
            assert f"{win_level(m.win)} if you" in advice  # the same level, in the advice
    data = json.loads(_run(["analyze", *argv, "--json"], capsys))
    assert data["ranking"]["win_now"].endswith("%")
    assert Fraction(data["ranking"]["win_now"][:-1]) / 100 == ranking.now
    for got, m in zip(data["ranking"]["moves"], ranking.moves):
        assert got["move"] == m.name and got["win"].endswith("%")
        assert got["loss"].endswith("%") or m.exact_risk  # an estimate in percent, an exact count as a fraction
        assert Fraction(got["win"][:-1]) / 100 == m.win
