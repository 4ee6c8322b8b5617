"""The course: lessons exist in order, link their neighbours and the rulebook, teach every rule
code, hold no game logic; the optional appendices are linked from their lessons and never
counted; lesson 4's deals end as promised; the widgets work without a browser."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from scatlab.analysis import win_level
from scatlab.app.launch import INDEX, ServeError, check_host, check_port, lessons_dir, reach_message, voila_options
from scatlab.course.exercises import exercises_of
from scatlab.course.lessons import ALL_CODES, APPENDICES, LESSONS, lesson
from scatlab.course.progress import Progress
from scatlab.course.scenarios import SCENARIOS, play_out
from scatlab.course.widgets.course import PRACTICE_PAGE
from scatlab.rules import RULEBOOK, GameRecord, play_random_game

LESSONS_DIR = lessons_dir()
LINK = re.compile(r"\]\(rulebook\.ipynb#([CV]\d+)\)")
READING_ONLY = {"07-not-this-game": "appendix-skat"}
"""Lessons that are reading pages: their widget and exercise moved to the appendix named
(issue 36, part 4), so the lesson has neither."""


def _cells(name: str) -> list[dict[str, object]]:
    return list(json.loads((LESSONS_DIR / name).read_text(encoding="utf-8"))["cells"])


def _source(cell: dict[str, object]) -> str:
    src = cell["source"]
    return "".join(src) if isinstance(src, list) else str(src)


def test_every_lesson_exists_in_order_with_the_index_and_rulebook() -> None:
    names = sorted(p.name for p in LESSONS_DIR.glob("*.ipynb"))
    assert names == sorted(
        [
            INDEX,
            "rulebook.ipynb",
            PRACTICE_PAGE,
            *(lesson.filename for lesson in LESSONS),
            *(extra.filename for extra in APPENDICES),
        ]
    )
    assert [lesson.number for lesson in LESSONS] == list(range(1, 9))
    for item in LESSONS:
        assert _source(_cells(item.filename)[0]).startswith(f"# {item.number}. {item.title}")
    for extra in APPENDICES:
        assert extra.id.startswith("appendix-") and extra.lesson in {item.id for item in LESSONS}
        assert _source(_cells(extra.filename)[0]).startswith(f"# Appendix: {extra.title}")


def test_each_lesson_has_its_header_footer_a_live_widget_and_its_steps_or_an_exercise() -> None:
    for item in LESSONS:
        code = "\n".join(_source(c) for c in _cells(item.filename) if c["cell_type"] == "code")
        assert f'lesson_header("{item.id}")' in code and f'lesson_footer("{item.id}")' in code
        if item.id in READING_ONLY:
            assert "ExerciseWidget(" not in code and "StepWidget(" not in code and exercises_of(item.id) == [], item.id
            continue
        assert "ExerciseWidget(" in code or "StepWidget(" in code, item.id
        assert re.search(r"(Explorer|Chart|Lab|Calculator|Analyzer|ScenarioTable|GameWithHints)\(", code), item.id


def test_each_appendix_is_optional_and_linked_from_its_lesson() -> None:
    """An appendix has the appendix header and footer (no "finished" button), its answers are
    kept under its own id, and the lesson it extends links to it as optional."""
    for extra in APPENDICES:
        cells = _cells(extra.filename)
        code = "\n".join(_source(c) for c in cells if c["cell_type"] == "code")
        assert f'appendix_header("{extra.id}")' in code and f'appendix_footer("{extra.id}")' in code
        assert "lesson_footer(" not in code and "lesson_header(" not in code
        for exercise in re.findall(r"ExerciseWidget\((.*)\)", code):
            assert f'lesson="{extra.id}"' in exercise, exercise
        prose = "\n".join(_source(c) for c in _cells(lesson(extra.lesson).filename) if c["cell_type"] == "markdown")
        link = re.search(rf"^Optional\b.*\]\({re.escape(extra.filename)}\)", prose, re.MULTILINE)
        assert link, f"{extra.lesson} does not link {extra.filename} as optional"
    for lesson_id, extra_id in READING_ONLY.items():
        assert any(a.id == extra_id and a.lesson == lesson_id for a in APPENDICES)
    assert [e.id for e in exercises_of("appendix-skat")] == ["skat-value"]


def test_an_appendix_footer_keeps_nothing_and_links_back(tmp_path: Path) -> None:
    from scatlab.course.widgets.course import appendix_footer, appendix_header

    for extra in APPENDICES:
        back = lesson(extra.lesson).filename
        for widget in (appendix_header(extra.id), appendix_footer(extra.id)):
            assert back in widget.value and INDEX in widget.value
        assert "does not count toward your progress" in appendix_footer(extra.id).value


def test_every_rule_code_is_taught_and_linked_to_its_rulebook_entry() -> None:
    linked: dict[str, set[str]] = {}
    for item in LESSONS:
        text = "\n".join(_source(c) for c in _cells(item.filename) if c["cell_type"] == "markdown")
        for code in LINK.findall(text):
            linked.setdefault(code, set()).add(item.id)
    assert set(linked) == set(ALL_CODES), sorted(set(ALL_CODES) - set(linked))
    assert set(linked) <= set(RULEBOOK)


def test_the_rulebook_page_anchors_every_code() -> None:
    from scatlab.course.widgets.course import rulebook_html

    html = rulebook_html()
    for code in ALL_CODES:
        assert f"id='{code}'" in html


def test_notebooks_hold_no_game_logic() -> None:
    """Cells import and show; no function, class or loop is defined in a lesson."""
    for path in LESSONS_DIR.glob("*.ipynb"):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] != "code":
                continue
            tree = ast.parse(_source(cell))
            for node in ast.walk(tree):
                assert not isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.For, ast.While, ast.Lambda)), (
                    f"{path.name}: {ast.dump(node)[:80]}"
                )


def test_previous_and_next_links_follow_the_course_order() -> None:
    from scatlab.course.widgets.course import lesson_header

    for item in LESSONS:
        html = lesson_header(item.id).value
        assert INDEX in html
        if item.previous:
            assert item.previous.filename in html
        if item.next:
            assert item.next.filename in html
    assert lesson(1).previous is None and lesson(8).next is None


@pytest.mark.parametrize("s", SCENARIOS, ids=[s.key for s in SCENARIOS])
def test_lesson_4_deals_end_as_the_lesson_says(s: object) -> None:
    from scatlab.course.scenarios import Scenario

    assert isinstance(s, Scenario)
    assert play_out(s) == s.expect
    assert s.code in s.explanation


def test_lesson_4_covers_every_showdown_and_31_case() -> None:
    keys = {s.key for s in SCENARIOS}
    assert {"lowest", "knocker-tied", "knocker-lowest", "others-tied"} <= keys  # C7
    assert {"declare", "after-knock", "after-knock-v9", "dealt", "dealt-two", "undeclared"} <= keys  # C8-C10, V9


def test_exercise_widget_keeps_answers_in_the_progress(tmp_path: Path) -> None:
    from scatlab.course.widgets.exercises import ExerciseWidget

    p = Progress(tmp_path / "p.sqlite3")
    w = ExerciseWidget("take-or-draw", progress=p)
    wrong = next(c for c in w.question.choices if c not in w.question.accepted)
    w.choices.children[w.question.choices.index(wrong)].click()
    assert "Not quite" in w.feedback.value and w.score.value == "0 of 1 right"
    # the buttons show it too: the learner's choice red and marked, the right one green
    styles = {c: (b.description, b.button_style, b.disabled) for c, b in zip(w.question.choices, w.choices.children)}
    assert styles[wrong] == (f"{wrong} (your answer)", "danger", True)
    assert all(styles[c] == (c, "success", True) for c in w.question.accepted)
    w.answer(w.question.solution)  # a second answer to the same question is not scored again
    assert w.score.value == "0 of 1 right"
    w.new_button.click()
    w.answer(w.question.solution)
    assert w.score.value == "1 of 2 right"
    assert [a.correct for a in p.answers("02-draw-or-take")] == [False, True]
    w.new_button.click()
    assert w.answer("nonsense") is None and "is not one of the choices" in w.feedback.value


def test_index_shows_progress_and_saved_games(tmp_path: Path) -> None:
    from scatlab.course.widgets.course import course_index, lesson_footer

    p = Progress(tmp_path / "p.sqlite3")
    footer = lesson_footer("03-knocking", progress=p)
    footer.children[0].children[0].click()
    assert p.finished_lessons() == {"03-knocking"}
    p.record_answer("03-knocking", "knock-chart", "q", "knock", correct=True)
    p.save_game("evening game", GameRecord.from_state(play_random_game("classic", 3, seed=2)).dumps())
    html = course_index(progress=p).children[0].value.replace("&nbsp;", " ")  # kept on one line
    assert "1 right of 1 answer" in html and "finished ✓" in html
    assert "★ 0 of 6" in html and "not started" in html  # lesson 3's two steps; lesson 1 untouched
    p.record_stars("03-knocking", "3.1", 2)
    assert "★ 2 of 6" in course_index(progress=p).children[0].value.replace("&nbsp;", " ")
    assert "08-play-a-game.ipynb?game=1" in html and "evening game" in html
    # the appendices are listed apart, as optional, after the lessons' table
    lessons_table, rest = html.split("</table>", 1)
    for extra in APPENDICES:
        assert extra.filename not in lessons_table and f"href='{extra.filename}'" in rest
    assert "Optional pages" in rest and "do not count toward your progress" in rest
    p.record_answer("appendix-skat", "skat-value", "q", "36", correct=True)
    p.record_answer("appendix-skat", "skat-value", "q2", "40", correct=False)
    html = course_index(progress=p).children[0].value.replace("&nbsp;", " ")
    assert html.split("</table>", 1)[0].count("1 right of 1 answer") == 1  # lesson 3's
    # an optional page does not count, so the index shows no score beside it
    assert "scatlab-appendices" in html and " right of " not in html.split("scatlab-appendices", 1)[1]


def test_the_index_shows_the_practice_rating_and_no_file_path(tmp_path: Path) -> None:
    """The course index (issue 64): the practice rating beside the practice link, before
    any puzzle and after some; never the progress database's path."""
    from scatlab.course.rating import START
    from scatlab.course.widgets.course import course_index

    p = Progress(tmp_path / "p.sqlite3")
    html = course_index(progress=p).children[0].value
    assert f"Your rating starts at <b>{START}</b>." in html
    rating = p.record_practice("throw/0/1/2", "throw", 2, True)
    rating = p.record_practice("throw/0/1/3", "throw", 2, False)
    html = course_index(progress=p).children[0].value
    assert f"Your rating: <b>{rating}</b>, after 2 puzzles." in html
    assert str(tmp_path) not in html and "sqlite" not in html and "kept in" not in html


