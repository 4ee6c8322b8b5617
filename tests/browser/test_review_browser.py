"""The review widget in a real browser (headless Chromium on a Voilà page): ◀ ▶ and the
arrow keys step through the decisions, a timeline mark jumps to its decision, and "Try it
yourself" opens the card table at that position; no console errors beyond the known
offline noise; "Look deeper" shows a progress bar, then the master's answer. Screenshots:
tests/artifacts/."""

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
    page.keyboard.press("ArrowRight")  # the redrawn ▶ keeps the focus: the keys still step
    expect(counter).to_have_text(re.compile(r"^\s*4 / "), timeout=TIMEOUT)
    review.get_by_role("button", name="previous decision").click()
    expect(counter).to_have_text(re.compile(r"^\s*3 / "), timeout=TIMEOUT)
    page.keyboard.press("ArrowLeft")
    expect(counter).to_have_text(re.compile(r"^\s*2 / "), timeout=TIMEOUT)

    costly = review.locator('.scat-review-mark:not([data-class="best"])').first
    label = costly.get_attribute("data-class")
    costly.click()
    expect(review.locator(".scat-review-decision")).to_have_attribute("data-class", label or "", timeout=TIMEOUT)
    expect(review.locator(".scat-review-class")).to_have_text(label or "")
    shot("review-costly")

    at = int(counter.inner_text().split("/")[0])  # the costly mark, clicked above, keeps the focus too
    page.keyboard.press("ArrowLeft" if at == total else "ArrowRight")
    expect(counter).to_have_text(re.compile(rf"^\s*{at - 1 if at == total else at + 1} / "), timeout=TIMEOUT)

    # Look deeper (issue 53): a progress bar while the master searches, then its answer under
    # the decision; asked once, the button rests.
    costly.click()
    deep = review.get_by_role("button", name="ask the master for a deeper look at this decision")
    deep.click()
    expect(review.locator(".scat-review-progress")).to_be_visible(timeout=TIMEOUT)
    # the bar says what it is doing
    expect(review.locator(".scat-review-progress-label")).to_contain_text("Looking deeper", timeout=TIMEOUT)
    answer = review.locator(".scat-review-deeper")
    expect(answer).to_be_visible(timeout=60_000)
    # two judgements apart: the best move, then the cost of yours beside the review's
    expect(answer).to_contain_text(re.compile(r"A deeper look (agrees that .+ is the best move|finds .+ better than)"))
    expect(answer).to_contain_text(re.compile(r"[Yy]our move('s cost|, .+, is)"))
    expect(answer).to_contain_text(re.compile(r"the review (said about|found no cost|called it a close call)"))
    expect(answer).not_to_contain_text("agrees with the review")
    expect(review.locator(".scat-review-progress")).to_be_hidden()
    expect(deep).to_be_disabled()
    assert not re.search(r"±|seed|rollout", answer.inner_text())
    shot("review-deeper")

    page.set_viewport_size({"width": 390, "height": 844})  # a phone: the table lands below the review
    review.get_by_role("button", name="play this position again at the table").click()
    expect(page.locator(".scat-table")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(".scat-hand-card").first).to_be_visible(timeout=TIMEOUT)
    # brought into view: its top in the upper half of the screen, not below the review
    page.wait_for_function(
        "() => { const t = document.querySelector('.scat-table').getBoundingClientRect().top;"
        " return t >= -2 && t < innerHeight / 2; }",
        timeout=TIMEOUT,
    )
    shot("review-try")


