"""Small live widgets of the lessons: a hand-value explorer, lesson 3's knock chart, worked
example and line facts, the house-rules table, the tournament lab and the Skat calculator.

Each one only calls the layers below (values, analysis, players, :mod:`scatlab.skat`) and
draws the result; the numbers come from :mod:`!scatlab.course.data`.

>>> e = HandExplorer("7S 7H 7D", preset="gin")
>>> "30.5" in e.result.value
True
>>> s = SkatCalculator()
>>> s.contract.value = "grand"; s.matadors.value = 2
>>> "= 72" in s.result.value
True
"""

from __future__ import annotations

import math

import re
from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from html import escape
from typing import Any

import ipywidgets as widgets

from ...cards import format_cards
from ..data import PRESET_FIELDS, likely_range, preset_rows, tournament_in_steps
from ...errors import ScatlabError
from ...rules.options import PRESETS, find_rules
from ..exercises import show_value
from ..progress import ProgressError, game_id_from_text
from ...rules.values import hand_value, pretty_value, value_rule
from ...rules.view import player_label
from ...session.wording import card_words
from ...widgets.svg import card_svg

__all__ = ["HandExplorer", "knock_chart_svg", "knock_table_html", "knock_caption", "KnockChart", "worked_example",
           "worked_example_html", "line_facts", "line_facts_html", "line_climb", "line_climb_html", "preset_table", "TournamentLab",
           "SkatCalculator", "win_rate_svg", "ScenarioTable", "TryRules", "GameWithHints", "play_to_the_end", "stand_in_game",
           "costliest_html", "costliest_heading", "ReviewAndReplay", "OpponentModelExplorer", "calibration_svg", "calibration_figure"]


def _running_loop() -> Any:
    import asyncio

    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _cards_html(cards: str, width: int = 60) -> str:
    return "".join(f'<span style="display:inline-block;margin-right:4px">{card_svg(c, width=width)}</span>'
                   for c in cards.split())


def _rules_name(rules: Any) -> str:
    text = str(rules.describe())
    return f"the {rules.name} rules ({text.split(' with ')[1]})" if " with " in text else f"the {rules.name} rules"


class HandExplorer(widgets.VBox):  # type: ignore[misc]
    """Type any three cards and see what they are worth under any preset (C4, V1, V2, V3,
    V13, V18), and by which rule: ``worth 30½ under the gin rules (V14): three of a kind
    counts 30½ (V2)`` (the 30½ rule is V2 under every preset that plays it)."""

    def __init__(self, cards: str = "AH KH 4C", preset: str = "classic", *, choose_rules: bool = True) -> None:
        """``choose_rules=False`` (lesson 1) hides the rules: presets wait for lesson 5."""
        self.cards = widgets.Text(value=cards, description="Cards", layout=widgets.Layout(width="20em"))
        self.preset = widgets.Dropdown(options=list(PRESETS), value=find_rules(preset).name, description="Rules")
        if not choose_rules:
            self.preset.layout.display = "none"
        self.result = widgets.HTML()
        self.cards.observe(lambda _c: self._update(), "value")
        self.preset.observe(lambda _c: self._update(), "value")
        super().__init__([widgets.HBox([self.cards, self.preset]), self.result])
        self.add_class("scatlab-explorer")
        self._update()

    def _update(self) -> None:
        from ...cards import format_cards, parse_cards

        rules = find_rules(self.preset.value)
        try:
            cards = parse_cards(self.cards.value, count=3, deck_size=rules.deck_size, what="cards in a hand")
            value = hand_value(cards, rules)
        except ScatlabError as exc:
            self.result.value = f"<p style='color:#8a5a00'>{escape(str(exc))}</p>"
            return
        shown = pretty_value(value)
        if self.preset.layout.display == "none":  # lesson 1: the rules are the classic game's, not named yet
            said = f"worth <b>{shown}</b>"
        else:
            code = value_rule(cards, rules)
            how = {"V1": f"three of a kind counts {shown}", "V2": f"three of a kind counts {shown}",
                   "V3": "a straight flush counts 30", "V13": "three Aces are a Grand Cadillac, worth 33"}.get(
                       code, "three different suits count the highest card" if len({c.suit for c in cards}) == 3
                       else "the best suit adds up")
            from .course import rule_link

            codes = rules.codes()
            named = f"the {escape(rules.name)} rules" + (f" ({', '.join(rule_link(c) for c in codes)})" if codes else "")
            said = f"worth <b>{shown}</b> under {named}: {escape(how)} ({rule_link(code)})"
        self.result.value = _cards_html(format_cards(cards)) + f"<p class='scatlab-value' style='font-size:1.2em'>{said}</p>"


