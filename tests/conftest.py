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
