"""A PostgreSQL server of the class's own, in the class folder: what ``make class`` starts
when no class database is given (``SCATLAB_CLASS_DB``), and what the tests start.

It runs Debian's (or any) PostgreSQL binaries found in ``/usr/lib/postgresql/*/bin`` (the
newest) or on ``PATH``: ``initdb`` once (a cluster with one superuser, ``postgres``, trusted
on 127.0.0.1 only and on its socket in the folder), then ``pg_ctl start``. As root, where
PostgreSQL refuses to run, it runs as the ``postgres`` system user (else ``nobody``) and
the folder is given to that user. Its URL is ``postgresql://postgres@127.0.0.1:PORT/postgres``:
anyone on this machine can connect, so keep it on a machine the teacher controls (as the
hub itself; docs/deploying.md).

>>> db = LocalPostgres(Path("/tmp/class/postgres"), 5433)
>>> db.url
'postgresql://postgres@127.0.0.1:5433/postgres'
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ..errors import ClassDatabaseError

__all__ = ["find_binaries", "LocalPostgres"]


def find_binaries() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``: the newest ``/usr/lib/postgresql/N/bin``, else
    the one on ``PATH``; None when PostgreSQL is not installed."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4] or 0)
                   if p.split("/")[4].isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    return Path(on_path).parent if on_path else None


def _run_as() -> tuple[list[str], str | None]:
    """The command prefix and the user to run PostgreSQL as (none unless we are root)."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return [], None
    import pwd

    for user in ("postgres", "nobody"):
        try:
            pwd.getpwnam(user)
        except KeyError:
            continue
        return ["runuser", "-u", user, "--"], user
    raise ClassDatabaseError("PostgreSQL cannot run as root and this machine has no postgres or nobody user")


@dataclass(frozen=True)
class LocalPostgres:
    """A PostgreSQL cluster in ``folder`` (its data in ``folder/data``, its socket and log
    beside), listening on 127.0.0.1:``port``."""

    folder: Path
    port: int

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    @property
    def data(self) -> Path:
        return self.folder / "data"

    @property
    def log(self) -> Path:
        return self.folder / "server.log"

    def _bin(self) -> Path:
        found = find_binaries()
        if found is None:
            raise ClassDatabaseError("PostgreSQL is not installed (initdb not found): install it "
                                     "(Debian: apt-get install postgresql) or set SCATLAB_CLASS_DB to a server's URL")
        return found

    def _run(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        prefix, _user = _run_as()
        return subprocess.run([*prefix, *args], capture_output=True, text=True, timeout=timeout, cwd="/")

    def initialise(self) -> None:
        """``initdb`` unless the folder already holds a cluster."""
        if (self.data / "PG_VERSION").is_file():
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        _prefix, user = _run_as()
        if user is not None:
            shutil.chown(self.folder, user=user)
        done = self._run(str(self._bin() / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres",
                         "--no-sync", "-E", "UTF8")
        if done.returncode:
            why = " ".join((done.stderr or done.stdout).split())[-300:]
            hint = (f" (PostgreSQL runs as the {user} user here, who must be able to reach {self.folder}: "
                    "every folder above it must be readable by others)" if user and "ermission denied" in why else "")
            raise ClassDatabaseError(f"initdb failed in {self.data}: {why}{hint}")

    def running(self) -> bool:
        return self._run(str(self._bin() / "pg_ctl"), "-D", str(self.data), "status", timeout=30).returncode == 0

    def start(self, *, fast: bool = False) -> str:
        """Initialise if needed and start the server (nothing if it runs); returns its URL.
        ``fast`` turns fsync off (the tests: a crash may lose the database)."""
        self.initialise()
        if not self.running():
            options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1" + (" -c fsync=off" if fast else "")
            done = self._run(str(self._bin() / "pg_ctl"), "-D", str(self.data), "start", "-w", "-l", str(self.log),
                             "-o", options)
            if done.returncode:
                tail = self.log.read_text(errors="replace")[-400:] if self.log.is_file() else done.stderr
                raise ClassDatabaseError(f"the class database did not start in {self.data}: {tail.strip()}")
        return self.url

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``mode``: ``smart``, ``fast`` or ``immediate``); nothing if it is stopped."""
        if self.data.is_dir():
            self._run(str(self._bin() / "pg_ctl"), "-D", str(self.data), "stop", "-w", "-m", mode, timeout=60)
