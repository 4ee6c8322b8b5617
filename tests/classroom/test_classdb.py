"""The class database (issue 52), against a real PostgreSQL server that the session starts
in a temporary folder (Debian's ``/usr/lib/postgresql/*/bin``; ``.ci/run`` installs it).

Never a mock: events go through psycopg into a real ``events`` table, the server is
stopped with ``pg_ctl stop`` to show the outbox keeping them, and started again to show
them sent exactly once. Each learner sends with their own role, as on the hub
(:func:`~scatlab.classroom.classdb.learner_url`), and the teacher's side reads with the
dashboard's; the roles' limits are checked by connecting as them (a learner is taken to be
an adversary with their URL in hand)."""

from __future__ import annotations

import csv
import io
import socket
import threading
import time
from collections.abc import Iterator
from datetime import UTC
from pathlib import Path
from typing import Any

import pytest

from helpers.servers import PgServer
from scatlab.classroom import classdb
from scatlab.classroom.classdb import ClassDatabaseError, class_report, flush, learner_url, pending, write_csv
from scatlab.cli import main
from scatlab.course.progress import Progress


@pytest.fixture(autouse=True)
def _no_timer_between_tests(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The outbox's timer waits long unless a test says otherwise, and ends with the test."""
    monkeypatch.setattr(classdb, "RETRY_SECONDS", 600.0)
    yield
    classdb._stop_retrying()


@pytest.fixture
def pg(pg_server: PgServer, monkeypatch: pytest.MonkeyPatch) -> PgServer:
    """The server, running, with its roles set up, an empty events table, and
    SCATLAB_CLASS_DB holding the URL of ann's own role (JUPYTERHUB_USER=ann)."""
    try:
        pg_server.sql("SELECT 1")
    except Exception:  # noqa: BLE001 - a test stopped it and failed before starting it again
        pg_server.start()
    pg_server.sql("DROP TABLE IF EXISTS events")
    pg_server.setup()
    _as(monkeypatch, pg_server, "ann")
    classdb._quiet_until.clear()
    return pg_server


def _as(monkeypatch: pytest.MonkeyPatch, pg: PgServer, who: str) -> str:
    """Be the learner ``who``, as their server is on the hub: JUPYTERHUB_USER and their own
    role's URL in SCATLAB_CLASS_DB (a new password each time); returns the URL."""
    url = learner_url(pg.registrar, who)
    monkeypatch.setenv("JUPYTERHUB_USER", who)
    monkeypatch.setenv("SCATLAB_CLASS_DB", url)
    return url


def _events(pg: PgServer) -> list[tuple[Any, ...]]:
    return pg.sql("SELECT learner, kind, lesson, step, correct, stars, rating, payload FROM events ORDER BY at, id")


def test_two_learners_events_land_tagged(pg: PgServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ann = Progress(tmp_path / "ann" / "progress.sqlite3")
    ann.record_visit("01-the-game")
    ann.record_answer("01-the-game", "hand-value", "AH KH 4C", "21", correct=True)
    ann.record_stars("01-the-game", "s1", 3)
    ann.finish_lesson("01-the-game")
    _as(monkeypatch, pg, "bob")
    bob = Progress(tmp_path / "bob" / "progress.sqlite3")
    bob.record_visit("01-the-game")
    bob.record_answer("01-the-game", "hand-value", "AH KH 4C", "25", correct=False)
    rating = bob.record_practice("p-7", "knock", 2, True)
    from scatlab.rules.record import GameRecord, play_random_game

    bob.save_game("my game", GameRecord.from_state(play_random_game("classic", players=3, seed=1)).dumps())
    rows = _events(pg)
    assert [(r[0], r[1]) for r in rows] == [
        ("ann", "visit"),
        ("ann", "answer"),
        ("ann", "stars"),
        ("ann", "finish"),
        ("bob", "visit"),
        ("bob", "answer"),
        ("bob", "practice"),
        ("bob", "game"),
    ]
    assert rows[1][2:5] == ("01-the-game", "hand-value", True) and rows[1][7] == {
        "question": "AH KH 4C",
        "answer": "21",
    }
    assert rows[2][5] == 3 and rows[5][4] is False
    assert rows[6][3:7] == ("p-7", True, None, rating) and rows[6][7]["theme"] == "knock"
    assert rows[7][7] == {"name": "my game", "id": 1}  # the game's name, never its cards
    assert pending(ann) == pending(bob) == 0


def test_nothing_is_queued_without_a_class_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCATLAB_CLASS_DB", raising=False)
    p = Progress(tmp_path / "progress.sqlite3")
    p.record_answer("01-the-game", "hand-value", "AH KH 4C", "21", correct=True)
    assert pending(p) == 0 and p.answers()[0].answer == "21"


def _class_of_three(pg: PgServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for who, first, stars in (("ann", True, 3), ("bob", False, 1), ("cy", False, 2)):
        _as(monkeypatch, pg, who)
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
    _class_of_three(pg, tmp_path, monkeypatch)
    report = class_report(pg.dashboard)
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
    assert write_csv(pg.dashboard, out) == report.events
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert len(rows) == report.events and {r["learner"] for r in rows} == {"ann", "bob", "cy"}
    assert [r["kind"] for r in rows if r["learner"] == "bob"][:3] == ["visit", "answer", "answer"]
    assert rows[1]["correct"] == "yes" and rows[1]["payload"] == "{}"  # as the dashboard: no card, no typed answer
    assert not any("q1" in r["payload"] or '"answer"' in r["payload"] for r in rows)
    assert all(r["at"].endswith("+00:00") for r in rows)


def test_the_cli_report(
    pg: PgServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _class_of_three(pg, tmp_path, monkeypatch)
    monkeypatch.setenv("SCATLAB_CLASS_DB", pg.dashboard)  # the teacher's
    capsys.readouterr()
    out = tmp_path / "c.csv"
    assert main(["class", "report", "--csv", str(out)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("3 learner(s), 24 event(s)\nann:\n") and "24 event(s) written to" in text
    assert len(out.read_text(encoding="utf-8").splitlines()) == 25
    monkeypatch.delenv("SCATLAB_CLASS_DB")
    assert main(["class", "report", "--db", pg.dashboard, "--csv", "-"]) == 0
    assert capsys.readouterr().out.startswith("at,learner,kind,")


@pytest.mark.parametrize(
    "url, words",
    [
        ("mysql://x/y", "is not a class database URL"),
        ("postgresql://u:secret@127.0.0.1:1/x", "cannot use the class database postgresql://u:***@127.0.0.1:1/x"),
        ("postgresql://127.0.0.1:99999999/x", "port '99999999' is not a port number"),
        ("postgresql://127.0.0.1/x?bogus=1", "is not a readable class database URL"),
        ("", "no class database: give --db"),
    ],
)
def test_the_cli_says_one_line_for_a_bad_or_unreachable_database(
    url: str, words: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SCATLAB_CLASS_DB", raising=False)
    assert main(["class", "report", *(["--db", url] if url else [])]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and words in captured.err
    assert "secret" not in captured.err


def test_a_stopped_server_queues_and_a_restart_sends_exactly_once(pg: PgServer, tmp_path: Path) -> None:
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
    again: the events' ids keep the class table free of duplicates (a learner's role has
    no SELECT, so the insert's ON CONFLICT names no column)."""
    path = tmp_path / "progress.sqlite3"
    ann = classdb.configured_url()
    assert ann is not None
    monkeypatch.setenv("SCATLAB_CLASS_DB", "postgresql://127.0.0.1:1/nowhere")  # queue only
    p = Progress(path)
    p.record_answer("01-the-game", "hand-value", "q", "a", correct=True)
    p.record_visit("01-the-game")
    import sqlite3

    with sqlite3.connect(path) as conn:
        kept = conn.execute("SELECT * FROM class_outbox").fetchall()
    assert flush(p, ann) == 2 and pending(p) == 0
    with sqlite3.connect(path) as conn:  # as if the delete had never happened
        conn.executemany("INSERT INTO class_outbox VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", kept)
    assert flush(p, ann) == 2 and pending(p) == 0
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
    from scatlab.course.widgets.game_with_hints import play_to_the_end
    from scatlab.widgets.table import Table

    table = play_to_the_end(
        Table("classic", opponents=("tip", "tip"), seed=seed, hints=False, pace=0), player="random", seed=seed
    )
    return table.session


def test_a_reviewed_games_costly_decisions_reach_the_class_once_and_without_cards(
    pg: PgServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
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
    _as(monkeypatch, pg, "bob")
    other = _a_reviewed_game(6)
    Progress(tmp_path / "bob.sqlite3").record_review("08-play-a-game", other.review(), other.seat, "game-1")
    report = class_report(pg.dashboard)
    themes = {t.theme: t for t in report.themes}
    assert sum(len(t.decisions) for t in report.themes) == len(pg.sql("SELECT id FROM events WHERE kind = 'review'"))
    assert [t.serious for t in report.themes] == sorted((t.serious for t in report.themes), reverse=True)
    for t in themes.values():  # costliest first within a theme: the chance of winning, then hand value
        keys = [(d.scale != "win", -d.cost) for d in t.decisions]
        assert keys == sorted(keys)
    assert {d.learner for t in report.themes for d in t.decisions} == {"ann", "bob"}
    assert "Costly decisions in reviewed games, by theme:" in report.text()


def test_two_learners_who_review_the_same_game_each_reach_the_class(
    pg: PgServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A keyed event's id is made from the learner as well as the key: two learners who
    review the same game (the same hands, the same game name) each send their own events,
    and neither's is dropped as a resend of the other's."""
    session = _a_reviewed_game(5)
    review = session.review()
    costly = [d for d in review.costly() if d.player == session.seat]
    assert costly
    for who in ("ann", "bob"):
        _as(monkeypatch, pg, who)
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
    from datetime import datetime

    from scatlab.classroom.classdb import ClassReport, CostlyDecision, LearnerReport, Struggle, ThemeCosts
    from scatlab.classroom.dashboard import dashboard_html

    at = datetime(2026, 12, 5, tzinfo=UTC)
    report = ClassReport(
        9,
        (
            LearnerReport("ada", ("01-the-game",), ("01-the-game",), 6, 6, {"1.1": 3}, ((at, 1016), (at, 1030))),
            LearnerReport("<b>ben</b>", ("02-draw-or-take",), (), 5, 4, {"2.1": 2}),
        ),
        (Struggle("step", "02-draw-or-take", "2.1", 2, 1),),
        (
            ThemeCosts(
                "knock",
                (CostlyDecision("ada", "Hand 2, your 3rd move", "knock", "blunder", 0.12, "win", "knock", "draw"),),
            ),
        ),
    )
    page = dashboard_html(report, when=at)
    rows = page.split("<tr class='learner'")[1:]
    assert len(rows) == 2 and "1.1 ★★★" in rows[0] and "2.1" not in rows[0]
    assert "2.1 ★★☆" in rows[1] and "1.1" not in rows[1] and "&lt;b&gt;ben&lt;/b&gt;" in rows[1]
    assert "1. The game in five minutes" in rows[0] and "<polyline" in rows[0] and "1030 after 2 puzzle(s)" in rows[0]
    assert "1 of 2 learner(s) (50%)" in page and "When to knock" in page and "12.0% chance of winning" in page
    assert "events.csv" in page


# -- who may do what: PostgreSQL's roles (classdb's notes, "Who may do what") ------------------


def _refused(url: str, query: str) -> str:
    """The one line PostgreSQL answers ``query`` with, run with ``url``; fails if it is run."""
    import psycopg

    try:
        with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
            conn.execute(query)
    except psycopg.Error as exc:
        return str(exc).splitlines()[0]
    raise AssertionError(f"{query!r} was run")


def _cannot_connect(url: str) -> str:
    import psycopg

    try:
        psycopg.connect(url, connect_timeout=5).close()
    except psycopg.OperationalError as exc:
        return str(exc)
    raise AssertionError(f"{classdb._shown(url)} connected")


def _insert(learner: str, event_id: str = "gen_random_uuid()") -> str:
    return (
        f"INSERT INTO events (id, learner, kind, at) VALUES ({event_id}, '{learner}', 'visit', now()) "
        "ON CONFLICT DO NOTHING"
    )


def test_the_superuser_needs_a_password(pg: PgServer) -> None:
    """No connection is trusted: not on 127.0.0.1, not on the socket, not with a wrong
    password; the superuser's password is in a 0600 file, and pg_hba.conf has no trust line."""
    from scatlab.classroom.pgserver import HBA, _trusts

    port = pg.db.port
    for url in (
        f"postgresql://postgres@127.0.0.1:{port}/postgres",
        f"postgresql://postgres:wrong@127.0.0.1:{port}/postgres",
        f"postgresql://postgres@/postgres?host={pg.db.folder}&port={port}",
        f"postgresql://nobody@127.0.0.1:{port}/postgres",
    ):
        assert "password" in _cannot_connect(url)
    assert pg.sql("SELECT rolsuper FROM pg_roles WHERE rolname = current_user") == [(True,)]  # with the file's
    hba = (pg.db.data / "pg_hba.conf").read_text()
    assert hba == HBA and "trust" not in hba.split("\n", 3)[-1] and not _trusts(hba)
    assert pg.sql("SHOW password_encryption") == [("scram-sha-256",)]
    assert all(
        r[0].startswith("SCRAM-SHA-256$")
        for r in pg.sql("SELECT rolpassword FROM pg_authid WHERE rolpassword IS NOT NULL")
    )
    for which in ("superuser", "dashboard", "registrar"):
        assert pg.db.password_file(which).stat().st_mode & 0o777 == 0o600


def test_a_learner_role_cannot_read_events(pg: PgServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """ann's role adds events and does nothing else: no reading, changing or deleting
    events, no other table, nothing created, not even a temporary table."""
    ann = classdb.configured_url()
    assert ann is not None
    pg.sql(_insert("ann"), ann)
    assert pg.sql("SELECT learner FROM events") == [("ann",)]
    for query in (
        "SELECT * FROM events",
        "SELECT count(*) FROM events",
        "SELECT id FROM events",
        "UPDATE events SET kind = 'x'",
        "DELETE FROM events",
        "TRUNCATE events",
        "SELECT * FROM learner_roles",
        "INSERT INTO learner_roles VALUES ('r', 'x')",
        "INSERT INTO events (id, learner, kind, at) VALUES (gen_random_uuid(), 'ann', 'v', now()) "
        "ON CONFLICT (learner, id) DO NOTHING",  # a conflict target asks for SELECT
        "CREATE TABLE mine (a int)",
        "CREATE TEMP TABLE mine (a int)",
        "CREATE SCHEMA mine",
        "SELECT scatlab_register_learner('ann', 'x')",
        "CREATE ROLE mine",
        "CREATE DATABASE mine",
    ):
        assert "permission denied" in _refused(ann, query), query
    _as(monkeypatch, pg, "bob")  # another learner's role: ann still reads nothing but her own name
    assert pg.sql("SELECT scatlab_learner()", ann) == [("ann",)]


def test_a_learner_role_cannot_run_programs_or_touch_files(pg: PgServer) -> None:
    """``COPY ... TO PROGRAM`` (what a superuser URL allowed: a program run as the server's
    user), server files and large objects are refused to a learner's role."""
    ann = classdb.configured_url()
    assert ann is not None
    for query in (
        "COPY (SELECT 1) TO PROGRAM 'id'",
        "COPY events FROM PROGRAM 'id'",
        "COPY (SELECT 1) TO '/tmp/scatlab-learner-wrote-this'",
        "SELECT pg_read_file('/etc/passwd')",
        "SELECT lo_import('/etc/passwd')",
        "SELECT pg_ls_dir('.')",
        "ALTER SYSTEM SET fsync = off",
        "SET ROLE postgres",
        "SET SESSION AUTHORIZATION postgres",
    ):
        why = _refused(ann, query)
        assert "permission denied" in why or "must be superuser" in why or "privileges of" in why, (query, why)
    assert not Path("/tmp/scatlab-learner-wrote-this").exists()


def test_a_learner_role_cannot_insert_for_another_learner(
    pg: PgServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Row-level security: ann's role inserts rows of ann only, even as the group role; an
    outbox of bob's sent with ann's URL stays queued; and ann cannot take the id of an event
    of bob's (the key holds the learner)."""
    ann = classdb.configured_url()
    assert ann is not None
    assert "row-level security" in _refused(ann, _insert("bob"))
    assert "row-level security" in _refused(ann, "SET ROLE scatlab_learners; " + _insert("bob"))
    assert "row-level security" in _refused(ann, _insert("ann', 'visit', now()), (gen_random_uuid(), 'bob"))
    monkeypatch.setenv("JUPYTERHUB_USER", "bob")  # bob's events, ann's URL
    p = Progress(tmp_path / "progress.sqlite3")
    p.record_visit("01-the-game")
    assert pending(p) == 1 and pg.sql("SELECT count(*) FROM events") == [(0,)]
    bobs = _as(monkeypatch, pg, "bob")
    assert flush(p) == 1 and pg.sql("SELECT learner FROM events") == [("bob",)]
    taken = "'5c47a1ab-31c0-4e55-9d3e-7c1a55db0031'"
    pg.sql(_insert("ann", taken), ann)  # ann first, with an id bob's event will have
    pg.sql(_insert("bob", taken), bobs)
    assert pg.sql(f"SELECT learner FROM events WHERE id = {taken} ORDER BY learner") == [("ann",), ("bob",)]


def test_a_learner_cannot_connect_as_another_role(pg: PgServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """ann's password opens ann's role only; each start of ann's server (a new URL) ends the
    last one's password; and ann's role cannot become another."""
    from urllib.parse import urlsplit

    ann = classdb.configured_url()
    assert ann is not None
    bob = _as(monkeypatch, pg, "bob")
    password = urlsplit(ann).password or ""
    for role in (
        "postgres",
        "scatlab_dashboard",
        "scatlab_registrar",
        "scatlab_owner",
        "scatlab_learners",
        urlsplit(bob).username or "",
    ):
        assert "password authentication failed" in _cannot_connect(classdb.url_with_login(ann, role, password))
    again = learner_url(pg.registrar, "ann")
    assert "password authentication failed" in _cannot_connect(ann)  # the old password is gone
    assert pg.sql("SELECT current_user", again)[0][0] == classdb.learner_role("ann")
    for query in (f"SET ROLE {urlsplit(bob).username}", "SET ROLE scatlab_dashboard", "SET ROLE scatlab_owner"):
        assert "permission denied" in _refused(again, query), query
    assert pg.sql("SELECT role::text, learner FROM learner_roles WHERE learner IN ('ann', 'bob') ORDER BY learner") == [
        (classdb.learner_role("ann"), "ann"),
        (classdb.learner_role("bob"), "bob"),
    ]
    assert pg.sql(
        "SELECT rolsuper, rolcreaterole, rolcreatedb, rolbypassrls, rolconnlimit FROM pg_roles "
        f"WHERE rolname = '{classdb.learner_role('ann')}'"
    ) == [(False, False, False, False, 10)]


@pytest.mark.parametrize("name", ["", "a" * 40, "../x", "ann bob", "_ann", "ann'; DROP TABLE events; --", 42])
def test_a_learner_url_needs_a_learners_name(pg: PgServer, name: Any) -> None:
    with pytest.raises(ClassDatabaseError, match="is not a learner's name") as caught:
        learner_url(pg.registrar, name)
    assert repr(name) in str(caught.value)


def test_any_learners_name_gets_a_plain_role(pg: PgServer) -> None:
    """Names of up to 39 letters in any script, digits, ``_``, ``.`` and ``-`` each get a role
    (a digest of the name), and the learner's events are theirs."""
    for name in ("zoë_2", "Ωμέγα", "a" * 39, "x.y-z"):
        url = learner_url(pg.registrar, name)
        pg.sql(_insert(name), url)
        assert pg.sql("SELECT current_user", url)[0][0] == classdb.learner_role(name)
    assert sorted(r[0] for r in pg.sql("SELECT learner FROM events")) == sorted(["zoë_2", "Ωμέγα", "a" * 39, "x.y-z"])


def test_the_dashboard_role_reads_but_cannot_write(
    pg: PgServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _class_of_three(pg, tmp_path, monkeypatch)
    assert pg.sql("SELECT count(DISTINCT learner) FROM events", pg.dashboard) == [(3,)]
    assert class_report(pg.dashboard).events == 24
    for query in (
        _insert("ann"),
        "UPDATE events SET kind = 'x'",
        "DELETE FROM events",
        "TRUNCATE events",
        "SELECT * FROM learner_roles",
        "CREATE TABLE mine (a int)",
        "CREATE TEMP TABLE mine (a int)",
        "COPY (SELECT 1) TO PROGRAM 'id'",
        "SELECT scatlab_register_learner('x', 'y')",
        "CREATE ROLE mine",
    ):
        why = _refused(pg.dashboard, query)
        assert "permission denied" in why or "privileges of" in why, (query, why)
    assert pg.sql("SELECT count(*) FROM events") == [(24,)]


def test_the_registrar_only_makes_learners_roles(pg: PgServer) -> None:
    """The hub's registrar has no CREATEROLE of its own (on PostgreSQL 15 a CREATEROLE role
    may grant itself pg_execute_server_program): it reads nothing and makes nothing but
    through scatlab_register_learner, which refuses what is not a name and a verifier."""
    assert pg.sql("SELECT rolsuper, rolcreaterole FROM pg_roles WHERE rolname = 'scatlab_registrar'") == [
        (False, False)
    ]
    for query in (
        "SELECT * FROM events",
        _insert("ann"),
        "SELECT * FROM learner_roles",
        "CREATE ROLE mine",
        "GRANT pg_execute_server_program TO scatlab_registrar",
        "GRANT scatlab_learners TO scatlab_registrar",
        "COPY (SELECT 1) TO PROGRAM 'id'",
        "ALTER ROLE scatlab_dashboard PASSWORD 'x'",
    ):
        why = _refused(pg.registrar, query)
        assert "permission denied" in why or "privileges of" in why or "must have admin" in why, (query, why)
    assert "not a SCRAM-SHA-256 verifier" in _refused(pg.registrar, "SELECT scatlab_register_learner('ann', 'plain')")
    assert "not a learner's name" in _refused(
        pg.registrar, f"SELECT scatlab_register_learner(repeat('a', 40), '{classdb.scram_verifier('pw')}')"
    )
    with pytest.raises(ClassDatabaseError, match="not a SCRAM-SHA-256 verifier"):
        classdb.register_learner(pg.registrar, "ann", "plain")


def test_setting_up_again_keeps_events_and_learners(pg: PgServer) -> None:
    """The hub sets the roles up at every start: the events and the learners' roles stay."""
    ann = classdb.configured_url()
    assert ann is not None
    pg.sql(_insert("ann"), ann)
    pg.setup()
    pg.sql(_insert("ann"), ann)
    assert pg.sql("SELECT count(*) FROM events") == [(2,)]
    with pytest.raises(ClassDatabaseError, match="is not a superuser's URL"):
        classdb.prepare_class_database(pg.dashboard, dashboard_password="a", registrar_password="b")


def test_a_given_database_is_used_as_given(pg: PgServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SCATLAB_CLASS_DB set by the teacher (a server of theirs, a role that is not a
    superuser): every learner and the dashboard use that URL, and its events table is made
    at its first use."""
    password = classdb.new_password()
    pg.sql("DROP DATABASE IF EXISTS given_db")
    pg.sql("DROP ROLE IF EXISTS given_role")
    pg.sql(f"CREATE ROLE given_role LOGIN PASSWORD '{classdb.scram_verifier(password)}'")
    pg.sql("CREATE DATABASE given_db OWNER given_role")
    try:
        given = f"postgresql://given_role:{password}@127.0.0.1:{pg.db.port}/given_db"
        pg.sql("GRANT CONNECT ON DATABASE given_db TO given_role")
        for who in ("ann", "bob"):
            monkeypatch.setenv("JUPYTERHUB_USER", who)
            monkeypatch.setenv("SCATLAB_CLASS_DB", given)
            p = Progress(tmp_path / f"{who}.sqlite3")
            p.record_visit("01-the-game")
            assert pending(p) == 0
        assert [one.learner for one in class_report(given).learners] == ["ann", "bob"]
    finally:
        pg.sql("DROP DATABASE IF EXISTS given_db WITH (FORCE)")
        pg.sql("DROP ROLE IF EXISTS given_role")


# -- the outbox's timer ---------------------------------------------------------------------------


def _timer_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "scatlab-class-outbox"]


def _within(seconds: float, check: Any) -> bool:
    """Whether ``check()`` holds within ``seconds`` (polled every 50 ms)."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_queued_events_are_sent_by_a_timer_when_the_database_is_back(
    pg: PgServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Events queued while the server is down reach it once it is back, with no write and
    no opening of the progress: the timer of the learner's process sends them, then ends."""
    monkeypatch.setattr(classdb, "RETRY_SECONDS", 0.2)
    p = Progress(tmp_path / "progress.sqlite3")
    assert not _timer_threads()  # nothing waits: no thread
    pg.stop()
    try:
        p.record_visit("01-the-game")
        p.record_stars("01-the-game", "s1", 2)
        assert pending(p) == 2 and len(_timer_threads()) == 1
        time.sleep(0.5)  # the timer tries while the server is down: the events stay
        assert pending(p) == 2 and len(_timer_threads()) == 1
    finally:
        pg.start()
    assert _within(30, lambda: pending(p) == 0), "the timer did not send the queued events"
    assert [r[1] for r in _events(pg)] == ["visit", "stars"]
    assert _within(10, lambda: not _timer_threads()), "the timer did not end once nothing waited"


def test_the_timer_respects_the_quiet_time_of_a_slow_failure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After a slow failure, the timer does not try before QUIET_SECONDS are over."""
    monkeypatch.setattr(classdb, "RETRY_SECONDS", 0.05)
    tries: list[str] = []
    url = "postgresql://127.0.0.1:1/x"
    monkeypatch.setenv("SCATLAB_CLASS_DB", url)

    def refused(url: str, probe: bool = False) -> Any:
        tries.append(url)
        raise OSError("refused")

    monkeypatch.setattr(classdb, "_connect", refused)
    p = Progress(tmp_path / "progress.sqlite3")
    classdb._quiet_until[url] = time.monotonic() + 3600  # as after a slow failure
    try:
        p.record_visit("01-the-game")
        assert pending(p) == 1 and len(_timer_threads()) == 1
        time.sleep(0.5)
        assert tries == [] and pending(p) == 1
        classdb._quiet_until.pop(url)
        assert _within(10, lambda: len(tries) >= 2)  # quiet over: it tries every RETRY_SECONDS
    finally:
        classdb._quiet_until.clear()


def test_no_timer_without_a_class_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCATLAB_CLASS_DB", raising=False)
    p = Progress(tmp_path / "progress.sqlite3")
    p.record_visit("01-the-game")
    assert pending(p) == 0 and not _timer_threads()


# -- the hub's side: each learner's server its own URL ----------------------------------------------


class _Spawner:
    """What the hook uses of a JupyterHub spawner."""

    def __init__(self, name: str) -> None:
        import logging
        from types import SimpleNamespace

        self.user = SimpleNamespace(name=name)
        self.environment: dict[str, Any] = {"SCATLAB_CLASS_DB": "", "OTHER": "kept"}
        self.log = logging.getLogger("test")


def test_each_learners_server_gets_its_own_url(pg: PgServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hub's pre_spawn_hook: each learner's server its own role's URL, chained after
    another hook; a name that cannot be a learner's gets none; and when the database is
    down as a server starts, the server gets its URL and the role is made once it is back."""
    import asyncio
    import copy

    from scatlab.classroom.hubdb import ClassDbEnv, chain_hooks

    seen: list[str] = []
    hook = chain_hooks(None, lambda spawner: seen.append(spawner.user.name), ClassDbEnv(pg.registrar))
    assert hook is not None and copy.deepcopy(hook) is hook  # traitlets copies it into each spawner
    alone = ClassDbEnv(pg.registrar)
    assert chain_hooks(None, alone) is alone and copy.deepcopy(alone) is alone
    spawners = {name: _Spawner(name) for name in ("ann", "bob", "../x")}
    for spawner in spawners.values():
        asyncio.run(hook(spawner))
    assert seen == ["ann", "bob", "../x"]
    ann, bob = (spawners[n].environment["SCATLAB_CLASS_DB"] for n in ("ann", "bob"))
    assert ann != bob and pg.registrar not in (ann, bob) and spawners["ann"].environment["OTHER"] == "kept"
    assert spawners["../x"].environment["SCATLAB_CLASS_DB"] == ""
    pg.sql(_insert("ann"), ann)
    assert "row-level security" in _refused(bob, _insert("ann"))
    assert "superuser-password" not in repr(hook) and pg.db.password_file("superuser").read_text().strip() not in ann

    monkeypatch.setattr(classdb, "RETRY_SECONDS", 0.2)
    env = ClassDbEnv(pg.registrar)
    pg.stop()
    try:
        cy = _Spawner("cy")
        asyncio.run(env(cy))
        assert env.pending() == ["cy"] and cy.environment["SCATLAB_CLASS_DB"].startswith("postgresql://scatlab_l_")
    finally:
        pg.start()
    assert _within(30, lambda: env.pending() == []), "the registrar did not make cy's role"
    pg.sql(_insert("cy"), cy.environment["SCATLAB_CLASS_DB"])


# -- a class folder from before passwords ----------------------------------------------------------


def test_an_old_trusted_cluster_is_upgraded_on_start() -> None:
    """A cluster made with ``initdb -A trust`` (a class folder from before), running: the
    next start stops it, gives the superuser a password, rewrites pg_hba.conf and keeps the
    events; the roles are then set up on it."""
    import shutil
    import tempfile

    import psycopg

    from scatlab.classroom.pgserver import HBA, LocalPostgres, _run_as

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    root = Path(tempfile.mkdtemp(prefix="scatlab-old-pg-"))
    root.chmod(0o755)
    db = LocalPostgres(root / "pg", port)
    try:
        db.folder.mkdir()
        user = _run_as()[1]
        if user is not None:
            shutil.chown(db.folder, user=user)
        pg_bin = db._bin()
        assert (
            db._run(
                str(pg_bin / "initdb"), "-D", str(db.data), "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"
            ).returncode
            == 0
        )
        assert (
            db._run(
                str(pg_bin / "pg_ctl"),
                "-D",
                str(db.data),
                "start",
                "-w",
                "-l",
                str(db.log),
                "-o",
                f"-p {port} -k {db.folder} -c listen_addresses=127.0.0.1 -c fsync=off",
            ).returncode
            == 0
        )
        old = f"postgresql://postgres@127.0.0.1:{port}/postgres"
        with psycopg.connect(old, autocommit=True) as conn:  # the events table as it was: its key the id alone
            conn.execute(
                classdb._PG_SCHEMA.replace("id uuid NOT NULL", "id uuid PRIMARY KEY").replace(
                    ",\n    PRIMARY KEY (learner, id)", ""
                )
            )
            conn.execute("INSERT INTO events (id, learner, kind, at) VALUES (gen_random_uuid(), 'ann', 'visit', now())")
        db.start(fast=True)
        assert "password" in _cannot_connect(old)
        assert (db.data / "pg_hba.conf").read_text() == HBA
        urls = db.setup_roles()
        with psycopg.connect(urls.dashboard) as conn:
            assert conn.execute("SELECT learner, kind FROM events").fetchall() == [("ann", "visit")]
        with psycopg.connect(db.superuser_url) as conn:
            assert conn.execute(
                "SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'events'::regclass "
                "AND contype = 'p'"
            ).fetchall() == [("PRIMARY KEY (learner, id)",)]
        db.stop()
        db.start(fast=True)  # started again: nothing more to upgrade
        assert not db.secure()
    finally:
        db.stop("immediate")
        shutil.rmtree(root, ignore_errors=True)