def _knock_chart_style(count: int) -> str:
    """The chart's own CSS: a column tapped, clicked or reached with Tab (focused), or under the
    mouse, shows its figures in a box (a phone has no hover: a tap focuses)."""
    rules = [".scat-kc .scat-kc-col{cursor:pointer;outline:none}",
             ".scat-kc .scat-kc-col:hover .scat-kc-hit{fill:#f2f2f2}",
             ".scat-kc .scat-kc-col:focus .scat-kc-hit{fill:#fff1bf}",
             ".scat-kc .scat-kc-readout{display:none;pointer-events:none}"]  # a tap goes through to the column
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
    from ..knocking import chart_rows, level, readout

    rows = chart_rows(line)
    width, left, right, font = 420, 56, 8, 13  # left: the tick labels, clear of the axis title
    plot_top, plot_bottom = 66, 266  # three legend rows sit above plot_top
    height = plot_bottom + 50
    figures = [float(x) * 100 for r in rows for x in (r.knock, r.play_on)]
    bottom, top, step = _ticks(min(figures), max(figures))
    bar = (width - left - right) / len(rows)
    n = line.opponents
    crossings = [i for i in range(1, len(rows)) if rows[i].knocks and not rows[i - 1].knocks]

    def y(p: Fraction) -> float:
        return plot_bottom - (plot_bottom - plot_top) * (float(p) * 100 - bottom) / (top - bottom)

    def cx(i: int) -> float:
        return left + i * bar + bar / 2

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="scat-kc" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="group" '
             f'style="display:block;width:100%;max-width:480px;height:auto" '
             f'aria-label="your chance of winning the game if you knock and if you play on, by hand value, against '
             f'{n} opponent{"s" if n != 1 else ""}">', _knock_chart_style(len(rows))]
    # the legend: one entry a row, so each stays whole on a phone
    parts.append(f'<g class="scat-kc-legend" font-size="{font}">'
                 f'<rect x="8" y="6" width="11" height="11" fill="#1e7b34"/>'
                 f'<text x="25" y="16">if you knock (the advice: knock)</text>'
                 f'<rect x="8" y="24" width="11" height="11" fill="#c0392b"/>'
                 f'<text x="25" y="34">if you knock (the advice: play on)</text>'
                 f'<circle cx="13.5" cy="47.5" r="4.5" fill="#1a5fb4"/>'
                 f'<text x="25" y="52">if you play on</text>')
    if crossings:
        parts.append('<line x1="150" x2="150" y1="40" y2="55" stroke="#333" stroke-width="1.5" stroke-dasharray="4 3"/>'
                     '<text x="158" y="52">the knock line</text>')
    parts.append("</g>")
    for i, row in enumerate(rows):  # where the advice knocks, shaded behind everything
        if row.knocks:
            parts.append(f'<rect class="scat-kc-shade" x="{left + i * bar:.1f}" y="{plot_top}" width="{bar:.1f}" '
                         f'height="{plot_bottom - plot_top}" fill="#e6f4ea"/>')
    ticks = round((top - bottom) / step)
    for j in range(ticks + 1):
        tick = bottom + j * step
        ty = plot_bottom - (plot_bottom - plot_top) * j / ticks
        parts.append(f'<line x1="{left}" x2="{width - right}" y1="{ty:.1f}" y2="{ty:.1f}" stroke="#e0e0e0"/>'
                     f'<text x="{left - 5}" y="{ty + 4:.1f}" text-anchor="end" font-size="{font}">{tick:g}%</text>')
    middle = (plot_top + plot_bottom) / 2
    parts.append(f'<text x="14" y="{middle:.1f}" text-anchor="middle" font-size="{font}" '
                 f'transform="rotate(-90 14 {middle:.1f})">your chance of winning the game</text>')
    knock_path = " ".join(f"{cx(i):.1f},{y(r.knock):.1f}" for i, r in enumerate(rows))
    on_path = " ".join(f"{cx(i):.1f},{y(r.play_on):.1f}" for i, r in enumerate(rows))
    parts.append(f'<polyline class="scat-kc-knock-path" points="{knock_path}" fill="none" stroke="#555" '
                 f'stroke-width="1.2"/><polyline class="scat-kc-on-path" points="{on_path}" fill="none" '
                 f'stroke="#1a5fb4" stroke-width="1.2"/>')
    for i in crossings:  # the knock line: knocking's figure passes playing on's here
        x = left + i * bar
        parts.append(f'<line class="scat-kc-line" data-value="{escape(show_value(rows[i].value))}" x1="{x:.1f}" '
                     f'x2="{x:.1f}" y1="{plot_top}" y2="{plot_bottom}" stroke="#333" stroke-width="1.5" '
                     f'stroke-dasharray="4 3"/>')
    for i, row in enumerate(rows):
        x = left + i * bar
        colour = "#1e7b34" if row.knocks else "#c0392b"
        label = escape(show_value(row.value))
        parts.append(f'<g class="scat-kc-col" data-i="{i}" data-value="{label}" data-knock="{level(row.knock)}" '
                     f'data-play-on="{level(row.play_on)}" data-advice="{"knock" if row.knocks else "play on"}" '
                     f'tabindex="0" role="img"><title>{escape(readout(row))}</title>'
                     f'<rect class="scat-kc-hit" x="{x:.1f}" y="{plot_top}" width="{bar:.1f}" '
                     f'height="{plot_bottom - plot_top + 22}" fill="transparent"/>'
                     f'<rect class="scat-kc-knock" x="{cx(i) - 4.5:.1f}" y="{y(row.knock) - 4.5:.1f}" width="9" '
                     f'height="9" fill="{colour}"/>'
                     f'<circle class="scat-kc-dot" cx="{cx(i):.1f}" cy="{y(row.play_on):.1f}" r="4" fill="#1a5fb4"/>')
        if row.value == int(row.value):
            parts.append(f'<text class="scat-kc-value" x="{cx(i):.1f}" y="{plot_bottom + 17}" '
                         f'text-anchor="middle" font-size="{font}">{label}</text>')
        parts.append("</g>")
    parts.append(f'<text x="{left + (width - left - right) / 2:.1f}" y="{height - 8}" text-anchor="middle" '
                 f'font-size="{font}">hand value at the start of your turn</text>')
    box_w, box_h = 250, 100
    for i, row in enumerate(rows):  # after every column, so drawn over them, clear of its own marks if it can
        box_x = left + 4 if cx(i) > (left + width - right) / 2 else width - right - box_w - 4
        high, low = min(y(row.knock), y(row.play_on)) - 6, max(y(row.knock), y(row.play_on)) + 6
        above, below = high - plot_top, plot_bottom - low  # room above its marks, and below them
        box_y = plot_top + 2 if above >= box_h + 2 or above >= below else plot_bottom - box_h - 2
        close = " (a close call)" if row.close or level(row.knock) == level(row.play_on) else ""
        lines = ["your chance of winning the game:", f"{level(row.knock)} if you knock",
                 f"{level(row.play_on)} if you play on", f"the advice: {'knock' if row.knocks else 'play on'}{close}"]
        parts.append(f'<g class="scat-kc-readout" data-i="{i}" aria-hidden="true" font-size="{font}">'
                     f'<rect x="{box_x}" y="{box_y}" width="{box_w}" height="{box_h}" rx="4" fill="#fff" '
                     f'stroke="#555"/><text x="{box_x + 10}" y="{box_y + 18}" font-weight="bold">'
                     f'worth {escape(show_value(row.value))}</text>' +
                     "".join(f'<text x="{box_x + 10}" y="{box_y + 36 + 17 * j}">{t}</text>'
                             for j, t in enumerate(lines)) + "</g>")
    parts.append("</svg>")
    return "".join(parts)


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
        for r in chart_rows(line))
    return ("<details class='scatlab-knock-table'><summary style='cursor:pointer'>The numbers, value by value"
            "</summary><table style='border-collapse:collapse;font-size:0.9em;margin-top:4px'>"
            f"<thead><tr><th style='{cell}'>Your hand is worth</th><th style='{cell}'>If you knock</th>"
            f"<th style='{cell}'>If you play on</th><th style='{cell}'>The advice</th></tr></thead>"
            f"<tbody>{body}</tbody></table></details>")


def knock_caption(line: Any) -> str:
    """The words under the knock chart: where the advice knocks for an average hand, and the
    chance of winning the game before the hand, the level the figures move from."""
    from ..knocking import chart_rows, level, line_words

    n, t = line.opponents, line.turns
    after = "just dealt" if t == 0 else f"after {t} turn{'s' if t != 1 else ''} each"
    where = line_words(chart_rows(line))
    verdict = ("the advice never knocks at the start of a turn" if where == "never" else
               f"the advice knocks <b>{where}</b>, where knocking gives the better chance of winning the game")
    return (f"<p>Against {n} opponent{'s' if n > 1 else ''}, {after}, for an average hand: {verdict}. Before the "
            f"hand, with {line.lives} lives each, your chance of winning the game is {level(line.now)}. "
            "Tap a value for its numbers, or open the table below.</p>")


