"""The course's content: the lessons' catalogue, steps, exercises, practice puzzles,
scenarios, the practice rating, the course's data, the Skat calculator, the learner's
progress store and the lessons' widgets.

Layer 6, above the generic widgets (:mod:`scatlab.widgets`) and below the app that serves
it (:mod:`scatlab.app`) and the classroom (:mod:`scatlab.classroom`). It knows nothing of
either: the progress store sends a learner's events wherever an installed sink says
(:mod:`scatlab.course.progress`; the classroom registers one). ``import scatlab.course`` is
light; the course's ipywidgets live in :mod:`scatlab.course.widgets`.
"""

from __future__ import annotations

from .lessons import APPENDICES, INDEX, LESSONS, Appendix, Lesson, appendix, lesson

__all__ = ["INDEX", "LESSONS", "Lesson", "lesson", "APPENDICES", "Appendix", "appendix"]
