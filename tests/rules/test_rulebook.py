"""The rulebook as data (scatlab.rules.rulebook): every rule code the package cites has an
entry, entries name real options, RuleSet.rules_in_force follows the presets, and the
``scatlab rules --explain`` command."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import scatlab
from scatlab.cli import main
from scatlab.errors import IllegalActionError, RulesError
from scatlab.rules import (
    PRESETS,
    RULEBOOK,
    VARIANT_CODES,
    Action,
    ActionKind,
    GameState,
    Phase,
    RuleEntry,
    RuleSet,
    cited_codes,
    find_rules,
    rule_entry,
    shuffled_deck,
)
from scatlab.rules.options import option_names

PACKAGE = Path(scatlab.__file__).parent
# A code is a whole word; "C0.22" or "C1,0.5" (SVG path data, a number list) is not one.
CODE_RE = re.compile(r"(?<![A-Za-z0-9_])([CV])(\d+)(?:\([a-z]\)|[a-z])?(?![A-Za-z0-9_]|[.,]\d)")
CATALOGUE = [f"C{i}" for i in range(1, 15)] + [f"V{i}" for i in range(1, 20)]


def _codes_in(text: str) -> set[str]:
    return {f"{m.group(1)}{int(m.group(2))}" for m in CODE_RE.finditer(text)}


def test_rulebook_holds_every_catalogue_code_in_order() -> None:
    assert list(RULEBOOK) == CATALOGUE
    for code, entry in RULEBOOK.items():
        assert isinstance(entry, RuleEntry) and entry.code == code
        assert entry.title and entry.text
        sentences = [s for s in re.split(r"(?<=[.:;])\s+(?=[A-Z(])", entry.text) if s]
        assert 1 <= len(sentences) <= 5, (code, sentences)


def test_rulebook_is_read_only() -> None:
    with pytest.raises(TypeError):
        RULEBOOK["C99"] = RULEBOOK["C1"]  # type: ignore[index]


def test_every_code_cited_in_the_package_source_has_an_entry() -> None:
    cited: dict[str, str] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for code in _codes_in(path.read_text(encoding="utf-8")):
            cited.setdefault(code, str(path.relative_to(PACKAGE)))
    assert len(cited) > 20  # the scan finds real citations
    missing = {code: where for code, where in cited.items() if code not in RULEBOOK}
    assert not missing


def _collect_engine_messages(preset: str, seed: int) -> list[str]:
    """Play a random game, and at every step try every kind of action the engine may
    refuse; return the refusal messages and the showdown notes."""
    rng = random.Random(seed)
    state = GameState.new(preset, 3, 0)
    messages: list[str] = []
    tries = [Action(kind) for kind in ActionKind if kind is not ActionKind.DISCARD]
    steps = 0
    while state.phase is not Phase.GAME_OVER and steps < 400:
        if state.phase is Phase.DEAL:
            state = state.deal(shuffled_deck(state.rules, rng))
            continue
        for act in tries + [Action.discard("AS"), Action.discard("2H")]:
            try:
                state.check(act)
            except IllegalActionError as exc:
                messages.append(str(exc))
        state = state.apply(rng.choice(state.legal_actions()))
        steps += 1
    for result in state.results:
        messages.extend(f"{note.code}: {note}" for note in result.notes)
    return messages


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_code_in_engine_messages_has_an_entry(preset: str) -> None:
    messages = _collect_engine_messages(preset, seed=11)
    assert messages
    codes = set().union(*(_codes_in(m) for m in messages))
    assert codes  # the engine cites rules
    assert codes <= set(RULEBOOK), codes - set(RULEBOOK)
    for message in messages:
        assert set(cited_codes(message)) == _codes_in(message)


def test_every_entry_names_real_ruleset_options() -> None:
    fields = set(option_names())
    for entry in RULEBOOK.values():
        assert set(entry.options) <= fields, (entry.code, entry.options)
        assert len(set(entry.options)) == len(entry.options)


def test_variant_entries_name_the_options_their_code_switches() -> None:
    for code, changes in VARIANT_CODES.items():
        assert set(changes) <= set(RULEBOOK[code].options), code
    assert RULEBOOK["V4"].options == ("min_knock",)
    assert RULEBOOK["V7"].options == ("knocker_tie",)
    assert all(RULEBOOK[code].options for code in RULEBOOK if code.startswith("V"))


def test_core_rules_without_options_are_the_always_on_ones() -> None:
    always = [code for code in RULEBOOK if code.startswith("C") and not RULEBOOK[code].options]
    assert always == ["C2", "C3", "C4", "C5", "C6", "C9", "C11"]


def test_describe_starts_with_code_and_title() -> None:
    entry = rule_entry("C7")
    assert entry.describe().startswith("C7 Showdown: ")
    assert "knocker_tie" in entry.describe()
    assert rule_entry("C5").describe() == f"C5 A turn: {RULEBOOK['C5'].text}"


@pytest.mark.parametrize(
    "written, code",
    [
        ("C7", "C7"),
        ("c7", "C7"),
        (" v14 ", "V14"),
        ("V7(d)", "V7"),
        ("V7d", "V7"),
        ("v7(A)", "V7"),
        ("C14", "C14"),
        ("V19", "V19"),
        ("V 7", "V7"),
    ],
)
def test_rule_entry_accepts_the_ways_codes_are_written(written: str, code: str) -> None:
    assert rule_entry(written).code == code


@pytest.mark.parametrize("bad", ["C15", "V20", "C0", "V07", "X7", "", "7", "V7(e)", "C7b", "V7dd", "C 7 7"])
def test_rule_entry_refuses_unknown_codes_quoting_them(bad: str) -> None:
    with pytest.raises(RulesError) as err:
        rule_entry(bad)
    message = str(err.value)
    assert repr(bad) in message
    assert "C1-C14" in message and "V1-V19" in message


def test_rule_entry_refuses_non_text() -> None:
    with pytest.raises(RulesError, match="7"):
        rule_entry(7)  # type: ignore[arg-type]


def test_svg_path_data_is_not_a_citation() -> None:
    path = "M0.5,0.95 C0.22,0.72 0,0.52 0,0.3 C1,0.13 0.12,0.02 0.27,0.02 Z"
    assert cited_codes(path) == () and _codes_in(path) == set()
    assert cited_codes("C1, V18 and C7.") == ("C1", "V18", "C7")


def test_cited_codes_in_order_without_repeats() -> None:
    assert cited_codes("C5: a card taken from the discard pile may not be discarded (C5)") == ("C5",)
    assert cited_codes("V7b then C7, then V7(d), C12 and C1") == ("V7", "C7", "C12", "C1")
    assert cited_codes("cards 10C 9C and AC; c7 is not a code; C99 and V20 are unknown") == ()
    assert cited_codes("") == ()


# -- rules in force -------------------------------------------------------------------------

CORE = [f"C{i}" for i in range(1, 15)]


def _in_force(rules: RuleSet | str) -> list[str]:
    return [e.code for e in find_rules(rules).rules_in_force()]


def test_classic_has_every_core_rule_and_no_variant() -> None:
    assert _in_force("classic") == CORE


@pytest.mark.parametrize("preset", list(PRESETS))
def test_rules_in_force_lists_the_preset_variants(preset: str) -> None:
    rules = PRESETS[preset]
    codes = _in_force(rules)
    assert [c for c in codes if c.startswith("V")] == list(rules.codes())
    assert codes == [c for c in CATALOGUE if c in codes]  # catalogue order
    for always in ("C1", "C2", "C3", "C4", "C5", "C6", "C8", "C9", "C10", "C11"):
        assert always in codes


def test_rules_in_force_per_preset() -> None:
    assert _in_force("quick") == CORE[:12] + ["V1", "V6", "V12"]  # no county: C13, C14 out
    assert _in_force("cadillac") == CORE + ["V7", "V13"]  # four nickels, county kept
    assert _in_force("gin") == ["C1", "C2", "C3", "C4", "C5", "C6", "C8", "C9", "C10", "C11", "C12", "V14"]
    assert _in_force("ride-the-bus") == CORE[:12] + ["V15", "V19"]
    assert _in_force("french-canadian") == [c for c in CORE[:12] if c != "C7"] + ["V16", "V17"]
    assert _in_force("eenendertigen") == CORE + ["V18"]


def test_rules_in_force_follow_single_options() -> None:
    assert "C12" not in _in_force(find_rules("classic").replace(take_back=False))
    v12 = _in_force(RuleSet.from_codes("V12"))
    assert "V12" in v12 and "C13" not in v12 and "C14" not in v12
    assert _in_force(RuleSet.from_codes("V4", min_knock=21)) == CORE + ["V4"]
    tuned = _in_force(RuleSet.from_codes("V8", "V9", knocker_tie="knocker_only"))
    assert "C7" in tuned and "C8" in tuned and {"V7", "V8", "V9"} <= set(tuned)


# -- command line ---------------------------------------------------------------------------


def test_cli_explain_prints_one_entry(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--explain", "c7"]) == 0
    out = capsys.readouterr().out
    assert out == RULEBOOK["C7"].describe() + "\n"
    assert main(["rules", "--explain", "V7(d)"]) == 0
    assert capsys.readouterr().out.startswith("V7 Who pays when the knocker ties: ")


@pytest.mark.parametrize("bad", ["C15", "Q1", "V7(z)"])
def test_cli_explain_bad_code_exits_2_with_one_line(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--explain", bad]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and repr(bad) in lines[0] and "Traceback" not in captured.err


def test_cli_explain_with_a_preset_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "gin", "--explain", "C7"]) == 2
    assert len(capsys.readouterr().err.splitlines()) == 1


def test_cli_preset_lists_rules_in_force(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "gin"]) == 0
    out = capsys.readouterr().out
    listed = out.split("rules in force:\n", 1)[1].splitlines()
    assert [line.split()[0] for line in listed] == _in_force("gin")
    assert listed[-1].split(None, 1)[1] == "GIN"
    assert main(["rules", "classic"]) == 0
    assert "V1 " not in capsys.readouterr().out.split("rules in force:")[1]
