"""Practice puzzles (issue 36, part 2): every puzzle's answer is the ranking's best move and
every other choice costs at least the stated margin, re-created from the puzzle's own
fields; the same arguments give the same puzzles; JSON round-trips; answers are checked
with a reason; the Elo rating at its boundaries; the practice table on an older database;
the ``scatlab puzzles`` command; the practice page without a browser."""

from __future__ import annotations

import json
import sqlite3
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scatlab.analysis import rank, win_level
from scatlab.cards import Card
from scatlab.cli import main
from scatlab.course import puzzles as pz
from scatlab.course.progress import Progress
from scatlab.course.puzzles import THEMES, VALUE_MARGIN, WIN_MARGIN, Puzzle, generate, pool
from scatlab.course.rating import LEVEL_RATING, START, K, expected, update
from scatlab.errors import ExerciseError

SEEDS = (0, 7, 123)
COUNT = 6


def _all() -> list[Puzzle]:
    return [p for theme in THEMES for seed in SEEDS for p in generate(theme, COUNT, seed)]


# -- the criterion, checked against rank() from the stored fields ---------------------------


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_the_answer_is_the_rankings_best_move_and_every_other_choice_costs_the_margin(theme: str, seed: int) -> None:
    found = generate(theme, COUNT, seed)
    assert len(found) == COUNT and {p.theme for p in found} == {theme}
    for p in found:
        r = rank(p.position())  # re-created from the puzzle's fields, no game
        answer = p.moves[p.choices.index(p.answer)]
        assert r.best.name == answer, p.id
        ratios = []
        for choice, move, cost, scale in zip(p.choices, p.moves, p.costs, p.scales):
            if choice == p.answer:
                assert cost == 0
                continue
            assert r.cost(move) == cost and r.scale_of(move) == scale, (p.id, choice)
            margin = VALUE_MARGIN if scale == "value" else WIN_MARGIN
            assert cost >= margin, (p.id, choice, cost)
            ratios.append(cost / margin)
        assert p.margin / (VALUE_MARGIN if p.margin_scale == "value" else WIN_MARGIN) == min(ratios)
        assert p.level == (1 if min(ratios) >= pz.EASY else 2 if min(ratios) >= pz.MEDIUM else 3)


def test_each_theme_asks_its_own_question() -> None:
    for p in generate("take-or-draw", COUNT, 0):
        assert p.phase == "turn" and p.choices[1] == "draw" and p.choices[0].startswith("take ")
        assert not any(m.sure_31 for m in rank(p.position()).moves)
    for p in generate("throw", COUNT, 0):
        assert p.phase == "discard" and all(c.startswith("throw ") for c in p.choices) and len(p.choices) in (3, 4)
        assert p.taken is None or f"throw {p.taken.pretty}" not in p.choices  # C5
    for p in generate("knock", COUNT, 0):
        assert p.choices == ("knock", "play on")
    for p in generate("chase-31", COUNT, 0):
        best = rank(p.position()).best
        assert (
            best.sure_31
            or pz._outs(
                p.hand if p.phase == "turn" else pz._kept(p.hand, best.action.card),  # type: ignore[arg-type]
                p.knowledge().unseen,
            )
            >= pz.CHASE_OUTS
        )


def test_both_knock_answers_occur_and_every_pool_holds_every_level() -> None:
    assert {p.answer for p in pool("knock")} == {"knock", "play on"}
    for theme in THEMES:
        assert {p.level for p in pool(theme)} == {1, 2, 3}, theme


def test_the_learners_words_have_no_plus_minus_monte_carlo_seed_or_card_letters() -> None:
    for p in _all():
        text = p.why + p.prompt + p.situation + " ".join(p.choices)
        assert "±" not in text and "Monte Carlo" not in text and "seed" not in text.lower()
        assert not any(f" {c} " in f" {text} " for c in ("AH", "10S", "KD", "9C")), p.id
        assert any(code in p.why for code in ("C4", "C5", "C6", "C7", "C8")), p.id


