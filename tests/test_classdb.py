"""The class database (issue 52), against a real PostgreSQL server that the session starts
in a temporary folder (Debian's ``/usr/lib/postgresql/*/bin``; ``.ci/run`` installs it).

Never a mock: events go through psycopg into a real ``events`` table, the server is
stopped with ``pg_ctl stop`` to show the outbox keeping them, and started again to show
them sent exactly once."""

from __future__ import annotations

import csv
import io
import socket
import time
from pathlib import Path
from typing import Any

import pytest

from scatlab.cli import main
from scatlab.course import classdb
from scatlab.course.classdb import ClassDatabaseError, class_report, flush, pending, write_csv
from scatlab.course.progress import Progress

from conftest import PgServer

@pytest.fixture
def pg(pg_server: PgServer, monkeypatch: pytest.MonkeyPatch) -> PgServer:
    """The server, running, with an empty events table and SCATLAB_CLASS_DB pointing at it."""
    try:
        pg_server.sql("SELECT 1")
    except Exception:  # noqa: BLE001 - a test stopped it and failed before starting it again
        pg_server.start()
    pg_server.sql("DROP TABLE IF EXISTS events")
    monkeypatch.setenv("SCATLAB_CLASS_DB", pg_server.url)
    monkeypatch.setenv("JUPYTERHUB_USER", "ann")
    classdb._quiet_until.clear()
    return pg_server


def _events(pg: PgServer) -> list[tuple[Any, ...]]:
    return pg.sql("SELECT learner, kind, lesson, step, correct, stars, rating, payload FROM events ORDER BY at, id")


