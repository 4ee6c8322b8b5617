"""The course's exercises: seeded, checked by the engine, explaining right and wrong answers."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import pytest

from scatlab.course.exercises import (
    EXERCISES,
    ExerciseError,
    Question,
    exercises_of,
    read_number,
    tenths,
    wants_knock,
)
from scatlab.course.lessons import APPENDICES, LESSONS
from scatlab.course.skat import game_value
from scatlab.rules import find_rules, hand_value

SEEDS = range(12)


@pytest.mark.parametrize("name", sorted(EXERCISES))
def test_the_same_seed_gives_the_same_question(name: str) -> None:
    ex = EXERCISES[name]
    assert ex.question(5) == ex.question(5)
    assert len({ex.question(s).text() for s in SEEDS}) > 3  # "new question" gives new questions


@pytest.mark.parametrize("name", sorted(EXERCISES))
def test_the_solution_is_right_and_a_wrong_answer_is_explained(name: str) -> None:
    ex = EXERCISES[name]
    for seed in SEEDS:
        q = ex.question(seed)
        right = ex.check(q, q.solution)
        assert right.correct and right.message.startswith("Right: ") and len(right.message) > 40
        if name == "best-discard":  # never a puzzle where every throw is right (checked before
            assert len(q.accepted) < len(q.choices)  # the skip below, which is exactly that case)
        wrong_answer = next((c for c in q.choices if c not in q.accepted), None) if q.choices else "1000"
        if wrong_answer is None:  # every choice is right (a tie): nothing wrong to try
            continue
        wrong = ex.check(q, wrong_answer)
        assert not wrong.correct
        others = sorted(a for a in q.accepted if a != q.solution) if q.choices else []
        also = f" ({' and '.join(others)} {'is' if len(others) == 1 else 'are'} right too)" if others else ""
        # every right answer is named: the answer, and any other choice as good (a tie)
        assert wrong.message.startswith(f"Not quite: you answered {wrong.answer}, the answer is {q.solution}{also}.")
        assert q.why[1:] in wrong.message and q.why[1:] in right.message


def test_best_discard_C4_C5_prefers_the_lowest_of_equal_throws_and_names_the_others() -> None:
    """Step 6.1: of throws that keep as much, the answer is the lowest card (the tip's
    "lowest card outside your suit"); a wrong answer names every right one."""
    ex = EXERCISES["best-discard"]
    for seed in range(60):
        q = ex.question(seed)
        assert len(q.accepted) < len(q.choices)
        ranks = {"A": 11, "K": 10, "Q": 10, "J": 10}
        value = {c: ranks.get(c[:-1], None) or int(c[:-1]) for c in q.choices}
        assert value[q.solution] == min(value[a] for a in q.accepted)


def test_hand_value_is_checked_by_the_engine_c4() -> None:
    ex = EXERCISES["hand-value"]
    for seed in SEEDS:
        q = ex.question(seed)
        cards = q.shown[0][1]
        assert read_number(q.solution) == hand_value(cards)
        assert ex.check(q, str(hand_value(cards))).correct


def test_house_value_follows_the_preset_v1_v2_v13_v18() -> None:
    ex = EXERCISES["house-value"]
    seen = set()
    for seed in range(60):
        q = ex.question(seed)
        preset = q.prompt.split("the ")[1].split(" rules")[0]
        seen.add(preset)
        assert read_number(q.solution) == hand_value(q.shown[0][1], find_rules(preset))
    assert seen == {"classic", "quick", "gin", "cadillac", "eenendertigen"}


def test_showdown_exercise_covers_every_c7_case() -> None:
    ex = EXERCISES["showdown"]
    notes = " ".join(ex.question(s).why for s in range(40))
    assert "knocker is safe" in notes  # tie involving the knocker
    assert "The knocker (player 1) is lowest on their own and loses two lives" in notes  # knocker strictly lowest
    assert "Players 2 and 3 tie for lowest" in notes and "both lose a life" in notes  # tie among non-knockers
    answers = {ex.question(s).solution for s in range(40)}
    assert answers == {"0", "1", "2"}


def test_skat_exercise_uses_the_calculator() -> None:
    ex = EXERCISES["skat-value"]
    for seed in SEEDS:
        q = ex.question(seed)
        if "Null" not in q.prompt:
            assert " × " in q.why and " x " not in q.why
        assert int(q.solution) >= 18 or "Null" in q.prompt


def test_numbers_are_read_exactly_and_bad_answers_refused() -> None:
    ex = EXERCISES["house-value"]
    q = next(q for q in (ex.question(s) for s in range(80)) if q.solution == "30.5")
    assert ex.check(q, "30.5").correct and ex.check(q, "61/2").correct and ex.check(q, "30,5").correct
    with pytest.raises(ExerciseError, match="'thirty' is not a number"):
        ex.check(q, "thirty")
    knock = EXERCISES["knock-chart"]
    with pytest.raises(ExerciseError, match="'fold' is not one of the choices: knock, play on"):
        knock.check(knock.question(0), "fold")
    with pytest.raises(ExerciseError, match="belongs to 'knock-chart'"):
        ex.check(knock.question(0), "1")
    with pytest.raises(ExerciseError, match="seed=-1"):
        ex.question(-1)


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("1e999999999", "'1e999999999' is not a number"),  # Fraction would build a billion-digit number
        ("1e12000000", "'1e12000000' is not a number"),
        ("9" * 10, "is not a number"),  # more than nine digits a part
        ("1" * 41, "the answer has 41 characters"),
        ("7" * 1_000_000, "the answer has 1,000,000 characters"),
        ("0x1F", "'0x1F' is not a number"),
        ("1_000", "'1_000' is not a number"),
        ("nan", "'nan' is not a number"),
        ("inf", "'inf' is not a number"),
    ],
)
def test_a_typed_answer_is_bounded_and_refused_with_one_line_at_once(typed: str, message: str) -> None:
    """An answer box is learner input: its size and magnitude are bounded before any number
    is built (at most 40 characters, nine digits a part, no exponent), so a huge or odd text
    gets a one-line message at once instead of keeping the kernel busy; 40 characters
    and nine digits still read."""
    with pytest.raises(ExerciseError, match=re.escape(message)) as info:
        read_number(typed)
    assert "\n" not in str(info.value) and len(str(info.value)) < 200
    assert read_number("999999999.999999999") > 0 and read_number("-999999999/999999999") == -1
    assert read_number(" " * 20 + "21" + " " * 18) == 21


def test_every_lesson_with_exercises_is_a_lesson_or_an_appendix() -> None:
    ids = {lesson.id for lesson in LESSONS} | {extra.id for extra in APPENDICES}
    assert {e.lesson for e in EXERCISES.values()} <= ids
    assert [e.id for e in exercises_of("01-the-game")] == ["hand-value"]


def test_skat_values_in_the_exercise_match_game_value() -> None:
    assert game_value("grand", matadors=4).value == 120


# -- the steps' new exercises (issue 36): each answer checked against the analysis ---------------


def _turn(q: Question) -> Any:  # the one-turn analysis of the question's position
    from scatlab.analysis.counting.knowledge import Knowledge
    from scatlab.analysis.counting.onestep import analyze_turn

    hand, up = q.position[:2]
    return analyze_turn(Knowledge.of(hand, discard=up, opponents=1))


def test_draw_chance_C5_is_outs_over_unseen_and_any_equal_fraction_is_right() -> None:
    from fractions import Fraction

    ex = EXERCISES["draw-chance"]
    for seed in SEEDS:
        q = ex.question(seed)
        draw = _turn(q).draw
        assert q.solution == f"{len(draw.outs_31)}/{draw.unseen}" and Fraction(q.solution) == draw.p_31
        assert ex.check(q, str(draw.p_31)).correct  # reduced, e.g. 1/16 for 3/48
        assert f"about {2 * len(draw.outs_31)}%" in q.why  # the rule of thumb: 2% an out
        assert not ex.check(q, f"{len(draw.outs_31) + 1}/{draw.unseen}").correct


def test_ev_sum_C5_weighs_each_outcome_by_its_cards() -> None:
    from fractions import Fraction

    ex = EXERCISES["ev-sum"]
    for seed in SEEDS:
        q = ex.question(seed)
        draw = _turn(q).draw
        assert q.solution == tenths(draw.expected_value)
        naive = sum(draw.distribution, Fraction(0)) / len(draw.distribution)
        assert set(q.choices) == {tenths(x) for x in (draw.expected_value, naive, draw.current)}
        assert len(q.choices) == 3
        total = draw.expected_value * draw.unseen
        assert f"= {total}/{draw.unseen}" in q.why or f"= {total.numerator}/{draw.unseen}" in q.why
        assert f"= {total.numerator}/{draw.unseen}" in ex.working(q)  # the sum the lesson writes, over the unseen cards


def test_knock_worth_C6_C7_weighs_each_ending_and_knocks_when_that_beats_playing_on() -> None:
    """Step 3.1: a knock's chance of winning the game is each ending's chance (the ranking's
    own, counted exactly against one opponent) times your chance after it, added up; the
    answer knocks exactly when that beats playing on's figure (the ranking's best way of
    playing on), which is the engine's choice. Never a close call; the question's rounded
    figures add up to the engine's own, term by term in the working."""
    from scatlab.analysis import CLOSE_CALL
    from scatlab.course.knocking import knock_sum, level

    ex = EXERCISES["knock-cost"]
    for seed in SEEDS:
        q = ex.question(seed)
        hand, up = q.position[:2]
        s = knock_sum(hand, up)
        ranking = s.ranking
        knock, on = ranking.move("knock"), ranking.play_on
        assert on is not None and (s.p_one, s.p_two) == (knock.p_one, knock.p_two) and s.knock == knock.win
        assert (
            q.solution
            == ("knock" if knock.win > on.win else "play on")
            == ("knock" if wants_knock(ex.id, seed) else "play on")
        )
        assert abs(knock.win - on.win) >= 2 * CLOSE_CALL  # never a coin toss
        (p1, a1), (p2, a2), (p3, a3) = s.shown()
        assert p1 + p2 + p3 == 1
        assert (
            f"you lose one life with chance {level(p1)}, two with {level(p2)}, and your opponent loses one "
            f"with {level(p3)}"
        ) in q.prompt
        assert f"after each: {level(a1)}, {level(a2)} and {level(a3)}" in q.prompt
        assert f"it is {level(on.win)}. Knock or play on?" in q.prompt
        working = ex.working(q).splitlines()
        # the learner's own rounded figures first (the prompt's), each product, the engine's total
        assert working[3] == f"\\text{{= {s.terms()}}}"
        *terms, total = [Fraction(x[:-1]) for x in re.findall(r"[\d.]+%", working[4])]
        assert len(terms) == 3 and sum(terms, Fraction(0)) == total and level(total / 100) == level(knock.win)
        assert working[-1].startswith(
            f"\\text{{exactly: you lose one with chance {knock.p_one}, two with {knock.p_two}"
        )


