"""The lessons' widgets under their old common name: each now lives in its lesson's module
(:mod:`.hand_explorer`, :mod:`.knock_chart`, :mod:`.scenario_table`, :mod:`.house_rules`,
:mod:`.tournament_lab`, :mod:`.game_with_hints`, :mod:`.review_and_replay`,
:mod:`.how_we_know`, :mod:`.skat_calculator`). Kept so that what imports it still finds them
(the kernels' warm-up, :mod:`scatlab.course.warmup`, imports this module and
:func:`~.game_with_hints.stand_in_record`); new code imports from the lesson's module.
"""

from __future__ import annotations

from .game_with_hints import OPPONENT_CHOICES, GameWithHints, play_to_the_end, stand_in_game, stand_in_record
from .hand_explorer import HandExplorer
from .house_rules import TryRules, preset_table
from .how_we_know import CALIBRATION_FIGURE, OpponentModelExplorer, calibration_figure, calibration_svg
from .knock_chart import (CLIMB_WHENS, KnockChart, knock_caption, knock_chart_svg, knock_table_html, line_climb,
                          line_climb_html, line_facts, line_facts_html, worked_example, worked_example_html)
from .review_and_replay import ReviewAndReplay, costliest_heading, costliest_html
from .scenario_table import ScenarioTable
from .skat_calculator import SkatCalculator
from .tournament_lab import TournamentLab, win_rate_svg

__all__ = ["HandExplorer", "knock_chart_svg", "knock_table_html", "knock_caption", "KnockChart", "worked_example",
           "worked_example_html", "line_facts", "line_facts_html", "line_climb", "line_climb_html", "CLIMB_WHENS",
           "preset_table", "TournamentLab", "SkatCalculator", "win_rate_svg", "ScenarioTable", "TryRules",
           "GameWithHints", "OPPONENT_CHOICES", "play_to_the_end", "stand_in_record", "stand_in_game",
           "costliest_html", "costliest_heading", "ReviewAndReplay", "OpponentModelExplorer", "CALIBRATION_FIGURE",
           "calibration_svg", "calibration_figure"]
