"""The class database: every learner's events in one PostgreSQL database, for the teacher.

Each learner keeps their own progress in SQLite (:class:`~scatlab.course.progress.Progress`). When the
environment variable ``SCATLAB_CLASS_DB`` holds a ``postgresql://`` URL, every event the
local store records is also sent there, tagged with the learner (``JUPYTERHUB_USER``, else
the operating system's user name):

- ``answer``: an exercise's answer (lesson, exercise as ``step``, right or not, and the
  question and answer in ``payload``);
- ``finish``: a lesson marked finished;
- ``visit``: a lesson opened;
- ``stars``: a step played to its end (the stars of that play; the best so far in
  ``payload``);
- ``practice``: a practice puzzle's answer (puzzle id as ``step``, right or not, the new
  rating; theme, level and the rating before in ``payload``);
- ``game``: a game saved (its name and local id only: **never the cards** of the record;
  the teacher sees results, not a learner's hands);
- ``review``: one costly decision of a game the learner reviewed in lesson 8 (where it was
  as ``step``, ``"Hand 2, your 3rd move"``; its theme, class, cost and scale in
  ``payload``, with the kinds of the move played and the better one: never a card). A
  game reviewed twice sends its decisions once (the ``key`` of :func:`~scatlab.course.classdb.queue`).

**Nothing is lost.** An event is first written to the ``class_outbox`` table of the
learner's SQLite file, in the same transaction as the local write it describes. After the
commit, :func:`flush` tries to send the outbox: a quick connection (a one-second probe,
libpq's two-second connect timeout), ``INSERT ... ON CONFLICT (id) DO NOTHING``, then the
rows sent are deleted locally. Any failure (the server down, a bad URL, psycopg missing)
is swallowed: the events stay queued and go at the next write or the next time the
progress is opened. Each event has a uuid, the primary key of the class table, so a resend
never makes a duplicate. When an attempt was slow (a server that does not answer rather
than refuses), the process does not try again for :data:`QUIET_SECONDS`, so a learner's
clicks never wait on it twice in a row.

The teacher's side: :func:`class_report` (per learner: lessons opened and finished,
stars per step, the practice rating over time; and the steps and exercises the class
finds hardest, by first-try success) and :func:`write_csv` (every event, one row each);
on the command line ``scatlab class report [--db URL] [--csv FILE]``.

psycopg (``pip install 'scatlab[class]'``) is imported only when a database is used.
"""

from __future__ import annotations

import csv
import getpass
import io
import json
import os
import socket
import sqlite3
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from ..errors import ClassDatabaseError

if TYPE_CHECKING:
    from .progress import Progress

__all__ = [
    "ENV",
    "QUIET_SECONDS",
    "ClassDatabaseError",
    "configured_url",
    "learner",
    "queue",
    "flush",
    "pending",
    "LearnerReport",
    "Struggle",
    "CostlyDecision",
    "ThemeCosts",
    "THEME_WORDS",
    "ClassReport",
    "class_report",
    "write_csv",
]

ENV = "SCATLAB_CLASS_DB"
"""The environment variable that holds the class database's ``postgresql://`` URL."""
QUIET_SECONDS = 30.0
"""After a slow failed attempt (over half a second), no new attempt for this long."""
PROBE_SECONDS = 1.0
"""How long a learner's write waits for the class database's server to accept a connection."""
BATCH = 500
"""Events sent per round trip."""

_PG_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    id uuid PRIMARY KEY,
    learner text NOT NULL,
    kind text NOT NULL,
    lesson text,
    step text,
    payload jsonb NOT NULL DEFAULT '{}'::jsonb,
    correct boolean,
    stars integer,
    rating integer,
    at timestamptz NOT NULL
)"""
_PG_INDEX = "CREATE INDEX IF NOT EXISTS events_learner_at ON events (learner, at)"

_OUTBOX_TABLE = """
CREATE TABLE IF NOT EXISTS class_outbox (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    learner TEXT NOT NULL,
    kind TEXT NOT NULL,
    lesson TEXT,
    step TEXT,
    payload TEXT NOT NULL,
    correct INTEGER,
    stars INTEGER,
    rating INTEGER,
    at REAL NOT NULL
)"""
_COLUMNS = "id, learner, kind, lesson, step, payload, correct, stars, rating, at"

_quiet_until: dict[str, float] = {}
_KEYS = uuid.UUID("5c47a1ab-31c0-4e55-9d3e-7c1a55db0031")
"""The namespace of the ids of keyed events (:func:`queue`)."""


def configured_url() -> str | None:
    """``$SCATLAB_CLASS_DB`` when set and not blank, else ``None``."""
    url = os.environ.get(ENV, "").strip()
    return url or None


def learner() -> str:
    """Whose events these are: ``$JUPYTERHUB_USER``, else the operating system's user."""
    name = os.environ.get("JUPYTERHUB_USER", "").strip()
    if name:
        return name
    try:
        return getpass.getuser()
    except (OSError, KeyError):  # no user name in the environment and no passwd entry
        return f"uid-{os.getuid()}" if hasattr(os, "getuid") else "unknown"


