"""What each lesson states, checked here and not in the lesson: Voilà runs every cell of a
page for every learner, so a lesson holds no test code (issue 38). Each check names the
lesson and the rule it teaches."""

from __future__ import annotations

import json
from pathlib import Path

from scatlab import find_rules, hand_value
from scatlab.analysis import Observations, analyze
from scatlab.cards import parse_cards
from scatlab.course import LESSONS
from scatlab.course.data import knock_risk_by_value, tournament_in_steps
from scatlab.course.exercises import EXERCISES
from scatlab.course.scenarios import SCENARIOS, play_out, scenario
from scatlab.rules import RULEBOOK
from scatlab.skat import game_value

LESSON_DIR = Path(__file__).resolve().parents[1] / "lessons"


def test_no_lesson_runs_test_code() -> None:
    for path in sorted(LESSON_DIR.glob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "code":
                source = "".join(cell["source"])
                assert "assert " not in source, f"{path.name}: {source[:120]!r}"


def test_index_lists_lessons_one_to_eight() -> None:
    assert [lesson.number for lesson in LESSONS] == list(range(1, 9))


def test_lesson_1_C1_hand_values_and_its_exercise() -> None:
    assert hand_value("AH KH 4C") == 21 and hand_value("AH KH QH") == 31 and hand_value("2S 7H 9D") == 9
    q = EXERCISES["hand-value"].question(0)
    assert EXERCISES["hand-value"].check(q, q.solution).correct


def test_lesson_2_C5_three_outs_of_48_unseen_is_one_chance_in_16() -> None:
    a = analyze("AH KH 4C", "9S", knock=False)
    assert a.turn.draw is not None
    assert len(a.turn.draw.outs_31) == 3 and a.turn.draw.p_31 * 16 == 1


def test_lesson_3_C6_higher_hands_risk_less_exactly_against_one_opponent() -> None:
    low, mid, high = knock_risk_by_value(1, (16, 21, 30))
    assert high.expected_loss < mid.expected_loss < low.expected_loss
    assert low.exact and high.exact


def test_lesson_3_the_model_follows_what_the_opponents_did() -> None:
    start = analyze("AH KH QS", discard="2C").knock
    later = analyze("AH KH QS", discard="2C", observations=Observations((4,), (parse_cards("8S 2D"),))).knock
    assert start is not None and later is not None
    assert start.model == "uniform" and later.model == "adaptive"


def test_lesson_4_C7_the_knocker_lowest_loses_two_and_every_case_has_a_deal() -> None:
    assert play_out(scenario("knocker-lowest")) == (2, 0, 0)
    assert {s.code for s in SCENARIOS} >= {"C7", "C8", "C9", "C10", "V9"}


def test_lesson_5_V2_three_of_a_kind_is_thirty_and_a_half_under_gin() -> None:
    assert hand_value("7S 7H 7D", find_rules("gin")) * 2 == 61
    assert hand_value("7S 7H 7D", find_rules("quick")) == 30 and hand_value("7S 7H 7D") == 7


def test_lesson_6_a_tournament_in_steps_counts_every_game() -> None:
    last = list(tournament_in_steps(["tip", "random"], 8, seed=1))[-1]
    assert last.done == 8 and sum(last.wins) == 8


def test_lesson_6_lab_progress_bar_counts_the_default_games() -> None:
    from scatlab.course.widgets.lessonkit import TournamentLab

    assert TournamentLab().bar.max == 36


def test_lesson_7_skat_game_values() -> None:
    assert game_value("clubs", matadors=2).value == 36 and game_value("null", hand=True).value == 35


def test_lesson_8_starts_a_game_with_hints_and_a_stand_in_review_of_both_scales(tmp_path: Path) -> None:
    from scatlab.course.progress import Progress
    from scatlab.course.widgets.lessonkit import GameWithHints, ReviewAndReplay, stand_in_game

    game = GameWithHints(progress=Progress(tmp_path / "p.sqlite3"))
    assert game.table.session.model().hand_number == 1 and game.table.session.hints
    section = ReviewAndReplay(stand_in_game("quick", seed=16), learner=game)
    assert section.source == "stand-in" and len(section.worst) == 2
    assert [d.label for d in section.worst] == ["blunder", "mistake"]
    assert {d.scale for d in section.worst} == {"value", "lives"}
    assert [t.view() for t in section.tables] == [d.view for d in section.worst]


def test_rulebook_has_every_rule() -> None:
    assert len(RULEBOOK) == 33
