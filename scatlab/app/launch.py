"""``scatlab serve`` and ``scatlab lab``: the course as a Voilà web app, or in JupyterLab.

Every Voilà setting the app uses is in :func:`voila_options` (one place; there is no
``voila.json``). What it promises:

- **Only the lessons are served.** Voilà's root folder is ``lessons/`` and its file
  handler serves images only; paths outside that folder give 403/404.
- **No page can run code the lesson does not contain.** Voilà runs each notebook on the
  server; the browser only talks to widgets. The kernel websocket accepts only the
  widget (comm) and kernel-info messages (``MappingKernelManager.allowed_message_types``),
  so an ``execute_request`` sent by hand is dropped.
- **No source is shown** (``strip_sources``) and tracebacks are not sent to the page.
- **Kernels listen on Unix sockets** (``KernelManager.transport=ipc``) in the server's private
  connection folder, not on TCP ports: a port chosen free could be taken by another kernel
  starting at the same moment, and that kernel died.
- **Kernels of closed pages are culled** (``cull_interval`` 10 s, ``cull_idle_timeout``
  30 s), busy or not (``cull_busy``); open, connected pages are never culled, nor a page
  still being rendered. Each kernel has a memory limit and a CPU-time limit per request
  (:mod:`scatlab.app.limits`, set by the course's kernel spec). Voilà's preheating is
  off (with culling it broke pages: "Kernel does not exist"); instead pages get **warm
  kernels** (:mod:`scatlab.app.kernel_pool`): two kernels started and warmed with the
  lessons' imports and tables before a page asks, refilled in the background, never culled
  while they wait. The page's front end is fetched while its cells run (the ``scatlab``
  template), and each page template is compiled once per server.
- **The address is the course**: ``/`` redirects to the index; pages fetch nothing from
  outside the server; the log is quiet unless ``--debug`` (:mod:`scatlab.app.server`).
- **Bound to 127.0.0.1** unless ``--host`` is given; then the console says who can reach
  it. A port in use is one clear line and exit status 2.

Where the lessons are: :func:`lessons_dir` finds ``lessons/`` beside the ``scatlab``
package (the repository checkout used by the editable install, ``make install``), or the
folder in ``$SCATLAB_LESSONS``. The lessons are not copied into the wheel: they are a
course you read and change in the repository.

>>> cmd = voila_command(Path("/x/lessons"), port=8866, host="127.0.0.1")
>>> cmd[1:4]
['-m', 'scatlab.app.server', '/x/lessons']
>>> "--Voila.ip=127.0.0.1" in cmd and "--VoilaConfiguration.preheat_kernel=False" in cmd
True
"""

from __future__ import annotations

import errno
import ipaddress
import os
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

from ..course.lessons import INDEX
from ..errors import ServeError

__all__ = [
    "ServeError",
    "INDEX",
    "ALLOWED_MESSAGE_TYPES",
    "lessons_dir",
    "voila_options",
    "voila_command",
    "check_host",
    "check_port",
    "reach_message",
    "serve",
    "lab",
]

ALLOWED_MESSAGE_TYPES = ("comm_open", "comm_msg", "comm_close", "comm_info_request", "kernel_info_request")
"""What a browser may send to a lesson's kernel: widget messages, never code."""


def lessons_dir() -> Path:
    """The course folder: ``$SCATLAB_LESSONS`` when set, else ``lessons/`` beside the package.

    >>> (lessons_dir() / INDEX).is_file()
    True
    """
    env = os.environ.get("SCATLAB_LESSONS")
    folder = Path(env) if env else Path(__file__).resolve().parents[2] / "lessons"
    if not (folder / INDEX).is_file():
        raise ServeError(
            f"no course found at {str(folder)!r} (it needs {INDEX}); run scatlab from its repository "
            "checkout (make install) or set SCATLAB_LESSONS to the lessons folder"
        )
    return folder


