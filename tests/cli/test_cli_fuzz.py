"""The command line's contract under fuzzing: for any command line, record bytes, locale
or terminal encoding, ``scatlab`` exits 0, or exits 2 with exactly one line on standard
error; never a traceback, and never the "internal error" exit 1.

Most mutated command lines run in this process through :func:`scatlab.cli.main` (fast);
a smaller set runs the real ``scatlab`` process (``python -m scatlab``) with non-UTF-8
arguments and files and an ASCII-only terminal. The inputs tried are counted in the run's
"fuzz inputs tried" line.
"""

from __future__ import annotations

import io
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.fuzzing import CONTROL_SEQUENCES, COUNTS, ODD_TEXT, UNICODE_TRAPS, cases, fuzz_rng
from scatlab.checks import notation, one_line
from scatlab.cli import main
from scatlab.rules import GameRecord, play_random_game

BASE_COMMANDS: list[list[str]] = [
    ["analyze", "AH", "KH", "4C", "--discard", "9S"],
    ["analyze", "AH", "KH", "4C", "--discard", "9S", "--opponent-holds", "2H", "10S", "--json"],
    ["analyze", "AH", "KH", "4C", "5C", "--rules", "gin"],
    ["analyze", "AH", "KH", "9C", "--discard", "7S", "--opponents", "2", "--samples", "50", "--horizon", "1"],
    ["rules", "quick"],
    ["rules"],
    ["demo", "--seed", "3", "--players", "2", "--quiet"],
    ["record", "--seed", "1", "--players", "2", "--rules", "quick"],
    ["tournament", "--players", "random,random", "--games", "2", "--no-progress"],
    ["replay", "RECORD"],
    ["review", "SHORT", "--player", "0", "--json"],
    ["replay", "-", "--compact"],
    ["review", "-"],
    ["analyze", "AH", "KH", "9C", "--discard", "7S", "--turns", "2", "--rejected", "8S", "--no-knock"],
    ["rules", "--explain", "V7(d)"],
]

NUMBERS = [
    "-1",
    "0",
    "1",
    "2",
    "3",
    "9",
    "10",
    "99999999",
    "10000000",
    "1" + "0" * 40,
    "1e3",
    "nan",
    "inf",
    "x",
    "",
    "0x10",
    "٣",
    "-0",
    "３",
    "1_0",
    " 2",
    "2\n",
    "+2",
    "²",
]
WORDS = [
    *ODD_TEXT,
    "--json",
    "--help",
    "--rules",
    "--discard",
    "--opponents",
    "--samples",
    "--horizon",
    "--games",
    "--players",
    "--seed",
    "--jobs",
    "--dead",
    "--opponent-holds",
    "classic",
    "dutch",
    "poker",
    "expert,tip",
    "tip," * 12,
    "AH",
    "9S",
    "QH",
    "-",
    "--",
    "-x",
    "--turns",
    "--rejected",
    "--opponent-model",
    "uniform",
    "adaptive",
    "--player",
    "--explain",
    "V7\n",
    "extra\nline",
    "--x\ny",
    "\x1b[31m",
    "a\tb",
    "9S\n",
    "\u212aH",
    "Aſ",
    "ＫＨ",
    "ＧＩＮ",
    "\u212anock",
    "--discard\n",
    "\u2028",
    "\x00",
]
HEAVY = {"--games", "--samples", "--horizon", "--jobs", "--players", "--opponents"}
ONE_VALUE = [
    "--discard",
    "--rules",
    "--seed",
    "--players",
    "--opponents",
    "--horizon",
    "--samples",
    "--turns",
    "--dead",
    "--games",
    "--player",
    "--explain",
    "--opponent-model",
    "--policy",
    "--dealer",
]


def _mutate(argv: list[str], rng: random.Random) -> list[str]:
    argv = list(argv)
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(9)
        if kind == 6 and len(argv) > 1:  # a control character or line break inside an argument
            j = rng.randrange(1, len(argv))
            k = rng.randrange(len(argv[j]) + 1)
            argv[j] = argv[j][:k] + rng.choice(CONTROL_SEQUENCES) + argv[j][k:]
            continue
        if kind == 7 and len(argv) > 1:  # a character that NFKC or case folding changes
            j = rng.randrange(1, len(argv))
            k = rng.randrange(len(argv[j]) + 1)
            argv[j] = argv[j][:k] + rng.choice(UNICODE_TRAPS) + argv[j][k + 1 :]
            continue
        if kind == 8:  # an option that takes one value, given again
            given = [w for w in argv if w in ONE_VALUE]
            option = rng.choice(given) if given else rng.choice(ONE_VALUE)
            argv += [option, rng.choice(WORDS + NUMBERS)]
            continue
        i = rng.randrange(len(argv) + 1)
        if kind == 0 and len(argv) > 1:
            del argv[rng.randrange(1, len(argv))]
        elif kind == 1:
            argv.insert(max(1, i), rng.choice(WORDS))
        elif kind == 2:
            argv.insert(max(1, i), rng.choice(NUMBERS))
        elif kind == 3 and len(argv) > 1:
            argv[rng.randrange(1, len(argv))] = rng.choice(WORDS + NUMBERS)
        elif kind == 4:
            argv += [rng.choice(sorted(HEAVY)), rng.choice(NUMBERS)]
        else:
            j = rng.randrange(1, len(argv)) if len(argv) > 1 else 0
            argv[j] = argv[j][::-1] if rng.random() < 0.5 else argv[j].upper()
    return _keep_it_quick(argv)