# -- the learner's side: the outbox ------------------------------------------------------


def queue(conn: sqlite3.Connection, kind: str, *, lesson: str | None = None, step: str | None = None,
          correct: bool | None = None, stars: int | None = None, rating: int | None = None,
          payload: dict[str, Any] | None = None, key: str | None = None) -> None:
    """Add one event to the outbox, inside the caller's open transaction on the learner's
    SQLite file (so it is kept exactly when the local write is); nothing when no class
    database is configured. An event with a ``key`` has an id made from the learner and the
    key, so the same event queued twice (a game reviewed again) is one event in the class
    database; without one, a new id."""
    if configured_url() is None:
        return
    who = learner()
    event_id = uuid.uuid5(_KEYS, f"{who}\n{kind}\n{key}") if key is not None else uuid.uuid4()
    conn.execute(_OUTBOX_TABLE)
    conn.execute(
        f"INSERT OR IGNORE INTO class_outbox ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (str(event_id), who, kind, lesson, step, json.dumps(payload or {}),
         None if correct is None else int(correct), stars, rating, time.time()),
    )


def pending(progress: Progress) -> int:
    """How many events wait in ``progress``'s outbox."""
    with progress._read() as conn:
        if not _has_outbox(conn):
            return 0
        return int(conn.execute("SELECT COUNT(*) FROM class_outbox").fetchone()[0])


def flush(progress: Progress, url: str | None = None) -> int:
    """Send ``progress``'s outbox to the class database (``url``, default
    :func:`configured_url`); returns how many events were sent. Never raises: a failure
    leaves the events queued (see the module's notes)."""
    url = url if url is not None else configured_url()
    if url is None or progress.read_only or time.monotonic() < _quiet_until.get(url, 0.0):
        return 0
    started = time.monotonic()
    sent = 0
    try:
        with progress._read() as conn:
            if not _has_outbox(conn):
                return 0
            rows = conn.execute(f"SELECT seq, {_COLUMNS} FROM class_outbox ORDER BY seq").fetchall()
        if not rows:
            return 0
        with _connect(url, probe=True) as pg:
            for start in range(0, len(rows), BATCH):
                batch = rows[start:start + BATCH]
                _send(pg, batch)
                with progress._write() as conn:
                    conn.executemany("DELETE FROM class_outbox WHERE seq = ?", [(r[0],) for r in batch])
                sent += len(batch)
        _quiet_until.pop(url, None)
    except Exception:  # noqa: BLE001 - a learner's click never fails for the class database
        if time.monotonic() - started > 0.5:
            _quiet_until[url] = time.monotonic() + QUIET_SECONDS
    return sent


