"""The course's page furniture: lesson headers with previous/next links, the "finished"
button, the index with progress, the practice rating and saved games (no file path: a
learner reads where to go, not where the database is), the optional appendices' header and
footer (no "finished" button: they never count toward progress), and the rulebook page.

Links are relative notebook names (``03-knocking.ipynb``), so they work in Voilà
(``/voila/render/...``) and in JupyterLab alike. Rule codes link to the rulebook page
(``rulebook.ipynb#C7``).

>>> "02-draw-or-take.ipynb" in lesson_header("03-knocking").value
True
>>> "id='C7'" in rulebook_html()
True
>>> "03-knocking.ipynb" in appendix_header("appendix-how-we-know").value
True
"""

from __future__ import annotations

import os
import time
from html import escape
from typing import Any
from urllib.parse import parse_qs

import ipywidgets as widgets

from ...rules.rulebook import RULEBOOK, rule_entry
from ..lessons import APPENDICES, INDEX, LESSONS, Lesson, appendix, lesson
from ..progress import LessonProgress, Progress, ProgressError, SavedGame

__all__ = [
    "RULEBOOK_PAGE",
    "PRACTICE_PAGE",
    "rule_link",
    "rules_box",
    "lesson_header",
    "lesson_footer",
    "appendix_header",
    "appendix_footer",
    "course_index",
    "rulebook_html",
    "rulebook_page",
    "query_parameter",
    "open_progress",
]

RULEBOOK_PAGE = "rulebook.ipynb"
"""The notebook that shows every rule; lessons link to ``rulebook.ipynb#CODE``."""

PRACTICE_PAGE = "practice.ipynb"
"""The practice page: puzzles from real games and the learner's rating (the index links it)."""

_LINK = "color:#1a5fb4;text-decoration:underline"


def open_progress() -> tuple[Progress | None, str]:
    """The learner's progress and a notice to show (a moved-aside file, or why none is kept)."""
    try:
        p = Progress()
    except ProgressError as exc:
        return None, f"Progress is not kept: {exc}"
    return p, p.notice or ""


def rule_link(code: str) -> str:
    """An HTML link to a rule's rulebook entry, with its title as a tooltip.

    >>> rule_link("C7")
    '<a href="rulebook.ipynb#C7" title="C7 Showdown" style="color:#1a5fb4;text-decoration:underline">C7</a>'
    """
    entry = rule_entry(code)
    title = escape(entry.code + " " + entry.title)
    return f'<a href="{RULEBOOK_PAGE}#{entry.code}" title="{title}" style="{_LINK}">{entry.code}</a>'


def rules_box(*codes: str) -> widgets.HTML:
    """The rulebook entries of ``codes``, each linked to the rulebook page."""
    items = "".join(
        f"<li>{rule_link(c)} <b>{escape(rule_entry(c).title)}</b>: {escape(rule_entry(c).text)}</li>" for c in codes
    )
    box = widgets.HTML(f"<ul class='scatlab-rules' style='margin:4px 0'>{items}</ul>")
    box.add_class("scatlab-rules")
    return box


def _nav(lesson_id: str) -> str:
    item = lesson(lesson_id)
    parts = []
    if item.previous is not None:
        parts.append(
            f'<a href="{item.previous.filename}" style="{_LINK}">'
            f"&larr; {item.previous.number}. {escape(item.previous.title)}</a>"
        )
    parts.append(f'<a href="{INDEX}" style="{_LINK}">Course index</a>')
    if item.next is not None:
        parts.append(
            f'<a href="{item.next.filename}" style="{_LINK}">{item.next.number}. {escape(item.next.title)} &rarr;</a>'
        )
    return '<nav class="scatlab-nav" style="display:flex;gap:1.5em;margin:6px 0">' + "".join(parts) + "</nav>"


def lesson_header(lesson_id: str) -> widgets.HTML:
    """ "Lesson n of 8" with links to the previous lesson, the index and the next lesson."""
    item = lesson(lesson_id)
    html = f"<div style='color:#555'>scatlab course &middot; lesson {item.number} of {len(LESSONS)}</div>" + _nav(
        lesson_id
    )
    w = widgets.HTML(html)
    w.add_class("scatlab-header")
    return w


def lesson_footer(lesson_id: str, progress: Any = None) -> widgets.VBox:
    """A "finished" button (kept in the progress) and the same links as the header."""
    item = lesson(lesson_id)
    p, notice = (progress, "") if progress is not None else open_progress()
    done = False
    if p is not None:
        try:
            done = item.id in p.finished_lessons()
        except ProgressError as exc:
            notice = f"Progress cannot be read: {exc}"
        try:  # the index then calls the lesson started; a visit not kept loses nothing the learner made
            p.record_visit(item.id)
        except ProgressError:
            pass
    button = widgets.Button(
        description="Finished ✓" if done else "Mark this lesson finished",
        button_style="success" if done else "",
        layout=widgets.Layout(width="auto"),
    )
    status = widgets.Label(notice)

    def finish(_b: Any) -> None:
        if p is None:
            status.value = notice or "Progress is not kept."
            return
        try:
            p.finish_lesson(item.id)
        except ProgressError as exc:
            status.value = f"Not kept: {exc}"
            return
        button.description, button.button_style = "Finished ✓", "success"
        status.value = "Kept. The course index shows it."

    button.on_click(finish)
    footer = widgets.VBox([widgets.HBox([button, status]), widgets.HTML(_nav(lesson_id))])
    footer.add_class("scatlab-footer")
    return footer


