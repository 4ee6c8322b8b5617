"""The learner's progress database: WAL, two writers, damaged or foreign files, busy,
locked and read-only files, files that are not files, racing openers, bad game ids, the
widgets and the CLI when the file cannot be used.

Tests that need file permissions to hold run where they do: as root (who ignores them) the
check runs in a forked child that drops to the user ``nobody`` (see
:func:`_where_permissions_apply`).
"""

from __future__ import annotations

import contextlib
import hashlib
import html
import io
import multiprocessing
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, TypeVar

import pytest

from scatlab.cli import main
from scatlab.course import store as store_module
from scatlab.course.progress import APPLICATION_ID, Progress, ProgressError, data_home, default_path
from scatlab.course.store import ProgressFile
from scatlab.rules import GameRecord, play_random_game

_R = TypeVar("_R")


def _record() -> str:
    return GameRecord.from_state(play_random_game("classic", players=3, seed=1)).dumps()


def test_the_data_folder_is_scatlab_home_then_xdg_then_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SCATLAB_HOME", str(tmp_path / "mine"))
    assert data_home() == tmp_path / "mine"
    assert default_path() == tmp_path / "mine" / "progress.sqlite3"
    monkeypatch.delenv("SCATLAB_HOME")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert data_home() == tmp_path / "xdg" / "scatlab"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert data_home() == tmp_path / "home" / ".local" / "share" / "scatlab"


def test_the_database_is_in_wal_mode_and_marked_as_scatlabs(tmp_path: Path) -> None:
    p = Progress(tmp_path / "p.sqlite3")
    conn = sqlite3.connect(p.path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    conn.close()
    assert p.notice is None


def test_answers_lessons_and_games_are_kept_across_openings(tmp_path: Path) -> None:
    path = tmp_path / "p.sqlite3"
    p = Progress(path)
    p.record_answer("01", "value", "AH KH 4C", "21", correct=True)
    p.record_answer("01", "value", "2S 3S 4S", "8", correct=False)
    p.finish_lesson("01")
    gid = p.save_game("my first game", _record())
    again = Progress(path)
    assert [a.correct for a in again.answers("01")] == [True, False]
    assert again.summary()["01"].answered == 2 and again.summary()["01"].correct == 1
    assert again.finished_lessons() == {"01"}
    [game] = again.saved_games()
    assert game.id == gid and game.name == "my first game"
    assert GameRecord.loads(again.load_game(gid).record).to_json() == GameRecord.loads(_record()).to_json()


def test_a_bad_saved_game_or_name_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    p = Progress(tmp_path / "p.sqlite3")
    with pytest.raises(ProgressError, match="'broken' cannot be saved"):
        p.save_game("broken", '{"rules": "nope"}')
    with pytest.raises(ProgressError, match="lesson '' is not accepted"):
        p.record_answer("", "x", "q", "a", correct=True)
    with pytest.raises(ProgressError, match="no saved game has id 7"):
        p.load_game(7)
    assert p.saved_games() == [] and p.answers() == []


def _write_many(path: str, tag: str, n: int) -> None:
    p = Progress(path)
    for i in range(n):
        p.record_answer("race", tag, str(i), str(i), correct=i % 2 == 0)


def test_two_writer_processes_at_once_lose_nothing(tmp_path: Path) -> None:
    path = str(tmp_path / "p.sqlite3")
    Progress(path)
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_write_many, args=(path, tag, 150)) for tag in ("a", "b")]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(60)
        assert proc.exitcode == 0
    answers = Progress(path).answers("race")
    assert sorted((a.exercise, int(a.answer)) for a in answers) == sorted(
        (tag, i) for tag in ("a", "b") for i in range(150)
    )


def _finish_many(p: Progress, tag: str) -> None:
    for i in range(100):
        p.finish_lesson(f"{tag}{i}")


def test_two_writer_threads_on_one_object_lose_nothing(tmp_path: Path) -> None:
    p = Progress(tmp_path / "p.sqlite3")
    threads = [threading.Thread(target=_finish_many, args=(p, tag)) for tag in ("x", "y")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(p.finished_lessons()) == 200


def test_a_damaged_file_is_reported_kept_aside_and_replaced(tmp_path: Path) -> None:
    path = tmp_path / "p.sqlite3"
    path.write_bytes(b"this is not a database, it is my diary " * 200)
    p = Progress(path)
    assert p.notice is not None and "not a readable SQLite database" in p.notice
    assert p.moved_to is not None and p.moved_to.name.startswith("p.sqlite3.damaged-")
    assert p.moved_to.read_bytes().startswith(b"this is not a database")  # kept, not overwritten
    assert str(p.moved_to) in p.notice
    p.record_answer("01", "value", "q", "a", correct=True)
    assert len(Progress(path).answers()) == 1


def test_a_foreign_sqlite_database_is_kept_aside_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "p.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE invoices (n INTEGER)")
    conn.execute("INSERT INTO invoices VALUES (42)")
    conn.commit()
    conn.close()
    p = Progress(path)
    assert p.notice is not None and "another program (tables: invoices)" in p.notice
    assert p.moved_to is not None
    kept = sqlite3.connect(p.moved_to)
    assert kept.execute("SELECT n FROM invoices").fetchone() == (42,)
    kept.close()
    # a second damaged file in the same second gets its own name
    path.write_bytes(b"garbage" * 1000)
    q = Progress(path)
    assert q.moved_to is not None and q.moved_to != p.moved_to and p.moved_to.exists()


