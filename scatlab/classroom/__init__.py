"""The classroom: a class on JupyterHub, on one machine.

Layer 8, above the app (:mod:`scatlab.app`), which serves each learner, and below the
command line:

- :mod:`scatlab.classroom.hub` and ``scatlab.classroom.hub_pages``: the authenticator
  (a name claimed once with the class code, then the learner's own secret), the teacher's
  pages, and a hub started from Python (``LocalHub``);
- :mod:`scatlab.classroom.identity`: names, look-alikes, throttling, secrets;
- :mod:`scatlab.classroom.spawner`: one system user per learner when the hub runs as root;
- :mod:`scatlab.classroom.forks`: learners' servers and kernels forked from one warm parent;
- :mod:`scatlab.classroom.classdb`, :mod:`scatlab.classroom.hubdb` and
  :mod:`scatlab.classroom.pgserver`: the class database, each learner's role, and its own
  PostgreSQL server; :mod:`scatlab.classroom.events` sends a learner's events there;
- :mod:`scatlab.classroom.dashboard`: the teacher's dashboard;
- :mod:`scatlab.classroom.classrun` and :mod:`scatlab.classroom.backup`: the class's
  processes after a crash, and its backup;
- :mod:`scatlab.classroom.commands`: ``scatlab class``.

``import scatlab.classroom`` is light: JupyterHub and psycopg are imported only when used.
"""

from __future__ import annotations

import os

__all__ = ["ENV", "configured_url"]

ENV = "SCATLAB_CLASS_DB"
"""The environment variable that holds the class database's ``postgresql://`` URL (a
learner's server started by the class's hub has it)."""


def configured_url() -> str | None:
    """``$SCATLAB_CLASS_DB`` when set and not blank, else ``None``: whether this process is
    in a class with a database (the event sink asks at every record, so it imports nothing).

    >>> import os
    >>> os.environ.pop(ENV, None) and None
    >>> configured_url() is None
    True
    """
    url = os.environ.get(ENV, "").strip()
    return url or None
