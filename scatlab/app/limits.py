"""What one lesson kernel may use: memory, and computing time for each thing it is asked to do.

A lesson page's kernel runs the lesson's cells when the page opens, then the widgets'
callbacks when the learner clicks or types (comm messages: never code, the server lets a page
send nothing else). Lesson code can still meet an input it handles badly; these limits stop
such a computation, not the kernel, and not the rest of the class on the same machine.

- **Memory**: the kernel's data segment (``RLIMIT_DATA``: its heap and private writable
  mappings, what ``VmData`` in ``/proc/PID/status`` shows) is capped at
  :data:`MEMORY_BYTES`, 1.5 GiB. An allocation past it fails with ``MemoryError`` inside the
  computation that asked; the kernel stays up. Measured (``VmData``, sampled every 0.1 s):
  a kernel that has run a lesson holds 137-503 MB (lesson 8, which plays and reviews a game,
  the most); a kernel forked from the class's warm parent (:mod:`scatlab.classroom.forks`)
  540-610 MB, of which the parent's 442 MB are shared pages it inherited; the highest seen
  during the course's whole browser test (every lesson clicked through) was 706 MB. The cap
  is about twice that. The address space (``RLIMIT_AS``) is left alone: a kernel reserves
  1.0-1.4 GB of it without using it (thread stacks, libraries).
- **Computing time**: each request the kernel handles (running a cell, a widget's message)
  may use :data:`CPU_SECONDS` (30 s) of CPU time. Past that the computation is interrupted
  (:class:`ComputationStopped`, a ``KeyboardInterrupt``, so lesson code's ``except
  Exception`` does not swallow it) and the kernel goes on with the next request. A cell that
  is stopped fails with that error (Voilà ends the page there); a widget's callback that is
  stopped leaves a line on the page (:data:`STOPPED`, in a bar at the bottom of the window:
  Voilà shows nothing a callback prints); both leave a line in the server's log. Measured
  over the course's browser tests (every lesson clicked through), the heaviest request used
  4.4 s (a widget's message); a kernel's warm-up, which builds the tables when no cache has
  them, 4.6 s. CPU time, not wall time: a busy machine does not make it run out sooner. A
  computation stuck inside C code, where the interruption cannot be raised, is ended by the
  kernel's ``RLIMIT_CPU`` at twice the limit and 5 s more: the kernel is killed (and the
  server restarts it).

Both can be changed for a server and its kernels with ``SCATLAB_KERNEL_MEMORY_MB`` and
``SCATLAB_KERNEL_CPU_SECONDS`` (``0``: no limit); the tests use a small CPU limit.

The limits are an IPython extension of the kernel (:func:`load_ipython_extension`), named
in the course's two kernel specs, so every lesson kernel has them however it starts:
``share/kernels/python3`` (``scatlab serve`` and a class hub without forks) and
``forkshare/kernels/python3`` (a kernel forked from the warm parent, and the ordinary kernel
that stands in when the parent cannot be reached) both pass
``--IPKernelApp.extra_extensions=scatlab.app.limits`` and
``--IPKernelApp.reraise_ipython_extension_failures=True``: a kernel whose limits could not be
set does not start.

>>> from_env("4", default=1.0), from_env("", default=1.0)
(4.0, 1.0)
>>> from_env("nonsense", default=1.0), from_env("inf", default=1.0)
(1.0, 1.0)
"""

from __future__ import annotations

import html
import inspect
import math
import os
import resource
import signal
import sys
from collections.abc import Callable
from typing import Any

__all__ = [
    "MEMORY_BYTES",
    "CPU_SECONDS",
    "MEMORY_ENV",
    "CPU_ENV",
    "STOPPED",
    "ComputationStopped",
    "from_env",
    "cap_memory",
    "CpuLimit",
    "load_ipython_extension",
]

MEMORY_BYTES = 3 << 29
"""A lesson kernel's data segment at most (``RLIMIT_DATA``): 1.5 GiB."""

CPU_SECONDS = 30.0
"""CPU seconds one request to a lesson kernel (a cell, a widget's message) may use."""

MEMORY_ENV = "SCATLAB_KERNEL_MEMORY_MB"
"""Changes :data:`MEMORY_BYTES` (in MiB; ``0``: no limit)."""

CPU_ENV = "SCATLAB_KERNEL_CPU_SECONDS"
"""Changes :data:`CPU_SECONDS` (``0``: no limit)."""

STOPPED = (
    "This took too long to work out and was stopped (over {seconds:g} s of computing). "
    "Try something else, or reload the page."
)
"""What a learner reads when the kernel stopped a computation (``seconds``: the limit)."""

_BACKSTOP = 5.0
"""Seconds past twice the limit at which ``RLIMIT_CPU`` ends a kernel stuck in C code."""


class ComputationStopped(KeyboardInterrupt):
    """A request used more than its CPU time (:data:`CPU_SECONDS`) and was interrupted."""


def from_env(value: str | None, default: float) -> float:
    """A limit from an environment variable's ``value``: a finite number at least 0, else ``default``."""
    try:
        number = float(value or "")
    except ValueError:
        return default
    return number if math.isfinite(number) and number >= 0 else default