def test_a_saved_game_reopens_from_its_link(tmp_path: Path) -> None:
    from scatlab.course.widgets.game_with_hints import GameWithHints

    p = Progress(tmp_path / "p.sqlite3")
    g = GameWithHints(progress=p, pace=0)
    g.table.handle({"type": "stock"})
    gid = g.save()
    assert gid is not None
    again = GameWithHints(progress=p, game=str(gid), pace=0)
    assert again.table.session.display().phase == "discard"
    bad = GameWithHints(progress=p, game="99", pace=0)
    assert "Cannot reopen game 99" in bad.status.value


def test_lesson_8_opponents_can_be_masters_and_a_game_in_play_is_not_lost_without_a_second_click(
    tmp_path: Path,
) -> None:
    from scatlab.course.widgets.game_with_hints import GameWithHints
    from scatlab.errors import ScatlabError
    from scatlab.players.master import MasterPlayer

    p = Progress(tmp_path / "p.sqlite3")
    g = GameWithHints(progress=p, pace=0)
    assert g.table.session._kinds == {1: "tip", 2: "tip"}
    g.choose.value = "expert"  # no move made yet: a new game against experts at once
    assert set(g.table.session._kinds.values()) == {"expert"}
    g.table.handle({"type": "stock"})
    before = g.table
    g.choose.value = "master"  # a move made: nothing lost before a second click
    assert g.table is before and "save it first" in g.change_note.value
    assert g.change_button.layout.display != "none" and "masters" in g.change_button.description
    g.change_button.click()
    assert g.table is not before and g.change_button.layout.display == "none"
    assert all(isinstance(pl, MasterPlayer) for pl in g.table.session._players.values())
    with pytest.raises(ScatlabError, match="'champions' is not allowed"):
        GameWithHints(progress=p, pace=0, opponents="champions")