def test_two_learners_events_land_tagged(pg: PgServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ann = Progress(tmp_path / "ann" / "progress.sqlite3")
    ann.record_visit("01-the-game")
    ann.record_answer("01-the-game", "hand-value", "AH KH 4C", "21", correct=True)
    ann.record_stars("01-the-game", "s1", 3)
    ann.finish_lesson("01-the-game")
    monkeypatch.setenv("JUPYTERHUB_USER", "bob")
    bob = Progress(tmp_path / "bob" / "progress.sqlite3")
    bob.record_visit("01-the-game")
    bob.record_answer("01-the-game", "hand-value", "AH KH 4C", "25", correct=False)
    rating = bob.record_practice("p-7", "knock", 2, True)
    from scatlab.rules.record import GameRecord, play_random_game

    bob.save_game("my game", GameRecord.from_state(play_random_game("classic", players=3, seed=1)).dumps())
    rows = _events(pg)
    assert [(r[0], r[1]) for r in rows] == [
        ("ann", "visit"), ("ann", "answer"), ("ann", "stars"), ("ann", "finish"),
        ("bob", "visit"), ("bob", "answer"), ("bob", "practice"), ("bob", "game")]
    assert rows[1][2:5] == ("01-the-game", "hand-value", True) and rows[1][7] == {"question": "AH KH 4C", "answer": "21"}
    assert rows[2][5] == 3 and rows[5][4] is False
    assert rows[6][3:7] == ("p-7", True, None, rating) and rows[6][7]["theme"] == "knock"
    assert rows[7][7] == {"name": "my game", "id": 1}  # the game's name, never its cards
    assert pending(ann) == pending(bob) == 0


def test_nothing_is_queued_without_a_class_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCATLAB_CLASS_DB", raising=False)
    p = Progress(tmp_path / "progress.sqlite3")
    p.record_answer("01-the-game", "hand-value", "AH KH 4C", "21", correct=True)
    assert pending(p) == 0 and p.answers()[0].answer == "21"


def _class_of_three(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for who, first, stars in (("ann", True, 3), ("bob", False, 1), ("cy", False, 2)):
        monkeypatch.setenv("JUPYTERHUB_USER", who)
        p = Progress(tmp_path / who / "progress.sqlite3")
        p.record_visit("01-the-game")
        p.record_answer("01-the-game", "hand-value", "q1", "a", correct=first)
        p.record_answer("01-the-game", "hand-value", "q2", "b", correct=True)  # a second try does not count
        p.record_answer("01-the-game", "easy", "q3", "c", correct=True)
        p.record_stars("01-the-game", "s1", stars)
        p.record_stars("01-the-game", "s1", 3)
        if who != "cy":
            p.record_visit("02-odds")
            p.finish_lesson("01-the-game")
        if who == "ann":
            p.record_practice("p-1", "knock", 1, True)
            p.record_practice("p-2", "knock", 3, True)


def test_the_report_and_csv_are_right(pg: PgServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _class_of_three(tmp_path, monkeypatch)
    report = class_report(pg.url)
    assert report.events == 3 * 6 + 2 * 2 + 2
    people = {one.learner: one for one in report.learners}
    assert list(people) == ["ann", "bob", "cy"]
    assert people["ann"].opened == ("01-the-game", "02-odds") and people["ann"].finished == ("01-the-game",)
    assert people["cy"].opened == ("01-the-game",) and people["cy"].finished == ()
    assert people["bob"].answers == 3 and people["bob"].right == 2
    assert {who: one.stars for who, one in people.items()} == {"ann": {"s1": 3}, "bob": {"s1": 3}, "cy": {"s1": 3}}
    ratings = [r for _, r in people["ann"].rating]
    assert len(ratings) == 2 and ratings[0] < ratings[1] and people["bob"].rating == ()
    hardest = [(s.kind, s.item, s.tried, s.first_try) for s in report.struggles]
    assert hardest == [("exercise", "hand-value", 3, 1), ("step", "s1", 3, 2), ("exercise", "easy", 3, 3)]
    text = report.text()
    assert "exercise 01-the-game/hand-value: 1 of 3 learner(s) (33%)" in text
    out = tmp_path / "class.csv"
    assert write_csv(pg.url, out) == report.events
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert len(rows) == report.events and {r["learner"] for r in rows} == {"ann", "bob", "cy"}
    assert [r["kind"] for r in rows if r["learner"] == "bob"][:3] == ["visit", "answer", "answer"]
    assert rows[1]["correct"] == "yes" and rows[1]["payload"] == "{}"  # as the dashboard: no card, no typed answer
    assert not any("q1" in r["payload"] or '"answer"' in r["payload"] for r in rows)
    assert all(r["at"].endswith("+00:00") for r in rows)


def test_the_cli_report(pg: PgServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                        capsys: pytest.CaptureFixture[str]) -> None:
    _class_of_three(tmp_path, monkeypatch)
    capsys.readouterr()
    out = tmp_path / "c.csv"
    assert main(["class", "report", "--csv", str(out)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("3 learner(s), 24 event(s)\nann:\n") and "24 event(s) written to" in text
    assert len(out.read_text(encoding="utf-8").splitlines()) == 25
    monkeypatch.delenv("SCATLAB_CLASS_DB")
    assert main(["class", "report", "--db", pg.url, "--csv", "-"]) == 0
    assert capsys.readouterr().out.startswith("at,learner,kind,")


@pytest.mark.parametrize("url, words", [
    ("mysql://x/y", "is not a class database URL"),
    ("postgresql://u:secret@127.0.0.1:1/x", "cannot use the class database postgresql://u:***@127.0.0.1:1/x"),
    ("postgresql://127.0.0.1:99999999/x", "port '99999999' is not a port number"),
    ("postgresql://127.0.0.1/x?bogus=1", "is not a readable class database URL"),
    ("", "no class database: give --db"),
])
def test_the_cli_says_one_line_for_a_bad_or_unreachable_database(
        url: str, words: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCATLAB_CLASS_DB", raising=False)
    assert main(["class", "report", *(["--db", url] if url else [])]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and words in captured.err
    assert "secret" not in captured.err


def test_a_stopped_server_queues_and_a_restart_sends_exactly_once(
        pg: PgServer, tmp_path: Path) -> None:
    path = tmp_path / "progress.sqlite3"
    p = Progress(path)
    p.record_answer("01-the-game", "hand-value", "q0", "a", correct=True)
    assert len(_events(pg)) == 1
    pg.stop()
    try:
        started = time.monotonic()
        p.record_answer("01-the-game", "hand-value", "q1", "a", correct=False)
        p.record_stars("01-the-game", "s1", 2)
        p.finish_lesson("01-the-game")
        took = time.monotonic() - started
        assert took < 30, f"three writes with the server down took {took:.1f} s"  # never hangs
        assert [a.question for a in p.answers()] == ["q0", "q1"] and p.finished_lessons() == {"01-the-game"}
        assert pending(p) == 3
        assert pending(Progress(path)) == 3  # opening tries too, and keeps them when it fails
    finally:
        pg.start()
    Progress(path)  # opening the progress again sends what waited
    rows = _events(pg)
    assert [r[1] for r in rows] == ["answer", "answer", "stars", "finish"] and pending(p) == 0
    p.record_visit("01-the-game")  # the next write sends only its own event
    assert len(_events(pg)) == 5


def test_the_next_write_sends_what_waited(pg: PgServer, tmp_path: Path) -> None:
    p = Progress(tmp_path / "progress.sqlite3")
    pg.stop()
    try:
        p.record_visit("01-the-game")
        assert pending(p) == 1
    finally:
        pg.start()
    p.record_visit("02-odds")
    assert [r[2] for r in _events(pg)] == ["01-the-game", "02-odds"] and pending(p) == 0


def test_a_resend_never_duplicates(pg: PgServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An outbox sent but not emptied (the learner's process died between the two) is sent
    again: the events' ids keep the class table free of duplicates."""
    path = tmp_path / "progress.sqlite3"
    monkeypatch.setenv("SCATLAB_CLASS_DB", "postgresql://127.0.0.1:1/nowhere")  # queue only
    p = Progress(path)
    p.record_answer("01-the-game", "hand-value", "q", "a", correct=True)
    p.record_visit("01-the-game")
    import sqlite3

    with sqlite3.connect(path) as conn:
        kept = conn.execute("SELECT * FROM class_outbox").fetchall()
    assert flush(p, pg.url) == 2 and pending(p) == 0
    with sqlite3.connect(path) as conn:  # as if the delete had never happened
        conn.executemany("INSERT INTO class_outbox VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", kept)
    assert flush(p, pg.url) == 2 and pending(p) == 0
    assert len(_events(pg)) == 2
    assert pg.sql("SELECT count(DISTINCT id) FROM events") == [(2,)]


def test_a_learner_never_sees_a_class_database_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bad URL: the learner's writes work, the events wait."""
    monkeypatch.setenv("SCATLAB_CLASS_DB", "not a url")
    p = Progress(tmp_path / "progress.sqlite3")
    assert p.record_stars("01-the-game", "s1", 1) == 1
    assert pending(p) == 1
    with pytest.raises(ClassDatabaseError, match="is not a class database URL"):
        class_report("not a url")
    buffer = io.StringIO()
    with pytest.raises(ClassDatabaseError):
        write_csv("postgresql://127.0.0.1:1/x", buffer)
    assert buffer.getvalue() == ""


def test_a_silent_server_delays_one_write_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that accepts the connection and then says nothing (libpq's two-second
    timeout): one write tries it, the next ones do not try for ``QUIET_SECONDS``. Counted
    by the connections the silent server received, not by the clock."""

    def connections(server: socket.socket) -> int:
        """The connections waiting to be accepted, accepted and closed."""
        server.setblocking(False)
        n = 0
        while True:
            try:
                conn, _ = server.accept()
            except BlockingIOError:
                return n
            conn.close()
            n += 1

    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        monkeypatch.setenv("SCATLAB_CLASS_DB", f"postgresql://127.0.0.1:{silent.getsockname()[1]}/x")
        classdb._quiet_until.clear()
        p = Progress(tmp_path / "progress.sqlite3")  # opening has nothing to send: no attempt
        assert connections(silent) == 0
        started = time.monotonic()
        p.record_visit("01-the-game")
        first = time.monotonic() - started
        assert connections(silent) >= 1  # it tried
        p.record_visit("02-odds")
        assert connections(silent) == 0  # quiet: it did not try again
    classdb._quiet_until.clear()
    assert first < 30, first  # not a speed target: a write never hangs on a silent server
    assert pending(p) == 2


# -- reviewed games: the costliest decisions by theme ----------------------------------------


def _a_reviewed_game(seed: int) -> Any:
    from scatlab.course.widgets.lessonkit import play_to_the_end
    from scatlab.widgets.table import Table

    table = play_to_the_end(Table("classic", opponents=("tip", "tip"), seed=seed, hints=False, pace=0),
                            player="random", seed=seed)
    return table.session


def test_a_reviewed_games_costly_decisions_reach_the_class_once_and_without_cards(
        pg: PgServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game reviewed twice sends its costly decisions once; each event has the decision's
    place, theme, class and cost, and no card (RULES C1: a card is a rank and a suit)."""
    session = _a_reviewed_game(5)
    review = session.review()
    costly = [d for d in review.costly() if d.player == session.seat]
    assert costly, "a random player makes costly decisions"
    p = Progress(tmp_path / "ann.sqlite3")
    assert p.record_review("08-play-a-game", review, session.seat, "game-1") == len(costly)
    assert p.record_review("08-play-a-game", review, session.seat, "game-1") == len(costly)  # again: no duplicate
    rows = pg.sql("SELECT step, payload FROM events WHERE kind = 'review' ORDER BY at, id")
    assert len(rows) == len(costly) and pending(p) == 0
    assert {r[1]["theme"] for r in rows} <= {"knock", "take-or-draw", "throw", "other"}
    assert [r[0] for r in rows] == [d.where({session.seat: "you"}) for d in costly]
    import re

    card = re.compile(r"\b(10|[2-9AJQK])[♠♥♦♣SHDC]\b")
    assert not any(card.search(str(r)) for r in rows), rows
    monkeypatch.setenv("JUPYTERHUB_USER", "bob")
    other = _a_reviewed_game(6)
    Progress(tmp_path / "bob.sqlite3").record_review("08-play-a-game", other.review(), other.seat, "game-1")
    report = class_report(pg.url)
    themes = {t.theme: t for t in report.themes}
    assert sum(len(t.decisions) for t in report.themes) == len(pg.sql("SELECT id FROM events WHERE kind = 'review'"))
    assert [t.serious for t in report.themes] == sorted((t.serious for t in report.themes), reverse=True)
    for t in themes.values():  # costliest first within a theme: the chance of winning, then hand value
        keys = [(d.scale != "win", -d.cost) for d in t.decisions]
        assert keys == sorted(keys)
    assert {d.learner for t in report.themes for d in t.decisions} == {"ann", "bob"}
    assert "Costly decisions in reviewed games, by theme:" in report.text()


def test_two_learners_who_review_the_same_game_each_reach_the_class(
        pg: PgServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A keyed event's id is made from the learner as well as the key: two learners who
    review the same game (the same hands, the same game name) each send their own events,
    and neither's is dropped as a resend of the other's."""
    session = _a_reviewed_game(5)
    review = session.review()
    costly = [d for d in review.costly() if d.player == session.seat]
    assert costly
    for who in ("ann", "bob"):
        monkeypatch.setenv("JUPYTERHUB_USER", who)
        p = Progress(tmp_path / f"{who}.sqlite3")
        assert p.record_review("08-play-a-game", review, session.seat, "game-1") == len(costly)
        assert pending(p) == 0
    rows = pg.sql("SELECT learner, count(*) FROM events WHERE kind = 'review' GROUP BY learner ORDER BY learner")
    assert [tuple(r) for r in rows] == [("ann", len(costly)), ("bob", len(costly))]


def test_no_class_database_no_review_events(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCATLAB_CLASS_DB", raising=False)
    session = _a_reviewed_game(5)
    p = Progress(tmp_path / "p.sqlite3")
    assert p.record_review("08-play-a-game", session.review(), session.seat, "g") == 0 and pending(p) == 0


def test_the_dashboard_shows_each_learner_their_own_stars_and_no_card() -> None:
    """The teacher's page: one row per learner with that learner's steps only, the struggles
    hardest first, the themes; learner names are escaped."""
    from datetime import datetime, timezone

    from scatlab.course.classdb import ClassReport, CostlyDecision, LearnerReport, Struggle, ThemeCosts
    from scatlab.course.dashboard import dashboard_html

    at = datetime(2026, 12, 5, tzinfo=timezone.utc)
    report = ClassReport(
        9,
        (LearnerReport("ada", ("01-the-game",), ("01-the-game",), 6, 6, {"1.1": 3}, ((at, 1016), (at, 1030))),
         LearnerReport("<b>ben</b>", ("02-draw-or-take",), (), 5, 4, {"2.1": 2})),
        (Struggle("step", "02-draw-or-take", "2.1", 2, 1),),
        (ThemeCosts("knock", (CostlyDecision("ada", "Hand 2, your 3rd move", "knock", "blunder", 0.12, "win",
                                             "knock", "draw"),)),),
    )
    page = dashboard_html(report, when=at)
    rows = page.split("<tr class='learner'")[1:]
    assert len(rows) == 2 and "1.1 ★★★" in rows[0] and "2.1" not in rows[0]
    assert "2.1 ★★☆" in rows[1] and "1.1" not in rows[1] and "&lt;b&gt;ben&lt;/b&gt;" in rows[1]
    assert "1. The game in five minutes" in rows[0] and "<polyline" in rows[0] and "1030 after 2 puzzle(s)" in rows[0]
    assert "1 of 2 learner(s) (50%)" in page and "When to knock" in page and "12.0% chance of winning" in page
    assert "events.csv" in page