class KnockChart(widgets.VBox):  # type: ignore[misc]
    """The knock line, drawn from what the engine decides by: per hand value, your chance of
    winning the game if you knock and if you play on
    (:func:`~scatlab.analysis.engine.knock_line.knock_line`), with a choice of 1 to 3 opponents
    and of the turns they have played."""

    def __init__(self, opponents: int = 1, turns: int = 0, *, defer: bool = True) -> None:
        """``defer``: in a running kernel, draw the chart just after the page is shown (the
        figures take a moment), so the lesson's other widgets are usable at once."""
        self.line: Any = None
        self.opponents = widgets.ToggleButtons(options=[("1 opponent", 1), ("2 opponents", 2), ("3 opponents", 3)],
                                               value=opponents, description="Against")
        self.turns = widgets.ToggleButtons(options=[("just dealt", 0), ("1 turn in", 1), ("2 turns in", 2),
                                                    ("3 turns in", 3), ("4 turns in", 4)], value=turns, description="When")
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
    close = (" It is a close call: the two are closer than the estimates can tell apart, and the advice takes the "
             "higher." if s.close else "")
    row = next(r for r in chart_rows(knock_line("classic", 1, 0)) if r.value == s.value)
    cards = format_cards(s.hand, pretty=True)
    return (f"<div class='scatlab-worked-example'><p>You hold {cards}, worth {show_value(s.value)}, against one "
            f"opponent just dealt, the {pile_card} on the pile. Everyone has {lives} lives: your chance of winning "
            f"the game is {level(s.now)} before this hand. If you knock, counting their every hand and last "
            "turn:</p><ul>"
            f"<li>they make 31 ({level(p1)}): you lose one life, and your chance of winning the game is then "
            f"{level(a1)};</li>"
            f"<li>they end above you ({level(p2)}): you lose two lives; then {level(a2)};</li>"
            f"<li>otherwise ({level(p3)}) they lose one life; then {level(a3)}.</li></ul>"
            f"<p>Knocking: {s.terms()} = {about}<b>{level(s.knock)}</b>. Playing on (the best way: "
            f"{move_words(on, s.ranking)}) gives <b>{level(on.win)}</b>. So <b>{verdict}</b>.{close}</p>"
            f"<p class='scatlab-worked-differs'>{escape(differs_words(s, row))}</p></div>")


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
    return ("<div class='scatlab-line-facts'>"
            f"<p><b>Opponents.</b> Just dealt, the advice knocks {dealt[0]} against one opponent, {dealt[1]} "
            f"against two, {dealt[2]} against three.</p>"
            f"<p><b>Turns played.</b> Against one opponent it knocks "
            + ", ".join(f"{w} {when}" for w, when in zip(later, whens)) + ".</p></div>")


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

    items = "".join(f"<li><b>{when}</b>: the advice knocks {line_words(chart_rows(knock_line('classic', 1, t)))}</li>"
                    for t, when in enumerate(CLIMB_WHENS))
    return f"<div class='scatlab-line-facts'><p>Against one opponent (an average hand):</p><ul>{items}</ul></div>"


def line_climb() -> widgets.HTML:
    """:func:`line_climb_html` as a widget."""
    return widgets.HTML(line_climb_html())


def _percent(p: Any) -> str:
    return f"{float(p):.1%}"


class OpponentModelExplorer(widgets.VBox):  # type: ignore[misc]
    """Later in a hand (lesson 3's optional page, ``appendix-how-we-know``): one fixed hand
    and discard against one opponent, a slider for the turns that opponent has played and a
    field for the cards they rejected (threw, or passed over on the discard pile); the knock
    risk (C6, C7) under the two opponent models side by side, exact.

    The numbers are :func:`~scatlab.analysis.model.knock.knock_risk`'s, called with
    ``opponent_model="uniform"`` and ``"adaptive"`` and the :class:`Observations` the
    controls give (the model and its stated policy are in
    :mod:`scatlab.analysis.model.opponents`); this widget computes no probability itself.

    >>> e = OpponentModelExplorer()
    >>> e.risks["uniform"] == e.risks["adaptive"]  # nothing seen yet: the same model
    True
    >>> e.turns.value = 3; e.rejected.value = "8S"
    >>> e.risks["adaptive"].p_lose > e.risks["uniform"].p_lose
    True
    >>> e.rejected.value = "8S 8S"; e.risks
    {}
    >>> "appears twice" in e.error.value
    True
    """

    def __init__(self, hand: str = "AH KH QS", discard: str = "2C", turns: int = 0, rejected: str = "",
                 max_turns: int = 8) -> None:
        from ...analysis import Knowledge

        self.knowledge = Knowledge.of(hand, discard, opponents=1)
        self.risks: dict[str, Any] = {}
        self.turns = widgets.IntSlider(value=turns, min=0, max=max_turns, description="Turns played",
                                       style={"description_width": "initial"}, continuous_update=False)
        self.rejected = widgets.Text(value=rejected, description="Cards they rejected",
                                     placeholder="e.g. 8S 2D", style={"description_width": "initial"},
                                     layout=widgets.Layout(width="22em"), continuous_update=False)
        self.error = widgets.HTML()
        self.result = widgets.HTML()
        self.turns.observe(lambda _c: self._update(), "value")
        self.rejected.observe(lambda _c: self._update(), "value")
        shown = widgets.HTML(f"<p>Your hand {_cards_html(hand, 44)} &nbsp; the discard {_cards_html(discard, 44)}"
                             " &nbsp; one opponent, and it is your turn: knock now?</p>")
        super().__init__([shown, self.turns, widgets.HBox([self.rejected, self.error]), self.result])
        self.add_class("scatlab-opponent-models")
        self._update()

    def observations(self) -> Any:
        """The :class:`Observations` the controls give; a :class:`ScatlabError` quoting the
        field when the rejected cards are not cards or are more than the turns allow (at most
        two a turn: the discard passed over and the card thrown)."""
        from ...analysis import Observations
        from ...cards import parse_cards

        text = str(self.rejected.value)
        cards = parse_cards(text, deck_size=self.knowledge.rules.deck_size, what="rejected cards") if text.strip() else ()
        turns = int(self.turns.value)
        if cards and turns == 0:
            raise ScatlabError(f"{text.strip()!r}: with no turn played yet, an opponent has rejected no card "
                               "(set the turns they have played first)")
        if len(cards) > 2 * turns:
            raise ScatlabError(f"{len(cards)} rejected cards ({text.strip()!r}) after {turns} turn"
                               f"{'s' if turns != 1 else ''}: an opponent rejects at most 2 cards a turn "
                               "(the discard passed over and the card thrown)")
        return Observations((turns,), (cards,))

    def _update(self) -> None:
        from ...analysis import knock_risk
        from ...analysis import Position, rank, win_level

        try:
            seen = self.observations()
        except ScatlabError as exc:
            self.risks = {}
            self.error.value = f"<span class='scatlab-field-error' style='color:#8a5a00'>{escape(str(exc))}</span>"
            self.result.value = "<p style='color:#555'>Fix the rejected cards to see the numbers.</p>"
            return
        mine = [c for c in seen.rejected[0] if c in self.knowledge.hand]
        self.error.value = "" if not mine else (
            f"<span class='scatlab-field-note' style='color:#555'>{' '.join(c.pretty for c in mine)} "
            f"{'is' if len(mine) == 1 else 'are'} in your hand: they rejected {'it' if len(mine) == 1 else 'them'} "
            f"only if you then took {'it' if len(mine) == 1 else 'them'} from the pile (C5)</span>")
        self.risks = {m: knock_risk(self.knowledge, opponent_model=m, observations=seen)
                      for m in ("uniform", "adaptive")}
        heads = {"uniform": "uniform: as if just dealt", "adaptive": "adaptive: what they have probably kept"}
        rows = (("You lose a life", "p_lose_one"), ("You lose two lives", "p_lose_two"),
                ("You lose anything", "p_lose"))
        cell = "padding:4px 12px;vertical-align:top"
        body = []
        for label, field in rows:
            tds = "".join(
                f"<td style='{cell}' data-model='{m}' data-field='{field}'><b>{_percent(getattr(r, field))}</b>"
                f"<br><span style='font-size:0.8em;color:#555'>= {getattr(r, field)}</span></td>"
                for m, r in self.risks.items())
            body.append(f"<tr><td style='{cell}'>{label}</td>{tds}</tr>")
        loss = "".join(f"<td style='{cell}' data-model='{m}' data-field='expected_loss'><b>{float(r.expected_loss):.3f}"
                       f"</b><br><span style='font-size:0.8em;color:#555'>= {r.expected_loss}</span></td>"
                       for m, r in self.risks.items())
        body.append(f"<tr><td style='{cell}'>Lives a knock costs on average</td>{loss}</tr>")
        ranking = rank(Position.of(self.knowledge, opponent_turns=(int(self.turns.value),), observations=seen))
        on, on_win = ranking.play_on_lives, ranking.play_on_win
        knock = ranking.move("knock")
        assert on is not None and on_win is not None and knock.win is not None
        self.play_on = on
        self.advice = ranking.best.name
        body.append(f"<tr><td style='{cell}'>Playing on: chance of losing a life this hand (the advice's "
                    f"estimate)</td><td style='{cell}' colspan='2' data-field='play_on'><b>{_percent(on)}</b></td></tr>")
        verdict = ("<span style='color:#1e7b34'>knock</span>" if ranking.best.ends_hand
                   else "<span style='color:#c0392b'>play on</span>")
        body.append(f"<tr><td style='{cell}'>The advice (adaptive model)</td><td style='{cell}' colspan='2' "
                    f"data-field='verdict'>{verdict}: your chance of winning the game is {win_level(knock.win)} if "
                    f"you knock, {win_level(on_win)} if you play on</td></tr>")
        head = "".join(f"<th style='{cell};text-align:left'>{heads[m]}</th>" for m in self.risks)
        seen_text = "nothing seen yet" if seen.empty else escape(card_words(seen.describe().replace("opponent 1: ", "")))
        self.result.value = (f"<p style='color:#555'>What you have seen of the opponent: {seen_text}.</p>"
                             f"<table class='scatlab-model-risks' style='border-collapse:collapse'>"
                             f"<tr><th style='{cell}'></th>{head}</tr>{''.join(body)}</table>")


