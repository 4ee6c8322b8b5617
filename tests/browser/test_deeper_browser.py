"""Look deeper in a real browser (headless Chromium on a Voilà page, issue 67): in the hand
analyzer and in the card table's hints, a click shows a progress bar that says what it is
doing, then the master's verdict, final; at 1280 px and on a phone (390 px) nothing of it is
cut off and nothing overlaps. Screenshots: tests/artifacts/deeper-*.png."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

TIMEOUT = 30_000

RECORD_PROGRESS = """(selector) => {
    window.scatProgress = [];
    const look = () => {
        for (const n of document.querySelectorAll(selector)) {
            if (!n.hidden && n.textContent) window.scatProgress.push(n.textContent);
        }
    };
    new MutationObserver(look).observe(document.body, {subtree: true, childList: true, characterData: true,
                                                       attributes: true});
}"""
"""Records every text the look's progress label shows (it may come and go faster than a poll)."""

OVERLAPS = """(selector) => {
    const parts = [...document.querySelectorAll(selector)].filter(n => !n.hidden && n.getClientRects().length);
    const boxes = parts.map(n => [n, n.getBoundingClientRect()]);
    const found = [];
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
        const [a, r] = boxes[i], [b, s] = boxes[j];
        if (a.contains(b) || b.contains(a)) continue;
        if (r.left < s.right - 1 && s.left < r.right - 1 && r.top < s.bottom - 1 && s.top < r.bottom - 1)
            found.push(`${a.className || a.tagName} / ${b.className || b.tagName}`);
    }
    return found;
}"""
"""The pairs of the look's parts (``selector``) whose boxes overlap, one inside the other aside."""


def look(page: Any, box: Any, label: str) -> Any:
    """Click Look deeper in ``box``, see the progress bar say what it does, then the final
    verdict; returns the verdict's box."""
    page.evaluate(RECORD_PROGRESS, label)
    button = box.get_by_role("button", name="Look deeper")
    expect(button).to_be_enabled(timeout=TIMEOUT)
    button.click()
    verdict = box.locator(".scat-deeper-verdict")
    expect(verdict).to_contain_text(re.compile(r"Final, after \d+ deals"), timeout=60_000)
    expect(verdict).to_contain_text(re.compile(r"A deeper look (agrees that .+ is the best move|finds .+ better than)"))
    expect(button).to_be_disabled()
    expect(box.locator(".scat-deeper-progress")).to_be_hidden()
    said = page.evaluate("window.scatProgress")
    assert any(re.match(r"Looking deeper: the master plays each move out in deal [\d,]+ of [\d,]+", t) for t in said)
    assert not re.search(r"±|seed|rollout", verdict.inner_text())
    return verdict


def test_look_deeper_in_the_analyzer_and_the_tables_hints_at_1280_and_390_px(
    page: Any, voila_url: str, console_errors: list[str], shot: Any, past_the_right_edge: Any
) -> None:
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.goto(voila_url + "/voila/render/deeper_page.ipynb", timeout=60_000)
    analyzer = page.locator(".scat-analyzer")
    panel = analyzer.locator(".scat-deeper")
    expect(panel).to_contain_text("Look deeper asks the master", timeout=TIMEOUT)
    look(page, panel, ".scat-deeper .scat-deeper-progress-label")
    panel.scroll_into_view_if_needed()
    shot("deeper-analyzer-1280")

    hints = page.locator(".scat-table .scat-hints")
    expect(hints.locator(".scat-advice")).to_contain_text("Advice", timeout=TIMEOUT)
    deep = hints.locator(".scat-deeper")
    look(page, deep, ".scat-hints .scat-deeper-progress-label")
    expect(hints.locator(".scat-chances caption")).to_have_text("Your chance of winning the game")  # kept
    deep.scroll_into_view_if_needed()
    shot("deeper-table-1280")

    page.set_viewport_size({"width": 390, "height": 844})  # a phone: a new position in each, looked at again
    hand = analyzer.locator(".scat-field-hand input")
    hand.fill("AH KH 5C")
    hand.press("Enter")
    look(page, panel, ".scat-deeper .scat-deeper-progress-label")
    assert past_the_right_edge(page, ".scat-analyzer .scat-deeper, .scat-analyzer .scat-deeper *") == []
    assert page.evaluate(OVERLAPS, ".scat-analyzer .scat-deeper > *, .scat-analyzer .scat-deeper-head > *") == []
    panel.scroll_into_view_if_needed()
    shot("deeper-analyzer-390")

    page.locator("[data-pile=stock]").click()  # draw: the discard is the next decision
    expect(page.locator(".scat-hand-card")).to_have_count(4, timeout=TIMEOUT)
    look(page, deep, ".scat-hints .scat-deeper-progress-label")
    assert past_the_right_edge(page, ".scat-table *") == []
    assert page.evaluate(OVERLAPS, ".scat-hints .scat-deeper > *, .scat-hints .scat-deeper-head > *") == []
    deep.scroll_into_view_if_needed()
    shot("deeper-table-390")
