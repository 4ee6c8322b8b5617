"""The command line's input contract, case by case (the fuzzing is tests/cli/test_cli_fuzz.py):

- bad input exits 2 with exactly one printable line on standard error, whatever the input
  holds: a newline, tab or escape inside an argument is written escaped (``\\n``), for
  argparse's own errors too;
- an option that takes one value may be given once;
- a record is read with one bound for ``replay`` and ``review``, from a file or standard
  input, and a closed or undecodable standard input is a one-line error (exit 2);
- ``analyze --turns/--rejected`` feed the adaptive model only, and an opponent rejects at
  most two cards a turn;
- whole numbers and cards are read by the one notation rule (NFKC, case folding, then
  ASCII only; :func:`scatlab.checks.notation`);
- every subcommand's ``--help`` has a description.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from pathlib import Path

import pytest

from helpers.fuzzing import CONTROL_SEQUENCES
from scatlab.checks import one_line
from scatlab.cli import build_parser, main
from scatlab.rules import GameRecord, play_random_game


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _one_line_error(code: int, err: str) -> str:
    assert code == 2, err
    lines = err.splitlines()
    assert len(lines) == 1 and err.endswith("\n") and one_line(lines[0]) == lines[0], err
    assert "internal error" not in err and "Traceback" not in err
    return lines[0]


TEMPLATES = [
    ["rules", "classic", "extra{}line"],  # argparse: unrecognized arguments
    ["demo", "--quiet", "--x{}y"],
    ["demo", "--players", "x{}"],  # argparse: invalid whole number value
    ["rules", "cl{}assic"],  # RulesError
    ["analyze", "A{}H", "KH", "4C", "--discard", "9S"],  # CardError
    ["rules", "--explain", "V7{}x"],
    ["replay", "no{}such.json"],  # RecordError, the path quoted
    ["tournament", "--players", "tip,ti{}p", "--games", "1", "--no-progress"],
]


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda t: " ".join(t[:2]))
def test_every_cli_error_is_one_line_whatever_the_argument_holds(
    template: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue: a newline inside an argument gave a two-line error (argparse's and ours)."""
    for control in CONTROL_SEQUENCES:
        argv = [word.format(control) for word in template]
        code, _out, err = _run(argv, capsys)
        _one_line_error(code, err)


