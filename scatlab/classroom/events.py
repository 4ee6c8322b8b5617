"""The classroom's event sink: a learner's records also go to the class database.

The course's progress store knows nothing of a class (:mod:`scatlab.course.events`); the
classroom registers :data:`SINK` under the entry-point group ``scatlab.event_sinks``
(``pyproject.toml``). It is active when ``SCATLAB_CLASS_DB`` names a class database (a
learner's server started by the class's hub has it); it queues each event in the learner's
own file, in the same transaction as the record (:func:`scatlab.classroom.classdb.queue`),
and sends what waits after the commit (:func:`scatlab.classroom.classdb.flush`, which never
raises).

>>> import os
>>> os.environ.pop("SCATLAB_CLASS_DB", None) and None
>>> SINK.active()
False
"""

from __future__ import annotations

import sqlite3
from typing import Any

from . import configured_url

__all__ = ["ClassDatabaseSink", "SINK"]


class ClassDatabaseSink:
    """Sends a learner's events to the class database (:mod:`scatlab.classroom.classdb`)."""

    def active(self) -> bool:
        """Whether a class database is configured (``SCATLAB_CLASS_DB``): checked on every
        record, so it imports nothing (the class database's module is loaded only in a class)."""
        return configured_url() is not None

    def queue(self, conn: sqlite3.Connection, kind: str, **fields: Any) -> None:
        """Keep the event in the learner's outbox, in the open transaction ``conn``."""
        from .classdb import queue

        queue(conn, kind, **fields)

    def flush(self, progress: Any) -> object:
        """Send the outbox (never raises; what fails stays queued and is retried)."""
        from .classdb import flush

        return flush(progress)


SINK = ClassDatabaseSink()
"""The one sink the classroom registers."""
