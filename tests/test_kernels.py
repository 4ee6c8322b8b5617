"""The course app's warm kernels (issue 38: pages open fast): a page gets a kernel from the
pool, already warmed (scatlab.course.warmup), with its own request environment set before
its first cell; the pool refills; pooled kernels are never culled, handed-out ones are;
the quicker wait_for_ready still delivers the first cell's output."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from traitlets.config import Config

from scatlab.course.kernels import QuickReadyClient, WarmKernelManager


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
            code, output_hook=lambda m: out.append(m["content"].get("text", "")), timeout=60)
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
            text = await _run(km, kernel_id, "import os, sys\n"
                                             "print(os.environ['QUERY_STRING'], os.environ['SCRIPT_NAME'],"
                                             " 'scatlab.course.widgets.steps' in sys.modules,"
                                             " sorted(k for k in globals() if not k.startswith('_')"
                                             " and k not in ('In', 'Out', 'exit', 'quit', 'get_ipython', 'open', 'os', 'sys')))",
                             count=1)  # the warm-up and the environment ran silently
            assert text.split() == ["game=3", "/voila/render/08-play-a-game.ipynb", "True", "[]"]
            cwd = await _run(km, kernel_id, "import os; print(os.getcwd())")
            assert Path(cwd.strip()) == tmp_path
            # a replacement is started in the background
            await _until(lambda: len(km.pooled()) == 1)
            assert km.pooled()[0] != kernel_id
            # a kernel waiting in the pool is never culled, however old; a handed-out one is
            for kid in (km.pooled()[0], kernel_id):
                kernel: Any = km.get_kernel(kid)
                kernel.last_activity = datetime.now(timezone.utc) - timedelta(hours=1)
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
            text = await _run(km, kernel_id, "import os, sys; print(os.environ['QUERY_STRING'], 'ipywidgets' in sys.modules)")
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


def test_a_replacement_waits_until_the_pages_kernels_are_quiet(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Warming a kernel takes about two seconds of CPU: it waits until no page's kernel has
    been active for ``refill_quiet`` seconds, at most ``refill_patience`` seconds; the
    pool's own kernels (waiting or warming) do not count as a page."""
    km = _manager(tmp_path, refill_quiet=0.3, refill_patience=0.8)
    kernels = {kid: type("K", (), {"last_activity": datetime.now(timezone.utc)})() for kid in ("page", "warming")}
    monkeypatch.setattr(km, "list_kernel_ids", lambda: list(kernels))
    monkeypatch.setattr(km, "get_kernel", lambda kid: kernels[kid])
    km._warming.add("warming")

    async def scenario(busy_for: float) -> float:
        async def page_busy() -> None:  # a page's kernel sending messages every 50 ms
            end = time.monotonic() + busy_for
            while time.monotonic() < end:
                kernels["page"].last_activity = datetime.now(timezone.utc)
                await asyncio.sleep(0.05)

        if "page" in kernels:  # the page has just been handed its kernel
            kernels["page"].last_activity = datetime.now(timezone.utc)
        busy = asyncio.ensure_future(page_busy())
        start = time.monotonic()
        kernels["warming"].last_activity = datetime.now(timezone.utc) + timedelta(hours=1)  # ours: ignored
        await km._wait_for_quiet()
        waited = time.monotonic() - start
        busy.cancel()
        return waited

    assert 0.2 + 0.3 <= _in_own_loop(scenario(0.2)) < 0.8  # waits for the page, then a quiet 0.3 s
    assert 0.8 <= _in_own_loop(scenario(5.0)) < 1.5  # a page busy all along: patience runs out
    kernels.pop("page")
    assert _in_own_loop(scenario(0.0)) < 0.2  # no page at all: at once
