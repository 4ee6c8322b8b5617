"""Lessons 3 and 6: the knock line drawn from what the engine decides by. Lesson 3's knock
chart (with its table and caption), its worked example and what moves the line; lesson 6's
climb of the line as the turns go by. The figures come from
:func:`~scatlab.analysis.engine.knock_line.knock_line` and :mod:`scatlab.course.knocking`; this
module only draws them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from html import escape
from typing import Any

import ipywidgets as widgets

from ...cards import format_cards
from ..exercises import show_value

__all__ = [
    "knock_chart_svg",
    "knock_table_html",
    "knock_caption",
    "KnockChart",
    "worked_example_html",
    "worked_example",
    "line_facts_html",
    "line_facts",
    "CLIMB_WHENS",
    "line_climb_html",
    "line_climb",
]


def _running_loop() -> Any:
    import asyncio

    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _knock_chart_style(count: int) -> str:
    """The chart's own CSS: a column tapped, clicked or reached with Tab (focused), or under the
    mouse, shows its figures in a box (a phone has no hover: a tap focuses)."""
    rules = [
        ".scat-kc .scat-kc-col{cursor:pointer;outline:none}",
        ".scat-kc .scat-kc-col:hover .scat-kc-hit{fill:#f2f2f2}",
        ".scat-kc .scat-kc-col:focus .scat-kc-hit{fill:#fff1bf}",
        ".scat-kc .scat-kc-readout{display:none;pointer-events:none}",
    ]  # a tap goes through to the column
    for i in range(count):
        col, box = f'.scat-kc-col[data-i="{i}"]', f'.scat-kc-readout[data-i="{i}"]'
        rules.append(f".scat-kc {col}:focus~{box},.scat-kc {col}:hover~{box}{{display:inline}}")
        rules.append(f".scat-kc:has(.scat-kc-col:hover) {col}:focus:not(:hover)~{box}{{display:none}}")
    return "<style>" + "".join(rules) + "</style>"


def _ticks(low: float, high: float) -> tuple[float, float, float]:
    """The y axis of the knock chart in percent: (bottom, top, step), round numbers that hold
    every figure with a little room, 4 to 8 ticks.

    >>> _ticks(50.2, 72.7), _ticks(29.9, 37.0)
    ((50.0, 75.0, 5.0), (28.0, 38.0, 2.0))
    """
    span = max(high - low, 1.0)
    step = next(s for s in (1.0, 2.0, 5.0, 10.0, 20.0) if span / s <= 7)
    bottom = math.floor(low / step) * step
    top = math.ceil(high / step) * step
    if top - high < step / 5:  # no figure on the top edge
        top += step
    return max(bottom, 0.0), min(top, 100.0), step


def knock_chart_svg(line: Any) -> str:
    """The knock chart: per hand value at the start of a turn, your chance of winning the game
    if you knock (a square: green where the advice knocks, red where it plays on) and if you
    play on (a blue dot), an average hand of that value (``line`` is a
    :class:`~scatlab.analysis.engine.knock_line.KnockLine`: the figures the engine decides by).
    A dashed **knock line** stands where knocking's figure passes playing on's, going up; the
    values where the advice knocks are shaded.

    Drawn for a phone first: a 420-wide view box that scales to the page's width (its text
    stays about 11 px high at 390 px), every hand value labelled, the legend on rows of its
    own above the plot. Each value's column can be tapped, clicked or reached with Tab: it
    then shows its figures as levels (:func:`~scatlab.course.knocking.readout`), as its
    ``<title>`` does."""
    from ..knocking import chart_rows

    rows = chart_rows(line)
    width, left, right, font = 420, 56, 8, 13  # left: the tick labels, clear of the axis title
    plot_top, plot_bottom = 66, 266  # three legend rows sit above plot_top
    height = plot_bottom + 50
    figures = [float(x) * 100 for r in rows for x in (r.knock, r.play_on)]
    bottom, top, step = _ticks(min(figures), max(figures))
    bar = (width - left - right) / len(rows)
    n = line.opponents
    crossings = [i for i in range(1, len(rows)) if rows[i].knocks and not rows[i - 1].knocks]
    frame = _Frame(width, left, right, font, plot_top, plot_bottom, bottom, top, bar)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="scat-kc" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="group" '
        f'style="display:block;width:100%;max-width:480px;height:auto" '
        f'aria-label="your chance of winning the game if you knock and if you play on, by hand value, against '
        f'{n} opponent{"s" if n != 1 else ""}">',
        _knock_chart_style(len(rows)),
    ]
    parts.append(_legend(font, bool(crossings)))
    parts += _shading(frame, rows)
    parts += _y_axis(frame, step)
    parts.append(_paths(frame, rows))
    parts += _knock_lines(frame, rows, crossings)
    parts += _columns(frame, rows)
    parts.append(
        f'<text x="{left + (width - left - right) / 2:.1f}" y="{height - 8}" text-anchor="middle" '
        f'font-size="{font}">hand value at the start of your turn</text>'
    )
    parts += _readouts(frame, rows)
    parts.append("</svg>")
    return "".join(parts)


@dataclass(frozen=True)
class _Frame:
    """The knock chart's geometry: the view box's width, the plot's margins and its top and
    bottom, the font size, the y axis in percent (``bottom`` to ``top``) and a column's width."""

    width: int
    left: int
    right: int
    font: int
    plot_top: int
    plot_bottom: int
    bottom: float
    top: float
    bar: float

    def y(self, p: Fraction) -> float:
        """Where the chance ``p`` is drawn, down the view box."""
        return self.plot_bottom - (self.plot_bottom - self.plot_top) * (float(p) * 100 - self.bottom) / (
            self.top - self.bottom
        )

    def cx(self, i: int) -> float:
        """The middle of column ``i``."""
        return self.left + i * self.bar + self.bar / 2


