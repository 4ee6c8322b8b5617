"""The opponent models of lesson 3's knock risk, shown since issue 36 (part 4) on the optional
page "How we know the numbers" (``appendix-how-we-know``; issue 11): the explorer shows the
knock risk (C6, C7) of one fixed hand under both opponent models exactly as
:func:`knock_risk` gives it; bad rejected-card text is answered beside the field; the
calibration study's reliability diagram ships as package data."""

from __future__ import annotations

import fnmatch
import json
import re
import tomllib
from fractions import Fraction
from html import unescape
from importlib.resources import files
from pathlib import Path

import pytest

from scatlab.analysis import Observations
from scatlab.analysis.counting.knowledge import Knowledge
from scatlab.analysis.model.knock import knock_risk
from scatlab.app.launch import lessons_dir
from scatlab.cards import parse_cards
from scatlab.course.widgets.how_we_know import (
    CALIBRATION_FIGURE,
    OpponentModelExplorer,
    calibration_figure,
    calibration_svg,
)

ROOT = Path(__file__).resolve().parents[2]
HAND, DISCARD = "AH KH QS", "2C"


def _expected(turns: int, rejected: str, model: str) -> Fraction:
    k = Knowledge.of(HAND, DISCARD, opponents=1)
    seen = Observations((turns,), (parse_cards(rejected) if rejected else (),))
    return knock_risk(k, opponent_model=model, observations=seen).p_lose  # type: ignore[arg-type]


@pytest.mark.parametrize(("turns", "rejected"), [(0, ""), (1, "2C"), (3, ""), (4, "8S 2D"), (8, "9S JH 4D")])
def test_c6_c7_explorer_shows_knock_risk_under_each_model(turns: int, rejected: str) -> None:
    e = OpponentModelExplorer(HAND, discard=DISCARD)
    e.turns.value = turns
    e.rejected.value = rejected
    assert e.error.value == ""
    for model in ("uniform", "adaptive"):
        p = _expected(turns, rejected, model)
        assert e.risks[model].p_lose == p
        assert e.risks[model].exact
        # the page shows the same exact fraction and its percentage in that model's column
        assert f"data-model='{model}' data-field='p_lose'><b>{float(p):.1%}</b>" in e.result.value
        assert f"= {p}</span>" in e.result.value


def test_with_nothing_seen_the_two_models_agree() -> None:
    e = OpponentModelExplorer(HAND, discard=DISCARD)
    assert e.turns.value == 0 and e.rejected.value == ""
    assert e.risks["uniform"] == e.risks["adaptive"]
    assert e.risks["uniform"].p_lose == _expected(0, "", "uniform")
    assert "nothing seen yet" in e.result.value


def test_later_in_a_hand_the_adaptive_model_sees_more_risk() -> None:
    e = OpponentModelExplorer(HAND, discard=DISCARD, turns=4, rejected="8S 2D")
    assert e.risks["adaptive"].model == "adaptive" and e.risks["uniform"].model == "uniform"
    assert e.risks["adaptive"].p_lose > e.risks["uniform"].p_lose
    assert "4 turns, rejected 8S 2D" in e.result.value.replace("8♠ 2♦", "8S 2D")
    # the verdict is the advice's (the engine with what was seen), with both moves' chance of
    # winning the game as levels (issue 64: never a signed change alone)
    on = e.play_on
    assert f"data-field='play_on'><b>{float(on):.1%}</b>" in e.result.value
    verdict = "knock" if e.advice == "knock" else "play on"
    assert (
        f"data-field='verdict'><span style='color:#{'1e7b34' if verdict == 'knock' else 'c0392b'}'>{verdict}"
        in e.result.value
    )
    assert re.search(r"your chance of winning the game is [\d.]+% if you knock, [\d.]+% if you play on", e.result.value)
    assert not re.search(r"[+-]\d+(\.\d+)?%", e.result.value)


@pytest.mark.parametrize(
    ("turns", "text", "says"),
    [
        (3, "8S 1X", "'1X'"),
        (3, "8S 8S", "appears twice"),
        (1, "8S 2D 9H", "('8S 2D 9H') after 1 turn: an opponent rejects at most 2 cards a turn"),
        (0, "8S", "'8S': with no turn played yet, an opponent has rejected no card"),
        (2, "8S 2D 9H 4C 5C", "5 rejected cards"),
    ],
)
def test_bad_rejected_cards_are_answered_beside_the_field(turns: int, text: str, says: str) -> None:
    e = OpponentModelExplorer(HAND, discard=DISCARD, turns=turns)
    e.rejected.value = text  # must not raise
    shown = unescape(e.error.value)
    assert says in shown and "scatlab-field-error" in shown
    assert e.risks == {} and "Fix the rejected cards" in e.result.value
    e.rejected.value = ""
    assert e.error.value == "" and e.risks["uniform"].p_lose == _expected(turns, "", "uniform")


def test_C5_a_rejected_card_in_your_own_hand_is_noted_as_taken_back_from_the_pile() -> None:
    e = OpponentModelExplorer(HAND, discard=DISCARD, turns=2)
    e.rejected.value = HAND.split()[0]
    shown = unescape(e.error.value)
    assert "is in your hand: they rejected it only if you then took it from the pile (C5)" in shown
    assert "scatlab-field-error" not in shown and e.risks  # a note, not an error: the numbers stay
    e.rejected.value = "8S"
    assert e.error.value == ""


def test_the_reliability_diagram_is_package_data() -> None:
    resource = files("scatlab.course").joinpath("figures").joinpath(CALIBRATION_FIGURE)
    assert resource.is_file()
    svg = calibration_svg()
    assert svg.lstrip().startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert svg in calibration_figure().value
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = data["tool"]["setuptools"]["package-data"]["scatlab"]
    assert any(fnmatch.fnmatch(f"course/figures/{CALIBRATION_FIGURE}", p) for p in patterns)
    assert not (ROOT / "docs" / CALIBRATION_FIGURE).exists()
    studies = (ROOT / "docs" / "studies.md").read_text(encoding="utf-8")  # the documentation site shows it too
    assert f"](../scatlab/course/figures/{CALIBRATION_FIGURE})" in studies


def test_the_appendix_shows_the_explorer_then_the_diagram_and_lesson_3_keeps_only_the_chart() -> None:
    def sources(name: str) -> list[str]:
        cells = json.loads((lessons_dir() / name).read_text(encoding="utf-8"))["cells"]
        return ["".join(c["source"]) for c in cells]

    appendix = sources("appendix-how-we-know.ipynb")
    section = next(i for i, s in enumerate(appendix) if s.startswith("## Later in a hand"))
    explorer = next(i for i, s in enumerate(appendix) if "OpponentModelExplorer(" in s)
    figure = next(i for i, s in enumerate(appendix) if "calibration_figure()" in s)
    assert section < explorer < figure
    lesson = "\n".join(sources("03-knocking.ipynb"))
    assert "KnockChart()" in lesson
    assert "OpponentModelExplorer(" not in lesson and "calibration_figure(" not in lesson