def test_an_unwritable_folder_is_reported_plainly(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(ProgressError, match="cannot create the progress folder"):
        Progress(blocker / "sub" / "p.sqlite3")


def test_cli_progress_shows_the_progress(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SCATLAB_HOME", str(tmp_path))
    p = Progress()
    p.record_answer("01-the-game", "value", "q", "a", correct=True)
    p.finish_lesson("01-the-game")
    p.record_stars("02-draw-or-take", "2.3", 2)
    assert main(["progress"]) == 0
    out = capsys.readouterr().out
    assert "1. The game in five minutes" in out and " finished " in out and "1 of 1 right" in out
    assert "stars 0 of 3" in out and "stars 2 of 12" in out  # lesson 1 has one step, lesson 2 four
    assert "practice rating" not in out
    p.record_practice("knock-0-1", "knock", 1, True)
    assert main(["progress"]) == 0
    assert f"practice rating: {p.practice_rating()}" in capsys.readouterr().out


def test_cli_progress_shows_an_appendixs_answers_as_optional(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An appendix never counts as a lesson: its answers get an "optional" line of their own."""
    monkeypatch.setenv("SCATLAB_HOME", str(tmp_path))
    Progress().record_answer("appendix-skat", "skat-value", "q", "36", correct=False)
    assert main(["progress"]) == 0
    out = capsys.readouterr().out
    assert "  optional: Skat" in out and "0 of 1 right" in out and "appendix-skat" not in out
    assert "7. Not this game" in out and out.count("no answers yet") == 8


def _run(args: list[str], home: Path, stdin: str | None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SCATLAB_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "scatlab", *args],
        input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def test_cli_reset_asks_before_deleting(tmp_path: Path) -> None:
    Progress(tmp_path / "progress.sqlite3").finish_lesson("01")
    no = _run(["progress", "--reset"], tmp_path, "n\n")
    assert no.returncode == 1 and "Delete" in no.stdout and "nothing deleted" in no.stdout.lower()
    assert Progress(tmp_path / "progress.sqlite3").finished_lessons() == {"01"}
    yes = _run(["progress", "--reset"], tmp_path, "y\n")
    assert yes.returncode == 0, yes.stderr
    assert Progress(tmp_path / "progress.sqlite3").finished_lessons() == set()


def test_cli_reset_with_no_stdin_deletes_nothing(tmp_path: Path) -> None:
    Progress(tmp_path / "progress.sqlite3").finish_lesson("01")
    run = _run(["progress", "--reset"], tmp_path, None)
    assert run.returncode == 1 and "nothing deleted" in run.stdout.lower()
    assert "Traceback" not in run.stderr
    assert Progress(tmp_path / "progress.sqlite3").finished_lessons() == {"01"}


def test_cli_reset_yes_skips_the_question(tmp_path: Path) -> None:
    Progress(tmp_path / "progress.sqlite3").finish_lesson("01")
    run = _run(["progress", "--reset", "--yes"], tmp_path, None)
    assert run.returncode == 0, run.stderr
    assert Progress(tmp_path / "progress.sqlite3").finished_lessons() == set()


# -- helpers: another process holding the file, the file's bytes, permissions that hold ------


def _digest(path: Path) -> str:
    """sha256 of the database file, its WAL checkpointed first (nothing committed is left
    in the -wal, so equal digests mean equal databases)."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _set_aside(folder: Path) -> list[str]:
    """The names of the main files set aside in ``folder`` (not their -wal, -shm)."""
    return sorted(p.name for p in folder.iterdir() if ".damaged-" in p.name and not p.name.endswith(("-wal", "-shm")))


def _good_database(path: Path) -> None:
    p = Progress(path)
    p.record_answer("01-the-game", "value", "AH KH 4C", "21", correct=True)
    p.finish_lesson("01-the-game")


def _hold(path: str, exclusive_mode: bool, held: Any, release: Any) -> None:
    """Another program: a write transaction (BEGIN EXCLUSIVE) held until told to let go;
    with ``exclusive_mode`` (``PRAGMA locking_mode = EXCLUSIVE``) readers are locked out too."""
    conn = sqlite3.connect(path, isolation_level=None)
    if exclusive_mode:
        conn.execute("PRAGMA locking_mode = EXCLUSIVE")
    conn.execute("BEGIN EXCLUSIVE")
    conn.execute("SELECT COUNT(*) FROM answers").fetchone()
    held.set()
    release.wait(60)
    conn.execute("ROLLBACK")
    conn.close()


@contextlib.contextmanager
def _held_by_another_process(path: Path, *, exclusive_mode: bool) -> Iterator[None]:
    ctx = multiprocessing.get_context("spawn")
    held, release = ctx.Event(), ctx.Event()
    proc = ctx.Process(target=_hold, args=(str(path), exclusive_mode, held, release))
    proc.start()
    try:
        assert held.wait(60), "the other process did not take its lock"
        yield
    finally:
        release.set()
        proc.join(60)
    assert proc.exitcode == 0


def _as_nobody(send: Connection, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
    try:
        os.setgroups([])
        os.setgid(65534)
        os.setuid(65534)
    except OSError as exc:
        send.send(("skip", f"cannot drop root's privileges to test file permissions: {exc}"))
        return
    try:
        send.send(("ok", fn(*args)))
    except BaseException:  # noqa: BLE001 - reported to the test
        send.send(("error", traceback.format_exc()))


def _where_permissions_apply(fn: Callable[..., _R], *args: Any) -> _R:
    """``fn(*args)`` where file permissions hold: in this process unless it runs as root;
    as root (who may write any file) in a forked child that first drops to ``nobody``
    (65534), so a read-only file or folder is truly read-only to the code under test."""
    if os.geteuid() != 0:
        return fn(*args)
    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_as_nobody, args=(send, fn, args))
    child.start()
    send.close()
    try:
        assert receive.poll(60), "the unprivileged child did not answer"
        status, value = receive.recv()
    finally:
        child.join(30)
    if status == "skip":
        pytest.skip(value)
    assert status == "ok", value
    return value  # type: ignore[no-any-return]


@contextlib.contextmanager
def _folder_for_nobody() -> Iterator[Path]:
    """A folder the unprivileged child can reach (pytest's tmp_path is root's, mode 0700)."""
    folder = Path(tempfile.mkdtemp(prefix="scatlab-progress-ro-"))
    try:
        yield folder
    finally:
        for root, dirs, _files in os.walk(folder):
            for d in dirs:
                os.chmod(os.path.join(root, d), 0o755)
        os.chmod(folder, 0o755)
        shutil.rmtree(folder)


def _give_to_nobody(folder: Path) -> None:
    if os.geteuid() == 0:
        for path in [folder, *folder.iterdir()]:
            os.chown(path, 65534, 65534)


# -- a busy or locked file is never a damaged one ---------------------------------------------


def test_a_write_lock_held_past_the_timeout_lets_reads_through_refuses_writes_and_moves_nothing(tmp_path: Path) -> None:
    path = tmp_path / "progress.sqlite3"
    _good_database(path)
    before = _digest(path)
    with _held_by_another_process(path, exclusive_mode=False):
        p = Progress(path, timeout=0.5)  # the schema is there: opening writes nothing
        assert p.notice is None and p.moved_to is None
        assert [a.answer for a in p.answers()] == ["21"] and p.finished_lessons() == {"01-the-game"}
        with pytest.raises(
            ProgressError, match=r"is locked by another program .* longer than 0\.5 s, so nothing was saved"
        ):
            p.record_answer("01-the-game", "value", "q", "a", correct=True)
        with pytest.raises(ProgressError, match="locked by another program"):
            p.save_game("evening game", _record())
    assert _set_aside(tmp_path) == []
    assert _digest(path) == before
    assert [a.answer for a in Progress(path).answers()] == ["21"]


def test_a_file_locked_against_readers_past_the_timeout_is_refused_in_one_line_and_not_renamed(tmp_path: Path) -> None:
    path = tmp_path / "progress.sqlite3"
    _good_database(path)
    before = _digest(path)
    with _held_by_another_process(path, exclusive_mode=True):
        with pytest.raises(ProgressError) as caught:
            Progress(path, timeout=0.5)
        assert "is locked by another program" in str(caught.value) and str(path) in str(caught.value)
        assert "\n" not in str(caught.value) and "damaged" not in str(caught.value)
        assert path.exists() and _set_aside(tmp_path) == []
    assert _set_aside(tmp_path) == []
    assert _digest(path) == before
    assert Progress(path).finished_lessons() == {"01-the-game"}


# -- read-only files and folders ---------------------------------------------------------------


def _use_read_only(path: str) -> dict[str, Any]:
    """Open, read, try three writes; report what happened (runs where permissions hold)."""
    out: dict[str, Any] = {
        "file writable": os.access(path, os.W_OK),
        "folder writable": os.access(os.path.dirname(path), os.W_OK),
    }
    p = Progress(path, timeout=0.5)
    out.update(
        read_only=p.read_only,
        notice=p.notice,
        moved_to=p.moved_to,
        answers=[a.answer for a in p.answers()],
        finished=p.finished_lessons(),
        games=len(p.saved_games()),
    )
    errors = []
    writes: list[Callable[[], None]] = [
        lambda: p.record_answer("01-the-game", "value", "q", "a", correct=True),
        lambda: p.finish_lesson("02-draw-or-take"),
        p.reset,
    ]
    for write in writes:
        try:
            write()
            errors.append("written")
        except ProgressError as exc:
            errors.append(str(exc))
    out["errors"] = errors
    return out


@pytest.mark.parametrize("what", ["file", "folder"])
def test_a_read_only_file_or_folder_opens_read_only_reads_work_writes_are_refused_nothing_moves(what: str) -> None:
    with _folder_for_nobody() as folder:
        path = folder / "progress.sqlite3"
        _good_database(path)
        before = _digest(path)
        if what == "folder":
            (folder / "progress.sqlite3.lock").unlink()  # a database copied into a read-only folder
        _give_to_nobody(folder)
        os.chmod(path if what == "file" else folder, 0o444 if what == "file" else 0o555)
        seen = _where_permissions_apply(_use_read_only, str(path))
        os.chmod(folder, 0o755)
        assert seen["file writable" if what == "file" else "folder writable"] is False  # truly read-only there
        assert seen["read_only"] is True and seen["moved_to"] is None
        why = "the file is read-only" if what == "file" else f"its folder {str(folder)!r} is read-only"
        assert seen["notice"] is not None and why in seen["notice"] and "unreadable" not in seen["notice"]
        assert seen["answers"] == ["21"] and seen["finished"] == {"01-the-game"} and seen["games"] == 0
        assert [e.split(", so ")[1].split(";")[0] for e in seen["errors"]] == [
            "nothing was saved",
            "nothing was saved",
            "nothing was deleted",
        ]
        assert all(f"is read-only ({why})" in e and str(path) in e for e in seen["errors"])
        assert _set_aside(folder) == [] and stat.S_IMODE(path.stat().st_mode) == (0o444 if what == "file" else 0o600)
        os.chmod(path, 0o644)  # so that _digest can checkpoint as any user
        assert _digest(path) == before


def _open_refused(path: str) -> str:
    try:
        Progress(path, timeout=0.5)
    except ProgressError as exc:
        return str(exc)
    return "opened"


@pytest.mark.parametrize("what", ["not SQLite", "another program's database"])
def test_a_damaged_file_in_a_read_only_folder_is_refused_and_left_as_it_is(what: str) -> None:
    with _folder_for_nobody() as folder:
        path = folder / "progress.sqlite3"
        if what == "not SQLite":
            path.write_bytes(_damaged_bytes(0))
        else:
            _foreign_database(path, 0)
        before = path.read_bytes()
        _give_to_nobody(folder)
        os.chmod(folder, 0o555)
        refused = _where_permissions_apply(_open_refused, str(path))
        os.chmod(folder, 0o755)
        reason = (
            "it is not a readable SQLite database" if what == "not SQLite" else "another program (tables: invoices)"
        )
        assert reason in refused and f"cannot be set aside: its folder {str(folder)!r} is read-only" in refused
        assert path.read_bytes() == before and _set_aside(folder) == []


# -- racing openers of a damaged file ---------------------------------------------------------


def _damaged_bytes(round_: int) -> bytes:
    return f"round {round_}: my diary, not a database. ".encode() * 300


def _foreign_database(path: Path, round_: int) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE invoices (n INTEGER)")
    conn.execute("INSERT INTO invoices VALUES (?)", (round_,))
    conn.commit()
    conn.close()


def _open_each_round(folder: str, worker: int, rounds: int, rows: int, barrier: Any) -> None:
    inspect = Progress._inspect

    def slow_inspect(self: ProgressFile, deadline: float) -> tuple[str, str]:
        verdict = inspect(self, deadline)
        time.sleep(0.05)  # a slow disk: widens the gap between the check and the move (no timing is asserted)
        return verdict

    Progress._inspect = slow_inspect  # type: ignore[method-assign]  # in this worker process only
    for r in range(rounds):
        barrier.wait()  # all four open round r's file at once
        p = Progress(os.path.join(folder, f"round{r}", "progress.sqlite3"), timeout=60)
        for i in range(rows):
            p.record_answer("race", f"w{worker}", str(i), "a", correct=True)


def test_four_processes_opening_one_damaged_file_set_it_aside_once_and_lose_no_row(tmp_path: Path) -> None:
    rounds, workers, rows = 5, 4, 3
    originals: list[bytes] = []
    for r in range(rounds):
        (tmp_path / f"round{r}").mkdir()
        path = tmp_path / f"round{r}" / "progress.sqlite3"
        if r % 2:
            _foreign_database(path, r)  # SQLite's own file of another program: opened, judged, set aside
        else:
            path.write_bytes(_damaged_bytes(r))  # not SQLite at all
        originals.append(path.read_bytes())
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(workers, timeout=120)
    procs = [
        ctx.Process(target=_open_each_round, args=(str(tmp_path), w, rounds, rows, barrier)) for w in range(workers)
    ]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(180)
    assert [proc.exitcode for proc in procs] == [0] * workers  # no process died
    for r in range(rounds):
        folder = tmp_path / f"round{r}"
        [kept] = _set_aside(folder)  # exactly one copy: no live database was moved
        assert (folder / kept).read_bytes() == originals[r]
        answers = Progress(folder / "progress.sqlite3").answers("race")
        assert sorted((a.exercise, a.question) for a in answers) == sorted(
            (f"w{w}", str(i)) for w in range(workers) for i in range(rows)
        )


def _open_when_told(path: str, ready: Any, go: Any, done: Any, rows: int) -> None:
    ready.set()
    assert go.wait(60)
    p = Progress(path, timeout=60)
    for i in range(rows):
        p.record_answer("race", "a", str(i), "a", correct=True)
    done.set()


def test_an_opener_waits_while_another_checks_and_sets_aside_so_its_rows_stay_in_the_live_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tester's forced order: B has checked the damaged file; A opens it and writes 20
    rows; only then would B move the file aside. Under the lock A cannot open until B has
    set the file aside and made the new one, so A's rows land in the live file."""
    path = tmp_path / "progress.sqlite3"
    path.write_bytes(_damaged_bytes(0))
    ctx = multiprocessing.get_context("spawn")
    ready, go, done = ctx.Event(), ctx.Event(), ctx.Event()
    a = ctx.Process(target=_open_when_told, args=(str(path), ready, go, done, 20))
    a.start()
    assert ready.wait(60)
    inspect = Progress._inspect
    finished_before_b_moved: list[bool] = []

    def check_then_let_a_run(self: Progress, deadline: float) -> tuple[str, str]:
        verdict = inspect(self, deadline)
        go.set()  # A opens and writes now, if anything lets it
        finished_before_b_moved.append(done.wait(1.5))
        return verdict

    monkeypatch.setattr(Progress, "_inspect", check_then_let_a_run)
    b = Progress(path)
    monkeypatch.undo()
    a.join(60)
    assert a.exitcode == 0
    assert finished_before_b_moved == [False]  # A waited for B's lock
    assert b.moved_to is not None and b.moved_to.read_bytes() == _damaged_bytes(0)
    assert _set_aside(tmp_path) == [b.moved_to.name]
    assert sorted(int(x.question) for x in Progress(path).answers("race")) == list(range(20))


# -- what is not a file -------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["symlink to /dev/null", "FIFO", "folder"])
def test_a_device_a_fifo_or_a_folder_in_the_files_place_is_refused_in_one_line_and_left_alone(
    tmp_path: Path, kind: str
) -> None:
    path = tmp_path / "progress.sqlite3"
    if kind == "FIFO":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
        (path / "keep.txt").write_text("mine")
    else:
        path.symlink_to("/dev/null")
    run = _run(["progress"], tmp_path, None)  # in a subprocess with a timeout: a FIFO must not hang it
    words = {
        "FIFO": "is a named pipe (FIFO), not a file",
        "folder": "is a folder, not a file",
        "symlink to /dev/null": "is a device, not a file",
    }[kind]
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.count("\n") == 1 and words in run.stderr and repr(str(path)) in run.stderr
    assert "Traceback" not in run.stderr and "OperationalError" not in run.stderr
    assert _set_aside(tmp_path) == []
    mode = os.lstat(path).st_mode
    assert {"FIFO": stat.S_ISFIFO, "folder": stat.S_ISDIR, "symlink to /dev/null": stat.S_ISLNK}[kind](mode)
    with pytest.raises(ProgressError, match="not a file"):
        if kind != "FIFO":  # the same refusal from the Python API (a FIFO was shown not to hang above)
            Progress(path)
        else:
            Progress(path, timeout=0)


def test_a_scatlab_database_with_tables_this_version_does_not_know_is_used_not_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "progress.sqlite3"
    _good_database(path)
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE badges (name TEXT)")  # as a newer scatlab might
    conn.commit()
    conn.close()
    p = Progress(path)
    assert p.notice is None and p.moved_to is None and _set_aside(tmp_path) == []
    assert p.finished_lessons() == {"01-the-game"}


def test_a_file_removed_while_open_gives_a_progress_error_not_a_sqlite3_error(tmp_path: Path) -> None:
    path = tmp_path / "progress.sqlite3"
    p = Progress(path)
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    with pytest.raises(ProgressError, match="is gone .*so nothing was saved"):
        p.record_answer("01", "value", "q", "a", correct=True)
    with pytest.raises(ProgressError, match="is gone .*so it could not be read"):
        p.answers()
    assert not path.exists()  # a read or a write never makes an empty file in its place


# -- game ids ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "bad, words",
    [
        (10**23, "no saved game has id 100000000000000000000000;"),
        (2**63, f"no saved game has id {2**63};"),
        (-1, "no saved game has id -1;"),
        ("x", "a saved game's id is a whole number such as 3, not 'x'"),
        ("3", "a saved game's id is a whole number such as 3, not '3'"),
        (None, "a saved game's id is a whole number such as 3, not None"),
        (True, "a saved game's id is a whole number such as 3, not True"),
        (1.5, "a saved game's id is a whole number such as 3, not 1.5"),
    ],
    ids=["10**23", "2**63", "-1", "'x'", "'3'", "None", "True", "1.5"],
)
def test_load_game_refuses_what_is_not_a_saved_games_id_quoting_it(tmp_path: Path, bad: Any, words: str) -> None:
    p = Progress(tmp_path / "p.sqlite3")
    gid = p.save_game("kept", _record())
    with pytest.raises(ProgressError) as caught:
        p.load_game(bad)
    assert words in str(caught.value)
    assert p.load_game(gid).name == "kept"


@pytest.mark.parametrize(
    "text, words",
    [
        (
            "99999999999999999999999",
            "There is no saved game 99999999999999999999999 here: open a saved game from the course index.",
        ),
        ("9" * 5000, "There is no saved game 99999"),
        ("x", "'x' is not the number of a saved game: open a saved game from the course index."),
        ("", "'' is not the number of a saved game"),
        ("1.5", "'1.5' is not the number of a saved game"),
    ],
    ids=["23 digits", "5000 digits", "x", "empty", "1.5"],
)
def test_lesson_8s_game_parameter_goes_through_the_same_check_and_shows_the_message(
    tmp_path: Path, text: str, words: str
) -> None:
    from scatlab.course.widgets.game_with_hints import GameWithHints

    g = GameWithHints(progress=Progress(tmp_path / "p.sqlite3"), game=text, pace=0)
    shown = html.unescape(g.status.value)
    assert "Cannot reopen game" in shown and words in shown and len(shown) < 400
    assert g.table.session.state.hand_number == 1  # a new game is on the table


def test_lesson_8s_game_given_as_a_number_from_python_goes_to_load_game_as_it_is(tmp_path: Path) -> None:
    from scatlab.course.widgets.game_with_hints import GameWithHints

    g = GameWithHints(progress=Progress(tmp_path / "p.sqlite3"), game=10**30, pace=0)
    assert f"Cannot reopen game {10**30}: There is no saved game {10**30} here:" in html.unescape(g.status.value)


@pytest.mark.parametrize("game", ["12", "x", "9" * 60])
def test_lesson_8s_bad_game_parameter_shows_the_learner_plain_words_without_api_names(
    tmp_path: Path, game: str
) -> None:
    """Issue 52: a bad ``?game=`` showed the learner "see Progress.saved_games()"."""
    from scatlab.course.widgets.game_with_hints import GameWithHints

    shown = html.unescape(GameWithHints(progress=Progress(tmp_path / "p.sqlite3"), game=game, pace=0).status.value)
    assert "open a saved game from the course index." in shown
    assert "Progress" not in shown and "saved_games" not in shown and "()" not in shown and " id " not in shown
    if game == "12":
        assert "There is no saved game 12 here: open a saved game from the course index." in shown


# -- the widgets and the CLI when the file cannot be used ---------------------------------------


def test_saving_a_game_with_a_201_character_name_shows_why_and_saves_nothing(tmp_path: Path) -> None:
    from scatlab.course.widgets.game_with_hints import GameWithHints

    p = Progress(tmp_path / "p.sqlite3")
    g = GameWithHints(progress=p, pace=0)
    g.table.handle({"type": "stock"})
    before = g.table.session.record_json()
    g.save_name.value = "n" * 201
    g.save_button.click()
    assert "Not saved" in g.status.value and "(201 characters) is not accepted" in g.status.value
    assert "at most 200 characters" in g.status.value
    assert p.saved_games() == []
    assert g.table.session.record_json() == before  # the learner's game stays on the table
    g.save_name.value = "n" * 200
    g.save_button.click()
    assert "Saved as" in g.status.value and [s.name for s in p.saved_games()] == ["n" * 200]


def test_the_widgets_show_a_locked_file_instead_of_raising_out_of_a_callback(tmp_path: Path) -> None:
    from scatlab.course.widgets.course import course_index, lesson_footer
    from scatlab.course.widgets.exercises import ExerciseWidget
    from scatlab.course.widgets.game_with_hints import GameWithHints

    path = tmp_path / "progress.sqlite3"
    _good_database(path)
    p = Progress(path, timeout=0.3)
    exercise = ExerciseWidget("take-or-draw", progress=p)
    footer = lesson_footer("03-knocking", progress=p)
    game = GameWithHints(progress=p, pace=0)
    with _held_by_another_process(path, exclusive_mode=True):
        exercise.answer(exercise.question.solution)
        assert "Right" in exercise.feedback.value and "This answer was not kept" in exercise.feedback.value
        assert "locked by another program" in exercise.feedback.value
        footer.children[0].children[0].click()
        status = footer.children[0].children[1].value
        assert status.startswith("Not kept: ") and "locked by another program" in status
        index = course_index(progress=p).children[0].value
        assert "Progress cannot be shown" in index and "locked by another program" in index
        game.save_button.click()
        assert "Not saved" in game.status.value and "locked by another program" in game.status.value
        game.reopen("1")
        assert "Cannot reopen game 1" in game.status.value and "locked by another program" in game.status.value
    assert Progress(path).answers("02-draw-or-take") == [] and Progress(path).saved_games() == []


@pytest.mark.parametrize("lock", ["write lock", "exclusive lock"])
def test_cli_progress_on_a_locked_file_is_one_line_and_exit_status_2(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str], lock: str
) -> None:
    monkeypatch.setenv("SCATLAB_HOME", str(tmp_path))
    monkeypatch.setattr(store_module, "DEFAULT_TIMEOUT", 0.5)
    path = tmp_path / "progress.sqlite3"
    _good_database(path)
    with _held_by_another_process(path, exclusive_mode=lock == "exclusive lock"):
        # a write lock lets the progress be shown; deleting it, or anything, under an exclusive lock is refused
        status = main(["progress", "--reset", "--yes"] if lock == "write lock" else ["progress"])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("scatlab progress: error: the progress file ")
    assert "is locked by another program" in err and "Traceback" not in err
    assert _set_aside(tmp_path) == [] and Progress(path).finished_lessons() == {"01-the-game"}


def _cli_in(home: str, argv: list[str]) -> tuple[int, str, str]:
    """``main(argv)`` with SCATLAB_HOME=home: its status, standard output and error."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdout, sys.stderr, os.environ.get("SCATLAB_HOME")
    sys.stdout, sys.stderr, os.environ["SCATLAB_HOME"] = out, err, home
    try:
        status = main(argv)
    finally:
        sys.stdout, sys.stderr = saved[0], saved[1]
        if saved[2] is None:
            del os.environ["SCATLAB_HOME"]
        else:
            os.environ["SCATLAB_HOME"] = saved[2]
    return status, out.getvalue(), err.getvalue()


def test_cli_progress_on_a_read_only_file_shows_it_and_refuses_reset_in_one_line() -> None:
    with _folder_for_nobody() as folder:
        path = folder / "progress.sqlite3"
        _good_database(path)
        _give_to_nobody(folder)
        os.chmod(path, 0o444)
        shown = _where_permissions_apply(_cli_in, str(folder), ["progress"])
        reset = _where_permissions_apply(_cli_in, str(folder), ["progress", "--reset", "--yes"])
        assert shown[0] == 0 and "1 of 1 right" in shown[1]
        assert shown[2].count("\n") == 1 and "is read-only (the file is read-only)" in shown[2]
        assert reset[0] == 2 and reset[1] == ""
        assert reset[2].count("\n") == 1 and reset[2].startswith("scatlab progress: error: the progress file ")
        assert "is read-only (the file is read-only), so nothing was deleted" in reset[2]
        assert "Traceback" not in reset[2] and _set_aside(folder) == []
        os.chmod(path, 0o644)
        assert Progress(path).finished_lessons() == {"01-the-game"}


# -- symbolic links and missing folders (issue 52) ----------------------------------------------


def _refused_through_a_link(tmp_path: Path, target: Path) -> tuple[Path, str]:
    """A progress path ``home/progress.sqlite3`` linked to ``target``, which the store must
    refuse: the link and the refusal, which names both the link and its target."""
    link = tmp_path / "home" / "progress.sqlite3"
    link.parent.mkdir()
    link.symlink_to(target)
    with pytest.raises(ProgressError) as caught:
        Progress(link, timeout=0)
    message = str(caught.value)
    assert repr(str(link)) in message and repr(str(target)) in message
    return link, message


@pytest.mark.parametrize(
    "target_holds", [b"root:x:0:0:root:/root:/bin/bash\n", b"", b"SQLite format 3\x00" + b"\x00" * 200]
)
def test_a_symlink_to_a_file_that_is_not_a_scatlab_database_is_refused_and_neither_is_touched(
    tmp_path: Path, target_holds: bytes
) -> None:
    """Issue 52: the link's target (as root, /etc/passwd) was renamed aside and replaced."""
    elsewhere = tmp_path / "etc"
    elsewhere.mkdir()
    target = elsewhere / "passwd"
    target.write_bytes(target_holds)
    link, message = _refused_through_a_link(tmp_path, target)
    assert "is a symbolic link to" in message
    assert "not a scatlab progress database" in message
    assert target.read_bytes() == target_holds and link.is_symlink() and os.readlink(link) == str(target)
    assert sorted(p.name for p in elsewhere.iterdir()) == ["passwd"]  # nothing renamed, no .lock or -wal beside it


def test_a_symlink_to_a_scatlab_database_keeps_working(tmp_path: Path) -> None:
    real = tmp_path / "real.sqlite3"
    Progress(real).finish_lesson("01")
    link = tmp_path / "progress.sqlite3"
    link.symlink_to(real)
    p = Progress(link)
    p.finish_lesson("02")
    assert p.notice is None and Progress(real).finished_lessons() == {"01", "02"} and link.is_symlink()


@pytest.mark.parametrize("where", ["missing folder", "file in the way"])
def test_a_dangling_symlink_says_its_target_does_not_exist_not_that_a_folder_is_read_only(
    tmp_path: Path, where: str
) -> None:
    """Issue 52: a dangling link's error said its (missing) folder "is read-only"."""
    if where == "file in the way":
        (tmp_path / "nowhere").write_text("a file")
    target = tmp_path / "nowhere" / "progress.sqlite3"
    link = tmp_path / "progress.sqlite3"
    link.symlink_to(target)
    with pytest.raises(ProgressError) as caught:
        Progress(link, timeout=0)
    message = str(caught.value)
    assert f"is a symbolic link to {str(target)!r}, a path that does not exist" in message
    assert "read-only" not in message and link.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == (
        ["progress.sqlite3"] if where == "missing folder" else ["nowhere", "progress.sqlite3"]
    )  # nothing made: no folder, no .lock


def test_a_file_in_the_way_of_the_progress_folder_is_named_as_such(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(ProgressError) as caught:
        Progress(blocker / "sub" / "p.sqlite3")
    assert f"{str(blocker)!r} is a file, not a folder" in str(caught.value) and blocker.read_text() == "x"


def test_a_learners_progress_is_theirs_alone_folder_0700_files_0600(tmp_path: Path) -> None:
    """A class is hostile ground: the folder scatlab makes for the progress is 0700, the
    file and its lock, -wal and -shm files 0600, whatever the umask; a file an older version
    left 0644 is made 0600 when it is opened again."""
    old = os.umask(0o022)
    try:
        path = tmp_path / "home" / "ada" / "progress.db"
        p = Progress(path)
        p.record_answer("01-the-game", "hand-value", "q", "21", correct=True)
        assert stat.S_IMODE(os.stat(path.parent).st_mode) == 0o700
        files = [f for f in path.parent.iterdir() if f.name.startswith("progress.db")]
        assert path in files and len(files) >= 2  # the file and its lock at least
        for f in files:
            assert stat.S_IMODE(os.stat(f).st_mode) == 0o600, f.name
        for f in files:
            os.chmod(f, 0o644)
        Progress(path).answers()
        for f in files:
            if f.exists():
                assert stat.S_IMODE(os.stat(f).st_mode) == 0o600, f.name
    finally:
        os.umask(old)


@pytest.mark.parametrize("empty", ["no bytes", "no tables"])
def test_an_empty_sqlite_file_at_the_progress_path_is_used_not_set_aside(tmp_path: Path, empty: str) -> None:
    """A file of no bytes, or a SQLite database with no table yet, is an empty database, not
    a damaged one: the store sets up its tables in it, keeps what is written and moves
    nothing aside."""
    path = tmp_path / "progress.sqlite3"
    if empty == "no bytes":
        path.write_bytes(b"")
    else:
        conn = sqlite3.connect(path)
        conn.execute("CREATE TABLE t (x)")
        conn.execute("DROP TABLE t")
        conn.commit()
        conn.close()
        assert path.stat().st_size > 0
    p = Progress(path)
    p.record_answer("01-the-game", "hand-value", "q", "21", correct=True)
    assert p.notice is None and p.moved_to is None and _set_aside(tmp_path) == []
    assert [a.answer for a in Progress(path).answers()] == ["21"]


def test_a_damaged_scatlab_database_behind_a_symlink_is_never_renamed_through_the_link(tmp_path: Path) -> None:
    """A progress database of scatlab's whose pages are damaged, reached through a symbolic
    link: the store refuses it with a message naming the link and its target, and leaves
    both as they are (no rename through the link, no new file beside the target)."""
    real = tmp_path / "elsewhere" / "real.sqlite3"
    real.parent.mkdir()
    _good_database(real)
    for suffix in ("-wal", "-shm"):
        Path(str(real) + suffix).unlink(missing_ok=True)
    data = bytearray(real.read_bytes())
    data[100:] = b"\x5a" * (len(data) - 100)  # the header (and scatlab's application id) kept, the pages not
    real.write_bytes(bytes(data))
    before = sorted(p.name for p in real.parent.iterdir())
    link, message = _refused_through_a_link(tmp_path, real)
    assert "leaves the link and its target" in message
    assert link.is_symlink() and os.readlink(link) == str(real) and real.read_bytes() == bytes(data)
    assert sorted(p.name for p in real.parent.iterdir()) == before and _set_aside(real.parent) == []
