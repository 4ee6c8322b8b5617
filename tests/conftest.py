"""Hypothesis profiles: the suite is deterministic by default (and in CI).

- ``ci`` (the default): derandomized, no example database, so every run tries exactly the
  same examples and a test can only fail on a code change. Failures ever found are pinned
  with ``@example`` next to their test.
- ``explore``: random examples with a local database, for hunting new failures
  (``HYPOTHESIS_PROFILE=explore .venv/bin/pytest``); pin what it finds with ``@example``.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_sessionfinish(session: pytest.Session) -> None:
    """In a pytest-xdist worker, hand this worker's fuzz counts to the controller."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        import fuzzing

        workeroutput["fuzz_counts"] = dict(fuzzing.COUNTS)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """On the pytest-xdist controller, add up the fuzz counts each worker reported."""
    import fuzzing

    fuzzing.COUNTS.update(getattr(node, "workeroutput", {}).get("fuzz_counts", {}))


def pytest_terminal_summary(terminalreporter: object) -> None:
    """Report how many inputs the fuzz tests tried (tests/fuzzing.py counts them; with
    ``-n``, every worker's counts added up)."""
    import fuzzing

    if fuzzing.COUNTS:
        total = sum(fuzzing.COUNTS.values())
        parts = ", ".join(f"{name} {n:,}" for name, n in sorted(fuzzing.COUNTS.items()))
        write = getattr(terminalreporter, "write_line")
        write(f"fuzz inputs tried: {total:,} ({parts})")


# -- a real PostgreSQL server for the class database's tests (issue 52) ----------------------


class PgServer:
    """A PostgreSQL server of the test session in a temporary folder
    (:class:`scatlab.classroom.pgserver.LocalPostgres`, Debian's binaries; ``.ci/run`` installs them),
    with the class's roles set up (:meth:`~scatlab.classroom.pgserver.LocalPostgres.setup_roles`).
    ``url`` is its superuser's (with its password), for the tests' own queries; ``dashboard``
    and ``registrar`` are the URLs the hub would have."""

    def __init__(self, folder: Any, port: int) -> None:
        from scatlab.classroom.pgserver import LocalPostgres

        self.db = LocalPostgres(folder, port)
        self.url = ""
        self.dashboard = ""
        self.registrar = ""

    def start(self) -> None:
        self.db.start(fast=True)
        self.url = self.db.superuser_url

    def setup(self) -> None:
        """Set the class's roles up (again): the events table, if dropped, made afresh."""
        urls = self.db.setup_roles()
        self.dashboard, self.registrar = urls.dashboard, urls.registrar

    def stop(self) -> None:
        self.db.stop("fast")

    def sql(self, query: str, url: str | None = None) -> list[tuple[Any, ...]]:
        """Run ``query`` as the superuser (or with ``url``)."""
        import psycopg

        with psycopg.connect(url or self.url, autocommit=True) as conn, conn.cursor() as cur:
            cur.execute(query)
            return cur.fetchall() if cur.description else []


@pytest.fixture(scope="session")
def pg_server() -> Any:
    """A running PostgreSQL server (one per test worker), stopped and removed at the end."""
    import shutil
    import socket
    import tempfile
    from pathlib import Path

    from scatlab.classroom.pgserver import find_binaries

    if find_binaries() is None:
        pytest.fail("PostgreSQL is not installed: .ci/run installs it (apt-get install postgresql)")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.fail("psycopg is not installed: pip install -e '.[test]' (make test does)")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    root = Path(tempfile.mkdtemp(prefix="scatlab-pg-"))
    root.chmod(0o755)  # the server may run as another user (as root: postgres), who must reach its folder
    server = PgServer(root / "pg", port)
    server.start()
    server.setup()
    try:
        yield server
    finally:
        server.db.stop("immediate")
        shutil.rmtree(root, ignore_errors=True)
