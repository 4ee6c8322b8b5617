"""Lesson kernels forked from one warm parent, for a class on one machine.

A lesson page gets a new kernel, and in a class every learner's server starts its own: a
Python process that imports ipykernel, the widgets and the analysis, and builds the tables
the lessons read, about 1.5 s of CPU before the page's first cell (docs/deploying.md). With
thirty learners opening pages within a minute on two cores, that start is most of the
waiting. Here one process, the **parent**, does it all once (:func:`scatlab.course.warmup.warm`),
and every kernel is a fork of it: a few milliseconds, sharing the parent's memory until it
writes to it.

- :func:`serve` is the parent: ``python -m scatlab.course.forks SOCKET`` (the hub starts
  it as a service, ``deploy/jupyterhub_config.py``). It listens on a Unix socket only its
  user may open (mode 0600) and forks a kernel per request.
- :func:`launch` is what a learner's server starts as a kernel (the ``python3`` kernel
  spec in ``scatlab/course/forkshare``, put first on ``JUPYTER_PATH`` of the learners'
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
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["SOCKET_ENV", "KERNEL_SPECS", "serve", "launch", "request_kernel", "socket_path"]

SOCKET_ENV = "SCATLAB_KERNEL_FORKS"
"""The environment variable that names the parent's socket, in a learner's server."""

KERNEL_SPECS = Path(__file__).parent / "forkshare"
"""A Jupyter data folder whose ``kernels/python3`` starts :func:`launch`: first on
``JUPYTER_PATH``, it stands in for the ordinary Python kernel."""

_MAX_REQUEST = 1 << 20
_FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2)


def _kernel_child(request: dict[str, Any], fds: Sequence[int]) -> None:
    """In the forked child: become the kernel of ``request`` (never returns)."""
    try:
        for target, fd in zip((0, 1, 2), fds):
            os.dup2(fd, target)
        for fd in fds:
            os.close(fd)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the kernel's own subprocesses are waited for
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        env = {str(k): str(v) for k, v in request["env"].items()}
        env.pop("JPY_PARENT_PID", None)
        os.environ.clear()
        os.environ.update(env)
        os.chdir(request["cwd"])
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
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 0
    except BaseException:  # noqa: BLE001 - a kernel that cannot start says why on its stderr
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(code)


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


def serve(path: str | os.PathLike[str], warm: bool = True) -> None:
    """The parent: warm up (:func:`scatlab.course.warmup.warm` and ipykernel's imports),
    listen on the Unix socket ``path`` and fork a kernel for each request (runs until
    killed)."""
    import ipykernel.kernelapp  # noqa: F401 - imported once here, shared by every fork

    if warm:
        from .warmup import warm as warm_up

        warm_up()
    import gc

    gc.collect()
    gc.freeze()  # the warm objects stay where they are: a fork shares their pages longer
    where = Path(path)
    if where.is_socket() or where.is_symlink():
        where.unlink()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old = os.umask(0o177)
    try:
        listener.bind(str(where))
    finally:
        os.umask(old)
    listener.listen(64)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # forked kernels are reaped by the system
    print(f"scatlab kernels: forking warm kernels on {where}", file=sys.stderr, flush=True)
    while True:
        conn, _ = listener.accept()
        with conn:
            try:
                request, fds = _receive(conn)
            except (OSError, ValueError) as exc:
                print(f"scatlab kernels: a bad request refused: {exc}", file=sys.stderr, flush=True)
                continue
            pid = os.fork()
            if pid == 0:
                listener.close()
                conn.close()
                _kernel_child(request, fds)
            for fd in fds:
                os.close(fd)
            try:
                conn.sendall(json.dumps({"pid": pid}).encode() + b"\n")
            except OSError:
                os.kill(pid, signal.SIGKILL)
                continue
            user = request["env"].get("JUPYTERHUB_USER") if isinstance(request.get("env"), dict) else None
            print(f"scatlab kernels: forked kernel {pid}" + (f" for {user}" if user else ""), file=sys.stderr,
                  flush=True)


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
        request = json.loads(data)
        if not isinstance(request, dict) or len(fds) != 3 or not isinstance(request.get("argv"), list):
            raise ValueError("not a kernel request")
    except (OSError, ValueError):  # a bad request's streams are closed, not leaked
        for fd in fds:
            os.close(fd)
        raise
    return request, fds


def request_kernel(path: str | os.PathLike[str], argv: Sequence[str]) -> int:
    """Ask the parent at ``path`` for a kernel started with ``argv`` (``-f CONNECTION_FILE``),
    this process's environment, folder and standard streams, watched by this process; its pid.
    Raises :class:`OSError` when the parent cannot be reached."""
    request = {"argv": list(argv), "env": dict(os.environ), "cwd": os.getcwd(), "standin": os.getpid()}
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


def launch(argv: Sequence[str]) -> None:
    """A learner's kernel (see the module doc): forked from the parent when it can be, else
    an ordinary ``ipykernel_launcher`` in this process. Never returns."""
    path = os.environ.get(SOCKET_ENV, "")
    try:
        if not path:
            raise OSError("no parent")
        pid = request_kernel(path, argv)
        fd = os.pidfd_open(pid)
    except OSError:
        os.execv(sys.executable, [sys.executable, "-m", "ipykernel_launcher", *argv])
    for sig in _FORWARDED:
        signal.signal(sig, lambda number, _frame: _forward(pid, number))
    parent = os.getppid()
    while True:
        ready, _, _ = select.select([fd], [], [], 1.0)
        if ready:
            os._exit(0)
        if os.getppid() != parent:  # the server that started it is gone: so is its kernel
            _forward(pid, signal.SIGKILL)
            os._exit(0)


def _forward(pid: int, number: int) -> None:
    try:
        os.kill(pid, number)
    except ProcessLookupError:
        pass


def main(args: Sequence[str] | None = None) -> None:
    """``python -m scatlab.course.forks SOCKET`` runs the parent; ``--kernel ARGS...`` a
    learner's kernel (what the kernel spec starts)."""
    given = list(sys.argv[1:] if args is None else args)
    if given[:1] == ["--kernel"]:
        launch(given[1:])
    if len(given) != 1 or given[0].startswith("-"):
        sys.exit("usage: python -m scatlab.course.forks SOCKET   (or --kernel -f CONNECTION_FILE)")
    serve(given[0])


if __name__ == "__main__":
    main()