@pytest.mark.parametrize("name", ["knock-chart", "knock-early"])
def test_knock_by_the_chart_C6_follows_the_charts_figures_and_alternates_its_answer(name: str) -> None:
    """Step 3.2 (and lesson 6's step 6.3): knock exactly where the chart, for that many
    opponents and turns, gives knocking the better chance of winning the game; never a close
    call; the reason states both levels."""
    from scatlab.analysis import CLOSE_CALL, knock_line
    from scatlab.cards import parse_cards
    from scatlab.course.knocking import chart_rows, level

    ex = EXERCISES[name]
    seen = set()
    for seed in range(16):
        q = ex.question(seed)
        m = re.match(r"Against (\d) opponents?, (?:just dealt|after (\d) turns? each)\. By the chart", q.prompt)
        assert m, q.prompt
        opponents, turns = int(m.group(1)), int(m.group(2) or 0)
        seen.add((opponents, turns))
        rows = {r.value: r for r in chart_rows(knock_line("classic", opponents, turns))}
        value = hand_value(parse_cards(q.shown[0][1]))
        row = rows[value]
        assert (
            q.solution == ("knock" if row.knocks else "play on") == ("knock" if row.knock > row.play_on else "play on")
        )
        assert q.solution == ("knock" if wants_knock(name, seed) else "play on")
        assert abs(row.knock - row.play_on) >= 2 * CLOSE_CALL
        assert f"{level(row.knock)} if you knock and {level(row.play_on)} if you play on" in q.why
    if name == "knock-chart":  # lesson 3: just dealt, one to three opponents
        assert {t for _, t in seen} == {0} and {o for o, _ in seen} == {1, 2, 3}
    else:  # lesson 6: one opponent, the line moving turn by turn through each step
        assert {o for o, _ in seen} == {1}
        turns_by_seed = [re.search(r"after (\d) turn", ex.question(s).prompt) for s in range(8)]
        assert [int(m.group(1)) if m else 0 for m in turns_by_seed] == [0, 1, 2, 3, 0, 1, 2, 3]


