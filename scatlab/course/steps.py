"""The course's steps: one idea, then a handful of checked puzzles, then 1 to 3 stars.

A lesson is a sequence of steps (the shape of Lichess's Learn: one idea per step, a
one-sentence goal, a few puzzles with an instant right or wrong). A step's idea is the
markdown just above it in the lesson; the step itself is its goal and its puzzles: the
questions of one :mod:`exercise <scatlab.course.exercises>` dealt from seeded positions,
each checked by the engine or the analysis, with the reason.

**Stars** (:func:`stars`): a step played to its end earns 3 stars with every puzzle right,
2 with one miss, 1 with at least half right, none with fewer. The learner's best is kept
(:meth:`Progress.record_stars <scatlab.course.progress.Progress.record_stars>`); trying
again, or coming back to the page, deals new puzzles (never one already answered).

>>> step = STEPS["2.1"]
>>> step.lesson, step.exercise, step.puzzles
('02-draw-or-take', 'count-outs', 5)
>>> [q.seed for q in step.questions(attempt=0)], [q.seed for q in step.questions(attempt=1)]
([0, 1, 2, 3, 4], [5, 6, 7, 8, 9])
>>> stars(right=5, total=5), stars(right=4, total=5), stars(right=3, total=5), stars(right=2, total=5)
(3, 2, 1, 0)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ExerciseError
from .exercises import EXERCISES, Question

__all__ = ["Step", "STEPS", "steps_of", "stars", "star_text", "MIN_PUZZLES", "MAX_PUZZLES"]

MIN_PUZZLES, MAX_PUZZLES = 3, 10
"""A step has 3 to 10 puzzles."""


@dataclass(frozen=True)
class Step:
    """One step of a lesson: ``id`` ("2.1": lesson 2, step 1), the lesson's id, a title, the
    one-sentence ``goal``, the exercise its puzzles come from, and how many puzzles."""

    id: str
    lesson: str
    title: str
    goal: str
    exercise: str
    puzzles: int = 5

    def __post_init__(self) -> None:
        if not isinstance(self.exercise, str) or self.exercise not in EXERCISES:
            raise ExerciseError(f"{self.exercise!r} is not an exercise; known: {', '.join(EXERCISES)}")
        if type(self.puzzles) is not int or not MIN_PUZZLES <= self.puzzles <= MAX_PUZZLES:
            raise ExerciseError(f"a step has {MIN_PUZZLES} to {MAX_PUZZLES} puzzles, not {self.puzzles!r}")

    def questions(self, attempt: int = 0) -> list[Question]:
        """The puzzles of one attempt (0, 1, ...): each attempt deals the next seeds."""
        if isinstance(attempt, bool) or not isinstance(attempt, int) or attempt < 0:
            raise ExerciseError(f"attempt={attempt!r} is not an attempt: give a whole number 0 or more")
        first = attempt * self.puzzles
        return [EXERCISES[self.exercise].question(seed) for seed in range(first, first + self.puzzles)]


def stars(*, right: int, total: int) -> int:
    """The stars a finished step earns: 3 with every puzzle right, 2 with one miss, 1 with
    at least half right, else 0.

    >>> stars(right=3, total=3), stars(right=2, total=3), stars(right=1, total=3), stars(right=2, total=4)
    (3, 2, 0, 1)
    """
    if not (type(right) is int and type(total) is int and 0 <= right <= total and total >= 1):
        raise ExerciseError(f"right={right!r} of total={total!r} is not a score: give 0 <= right <= total, total >= 1")
    misses = total - right
    return 3 if misses == 0 else 2 if misses == 1 else 1 if 2 * right >= total else 0


def star_text(count: int) -> str:
    """Stars as a learner sees them: ``★★☆`` (0 to 3 filled).

    >>> star_text(2), star_text(0)
    ('★★☆', '☆☆☆')
    """
    if not isinstance(count, int) or not 0 <= count <= 3:
        raise ExerciseError(f"{count!r} is not a number of stars: give 0 to 3")
    return "★" * count + "☆" * (3 - count)


STEPS: dict[str, Step] = {
    s.id: s
    for s in (
        Step(
            "1.1",
            "01-the-game",
            "What is a hand worth?",
            "Add up a hand in a few seconds: the best suit counts.",
            "hand-value",
            6,
        ),
        Step(
            "2.1",
            "02-draw-or-take",
            "Count the outs",
            "Find every unseen card that turns your hand into 31.",
            "count-outs",
            5,
        ),
        Step(
            "2.2",
            "02-draw-or-take",
            "The chance in one draw",
            "Turn outs into a chance: outs over unseen cards.",
            "draw-chance",
            4,
        ),
        Step(
            "2.3",
            "02-draw-or-take",
            "What a draw is worth",
            "Weigh each outcome by how many cards give it.",
            "ev-sum",
            4,
        ),
        Step(
            "2.4",
            "02-draw-or-take",
            "Take or draw",
            "Compare a sure card with the average of a draw.",
            "take-or-draw",
            5,
        ),
        Step(
            "3.1",
            "03-knocking",
            "What a knock is worth",
            "Weigh a knock outcome by outcome, and knock when it beats playing on.",
            "knock-cost",
            4,
        ),
        Step(
            "3.2",
            "03-knocking",
            "Read the chart",
            "Knock or play on by the chart for your number of opponents and your hand's value.",
            "knock-chart",
            6,
        ),
        Step(
            "4.1",
            "04-showdown",
            "Who loses at the showdown",
            "Settle a showdown: the lowest hand, ties and the knocker.",
            "showdown",
            6,
        ),
        Step("5.1", "05-house-rules", "Same hand, other rules", "Value a hand under each preset.", "house-value", 5),
        Step(
            "6.1",
            "06-strategy-lab",
            "Commit to a suit",
            "Keep the three cards worth most, most often the suit you collect.",
            "best-discard",
            5,
        ),
        Step(
            "6.2",
            "06-strategy-lab",
            "Don't feed the next player",
            "Between equal throws, never give the next player their suit.",
            "feed-next",
            4,
        ),
        Step(
            "6.3",
            "06-strategy-lab",
            "Knock early",
            "See the knock line climb as the others play their turns.",
            "knock-early",
            6,
        ),
    )
}
"""Every step by id, in course order."""


def steps_of(lesson: str) -> list[Step]:
    """The steps of one lesson id, in order.

    >>> [s.id for s in steps_of("06-strategy-lab")]
    ['6.1', '6.2', '6.3']
    """
    return [s for s in STEPS.values() if s.lesson == lesson]
