"""The review widget in a real browser (headless Chromium on a Voilà page): ◀ ▶ and the
arrow keys step through the decisions, a timeline mark jumps to its decision, and "Try it
yourself" opens the card table at that position; no console errors beyond the known
offline noise. Screenshots: tests/artifacts/."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

TIMEOUT = 30_000


def test_review_widget_steps_marks_and_tries(page: Any, voila_url: str, console_errors: list[str], shot: Any) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(voila_url + "/voila/render/review_page.ipynb", timeout=60_000)
    review = page.locator(".scat-review")
    expect(review).to_be_visible(timeout=TIMEOUT)
    counter = review.locator(".scat-review-bar span")
    expect(counter).to_have_text(re.compile(r"^\s*1 / \d+\s*$"), timeout=TIMEOUT)
    total = int(counter.inner_text().split("/")[1])
    assert total > 3
    expect(review.locator(".scat-review-mark")).to_have_count(total)
    expect(review.locator(".scat-review-cards svg[role=img]").first).to_be_visible()
    shot("review-start")

    review.focus()
    page.keyboard.press("ArrowRight")
    expect(counter).to_have_text(re.compile(r"^\s*2 / "), timeout=TIMEOUT)
    review.get_by_role("button", name="next decision").click()
    expect(counter).to_have_text(re.compile(r"^\s*3 / "), timeout=TIMEOUT)
    review.get_by_role("button", name="previous decision").click()
    expect(counter).to_have_text(re.compile(r"^\s*2 / "), timeout=TIMEOUT)

    costly = review.locator('.scat-review-mark:not([data-class="best"])').first
    label = costly.get_attribute("data-class")
    costly.click()
    expect(review.locator(".scat-review-decision")).to_have_attribute("data-class", label or "", timeout=TIMEOUT)
    expect(review.locator(".scat-review-class")).to_have_text(label or "")
    shot("review-costly")

    review.get_by_role("button", name="play this position again at the table").click()
    expect(page.locator(".scat-table")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(".scat-hand-card").first).to_be_visible(timeout=TIMEOUT)
    shot("review-try")