def _has_outbox(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='class_outbox'").fetchone() is not None


def _send(pg: Any, rows: Sequence[tuple[Any, ...]]) -> None:
    from psycopg.types.json import Jsonb

    with pg.cursor() as cur:
        cur.executemany(
            f"INSERT INTO events ({_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
            "ON CONFLICT (id) DO NOTHING",
            [(uuid.UUID(r[1]), r[2], r[3], r[4], r[5], Jsonb(json.loads(r[6])),
              None if r[7] is None else bool(r[7]), r[8], r[9], datetime.fromtimestamp(r[10], timezone.utc))
             for r in rows],
        )
    pg.commit()


# -- connecting ---------------------------------------------------------------------------


def _shown(url: str) -> str:
    """The URL as a message shows it: without its password."""
    try:
        from urllib.parse import urlsplit, urlunsplit

        parts = urlsplit(url)
        if parts.password is not None:
            host = parts.hostname or ""
            netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
            return urlunsplit(parts._replace(netloc=netloc))
    except ValueError:
        return "(an unreadable URL)"
    return url


def _first_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text[:300] or type(exc).__name__


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError:
        raise ClassDatabaseError(
            "the class database needs psycopg, which is not installed: pip install 'scatlab[class]'"
        ) from None
    return psycopg


def _check_url(url: str) -> dict[str, Any]:
    """The connection parameters of a ``postgresql://`` URL, or a ClassDatabaseError."""
    if not isinstance(url, str) or not url.startswith(("postgresql://", "postgres://")):
        raise ClassDatabaseError(
            f"{_shown(str(url))!r} is not a class database URL: give one such as "
            "postgresql://teacher@db.example.org/class"
        )
    psycopg = _psycopg()
    try:
        params: dict[str, Any] = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.Error as exc:
        raise ClassDatabaseError(f"{_shown(url)!r} is not a readable class database URL ({_first_line(exc)})") from None
    for port in str(params.get("port") or "5432").split(","):
        if not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
            raise ClassDatabaseError(f"{_shown(url)!r} is not a readable class database URL (port {port!r} is not "
                                     "a port number from 1 to 65535)")
    return params


def _probe(params: dict[str, Any]) -> None:
    """Fail within :data:`PROBE_SECONDS` when the server's TCP port does not answer (libpq
    waits at least two seconds); a Unix socket or several hosts are left to libpq."""
    host = str(params.get("hostaddr") or params.get("host") or "")
    if not host or host.startswith(("/", "@")) or "," in host:
        return
    port = int(str(params.get("port") or 5432).split(",")[0])
    with socket.create_connection((host, port), timeout=PROBE_SECONDS):
        pass


@contextmanager
def _connect(url: str, *, probe: bool = False) -> Iterator[Any]:
    """A psycopg connection with the schema made; its errors as they are."""
    psycopg = _psycopg()
    params = _check_url(url)
    if probe:
        _probe(params)
    with psycopg.connect(url, connect_timeout=2, options="-c statement_timeout=10000") as pg:
        with pg.cursor() as cur:
            cur.execute(_PG_SCHEMA)
            cur.execute(_PG_INDEX)
        pg.commit()
        yield pg


@contextmanager
def _teacher(url: str) -> Iterator[Any]:
    """A connection for the teacher's queries; any failure is one ClassDatabaseError line."""
    psycopg = _psycopg()
    params = _check_url(url)
    try:
        _probe(params)
        with _connect(url) as pg:
            yield pg
    except (OSError, psycopg.Error) as exc:
        raise ClassDatabaseError(f"cannot use the class database {_shown(url)}: {_first_line(exc)}") from None


# -- the teacher's side -------------------------------------------------------------------


@dataclass(frozen=True)
class LearnerReport:
    """One learner's progress as the class database holds it."""

    learner: str
    opened: tuple[str, ...]
    """The lessons opened, in order of first visit."""
    finished: tuple[str, ...]
    """The lessons finished, in order."""
    answers: int
    right: int
    stars: dict[str, int] = field(default_factory=dict)
    """The best stars of each step played to its end, by step id."""
    rating: tuple[tuple[datetime, int], ...] = ()
    """The practice rating after each practice answer, oldest first."""


@dataclass(frozen=True)
class Struggle:
    """How often the class got one exercise or step right at the first try."""

    kind: str
    """``"exercise"`` (the first answer right) or ``"step"`` (the first play earned 2 stars or more)."""
    lesson: str
    item: str
    tried: int
    """Learners who tried it."""
    first_try: int
    """Learners who got it right at the first try."""

    @property
    def rate(self) -> float:
        return self.first_try / self.tried if self.tried else 0.0


@dataclass(frozen=True)
class CostlyDecision:
    """One costly decision of a learner's reviewed game (a ``review`` event)."""

    learner: str
    where: str
    """``"Hand 2, your 3rd move"``."""
    theme: str
    label: str
    """``inaccuracy``, ``mistake`` or ``blunder``."""
    cost: float
    scale: str
    """``"value"`` (points of hand value) or ``"win"`` (the chance of winning the game, 0-1)."""
    played: str
    better: str

    @property
    def cost_text(self) -> str:
        """``"5.5 points of hand value"`` or ``"4.2% chance of winning"``."""
        if self.scale == "win":
            return f"{100 * self.cost:.1f}% chance of winning"
        return f"{self.cost:.1f} points of hand value"


THEME_WORDS = {"knock": "When to knock", "take-or-draw": "Take or draw", "throw": "Which card to throw",
               "other": "Other decisions"}
"""A review theme (``scatlab.analysis.explain.review.REVIEW_THEMES``) as a teacher reads it."""


@dataclass(frozen=True)
class ThemeCosts:
    """The costly decisions of one theme in the class's reviewed games, costliest first."""

    theme: str
    decisions: tuple[CostlyDecision, ...]

    @property
    def learners(self) -> int:
        return len({d.learner for d in self.decisions})

    @property
    def serious(self) -> int:
        """Mistakes and blunders (the inaccuracies left out)."""
        return sum(d.label in ("mistake", "blunder") for d in self.decisions)

    @property
    def words(self) -> str:
        return THEME_WORDS.get(self.theme, self.theme)


@dataclass(frozen=True)
class ClassReport:
    """What :func:`class_report` found: the learners (by name), the class's struggles
    (hardest first) and the costly decisions of reviewed games by theme (most mistakes and
    blunders first)."""

    events: int
    learners: tuple[LearnerReport, ...]
    struggles: tuple[Struggle, ...]
    themes: tuple[ThemeCosts, ...] = ()

    def text(self) -> str:
        """The report as the command line prints it."""
        lines = [f"{len(self.learners)} learner(s), {self.events} event(s)"]
        for one in self.learners:
            lines.append(f"{one.learner}:")
            lines.append(f"  lessons opened {len(one.opened)}, finished {len(one.finished)}"
                         + (f" ({', '.join(one.finished)})" if one.finished else ""))
            lines.append(f"  answers {one.right} of {one.answers} right")
            if one.stars:
                lines.append(f"  stars {sum(one.stars.values())} in {len(one.stars)} step(s): "
                             + ", ".join(f"{k} {v}" for k, v in sorted(one.stars.items())))
            if one.rating:
                lines.append("  practice rating: " + " -> ".join(str(r) for _, r in one.rating))
        if self.struggles:
            lines.append("Where the class struggles (first try right, hardest first):")
            for s in self.struggles:
                lines.append(f"  {s.kind} {s.lesson}/{s.item}: {s.first_try} of {s.tried} learner(s) "
                             f"({round(100 * s.rate)}%)")
        if self.themes:
            lines.append("Costly decisions in reviewed games, by theme:")
            for t in self.themes:
                lines.append(f"  {t.words}: {len(t.decisions)} decision(s), {t.serious} mistake(s) or blunder(s), "
                             f"{t.learners} learner(s)")
                for d in t.decisions[:3]:
                    lines.append(f"    {d.learner}, {d.where}: {d.label}, {d.cost_text} ({d.played}; better {d.better})")
        return "\n".join(lines) + "\n"


def class_report(url: str) -> ClassReport:
    """Per learner: lessons opened and finished, answers, stars per step, practice rating
    over time; and the exercises and steps by first-try success, lowest first. A bad URL or
    an unreachable database is a :class:`ClassDatabaseError`."""
    with _teacher(url) as pg, pg.cursor() as cur:
        cur.execute("SELECT count(*) FROM events")
        total = int(cur.fetchone()[0])
        cur.execute("SELECT learner, kind, lesson, step, correct, stars, rating, at FROM events "
                    "WHERE kind IN ('visit', 'finish', 'answer', 'stars', 'practice') ORDER BY at, id")
        rows = cur.fetchall()
        cur.execute(
            "SELECT kind, lesson, step, correct, stars FROM ("
            " SELECT DISTINCT ON (learner, kind, lesson, step) learner, kind, lesson, step, correct, stars"
            " FROM events WHERE kind IN ('answer', 'stars') AND lesson IS NOT NULL AND step IS NOT NULL"
            " ORDER BY learner, kind, lesson, step, at, id) AS firsts"
        )
        firsts = cur.fetchall()
        cur.execute("SELECT learner, step, payload FROM events WHERE kind = 'review' ORDER BY at, id")
        reviewed = cur.fetchall()
    people: dict[str, dict[str, Any]] = {}
    for who, kind, lesson, step, correct, stars, rating, at in rows:
        p = people.setdefault(who, {"opened": [], "finished": [], "answers": 0, "right": 0, "stars": {}, "rating": []})
        if kind == "visit" and lesson not in p["opened"]:
            p["opened"].append(lesson)
        elif kind == "finish" and lesson not in p["finished"]:
            p["finished"].append(lesson)
        elif kind == "answer":
            p["answers"] += 1
            p["right"] += bool(correct)
        elif kind == "stars" and stars is not None:
            p["stars"][step] = max(p["stars"].get(step, 0), int(stars))
        elif kind == "practice" and rating is not None:
            p["rating"].append((at, int(rating)))
    learners = tuple(
        LearnerReport(who, tuple(p["opened"]), tuple(p["finished"]), p["answers"], p["right"], p["stars"],
                      tuple(p["rating"]))
        for who, p in sorted(people.items())
    )
    counts: dict[tuple[str, str, str], list[int]] = {}
    for kind, lesson, step, correct, stars in firsts:
        key = ("exercise" if kind == "answer" else "step", lesson, step)
        tally = counts.setdefault(key, [0, 0])
        tally[0] += 1
        tally[1] += bool(correct) if kind == "answer" else int((stars or 0) >= 2)
    struggles = sorted((Struggle(k, lesson, item, n, ok) for (k, lesson, item), (n, ok) in counts.items()),
                       key=lambda s: (s.rate, -s.tried, s.kind, s.lesson, s.item))
    return ClassReport(total, learners, tuple(struggles), _themes(reviewed))


def _themes(rows: Sequence[tuple[Any, ...]]) -> tuple[ThemeCosts, ...]:
    """``review`` events grouped by theme: the themes with most mistakes and blunders
    first, each theme's decisions costliest first (chances of winning before hand value)."""
    by_theme: dict[str, list[CostlyDecision]] = {}
    for who, where, payload in rows:
        p = payload if isinstance(payload, dict) else {}
        try:
            d = CostlyDecision(str(who), str(where or ""), str(p.get("theme", "other")), str(p.get("label", "")),
                               float(p.get("cost_value", 0.0)), str(p.get("scale", "value")),
                               str(p.get("played", "")), str(p.get("better", "")))
        except (TypeError, ValueError):
            continue  # an event this version cannot read is left out, not a failed report
        by_theme.setdefault(d.theme, []).append(d)
    themes = [ThemeCosts(theme, tuple(sorted(ds, key=lambda d: (d.scale != "win", -d.cost, d.learner, d.where))))
              for theme, ds in by_theme.items()]
    return tuple(sorted(themes, key=lambda t: (-t.serious, -len(t.decisions), t.theme)))


CSV_COLUMNS = ("at", "learner", "kind", "lesson", "step", "correct", "stars", "rating", "payload", "id")
PRIVATE_FIELDS = frozenset({"question", "answer"})
"""What an answer event keeps for the learner's own records but the export leaves out, as the
dashboard does: the question's text (a hand's cards) and the answer the learner typed."""


def write_csv(url: str, file: str | os.PathLike[str] | TextIO) -> int:
    """Write every event of the class database as CSV (a header, then one row per event,
    oldest first; times in UTC, ISO 8601) to a path or an open text file; returns the
    number of events. It holds what the dashboard shows: no card of any hand and no typed
    answer (each payload without ``PRIVATE_FIELDS``). A bad URL, an unreachable database or
    a file that cannot be written is a :class:`ClassDatabaseError`."""
    with _teacher(url) as pg, pg.cursor() as cur:
        cur.execute("SELECT at, learner, kind, lesson, step, correct, stars, rating, payload, id FROM events "
                    "ORDER BY at, id")
        rows = cur.fetchall()
    buffer = io.StringIO()
    out = csv.writer(buffer, lineterminator="\n")
    out.writerow(CSV_COLUMNS)
    for at, who, kind, lesson, step, correct, stars, rating, payload, eid in rows:
        out.writerow([at.astimezone(timezone.utc).isoformat(), who, kind, lesson or "", step or "",
                      "" if correct is None else ("yes" if correct else "no"),
                      "" if stars is None else stars, "" if rating is None else rating,
                      json.dumps({k: v for k, v in (payload or {}).items() if k not in PRIVATE_FIELDS},
                                 sort_keys=True), str(eid)])
    if isinstance(file, (str, os.PathLike)):
        try:
            Path(file).write_text(buffer.getvalue(), encoding="utf-8")
        except OSError as exc:
            raise ClassDatabaseError(f"cannot write {os.fspath(file)!r}: {exc.strerror}") from None
    else:
        file.write(buffer.getvalue())
    return len(rows)
