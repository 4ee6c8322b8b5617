"""Each learner's server as a process of its own user: what ``deploy/jupyterhub_config.py``
spawns (:class:`ClassSpawner`).

**When the hub runs as root** (a school's machine, a container, CI), no learner's process
may: each learner runs as a system user of their own, which the hub makes the first time
(``useradd --system``, no login shell, no password), named ``scatlab-`` and ten hex digits of
a hash of the learner's name (:func:`system_user`; a learner's name may be any letters, a
Unix user name may not). Their home, ``learners/NAME``, is theirs with mode 0700, so no
learner can read another's progress, signal another's processes or read another's
environment in ``/proc``. Their lesson kernels run as the same user: forked from the warm
parent, which takes the user of the server that asked (:mod:`scatlab.classroom.forks`), or
started by their server.

*Why one user per learner rather than one class user*: with one class user every learner's
kernel could read every other learner's progress file and environment (their class
database password among them) and end their kernels; with one user each, the operating
system keeps them apart, at the cost of a line in ``/etc/passwd`` per learner.

The learners' users must be able to reach Python, the installed packages and the lessons:
:func:`unreachable` names the first folder they cannot enter (pyenv's Python under a
``/root`` of mode 0700, say), and the config stops with that sentence rather than start a
class whose every server fails.

**When the hub is not root**, it cannot change user: every learner's server runs as the
hub's own user (JupyterHub's ``SimpleLocalProcessSpawner``), each in its own home of mode
0700. That is for a teacher's trial on their own machine; docs/deploying.md says what it
does not isolate.

>>> system_user("ada")
'scatlab-5cc484484d'
>>> system_user("zoë") != system_user("zoe")
True
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import stat
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

__all__ = ["PREFIX", "system_user", "unreachable", "ClassSpawner", "check_reachable"]

PREFIX = "scatlab-"
"""The start of every learner's system user name."""


def system_user(learner: str) -> str:
    """The system user a learner's processes run as, when the hub is root (18 characters,
    a valid Unix user name for any learner's name)."""
    return PREFIX + hashlib.blake2s(learner.encode("utf-8"), digest_size=5).hexdigest()


def unreachable(paths: Iterable[str | os.PathLike[str]]) -> str | None:
    """The first folder on the way to one of ``paths`` that a user who is not its owner and
    not in its group cannot enter (no ``x`` for others), or None.

    >>> unreachable(["/usr/bin/env"]) is None
    True
    """
    for path in paths:
        target = Path(os.path.realpath(path))
        for folder in [*reversed(target.parents), *([target] if target.is_dir() else [])]:
            try:
                mode = folder.stat().st_mode
            except OSError:
                continue
            if stat.S_ISDIR(mode) and not mode & stat.S_IXOTH:
                return str(folder)
    return None


def _give(home: Path, uid: int, gid: int) -> None:
    """Make ``home`` and everything in it belong to ``uid``:``gid`` (links themselves, never
    what they point to)."""
    os.chown(home, uid, gid, follow_symlinks=False)
    for root, dirs, files in os.walk(home):
        for name in (*dirs, *files):
            os.chown(os.path.join(root, name), uid, gid, follow_symlinks=False)


def _spawner_base() -> Any:
    from jupyterhub.spawner import SimpleLocalProcessSpawner

    return SimpleLocalProcessSpawner


try:
    _Base = _spawner_base()
except ImportError:  # the hub's extra is not installed: the module still imports (docs, doctests)
    _Base = object

_USERADD_LOCK: asyncio.Lock | None = None


class ClassSpawner(_Base):  # type: ignore[misc, valid-type]
    """JupyterHub's ``SimpleLocalProcessSpawner`` (a process on this machine, a home from
    ``home_dir_template``) that, when the hub is root, runs each learner as their own
    system user (:func:`system_user`), made on their first start; their home is made theirs
    with mode 0700 and their process starts with umask 077."""

    @staticmethod
    def _root() -> bool:
        return hasattr(os, "geteuid") and os.geteuid() == 0

    @property
    def unix_name(self) -> str:
        """The system user this learner's processes run as."""
        if self._root():
            return system_user(self.user.name)
        import pwd

        return pwd.getpwuid(os.getuid()).pw_name

    async def _ensure_user(self) -> tuple[int, int]:
        """The learner's system user (made if missing) and their home (made theirs, 0700)."""
        import pwd

        global _USERADD_LOCK
        if _USERADD_LOCK is None:
            _USERADD_LOCK = asyncio.Lock()
        name = self.unix_name
        async with _USERADD_LOCK:  # useradd locks /etc/passwd: one at a time
            try:
                entry = pwd.getpwnam(name)
            except KeyError:
                done = await asyncio.create_subprocess_exec(
                    "useradd",
                    "--system",
                    "--no-create-home",
                    "--home-dir",
                    self.home_dir,
                    "--shell",
                    "/usr/sbin/nologin",
                    "--user-group",
                    "--comment",
                    f"scatlab learner {self.user.name}",
                    name,
                    stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.STDOUT,
                )
                out, _ = await done.communicate()
                if done.returncode:
                    raise RuntimeError(f"useradd {name} failed: {out.decode(errors='replace').strip()}") from None
                self.log.info("Made the system user %s for the learner %s", name, self.user.name)
                entry = pwd.getpwnam(name)
        home = Path(self.home_dir)
        home.mkdir(mode=0o700, parents=True, exist_ok=True)
        if home.is_symlink():
            raise RuntimeError(f"{home} is a symbolic link: a learner's home must be a folder")
        if home.stat().st_uid != entry.pw_uid:  # a home from before, or restored from a backup: all of it theirs
            await asyncio.to_thread(_give, home, entry.pw_uid, entry.pw_gid)
        home.chmod(0o700)
        return entry.pw_uid, entry.pw_gid

    async def start(self) -> Any:
        """Make the learner's user and home (as root), or their home, then start the server."""
        if self._root():
            self._ids = await self._ensure_user()
        else:
            home = Path(self.home_dir)
            home.mkdir(mode=0o700, parents=True, exist_ok=True)
            home.chmod(0o700)
        return await super().start()

    def make_preexec_fn(self, name: str) -> Any:
        """What the server's process does before it runs: umask 077, the learner's user (as
        root), their home as its folder."""
        home = self.home_dir
        ids = getattr(self, "_ids", None) if self._root() else None

        def preexec() -> None:  # after fork, before exec: no logging, no locks
            os.umask(0o077)
            if ids is not None:
                uid, gid = ids
                os.setgroups([])
                os.setgid(gid)
                os.setuid(uid)
            os.chdir(home)

        return preexec

    def user_env(self, env: dict[str, str]) -> dict[str, str]:
        """``USER``, ``HOME`` and ``SHELL`` of the learner's process."""
        env["USER"] = self.unix_name
        env["HOME"] = self.home_dir
        env["SHELL"] = "/usr/sbin/nologin" if self._root() else "/bin/sh"
        return env


def check_reachable(*paths: str | os.PathLike[str]) -> None:
    """Stop the hub with one sentence when it is root and learners' users could not reach
    ``paths`` (Python, the packages, the lessons)."""
    if not ClassSpawner._root():
        return
    blocked = unreachable([sys.executable, sys.prefix, sys.base_prefix, *paths])
    if blocked is not None:
        sys.exit(
            f"scatlab class: each learner's server runs as a user of its own, who cannot enter {blocked} "
            f"(on the way to Python, the packages or the lessons). Install them where every user may "
            f"read them (/opt, /srv), or let others pass through: chmod o+x {blocked}"
        )
