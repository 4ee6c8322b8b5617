"""The course's own widgets (layer 6, on top of the generic widgets): the lesson pages'
header, footer and index (:mod:`.course`), exercises with instant feedback
(:mod:`.exercises`) and the lessons' interactive pieces (:mod:`.lessonkit`).

Importing this package loads ipywidgets; ``import scatlab.course`` does not.
"""

from __future__ import annotations

__all__: list[str] = []
