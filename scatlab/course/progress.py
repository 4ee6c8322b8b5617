"""A learner's progress: exercise answers, lessons finished and visited, saved games, step
stars, practice answers and reviewed decisions, kept in one SQLite file.

:class:`Progress` is the records API over :class:`~scatlab.course.store.ProgressFile`, which
holds every promise about the file itself (where it lives, two writers, a damaged, locked,
read-only or odd file, symlinks; :mod:`scatlab.course.store`).

Events for elsewhere (a class database) are written in the same transaction as the record
they describe, then sent, by the event sinks that are installed (:mod:`scatlab.course.events`):
the progress store itself knows nothing of a class.

>>> import tempfile, os
>>> home = tempfile.mkdtemp()
>>> p = Progress(os.path.join(home, "progress.sqlite3"))
>>> p.record_answer("01-the-game", "hand-value", "AH KH 4C", "21", correct=True)
>>> p.finish_lesson("01-the-game")
>>> s = p.summary()["01-the-game"]
>>> (s.answered, s.correct, s.finished)
(1, 1, True)
>>> p.load_game(10**23)
Traceback (most recent call last):
...
scatlab.errors.ProgressError: no saved game has id 100000000000000000000000; see Progress.saved_games()
"""

from __future__ import annotations

import operator
import os
import sqlite3
import time
from dataclasses import dataclass
from typing import Any

from ..errors import ProgressError, ScatlabError
from . import events
from .store import APPLICATION_ID, DEFAULT_TIMEOUT, SCHEMA_VERSION, ProgressFile, data_home, default_path

__all__ = [
    "ProgressError",
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "DEFAULT_TIMEOUT",
    "data_home",
    "default_path",
    "game_id_from_text",
    "Answer",
    "LessonProgress",
    "SavedGame",
    "Progress",
]

_MAX_ID = 2**63 - 1  # SQLite integers are 64-bit