def test_C6_a_last_turn_puzzle_counts_draws_so_a_first_turn_knock_reads_plainly() -> None:
    # A knock on an opponent's first turn leaves their count of completed turns at 0: the
    # line counts draws and takes and says the knock took a draw's place (C6).
    finals = [p for p in _all() if p.final]
    assert finals and any(0 in p.opponent_turns for p in finals)
    for p in _all():
        times = {1: "once", 2: "twice"}
        for t in p.opponent_turns:
            said = (
                "has not drawn or taken a card yet this hand"
                if t == 0
                else f"has drawn or taken a card {times.get(t, f'{t} times')} this hand"
            )
            assert said in p.situation
        assert "drawn or taken not yet" not in p.situation  # issue 64: correct English
        assert len(p.situation_lines) == 2 + len(p.opponent_turns) + p.final  # one short fact a line
        assert ("an opponent has knocked (instead of drawing)" in p.situation) == p.final
        assert "turns" not in p.situation


# -- reproducible, JSON, answers ---------------------------------------------------------------


def test_the_same_arguments_give_the_same_puzzles() -> None:
    first = generate("throw", 5, 42)
    pz._game_puzzles.cache_clear()  # played again from scratch
    assert generate("throw", 5, 42) == first
    assert generate("throw", 3, 42) == first[:3]
    assert generate("throw", 5, 43) != first
    assert [p.level for p in generate("throw", 4, 42, level=2)] == [2, 2, 2, 2]


def test_json_round_trips_every_puzzle() -> None:
    for p in _all():
        data = json.loads(json.dumps(p.to_json()))
        assert Puzzle.from_json(data) == p


def test_json_that_is_not_a_puzzle_is_refused_plainly() -> None:
    data = generate("knock", 1, 0)[0].to_json()
    with pytest.raises(ExerciseError, match="missing \\['why'\\]"):
        Puzzle.from_json({k: v for k, v in data.items() if k != "why"})
    with pytest.raises(ExerciseError, match="not a puzzle: .*'ZZ'"):
        Puzzle.from_json({**data, "hand": ["ZZ"]})
    with pytest.raises(ExerciseError, match="do not fit"):
        Puzzle.from_json({**data, "answer": "fold"})
    with pytest.raises(ExerciseError, match="is not a whole number"):
        Puzzle.from_json({**data, "level": "1"})


def test_check_says_why_right_and_wrong_and_refuses_an_unknown_answer() -> None:
    p = generate("throw", 1, 0)[0]
    right = p.check(p.answer)
    assert right.correct and right.message == f"Right: {p.why}"
    wrong = next(c for c in p.choices if c != p.answer)
    v = p.check(wrong.upper())
    assert not v.correct and v.answer == wrong
    mine, best = (win_level(p.wins[p.choices.index(c)]) for c in (wrong, p.answer))
    assert v.message == (
        f"Not quite: you chose to {pz.choice_words(wrong)} ({mine} chance of winning the game); the "
        f"best move is to {pz.choice_words(p.answer)} ({best}). {p.why}"
    )
    assert float(mine.rstrip("%")) <= float(best.rstrip("%"))  # levels: the answer's is the higher
    card = p.moves[p.choices.index(p.answer)].split()[1]  # "discard 4C": the card in letters
    assert p.check(f"throw {card.lower()}").correct  # letters are read as symbols
    with pytest.raises(ExerciseError) as err:
        p.check("throw the joker")
    assert str(err.value) == f"'throw the joker' is not one of the choices: {', '.join(p.choices)}"
    assert isinstance(err.value, ValueError)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("bluff", 1, 0), "'bluff' is not a puzzle theme: choose one of take-or-draw, throw, knock, chase-31"),
        (("knock", 0, 0), "count=0 is not allowed: use a whole number from 1 to 200"),
        (("knock", True, 0), "count=True is not allowed"),
        (("knock", 1, 2.5), "seed=2.5 is not allowed: use a whole number"),
        (("knock", 1, 2**63), "seed=9223372036854775808 is not allowed"),
    ],
)
def test_bad_theme_count_or_seed_is_refused_with_what_is_accepted(args: tuple[object, ...], words: str) -> None:
    with pytest.raises(ExerciseError) as err:
        generate(*args)  # type: ignore[arg-type]
    assert str(err.value).startswith(words)


