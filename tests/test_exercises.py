"""The course's exercises: seeded, checked by the engine, explaining right and wrong answers."""

from __future__ import annotations

import pytest

from scatlab.course.exercises import EXERCISES, ExerciseError, exercises_of, read_number
from scatlab.course.lessons import APPENDICES, LESSONS
from scatlab.rules import hand_value, find_rules
from scatlab.skat import game_value

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
        wrong_answer = next((c for c in q.choices if c not in q.accepted), None) if q.choices else "1000"
        if wrong_answer is None:  # every choice is right (a tie): nothing wrong to try
            continue
        wrong = ex.check(q, wrong_answer)
        assert not wrong.correct
        assert wrong.message.startswith(f"Not quite: you answered {wrong.answer}, the answer is {q.solution}.")
        assert q.why[1:] in wrong.message and q.why[1:] in right.message


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
    assert "knocker is safe" in notes          # tie involving the knocker
    assert "lowest on their own" in notes and "player 0 loses 2" in notes  # knocker strictly lowest
    assert "player 1 loses 1; player 2 loses 1" in notes  # tie among non-knockers
    answers = {ex.question(s).solution for s in range(40)}
    assert answers == {"0", "1", "2"}


def test_skat_exercise_uses_the_calculator() -> None:
    ex = EXERCISES["skat-value"]
    for seed in SEEDS:
        q = ex.question(seed)
        if "Null" not in q.prompt:
            assert " x " in q.why
        assert int(q.solution) >= 18 or "Null" in q.prompt


def test_numbers_are_read_exactly_and_bad_answers_refused() -> None:
    ex = EXERCISES["house-value"]
    q = next(q for q in (ex.question(s) for s in range(80)) if q.solution == "30.5")
    assert ex.check(q, "30.5").correct and ex.check(q, "61/2").correct and ex.check(q, "30,5").correct
    with pytest.raises(ExerciseError, match="'thirty' is not a number"):
        ex.check(q, "thirty")
    knock = EXERCISES["knock-or-play"]
    with pytest.raises(ExerciseError, match="'fold' is not one of the choices: knock, play on"):
        knock.check(knock.question(0), "fold")
    with pytest.raises(ExerciseError, match="belongs to 'knock-or-play'"):
        ex.check(knock.question(0), "1")
    with pytest.raises(ExerciseError, match="seed=-1"):
        ex.question(-1)


def test_every_lesson_with_exercises_is_a_lesson_or_an_appendix() -> None:
    ids = {lesson.id for lesson in LESSONS} | {extra.id for extra in APPENDICES}
    assert {e.lesson for e in EXERCISES.values()} <= ids
    assert [e.id for e in exercises_of("01-the-game")] == ["hand-value"]


def test_skat_values_in_the_exercise_match_game_value() -> None:
    assert game_value("grand", matadors=4).value == 120
