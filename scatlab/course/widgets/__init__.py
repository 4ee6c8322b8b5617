"""The course's own widgets (layer 6, on top of the generic widgets): the lesson pages'
header, footer and index (:mod:`.course`), exercises with instant feedback
(:mod:`.exercises`) and the lessons' interactive pieces, a module per lesson or theme:
:mod:`.hand_explorer` (lessons 1 and 5), :mod:`.knock_chart` (lessons 3 and 6),
:mod:`.scenario_table` (lesson 4), :mod:`.house_rules` (lesson 5), :mod:`.tournament_lab`
(lesson 6), :mod:`.game_with_hints` and :mod:`.review_and_replay` (lesson 8),
:mod:`.how_we_know` and :mod:`.skat_calculator` (the appendices).

Importing this package loads ipywidgets; ``import scatlab.course`` does not.
"""

from __future__ import annotations

__all__: list[str] = []
