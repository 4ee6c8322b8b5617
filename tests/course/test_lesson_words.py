"""The course's prose budget (issue 36, part 4): a lesson is a few minutes of reading, so
its markdown is counted and capped. Run with ``-s`` to see every page's count.

A *word* is a whitespace-separated piece of a markdown cell's text holding a letter or a
digit, after a link ``[text](target)`` is reduced to its text: ``1 × P(lose one)`` is three
words, ``[C7](rulebook.ipynb#C7)`` one. Main lessons are :data:`LESSONS`; appendices are
:data:`APPENDICES` (optional pages, for research and side topics).
"""

from __future__ import annotations

import json
import re

import pytest

from scatlab.app.launch import lessons_dir
from scatlab.course.lessons import APPENDICES, LESSONS

MAIN_LESSON_WORDS = 900
"""Most words of markdown in a main lesson."""
LESSON_3_WORDS = 500
"""Most words in lesson 3 (knocking), which derives the knock line in its own words."""
CELL_WORDS = 150
"""Most words in one markdown cell of a main lesson or an appendix."""
LESSON_3_CELL_WORDS = 120
"""Most words in one markdown cell of lesson 3."""
APPENDIX_WORDS = 400
"""Most words of markdown in an appendix."""
NOT_IN_A_LESSON = ("seed", "±", "brier", "readme", "calibration study")
"""Study talk that belongs in an appendix or the documentation, never in a main lesson's text."""

LESSONS_DIR = lessons_dir()


def words(text: str) -> int:
    """The words of a markdown text (see the module doc).

    >>> words("Knock when **1 × P(lose one)** is smaller; see [C7](rulebook.ipynb#C7).")
    9
    """
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return sum(1 for piece in text.split() if re.search(r"[^\W_]", piece))


def markdown_cells(filename: str) -> list[str]:
    cells = json.loads((LESSONS_DIR / filename).read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]


def test_print_every_pages_words() -> None:
    """The counts (shown with ``pytest -s``); every page of the course is counted."""
    pages = [(item.id, item.filename) for item in LESSONS] + [(extra.id, extra.filename) for extra in APPENDICES]
    print()
    for name, filename in pages:
        counts = [words(cell) for cell in markdown_cells(filename)]
        print(f"{name:<22} {sum(counts):>4} words, longest cell {max(counts):>3}")
        assert sum(counts) > 0, name


@pytest.mark.parametrize("item", LESSONS, ids=[item.id for item in LESSONS])
def test_a_main_lesson_keeps_to_its_budget(item: object) -> None:
    from scatlab.course.lessons import Lesson

    assert isinstance(item, Lesson)
    cells = [words(cell) for cell in markdown_cells(item.filename)]
    total, cap = (LESSON_3_WORDS, LESSON_3_CELL_WORDS) if item.id == "03-knocking" else (MAIN_LESSON_WORDS, CELL_WORDS)
    assert sum(cells) <= total, f"{item.id}: {sum(cells)} words, over {total}"
    assert max(cells) <= cap, f"{item.id}: a markdown cell of {max(cells)} words, over {cap}"


@pytest.mark.parametrize("extra", APPENDICES, ids=[extra.id for extra in APPENDICES])
def test_an_appendix_keeps_to_its_budget(extra: object) -> None:
    from scatlab.course.lessons import Appendix

    assert isinstance(extra, Appendix)
    cells = [words(cell) for cell in markdown_cells(extra.filename)]
    assert sum(cells) <= APPENDIX_WORDS, f"{extra.id}: {sum(cells)} words, over {APPENDIX_WORDS}"
    assert max(cells) <= CELL_WORDS, f"{extra.id}: a markdown cell of {max(cells)} words, over {CELL_WORDS}"


@pytest.mark.parametrize("item", LESSONS, ids=[item.id for item in LESSONS])
def test_a_main_lesson_has_no_study_talk(item: object) -> None:
    from scatlab.course.lessons import Lesson

    assert isinstance(item, Lesson)
    text = "\n".join(markdown_cells(item.filename)).lower()
    found = [term for term in NOT_IN_A_LESSON if term in text]
    assert found == [], f"{item.id} mentions {found}"


def test_the_budgets_catch_what_they_say() -> None:
    """The checks are not vacuous: the old lesson 3 (before issue 36, part 4) broke them."""
    old = "## Can you trust the number?\n" + "word " * 871 + "\nthe calibration study (seed 19, its README)"
    assert words(old) > LESSON_3_CELL_WORDS and words(old) > CELL_WORDS
    assert [term for term in NOT_IN_A_LESSON if term in old.lower()] == ["seed", "readme", "calibration study"]
