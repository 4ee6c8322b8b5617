"""The lessons' steps (issue 36): puzzles from seeded positions, the star rule at each
boundary, the best stars kept in the progress store and shown again on a reload."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from scatlab.course.exercises import EXERCISES, ExerciseError
from scatlab.course.lessons import LESSONS
from scatlab.course.progress import Progress, ProgressError
from scatlab.course.steps import MAX_PUZZLES, MIN_PUZZLES, STEPS, Step, star_text, stars, steps_of
from scatlab.course.widgets.steps import StepWidget

LESSON_DIR = Path(__file__).resolve().parents[2] / "lessons"


@pytest.mark.parametrize("total", [4, 5, 6, 10])
def test_stars_three_with_no_miss_two_with_one_one_with_half_right_none_below(total: int) -> None:
    assert stars(right=total, total=total) == 3
    assert stars(right=total - 1, total=total) == 2
    assert stars(right=total - 2, total=total) == 1
    half = -(-total // 2)  # at least half right, the boundary
    assert stars(right=half, total=total) == 1 and stars(right=half - 1, total=total) == 0
    assert stars(right=0, total=total) == 0  # guessing through a step earns nothing


@pytest.mark.parametrize("right,total", [(-1, 3), (4, 3), (0, 0), (True, 3), (1.0, 3)])
def test_stars_refuse_a_score_that_is_not_one(right: object, total: object) -> None:
    with pytest.raises(ExerciseError, match="is not a score"):
        stars(right=right, total=total)  # type: ignore[arg-type]


def test_star_text_shows_filled_and_empty_stars() -> None:
    assert [star_text(n) for n in range(4)] == ["☆☆☆", "★☆☆", "★★☆", "★★★"]
    with pytest.raises(ExerciseError):
        star_text(4)


def test_every_step_has_a_goal_three_to_ten_puzzles_and_a_lesson_notebook_that_shows_it() -> None:
    lesson_ids = {lesson.id for lesson in LESSONS}
    for step in STEPS.values():
        assert step.lesson in lesson_ids and step.exercise in EXERCISES
        assert MIN_PUZZLES <= step.puzzles <= MAX_PUZZLES
        assert step.goal.endswith(".") and len(step.goal.split()) <= 20
        assert step.id.split(".")[0] == str(int(step.lesson[:2]))
        cells = json.loads((LESSON_DIR / f"{step.lesson}.ipynb").read_text(encoding="utf-8"))["cells"]
        sources = ["".join(c["source"]) for c in cells]
        shown = [i for i, s in enumerate(sources) if f'StepWidget("{step.id}")' in s]
        assert len(shown) == 1, f"step {step.id} is shown {len(shown)} times in {step.lesson}"
        idea = sources[shown[0] - 1]
        assert idea.startswith(f"## Step {step.id}: {step.title}"), idea[:60]
        assert len(idea.split()) <= 125  # one idea, at most about 120 words


def test_steps_of_a_lesson_are_in_order_and_a_bad_step_is_refused() -> None:
    assert [s.id for s in steps_of("02-draw-or-take")] == ["2.1", "2.2", "2.3", "2.4"]
    with pytest.raises(ExerciseError, match="'nope' is not an exercise"):
        Step("9.9", "01-the-game", "x", "x.", "nope")
    with pytest.raises(ExerciseError, match="3 to 10 puzzles"):
        Step("9.9", "01-the-game", "x", "x.", "hand-value", puzzles=11)
    with pytest.raises(ExerciseError, match="'9.9' is not a step"):
        StepWidget("9.9", progress=None)
    with pytest.raises(ExerciseError, match="attempt=-1"):
        STEPS["1.1"].questions(-1)


def test_each_attempt_deals_new_puzzles_from_seeded_positions() -> None:
    step = STEPS["2.3"]
    first, again = step.questions(0), step.questions(1)
    assert first == step.questions(0)  # the same attempt, the same puzzles
    assert {q.text() for q in first}.isdisjoint({q.text() for q in again})


def _play(widget: StepWidget, misses: int) -> None:
    for i in range(widget.step.puzzles):
        q = widget.question
        wrong = next((c for c in q.choices if c not in q.accepted), None) if q.choices else "1000"
        widget.answer(wrong if i < misses and wrong is not None else q.solution)
        if not widget.done:
            widget.next_puzzle()


def test_a_step_must_be_answered_before_the_next_puzzle() -> None:
    w = StepWidget("4.1", progress=None)
    assert w.new_button.disabled and "Puzzle 1 of 6" in w.score.value
    first = w.question
    assert w.next_puzzle() == first or w.new_button.disabled  # the button is off until an answer
    w.answer(first.solution)
    assert not w.new_button.disabled and "✓" in w.score.value
    w.answer("0")  # answering again only shows the verdict: it is not counted twice
    assert w.results == [True]


def test_a_re_enabled_widget_earns_no_second_verdict(tmp_path: Path) -> None:
    """The kernel decides the stars: a page that re-enables the inputs through the widget's
    messages (the choice buttons, the answer box) and answers again gets the first verdict
    shown again; the results, the answers kept and the stars stay as the first answers made
    them, and the working stays hidden until a first verdict."""
    progress = Progress(tmp_path / "p.db")
    w = StepWidget("2.2", progress=progress)
    assert w.show_working() == ""  # a page that shows the button early gets nothing
    w.working_button.layout.display = "flex"
    assert w.show_working() == ""
    for i in range(w.step.puzzles):
        q = w.question
        wrong = next((c for c in q.choices if c not in q.accepted), None) if q.choices else "1000"
        assert wrong is not None
        first = w.answer(wrong)
        assert first is not None and not first.correct
        for b in w.choices.children:  # what a forged widget message does
            b.disabled = False
        w.number.disabled = w.check_button.disabled = False
        again = w.answer(q.solution)
        assert again == first and w.results == [False] * (i + 1)
        if not w.done:
            w.next_puzzle()
    assert w.done and w.earned == 0 and progress.step_stars() == {"2.2": 0}
    assert len(progress.answers("02-draw-or-take")) == w.step.puzzles
    assert all(not a.correct for a in progress.answers("02-draw-or-take"))


def test_stars_are_kept_as_the_best_and_shown_again_on_a_reload(tmp_path: Path) -> None:
    progress = Progress(tmp_path / "p.db")
    w = StepWidget("2.2", progress=progress)
    assert "Not finished yet" in w.stars.value
    _play(w, misses=1)
    assert w.done and w.earned == 2 and "Step done: ★★☆" in w.score.value and w.new_button.description == "Try again"
    assert progress.step_stars() == {"2.2": 2}
    n = STEPS["2.2"].puzzles
    w.try_again()
    assert not w.done and w.results == [] and w.question.seed == n
    _play(w, misses=0)
    assert progress.step_stars("02-draw-or-take") == {"2.2": 3}
    again = StepWidget("2.2", progress=Progress(tmp_path / "p.db"))  # a reload of the page
    assert "Your best: ★★★" in again.stars.value
    assert again.question.seed == 2 * n  # not the puzzles already answered: their answers are known
    _play(again, misses=2)
    assert again.earned == 1 and again.best == 3 and progress.step_stars() == {"2.2": 3}  # never lowered
    assert len(progress.answers("02-draw-or-take")) == 3 * n  # every answer kept too
    half = StepWidget("2.2", progress=progress)
    half.answer(half.question.solution)
    assert StepWidget("2.2", progress=progress).question.seed == 4 * n  # a half-played attempt is not dealt again


def test_fewer_than_half_right_earns_no_star_and_says_the_step_was_played(tmp_path: Path) -> None:
    progress = Progress(tmp_path / "p.db")
    w = StepWidget("4.1", progress=progress)
    _play(w, misses=4)
    assert w.done and w.earned == 0 and "try again for a star" in w.score.value
    assert progress.step_stars() == {"4.1": 0} and "Your best: ☆☆☆, no star yet" in w.stars.value
    assert "Your best: ☆☆☆, no star yet" in StepWidget("4.1", progress=progress).stars.value  # over a reload


def test_record_stars_refuses_other_counts_and_reset_clears_them(tmp_path: Path) -> None:
    progress = Progress(tmp_path / "p.db")
    for bad in (-1, 4, True, "3"):
        with pytest.raises(ProgressError, match="stars="):
            progress.record_stars("01-the-game", "1.1", bad)  # type: ignore[arg-type]
    assert progress.step_stars() == {}
    assert progress.record_stars("01-the-game", "1.1", 1) == 1
    progress.reset()
    assert progress.step_stars() == {}


def test_an_older_database_without_the_steps_table_keeps_working(tmp_path: Path) -> None:
    path = tmp_path / "p.db"
    Progress(path).record_answer("01-the-game", "hand-value", "q", "21", correct=True)
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE IF EXISTS steps")
    conn.commit()
    conn.close()
    old = Progress(path)
    assert old.step_stars() == {} and old.notice in (None, "")
    assert old.record_stars("01-the-game", "1.1", 3) == 3
    assert len(old.answers()) == 1  # nothing the learner saved is lost


@pytest.mark.parametrize("bad", [["1.1"], None, 11, "9.9"])
def test_a_step_or_exercise_that_is_not_one_is_refused_with_the_names_known(bad: object) -> None:
    from scatlab.course.widgets.exercises import ExerciseWidget

    with pytest.raises(ExerciseError, match="known: 1.1, 2.1"):
        StepWidget(bad, progress=None)  # type: ignore[arg-type]
    with pytest.raises(ExerciseError, match="known: hand-value"):
        ExerciseWidget(bad, progress=None)  # type: ignore[arg-type]
    with pytest.raises(ExerciseError):
        Step("9.9", "01-the-game", "x", "x.", bad)  # type: ignore[arg-type]
    with pytest.raises(ExerciseError, match="3 to 10 puzzles"):
        Step("9.9", "01-the-game", "x", "x.", "hand-value", puzzles="5")  # type: ignore[arg-type]


def test_the_star_rule_is_stated_in_full_beside_every_step() -> None:
    """The rule that scores the learner is stated where it scores (docs/design/voice.md),
    and it is the rule :func:`stars` applies at each boundary."""
    from scatlab.course.widgets.steps import STAR_RULE

    assert "every puzzle right ★★★" in STAR_RULE and "one miss ★★☆" in STAR_RULE
    assert "at least half right ★☆☆" in STAR_RULE and "fewer ☆☆☆" in STAR_RULE
    assert stars(right=6, total=6) == 3 and stars(right=5, total=6) == 2
    assert stars(right=3, total=6) == 1 and stars(right=2, total=6) == 0
    for step in STEPS:
        assert STAR_RULE in StepWidget(step, progress=None).stars.value


def test_a_typed_answer_is_echoed_as_typed() -> None:
    """Step 2.2: "2/48" stays "2/48" (the reduced form follows it), never "you answered 1/24"."""
    w = StepWidget("2.2", progress=None)
    wrong = "2/48" if w.question.solution != "2/48" else "1/48"
    verdict = w.answer(wrong)
    assert verdict is not None and verdict.answer == wrong
    assert f"you answered {wrong}, which is" in verdict.message and "you answered 1/24" not in verdict.message


STEP_4_1_ATTEMPTS = 50
"""Step 4.1's puzzles read over this many attempts (300 showdowns: every C7 case, every player asked about)."""


