"""The course app in a real browser: ``scatlab serve`` in headless Chromium.

Starts ``scatlab serve --no-browser`` on a free port with a temporary ``SCATLAB_HOME``,
opens the index, the rulebook, every lesson and every optional appendix, answers exercises right and wrong, and
checks that the progress survives a reload; also that the server is bound to loopback,
refuses a taken port, serves nothing outside ``lessons/`` and drops code sent to a kernel.
Screenshots go to ``tests/artifacts/course/`` (ignored by git). These tests fail (never
skip) when Chromium is missing: CI installs Debian's ``chromium``.
"""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

from helpers.course_pages import (
    ARTIFACTS,
    Server,
    no_trouble,
    open_page,
    shot,
    start_app,
)
from helpers.servers import free_port, stop, wait_ready
from scatlab.analysis import knock_line
from scatlab.course.steps import STEPS


def test_the_address_is_the_course_index(course_page: Page, server: Server) -> None:
    """``/`` (and Voilà's file list) land on the course index, with nothing fetched from
    outside the machine and no console error."""
    for path in ("/", "/voila/tree"):
        course_page.goto(server.url + path, wait_until="domcontentloaded")
        expect(course_page.locator(".scatlab-course-index")).to_be_visible(timeout=30_000)
        assert course_page.url == server.page_url("00-index")
    no_trouble(course_page)
    for path in ("/", "/voila/tree"):  # a link checker or a monitor asks with HEAD
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        conn.request("HEAD", path)
        answer = conn.getresponse()
        assert answer.status == 301 and answer.getheader("Location", "").endswith("/voila/render/00-index.ipynb")
        conn.close()


def test_lesson_links_lead_to_the_neighbours(course_page: Page, server: Server) -> None:
    def follow(links: str, text: str, page: str) -> None:
        course_page.locator(links, has_text=text).click()
        course_page.wait_for_url(f"**/{page}.ipynb")

    open_page(course_page, server, "03-knocking")
    follow(".scatlab-header nav a", "4. 31, the showdown", "04-showdown")
    open_page(course_page, server, "00-index")
    follow(".scatlab-course-index a", "Knocking", "03-knocking")
    expect(course_page.locator(".scatlab-header")).to_be_visible(timeout=30_000)
    # lesson 3 links its optional appendix, which links back
    follow("a", "How we know the numbers", "appendix-how-we-know")
    follow(".scatlab-header nav a", "back to 3. Knocking", "03-knocking")
    open_page(course_page, server, "00-index")
    follow(".scatlab-appendices a", "Skat", "appendix-skat")
    expect(course_page.locator(".scatlab-header")).to_be_visible(timeout=30_000)
    no_trouble(course_page)


def test_a_step_right_and_wrong_earns_stars_kept_over_a_reload(course_page: Page, server: Server) -> None:
    """A newcomer's first step (issue 36): lesson 1's six hands, one missed, each answer
    explained; the step ends with two stars, kept over a reload and on the course index."""
    step = STEPS["1.1"]
    questions = step.questions(0)
    open_page(course_page, server, "01-the-game")
    box = course_page.locator(".scatlab-step").filter(has_text="Step 1.1")
    expect(box.locator(".scatlab-goal")).to_contain_text(step.goal)
    expect(box.locator(".scatlab-best")).to_have_text("Not finished yet")
    expect(box.get_by_role("button", name="Next puzzle")).to_be_disabled()  # answer first
    for i, q in enumerate(questions):
        expect(box.locator(".widget-label", has_text=f"Puzzle {i + 1} of {step.puzzles}")).to_be_visible()
        box.locator("input").fill(q.solution if i != 1 else str(int(q.solution) + 1))
        if i == 0:  # Enter checks an answer as the Check button does
            box.locator("input").press("Enter")
        else:
            box.get_by_role("button", name="Check").click()
        if i == 1:
            expect(box.locator(".scatlab-wrong")).to_contain_text(f"the answer is {q.solution}")
        else:
            expect(box.locator(".scatlab-right")).to_contain_text("Right:")
        if i < len(questions) - 1:
            box.get_by_role("button", name="Next puzzle").click()
            expect(box.locator(".scatlab-right, .scatlab-wrong")).to_have_count(0)
    expect(box.locator(".widget-label", has_text="Step done: ★★☆ (5 of 6 right)")).to_be_visible()
    expect(box.locator(".scatlab-best")).to_have_text("Your best: ★★☆")
    expect(box.get_by_role("button", name="Try again")).to_be_enabled()
    course_page.get_by_role("button", name="Mark this lesson finished").click()
    expect(course_page.get_by_role("button", name="Finished ✓")).to_be_visible()
    shot(course_page, "01-the-game-step-done")
    no_trouble(course_page)
    course_page.reload()
    box = course_page.locator(".scatlab-step").filter(has_text="Step 1.1")
    expect(box.locator(".scatlab-best")).to_have_text("Your best: ★★☆", timeout=30_000)
    open_page(course_page, server, "00-index")
    index = course_page.locator(".scatlab-course-index")
    expect(index).to_contain_text("★ 2 of 3")
    expect(index).to_contain_text("5 right of 6 answers")
    expect(index).to_contain_text("finished ✓")
    shot(course_page, "00-index-with-progress")
    no_trouble(course_page)


