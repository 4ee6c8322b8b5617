"""The exercise widget: a thin ipywidgets wrapper around :mod:`scatlab.course.exercises`.

It shows a question (the cards drawn as SVG), takes an answer (a button per choice, or a
number typed and checked), shows the engine's verdict with its reason, keeps the answer
in the learner's progress, and deals a new question on "New question". It decides
nothing itself.

>>> w = ExerciseWidget("hand-value", seed=3, progress=None)
>>> v = w.answer(w.question.solution)
>>> v.correct, "Right" in w.feedback.value, w.score.value
(True, True, '1 of 1 right')
>>> w.new_question().seed
4
"""

from __future__ import annotations

import asyncio
import re
import warnings
from collections.abc import Collection, Iterable
from html import escape
from typing import Any

import ipywidgets as widgets

from ...widgets.svg import card_svg
from ..exercises import EXERCISES, Exercise, ExerciseError, Question, Verdict
from ..progress import Progress, ProgressError
from .course import open_progress

__all__ = ["ExerciseWidget", "question_html"]

_DEFAULT = object()


def question_html(question: Question, *, width: int = 56) -> str:
    """The question's prompt and cards as HTML (cards as the project's SVG cards)."""
    rows = []
    for label, cards in question.shown:
        svgs = "".join(
            f'<span style="display:inline-block;margin-right:4px">{card_svg(c, width=width)}</span>'
            for c in cards.split()
        )
        rows.append(f'<div style="margin:4px 0"><b>{escape(label)}:</b><br>{svgs}</div>')
    return (
        f'<div class="scatlab-question"><p style="font-size:1.05em">{escape(question.prompt)}</p>{"".join(rows)}</div>'
    )


def mark_choices(buttons: Iterable[Any], chosen: str, right: Collection[str]) -> None:
    """After an answer: every choice button disabled, the right ones green ("success") and
    a wrong choice red ("danger") with "(your answer)", so the buttons show what was chosen
    and what was right, not only the text below them."""
    for b in buttons:
        name = str(b.description)
        b.disabled = True
        if name in right:
            b.button_style = "success"
        elif name == chosen:
            b.button_style, b.description = "danger", f"{name} (your answer)"
        b.tooltip = "the right answer" if name in right else "your answer" if name == chosen else ""


_WORKING_STYLE = (
    "<style>.scatlab-working mjx-container[display='true']{text-align:left!important;"
    "margin:2px 0!important}.scatlab-working-words{margin:4px 0}</style>"
)
"""The working reads as a sum written down: its lines start at the left, as the lesson's do."""

_WORDS_ONLY = re.compile(r"^\\text\{([^{}]*)\}$")


def working_line(line: str) -> str:
    """One line of an exercise's working as HTML: a line of plain words (``\\text{...}``
    only) is a paragraph that wraps on a phone; any other line a MathJax display.

    >>> working_line(r"\\text{take the J♠: worth 16 for sure}")
    '<p class="scatlab-working-words">take the J♠: worth 16 for sure</p>'
    >>> print(working_line(r"= 667/48\\text{, about 13.9}"))
    <div class="scatlab-working-sum">$$= 667/48\\text{, about 13.9}$$</div>
    """
    words = _WORDS_ONLY.match(line)
    if words:
        return f'<p class="scatlab-working-words">{escape(words.group(1))}</p>'
    return f'<div class="scatlab-working-sum">$${line}$$</div>'


def _verdict_html(verdict: Verdict) -> str:
    """A verdict's message, green when right and red when wrong."""
    colour, cls = ("#1e7b34", "scatlab-right") if verdict.correct else ("#b00020", "scatlab-wrong")
    return f"<p class='{cls}' style='color:{colour}'>{escape(verdict.message)}</p>"


