"""The learner's progress database: WAL, two writers, damaged or foreign files, the CLI."""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from scatlab.cli import main
from scatlab.course.progress import APPLICATION_ID, Progress, ProgressError, data_home, default_path
from scatlab.rules import GameRecord, play_random_game


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
    threads = [
        threading.Thread(target=_finish_many, args=(p, tag)) for tag in ("x", "y")
    ]
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
    assert main(["progress"]) == 0
    out = capsys.readouterr().out
    assert "1. The game in five minutes" in out and " finished " in out and "1 of 1 right" in out


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