def test_show_the_working_writes_the_sum_out_after_an_answer(course_page: Page, server: Server) -> None:
    """Step 2.3: a draw's expected value, answered; "Show the working" then renders the
    sympy sum (MathJax, offline) with the exact value the reason gives."""
    q = STEPS["2.3"].questions(0)[0]
    open_page(course_page, server, "02-draw-or-take")
    box = course_page.locator(".scatlab-step").filter(has_text="Step 2.3")
    expect(box.get_by_role("button", name="Show the working")).to_be_hidden()  # it would give the answer away
    wrong = next(c for c in q.choices if c not in q.accepted)
    box.get_by_role("button", name=wrong, exact=True).click()
    expect(box.locator(".scatlab-wrong")).to_contain_text(f"the answer is {q.solution}")
    box.get_by_role("button", name="Show the working").click()
    working = box.locator(".scatlab-working")
    expect(working.locator("mjx-container, .MathJax, .MathJax_Display").first).to_be_visible(timeout=30_000)
    box.scroll_into_view_if_needed()
    shot(course_page, "02-draw-or-take-working")
    no_trouble(course_page)


def test_practice_a_right_answer_raises_the_rating_and_a_wrong_one_shows_why(course_page: Page, server: Server) -> None:
    """The practice page (issue 36): choose a theme, answer its first puzzle right (the
    answer read from the generator's pool) and see the rating rise by Elo's figure; then
    answer the next one wrong and read the reason, the rating lower."""
    from scatlab.course.puzzles import choice_words, pool
    from scatlab.course.rating import START, update

    first, second = pool("throw")[:2]
    open_page(course_page, server, "00-index")
    course_page.locator(".scatlab-practice-link a", has_text="Practice").click()
    course_page.wait_for_url("**/practice.ipynb")
    box = course_page.locator(".scatlab-practice")
    expect(box.locator(".scatlab-rating-value")).to_have_text(str(START), timeout=30_000)
    box.locator(".scatlab-practice-theme select").select_option(label="Which card to throw")
    expect(box.locator(f".scatlab-puzzle[data-puzzle='{first.id}']")).to_be_visible()
    box.get_by_role("button", name=first.answer, exact=True).click()
    expect(box.locator(".scatlab-right")).to_contain_text("Right:")
    rating = update(START, first.level, True)
    expect(box.locator(".scatlab-rating-value")).to_have_text(str(rating))
    box.get_by_role("button", name="Next puzzle").click()
    expect(box.locator(f".scatlab-puzzle[data-puzzle='{second.id}']")).to_be_visible()
    wrong = next(c for c in second.choices if c != second.answer)
    box.get_by_role("button", name=wrong, exact=True).click()
    expect(box.locator(".scatlab-wrong")).to_contain_text(f"Not quite: you chose to {choice_words(wrong)} (")
    expect(box.locator(".scatlab-wrong")).to_contain_text(f"the best move is to {choice_words(second.answer)} (")
    expect(box.locator(".scatlab-wrong")).to_contain_text(second.why)
    expect(box.get_by_role("button", name=f"{wrong} (your answer)", exact=True)).to_be_visible()  # marked
    expect(box.locator(".scatlab-rating-value")).to_have_text(str(update(rating, second.level, False)))
    shot(course_page, "practice-answered")
    no_trouble(course_page)


