"""Every page a learner reads, read in a real browser as a learner would (docs/design/voice.md).

Each course page is opened at 1280 px (its widgets checked first, as
:func:`renders_its_widgets_without_errors` does), every step on it is answered once and its
"Show the working" opened (practice: its puzzle answered), and the visible text is read;
then the page is narrowed to 390 px and read again.
A page fails on words it has not earned: notation before the lesson that teaches it (``P(``
before lesson 3; ``E[``, ``|{`` or a centred dot as a product anywhere: lesson 2's analyzer
explains its numbers in lesson 2's words, and its folded working is opened and read), an API
or code name, a random seed, "±", an analyst's interval or entrant label ("95% interval",
"tip#1"), "dead" cards, "tip" before the lessons that say what a tip player is, the
five-turn horizon before lesson 6, and "player 0" anywhere (the table numbers players from
1, and so does every text); on a chance of winning the game shown as a signed change without
its level before it ("knocking +5.7%"; "37.2% (+3.1 points)" is fine); on a table's hints
that show another move with a higher chance of winning than the advised one without calling
it a close call; at 390 px on anything past the right edge outside a scroll box; and on any
console warning about unsatisfied versions or console error.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from helpers.course_pages import PAGES, Server, no_trouble, renders_its_widgets_without_errors, shot
from scatlab.course.steps import steps_of

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
    (
        "player 0: the table numbers players from 1",
        re.compile(r"\bplayers? 0\b|\bplayers (\d+, )*0\b", re.IGNORECASE),
        99,
    ),
    ("± (a range is said in words)", re.compile("±"), 99),
    ("an analyst's interval", re.compile(r"\b\d+% (confidence )?interval", re.IGNORECASE), 99),
    ("an analyst's entrant label (tip#1)", re.compile(r"[a-z]#\d"), 99),
    ("dead cards (a learner reads 'cards you have seen')", re.compile(r"\bdead\b", re.IGNORECASE), 99),
    ("'tip' before a page says what a tip player is", re.compile(r"\btips?\b(?! a casual)"), 3),
]

VISIBLE_TEXT = """() => {
    // the text a learner sees, rendered (a folded box counts once opened: see answer_every_step)
    const root = document.querySelector('#rendered_cells') || document.body;
    return root.innerText;
}"""


def unearned_words(text: str, page: str) -> list[str]:
    """What ``text`` (a page's visible text) says that ``page`` has not yet taught.

    >>> unearned_words("a knock costs 1 × P(lose one)", "02-draw-or-take")
    ['P( before lesson 3 defines it: ...a knock costs 1 × P(lose one)...']
    >>> unearned_words("a knock costs 1 × P(lose one)", "03-knocking")
    []
    >>> unearned_words("How many lives does the knocker (player 0) lose?", "04-showdown")
    ['player 0: the table numbers players from 1: ...How many lives does the knocker (player 0) lose?...']
    >>> words = "players 2 and 3 lose nothing; tip player 1 won 9 (likely between 13% and 41%)"
    >>> unearned_words(words, "06-strategy-lab")
    []
    """
    found = []
    for what, pattern, first in RULES:
        if lesson_number(page) >= first:
            continue
        for m in pattern.finditer(text):
            found.append(f"{what}: ...{text[max(0, m.start() - 40) : m.end() + 30]}...".replace("\n", " "))
    return found


SIGNED = re.compile(r"(?<![\w.%±])[+\-−]\d+(?:\.\d+)?\s?(?:%|points?\b)")
"""A signed change: ``+3.1%``, ``-0.5%``, ``+3.1 points`` (a sign written against its figure;
``0.3% × 41.2% + 16.8% × 27.4%`` is a sum, not a change)."""
LEVEL_THEN = re.compile(r"\d+(?:\.\d+)?% \($")
"""What may stand just before a signed change: its level and a bracket ("37.2% (")."""


def signed_without_level(text: str) -> list[str]:
    """Every signed change in ``text`` not written just after its level (docs/design/voice.md).

    >>> signed_without_level("knocking +5.7%, playing on +1.1%")
    ['...knocking +5.7%...', '...ying on +1.1%...']
    >>> signed_without_level("37.2% (+3.1 points); hands 1-4; C6-C7; 95% interval ±2%; knocks, bias -2.2 points")
    []
    >>> signed_without_level("your chance of winning the game, +3.1 points")
    ['...the game, +3.1 points...']
    >>> signed_without_level("knocking: 0.3% × 41.2% + 16.8% × 27.4% = 4.7%")
    []
    """
    return [
        f"...{text[max(0, m.start() - 10) : m.end()]}..."
        for m in SIGNED.finditer(text)
        if not LEVEL_THEN.search(text[: m.start()]) and _a_chance(text, m)
    ]


def _a_chance(text: str, m: re.Match[str]) -> bool:
    """A signed figure is a chance's change when it is in percent, or in points said of the
    chance of winning (a calibration figure's "bias -2.2 points" is not)."""
    return m.group().endswith("%") or "chance of winning" in text[max(0, m.start() - 80) : m.start()]


HINTS = """() => [...document.querySelectorAll('.scat-hints')].map(h => ({
    rows: [...h.querySelectorAll('tr.scat-chance')].map(r => ({
        move: r.querySelector('th').innerText, level: r.querySelector('td').innerText,
        advised: r.classList.contains('scat-chance-advised'), close: r.classList.contains('scat-chance-close')})),
    close: (h.querySelector('.scat-close') || {innerText: ''}).innerText,
    advice: (h.querySelector('.scat-advice') || {innerText: ''}).innerText}))"""
"""Each table's hints as the page shows them: every move's chance of winning, the advised
one marked, the close calls marked, and the close-call sentence."""


def hints_against_their_advice(hints: list[dict[str, object]]) -> list[str]:
    """Hints that show another move with a higher chance of winning than the advised one
    without calling it a close call, or show no advised move among their chances.

    >>> row = lambda move, level, advised=False, close=False: {"move": move, "level": level, "advised": advised,
    ...                                                        "close": close}
    >>> hints_against_their_advice([{"rows": [row("if you draw", "46.9%", True), row("if you knock", "46.8%")],
    ...                               "close": "", "advice": "Advice: draw"}])
    []
    >>> hints_against_their_advice([{"rows": [row("if you draw", "41.5%", True), row("if you knock", "43.0%")],
    ...                               "close": "", "advice": "Advice: draw"}])
    ['Advice: draw: if you knock shows 43.0%, above the advised 41.5%']
    >>> close = "A close call: 46.9% if you knock against 46.8% if you draw"
    >>> rows = [row("if you draw", "46.8%", True), row("if you knock", "46.9%", close=True)]
    >>> hints_against_their_advice([{"rows": rows, "close": close, "advice": "x"}])
    []
    """
    found = []
    for h in hints:
        rows = h["rows"]
        assert isinstance(rows, list)
        if not rows:
            continue
        advised = [r for r in rows if r["advised"]]
        if len(advised) != 1:
            found.append(f"{h['advice']}: {len(advised)} advised moves among the chances")
            continue
        best = float(str(advised[0]["level"]).rstrip("%"))
        for r in rows:
            level = float(str(r["level"]).rstrip("%"))
            if level > best and not (
                r["close"] and "close call" in str(h["close"]) and str(r["level"]) in str(h["close"])
            ):
                found.append(f"{h['advice']}: {r['move']} shows {r['level']}, above the advised {advised[0]['level']}")
    return found


def answer_every_step(page: Page) -> int:
    """Answer each step's puzzle on the page once (the first choice, or "1" typed) and open
    its "Show the working"; answer the practice puzzle; open the analyzer's folded working
    (lesson 2), so its words are read too. Returns the steps answered."""
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
    for summary in page.locator("details.scat-analyzer-working > summary").all():
        summary.click()
        expect(summary.locator("xpath=..")).to_have_attribute("open", "")
    page.wait_for_timeout(400)  # MathJax typesets the working
    return int(steps.count())


@pytest.mark.parametrize("name", PAGES)
def test_every_page_renders_and_speaks_the_learners_words(
    course_page: Page, server: Server, name: str, past_the_right_edge: Any
) -> None:
    """One load of each page: its widgets at 1280 px, every step answered and its working
    open, the words read; then the same page narrowed to a phone (390 px), its words read
    again and nothing past the right edge."""
    renders_its_widgets_without_errors(course_page, server, name)  # at 1280 px
    assert answer_every_step(course_page) == len(steps_of(name))  # every step read with its working open
    if name == "02-draw-or-take":  # MathJax typesets lesson 2's sums: wait for them, however busy the machine
        course_page.wait_for_function(
            f"() => ({VISIBLE_TEXT})().includes('chance of 31 = outs / unseen cards')", timeout=30_000
        )
    text = course_page.evaluate(VISIBLE_TEXT)
    assert unearned_words(text, name) == []
    # the chance of winning as a level, never a signed change alone; hints that agree with their advice
    assert signed_without_level(text) == []
    if name == "08-play-a-game":  # the table's hints, read once they show
        expect(course_page.locator(".scat-chances").first).to_be_visible(timeout=30_000)
    hints = course_page.evaluate(HINTS)
    assert hints_against_their_advice(hints) == []
    assert name != "08-play-a-game" or any(h["rows"] for h in hints)
    if name == "02-draw-or-take":  # the working is read too: lesson 2's sums, in its words
        assert "chance of 31 = outs / unseen cards" in text and "on average" in text
    course_page.set_viewport_size({"width": 390, "height": 844})
    course_page.wait_for_timeout(500)  # the widgets reflow, MathJax sets the working again
    narrow = course_page.evaluate(VISIBLE_TEXT)
    assert unearned_words(narrow, name) == [] and signed_without_level(narrow) == []
    shot(course_page, f"{name}-390-answered")
    assert past_the_right_edge(course_page, "#rendered_cells *") == []
    no_trouble(course_page)
