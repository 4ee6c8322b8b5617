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
from scatlab.analysis import Observations, Position, analyze, knock_line, rank
from scatlab.analysis.counting.knowledge import Knowledge
from scatlab.cards import parse_cards
from scatlab.course import LESSONS
from scatlab.course.data import knock_risk_by_value, tournament_in_steps
from scatlab.course.exercises import EXERCISES, show_value
from scatlab.course.scenarios import SCENARIOS, play_out, scenario
from scatlab.course.skat import game_value
from scatlab.rules import RULEBOOK

LESSON_DIR = Path(__file__).resolve().parents[2] / "lessons"


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
    return "".join(
        "".join(c["source"])
        for c in json.loads((LESSON_DIR / "03-knocking.ipynb").read_text(encoding="utf-8"))["cells"]
        if c["cell_type"] == "markdown"
    )


def _lesson_3_code() -> str:
    return "".join(
        "".join(c["source"])
        for c in json.loads((LESSON_DIR / "03-knocking.ipynb").read_text(encoding="utf-8"))["cells"]
        if c["cell_type"] == "code"
    )


def _text(html: str) -> str:
    """An HTML fragment's words, as a learner reads them."""
    import html as html_module

    return html_module.unescape(re.sub(r"<[^>]+>", "", html))


CHART_SETTINGS = [(n, t) for n in (1, 2, 3) for t in range(5)]
"""Every (opponents, turns) the lesson's chart offers."""


def test_lesson_3_C6_teaches_the_engines_criterion_not_a_limit_or_a_margin() -> None:
    """Issue 64: the engine knocks when knocking's chance of winning the game is the higher;
    the lesson teaches exactly that, and the line as where it starts for an average hand. The
    "nearly safe" limit and the margin are gone from the lesson, its steps and its exercises."""
    from scatlab.course.steps import steps_of

    prose = _lesson_3_prose()
    assert "Knock when knocking gives you a better chance of winning the game than playing on" in prose
    assert "knock line** is where that starts" in prose and "for an average hand" in prose
    steps = steps_of("03-knocking")
    words = prose + " ".join(s.goal + s.title for s in steps)
    for step in steps:
        for seed in range(6):
            q = EXERCISES[step.exercise].question(seed)
            words += q.prompt + q.why + EXERCISES[step.exercise].working(q)
    for gone in ("nearly safe", "nearly-safe", "margin", "0.15", "0.3 ÷"):
        assert gone not in words, gone


def test_lesson_3_states_every_assumption_its_figures_rest_on_in_the_learners_words() -> None:
    """Who the opponents are pictured as, that playing on's chance assumes you play as the
    advice from here on, and that the figures are estimates (what is counted exactly, what a
    close call is)."""
    prose = _lesson_3_prose()
    for stated in (
        "a casual or a strong player",
        "dealt at random",
        "improved by the turns they have played",
        "takes the top card of the pile if it helps, else draws",
        "go on playing as the advice says",
        "Estimates",
        "measured on many games between computer players",
        "counted exactly",
        "*close call*",
    ):
        assert stated in prose, stated


def test_lesson_3_C6_C7_C8_the_worked_example_weighs_the_knock_with_the_engines_own_figures() -> None:
    """A♥ K♥ 4♣ (21), one opponent just dealt, the 9♠ on the pile: each ending's chance (counted
    exactly) times your chance of winning the game after it adds up to the ranking's figure for
    the knock; playing on's is the ranking's best way of playing on; the verdict is the engine's;
    one line says why the chart's average hand of 21 reads other figures."""
    from scatlab.course.knocking import knock_sum, level
    from scatlab.course.widgets.knock_chart import worked_example_html

    assert "worked_example()" in _lesson_3_code()
    s = knock_sum("AH KH 4C", "9S")
    ranking = s.ranking
    knock = ranking.move("knock")
    assert (s.p_one, s.p_two) == (knock.p_one, knock.p_two) and knock.exact_risk
    assert abs(s.total() - knock.win) < Fraction(1, 10**5)  # the lesson's sum is the engine's figure
    assert s.play_on is ranking.play_on and s.knocks == (ranking.best.action.kind.value == "knock")
    text = _text(worked_example_html())
    assert "You hold A♥ K♥ 4♣, worth 21, against one opponent just dealt, the 9♠ on the pile" in text
    assert f"Knocking: {s.terms()} = " in text and f"{level(knock.win)}." in text
    assert f"gives {level(ranking.play_on.win)}. So {'knock' if s.knocks else 'play on'}." in text
    assert "before this hand" in text and level(ranking.now) in text
    assert "this hand's own figures differ because they read its three cards and the 9♠ on the pile" in text
    for p, a in s.shown():  # each ending's chance, and the chance of winning after it
        assert level(p) in text and level(a) in text