def test_practice_at_phone_width_keeps_each_label_beside_its_dropdown(course_page: Page, server: Server) -> None:
    """At 390 x 844 the "Level" label was drawn over the Theme dropdown and the Level
    dropdown squashed to a sliver: now the two controls wrap, each label with its own
    dropdown on one line, each control the full width of the box, neither over the other."""
    course_page.set_viewport_size({"width": 390, "height": 844})
    open_page(course_page, server, "practice")
    box = course_page.locator(".scatlab-practice")
    expect(box.locator(".scatlab-puzzle")).to_be_visible(timeout=30_000)
    rects = {}
    for name in ("theme", "level"):
        control = box.locator(f".scatlab-practice-{name}")
        rects[name] = {
            part: control.locator(sel).bounding_box()
            for part, sel in (("box", "xpath=."), ("label", "label"), ("select", "select"))
        }
    inner = box.bounding_box()
    assert inner is not None
    for name, r in rects.items():
        b, label, select = r["box"], r["label"], r["select"]
        assert b is not None and label is not None and select is not None
        assert select["width"] >= 200, (name, select)  # not a sliver
        assert label["x"] + label["width"] <= select["x"] + 1, (name, label, select)  # beside it, not over it
        assert abs(label["y"] - select["y"]) < 4, (name, label, select)  # on the same line
        assert b["width"] >= inner["width"] - 40, (name, b, inner)  # the full width of the box
    theme, level = rects["theme"]["box"], rects["level"]["box"]
    assert theme is not None and level is not None
    assert level["y"] >= theme["y"] + theme["height"] - 1  # one under the other, not overlapping
    shot(course_page, "practice-controls-390")
    no_trouble(course_page)


def test_the_server_listens_on_loopback_only(server: Server) -> None:
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.254.254.254", 1))
        address = probe.getsockname()[0]
    except OSError:
        address = "127.0.0.1"
    finally:
        probe.close()
    if address.startswith("127."):
        out = subprocess.run(["hostname", "-I"], capture_output=True, text=True).stdout.split()
        address = next((a for a in out if not a.startswith("127.") and ":" not in a), "")
    assert address, "this machine has no non-loopback IPv4 address to test with"
    with socket.socket() as s:
        s.settimeout(3)
        assert s.connect_ex((address, server.port)) != 0, f"the app answered on {address}"
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", server.port)) == 0


def test_a_taken_port_is_one_line_and_status_2(server: Server, tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "scatlab", "serve", "--no-browser", "--port", str(server.port)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "SCATLAB_HOME": str(tmp_path)},
    )
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and f"port {server.port} on 127.0.0.1 is already in use" in run.stderr
    assert "Traceback" not in run.stderr


def test_a_host_given_says_who_can_reach_it(tmp_path: Path) -> None:
    port = free_port()
    proc = start_app(port, tmp_path, "--host", "0.0.0.0")
    try:
        wait_ready(f"http://127.0.0.1:{port}/voila/static/voila.js", proc)
    finally:
        stop(proc)
    out = (tmp_path / "serve.log").read_text()
    assert "Anyone who can reach this machine on port" in out and "bound to 0.0.0.0" in out


@pytest.mark.parametrize(
    "path",
    [
        "/voila/render/../README.md",
        "/voila/render/%2E%2E/pyproject.toml",
        "/voila/files/../pyproject.toml",
        "/voila/files/01-the-game.ipynb",
        "/voila/render/../../../etc/passwd",
        "/tree",
        "/api/contents",
        "/api/kernels",
        "/voila/tree/..",
        "/files/README.md",
        "/lab",
    ],
)
def test_nothing_outside_the_lessons_is_served(server: Server, path: str) -> None:
    status, body = _get(server.port, path)
    for _ in range(3):  # follow Voilà's normalising redirects by hand
        if status not in (301, 302):
            break
        status, body = _get(server.port, body)
    assert status in (403, 404), (path, status)
    assert "scatlab" not in body.lower() or status == 404


def test_a_page_address_cannot_pick_a_template_from_elsewhere_on_disk(server: Server, tmp_path: Path) -> None:
    """``?template=../../…`` would render any Jinja file on the machine with the pinned Voilà
    0.5.8 (0.5.13 refuses a path there): scatlab serve turns the override off, so the
    address gets the course's own page."""
    evil = tmp_path / "evil"
    evil.mkdir()
    (evil / "conf.json").write_text('{"base_template": "base"}')
    (evil / "index.html.j2").write_text("EVIL {{ 7*7 }}")
    rel = "../" * 16 + str(evil).lstrip("/")
    status, body = _get(server.port, "/voila/render/rulebook.ipynb?template=" + quote(rel))
    assert "EVIL 49" not in body
    assert status == 200 and "scatlab-working" in body, status  # the course's own page template


def _get(port: int, path: str) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path)
    r = conn.getresponse()
    text = r.read().decode("utf-8", "replace")
    location = r.getheader("Location") or ""
    conn.close()
    if r.status in (301, 302):
        return r.status, location.replace(f"http://127.0.0.1:{port}", "")
    return r.status, text