def cap_memory(limit: int) -> None:
    """Cap this process's data segment at ``limit`` bytes, soft and hard (never above a hard
    limit already set)."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))


def _cpu_used() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class CpuLimit:
    """Interrupts a kernel's request once it has used ``seconds`` of CPU time.

    :meth:`wrap` puts it around a kernel's shell handlers: each request arms a profiling
    timer (``ITIMER_PROF``, the process's CPU time), whose signal raises
    :class:`ComputationStopped` in the request's code, and lowers ``RLIMIT_CPU`` to the time
    used so far plus twice ``seconds`` and 5 s (a backstop for code that never returns to
    Python); both are undone when the request ends. A stopped request leaves a line on the
    kernel's standard error (the server's log); a stopped widget message, one on the page.
    """

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.armed = False
        self.stopped = 0
        """How many requests were stopped."""

    # -- the timer ----------------------------------------------------------------------------

    def install(self) -> None:
        """Take the profiling signal (in the main thread, where requests run)."""
        signal.signal(signal.SIGPROF, self._on_signal)

    def _on_signal(self, _signum: int, _frame: Any) -> None:
        if self.armed:
            self.armed = False
            self.stopped += 1
            raise ComputationStopped(STOPPED.format(seconds=self.seconds))

    def arm(self) -> None:
        """Start counting a request's CPU time."""
        _soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
        backstop = int(_cpu_used() + 2 * self.seconds + _BACKSTOP) + 1
        if hard == resource.RLIM_INFINITY or backstop < hard:
            resource.setrlimit(resource.RLIMIT_CPU, (backstop, hard))
        self.armed = True
        signal.setitimer(signal.ITIMER_PROF, self.seconds)

    def disarm(self) -> None:
        """Stop counting (the request ended)."""
        self.armed = False
        signal.setitimer(signal.ITIMER_PROF, 0)
        _soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
        resource.setrlimit(resource.RLIMIT_CPU, (hard, hard))

    # -- around the kernel's handlers ---------------------------------------------------------

    def wrap(self, kernel: Any) -> None:
        """Limit every shell request of ``kernel`` (an ipykernel ``Kernel``)."""
        for msg_type, handler in list(kernel.shell_handlers.items()):
            kernel.shell_handlers[msg_type] = self._limited(kernel, msg_type, handler)

    def _limited(self, kernel: Any, msg_type: str, handler: Callable[..., Any]) -> Callable[..., Any]:
        async def limited(stream: Any, ident: Any, msg: dict[str, Any]) -> None:
            before = self.stopped
            self.arm()
            try:
                result = handler(stream, ident, msg)
                if inspect.isawaitable(result):
                    await result
            except ComputationStopped as stop:  # a cell's own error handling catches it inside, a callback's not
                self.disarm()
                if msg_type == "execute_request":  # stopped before it replied: its client waits for a reply
                    content: dict[str, Any] = {
                        "status": "error",
                        "ename": type(stop).__name__,
                        "evalue": str(stop),
                        "traceback": [],
                        "execution_count": getattr(kernel, "execution_count", 0),
                    }
                    kernel.session.send(stream, "execute_reply", content, parent=msg, ident=ident)
            finally:
                self.disarm()
                if self.stopped != before:
                    print(
                        f"scatlab: a lesson kernel's {msg_type} was stopped after {self.seconds:g} s of CPU time",
                        file=sys.__stderr__,
                        flush=True,
                    )
                    if msg_type.startswith("comm_"):
                        _show_notice(STOPPED.format(seconds=self.seconds))

        return limited


_notice_box: Any = None
"""The page's notice (:func:`_show_notice`): an empty, hidden box displayed after the page's
first cell that uses widgets."""

_NOTICE_STYLE = (
    "position: fixed; left: 0; right: 0; bottom: 0; z-index: 1000; padding: 0.6em 1em; "
    "background: #fdf0d5; border-top: 2px solid #c64600; color: #1d1d1d; font: 1em sans-serif; "
    "text-align: center"
)


def _show_notice(text: str) -> None:
    """Show ``text`` on the page, in a bar fixed at the bottom of the window: the page's
    notice box (:func:`_notice_after_cell`) gets an HTML widget with the line. (Voilà shows
    nothing a callback prints or displays outside an ``Output`` widget.)"""
    if _notice_box is None:
        return
    import ipywidgets

    line = ipywidgets.HTML(
        f'<div class="scatlab-kernel-notice" role="alert" style="{_NOTICE_STYLE}">{html.escape(text)}</div>'
    )
    _notice_box.children = (line,)
    _notice_box.layout.display = "flex"


def _notice_after_cell(shell: Any) -> Callable[..., None]:
    """A ``post_run_cell`` callback: after the first cell of the page that has imported
    ipywidgets, display the page's notice box, empty and hidden (nothing shows, and no
    element with a widget's class but the box's own), then stop listening. Runs for a
    page's cells, not for a kernel's silent warm-up."""

    def after_cell(*_args: Any) -> None:
        global _notice_box
        if "ipywidgets" not in sys.modules:
            return
        shell.events.unregister("post_run_cell", after_cell)
        if _notice_box is not None:
            return
        import ipywidgets
        from IPython.display import display

        _notice_box = ipywidgets.Box(layout=ipywidgets.Layout(display="none"))
        _notice_box.add_class("scatlab-kernel-notices")
        display(_notice_box)  # type: ignore[no-untyped-call]

    return after_cell


def load_ipython_extension(shell: Any) -> None:
    """Set the limits in this kernel (an IPython extension: ``--IPKernelApp.extra_extensions``)."""
    kernel = getattr(shell, "kernel", None)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # a kernel ended by RLIMIT_CPU leaves no core file
    memory = from_env(os.environ.get(MEMORY_ENV), MEMORY_BYTES / (1 << 20))
    if memory:
        cap_memory(int(memory * (1 << 20)))
    seconds = from_env(os.environ.get(CPU_ENV), CPU_SECONDS)
    if seconds and kernel is not None:
        limit = CpuLimit(seconds)
        limit.install()
        limit.wrap(kernel)
        shell.scatlab_cpu_limit = limit
        shell.events.register("post_run_cell", _notice_after_cell(shell))
