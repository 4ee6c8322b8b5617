"""Warm kernels for the course app: a lesson page gets a kernel that is already running and
has already imported what the lessons use.

Starting a Python kernel costs about half a second, and a lesson's first cells spend
another half second importing the widgets and the analysis and building its tables.
:class:`WarmKernelManager` keeps :attr:`~WarmKernelManager.pool_size` kernels started and
warmed (:func:`scatlab.app.warmup.warm` run, no lesson code, no name left in the user's
namespace) for each folder pages are served from, hands one out when Voilà asks for a
kernel, and starts a replacement in the background, one at a time, once the pages' kernels
have been quiet for a second (starting and warming a kernel takes about two seconds of CPU,
which a page loading at the same time would wait for). When the pool is empty (many pages
opened at once) a page gets a kernel started for it, as without a pool.

What a page sees is the same as with a fresh kernel:

- the working folder is the page's folder (kernels are pooled per folder);
- the environment Voilà gives a page's kernel (``QUERY_STRING``, ``SCRIPT_NAME``, the
  ``VOILA_*`` variables) is set in the kernel before the page's first cell runs;
- the execution count starts at 1 (warming runs silently).

Kernels waiting in the pool are never culled; once handed out a kernel is culled like any
other (idle, or busy, with no page connected), except while its page is being rendered.
Shutting the server down (Ctrl+C) stops filling the pool and stops every kernel at once
(:meth:`WarmKernelManager.shutdown_all`).

This is not Voilà's ``preheat_kernel``: that runs each notebook ahead of time and kept
breaking pages when combined with culling (docs/benchmarks.md), while these kernels run no
lesson code before a page asks.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from datetime import UTC, datetime
from queue import Empty
from typing import Any

import zmq
from jupyter_client.asynchronous.client import AsyncKernelClient
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from jupyter_server.utils import ensure_async
from traitlets import Float, Integer, Unicode

__all__ = ["WarmKernelManager", "QuickReadyClient", "warm_code", "env_code"]


def warm_code(function: str) -> str:
    """The code a pooled kernel runs once: call ``function`` (``"module:name"``), leaving
    no name behind.

    >>> namespace: dict[str, object] = {}
    >>> exec(warm_code("gc:collect"), namespace)
    >>> sorted(k for k in namespace if k != "__builtins__")
    []
    """
    module, _, name = function.partition(":")
    return f"getattr(__import__('importlib').import_module({module!r}), {name!r})()\n"


def env_code(changes: dict[str, str]) -> str:
    """The code that sets ``changes`` in a kernel's ``os.environ`` (the request's variables).

    >>> namespace: dict[str, object] = {}
    >>> exec(env_code({"SCATLAB_TEST_VAR": "game=3"}), namespace)
    >>> os.environ.pop("SCATLAB_TEST_VAR"), sorted(k for k in namespace if k != "__builtins__")
    ('game=3', [])
    """
    return f"__import__('os').environ.update(__import__('json').loads({json.dumps(json.dumps(changes))}))\n"


class WarmKernelManager(AsyncMappingKernelManager):
    """Voilà's kernel manager with a pool of started, warmed kernels per working folder."""

    pool_size = Integer(2, config=True, help="Warm kernels kept ready per folder (0: no pool).")
    warm_function = Unicode(
        "scatlab.app.warmup:warm",
        config=True,
        help="What a pooled kernel calls before a page asks for it (module:function).",
    )
    prefill_kernel = Unicode("python3", config=True, help="The kernel the pool is filled with at start.")
    refill_delay = Float(
        1.0,
        config=True,
        help="Seconds to wait after handing a kernel out before "
        "starting its replacement (the page's own cells run first).",
    )
    refill_quiet = Float(
        1.0,
        config=True,
        help="A replacement starts only once no page's kernel has "
        "been active for this many seconds (warming yields the CPU to pages)...",
    )
    refill_patience = Float(
        10.0,
        config=True,
        help="...or after this many seconds of waiting for quiet (a busy classroom still gets its pool back).",
    )
    warm_timeout = Float(120.0, config=True, help="Seconds a kernel may take to start and warm.")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)  # type: ignore[no-untyped-call]
        self._ready: dict[tuple[str, str], list[tuple[str, dict[str, str]]]] = {}
        self._filling: dict[tuple[str, str], asyncio.Task[None]] = {}
        self._warming: set[str] = set()
        self._failures = 0
        self._closing = False
        self._starting: set[asyncio.Task[Any]] = set()
        """The pool's fills now inside ``start_kernel`` (not cancelled at shut-down: a kernel
        process could be left without its manager)."""

    # -- the pool ---------------------------------------------------------------------------

    def pooled(self) -> list[str]:
        """The ids of the kernels waiting in the pool (started, warmed, not handed out)."""
        return [kid for ready in self._ready.values() for kid, _ in ready]

    def prefill(self, kernel_name: str | None = None, path: str = "") -> None:
        """Start filling the pool for ``path`` (called by the app when it starts)."""
        self._refill((kernel_name or self.prefill_kernel, path), delay=0.0)

    def _refill(self, key: tuple[str, str], delay: float) -> None:
        if self.pool_size <= 0 or self._failures >= 3 or self._closing:
            return
        task = self._filling.get(key)
        if task is None or task.done():
            self._filling[key] = asyncio.ensure_future(self._fill(key, delay))

    def _busy_since(self) -> float:
        """Seconds since the last activity (an IOPub message) of a kernel handed out to a
        page; infinity when there is none."""
        now = datetime.now(UTC)
        ours = set(self.pooled()) | self._warming
        quiet = float("inf")
        for kernel_id in self.list_kernel_ids():
            try:
                last = getattr(self.get_kernel(kernel_id), "last_activity", None)
            except KeyError:  # shut down meanwhile
                continue
            if kernel_id not in ours and isinstance(last, datetime):
                quiet = min(quiet, (now - last).total_seconds())
        return quiet

    async def _wait_for_quiet(self) -> None:
        """Wait until no page's kernel has been active for :attr:`refill_quiet` seconds (a
        page running its cells or its browser fetching the widgets), or at most
        :attr:`refill_patience` seconds."""
        deadline = time.monotonic() + self.refill_patience
        while self._busy_since() < self.refill_quiet and time.monotonic() < deadline:
            await asyncio.sleep(0.1)

    async def _fill(self, key: tuple[str, str], delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        while len(self._ready.setdefault(key, [])) < self.pool_size and self._failures < 3 and not self._closing:
            if delay:  # a replacement: pages first
                await self._wait_for_quiet()
            if self._closing:
                return
            env = dict(os.environ)
            path: Any = key[1]
            task = asyncio.current_task()
            assert task is not None  # _fill runs as a task (_refill)
            self._starting.add(task)
            try:
                kernel_id = await super().start_kernel(kernel_name=key[0], path=path, env=env)
            except Exception as exc:  # noqa: BLE001 - no kernel to pool: pages start their own
                self._failures += 1
                self.log.warning("a kernel for the pool did not start (%s)", exc)
                continue
            finally:
                self._starting.discard(task)
            if self._closing:  # the server stopped while it started: :meth:`shutdown_all` has it
                return
            self._warming.add(kernel_id)
            try:
                await asyncio.wait_for(self._run(kernel_id, warm_code(self.warm_function)), self.warm_timeout)
            except Exception as exc:  # noqa: BLE001 - a kernel that cannot warm is not kept
                if self._closing:  # killed by shutdown_all while warming
                    return
                self._failures += 1
                self.log.warning("a pooled kernel failed to warm (%s); it is shut down", exc)
                self._warming.discard(kernel_id)
                await ensure_async(super().shutdown_kernel(kernel_id, now=True))  # type: ignore[no-untyped-call]
                continue
            self._warming.discard(kernel_id)
            if kernel_id in self:
                self._failures = 0
                self._ready[key].append((kernel_id, env))

    async def shutdown_all(self, now: bool = True) -> None:  # type: ignore[override]  # async, as AsyncMultiKernelManager's
        """Stop every kernel when the server stops, at once (``now``, whatever Voilà asks):
        the pool's have no page, and a page's kernel dies with the server anyway. Asked to
        shut down politely, a kernel still running cells (a page loading, the pool's warm-up)
        printed a traceback on the server's console as its reply found the socket closed.
        The pool stops filling first; a kernel still starting for it is one of the pending
        kernels, stopped here too. (Answers are kept as they are given: nothing is lost.)"""
        self._closing = True
        self._ready.clear()
        for task in self._filling.values():  # waiting for quiet or warming (not inside start_kernel)
            if not task.done() and task not in self._starting:
                task.cancel()
        await ensure_async(super().shutdown_all(now=True))

    async def _run(self, kernel_id: str, code: str, *, ready: bool = False) -> None:
        """Run ``code`` silently in a kernel and wait for its reply (an error raises);
        ``ready``: the kernel is known to answer, so only the shell channel is used."""
        client = self.get_kernel(kernel_id).client()
        client.start_channels(iopub=not ready, stdin=False, hb=False, control=False)
        try:
            if not ready:
                await ensure_async(client.wait_for_ready(timeout=self.warm_timeout))
            msg_id = client.execute(code, silent=True, store_history=False)
            while True:
                reply = await ensure_async(client.get_shell_msg(timeout=self.warm_timeout))
                if reply["parent_header"].get("msg_id") == msg_id:
                    break
            if reply["content"].get("status") != "ok":
                raise RuntimeError(f"{reply['content'].get('ename')}: {reply['content'].get('evalue')}")
        finally:
            client.stop_channels()

    # -- the kernel manager's interface -----------------------------------------------------

    async def start_kernel(  # type: ignore[override]
        self,
        *,
        kernel_name: str | None = None,
        path: Any = None,
        kernel_id: str | None = None,
        env: dict[str, str] | None = None,
        **kwargs: Any,
    ) -> str:
        """A kernel for a page: one from the pool when one is ready, else a new one."""
        key = (kernel_name or self.prefill_kernel, path or "")
        ready = self._ready.get(key, [])
        while kernel_id is None and ready:
            pooled_id, pool_env = ready.pop(0)
            if pooled_id not in self:
                continue
            changes = {k: v for k, v in (env or {}).items() if pool_env.get(k) != v}
            try:
                if not await ensure_async(self.get_kernel(pooled_id).is_alive()):
                    raise RuntimeError("it has died")
                if changes:
                    await asyncio.wait_for(self._run(pooled_id, env_code(changes), ready=True), 5)
            except Exception as exc:  # noqa: BLE001 - any failure: a new kernel instead
                self.log.warning("a pooled kernel did not answer (%s); starting a new one", exc)
                await ensure_async(super().shutdown_kernel(pooled_id, now=True))  # type: ignore[no-untyped-call]
                continue
            self._touch(pooled_id)
            self._refill(key, self.refill_delay)
            return pooled_id
        started: str = await super().start_kernel(
            kernel_name=kernel_name, path=path, kernel_id=kernel_id, env=env, **kwargs
        )
        self._refill(key, self.refill_delay)
        return started

    def _touch(self, kernel_id: str) -> None:
        kernel: Any = self.get_kernel(kernel_id)
        kernel.last_activity = datetime.now(UTC)

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        """Cull as Voilà does, except the kernels waiting in (or warming for) the pool and those
        whose page is still being rendered (:func:`scatlab.app.server.page_rendering`: no
        page is connected yet, and a busy kernel is culled)."""
        from .server import page_rendering

        if kernel_id in self._warming or kernel_id in self.pooled() or page_rendering(kernel_id):
            return
        await super().cull_kernel_if_idle(kernel_id)  # type: ignore[no-untyped-call]


class QuickReadyClient(AsyncKernelClient):
    """jupyter_client's asynchronous client, with a quicker :meth:`wait_for_ready`.

    Voilà waits for a page's kernel with ``wait_for_ready`` before running the first cell.
    jupyter_client's version waits 0.2 s for an IOPub message after the kernel's reply
    (to be sure the output channel is connected), then another 0.2 s of silence to flush
    it: 0.2-0.4 s on every page even when the kernel is already running. This one keeps the
    same guarantee (it returns only once an IOPub message has arrived after a
    ``kernel_info`` reply, so the first cell's output cannot be lost) but asks again every
    20 ms and flushes with a 20 ms window. It never sends to a shell socket that would
    block (a kernel gone from under its page): it waits, then gives up at the timeout.
    """

    poll = 0.02

    async def _async_wait_for_ready(self, timeout: float | None = None) -> None:
        deadline = time.monotonic() + (float("inf") if timeout is None else timeout)
        while True:
            if not self._can_send():  # never block the server's loop on a kernel that is not there
                if not await self._async_is_alive():
                    raise RuntimeError("Kernel died before replying to kernel_info")
                if time.monotonic() > deadline:
                    raise RuntimeError(f"Kernel didn't accept a message in {timeout:.0f} seconds")
                await asyncio.sleep(self.poll)
                continue
            self.kernel_info()
            try:
                msg = await ensure_async(self.shell_channel.get_msg(timeout=1))
            except Empty:
                msg = None
            if msg is not None and msg["msg_type"] == "kernel_info_reply":
                try:
                    await ensure_async(self.iopub_channel.get_msg(timeout=self.poll))
                except Empty:
                    pass
                else:
                    self._handle_kernel_info_reply(msg)
                    break
            if not await self._async_is_alive():
                raise RuntimeError("Kernel died before replying to kernel_info")
            if time.monotonic() > deadline:
                raise RuntimeError(f"Kernel didn't respond in {timeout:.0f} seconds")
        while True:  # flush IOPub
            try:
                await ensure_async(self.iopub_channel.get_msg(timeout=self.poll))
            except Empty:
                break

    def _can_send(self) -> bool:
        """Whether a message to the shell channel would be queued at once. A ZeroMQ DEALER
        socket with no peer (a kernel that closed its socket while its process lingers)
        blocks on send, and a blocked send here would freeze the whole server."""
        return bool(self.shell_channel.socket.getsockopt(zmq.EVENTS) & zmq.POLLOUT)

    wait_for_ready = _async_wait_for_ready