CALIBRATION_FIGURE = "calibration-classic-3p.svg"
"""The reliability diagram of the calibration study (3 players, classic), kept as package
data in ``scatlab/course/figures`` (drawn by the study's command in research/calibration)."""


def calibration_svg(name: str = CALIBRATION_FIGURE) -> str:
    """The text of a figure of the course (package data, read with :mod:`importlib.resources`).

    >>> calibration_svg().lstrip().startswith("<svg")
    True
    """
    from importlib.resources import files

    text = files("scatlab.course").joinpath("figures").joinpath(name).read_text(encoding="utf-8")
    return re.sub(r"^\s*<\?xml[^>]*>\s*", "", text)


def calibration_figure(name: str = CALIBRATION_FIGURE) -> widgets.HTML:
    """The calibration study's reliability diagram as a widget for a lesson, drawn half as
    large again as the file (up to the page's width), so that its legend reads at a glance."""
    scale = "<style>.scatlab-calibration svg{width:100%;height:auto}</style>"
    w = widgets.HTML(f"<figure style='margin:0;max-width:540px'>{scale}{calibration_svg(name)}</figure>")
    w.add_class("scatlab-calibration")
    return w


def preset_table() -> widgets.HTML:
    """The presets side by side (the options that differ from classic are bold)."""
    rows = preset_rows()
    base = rows[0][2]
    head = "".join(f"<th style='padding:3px 8px'>{escape(label)}</th>" for _, label in PRESET_FIELDS)
    body = []
    for name, codes, cells in rows:
        tds = "".join(f"<td style='padding:3px 8px'>{'<b>' + escape(c) + '</b>' if c != b else escape(c)}</td>"
                      for c, b in zip(cells, base))
        body.append(f"<tr><td style='padding:3px 8px'><b>{escape(name)}</b></td><td style='padding:3px 8px'>{escape(codes)}</td>{tds}</tr>")
    w = widgets.HTML("<p class='scat-narrow-hint' style='display:none;color:#555;font-size:0.9em'>Swipe the table "
                     "sideways to see every column.</p>"
                     "<table class='scatlab-presets' style='border-collapse:collapse;font-size:0.92em'>"
                     f"<tr><th style='padding:3px 8px'>preset</th><th style='padding:3px 8px'>variants</th>{head}</tr>"
                     + "".join(body) + "</table>")
    w.add_class("scatlab-presets")
    return w


def win_rate_svg(labels: tuple[str, ...], rates: list[tuple[float, float, float]], games: int) -> str:
    """Win rates as dots with their 95% intervals as bars, and the fair share as a line; a
    dot's title says it in words ("won 50%, likely between 34% and 66%")."""
    width, row = 560, 34
    height = 40 + row * len(labels)
    left, right = 90, width - 20

    def x(p: float) -> float:
        return left + (right - left) * p

    fair = 1 / len(labels)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="win rates after {games} games, each with the range it likely lies in">']
    for tick in (0, 0.25, 0.5, 0.75, 1):
        parts.append(f'<line x1="{x(tick):.1f}" x2="{x(tick):.1f}" y1="10" y2="{height - 24}" stroke="#e8e8e8"/>'
                     f'<text x="{x(tick):.1f}" y="{height - 10}" text-anchor="middle" font-size="11">{tick:.0%}</text>')
    parts.append(f'<line x1="{x(fair):.1f}" x2="{x(fair):.1f}" y1="10" y2="{height - 24}" stroke="#1a5fb4" '
                 f'stroke-dasharray="4,3"><title>fair share {fair:.0%}</title></line>')
    for i, (label, (rate, low, high)) in enumerate(zip(labels, rates)):
        cy = 24 + i * row
        parts.append(f'<text x="{left - 8}" y="{cy + 4}" text-anchor="end" font-size="12">{escape(label)}</text>'
                     f'<line x1="{x(low):.1f}" x2="{x(high):.1f}" y1="{cy}" y2="{cy}" stroke="#555" stroke-width="3"/>'
                     f'<circle cx="{x(rate):.1f}" cy="{cy}" r="6" fill="#c0392b"><title>{escape(label)}: won {rate:.0%}, '
                     f'{likely_range(low, high)}</title></circle>')
    parts.append("</svg>")
    return "".join(parts)


