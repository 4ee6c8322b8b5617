"""What each lesson states, checked here and not in the lesson: Voilà runs every cell of a
page for every learner, so a lesson holds no test code (issue 38). Each check names the
lesson and the rule it teaches."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from scatlab import find_rules, hand_value
from scatlab.analysis import Observations, analyze
from scatlab.analysis.engine.ranking import Position, knock_line, rank
from scatlab.cards import parse_cards
from scatlab.course import LESSONS
from scatlab.course.data import knock_risk_by_value, tournament_in_steps
from scatlab.course.exercises import EXERCISES, show_value
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


def _lesson_3_prose() -> str:
    return "".join("".join(c["source"]) for c in json.loads((LESSON_DIR / "03-knocking.ipynb").read_text(
        encoding="utf-8"))["cells"] if c["cell_type"] == "markdown")


def test_lesson_3_C6_C7_C8_the_worked_example_draws_with_21_and_the_9S_on_the_pile() -> None:
    """The example's every number, from the one engine (:func:`rank`): 0.3% (an opponent's
    31, C8), 16.8% (knocker lowest on their own, C7), 1 x 0.003 + 2 x 0.168 = about 0.34 lives
    for the knock, far above the nearly-safe 0.15; the advice draws; knocking +3.1% to the
    chance of winning the game, playing on +3.9%."""
    from scatlab.analysis.counting.knowledge import Knowledge

    ranking = rank(Position.of(Knowledge.of("AH KH 4C", "9S", opponents=1)))
    knock = ranking.move("knock")
    assert knock.p_one is not None and knock.p_two is not None and knock.lives is not None
    assert f"{float(knock.p_one):.1%}" == "0.3%" and f"{float(knock.p_two):.1%}" == "16.8%"
    assert f"{float(knock.lives):.2f}" == "0.34" and round(1 * 0.003 + 2 * 0.168, 2) == 0.34
    assert knock_line("classic", 1, 0).safe == Fraction(15, 100) and knock.lives > Fraction(15, 100)
    assert ranking.best.name == "draw"
    assert knock.win is not None and ranking.play_on_win is not None
    assert f"{float(knock.win):.1%}" == "3.1%" and f"{float(ranking.play_on_win):.1%}" == "3.9%"
    prose = _lesson_3_prose()
    for stated in ("A♥ K♥ 4♣, worth 21", "the 9♠ on the pile", "0.3%", "16.8%", "1 × 0.003 + 2 × 0.168 ≈ 0.34 lives",
                   "far above 0.15", "So **draw**", "about 3.1%, playing on by about 3.9%"):
        assert stated in prose, stated


def test_lesson_3_one_knock_figure_for_the_worked_examples_position_everywhere() -> None:
    """Lesson 3's example, the appendix's explorer (the same hand and pile), step 3.1's
    figures and ``scatlab analyze AH KH 4C --discard 9S`` read one knock figure: the ranking's."""
    import subprocess
    import sys

    from scatlab.analysis.counting.knowledge import Knowledge
    from scatlab.course.exercises import EXERCISES
    from scatlab.course.widgets.lessonkit import OpponentModelExplorer

    knock = rank(Position.of(Knowledge.of("AH KH 4C", "9S", opponents=1))).move("knock")
    assert knock.p_one is not None and knock.p_two is not None and knock.lives is not None
    explorer = OpponentModelExplorer("AH KH 4C", discard="9S")
    assert explorer.risks["adaptive"].p_lose_one == knock.p_one and explorer.risks["adaptive"].p_lose_two == knock.p_two
    assert f"{float(knock.lives):.3f}" in explorer.result.value
    appendix = "".join("".join(c["source"]) for c in json.loads((LESSON_DIR / "appendix-how-we-know.ipynb").read_text(
        encoding="utf-8"))["cells"])
    assert 'OpponentModelExplorer("AH KH 4C", discard="9S")' in appendix
    out = subprocess.run([sys.executable, "-m", "scatlab", "analyze", "AH", "KH", "4C", "--discard", "9S"],
                         capture_output=True, text=True, check=True).stdout
    assert f"P(lose one) = {knock.p_one}" in out and f"P(lose two) = {knock.p_two}" in out
    assert f"knock ({float(knock.lives):.3f} lives expected" in out
    for seed in range(6):  # step 3.1 shows the ranking's chances for its own hand and pile
        q = EXERCISES["knock-cost"].question(seed)
        hand, up, one, two = q.position[:4]
        move = rank(Position.of(Knowledge.of(hand, up, opponents=1))).move("knock")
        assert (Fraction(one), Fraction(two)) == (move.p_one, move.p_two)