def _legend(font: int, knock_line: bool) -> str:
    """The chart's legend: one entry a row, so each stays whole on a phone (the knock line's
    own entry only where the chart has one)."""
    parts = []
    parts.append(
        f'<g class="scat-kc-legend" font-size="{font}">'
        f'<rect x="8" y="6" width="11" height="11" fill="#1e7b34"/>'
        f'<text x="25" y="16">if you knock (the advice: knock)</text>'
        f'<rect x="8" y="24" width="11" height="11" fill="#c0392b"/>'
        f'<text x="25" y="34">if you knock (the advice: play on)</text>'
        f'<circle cx="13.5" cy="47.5" r="4.5" fill="#1a5fb4"/>'
        f'<text x="25" y="52">if you play on</text>'
    )
    if knock_line:
        parts.append(
            '<line x1="150" x2="150" y1="40" y2="55" stroke="#333" stroke-width="1.5" stroke-dasharray="4 3"/>'
            '<text x="158" y="52">the knock line</text>'
        )
    parts.append("</g>")
    return "".join(parts)


def _readouts(frame: _Frame, rows: Any) -> list[str]:
    """Each column's figures in a box, shown when the column is tapped, clicked, focused or
    under the mouse (:func:`_knock_chart_style`)."""
    from ..knocking import level

    width, left, right, font = frame.width, frame.left, frame.right, frame.font
    plot_top, plot_bottom = frame.plot_top, frame.plot_bottom
    y, cx = frame.y, frame.cx
    parts = []
    box_w, box_h = 250, 100
    for i, row in enumerate(rows):  # after every column, so drawn over them, clear of its own marks if it can
        box_x = left + 4 if cx(i) > (left + width - right) / 2 else width - right - box_w - 4
        high, low = min(y(row.knock), y(row.play_on)) - 6, max(y(row.knock), y(row.play_on)) + 6
        above, below = high - plot_top, plot_bottom - low  # room above its marks, and below them
        box_y = plot_top + 2 if above >= box_h + 2 or above >= below else plot_bottom - box_h - 2
        close = " (a close call)" if row.close or level(row.knock) == level(row.play_on) else ""
        lines = [
            "your chance of winning the game:",
            f"{level(row.knock)} if you knock",
            f"{level(row.play_on)} if you play on",
            f"the advice: {'knock' if row.knocks else 'play on'}{close}",
        ]
        parts.append(
            f'<g class="scat-kc-readout" data-i="{i}" aria-hidden="true" font-size="{font}">'
            f'<rect x="{box_x}" y="{box_y}" width="{box_w}" height="{box_h}" rx="4" fill="#fff" '
            f'stroke="#555"/><text x="{box_x + 10}" y="{box_y + 18}" font-weight="bold">'
            f"worth {escape(show_value(row.value))}</text>"
            + "".join(f'<text x="{box_x + 10}" y="{box_y + 36 + 17 * j}">{t}</text>' for j, t in enumerate(lines))
            + "</g>"
        )
    return parts