def test_only_the_page_itself_may_shut_its_kernel_down(server: Server) -> None:
    """The shutdown a closing page sends carries no XSRF token, so that one endpoint checks
    the request's origin: another site's page is refused (403) and the kernel lives on."""

    def post(origin: str) -> int:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        conn.request("POST", f"/voila/api/shutdown/{uuid.uuid4()}", headers={"Origin": origin})
        status = conn.getresponse().status
        conn.close()
        return status

    assert post("http://evil.example") == 403
    assert post(server.url) != 403  # the page's own origin passes the check (no such kernel here)


def test_a_page_cannot_run_code_in_its_kernel(course_page: Page, server: Server) -> None:
    """An execute_request sent by hand over the kernel websocket is dropped: only widget
    messages reach a lesson's kernel."""
    open_page(course_page, server, "07-not-this-game")
    marker = server.home / f"ran-{uuid.uuid4().hex}"
    code = f"open({str(marker)!r}, 'w').write('x')"
    status = course_page.evaluate("async () => (await fetch('/api/kernels', {method: 'POST'})).status")
    assert status in (403, 404, 405)  # no new kernels on demand
    kernel_id = course_page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")
    assert len(kernel_id) == 36
    sent = course_page.evaluate(
        """async ([kid, code]) => new Promise((resolve) => {
            const ws = new WebSocket(`ws://${location.host}/api/kernels/${kid}/channels`);
            const id = crypto.randomUUID();
            ws.onopen = () => {
                ws.send(JSON.stringify({channel: 'shell', header: {msg_id: id, msg_type: 'execute_request',
                    username: 'x', session: crypto.randomUUID(), version: '5.3', date: new Date().toISOString()},
                    parent_header: {}, metadata: {}, content: {code, silent: false, store_history: false,
                    user_expressions: {}, allow_stdin: false, stop_on_error: true}, buffers: []}));
                setTimeout(() => { ws.close(); resolve('sent'); }, 3000);
            };
            ws.onerror = () => resolve('refused');
        })""",
        [kernel_id, code],
    )
    assert sent == "sent"
    time.sleep(1)
    assert not marker.exists(), "code sent over the websocket ran in the kernel"
    log = (server.home / "serve.log").read_text()
    assert 'Received message of type "execute_request", which is not allowed' in log


CHART_TEXTS = """(svg) => {  // every drawn text of the chart: its box and its size on screen
    const s = svg.getBoundingClientRect(), scale = s.width / svg.viewBox.baseVal.width;
    return [...svg.querySelectorAll('text')].filter(t => t.getBoundingClientRect().width > 0).map(t => {
        const r = t.getBoundingClientRect();
        return {text: t.textContent, cls: t.getAttribute('class'), readout: !!t.closest('.scat-kc-readout'),
                left: r.left, right: r.right, top: r.top,
                bottom: r.bottom, px: parseFloat(getComputedStyle(t).fontSize) * scale,
                inside: r.left >= s.left - 1 && r.right <= s.right + 1 && r.top >= s.top - 1 && r.bottom <=
                s.bottom + 1};
    });
}"""