def voila_options(port: int, host: str, *, debug: bool = False) -> list[str]:
    """Every Voilà option of the app, as command-line flags (``debug``: every log line)."""
    return [
        "--debug" if debug else "--Voila.log_level=WARN",
        "--VoilaConfiguration.template=scatlab",
        # a page's address cannot pick another template (?template=...): Voilà 0.5.13 checks
        # that name for "../", and the pinned 0.5.8 does not (docs/design/libraries.md)
        "--VoilaConfiguration.allow_template_override=NO",
        f"--port={port}",
        "--Voila.port_retries=0",
        f"--Voila.ip={host}",
        "--no-browser",
        "--VoilaConfiguration.strip_sources=True",
        "--VoilaConfiguration.show_tracebacks=False",
        "--VoilaConfiguration.theme=light",
        "--VoilaConfiguration.preheat_kernel=False",
        "--VoilaConfiguration.multi_kernel_manager_class=scatlab.app.kernel_pool.WarmKernelManager",
        "--ServerKernelManager.client_factory=scatlab.app.kernel_pool.QuickReadyClient",
        # nbclient gives up on a cell's remaining output 4 s after its reply by default: with
        # many pages opening at once a page then lost its widgets ("Timeout waiting for IOPub
        # output"); wait as long as a page may take
        "--VoilaExecutor.iopub_timeout=60",
        r"--VoilaConfiguration.file_allowlist=.*\.(png|jpg|jpeg|gif|svg)",
        "--KernelManager.transport_encryption=auto",  # CurveZMQ keys between the server and its kernels
        # kernels talk to the server over Unix sockets in the server's private connection folder
        # (Voilà: a fresh /tmp/voila_* of mode 700; a Jupyter server: its runtime dir, 700): with
        # TCP, jupyter_client picks five free ports and releases them for the kernel to bind, and
        # with many pages opening at once another kernel took one first ("ZMQError: Address
        # already in use"); a socket file named after the kernel's id cannot be taken
        "--KernelManager.transport=ipc",
        "--MappingKernelManager.cull_interval=10",
        "--MappingKernelManager.cull_idle_timeout=30",
        "--MappingKernelManager.cull_connected=False",
        # a closed page's kernel is culled even if busy (a computation that never ends): only
        # a kernel with no page connected, never one whose page is still being rendered
        # (scatlab.app.server.page_rendering); what one computation may use: scatlab.app.limits
        "--MappingKernelManager.cull_busy=True",
        *(f"--MappingKernelManager.allowed_message_types={m}" for m in ALLOWED_MESSAGE_TYPES),
    ]


def voila_command(lessons: Path, *, port: int, host: str, debug: bool = False) -> list[str]:
    """The command that serves ``lessons`` (run with this Python): Voilà with the course's
    additions (:mod:`scatlab.app.server`)."""
    return [sys.executable, "-m", "scatlab.app.server", str(lessons), *voila_options(port, host, debug=debug)]


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_host(host: str | None) -> str:
    """The address to bind: 127.0.0.1 unless a host is given explicitly.

    >>> check_host(None)
    '127.0.0.1'
    >>> check_host("not an address")
    Traceback (most recent call last):
    ...
    scatlab.errors.ServeError: --host 'not an address' is not an IP address; give one of this machine's addresses,
    e.g. 127.0.0.1 (this machine only) or 0.0.0.0 (every network)
    """
    if host is None:
        return "127.0.0.1"
    if host == "localhost":
        return "127.0.0.1"
    try:
        ipaddress.ip_address(host)
    except ValueError:
        raise ServeError(
            f"--host {host!r} is not an IP address; give one of this machine's addresses, e.g. "
            "127.0.0.1 (this machine only) or 0.0.0.0 (every network)"
        ) from None
    return host


def check_port(host: str, port: int) -> None:
    """Refuse a port outside 1-65535 or one a program listens on at ``host``. A port only
    waiting out the connections of a server just stopped (TIME_WAIT, for a minute after a
    Ctrl+C) is free: the server listens with ``SO_REUSEADDR``, and so does this probe, so
    ``scatlab serve`` starts again at once."""
    if not 1 <= port <= 65535:
        raise ServeError(f"--port {port} is not a port: use 1 to 65535 (default 8866)")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        if os.name != "nt":  # on Windows the option would let two servers share a port
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise ServeError(
                    f"port {port} on {host} is already in use (another scatlab serve?); "
                    f"stop that program or choose another port with --port"
                ) from None
            raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror}") from None


