"""What a lesson page's kernel does before any page asks for it (the course app's pool of
warm kernels, :mod:`scatlab.app.kernel_pool`): import the modules the lessons' cells use
and build the tables and figures they show first, so a page's cells only deal and draw.

Only what some page shows when it opens: every kernel of the pool runs this, and a page
that comes while a replacement warms shares the machine with it. What a page shows only
once it is used waits for that use: sympy (the analyzer's derivation in full view; no lesson
shows it), the master and the expert (lesson 8's "Against" choice, the tournament lab), the
review of any seat but the stand-in's.

>>> warm()  # imports, tables and figures: about a second, once per kernel
>>> import sys
>>> "scatlab.course.widgets.steps" in sys.modules
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
)
"""The modules the lessons' cells import, directly or on their first call. Not
:mod:`scatlab.analysis.explain.display` (sympy, 0.2-0.3 s and 30 MB): lesson 2's analyzer
shows the learner's working, not the derivation."""

WARM_RULES = ("classic", "quick")
"""The presets whose analysis tables the lessons read on load: the classic rules, and the
quick preset of lesson 8's stand-in game (14 MB per kernel; the page then plays and
reviews that game in a third of the time)."""

WARM_KNOCK_LINES = ((1, 0), (2, 0), (3, 0), (1, 1), (1, 2), (1, 3))
"""(opponents, turns) of the classic knock lines the lessons' knock chart, its steps and
lesson 3's "what moves the line" read first (lesson 3: one to three opponents just dealt, one
opponent turns in; lesson 6: one opponent, turns in; lesson 8's hints: two opponents)."""


def warm() -> None:
    """Import :data:`WARM_MODULES`, load the installed event sinks (every page's first cell
    opens the learner's progress), build the analysis tables of :data:`WARM_RULES`, the knock
    lines of :data:`WARM_KNOCK_LINES` and lesson 3's worked example, work out the hints of
    lesson 8's first deal (:data:`!scatlab.course.widgets.game_with_hints.FIRST_SEED`), and
    play lesson 8's stand-in game (:func:`~scatlab.course.widgets.game_with_hints.stand_in_record`)
    and review the seat the page reviews (:data:`!scatlab.course.widgets.game_with_hints.STAND_IN_SEAT`).
    Leaves no state a page could notice other than those caches (no widget, no name)."""
    for name in WARM_MODULES:
        importlib.import_module(name)
    from ..course.events import active_sinks

    active_sinks()  # the entry points are read once per process (about 15 ms)
    from ..analysis import knock_line, tables_for
    from ..rules import PRESETS

    for preset in WARM_RULES:
        _ = tables_for(PRESETS[preset]).after_draw  # built on first access
    for opponents, turns in WARM_KNOCK_LINES:
        knock_line("classic", opponents, turns)
    from ..course.knocking import WORKED_HAND, WORKED_PILE, knock_sum

    knock_sum(WORKED_HAND, WORKED_PILE)  # lesson 3's worked example: its ranking and exact knock count
    # lesson 8: its first deal's hints (the page's table with the same rules, opponents and
    # seed finds the position ranked and the classic rules' opponent filter built), and its
    # stand-in game, played and reviewed with no widget (a widget made here would be sent to
    # every page): its page then loads the record and finds the review's positions ranked.
    # Only the stand-in's seat: the page reviews no other, and the other two seats took two
    # thirds of the time.
    from ..analysis import review_game
    from ..course.widgets.game_with_hints import FIRST_SEED, STAND_IN_SEAT, stand_in_record
    from ..session import TableSession

    TableSession("classic", ("tip", "tip"), seed=FIRST_SEED).display()
    review_game(json.loads(stand_in_record()), player=STAND_IN_SEAT)
