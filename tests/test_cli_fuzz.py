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
import subprocess
import sys
from pathlib import Path

import pytest
from fuzzing import COUNTS, ODD_TEXT

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
]

NUMBERS = ["-1", "0", "1", "2", "3", "9", "10", "99999999", "10000000", "1" + "0" * 40, "1e3", "nan", "inf", "x",
           "", "0x10", "٣", "-0"]
WORDS = [*ODD_TEXT[:20], "--json", "--help", "--rules", "--discard", "--opponents", "--samples", "--horizon",
         "--games", "--players", "--seed", "--jobs", "--dead", "--opponent-holds", "classic", "dutch", "poker",
         "expert,tip", "tip," * 12, "AH", "9S", "QH", "-", "--", "-x"]
HEAVY = {"--games", "--samples", "--horizon", "--jobs", "--players", "--opponents"}


def _mutate(argv: list[str], rng: random.Random) -> list[str]:
    argv = list(argv)
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(6)
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
            if value.lstrip("-").isdigit() and 3 < int(value) <= 1_000_000:
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


def _records(tmp: Path) -> list[Path]:
    good = GameRecord.from_state(play_random_game("classic", 2, 5)).dumps()
    files = {
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
    }
    paths = []
    for name, data in files.items():
        path = tmp / name
        path.write_bytes(data)
        paths.append(path)
    return paths


def _check(argv: list[str], code: int, err: str) -> None:
    assert code in (0, 2), (argv, code, err)
    assert "Traceback" not in err, (argv, err)
    if code == 2:
        assert len(err.strip().splitlines()) == 1, (argv, err)


def test_mutated_command_lines_in_process_exit_0_or_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b'{"rules": "classic"')))
    rng = random.Random(7)
    records = _records(tmp_path)
    tried = 0
    for n in range(450):
        base = BASE_COMMANDS[n % len(BASE_COMMANDS)]
        argv = _mutate(base, rng) if n >= len(BASE_COMMANDS) else list(base)
        argv = [str(rng.choice(records)) if w == "RECORD" else w for w in argv]
        code = main(argv)
        _check(argv, code, capsys.readouterr().err)
        tried += 1
    for record in records:
        code = main(["replay", str(record)])
        _check(["replay", str(record)], code, capsys.readouterr().err)
        tried += 1
    COUNTS["CLI in process"] += tried
    assert tried == 450 + len(records)


def _run(args: list[str], env: dict[str, str], stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "scatlab", *args], input=stdin, capture_output=True, env=env,
                          timeout=120)


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
    ]
    for args, env, stdin in cases:
        proc = _run([a if isinstance(a, str) else os.fsdecode(a) for a in args], env, stdin)
        err = proc.stderr.decode("utf-8", "replace")
        _check([str(a) for a in args], proc.returncode, err)
        COUNTS["CLI processes"] += 1
    ok = _run(["analyze", "AH", "KH", "4C", "--discard", "9S"], ascii_env)
    assert ok.returncode == 0 and b"Advice: DRAW" in ok.stdout and b"9S" in ok.stdout
    COUNTS["CLI processes"] += 1
