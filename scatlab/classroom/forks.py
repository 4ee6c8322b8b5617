"""Lesson kernels forked from one warm parent, for a class on one machine.

A lesson page gets a new kernel, and in a class every learner's server starts its own: a
Python process that imports ipykernel, the widgets and the analysis, and builds the tables
the lessons read, about 1.5 s of CPU before the page's first cell (docs/deploying.md). With
thirty learners opening pages within a minute on two cores, that start is most of the
waiting. Here one process, the **parent**, does it all once (:func:`scatlab.app.warmup.warm`),
and every kernel is a fork of it: a few milliseconds, sharing the parent's memory until it
writes to it.

- :func:`serve` is the parent: ``python -m scatlab.classroom.forks SOCKET`` (the hub starts
  it as a service, ``deploy/jupyterhub_config.py``). It listens on a Unix socket only its
  user may open (mode 0600) and forks a kernel per request. When it runs as root (the hub
  is root, and each learner is a user of their own: :mod:`scatlab.classroom.spawner`), any
  user may open the socket (0666) and each kernel first becomes the user who asked, as the
  system tells (``SO_PEERCRED``), never as the request says: no kernel runs as root unless
  root asked. It starts again without the hub's variables (its token), so that no kernel
  holds them in its memory.
- :func:`launch` is what a learner's server starts as a kernel (the ``python3`` kernel
  spec in ``scatlab/classroom/forkshare``, put first on ``JUPYTER_PATH`` of the learners'
  servers): a small process that asks the parent for a kernel with its own connection
  file, environment, working folder and standard streams, then stands in for it: it
  passes on the signals the server sends (an interrupt, a shutdown), ends when the kernel
  ends, and ends the kernel when the server that started it is gone. The kernel ends when
  it is gone (even killed), so a server never loses track of a kernel.
- When the parent cannot be reached (no ``SCATLAB_KERNEL_FORKS`` socket, the parent
  stopped, a learner's server of another user), :func:`launch` becomes an ordinary kernel
  (``ipykernel_launcher``): slower, never broken.

The parent must not start threads or a ZeroMQ context before it forks (neither survives a
fork): :func:`serve` only imports and builds tables, and each kernel makes its own. What a
module does when it is imported inside a kernel is done again in each fork: ipywidgets
registers its comm targets with the new kernel (without them no widget would answer). What a
kernel sees is what a fresh kernel sees: its own environment (``QUERY_STRING``,
``SCATLAB_HOME``...), working folder and streams; the warm-up leaves no name in the user's
namespace, and Python's ``random`` is reseeded in every fork.
"""

from __future__ import annotations

import hashlib
import json
import os
import select
import signal
import socket
import struct
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

__all__ = [
    "SOCKET_ENV",
    "KERNEL_SPECS",
    "KERNEL_NAME",
    "SERVER_NAME",
    "serve",
    "launch",
    "request_kernel",
    "socket_path",
]

SOCKET_ENV = "SCATLAB_KERNEL_FORKS"
"""The environment variable that names the parent's socket, in a learner's server."""

KERNEL_SPECS = Path(__file__).parent / "forkshare"
"""A Jupyter data folder whose ``kernels/python3`` starts :func:`launch`: first on
``JUPYTER_PATH``, it stands in for the ordinary Python kernel."""

KERNEL_NAME = b"scatlab-kernel"
"""The process name of a forked kernel (``ps -o comm``)."""
SERVER_NAME = b"scatlab-server"
"""The process name of a forked learner's server."""

_MAX_REQUEST = 1 << 20
_NO_REQUEST = "a connection closed without a request"
_FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2)