def test_serve_binds_loopback_unless_a_host_is_given() -> None:
    assert check_host(None) == "127.0.0.1"
    assert check_host("0.0.0.0") == "0.0.0.0"
    assert "--Voila.ip=127.0.0.1" in voila_options(8866, check_host(None))
    assert "Anyone who can reach this machine" in reach_message("0.0.0.0", 8866)
    with pytest.raises(ServeError, match="is not an IP address"):
        check_host("example.org")


def test_culling_is_on_preheating_off_and_kernels_come_warm() -> None:
    options = voila_options(8866, "127.0.0.1")
    assert "--VoilaConfiguration.multi_kernel_manager_class=scatlab.app.kernel_pool.WarmKernelManager" in options
    assert "--ServerKernelManager.client_factory=scatlab.app.kernel_pool.QuickReadyClient" in options
    assert "--VoilaExecutor.iopub_timeout=60" in options  # a page under load keeps its widgets
    assert "--MappingKernelManager.cull_interval=10" in options
    assert "--MappingKernelManager.cull_idle_timeout=30" in options
    assert "--VoilaConfiguration.preheat_kernel=False" in options
    assert "--VoilaConfiguration.strip_sources=True" in options
    assert "--VoilaConfiguration.allow_template_override=NO" in options  # no ?template=../ (libraries.md)
    assert not any("execute_request" in o for o in options)


