"""What a lesson page's kernel does before any page asks for it (the course app's pool of
warm kernels, :mod:`scatlab.app.kernel_pool`): import the modules the lessons' cells use
and build the tables they read first, so a page's cells only deal and draw.

>>> warm()  # imports and tables: about a second, once per kernel
>>> import sys
>>> "scatlab.course.widgets.steps" in sys.modules and "sympy" in sys.modules
True
"""

from __future__ import annotations

import importlib
import json

__all__ = ["WARM_MODULES", "WARM_RULES", "WARM_KNOCK_LINES", "warm"]

WARM_MODULES = (
    "ipywidgets",
    "scatlab.course.widgets.course",
    "scatlab.course.widgets.hand_explorer",
    "scatlab.course.widgets.knock_chart",
    "scatlab.course.widgets.scenario_table",
    "scatlab.course.widgets.house_rules",
    "scatlab.course.widgets.tournament_lab",
    "scatlab.course.widgets.game_with_hints",
    "scatlab.course.widgets.review_and_replay",
    "scatlab.course.widgets.how_we_know",
    "scatlab.course.widgets.skat_calculator",
    "scatlab.course.widgets.steps",
    "scatlab.course.widgets.exercises",
    "scatlab.course.widgets.practice",
    "scatlab.widgets.analyzer",
    "scatlab.widgets.table",
    "scatlab.analysis.explain.display",  # sympy: lesson 2's analyzer shows its derivation on load
)
"""The modules the lessons' cells import, directly or on their first call."""

WARM_RULES = ("classic", "quick")
"""The presets whose analysis tables the lessons read on load: the classic rules, and the
quick preset of lesson 8's stand-in game (14 MB per kernel; the page then plays and
reviews that game in a third of the time)."""

WARM_KNOCK_LINES = ((1, 0), (2, 0), (3, 0), (1, 1), (1, 2), (1, 3))
"""(opponents, turns) of the classic knock lines the lessons' knock chart, its steps and
lesson 3's "what moves the line" read first (lesson 3: one to three opponents just dealt, one
opponent turns in; lesson 6: one opponent, turns in)."""


def warm() -> None:
    """Import :data:`WARM_MODULES`, build the analysis tables of :data:`WARM_RULES`, the
    knock lines of :data:`WARM_KNOCK_LINES` and lesson 3's worked example, and play and review lesson 8's stand-in
    game (:func:`~scatlab.course.widgets.game_with_hints.stand_in_record`). Leaves no state a
    page could notice other than those caches (no widget, no name)."""
    for name in WARM_MODULES:
        importlib.import_module(name)
    from ..analysis import knock_line, tables_for
    from ..rules import PRESETS

    for preset in WARM_RULES:
        _ = tables_for(PRESETS[preset]).after_draw  # built on first access
    for opponents, turns in WARM_KNOCK_LINES:
        knock_line("classic", opponents, turns)
    from ..course.knocking import WORKED_HAND, WORKED_PILE, knock_sum

    knock_sum(WORKED_HAND, WORKED_PILE)  # lesson 3's worked example: its ranking and exact knock count
    # lesson 8's stand-in game, played and reviewed with no widget (a widget made here would
    # be sent to every page): its page then loads the record and finds the review's
    # positions ranked (about 0.25 s saved, 20 MB per kernel)
    from ..analysis import review_game
    from ..course.widgets.game_with_hints import stand_in_record

    review_game(json.loads(stand_in_record()))
