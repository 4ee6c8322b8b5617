"""The class's services found again after a crash (:mod:`scatlab.classroom.classrun`): a pid file
and a marker each, orphans ended, a recycled pid left alone, and SIGINT never inherited
ignored (a hub started in the background took a minute to stop its services)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from scatlab.classroom.classrun import MARKER, class_processes, end_orphans, hub_running, service_command


def _start(folder: Path, name: str, code: str, ignore_sigint: bool = False) -> subprocess.Popen[str]:
    def preexec() -> None:
        if ignore_sigint:
            signal.signal(signal.SIGINT, signal.SIG_IGN)

    return subprocess.Popen(
        service_command(folder, name, [sys.executable, "-c", code]),
        stdout=subprocess.PIPE,
        text=True,
        preexec_fn=preexec,
        start_new_session=True,
    )


def _wait_for(path: Path) -> None:
    deadline = time.monotonic() + 20
    while not path.is_file():
        assert time.monotonic() < deadline, path
        time.sleep(0.05)


def test_a_service_records_its_pid_marks_itself_and_takes_sigint_back(tmp_path: Path) -> None:
    code = (
        "import os, signal, sys; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler, "
        f"os.environ[{MARKER!r}], flush=True)"
    )
    proc = _start(tmp_path, "dashboard", code, ignore_sigint=True)
    out, _ = proc.communicate(timeout=30)
    assert out.split() == ["True", f"dashboard@{tmp_path}"]
    pidfile = tmp_path / "run" / "dashboard.pid"
    assert int(pidfile.read_text()) == proc.pid and oct(pidfile.stat().st_mode & 0o777) == "0o600"


def test_orphans_of_a_killed_hub_are_ended_and_a_recycled_pid_is_left_alone(tmp_path: Path) -> None:
    orphan = _start(tmp_path, "idle-culler", "import time; time.sleep(60)")
    _wait_for(tmp_path / "run" / "idle-culler.pid")
    stranger = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    (tmp_path / "run" / "kernels.pid").write_text(f"{stranger.pid}\n")  # a pid the system gave to another process
    try:
        deadline = time.monotonic() + 10
        while not any(pid == orphan.pid for pid, _what in class_processes(tmp_path)):
            assert time.monotonic() < deadline
            time.sleep(0.05)
        said: list[str] = []
        assert end_orphans(tmp_path, said.append, wait=5) == ["idle-culler"]
        assert orphan.wait(10) is not None and stranger.poll() is None
        assert said == [f"scatlab class: ending the idle-culler service (pid {orphan.pid}) a previous hub left running"]
        assert list((tmp_path / "run").glob("*.pid")) == []
    finally:
        stranger.kill()
        stranger.wait(10)
        if orphan.poll() is None:
            orphan.kill()


def test_a_running_hub_is_found_by_its_pid_file_and_a_stale_one_is_not(tmp_path: Path) -> None:
    assert hub_running(tmp_path) is None
    (tmp_path / "jupyterhub.pid").write_text("999999999\n")
    assert hub_running(tmp_path) is None  # no such process
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        (tmp_path / "jupyterhub.pid").write_text(f"{other.pid}\n")
        assert hub_running(tmp_path) is None  # alive, but not a hub
    finally:
        other.kill()
        other.wait(10)
    assert os.getpid() != other.pid