def _shading(frame: _Frame, rows: Any) -> list[str]:
    """The columns where the advice knocks, shaded (drawn first, behind everything)."""
    plot_top, plot_bottom, bar = frame.plot_top, frame.plot_bottom, frame.bar
    return [
        f'<rect class="scat-kc-shade" x="{frame.left + i * bar:.1f}" y="{plot_top}" width="{bar:.1f}" '
        f'height="{plot_bottom - plot_top}" fill="#e6f4ea"/>'
        for i, row in enumerate(rows)
        if row.knocks
    ]


def _y_axis(frame: _Frame, step: float) -> list[str]:
    """The y axis: a grid line and a label in percent every ``step``, and the axis's title."""
    left, font, plot_top, plot_bottom = frame.left, frame.font, frame.plot_top, frame.plot_bottom
    parts = []
    ticks = round((frame.top - frame.bottom) / step)
    for j in range(ticks + 1):
        tick = frame.bottom + j * step
        ty = plot_bottom - (plot_bottom - plot_top) * j / ticks
        parts.append(
            f'<line x1="{left}" x2="{frame.width - frame.right}" y1="{ty:.1f}" y2="{ty:.1f}" stroke="#e0e0e0"/>'
            f'<text x="{left - 5}" y="{ty + 4:.1f}" text-anchor="end" font-size="{font}">{tick:g}%</text>'
        )
    middle = (plot_top + plot_bottom) / 2
    parts.append(
        f'<text x="14" y="{middle:.1f}" text-anchor="middle" font-size="{font}" '
        f'transform="rotate(-90 14 {middle:.1f})">your chance of winning the game</text>'
    )
    return parts


def _paths(frame: _Frame, rows: Any) -> str:
    """The two lines joining the columns' marks: knocking's (grey) and playing on's (blue)."""
    y, cx = frame.y, frame.cx
    knock_path = " ".join(f"{cx(i):.1f},{y(r.knock):.1f}" for i, r in enumerate(rows))
    on_path = " ".join(f"{cx(i):.1f},{y(r.play_on):.1f}" for i, r in enumerate(rows))
    return (
        f'<polyline class="scat-kc-knock-path" points="{knock_path}" fill="none" stroke="#555" '
        f'stroke-width="1.2"/><polyline class="scat-kc-on-path" points="{on_path}" fill="none" '
        f'stroke="#1a5fb4" stroke-width="1.2"/>'
    )


def _knock_lines(frame: _Frame, rows: Any, crossings: list[int]) -> list[str]:
    """The dashed knock lines, on the left edge of each column in ``crossings``, where knocking passes playing on."""
    parts = []
    for i in crossings:
        x = frame.left + i * frame.bar
        parts.append(
            f'<line class="scat-kc-line" data-value="{escape(show_value(rows[i].value))}" x1="{x:.1f}" '
            f'x2="{x:.1f}" y1="{frame.plot_top}" y2="{frame.plot_bottom}" stroke="#333" stroke-width="1.5" '
            f'stroke-dasharray="4 3"/>'
        )
    return parts


def _columns(frame: _Frame, rows: Any) -> list[str]:
    """Each hand value's column: its marks, its title, a target to tap and, for a whole value, its label."""
    from ..knocking import level, readout

    plot_top, plot_bottom, bar, y, cx = frame.plot_top, frame.plot_bottom, frame.bar, frame.y, frame.cx
    parts = []
    for i, row in enumerate(rows):
        x = frame.left + i * bar
        colour = "#1e7b34" if row.knocks else "#c0392b"
        label = escape(show_value(row.value))
        parts.append(
            f'<g class="scat-kc-col" data-i="{i}" data-value="{label}" data-knock="{level(row.knock)}" '
            f'data-play-on="{level(row.play_on)}" data-advice="{"knock" if row.knocks else "play on"}" '
            f'tabindex="0" role="img"><title>{escape(readout(row))}</title>'
            f'<rect class="scat-kc-hit" x="{x:.1f}" y="{plot_top}" width="{bar:.1f}" '
            f'height="{plot_bottom - plot_top + 22}" fill="transparent"/>'
            f'<rect class="scat-kc-knock" x="{cx(i) - 4.5:.1f}" y="{y(row.knock) - 4.5:.1f}" width="9" '
            f'height="9" fill="{colour}"/>'
            f'<circle class="scat-kc-dot" cx="{cx(i):.1f}" cy="{y(row.play_on):.1f}" r="4" fill="#1a5fb4"/>'
        )
        if row.value == int(row.value):
            parts.append(
                f'<text class="scat-kc-value" x="{cx(i):.1f}" y="{plot_bottom + 17}" '
                f'text-anchor="middle" font-size="{frame.font}">{label}</text>'
            )
        parts.append("</g>")
    return parts


