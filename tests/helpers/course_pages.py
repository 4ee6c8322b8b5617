"""The course app in a browser, for the browser tests: the server ``scatlab serve`` runs as,
the pages it serves, and what a page must never show (a traceback, a console error, a request
leaving the machine, a clipped label)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from playwright.sync_api import Page, expect

from scatlab.course.lessons import APPENDICES, LESSONS

__all__ = [
    "ARTIFACTS",
    "KNOWN_NOISE",
    "VERSION_WARNINGS",
    "PAGES",
    "READING_ONLY",
    "Server",
    "start_app",
    "open_page",
    "no_trouble",
    "shot",
    "renders_its_widgets_without_errors",
]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "course"
"""Where the course's browser tests put their screenshots (ignored by git)."""
KNOWN_NOISE: tuple[str, ...] = ()
"""Console messages that are not the app's: none since Voilà, jupyterlab_widgets and ipywidgets
are pinned to versions that agree (docs/design/libraries.md). Anything logged as an error fails
the test, a failed request (403, 404) included."""
VERSION_WARNINGS = ("Unsatisfied version", "No satisfying version")
"""Webpack's warnings that a front-end extension wants another version of a shared module than
Voilà's page provides (a version drift between the pins): logged as warnings, they fail too."""
PAGES = ["00-index", "rulebook", "practice", *(lesson.id for lesson in LESSONS), *(extra.id for extra in APPENDICES)]
READING_ONLY = {"07-not-this-game"}
"""Lessons with no widget of their own (their calculator and exercise are in an appendix)."""


class Server:
    def __init__(self, port: int, home: Path, proc: subprocess.Popen[str]) -> None:
        self.port, self.home, self.proc = port, home, proc
        self.url = f"http://127.0.0.1:{port}"

    def page_url(self, name: str) -> str:
        return f"{self.url}/voila/render/{name}.ipynb"


def start_app(port: int, home: Path, *extra: str) -> subprocess.Popen[str]:
    """Start the app; its console goes to ``home / "serve.log"`` (a file, so a long run
    never blocks on a full pipe)."""
    env = {**os.environ, "SCATLAB_HOME": str(home)}
    with (home / "serve.log").open("w") as log:
        return subprocess.Popen(
            [sys.executable, "-m", "scatlab", "serve", "--no-browser", "--port", str(port), *extra],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )


def open_page(page: Page, server: Server, name: str) -> None:
    page.goto(server.page_url(name), wait_until="domcontentloaded")
    expect(page.locator(".widget-html, .widget-button").first).to_be_visible(timeout=30_000)


def no_trouble(page: Page) -> None:
    body = page.locator("body").inner_text()
    assert "Traceback" not in body and "There was an error when executing cell" not in body, body[:2000]
    assert page.console_errors == [], page.console_errors  # type: ignore[attr-defined]


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def renders_its_widgets_without_errors(course_page: Page, server: Server, name: str) -> None:
    """Page ``name`` at the page's width: its header, widgets and footer, no code editor, no
    console error, every button's whole label (tests/browser/test_course_words_browser.py
    runs it at 1280 px before reading the page's words)."""
    open_page(course_page, server, name)
    if name in ("00-index", "rulebook"):
        expect(course_page.locator(".scatlab-course-index, .scatlab-rulebook").first).to_be_visible()
    elif name == "practice":  # not a lesson: the header's links, the puzzle and its choices
        expect(course_page.locator(".scatlab-header nav a").filter(has_text="Course index")).to_be_visible()
        expect(course_page.locator(".scatlab-practice .scatlab-puzzle svg").first).to_be_visible()
        assert course_page.locator(".scatlab-practice .scatlab-choice").count() >= 2
    else:
        nav = course_page.locator(".scatlab-header nav a")
        expect(nav.filter(has_text="Course index")).to_be_visible()
        # at least one live widget beyond the furniture (an appendix's footer has no button)
        live = course_page.locator(".widget-button, .widget-text, .widget-dropdown, .widget-toggle-buttons")
        if name.startswith("appendix-"):
            expect(nav.filter(has_text="back to")).to_be_visible()
            expect(course_page.locator(".scatlab-footer")).to_contain_text("does not count toward your progress")
            assert course_page.locator(".scatlab-footer .widget-button").count() == 0
            assert live.count() >= 1
        else:
            expect(course_page.locator(".scatlab-footer .widget-button")).to_be_visible()
            assert live.count() >= (1 if name in READING_ONLY else 2)
        assert course_page.locator(".jp-InputArea-editor, .CodeMirror, .cm-editor").count() == 0
    if name == "03-knocking":  # the chart is drawn once its figures are ready
        expect(course_page.locator("svg[aria-label^='your chance of winning the game if you knock']")).to_be_visible(
            timeout=30_000
        )
    course_page.wait_for_timeout(300)
    no_trouble(course_page)
    # every button shows its whole label (no "Mark this lesson fini...")
    clipped = course_page.evaluate("""() => [...document.querySelectorAll('.widget-button, .widget-toggle-button')]
        .filter(b => b.offsetWidth > 0 && b.scrollWidth > b.clientWidth + 1).map(b => b.textContent)""")
    assert clipped == [], clipped
    shot(course_page, name)