def test_lesson_3_knock_chart_fits_a_phone_and_a_tap_shows_a_values_levels(
    course_page: Page, server: Server, past_the_right_edge: Any
) -> None:
    """At 390 x 844 lesson 3's knock chart fits the width with no sideways scroll: every hand
    value labelled and in view, the legend and both axis titles whole, text at least 10 px
    high; a tap (a click, then the mouse moved away: not a hover) on the 21's column shows its
    levels (your chance of winning the game if you knock and if you play on, the advice); the
    table under the chart opens to them too; the worked example on the same page states the
    ranking's figures. Its toggle rows read "Against" and "When". At 1280 px it fits as well."""
    from scatlab.course.knocking import chart_rows, knock_sum, level

    course_page.set_viewport_size({"width": 390, "height": 844})
    open_page(course_page, server, "03-knocking")
    chart = course_page.locator(".scatlab-knock-chart")
    svg = chart.locator("svg.scat-kc")
    expect(svg).to_be_visible(timeout=30_000)
    for label in ("Against", "When"):
        expect(chart.locator(".widget-label").filter(has_text=label)).to_be_visible()
    assert "hover" not in chart.inner_text() and "Tap a value for its numbers" in chart.inner_text()
    worked = knock_sum("AH KH 4C", "9S")
    example = course_page.locator(".scatlab-worked-example")
    expect(example).to_contain_text(
        re.compile(rf"= (about )?{re.escape(level(worked.knock))}")
    )  # "about": rounded terms
    expect(example).to_contain_text(f"gives {level(worked.play_on.win)}")
    svg.scroll_into_view_if_needed()
    assert past_the_right_edge(course_page, ".scatlab-knock-chart, .scatlab-knock-chart *") == []
    assert past_the_right_edge(course_page, "#rendered_cells *") == []
    texts = svg.evaluate(CHART_TEXTS)
    assert [t for t in texts if not t["inside"] or t["right"] > 390 or t["left"] < 0] == []  # nothing cut off
    assert min(t["px"] for t in texts) >= 10, texts
    values = [t for t in texts if t["cls"] == "scat-kc-value"]
    assert [t["text"] for t in values] == [str(v) for v in range(15, 31)]  # every hand value, in order
    assert all(a["right"] < b["left"] for a, b in zip(values, values[1:])), values  # none over its neighbour
    drawn_over = [
        (a["text"], b["text"])
        for i, a in enumerate(texts)
        for b in texts[i + 1 :]
        if a["left"] < b["right"] - 1
        and b["left"] < a["right"] - 1
        and a["top"] < b["bottom"] - 1
        and b["top"] < a["bottom"] - 1
    ]
    assert drawn_over == []  # no text over another (the legend, the ticks, the axis titles)
    drawn = " ".join(t["text"] for t in texts)
    for whole in (
        "if you knock (the advice: knock)",
        "if you knock (the advice: play on)",
        "if you play on",
        "your chance of winning the game",
        "hand value at the start of your turn",
    ):
        assert whole in drawn, (whole, drawn)
    rows = chart_rows(knock_line("classic", opponents=1, turns=0))
    i21 = next(i for i, r in enumerate(rows) if r.value == 21)
    row = rows[i21]
    advice = "knock" if row.knocks else "play on"
    readout = svg.locator(f'.scat-kc-readout[data-i="{i21}"]')
    expect(readout).to_be_hidden()
    svg.locator('.scat-kc-col[data-value="21"] .scat-kc-knock').click()
    course_page.mouse.move(5, 5)  # not a hover: the tapped column keeps its numbers
    expect(readout).to_be_visible()
    expect(readout).to_contain_text(
        f"worth 21your chance of winning the game:{level(row.knock)} if you knock"
        f"{level(row.play_on)} if you play onthe advice: {advice}"
    )
    assert all(t["inside"] and t["right"] <= 390 for t in svg.evaluate(CHART_TEXTS))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    course_page.screenshot(path=str(ARTIFACTS / "03-knock-chart-390.png"))
    chart.get_by_text("The numbers, value by value").click()
    table_row = chart.locator(".scatlab-knock-table tr[data-value='21']")
    expect(table_row).to_be_visible()
    expect(table_row).to_have_text(f"21{level(row.knock)}{level(row.play_on)}{advice}")
    assert past_the_right_edge(course_page, ".scatlab-knock-chart *") == []
    course_page.set_viewport_size({"width": 1280, "height": 900})
    course_page.wait_for_timeout(300)
    top = len(rows) - 1
    svg.locator(f'.scat-kc-col[data-value="{rows[top].value}"] .scat-kc-knock').click()
    expect(svg.locator(f'.scat-kc-readout[data-i="{top}"]')).to_contain_text(
        f"the advice: {'knock' if rows[top].knocks else 'play on'}"
    )
    assert all(t["inside"] for t in svg.evaluate(CHART_TEXTS))
    browser = course_page.context.browser
    assert browser is not None
    touch = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    try:  # a real tap, on a touch screen
        phone = touch.new_page()
        open_page(phone, server, "03-knocking")
        mark = phone.locator('svg.scat-kc .scat-kc-col[data-value="26"] .scat-kc-knock')
        expect(mark).to_be_visible(timeout=30_000)
        mark.tap()
        i26 = next(i for i, r in enumerate(rows) if r.value == 26)
        expect(phone.locator(f'svg.scat-kc .scat-kc-readout[data-i="{i26}"]')).to_contain_text(
            f"{level(rows[i26].knock)} if you knock"
        )
    finally:
        touch.close()
    no_trouble(course_page)


def test_play_a_hand_on_lesson_4s_table_with_clicks(course_page: Page, server: Server) -> None:
    """The "drawing to 31" deal: draw from the stock, throw the 4♣, and the table shows the
    31 declared (C8) with the others losing a life; the rule's explanation shows only then."""
    open_page(course_page, server, "04-showdown")
    course_page.locator(".scatlab-scenarios select").select_option(label="C8: Drawing to 31")
    expect(course_page.locator(".scatlab-instructions")).to_contain_text("throw the 4♣")
    expect(course_page.locator(".scat-hand-card")).to_have_count(3, timeout=30_000)
    explanation = course_page.locator(".scatlab-explanation")
    expect(explanation).to_contain_text("when the hand ends")  # not who loses, before it is played
    course_page.locator(".scat-pile[data-pile=stock]").click()
    expect(course_page.locator(".scat-hand-card")).to_have_count(4, timeout=30_000)
    course_page.locator(".scat-hand-card[data-card='4C']").click()
    showdown = course_page.locator(".scat-showdown")
    expect(showdown).to_be_visible(timeout=30_000)
    expect(showdown).to_contain_text("C8")
    expect(explanation).to_contain_text("What the rules say")
    shot(course_page, "04-showdown-played")
    no_trouble(course_page)