def knock_table_html(line: Any) -> str:
    """The chart's figures as a small table, always readable (a phone has no hover): per hand
    value, your chance of winning the game if you knock and if you play on, and the advice."""
    from ..knocking import chart_rows, level

    cell = "padding:2px 6px;text-align:right"
    td = f"<td style='{cell};border-top:1px solid #e0e0e0'>"
    body = "".join(
        f"<tr data-value='{escape(show_value(r.value))}'>{td}{escape(show_value(r.value))}</td>"
        f"{td}{level(r.knock)}</td>{td}{level(r.play_on)}</td>"
        f"{td}{'<b>knock</b>' if r.knocks else 'play on'}</td></tr>"
        for r in chart_rows(line)
    )
    return (
        "<details class='scatlab-knock-table'><summary style='cursor:pointer'>The numbers, value by value"
        "</summary><table style='border-collapse:collapse;font-size:0.9em;margin-top:4px'>"
        f"<thead><tr><th style='{cell}'>Your hand is worth</th><th style='{cell}'>If you knock</th>"
        f"<th style='{cell}'>If you play on</th><th style='{cell}'>The advice</th></tr></thead>"
        f"<tbody>{body}</tbody></table></details>"
    )


def knock_caption(line: Any) -> str:
    """The words under the knock chart: where the advice knocks for an average hand, and the
    chance of winning the game before the hand, the level the figures move from."""
    from ..knocking import chart_rows, level, line_words

    n, t = line.opponents, line.turns
    after = "just dealt" if t == 0 else f"after {t} turn{'s' if t != 1 else ''} each"
    where = line_words(chart_rows(line))
    verdict = (
        "the advice never knocks at the start of a turn"
        if where == "never"
        else f"the advice knocks <b>{where}</b>, where knocking gives the better chance of winning the game"
    )
    return (
        f"<p>Against {n} opponent{'s' if n > 1 else ''}, {after}, for an average hand: {verdict}. Before the "
        f"hand, with {line.lives} lives each, your chance of winning the game is {level(line.now)}. "
        "Tap a value for its numbers, or open the table below.</p>"
    )


class KnockChart(widgets.VBox):  # type: ignore[misc]
    """The knock line, drawn from what the engine decides by: per hand value, your chance of
    winning the game if you knock and if you play on
    (:func:`~scatlab.analysis.engine.knock_line.knock_line`), with a choice of 1 to 3 opponents
    and of the turns they have played."""

    def __init__(self, opponents: int = 1, turns: int = 0, *, defer: bool = True) -> None:
        """``defer``: in a running kernel, draw the chart just after the page is shown (the
        figures take a moment), so the lesson's other widgets are usable at once."""
        self.line: Any = None
        self.opponents = widgets.ToggleButtons(
            options=[("1 opponent", 1), ("2 opponents", 2), ("3 opponents", 3)], value=opponents, description="Against"
        )
        self.turns = widgets.ToggleButtons(
            options=[("just dealt", 0), ("1 turn in", 1), ("2 turns in", 2), ("3 turns in", 3), ("4 turns in", 4)],
            value=turns,
            description="When",
        )
        self.chart = widgets.HTML()
        self.caption = widgets.HTML()
        self.table = widgets.HTML()
        self.opponents.observe(lambda _c: self._update(), "value")
        self.turns.observe(lambda _c: self._update(), "value")
        super().__init__([self.opponents, self.turns, self.chart, self.caption, self.table])
        self.add_class("scatlab-knock-chart")
        if defer and _running_loop() is not None:
            import threading

            self.caption.value = "<p>Working out the figures&hellip;</p>"
            self.worker: Any = threading.Thread(target=self._update, daemon=True)
            self.worker.start()
        else:
            self._update()

    def _update(self) -> None:
        from ...analysis import knock_line

        line = knock_line("classic", opponents=int(self.opponents.value), turns=int(self.turns.value))
        self.line = line
        # drawn for a phone first: it scales to the page's width, every hand value in view
        self.chart.value = knock_chart_svg(line)
        self.table.value = knock_table_html(line)
        self.caption.value = knock_caption(line)