class TournamentLab(widgets.VBox):  # type: ignore[misc]
    """Pick three computer players, run a small tournament with a progress bar, and see
    the win rates with the range each likely lies in (95% intervals, said in words:
    "likely between 34% and 66%"), the entrants named "tip player 1", never "tip#1". Each run deals new cards (``seed``, then the
    next one): a learner sees the rates move from run to run, and no seed field to explain."""

    def __init__(self, players: tuple[str, str, str] = ("expert", "tip", "tip"), games: int = 36, seed: int = 1) -> None:
        kinds = ["expert", "tip", "greedy", "random"]
        self.seats = [widgets.Dropdown(options=kinds, value=p, layout=widgets.Layout(width="8em")) for p in players]
        self.games = widgets.IntSlider(value=games, min=9, max=180, step=9, description="Games")
        self.seed = seed
        """The deals of the next run (each run moves on to new deals)."""
        self.run_button = widgets.Button(description="Run the tournament", button_style="primary", layout=widgets.Layout(width="auto"))
        self.bar = widgets.IntProgress(value=0, min=0, max=games, description="Played")  # how far the run is (the slider above is "Games")
        self.chart = widgets.HTML()
        self.table = widgets.HTML()
        self.run_button.on_click(lambda _b: self.run())
        wrap = widgets.Layout(flex_flow="row wrap", align_items="center")
        super().__init__([widgets.HBox([widgets.Label("Players"), *self.seats], layout=wrap),
                          self.games, self.run_button, self.bar, self.chart,
                          self.table])
        self.add_class("scatlab-tournament")

    def run(self) -> Any:
        """Play the tournament, updating the bar after each round of seats."""
        players = [s.value for s in self.seats]
        self.run_button.disabled = True
        self.bar.max = self.games.value
        self.bar.value = 0
        last = None
        try:
            seed, self.seed = self.seed, self.seed + 1  # the next run deals new cards
            for step in tournament_in_steps(players, self.games.value, "classic", seed):
                self.bar.value = step.done
                last = step
            assert last is not None
            rates = last.intervals()
            self.chart.value = win_rate_svg(last.labels, rates, last.done)
            self.table.value = "<p class='scatlab-tournament-result'>" + "; ".join(
                f"<b>{escape(label)}</b> won {w} of {last.done} ({r:.0%}, {likely_range(lo, hi)})"
                for label, w, (r, lo, hi) in zip(last.labels, last.wins, rates)) + "</p>"
        finally:
            self.run_button.disabled = False
        return last


class SkatCalculator(widgets.VBox):  # type: ignore[misc]
    """A Skat game-value calculator (:mod:`scatlab.skat`): contract, matadors, levels."""

    def __init__(self) -> None:
        from ...skat import CONTRACTS

        self.contract = widgets.Dropdown(options=list(CONTRACTS), value="clubs", description="Contract")
        self.matadors = widgets.IntSlider(value=1, min=1, max=11, description="Matadors")
        self.kind = widgets.ToggleButtons(options=["with", "without"], value="with")
        self.flags = {name: widgets.Checkbox(value=False, description=label, indent=False,
                                             layout=widgets.Layout(width="auto"))
                      for name, label in (("hand", "hand"), ("schneider", "schneider"),
                                          ("schneider_announced", "schneider announced"), ("schwarz", "schwarz"),
                                          ("schwarz_announced", "schwarz announced"), ("ouvert", "ouvert / open"))}
        self.result = widgets.HTML()
        for w in (self.contract, self.matadors, self.kind, *self.flags.values()):
            w.observe(lambda _c: self._update(), "value")
        wrap = widgets.Layout(flex_flow="row wrap", align_items="center")
        super().__init__([widgets.HBox([self.contract, self.matadors, self.kind], layout=wrap),
                          widgets.HBox(list(self.flags.values()), layout=wrap), self.result])
        self.add_class("scatlab-skat")
        self._update()

    def _update(self) -> None:
        from ...skat import game_value

        self.matadors.max = 4 if self.contract.value == "grand" else 11
        options = {k: bool(w.value) for k, w in self.flags.items()}
        try:
            if self.contract.value == "null":
                v = game_value("null", hand=options["hand"], ouvert=options["ouvert"])
            else:
                v = game_value(self.contract.value, matadors=int(self.matadors.value), **options)
        except ScatlabError as exc:
            self.result.value = f"<p style='color:#8a5a00'>{escape(str(exc))}</p>"
            return
        self.result.value = (f"<p class='scatlab-skat-value' style='font-size:1.15em'>{escape(v.explain())}</p>"
                             f"<p style='color:#555'>Won: +{v.value}; lost: -{2 * v.value} (twice the value).</p>")


class ScenarioTable(widgets.VBox):  # type: ignore[misc]
    """Lesson 4: pick a deal (every showdown case and every 31 case), read what to do, and
    play it out on the card table (:mod:`scatlab.course.scenarios`)."""

    def __init__(self, key: str = "lowest", pace: float = 0.4) -> None:
        from ..scenarios import SCENARIOS

        self.pace = pace
        self.picker = widgets.Dropdown(options=[(f"{s.code}: {s.title}", s.key) for s in SCENARIOS], value=key,
                                       description="Deal", layout=widgets.Layout(width="32em"))
        self.instructions = widgets.HTML()
        self.explanation = widgets.HTML()
        self.table_box = widgets.VBox()
        self.picker.observe(lambda _c: self._deal(), "value")
        self.again = widgets.Button(description="Deal it again", layout=widgets.Layout(width="auto"))
        self.again.on_click(lambda _b: self._deal())
        super().__init__([widgets.HBox([self.picker, self.again]), self.instructions, self.table_box,
                          self.explanation])
        self.add_class("scatlab-scenarios")
        self._deal()

    def _deal(self) -> None:
        from ..scenarios import scenario
        from .course import rule_link
        from ...widgets.table import Table

        s = scenario(str(self.picker.value))
        self.scenario = s
        table = self.table = Table(s.rules, opponents=("tip", "tip"), seed=4, deal=s.deck(), dealer=2,
                                   pace=self.pace, hints=False, controls="beginner")
        table.on_new = lambda: table.session.new_game(4, deal=s.deck())  # New game: this deal again, same table
        self.table_box.children = (self.table,)
        self.instructions.value = f"<p class='scatlab-instructions'><b>Your move:</b> {escape(s.instructions)}</p>"
        self._rule_html = (f"<p class='scatlab-explanation'><b>What the rules say</b> ({rule_link(s.code)}): "
                           f"{escape(s.explanation)}</p>")
        self.table.surface.observe(lambda _c: self._explain(), "state")
        self._explain()

    def _explain(self) -> None:
        """The rule that settles the deal shows once its hand has ended (a showdown or a 31),
        never before: it names who loses. A hand that went another way (the learner played
        other moves than the deal's) is not explained by the deal's rule: the page says so
        and offers the deal again; the table's own result line still says what happened."""
        from ..scenarios import first_hand_losses, followed

        ended = bool(self.table.surface.state.get("showdown"))
        if not ended:
            self.explanation.value = ("<p class='scatlab-explanation'><i>The rule that settles this deal shows "
                                      "here when the hand ends.</i></p>")
        elif (followed(self.scenario, self.table.session.record())
              and first_hand_losses(self.table.session.state) == self.scenario.expect):
            self.explanation.value = self._rule_html
        else:
            self.explanation.value = (
                "<p class='scatlab-explanation scatlab-strayed'><b>This hand went another way</b> than the deal "
                "was set for: the result above says who lost and why. To see what this deal shows, press "
                f"<b>Deal it again</b> and follow its instruction: <i>{escape(self.scenario.instructions)}</i></p>")