def _quote_id(value: object) -> str:
    """``repr`` of a game id as a message quotes it: an enormous number is shortened."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
        digits = len(str(value)) if value.bit_length() < 14_000 else "thousands of"
        return f"{str(value)[:20]}... (a number of {digits} digits)"
    text = repr(value)
    return text if len(text) <= 80 else text[:60] + "..." + text[-10:]


def game_id_from_text(text: str) -> int:
    """A saved game's id written as text (the course's ``?game=3``): ASCII digits only.

    >>> game_id_from_text(" 12 ")
    12
    >>> game_id_from_text("x")
    Traceback (most recent call last):
    ...
    scatlab.errors.ProgressError: 'x' is not a saved game's id: give a whole number such as 3
    """
    if not isinstance(text, str):
        raise ProgressError(f"{_quote_id(text)} is not a saved game's id: give a whole number such as 3")
    digits = text.strip()
    if not digits or not (digits.isascii() and digits.isdigit()):
        raise ProgressError(f"{_quote_id(text)} is not a saved game's id: give a whole number such as 3")
    if len(digits.lstrip("0")) > 40:  # far beyond SQLite's 64-bit ids; int() of it is never needed
        raise ProgressError(f"no saved game has id {_quote_id(digits)}; see Progress.saved_games()")
    return int(digits)


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


class Progress(ProgressFile):
    """The progress database at ``path`` (default :func:`~scatlab.course.store.default_path`),
    and the records kept in it.

    Opening checks the file once (:class:`~scatlab.course.store.ProgressFile`), then sends
    the events a previous write could not (:mod:`scatlab.course.events`). Every method
    opens its own short connection, so one object can be shared by widget callbacks and
    several objects (processes) by one file. Every failure is a :class:`ProgressError`.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, *, timeout: float | None = None) -> None:
        super().__init__(path, timeout=timeout)
        self._send_events()  # events a previous write could not send

    # -- answers and lessons ---------------------------------------------------------------

    @staticmethod
    def _name(value: str, what: str) -> str:
        if not isinstance(value, str) or not value.strip() or len(value) > 200:
            shown = repr(value) if not isinstance(value, str) or len(value) <= 60 else repr(value[:40] + "...")
            length = f" ({len(value)} characters)" if isinstance(value, str) and len(value) > 200 else ""
            raise ProgressError(
                f"{what} {shown}{length} is not accepted: give a non-empty name of at most 200 characters"
            )
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
            _queue_event(
                conn,
                "answer",
                lesson=lesson,
                step=exercise,
                correct=bool(correct),
                payload={"question": str(question), "answer": str(answer)},
            )
        self._send_events()

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
            _queue_event(conn, "finish", lesson=lesson)
        self._send_events()

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
            game_id = int(cur.lastrowid or 0)
            _queue_event(conn, "game", payload={"name": name, "id": game_id})  # never the record's cards
        self._send_events()
        return game_id

    def saved_games(self) -> list[SavedGame]:
        """Every saved game, newest first."""
        with self._read() as conn:
            rows = conn.execute("SELECT id, name, at, record FROM games ORDER BY id DESC").fetchall()
        return [SavedGame(int(r[0]), r[1], r[2], r[3]) for r in rows]

    def load_game(self, game_id: int) -> SavedGame:
        """One saved game by its id: a whole number (not a bool, a float or a string: for
        text use :func:`game_id_from_text`)."""
        if isinstance(game_id, bool) or not hasattr(type(game_id), "__index__"):
            raise ProgressError(
                f"a saved game's id is a whole number such as 3, not {_quote_id(game_id)}; see Progress.saved_games()"
            )
        number = operator.index(game_id)
        row = None
        if 1 <= number <= _MAX_ID:  # AUTOINCREMENT ids start at 1; SQLite cannot hold larger numbers
            with self._read() as conn:
                row = conn.execute("SELECT id, name, at, record FROM games WHERE id = ?", (number,)).fetchone()
        if row is None:
            raise ProgressError(f"no saved game has id {_quote_id(number)}; see Progress.saved_games()")
        return SavedGame(int(row[0]), row[1], row[2], row[3])

    # -- reset -----------------------------------------------------------------------------

    def reset(self) -> None:
        """Delete every answer, finished lesson, saved game, practice answer and step's stars
        (the file stays)."""
        with self._write("nothing was deleted") as conn:
            for table in ("answers", "lessons", "games"):
                conn.execute(f"DELETE FROM {table}")
            self._reset_practice(conn)
            for extra in ("steps", "visits"):
                if _has_table(conn, extra):
                    conn.execute(f"DELETE FROM {extra}")

    # -- lessons opened ------------------------------------------------------------------------
    # Like ``steps``, the ``visits`` table is made by the first visit kept.

    def record_visit(self, lesson: str) -> None:
        """Keep that the learner opened ``lesson`` (the index then never calls it "not
        started", even when its page holds nothing scored, such as lesson 8's game)."""
        lesson = self._name(lesson, "lesson")
        now = time.time()
        with self._write() as conn:
            conn.execute(_VISITS_TABLE)
            conn.execute(
                "INSERT INTO visits (lesson, first_at, last_at) VALUES (?, ?, ?) "
                "ON CONFLICT (lesson) DO UPDATE SET last_at = excluded.last_at",
                (lesson, now, now),
            )
            _queue_event(conn, "visit", lesson=lesson)
        self._send_events()

    def visited_lessons(self) -> set[str]:
        """The lessons the learner has opened (as kept by :meth:`record_visit`)."""
        with self._read() as conn:
            if not _has_table(conn, "visits"):
                return set()
            return {str(r[0]) for r in conn.execute("SELECT lesson FROM visits")}

    # -- the stars of the lessons' steps (issue 36) -------------------------------------------
    # Like ``practice``, the ``steps`` table is made by the first stars kept.

    def record_stars(self, lesson: str, step: str, stars: int) -> int:
        """Keep the stars of a step played to its end (0 when fewer than half were right: the
        step was still played); returns the learner's best for it (a worse attempt never
        lowers the best)."""
        lesson = self._name(lesson, "lesson")
        step = self._name(step, "step")
        if type(stars) is not int or stars not in (0, 1, 2, 3):
            raise ProgressError(f"stars={stars!r} is not accepted: a finished step earns 0, 1, 2 or 3 stars")
        with self._write() as conn:
            conn.execute(_STEPS_TABLE)
            conn.execute(
                "INSERT INTO steps (lesson, step, stars, at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (lesson, step) DO UPDATE SET stars = MAX(stars, excluded.stars), at = excluded.at",
                (lesson, step, stars, time.time()),
            )
            row = conn.execute("SELECT stars FROM steps WHERE lesson = ? AND step = ?", (lesson, step)).fetchone()
            _queue_event(conn, "stars", lesson=lesson, step=step, stars=stars, payload={"best": int(row[0])})
        self._send_events()
        return int(row[0])

    def step_stars(self, lesson: str | None = None) -> dict[str, int]:
        """The best stars of each step played to its end (of one lesson when given), by step id
        (0 for a step played to its end without a star)."""
        with self._read() as conn:
            if not _has_table(conn, "steps"):
                return {}
            query, params = "SELECT step, stars FROM steps", tuple[str, ...]()
            if lesson is not None:
                query, params = query + " WHERE lesson = ?", (lesson,)
            return {str(r[0]): int(r[1]) for r in conn.execute(query, params)}

    # -- practice puzzles and the learner's rating (issue 36) ------------------------------
    # The ``practice`` table is made by the first practice answer (CREATE TABLE IF NOT
    # EXISTS inside that write), so a database from before it keeps working untouched:
    # reads of a database without it give no answers and the starting rating.

    def record_practice(self, puzzle_id: str, theme: str, level: int, correct: bool) -> int:
        """Keep one answer to a practice puzzle and update the learner's rating (Elo,
        :mod:`scatlab.course.rating`) in the same transaction; returns the new rating."""
        from .rating import update

        puzzle_id = self._name(puzzle_id, "puzzle id")
        theme = self._name(theme, "puzzle theme")
        if type(level) is not int or level not in (1, 2, 3) or type(correct) is not bool:
            raise ProgressError(
                f"level={level!r} and correct={correct!r} are not accepted: give a puzzle level "
                "(1, 2 or 3) and True or False"
            )
        with self._write() as conn:
            conn.execute(_PRACTICE_TABLE)
            before = _last_rating(conn)
            after = update(before, level, correct)
            conn.execute(
                "INSERT INTO practice (puzzle, theme, level, correct, rating_before, rating_after, at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (puzzle_id, theme, level, int(correct), before, after, time.time()),
            )
            _queue_event(
                conn,
                "practice",
                step=puzzle_id,
                correct=correct,
                rating=after,
                payload={"theme": theme, "level": level, "rating_before": before},
            )
        self._send_events()
        return after

    def record_review(self, lesson: str, review: Any, seat: int, game: str) -> int:
        """Tell the class database about the costly decisions of ``seat`` in a reviewed game
        (a :class:`~scatlab.analysis.explain.review.GameReview`); ``game`` identifies the game
        (e.g. a hash of its record), so reviewing it again sends nothing new. Nothing is kept
        locally (the game itself is kept by ``save_game``) and nothing is queued without
        a class database. Returns the number of decisions queued.

        Each event carries the decision's place, theme (``knock``, ``take-or-draw``,
        ``throw``, ``other``), class, cost and scale, and the kinds of the move played and
        the better one: no card."""
        lesson = self._name(lesson, "lesson")
        if not events.active_sinks():
            return 0
        costly = [d for d in review.costly() if d.player == seat]
        with self._write() as conn:
            for d in costly:
                _queue_event(
                    conn,
                    "review",
                    lesson=lesson,
                    step=d.where({seat: "you"}),
                    key=f"{game}/{d.hand}/{d.index}",
                    payload={
                        "theme": d.theme,
                        "label": d.label,
                        "cost": str(d.cost),
                        "cost_value": float(d.cost),
                        "scale": d.scale,
                        "unit": d.unit,
                        "played": d.assessment.played.kind.value,
                        "better": d.assessment.best.kind.value,
                        "hand": d.hand,
                        "index": d.index,
                        "game": game,
                    },
                )
        self._send_events()
        return len(costly)

    def practice_rating(self) -> int:
        """The learner's practice rating (:data:`scatlab.course.rating.START` before any answer)."""
        with self._read() as conn:
            return _last_rating(conn) if _has_practice(conn) else _start_rating()

    def practice_answers(self) -> list[PracticeAnswer]:
        """Every practice answer kept, oldest first (none on a database without the table)."""
        with self._read() as conn:
            if not _has_practice(conn):
                return []
            rows = conn.execute(
                "SELECT puzzle, theme, level, correct, rating_before, rating_after, at FROM practice ORDER BY id"
            ).fetchall()
        return [PracticeAnswer(r[0], r[1], int(r[2]), bool(r[3]), int(r[4]), int(r[5]), r[6]) for r in rows]

    def _send_events(self) -> None:
        """Have each active event sink send what waits (never raises;
        :meth:`scatlab.course.events.EventSink.flush`)."""
        for sink in events.active_sinks():
            sink.flush(self)

    def _reset_practice(self, conn: sqlite3.Connection) -> None:
        if _has_practice(conn):
            conn.execute("DELETE FROM practice")