def worked_example_html(hand: str | None = None, pile: str | None = None) -> str:
    """Lesson 3's worked example (:data:`~scatlab.course.knocking.WORKED_HAND` against one
    opponent just dealt, :data:`~scatlab.course.knocking.WORKED_PILE` on the pile): the knock
    weighed outcome by outcome, its total the ranking's own figure, against playing on's; the
    verdict the engine's; then the one line that says why the chart's figures for an average
    hand of that value differ."""
    from ...analysis import knock_line
    from ..knocking import WORKED_HAND, WORKED_PILE, chart_rows, differs_words, knock_sum, level, move_words

    s = knock_sum(hand or WORKED_HAND, pile or WORKED_PILE)
    (p1, a1), (p2, a2), (p3, a3) = s.shown()
    on = s.play_on
    pile_card = s.pile.pretty if s.pile is not None else "no card"
    lives = s.ranking.position.seats.lives[0]
    about = "" if s.lands() else "about "
    verdict = "knock" if s.knocks else "play on"
    close = (
        " It is a close call: the two are closer than the estimates can tell apart, and the advice takes the higher."
        if s.close
        else ""
    )
    row = next(r for r in chart_rows(knock_line("classic", 1, 0)) if r.value == s.value)
    cards = format_cards(s.hand, pretty=True)
    return (
        f"<div class='scatlab-worked-example'><p>You hold {cards}, worth {show_value(s.value)}, against one "
        f"opponent just dealt, the {pile_card} on the pile. Everyone has {lives} lives: your chance of winning "
        f"the game is {level(s.now)} before this hand. If you knock, counting their every hand and last "
        "turn:</p><ul>"
        f"<li>they make 31 ({level(p1)}): you lose one life, and your chance of winning the game is then "
        f"{level(a1)};</li>"
        f"<li>they end above you ({level(p2)}): you lose two lives; then {level(a2)};</li>"
        f"<li>otherwise ({level(p3)}) they lose one life; then {level(a3)}.</li></ul>"
        f"<p>Knocking: {s.terms()} = {about}<b>{level(s.knock)}</b>. Playing on (the best way: "
        f"{move_words(on, s.ranking)}) gives <b>{level(on.win)}</b>. So <b>{verdict}</b>.{close}</p>"
        f"<p class='scatlab-worked-differs'>{escape(differs_words(s, row))}</p></div>"
    )


def worked_example() -> widgets.HTML:
    """Lesson 3's worked example as a widget (:func:`worked_example_html`)."""
    return widgets.HTML(worked_example_html())


def line_facts_html() -> str:
    """What moves the line, read from the engine: where the advice knocks (an average hand)
    against one to three opponents just dealt, and against one opponent as the turns go by."""
    from ...analysis import knock_line
    from ..knocking import chart_rows, line_words

    dealt = [line_words(chart_rows(knock_line("classic", n, 0))) for n in (1, 2, 3)]
    later = [line_words(chart_rows(knock_line("classic", 1, t))) for t in range(4)]
    whens = ["just dealt", "after one turn each", "after two", "after three"]
    return (
        "<div class='scatlab-line-facts'>"
        f"<p><b>Opponents.</b> Just dealt, the advice knocks {dealt[0]} against one opponent, {dealt[1]} "
        f"against two, {dealt[2]} against three.</p>"
        f"<p><b>Turns played.</b> Against one opponent it knocks "
        + ", ".join(f"{w} {when}" for w, when in zip(later, whens))
        + ".</p></div>"
    )


def line_facts() -> widgets.HTML:
    """:func:`line_facts_html` as a widget."""
    return widgets.HTML(line_facts_html())


CLIMB_WHENS: tuple[str, ...] = ("just dealt", "after one turn each", "after two turns each", "after three turns each")
"""The moments of a hand lesson 6's step 6.3 reads the knock line at, against one opponent."""


def line_climb_html() -> str:
    """Lesson 6, step 6.3 (C6): where the advice knocks an average hand against one opponent,
    just dealt and after one to three turns each, read from the engine's knock line
    (:func:`~scatlab.analysis.engine.knock_line.knock_line`) when the page is shown.

    >>> "just dealt" in line_climb_html() and "after one turn each" in line_climb_html()
    True
    """
    from ...analysis import knock_line
    from ..knocking import chart_rows, line_words

    items = "".join(
        f"<li><b>{when}</b>: the advice knocks {line_words(chart_rows(knock_line('classic', 1, t)))}</li>"
        for t, when in enumerate(CLIMB_WHENS)
    )
    return f"<div class='scatlab-line-facts'><p>Against one opponent (an average hand):</p><ul>{items}</ul></div>"


def line_climb() -> widgets.HTML:
    """:func:`line_climb_html` as a widget."""
    return widgets.HTML(line_climb_html())
