"""Where a learner's events go besides their own progress file: the installed event sinks.

The progress store (:class:`~scatlab.course.progress.Progress`) writes every record to the
learner's own SQLite file. A package that wants those records elsewhere (the classroom's
class database, :mod:`scatlab.classroom.events`) registers an **event sink** under the
entry-point group :data:`GROUP` in its packaging metadata::

    [project.entry-points."scatlab.event_sinks"]
    class-database = "scatlab.classroom.events:SINK"

or, in a running program, with :func:`register`. The store asks each sink whether it is
:meth:`~EventSink.active` now; an active sink queues an event in the same transaction as the
record it describes (:meth:`~EventSink.queue`, so nothing is lost when the write commits and
the send fails), then is asked to send what waits (:meth:`~EventSink.flush`, which never
raises). With no sink active (no class), nothing is queued and nothing is sent: the course
knows nothing of any class.

Sinks are looked up once per process, the first time a record is written. A sink that
cannot be loaded is left out with a warning, never an error: the learner's own record is
kept either way.

>>> class Count:
...     def __init__(self): self.kinds = []
...     def active(self): return True
...     def queue(self, conn, kind, **fields): self.kinds.append(kind)
...     def flush(self, progress): return None
>>> sink = Count()
>>> register(sink)
>>> sink in active_sinks()
True
>>> unregister(sink)
>>> sink in active_sinks()
False
"""

from __future__ import annotations

import sqlite3
import warnings
from typing import Any, Protocol

__all__ = ["GROUP", "EventSink", "register", "unregister", "active_sinks"]

GROUP = "scatlab.event_sinks"
"""The entry-point group an installed package registers its event sinks under."""


class EventSink(Protocol):
    """Where a learner's events go besides their progress file."""

    def active(self) -> bool:
        """Whether events are wanted now (for the class database: one is configured)."""

    def queue(self, conn: sqlite3.Connection, kind: str, **fields: Any) -> None:
        """Keep the event ``kind`` with its ``fields`` in the progress file's open
        transaction ``conn``, to be sent after the commit."""

    def flush(self, progress: Any) -> object:
        """Send what waits in ``progress``'s file; never raises (what fails stays queued)."""


_installed: list[EventSink] | None = None
_registered: list[EventSink] = []


def _load_installed() -> list[EventSink]:
    global _installed
    if _installed is None:
        from importlib.metadata import entry_points

        found: list[EventSink] = []
        for point in sorted(entry_points(group=GROUP), key=lambda p: p.name):
            try:
                found.append(point.load())
            except Exception as exc:  # noqa: BLE001 - a broken plug-in never costs the learner's record
                warnings.warn(
                    f"scatlab: the event sink {point.name!r} ({point.value}) could not be loaded: {exc}",
                    RuntimeWarning,
                    stacklevel=2,
                )
        _installed = found
    return _installed


def register(sink: EventSink) -> None:
    """Add ``sink`` for this process (besides the installed ones)."""
    if sink not in _registered:
        _registered.append(sink)


def unregister(sink: EventSink) -> None:
    """Take back a sink given to :func:`register` (nothing if it was not)."""
    if sink in _registered:
        _registered.remove(sink)


def active_sinks() -> list[EventSink]:
    """The sinks, installed and registered, that want events now."""
    return [sink for sink in (*_load_installed(), *_registered) if sink.active()]