class TryRules(widgets.VBox):  # type: ignore[misc]
    """Lesson 5: a card table under any preset, to feel what the options change."""

    def __init__(self, preset: str = "quick", seed: int = 5) -> None:
        self.preset = widgets.Dropdown(options=list(PRESETS), value=find_rules(preset).name, description="Rules")
        self.seed = seed
        self.describe = widgets.HTML()
        self.table_box = widgets.VBox()
        self.preset.observe(lambda _c: self._deal(), "value")
        super().__init__([self.preset, self.describe, self.table_box])
        self.add_class("scatlab-try-rules")
        self._deal()

    def _deal(self) -> None:
        from ...widgets.table import Table

        rules = find_rules(self.preset.value)
        self.table = Table(rules.name, opponents=("tip", "tip"), seed=self.seed, pace=0.4, hints=False,
                           controls="beginner")
        self.table_box.children = (self.table,)
        self.describe.value = f"<p>Playing {escape(_rules_name(rules))}.</p>"


OPPONENT_CHOICES = (("Tip players", "tip"), ("Experts", "expert"), ("Masters", "master"))
"""Lesson 8's opponents: the player kinds a learner may play against, weakest first."""


class GameWithHints(widgets.VBox):  # type: ignore[misc]
    """Lesson 8: a whole game against two computer players, tip players unless the learner
    chooses experts or masters (``opponents``, one of :data:`OPPONENT_CHOICES`' kinds), hints on
    or off with the table's own Hints button, saved to the learner's progress on request;
    ``?game=ID`` in the page's address reopens a saved game. A new choice of opponents deals a
    new game at once when no move of the learner's would be lost, else after a second click."""

    def __init__(self, seed: int = 8, hints: bool = True, progress: Any = None, game: str | int | None = None,
                 pace: float = 0.5, opponents: str = "tip") -> None:
        from .course import open_progress

        kinds = [kind for _, kind in OPPONENT_CHOICES]
        if opponents not in kinds:
            raise ScatlabError(f"opponents={opponents!r} is not allowed: choose one of {', '.join(kinds)}")
        self.opponents = opponents
        self.choose = widgets.ToggleButtons(options=list(OPPONENT_CHOICES), value=opponents, description="Against",
                                            style={"button_width": "auto"})
        self.change_note = widgets.HTML()
        self.change_button = widgets.Button(layout=widgets.Layout(width="auto", display="none"))
        self.choose.observe(lambda _c: self._chosen(), "value")
        self.change_button.on_click(lambda _b: self._change())

        if progress is None:
            self.progress, notice = open_progress()
        else:
            self.progress, notice = progress, ""
        self.pace = pace
        self.hints_on = hints
        self.save_name = widgets.Text(placeholder="a name for this game", layout=widgets.Layout(width="16em"))
        self.save_button = widgets.Button(description="Save to my progress", layout=widgets.Layout(width="auto"))
        self.status = widgets.HTML(f"<p style='color:#8a5a00'>{escape(notice)}</p>" if notice else "")
        self.table_box = widgets.VBox()
        self.seed = seed
        self.save_button.on_click(lambda _b: self.save())
        super().__init__([widgets.HBox([self.choose]), widgets.HBox([self.change_note, self.change_button]),
                          self.table_box, widgets.HBox([self.save_name, self.save_button]), self.status])
        self.add_class("scatlab-game")
        self.new_game(seed)
        if game is not None:
            self.reopen(game)

    def new_game(self, seed: int | None = None) -> None:
        """Deal a new game (the next seed unless one is given)."""
        from ...widgets.table import Table

        if seed is None:
            self.seed += 1
        else:
            self.seed = seed
        self.table = Table("classic", opponents=(self.opponents,) * 2, seed=self.seed, hints=self.hints_on,
                           pace=self.pace, controls="beginner")
        self.table.surface.takes_focus = True  # the page's game, above the review's try-it tables
        self.table_box.children = (self.table,)

    def _in_play(self) -> bool:
        """Whether the learner has moved in a game that is not over (a new deal would lose it)."""
        session = self.table.session
        state = session.state
        return not state.is_over and any(h.actions for h in session.record().hands)

    def _chosen(self) -> None:
        kind = str(self.choose.value)
        self.change_button.layout.display = "none"
        self.change_note.value = ""
        if kind == self.opponents:
            return
        name = dict((k, n) for n, k in OPPONENT_CHOICES)[kind].lower()
        if self._in_play():
            self.change_note.value = (f"<p>Your game so far would end: save it first to keep it, then deal a new one "
                                      f"against {escape(name)}.</p>")
            self.change_button.description = f"Deal a new game against {name}"
            self.change_button.layout.display = ""
            return
        self._change()

    def _change(self) -> None:
        """Deal a new game against the chosen opponents."""
        self.opponents = str(self.choose.value)
        self.change_button.layout.display = "none"
        self.change_note.value = ""
        self.new_game()

    def save(self) -> int | None:
        """Keep the game so far in the progress database; returns its id."""
        if self.progress is None:
            self.status.value = "<p style='color:#8a5a00'>Progress is not kept, so games cannot be saved.</p>"
            return None
        name = self.save_name.value.strip() or f"game {self.seed}, hand {self.table.session.state.hand_number}"
        try:
            gid = int(self.progress.save_game(name, self.table.session.record_json()))
        except ProgressError as exc:  # a name too long, a read-only or locked file: said, nothing saved
            self.status.value = f"<p class='scatlab-save-error' style='color:#b00020'>Not saved: {escape(str(exc))}</p>"
            return None
        self.status.value = (f"<p class='scatlab-saved-note' style='color:#1e7b34'>Saved as &ldquo;{escape(name)}"
                             "&rdquo;; the course index lists it.</p>")
        return gid

    def reopen(self, game: str | int) -> None:
        """Reopen a saved game by its id (from the index's link, ``?game=3``); an id that is
        not a whole number, or that no saved game has, is said in :attr:`status`."""
        if self.progress is None:
            return
        try:
            saved = self.progress.load_game(game_id_from_text(game) if isinstance(game, str) else game)
        except ProgressError as exc:
            shown = str(game) if len(str(game)) <= 40 else str(game)[:37] + "..."
            words = str(exc)  # the analyst's message; a learner reads plain words, no API names:
            if "no saved game has id" in words:
                words = f"There is no saved game {shown} here: open a saved game from the course index."
            elif "saved game's id" in words:
                words = f"{shown!r} is not the number of a saved game: open a saved game from the course index."
            self.status.value = (f"<p class='scatlab-reopen-error' style='color:#8a5a00'>Cannot reopen game "
                                 f"{escape(shown)}: {escape(words)}</p>")
            return
        self.table.handle({"type": "load", "text": saved.record})
        self.status.value = f"<p class='scatlab-reopened'>Reopened &ldquo;{escape(saved.name)}&rdquo;.</p>"