def test_lesson_3_C6_the_knock_line_moves_down_with_opponents_and_up_with_turns() -> None:
    """23 against one opponent just dealt, 20 against two, 19 against three; 26 after one
    turn each against one opponent, 27 after two."""
    assert [knock_line("classic", n, 0).line for n in (1, 2, 3)] == [23, 20, 19]
    assert [knock_line("classic", 1, t).line for t in (1, 2)] == [26, 27]


def _chart(opponents: int, turns: int) -> tuple[Any, Any]:
    import xml.etree.ElementTree as ET
    from scatlab.course.widgets.lessonkit import knock_chart_svg

    line = knock_line("classic", opponents=opponents, turns=turns)
    return line, ET.fromstring(knock_chart_svg(line))  # the chart is well-formed XML


_SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("opponents, turns", [(1, 0), (2, 2), (3, 4)])
def test_lesson_3_C6_the_knock_charts_bars_stay_under_its_top_tick_and_below_the_legend(opponents: int,
                                                                                         turns: int) -> None:
    line, svg = _chart(opponents, turns)
    ticks = [float(e.get("y1", 0)) for e in svg.iter(f"{_SVG}line") if e.get("stroke") == "#e0e0e0"]
    bars = [float(e.get("y", 0)) for e in svg.iter(f"{_SVG}rect") if e.get("class") == "scat-kc-bar"]
    dots = [float(e.get("cy", 0)) for e in svg.iter(f"{_SVG}circle") if e.get("class") == "scat-kc-dot"]
    legend = next(e for e in svg.iter(f"{_SVG}g") if e.get("class") == "scat-kc-legend")
    legend_bottom = max(float(t.get("y", 0)) for t in legend.iter(f"{_SVG}text"))
    assert len(bars) == len(dots) == len(line.rows) and min(ticks) > legend_bottom + 8
    assert min(bars + dots) >= min(ticks) - 0.05  # nothing above the top tick
    text = "".join(svg.itertext())
    assert "lives lost, on average" in text  # the y axis says its unit, in the lessons' words
    assert f"nearly safe: {float(line.safe):.3f}" in text  # the limit the lesson teaches, drawn


@pytest.mark.parametrize("opponents, turns", [(1, 0), (3, 4)])
def test_lesson_3_C6_the_knock_chart_fits_a_phone_with_every_hand_value_labelled(opponents: int, turns: int) -> None:
    """Drawn for 390 px: a view box at most 420 wide that scales to the page (no minimum width,
    no sideways scroll), text at least 12 units high (about 10 px or more on a phone), every
    hand value labelled under its bar, and nothing drawn past the view box."""
    line, svg = _chart(opponents, turns)
    box = [float(v) for v in svg.get("viewBox", "").split()]
    width = box[2]
    style = svg.get("style", "")
    assert width <= 420 and "width:100%" in style and "min-width" not in style
    sizes = [float(e.get("font-size", 0)) for e in svg.iter() if e.get("font-size")]
    assert sizes and min(sizes) >= 12
    labels = [t.text for t in svg.iter(f"{_SVG}text") if t.get("class") == "scat-kc-value"]
    assert labels == [show_value(Fraction(row[0])) for row in line.rows]
    for e in svg.iter():
        for attr in ("x", "x1", "x2", "cx"):
            if e.get(attr) is not None:
                assert 0 <= float(e.get(attr, 0)) <= width, (e.tag, attr, e.get(attr))


