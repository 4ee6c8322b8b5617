"""The progress store's event sinks (scatlab.course.events): the course knows nothing of a
class; the classroom registers where events go (an entry point), and a learner's record is
kept whatever a sink does."""

from __future__ import annotations

import sqlite3
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest

from scatlab.classroom.events import SINK
from scatlab.course import events
from scatlab.course.progress import Progress


class Recorder:
    """A sink that keeps what it is given, in the store's own transaction."""

    def __init__(self, *, on: bool = True) -> None:
        self.on = on
        self.queued: list[tuple[str, dict[str, Any]]] = []
        self.flushed = 0

    def active(self) -> bool:
        return self.on

    def queue(self, conn: sqlite3.Connection, kind: str, **fields: Any) -> None:
        assert conn.in_transaction  # the record and its event commit together
        self.queued.append((kind, fields))

    def flush(self, progress: Any) -> object:
        self.flushed += 1
        return None


def test_the_classroom_registers_the_class_database_sink_as_an_entry_point() -> None:
    from importlib.metadata import entry_points

    points = {p.name: p.value for p in entry_points(group=events.GROUP)}
    assert points == {"class-database": "scatlab.classroom.events:SINK"}
    assert SINK in events._load_installed()


def test_an_active_sink_gets_each_record_in_its_transaction_then_a_flush(tmp_path: Path) -> None:
    sink = Recorder()
    events.register(sink)
    try:
        p = Progress(tmp_path / "progress.sqlite3")
        opened = sink.flushed
        p.record_answer("01-the-game", "hand-value", "AH KH 4C", "21", correct=True)
        p.finish_lesson("01-the-game")
    finally:
        events.unregister(sink)
    assert opened == 1  # opening sends what a previous write left queued
    assert [k for k, _ in sink.queued] == ["answer", "finish"]
    assert sink.queued[0][1]["lesson"] == "01-the-game" and sink.queued[0][1]["correct"] is True
    assert sink.flushed == 3


def test_an_inactive_sink_gets_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCATLAB_CLASS_DB", raising=False)
    sink = Recorder(on=False)
    events.register(sink)
    try:
        p = Progress(tmp_path / "progress.sqlite3")
        p.finish_lesson("01-the-game")
    finally:
        events.unregister(sink)
    assert sink.queued == [] and sink.flushed == 0
    assert events.active_sinks() == []  # no class database: the classroom's sink is off too


def test_a_sink_that_cannot_be_loaded_is_left_out_with_a_warning_and_the_record_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = EntryPoint(name="broken", value="scatlab.no_such_module:SINK", group=events.GROUP)
    monkeypatch.setattr("importlib.metadata.entry_points", lambda group: [broken])
    monkeypatch.setattr(events, "_installed", None)
    with pytest.warns(RuntimeWarning, match="'broken'.*could not be loaded"):
        p = Progress(tmp_path / "progress.sqlite3")
    p.finish_lesson("01-the-game")
    assert p.finished_lessons() == {"01-the-game"}


def test_register_twice_is_one_sink_and_unregister_of_an_unknown_sink_is_nothing() -> None:
    sink = Recorder()
    events.register(sink)
    events.register(sink)
    try:
        assert events.active_sinks().count(sink) == 1
    finally:
        events.unregister(sink)
    events.unregister(sink)
    assert sink not in events.active_sinks()
