"""The course app's warm kernels (issue 38: pages open fast): a page gets a kernel from the
pool, already warmed (scatlab.app.warmup), with its own request environment set before
its first cell; the pool refills; pooled kernels are never culled, handed-out ones are;
the quicker wait_for_ready still delivers the first cell's output."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import types
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from traitlets.config import Config

from scatlab.app.kernel_pool import QuickReadyClient, WarmKernelManager


def _manager(root: Path, **traits: Any) -> WarmKernelManager:
    config = Config({"ServerKernelManager": {"client_factory": QuickReadyClient}})
    return WarmKernelManager(config=config, root_dir=str(root), cull_idle_timeout=30, **traits)


def _in_own_loop(coro: Any) -> Any:
    """Run ``coro`` to the end on an event loop of its own, in a thread: under xdist another
    test in this process (Playwright's sync API) may hold a running loop in the main
    thread, where asyncio.run refuses to start."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


async def _until(check: Any, seconds: float = 90) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.05)


async def _run(km: WarmKernelManager, kernel_id: str, code: str, count: int | None = None) -> str:
    """Run ``code`` as a page would (a fresh client, waited for) and return its printed text
    (``count``: the execution count the reply must carry)."""
    client = km.get_kernel(kernel_id).client()
    assert isinstance(client, QuickReadyClient)
    client.start_channels()
    out: list[str] = []
    try:
        await client.wait_for_ready(timeout=60)
        reply = await client.execute_interactive(
            code, output_hook=lambda m: out.append(m["content"].get("text", "")), timeout=60
        )
        assert reply["content"]["status"] == "ok"
        if count is not None:
            assert reply["content"]["execution_count"] == count
        return "".join(out)
    finally:
        client.stop_channels()


def test_a_page_gets_a_warm_kernel_with_its_own_request_environment_and_the_pool_refills(tmp_path: Path) -> None:
    async def scenario() -> None:
        km = _manager(tmp_path, pool_size=1, refill_delay=0.0)
        try:
            km.prefill(path="")
            await _until(lambda: len(km.pooled()) == 1)
            pooled = km.pooled()[0]
            env = {**os.environ, "QUERY_STRING": "game=3", "SCRIPT_NAME": "/voila/render/08-play-a-game.ipynb"}
            kernel_id = await km.start_kernel(kernel_name="python3", path="", env=env)
            assert kernel_id == pooled and kernel_id not in km.pooled()
            # The first cell's output arrives (the quick wait_for_ready kept IOPub's check),
            # the request's variables are set, the warm-up's imports are there, nothing else.
            text = await _run(
                km,
                kernel_id,
                "import os, sys\n"
                "print(os.environ['QUERY_STRING'], os.environ['SCRIPT_NAME'],"
                " 'scatlab.course.widgets.steps' in sys.modules,"
                " sorted(k for k in globals() if not k.startswith('_')"
                " and k not in ('In', 'Out', 'exit', 'quit', 'get_ipython', 'open', 'os', 'sys')))",
                count=1,
            )  # the warm-up and the environment ran silently
            assert text.split() == ["game=3", "/voila/render/08-play-a-game.ipynb", "True", "[]"]
            cwd = await _run(km, kernel_id, "import os; print(os.getcwd())")
            assert Path(cwd.strip()) == tmp_path
            # a replacement is started in the background
            await _until(lambda: len(km.pooled()) == 1)
            assert km.pooled()[0] != kernel_id
            # a kernel waiting in the pool is never culled, however old; a handed-out one is
            for kid in (km.pooled()[0], kernel_id):
                kernel: Any = km.get_kernel(kid)
                kernel.last_activity = datetime.now(UTC) - timedelta(hours=1)
                await km.cull_kernel_if_idle(kid)
            assert km.pooled() and km.pooled()[0] in km
            assert kernel_id not in km
        finally:
            await km.shutdown_all()

    _in_own_loop(scenario())