def test_lesson_4s_table_takes_the_keys_and_a_key_brings_it_into_view(course_page: Page, server: Server) -> None:
    """The page's only table has the focus once the page shows (not scrolled to: the lesson
    starts at its title); K knocks, and the felt scrolls into view so the learner sees the
    showdown (C6, C7)."""
    open_page(course_page, server, "04-showdown")
    expect(course_page.locator(".scat-hand-card")).to_have_count(3, timeout=30_000)
    course_page.wait_for_function(
        "document.activeElement && document.activeElement.classList.contains('scat-table')", timeout=30_000
    )
    assert course_page.evaluate("window.scrollY") == 0
    below = course_page.evaluate("document.querySelector('.scat-felt').getBoundingClientRect().bottom")
    assert below > 900, "the felt starts inside the first screen: the test would show nothing"
    course_page.keyboard.press("k")
    expect(course_page.locator(".scat-showdown")).to_be_visible(timeout=30_000)
    box = course_page.evaluate(
        "(() => { const b = document.querySelector('.scat-felt').getBoundingClientRect();"
        " return [b.top, b.bottom]; })()"
    )
    assert 0 <= box[0] and box[1] <= 900, box
    no_trouble(course_page)


def test_a_rule_link_opens_its_entry_in_a_new_tab_and_keeps_the_lesson(course_page: Page, server: Server) -> None:
    """C5 on lesson 8, mid-game: the rulebook opens in a new tab scrolled to C5 (its entries
    are drawn after the page loads, so the browser's own jump found nothing), and the
    lesson's game keeps its move."""
    open_page(course_page, server, "08-play-a-game")
    game = course_page.locator(".scatlab-game")
    expect(game.locator(".scat-hand-card")).to_have_count(3, timeout=30_000)
    game.locator(".scat-pile[data-pile=stock]").click()
    expect(game.locator(".scat-hand-card")).to_have_count(4, timeout=30_000)
    with course_page.context.expect_page() as opened:
        course_page.locator("a[href='rulebook.ipynb#C5']").first.click()
    book = opened.value
    assert book.url.endswith("rulebook.ipynb#C5")
    expect(book.locator("#C5")).to_be_in_viewport(timeout=30_000)
    book.close()
    far = course_page.context.new_page()  # an entry far down the rulebook, opened by its address
    far.goto(server.page_url("rulebook") + "#V9", wait_until="domcontentloaded")
    expect(far.locator("#V9")).to_be_in_viewport(timeout=30_000)
    top = far.evaluate("document.getElementById('V9').getBoundingClientRect().top")
    assert 0 <= top < 450, top  # at the top of the screen, not merely somewhere on it
    far.close()
    expect(game.locator(".scat-hand-card")).to_have_count(4)  # the lesson's game is as it was
    no_trouble(course_page)


def test_lesson_8_saves_a_game_that_the_index_reopens(course_page: Page, server: Server) -> None:
    """The page's game takes the keys at once (D draws, as its text says), beside the
    review's try-it tables; a saved game reopens from the index."""
    open_page(course_page, server, "08-play-a-game")
    game = course_page.locator(".scatlab-game")  # the page's other tables are the review's Try it yourself
    expect(game.locator(".scat-hand-card")).to_have_count(3, timeout=30_000)
    course_page.wait_for_function(
        "document.activeElement && document.activeElement.closest('.scatlab-game')", timeout=30_000
    )
    course_page.keyboard.press("d")
    expect(game.locator(".scat-hand-card")).to_have_count(4, timeout=30_000)
    course_page.locator(".scatlab-game input[placeholder='a name for this game']").fill("browser game")
    course_page.get_by_role("button", name="Save to my progress").click()
    expect(course_page.locator(".scatlab-saved-note")).to_contain_text("browser game")
    shot(course_page, "08-play-a-game")
    open_page(course_page, server, "00-index")
    course_page.locator(".scatlab-saved a", has_text="browser game").click()
    course_page.wait_for_url("**/08-play-a-game.ipynb?game=*")
    expect(course_page.locator(".scatlab-reopened")).to_contain_text("browser game", timeout=30_000)
    expect(game.locator(".scat-hand-card")).to_have_count(4, timeout=30_000)
    no_trouble(course_page)