def test_argparse_errors_quote_the_argument_escaped(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = _run(["rules", "classic", "extra\nline"], capsys)
    assert _one_line_error(code, err) == "scatlab: error: unrecognized arguments: extra\\nline (see 'scatlab --help')"
    code, _out, err = _run(["demo", "--quiet", "--x\ny\x1b[2J"], capsys)
    assert "--x\\ny\\x1b[2J" in _one_line_error(code, err)


def test_kelvin_sign_and_long_s_in_cards_read_as_K_and_S(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue: ``scatlab analyze`` with the Kelvin sign in a card said "internal error:
    KeyError: 'K'". By the notation rule it reads as K (NFKC), the long s as S."""
    code, typed, err = _run(["analyze", "\u212aH", "AH", "4C", "--discard", "9ſ"], capsys)
    assert code == 0, err
    assert typed == _run(["analyze", "KH", "AH", "4C", "--discard", "9S"], capsys)[1]


@pytest.mark.parametrize(
    "argv",
    [
        ["analyze", "AH", "KH", "4C", "--discard", "9S", "--discard", "7S"],
        ["analyze", "AH", "KH", "4C", "--disc", "9S", "--discard", "7S"],  # an abbreviation is the same option
        ["analyze", "AH", "KH", "4C", "--discard", "9S", "--turns", "1", "--turns", "2"],
        ["analyze", "AH", "KH", "4C", "--discard", "9S", "--dead", "2C", "--dead", "3C"],
        ["analyze", "AH", "KH", "4C", "--discard", "9S", "--rules", "gin", "--rules", "classic"],
        ["demo", "--seed", "1", "--seed", "2"],
        ["tournament", "--games", "1", "--games", "2"],
        ["rules", "--explain", "C1", "--explain", "C2"],
        ["review", "x.json", "--player", "0", "--player", "1"],
        ["record", "-o", "a.json", "--output", "b.json"],
    ],
)
def test_an_option_that_takes_one_value_given_twice_is_refused(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue: ``--discard 9S --discard 7S`` silently used 7S."""
    code, out, err = _run(argv, capsys)
    line = _one_line_error(code, err)
    assert "given twice" in line and "give it once" in line and out == ""


def test_options_meant_to_repeat_still_repeat(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(
        [
            "analyze",
            "AH",
            "KH",
            "4C",
            "--discard",
            "9S",
            "--opponent-holds",
            "2H",
            "--opponent-holds",
            "3H",
            "--samples",
            "50",
            "--json",
        ],
        capsys,
    )
    assert code == 0 and '"opponents": 2' in out, err


@pytest.mark.parametrize("extra", [["--turns", "3"], ["--rejected", "8S"], ["--turns", "2", "--rejected", "8S"]])
def test_turns_and_rejected_feed_only_the_adaptive_model(extra: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Issue: ``--opponent-model uniform --turns 3`` was accepted, the turns ignored."""
    code, _out, err = _run(
        ["analyze", "AH", "KH", "QS", "--discard", "2C", "--opponent-model", "uniform", *extra], capsys
    )
    assert "read only by the adaptive opponent model" in _one_line_error(code, err)


@pytest.mark.parametrize(
    ("turns", "rejected", "ok"),
    [
        ([], ["8S"], False),  # rejected in no turn at all
        (["1"], ["8S", "2D"], True),
        (["1"], ["8S", "2D", "3D"], False),
        (["2"], ["8S", "2D", "3D"], True),
    ],
)
def test_an_opponent_rejects_at_most_two_cards_a_turn(
    turns: list[str], rejected: list[str], ok: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each turn an opponent passes over the discard and throws a card, at most: more
    rejected cards than that is refused, quoting them (the lesson's explorer's rule)."""
    argv = ["analyze", "AH", "KH", "QS", "--discard", "2C", "--no-knock"]
    argv += (["--turns", *turns] if turns else []) + ["--rejected", *rejected]
    code, _out, err = _run(argv, capsys)
    if ok:
        assert code == 0, err
    else:
        assert repr(" ".join(rejected)) in _one_line_error(code, err)


@pytest.mark.parametrize(
    "extra",
    [
        ["--discard", "9S", "--turns", "1", "--rejected", "9S"],  # thrown just now: the discard
        ["--discard", "9S", "--dead", "8S", "--turns", "2", "--rejected", "8S"],  # thrown, then covered
        ["--discard", "9S", "--turns", "1", "--rejected", "AH"],  # thrown, then taken by you
        ["--discard", "9S", "--turns", "1", "1", "--rejected", "9S", "--rejected", "9S"],  # thrown, then passed over
    ],
)
def test_a_rejected_card_may_be_seen_where_it_went(extra: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """A rejected card is one an opponent threw or passed over on the pile: it is the
    discard now, or buried (dead), or was taken since (by you); the next opponent may pass
    it over too. None of these is a contradiction, so none is refused (the commonest
    observation is a card thrown that is still the discard)."""
    code, out, err = _run(["analyze", "AH", "KH", "QS", *extra, "--samples", "200", "--json"], capsys)
    assert code == 0 and '"opponent_model": "adaptive"' in out, err


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
@pytest.mark.parametrize("command", ["replay", "review"])
def test_replay_and_review_refuse_a_device_before_reading_it(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue: ``scatlab review /dev/zero`` read until memory ran out (replay refused it);
    issue 52: a device is now refused before it is opened."""
    code, _out, err = _run([command, "/dev/zero"], capsys)
    assert "cannot read '/dev/zero': it is a device; give a record saved as a file" in _one_line_error(code, err)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
@pytest.mark.parametrize("command", ["replay", "review"])
def test_replay_and_review_refuse_a_named_pipe_or_folder_at_once_with_one_line(command: str, tmp_path: Path) -> None:
    """Issue 52: ``scatlab replay FIFO`` (a named pipe with no writer) blocked forever.
    Run as a real process with a timeout, so a regression fails instead of hanging."""
    import subprocess

    fifo = tmp_path / "game.json"
    os.mkfifo(fifo)
    for path, what in ((fifo, "a named pipe (FIFO)"), (tmp_path, "a folder")):
        done = subprocess.run(
            [sys.executable, "-m", "scatlab.cli", command, str(path)],
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
        assert f"cannot read {str(path)!r}: it is {what}; give a record saved as a file" in _one_line_error(
            done.returncode, done.stderr
        )
        assert done.stdout == ""


def _good_record() -> str:
    state = play_random_game("classic", 2, 1)
    record = GameRecord.from_state(state)
    return GameRecord(record.rules, record.players, record.dealer, record.hands[:1]).dumps()


@pytest.mark.parametrize("command", ["replay", "review"])
def test_standard_input_closed_or_not_utf8_is_a_one_line_error(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue: ``scatlab review - <&-`` (Python's sys.stdin is then None) exited 1 with an
    AttributeError, and bytes that are not UTF-8 with a UnicodeDecodeError."""
    monkeypatch.setattr(sys, "stdin", None)
    code, _out, err = _run([command, "-"], capsys)
    assert "cannot read the record from standard input: it is closed" in _one_line_error(code, err)
    closed = io.TextIOWrapper(io.BytesIO(b"{}"))
    closed.close()
    monkeypatch.setattr(sys, "stdin", closed)
    assert "it is closed" in _one_line_error(*_run([command, "-"], capsys)[::2])
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"\xff\xfe{\x80"), errors="strict"))
    assert "not UTF-8 text: byte 0xff at offset 0" in _one_line_error(*_run([command, "-"], capsys)[::2])
    monkeypatch.setattr(sys, "stdin", io.StringIO(_good_record()))  # a text stream without bytes under it
    code, out, err = _run([command, "-"], capsys)
    assert code == 0 and out, err


def test_review_reads_standard_input_bytes_and_files_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"
    path.write_text(_good_record(), encoding="utf-8")
    from_file = _run(["review", str(path), "--json"], capsys)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(path.read_bytes())))
    assert _run(["review", "-", "--json"], capsys) == from_file and from_file[0] == 0
    code, _out, err = _run(["review", "a\x00b.json"], capsys)  # a NUL in the path was an internal ValueError
    assert "cannot read 'a\\x00b.json'" in _one_line_error(code, err)


@pytest.mark.parametrize(
    ("number", "ok"),
    [
        ("３", True),
        ("+3", True),
        (" 3 ", True),
        ("٣", False),
        ("1_0", False),
        ("3.0", False),
        ("²", True),
        ("0x3", False),
    ],
)  # ²: NFKC 2
def test_whole_numbers_are_ascii_digits_once_normalised(
    number: str, ok: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    """The notation rule for numbers: NFKC (fullwidth ３ is 3), then ASCII digits only;
    int() alone took Arabic-Indic digits and underscores."""
    code, _out, err = _run(["demo", "--players", number, "--quiet"], capsys)
    if ok:
        assert code == 0, err
    else:
        assert f"invalid whole number value: {number!r}" in _one_line_error(code, err)


def test_every_subcommand_help_has_a_description(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue: ``scatlab review --help`` had no description line."""
    parser = build_parser()
    commands: dict[str, argparse.ArgumentParser] = dict(next(a for a in parser._actions if a.dest == "command").choices)  # type: ignore[arg-type]
    assert "review" in commands and "serve" in commands
    for name, command in commands.items():
        assert command.description, name
        with pytest.raises(SystemExit) as info:
            command.parse_args(["--help"])
        assert info.value.code == 0
        assert command.description.split()[0] in capsys.readouterr().out, name