def test_a_taken_port_is_refused() -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        with pytest.raises(ServeError, match=f"port {port} on 127.0.0.1 is already in use"):
            check_port("127.0.0.1", port)
    with pytest.raises(ServeError, match="--port 0 is not a port"):
        check_port("127.0.0.1", 0)


def test_a_port_left_by_a_stopped_server_is_free_at_once() -> None:
    """After Ctrl+C the stopped server's closed connections wait out TIME_WAIT on its port
    for a minute; ``scatlab serve`` on that port starts again at once (Tornado listens
    with SO_REUSEADDR), so the port check does not refuse it."""
    import socket

    with socket.socket() as server:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        client = socket.create_connection(("127.0.0.1", port))
        conn, _ = server.accept()
        conn.close()  # the server closes first: its end of the connection waits in TIME_WAIT
        client.recv(1)
        client.close()
    check_port("127.0.0.1", port)  # no listener left: free (a port in use raises ServeError)
    with socket.socket() as again:  # and listened on at once, as Tornado does (SO_REUSEADDR)
        again.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        again.bind(("127.0.0.1", port))
        again.listen()
        assert again.getsockname()[1] == port


def test_lesson_8_reviews_the_stand_in_and_replays_its_two_costliest_decisions() -> None:
    """Issue 10: the stand-in game ends, its review lists the two costliest decisions (on the
    chance of winning the game, the one scale) with their reasons and rule
    links, and each "Try it yourself" table starts at that very position."""
    from scatlab.course.widgets.game_with_hints import stand_in_game
    from scatlab.course.widgets.review_and_replay import ReviewAndReplay

    stand_in = stand_in_game("quick", seed=16)
    assert stand_in.session.state.is_over
    r = ReviewAndReplay(stand_in)
    assert r.source == "stand-in" and r.review_box.children == (r.review,)
    # the review is built for the page's own box, never shown below the table and taken back
    # (that raced in the browser: "Could not add child view to box" at the end of a game)
    children = []
    stand_in.observe(lambda change: children.append(change["new"]), "children")
    r.show(stand_in, "stand-in")
    assert children == [] and r.review not in stand_in.children
    # its own "Try it yourself" opens a beginner table too (no seed, Save, Load or Analyze)
    opened = r.review.try_it(r.worst[0])
    assert opened.controls == "beginner"
    assert "stand-in" in r.review.surface.state["title"]
    assert len(r.worst) == 2 and {d.scale for d in r.worst} == {"win"} and r.worst[0].label != "best"
    assert r.worst[0].cost >= r.worst[1].cost > 0 or r.worst[0].label != r.worst[1].label
    assert all(d.player == stand_in.session.seat for d in r.review.result.decisions)
    assert [t.view() for t in r.tables] == [d.view for d in r.worst]
    assert [box.children[1] for box in r.try_boxes] == r.tables
    assert all(t.session.hints for t in r.tables)
    # a lesson's step: the try tables carry the beginner controls and say where the learner is
    assert [t.controls for t in r.tables] == ["beginner", "beginner"]
    assert [t.surface.state["notice"] for t in r.tables] == [
        f"back at {d.where({d.player: 'you'}).lower()}: play it again, hints on" for d in r.worst
    ]
    assert all(
        re.fullmatch(
            r"back at hand \d+, your \d+(st|nd|rd|th) move: play it again, hints on", t.surface.state["notice"]
        )
        for t in r.tables
    )  # the learner's words: no "action 94"
    # New game on a try table goes back to its position, never to a random game
    first = r.tables[0]
    assert first.session.practice  # a position tried again is practice from the start
    first.handle({"type": "stock"})
    first.handle({"type": "undo"})
    assert first.surface.state["notice"] == "your last move was taken back"  # not "now practice"
    first.handle({"type": "stock"})
    first.handle({"type": "new"})
    assert first.view() == r.worst[0].view
    html = r.listing.value
    assert html.count("<li") == 2 and "rulebook.ipynb#C5" in html and "rulebook.ipynb#C6" in html
    worst = r.worst[0]
    assert (
        f"chance of winning the game from {win_level(worst.assessment.figures[0][1])} to "
        f"{win_level(worst.assessment.level(worst.played))}, by about {worst.assessment.cost_text.split()[0]}: "
        f"a {worst.label}"
    ) in html and "knocking with 28" in html
    assert "<b>Better:</b> taking the A♥ (then throwing the 8♥) for 31." in html
    assert "Sorted by cost, the worst first" in html and "dead" not in html and "action" not in html