def test_lesson_3_C6_every_bar_of_the_knock_chart_tells_its_numbers_without_hover() -> None:
    """A phone has no hover: each value's column is focusable (a tap, a click or Tab) and has a
    box of its figures in lives with two decimals; its title keeps the exact figures; the
    table under the chart has the same figures, always readable."""
    from scatlab.course.widgets.lessonkit import knock_table_html

    line, svg = _chart(1, 0)
    columns = [g for g in svg.iter(f"{_SVG}g") if g.get("class") == "scat-kc-col"]
    readouts = {g.get("data-i"): " ".join(t.text or "" for t in g.iter(f"{_SVG}text"))
                for g in svg.iter(f"{_SVG}g") if g.get("class") == "scat-kc-readout"}
    table = knock_table_html(line)
    assert len(columns) == len(line.rows) == len(readouts)
    for g, (value, knock, _kw, on, _ow, knocks) in zip(columns, line.rows):
        assert g.get("tabindex") == "0"
        title = g.findtext(f"{_SVG}title") or ""
        advice = "knock" if knocks else "play on"
        assert title == (f"worth {show_value(value)}: a knock costs {float(knock):.2f} lives on average "
                         f"(exactly {knock}), playing on costs {float(on):.2f} lives (exactly {on}); "
                         f"the advice: {advice}")
        assert readouts[g.get("data-i")] == (f"worth {show_value(value)} a knock costs {float(knock):.2f} lives "
                                             f"playing on costs {float(on):.2f} lives the advice: {advice}")
        row = re.search(rf"<tr data-value='{show_value(value)}'>(.*?)</tr>", table)
        assert row is not None
        cells = [re.sub("<[^>]+>", "", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row.group(1))]
        assert cells == [show_value(value), f"{float(knock):.2f} lives", f"{float(on):.2f} lives", advice]
    assert table.startswith("<details") and "A knock costs" in table and "Playing on costs" in table


def test_lesson_3_the_knock_charts_controls_and_caption_speak_plainly() -> None:
    """The second row of toggles picks when (the turns the opponents have played), so it says
    "When"; the caption asks for a tap, not for a hover only a computer has."""
    from scatlab.course.widgets.lessonkit import KnockChart

    chart = KnockChart(defer=False)
    assert (chart.opponents.description, chart.turns.description) == ("Against", "When")
    assert "hover" not in chart.caption.value.lower() and "tap a bar" in chart.caption.value.lower()
    assert "knocks from <b>23</b> up" in chart.caption.value
    assert "scatlab-chart-scroll" not in chart.chart.value and "Swipe" not in chart.chart.value
    assert chart.table.value.startswith("<details") and chart.children[-1] is chart.table
    chart.opponents.value = 2
    assert "knocks from <b>20</b> up" in chart.caption.value and "against 2 opponents" in chart.chart.value


def test_lesson_3_C6_the_line_is_where_a_knock_gets_nearly_safe() -> None:
    """The lesson's rule: the advice knocks where a knock costs at most 0.3 / players lives
    (0.15 against one, 0.1 against two), and the chart's green bars are those values."""
    assert [knock_line("classic", n, 0).safe for n in (1, 2, 3)] == [Fraction(3, 20), Fraction(1, 10), Fraction(3, 40)]
    for n in (1, 2, 3):  # every setting the chart offers: green exactly where the bar is under the line
        for t in range(5):
            line = knock_line("classic", n, t)
            for value, knock, _kw, _on, _ow, knocks in line.rows:
                assert knocks == (knock <= line.safe), (n, t, value)
                if line.line is not None:
                    assert knocks == (value >= line.line), (n, t, value)
    prose = _lesson_3_prose()
    assert "0.3 ÷ (number of players) lives, 0.15 against one opponent, 0.1 against two" in prose


