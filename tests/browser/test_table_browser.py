"""The card table in a real browser (headless Chromium on a Voilà page): a whole hand with
the mouse, another with the keyboard only (D, T, K, Tab, Enter), a refused move shown on
the table, the computer players' own reasons offered at the showdown, no console error beyond
the known offline noise. Screenshots: tests/artifacts/.

Rules cited: C5 (draw or take, then discard; a taken card is not thrown back), C6-C7 (a
knock, one more turn each, the showdown)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
"""Where the screenshots go (ignored by git)."""


TIMEOUT = 30_000


def open_table(page: Any, voila_url: str) -> Any:
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(voila_url + "/voila/render/table_page.ipynb", timeout=60_000)
    table = page.locator(".scat-table")
    expect(table).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(".scat-hand-card")).to_have_count(3, timeout=TIMEOUT)
    # every card drawn with its picture from the kernel's one shared CardFaces model
    expect(page.locator(".scat-hand-card svg[role=img]")).to_have_count(3, timeout=TIMEOUT)
    text = table.inner_text()  # no JavaScript value leaks into the page as words
    assert "null" not in text and "undefined" not in text, text
    return table


def hand_over(page: Any) -> bool:
    return bool(page.locator(".scat-showdown").count())


def wait_my_turn(page: Any) -> None:
    expect(page.locator(".scat-status")).to_have_text(
        re.compile(r"^(Your turn|Hand \d+ is over|Game over)"), timeout=TIMEOUT
    )


def test_a_whole_hand_with_the_mouse(page: Any, voila_url: str, console_errors: list[str], shot: Any) -> None:
    open_table(page, voila_url)
    expect(page.get_by_role("img", name="face-down card").first).to_be_visible()
    expect(page.locator(".scat-hints")).to_contain_text("Advice")
    hints = page.locator(".scat-hints")
    # first the chance of winning the game, as levels: now, then if you make each move, the
    # advised one marked; the figures behind it under "More figures"
    expect(hints.locator(".scat-chances caption")).to_have_text("Your chance of winning the game")
    expect(hints.locator(".scat-chance-advised")).to_have_count(1)
    expect(hints.locator(".scat-chance-now td").first).to_have_text(re.compile(r"^\d+\.\d%$"))
    expect(page.locator(".scat-chart-box svg")).to_have_count(0)
    more = hints.get_by_role("button", name="More figures: the odds behind the advice")
    expect(more).to_have_attribute("aria-expanded", "false")
    more.click()
    expect(page.locator(".scat-chart-box svg")).to_be_visible()
    # chances in a learner's words ("3 in 48 (about 6%)"); the exact numbers behind a click
    expect(hints.locator("thead")).not_to_contain_text("exact")
    expect(hints).to_contain_text(re.compile(r"\d+ in \d+ \((about )?\d+%\)|\d+ in \d+ \((never|under 1%)\)"))
    hints.get_by_role("button", name="Show the exact numbers").click()
    expect(hints.locator("thead")).to_contain_text("exact")
    # the knock's figures against two opponents are the engine's estimates: said, no fraction
    knock = hints.locator("tr", has_text="knock: lives lost on average")
    expect(knock.locator(".scat-estimate")).to_have_text("an estimate")
    expect(hints.locator("tr", has_text="draw: chance of 31").locator(".scat-exact")).to_have_text(
        re.compile(r"^\d+/\d+$")
    )
    shot("table-mouse-exact-numbers")
    hints.get_by_role("button", name="Hide the exact numbers").click()
    expect(hints.locator("thead")).not_to_contain_text("exact")
    shot("table-mouse-start")
    # turn 1 (C5): click the stock, then a card of the hand
    page.locator("[data-pile=stock]").click()
    expect(page.locator(".scat-hand-card")).to_have_count(4, timeout=TIMEOUT)
    # a refused move: a second draw is shown with the engine's rule code and changes nothing
    # (the stock is marked aria-disabled now, so the click is forced)
    page.locator("[data-pile=stock]").click(force=True)
    # in the learner's words: "you", and cards in suit symbols (never "player 0" or "6H")
    expect(page.locator(".scat-message")).to_contain_text("C5: you have drawn and must now discard", timeout=TIMEOUT)
    expect(page.locator(".scat-message")).not_to_contain_text("player 0")
    expect(page.locator(".scat-message")).not_to_contain_text(re.compile(r"\b(10|[2-9AKQJ])[HDCS]\b"))
    expect(page.locator(".scat-hand-card")).to_have_count(4)
    shot("table-mouse-drawn")
    page.locator(".scat-hand-card[aria-disabled=false]").first.click()
    expect(page.locator(".scat-hand-card")).to_have_count(3, timeout=TIMEOUT)
    wait_my_turn(page)
    # turn 2: take the discard, then throw a card that is not the taken one
    if not hand_over(page):
        page.locator("[data-pile=discard]").click()
        expect(page.locator(".scat-hand-card")).to_have_count(4, timeout=TIMEOUT)
        page.locator(".scat-hand-card[aria-disabled=false]").first.click()
        expect(page.locator(".scat-hand-card")).to_have_count(3, timeout=TIMEOUT)
        wait_my_turn(page)
    # turn 3: knock (C6); the others play once more and the showdown follows (C7)
    if not hand_over(page):
        page.get_by_role("button", name="Knock (K)").click()
    expect(page.locator(".scat-showdown")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(".scat-showdown .scat-explain")).to_contain_text(re.compile(r"[CV]\d+: "))
    expect(page.locator(".scat-showdown")).to_contain_text("how it ended")
    # the hands are face up now: the computer players' own reasons are offered, one per move
    reasons = page.locator(".scat-showdown .scat-sd-reasons")
    expect(reasons).to_have_count(1)
    reasons.locator("summary").click()
    expect(reasons.locator("li").first).to_contain_text(re.compile(r"^player \d \(tip\) chose to "))
    # another button redraws the table: the reasons the learner opened stay open
    page.get_by_role("button", name="Why? (last computer move)").click()
    expect(page.get_by_role("button", name="Why? (hide)")).to_be_visible()
    expect(reasons).to_have_attribute("open", "")
    shot("table-mouse-showdown")
    # between hands the one thing to do is the next hand: no greyed "Knock (K)" beside it
    expect(page.get_by_role("button", name="Next hand (N)")).to_be_visible()
    expect(page.get_by_role("button", name="Knock (K)")).to_have_count(0)
    page.get_by_role("button", name="Next hand (N)").click()
    expect(page.locator(".scat-title")).to_contain_text("hand 2", timeout=TIMEOUT)
    wait_my_turn(page)
    # "Analyze this position" opens the learner's view in the hand analyzer below the table
    page.get_by_role("button", name="Analyze this position").click()
    expect(page.locator(".scat-analyzer")).to_be_visible(timeout=TIMEOUT)
    shot("table-mouse-analyzer")


def _tab_to(page: Any, selector: str, limit: int = 60) -> None:
    """Press Tab until the focused element matches ``selector`` (keyboard only)."""
    for _ in range(limit):
        if page.evaluate(f"() => !!document.activeElement && document.activeElement.matches({selector!r})"):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def test_a_whole_hand_with_the_keyboard_only(page: Any, voila_url: str, console_errors: list[str], shot: Any) -> None:
    open_table(page, voila_url)
    cards = page.locator(".scat-hand-card")
    _tab_to(page, ".scat-table button")  # into the widget from the top of the page
    page.keyboard.press("d")  # D: draw (C5)
    expect(cards).to_have_count(4, timeout=TIMEOUT)
    _tab_to(page, ".scat-hand-card[aria-disabled=false]")
    shot("table-keyboard-focus")
    page.keyboard.press("Enter")  # Enter discards the focused card
    expect(cards).to_have_count(3, timeout=TIMEOUT)
    wait_my_turn(page)
    # focus stays in the widget after the redraw, so keys keep working
    assert page.evaluate("() => !!document.activeElement.closest('.scat-table')")
    if not hand_over(page):
        page.keyboard.press("t")  # T: take the discard
        expect(cards).to_have_count(4, timeout=TIMEOUT)
        _tab_to(page, ".scat-hand-card[aria-disabled=false]")
        page.keyboard.press("Enter")
        expect(cards).to_have_count(3, timeout=TIMEOUT)
        wait_my_turn(page)
    if not hand_over(page):
        page.keyboard.press("k")  # K: knock (C6)
    expect(page.locator(".scat-showdown")).to_be_visible(timeout=TIMEOUT)
    shot("table-keyboard-showdown")
    page.keyboard.press("n")  # N: the next hand
    expect(page.locator(".scat-title")).to_contain_text("hand 2", timeout=TIMEOUT)


def test_save_offers_a_download_and_load_continues_the_game(
    page: Any, voila_url: str, console_errors: list[str], tmp_path: Any
) -> None:
    open_table(page, voila_url)
    page.locator("[data-pile=stock]").click()
    expect(page.locator(".scat-hand-card")).to_have_count(4, timeout=TIMEOUT)
    page.get_by_role("button", name="Save", exact=True).click()
    link = page.locator("a.scat-download")
    expect(link).to_be_visible(timeout=TIMEOUT)
    assert (link.get_attribute("download") or "").endswith(".json")
    with page.expect_download() as info:
        link.click()
    saved = tmp_path / "game.json"
    info.value.save_as(saved)
    assert '"hands"' in saved.read_text(encoding="utf-8")
    page.locator(".scat-hand-card[aria-disabled=false]").first.click()  # play on, then load the save
    expect(page.locator(".scat-hand-card")).to_have_count(3, timeout=TIMEOUT)
    page.locator("input.scat-file").set_input_files(str(saved))
    expect(page.locator(".scat-notice")).to_contain_text("loaded a saved game", timeout=TIMEOUT)
    expect(page.locator(".scat-hand-card")).to_have_count(4, timeout=TIMEOUT)  # back to the saved moment


def test_at_a_pace_the_computer_moves_appear_one_at_a_time(
    page: Any, voila_url: str, console_errors: list[str]
) -> None:
    """With ``pace`` the kernel plays one computer move per timer tick; the complete hints
    (knock risk and advice) follow the first update of the learner's turn."""
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(voila_url + "/voila/render/pace_page.ipynb", timeout=60_000)
    cards = page.locator(".scat-hand-card")
    expect(cards).to_have_count(3, timeout=TIMEOUT)
    page.locator("[data-pile=stock]").click()
    expect(cards).to_have_count(4, timeout=TIMEOUT)
    page.locator(".scat-hand-card[aria-disabled=false]").first.click()
    status = page.locator(".scat-status")
    # the seats as the table labels them, from 1: the learner is player 1
    expect(status).to_have_text(re.compile(r"^Player 2 \(tip\) is playing"), timeout=TIMEOUT)
    expect(status).to_have_text(re.compile(r"^Player 3 \(tip\) is playing"), timeout=TIMEOUT)  # after player 2's move
    expect(status).to_have_text(re.compile(r"^Your turn"), timeout=TIMEOUT)
    expect(page.locator(".scat-advice")).not_to_contain_text("weighing", timeout=TIMEOUT)
    expect(page.locator(".scat-log li")).to_have_count(6)  # two moves each


