"""Run the browser tests (tests/browser) after every other test: Playwright's sync API
keeps an event loop in the main thread, which the other tests should not see."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: "tests/browser/" in item.nodeid.replace("\\", "/"))