def test_a_bad_level_is_refused() -> None:
    with pytest.raises(ExerciseError, match="level=4 is not allowed: use 1 \\(easy\\), 2 or 3 \\(hard\\)"):
        generate("knock", 1, 0, level=4)


@settings(max_examples=6, deadline=None)
@given(theme=st.sampled_from(THEMES), seed=st.integers(0, 10**6))
def test_any_seed_gives_puzzles_whose_answer_is_the_rankings_best(theme: str, seed: int) -> None:
    p = generate(theme, 1, seed)[0]
    assert rank(p.position()).best.name == p.moves[p.choices.index(p.answer)]
    assert Puzzle.from_json(p.to_json()) == p and p.check(p.answer).correct


# -- the rating --------------------------------------------------------------------------------


def test_elo_a_win_raises_a_loss_lowers_with_exact_figures() -> None:
    assert (K, START, LEVEL_RATING) == (32, 1000, {1: 1000, 2: 1200, 3: 1400})
    assert expected(1000, 1) == 0.5
    assert update(1000, 1, True) == 1016 and update(1000, 1, False) == 984  # 32 * 0.5
    assert update(1000, 2, True) == 1024 and update(1000, 2, False) == 992  # expected 0.2403: +24.3, -7.7
    assert update(1000, 3, True) == 1029 and update(1000, 3, False) == 997  # expected 0.0909: +29.1, -2.9
    assert update(1400, 1, False) == 1371  # expected 0.9091: -29.1


def test_elo_moves_at_least_one_point_even_when_the_result_was_certain() -> None:
    assert update(3000, 1, True) == 3001  # expected ~1: the change rounds to 0, kept at +1
    assert update(0, 3, False) == -1
    assert update(1000, 1, True) - 1000 <= K


def test_elo_refuses_a_level_that_is_not_one() -> None:
    with pytest.raises(ExerciseError, match="level=4 is not a puzzle level"):
        update(1000, 4, True)
    with pytest.raises(ExerciseError, match="correct=1 is not allowed"):
        update(1000, 1, 1)  # type: ignore[arg-type]


# -- the progress store ------------------------------------------------------------------------


def _tables(path: Path) -> set[str]:
    conn = sqlite3.connect(path)
    try:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    finally:
        conn.close()


def test_the_practice_table_is_made_on_an_older_database_by_the_first_answer(tmp_path: Path) -> None:
    path = tmp_path / "progress.sqlite3"
    old = Progress(path)
    old.record_answer("01-the-game", "hand-value", "AH KH 4C", "21", correct=True)
    assert "practice" not in _tables(path)  # a database as older versions made it
    assert old.practice_rating() == START and old.practice_answers() == []  # read: no table, defaults
    assert "practice" not in _tables(path)  # reading does not make it
    assert old.record_practice("knock/0/0/0", "knock", 1, True) == 1016
    assert "practice" in _tables(path)
    again = Progress(path)  # the extra table does not make the file suspect
    assert again.notice is None and again.practice_rating() == 1016
    assert again.record_practice("throw/0/1/2", "throw", 3, False) == 1013  # 1016 against 1400: -2.8
    answers = again.practice_answers()
    assert [(a.puzzle, a.level, a.correct, a.rating_before, a.rating_after) for a in answers] == [
        ("knock/0/0/0", 1, True, 1000, 1016),
        ("throw/0/1/2", 3, False, 1016, 1013),
    ]
    assert len(again.answers()) == 1
    again.reset()
    assert again.practice_rating() == START and again.practice_answers() == [] and again.answers() == []


def test_a_bad_practice_answer_is_refused_and_keeps_nothing(tmp_path: Path) -> None:
    from scatlab.errors import ProgressError

    p = Progress(tmp_path / "progress.sqlite3")
    with pytest.raises(ProgressError, match="level=7"):
        p.record_practice("x", "knock", 7, True)
    with pytest.raises(ProgressError, match="puzzle id ''"):
        p.record_practice("", "knock", 1, True)
    assert p.practice_answers() == []