def test_knock_answers_come_three_and_three_in_every_six_seeds_in_no_fixed_order() -> None:
    patterns = set()
    for name in ("knock-cost", "knock-chart", "knock-early"):
        for block in range(4):
            pattern = tuple(wants_knock(name, 6 * block + i) for i in range(6))
            assert pattern.count(True) == 3
            patterns.add(pattern)
    assert len(patterns) >= 4  # not one alternation a learner could learn


def test_feed_next_C5_throws_the_equal_card_the_next_player_does_not_collect() -> None:
    from scatlab.cards import parse_cards

    ex = EXERCISES["feed-next"]
    for seed in SEEDS:
        q = ex.question(seed)
        hand = parse_cards(q.shown[0][1])
        taken = parse_cards(q.prompt.split("took the ")[1].split(" ")[0])[0]
        kept = {c: hand_value([h for h in hand if h != c]) for c in hand}
        best = max(kept.values())
        answer = parse_cards(q.solution)[0]
        assert kept[answer] == best and answer.suit != taken.suit
        rivals = [c for c in hand if kept[c] == best and c != answer]
        assert len(rivals) == 1 and rivals[0].suit == taken.suit  # the tempting throw feeds them


WORKED = [name for name, ex in EXERCISES.items() if ex.explain is not None]