def test_a_whole_hand_by_number_keys_with_focus_on_the_table_from_the_start(
    page: Any, voila_url: str, console_errors: list[str], shot: Any
) -> None:
    """The page's only table takes focus: D draws, 1-4 throw that card of the hand (a taken
    card refused with C5, nothing changed), K knocks; the first Tab stop is the hand."""
    open_table(page, voila_url)
    page.wait_for_function(
        "() => document.activeElement && document.activeElement.classList.contains('scat-table')", timeout=TIMEOUT
    )
    cards = page.locator(".scat-hand-card")
    page.keyboard.press("d")
    expect(cards).to_have_count(4, timeout=TIMEOUT)
    thrown = cards.nth(3).get_attribute("data-card")
    page.keyboard.press("4")  # the fourth card: the one just drawn
    expect(cards).to_have_count(3, timeout=TIMEOUT)
    expect(page.locator(".scat-center [data-pile=discard]")).to_have_attribute("aria-label", re.compile("on top"))
    assert page.evaluate("() => !!document.activeElement.closest('.scat-table')")
    wait_my_turn(page)
    if not hand_over(page):
        page.keyboard.press("t")  # take: the taken card is the fourth and may not be thrown back (C5)
        expect(cards).to_have_count(4, timeout=TIMEOUT)
        page.keyboard.press("4")
        expect(page.locator(".scat-message")).to_contain_text("C5", timeout=TIMEOUT)
        expect(cards).to_have_count(4)
        page.keyboard.press("1")
        expect(cards).to_have_count(3, timeout=TIMEOUT)
        wait_my_turn(page)
    # one Tab from the table reaches the hand before any control
    page.locator(".scat-table").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.classList.contains('scat-hand-card')")
    if not hand_over(page):
        page.keyboard.press("k")
    expect(page.locator(".scat-showdown")).to_be_visible(timeout=TIMEOUT)
    assert thrown
    shot("table-number-keys")


