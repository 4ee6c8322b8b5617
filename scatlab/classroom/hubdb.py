"""The class database as the hub gives it out (``deploy/jupyterhub_config.py``): each
learner's server gets a URL of its own. The hub starts the class's own server and sets its
roles up as the superuser (:meth:`scatlab.classroom.pgserver.LocalPostgres.setup_roles`), gives
the dashboard its read-only URL, and keeps the registrar's for this:

- :class:`ClassDbEnv`: the spawner's ``pre_spawn_hook``. Before a learner's server starts, it
  makes (or updates) the learner's own role with a new random password, through the
  registrar (:func:`scatlab.classroom.classdb.register_learner`, in a thread: the hub's event
  loop never waits on the database), and puts the learner's URL in the server's
  environment as ``SCATLAB_CLASS_DB``. When the database cannot be reached then, the
  server starts all the same with its URL, and the role is made by a retry every
  :data:`~scatlab.classroom.classdb.RETRY_SECONDS` until the database answers: meanwhile the
  learner's events wait in their outbox, as they do whenever the database is down.
- :func:`chain_hooks`: one ``pre_spawn_hook`` that runs several in order (another one, such as
  one that makes system users, and this one).

A learner's password is not kept anywhere but in their server's environment (its
verifier in PostgreSQL): a new one is made at every start of their server.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from . import classdb
from .classdb import ENV, ClassDatabaseError

__all__ = ["ClassDbEnv", "chain_hooks"]

Hook = Callable[[Any], Any]
"""A spawner hook: called with the spawner; may return an awaitable."""


class ClassDbEnv:
    """The hub's ``pre_spawn_hook`` (the module's notes): ``await ClassDbEnv(url)(spawner)``
    sets ``spawner.environment["SCATLAB_CLASS_DB"]`` to the URL of ``spawner.user.name``'s
    own role, made with the registrar's URL ``registrar_url``. A name that cannot be a
    learner's gets no class database (an empty URL; its progress stays local)."""

    def __init__(self, registrar_url: str) -> None:
        classdb._check_url(registrar_url)
        self.registrar_url = registrar_url
        self.log: Any = logging.getLogger(__name__)
        self._pending: dict[str, str] = {}
        """Learners whose new password is not set yet: name -> the password's verifier."""
        self._lock = threading.Lock()
        self._registering = threading.Lock()
        self._retry: threading.Thread | None = None

    def __repr__(self) -> str:
        return f"ClassDbEnv({classdb._shown(self.registrar_url)!r})"

    def __deepcopy__(self, memo: dict[int, Any]) -> ClassDbEnv:
        """Itself: traitlets deep-copies a config value into each spawner, and every spawner
        must share this one (its waiting learners, its retry thread)."""
        return self

    def __copy__(self) -> ClassDbEnv:
        return self

    async def __call__(self, spawner: Any) -> None:
        self.log = getattr(spawner, "log", self.log)
        name = str(spawner.user.name)
        try:
            url = await asyncio.to_thread(self.url_for, name)
        except ClassDatabaseError as exc:
            self.log.warning("scatlab class database: %s; %s's server gets none", exc, name)
            url = ""
        spawner.environment = {**spawner.environment, ENV: url}

    def url_for(self, learner: str) -> str:
        """The URL of ``learner``'s own role with a new password: set in the database now,
        or by the retry thread once the database answers. A name that cannot be a
        learner's is a ClassDatabaseError."""
        role = classdb.learner_role(learner)
        password = classdb.new_password()
        with self._lock:
            self._pending[learner] = classdb.scram_verifier(password)
        self.register_pending()
        return classdb.url_with_login(self.registrar_url, role, password)

    def pending(self) -> list[str]:
        """The learners whose password is not set in the database yet."""
        with self._lock:
            return sorted(self._pending)

    def register_pending(self) -> bool:
        """Set every waiting learner's password in the database, one at a time; at the
        first failure, stop and have the retry thread try again later. Returns whether
        none waits."""
        with self._registering:
            with self._lock:
                waiting = list(self._pending.items())
            for learner, verifier in waiting:
                try:
                    classdb.register_learner(self.registrar_url, learner, verifier)
                except ClassDatabaseError as exc:
                    self.log.warning("scatlab class database: %s; trying again in %g s", exc, classdb.RETRY_SECONDS)
                    self._retry_later()
                    return False
                with self._lock:
                    if self._pending.get(learner) == verifier:  # not replaced by a newer start meanwhile
                        del self._pending[learner]
            return True

    def _retry_later(self) -> None:
        with self._lock:
            if self._retry is None or not self._retry.is_alive():
                self._retry = threading.Thread(target=self._retry_loop, name="scatlab-class-registrar", daemon=True)
                self._retry.start()

    def _retry_loop(self) -> None:
        while True:
            time.sleep(classdb.RETRY_SECONDS)
            with self._lock:
                if not self._pending:
                    self._retry = None
                    return
            if self.register_pending():
                with self._lock:
                    if not self._pending:
                        self._retry = None
                        return


def chain_hooks(*hooks: Hook | None) -> Hook | None:
    """One hook that calls each of ``hooks`` (None left out) in order, awaiting those that
    return an awaitable; the hook itself when there is only one, None when there is none."""
    chained = [hook for hook in hooks if hook is not None]
    if len(chained) <= 1:
        return chained[0] if chained else None

    async def hooks_in_order(spawner: Any) -> None:
        for hook in chained:
            result = hook(spawner)
            if inspect.isawaitable(result):
                await result

    return hooks_in_order
