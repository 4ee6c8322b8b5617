"""A class's backup, and its restore: ``scatlab class backup FILE`` and ``scatlab class restore FILE``.

What a class cannot lose is in two places: the class folder (each learner's home with their
progress, the learners' secrets, the codes, the hub's own database) and the class database
(every learner's events, which the dashboard reads). :func:`backup` writes both into one
``.tar.gz`` (mode 0600: it holds the secrets' hashes and the codes):

- ``events.jsonl``: every event of the class database, one JSON object a line, read with the
  dashboard's read-only role;
- ``class/``: the class folder's ``learners/`` (the removed learners' folders too),
  ``learner-secrets*``, ``class-code``, ``teacher-code``, ``jupyterhub.sqlite`` and
  ``jupyterhub_cookie_secret``; not the database server's own files (the events are in
  ``events.jsonl``), its passwords (a restored server makes new ones), nor what a running
  hub keeps for itself (pid files, the kernels' socket).

:func:`restore` puts them back into a class folder where no hub runs: the files (checked on
the way: nothing outside the folder, no links, no devices), then the events into the class's
own PostgreSQL server (started if it is not, with its roles set up, and stopped again
after), keeping events already there (each event's id is its key). Learners' homes are
given back to their users at their next start (:mod:`scatlab.classroom.spawner`).

Both need the class's own database server (``SCATLAB_CLASS_DB`` unset), on the hub's port
+ 4 unless told otherwise (``--db-port``). ``tests/classroom/test_backup.py`` backs a class up, loses
it, restores it into a new folder and a new server, and logs a learner in with their secret.

>>> sorted(KEPT)
['class-code', 'jupyterhub.sqlite', 'jupyterhub_cookie_secret', 'learner-secrets*', 'learners', 'teacher-code']
"""

from __future__ import annotations

import io
import json
import os
import tarfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from ..errors import BackupError

__all__ = ["KEPT", "BackupError", "Summary", "backup", "restore"]

KEPT = ("learners", "learner-secrets*", "class-code", "teacher-code", "jupyterhub.sqlite", "jupyterhub_cookie_secret")
"""What of the class folder a backup keeps (names and patterns)."""

_COLUMNS = ("id", "learner", "kind", "lesson", "step", "payload", "correct", "stars", "rating", "at")


@dataclass(frozen=True)
class Summary:
    """What a backup wrote, or a restore put back."""

    events: int
    files: int

    def text(self, verb: str, where: Path) -> str:
        return f"{verb} {self.events} event(s) and {self.files} file(s): {where}"


def _database(folder: Path, port: int) -> Any:
    from .pgserver import LocalPostgres

    return LocalPostgres(Path(folder) / "postgres", port)


def _events_out(url: str) -> list[dict[str, Any]]:
    from .classdb import _psycopg

    psycopg = _psycopg()
    with psycopg.connect(url, connect_timeout=5) as conn, conn.cursor() as cur:
        cur.execute(f"SELECT {', '.join(_COLUMNS)} FROM events ORDER BY at, id")
        rows = cur.fetchall()
    return [
        {
            name: (str(value) if name == "id" else value.isoformat() if isinstance(value, datetime) else value)
            for name, value in zip(_COLUMNS, row)
        }
        for row in rows
    ]


def backup(folder: str | os.PathLike[str], archive: str | os.PathLike[str], *, db_port: int) -> Summary:
    """Write the class in ``folder`` (its class database on 127.0.0.1:``db_port``) to ``archive``."""
    folder, archive = Path(folder).resolve(), Path(archive)
    if not (folder / "learners").is_dir():
        raise BackupError(
            f"{str(folder)!r} is not a class folder (it has no learners/): give the class folder "
            "(SCATLAB_CLASS_DIR, class/ in the checkout)"
        )
    db = _database(folder, db_port)
    started = False
    if (db.data / "PG_VERSION").is_file():
        if not db.running():
            db.start()
            started = True
        try:
            events = _events_out(db.dashboard_url)
        finally:
            if started:
                db.stop()
    else:
        events = []
    fd = os.open(archive, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    files = 0
    with os.fdopen(fd, "wb") as raw, tarfile.open(fileobj=raw, mode="w:gz") as tar:
        data = "".join(json.dumps(e, ensure_ascii=False, sort_keys=True) + "\n" for e in events).encode()
        info = tarfile.TarInfo("events.jsonl")
        info.size, info.mode = len(data), 0o600
        tar.addfile(info, io.BytesIO(data))
        for pattern in KEPT:
            for path in sorted(folder.glob(pattern)):
                if path.is_symlink():
                    continue
                tar.add(
                    path,
                    arcname=f"class/{path.relative_to(folder)}",
                    filter=lambda member: None if member.issym() or member.islnk() else member,
                )
                files += sum(1 for p in path.rglob("*") if p.is_file()) if path.is_dir() else 1
    return Summary(len(events), files)


def _events_in(url: str, events: list[dict[str, Any]]) -> int:
    from .classdb import _psycopg

    psycopg = _psycopg()
    from psycopg.types.json import Jsonb

    added = 0
    with psycopg.connect(url, connect_timeout=5) as conn, conn.cursor() as cur:
        for e in events:
            cur.execute(
                f"INSERT INTO events ({', '.join(_COLUMNS)}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
                "ON CONFLICT DO NOTHING",
                (
                    e["id"],
                    e["learner"],
                    e["kind"],
                    e.get("lesson"),
                    e.get("step"),
                    Jsonb(e.get("payload") or {}),
                    e.get("correct"),
                    e.get("stars"),
                    e.get("rating"),
                    e["at"],
                ),
            )
            added += cur.rowcount
    return added


def restore(archive: str | os.PathLike[str], folder: str | os.PathLike[str], *, db_port: int) -> Summary:
    """Put the backup ``archive`` back into the class folder ``folder`` (no hub of it may run)."""
    from .classrun import hub_running

    archive, folder = Path(archive), Path(folder).resolve()
    running = hub_running(folder)
    if running:
        raise BackupError(f"a hub of the class in {str(folder)!r} runs (pid {running}): stop it before a restore")
    try:
        tar = tarfile.open(archive, "r:gz")
    except (OSError, tarfile.TarError) as exc:
        raise BackupError(f"{str(archive)!r} is not a scatlab class backup ({exc})") from None
    with tar:
        names = tar.getnames()
        if "events.jsonl" not in names or any(
            n != "events.jsonl" and n != "class" and not n.startswith("class/") for n in names
        ):
            raise BackupError(f"{str(archive)!r} is not a scatlab class backup (it holds {names[:3]}...)")
        stream = tar.extractfile("events.jsonl")
        assert stream is not None
        events = [json.loads(line) for line in stream.read().decode().splitlines() if line.strip()]
        folder.mkdir(parents=True, exist_ok=True)
        members = [m for m in tar.getmembers() if m.name.startswith("class/")]
        for member in members:
            member.name = member.name[len("class/") :]
        try:
            tar.extractall(folder, members=members, filter="data")  # nothing outside, no links out, no devices
        except tarfile.FilterError as exc:
            raise BackupError(f"{str(archive)!r} holds what a class backup cannot: {exc}") from None
        files = sum(1 for m in members if m.isfile())
    added = 0
    if events:
        db = _database(folder, db_port)
        was_running = (db.data / "PG_VERSION").is_file() and db.running()
        db.start()
        try:
            db.setup_roles()
            added = _events_in(db.superuser_url, events)
        finally:
            if not was_running:
                db.stop()
    return Summary(added, files)
