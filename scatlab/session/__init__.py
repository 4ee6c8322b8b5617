"""The card table's session, as plain Python (layer 4: above the players, below the widgets).

:class:`TableSession` (:mod:`!scatlab.session.table`, the game's control) plays a whole
game against computer players for one learner's seat; its presenter
(:mod:`!scatlab.session.display`) describes what the table shows as a plain
:class:`TableDisplay`; :func:`learner_words` rewords the engine's messages for that seat
("you", suit symbols). Nothing here imports a
widget library: the :class:`scatlab.widgets.Table` widget draws the display and forwards
clicks, and tests drive the session directly.

>>> from scatlab.session import TableSession
>>> s = TableSession("classic", opponents=("tip", "tip"), seed=7)
>>> s.display().hand_number, len(s.display().hand)
(1, 3)
"""

from __future__ import annotations

from ..words import YOU, card_words, chance_words, learner_words
from .display import (
    ESTIMATE,
    ChanceRow,
    DeeperDisplay,
    DrawChart,
    HintsDisplay,
    RuleDisplay,
    SeatDisplay,
    ShowdownDisplay,
    TableDisplay,
)
from .table import MAX_SEATS, MIN_SEATS, ComputerMove, TableSession

__all__ = [
    "TableSession",
    "TableDisplay",
    "SeatDisplay",
    "HintsDisplay",
    "DeeperDisplay",
    "ChanceRow",
    "DrawChart",
    "ShowdownDisplay",
    "RuleDisplay",
    "ComputerMove",
    "ESTIMATE",
    "MIN_SEATS",
    "MAX_SEATS",
    "learner_words",
    "card_words",
    "chance_words",
    "YOU",
]