_PRACTICE_TABLE = """
CREATE TABLE IF NOT EXISTS practice (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    puzzle TEXT NOT NULL,
    theme TEXT NOT NULL,
    level INTEGER NOT NULL,
    correct INTEGER NOT NULL,
    rating_before INTEGER NOT NULL,
    rating_after INTEGER NOT NULL,
    at REAL NOT NULL
)"""


@dataclass(frozen=True)
class PracticeAnswer:
    """One answer to a practice puzzle, with the rating before and after it."""

    puzzle: str
    theme: str
    level: int
    correct: bool
    rating_before: int
    rating_after: int
    at: float


def _queue_event(conn: sqlite3.Connection, kind: str, **fields: Any) -> None:
    """Queue an event in the open transaction for each active event sink (nothing when none
    is; :meth:`scatlab.course.events.EventSink.queue`)."""
    for sink in events.active_sinks():
        sink.queue(conn, kind, **fields)


def _start_rating() -> int:
    from .rating import START

    return START


def _has_table(conn: sqlite3.Connection, name: str) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (name,)).fetchone() is not None


def _has_practice(conn: sqlite3.Connection) -> bool:
    return _has_table(conn, "practice")


_STEPS_TABLE = """
CREATE TABLE IF NOT EXISTS steps (
    lesson TEXT NOT NULL,
    step TEXT NOT NULL,
    stars INTEGER NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (lesson, step)
)"""


_VISITS_TABLE = """
CREATE TABLE IF NOT EXISTS visits (
    lesson TEXT PRIMARY KEY,
    first_at REAL NOT NULL,
    last_at REAL NOT NULL
)"""


def _last_rating(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT rating_after FROM practice ORDER BY id DESC LIMIT 1").fetchone()
    return int(row[0]) if row is not None else _start_rating()
