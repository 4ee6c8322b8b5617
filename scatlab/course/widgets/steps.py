"""The step widget: a step's goal, its puzzles one after another, and the stars it earns.

A thin wrapper around :mod:`scatlab.course.steps` and the exercise widget: it deals the
step's puzzles in order (each answer checked and explained by the engine, "Show the
working" where the exercise has a derivation), counts the misses, and at the last puzzle
shows the stars (:func:`scatlab.course.steps.stars`) and keeps the learner's best in the
progress store. "Try again" deals the next attempt's puzzles. It decides nothing itself.

>>> w = StepWidget("1.1", progress=None)
>>> for _ in range(5):
...     _ = w.answer(w.question.solution)
...     _ = w.next_puzzle()
>>> _ = w.answer("99")            # the sixth and last puzzle, missed
>>> w.done, w.earned, w.best
(True, 2, 2)
>>> w.try_again().seed            # the next attempt deals new puzzles
6
"""

from __future__ import annotations

from html import escape
from typing import Any

import ipywidgets as widgets

from ..exercises import ExerciseError, Question, Verdict
from ..progress import ProgressError
from ..steps import STEPS, Step, star_text, stars
from .course import open_progress
from .exercises import _DEFAULT, ExerciseWidget

__all__ = ["StepWidget", "STAR_RULE"]

STAR_RULE = "Stars: every puzzle right ★★★, one miss ★★☆, at least half right ★☆☆, fewer ☆☆☆. Your best is kept."
"""The star rule (:func:`scatlab.course.steps.stars`) in full, shown beside every step."""


class StepWidget(ExerciseWidget):
    """One step of a lesson: ``StepWidget("2.1")``.

    ``progress`` is where the stars are kept: by default the learner's
    :class:`~scatlab.course.progress.Progress`; None keeps nothing (tests, docs).
    """

    def __init__(self, step: str, *, progress: Any = _DEFAULT) -> None:
        if not isinstance(step, str) or step not in STEPS:
            raise ExerciseError(f"{step!r} is not a step; known: {', '.join(STEPS)}")
        self.step: Step = STEPS[step]
        self.attempt = 0
        self.results: list[bool] = []
        self.earned = 0
        self.best = 0
        self.played = False  # played to its end once (stars or not)
        kept, notice = open_progress() if progress is _DEFAULT else (progress, "")
        if kept is not None:  # coming back deals the next attempt: never a puzzle already answered
            try:
                answered = sum(1 for a in kept.answers(self.step.lesson) if a.exercise == self.step.exercise)
                self.attempt = -(-answered // self.step.puzzles)
                played = kept.step_stars(self.step.lesson)
                self.best, self.played = played.get(self.step.id, 0), self.step.id in played
            except ProgressError as exc:
                notice = f"Stars are not kept: {exc}"
        super().__init__(
            self.step.exercise, lesson=self.step.lesson, seed=self.attempt * self.step.puzzles, progress=kept
        )
        self.tell(notice)
        self.title.value = (  # the step's title is the heading of its idea, just above
            f"<p class='scatlab-goal' style='margin:2px 0'><b>Step {escape(self.step.id)} goal:</b> "
            f"{escape(self.step.goal)}</p>"
        )
        self.stars = widgets.HTML()
        self.stars.add_class("scatlab-best-stars")
        self.new_button.description = "Next puzzle"
        self.new_button.button_style = ""
        self.children = (
            self.title,
            self.stars,
            self.prompt,
            self.choices,
            self.number_box,
            self.feedback,
            self.working,
            self.buttons,
        )
        self.add_class("scatlab-step")
        self.new_button.disabled = True  # answer first, then on to the next
        self._progress_line()

    # -- what the learner sees ---------------------------------------------------------------

    def _progress_line(self) -> None:
        marks = "".join("✓" if r else "✗" for r in self.results) + "○" * (self.step.puzzles - len(self.results))
        best = (
            f"Your best: {star_text(self.best)}"
            if self.best
            else f"Your best: {star_text(0)}, no star yet"
            if self.played
            else "Not finished yet"
        )
        self.stars.value = (
            f"<span class='scatlab-best' style='color:#8a5a00;font-size:1.1em'>{escape(best)}</span>"
            f"<br><span class='scatlab-star-rule' style='color:#555;font-size:0.9em'>{STAR_RULE}</span>"
        )
        if self.done:
            again = "" if self.earned else ": try again for a star"
            self.score.value = (
                f"Step done: {star_text(self.earned)} ({sum(self.results)} of {len(self.results)} right){again}"
            )
        else:
            shown = min(len(self.results) + (0 if self._answered() else 1), self.step.puzzles)
            self.score.value = f"Puzzle {shown} of {self.step.puzzles}  {marks}"

    @property
    def done(self) -> bool:
        """Every puzzle of this attempt answered."""
        return len(self.results) >= self.step.puzzles

    def _show(self) -> None:
        super()._show()
        if hasattr(self, "stars"):
            self.new_button.disabled = True  # answer first, then on to the next
            self._progress_line()

    # -- actions -----------------------------------------------------------------------------

    def answer(self, text: str) -> Verdict | None:
        """Check an answer to the current puzzle; the last one of the step earns the stars.
        Only the first verdict on a puzzle counts (the kernel keeps it as ``verdict``)."""
        first = not self._answered()
        verdict = super().answer(text)
        if verdict is None or not first:
            return verdict
        self.results.append(verdict.correct)
        self.new_button.disabled = False
        if self.done:
            self.earned = stars(right=sum(self.results), total=len(self.results))
            self.new_button.description = "Try again"
            self.best = max(self.best, self.earned)
            self.played = True
            if self.progress is not None:  # no star (fewer than half right) is kept too: the step was played
                try:
                    self.best = self.progress.record_stars(self.step.lesson, self.step.id, self.earned)
                except ProgressError as exc:
                    self.feedback.value += (
                        f"<p class='scatlab-not-kept' style='color:#8a5a00'>The stars were "
                        f"not kept: {escape(str(exc))}</p>"
                    )
        self._progress_line()
        return verdict

    def new_question(self) -> Question:
        """The button: the next puzzle, or a new attempt once the step is done."""
        return self.try_again() if self.done else self.next_puzzle()

    def next_puzzle(self) -> Question:
        """Deal the next puzzle of this attempt (only after the current one is answered)."""
        if self.done or not self._answered():
            return self.question
        return super().new_question()

    def try_again(self) -> Question:
        """Start a new attempt with the next puzzles (the best stars stay)."""
        self.attempt += 1
        self.results, self.earned = [], 0
        self.new_button.description = "Next puzzle"
        self.seed = self.attempt * self.step.puzzles - 1
        return super().new_question()