def test_lesson_3_C6_the_advice_also_knocks_when_a_knock_clearly_beats_playing_on() -> None:
    """The lesson's second rule is the engine's margin: 3 points of the chance of winning
    against one opponent, 6 against two (KnockValuation.margin, scaled by opponents / 2)."""
    from scatlab.analysis.counting.knowledge import Knowledge
    from scatlab.analysis.engine.ranking import Position, rank

    margins = [rank(Position.of(Knowledge.of("AH KH 4C", discard="9S", opponents=n))).margin for n in (1, 2)]
    assert margins == [Fraction(3, 100), Fraction(6, 100)]
    assert "by 3 points or more against one opponent, 6 against two" in _lesson_3_prose()


def test_lesson_3_C13_on_the_county_the_nearly_safe_limit_drops_to_0_6() -> None:
    """On the county (C13) one more loss is out: the limit is 0.6 of the usual (with equal
    lives the line stays put)."""
    from scatlab.analysis.model.valuation import KnockValuation, Standing

    rules = find_rules("classic")
    valuation = KnockValuation()
    county = Standing(rules, 0, 2, (1,), (0, 3), (0, 0), (False, False))
    fresh = Standing(rules, 0, 2, (1,), (3, 3), (0, 0), (False, False))
    assert abs(valuation.limit(county) - 0.6 * valuation.limit(fresh)) < 1e-12
    assert len({knock_line(rules, 1, 0, lives).line for lives in (1, 2, 3)}) == 1
    assert "drops to 0.6 of the usual" in _lesson_3_prose()


def test_lesson_3_links_its_optional_appendix_and_states_no_study_figures() -> None:
    prose = _lesson_3_prose()
    assert "](appendix-how-we-know.ipynb)" in prose
    for stated in ("from 23 up", "23 against one opponent, 20 against two, 19 against three",
                   "from 23 to 26 after one turn each, and 27 after two"):
        assert stated in prose, stated
    assert "±" not in prose and "seed" not in prose.lower()


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
    assert [d.label for d in section.worst] == ["blunder", "blunder"]
    assert {d.scale for d in section.worst} == {"value", "win"}
    assert [t.view() for t in section.tables] == [d.view for d in section.worst]


def test_rulebook_has_every_rule() -> None:
    assert len(RULEBOOK) == 33


def test_lesson_2_steps_C5_the_sum_for_AH_KH_4C_with_9S_on_the_pile() -> None:
    from fractions import Fraction

    from scatlab.analysis.counting.knowledge import Knowledge
    from scatlab.analysis.counting.onestep import analyze_turn

    turn = analyze_turn(Knowledge.of("AH KH 4C", discard="9S", opponents=1))
    draw = turn.draw
    assert draw is not None and turn.take is not None
    counts = {v: p * draw.unseen for v, p in draw.distribution.items()}
    assert counts == {31: 3, 30: 1, 29: 1, 28: 1, 27: 1, 26: 1, 25: 1, 24: 1, 23: 1, 21: 37}
    assert 3 * 31 + 30 + 29 + 28 + 27 + 26 + 25 + 24 + 23 + 37 * 21 == 1082
    assert draw.expected_value == Fraction(1082, 48) and round(float(draw.expected_value), 1) == 22.5
    assert draw.p_31 == Fraction(3, 48) and round(float(draw.p_31) * 100) == 6  # "about 6%", 2% an out
    assert turn.take.best.value == 21  # taking the 9S leaves A-K of hearts at 21


def test_lesson_6_step_6_3_C6_the_knock_line_climbs_23_26_27_against_one_opponent() -> None:
    assert [knock_line("classic", 1, turns).line for turns in (0, 1, 2)] == [23, 26, 27]
    prose = "".join("".join(c["source"]) for c in json.loads((LESSON_DIR / "06-strategy-lab.ipynb").read_text(
        encoding="utf-8"))["cells"] if c["cell_type"] == "markdown")
    assert "23 at the start of a hand, 26 after one turn each and 27 after two" in prose


def test_lesson_3_step_3_2_C6_the_lines_just_dealt_are_23_20_19() -> None:
    assert [knock_line("classic", n, 0).line for n in (1, 2, 3)] == [23, 20, 19]
    assert "the line is 23 against one opponent, 20 against two, 19 against three" in _lesson_3_prose()
