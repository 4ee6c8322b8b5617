"""What each lesson states, checked here and not in the lesson: Voilà runs every cell of a
page for every learner, so a lesson holds no test code (issue 38). Each check names the
lesson and the rule it teaches."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from scatlab import find_rules, hand_value
from scatlab.analysis import Observations, analyze
from scatlab.analysis.ranking import knock_line, knock_odds
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


def test_lesson_3_C6_C7_C8_the_worked_example_knocks_with_21_against_one_opponent_just_dealt() -> None:
    """The example's every number: 0.4% (an opponent's 31, C8), 9.6% (knocker lowest on
    their own, C7), 1 x 0.004 + 2 x 0.096 = 0.196 lives for the knock, 0.230 (about 23 in 100)
    for playing on, so knock."""
    one, two = knock_odds(find_rules("classic"), [0], 42)
    assert f"{float(one):.1%}" == "0.4%" and f"{float(two):.1%}" == "9.6%"
    assert round(float(one), 3) == 0.004 and round(float(two), 3) == 0.096
    assert 1 * Fraction("0.004") + 2 * Fraction("0.096") == Fraction("0.196")
    rows = {value: (knock, on) for value, knock, on in knock_line("classic", opponents=1, turns=0).rows}
    knock, on = rows[Fraction(21)]
    assert knock == one + 2 * two  # the lesson's sum is the chart's bar
    assert f"{float(knock):.3f}" == "0.196" and f"{float(on):.3f}" == "0.230" and round(float(on) * 100) == 23
    assert knock < on


def test_lesson_3_C6_the_knock_line_moves_down_with_opponents_and_up_with_turns() -> None:
    """20 against one opponent just dealt, 17 against two, 15 against three; 26 after one
    turn each against one opponent."""
    assert knock_line("classic", opponents=1, turns=0).line == 20
    assert knock_line("classic", opponents=2, turns=0).line == 17
    assert knock_line("classic", opponents=3, turns=0).line == 15
    assert knock_line("classic", opponents=1, turns=1).line == 26


@pytest.mark.parametrize("opponents, turns", [(1, 0), (2, 2), (3, 4)])
def test_lesson_3_C6_the_knock_charts_bars_stay_under_its_top_tick_and_below_the_legend(opponents: int,
                                                                                         turns: int) -> None:
    import re
    from scatlab.course.widgets.lessonkit import knock_chart_svg

    svg = knock_chart_svg(knock_line("classic", opponents=opponents, turns=turns))
    ticks = [float(y) for y in re.findall(r'<line x1="[\d.]+" x2="[\d.]+" y1="([\d.]+)"', svg)]
    bars = [float(y) for y in re.findall(r'<rect x="[\d.]+" y="([\d.]+)" width="[^"]+" height="[^"]+" '
                                         r'fill="#[0-9a-f]+" opacity="0.7"><title>', svg)]
    dots = [float(y) for y in re.findall(r'<circle cx="[\d.]+" cy="([\d.]+)" r="4" fill="#1a5fb4"/>', svg)][:-1]
    legend = max(float(y) for y in re.findall(r'<text x="[\d.]+" y="(1[0-9])" font-size="11">', svg))
    rows = [v for v, _, _ in knock_line("classic", opponents=opponents, turns=turns).rows if v >= 12]
    assert len(bars) == len(dots) == len(rows) and min(ticks) > legend + 8
    assert min(bars + dots) >= min(ticks) - 0.05  # nothing above the top tick
    assert "lives lost (expected)" in svg  # the y axis says its unit


def test_lesson_3_C7_the_rough_rule_is_within_a_point_of_the_chart_for_opponents_just_dealt() -> None:
    """Knock when P(lowest on your own) is below 1 in (2 x players) (1 in 6 with three
    players); for opponents just dealt its line is within a point of the chart's."""
    rules = find_rules("classic")
    for opponents in (1, 2, 3):
        chart = knock_line(rules, opponents=opponents, turns=0)
        rough = None
        for value, _knock, _on in reversed(chart.rows):
            _one, two = knock_odds(rules, [0] * opponents, int(value * 2))
            if two >= Fraction(1, 2 * (opponents + 1)):
                break
            rough = value
        assert chart.line is not None and rough is not None
        assert abs(rough - chart.line) <= 1, (opponents, rough, chart.line)


def test_lesson_3_C13_on_the_county_losing_two_is_losing_one_so_the_line_moves_down() -> None:
    """Out either way (C13): a knock then costs P(lose one) + P(lose two), and the lowest value
    from which a knock costs less than playing on is lower than the chart's line."""
    rules = find_rules("classic")
    chart = knock_line(rules, opponents=1, turns=0)
    county = None
    for value, _knock, on in reversed(chart.rows):
        one, two = knock_odds(rules, [0], int(value * 2))
        if one + two >= on:
            break
        county = value
    assert chart.line is not None and county is not None and county < chart.line