def test_review_this_game_from_the_table(page: Any, voila_url: str, console_errors: list[str], shot: Any) -> None:
    """A one-hand game (one life, no county) played with the mouse: draw, throw the first
    card, knock; "Review this game" appears only then and opens the review of the
    learner's decisions below the table; a costly mark opens its page and "Try it
    yourself" a second table at that position."""
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(voila_url + "/voila/render/review_game_page.ipynb", timeout=60_000)
    cards = page.locator(".scat-hand-card")
    expect(cards).to_have_count(3, timeout=TIMEOUT)
    review_button = page.get_by_role("button", name="Review this game")
    expect(review_button).to_have_count(0)
    page.locator("[data-pile=stock]").click()
    expect(cards).to_have_count(4, timeout=TIMEOUT)
    page.locator(".scat-hand-card[aria-disabled=false]").first.click()
    expect(cards).to_have_count(3, timeout=TIMEOUT)
    expect(page.locator(".scat-status")).to_have_text(re.compile(r"^Your turn"), timeout=TIMEOUT)
    expect(review_button).to_have_count(0)
    page.get_by_role("button", name="Knock (K)").click()
    expect(page.locator(".scat-status")).to_have_text(re.compile(r"^Game over"), timeout=TIMEOUT)
    expect(review_button).to_be_visible()
    shot("review-game-over")

    review_button.click()
    review = page.locator(".scat-review")
    expect(review).to_be_visible(timeout=TIMEOUT)
    counter = review.locator(".scat-review-bar span")
    expect(counter).to_have_text(re.compile(r"^\s*1 / 3\s*$"), timeout=TIMEOUT)  # draw, discard, knock
    marks = review.locator(".scat-review-mark")
    expect(marks).to_have_count(3)
    blunder = review.locator('.scat-review-mark[data-class="blunder"]').first
    blunder.click()
    expect(review.locator(".scat-review-decision")).to_have_attribute("data-class", "blunder", timeout=TIMEOUT)
    expect(review.locator(".scat-review-class")).to_have_text("blunder")
    expect(review.locator(".scat-review-better")).to_contain_text("Better:")
    expect(review.locator(".scat-review-where")).to_contain_text("Hand 1, your ")
    expect(review.locator(".scat-review-title")).to_have_text("Review of this game: your decisions")
    review.scroll_into_view_if_needed()
    shot("review-game-blunder")

    review.get_by_role("button", name="play this position again at the table").click()
    expect(page.locator(".scat-table")).to_have_count(2, timeout=TIMEOUT)
    second = page.locator(".scat-table").nth(1)
    expect(second.locator(".scat-hand-card").first).to_be_visible(timeout=TIMEOUT)
    expect(second.locator(".scat-status")).to_have_text(re.compile(r"^Your turn"), timeout=TIMEOUT)
    expect(review.locator(".scat-review-trying")).to_contain_text("again, as you saw it", timeout=TIMEOUT)
    second.scroll_into_view_if_needed()
    shot("review-game-try")


def test_a_reviewed_decision_reads_in_order_and_fits_a_phone(
    page: Any, voila_url: str, console_errors: list[str], shot: Any, past_the_right_edge: Any
) -> None:
    """A costly decision reads where, what happened, what was better, by how much, why; the
    cards you had seen and the exact numbers open from their summaries; at 1280 and at 390 px
    nothing reaches past the right edge (screenshots: review-decision-1280, -390)."""
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(voila_url + "/voila/render/review_page.ipynb", timeout=60_000)
    review = page.locator(".scat-review")
    expect(review).to_be_visible(timeout=TIMEOUT)
    review.locator('.scat-review-mark[data-class="blunder"], .scat-review-mark[data-class="mistake"]').first.click()
    decision = review.locator(".scat-review-decision")
    expect(decision).not_to_have_attribute("data-class", "best", timeout=TIMEOUT)
    order = decision.evaluate(
        "(d) => ['where', 'happened', 'better', 'cost', 'why']"
        ".map(k => { const n = d.querySelector('.scat-review-' + k);"
        " return n ? [...d.querySelectorAll('*')].indexOf(n) : -1; })"
    )
    assert -1 not in order and order == sorted(order), order
    expect(decision.locator(".scat-review-better")).to_contain_text("Better:")
    expect(decision).not_to_contain_text("dead")
    for summary in decision.locator("details > summary").all():
        summary.click()
    expect(decision.locator(".scat-review-exact")).to_contain_text("Cost: ")  # whole figures have no "exactly"
    for width, height in ((1280, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        decision.scroll_into_view_if_needed()
        assert past_the_right_edge(page, ".scat-review *") == []
        shot(f"review-decision-{width}")