def test_lesson_8s_stand_in_loaded_from_its_record_is_the_game_its_table_plays() -> None:
    """The stand-in is played once per process (a warm kernel plays it before a page asks)
    and loaded into each new table: the same game, move for move, as its table playing it
    through the clicks' calls (the same record, lives and review; the stand-in's own table is
    never shown, only its review)."""
    from scatlab.course.widgets.game_with_hints import play_to_the_end, stand_in_game, stand_in_record
    from scatlab.widgets.table import Table

    played = play_to_the_end(Table("quick", opponents=("tip", "tip"), seed=16, hints=False, pace=0), "tip", 16)
    loaded = stand_in_game("quick", seed=16)
    assert loaded.session.record_json() == played.session.record_json() == stand_in_record("quick", 16)
    assert loaded.session.state.is_over and loaded.session.state.lives == played.session.state.lives
    assert loaded.session.display().can_review
    assert loaded.review_game().result == played.review_game().result


def test_lesson_8_reviews_the_learners_game_only_once_it_is_over(tmp_path: Path) -> None:
    from scatlab.course.widgets.game_with_hints import GameWithHints, play_to_the_end, stand_in_game
    from scatlab.course.widgets.review_and_replay import ReviewAndReplay

    game = GameWithHints(progress=Progress(tmp_path / "p.sqlite3"), pace=0)
    r = ReviewAndReplay(stand_in_game(), learner=game)
    before = r.worst
    assert r.review_learner() is False and "not over yet" in r.status.value
    assert r.source == "stand-in" and r.worst == before
    play_to_the_end(game.table, seed=8)
    r.button.click()
    assert r.source == "your game" and r.table is game.table
    assert game.table.children == (game.table.surface,)  # shown in the section, not twice on the page
    assert all(d.player == game.table.session.seat for d in r.review.result.decisions)
    assert [t.view() for t in r.tables] == [d.view for d in r.worst]
    assert "Reviewing <b>your game</b>" in r.status.value
    assert r.review_box.children == (r.review,) and "your decisions" in r.review.surface.state["title"]


