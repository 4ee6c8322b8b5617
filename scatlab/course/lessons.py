"""The lessons of the course, in order: file names, titles and the rule codes each teaches.

The notebooks themselves are in ``lessons/`` (see :func:`scatlab.app.launch.lessons_dir`);
tests check that every lesson listed here exists, links to its neighbours and teaches the
codes it claims, and that every code C1-C14 and V1-V19 is taught somewhere.

The optional appendices (:data:`APPENDICES`) are side pages for the curious: research and
side topics kept out of the main path. They are listed apart on the index, linked from the
lesson they extend, and never counted in the learner's progress.

>>> [l.number for l in LESSONS]
[1, 2, 3, 4, 5, 6, 7, 8]
>>> lesson(3).title
'Knocking'
>>> lesson("04-showdown").next.number
5
>>> [(a.id, a.lesson) for a in APPENDICES]
[('appendix-how-we-know', '03-knocking'), ('appendix-skat', '07-not-this-game')]
>>> appendix("appendix-skat").filename
'appendix-skat.ipynb'
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ScatlabError

__all__ = ["INDEX", "Lesson", "LESSONS", "lesson", "ALL_CODES", "Appendix", "APPENDICES", "appendix"]

INDEX = "00-index.ipynb"
"""The course's first page (the index of lessons and appendices)."""

ALL_CODES: tuple[str, ...] = tuple(f"C{i}" for i in range(1, 15)) + tuple(f"V{i}" for i in range(1, 20))
"""Every rule code of the catalogue (RULES.md)."""


class _Page:
    """What every course page has: a notebook in ``lessons/`` named after its ``id``."""

    id: str

    @property
    def filename(self) -> str:
        """The notebook's file name in ``lessons/``."""
        return self.id + ".ipynb"


@dataclass(frozen=True)
class Lesson(_Page):
    """One lesson: its number, id (the notebook's name without ``.ipynb``), title and blurb."""

    number: int
    id: str
    title: str
    blurb: str

    @property
    def previous(self) -> Lesson | None:
        """The lesson before this one (None for the first)."""
        return LESSONS[self.number - 2] if self.number > 1 else None

    @property
    def next(self) -> Lesson | None:
        """The lesson after this one (None for the last)."""
        return LESSONS[self.number] if self.number < len(LESSONS) else None


@dataclass(frozen=True)
class Appendix(_Page):
    """An optional page: its id (the notebook's name without ``.ipynb``, always starting
    ``appendix-``), title, blurb, and the id of the lesson it extends (which links to it)."""

    id: str
    title: str
    blurb: str
    lesson: str


LESSONS: tuple[Lesson, ...] = (
    Lesson(1, "01-the-game", "The game in five minutes", "Cards, the deal, a turn and what a hand is worth."),
    Lesson(2, "02-draw-or-take", "Draw or take", "Outs and exact odds: when the discard beats the stock."),
    Lesson(
        3,
        "03-knocking",
        "Knocking",
        "When a knock gives you the better chance of winning the game, by hand value, opponents and turns.",
    ),
    Lesson(
        4,
        "04-showdown",
        "31, the showdown and lives",
        "Every showdown case and every 31 case, played out on a real table.",
    ),
    Lesson(5, "05-house-rules", "House rules", "The presets and options side by side, and what each one changes."),
    Lesson(
        6,
        "06-strategy-lab",
        "Strategy lab",
        "Drills: commit to a suit, don't feed the next player, knock early; then a small tournament.",
    ),
    Lesson(
        7, "07-not-this-game", "Not this game", "Skat, Schwimmen and the other games called 31 or Blitz, told apart."
    ),
    Lesson(
        8,
        "08-play-a-game",
        "Play a whole game",
        "A game with hints, then one without, against computer players; then review it and replay "
        "your two costliest decisions.",
    ),
)


APPENDICES: tuple[Appendix, ...] = (
    Appendix(
        "appendix-how-we-know",
        "How we know the numbers",
        "How the knock risk was checked against real play, and what opponents' turns tell the analysis.",
        "03-knocking",
    ),
    Appendix(
        "appendix-skat",
        "Skat",
        "The German game Skat: how it values a game, with a calculator and an exercise.",
        "07-not-this-game",
    ),
)
"""The optional appendices, in course order; none counts toward the learner's progress."""


def appendix(key: str) -> Appendix:
    """An appendix by id (``"appendix-skat"``).

    >>> appendix("03-knocking")
    Traceback (most recent call last):
    ...
    scatlab.errors.ScatlabError: '03-knocking' is not an appendix: give an id such as 'appendix-how-we-know'
    """
    for item in APPENDICES:
        if key == item.id:
            return item
    raise ScatlabError(f"{key!r} is not an appendix: give an id such as {APPENDICES[0].id!r}")


def lesson(key: int | str) -> Lesson:
    """A lesson by number (1-8) or id (``"03-knocking"``).

    >>> lesson(99)
    Traceback (most recent call last):
    ...
    scatlab.errors.ScatlabError: 99 is not a lesson: give a number 1 to 8 or an id such as '01-the-game'
    """
    for item in LESSONS:
        if key == item.number or key == item.id:
            return item
    raise ScatlabError(f"{key!r} is not a lesson: give a number 1 to {len(LESSONS)} or an id such as {LESSONS[0].id!r}")