def _child(
    request: dict[str, Any], fds: Sequence[int], ids: tuple[int, int] | None, name: bytes, become: Callable[[], None]
) -> None:
    """In the forked child (never returns): first the user and group ``ids`` (the user who
    asked) when the parent is root, the process ``name``, the stand-in's streams, the
    default signals, the request's environment and folder; then ``become`` the kernel or the
    server; the exit code is its own, 1 with a traceback on stderr if it could not start."""
    code = 1
    try:
        if ids is not None:
            os.setgroups([])
            os.setgid(ids[1])
            os.setuid(ids[0])
        _name_process(name)
        for target, fd in zip((0, 1, 2), fds):
            os.dup2(fd, target)
        for fd in fds:
            os.close(fd)
        for number in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP):  # its own subprocesses are waited for
            signal.signal(number, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        env = {str(k): str(v) for k, v in request["env"].items()}
        env.pop("JPY_PARENT_PID", None)
        os.environ.clear()
        os.environ.update(env)
        os.chdir(request["cwd"])
        become()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 0
    except BaseException:  # noqa: BLE001 - a kernel or server that cannot start says why on its stderr
        import traceback

        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(code)


def _kernel_child(request: dict[str, Any], fds: Sequence[int], ids: tuple[int, int] | None = None) -> None:
    """In the forked child: become the kernel of ``request`` (:func:`_child`; never returns)."""

    def kernel() -> None:
        os.setpgid(0, 0)  # its own process group, apart from the parent's
        _watch(int(request["standin"]))
        argv = [*request["argv"], "--IPKernelApp.parent_handle=1"]  # no parent to poll: the stand-in is watched
        sys.argv = ["ipykernel_launcher", *argv]
        from ipykernel.kernelapp import IPKernelApp

        app = IPKernelApp.instance()
        app.initialize(argv)  # type: ignore[no-untyped-call]
        # ipywidgets registers its comm targets when it is imported inside a kernel; here it was
        # imported before this kernel existed, so it is told now (else no widget would answer)
        widgets = sys.modules.get("ipywidgets")
        if widgets is not None:
            widgets.register_comm_target()
        app.start()  # type: ignore[no-untyped-call]

    _child(request, fds, ids, KERNEL_NAME, kernel)


def _server_child(request: dict[str, Any], fds: Sequence[int], ids: tuple[int, int] | None = None) -> None:
    """In the forked child: become the learner's single-user server of ``request``
    (:func:`_child`; never returns)."""

    def server() -> None:
        os.umask(0o077)
        os.setsid()  # a session of its own, as the spawner gives a server
        _watch(int(request["standin"]))
        sys.argv = ["jupyterhub-singleuser", *request["argv"]]
        from ..app.server import singleuser

        singleuser()

    _child(request, fds, ids, SERVER_NAME, server)


def _name_process(name: bytes) -> None:
    """This process's name as ``ps`` and ``/proc/PID/comm`` show it (Linux; best effort): a
    fork keeps its parent's command line, so the name is what tells a kernel from the parent."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(15, ctypes.c_char_p(name), 0, 0, 0)  # PR_SET_NAME
    except (OSError, AttributeError):
        pass


def _watch(pid: int) -> None:
    """End this process when process ``pid`` (the stand-in) ends, however it ends."""
    import threading

    try:
        fd = os.pidfd_open(pid)
    except OSError:
        os._exit(1)  # already gone

    def wait() -> None:
        select.select([fd], [], [])
        os._exit(0)

    threading.Thread(target=wait, name="scatlab-standin-watch", daemon=True).start()


def socket_path(folder: str | os.PathLike[str]) -> str:
    """Where the parent of a class in ``folder`` listens: ``folder/kernels.sock``, or a
    name in the system's temporary folder when that path is too long for a Unix socket
    (107 bytes).

    >>> socket_path("/srv/class")
    '/srv/class/kernels.sock'
    >>> socket_path("/" + "x" * 120).startswith(tempfile.gettempdir())
    True
    """
    path = os.path.join(os.path.abspath(folder), "kernels.sock")
    if len(os.fsencode(path)) <= 100:
        return path
    digest = hashlib.sha256(os.fsencode(path)).hexdigest()[:16]
    return os.path.join(tempfile.gettempdir(), f"scatlab-kernels-{digest}.sock")


def serve(path: str | os.PathLike[str], warm: bool = True, servers: bool = False) -> None:
    """The parent: warm up (:func:`scatlab.app.warmup.warm` and ipykernel's imports; with
    ``servers``, the single-user server's too), listen on the Unix socket ``path`` and fork a
    kernel, or a learner's server, for each request (runs until killed)."""
    import ipykernel.kernelapp  # noqa: F401 - imported once here, shared by every fork

    if servers:
        _warm_servers()

    if warm:
        from ..app.warmup import warm as warm_up

        warm_up()
    import gc

    gc.collect()
    gc.freeze()  # the warm objects stay where they are: a fork shares their pages longer
    where = Path(path)
    if where.is_socket() or where.is_symlink():
        where.unlink()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    # as root, every learner's user may ask, and each kernel takes the user who asked
    # (SO_PEERCRED, told by the system, not by the request); else this user only
    old = os.umask(0o111 if root else 0o177)
    try:
        listener.bind(str(where))
    finally:
        os.umask(old)
    listener.listen(64)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # forked kernels are reaped by the system
    # the hub stops its services with SIGINT, then SIGTERM: both end the parent at once, even
    # when it inherited them ignored (a hub started in the background by a shell)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    print(f"scatlab kernels: forking warm kernels on {where}", file=sys.stderr, flush=True)
    try:
        _serve_forever(listener, root, servers)
    except KeyboardInterrupt:
        listener.close()


def _serve_forever(listener: socket.socket, root: bool, servers: bool) -> None:
    """Fork a kernel or a server for each request on ``listener`` (until interrupted)."""
    while True:
        conn, _ = listener.accept()
        with conn:
            try:
                request, fds = _receive(conn)
            except (OSError, ValueError) as exc:
                if str(exc) != _NO_REQUEST:
                    print(f"scatlab kernels: a bad request refused: {exc}", file=sys.stderr, flush=True)
                continue
            ids = _asker(conn) if root else None
            kind = "server" if servers and request.get("kind") == "server" else "kernel"
            pid = os.fork()
            if pid == 0:
                listener.close()
                conn.close()
                (_server_child if kind == "server" else _kernel_child)(request, fds, ids)
            for fd in fds:
                os.close(fd)
            try:
                conn.sendall(json.dumps({"pid": pid}).encode() + b"\n")
            except OSError:
                os.kill(pid, signal.SIGKILL)
                continue
            user = request["env"].get("JUPYTERHUB_USER") if isinstance(request.get("env"), dict) else None
            print(
                f"scatlab kernels: forked {kind} {pid}" + (f" for {user}" if user else ""), file=sys.stderr, flush=True
            )


def _warm_servers() -> None:
    """Import what a learner's single-user server imports (JupyterHub's single-user app,
    JupyterLab's, Jupyter Server, Voilà and the course's extension), once, in the parent."""
    from ..app.server import skip_iri_checker

    skip_iri_checker()
    import importlib

    # not jupyterhub.singleuser.app nor jupyterlab.labhubapp: importing them patches Jupyter
    # Server's handlers for the older single-user app, and the server runs as an extension
    for name in (
        "jupyterhub.singleuser",
        "jupyterhub.singleuser.extension",
        "jupyter_server.serverapp",
        "jupyter_server.services.kernels.kernelmanager",
        "voila.app",
        "voila.server_extension",
        "scatlab.app.server",
        "scatlab.classroom.hub",
    ):
        try:
            importlib.import_module(name)
        except ImportError:
            pass


def _asker(conn: socket.socket) -> tuple[int, int]:
    """The user and group of the process at the other end of ``conn``, as the system knows them."""
    _pid, uid, gid = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")))
    return uid, gid


def _receive(conn: socket.socket) -> tuple[dict[str, Any], list[int]]:
    """A request: one JSON line with the kernel's argv, env, cwd and stand-in's pid, and the
    stand-in's three standard streams."""
    conn.settimeout(10)
    data, fds = b"", []
    try:
        while not data.endswith(b"\n"):
            part, got, _flags, _addr = socket.recv_fds(conn, 65536, 3)
            fds.extend(got)
            if not part:
                break
            data += part
            if len(data) > _MAX_REQUEST:
                raise ValueError("over 1 MB")
        if not data and not fds:
            raise ConnectionAbortedError(_NO_REQUEST)  # a probe that the parent listens
        request = json.loads(data)
        if not isinstance(request, dict) or len(fds) != 3 or not isinstance(request.get("argv"), list):
            raise ValueError("not a kernel request")
    except (OSError, ValueError):  # a bad request's streams are closed, not leaked
        for fd in fds:
            os.close(fd)
        raise
    return request, fds


def request_kernel(path: str | os.PathLike[str], argv: Sequence[str], kind: str = "kernel") -> int:
    """Ask the parent at ``path`` for a kernel started with ``argv`` (``-f CONNECTION_FILE``),
    or a learner's server (``kind="server"``), with this process's environment, folder and
    standard streams, watched by this process; its pid. Raises :class:`OSError` when the
    parent cannot be reached."""
    request = {"argv": list(argv), "env": dict(os.environ), "cwd": os.getcwd(), "standin": os.getpid(), "kind": kind}
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(10)
        conn.connect(os.fspath(path))
        socket.send_fds(conn, [json.dumps(request).encode() + b"\n"], [0, 1, 2])
        answer = b""
        while not answer.endswith(b"\n"):
            part = conn.recv(4096)
            if not part:
                raise OSError("the kernel parent closed the connection")
            answer += part
    return int(json.loads(answer)["pid"])


def launch(argv: Sequence[str], kind: str = "kernel") -> None:
    """A learner's kernel, or with ``kind="server"`` a learner's single-user server (see the
    module doc): forked from the parent when it can be, else an ordinary
    ``ipykernel_launcher`` (``jupyterhub-singleuser``) in this process. Never returns.

    A kernel's stand-in ends its kernel when the server that started it is gone; a server's
    stand-in does not watch the hub (a server outlives a crashed hub, which finds it again)."""
    path = os.environ.get(SOCKET_ENV, "")
    try:
        if not path:
            raise OSError("no parent")
        pid = request_kernel(path, argv, kind)
        fd = os.pidfd_open(pid)
    except OSError:
        ordinary = ["-m", "scatlab.app.server", "--singleuser"] if kind == "server" else ["-m", "ipykernel_launcher"]
        os.execv(sys.executable, [sys.executable, *ordinary, *argv])
    for sig in _FORWARDED:
        signal.signal(sig, lambda number, _frame: _forward(pid, number))
    parent = os.getppid()
    while True:
        ready, _, _ = select.select([fd], [], [], 1.0)
        if ready:
            os._exit(0)
        if kind == "kernel" and os.getppid() != parent:  # the server that started it is gone: so is its kernel
            _forward(pid, signal.SIGKILL)
            os._exit(0)


def _forward(pid: int, number: int) -> None:
    try:
        os.kill(pid, number)
    except ProcessLookupError:
        pass


def main(args: Sequence[str] | None = None) -> None:
    """``python -m scatlab.classroom.forks SOCKET`` runs the parent; ``--kernel ARGS...`` a
    learner's kernel (what the kernel spec starts)."""
    given = list(sys.argv[1:] if args is None else args)
    if given[:1] == ["--kernel"]:
        launch(given[1:])
    if given[:1] == ["--server"]:
        launch(given[1:], "server")
    servers = given[:1] == ["--servers"]
    if servers:
        given = given[1:]
    if len(given) != 1 or given[0].startswith("-"):
        sys.exit(
            "usage: python -m scatlab.classroom.forks [--servers] SOCKET   (or --kernel -f CONNECTION_FILE, "
            "or --server ARGS)"
        )
    hub = [name for name in os.environ if name.startswith("JUPYTERHUB_")]
    if hub:  # the hub's token for this service: not in any kernel's memory (each is a fork of this one)
        env = {k: v for k, v in os.environ.items() if k not in hub}
        os.execve(
            sys.executable,
            [sys.executable, "-m", "scatlab.classroom.forks", *(["--servers"] if servers else []), *given],
            env,
        )
    serve(given[0], servers=servers)


if __name__ == "__main__":
    main()
