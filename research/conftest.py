"""The studies' own tests run in the suite, untraced by coverage (pytest-cov's ``no_cover``):
the coverage figure is the product's tests' (tests/ and the package's doctests), and tracing
the studies' long computations cost half a minute of the suite's time."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test collected under research/ ``no_cover``."""
    for item in items:
        if "research" in item.path.parts:
            item.add_marker(pytest.mark.no_cover)
