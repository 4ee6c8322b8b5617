"""The practice page: puzzles from real games, one at a time, with the learner's rating.

A thin ipywidgets wrapper around :mod:`scatlab.course.puzzles` (the puzzles, their answers
and reasons) and :mod:`scatlab.course.rating` (the Elo rating): a theme and a level to
choose, the position drawn with the project's SVG cards, a button per choice, the verdict
with its reason, "Next puzzle", and the rating, kept with every answer in the learner's
progress (``progress=None`` keeps nothing: tests, docs). Each theme's puzzles come from a
fixed pool made on first use (:func:`scatlab.course.puzzles.pool`).

**Each puzzle is rated once.** The next puzzle is the next one of the pool (for the chosen
theme and level) that the learner has not answered yet: not on this page, and not on any
earlier page (the puzzle ids kept by :meth:`Progress.practice_answers`, read afresh each
time, so a reload or a second tab does not start a theme over). A puzzle's position is
known by its id without the theme (``"0/1/16"``), so a position kept under another theme's
name counts too. Once every puzzle of a theme and level has been answered, the page serves
them again, says so ("already answered: not rated again"), shows the verdict and its reason,
and keeps nothing: no :meth:`Progress.record_practice` call, the rating unchanged.

>>> page = PracticePage(progress=None)
>>> p = page.puzzle
>>> page.answer(p.answer).correct, page.rating == update(START, p.level, True) > START
(True, True)
>>> "scatlab-right" in page.feedback.value
True
>>> page.next_puzzle() == page.puzzle != p
True
"""

from __future__ import annotations

from html import escape
from typing import Any

import ipywidgets as widgets

from ...widgets.svg import card_svg
from ..exercises import ExerciseError, Verdict
from ..lessons import INDEX
from ..progress import Progress, ProgressError
from ..puzzles import LEVELS, THEMES, Puzzle, pool
from ..rating import LEVEL_RATING, START, K, update
from .course import RULEBOOK_PAGE, open_progress
from .exercises import mark_choices

__all__ = ["PracticePage", "puzzle_html", "THEME_LABELS", "RATING_RULE"]

RATING_RULE = (
    f"How your rating moves: each level has a rating (level 1 {LEVEL_RATING[1]}, level 2 {LEVEL_RATING[2]}, "
    f"level 3 {LEVEL_RATING[3]}; you start at {START}). A right answer raises yours, more when the puzzle "
    "is rated above you; a wrong answer lowers it, more when the puzzle is rated below you. One answer "
    f"moves it by 1 to {K} points; a puzzle answered before is not rated again."
)
"""The rating rule (:mod:`scatlab.course.rating`) where it scores, beside the rating."""

THEME_LABELS: dict[str, str] = {
    "take-or-draw": "Take or draw",
    "throw": "Which card to throw",
    "knock": "Knock or play on",
    "chase-31": "Chasing 31",
}
"""The themes as the page's dropdown names them."""
_LEVEL_LABELS = (("Any level", 0), ("1 (easy)", 1), ("2", 2), ("3 (hard)", 3))
_LINK = "color:#1a5fb4;text-decoration:underline"
_NOT_RATED = "Already answered: not rated again."
_ALL_ANSWERED = (
    "You have answered every puzzle of this theme and level, so they come round again: this one is "
    "already answered, not rated again."
)
_DEFAULT: Any = object()
_CONTROL_STYLE = {"description_width": "3.5em"}
"""A control's label just wide enough for its word, beside its dropdown (both labels alike)."""


def _control_layout() -> widgets.Layout:
    """A label and its dropdown as one item of a wrapping row: side by side on a wide
    screen; on a phone each takes the full width, on its own line (never one over the other)."""
    return widgets.Layout(flex="1 1 16em", width="auto", max_width="26em")


def _position(puzzle_id: str) -> str:
    """The position a puzzle id names, without its theme: ``"knock/0/1/16"`` gives ``"0/1/16"``."""
    return puzzle_id.split("/", 1)[-1]