def test_a_stand_in_that_never_ends_is_refused_with_its_limit() -> None:
    from scatlab.course.widgets.game_with_hints import play_to_the_end
    from scatlab.errors import ScatlabError
    from scatlab.widgets.table import Table

    table = Table("classic", seed=1, hints=False, pace=0)
    with pytest.raises(ScatlabError, match="limit=3"):
        play_to_the_end(table, limit=3)
    assert not table.session.state.is_over


def test_lesson_8_has_one_review_that_follows_the_learners_game(tmp_path: Path) -> None:
    """The section's review switches to the learner's game when it ends, without a click;
    the table's own "Review this game" shows it there (never a second review below the
    table); a new game is followed too."""
    from scatlab.course.widgets.game_with_hints import GameWithHints, play_to_the_end, stand_in_game
    from scatlab.course.widgets.review_and_replay import ReviewAndReplay

    game = GameWithHints(progress=Progress(tmp_path / "p.sqlite3"), pace=0)
    r = ReviewAndReplay(stand_in_game(), learner=game)
    first = game.table
    play_to_the_end(first, seed=8)  # through the session; a click's answer then redraws the table:
    assert r.source == "stand-in"
    first._refresh()
    assert r.source == "your game" and r.table is first
    first.handle({"type": "review"})
    assert first.children == (first.surface,) and r.table is first
    game.new_game()
    assert game.table is not first and game.table.on_review is not None
    play_to_the_end(game.table, seed=9)
    game.table._refresh()
    assert r.table is game.table and r.source == "your game"


def test_lesson_8_a_finished_game_reopened_from_the_index_is_reviewed_at_once(tmp_path: Path) -> None:
    """A saved game that is over, reopened (``?game=``), is the one the section reviews,
    without a click; its try lines seat the learner in their own seat, cards in symbols."""
    from scatlab.course.widgets.game_with_hints import GameWithHints, play_to_the_end, stand_in_game
    from scatlab.course.widgets.review_and_replay import ReviewAndReplay

    progress = Progress(tmp_path / "p.sqlite3")
    played = GameWithHints(progress=progress, pace=0)
    play_to_the_end(played.table, seed=8)
    saved = progress.save_game("finished", played.table.session.record_json())
    game = GameWithHints(progress=progress, pace=0, game=saved)
    assert game.table.session.state.is_over
    r = ReviewAndReplay(stand_in_game(), learner=game)
    assert r.source == "your game" and r.table is game.table
    heads = [box.children[0].value for box in r.try_boxes if r.worst]
    assert all("You are back in your seat" in h for h in heads)
    stand_in = ReviewAndReplay(stand_in_game())
    assert all("You take the stand-in's seat (player 1)" in box.children[0].value for box in stand_in.try_boxes)


