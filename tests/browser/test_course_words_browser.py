"""Every page a learner reads, read in a real browser as a learner would (docs/design/voice.md).

Each course page is opened at 1280 px (its widgets checked first, as
:func:`renders_its_widgets_without_errors` does), every step on it is answered once and its
"Show the working" opened (practice: its puzzle answered), and the visible text is read;
then the page is narrowed to 390 px and read again.
A page fails on words it has not earned: notation before the lesson that teaches it (``P(``
before lesson 3; ``E[``, ``|{`` or a centred dot as a product anywhere outside the analyzer's
folded detail), an API or code name, a random seed, the five-turn horizon before lesson 6;
at 390 px on anything past the right edge outside a scroll box; and on any console warning
about unsatisfied versions or console error.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scatlab.course.steps import steps_of

from .test_course_browser import (PAGES, Server, _no_trouble, _open, _shot, chromium, course_page,  # noqa: F401
                                  renders_its_widgets_without_errors, server)

TAUGHT_IN = {"00-index": 0, "rulebook": 0, "practice": 9, "appendix-how-we-know": 3, "appendix-skat": 7}
"""The lesson after which each page that is not a lesson is read (practice: after lesson 8;
an appendix: with the lesson that links it)."""


def lesson_number(page: str) -> int:
    """The lesson a page belongs to: ``03-knocking`` is 3."""
    return TAUGHT_IN[page] if page in TAUGHT_IN else int(page[:2])


RULES: list[tuple[str, re.Pattern[str], int]] = [
    # (what, pattern, the first lesson whose pages may show it: 99 = never)
    ("P( before lesson 3 defines it", re.compile(r"\bP\("), 3),
    ("E[...] notation", re.compile(r"\bE\["), 99),
    ("a set of cards |{...}|", re.compile(r"\|\s*\{"), 99),
    ("a centred dot as a product", re.compile(r"\d\s*·\s*\d"), 99),
    ("an API name", re.compile(r"\b[A-Z][A-Za-z]+\.[a-z_]+\(|\b\w+\(\)|\bscatlab\.[a-z]"), 99),
    ("a code name in snake_case", re.compile(r"\b[a-z]+_[a-z_]+\b"), 99),
    ("a random seed", re.compile(r"\bseeds?\b", re.IGNORECASE), 99),
    ("the five-turn horizon before lesson 6 names it", re.compile(r"\b(five|5) turns ahead\b"), 6),
]

VISIBLE_TEXT = """() => {
    // the text a learner sees: rendered, outside the analyzer's folded analyst's detail
    const root = document.querySelector('#rendered_cells') || document.body;
    const skip = root.querySelectorAll('.scat-analyzer-detail');
    const keep = [...skip].map(d => [d, d.style.display]);
    skip.forEach(d => { d.style.display = 'none'; });
    const text = root.innerText;
    keep.forEach(([d, v]) => { d.style.display = v; });
    return text;
}"""


def unearned_words(text: str, page: str) -> list[str]:
    """What ``text`` (a page's visible text) says that ``page`` has not yet taught.

    >>> unearned_words("a knock costs 1 × P(lose one)", "02-draw-or-take")
    ['P( before lesson 3 defines it: ...a knock costs 1 × P(lose one)...']
    >>> unearned_words("a knock costs 1 × P(lose one)", "03-knocking")
    []
    """
    found = []
    for what, pattern, first in RULES:
        if lesson_number(page) >= first:
            continue
        for m in pattern.finditer(text):
            found.append(f"{what}: ...{text[max(0, m.start() - 40):m.end() + 30]}...".replace("\n", " "))
    return found


def answer_every_step(page: Page) -> int:
    """Answer each step's puzzle on the page once (the first choice, or "1" typed) and open
    its "Show the working"; answer the practice puzzle. Returns the steps answered."""
    steps = page.locator(".scatlab-step")
    for i in range(steps.count()):
        box = steps.nth(i)
        box.scroll_into_view_if_needed()
        choice = box.locator(".scatlab-choice")
        if choice.count():
            choice.first.click()
        else:
            box.locator("input").fill("1")
            box.get_by_role("button", name="Check").click()
        expect(box.locator(".scatlab-right, .scatlab-wrong")).to_be_visible()
        working = box.get_by_role("button", name="Show the working")
        if working.is_visible():
            working.click()
            expect(box.locator(".scatlab-working p, .scatlab-working .scatlab-working-sum").first).to_be_visible()
    practice = page.locator(".scatlab-practice .scatlab-choice")
    if practice.count():
        practice.first.click()
        expect(page.locator(".scatlab-practice").locator(".scatlab-right, .scatlab-wrong")).to_be_visible()
    page.wait_for_timeout(400)  # MathJax typesets the working
    return int(steps.count())


@pytest.mark.parametrize("name", PAGES)
def test_every_page_renders_and_speaks_the_learners_words(course_page: Page, server: Server, name: str,
                                                          past_the_right_edge: Any) -> None:
    """One load of each page: its widgets at 1280 px, every step answered and its working
    open, the words read; then the same page narrowed to a phone (390 px), its words read
    again and nothing past the right edge."""
    renders_its_widgets_without_errors(course_page, server, name)  # at 1280 px
    assert answer_every_step(course_page) == len(steps_of(name))  # every step read with its working open
    if name == "02-draw-or-take":  # MathJax typesets lesson 2's sums: wait for them, however busy the machine
        course_page.wait_for_function(f"() => ({VISIBLE_TEXT})().includes('chance of 31 = outs / unseen cards')",
                                      timeout=30_000)
    text = course_page.evaluate(VISIBLE_TEXT)
    assert unearned_words(text, name) == []
    if name == "02-draw-or-take":  # the working is read too: lesson 2's sums, in its words
        assert "chance of 31 = outs / unseen cards" in text and "on average" in text
    course_page.set_viewport_size({"width": 390, "height": 844})
    course_page.wait_for_timeout(500)  # the widgets reflow, MathJax sets the working again
    assert unearned_words(course_page.evaluate(VISIBLE_TEXT), name) == []
    _shot(course_page, f"{name}-390-answered")
    assert past_the_right_edge(course_page, "#rendered_cells *") == []
    _no_trouble(course_page)