def _keep_it_quick(argv: list[str]) -> list[str]:
    """Bound the work a mutated line asks for (the bounds themselves are tested with
    refused values such as 10000000): small games, samples and horizons only."""
    out = list(argv)
    for k, word in enumerate(out[:-1]):
        if word in HEAVY:
            value = out[k + 1]
            digits = notation(value).strip()  # the command line reads whole numbers by this rule
            if re.fullmatch(r"[+-]?[0-9]+", digits) and 3 < int(digits) <= 1_000_000:
                out[k + 1] = "3"
    if out and out[0] == "tournament" and "--games" not in out:
        out += ["--games", "2"]
    if out and out[0] == "tournament" and "--no-progress" not in out:
        out.append("--no-progress")
    if "--help" in out or "-h" in out:
        out = [w for w in out if w not in ("--help", "-h")]
    if "expert" in out and out[0] == "tournament":
        out = [w.replace("expert", "tip") for w in out]
    return out


SHORT = ("one-hand.json", "kelvin.json", "odd-keys.json", "bool-seat.json", "bytes.json", "typed.json")
"""Records for ``review`` (a whole game's review takes a second): one hand, or refused."""


def _records(tmp: Path) -> list[Path]:
    game = GameRecord.from_state(play_random_game("classic", 2, 5))
    good = game.dumps()
    one_hand = GameRecord(game.rules, game.players, game.dealer, game.hands[:1]).dumps()
    files = {
        "one-hand.json": one_hand.encode(),
        "good.json": good.encode(),
        "latin1.json": good.replace('"classic"', '"cl\u00e4ssic"').encode("latin-1"),
        "bytes.json": b"\xff\xfe\x00{\x80",
        "deep.json": b"[" * 5000 + b"]" * 5000,
        "deep-object.json": b'{"a":' * 3000 + b"1" + b"}" * 3000,
        "huge-number.json": ('{"rules": {"min_knock": ' + "9" * 5000 + '}, "players": 2, "hands": []}').encode(),
        "inf.json": b'{"rules": {"three_of_a_kind": Infinity, "lives": 1e999}, "players": 2, "hands": []}',
        "float-rules.json": b'{"rules": {"lives": 1e999, "min_knock": -1e999}, "players": 2, "hands": []}',
        "typed.json": b'{"rules": {"hammer": "yes", "bus_steps": 5}, "players": "3", "hands": {}}',
        "truncated.json": good[: len(good) // 2].encode(),
        "empty.json": b"",
        "odd-keys.json": one_hand.replace('"players"', '"note": "x\\n\\u001b[2J", "players"').encode(),
        "bool-seat.json": one_hand.replace('"player": 1', '"player": true', 1).encode(),
        "float-rules.json.2": b'{"rules": {"deck_size": 52.0, "hammer": 1}, "players": 2, "hands": []}',
        "kelvin.json": one_hand.replace('"KH"', '"\u212aH"').replace('"AS"', '"A\u017f"').encode(),
        "control-name.json": b'{"rules": {"name": "a\\nb\\u001b"}, "players": 2, "hands": []}',
    }
    paths = []
    for name, data in files.items():
        path = tmp / name
        path.write_bytes(data)
        paths.append(path)
    return paths


def _check(argv: list[str], code: int, err: str) -> None:
    assert code in (0, 2), (argv, code, err)  # never 1, the "internal error"
    assert "Traceback" not in err and "internal error" not in err, (argv, err)
    if code == 2:
        lines = err.splitlines()  # splits at \r, \x0b, \x1c, \x85, \u2028... too
        assert len(lines) == 1 and err.endswith("\n"), (argv, err)
        assert one_line(lines[0]) == lines[0], (argv, err)  # printable: input quoted escaped
    if code == 0:
        assert not _given_twice(argv), (argv, "a one-value option given twice was accepted")


def _given_twice(argv: list[str]) -> bool:
    """Whether a one-value option appears twice before ``--`` (a line that does so must be
    refused, by that or by something else)."""
    words = argv[: argv.index("--")] if "--" in argv else argv
    options = [w for w in words if w in ONE_VALUE]
    return len(options) != len(set(options))


def _stdin(n: int) -> io.TextIOBase | None:
    """Standard input for command line ``n``: a record cut short, none at all (closed),
    bytes that are not UTF-8, a text stream without bytes under it, a closed stream."""
    kind = n % 5
    if kind == 0:
        return io.TextIOWrapper(io.BytesIO(b'{"rules": "classic"'))
    if kind == 1:
        return None  # what Python gives a program started with standard input closed (<&-)
    if kind == 2:
        return io.TextIOWrapper(io.BytesIO(b"\xff\xfe{\x80\x00"), encoding="utf-8", errors="strict")
    if kind == 3:
        return io.StringIO('{"rules": "classic", "players": 2, "hands": [], "x\\n": 1}')
    closed = io.TextIOWrapper(io.BytesIO(b"{}"))
    closed.close()
    return closed


def test_mutated_command_lines_in_process_exit_0_or_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Command lines mutated from BASE_COMMANDS (deleted, inserted, replaced and doubled
    words; control characters and Unicode traps inside arguments; one-value options given
    twice), with records of odd bytes and odd fields and odd standard inputs.
    ``SCATLAB_FUZZ_SEED`` and ``SCATLAB_FUZZ_SCALE`` (tests/helpers/fuzzing.py) vary the lines."""
    rng = fuzz_rng()
    records = _records(tmp_path)
    tried = 0
    total = cases(450)
    for n in range(total):
        monkeypatch.setattr(sys, "stdin", _stdin(n))
        base = BASE_COMMANDS[n % len(BASE_COMMANDS)]
        argv = _mutate(base, rng) if n >= len(BASE_COMMANDS) else list(base)
        short = [r for r in records if r.name in SHORT]
        argv = [
            str(rng.choice(records)) if w == "RECORD" else str(rng.choice(short)) if w == "SHORT" else w for w in argv
        ]
        code = main(argv)
        _check(argv, code, capsys.readouterr().err)
        tried += 1
    for record in records:
        code = main(["replay", str(record)])
        _check(["replay", str(record)], code, capsys.readouterr().err)
        tried += 1
    COUNTS["CLI in process"] += tried
    assert tried == total + len(records)


def _run(args: list[str], env: dict[str, str], stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "scatlab", *args], input=stdin, capture_output=True, env=env, timeout=120
    )


def test_real_scatlab_process_with_odd_bytes_locales_and_encodings(tmp_path: Path) -> None:
    """The real process: an ASCII-only terminal, the C locale, arguments and records that
    are not UTF-8, deep JSON on standard input."""
    records = _records(tmp_path)
    base = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHONIOENCODING", "LC_", "LANG"))}
    ascii_env = {**base, "PYTHONIOENCODING": "ascii"}
    c_env = {**base, "LC_ALL": "C", "LANG": "C"}
    cases: list[tuple[list[str | bytes], dict[str, str], bytes]] = [
        (["analyze", "AH", "KH", "4C", "--discard", "9S"], ascii_env, b""),
        (["analyze", "A\u2665", "KH", "4C", "--discard", "1\u2665"], ascii_env, b""),
        (["analyze", b"\xff\xfeH", "KH", "4C"], c_env, b""),
        ([b"\xe9tude"], c_env, b""),
        (["rules", "gin"], ascii_env, b""),
        (["replay", str(records[2])], c_env, b""),  # not UTF-8
        (["replay", str(records[3])], ascii_env, b""),  # deeply nested
        (["replay", "-"], c_env, b"[" * 100_000),
        (["replay", "-"], ascii_env, records[6].read_bytes()),  # Infinity in the rules
        (["demo", "--seed", "2", "--players", "2"], ascii_env, b""),
        (["review", "-"], c_env, b"\xff\xfe{\x80"),  # found: exit 1, UnicodeDecodeError
    ]
    for args, env, stdin in cases:
        proc = _run([a if isinstance(a, str) else os.fsdecode(a) for a in args], env, stdin)
        err = proc.stderr.decode("utf-8", "replace")
        _check([str(a) for a in args], proc.returncode, err)
        COUNTS["CLI processes"] += 1
    for command in ("review",):  # found: standard input closed (<&-) was an AttributeError, exit 1
        closed = subprocess.run(
            ["sh", "-c", f'exec "{sys.executable}" -m scatlab {command} - <&-'],
            capture_output=True,
            env=c_env,
            timeout=120,
        )
        _check([command, "-", "<&-"], closed.returncode, closed.stderr.decode("utf-8", "replace"))
        assert closed.returncode == 2 and b"standard input: it is closed" in closed.stderr
        COUNTS["CLI processes"] += 1
    ok = _run(["analyze", "AH", "KH", "4C", "--discard", "9S"], ascii_env)
    assert ok.returncode == 0 and b"Advice: " in ok.stdout and b"9S" in ok.stdout
    COUNTS["CLI processes"] += 1