def test_index_calls_a_lesson_started_once_it_is_finished_or_has_stars(tmp_path: Path) -> None:
    """A lesson marked finished with no answers reads "finished ✓", not also "not started";
    a lesson with nothing done reads "not started" under its stars."""
    import re

    from scatlab.course.widgets.course import _index_html

    p = Progress(tmp_path / "p.sqlite3")
    p.finish_lesson("04-showdown")
    p.record_stars("05-house-rules", "5.1", 1)
    rows = {
        m.group(1): m.group(0)
        for m in re.finditer(r"<tr><td[^>]*>(\d)</td>.*?</tr>", _index_html(p, "").replace("&nbsp;", " "))
    }
    assert "finished ✓" in rows["4"] and "not started" not in rows["4"]
    assert "★ 1 of" in rows["5"] and "not started" not in rows["5"]
    assert "not started" in rows["6"] and "finished ✓" not in rows["6"]


def test_index_calls_a_lesson_opened_once_its_page_has_been_shown(tmp_path: Path) -> None:
    """Lesson 8's game and lesson 4's deals score nothing: opening the page (its footer
    keeps the visit) is what tells the index the lesson was started; a reset forgets it."""
    import re
    import sqlite3

    from scatlab.course.widgets.course import _index_html, lesson_footer

    p = Progress(tmp_path / "p.sqlite3")
    p.record_answer("01-the-game", "hand-value", "q", "21", correct=True)  # a database made before visits were kept
    with sqlite3.connect(tmp_path / "p.sqlite3") as conn:
        assert conn.execute("SELECT 1 FROM sqlite_master WHERE name='visits'").fetchone() is None
    assert p.visited_lessons() == set()
    lesson_footer("08-play-a-game", progress=p)
    lesson_footer("04-showdown", progress=p)
    lesson_footer("04-showdown", progress=p)
    assert p.visited_lessons() == {"08-play-a-game", "04-showdown"}
    rows = {
        m.group(1): m.group(0)
        for m in re.finditer(r"<tr><td[^>]*>(\d)</td>.*?</tr>", _index_html(p, "").replace("&nbsp;", " "))
    }
    assert "opened" in rows["8"] and "not started" not in rows["8"]
    assert "opened" in rows["4"] and "not started" not in rows["4"]
    assert "1 right of 1 answer" in rows["1"] and "opened" not in rows["1"]
    assert "not started" in rows["7"]
    p.reset()
    assert p.visited_lessons() == set()


def test_lesson_1_offers_no_preset_and_lesson_6_no_seed() -> None:
    """Nothing before the lesson that teaches it (docs/design/voice.md): lesson 1's hand
    explorer hides the presets of lesson 5, and lesson 6's tournament shows no seed field:
    each run deals new cards."""
    from scatlab.course.widgets.hand_explorer import HandExplorer
    from scatlab.course.widgets.tournament_lab import TournamentLab

    assert HandExplorer("AH KH 4C", choose_rules=False).preset.layout.display == "none"
    assert HandExplorer("7S 7H 7D", preset="gin").preset.layout.display != "none"
    one = (LESSONS_DIR / "01-the-game.ipynb").read_text(encoding="utf-8")
    assert 'HandExplorer(\\"AH KH 4C\\", choose_rules=False)' in one
    lab = TournamentLab(("random", "random", "random"), games=9)
    shown = [w for box in lab.children for w in getattr(box, "children", (box,))]
    assert not any("seed" in str(getattr(w, "description", "")).lower() for w in shown)
    assert lab.run() is not None and lab.run() is not None
    assert lab.seed == 3  # the two runs dealt the games of seeds 1 and 2: new cards each run