def test_lesson_8_a_game_played_to_its_end_and_reviewed_shows_no_console_error(
    course_page: Page, server: Server
) -> None:
    """A saved game whose players are all on the county (C13), reopened and played out by
    keys (K knocks, 1 throws, N deals) to Game over, then Review this game: the page's
    review follows it with no console error. The review used to be added below the table
    and taken back in the same moment ("Could not add child view to box")."""
    import json

    from scatlab.course.progress import Progress
    from scatlab.rules import GameRecord, play_random_game

    data = json.loads(GameRecord.from_state(play_random_game("classic", 3, seed=1)).dumps())
    data["hands"] = data["hands"][:5] + [{**data["hands"][5], "actions": []}]  # hand 6 just dealt
    game_id = Progress(server.home / "progress.sqlite3").save_game("on the county", GameRecord.from_json(data).dumps())
    course_page.goto(server.page_url("08-play-a-game") + f"?game={game_id}", wait_until="domcontentloaded")
    game = course_page.locator(".scatlab-game")
    status = game.locator(".scat-status")
    expect(status).to_be_visible(timeout=30_000)
    expect(course_page.locator(".scatlab-reopened")).to_contain_text("on the county", timeout=30_000)
    for _ in range(300):
        text = status.inner_text()
        if text.startswith("Game over"):
            break
        if text.startswith(("Your turn", "Hand")):
            game.locator(".scat-table").focus()
            course_page.keyboard.press(
                "1" if text.startswith("Your turn: click a card") else "k" if text.startswith("Your turn") else "n"
            )
        course_page.wait_for_timeout(200)
    expect(status).to_have_text(re.compile(r"^Game over"), timeout=30_000)
    expect(game.get_by_role("button", name="Knock (K)")).to_have_count(0)  # no greyed knock once it is over
    review_button = game.get_by_role("button", name="Review this game")
    expect(review_button).to_be_visible(timeout=30_000)
    review_button.click()
    section = course_page.locator(".scatlab-review-replay")
    expect(section.locator(".scatlab-review-source")).not_to_contain_text("stand-in", timeout=30_000)
    expect(course_page.locator(".scat-review")).to_have_count(1)
    course_page.wait_for_timeout(1000)  # the errors came a moment after the game's end
    no_trouble(course_page)


def test_lesson_8_reviews_a_game_and_replays_its_two_costliest_decisions(course_page: Page, server: Server) -> None:
    """Issue 10: the stand-in's review, its two costliest decisions with reasons, and two
    Try-it-yourself tables at those positions; Review my game waits for the game's end."""
    open_page(course_page, server, "08-play-a-game")
    section = course_page.locator(".scatlab-review-replay")
    expect(section.locator(".scatlab-review-source")).to_contain_text("stand-in", timeout=30_000)
    review = course_page.locator(".scat-review")
    expect(review).to_have_count(1, timeout=30_000)
    expect(review.locator(".scat-review-mark").first).to_be_visible()
    listing = course_page.locator(".scatlab-costliest li")
    expect(listing).to_have_count(2)
    expect(listing.nth(0)).to_contain_text("blunder")
    expect(listing.nth(1)).to_contain_text("chance of winning")
    expect(course_page.locator(".scatlab-try-head")).to_have_count(2)
    expect(course_page.locator(".scat-hand-card")).to_have_count(3 + 3 + 3, timeout=30_000)
    review.locator(".scat-review-mark").nth(1).click()
    # the decision in the learner's words: the player's own move, never the engine's "action 2"
    expect(review.locator(".scat-review-decision")).to_contain_text(
        re.compile(r"Hand \d+, the stand-in's \d+(st|nd|rd|th) move"), timeout=10_000
    )
    expect(review.locator(".scat-review-decision")).not_to_contain_text("action")
    section.get_by_role("button", name="Review my game").click()
    expect(section.locator(".scatlab-review-wait")).to_contain_text("not over yet")
    course_page.locator(".scatlab-costliest").scroll_into_view_if_needed()
    course_page.wait_for_timeout(300)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    course_page.screenshot(path=str(ARTIFACTS / "08-review-section.png"))
    course_page.locator(".scatlab-try-head").nth(0).scroll_into_view_if_needed()
    course_page.wait_for_timeout(300)
    course_page.screenshot(path=str(ARTIFACTS / "08-try-it-yourself.png"))
    section.scroll_into_view_if_needed()
    course_page.wait_for_timeout(300)
    course_page.screenshot(path=str(ARTIFACTS / "08-review-widget.png"))
    expect(review.locator(".scat-review-title")).to_contain_text("stand-in")
    no_trouble(course_page)


