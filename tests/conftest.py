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

from helpers.servers import PgServer, free_port

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
        from helpers import fuzzing

        workeroutput["fuzz_counts"] = dict(fuzzing.COUNTS)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """On the pytest-xdist controller, add up the fuzz counts each worker reported."""
    from helpers import fuzzing

    fuzzing.COUNTS.update(getattr(node, "workeroutput", {}).get("fuzz_counts", {}))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Report how many inputs the fuzz tests tried (tests/helpers/fuzzing.py counts them; with
    ``-n``, every worker's counts added up)."""
    from helpers import fuzzing

    if fuzzing.COUNTS:
        total = sum(fuzzing.COUNTS.values())
        parts = ", ".join(f"{name} {n:,}" for name, n in sorted(fuzzing.COUNTS.items()))
        write = terminalreporter.write_line
        write(f"fuzz inputs tried: {total:,} ({parts})")


# -- a real PostgreSQL server for the class database's tests (issue 52) ----------------------


@pytest.fixture(scope="session")
def pg_server() -> Any:
    """A running PostgreSQL server (one per test worker), stopped and removed at the end."""
    import shutil
    import tempfile
    from pathlib import Path

    from scatlab.classroom.pgserver import find_binaries

    if find_binaries() is None:
        pytest.fail("PostgreSQL is not installed: .ci/run installs it (apt-get install postgresql)")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.fail("psycopg is not installed: pip install -e '.[test]' (make test does)")
    port = free_port()
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
