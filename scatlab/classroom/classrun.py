"""The class's own processes, found again after a crash: pid files and a marker.

JupyterHub starts the class's services (the teacher's dashboard, the idle culler, the warm
kernel parent) in sessions of their own, so a hub killed with SIGKILL, or a machine that
lost power, leaves them running: the next start found the dashboard's port taken, two
cullers, and a dashboard holding the old OAuth secret (every teacher's visit got 500).

- :func:`service_command` wraps a service's command: ``python -m scatlab.classroom.classrun
  PIDFILE NAME -- COMMAND...`` writes its pid (mode 0600) into ``CLASS/run/NAME.pid``, marks
  its environment with ``SCATLAB_CLASS_SERVICE=NAME@CLASS``, takes SIGINT and SIGTERM back
  to their defaults (a hub started in the background inherits SIGINT ignored) and becomes
  the command (``exec``: the same pid).
- :func:`end_orphans`, run by the config before the hub starts anything, ends the process
  of every pid file whose environment still carries that marker (a pid the system gave to
  another process since is left alone), SIGTERM then SIGKILL after a few seconds, and
  removes the file. Learners' servers are not touched: JupyterHub finds them by the pids in
  its own database and keeps those that still run, so no page is lost.
- :func:`hub_running` tells whether a hub of this class is still running (its pid file and
  a live ``jupyterhub`` process): the config then refuses to start a second one.
- :func:`class_processes` lists every process of a class (its marker, or the class folder
  in its environment): what the recovery test counts.

>>> service_command(Path("/srv/class"), "dashboard", ["python", "-m", "scatlab.classroom.dashboard"])[-4:]
['--', 'python', '-m', 'scatlab.classroom.dashboard']
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

__all__ = ["MARKER", "service_command", "end_orphans", "hub_running", "class_processes", "main"]

MARKER = "SCATLAB_CLASS_SERVICE"
"""The environment variable that marks a class's service: ``NAME@CLASS_FOLDER``."""


def _run_folder(folder: Path) -> Path:
    return Path(folder) / "run"


def service_command(folder: Path, name: str, command: Sequence[str]) -> list[str]:
    """``command`` started through this module, which records its pid for the next start."""
    return [
        sys.executable,
        "-m",
        "scatlab.classroom.classrun",
        str(_run_folder(folder) / f"{name}.pid"),
        name,
        str(Path(folder)),
        "--",
        *command,
    ]


def _environ(pid: int) -> list[bytes]:
    try:
        return Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return []


def _marked(pid: int, marker: str) -> bool:
    return f"{MARKER}={marker}".encode() in _environ(pid)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _end(pid: int, wait: float) -> None:
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if not _alive(pid) or Path(f"/proc/{pid}/stat").read_text().split(") ")[-1].startswith("Z"):
            return
        time.sleep(0.05)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def end_orphans(folder: Path, log: Callable[[str], None] = print, wait: float = 5.0) -> list[str]:
    """End the services a crashed hub of the class in ``folder`` left running; the names ended."""
    ended: list[str] = []
    run = _run_folder(folder)
    if not run.is_dir():
        return ended
    for file in sorted(run.glob("*.pid")):
        name = file.stem
        try:
            pid = int(file.read_text().strip())
        except (OSError, ValueError):
            file.unlink(missing_ok=True)
            continue
        if pid > 1 and _marked(pid, f"{name}@{Path(folder)}"):
            log(f"scatlab class: ending the {name} service (pid {pid}) a previous hub left running")
            _end(pid, wait)
            ended.append(name)
        file.unlink(missing_ok=True)
    return ended


def hub_running(folder: Path) -> int | None:
    """The pid of a running hub of the class in ``folder`` (its ``jupyterhub.pid``), or None."""
    try:
        pid = int((Path(folder) / "jupyterhub.pid").read_text().strip())
    except (OSError, ValueError):
        return None
    if pid == os.getpid() or not _alive(pid):
        return None
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None
    return pid if b"jupyterhub" in command else None


def class_processes(folder: Path) -> list[tuple[int, str]]:
    """(pid, what) of every live process of the class in ``folder``: its marked services,
    and anything whose environment names the folder (the hub, learners' servers, kernels,
    the class's PostgreSQL started from it)."""
    folder_bytes = str(Path(folder)).encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        env = _environ(int(entry.name))
        if (
            any(item.startswith(MARKER.encode() + b"=") and item.endswith(b"@" + folder_bytes) for item in env)
            or any(
                item.startswith(b"SCATLAB_CLASS_DIR=") and item[len(b"SCATLAB_CLASS_DIR=") :] == folder_bytes
                for item in env
            )
            or any(item.startswith(b"SCATLAB_HOME=" + folder_bytes + b"/") for item in env)
        ):
            try:
                state = (entry / "stat").read_text().split(") ")[-1][:1]
                what = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
            except OSError:
                continue
            if state != "Z":
                found.append((int(entry.name), what))
    return found


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m scatlab.classroom.classrun PIDFILE NAME CLASS -- COMMAND...``: record, mark, become."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) < 5 or args[3] != "--":
        sys.exit("usage: python -m scatlab.classroom.classrun PIDFILE NAME CLASS -- COMMAND...")
    pidfile, name, folder, command = Path(args[0]), args[1], args[2], args[4:]
    pidfile.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(pidfile, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(f"{os.getpid()}\n")
    env = {**os.environ, MARKER: f"{name}@{folder}"}
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        # the hub stops a service with SIGINT, then SIGTERM: a service must not inherit them
        # ignored (a hub started in the background by a shell ignores SIGINT, and its
        # services waited out every timeout: a minute to stop the class)
        signal.signal(number, signal.SIG_DFL)
    os.execvpe(command[0], command, env)


if __name__ == "__main__":
    main()