def test_lesson_6_runs_a_tournament_with_a_progress_bar(course_page: Page, server: Server) -> None:
    open_page(course_page, server, "06-strategy-lab")
    lab = course_page.locator(".scatlab-tournament")
    lab.get_by_role("button", name="Run the tournament").click()
    expect(lab.locator(".scatlab-tournament-result")).to_contain_text("won", timeout=60_000)
    expect(
        lab.locator("svg[aria-label^='win rates after 36 games, each with the range it likely lies in']")
    ).to_be_visible()
    expect(lab.locator(".scatlab-tournament-result")).to_contain_text("tip player 1")
    expect(lab.locator(".scatlab-tournament-result")).to_contain_text("likely between")
    shot(course_page, "06-strategy-lab-run")
    no_trouble(course_page)


def test_stopping_scatlab_serve_stops_voila(tmp_path: Path) -> None:
    """SIGTERM to the scatlab process (not its group) leaves no Voilà behind."""
    port = free_port()
    proc = start_app(port, tmp_path)
    try:
        wait_ready(f"http://127.0.0.1:{port}/voila/static/voila.js", proc)
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) != 0:
                    break
            time.sleep(0.5)
        with socket.socket() as s:
            assert s.connect_ex(("127.0.0.1", port)) != 0, "Voilà still answers after scatlab serve was stopped"
    finally:
        stop(proc)


def test_the_appendix_compares_the_two_opponent_models_and_shows_the_reliability_diagram(
    course_page: Page, server: Server
) -> None:
    """Issue 11, on lesson 3's optional page "How we know the numbers": the turns slider and
    the rejected-cards field change the adaptive model's knock risk (C6, C7), not the uniform
    one's; bad cards are answered beside the field; the calibration study's diagram is drawn."""
    open_page(course_page, server, "appendix-how-we-know")
    section = course_page.locator(".scatlab-opponent-models")
    expect(section).to_be_visible(timeout=30_000)
    uniform = section.locator("td[data-model='uniform'][data-field='p_lose'] b")
    adaptive = section.locator("td[data-model='adaptive'][data-field='p_lose'] b")
    expect(adaptive).to_have_text(uniform.inner_text())  # nothing seen: one model
    start = uniform.inner_text()
    handle = section.locator(".noUi-handle")
    handle.focus()
    for _ in range(4):
        handle.press("ArrowRight")
    expect(section).to_contain_text("4 turns", timeout=10_000)
    field = section.locator(".widget-text input")
    field.fill("8S 2D")
    field.press("Enter")
    expect(section).to_contain_text("rejected", timeout=10_000)
    expect(uniform).to_have_text(start)
    assert adaptive.inner_text() != start
    figure = course_page.locator(".scatlab-calibration svg")
    expect(figure).to_be_visible()
    expect(course_page.get_by_role("heading", name="Later in a hand")).to_be_visible()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    course_page.get_by_role("heading", name="Later in a hand").scroll_into_view_if_needed()
    course_page.wait_for_timeout(300)
    course_page.screenshot(path=str(ARTIFACTS / "03-later-in-a-hand.png"))
    section.scroll_into_view_if_needed()
    course_page.wait_for_timeout(300)
    course_page.screenshot(path=str(ARTIFACTS / "03-opponent-models.png"))
    figure.scroll_into_view_if_needed()
    course_page.wait_for_timeout(300)
    course_page.screenshot(path=str(ARTIFACTS / "03-reliability-diagram.png"))
    field.fill("8S 1X")
    field.press("Enter")
    expect(section.locator(".scatlab-field-error")).to_contain_text("'1X' is not a card", timeout=10_000)
    course_page.screenshot(path=str(ARTIFACTS / "03-rejected-error.png"))
    no_trouble(course_page)


def test_the_console_shows_one_url_and_a_quiet_log(server: Server) -> None:
    """``scatlab serve`` prints the course's URL once; what every page load repeated
    (untrusted notebook, unencrypted kernel transport, a refused kernel shutdown when a page
    closes) is not logged. (Last in this file: the pages above have been opened and left.)"""
    log = (server.home / "serve.log").read_text()
    addresses = [
        line
        for line in log.splitlines()
        if "http://" in line and "Origin:" not in line and "POST /voila/api/shutdown" not in line
    ]  # the origin test above sends one from elsewhere
    assert addresses == [f"scatlab course: {server.page_url('00-index')}"], log
    for noise in (
        "is not trusted",
        "without encryption",
        "Kernel started",
        "'_xsrf' argument missing",
        "Culling",
        "websocket_ping",
    ):
        assert noise not in log, log
