"""Browser tests: a Voilà server on a free port of 127.0.0.1 serving the test notebooks,
and Debian's headless Chromium driven by Playwright (JUPYTER-NOTES.md).

A missing browser fails the run (it never skips): CI installs ``chromium`` in ``.ci/run``.
Screenshots go to ``tests/artifacts/`` (git-ignored).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, expect

from helpers.course_pages import KNOWN_NOISE, VERSION_WARNINGS, Server, start_app
from helpers.servers import free_port, stop, wait_ready

# A page's kernel answers each click or key after the analysis runs; on a loaded machine
# (CI, two test workers, a Voilà server each) that took more than Playwright's default 5 s
# for an assertion: every expectation waits up to 15 s unless it says otherwise.
expect.set_options(timeout=15_000)

HERE = Path(__file__).parent
ARTIFACTS = HERE.parent / "artifacts"
CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the browser tests after every other test: Playwright's sync API keeps an event
    loop in the main thread, which the other tests should not see."""
    items.sort(key=lambda item: "tests/browser/" in item.nodeid.replace("\\", "/"))


@pytest.fixture(scope="session")
def voila_url() -> Iterator[str]:
    """The base URL of a Voilà server serving ``tests/browser``."""
    port = free_port()
    # one log per pytest-xdist worker (PYTEST_XDIST_WORKER is "gw0", "gw1", ...; unset without -n)
    log = (
        ARTIFACTS / f"voila{'-' + os.environ['PYTEST_XDIST_WORKER'] if 'PYTEST_XDIST_WORKER' in os.environ else ''}.log"
    )
    ARTIFACTS.mkdir(exist_ok=True)
    with log.open("w") as out:
        proc = subprocess.Popen(
            [
                # the course's Voilà (scatlab.app.server): its page template fetches nothing
                # from outside the machine, as in the app
                sys.executable,
                "-m",
                "scatlab.app.server",
                "--no-browser",
                f"--port={port}",
                "--Voila.ip=127.0.0.1",
                "--show_tracebacks=True",
                "--VoilaConfiguration.template=scatlab",
                "--KernelManager.transport_encryption=auto",
                "--MappingKernelManager.cull_interval=10",
                "--MappingKernelManager.cull_idle_timeout=20",
                str(HERE),
            ],
            cwd=HERE,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    with urllib.request.urlopen(base + "/voila/static/voila.js", timeout=2) as response:
                        if response.status == 200:
                            break
                except OSError:
                    pass
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"Voilà did not start on port {port}; see {log}")
                time.sleep(0.2)
            yield base
        finally:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Debian's Chromium, headless and offline-quiet; fail (never skip) without it."""
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium), as .ci/run does")
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "args": FLAGS, "headless": True}


@pytest.fixture
def console_errors(page: Any) -> Iterator[list[str]]:
    """Console errors and page errors seen during a test, beyond the known offline noise;
    the test fails if any remain."""
    errors: list[str] = []

    def on_request(request: Any) -> None:  # nothing may leave the machine
        if request.url.startswith(("http:", "https:", "ws:", "wss:")) and urlsplit(request.url).hostname != "127.0.0.1":
            errors.append(f"request outside 127.0.0.1: {request.url}")

    def on_console(msg: Any) -> None:
        if msg.type == "error" or (msg.type == "warning" and any(w in msg.text for w in VERSION_WARNINGS)):
            errors.append(msg.text)

    page.on("console", on_console)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("request", on_request)
    yield errors
    real = [e for e in errors if not any(noise in e for noise in KNOWN_NOISE)]
    assert real == [], f"console errors: {real}"


@pytest.fixture
def shot(page: Any) -> Any:
    """Save a full-page screenshot to tests/artifacts/NAME.png."""
    ARTIFACTS.mkdir(exist_ok=True)

    def take(name: str) -> Path:
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


PAST_THE_RIGHT_EDGE = """(selector) => {
    const w = window.innerWidth;
    const inScroller = (n) => {  // a wide table may scroll inside its own box
        for (let a = n.parentElement; a && a !== document.body; a = a.parentElement) {
            const o = getComputedStyle(a).overflowX;
            if ((o === 'auto' || o === 'scroll') && a.getBoundingClientRect().right <= w + 1) return true;
        }
        return false;
    };
    return [...document.querySelectorAll(selector)]
        .filter(n => { const r = n.getBoundingClientRect(); return r.width > 0 && r.right > w + 1 && !inScroller(n); })
        .slice(0, 8).map(n => `${n.tagName}.${n.className} ${Math.round(n.getBoundingClientRect().right)}`);
}"""


@pytest.fixture(scope="session")
def past_the_right_edge() -> Any:
    """``check(page, selector)``: the elements matching ``selector`` that reach past the
    viewport's right edge, outside a box that scrolls sideways (at most 8, described), and
    that the page itself does not scroll sideways: a phone-width test expects ``[]``."""

    def check(page: Any, selector: str) -> list[str]:
        found: list[str] = page.evaluate(PAST_THE_RIGHT_EDGE, selector)
        width = page.evaluate("() => document.documentElement.scrollWidth")
        inner = page.evaluate("() => window.innerWidth")
        return found + ([f"the page scrolls sideways: {width} px wide in {inner}"] if width > inner else [])

    return check


# -- the course app and a page of it (tests/browser/test_course*_browser.py) -----------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    home = tmp_path_factory.mktemp("scatlab-home")
    port = free_port()
    proc = start_app(port, home)
    try:
        wait_ready(f"http://127.0.0.1:{port}/voila/static/voila.js", proc)
        yield Server(port, home, proc)
    finally:
        stop(proc)


@pytest.fixture(scope="module")
def chromium(browser: Browser) -> Browser:
    """pytest-playwright's browser, launched from Debian's chromium by conftest.py (one
    Playwright per session: a second sync Playwright would clash with its event loop)."""
    assert Path(CHROMIUM).exists(), f"Chromium is missing at {CHROMIUM}: apt-get install -y chromium"
    return browser


@pytest.fixture()
def course_page(chromium: Browser) -> Iterator[Page]:
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    errors: list[str] = []

    def on_console(msg: ConsoleMessage) -> None:
        wanted = msg.type == "error" or (msg.type == "warning" and any(w in msg.text for w in VERSION_WARNINGS))
        if wanted and not any(n in msg.text for n in KNOWN_NOISE):
            errors.append(msg.text)

    def on_request(request: Any) -> None:  # nothing may leave the machine (a classroom may be offline)
        host = urlsplit(request.url).hostname
        if request.url.startswith(("http:", "https:", "ws:", "wss:")) and host != "127.0.0.1":
            errors.append(f"request outside 127.0.0.1: {request.url}")

    pg.on("console", on_console)
    pg.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    pg.on("request", on_request)
    pg.console_errors = errors  # type: ignore[attr-defined]
    try:
        yield pg
    finally:
        context.close()
