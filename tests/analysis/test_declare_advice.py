"""A hand already worth 31 is declared, not knocked (C8, C9), and the advice says so with
the rule, the same way in the API, the CLI (text and JSON), the analyzer widget and the
table's hints, under every preset and the options that touch 31: GIN letters (V14),
French-Canadian points (V16), the Cadillac and its Grand Cadillac of 33 (V13), the bus
(V15), the knocker losing two (V9), manual declaring (C10) and the 32-card deck (V18).

The boundary: 31 is declared; 30.5 (three of a kind under V2/V14) and 30 are not (they
are knocked or played on, C6); 33 (three Aces, V13) is declared like 31. A 31 already
passed under manual declaring counts as 30 and can no longer be declared (C10).
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from scatlab.analysis import Knowledge, analyze
from scatlab.cli import main
from scatlab.errors import AnalysisError
from scatlab.rules import PRESETS, deal_order, find_rules
from scatlab.rules.values import value_of
from scatlab.session import TableSession
from scatlab.widgets.analyzer import Analyzer

PRESET_NAMES = list(PRESETS)
THIRTY_ONE = ("AH KH QH", "AS KS 10S", "AD JD 10D")  # each 31 in every deck, 32 cards too (V18)
VARIANT_CODE = {"gin": "V14", "french-canadian": "V16", "cadillac": "V13", "ride-the-bus": "V15"}


@pytest.mark.parametrize("hand", THIRTY_ONE)
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_C8_C9_a_hand_worth_31_is_declared_not_knocked_under_every_preset(name: str, hand: str) -> None:
    rules = find_rules(name)
    assert value_of(Knowledge.of(hand, rules=rules).hand, rules) == 31
    a = analyze(hand, "9C", rules=rules, samples=200)
    advice = a.advice
    assert advice.action == "declare" and advice.discard is None
    assert "declared, not knocked" in advice.reason and "C8" in advice.reason
    assert advice.codes[:2] == ("C8", "C9") and "C6" not in advice.codes
    if name in VARIANT_CODE:
        assert VARIANT_CODE[name] in advice.codes and VARIANT_CODE[name] in advice.reason
    assert a.to_json()["advice"]["action"] == "declare"
    assert a.to_json()["advice"]["rules"] == list(advice.codes)
    assert f"Advice: DECLARE: {advice.reason}" in a.table()


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_C6_a_hand_worth_30_or_30_and_a_half_is_not_declared(name: str) -> None:
    """Just under 31 there is nothing to declare: the advice knocks or plays on."""
    rules = find_rules(name)
    hands = ["AH KH 9H"]  # 30
    if rules.three_of_a_kind is not None:
        hands.append("7H 7D 7S")  # 30 (V1, V13) or 30.5 (V2, V14)
    for hand in hands:
        a = analyze(hand, "9C", rules=rules, samples=200)
        assert a.value in (Fraction(30), Fraction(61, 2))
        assert a.advice.action in ("knock", "draw", "take"), (name, hand, a.advice)
        assert "declare" not in a.advice.reason


def test_V13_a_grand_cadillac_is_declared_like_31() -> None:
    a = analyze("AH AD AC", "9C", rules="cadillac", samples=200)
    assert a.value == 33 and a.advice.action == "declare"
    assert "Grand Cadillac" in a.advice.reason and "V13" in a.advice.codes
    quick = analyze("AH AD AC", "9C", rules="quick", samples=200)  # three of a kind is 30 there (V1)
    assert quick.value == 30 and quick.advice.action != "declare"


@pytest.mark.parametrize(
    ("options", "code", "words"),
    [
        ({"declare": "manual"}, "C10", "cannot be claimed later and counts as 30"),
        ({"thirty_one_after_knock": "knocker_two"}, "V9", "the knocker loses two"),
        ({"deck_size": 32}, "C8", "every other player loses a life"),
        ({"straight_flush": True}, "C8", "every other player loses a life"),
    ],
)
def test_C10_V9_V18_the_options_that_touch_31_are_in_the_reason(
    options: dict[str, object], code: str, words: str
) -> None:
    a = analyze("AH KH QH", rules=options, samples=200)
    assert a.advice.action == "declare" and code in a.advice.codes and words in a.advice.reason


def test_V3_the_ace_king_queen_straight_flush_counts_31_and_is_declared() -> None:
    a = analyze("AH KH QH", rules={"straight_flush": True, "three_of_a_kind": Fraction(30)}, samples=200)
    assert a.value == 31 and a.advice.action == "declare"
    b = analyze("KH QH JH", rules={"straight_flush": True}, samples=200)  # a run, not A-K-Q: 30
    assert b.value == 30 and b.advice.action != "declare"


def test_C8_a_discard_that_leaves_31_says_it_is_declared_at_once() -> None:
    a = analyze("AH KH QH 2C", rules="classic")
    assert a.advice.action == "discard" and str(a.advice.discard) == "2C"
    assert "declared at once" in a.advice.reason and a.advice.codes == ("C5", "C8")
    manual = analyze("AH KH QH 2C", rules={"declare": "manual"})
    assert "C10" in manual.advice.codes and "counts as 30" in manual.advice.reason
    thirty = analyze("AH KH 9H 2C", rules="classic")  # leaves 30: nothing to declare
    assert thirty.advice.codes == ("C5",) and "declared" not in thirty.advice.reason


@pytest.mark.parametrize("name", ["classic", "gin", "french-canadian", "eenendertigen"])
def test_C8_the_cli_says_declare_in_text_and_json(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "AH", "KH", "QH", "--rules", name]) == 0
    text = capsys.readouterr().out
    assert "Advice: DECLARE: a hand worth 31 is declared, not knocked" in text
    assert main(["analyze", "AH", "KH", "QH", "--rules", name, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["advice"]["action"] == "declare" and data["advice"]["rules"][:2] == ["C8", "C9"]
    assert main(["analyze", "AH", "KH", "9H", "--rules", name, "--json"]) == 0  # 30: no declaring
    assert json.loads(capsys.readouterr().out)["advice"]["action"] != "declare"


@pytest.mark.parametrize("name", ["classic", "cadillac", "gin", "ride-the-bus"])
def test_C8_the_analyzer_widget_says_declare_with_the_rules(name: str) -> None:
    w = Analyzer("AH KH QH", rules=name, knock=False)
    advice = w.advice.value
    assert "Advice: <b>declare</b>" in advice and "C8, C9" in advice and "knock" not in advice.split("</b>")[0]
    thirty = Analyzer("AH KH 9H", rules=name, knock=False)
    assert "<b>declare</b>" not in thirty.advice.value


def _passed_31_session() -> TableSession:
    """Manual declaring (C10): the learner is dealt 31 and passes; the hand goes on."""
    order = deal_order(["AH KH QH", "2C 3D 4S"], up="9S", dealer=1)
    s = TableSession({"declare": "manual"}, opponents=("tip",), seed=2, deal=order, dealer=1)
    assert s.display().phase == "declare"
    s.play("pass")
    assert s.display().my_turn and s.display().phase == "turn"
    return s


def test_C10_a_passed_31_counts_as_30_and_is_not_advised_to_be_declared() -> None:
    s = _passed_31_session()
    view = s.view()
    k = Knowledge.from_view(view)
    assert k.undeclared_31
    a = analyze(view, samples=200)
    assert a.advice.action != "declare" and a.advice.codes[0] == "C10"
    assert a.advice.reason.startswith("this 31 was not declared at once, so it counts as 30")
    hints = s.display().hints
    assert hints is not None and hints.advice_action == a.advice.action and "counts as 30" in hints.advice_reason
    assert hints.rule.code == "C10"
    analyzer = Analyzer.from_view(view, knock=False)
    assert analyzer.model.knowledge().undeclared_31 and "<b>declare</b>" not in analyzer.advice.value


def test_C10_only_a_31_can_be_said_undeclared() -> None:
    with pytest.raises(AnalysisError, match="is not a 31"):
        Knowledge(hand=Knowledge.of("AH KH 9H").hand, top=None, undeclared_31=True)
    with pytest.raises(AnalysisError, match="undeclared_31"):
        Knowledge(hand=Knowledge.of("AH KH QH").hand, top=None, undeclared_31="yes")  # type: ignore[arg-type]