def test_lesson_3_one_figure_for_one_position_in_the_example_step_3_1_the_chart_and_scatlab_analyze(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 64: the worked example, step 3.1's question for the same position, the appendix's
    explorer and ``scatlab analyze AH KH 4C --discard 9S`` state one figure for the knock and
    one for playing on (the ranking's); the example quotes the chart's own readout for an
    average hand of 21, and the chart's knock line is where knocking's figure passes playing on's."""
    from scatlab.cli import main
    from scatlab.course.exercises import knock_worth_question
    from scatlab.course.knocking import chart_rows, level, readout
    from scatlab.course.widgets.how_we_know import OpponentModelExplorer
    from scatlab.course.widgets.knock_chart import knock_chart_svg, worked_example_html

    ranking = rank(Position.of(Knowledge.of("AH KH 4C", "9S", opponents=1)))
    knock, on = ranking.move("knock"), ranking.play_on
    assert on is not None and knock.p_one is not None and knock.p_two is not None and knock.lives is not None
    k_level, on_level = level(knock.win), level(on.win)
    example = _text(worked_example_html())
    assert f"= {k_level}." in example or f"= about {k_level}." in example
    assert f"gives {on_level}." in example
    question = knock_worth_question("AH KH 4C", "9S")  # step 3.1, dealt this position
    assert f"it is {on_level}. Knock or play on?" in question.prompt and f"= {k_level};" in question.why
    assert question.solution == ("knock" if knock.win > on.win else "play on")
    working = EXERCISES["knock-cost"].working(question)
    assert f"= {k_level}}}" in working and f"you lose one with chance {knock.p_one}, two with {knock.p_two}" in working
    assert main(["analyze", "AH", "KH", "4C", "--discard", "9S"]) == 0
    out = capsys.readouterr().out
    assert f"knock: {k_level}; P(lose one) = {knock.p_one} ({float(knock.p_one):.1%})" in out
    assert f"P(lose two) = {knock.p_two} ({float(knock.p_two):.1%})" in out
    assert f"{on.label()}: {on_level}" in out and f"{float(knock.lives):.3f} lives expected" in out
    explorer = OpponentModelExplorer("AH KH 4C", discard="9S")  # the appendix: the same hand and pile
    assert (explorer.risks["adaptive"].p_lose_one, explorer.risks["adaptive"].p_lose_two) == (knock.p_one, knock.p_two)
    assert f"{k_level} if you knock, {on_level} if you play on" in explorer.result.value
    line = knock_line("classic", opponents=1, turns=0)  # the chart the lesson shows first
    row = next(r for r in chart_rows(line) if r.value == 21)
    assert f"gives {level(row.knock)} if you knock and {level(row.play_on)} if you play on" in example
    assert f"<title>{readout(row)}</title>" in knock_chart_svg(line)
    assert 'OpponentModelExplorer("AH KH 4C", discard="9S")' in "".join(
        "".join(c["source"])
        for c in json.loads((LESSON_DIR / "appendix-how-we-know.ipynb").read_text(encoding="utf-8"))["cells"]
    )
    _assert_the_line_is_where_knocking_passes_playing_on(line)


def _chart(opponents: int, turns: int) -> tuple[Any, Any]:
    import xml.etree.ElementTree as ET

    from scatlab.course.widgets.knock_chart import knock_chart_svg

    line = knock_line("classic", opponents=opponents, turns=turns)
    return line, ET.fromstring(knock_chart_svg(line))  # the chart is well-formed XML


_SVG = "{http://www.w3.org/2000/svg}"


def _assert_the_line_is_where_knocking_passes_playing_on(line: Any) -> None:
    """The chart's dashed knock lines stand exactly at the values where knocking's figure
    passes playing on's going up (a column left of it plays on, the column right of it knocks),
    and at the engine's :attr:`KnockLine.line` when there is one; the squares are drawn above
    the dots exactly where the advice knocks."""
    import xml.etree.ElementTree as ET

    from scatlab.course.widgets.knock_chart import knock_chart_svg

    svg = ET.fromstring(knock_chart_svg(line))
    rows = line.rows
    crossings = [show_value(rows[i][0]) for i in range(1, len(rows)) if rows[i][5] and not rows[i - 1][5]]
    drawn = [e.get("data-value") for e in svg.iter(f"{_SVG}line") if e.get("class") == "scat-kc-line"]
    assert drawn == crossings
    if line.line is not None and line.line != rows[0][0]:
        assert show_value(line.line) in drawn
    columns = [g for g in svg.iter(f"{_SVG}g") if g.get("class") == "scat-kc-col"]
    x_of = {
        g.get("data-value"): float(
            next(r for r in g.iter(f"{_SVG}rect") if r.get("class") == "scat-kc-hit").get("x", 0)
        )
        for g in columns
    }
    for e in svg.iter(f"{_SVG}line"):
        if e.get("class") == "scat-kc-line":
            assert abs(float(e.get("x1", 0)) - x_of[e.get("data-value")]) < 0.11  # on the left edge of its column
    for g, (value, _k, kw, _o, ow, knocks) in zip(columns, rows):
        square = next(r for r in g.iter(f"{_SVG}rect") if r.get("class") == "scat-kc-knock")
        dot = next(c for c in g.iter(f"{_SVG}circle") if c.get("class") == "scat-kc-dot")
        knock_y, on_y = float(square.get("y", 0)) + 4.5, float(dot.get("cy", 0))
        assert knocks == (kw > ow)
        if knocks:
            assert knock_y <= on_y + 0.05, value  # higher on the page: the better chance
        else:
            assert knock_y >= on_y - 0.05, value


@pytest.mark.parametrize("opponents, turns", CHART_SETTINGS)
def test_lesson_3_C6_the_charts_knock_line_is_where_knocking_passes_playing_on(opponents: int, turns: int) -> None:
    _assert_the_line_is_where_knocking_passes_playing_on(knock_line("classic", opponents, turns))


@pytest.mark.parametrize("opponents, turns", CHART_SETTINGS)
def test_lesson_3_C6_every_readout_states_levels_and_never_shows_the_other_move_better(
    opponents: int, turns: int
) -> None:
    """A phone has no hover: each value's column is focusable (a tap, a click or Tab) and has a
    box of its figures; its title and the table under the chart say the same. Every one states
    levels ("68.3% if you knock, 63.7% if you play on"), never a signed change, and never shows
    the move not advised with the higher figure (equal-looking levels are said to be a close call)."""
    from scatlab.course.knocking import level
    from scatlab.course.widgets.knock_chart import knock_table_html

    line, svg = _chart(opponents, turns)
    columns = [g for g in svg.iter(f"{_SVG}g") if g.get("class") == "scat-kc-col"]
    readouts = {
        g.get("data-i"): " ".join(t.text or "" for t in g.iter(f"{_SVG}text"))
        for g in svg.iter(f"{_SVG}g")
        if g.get("class") == "scat-kc-readout"
    }
    table = knock_table_html(line)
    assert len(columns) == len(line.rows) == len(readouts)
    for g, (value, _k, kw, _o, ow, knocks) in zip(columns, line.rows):
        assert g.get("tabindex") == "0"
        advice = "knock" if knocks else "play on"
        k, o = level(kw), level(ow)
        assert float(k[:-1]) >= float(o[:-1]) if knocks else float(o[:-1]) >= float(k[:-1])
        close = " (a close call)" if k == o or abs(kw - ow) < Fraction(1, 200) else ""
        title = g.findtext(f"{_SVG}title") or ""
        assert title == (
            f"worth {show_value(value)}: your chance of winning the game: {k} if you knock, {o} if you "
            f"play on; the advice: {advice}{close}"
        )
        assert readouts[g.get("data-i")] == (
            f"worth {show_value(value)} your chance of winning the game: {k} if you "
            f"knock {o} if you play on the advice: {advice}{close}"
        )
        assert (g.get("data-knock"), g.get("data-play-on"), g.get("data-advice")) == (k, o, advice)
        row = re.search(rf"<tr data-value='{show_value(value)}'>(.*?)</tr>", table)
        assert row is not None
        cells = [re.sub("<[^>]+>", "", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row.group(1))]
        assert cells == [show_value(value), k, o, advice]
    words = "".join(svg.itertext()) + _text(table)
    assert not re.search(r"[+-]\d+(\.\d+)?%", words)  # no signed change, anywhere on the chart
    assert "your chance of winning the game" in words and "If you knock" in table and "If you play on" in table


@pytest.mark.parametrize("opponents, turns", [(1, 0), (2, 2), (3, 4)])
def test_lesson_3_C6_the_charts_marks_stay_inside_its_ticks_and_below_the_legend(opponents: int, turns: int) -> None:
    line, svg = _chart(opponents, turns)
    ticks = [float(e.get("y1", 0)) for e in svg.iter(f"{_SVG}line") if e.get("stroke") == "#e0e0e0"]
    squares = [float(e.get("y", 0)) for e in svg.iter(f"{_SVG}rect") if e.get("class") == "scat-kc-knock"]
    dots = [float(e.get("cy", 0)) for e in svg.iter(f"{_SVG}circle") if e.get("class") == "scat-kc-dot"]
    legend = next(e for e in svg.iter(f"{_SVG}g") if e.get("class") == "scat-kc-legend")
    legend_bottom = max(float(t.get("y", 0)) for t in legend.iter(f"{_SVG}text"))
    assert len(squares) == len(dots) == len(line.rows) and min(ticks) > legend_bottom + 8
    assert min(squares + dots) >= min(ticks) - 0.05 and max(dots) <= max(ticks) + 0.05  # between the ticks
    assert max(s + 9 for s in squares) <= max(ticks) + 4.6
    text = "".join(svg.itertext())
    assert "your chance of winning the game" in text and "lives" not in text  # the y axis: the engine's scale


@pytest.mark.parametrize("opponents, turns", [(1, 0), (3, 4)])
def test_lesson_3_C6_the_knock_chart_fits_a_phone_with_every_hand_value_labelled(opponents: int, turns: int) -> None:
    """Drawn for 390 px: a view box at most 420 wide that scales to the page (no minimum width,
    no sideways scroll), text at least 12 units high (about 10 px or more on a phone), every
    hand value labelled under its column, and nothing drawn past the view box."""
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
        if e.tag == f"{_SVG}rect" and e.get("width") and e.get("x"):
            assert float(e.get("x", 0)) + float(e.get("width", 0)) <= width + 0.05


def test_lesson_3_the_knock_charts_controls_and_caption_speak_plainly() -> None:
    """The second row of toggles picks when (the turns the opponents have played), so it says
    "When"; the caption says where the advice knocks for an average hand (the engine's rows),
    the chance of winning before the hand, and asks for a tap, not a hover."""
    from scatlab.course.knocking import chart_rows, level, line_words
    from scatlab.course.widgets.knock_chart import KnockChart

    chart = KnockChart(defer=False)
    assert (chart.opponents.description, chart.turns.description) == ("Against", "When")
    assert "hover" not in chart.caption.value.lower() and "tap a value" in chart.caption.value.lower()
    for n in (1, 2):
        chart.opponents.value = n
        line = knock_line("classic", n, 0)
        where = line_words(chart_rows(line))
        assert (
            f"knocks <b>{where}</b>" in chart.caption.value
            if where != "never"
            else "never knocks" in chart.caption.value
        )
        assert level(line.now) in chart.caption.value and f"against {n} opponent" in chart.chart.value
    assert "scatlab-chart-scroll" not in chart.chart.value and "Swipe" not in chart.chart.value
    assert chart.table.value.startswith("<details") and chart.children[-1] is chart.table


def test_lesson_3_what_moves_the_line_reads_the_engine() -> None:
    """The lesson states no line of its own: where the advice knocks against one to three
    opponents, and as the turns go by, is read from the engine when the page is shown."""
    from scatlab.course.knocking import chart_rows, line_words
    from scatlab.course.widgets.knock_chart import line_facts_html

    assert "line_facts()" in _lesson_3_code()
    facts = _text(line_facts_html())
    dealt = [line_words(chart_rows(knock_line("classic", n, 0))) for n in (1, 2, 3)]
    assert (
        f"the advice knocks {dealt[0]} against one opponent, {dealt[1]} against two, {dealt[2]} against three" in facts
    )
    for t, when in ((1, "after one turn each"), (2, "after two")):
        assert f"{line_words(chart_rows(knock_line('classic', 1, t)))} {when}" in facts


def test_lesson_3_links_its_optional_appendix_and_its_learners_words_hold_no_seed_or_study_figure() -> None:
    """No figure of today's fit is written in the lesson (they are read from the engine); the
    learner's pages name no seed, no "±", no study, no "player 0"."""
    from scatlab.course.steps import steps_of
    from scatlab.course.widgets.knock_chart import knock_caption, knock_table_html, line_facts_html, worked_example_html

    prose = _lesson_3_prose()
    assert "](appendix-how-we-know.ipynb)" in prose
    assert not re.search(r"\d+(\.\d+)?%", prose)  # no chance written down: the widgets read them
    assert not re.search(r"(from|line is|knocks?|with) (1[5-9]|2\d|30)\b", prose)  # no line written down
    line = knock_line("classic", 1, 0)
    shown = prose + _text(worked_example_html() + line_facts_html() + knock_caption(line) + knock_table_html(line))
    for step in steps_of("03-knocking"):
        for seed in range(6):
            q = EXERCISES[step.exercise].question(seed)
            shown += q.prompt + q.why + EXERCISES[step.exercise].working(q)
    for word in ("seed", "±", "player 0", "calibration", "study", "Monte Carlo", "brier"):
        assert word.lower() not in shown.lower(), word


def test_appendix_how_we_know_the_adaptive_model_is_close_and_the_uniform_too_rosy_for_tip() -> None:
    """What the appendix reads from the diagram's legend: the adaptive model's bias is under a
    point for both kinds of knocker; the uniform model's is positive for tip (bias is observed
    minus predicted: the tips lost more often than the risk shown, which was too rosy)."""
    from scatlab.course.widgets.how_we_know import calibration_svg

    legend = dict(re.findall(r"(\w+, \w+): [\d,]+ knocks, bias ([+-][\d.]+) points", calibration_svg()))
    assert set(legend) == {"expert, uniform", "expert, adaptive", "tip, uniform", "tip, adaptive"}
    assert abs(float(legend["expert, adaptive"])) < 1 and abs(float(legend["tip, adaptive"])) < 1
    assert float(legend["tip, uniform"]) > 1


def test_appendix_how_we_know_explains_brier_and_the_sign_of_bias_as_its_legend_prints_them() -> None:
    """The appendix says what the legend's two scores are: the bias is observed minus
    predicted (a plus: the risk shown was too low, too rosy), with the legend's own figure as
    the example, and the Brier score is the average squared gap, lower better."""
    from scatlab.course.widgets.how_we_know import calibration_svg

    text = " ".join(
        "".join(c["source"])
        for c in json.loads((LESSON_DIR / "appendix-how-we-know.ipynb").read_text(encoding="utf-8"))["cells"]
        if c["cell_type"] == "markdown"
    )
    legend = dict(re.findall(r"(\w+, \w+): [\d,]+ knocks, bias ([+-][\d.]+) points", calibration_svg()))
    example = legend["tip, uniform"]
    assert f"**{example}** means they lost {example.lstrip('+')} points more often than shown" in text
    assert "how often they really lost minus the risk they were given" in text and "too low, too rosy" in text
    assert "a minus means too gloomy" in text
    assert "**Brier** score is the average squared gap between the risk given and what happened" in text
    assert "lower is better" in text
    for study_talk in ("seed", "±", "calibration study", "README"):
        assert study_talk not in text, study_talk


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


def test_lesson_4_deals_number_players_as_their_table_does() -> None:
    """The deals' texts name the seats as the table beside them labels them: the learner
    "you" (player 1), the two tip players "player 2" and "player 3", and the losers they
    name are the seats that lose (never "player 0")."""
    from scatlab.session import TableSession

    table = TableSession("classic", ("tip", "tip"), seat=0, seed=4, deal=SCENARIOS[0].deck(), dealer=2)
    assert [seat.name for seat in table.display().seats] == ["player 1 (you)", "player 2 (tip)", "player 3 (tip)"]
    for s in SCENARIOS:
        for text in (s.instructions, s.explanation):
            named = [
                int(n)
                for m in re.finditer(r"\b[Pp]layers? ((?:\d+(?: and )?)+)", text)
                for n in re.findall(r"\d+", m.group(1))
            ]
            assert set(named) <= {2, 3}, text
        losers = {
            n
            for m in re.finditer(r"\b[Pp]layers? ((?:\d+(?: and )?)+)\b[^.:]*\blos", s.explanation)
            for n in map(int, re.findall(r"\d+", m.group(1)))
        }
        assert losers <= {seat + 1 for seat, lost in enumerate(s.expect) if lost}, (s.key, s.explanation)


@pytest.mark.parametrize("key", ["lowest", "declare"])
def test_lesson_4_C7_C8_the_rule_that_settles_a_deal_shows_only_once_its_hand_has_ended(key: str) -> None:
    """The explanation names who loses: before the learner plays it would give the result
    away, so it shows once the hand has ended (a showdown, or a 31 shown), and again hides
    for a new deal."""
    from scatlab.course.widgets.scenario_table import ScenarioTable

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
    from scatlab.course.widgets.scenario_table import ScenarioTable

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
    from scatlab.course.widgets.scenario_table import ScenarioTable

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
    from scatlab.course.widgets.scenario_table import ScenarioTable

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


def test_lesson_5_V2_the_thirty_and_a_half_rule_has_one_code_everywhere_a_learner_reads() -> None:
    """30½ for three of a kind is V2: the lesson's text, its explorer (under GIN, whose code
    is V14, the value is still V2's), step 5.1's reasons and the rulebook all say V2."""
    from scatlab.course.widgets.course import rulebook_html
    from scatlab.course.widgets.hand_explorer import HandExplorer
    from scatlab.rules import rule_entry, value_rule

    cells = json.loads((LESSON_DIR / "05-house-rules.ipynb").read_text(encoding="utf-8"))["cells"]
    text = " ".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    assert re.search(r"30½[^.]*\[V2\]", text) and not re.search(r"30½[^.]*\[V14\]", text)
    shown = re.sub(r"<[^>]+>", "", HandExplorer("7S 7H 7D", preset="gin").result.value)
    assert shown.endswith("worth 30½ under the gin rules (V14): three of a kind counts 30½ (V2)"), shown
    assert value_rule("7S 7H 7D", "gin") == "V2" and value_rule("7S 7H 7D", "quick") == "V1"
    ex = EXERCISES["house-value"]
    gin = [q for q in (ex.question(seed) for seed in range(80)) if q.solution == "30.5"]
    assert gin and all("counts 30.5 under these rules (V2)" in q.why for q in gin)
    assert "as in V2" in rule_entry("V14").text
    v2 = re.search(r"id='V2'.*?scatlab-rule-where[^>]*>([^<]*)<", rulebook_html())
    assert v2 is not None and v2.group(1) == "Played in the gin preset, as part of V14."


def test_lesson_6_a_tournament_in_steps_counts_every_game() -> None:
    last = list(tournament_in_steps(["tip", "random"], 8, seed=1))[-1]
    assert last.done == 8 and sum(last.wins) == 8


def test_lesson_6_lab_progress_bar_counts_the_default_games() -> None:
    from scatlab.course.widgets.tournament_lab import TournamentLab

    assert TournamentLab().bar.max == 36


def test_lesson_6_the_tournament_names_its_players_and_ranges_in_a_learners_words() -> None:
    """Lesson 6's tournament: entrants "tip player 1", "tip player 2" (never "tip#1"), and
    each win rate's range in words ("likely between 20% and 60%"), never "95% interval" or
    "±", in the table and in the chart's titles."""
    from scatlab.course.widgets.tournament_lab import TournamentLab

    lab = TournamentLab(("random", "tip", "tip"), games=9)
    last = lab.run()
    assert last.labels == ("random", "tip player 1", "tip player 2")
    shown = re.sub(r"<[^>]+>", " ", lab.table.value + lab.chart.value)  # the words, the chart's titles among them
    assert "tip player 1</b> won" in lab.table.value and re.search(r"likely between \d+% and \d+%", shown)
    for unearned in ("#", "95%", "±", "interval"):
        assert unearned not in shown, unearned


def test_appendix_skat_game_values() -> None:
    assert game_value("clubs", matadors=2).value == 36 and game_value("null", hand=True).value == 35


def test_appendix_skat_multiplies_with_the_multiplication_sign() -> None:
    """The Skat page writes a product as the course does (docs/design/voice.md): 12 × 3,
    never 12 x 3, in its calculator, its exercise and its text."""
    from scatlab.course.widgets.skat_calculator import SkatCalculator

    calc = SkatCalculator()
    shown = [calc.result.value]
    calc.matadors.value, calc.flags["schneider"].value = 3, True
    shown.append(calc.result.value)
    shown += [EXERCISES["skat-value"].question(seed).why for seed in range(20)]
    cells = json.loads((LESSON_DIR / "appendix-skat.ipynb").read_text(encoding="utf-8"))["cells"]
    shown += ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]
    assert any("×" in text for text in shown)
    for text in shown:
        assert not re.search(r"[\d)] ?[xX*] ?[\d(]", text), text


def test_lesson_8_starts_a_game_with_hints_and_a_stand_in_review_on_the_chance_of_winning(tmp_path: Path) -> None:
    from scatlab.course.progress import Progress
    from scatlab.course.widgets.game_with_hints import GameWithHints, stand_in_game
    from scatlab.course.widgets.review_and_replay import ReviewAndReplay

    game = GameWithHints(progress=Progress(tmp_path / "p.sqlite3"))
    assert game.table.session.display().hand_number == 1 and game.table.session.hints
    section = ReviewAndReplay(stand_in_game("quick", seed=16), learner=game)
    assert section.source == "stand-in" and len(section.worst) == 2
    assert all(d.label != "best" for d in section.worst)
    assert {d.scale for d in section.worst} == {"win"}
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


def test_lesson_6_step_6_3_C6_the_knock_line_is_read_from_the_engine_and_climbs_with_the_turns() -> None:
    """Step 6.3 writes no line of its own: where the advice knocks against one opponent, just
    dealt and after one to three turns each, is read from the engine's knock line when the
    page is shown, and the lowest knocking value never falls as the turns go by."""
    from scatlab.course.knocking import chart_rows, knock_runs, line_words
    from scatlab.course.widgets.knock_chart import CLIMB_WHENS, line_climb_html

    cells = json.loads((LESSON_DIR / "06-strategy-lab.ipynb").read_text(encoding="utf-8"))["cells"]
    prose = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    code = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    assert "line_climb()" in code
    assert not re.search(r"(from|line is|knocks?|with) (1[5-9]|2\d|30)\b", prose)  # no line written down
    facts = _text(line_climb_html())
    lows = []
    for t, when in enumerate(CLIMB_WHENS):
        rows = chart_rows(knock_line("classic", 1, t))
        assert f"{when}: the advice knocks {line_words(rows)}" in facts
        lows.append(knock_runs(rows)[0][0])
    assert lows == sorted(lows)
