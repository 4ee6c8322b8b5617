"""The course: the lessons' catalogue, exercises, the learner's progress and the app.

Layer 6, above the generic widgets and below the CLI. ``import scatlab.course`` is light;
the course's ipywidgets live in :mod:`scatlab.course.widgets` and Voilà is only started by
:mod:`scatlab.course.app`.
"""

from __future__ import annotations

from .lessons import APPENDICES, LESSONS, Appendix, Lesson, appendix, lesson

__all__ = ["LESSONS", "Lesson", "lesson", "APPENDICES", "Appendix", "appendix"]