def _appendix_nav(appendix_id: str) -> str:
    item = appendix(appendix_id)
    back = lesson(item.lesson)
    return (
        '<nav class="scatlab-nav" style="display:flex;flex-wrap:wrap;gap:1.5em;margin:6px 0">'
        f'<a href="{back.filename}" style="{_LINK}">&larr; back to {back.number}. {escape(back.title)}</a>'
        f'<a href="{INDEX}" style="{_LINK}">Course index</a></nav>'
    )


def appendix_header(appendix_id: str) -> widgets.HTML:
    """ "Optional page" with links back to the lesson it extends and to the index."""
    item = appendix(appendix_id)
    back = lesson(item.lesson)
    html = (
        f"<div style='color:#555'>scatlab course &middot; optional page, beside lesson {back.number}: "
        "you may skip it</div>" + _appendix_nav(appendix_id)
    )
    w = widgets.HTML(html)
    w.add_class("scatlab-header")
    return w


def appendix_footer(appendix_id: str) -> widgets.HTML:
    """The same links as the header, and a word that this page does not count toward progress."""
    w = widgets.HTML(
        "<p style='color:#555'>An optional page: it does not count toward your progress.</p>"
        + _appendix_nav(appendix_id)
    )
    w.add_class("scatlab-footer")
    return w


def _appendices_html() -> str:
    """The optional pages: no score beside them, since they do not count toward progress."""
    items = []
    for a in APPENDICES:
        items.append(
            f"<li><a href='{a.filename}' style='{_LINK}'>{escape(a.title)}</a> "
            f"<span style='color:#555'>(beside lesson {lesson(a.lesson).number}): {escape(a.blurb)}</span>"
            "</li>"
        )
    return (
        "<h4>Optional pages</h4><p style='color:#555'>Side topics for the curious; they do not count "
        f"toward your progress.</p><ul class='scatlab-appendices'>{''.join(items)}</ul>"
    )


def _index_html(progress: Progress | None, notice: str) -> str:
    summary: dict[str, LessonProgress] = {}
    games: list[SavedGame] = []
    earned: dict[str, int] = {}
    visited: set[str] = set()
    rating: tuple[int, int] | None = None
    unreadable = False
    if progress is not None:
        try:
            summary, games, earned = progress.summary(), progress.saved_games(), progress.step_stars()
            visited = progress.visited_lessons()
            rating = (progress.practice_rating(), len(progress.practice_answers()))
        except ProgressError as exc:
            unreadable = True
            notice = f"{notice} Progress cannot be shown: {exc}".strip()
    rows = [_lesson_row(item, summary.get(item.id), earned, visited) for item in LESSONS]
    table = (
        "<table class='scatlab-index' style='border-collapse:collapse'>"
        "<tr><th></th><th style='text-align:left;padding:4px 10px'>Lesson</th>"
        "<th style='text-align:left;padding:4px 10px'>Progress</th></tr>" + "".join(rows) + "</table>"
    )
    note = f"<p style='color:#8a5a00'>{escape(notice)}</p>" if notice else ""
    return (
        note
        + table
        + _practice_html(rating)
        + _appendices_html()
        + _saved_games_html(games, unreadable)
        + f"<p><a href='{RULEBOOK_PAGE}' style='{_LINK}'>The rulebook: every rule by its code</a></p>"
    )


def _lesson_row(item: Lesson, s: LessonProgress | None, earned: dict[str, int], visited: set[str]) -> str:
    """A lesson's row of the index: its number, title and blurb, and its progress in one column."""
    from ..steps import steps_of

    done = (
        "<span class='scatlab-finished' style='color:#1e7b34;white-space:nowrap'>finished ✓</span>"
        if s and s.finished
        else ""
    )
    steps = steps_of(item.id)
    got = sum(earned.get(step.id, 0) for step in steps)
    started = bool(s and (s.answered or s.finished)) or got > 0
    if s and s.answered:
        right = f"{s.correct}&nbsp;right of&nbsp;{s.answered}&nbsp;answer{'s' if s.answered != 1 else ''}"
    else:
        right = "" if started else "opened" if item.id in visited else "not&nbsp;started"
    if steps:
        stars = f"<span class='scatlab-stars' style='color:#8a5a00'>★&nbsp;{got}&nbsp;of&nbsp;{3 * len(steps)}</span>"
        right = f"{stars}<br>{right}" if right else stars
    if done:  # one progress column: a phone keeps its width for the lesson's title and blurb
        right = f"{done}<br>{right}" if right else done
    return (
        f"<tr><td style='padding:4px 10px'>{item.number}</td>"
        f"<td style='padding:4px 10px'><a href='{item.filename}' style='{_LINK}'>{escape(item.title)}</a><br>"
        f"<span style='color:#555'>{escape(item.blurb)}</span></td>"
        f"<td style='padding:4px 10px' class='scatlab-answers'>{right}</td></tr>"
    )


