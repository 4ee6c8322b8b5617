"""The review widget, ready to use (its one job: wiring the review to the card table):
:class:`ReviewWidget` (step through a reviewed game, decision by decision) whose **Try it
yourself** opens a card table at the chosen decision (:func:`try_table`). The game review
it shows is computed by :mod:`!scatlab.analysis.explain.review`.

The widget's code is in :mod:`!scatlab.widgets.review_steps` (the reviewed game's decisions
as steps: their pages, the anywidget that shows them, the widget), which never imports the card
table, and :func:`try_table` in :mod:`!scatlab.widgets.table`, which imports the review
widget (its "Review this game"): the two widgets open each other, and this module, which
imports both, is where the review is given the table. Every name the review widget had is
importable from here, as before.

>>> from scatlab.rules import GameRecord, play_random_game
>>> record = GameRecord.from_state(play_random_game("classic", 3, seed=1))
>>> widget = ReviewWidget(record, player=0)
>>> from dataclasses import replace
>>> view = widget.try_it(widget.steps.decisions[3]).view()    # the same position, at a table of tips
>>> view == replace(widget.steps.decisions[3].view, seats=("you", "tip", "tip"))
True
"""

from __future__ import annotations

from .review_steps import (
    CLASS_COLOURS,
    ReviewSteps,
    ReviewSurface,
    ReviewWidget,
    TableAt,
    costliest,
    decision_html,
    record_before,
)
from .table import try_table

__all__ = [
    "CLASS_COLOURS",
    "ReviewSteps",
    "ReviewSurface",
    "ReviewWidget",
    "TableAt",
    "costliest",
    "decision_html",
    "record_before",
    "try_table",
]

ReviewWidget.default_table_at = try_table
