"""The hand analyzer in a real browser: headless Chromium (Debian's /usr/bin/chromium) on a
Voilà page of tests/browser/analyzer_page.ipynb (issue 8), with the fixtures of conftest.py.

A learner types a hand and sees P(31) and the LaTeX derivation rendered, clicks a card out
of the hand and another one in, picks a card with the keyboard only (Tab to it, Enter), and
the page logs no console error beyond the known offline noise (the ``console_errors``
fixture). Screenshots go to tests/artifacts/ (git-ignored). A missing browser fails the run.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

TIMEOUT = 30_000


def open_analyzer(page: Any, voila_url: str, width: int = 1100, height: int = 1500) -> Any:
    """The analyzer page at ``width`` x ``height``, its card picker drawn."""
    page.set_viewport_size({"width": width, "height": height})
    page.goto(voila_url + "/voila/render/analyzer_page.ipynb", timeout=60_000)
    analyzer = page.locator(".scat-analyzer").first
    expect(analyzer.locator(".scat-pick").first).to_be_visible(timeout=TIMEOUT)
    return analyzer


def test_type_a_hand_see_p31_and_the_derivation_then_pick_cards_by_mouse_and_keyboard(
    page: Any, voila_url: str, console_errors: list[str], shot: Any
) -> None:
    analyzer = open_analyzer(page, voila_url)
    assert analyzer.locator(".scat-pick").count() == 52

    # type a hand (the top discard 9♠ is already there) and press Enter
    hand = analyzer.locator(".scat-field-hand input")
    hand.fill("ks qs 10s")
    hand.press("Enter")
    expect(analyzer.locator("tr[data-key='value'] td.num")).to_have_text("30", timeout=TIMEOUT)
    expect(analyzer.locator("tr[data-key='p_31'] td.num")).to_have_text("1/48 ≈ 0.0208")
    hand.fill("ah kh 4c")
    hand.press("Enter")
    p31 = analyzer.locator("tr[data-key='p_31'] td.num")
    expect(p31).to_have_text("1/16 ≈ 0.0625", timeout=15_000)
    expect(analyzer.locator("tr[data-key='draw_ev'] td.num")).to_have_text("541/24 ≈ 22.5417")
    expect(analyzer.locator(".widget-htmlmath mjx-container, .widget-htmlmath .MathJax").first).to_be_visible(
        timeout=15_000
    )
    maths = analyzer.locator(".widget-htmlmath").text_content() or ""  # MathJax's rendering, not the TeX
    assert "P(31)=" in maths and "0.0625" in maths and "$$" not in maths
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
    # a 31 is declared, not knocked (C8)
    expect(analyzer.locator(".scat-analyzer-advice")).to_contain_text(
        "Advice: declare: a hand worth 31 is declared, not knocked"
    )

    # keyboard only: Tab from the Q♥ to the next card (J♥) and Enter puts it among the cards seen
    analyzer.get_by_role("button", name="Seen", exact=True).click()
    queen = analyzer.locator(".scat-pick[data-card='QH']")
    queen.focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.card") == "JH"
    page.keyboard.press("Enter")
    expect(analyzer.locator(".scat-field-dead input")).to_have_value("JH")
    assert page.evaluate("document.activeElement.dataset.card") == "JH", "focus is kept after the redraw"
    page.keyboard.press("ArrowDown")  # from the J♥ to the J♣ below it
    assert page.evaluate("document.activeElement.dataset.card") == "JC"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    expect(analyzer.locator(".scat-field-dead input")).to_have_value("JH QC")

    # a refused click explains itself and changes nothing
    analyzer.locator(".scat-pick[data-card='AH']").click()
    expect(analyzer.get_by_role("alert").filter(has_text="given twice")).to_be_visible()
    expect(analyzer.locator(".scat-field-dead input")).to_have_value("JH QC")

    shot("analyzer")


def test_an_error_clears_when_another_field_fixes_it(page: Any, voila_url: str, console_errors: list[str]) -> None:
    """Issue 39: the hand 7S 8S 9S typed beside the discard 9S is refused ("9S is given
    twice"); changing the discard to 10S makes the hand valid, and the advice appears
    without typing the hand again (every field is read again on every change)."""
    analyzer = open_analyzer(page, voila_url)
    discard = analyzer.locator(".scat-field-discard input")
    discard.fill("9S")
    discard.press("Enter")
    hand = analyzer.locator(".scat-field-hand input")
    hand.fill("7S 8S 9S")
    hand.press("Enter")
    expect(analyzer.locator(".scat-error-hand")).to_contain_text("9S is given twice", timeout=TIMEOUT)
    expect(analyzer.locator(".scat-analyzer-advice")).to_have_count(0)
    discard.fill("10S")
    discard.press("Enter")
    expect(analyzer.locator(".scat-error-hand")).to_have_text("", timeout=TIMEOUT)
    expect(analyzer.locator(".scat-analyzer-advice")).to_contain_text("Advice:", timeout=TIMEOUT)
    expect(hand).to_have_value("7S 8S 9S")
    expect(analyzer.locator("tr[data-key='value'] td.num")).to_have_text("24")


def test_the_analyzer_fits_a_phone(
    page: Any, voila_url: str, console_errors: list[str], shot: Any, past_the_right_edge: Any
) -> None:
    """At 390 x 844 the card picker, the fields and the numbers stay inside the viewport (a
    wide table may scroll inside its own box) and the page does not scroll sideways."""
    analyzer = open_analyzer(page, voila_url, 390, 844)
    hand = analyzer.locator(".scat-field-hand input")
    hand.fill("ah kh 4c")
    hand.press("Enter")
    expect(analyzer.locator("tr[data-key='p_31'] td.num")).to_have_text("1/16 ≈ 0.0625", timeout=TIMEOUT)
    assert past_the_right_edge(page, ".scat-analyzer *") == []
    shot("analyzer-phone")
