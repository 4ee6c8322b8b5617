"""The review widget: step through a reviewed game, decision by decision.

:class:`ReviewWidget` shows, for each decision of the reviewed seat(s), the position as that
player saw it (their hand and the top discard, drawn with the project's SVG cards), the
move played, the move the analysis prefers, the cost and its class
(:mod:`scatlab.analysis.explain.review`). A timeline has one mark per decision, coloured by class,
so the costly ones stand out; ◀ ▶ (or the arrow keys, Home and End) step through, a mark
jumps to its decision, and **Try it yourself** opens a card :class:`~scatlab.widgets.table.Table`
at that very position (the state just before the decision), with hints, so the learner can
play it again.

The pages are rendered in Python (:func:`decision_html`, :class:`ReviewSteps`, pure Python
and tested without a browser); the anywidget surface (``review_widget.js`` and
``review_widget.css`` beside this file) only shows them and sends clicks and keys back, like
the card table.

Import it from :mod:`scatlab.widgets.review`, which gives it the card table its **Try it
yourself** opens (:func:`scatlab.widgets.table.try_table`). This module does not import the
table: a :class:`~scatlab.widgets.table.Table` opens a review (its "Review this game") and a
review opens a table, so one of the two must be handed the other; the review is handed the
table as ``table_at`` (see :class:`ReviewWidget`).

>>> from scatlab.rules import GameRecord, play_random_game
>>> steps = ReviewSteps(GameRecord.from_state(play_random_game("classic", 3, seed=1)), player=0)
>>> steps.step, steps.move(+1).step, steps.move(-5).step
(0, 1, 0)
>>> 'role="img"' in steps.html()
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any, ClassVar

import anywidget
import ipywidgets
import traitlets

from ..analysis.engine.ranking import win_change
from ..analysis.explain.review import GameReview, ReviewedDecision, costliest, review_game
from ..errors import AnalysisError, ScatlabError
from ..rules.record import GameRecord, HandRecord
from ..rules.values import format_value
from ..session.wording import card_words
from .svg import card_svg, empty_slot_svg

__all__ = ["CLASS_COLOURS", "ReviewSteps", "ReviewSurface", "ReviewWidget", "TableAt", "costliest", "decision_html",
           "record_before"]

_HERE = Path(__file__).parent

TableAt = Callable[[GameRecord, ReviewedDecision, str | Sequence[str]], Any]
"""What **Try it yourself** calls: ``table_at(record, decision, opponents)`` returns a card
table at ``decision`` of ``record`` (:func:`scatlab.widgets.table.try_table`)."""

CLASS_COLOURS = {"best": "#8a8f98", "inaccuracy": "#d4a017", "mistake": "#e07020", "blunder": "#c8102e"}
"""Timeline colours; the class is also written out, so colour is never the only signal."""


def _num(x: Any) -> str:
    return format_value(x) if x.denominator <= 2 else f"{float(x):.2f}"


def decision_html(d: ReviewedDecision) -> str:
    """One decision as an HTML fragment: the player's cards and the top discard (SVG),
    played and preferred moves, the cost with its unit and class, every option's figure and
    the reason."""
    view = d.view
    hand = "".join(card_svg(c, width=56) for c in view.hand)
    top = view.top_discard
    pile = card_svg(top, width=56) if top is not None else empty_slot_svg("no discard pile", width=56)
    caption = ("no discard pile" if top is None else "top discard" if len(view.hand) == 3
               else "top discard (not yours to take now)")
    a = d.assessment
    if a.scale == "value":
        rows = "".join(f"<tr><td>{escape(card_words(name))}</td><td>{_num(x)}</td></tr>" for name, x in a.figures)
        what = "expected hand value (higher is better)"
    else:
        rows = "".join(f"<tr><td>{escape(card_words(name))}</td><td>{win_change(x)}</td></tr>"
                       for name, x in a.figures)
        what = "change in the chance of winning the game (higher is better)"
    colour = CLASS_COLOURS[a.label]
    return (
        f'<div class="scat-review-decision" data-class="{a.label}">'
        f"<p><b>Hand {d.hand}, action {d.index}</b>: player {d.player} to move "
        f"({escape(d.position())})</p>"
        f'<div class="scat-review-cards"><span aria-label="hand">{hand}</span>'
        f'<span class="scat-review-pile" aria-label="top discard">{pile}'
        f'<span class="scat-review-caption" aria-hidden="true">{caption}</span></span></div>'
        f"<p>Played <b>{escape(card_words(d.played))}</b>; the analysis prefers "
        f"<b>{escape(card_words(d.best))}</b>. Cost <b>{escape(a.cost_text)}</b>: "
        f'<span class="scat-review-class" style="color:{colour}">{a.label}</span></p>'
        f"<table><caption>{escape(what)}</caption>{rows}</table>"
        f"<p>{escape(card_words(a.reason))}</p>"
        f'<details class="scat-review-exact"><summary>Exact numbers</summary>'
        f"<p>Cost exactly {a.cost} {escape(a.unit)}; "
        + "; ".join(f"{escape(card_words(name))} exactly {x}" for name, x in a.figures)
        + "</p></details></div>"
    )


def record_before(record: GameRecord, hand: int, index: int) -> GameRecord:
    """The record cut just before action ``index`` (from 1) of hand ``hand`` (from 1): its
    replay is the state in which that decision was taken."""
    if not 1 <= hand <= len(record.hands) or not 1 <= index <= len(record.hands[hand - 1].actions):
        raise AnalysisError(f"hand {hand}, action {index} is not in this record")
    cut = record.hands[hand - 1]
    hands = record.hands[:hand - 1] + (HandRecord(cut.deck, cut.actions[:index - 1]),)
    return GameRecord(record.rules, record.players, record.dealer, hands)


class ReviewSteps:
    """The review's pages and where the learner is (pure Python: the widget's model)."""

    def __init__(self, record: GameRecord | Mapping[str, Any], player: int | None = None,
                 title: str | None = None) -> None:
        self.record = record if isinstance(record, GameRecord) else GameRecord.from_json(record)
        self.result: GameReview = review_game(self.record, player)
        self.step = 0
        seats = "player " + str(player) if player is not None else "every player"
        self.title = title if title is not None else f"Game review: the decisions of {seats}"
        self.trying = ""
        """What "Try it yourself" opened (shown under the review), or empty."""

    @property
    def decisions(self) -> tuple[ReviewedDecision, ...]:
        return self.result.decisions

    def move(self, delta: int) -> ReviewSteps:
        """Step ``delta`` decisions (clamped to the first and last)."""
        return self.go(self.step + delta)

    def go(self, step: int) -> ReviewSteps:
        """Go to decision ``step`` (from 0; clamped)."""
        last = max(len(self.decisions) - 1, 0)
        self.step = min(max(int(step), 0), last)
        return self

    def current(self) -> ReviewedDecision | None:
        return self.decisions[self.step] if self.decisions else None

    def step_of(self, decision: ReviewedDecision) -> int:
        """The step (from 0) of a decision of this review (e.g. one of :func:`costliest`)."""
        for i, d in enumerate(self.decisions):
            if d == decision:
                return i
        raise AnalysisError(f"hand {decision.hand}, action {decision.index} (player {decision.player}) "
                            "is not a decision of this review")

    def html(self) -> str:
        d = self.current()
        if d is None:
            return "<p>No decision to review: every action in this record was forced.</p>"
        return decision_html(d)

    def marks(self) -> list[dict[str, Any]]:
        """The timeline: one entry per decision (step, hand, index, player, class)."""
        return [{"step": i, "hand": d.hand, "index": d.index, "player": d.player, "class": d.label,
                 "title": f"hand {d.hand}, action {d.index}: {card_words(d.played)} ({d.label})"}
                for i, d in enumerate(self.decisions)]

    def state(self) -> dict[str, Any]:
        """What the surface draws."""
        costly = sum(1 for d in self.decisions if d.label != "best")
        return {"html": self.html(), "step": self.step, "count": len(self.decisions), "marks": self.marks(),
                "colours": CLASS_COLOURS, "title": self.title, "trying": self.trying,
                "summary": f"{len(self.decisions)} decisions reviewed, {costly} costly. Click a mark on the "
                           "timeline (or use ◀ ▶, the arrow keys) to see a decision; Try it yourself plays it "
                           "again at a table."}


class ReviewSurface(anywidget.AnyWidget):
    """Draws ``state`` (:meth:`ReviewSteps.state`) and sends clicks and keys back."""

    _esm = (_HERE / "review_widget.js").read_text(encoding="utf-8")
    _css = (_HERE / "review_widget.css").read_text(encoding="utf-8")
    state = traitlets.Dict().tag(sync=True)


class ReviewWidget(ipywidgets.VBox):  # type: ignore[misc]
    """Review a game record in a notebook: ◀ ▶ / arrow keys, a timeline of decisions
    marked by class, and "Try it yourself" (a card table at the chosen decision, the
    learner in that player's seat against ``opponents`` of the given kinds, hints on).

    The table comes from ``table_at`` (a :data:`TableAt`), by default
    :attr:`default_table_at`, which :mod:`scatlab.widgets.review` sets to
    :func:`scatlab.widgets.table.try_table`; a :class:`~scatlab.widgets.table.Table` passes
    that same function when it opens its review.

    >>> from scatlab.rules import GameRecord, play_random_game
    >>> w = ReviewWidget(GameRecord.from_state(play_random_game("classic", 3, seed=1)), player=0)
    >>> w.handle({"type": "next"})["step"]
    1
    """

    default_table_at: ClassVar[TableAt | None] = None
    """The ``table_at`` of a widget not given one (set by :mod:`scatlab.widgets.review`)."""

    def __init__(self, record: GameRecord | Mapping[str, Any], player: int | None = None,
                 opponents: str | Sequence[str] = "tip", title: str | None = None,
                 table_at: TableAt | None = None) -> None:
        self.steps = ReviewSteps(record, player, title)
        self.opponents = opponents
        self.table_at = table_at
        self.surface = ReviewSurface()
        self.surface.on_msg(lambda _w, content, _b: self.handle(content))
        self.table: Any = None
        super().__init__(children=(self.surface,))
        self._refresh()

    def _refresh(self) -> dict[str, Any]:
        data = self.steps.state()
        self.surface.state = data
        return data

    def handle(self, content: Any) -> dict[str, Any]:
        """Play one message: ``{"type": "prev" | "next" | "first" | "last" | "try"}`` or
        ``{"type": "goto", "step": N}``; anything else changes nothing."""
        kind = content.get("type") if isinstance(content, dict) else None
        s = self.steps
        if kind == "prev":
            s.move(-1)
        elif kind == "next":
            s.move(+1)
        elif kind == "first":
            s.go(0)
        elif kind == "last":
            s.go(len(s.decisions))
        elif kind == "goto" and isinstance(content.get("step"), int):
            s.go(content["step"])
        elif kind == "try":
            self.try_it()
        return self._refresh()

    @property
    def result(self) -> GameReview:
        """The review shown (:func:`scatlab.analysis.review_game`)."""
        return self.steps.result

    def costliest(self, n: int = 2) -> tuple[ReviewedDecision, ...]:
        """The ``n`` costliest decisions, worst first (:func:`costliest`)."""
        return costliest(self.steps.result, n)

    def show(self, decision: ReviewedDecision) -> ReviewWidget:
        """Step to ``decision`` (one of this review's, e.g. from :meth:`costliest`)."""
        self.steps.go(self.steps.step_of(decision))
        self._refresh()
        return self

    def try_it(self, decision: ReviewedDecision | None = None) -> Any:
        """Open a card table at ``decision`` (by default the current one; the learner in
        that player's seat), step the review to it, and return the table
        (``table_at``, :func:`scatlab.widgets.table.try_table`)."""
        if decision is not None:
            self.show(decision)
        d = self.steps.current()
        if d is None:
            return None
        table_at = self.table_at if self.table_at is not None else ReviewWidget.default_table_at
        if table_at is None:
            raise ScatlabError("this review has no card table to open: import ReviewWidget from "
                               "scatlab.widgets.review, or give it table_at=scatlab.widgets.table.try_table")
        table = table_at(self.steps.record, d, self.opponents)
        self.table = table
        self.children = (self.surface, table)
        self.steps.trying = (f"Below: hand {d.hand}, action {d.index} again, as player {d.player} saw it "
                             f"(played then: {card_words(d.played)}). Play it again with the hints.")
        self._refresh()
        return table