def test_lesson_3_links_its_optional_appendix_and_states_no_study_figures() -> None:
    prose = "".join("".join(c["source"]) for c in json.loads((LESSON_DIR / "03-knocking.ipynb").read_text(
        encoding="utf-8"))["cells"] if c["cell_type"] == "markdown")
    assert "](appendix-how-we-know.ipynb)" in prose
    for stated in ("0.4%", "9.6%", "0.196", "0.230", "23 times in 100", "from 20 up", "17 against two",
                   "15 against three", "from 20 to 26", "1 in 6"):
        assert stated in prose, stated


def test_appendix_how_we_know_the_adaptive_model_is_close_and_the_uniform_too_rosy_for_tip() -> None:
    """What the appendix reads from the diagram's legend: the adaptive model's bias is under a
    point for both kinds of knocker; the uniform model's is negative (too rosy) for tip."""
    from scatlab.course.widgets.lessonkit import calibration_svg

    legend = dict(re.findall(r"(\w+, \w+): [\d,]+ knocks, bias ([+-][\d.]+) points", calibration_svg()))
    assert set(legend) == {"expert, uniform", "expert, adaptive", "tip, uniform", "tip, adaptive"}
    assert abs(float(legend["expert, adaptive"])) < 1 and abs(float(legend["tip, adaptive"])) < 1
    assert float(legend["tip, uniform"]) < -1


def test_appendix_how_we_know_the_model_follows_what_the_opponents_did() -> None:
    start = analyze("AH KH QS", discard="2C").knock
    later = analyze("AH KH QS", discard="2C", observations=Observations((4,), (parse_cards("8S 2D"),))).knock
    assert start is not None and later is not None
    assert start.model == "uniform" and later.model == "adaptive"


def test_lesson_4_C7_the_knocker_lowest_loses_two_and_every_case_has_a_deal() -> None:
    assert play_out(scenario("knocker-lowest")) == (2, 0, 0)
    assert {s.code for s in SCENARIOS} >= {"C7", "C8", "C9", "C10", "V9"}


def test_lesson_4_C7_a_deals_title_names_the_situation_not_who_pays() -> None:
    for s in SCENARIOS:
        words = s.title.lower()
        assert not any(w in words for w in ("lowest", "lose", "tie", "safe", "pays", "after")), s.title
    assert len({s.title for s in SCENARIOS}) == len(SCENARIOS)


@pytest.mark.parametrize("key", ["lowest", "declare"])
def test_lesson_4_C7_C8_the_rule_that_settles_a_deal_shows_only_once_its_hand_has_ended(key: str) -> None:
    """The explanation names who loses: before the learner plays it would give the result
    away, so it shows once the hand has ended (a showdown, or a 31 shown), and again hides
    for a new deal."""
    from scatlab.course.widgets.lessonkit import ScenarioTable

    st = ScenarioTable(key, pace=0)
    s = scenario(key)
    assert "What the rules say" not in st.explanation.value and "when the hand ends" in st.explanation.value
    for move in s.moves:
        if move.startswith("card "):
            st.table.handle({"type": "card", "card": move.split()[1]})
        else:
            st.table.handle({"type": move})
    assert "What the rules say" in st.explanation.value and s.code in st.explanation.value
    st.again.click()
    assert "What the rules say" not in st.explanation.value


def test_lesson_4_C10_a_hand_played_another_way_is_not_explained_by_the_deals_rule() -> None:
    """Throwing the Q♥ instead of the 4♣ never makes 31: the page must not explain an
    undeclared 31 (C10), even though the lives lost happen to be the planned ones."""
    from scatlab.course.scenarios import first_hand_losses, followed
    from scatlab.course.widgets.lessonkit import ScenarioTable

    st = ScenarioTable("undeclared", pace=0)
    for message in ({"type": "stock"}, {"type": "card", "card": "QH"}, {"type": "knock"}):
        st.table.handle(message)
    assert first_hand_losses(st.table.session.state) == scenario("undeclared").expect  # same losses, other hand
    assert not followed(scenario("undeclared"), st.table.session.record())
    assert "What the rules say" not in st.explanation.value and "went another way" in st.explanation.value
    st.again.click()
    assert "when the hand ends" in st.explanation.value


