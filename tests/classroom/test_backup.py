"""A class's backup and its restore (:mod:`scatlab.classroom.backup`), performed: a class with a
learner's progress, secret and events is backed up, lost, and restored into a new folder and
a new database server; the learner logs in with their secret and every event is back."""

from __future__ import annotations

import io
import shutil
import tarfile
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers.servers import free_port
from scatlab.classroom.backup import BackupError, backup, restore
from scatlab.classroom.pgserver import LocalPostgres, find_binaries

psycopg = pytest.importorskip("psycopg")
pytestmark = pytest.mark.skipif(find_binaries() is None, reason="PostgreSQL is not installed (.ci/run installs it)")


@pytest.fixture
def root() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="scatlab-backup-"))  # the server may run as postgres: reachable
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        for db in folder.glob("*/postgres"):
            LocalPostgres(db, 0).stop("immediate")
        shutil.rmtree(folder, ignore_errors=True)


def _sql(url: str, query: str, *args: Any) -> list[tuple[Any, ...]]:
    with psycopg.connect(url, autocommit=True) as conn, conn.cursor() as cur:
        cur.execute(query, args)
        return cur.fetchall() if cur.description else []


def _a_class(folder: Path, port: int) -> list[tuple[Any, ...]]:
    """A class folder with one learner's progress and secret, the codes, and three events."""
    folder.mkdir()
    folder.chmod(0o755)
    db = LocalPostgres(folder / "postgres", port)
    db.start(fast=True)
    db.setup_roles()
    for i, (kind, step, stars) in enumerate((("visit", None, None), ("stars", "1.1", 3), ("stars", "2.1", 2))):
        _sql(
            db.superuser_url,
            "INSERT INTO events (id, learner, kind, lesson, step, payload, stars, at) "
            "VALUES (gen_random_uuid(), %s, %s, '01-the-game', %s, '{\"best\": 3}', %s, now() + %s * interval '1 s')",
            "ada",
            kind,
            step,
            stars,
            i,
        )
    home = folder / "learners" / "ada" / "scatlab"
    home.mkdir(parents=True)
    (home / "progress.sqlite").write_bytes(b"ada's progress")
    (folder / "learners" / ".removed" / "ben-20261207").mkdir(parents=True)
    (folder / "class-code").write_text("blue-cat-31\n")
    (folder / "teacher-code").write_text("t-7\n")
    (folder / "run").mkdir()
    (folder / "run" / "dashboard.pid").write_text("12345\n")
    return _events(db)


def _events(db: LocalPostgres) -> list[tuple[Any, ...]]:
    return _sql(
        db.superuser_url,
        "SELECT id, learner, kind, lesson, step, payload, correct, stars, rating, at FROM events ORDER BY at",
    )


def test_a_class_backed_up_lost_and_restored_is_whole(root: Path) -> None:
    pytest.importorskip("firstuseauthenticator")
    from scatlab.classroom.hub import ClassCodeAuthenticator

    old, new = root / "old", root / "new"
    port = free_port()
    events = _a_class(old, port)
    auth = ClassCodeAuthenticator(
        class_code="blue-cat-31",
        admin_users={"teacher"},
        secret_rounds=4,
        dbm_path=str(old / "learner-secrets"),
        learners_dir=str(old / "learners"),
    )
    auth.set_secret("ada", "ada-secret-1")

    archive = root / "class.tar.gz"
    summary = backup(old, archive, db_port=port)
    assert summary.events == 3 and oct(archive.stat().st_mode & 0o777) == "0o600"
    with tarfile.open(archive) as tar:
        names = tar.getnames()
    assert "class/learners/ada/scatlab/progress.sqlite" in names and "class/class-code" in names
    assert not any("password" in n or n.startswith(("class/postgres", "class/run")) for n in names)

    LocalPostgres(old / "postgres", port).stop("immediate")  # the machine is lost
    shutil.rmtree(old)

    new_port = free_port()
    restored = restore(archive, new, db_port=new_port)
    assert restored.events == 3
    assert (new / "learners" / "ada" / "scatlab" / "progress.sqlite").read_bytes() == b"ada's progress"
    assert (new / "learners" / ".removed" / "ben-20261207").is_dir()
    assert (new / "class-code").read_text() == "blue-cat-31\n" and (new / "teacher-code").read_text() == "t-7\n"
    db = LocalPostgres(new / "postgres", new_port)
    db.start(fast=True)
    assert _events(db) == events  # every event, its id, payload and time
    assert restore(archive, new, db_port=new_port).events == 0  # a second restore adds no duplicate
    db.start(fast=True)
    assert len(_events(db)) == 3
    db.stop("immediate")

    again = ClassCodeAuthenticator(
        class_code="blue-cat-31",
        admin_users={"teacher"},
        secret_rounds=4,
        dbm_path=str(new / "learner-secrets"),
        learners_dir=str(new / "learners"),
    )
    assert _login(again, "ada", "ada-secret-1") == "ada"
    assert _login(again, "ada", "blue-cat-31", "blue-cat-31") is None  # still ada's alone


def _login(auth: Any, name: str, secret: str, class_code: str = "") -> str | None:
    """The authenticator's answer, on an event loop of its own (a thread: the test's may run one)."""
    import asyncio
    import threading

    out: list[str | None] = []
    data = {"username": name, "password": secret, "class_code": class_code}
    worker = threading.Thread(target=lambda: out.append(asyncio.run(auth.authenticate(None, data))))
    worker.start()
    worker.join(30)
    assert len(out) == 1
    return out[0]


def _tar_with(root: Path, name: str, data: bytes = b"x") -> Path:
    path = root / f"{name.replace('/', '_')}.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        for member, content in (("events.jsonl", b""), (name, data)):
            info = tarfile.TarInfo(member)
            info.size = len(content)
            tar.addfile(info, io.BytesIO(content))
    return path


@pytest.mark.parametrize("name", ["class/../../escaped", "notes.txt"])
def test_a_restore_refuses_what_is_not_a_class_backup(root: Path, name: str) -> None:
    with pytest.raises(BackupError, match="class backup"):
        restore(_tar_with(root, name), root / "class", db_port=free_port())
    assert not (root / "escaped").exists() and not (root.parent / "escaped").exists()
    (root / "plain.tar.gz").write_bytes(b"not a tar")
    with pytest.raises(BackupError, match="'.*plain.tar.gz' is not a scatlab class backup"):
        restore(root / "plain.tar.gz", root / "class", db_port=free_port())


def test_a_backup_needs_a_class_folder(root: Path) -> None:
    with pytest.raises(BackupError, match="is not a class folder"):
        backup(root / "nowhere", root / "x.tar.gz", db_port=free_port())