@pytest.mark.parametrize("name", WORKED)
def test_the_working_speaks_the_lessons_words(name: str) -> None:
    """docs/design/voice.md: the working writes the lesson's sum ("3 × 31", "on average",
    "1 in 48 (about 2%)"), never notation no lesson teaches (P(...) before lesson 3, E[...],
    a set of outs, a centred dot for a product), and a long sum is cut into short lines."""
    ex = EXERCISES[name]
    for seed in range(6):
        working = ex.working(ex.question(seed))
        for notation in ("E[", "\\{", "\\cdot", "\\left|", "P(", "\\approx", "\\frac"):
            assert notation not in working, (seed, working)
        for line in working.splitlines():
            assert line.count("+") <= 4, line  # at most four terms a line: it fits a phone


def test_the_working_of_a_draw_counts_the_outs_as_lesson_2_does() -> None:
    q = EXERCISES["draw-chance"].question(1)
    assert EXERCISES["draw-chance"].working(q).splitlines() == [
        "\\text{outs (cards you have not seen that make 31): J♥, Q♥, K♥}",
        "\\text{chance of 31 = outs / unseen cards = 3/48 = 1/16}",
        "\\text{= 3 in 48 (about 6%)}",
    ]


def test_the_working_waits_for_an_answer_and_then_shows_the_sum() -> None:
    from scatlab.course.widgets.exercises import ExerciseWidget

    w = ExerciseWidget("ev-sum", progress=None)
    assert w.show_working() == "" and w.working_button.layout.display == "none"
    w.answer(w.question.solution)
    assert w.working_button.layout.display == "flex"
    assert "on average" in w.show_working() and "$$" in w.working.value
    w.new_question()
    assert w.working.value == "" and w.working_button.layout.display == "none"
    plain = ExerciseWidget("hand-value", progress=None)
    plain.answer(plain.question.solution)
    assert plain.working_button.layout.display == "none"  # nothing to work out beyond the reason


