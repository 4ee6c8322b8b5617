"""The course: the lessons' catalogue, exercises, the learner's progress and the app.

Layer: top (beside the CLI and the widgets). ``import scatlab.course`` is light; the
ipywidgets wrappers live in :mod:`scatlab.widgets.exercises` and Voilà is only started by
:mod:`scatlab.course.app`.
"""

from __future__ import annotations

from .lessons import LESSONS, Lesson, lesson

__all__ = ["LESSONS", "Lesson", "lesson"]