def test_lesson_4_new_game_deals_the_same_deal_again_so_its_rule_still_applies() -> None:
    """The table's New game on a lesson 4 deal deals that deal again (a random game would
    sit under instructions and a rule about other cards)."""
    from scatlab.course.widgets.lessonkit import ScenarioTable

    st = ScenarioTable("others-tied", pace=0)
    dealt = st.table.session.state.hands
    st.table.handle({"type": "knock"})
    assert "What the rules say" in st.explanation.value
    st.table.handle({"type": "new"})
    assert st.table.session.state.hands == dealt and st.table.session.state.hand_number == 1
    assert "What the rules say" not in st.explanation.value and st.picker.value == "others-tied"


def test_lesson_4_C10_an_undeclared_31_shows_as_the_30_it_counts() -> None:
    """Passing on a 31 under manual declaring: the table shows the hand as 30 (C10), on the
    next turn and at the showdown, as the result panel scores it."""
    from scatlab.course.widgets.lessonkit import ScenarioTable

    st = ScenarioTable("undeclared", pace=0)
    t = st.table
    t.handle({"type": "stock"})
    t.handle({"type": "card", "card": "4C"})
    assert t.surface.state["hand_value"] == "31"  # declaring is still offered
    t.handle({"type": "action", "action": "pass"})
    assert t.surface.state["hand_value"] == "30"
    t.handle({"type": "knock"})
    me = t.surface.state["seats"][0]
    assert t.surface.state["showdown"] and me["value"] == "30" and t.surface.state["hand_value"] == "30"


def test_lesson_5_V2_three_of_a_kind_is_thirty_and_a_half_under_gin() -> None:
    assert hand_value("7S 7H 7D", find_rules("gin")) * 2 == 61
    assert hand_value("7S 7H 7D", find_rules("quick")) == 30 and hand_value("7S 7H 7D") == 7
    from scatlab.course.data import preset_rows

    cells = {name: row for name, _codes, row in preset_rows()}
    assert "30½" in cells["gin"] and not any("30.5" in c or "61/2" in c for row in cells.values() for c in row)


def test_lesson_6_a_tournament_in_steps_counts_every_game() -> None:
    last = list(tournament_in_steps(["tip", "random"], 8, seed=1))[-1]
    assert last.done == 8 and sum(last.wins) == 8


def test_lesson_6_lab_progress_bar_counts_the_default_games() -> None:
    from scatlab.course.widgets.lessonkit import TournamentLab

    assert TournamentLab().bar.max == 36


def test_appendix_skat_game_values() -> None:
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


def test_lesson_2_steps_C5_the_sum_for_AH_KH_4C_with_9S_on_the_pile() -> None:
    from fractions import Fraction

    from scatlab.analysis.knowledge import Knowledge
    from scatlab.analysis.onestep import analyze_turn

    turn = analyze_turn(Knowledge.of("AH KH 4C", discard="9S", opponents=1))
    draw = turn.draw
    assert draw is not None and turn.take is not None
    counts = {v: p * draw.unseen for v, p in draw.distribution.items()}
    assert counts == {31: 3, 30: 1, 29: 1, 28: 1, 27: 1, 26: 1, 25: 1, 24: 1, 23: 1, 21: 37}
    assert 3 * 31 + 30 + 29 + 28 + 27 + 26 + 25 + 24 + 23 + 37 * 21 == 1082
    assert draw.expected_value == Fraction(1082, 48) and round(float(draw.expected_value), 1) == 22.5
    assert draw.p_31 == Fraction(3, 48) and round(float(draw.p_31) * 100) == 6  # "about 6%", 2% an out
    assert turn.take.best.value == 21  # taking the 9S leaves A-K of hearts at 21


def test_lesson_6_step_6_3_C6_the_knock_line_climbs_20_26_27_29_against_one_opponent() -> None:
    from scatlab.analysis.ranking import knock_line

    assert [knock_line("classic", 1, turns).line for turns in (0, 1, 2, 3)] == [20, 26, 27, 29]
    prose = "".join("".join(c["source"]) for c in json.loads((LESSON_DIR / "06-strategy-lab.ipynb").read_text(
        encoding="utf-8"))["cells"] if c["cell_type"] == "markdown")
    assert "20 at the start of a hand, 26 after one turn each, 27 after two and 29 after three" in prose


def test_lesson_3_step_3_2_C6_the_lines_just_dealt_are_20_17_15() -> None:
    from scatlab.analysis.ranking import knock_line

    assert [knock_line("classic", n, 0).line for n in (1, 2, 3)] == [20, 17, 15]
    prose = "".join("".join(c["source"]) for c in json.loads((LESSON_DIR / "03-knocking.ipynb").read_text(
        encoding="utf-8"))["cells"] if c["cell_type"] == "markdown")
    assert "the line is 20 against one opponent, 17 against two, 15 against three" in prose