def play_to_the_end(table: Any, player: str = "tip", seed: int = 0, limit: int = 10_000) -> Any:
    """Play a card :class:`~scatlab.widgets.table.Table`'s learner seat to the end of the
    game with the computer player ``player`` (``tip``, ``expert``, ``greedy``, ``random``),
    through the very calls a click makes (``session.play``, ``session.next_hand``); its
    random choices come from ``seed``. Returns the table, its game over (the opponents play
    as the table's own players). Stops with an error after ``limit`` actions (a game that
    never ends would be a bug).

    >>> from scatlab.widgets.table import Table
    >>> t = play_to_the_end(Table("quick", seed=3, hints=False, pace=0), seed=3)
    >>> t.session.state.is_over and t.session.model().can_review
    True
    """
    _play_session(table.session, player, seed, limit)
    return table


def _play_session(s: Any, player: str, seed: int, limit: int) -> None:
    """:func:`play_to_the_end` on a :class:`~scatlab.session.TableSession` (no widget)."""
    import random

    from ...players import make_player
    from ...rules import Phase

    stand_in, rng = make_player(player), random.Random(seed)
    for _ in range(limit):
        if s.state.is_over:
            return
        if s.state.phase is Phase.DEAL:  # what the table's "Next hand" button waits for
            s.next_hand()
        else:
            s.play(stand_in.decide(s.view(), rng).action)
    raise ScatlabError(f"the game did not end within limit={limit!r} actions: give a larger limit")


@lru_cache(maxsize=8)
def stand_in_record(rules: str = "quick", seed: int = 16, opponents: tuple[str, ...] = ("tip", "tip"),
                    player: str = "tip") -> str:
    """The game record (JSON) of :func:`stand_in_game`, played once per process on a table
    session with no widget (the warm kernels play it before a page asks:
    :mod:`scatlab.course.warmup`).

    >>> import json
    >>> game = json.loads(stand_in_record())
    >>> game["rules"], game["players"], len(game["hands"])
    ('quick', 3, 7)
    """
    from ...session import TableSession

    session = TableSession(rules, opponents, 0, seed, False, None, None, auto_play=True)
    _play_session(session, player, seed, 10_000)
    return str(session.record_json())


def stand_in_game(rules: str = "quick", seed: int = 16, opponents: tuple[str, ...] = ("tip", "tip"),
                  player: str = "tip") -> Any:
    """A finished game to review when the learner has not finished one: a table of
    ``rules`` dealt from ``seed``, the learner's seat played by ``player``
    (:func:`!play_to_the_end`, same seed). The defaults (the quick preset, seed 16: seven
    short hands, 64 decisions, played and reviewed in well under a second) give costly
    decisions of both kinds, a knock and a draw, and a close call. The game is
    played once per process (:func:`stand_in_record`) and loaded into a new table each time.

    >>> g = stand_in_game()
    >>> g.session.state.is_over, g.session.model().status.startswith("Game over")
    (True, True)
    """
    from ...widgets.table import Table

    table = Table(rules, opponents=opponents, seed=seed, hints=False, pace=0)
    table.handle({"type": "load", "text": stand_in_record(rules, seed, tuple(opponents), player)})
    return table


_THEME_CODES = {"knock": "C6"}
"""The rule behind a decision's theme: the knock (C6); any other, the turn (C5: draw, take, discard)."""
_CODE = re.compile(r"\(([CV]\d{1,2})\)")


def costliest_html(decisions: Any, names: Mapping[int, str] | None = None) -> str:
    """The decisions (from :func:`~scatlab.analysis.explain.review.costliest`, worst first)
    under a heading that counts them (:func:`costliest_heading`: one is "The costliest
    decision"), as a numbered list that says it is sorted by cost, each read in order
    (:meth:`scatlab.analysis.ReviewedDecision.words`): where and its class,
    what happened, what was better, by how much, why, and the cards the player had seen (a
    count that opens); rule codes link to the rulebook. ``names`` names the seats
    (``seat_names`` of the review widget).

    >>> from scatlab.widgets.review import costliest
    >>> html = costliest_html(costliest(stand_in_game().review_game().result, 2), {0: "you"})
    >>> html.count("<li"), "blunder" in html, 'href="rulebook.ipynb#C6"' in html, "worst first" in html
    (2, True, True, True)
    >>> "The two costliest decisions" in html, "The costliest decision<" in costliest_html(costliest(
    ...     stand_in_game().review_game().result, 1), {0: "you"})
    (True, True)
    >>> costliest_html(())
    "<h3 class='scatlab-costliest-head'>The costliest decisions</h3><p class='scatlab-costly-none'>No decision of this game cost anything: nothing to replay.</p>"
    """
    from .course import rule_link
    from ...widgets.review_widget import CLASS_COLOURS, seen_html

    def linked(text: str) -> str:
        return _CODE.sub(lambda m: "(" + rule_link(m.group(1)) + ")", escape(text))

    items = []
    for d in decisions:
        a = d.assessment
        w = d.words(names)
        better = linked(w.better).replace("Better:", "<b>Better:</b>", 1)
        items.append(
            f"<li class='scatlab-costly' data-class='{a.label}' style='margin-bottom:0.6em'>"
            f"<b>{escape(w.where)}</b> ({rule_link(_THEME_CODES.get(d.theme, 'C5'))}): "
            f"<b style='color:{CLASS_COLOURS[a.label]}'>{a.label}</b><br>"
            f"{linked(w.happened)}<br>{better} {linked(w.how_much)}<br>"
            f"<b>Why:</b> {linked(w.why)}{seen_html(w)}</li>")
    if not items:
        return (f"<h3 class='scatlab-costliest-head'>{costliest_heading(0)}</h3>"
                "<p class='scatlab-costly-none'>No decision of this game cost anything: nothing to replay.</p>")
    order = (" Sorted by cost, the worst first (not in the order they were played):" if len(items) > 1
             else " The only decision of this game that cost something:")
    return (f"<h3 class='scatlab-costliest-head'>{costliest_heading(len(items))}</h3>"
            f"<p class='scatlab-costliest-order'>{order.strip()}</p><ol class='scatlab-costliest' "
            "style='line-height:1.45'>" + "".join(items) + "</ol>")


