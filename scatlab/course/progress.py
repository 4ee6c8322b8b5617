"""A learner's progress: exercise answers, lessons finished and saved games, kept in SQLite.

The database is ``progress.sqlite3`` in the user's data folder: ``$SCATLAB_HOME`` when set
(one folder per JupyterHub user comes for free), else ``$XDG_DATA_HOME/scatlab``, else
``~/.local/share/scatlab``. It uses the standard library's :mod:`sqlite3` in WAL mode.

Promises, each tested:

- **Two writers lose nothing.** Every change is one short ``BEGIN IMMEDIATE`` transaction
  on a fresh connection with a generous busy timeout, so two pages (two kernels, two
  processes) writing at once both get their rows in.
- **A damaged or foreign file is never silently overwritten.** A file that is not a
  SQLite database, fails SQLite's ``quick_check``, or is a SQLite database of another
  program (its ``application_id`` is not scatlab's and it holds tables) is renamed aside
  with a UTC timestamp (``progress.sqlite3.damaged-20261130T002233Z``), a fresh database
  is made, and :attr:`Progress.notice` says so in plain words (the CLI and the index page
  show it).

>>> import tempfile, os
>>> home = tempfile.mkdtemp()
>>> p = Progress(os.path.join(home, "progress.sqlite3"))
>>> p.record_answer("01-the-game", "hand-value", "AH KH 4C", "21", correct=True)
>>> p.finish_lesson("01-the-game")
>>> s = p.summary()["01-the-game"]
>>> (s.answered, s.correct, s.finished)
(1, 1, True)
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ..errors import ScatlabError

__all__ = [
    "ProgressError",
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "data_home",
    "default_path",
    "Answer",
    "LessonProgress",
    "SavedGame",
    "Progress",
]

APPLICATION_ID = 0x53434154  # "SCAT"
"""SQLite ``PRAGMA application_id`` that marks a scatlab progress database."""
SCHEMA_VERSION = 1
"""SQLite ``PRAGMA user_version`` of the schema this module writes."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS answers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    lesson TEXT NOT NULL,
    exercise TEXT NOT NULL,
    question TEXT NOT NULL,
    answer TEXT NOT NULL,
    correct INTEGER NOT NULL,
    at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS lessons (
    lesson TEXT PRIMARY KEY,
    finished_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    record TEXT NOT NULL,
    at REAL NOT NULL
);
"""
_OUR_TABLES = {"answers", "lessons", "games", "sqlite_sequence"}


class ProgressError(ScatlabError):
    """The progress database cannot be used: its folder cannot be written, or a saved game
    or lesson name is not acceptable."""


def data_home() -> Path:
    """The folder that holds scatlab's data (see the module docstring).

    >>> import os
    >>> os.environ["SCATLAB_HOME"] = "/tmp/somewhere"
    >>> str(data_home())
    '/tmp/somewhere'
    >>> del os.environ["SCATLAB_HOME"]
    """
    home = os.environ.get("SCATLAB_HOME")
    if home:
        return Path(home).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg).expanduser() if xdg and Path(xdg).is_absolute() else Path.home() / ".local" / "share"
    return base / "scatlab"


def default_path() -> Path:
    """``data_home() / "progress.sqlite3"``."""
    return data_home() / "progress.sqlite3"


@dataclass(frozen=True)
class Answer:
    """One answer given to one exercise question."""

    lesson: str
    exercise: str
    question: str
    answer: str
    correct: bool
    at: float


@dataclass(frozen=True)
class LessonProgress:
    """What a learner has done in one lesson."""

    lesson: str
    answered: int
    correct: int
    finished: bool


@dataclass(frozen=True)
class SavedGame:
    """A saved game: its id, name, time and the engine's JSON record."""

    id: int
    name: str
    at: float
    record: str


def _timestamp() -> str:
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())