# -- the command line --------------------------------------------------------------------------


def test_cli_puzzles_lists_the_same_puzzles_as_generate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzles", "--theme", "knock", "--count", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    for i, p in enumerate(generate("knock", 2, 3), start=1):
        assert f"{i}. knock, level {p.level} ({p.id})" in out and p.why in out
    assert "♥" in out or "♠" in out or "♦" in out or "♣" in out


def test_cli_puzzles_json_parses_back_into_the_puzzles(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzles", "--theme", "chase-31", "--count", "3", "--seed", "1", "--level", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [Puzzle.from_json(d) for d in data] == generate("chase-31", 3, 1, level=3)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["puzzles", "--theme", "bluff"], "scatlab puzzles: error: 'bluff' is not a puzzle theme"),
        (
            ["puzzles", "--theme", "knock", "--count", "0"],
            "scatlab puzzles: error: --count 0 is not allowed: use 1 to 200",
        ),
        (
            ["puzzles", "--theme", "knock", "--level", "4"],
            "scatlab puzzles: error: --level 4 is not allowed: use 1 to 3",
        ),
        (
            ["puzzles", "--theme", "knock", "--seed", "x"],
            "scatlab puzzles: error: argument --seed: invalid whole number",
        ),
        (["puzzles"], "scatlab puzzles: error: the following arguments are required: --theme"),
        (["puzzles", "--theme", "knock", "--theme", "throw"], "scatlab puzzles: error: argument --theme: given twice"),
    ],
)
def test_cli_puzzles_bad_input_is_one_line_and_status_2(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith(words) and "Traceback" not in err


def test_cli_puzzles_falls_back_to_letters_on_an_ascii_terminal(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-m", "scatlab", "puzzles", "--theme", "throw", "--count", "1"],
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "ascii"},
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    text = run.stdout.decode("ascii")
    p = generate("throw", 1, 0)[0]
    assert f"Your hand: {' '.join(str(c) for c in p.hand)}" in text


# -- the practice page, without a browser -------------------------------------------------------


def test_the_practice_page_scores_once_and_moves_the_rating(tmp_path: Path) -> None:
    from scatlab.course.widgets.practice import PracticePage

    progress = Progress(tmp_path / "progress.sqlite3")
    page = PracticePage("knock", progress=progress)
    first = page.puzzle
    assert first == pool("knock")[0] and page.rating == START
    assert "Your rating: <b class='scatlab-rating-value'>1000</b>" in page.score.value
    assert [b.description for b in page.choices.children] == list(first.choices)
    page.answer(first.answer)
    after = update(START, first.level, True)
    assert page.rating == after == progress.practice_rating() and "scatlab-right" in page.feedback.value
    page.answer(first.answer)  # scored once
    assert len(progress.practice_answers()) == 1
    second = page.next_puzzle()
    assert second == pool("knock")[1]
    wrong = next(c for c in second.choices if c != second.answer)
    page.choices.children[second.choices.index(wrong)].click()
    assert page.rating == update(after, second.level, False) < after
    assert "scatlab-wrong" in page.feedback.value and "Not quite" in page.feedback.value
    marks = {b.description: b.button_style for b in page.choices.children}
    assert marks == {f"{wrong} (your answer)": "danger", second.answer: "success"}
    page.level.value = 3
    assert page.puzzle.level == 3 and page.puzzle.theme == "knock"
    page.theme.value = "throw"
    assert page.puzzle.theme == "throw" and page.puzzle.level == 3
    assert PracticePage(progress=progress).rating == page.rating  # kept


def test_the_rating_rule_is_stated_beside_the_rating_and_each_change_is_shown(tmp_path: Path) -> None:
    """The rule that scores the learner is stated where it scores (docs/design/voice.md), and
    says what Elo does: a wrong answer costs more on an easy puzzle (level 1 from 1000: 16
    points) than on a hard one (level 3: 3 points); a right one gains more on a hard one."""
    from scatlab.course.widgets.practice import RATING_RULE, PracticePage

    assert update(START, 1, False) - START == -16 and update(START, 3, False) - START == -3
    assert update(START, 3, True) - START == 29 > update(START, 1, True) - START == 16
    assert "more when the puzzle is rated above you" in RATING_RULE  # a right answer on a hard one
    assert "more when the puzzle is rated below you" in RATING_RULE  # a wrong answer on an easy one
    assert "more for harder puzzles" not in RATING_RULE
    page = PracticePage("knock", progress=Progress(tmp_path / "progress.sqlite3"))
    assert RATING_RULE in page.score.value and "scatlab-rating-change" not in page.score.value
    wrong = next(c for c in page.puzzle.choices if c != page.puzzle.answer)
    page.answer(wrong)
    change = update(START, page.puzzle.level, False) - START
    assert f"<span class='scatlab-rating-change'>(−{-change})</span>" in page.score.value


def test_the_course_index_links_the_practice_page() -> None:
    from scatlab.course.widgets.course import PRACTICE_PAGE, _index_html

    assert f"href='{PRACTICE_PAGE}'" in _index_html(None, "")


def test_puzzle_cards_are_cards() -> None:
    p = generate("take-or-draw", 1, 0)[0]
    assert all(type(c) is Card for c in p.hand) and isinstance(p.margin, Fraction)


def test_a_two_way_pool_holds_no_answer_beyond_its_share() -> None:
    """Always playing on, or always drawing, cannot score well on the practice page: in a
    two-way pool no answer fills more than TWO_WAY_SHARE (14 of 24), and the pool is still
    full and in the games' order."""
    from scatlab.course.puzzles import POOL_SEED, POOL_SIZE, TWO_WAY_SHARE

    for theme in ("knock", "take-or-draw"):
        puzzles = pool(theme)
        assert len(puzzles) == POOL_SIZE
        words = [p.answer.split()[0] for p in puzzles]
        assert max(words.count(w) for w in set(words)) <= POOL_SIZE * TWO_WAY_SHARE, theme
        places = [(p.seed, p.game, int(p.id.rsplit("/", 1)[1])) for p in puzzles]  # id: theme/seed/game/step
        assert all(seed == POOL_SEED for seed, _, _ in places) and places == sorted(places)


def test_C6_last_turn_positions_fill_at_most_their_share_of_a_pool() -> None:
    """Last turns (an opponent knocked, C6) give the clearest take-or-draw answers: capped at
    LAST_TURN_SHARE (12 of 24), the pool asks the ordinary mid-hand choice too, both ways."""
    from scatlab.course.puzzles import LAST_TURN_SHARE, POOL_SIZE

    for theme in THEMES:
        puzzles = pool(theme)
        assert sum(p.final for p in puzzles) <= POOL_SIZE * LAST_TURN_SHARE, theme
    mid_hand = [p for p in pool("take-or-draw") if not p.final]
    assert len(mid_hand) >= POOL_SIZE // 2
    assert {p.answer.split()[0] for p in mid_hand} == {"take", "draw"}


def test_the_shipped_practice_pools_are_the_pools_the_games_give() -> None:
    """The practice page reads its pools from scatlab/course/data (so a page opens without
    playing the games again); the file must be exactly what build_pool makes now. When this
    fails, run ``python tools/practice_pools.py``."""
    shipped = json.loads(pz.POOLS_FILE.read_text(encoding="utf-8"))
    assert shipped == json.loads(json.dumps(pz.pools_json(), ensure_ascii=False))
    for theme in THEMES:
        assert pool(theme) == pz.build_pool(theme)


def test_a_missing_or_stale_pools_file_falls_back_to_the_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No file, a file of other settings, or a damaged file: the pools are made from the
    games, the same puzzles."""
    for text in (
        None,
        json.dumps({"pool_size": 3, "seed": 0, "pools": {}}),
        "{not json",
        json.dumps({"pool_size": pz.POOL_SIZE, "seed": pz.POOL_SEED, "pools": {"knock": [{"id": 1}]}}),
    ):
        path = tmp_path / "pools.json"
        if text is not None:
            path.write_text(text, encoding="utf-8")
        monkeypatch.setattr(pz, "POOLS_FILE", path)
        pz._shipped_pools.cache_clear()
        pz.pool.cache_clear()
        assert pz.pool("knock") == pz.build_pool("knock")
    pz._shipped_pools.cache_clear()
    pz.pool.cache_clear()


# -- the newcomer's review of the practice page (rating farming, duplicates, reasons, words) ---


def _page(progress: Progress | None, theme: str = "knock", level: int | None = None):  # type: ignore[no-untyped-def]
    from scatlab.course.widgets.practice import PracticePage

    return PracticePage(theme, level, progress=progress)


def test_a_reload_serves_the_next_unanswered_puzzle_and_rates_each_puzzle_once(tmp_path: Path) -> None:
    """Rating farming: a new page (a reload) used to start each theme over at its first
    puzzle and score it again. Now each page load serves a puzzle not answered yet, and the
    rating moves once per puzzle, by Elo's figure for that answer."""
    progress = Progress(tmp_path / "progress.sqlite3")
    seen = []
    rating = START
    for _ in range(3):  # three page loads, one answer each
        page = _page(progress, "chase-31")
        p = page.puzzle
        assert p.id not in seen and not page.repeat
        page.answer(p.answer)
        rating = update(rating, p.level, True)
        assert page.rating == rating == progress.practice_rating()
        seen.append(p.id)
    assert seen == [q.id for q in pool("chase-31")[:3]]
    assert [a.puzzle for a in progress.practice_answers()] == seen
    assert [a.rating_after - a.rating_before != 0 for a in progress.practice_answers()] == [True] * 3


def test_switching_the_level_never_serves_an_answered_puzzle_again(tmp_path: Path) -> None:
    """Switching the level (or the theme) and back inside one page used to re-serve, and
    re-score, a puzzle already answered."""
    progress = Progress(tmp_path / "progress.sqlite3")
    page = _page(progress, "knock")
    answered = set()
    for level in (0, 1, 0, 1, 3, 0):
        page.level.value = level
        if page.puzzle.id in answered:  # the observer only fires on a change: ask for the next one
            page.next_puzzle()
        assert page.puzzle.id not in answered, (level, page.puzzle.id)
        page.answer(page.puzzle.answer)
        answered.add(page.puzzle.id)
    assert len(progress.practice_answers()) == len(answered) == 6


def test_once_every_puzzle_of_a_level_is_answered_they_come_again_not_rated(tmp_path: Path) -> None:
    """The choice made: a puzzle answered before may be served again once every puzzle of
    its theme and level has been answered; the page says "already answered: not rated
    again", shows the verdict and its reason, and keeps nothing (no record_practice call):
    the rating stays where it is, on this page and after a reload."""
    progress = Progress(tmp_path / "progress.sqlite3")
    level = min((1, 2, 3), key=lambda n: sum(p.level == n for p in pool("knock")))
    some = [p for p in pool("knock") if p.level == level]
    page = _page(progress, "knock", level)
    for p in some:
        assert page.puzzle == p and not page.repeat
        page.answer(p.answer)
        page.next_puzzle()
    rating, kept = progress.practice_rating(), len(progress.practice_answers())
    assert kept == len(some) and page.puzzle == some[0] and page.repeat
    assert "already answered, not rated again" in page.feedback.value
    wrong = next(c for c in page.puzzle.choices if c != page.puzzle.answer)
    verdict = page.answer(wrong)
    assert verdict is not None and not verdict.correct and "scatlab-wrong" in page.feedback.value
    assert "Already answered: not rated again." in page.feedback.value
    assert page.rating == rating == progress.practice_rating() and len(progress.practice_answers()) == kept
    again = _page(progress, "knock", level)  # a reload: still nothing new to rate
    assert again.repeat and again.puzzle == some[0]
    again.answer(again.puzzle.answer)
    assert again.rating == rating == progress.practice_rating() and len(progress.practice_answers()) == kept


def test_a_page_without_progress_rates_each_puzzle_once_too() -> None:
    page = _page(None, "throw", 3)
    first = page.puzzle
    page.answer(first.answer)
    after = page.rating
    page.level.value = 0
    page.level.value = 3
    assert page.puzzle != first
    page.theme.value = "knock"
    page.theme.value = "throw"
    assert page.puzzle != first and page.rating == after


def test_a_position_belongs_to_one_theme_in_the_pools() -> None:
    """The same position appeared under two themes (chase-31/0/1/16 was knock/0/1/16):
    now each position gives one puzzle, by the precedence chase-31 > knock > take-or-draw
    > throw, so no position is met twice in practice."""
    assert pz.PRECEDENCE == ("chase-31", "knock", "take-or-draw", "throw") and set(pz.PRECEDENCE) == set(THEMES)
    puzzles = [p for theme in THEMES for p in pool(theme)]
    places = [p.id.split("/", 1)[1] for p in puzzles]
    assert len(places) == len(set(places))
    positions = [(p.hand, p.discard, p.dead, p.opponent_holds, p.opponent_turns, p.taken, p.final) for p in puzzles]
    assert len(positions) == len(set(positions))
    for p in pool("take-or-draw"):
        assert "knock" not in p.choices and not any(q.id.endswith(p.id.split("/", 1)[1]) for q in pool("knock"))
    chase_knock = [p for p in pool("chase-31") if "knock" in p.choices]
    assert chase_knock and all(
        f"knock/{p.id.split('/', 1)[1]}" not in {q.id for q in pool("knock")} for p in chase_knock
    )


def test_every_reason_gives_each_choices_chance_of_winning_as_a_level_first() -> None:
    """A chase-31 puzzle offering take, draw and knock once said what knocking costs but not
    what playing on gives. Every pool puzzle's reason gives every choice's chance of winning
    the game, as levels, best first (the engine's scale, the one its answer is chosen on),
    before the figures behind them, and no signed change; a knock puzzle also its lives."""
    import re

    for theme in THEMES:
        for p in pool(theme):
            r = rank(p.position())
            assert len(p.wins) == len(p.choices)
            levels = [
                f"{win_level(w)} if you {pz.choice_words(c)}"
                for c, w in sorted(zip(p.choices, p.wins), key=lambda cw: -cw[1])
            ]
            said = "Your chance of winning the game: " + ", ".join(levels) + "."
            assert said in p.why, (p.id, p.why)
            assert p.wins[p.choices.index(p.answer)] == max(p.wins) == r.best.win, p.id
            assert not re.search(r"(?<![\w.%])[+\-−]\d+(\.\d+)?%", p.why), p.id
            if p.theme == "knock":
                knock = r.move("knock")
                assert knock.lives is not None and f"{float(knock.lives):.2f} lives" in p.why, p.id
                assert "If you play on, you lose a life this hand with a chance of" in p.why, p.id


def test_the_verdict_names_the_best_move_in_plain_words() -> None:
    draw = next(p for p in pool("take-or-draw") if p.answer == "draw")
    take = next(c for c in draw.choices if c.startswith("take "))
    assert draw.check(take).message.startswith(f"Not quite: you chose to take the {take.split()[1]} (")
    assert "; the best move is to draw (" in draw.check(take).message
    throw = pool("throw")[0]
    wrong = next(c for c in throw.choices if c != throw.answer)
    assert throw.check(wrong).message.startswith(f"Not quite: you chose to throw the {wrong.split()[1]} (")
    assert f"; the best move is to throw the {throw.answer.split()[1]} (" in throw.check(wrong).message
    knock = next(p for p in pool("knock") if p.answer == "play on")
    assert knock.check("knock").message.startswith("Not quite: you chose to knock (")
    assert "chance of winning the game); the best move is to play on (" in knock.check("knock").message


def test_no_reason_or_verdict_uses_words_a_newcomer_cannot_parse() -> None:
    jargon = (
        "the best is ",
        "did not call",
        "strictly",
        "yours costs",
        "showdown",
        "lives lost on average",
        "Knocking with",
    )
    for theme in THEMES:
        for p in pool(theme):
            texts = [p.why, p.prompt, p.situation] + [p.check(c).message for c in p.choices]
            for text in texts:
                assert not any(j in text for j in jargon), (p.id, text)
