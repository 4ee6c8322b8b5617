"""The review's steps: a reviewed game, decision by decision, as pages rendered in Python
(:class:`ReviewSteps`), the anywidget that shows them (:class:`ReviewSurface`) and the
review widget made of them (:class:`ReviewWidget`). Named for its steps, apart from
:mod:`scatlab.widgets.review` (the widget wired to the card table, where a notebook imports
it) and :mod:`!scatlab.analysis.explain.review` (the review itself, computed).

:class:`ReviewWidget` shows, for each decision of the reviewed seat(s), in the order they
were played, the position as that player saw it (their hand and the top discard, drawn with
the project's SVG cards), then, in the learner's words and in this order, what happened,
what was better, by how much and in which class, and why
(:meth:`scatlab.analysis.ReviewedDecision.words`); the cards the player had
seen open from a count, and **The estimates and the exact figures** (each choice's chance of
winning the game, which the engine estimates, and the exact figure it is built from). A timeline has one mark
per decision, coloured by class, so the costly ones stand out; ◀ ▶ (or the arrow keys, Home and End) step through,
a mark
jumps to its decision, and **Try it yourself** opens a card :class:`~scatlab.widgets.table.Table`
at that very position (the state just before the decision), with hints, so the learner can
play it again.

The pages are rendered in Python (:func:`decision_html`, :class:`ReviewSteps`, pure Python
and tested without a browser); the anywidget surface (``review_steps.js`` and
``review_steps.css`` beside this file) only shows them and sends clicks and keys back, like
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
from dataclasses import replace
from html import escape
from pathlib import Path
from typing import Any, ClassVar

import anywidget
import ipywidgets
import traitlets

from ..analysis import Assessment, DecisionWords, GameReview, ReviewedDecision, costliest, review_game
from ..errors import AnalysisError, ScatlabError
from ..rules.record import GameRecord, HandRecord
from ..words import YOU, card_words, player_label, win_level
from ..words import exact_figure as _exact
from .deeper import LookRunner
from .svg import card_svg, empty_slot_svg

__all__ = [
    "CLASS_COLOURS",
    "ReviewSteps",
    "ReviewSurface",
    "ReviewWidget",
    "TableAt",
    "costliest",
    "decision_html",
    "deeper_html",
    "record_before",
    "seat_names",
    "seen_html",
]

_HERE = Path(__file__).parent

TableAt = Callable[[GameRecord, ReviewedDecision, str | Sequence[str]], Any]
"""What **Try it yourself** calls: ``table_at(record, decision, opponents)`` returns a card
table at ``decision`` of ``record`` (:func:`scatlab.widgets.table.try_table`)."""

CLASS_COLOURS = {"best": "#8a8f98", "inaccuracy": "#d4a017", "mistake": "#e07020", "blunder": "#c8102e"}
"""Timeline colours; the class is also written out, so colour is never the only signal."""


def seat_names(seat: int | None, players: int, opponents: str | Sequence[str] | None = None) -> dict[int, str]:
    """The seats as the table names them in running text: ``seat`` (the learner's) is
    "you", another ``"player 2 (tip)"`` (``opponents``: one kind for every other seat, or
    one kind per seat clockwise from the seat after the learner's), or ``"player 2"``:
    numbered from 1, as the table shows them (:func:`scatlab.rules.player_label`).

    >>> seat_names(0, 3, ("tip", "expert"))
    {0: 'you', 1: 'player 2 (tip)', 2: 'player 3 (expert)'}
    >>> seat_names(None, 2)
    {}
    """
    if seat is None:
        return {}
    others = [(seat + k) % players for k in range(1, players)]
    kinds = [opponents] * len(others) if isinstance(opponents, str) else list(opponents or ())
    names = {seat: YOU}
    for i, other in enumerate(others):
        names[other] = f"{player_label(other)} ({kinds[i]})" if i < len(kinds) else player_label(other)
    return names


def seen_html(words: DecisionWords) -> str:
    """The cards a player had seen, compactly: a count that opens on the discard pile by
    suit (and the cards other players took and still hold)."""
    if not words.seen:
        return ""
    if not words.by_suit and not words.held:
        return f'<p class="scat-review-seen">{escape(words.seen)}</p>'
    suits = "".join(
        f'<div role="listitem"><span class="scat-review-suit" data-red="{str(symbol in "♥♦").lower()}">'
        f"{symbol}</span> {escape(ranks)}</div>"
        for symbol, ranks in words.by_suit
    )
    held = "".join(f"<p>{escape(line)}</p>" for line in words.held)
    pile = (
        f'<div class="scat-review-suits" role="list" aria-label="the discard pile, by suit">{suits}</div>'
        if suits
        else ""
    )
    return f'<details class="scat-review-seen"><summary>{escape(words.seen)}</summary>{pile}{held}</details>'


def _names(a: Assessment) -> tuple[str, ...]:
    """The options of ``a.figures`` in the learner's words."""
    return a.labels if len(a.labels) == len(a.figures) else tuple(card_words(name) for name, _ in a.figures)


def _figures(a: Assessment) -> tuple[str, str]:
    """The caption and the rows of the options' chances of winning the game (levels, best
    first), in the learner's words; the move played and the best one are marked."""
    names = _names(a)
    played, best = str(a.played), a.figures[0][0] if a.figures else ""
    rows = "".join(
        f"<tr{' class=scat-review-played' if name == played else ''}><td>{escape(label)}</td>"
        f"<td>{win_level(x)}</td>"
        f"<td>{'your move' if name == played else 'best' if name == best else ''}</td></tr>"
        for label, (name, x) in zip(names, a.figures)
    )
    before = f"; before the hand: {win_level(a.now)}" if a.now is not None else ""
    return f"Your chance of winning the game with each choice (higher is better{before}):", rows


def _exact_rows(a: Assessment) -> str:
    """The figures behind the chances, for **The estimates**: each option's chance (an
    estimate, to a millionth) and the exact figure it is built from."""
    values = dict(a.values)
    unit = "hand value" if a.horizon == 0 else "hand value on average, five turns ahead"
    items = []
    for label, (name, x) in zip(_names(a), a.figures):
        line = f"{escape(label)}: {win_level(x)} (an estimate: {float(x):.6f})"
        v = values.get(name)
        if v is not None:
            kind = name.split()[0]
            line += (
                f"; {_exact(v)} lives lost on average"
                if kind in ("knock", "hammer", "stop_bus")
                else f"; {unit} {_exact(v)}"
            )
        items.append(f"<li>{line}</li>")
    return "".join(items)


def decision_html(d: ReviewedDecision, names: Mapping[int, str] | None = None) -> str:
    """One decision as an HTML fragment, read in order (:meth:`scatlab.analysis.ReviewedDecision.words`):
    where and its class, the player's cards and the top discard (SVG), what happened, what
    was better, by how much, why (with every option's figure), the cards the player had
    seen (a count that opens), and behind **The estimates and the exact figures** each
    choice's estimate and the exact figure it is built from. ``names``
    names the seats (:func:`seat_names`; by default numbered from 1: seat 1 is ``"player 2"``)."""
    view = d.view
    hand = "".join(card_svg(c, width=56) for c in view.hand)
    top = view.top_discard
    pile = card_svg(top, width=56) if top is not None else empty_slot_svg("no discard pile", width=56)
    caption = (
        "no discard pile"
        if top is None
        else "top discard"
        if len(view.hand) == 3
        else "top discard (not yours to take now)"
    )
    a = d.assessment
    w = d.words(names)
    what, rows = _figures(a)
    colour = CLASS_COLOURS[a.label]
    better = escape(w.better)
    for lead in ("Slightly better:", "Better:"):
        if better.startswith(lead):
            better = f"<b>{lead}</b>{better[len(lead) :]}"
    if a.close:
        cost = (
            "No cost: a close call, within half a point of the best move's chance of winning, closer than the "
            "estimates can tell apart."
        )
    elif a.cost == 0:
        cost = "No cost: this was the best move."
    else:  # the engine's estimates: no exact fraction behind them
        cost = f"Cost: about {float(a.cost) * 100:.1f}% of the chance of winning the game (an estimate)."
    exact = _exact_rows(a)
    return (
        f'<div class="scat-review-decision" data-class="{a.label}">'
        f'<p class="scat-review-where"><b>{escape(w.where)}</b>: '
        f'<span class="scat-review-class" style="color:{colour}">{a.label}</span></p>'
        f'<div class="scat-review-cards"><span aria-label="hand">{hand}</span>'
        f'<span class="scat-review-pile" aria-label="top discard">{pile}'
        f'<span class="scat-review-caption" aria-hidden="true">{caption}</span></span></div>'
        f'<p class="scat-review-happened">{escape(w.happened)}</p>'
        f'<p class="scat-review-better">{better}</p>'
        + (f'<p class="scat-review-cost">{escape(w.how_much)}</p>' if w.how_much else "")
        + f'<p class="scat-review-why"><b>Why:</b> {escape(w.why)}</p>'
        f'<p class="scat-review-figures">{escape(what)}</p><table aria-label="{escape(what)}">{rows}</table>'
        + seen_html(w)
        + f'<details class="scat-review-exact"><summary>The estimates and the exact figures'
        f"</summary><p>{cost}</p><ul>{exact}</ul>"
        "</details></div>"
    )


def deeper_html(look: Any, names: Mapping[int, str] | None = None) -> str:
    """A deeper look (:class:`scatlab.players.deeper.DeepLook`, or None) as a fragment: what it
    found and what it says of the move played, then how, behind a disclosure."""
    if look is None:
        return ""
    found = "".join(f"<p>{escape(line)}</p>" for line in look.findings(names))
    how = look.how()
    return (
        f'<div class="scat-review-deeper" role="status"><p class="scat-review-deeper-title"><b>A second opinion</b> '
        f"(the master)</p>{found}"
        + (
            f'<details class="scat-review-deeper-how"><summary>How it looked</summary><p>{escape(how)}</p></details>'
            if how
            else ""
        )
        + "</div>"
    )


def record_before(record: GameRecord, hand: int, index: int) -> GameRecord:
    """The record cut just before action ``index`` (from 1) of hand ``hand`` (from 1): its
    replay is the state in which that decision was taken."""
    if not 1 <= hand <= len(record.hands) or not 1 <= index <= len(record.hands[hand - 1].actions):
        raise AnalysisError(f"hand {hand}, action {index} is not in this record")
    cut = record.hands[hand - 1]
    hands = record.hands[: hand - 1] + (HandRecord(cut.deck, cut.actions[: index - 1]),)
    return replace(record, hands=hands)  # who sat where goes with it


class ReviewSteps:
    """The review's pages and where the learner is (pure Python: the widget's model).
    ``names`` names the seats in its words (:func:`seat_names`); by default ``player`` (the
    reviewed seat) is "you". The decisions are in the order they were played."""

    def __init__(
        self,
        record: GameRecord | Mapping[str, Any],
        player: int | None = None,
        title: str | None = None,
        names: Mapping[int, str] | None = None,
    ) -> None:
        self.record = record if isinstance(record, GameRecord) else GameRecord.from_json(record)
        self.result: GameReview = review_game(self.record, player)
        self.step = 0
        self.names: dict[int, str] = dict(names) if names is not None else seat_names(player, self.record.players)
        if player is None:
            seats = "every player's decisions"
        else:
            seats = "your decisions" if self.names.get(player) == YOU else f"the decisions of {player_label(player)}"
        self.title = title if title is not None else f"Game review: {seats}, in the order played"
        self.trying = ""
        """What "Try it yourself" opened (shown under the review), or empty."""
        self.deeper: dict[int, Any] = {}
        """The deeper looks asked for so far, by step (:class:`scatlab.players.deeper.DeepLook`)."""

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
        raise AnalysisError(
            f"hand {decision.hand}, action {decision.index} (player {decision.player}) is not a decision of this review"
        )

    def html(self) -> str:
        d = self.current()
        if d is None:
            return "<p>No decision to review: every action in this record was forced.</p>"
        return decision_html(d, self.names) + deeper_html(self.deeper.get(self.step), self.names)

    def look_deeper(
        self, budget: int | None = None, progress: Callable[[int, int], None] | None = None
    ) -> tuple[str, ...]:
        """Ask the master for a deeper look at the current decision (kept, so asking again
        costs nothing) and return its lines (:class:`scatlab.players.deeper.DeepLook`)."""
        from ..players.deeper import DEEP_BUDGET, look_deeper

        d = self.current()
        if d is None:
            return ()
        if self.step not in self.deeper:
            self.deeper[self.step] = look_deeper(d, DEEP_BUDGET if budget is None else budget, progress=progress)
        return tuple(self.deeper[self.step].lines(self.names))

    def marks(self) -> list[dict[str, Any]]:
        """The timeline, in the order played: one entry per decision (step, hand, index,
        player, class, and a title in the learner's words: "Hand 1, your 2nd move: threw
        the A♥ (blunder)")."""
        return [
            {
                "step": i,
                "hand": d.hand,
                "index": d.index,
                "player": d.player,
                "class": d.label,
                "title": f"{d.where(self.names)}: {d.did} ({d.label})",
            }
            for i, d in enumerate(self.decisions)
        ]

    def state(self) -> dict[str, Any]:
        """What the surface draws."""
        costly = sum(1 for d in self.decisions if d.label != "best")
        close = sum(1 for d in self.decisions if d.assessment.close)
        calls = (
            " and 1 close call, which costs nothing"
            if close == 1
            else (f" and {close} close calls, which cost nothing" if close else "")
        )
        return {
            "html": self.html(),
            "step": self.step,
            "count": len(self.decisions),
            "marks": self.marks(),
            "colours": CLASS_COLOURS,
            "title": self.title,
            "trying": self.trying,
            "looked": self.step in self.deeper,
            "summary": f"{len(self.decisions)} decisions reviewed in the order they were played, {costly} "
            f"costly{calls}. Click a mark on the timeline (or use ◀ ▶, the arrow keys) to see a decision; "
            "Try it yourself plays it again at a table; Look deeper asks the master, the strongest "
            "computer player, for a second opinion (about half a second).",
        }


class ReviewSurface(anywidget.AnyWidget):
    """Draws ``state`` (:meth:`ReviewSteps.state`) and sends clicks and keys back."""

    _esm = (_HERE / "review_steps.js").read_text(encoding="utf-8")
    _css = (_HERE / "review_steps.css").read_text(encoding="utf-8")
    state = traitlets.Dict().tag(sync=True)
    progress = traitlets.Dict().tag(sync=True)
    """A deeper look under way: ``{"done": deals played, "total": deals planned, "what": what it
    is doing, in words}`` (empty: none)."""


class ReviewWidget(ipywidgets.VBox):  # type: ignore[misc]
    """Review a game record in a notebook: ◀ ▶ / arrow keys, a timeline of decisions
    marked by class, and "Try it yourself" (a card table at the chosen decision, the
    learner in that player's seat against ``opponents`` of the given kinds, hints on; ``tip``
    players when none are given). The reviewed ``player`` is "you"; the other seats are named
    as the table names them when ``opponents`` is given (the kinds that played the game, as a
    table's own review gives them: ``player 2 (tip)``), else ``player 2``.

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

    def __init__(
        self,
        record: GameRecord | Mapping[str, Any],
        player: int | None = None,
        opponents: str | Sequence[str] | None = None,
        title: str | None = None,
        table_at: TableAt | None = None,
    ) -> None:
        self.steps = ReviewSteps(record, player, title)
        self.steps.names = seat_names(player, self.steps.record.players, opponents)
        self.opponents: str | Sequence[str] = opponents if opponents is not None else "tip"
        self.table_at = table_at
        self.surface = ReviewSurface()
        self.surface.on_msg(lambda _w, content, _b: self.handle(content))
        self._looks = LookRunner(lambda p: setattr(self.surface, "progress", p), "that fit what was seen")
        self.table: Any = None
        super().__init__(children=(self.surface,))
        self._refresh()

    def _refresh(self) -> dict[str, Any]:
        data = self.steps.state()
        self.surface.state = data
        return data

    def handle(self, content: Any) -> dict[str, Any]:
        """Play one message: ``{"type": "prev" | "next" | "first" | "last" | "try" | "deep"}`` or
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
        elif kind == "deep":
            self.look_deeper()
        return self._refresh()

    def look_deeper(self, budget: int | None = None) -> tuple[str, ...]:
        """The master's deeper look at the current decision (:meth:`!ReviewSteps.look_deeper`),
        with a progress bar while it searches; shown under the decision."""
        lines = self._looks.run(lambda progress: self.steps.look_deeper(budget, progress))
        self._refresh()
        return lines or ()

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
            raise ScatlabError(
                "this review has no card table to open: import ReviewWidget from "
                "scatlab.widgets.review, or give it table_at=scatlab.widgets.table.try_table"
            )
        table = table_at(self.steps.record, d, self.opponents)
        self.table = table
        self.children = (self.surface, table)
        who = self.steps.names.get(d.player, player_label(d.player))
        self.steps.trying = (
            f"Below: {d.where(self.steps.names)} again, as {who} saw it ({who} {d.did} then). "
            "Play it again with the hints."
        )
        self._refresh()
        return table
