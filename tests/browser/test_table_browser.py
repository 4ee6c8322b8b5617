"""The card table in a real browser (headless Chromium on a Voilà page): a whole hand with
the mouse, another with the keyboard only (D, T, K, Tab, Enter), refused moves shown on the
table, no console errors beyond the known offline noise. Screenshots: tests/artifacts/."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

TIMEOUT = 30_000


def open_table(page: Any, voila_url: str) -> Any:
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(voila_url + "/voila/render/table_page.ipynb", timeout=60_000)
    table = page.locator(".scat-table")
    expect(table).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(".scat-hand-card")).to_have_count(3, timeout=TIMEOUT)
    return table


def test_explore(page: Any, voila_url: str, console_errors: list[str], shot: Any) -> None:
    open_table(page, voila_url)
    shot("explore-start")
    page.locator(".scat-pile[data-pile=stock]").click()
    expect(page.locator(".scat-hand-card")).to_have_count(4, timeout=TIMEOUT)
    shot("explore-drawn")
