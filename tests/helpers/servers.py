"""Servers the tests start: a free port, waiting until a server answers, stopping its
process group, and a real PostgreSQL server for the class database's tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any, AnyStr

__all__ = ["free_port", "wait_ready", "stop", "PgServer"]


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now (the kernel's choice)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_ready(url: str, proc: subprocess.Popen[AnyStr], log: Path | None = None, timeout: float = 90) -> None:
    """Wait until ``url`` answers 200; fail with the end of ``log`` if ``proc`` exits or the
    time runs out."""

    def tail() -> str:
        return f":\n{log.read_text()[-3000:]}" if log is not None and log.exists() else ""

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the server exited with {proc.returncode}{tail()}")
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise AssertionError(f"the server did not become ready in {timeout:g} s{tail()}")


def stop(proc: subprocess.Popen[AnyStr], wait: float = 20) -> None:
    """SIGTERM to ``proc``'s process group (started with ``start_new_session``), then
    SIGKILL if it has not ended within ``wait`` seconds."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(wait)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)


class PgServer:
    """A PostgreSQL server of the test session in a temporary folder
    (:class:`scatlab.classroom.pgserver.LocalPostgres`, Debian's binaries; ``.ci/run`` installs them),
    with the class's roles set up (:meth:`~scatlab.classroom.pgserver.LocalPostgres.setup_roles`).
    ``url`` is its superuser's (with its password), for the tests' own queries; ``dashboard``
    and ``registrar`` are the URLs the hub would have."""

    def __init__(self, folder: Any, port: int) -> None:
        from scatlab.classroom.pgserver import LocalPostgres

        self.db = LocalPostgres(folder, port)
        self.url = ""
        self.dashboard = ""
        self.registrar = ""

    def start(self) -> None:
        self.db.start(fast=True)
        self.url = self.db.superuser_url

    def setup(self) -> None:
        """Set the class's roles up (again): the events table, if dropped, made afresh."""
        urls = self.db.setup_roles()
        self.dashboard, self.registrar = urls.dashboard, urls.registrar

    def stop(self) -> None:
        self.db.stop("fast")

    def sql(self, query: str, url: str | None = None) -> list[tuple[Any, ...]]:
        """Run ``query`` as the superuser (or with ``url``)."""
        import psycopg

        with psycopg.connect(url or self.url, autocommit=True) as conn, conn.cursor() as cur:
            cur.execute(query)
            return cur.fetchall() if cur.description else []
