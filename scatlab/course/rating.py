"""The learner's practice rating: a few lines of Elo.

Each puzzle level has a fixed rating (:data:`LEVEL_RATING`: 1000, 1200, 1400); the learner
starts at :data:`START` (1000). After each answer the learner's rating moves by
``K * (score - expected)``, where ``score`` is 1 for a right answer and 0 for a wrong one,
``expected = 1 / (1 + 10 ** ((puzzle - learner) / 400))`` is the chance Elo gives the
learner of solving the puzzle, and :data:`K` is 32 (the usual K-factor for a player with
few games). The change is rounded to the nearest whole point (halves away from zero), so
the rating stays a whole number: a right answer always raises it, a wrong one always lowers
it (by at least one point).

**Why own lines, not a Glicko-2 library.** The rule is five lines and exact to state and
to test at its boundaries; the puzzles' ratings are fixed, so Glicko's rating deviation and
volatility (what a library would add) have nothing to measure; and the course gains no
dependency for it.

>>> update(1000, 1, True), update(1000, 1, False)
(1016, 984)
>>> update(1000, 3, True), update(1400, 1, False)
(1029, 1371)
"""

from __future__ import annotations

from fractions import Fraction

from ..checks import shown
from ..errors import ExerciseError

__all__ = ["START", "K", "LEVEL_RATING", "expected", "update"]

START = 1000
"""The rating of a learner who has not practised yet."""
K = 32
"""The K-factor: the most one answer can move the rating."""
LEVEL_RATING: dict[int, int] = {1: 1000, 2: 1200, 3: 1400}
"""The fixed rating of each puzzle level."""


def _check(rating: object, level: object) -> None:
    if type(rating) is not int:
        raise ExerciseError(f"rating={shown(rating)} is not allowed: a rating is a whole number")
    if type(level) is not int or level not in LEVEL_RATING:
        raise ExerciseError(f"level={shown(level)} is not a puzzle level: use 1, 2 or 3")


def expected(rating: int, level: int) -> float:
    """Elo's chance that a learner rated ``rating`` solves a puzzle of ``level`` (a float:
    ten to a fractional power is not a fraction).

    >>> expected(1000, 1), round(expected(1000, 2), 3)
    (0.5, 0.24)
    """
    _check(rating, level)
    return 1 / (1 + 10 ** ((LEVEL_RATING[level] - rating) / 400))


def update(rating: int, level: int, correct: bool) -> int:
    """The learner's new rating after answering a puzzle of ``level`` right or wrong."""
    _check(rating, level)
    if type(correct) is not bool:
        raise ExerciseError(f"correct={shown(correct)} is not allowed: use True or False")
    change = Fraction(K) * (int(correct) - Fraction(expected(rating, level)))
    whole = int(abs(change) + Fraction(1, 2))
    step = max(whole, 1)  # a right answer always gains, a wrong one always loses
    return rating + step if correct else rating - step