def reach_message(host: str, port: int) -> str:
    """Who can open the app, in one line.

    >>> reach_message("127.0.0.1", 8866)
    'Only this machine can open it (bound to 127.0.0.1).'
    >>> reach_message("0.0.0.0", 8866)
    'Anyone who can reach this machine on port 8866, on every network it is on, can open it and run the lessons
    (bound to 0.0.0.0; there is no password).'
    """
    if _is_loopback(host):
        return f"Only this machine can open it (bound to {host})."
    where = "on every network it is on" if host in ("0.0.0.0", "::") else f"at {host}"
    return (
        f"Anyone who can reach this machine on port {port}, {where}, can open it and run the lessons "
        f"(bound to {host}; there is no password)."
    )


def serve(*, port: int = 8866, host: str | None = None, open_browser: bool = True, debug: bool = False) -> int:
    """Run the app until interrupted; returns Voilà's exit status."""
    address = check_host(host)
    check_port(address, port)
    lessons = lessons_dir()
    try:
        import voila  # noqa: F401
    except ImportError:
        raise ServeError(
            "Voilà is not installed; install the course's extras: pip install -e '.[notebook]' (make install does)"
        ) from None
    shown = "127.0.0.1" if address in ("0.0.0.0", "::") else address
    url = f"http://{'[' + shown + ']' if ':' in shown else shown}:{port}/voila/render/{INDEX}"
    print(f"scatlab course: {url}", flush=True)
    print(reach_message(address, port), flush=True)
    print("Stop it with Ctrl+C.", flush=True)
    # Voilà in a session of its own: Ctrl+C reaches this process only (the terminal sends
    # SIGINT to its whole foreground group), which passes Voilà one SIGINT; two at once
    # (the terminal's and ours) interrupted Voilà's own shut-down with a traceback
    # a process started with Ctrl+C ignored (a background job of a script, a test runner's
    # worker) passes the ignoring on to Voilà and would never stop: Ctrl+C is ours to handle
    signal.signal(signal.SIGINT, signal.default_int_handler)
    proc = subprocess.Popen(
        voila_command(lessons, port=port, host=address, debug=debug), cwd=lessons, start_new_session=True
    )

    def stop(signum: int, _frame: object) -> None:  # `kill` of scatlab serve stops Voilà too
        if proc.poll() is None:
            proc.send_signal(signum)

    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, stop)
    if open_browser:
        import threading
        import webbrowser

        threading.Timer(2.5, lambda: webbrowser.open(url)).start()
    try:
        return proc.wait()
    except KeyboardInterrupt:
        return _stop_after_ctrl_c(proc)
    finally:
        if proc.poll() is None:  # this process is ending some other way: Voilà must not outlive it
            proc.kill()


STOP_WAIT = 30.0
"""Seconds Voilà gets to shut its kernels down after Ctrl+C before it is killed."""


def _stop_after_ctrl_c(proc: subprocess.Popen[bytes]) -> int:
    """Ctrl+C: ask Voilà to stop once and wait for it quietly (a second Ctrl+C while it shuts
    its kernels down changes nothing); exit status 0, no traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    print("Stopping the course server…", flush=True)
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    try:
        proc.wait(STOP_WAIT)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    print("Stopped.", flush=True)
    return 0


def lab(*, port: int = 8888, open_browser: bool = True) -> int:
    """Open JupyterLab on the lessons folder (127.0.0.1 only)."""
    lessons = lessons_dir()
    if shutil.which("jupyter-lab", path=str(Path(sys.executable).parent)) is None:
        try:
            import jupyterlab  # noqa: F401
        except ImportError:
            raise ServeError("JupyterLab is not installed; pip install -e '.[notebook]' (make install does)") from None
    check_port("127.0.0.1", port)
    cmd = [
        sys.executable,
        "-m",
        "jupyterlab",
        f"--ServerApp.root_dir={lessons}",
        f"--port={port}",
        "--ServerApp.port_retries=0",
        "--ServerApp.ip=127.0.0.1",
    ]
    if not open_browser:
        cmd.append("--no-browser")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    try:
        return subprocess.call(cmd, cwd=lessons)
    except KeyboardInterrupt:
        return 0