def _saved_games_html(games: list[SavedGame], unreadable: bool) -> str:
    """The index's saved games, the newest 20, each a link that reopens it in lesson 8."""
    if games:
        items = "".join(
            f"<li><a href='{LESSONS[-1].filename}?game={g.id}' style='{_LINK}'>{escape(g.name)}</a> "
            f"<span style='color:#555'>({time.strftime('%Y-%m-%d %H:%M', time.localtime(g.at))})</span></li>"
            for g in games[:20]
        )
        return f"<h4>Saved games</h4><ul class='scatlab-saved'>{items}</ul>"
    if unreadable:
        return "<h4>Saved games</h4><p class='scatlab-saved'>They cannot be read now (see above).</p>"
    return "<h4>Saved games</h4><p class='scatlab-saved'>None yet: save one from the table in lesson 8.</p>"


def _practice_html(rating: tuple[int, int] | None) -> str:
    """The index's link to the practice page, with the rating and the puzzles it rests on."""
    if rating is None:
        score = ""
    elif rating[1]:
        score = (
            f" <span class='scatlab-index-rating'>Your rating: <b>{rating[0]}</b>, after {rating[1]} "
            f"puzzle{'s' if rating[1] != 1 else ''}.</span>"
        )
    else:
        score = f" <span class='scatlab-index-rating'>Your rating starts at <b>{rating[0]}</b>.</span>"
    return (
        f"<p class='scatlab-practice-link'><a href='{PRACTICE_PAGE}' style='{_LINK}'>Practice</a>: "
        f"puzzles from real games, each with one clearly best move, and your rating.{score}</p>"
    )


def course_index(progress: Any = None) -> widgets.VBox:
    """The course index: each lesson with its progress, the optional pages apart, and the
    saved games to reopen."""
    p, notice = (progress, "") if progress is not None else open_progress()
    body = widgets.HTML(_index_html(p, notice))
    body.add_class("scatlab-course-index")
    refresh = widgets.Button(description="Refresh progress", layout=widgets.Layout(width="auto"))

    def update(_b: Any) -> None:
        body.value = _index_html(p, notice)

    refresh.on_click(update)
    return widgets.VBox([body, refresh])


def rulebook_html() -> str:
    """Every rule of the rulebook as HTML, each entry with its code as anchor; under a
    variant, the presets that play it.

    >>> html = rulebook_html()
    >>> "Played in the quick preset" in html, "deck_size" in html
    (True, False)
    """
    from ...rules.options import PRESETS, VARIANT_PARTS

    items = []
    for code, entry in RULEBOOK.items():
        more = ""
        if code.startswith("V"):
            names = [name for name, rules in PRESETS.items() if code in rules.codes()]
            where = [f"the {' and '.join(names)} preset{'s' if len(names) > 1 else ''}"] if names else []
            for name, rules in PRESETS.items():  # a part of a larger variant: GIN's 30½ is V2's
                if code not in rules.codes() and rules.plays(code):
                    larger = next(big for big, part in VARIANT_PARTS if part == code and big in rules.codes())
                    where.append(f"the {name} preset, as part of {larger}")
            note = (
                f"Played in {'; in '.join(where)}."
                if where
                else "In no preset: a house rule to agree on before the game."
            )
            more = f"<br><span class='scatlab-rule-where' style='color:#555'>{note}</span>"
        items.append(
            f"<div id='{code}' class='scatlab-rule' style='margin:10px 0'>"
            f"<a name='{code}'></a><b>{code} {escape(entry.title)}</b><br>{escape(entry.text)}{more}</div>"
        )
    return "".join(items)


def rulebook_page() -> widgets.HTML:
    """The rulebook page's body."""
    w = widgets.HTML(rulebook_html())
    w.add_class("scatlab-rulebook")
    return w


def query_parameter(name: str) -> str | None:
    """A parameter of the page's URL in Voilà (``?game=3``), read from ``QUERY_STRING``.

    >>> import os
    >>> os.environ["QUERY_STRING"] = "game=3&x=1"
    >>> query_parameter("game")
    '3'
    >>> del os.environ["QUERY_STRING"]
    """
    values = parse_qs(os.environ.get("QUERY_STRING", "")).get(name)
    return values[0] if values else None
