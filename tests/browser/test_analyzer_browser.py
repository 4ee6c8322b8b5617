"""The hand analyzer in a real browser: headless Chromium (Debian's /usr/bin/chromium) on a
Voilà page of notebooks/analyze.ipynb (issue 8).

A learner types a hand and sees P(31) and the LaTeX derivation rendered, clicks a card out
of the hand and another one in, picks a card with the keyboard only (Tab to it, Enter), and
the page logs no console error beyond the known offline noise (JUPYTER-NOTES.md).
Screenshots go to tests/artifacts/ (git-ignored). A missing browser fails the run.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = "/usr/bin/chromium"
KNOWN_NOISE = ("ERR_NAME_NOT_RESOLVED", "Unsatisfied version", "No satisfying version")
"""Offline, the icon CSS from a CDN cannot load, and Voilà's bundled JupyterLab core warns
about versions: neither is the widget's fault."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def voila_url() -> Iterator[str]:
    """Voilà serving notebooks/analyze.ipynb on a free port (SIGTERM on teardown)."""
    port = _free_port()
    voila = Path(sys.executable).with_name("voila")
    proc = subprocess.Popen(
        [str(voila), str(ROOT / "notebooks" / "analyze.ipynb"), "--no-browser", f"--port={port}",
         "--Voila.ip=127.0.0.1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True, cwd=ROOT,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/voila/static/voila.js", timeout=2)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"Voilà did not start on port {port}") from None
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/"
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM)
        yield browser
        browser.close()


def _errors(messages: list[str]) -> list[str]:
    return [m for m in messages if not any(noise in m for noise in KNOWN_NOISE)]


def test_type_a_hand_see_p31_and_the_derivation_then_pick_cards_by_mouse_and_keyboard(
    voila_url: str, chromium: Browser
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page: Page = chromium.new_page(viewport={"width": 1100, "height": 1500})
    problems: list[str] = []

    def on_console(msg: ConsoleMessage) -> None:
        if msg.type == "error":
            problems.append(msg.text)

    page.on("console", on_console)
    page.on("pageerror", lambda err: problems.append(f"page error: {err}"))
    page.goto(voila_url)
    analyzer = page.locator(".scat-analyzer").first
    expect(analyzer.locator(".scat-pick").first).to_be_visible(timeout=60_000)
    assert analyzer.locator(".scat-pick").count() == 52

    # type a hand (the top discard 9♠ is already there) and press Enter
    hand = analyzer.locator(".scat-field-hand input")
    hand.fill("ah kh 4c")
    hand.press("Enter")
    p31 = analyzer.locator("tr[data-key='p_31'] td.num")
    expect(p31).to_have_text("1/16 ≈ 0.0625", timeout=15_000)
    expect(analyzer.locator("tr[data-key='draw_ev'] td.num")).to_have_text("541/24 ≈ 22.5417")
    expect(analyzer.locator(".widget-htmlmath mjx-container, .widget-htmlmath .MathJax").first).to_be_visible(
        timeout=15_000)
    assert "P(31)" in analyzer.locator(".widget-htmlmath").inner_text() or analyzer.locator(
        ".widget-htmlmath mjx-container").count() >= 1
    outs = analyzer.locator(".scat-pick.scat-out")
    expect(outs).to_have_count(3)
    assert sorted(outs.evaluate_all("els => els.map(e => e.dataset.card)")) == ["10H", "JH", "QH"]

    # a typo stays in the field with its message beside it
    hand.fill("ah kh 4x")
    hand.press("Enter")
    expect(analyzer.locator(".scat-error-hand")).to_contain_text("'4x' is not a card")
    expect(hand).to_have_value("ah kh 4x")
    hand.fill("AH KH 4C")
    hand.press("Enter")
    expect(p31).to_have_text("1/16 ≈ 0.0625")

    # click the 4♣ out of the hand and the Q♥ in: 31
    analyzer.get_by_role("button", name="Hand", exact=True).click()
    analyzer.locator(".scat-pick[data-card='4C']").click()
    expect(hand).to_have_value("AH KH")
    analyzer.locator(".scat-pick[data-card='QH']").click()
    expect(hand).to_have_value("AH KH QH")
    expect(analyzer.locator("tr[data-key='value'] td.num")).to_have_text("31")

    # keyboard only: Tab from the Q♥ to the next card (J♥) and Enter puts it into the dead cards
    analyzer.get_by_role("button", name="Dead", exact=True).click()
    queen = analyzer.locator(".scat-pick[data-card='QH']")
    queen.focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.card") == "JH"
    page.keyboard.press("Enter")
    expect(analyzer.locator(".scat-field-dead input")).to_have_value("JH")
    assert page.evaluate("document.activeElement.dataset.card") == "JH", "focus is kept after the redraw"

    # a refused click explains itself and changes nothing
    analyzer.locator(".scat-pick[data-card='AH']").click()
    expect(analyzer.get_by_role("alert").filter(has_text="given twice")).to_be_visible()
    expect(analyzer.locator(".scat-field-dead input")).to_have_value("JH")

    analyzer.screenshot(path=str(ARTIFACTS / "analyzer.png"))
    page.close()
    assert _errors(problems) == [], f"console errors: {_errors(problems)}"