def test_a_typed_fraction_may_have_spaces_and_a_percentage_is_refused_with_what_to_type() -> None:
    assert read_number(" 1 / 48 ") == Fraction(1, 48) and read_number("3 /48") == Fraction(1, 16)
    with pytest.raises(ExerciseError, match="'6%' is a percentage: type a chance as a fraction, outs / unseen cards"):
        read_number("6%")
    assert read_number("30½") == read_number("30.5") == Fraction(61, 2) and read_number("½") == Fraction(1, 2)
    for apart in ("2 8", "30 .5", "1 / 4 8"):  # a space between digits is not one number: "2 8" is not 28
        with pytest.raises(
            ExerciseError, match=f"{apart!r} has a space inside: type one number such as 21, 30.5 or 3/48"
        ):
            read_number(apart)
    ex = EXERCISES["draw-chance"]
    q = ex.question(0)
    n, unseen = q.solution.split("/")
    assert ex.check(q, f"{n} / {unseen}").correct


def test_tenths_rounds_halves_up_and_refuses_what_is_not_exact() -> None:
    assert [tenths(Fraction(x)) for x in ("113/4", "28", "-1/20", "1/20", "-3/10", "-17/10")] == [
        "28.3",
        "28.0",
        "0.0",
        "0.1",
        "-0.3",
        "-1.7",
    ]
    for bad in (28.25, True, "28"):
        with pytest.raises(ExerciseError, match="is not an exact value"):
            tenths(bad)  # type: ignore[arg-type]
    with pytest.raises(ExerciseError, match="belongs to"):
        EXERCISES["ev-sum"].working("not a question")  # type: ignore[arg-type]


def test_enter_in_the_answer_box_checks_the_value_sent_after_it() -> None:
    """Enter checks a typed answer. The browser sends the key first and the value after it
    (or no value when it has not changed): the widget waits for the value, or checks the one
    it has once no value comes."""
    import asyncio
    import threading

    from scatlab.course.widgets.exercises import ExerciseWidget

    async def press_enter_then_send(value: str | None) -> ExerciseWidget:
        w = ExerciseWidget("hand-value", seed=3, progress=None)
        if value is None:  # typed and sent earlier (the box lost the focus), then Enter
            w.number.value = w.question.solution
        w.number._submission_callbacks(w.number)  # what a "submit" message from the browser calls
        assert w.score.value == "no answers yet"  # not checked before the value comes
        if value is not None:
            w.number.value = value
        else:
            await asyncio.sleep(0.6)
        return w

    def in_a_kernel_like_loop(value: str | None) -> ExerciseWidget:
        """Run in a thread of its own with its own event loop, as a kernel's (whatever
        loop the test process runs meanwhile)."""
        out: list[ExerciseWidget] = []
        failed: list[BaseException] = []

        def run() -> None:
            try:
                out.append(asyncio.run(press_enter_then_send(value)))
            except BaseException as exc:  # noqa: BLE001 - raised again in the test's thread
                failed.append(exc)

        thread = threading.Thread(target=run)
        thread.start()
        thread.join(30)
        if failed:
            raise failed[0]
        assert out, "the widget's loop did not finish"
        return out[0]

    sent = in_a_kernel_like_loop(EXERCISES["hand-value"].question(3).solution)
    assert sent.score.value == "1 of 1 right" and "Right" in sent.feedback.value
    unchanged = in_a_kernel_like_loop(None)
    assert unchanged.score.value == "1 of 1 right"
    blank = in_a_kernel_like_loop("  ")
    assert blank.score.value == "no answers yet" and not blank.number.disabled  # nothing typed: nothing checked