def costliest_heading(n: int) -> str:
    """The heading over ``n`` costliest decisions, in words: one is "the costliest decision".

    >>> [costliest_heading(n) for n in (0, 1, 2, 3)]
    ['The costliest decisions', 'The costliest decision', 'The two costliest decisions', 'The three costliest decisions']
    """
    if n == 1:
        return "The costliest decision"
    words = {2: "two", 3: "three", 4: "four", 5: "five"}
    return f"The {words[n]} costliest decisions" if n in words else "The costliest decisions"


def _class_words(name: str, count: int) -> str:
    """A review class counted: "1 mistake", "4 inaccuracies", "9 best".

    >>> [f"{k} {_class_words(n, k)}" for n, k in (("best", 9), ("inaccuracy", 4), ("mistake", 1), ("blunder", 2))]
    ['9 best', '4 inaccuracies', '1 mistake', '2 blunders']
    """
    if count == 1 or name == "best":
        return name
    return name[:-1] + "ies" if name.endswith("y") else name + "s"


class ReviewAndReplay(widgets.VBox):  # type: ignore[misc]
    """Lesson 8: a finished game reviewed, its ``n`` costliest decisions listed and each one
    on a "Try it yourself" table (hints on, the opponents answering at once).

    It starts with ``stand_in`` (a finished :class:`~scatlab.widgets.table.Table`, e.g.
    :func:`stand_in_game`), so the page always has a review to show, and follows the
    learner's game (``learner``: a :class:`GameWithHints` or a table): when it is over, this
    one review switches to it (the table's own "Review this game" shows it here too).
    **Review my game** does the same by hand, and says so when the game is not over yet. The parts are kept in boxes
    (:attr:`review_box`, :attr:`listing`, :attr:`try_boxes`) that a lesson shows in its own
    cells; they are refilled in place.

    >>> r = ReviewAndReplay(stand_in_game())
    >>> r.source, len(r.worst), [t.view() for t in r.tables] == [d.view for d in r.worst]
    ('stand-in', 2, True)
    """

    def __init__(self, stand_in: Any, learner: Any = None, n: int = 2) -> None:
        self.stand_in = stand_in
        self.learner = learner
        self.n = n
        self.button = widgets.Button(description="Review my game", button_style="primary",
                                     tooltip="review the game you played above, once it is over", layout=widgets.Layout(width="auto"))
        self.button.on_click(lambda _b: self.review_learner())
        self.status = widgets.HTML()
        self.review_box = widgets.VBox()
        self.listing = widgets.HTML()
        self.try_boxes = [widgets.VBox() for _ in range(n)]
        super().__init__([widgets.HBox([self.button]), self.status])
        self.add_class("scatlab-review-replay")
        self.show(stand_in, "stand-in")
        self._followed: Any = None
        self._follow()
        box = getattr(learner, "table_box", None)
        if box is not None:  # a GameWithHints deals a new table for a new game: follow that one
            box.observe(lambda _change: self._follow(), "children")

    def _follow(self) -> None:
        table = self.learner_table()
        if table is None or table is self._followed or not hasattr(table, "surface"):
            return
        self._followed = table
        table.on_review = self.review_learner
        table.surface.observe(self._on_learner_state, "state")
        if table.session.state.is_over and self.table is not table:  # a finished game reopened: review it now
            self.review_learner()

    def _on_learner_state(self, change: Any) -> None:
        table = self.learner_table()
        if change["new"].get("game_over") and table is self._followed and self.table is not table:
            self.review_learner()

    def learner_table(self) -> Any:
        """The learner's current table (a :class:`GameWithHints` deals new ones), or None."""
        return getattr(self.learner, "table", self.learner)

    def review_learner(self) -> bool:
        """Show the learner's game if it is over (True); otherwise say why not (False)."""
        table = self.learner_table()
        if table is None or not table.session.state.is_over:
            self.status.value = ("<p class='scatlab-review-wait' style='color:#8a5a00'>Your game is not over yet: "
                                 "finish it above, then review it. Below is the stand-in's game.</p>")
            return False
        self.show(table, "your game")
        return True

    def _tell_the_class(self, session: Any) -> None:
        """The learner's costly decisions to the class database, when there is one
        (:meth:`~scatlab.course.progress.Progress.record_review`; a game reviewed again sends
        nothing new). The page never fails for it: a progress that cannot be written is
        already said by the game's own status line."""
        import hashlib

        progress = getattr(self.learner, "progress", None)
        if progress is None:
            return
        game = hashlib.sha256(session.record_json().encode()).hexdigest()[:20]
        try:
            progress.record_review("08-play-a-game", self.review.result, session.seat, game)
        except ProgressError:
            pass

    def show(self, table: Any, source: str) -> None:
        """Review ``table``'s finished game (its "Review this game", :meth:`Table.review_game`)
        and refill the boxes."""
        from ...widgets.review import costliest, try_table

        self.table = table
        self.source = source
        # built, not shown below the table: showing it there and taking it back at once raced
        # in the browser ("Could not add child view to box" at the end of a game)
        self.review = table.review_widget(controls="beginner")  # its try tables as the lesson's own
        s = table.session
        names = self.review.steps.names
        if source != "your game":  # the tip player sat in the learner's seat: not "you"
            names[s.seat] = "the stand-in"
            self.review.steps.title = (f"Review of the stand-in's game: the decisions in your seat "
                                       f"({player_label(s.seat)}), in the order played")
        else:
            self.review.steps.title = "Review of your game: your decisions, in the order played"
        self.review.handle({"type": "first"})  # redraws with the title and the names
        self.worst = costliest(self.review.result, self.n)
        record = s.record()
        self.tables = [try_table(record, d, opponents=s.opponents, controls="beginner") for d in self.worst]
        whose = "your" if source == "your game" else "the stand-in's"
        summary = self.review.result.summary(s.seat)
        counts = ", ".join(f"{k} {_class_words(name, k)}" for name, k in summary.classes if k)
        self.status.value = (f"<p class='scatlab-review-source'>Reviewing <b>{escape(whose)} game</b>: "
                             f"{summary.decisions} decisions ({escape(counts)}).</p>")
        self.review_box.children = (self.review,)
        if source == "your game":
            self._tell_the_class(s)
        self.listing.value = costliest_html(self.worst, names)
        for i, box in enumerate(self.try_boxes):
            if i < len(self.worst):
                d = self.worst[i]
                seat = ("You are back in your seat" if source == "your game"
                        else f"You take the stand-in's seat ({player_label(s.seat)})")
                who = names.get(d.player, player_label(d.player))
                which = "the costliest decision" if i == 0 else "the second costliest" if i == 1 else f"costliest no. {i + 1}"
                head = widgets.HTML(f"<p class='scatlab-try-head'><b>Try it yourself, {which}: "
                                    f"{escape(d.where(names))}</b> ({escape(who)} {escape(d.did)} then, "
                                    f"{'an' if d.label == 'inaccuracy' else 'a'} {d.label}). {seat}, "
                                    "hints on: play it again.</p>")
                box.children = (head, self.tables[i])
            else:
                box.children = (widgets.HTML("<p>This game has no other costly decision to replay.</p>"),)