def test_without_a_pool_a_page_gets_a_new_kernel(tmp_path: Path) -> None:
    """pool_size 0 (or a pool emptied by many pages at once): Voilà's own start."""

    async def scenario() -> None:
        km = _manager(tmp_path, pool_size=0)
        try:
            km.prefill()
            kernel_id = await km.start_kernel(kernel_name="python3", path="", env={**os.environ, "QUERY_STRING": "x=1"})
            assert km.pooled() == []
            text = await _run(
                km, kernel_id, "import os, sys; print(os.environ['QUERY_STRING'], 'ipywidgets' in sys.modules)"
            )
            assert text.split() == ["x=1", "False"]
        finally:
            await km.shutdown_all()

    _in_own_loop(scenario())


def test_the_quick_client_never_sends_to_a_shell_socket_that_would_block(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel gone from under its page (its process lingering, its socket closed) leaves
    the client's DEALER socket with no peer, where a send blocks: the whole server froze so
    once. The client waits instead, and gives up at the timeout, or at once if the kernel
    has died."""
    client = QuickReadyClient()
    sent: list[int] = []
    alive = [True]

    async def is_alive() -> bool:
        return alive[0]

    monkeypatch.setattr(client, "_can_send", lambda: False)
    monkeypatch.setattr(client, "kernel_info", lambda: sent.append(1))
    monkeypatch.setattr(client, "_async_is_alive", is_alive)
    with pytest.raises(RuntimeError, match="didn't accept a message in 0 seconds"):
        _in_own_loop(client.wait_for_ready(timeout=0.1))
    alive[0] = False
    with pytest.raises(RuntimeError, match="Kernel died"):
        _in_own_loop(client.wait_for_ready(timeout=30))
    assert sent == []


class _Clock:
    """A pretend clock for the refill's waiting: ``sleep`` moves it on at once, so what the
    test checks is the rule, never how busy the machine running it is."""

    def __init__(self) -> None:
        self.now = 0.0
        self._real_sleep = asyncio.sleep

    def monotonic(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await self._real_sleep(0)


def test_a_replacement_waits_until_the_pages_kernels_are_quiet(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Warming a kernel takes about two seconds of CPU: it waits until no page's kernel has
    been active for ``refill_quiet`` seconds, at most ``refill_patience`` seconds, looking
    every 0.1 s."""
    import scatlab.app.kernel_pool as kernels_module

    km = _manager(tmp_path, refill_quiet=0.3, refill_patience=0.8)
    clock = _Clock()
    monkeypatch.setattr(kernels_module, "time", types.SimpleNamespace(monotonic=clock.monotonic))
    monkeypatch.setattr(kernels_module, "asyncio", types.SimpleNamespace(sleep=clock.sleep))
    busy_until: list[float | None] = [None]  # a page's kernel active until then; None: no page

    def busy_since() -> float:
        if busy_until[0] is None:
            return float("inf")
        return clock.now - min(clock.now, busy_until[0])

    monkeypatch.setattr(km, "_busy_since", busy_since)

    def waited(busy_for: float | None) -> float:
        clock.now = 0.0
        busy_until[0] = busy_for
        _in_own_loop(km._wait_for_quiet())
        return clock.now

    eps = 1e-9
    assert 0.5 - eps <= waited(0.2) < 0.6 - eps  # the page, then a quiet 0.3 s
    assert 0.3 - eps <= waited(0.0) < 0.4 - eps  # a page just handed its kernel: a quiet 0.3 s
    assert 0.8 - eps <= waited(5.0) < 0.9 + eps  # a page busy all along: patience runs out
    assert waited(None) == 0.0  # no page at all: at once


def test_only_a_pages_kernel_counts_as_busy_never_the_pools_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seconds since the last activity of a kernel handed out to a page; the pool's
    kernels (waiting or warming) do not count; no page: infinity."""
    km = _manager(tmp_path)
    now = datetime.now(UTC)
    kernels = {kid: type("K", (), {"last_activity": now})() for kid in ("page", "warming", "waiting")}
    kernels["page"].last_activity = now - timedelta(seconds=5)
    monkeypatch.setattr(km, "list_kernel_ids", lambda: list(kernels))
    monkeypatch.setattr(km, "get_kernel", lambda kid: kernels[kid])
    km._warming.add("warming")
    km._ready[("python3", "")] = [("waiting", {})]
    assert 5.0 <= km._busy_since() < 3600.0  # only the page's 5 s, never the pool's "now"
    kernels.pop("page")
    assert km._busy_since() == float("inf")