def puzzle_html(puzzle: Puzzle, *, width: int = 56) -> str:
    """The puzzle's question, the table around it and its cards as HTML (SVG cards, as
    :func:`scatlab.course.widgets.exercises.question_html` draws them)."""
    rows = []
    for label, cards in puzzle.shown():
        svgs = "".join(
            f'<span style="display:inline-block;margin-right:4px">{card_svg(c, width=width)}</span>'
            for c in cards.split()
        )
        rows.append(f'<div style="margin:4px 0"><b>{escape(label)}:</b><br>{svgs}</div>')
    level = f"level {puzzle.level}"
    return (
        f'<div class="scatlab-puzzle" data-puzzle="{escape(puzzle.id)}">'
        f'<p style="font-size:1.05em">{escape(puzzle.prompt)}</p>'
        f'<ul class="scatlab-situation" style="color:#555;margin:2px 0;padding-left:1.2em">'
        + "".join(f"<li>{escape(line)}</li>" for line in (*puzzle.situation_lines, level))
        + f"</ul>{''.join(rows)}</div>"
    )


class PracticePage(widgets.VBox):  # type: ignore[misc]
    """The practice page: ``PracticePage()`` in ``lessons/practice.ipynb``.

    ``theme`` and ``level`` (None: any) pick the first puzzles; ``progress`` is where
    answers and the rating are kept: by default the learner's :class:`Progress`; None
    keeps them for this page only.
    """

    def __init__(self, theme: str = THEMES[0], level: int | None = None, *, progress: Any = _DEFAULT) -> None:
        if theme not in THEMES:
            raise ExerciseError(f"{theme!r} is not a puzzle theme: choose one of {', '.join(THEMES)}")
        if level is not None and level not in LEVELS:
            raise ExerciseError(f"level={level!r} is not allowed: use 1 (easy), 2 or 3 (hard), or None for any")
        self.notice = ""
        self.progress: Progress | None
        if progress is _DEFAULT:
            self.progress, self.notice = open_progress()
        else:
            self.progress = progress
        self.rating = START
        if self.progress is not None:
            try:
                self.rating = self.progress.practice_rating()
            except ProgressError as exc:
                self.notice = f"Your rating cannot be read: {exc}"
        self.right = self.answered = 0
        self._next: dict[tuple[str, int | None], int] = {}
        self._done: set[str] = set()
        """Positions answered on this page (what :meth:`_answered` adds to the kept answers)."""
        self._scored = False
        header = widgets.HTML(
            "<div style='color:#555'>scatlab course &middot; practice</div>"
            f'<nav class="scatlab-nav" style="display:flex;gap:1.5em;margin:6px 0">'
            f'<a href="{INDEX}" style="{_LINK}">Course index</a>'
            f'<a href="{RULEBOOK_PAGE}" style="{_LINK}">The rulebook</a></nav>'
        )
        header.add_class("scatlab-header")
        self.theme = widgets.Dropdown(
            options=[(THEME_LABELS[t], t) for t in THEMES],
            value=theme,
            description="Theme",
            layout=_control_layout(),
            style=_CONTROL_STYLE,
        )
        self.level = widgets.Dropdown(
            options=list(_LEVEL_LABELS),
            value=level or 0,
            description="Level",
            layout=_control_layout(),
            style=_CONTROL_STYLE,
        )
        self.theme.add_class("scatlab-practice-theme")
        self.level.add_class("scatlab-practice-level")
        self.board = widgets.HTML()
        self.choices = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.feedback = widgets.HTML()
        self.score = widgets.HTML()
        self.score.add_class("scatlab-rating")
        self.next_button = widgets.Button(description="Next puzzle", layout=widgets.Layout(width="auto"))
        self.next_button.on_click(lambda _b: self.next_puzzle())
        self.theme.observe(lambda _c: self.next_puzzle(), names="value")
        self.level.observe(lambda _c: self.next_puzzle(), names="value")
        box = widgets.VBox(
            [
                widgets.HBox([self.theme, self.level], layout=widgets.Layout(flex_flow="row wrap")),
                self.board,
                self.choices,
                self.feedback,
                widgets.HBox([self.next_button, self.score], layout=widgets.Layout(flex_flow="row wrap")),
            ],
            layout=widgets.Layout(border="1px solid #c9c9c9", padding="8px", margin="8px 0"),
        )
        box.add_class("scatlab-practice")
        super().__init__([header, box])
        self.puzzle: Puzzle = self.next_puzzle()
        self._show_score()
        if self.notice:
            self.feedback.value = f"<p style='color:#8a5a00'>{escape(self.notice)}</p>"

    # -- the puzzles ----------------------------------------------------------------------

    def _candidates(self) -> list[Puzzle]:
        level = self.level.value or None
        return [p for p in pool(self.theme.value) if level is None or p.level == level]

    def _answered(self) -> set[str]:
        """The positions (puzzle ids without the theme) the learner has answered: kept in the
        progress, and on this page."""
        kept: set[str] = set()
        if self.progress is not None:
            try:
                kept = {_position(a.puzzle) for a in self.progress.practice_answers()}
            except ProgressError:
                pass  # the page's own answers still count
        return kept | self._done

    @property
    def repeat(self) -> bool:
        """The puzzle shown was answered before: it is not rated again."""
        return _position(self.puzzle.id) in self._answered()

    def next_puzzle(self) -> Puzzle:
        """Show the next puzzle of the chosen theme and level that the learner has not
        answered; when all have been, the next one again, marked "not rated again"."""
        found = self._candidates()
        key = (str(self.theme.value), self.level.value or None)
        if not found:  # pragma: no cover - every pool holds every level (tests/course/test_puzzles.py)
            self.board.value = "<p>No puzzle of this level in this theme yet: choose another level.</p>"
            self.choices.children = ()
            return self.puzzle
        answered = self._answered()
        start = self._next.get(key, 0)
        order = [(start + j) % len(found) for j in range(len(found))]
        i = next((i for i in order if _position(found[i].id) not in answered), order[0])
        self._next[key] = i + 1
        self.puzzle = found[i]
        repeat = _position(self.puzzle.id) in answered
        self._scored = repeat
        self.board.value = puzzle_html(self.puzzle)
        buttons = []
        for choice in self.puzzle.choices:
            b = widgets.Button(description=choice, layout=widgets.Layout(width="auto"))
            b.add_class("scatlab-choice")
            b.on_click(lambda _b, c=choice: self.answer(c))
            buttons.append(b)
        self.choices.children = tuple(buttons)
        self.feedback.value = f"<p class='scatlab-repeat' style='color:#8a5a00'>{_ALL_ANSWERED}</p>" if repeat else ""
        return self.puzzle

    def answer(self, text: str) -> Verdict | None:
        """Check an answer to the current puzzle, show why, update the rating and keep it
        (a puzzle is scored once: answering it again, on this page or after a reload, only
        shows the verdict, with "already answered: not rated again")."""
        try:
            verdict = self.puzzle.check(text)
        except ExerciseError as exc:
            self.feedback.value = f"<p class='scatlab-unreadable' style='color:#8a5a00'>{escape(str(exc))}</p>"
            return None
        colour, cls = ("#1e7b34", "scatlab-right") if verdict.correct else ("#b00020", "scatlab-wrong")
        self.feedback.value = f"<p class='{cls}' style='color:{colour}'>{escape(verdict.message)}</p>"
        if not self._scored and _position(self.puzzle.id) in self._answered():  # answered in another tab
            self._scored = True
        if self._scored:
            self.feedback.value += f"<p class='scatlab-not-rated' style='color:#8a5a00'>{_NOT_RATED}</p>"
        else:
            self._scored = True
            self._done.add(_position(self.puzzle.id))
            self.answered += 1
            self.right += int(verdict.correct)
            p = self.puzzle
            before = self.rating
            if self.progress is not None:
                try:
                    self.rating = self.progress.record_practice(p.id, p.theme, p.level, verdict.correct)
                except ProgressError as exc:
                    self.rating = update(self.rating, p.level, verdict.correct)
                    self.feedback.value += (
                        f"<p class='scatlab-not-kept' style='color:#8a5a00'>This answer was "
                        f"not kept: {escape(str(exc))}</p>"
                    )
            else:
                self.rating = update(self.rating, p.level, verdict.correct)
            self._show_score(self.rating - before)
        mark_choices(self.choices.children, verdict.answer, {self.puzzle.answer})
        return verdict

    def _show_score(self, change: int = 0) -> None:
        done = f" &middot; {self.right} of {self.answered} right on this page" if self.answered else ""
        moved = (
            f" <span class='scatlab-rating-change'>({'+' if change > 0 else '−'}{abs(change)})</span>" if change else ""
        )
        self.score.value = (
            f"<span style='margin-left:1em'>Your rating: <b class='scatlab-rating-value'>"
            f"{self.rating}</b>{moved}{done}</span>"
            f"<p class='scatlab-rating-rule' style='color:#555;font-size:0.9em;margin:4px 0'>"
            f"{RATING_RULE}</p>"
        )
