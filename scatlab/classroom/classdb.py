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
  game reviewed twice sends its decisions once (the ``key`` of :func:`~scatlab.classroom.classdb.queue`).

**Nothing is lost.** An event is first written to the ``class_outbox`` table of the
learner's SQLite file, in the same transaction as the local write it describes. After the
commit, :func:`flush` tries to send the outbox: a quick connection (a one-second probe,
libpq's two-second connect timeout), ``INSERT ... ON CONFLICT DO NOTHING``, then the rows
sent are deleted locally. Any failure (the server down, a bad URL, psycopg missing) is
swallowed: the events stay queued and go at the timer's next try (below), the next write or
the next time the progress is opened. Each event has a uuid, in the key of the class table
with the learner, so a resend never makes a duplicate. When an attempt was slow (a server
that does not answer rather than refuses), the process does not try again for
:data:`QUIET_SECONDS`, so a learner's clicks never wait on it twice in a row.

The teacher's side: :func:`class_report` (per learner: lessons opened and finished,
stars per step, the practice rating over time; and the steps and exercises the class
finds hardest, by first-try success) and :func:`write_csv` (every event, one row each);
on the command line ``scatlab class report [--db URL] [--csv FILE]``.

**Queued events are sent by a timer.** When a send fails (or finds the process quiet after
a slow failure), a daemon thread of the learner's process, ``scatlab-class-outbox``, tries
again every :data:`RETRY_SECONDS` (10 s; never sooner than the :data:`QUIET_SECONDS` of a slow
failure) for as long as events wait, and ends when none do: events reach the class
database within seconds of it being back, not at the learner's next click. No thread is
started without a class database.