class Progress:
    """The progress database at ``path`` (default :func:`default_path`).

    Opening checks the file once: a damaged or foreign file is moved aside and replaced
    (see :attr:`notice`). Every method opens its own short connection, so one object can
    be shared by widget callbacks and several objects (processes) by one file.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, *, timeout: float = 30.0) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.timeout = timeout
        self.notice: str | None = None
        """A plain-words report when the file found was damaged or foreign, else ``None``."""
        self.moved_to: Path | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ProgressError(
                f"cannot create the progress folder {str(self.path.parent)!r}: {exc.strerror}; "
                "set SCATLAB_HOME to a folder you can write"
            ) from None
        problem = self._check()
        if problem is not None:
            self._move_aside(problem)
        self._create()

    # -- opening, checking, replacing ------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None)
        conn.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")
        return conn

    def _check(self) -> str | None:
        """Why the existing file cannot be used, or None (also for no file yet)."""
        if not self.path.exists():
            return None
        if self.path.is_dir():
            return "it is a folder, not a file"
        if self.path.stat().st_size == 0:
            return None
        try:
            conn = self._connect()
            try:
                app_id = conn.execute("PRAGMA application_id").fetchone()[0]
                tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
                check = conn.execute("PRAGMA quick_check").fetchone()[0]
            finally:
                conn.close()
        except sqlite3.DatabaseError as exc:
            return f"it is not a readable SQLite database ({exc})"
        if check != "ok":
            return f"SQLite's integrity check failed ({check})"
        if app_id != APPLICATION_ID and tables:
            return f"it is a SQLite database of another program (tables: {', '.join(sorted(tables))})"
        if app_id == APPLICATION_ID and not _OUR_TABLES >= tables:
            return f"it has tables scatlab does not know ({', '.join(sorted(tables - _OUR_TABLES))})"
        return None

    def _move_aside(self, problem: str) -> None:
        target = self.path.with_name(f"{self.path.name}.damaged-{_timestamp()}")
        n = 1
        while target.exists():
            n += 1
            target = self.path.with_name(f"{self.path.name}.damaged-{_timestamp()}-{n}")
        try:
            self.path.rename(target)
        except FileNotFoundError:  # another process moved it first
            self.notice = f"The progress file {str(self.path)!r} was damaged and has been replaced."
            return
        except OSError as exc:
            raise ProgressError(
                f"the progress file {str(self.path)!r} cannot be used ({problem}) and cannot be moved "
                f"aside: {exc.strerror}; move it yourself or set SCATLAB_HOME"
            ) from None
        for suffix in ("-wal", "-shm"):
            side = self.path.with_name(self.path.name + suffix)
            if side.exists():
                side.rename(target.with_name(target.name + suffix))
        self.moved_to = target
        self.notice = (
            f"The progress file {str(self.path)!r} could not be used: {problem}. It was kept as "
            f"{str(target)!r} and a new, empty progress file was started."
        )

    def _create(self) -> None:
        conn = self._connect()
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("BEGIN IMMEDIATE")
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.execute("COMMIT")
        finally:
            conn.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        conn = self._connect()
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        finally:
            conn.close()

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        conn = self._connect()
        try:
            yield conn
        finally:
            conn.close()

    # -- answers and lessons ---------------------------------------------------------------

    @staticmethod
    def _name(value: str, what: str) -> str:
        if not isinstance(value, str) or not value.strip() or len(value) > 200:
            raise ProgressError(f"{what} {value!r} is not accepted: give a non-empty name of at most 200 characters")
        return value.strip()

    def record_answer(self, lesson: str, exercise: str, question: str, answer: str, *, correct: bool) -> None:
        """Keep one answer to one question."""
        lesson = self._name(lesson, "lesson")
        exercise = self._name(exercise, "exercise")
        with self._write() as conn:
            conn.execute(
                "INSERT INTO answers (lesson, exercise, question, answer, correct, at) VALUES (?, ?, ?, ?, ?, ?)",
                (lesson, exercise, str(question), str(answer), int(bool(correct)), time.time()),
            )

    def answers(self, lesson: str | None = None) -> list[Answer]:
        """Every answer kept (of one lesson when given), oldest first."""
        query = "SELECT lesson, exercise, question, answer, correct, at FROM answers"
        params: tuple[str, ...] = ()
        if lesson is not None:
            query += " WHERE lesson = ?"
            params = (lesson,)
        with self._read() as conn:
            rows = conn.execute(query + " ORDER BY id", params).fetchall()
        return [Answer(r[0], r[1], r[2], r[3], bool(r[4]), r[5]) for r in rows]

    def finish_lesson(self, lesson: str) -> None:
        """Mark a lesson finished (again: keeps the first time)."""
        lesson = self._name(lesson, "lesson")
        with self._write() as conn:
            conn.execute("INSERT OR IGNORE INTO lessons (lesson, finished_at) VALUES (?, ?)", (lesson, time.time()))

    def finished_lessons(self) -> set[str]:
        """The names of the lessons marked finished."""
        with self._read() as conn:
            return {r[0] for r in conn.execute("SELECT lesson FROM lessons")}

    def summary(self) -> dict[str, LessonProgress]:
        """Per lesson: answers given, answers right, finished or not."""
        with self._read() as conn:
            counts = conn.execute("SELECT lesson, COUNT(*), SUM(correct) FROM answers GROUP BY lesson").fetchall()
            finished = {r[0] for r in conn.execute("SELECT lesson FROM lessons")}
        out = {r[0]: LessonProgress(r[0], int(r[1]), int(r[2] or 0), r[0] in finished) for r in counts}
        for lesson in finished - out.keys():
            out[lesson] = LessonProgress(lesson, 0, 0, True)
        return out

    # -- saved games -----------------------------------------------------------------------

    def save_game(self, name: str, record: str) -> int:
        """Keep a game record (the engine's JSON, checked by loading it); returns its id."""
        from ..rules.record import GameRecord

        name = self._name(name, "game name")
        try:
            GameRecord.loads(record)
        except ScatlabError as exc:
            raise ProgressError(f"the game {name!r} cannot be saved: its record is not valid ({exc})") from None
        with self._write() as conn:
            cur = conn.execute("INSERT INTO games (name, record, at) VALUES (?, ?, ?)", (name, record, time.time()))
            return int(cur.lastrowid or 0)

    def saved_games(self) -> list[SavedGame]:
        """Every saved game, newest first."""
        with self._read() as conn:
            rows = conn.execute("SELECT id, name, at, record FROM games ORDER BY id DESC").fetchall()
        return [SavedGame(int(r[0]), r[1], r[2], r[3]) for r in rows]

    def load_game(self, game_id: int) -> SavedGame:
        """One saved game by its id."""
        with self._read() as conn:
            row = conn.execute("SELECT id, name, at, record FROM games WHERE id = ?", (int(game_id),)).fetchone()
        if row is None:
            raise ProgressError(f"no saved game has id {game_id!r}; see Progress.saved_games()")
        return SavedGame(int(row[0]), row[1], row[2], row[3])

    # -- reset -----------------------------------------------------------------------------

    def reset(self) -> None:
        """Delete every answer, finished lesson and saved game (the file stays)."""
        with self._write() as conn:
            for table in ("answers", "lessons", "games"):
                conn.execute(f"DELETE FROM {table}")