def _clauses(text: str) -> list[str]:
    """A text's clauses: the pieces between full stops, semicolons and colons, lower-cased."""
    return [c.strip().lower() for c in re.split(r"[.;:]", text) if c.strip()]


def _seat_numbers(text: str) -> list[int]:
    """Every seat number a text names: ``player 2``, ``players 1, 2 and 3``."""
    found = []
    for m in re.finditer(r"\bplayers? ((?:\d+(?:, | and )?)+)", text, re.IGNORECASE):
        found += [int(n) for n in re.findall(r"\d+", m.group(1))]
    return found


def test_step_4_1_numbers_players_as_the_table_and_never_repeats_a_clause() -> None:
    """Step 4.1 (lesson 4, the showdown), over every puzzle of many attempts: players are
    numbered from 1 as the table shows them (the knocker is player 1, never "player 0") in
    the question, the hands' labels and the feedback, right or wrong; the feedback tells each
    player's loss once, repeats no clause, and agrees with the engine's answer."""
    step = STEPS["4.1"]
    ex = EXERCISES[step.exercise]
    asked = set()
    for attempt in range(STEP_4_1_ATTEMPTS):
        for q in step.questions(attempt):
            assert [label for label, _ in q.shown] == ["Player 1 (knocker)", "Player 2", "Player 3"]
            assert q.prompt.startswith("Player 1 knocked")
            asked.add(q.prompt.split("does ")[1])
            wrong = next(c for c in q.choices if c != q.solution)
            for verdict in (ex.check(q, q.solution), ex.check(q, wrong)):
                said = verdict.message
                for text in (q.prompt, said):
                    assert not re.search(r"\bplayers? 0\b", text, re.IGNORECASE), text
                    assert set(_seat_numbers(text)) <= {1, 2, 3}, text
                clauses = _clauses(said)
                assert len(clauses) == len(set(clauses)), f"a clause repeated: {said}"
                told = said.split(").", 1)[1]  # after "The hands are worth ... (players 1, 2 and 3)."
                assert sorted(_seat_numbers(told)) == [1, 2, 3], f"each player's loss once: {said}"
            # the feedback names what the asked player loses, as the engine settles it
            who = "knocker" if "knocker" in q.prompt else q.prompt.split("does ")[1].split(" lose")[0]
            loss = {"0": "nothing", "1": "a life", "2": "two lives"}[q.solution]
            sentence = ex.check(q, q.solution).message.split(").", 1)[1]
            assert loss in sentence or (q.solution == "0" and "knocker is safe" in sentence), (who, sentence)
    assert asked == {"the knocker (player 1) lose?", "player 2 lose?", "player 3 lose?"}
