"""Lesson 8's review: a finished game reviewed, its costliest decisions listed
(``costliest_html``) and each one on a "Try it yourself" table (``ReviewAndReplay``)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from html import escape
from typing import Any

import ipywidgets as widgets

from ...rules.view import player_label
from ..progress import ProgressError

__all__ = ["costliest_html", "costliest_heading", "ReviewAndReplay"]


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
    >>> from scatlab.course.widgets.game_with_hints import stand_in_game
    >>> html = costliest_html(costliest(stand_in_game().review_game().result, 2), {0: "you"})
    >>> html.count("<li"), "blunder" in html, 'href="rulebook.ipynb#C6"' in html, "worst first" in html
    (2, True, True, True)
    >>> "The two costliest decisions" in html, "The costliest decision<" in costliest_html(costliest(
    ...     stand_in_game().review_game().result, 1), {0: "you"})
    (True, True)
    >>> costliest_html(())
    "<h3 class='scatlab-costliest-head'>The costliest decisions</h3><p class='scatlab-costly-none'>No decision of
    this game cost anything: nothing to replay.</p>"
    """
    from ...widgets.review_steps import CLASS_COLOURS, seen_html
    from .course import rule_link

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
            f"<b>Why:</b> {linked(w.why)}{seen_html(w)}</li>"
        )
    if not items:
        return (
            f"<h3 class='scatlab-costliest-head'>{costliest_heading(0)}</h3>"
            "<p class='scatlab-costly-none'>No decision of this game cost anything: nothing to replay.</p>"
        )
    order = (
        " Sorted by cost, the worst first (not in the order they were played):"
        if len(items) > 1
        else " The only decision of this game that cost something:"
    )
    return (
        f"<h3 class='scatlab-costliest-head'>{costliest_heading(len(items))}</h3>"
        f"<p class='scatlab-costliest-order'>{order.strip()}</p><ol class='scatlab-costliest' "
        "style='line-height:1.45'>" + "".join(items) + "</ol>"
    )


def costliest_heading(n: int) -> str:
    """The heading over ``n`` costliest decisions, in words: one is "the costliest decision".

    >>> [costliest_heading(n) for n in (0, 1, 2, 3)]
    ['The costliest decisions', 'The costliest decision', 'The two costliest decisions', 'The three costliest
    decisions']
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

    >>> from scatlab.course.widgets.game_with_hints import stand_in_game
    >>> r = ReviewAndReplay(stand_in_game())
    >>> r.source, len(r.worst), [t.view() for t in r.tables] == [d.view for d in r.worst]
    ('stand-in', 2, True)
    """

    def __init__(self, stand_in: Any, learner: Any = None, n: int = 2) -> None:
        self.stand_in = stand_in
        self.learner = learner
        self.n = n
        self.button = widgets.Button(
            description="Review my game",
            button_style="primary",
            tooltip="review the game you played above, once it is over",
            layout=widgets.Layout(width="auto"),
        )
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
            self.status.value = (
                "<p class='scatlab-review-wait' style='color:#8a5a00'>Your game is not over yet: "
                "finish it above, then review it. Below is the stand-in's game.</p>"
            )
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
            self.review.steps.title = (
                f"Review of the stand-in's game: the decisions in your seat "
                f"({player_label(s.seat)}), in the order played"
            )
        else:
            self.review.steps.title = "Review of your game: your decisions, in the order played"
        self.review.handle({"type": "first"})  # redraws with the title and the names
        self.worst = costliest(self.review.result, self.n)
        record = s.record()
        self.tables = [try_table(record, d, opponents=s.opponents, controls="beginner") for d in self.worst]
        whose = "your" if source == "your game" else "the stand-in's"
        summary = self.review.result.summary(s.seat)
        counts = ", ".join(f"{k} {_class_words(name, k)}" for name, k in summary.classes if k)
        self.status.value = (
            f"<p class='scatlab-review-source'>Reviewing <b>{escape(whose)} game</b>: "
            f"{summary.decisions} decisions ({escape(counts)}).</p>"
        )
        self.review_box.children = (self.review,)
        if source == "your game":
            self._tell_the_class(s)
        self.listing.value = costliest_html(self.worst, names)
        for i, box in enumerate(self.try_boxes):
            if i < len(self.worst):
                d = self.worst[i]
                seat = (
                    "You are back in your seat"
                    if source == "your game"
                    else f"You take the stand-in's seat ({player_label(s.seat)})"
                )
                who = names.get(d.player, player_label(d.player))
                which = (
                    "the costliest decision"
                    if i == 0
                    else "the second costliest"
                    if i == 1
                    else f"costliest no. {i + 1}"
                )
                head = widgets.HTML(
                    f"<p class='scatlab-try-head'><b>Try it yourself, {which}: "
                    f"{escape(d.where(names))}</b> ({escape(who)} {escape(d.did)} then, "
                    f"{'an' if d.label == 'inaccuracy' else 'a'} {d.label}). {seat}, "
                    "hints on: play it again.</p>"
                )
                box.children = (head, self.tables[i])
            else:
                box.children = (widgets.HTML("<p>This game has no other costly decision to replay.</p>"),)