class ExerciseWidget(widgets.VBox):  # type: ignore[misc]
    """One exercise: ``ExerciseWidget("hand-value", lesson="01-the-game")``.

    ``seed`` picks the first question (each "New question" adds one). ``progress`` is
    where answers are kept: by default the learner's :class:`Progress` database; None
    keeps nothing (tests, docs).
    """

    def __init__(self, exercise: str, *, lesson: str | None = None, seed: int = 0, progress: Any = _DEFAULT) -> None:
        if not isinstance(exercise, str) or exercise not in EXERCISES:
            raise ExerciseError(f"{exercise!r} is not an exercise; known: {', '.join(EXERCISES)}")
        self.exercise: Exercise = EXERCISES[exercise]
        self.lesson = lesson or self.exercise.lesson
        self.seed = seed
        self.progress: Progress | None
        self.progress, self.notice = open_progress() if progress is _DEFAULT else (progress, "")
        self.right = 0
        self.answered = 0
        self.question = self.exercise.question(seed)
        self.verdict: Verdict | None = None
        """The current question's first verdict, fixed in the kernel: a page that re-enables
        the inputs cannot answer again, and the working shows only after it."""
        self.title = widgets.HTML(f"<h4 style='margin:4px 0'>Exercise: {escape(self.exercise.title)}</h4>")
        self.prompt = widgets.HTML()
        self.choices = widgets.HBox()
        self.number = widgets.Text(placeholder="your answer", layout=widgets.Layout(width="9em"))
        self.check_button = widgets.Button(
            description="Check", button_style="primary", layout=widgets.Layout(width="auto")
        )
        self.number_box = widgets.HBox([self.number, self.check_button])
        self.feedback = widgets.HTML()
        self.score = widgets.Label("no answers yet")
        self.new_button = widgets.Button(description="New question", layout=widgets.Layout(width="auto"))
        self.working_button = widgets.Button(description="Show the working", layout=widgets.Layout(width="auto"))
        self.working_button.add_class("scatlab-show-working")
        self.working = widgets.HTMLMath(layout=widgets.Layout(overflow="auto hidden", max_width="100%"))
        self.working.add_class("scatlab-working")
        self.check_button.on_click(lambda _b: self.answer(self.number.value))
        self.number.continuous_update = False
        self._enter_wait: asyncio.TimerHandle | None = None
        with warnings.catch_warnings():  # Enter reaches the kernel only as a "submit" (deprecated in ipywidgets 8)
            warnings.simplefilter("ignore", DeprecationWarning)
            self.number.on_submit(lambda _t: self._enter())
        self.number.observe(lambda _c: self._typed(), "value")
        self.new_button.on_click(lambda _b: self.new_question())
        self.working_button.on_click(lambda _b: self.show_working())
        self.buttons = widgets.HBox(
            [self.new_button, self.working_button, self.score],
            layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
        )
        super().__init__(
            [self.title, self.prompt, self.choices, self.number_box, self.feedback, self.working, self.buttons],
            layout=widgets.Layout(border="1px solid #c9c9c9", padding="8px", margin="8px 0"),
        )
        self.add_class("scatlab-exercise")
        self._show()
        self.tell(self.notice)

    def tell(self, notice: str) -> None:
        """Show a notice about the progress (a moved-aside file, or why nothing is kept)."""
        if notice:
            self.notice = notice
            self.feedback.value = f"<p style='color:#8a5a00'>{escape(notice)}</p>"

    def _answered(self) -> bool:
        """The current question has been answered: the kernel's record (:attr:`verdict`), not
        the inputs' disabled state, which the page can change."""
        return self.verdict is not None

    def _enter(self) -> None:
        """Enter in the answer box checks the answer. The browser sends the key before the
        value it sets, and sends no value when it has not changed since it last did, so the
        check waits a moment for the value (:meth:`_typed`) and otherwise takes the one it
        has. (Without a running event loop, as in a script, it checks at once.)"""
        if self._enter_wait is not None:
            self._enter_wait.cancel()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._check_typed()
            return
        self._enter_wait = loop.call_later(0.4, self._check_typed)

    def _typed(self) -> None:
        if self._enter_wait is not None:  # the value that came with Enter
            self._enter_wait.cancel()
            self._check_typed()

    def _check_typed(self) -> None:
        self._enter_wait = None
        if self.number.value.strip() and not self._answered():
            self.answer(self.number.value)

    def _show(self) -> None:
        q = self.question
        self.prompt.value = question_html(q)
        buttons = []
        for choice in q.choices:
            b = widgets.Button(description=choice, layout=widgets.Layout(width="auto"))
            b.add_class("scatlab-choice")
            b.on_click(lambda _b, c=choice: self.answer(c))
            buttons.append(b)
        self.choices.children = tuple(buttons)
        self.choices.layout.display = "flex" if q.choices else "none"
        self.number_box.layout.display = "none" if q.choices else "flex"
        self.number.value = ""
        self.verdict = None
        self.number.disabled = self.check_button.disabled = False
        self.feedback.value = ""
        self.working.value = ""
        self.working_button.layout.display = "none"  # the working gives the answer away: shown after one

    def answer(self, text: str) -> Verdict | None:
        """Check an answer to the current question, show why, and keep it in the progress.

        A question is scored once, by the first verdict the kernel gave: answering it again
        (a page that re-enabled the inputs) only shows that verdict again."""
        if self.verdict is not None:
            self.feedback.value = _verdict_html(self.verdict)
            self.number.disabled = self.check_button.disabled = True
            return self.verdict
        try:
            verdict = self.exercise.check(self.question, text)
        except ExerciseError as exc:
            self.feedback.value = f"<p class='scatlab-unreadable' style='color:#8a5a00'>{escape(str(exc))}</p>"
            return None
        self.verdict = verdict
        if self.exercise.explain is not None:  # with the verdict, never after the progress is written
            self.working_button.layout.display = "flex"
        self.feedback.value = _verdict_html(verdict)
        self.answered += 1
        self.right += int(verdict.correct)
        self.score.value = f"{self.right} of {self.answered} right"
        if self.progress is not None:
            try:
                self.progress.record_answer(
                    self.lesson, self.exercise.id, self.question.text(), verdict.answer, correct=verdict.correct
                )
            except ProgressError as exc:
                self.feedback.value += (
                    f"<p class='scatlab-not-kept' style='color:#8a5a00'>This answer was "
                    f"not kept: {escape(str(exc))}</p>"
                )
        mark_choices(self.choices.children, verdict.answer, self.question.accepted)
        self.number.disabled = self.check_button.disabled = True
        return verdict

    def show_working(self) -> str:
        """Show the worked derivation of the current answer (rendered by sympy's LaTeX and
        MathJax); "" when this exercise has none or the question is not answered yet."""
        if self.verdict is None or self.exercise.explain is None:
            return ""
        lines = self.exercise.working(self.question).splitlines()
        shown = _WORKING_STYLE + "".join(working_line(line) for line in lines)
        self.working.value = shown
        return shown

    def new_question(self) -> Question:
        """Deal the next question (the next seed)."""
        self.seed += 1
        self.question = self.exercise.question(self.seed)
        self._show()
        return self.question