**Who may do what (PostgreSQL's own roles).** A learner is taken to be an adversary: their
kernel holds its class database URL in its environment, and they may use it with any
client. So, in the class's own server (:class:`~scatlab.classroom.pgserver.LocalPostgres`,
every connection with a SCRAM password; :func:`prepare_class_database` sets it up as the
superuser, whose password never leaves the hub's process):

- ``scatlab_owner`` (no login) owns ``events``, ``learner_roles`` and the two functions below;
- ``scatlab_dashboard`` (login) may only read ``events``: the dashboard and
  ``scatlab class report`` use it;
- ``scatlab_registrar`` (login, the hub's only) may only call
  ``scatlab_register_learner(learner, verifier)``, which makes or updates the learner's
  own role (:func:`learner_role`: ``scatlab_l_`` and a digest of the name, so any name is
  safe), sets its password from a SCRAM verifier (the password itself is never sent) and
  records it in ``learner_roles``; :func:`learner_url` gives the URL a learner's server
  gets, with a fresh password at every start. The registrar has no CREATEROLE of its own:
  on PostgreSQL 15 and older a role with CREATEROLE may grant itself
  ``pg_execute_server_program``, and so run programs as the server's user;
- each learner's role (login, one per learner) is a member of ``scatlab_learners``, which
  may only INSERT into ``events`` (no SELECT, UPDATE, DELETE, no other table), and
  row-level security lets it insert rows whose ``learner`` is its own learner's name
  only (``scatlab_learner()``, the name ``learner_roles`` gives the session's user). The
  key of ``events`` is (``learner``, ``id``), so a learner cannot take an id another
  learner's event will use; :func:`flush` sends with ``ON CONFLICT DO NOTHING`` and no
  conflict target, which needs no SELECT (``ON CONFLICT (id)`` would);
- PUBLIC keeps nothing: CONNECT on the database and USAGE on schema ``public`` go to
  these roles only, and nobody but the owner may create anything there.

A class database given by the teacher (``SCATLAB_CLASS_DB`` set for the hub) is used as
given, by every learner and the dashboard alike: it should be a role that is not a
superuser (docs/deploying.md).

psycopg (``pip install 'scatlab[class]'``) is imported only when a database is used.
"""

from __future__ import annotations

import base64
import csv
import getpass
import hashlib
import hmac
import io
import json
import os
import re
import secrets
import socket
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from ..errors import ClassDatabaseError
from . import ENV, configured_url

if TYPE_CHECKING:
    from ..course.progress import Progress

__all__ = [
    "ENV",
    "QUIET_SECONDS",
    "RETRY_SECONDS",
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
    "OWNER_ROLE",
    "LEARNERS_ROLE",
    "DASHBOARD_ROLE",
    "REGISTRAR_ROLE",
    "LEARNER_NAME",
    "CONNECTION_LIMIT",
    "new_password",
    "scram_verifier",
    "url_with_login",
    "learner_role",
    "check_learner_name",
    "prepare_class_database",
    "register_learner",
    "learner_url",
]

QUIET_SECONDS = 30.0
"""After a slow failed attempt (over half a second), no new attempt for this long."""
RETRY_SECONDS = 10.0
"""While events wait in an outbox, the learner's process tries to send them this often
(a daemon thread; :func:`flush`)."""
PROBE_SECONDS = 1.0
"""How long a learner's write waits for the class database's server to accept a connection."""
BATCH = 500
"""Events sent per round trip."""

_PG_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    id uuid NOT NULL,
    learner text NOT NULL,
    kind text NOT NULL,
    lesson text,
    step text,
    payload jsonb NOT NULL DEFAULT '{}'::jsonb,
    correct boolean,
    stars integer,
    rating integer,
    at timestamptz NOT NULL,
    PRIMARY KEY (learner, id)
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


def queue(
    conn: sqlite3.Connection,
    kind: str,
    *,
    lesson: str | None = None,
    step: str | None = None,
    correct: bool | None = None,
    stars: int | None = None,
    rating: int | None = None,
    payload: dict[str, Any] | None = None,
    key: str | None = None,
) -> None:
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
        (
            str(event_id),
            who,
            kind,
            lesson,
            step,
            json.dumps(payload or {}),
            None if correct is None else int(correct),
            stars,
            rating,
            time.time(),
        ),
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
    leaves the events queued, and the outbox's timer tries again every
    :data:`RETRY_SECONDS` until they are sent (see the module's notes)."""
    url = url if url is not None else configured_url()
    if url is None or progress.read_only:
        return 0
    if time.monotonic() < _quiet_until.get(url, 0.0):
        _retry_later(progress, url, check=True)
        return 0
    started = time.monotonic()
    sent = 0
    left = True
    try:
        with progress._read() as conn:
            if not _has_outbox(conn):
                return 0
            rows = conn.execute(f"SELECT seq, {_COLUMNS} FROM class_outbox ORDER BY seq").fetchall()
        if not rows:
            return 0
        with _connect(url, probe=True) as pg:
            for start in range(0, len(rows), BATCH):
                batch = rows[start : start + BATCH]
                _send(pg, batch)
                with progress._write() as conn:
                    conn.executemany("DELETE FROM class_outbox WHERE seq = ?", [(r[0],) for r in batch])
                sent += len(batch)
        _quiet_until.pop(url, None)
        left = False
    except Exception:  # noqa: BLE001 - a learner's click never fails for the class database
        if time.monotonic() - started > 0.5:
            _quiet_until[url] = time.monotonic() + QUIET_SECONDS
    if left:
        _retry_later(progress, url)
    return sent


# -- the outbox's timer: one daemon thread per process, while events wait ----------------

_timer_lock = threading.Lock()
_waiting: dict[str, tuple[Progress, str]] = {}
"""The outboxes the timer tries to send, by progress file: (a progress of it, its URL)."""
_timer: threading.Thread | None = None
_wake = threading.Event()


def _retry_later(progress: Progress, url: str, *, check: bool = False) -> None:
    """Have the timer try ``progress``'s outbox again (its thread started if it is not
    running). ``check``: only when events wait (a send skipped, not one that failed)."""
    global _timer
    key = str(progress.path)
    with _timer_lock:
        known = key in _waiting
    if check and not known:
        try:
            if not pending(progress):
                return
        except Exception:  # noqa: BLE001 - an unreadable progress has nothing the timer could send
            return
    with _timer_lock:
        _waiting[key] = (progress, url)
        if _timer is None or not _timer.is_alive():
            _timer = threading.Thread(target=_retry_loop, name="scatlab-class-outbox", daemon=True)
            _timer.start()


def _retry_loop() -> None:
    """The timer's thread: every :data:`RETRY_SECONDS`, each waiting outbox is flushed;
    an outbox with nothing left (or that cannot be read) is dropped; the thread ends when
    no outbox waits."""
    global _timer
    while True:
        _wake.wait(RETRY_SECONDS)
        with _timer_lock:
            waiting = list(_waiting.items())
        for key, (progress, url) in waiting:
            try:
                flush(progress, url)  # nothing while the URL is quiet; a failure keeps it waiting
                done = pending(progress) == 0
            except Exception:  # noqa: BLE001 - a progress file gone or damaged: nothing to retry
                done = True
            if done:
                with _timer_lock:
                    if _waiting.get(key, (None, ""))[0] is progress:
                        del _waiting[key]
        with _timer_lock:
            if not _waiting or _wake.is_set():
                _waiting.clear()
                if _timer is threading.current_thread():
                    _timer = None
                return


def _stop_retrying(timeout: float = 10.0) -> None:
    """Forget every waiting outbox and end the timer's thread (the tests)."""
    global _timer
    with _timer_lock:
        _waiting.clear()
        thread = _timer
    if thread is not None and thread.is_alive() and thread is not threading.current_thread():
        _wake.set()
        thread.join(timeout)
    with _timer_lock:
        _timer = None
    _wake.clear()


def _after_fork() -> None:
    """A forked child has none of its parent's threads: it starts its own timer if needed."""
    global _timer, _timer_lock, _wake
    _timer_lock = threading.Lock()
    _wake = threading.Event()
    _timer = None
    _waiting.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)


def _has_outbox(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='class_outbox'").fetchone() is not None


def _send(pg: Any, rows: Sequence[tuple[Any, ...]]) -> None:
    """Insert ``rows`` (outbox rows), an event already there left as it is. ``ON CONFLICT DO
    NOTHING`` has no conflict target: with one, PostgreSQL asks for SELECT on its columns,
    which a learner's role has not (the module's notes)."""
    from psycopg.types.json import Jsonb

    with pg.cursor() as cur:
        cur.executemany(
            f"INSERT INTO events ({_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
            [
                (
                    uuid.UUID(r[1]),
                    r[2],
                    r[3],
                    r[4],
                    r[5],
                    Jsonb(json.loads(r[6])),
                    None if r[7] is None else bool(r[7]),
                    r[8],
                    r[9],
                    datetime.fromtimestamp(r[10], UTC),
                )
                for r in rows
            ],
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
            raise ClassDatabaseError(
                f"{_shown(url)!r} is not a readable class database URL (port {port!r} is not "
                "a port number from 1 to 65535)"
            )
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


_MAKE_SCHEMA = f"""
DO $scatlab$ BEGIN
IF to_regclass('events') IS NULL THEN
{_PG_SCHEMA};
{_PG_INDEX};
END IF;
END $scatlab$"""
"""The events table made on first use of a database that has none (a teacher's own server,
used as given): only then, since the roles of the class's own server may not create it."""


@contextmanager
def _connect(url: str, *, probe: bool = False) -> Iterator[Any]:
    """A psycopg connection with the schema made if there is none; its errors as they are."""
    psycopg = _psycopg()
    params = _check_url(url)
    if probe:
        _probe(params)
    with psycopg.connect(url, connect_timeout=2, options="-c statement_timeout=10000") as pg:
        with pg.cursor() as cur:
            cur.execute(_MAKE_SCHEMA)
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


# -- the class's roles (the module's notes: "Who may do what") ------------------------------

OWNER_ROLE = "scatlab_owner"
"""Owns the class's tables and functions; nobody logs in as it."""
LEARNERS_ROLE = "scatlab_learners"
"""The group of every learner's role: INSERT on ``events``, for rows of its own learner only."""
DASHBOARD_ROLE = "scatlab_dashboard"
"""Reads ``events`` (the dashboard, ``scatlab class report``); nothing else."""
REGISTRAR_ROLE = "scatlab_registrar"
"""The hub's: makes a role for each learner (``scatlab_register_learner``); nothing else."""
LEARNER_ROLE_PREFIX = "scatlab_l_"
LEARNER_NAME = re.compile(r"[^\W_][\w.-]{0,38}")
"""A learner's name: a letter or digit, then letters, digits, ``_``, ``.`` or ``-``; at most 39
characters (the hub's names, ``scatlab.classroom.identity.NAME_PATTERN``)."""
CONNECTION_LIMIT = 10
"""Connections one learner's role (or the dashboard's, the registrar's) may hold at once."""
_VERIFIER = re.compile(r"SCRAM-SHA-256\$[0-9]{1,7}:[A-Za-z0-9+/=]{4,100}\$[A-Za-z0-9+/=]{44}:[A-Za-z0-9+/=]{44}")


def new_password() -> str:
    """A new random password (256 bits, URL-safe: ``[A-Za-z0-9_-]``)."""
    return secrets.token_urlsafe(32)


def scram_verifier(password: str, *, salt: bytes | None = None, iterations: int = 4096) -> str:
    """The SCRAM-SHA-256 verifier PostgreSQL keeps for ``password`` (what ``ALTER ROLE ...
    PASSWORD`` is given, so that the password itself is never sent nor logged). The password
    must be printable ASCII, for which SASLprep changes nothing (:func:`new_password`'s are).

    >>> scram_verifier("pencil", salt=bytes(16)).startswith("SCRAM-SHA-256$4096:AAAAAAAAAAAAAAAAAAAAAA==$")
    True
    """
    if not isinstance(password, str) or not password or not all(" " < ch < "\x7f" for ch in password):
        raise ClassDatabaseError(
            "a class database password must be printable ASCII with no space "
            f"({len(password) if isinstance(password, str) else password!r} character(s) given)"
        )
    salt = salt if salt is not None else secrets.token_bytes(16)
    salted = hashlib.pbkdf2_hmac("sha256", password.encode("ascii"), salt, iterations)
    client_key = hmac.new(salted, b"Client Key", "sha256").digest()
    server_key = hmac.new(salted, b"Server Key", "sha256").digest()

    def b64(data: bytes) -> str:
        return base64.b64encode(data).decode("ascii")

    return f"SCRAM-SHA-256${iterations}:{b64(salt)}${b64(hashlib.sha256(client_key).digest())}:{b64(server_key)}"


def url_with_login(url: str, role: str, password: str) -> str:
    """``url`` (a ``postgresql://`` URL) with ``role`` and ``password`` as its user: the same
    server, database and options.

    >>> url_with_login("postgresql://scatlab_registrar:x@127.0.0.1:5433/postgres", "scatlab_dashboard", "pw")
    'postgresql://scatlab_dashboard:pw@127.0.0.1:5433/postgres'
    """
    from urllib.parse import quote, urlsplit, urlunsplit

    _check_url(url)
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{quote(role, safe='')}:{quote(password, safe='')}@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def check_learner_name(name: str) -> str:
    """``name`` when it is a learner's name (:data:`LEARNER_NAME`), else a ClassDatabaseError."""
    if not isinstance(name, str) or not LEARNER_NAME.fullmatch(name):
        raise ClassDatabaseError(
            f"{name!r} is not a learner's name: give 1 to 39 letters, digits, '_', '.' or '-', a letter or digit first"
        )
    return name


def learner_role(name: str) -> str:
    """The PostgreSQL role of the learner ``name``: ``scatlab_l_`` and 32 hex digits of the
    SHA-256 of the name (``scatlab_register_learner`` computes the same), so any name
    makes a plain identifier.

    >>> role = learner_role("zoë_2")
    >>> role.startswith("scatlab_l_") and len(role) == 42 and role != learner_role("zoe_2")
    True
    """
    return LEARNER_ROLE_PREFIX + hashlib.sha256(check_learner_name(name).encode("utf-8")).hexdigest()[:32]


_LEARNER_FUNCTION = """
CREATE OR REPLACE FUNCTION public.scatlab_learner() RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    SELECT learner FROM public.learner_roles WHERE role = session_user
$f$"""
"""The name of the learner whose role logged in (``session_user``: ``SET ROLE`` does not
change it), or NULL: what row-level security compares an inserted row's ``learner`` with."""

_REGISTER_FUNCTION = f"""
CREATE OR REPLACE FUNCTION public.scatlab_register_learner(learner_name text, verifier text) RETURNS text
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
DECLARE
    r text := '{LEARNER_ROLE_PREFIX}' || left(encode(sha256(convert_to(learner_name, 'UTF8')), 'hex'), 32);
BEGIN
    IF learner_name IS NULL OR char_length(learner_name) NOT BETWEEN 1 AND 39 OR learner_name ~
    '[[:cntrl:][:space:]]' THEN
        RAISE EXCEPTION 'not a learner''s name: %', learner_name USING ERRCODE = '22023';
    END IF;
    IF verifier IS NULL OR verifier !~ '^{_VERIFIER.pattern}$' THEN
        RAISE EXCEPTION 'not a SCRAM-SHA-256 verifier' USING ERRCODE = '22023';
    END IF;
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = r) THEN
        EXECUTE format('ALTER ROLE %I LOGIN PASSWORD %L', r, verifier);
    ELSE
        EXECUTE format('CREATE ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS '
                       'INHERIT CONNECTION LIMIT {CONNECTION_LIMIT} PASSWORD %L IN ROLE {LEARNERS_ROLE}', r, verifier);
    END IF;
    INSERT INTO public.learner_roles (role, learner) VALUES (r, learner_name) ON CONFLICT DO NOTHING;
    RETURN r;
END
$f$"""
"""Make or update a learner's role (a fresh password each time, from its verifier) and
record it; the registrar's only privilege. Owned by :data:`OWNER_ROLE`, the one role with
CREATEROLE, which nobody logs in as."""


def _role_statements(database: str, version: int, dashboard: str, registrar: str) -> list[Any]:
    """The set-up's statements, in order (:func:`prepare_class_database`): ``dashboard`` and
    ``registrar`` are the two login roles' SCRAM verifiers; ``version`` the server's
    ``server_version_num``."""
    from psycopg import sql

    logins = sql.SQL(", ").join(map(sql.Identifier, (LEARNERS_ROLE, DASHBOARD_ROLE, REGISTRAR_ROLE)))
    statements = [
        *_roles_made(dashboard, registrar),
        *_public_shut_out(database, logins),
        *_tables_made(logins),
        *_functions_made(logins),
        *_row_security(),
    ]
    if version >= 160000:  # CREATEROLE alone no longer grants membership: the owner needs ADMIN on the group
        statements.append(
            sql.SQL("GRANT {} TO {} WITH ADMIN OPTION, INHERIT FALSE, SET FALSE").format(
                sql.Identifier(LEARNERS_ROLE), sql.Identifier(OWNER_ROLE)
            )
        )
    return statements


def _roles_made(dashboard: str, registrar: str) -> list[Any]:
    """The four roles, made if missing, with their attributes (the two logins' passwords set afresh)."""
    from psycopg import sql

    ident = sql.Identifier
    no = "NOSUPERUSER NOCREATEDB NOREPLICATION NOBYPASSRLS"
    login = f"LOGIN {no} NOCREATEROLE NOINHERIT CONNECTION LIMIT {CONNECTION_LIMIT} PASSWORD {{}}"
    return [
        sql.SQL(
            "DO $r$ DECLARE name text; BEGIN FOREACH name IN ARRAY ARRAY[{}] LOOP "
            "IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = name) THEN "
            "EXECUTE format('CREATE ROLE %I NOLOGIN', name); END IF; END LOOP; END $r$"
        ).format(
            sql.SQL(", ").join(sql.Literal(r) for r in (OWNER_ROLE, LEARNERS_ROLE, DASHBOARD_ROLE, REGISTRAR_ROLE))
        ),
        sql.SQL(f"ALTER ROLE {{}} NOLOGIN {no} CREATEROLE NOINHERIT").format(ident(OWNER_ROLE)),
        sql.SQL(f"ALTER ROLE {{}} NOLOGIN {no} NOCREATEROLE NOINHERIT").format(ident(LEARNERS_ROLE)),
        sql.SQL(f"ALTER ROLE {{}} {login}").format(ident(DASHBOARD_ROLE), sql.Literal(dashboard)),
        sql.SQL(f"ALTER ROLE {{}} {login}").format(ident(REGISTRAR_ROLE), sql.Literal(registrar)),
    ]


def _public_shut_out(database: str, logins: Any) -> list[Any]:
    """PUBLIC keeps nothing here: the database and schema public are the class's roles' only."""
    from psycopg import sql

    return [
        sql.SQL("REVOKE ALL ON DATABASE {} FROM PUBLIC").format(sql.Identifier(database)),
        sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(sql.Identifier(database), logins),
        sql.SQL("REVOKE ALL ON SCHEMA public FROM PUBLIC"),
        sql.SQL("GRANT USAGE ON SCHEMA public TO {}, {}").format(sql.Identifier(OWNER_ROLE), logins),
    ]


def _tables_made(logins: Any) -> list[Any]:
    """The tables, the owner's, and who may write and read them; an old class's events table kept with its rows."""
    from psycopg import sql

    ident = sql.Identifier
    return [
        sql.SQL(_PG_SCHEMA),
        sql.SQL(_PG_INDEX),
        sql.SQL(
            "DO $k$ DECLARE pk text; BEGIN "
            "SELECT conname INTO pk FROM pg_constraint WHERE conrelid = 'public.events'::regclass AND contype = 'p' "
            "AND conkey = ARRAY[(SELECT attnum FROM pg_attribute WHERE attrelid = 'public.events'::regclass "
            "AND attname = 'id')]::int2[]; "
            "IF pk IS NOT NULL THEN EXECUTE format('ALTER TABLE public.events DROP CONSTRAINT %I, "
            "ADD PRIMARY KEY (learner, id)', pk); END IF; END $k$"
        ),
        sql.SQL(
            "CREATE TABLE IF NOT EXISTS public.learner_roles (role name PRIMARY KEY, learner text NOT NULL UNIQUE)"
        ),
        sql.SQL("ALTER TABLE public.events OWNER TO {}").format(ident(OWNER_ROLE)),
        sql.SQL("ALTER TABLE public.learner_roles OWNER TO {}").format(ident(OWNER_ROLE)),
        sql.SQL("REVOKE ALL ON public.events, public.learner_roles FROM PUBLIC, {}").format(logins),
        sql.SQL("GRANT INSERT ON public.events TO {}").format(ident(LEARNERS_ROLE)),
        sql.SQL("GRANT SELECT ON public.events TO {}").format(ident(DASHBOARD_ROLE)),
    ]


def _functions_made(logins: Any) -> list[Any]:
    """The two functions, the owner's too, each executable by the one role that needs it."""
    from psycopg import sql

    ident = sql.Identifier
    return [
        sql.SQL(_LEARNER_FUNCTION),
        sql.SQL(_REGISTER_FUNCTION),
        sql.SQL("ALTER FUNCTION public.scatlab_learner() OWNER TO {}").format(ident(OWNER_ROLE)),
        sql.SQL("ALTER FUNCTION public.scatlab_register_learner(text, text) OWNER TO {}").format(ident(OWNER_ROLE)),
        sql.SQL(
            "REVOKE ALL ON FUNCTION public.scatlab_learner(), public.scatlab_register_learner(text, text) "
            "FROM PUBLIC, {}"
        ).format(logins),
        sql.SQL("GRANT EXECUTE ON FUNCTION public.scatlab_learner() TO {}").format(ident(LEARNERS_ROLE)),
        sql.SQL("GRANT EXECUTE ON FUNCTION public.scatlab_register_learner(text, text) TO {}").format(
            ident(REGISTRAR_ROLE)
        ),
    ]


def _row_security() -> list[Any]:
    """Row-level security: a learner inserts their own rows only; the dashboard reads all."""
    from psycopg import sql

    return [
        sql.SQL("ALTER TABLE public.events ENABLE ROW LEVEL SECURITY"),
        sql.SQL("DROP POLICY IF EXISTS scatlab_learner_inserts ON public.events"),
        sql.SQL(
            "CREATE POLICY scatlab_learner_inserts ON public.events FOR INSERT TO {} "
            "WITH CHECK (learner = public.scatlab_learner())"
        ).format(sql.Identifier(LEARNERS_ROLE)),
        sql.SQL("DROP POLICY IF EXISTS scatlab_dashboard_reads ON public.events"),
        sql.SQL("CREATE POLICY scatlab_dashboard_reads ON public.events FOR SELECT TO {} USING (true)").format(
            sql.Identifier(DASHBOARD_ROLE)
        ),
    ]


def prepare_class_database(superuser_url: str, *, dashboard_password: str, registrar_password: str) -> None:
    """Set up the class database at ``superuser_url`` (a superuser's URL, used for this only)
    as the module's notes say: the ``events`` table (an existing one kept, rows and all),
    ``learner_roles``, the roles, their privileges, row-level security. The dashboard's and
    the registrar's roles get these passwords (as SCRAM verifiers). Safe to run again (the
    hub runs it at every start): the roles' privileges and passwords are set afresh, the
    learners' roles and the events are kept. A bad URL, a role that is not a superuser, or
    any failure is a ClassDatabaseError."""
    psycopg = _psycopg()
    _check_url(superuser_url)
    dashboard, registrar = scram_verifier(dashboard_password), scram_verifier(registrar_password)
    try:
        with psycopg.connect(superuser_url, connect_timeout=5) as pg, pg.cursor() as cur:
            cur.execute("SELECT rolsuper, current_database() FROM pg_roles WHERE rolname = current_user")
            row = cur.fetchone()
            if not row or not row[0]:
                raise ClassDatabaseError(
                    f"{_shown(superuser_url)!r} is not a superuser's URL: the class database's "
                    "roles are set up by its superuser"
                )
            for statement in _role_statements(str(row[1]), int(pg.info.server_version), dashboard, registrar):
                cur.execute(statement)
            pg.commit()
    except psycopg.Error as exc:
        raise ClassDatabaseError(
            f"cannot set up the class database {_shown(superuser_url)}: {_first_line(exc)}"
        ) from None


def register_learner(registrar_url: str, learner_name: str, verifier: str, *, timeout: float = 5.0) -> str:
    """Make or update the role of ``learner_name`` with the registrar's URL, its password
    given as a SCRAM verifier (:func:`scram_verifier`); returns the role. A bad name or
    verifier, or a database that cannot be reached within about ``timeout`` seconds, is a
    ClassDatabaseError."""
    check_learner_name(learner_name)
    if not isinstance(verifier, str) or not _VERIFIER.fullmatch(verifier):
        raise ClassDatabaseError("not a SCRAM-SHA-256 verifier: make one with scram_verifier(password)")
    psycopg = _psycopg()
    params = _check_url(registrar_url)
    try:
        _probe(params)
        with (
            psycopg.connect(
                registrar_url,
                connect_timeout=max(2, round(timeout)),
                options=f"-c statement_timeout={int(timeout * 1000)}",
            ) as pg,
            pg.cursor() as cur,
        ):
            cur.execute("SELECT public.scatlab_register_learner(%s, %s)", (learner_name, verifier))
            row = cur.fetchone()
            pg.commit()
    except (OSError, psycopg.Error) as exc:
        raise ClassDatabaseError(
            f"cannot register the learner {learner_name!r} with the class database "
            f"{_shown(registrar_url)}: {_first_line(exc)}"
        ) from None
    role = str(row[0]) if row else ""
    if role != learner_role(learner_name):
        raise ClassDatabaseError(
            f"the class database {_shown(registrar_url)} gave the learner {learner_name!r} "
            f"the role {role!r}, not {learner_role(learner_name)!r}"
        )
    return role


def learner_url(registrar_url: str, learner_name: str) -> str:
    """The class database URL of the learner ``learner_name``: their own role (made if
    missing, by the registrar whose URL this is) with a new random password, on the
    registrar's server and database. Each call sets a new password, so a URL given before
    stops working. A bad name or an unreachable database is a ClassDatabaseError."""
    password = new_password()
    role = register_learner(registrar_url, learner_name, scram_verifier(password))
    return url_with_login(registrar_url, role, password)


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


THEME_WORDS = {
    "knock": "When to knock",
    "take-or-draw": "Take or draw",
    "throw": "Which card to throw",
    "other": "Other decisions",
}
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
            lines.append(
                f"  lessons opened {len(one.opened)}, finished {len(one.finished)}"
                + (f" ({', '.join(one.finished)})" if one.finished else "")
            )
            lines.append(f"  answers {one.right} of {one.answers} right")
            if one.stars:
                lines.append(
                    f"  stars {sum(one.stars.values())} in {len(one.stars)} step(s): "
                    + ", ".join(f"{k} {v}" for k, v in sorted(one.stars.items()))
                )
            if one.rating:
                lines.append("  practice rating: " + " -> ".join(str(r) for _, r in one.rating))
        if self.struggles:
            lines.append("Where the class struggles (first try right, hardest first):")
            for s in self.struggles:
                lines.append(
                    f"  {s.kind} {s.lesson}/{s.item}: {s.first_try} of {s.tried} learner(s) ({round(100 * s.rate)}%)"
                )
        if self.themes:
            lines.append("Costly decisions in reviewed games, by theme:")
            for t in self.themes:
                lines.append(
                    f"  {t.words}: {len(t.decisions)} decision(s), {t.serious} mistake(s) or blunder(s), "
                    f"{t.learners} learner(s)"
                )
                for d in t.decisions[:3]:
                    lines.append(
                        f"    {d.learner}, {d.where}: {d.label}, {d.cost_text} ({d.played}; better {d.better})"
                    )
        return "\n".join(lines) + "\n"


def class_report(url: str) -> ClassReport:
    """Per learner: lessons opened and finished, answers, stars per step, practice rating
    over time; and the exercises and steps by first-try success, lowest first. A bad URL or
    an unreachable database is a :class:`ClassDatabaseError`."""
    with _teacher(url) as pg, pg.cursor() as cur:
        cur.execute("SELECT count(*) FROM events")
        total = int(cur.fetchone()[0])
        cur.execute(
            "SELECT learner, kind, lesson, step, correct, stars, rating, at FROM events "
            "WHERE kind IN ('visit', 'finish', 'answer', 'stars', 'practice') ORDER BY at, id"
        )
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
        LearnerReport(
            who, tuple(p["opened"]), tuple(p["finished"]), p["answers"], p["right"], p["stars"], tuple(p["rating"])
        )
        for who, p in sorted(people.items())
    )
    counts: dict[tuple[str, str, str], list[int]] = {}
    for kind, lesson, step, correct, stars in firsts:
        key = ("exercise" if kind == "answer" else "step", lesson, step)
        tally = counts.setdefault(key, [0, 0])
        tally[0] += 1
        tally[1] += bool(correct) if kind == "answer" else int((stars or 0) >= 2)
    struggles = sorted(
        (Struggle(k, lesson, item, n, ok) for (k, lesson, item), (n, ok) in counts.items()),
        key=lambda s: (s.rate, -s.tried, s.kind, s.lesson, s.item),
    )
    return ClassReport(total, learners, tuple(struggles), _themes(reviewed))


def _themes(rows: Sequence[tuple[Any, ...]]) -> tuple[ThemeCosts, ...]:
    """``review`` events grouped by theme: the themes with most mistakes and blunders
    first, each theme's decisions costliest first (chances of winning before hand value)."""
    by_theme: dict[str, list[CostlyDecision]] = {}
    for who, where, payload in rows:
        p = payload if isinstance(payload, dict) else {}
        try:
            d = CostlyDecision(
                str(who),
                str(where or ""),
                str(p.get("theme", "other")),
                str(p.get("label", "")),
                float(p.get("cost_value", 0.0)),
                str(p.get("scale", "value")),
                str(p.get("played", "")),
                str(p.get("better", "")),
            )
        except (TypeError, ValueError):
            continue  # an event this version cannot read is left out, not a failed report
        by_theme.setdefault(d.theme, []).append(d)
    themes = [
        ThemeCosts(theme, tuple(sorted(ds, key=lambda d: (d.scale != "win", -d.cost, d.learner, d.where))))
        for theme, ds in by_theme.items()
    ]
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
        cur.execute(
            "SELECT at, learner, kind, lesson, step, correct, stars, rating, payload, id FROM events ORDER BY at, id"
        )
        rows = cur.fetchall()
    buffer = io.StringIO()
    out = csv.writer(buffer, lineterminator="\n")
    out.writerow(CSV_COLUMNS)
    for at, who, kind, lesson, step, correct, stars, rating, payload, eid in rows:
        out.writerow(
            [
                at.astimezone(UTC).isoformat(),
                who,
                kind,
                lesson or "",
                step or "",
                "" if correct is None else ("yes" if correct else "no"),
                "" if stars is None else stars,
                "" if rating is None else rating,
                json.dumps({k: v for k, v in (payload or {}).items() if k not in PRIVATE_FIELDS}, sort_keys=True),
                str(eid),
            ]
        )
    if isinstance(file, (str, os.PathLike)):
        try:
            Path(file).write_text(buffer.getvalue(), encoding="utf-8")
        except OSError as exc:
            raise ClassDatabaseError(f"cannot write {os.fspath(file)!r}: {exc.strerror}") from None
    else:
        file.write(buffer.getvalue())
    return len(rows)