def test_new_game_in_the_middle_of_a_game_asks_once_more(page: Any, voila_url: str, console_errors: list[str]) -> None:
    """A stray Enter or click on "New game" does not throw a game in progress away: the
    button asks "Start over? Click again" and only a second press deals a new game."""
    open_table(page, voila_url)
    cards = page.locator(".scat-hand-card")
    undo = page.get_by_role("button", name="Undo (U)")
    page.locator(".scat-table").focus()
    page.keyboard.press("d")
    expect(cards).to_have_count(4, timeout=TIMEOUT)
    page.keyboard.press("4")
    expect(cards).to_have_count(3, timeout=TIMEOUT)
    expect(undo).to_be_enabled(timeout=TIMEOUT)
    page.get_by_role("button", name="New game").click()
    sure = page.locator(".scat-btn.scat-confirm")
    expect(sure).to_have_text("Start over? Click again", timeout=TIMEOUT)
    expect(undo).to_be_enabled()  # nothing thrown away yet
    page.keyboard.press("Enter")  # the focus stayed on the button: the second press starts over
    expect(undo).to_be_disabled(timeout=TIMEOUT)
    expect(sure).to_have_count(0)
    expect(page.get_by_role("button", name="New game")).to_be_visible()


def test_the_table_fits_a_phone(
    page: Any, voila_url: str, console_errors: list[str], shot: Any, past_the_right_edge: Any
) -> None:
    """At 390 x 844 every seat, card, pile, button and the hints stay inside the viewport and
    the page does not scroll sideways; the hints come after the table."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(voila_url + "/voila/render/table_page.ipynb", timeout=60_000)
    expect(page.locator(".scat-hand-card")).to_have_count(3, timeout=TIMEOUT)
    parts = ".scat-seat, .scat-me, .scat-hand-card, .scat-pile, .scat-status, .scat-hints, .scat-btn"
    assert past_the_right_edge(page, parts) == []
    felt = page.locator(".scat-felt").bounding_box()
    hints = page.locator(".scat-hints").bounding_box()
    assert felt and hints and hints["y"] >= felt["y"] + felt["height"] - 1
    page.locator("[data-pile=stock]").click()
    expect(page.locator(".scat-hand-card")).to_have_count(4, timeout=TIMEOUT)
    assert past_the_right_edge(page, parts) == []
    shot("table-phone")


def test_an_exact_fraction_opens_by_a_tap_on_a_phone(browser: Any, voila_url: str, past_the_right_edge: Any) -> None:
    """docs/design/voice.md, "On a phone": a long exact fraction in the hints is behind
    "exact fraction", which a tap opens (a <details>, not a hover-only title) and which
    wraps inside the viewport at 390 px; a second tap closes it."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        page.goto(voila_url + "/voila/render/table_page.ipynb", timeout=60_000)
        expect(page.locator(".scat-hand-card")).to_have_count(3, timeout=TIMEOUT)
        hints = page.locator(".scat-hints")
        hints.get_by_role("button", name="More figures: the odds behind the advice").tap()
        hints.get_by_role("button", name="Show the exact numbers").tap()
        row = hints.locator("tr", has_text="draw: worth on average, looking five turns ahead")
        cell = row.locator(".scat-exact-long")
        expect(cell.locator("summary")).to_have_text("exact fraction", timeout=TIMEOUT)
        value = cell.locator(".scat-exact-value")
        expect(value).to_be_hidden()
        assert cell.get_attribute("title") is None and cell.locator("[title]").count() == 0  # nothing on hover only
        cell.locator("summary").tap()
        expect(value).to_be_visible()
        expect(value).to_have_text(re.compile(r"^\d+/\d+$"))
        assert past_the_right_edge(page, ".scat-hints, .scat-hints *") == []
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "table-phone-exact-fraction-tapped.png"), full_page=True)
        cell.locator("summary").tap()
        expect(value).to_be_hidden()
    finally:
        context.close()
