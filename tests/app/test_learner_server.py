"""A learner's server answers what a lesson page needs and nothing else, and its kernels have
limits (real servers and kernels, no mocks, except the culling rule's pretend kernel).

A learner is an adversary with a browser and the hub's cookie for their own server: they
could create kernels at will, read the lessons' source, write the server's config. The
server here is a Jupyter server with the hub's single-user settings
(:func:`scatlab.classroom.hub.singleuser_args`, with the course's extension
:mod:`scatlab.app.server`), with JupyterLab and terminals left on, so that what refuses
them is the extension's list of a page's routes, not their absence. Every other request gets
403 and one line; a lesson page renders and its kernel answers over the page's own routes;
a learner's server runs at most so many kernels at once, however many tabs open together;
a page's shutdown beacon works (by origin); a lesson kernel's memory is capped and a
runaway cell or widget callback is stopped after its CPU time (:mod:`scatlab.app.limits`),
with a line on the page, and the kernel goes on; a busy kernel is culled only once its page
has gone."""

from __future__ import annotations

import asyncio
import concurrent.futures
import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import time
import types
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from helpers.servers import free_port, stop
from scatlab.app import server as course_server
from scatlab.app.launch import INDEX, lessons_dir, voila_options
from scatlab.app.limits import CPU_ENV, MEMORY_BYTES, STOPPED
from scatlab.app.server import KERNELS_ENV, PAGE_FAILED, PAGE_TOO_MANY, REFUSED, SHARE
from scatlab.classroom.forks import KERNEL_SPECS, SOCKET_ENV, socket_path
from scatlab.classroom.hub import singleuser_args

jupyter_client = pytest.importorskip("jupyter_client")
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="kernels' limits are Linux rlimits")

KERNELS = 2
"""The test server's kernel limit (``SCATLAB_KERNELS_PER_LEARNER``), lower than the real 4 to start fewer kernels."""

CPU = 0.5
"""The test kernels' CPU-time limit per request, in seconds (the real one is 30)."""


def _notebook(path: Path, *cells: str) -> None:
    path.write_text(
        json.dumps(
            {
                "cells": [
                    {
                        "cell_type": "code",
                        "execution_count": None,
                        "id": f"c{i}",
                        "metadata": {},
                        "outputs": [],
                        "source": source,
                    }
                    for i, source in enumerate(cells)
                ],
                "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
                "nbformat": 4,
                "nbformat_minor": 5,
            }
        )
    )


class Learner:
    """A learner's server on ``port``, its process, home and log."""

    def __init__(self, port: int, proc: subprocess.Popen[bytes], home: Path, log: Path) -> None:
        self.port, self.proc, self.home, self.log = port, proc, home, log

    def ask(
        self, method: str, path: str, body: str | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, str]:
        """Status and body of a request (no redirect followed)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            conn.request(method, path, body=body, headers={"Content-Type": "application/json", **(headers or {})})
            answer = conn.getresponse()
            return answer.status, answer.read().decode("utf-8", "replace")
        finally:
            conn.close()

    def kernels(self) -> list[int]:
        """The process ids of the server's kernels."""
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                args = (entry / "cmdline").read_bytes()
            except (OSError, IndexError, ValueError):
                continue
            if ppid == self.proc.pid and b"ipykernel_launcher" in args:
                found.append(int(entry.name))
        return found


@pytest.fixture(scope="module")
def learner(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Learner]:
    """A learner's server on the course index and a small page, with at most
    :data:`KERNELS` kernels; JupyterLab and terminals are not turned off."""
    root = tmp_path_factory.mktemp("learner")
    lessons, home = root / "lessons", root / "home"
    lessons.mkdir()
    home.mkdir()
    shutil.copy(lessons_dir() / INDEX, lessons / INDEX)
    _notebook(lessons / "small.ipynb", 'print("small" + "-page")')
    port, log = free_port(), root / "server.log"
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("JUPYTER_", "XDG_", "SCATLAB_")) or k == "SCATLAB_CACHE"
    }
    env.update(
        HOME=str(home), JUPYTER_PATH=str(SHARE), SCATLAB_HOME=str(home / "scatlab"), **{KERNELS_ENV: str(KERNELS)}
    )
    cmd = [
        sys.executable,
        "-m",
        "jupyter_server",
        "--no-browser",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        "--ServerApp.ip=127.0.0.1",
        "--IdentityProvider.token=",
        f"--ServerApp.root_dir={lessons}",
        *singleuser_args(),
        "--ServerApp.contents_manager_class=scatlab.classroom.hub.ReadOnlyContents",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, env=env, cwd=home, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    server = Learner(port, proc, home, log)
    try:
        deadline = time.monotonic() + 90
        while True:
            assert proc.poll() is None, log.read_text()[-3000:]
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.2)
        yield server
    finally:
        stop(proc)


def _refused(learner: Learner, method: str, path: str, body: str | None = None) -> None:
    status, text = learner.ask(method, path, body)
    assert (status, text) == (403, REFUSED + "\n"), f"{method} {path}: {status} {text[:200]}"


def test_kernel_creation_outside_a_page_is_refused(learner: Learner) -> None:
    before = learner.kernels()
    for _ in range(3):
        _refused(learner, "POST", "/api/kernels", json.dumps({"name": "python3"}))
    _refused(learner, "GET", "/api/kernels")
    assert learner.kernels() == before


def test_sessions_are_refused(learner: Learner) -> None:
    body = json.dumps({"path": INDEX, "type": "notebook", "name": "", "kernel": {"name": "python3"}})
    for method in ("GET", "POST", "PATCH", "DELETE"):
        _refused(learner, method, "/api/sessions", body if method != "GET" else None)
        _refused(
            learner, method, "/api/sessions/0c7bfa48-3f4c-4d2a-8a1e-2f1c2d3e4f50", body if method != "GET" else None
        )


def test_config_writes_are_refused(learner: Learner) -> None:
    evil = json.dumps({"ServerApp": {"jpserver_extensions": {"jupyterlab": True}}})
    for method in ("PUT", "PATCH"):
        _refused(learner, method, "/api/config/evil", evil)
    _refused(learner, "GET", "/api/config/evil")
    assert list(learner.home.rglob("evil.json")) == []


def test_files_are_refused(learner: Learner) -> None:
    for path in (f"/files/{INDEX}", "/files/small.ipynb", "/files/"):
        _refused(learner, "GET", path)


def test_notebook_source_is_refused(learner: Learner) -> None:
    for path in (
        f"/api/contents/{INDEX}?content=1",
        "/api/contents/small.ipynb?content=1&format=text",
        "/api/contents?content=1",
        f"/nbconvert/script/{INDEX}",
        "/api/nbconvert",
        f"/view/{INDEX}",
        f"/edit/{INDEX}",
        f"/notebooks/{INDEX}",
        f"/voila/api/contents/{INDEX}",
    ):
        _refused(learner, "GET", path)
    _refused(learner, "PUT", "/api/contents/evil.ipynb", json.dumps({"type": "notebook", "content": {}}))
    status, page = learner.ask("GET", "/voila/render/small.ipynb")  # the page runs it and shows no source
    assert status == 200 and "small-page" in page and '"small" + "-page"' not in page
    _shutdown(learner, _kernel_id(page))


@pytest.mark.parametrize(
    "method, path",
    [
        ("GET", "/api/terminals"),
        ("POST", "/api/terminals"),
        ("GET", "/terminals/websocket/1"),
        ("GET", "/api/kernelspecs"),
        ("GET", "/kernelspecs/python3/logo-64x64.png"),
        ("GET", "/lab"),
        ("GET", "/lab/api/settings"),
        ("GET", "/tree"),
        ("GET", "/api/status"),
        ("GET", "/api/me"),
        ("POST", "/api/shutdown"),
        ("GET", "/metrics"),
        ("GET", "/api/events/subscribe"),
        ("GET", "/voila/tree"),
        ("GET", "/voila"),
        ("POST", "/api/kernels/0c7bfa48-3f4c-4d2a-8a1e-2f1c2d3e4f50/interrupt"),
        ("POST", "/api/kernels/0c7bfa48-3f4c-4d2a-8a1e-2f1c2d3e4f50/restart"),
        ("DELETE", "/api/kernels/0c7bfa48-3f4c-4d2a-8a1e-2f1c2d3e4f50"),
        ("GET", "/login"),
        ("OPTIONS", "/api/kernels"),
        ("GET", "/static/favicons/favicon.ico"),
        ("GET", "//api/sessions"),
        ("GET", "/voila/render/../../api/sessions"),
        ("GET", "/voila/render/%2e%2e/small.ipynb"),
        ("GET", "/voila/files/..%2Fsmall.ipynb"),
    ],
)
def test_everything_else_a_page_does_not_ask_for_is_refused(learner: Learner, method: str, path: str) -> None:
    _refused(learner, method, path)


def _kernel_id(page: str) -> str:
    found = re.search(r'"kernelId": "([0-9a-f-]{36})"', page)
    assert found, page[-2000:]
    return found.group(1)


def _shutdown(learner: Learner, kernel_id: str, origin: str | None = None) -> int:
    """The page's beacon (no XSRF token), from ``origin`` (the server's own by default)."""
    conn = http.client.HTTPConnection("127.0.0.1", learner.port, timeout=60)
    try:
        conn.request(
            "POST", f"/voila/api/shutdown/{kernel_id}", headers={"Origin": origin or f"http://127.0.0.1:{learner.port}"}
        )
        return conn.getresponse().status
    finally:
        conn.close()


def _in_own_loop(coro: Any) -> Any:
    """Run ``coro`` on an event loop of its own, in a thread (Playwright may hold one in this one)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


async def _ask_kernel(port: int, kernel_id: str, msg_types: list[str]) -> dict[str, Any]:
    """Send each message type (no content but a ``comm_info_request``'s) over the page's
    kernel websocket; the shell replies, by type."""
    from jupyter_client.session import Session
    from tornado.websocket import websocket_connect

    session = Session()
    ws = await websocket_connect(f"ws://127.0.0.1:{port}/api/kernels/{kernel_id}/channels?session_id={session.session}")
    replies: dict[str, Any] = {}
    try:
        for msg_type in msg_types:
            msg = session.msg(msg_type, {})
            await ws.write_message(json.dumps({**msg, "channel": "shell"}, default=str))
            while True:
                text = await asyncio.wait_for(ws.read_message(), 30)
                assert isinstance(text, str), text
                answer = json.loads(text)
                if answer["channel"] == "shell" and answer["parent_header"].get("msg_id") == msg["header"]["msg_id"]:
                    replies[answer["msg_type"]] = answer["content"]
                    break
    finally:
        ws.close()
    return replies


def test_a_lesson_page_renders_and_its_kernel_answers_over_the_page_routes(learner: Learner) -> None:
    status, page = learner.ask("GET", f"/voila/render/{INDEX}")
    assert status == 200 and page.rstrip().endswith("</html>") and PAGE_FAILED not in page
    assert "Learn 31" in page and "jp-OutputArea" in page
    kernel_id = _kernel_id(page)
    assert learner.ask("GET", "/voila/static/voila.js")[0] == 200
    assert learner.ask("GET", "/voila/templates/lab/static/index.css")[0] == 200
    status, model = learner.ask("GET", f"/api/kernels/{kernel_id}")
    assert status == 200 and json.loads(model)["id"] == kernel_id
    replies = _in_own_loop(_ask_kernel(learner.port, kernel_id, ["kernel_info_request", "comm_info_request"]))
    assert replies["kernel_info_reply"]["status"] == "ok"
    assert any(
        c["target_name"] == "jupyter.widget" for c in replies["comm_info_reply"]["comms"].values()
    )  # its widgets
    # the page's shutdown beacon: from another site refused, from the page's own origin it shuts the kernel down
    assert _shutdown(learner, kernel_id, origin="http://evil.example") == 403
    assert learner.ask("GET", f"/api/kernels/{kernel_id}")[0] == 200
    assert _shutdown(learner, kernel_id) == 204
    assert learner.ask("GET", f"/api/kernels/{kernel_id}")[0] == 404


def test_a_learner_opening_many_pages_at_once_gets_at_most_the_kernel_limit(learner: Learner) -> None:
    deadline = time.monotonic() + 20  # the pages of earlier tests were shut down: their kernels end
    while learner.kernels() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert learner.kernels() == []
    with concurrent.futures.ThreadPoolExecutor(KERNELS + 3) as pool:
        pages = list(pool.map(lambda _: learner.ask("GET", "/voila/render/small.ipynb"), range(KERNELS + 3)))
    opened = [page for status, page in pages if status == 200]
    refused = [page for status, page in pages if status == 429]
    assert (len(opened), len(refused)) == (KERNELS, 3), [status for status, _ in pages]
    assert all("small-page" in page for page in opened)
    for page in refused:  # one line, where the page would have been
        assert page.count(PAGE_TOO_MANY) == 1 and "small-page" not in page and page.rstrip().endswith("</html>")
    assert len(learner.kernels()) == KERNELS
    assert "refused: 2 kernels are running" in learner.log.read_text()
    # a page that replaces another in its tab asks for its kernel just before the other
    # page's beacon shuts the old one down: it gets the old one's place
    ids = [_kernel_id(page) for page in opened]
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        replacing = pool.submit(learner.ask, "GET", "/voila/render/small.ipynb")
        time.sleep(0.2)
        assert _shutdown(learner, ids.pop()) == 204
        status, page = replacing.result()
    assert status == 200 and "small-page" in page
    for kernel_id in [*ids, _kernel_id(page)]:
        assert _shutdown(learner, kernel_id) == 204


def test_a_busy_kernel_is_culled_once_its_page_has_gone_never_while_open_or_rendering() -> None:
    """``cull_busy``: a kernel busy for good with no page connected is culled; one with a
    page connected, or whose page is still being rendered (its cells running, nothing
    connected yet), is not."""
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

    assert "--MappingKernelManager.cull_busy=True" in voila_options(8866, "127.0.0.1")
    assert "--MappingKernelManager.cull_busy=True" in singleuser_args()
    manager: Any = AsyncMappingKernelManager(
        cull_busy=True,
        cull_idle_timeout=30,  # type: ignore[no-untyped-call]
        cull_connected=False,
    )
    course_server._limit_kernels(types.SimpleNamespace(kernel_manager=manager))
    culled: list[str] = []

    async def shutdown_kernel(kernel_id: str, now: bool = False, restart: bool = False) -> None:
        culled.append(kernel_id)

    manager.shutdown_kernel = shutdown_kernel
    kernel = types.SimpleNamespace(
        execution_state="busy",
        kernel_name="python3",
        kernel_spec=types.SimpleNamespace(metadata={}),
        last_activity=datetime.now(UTC) - timedelta(minutes=5),
    )
    manager._kernels["k"] = kernel
    manager._kernel_connections["k"] = 1  # its page is open
    _in_own_loop(manager.cull_kernel_if_idle("k"))
    manager._kernel_connections["k"] = 0
    course_server._rendering.add("k")  # its page is still being rendered
    try:
        _in_own_loop(manager.cull_kernel_if_idle("k"))
    finally:
        course_server._rendering.discard("k")
    assert culled == []
    _in_own_loop(manager.cull_kernel_if_idle("k"))  # its page has gone
    assert culled == ["k"]


# -- a lesson kernel's limits (scatlab.app.limits), as the course's kernel specs start it ---------


class Kernel:
    def __init__(self, manager: Any, client: Any) -> None:
        self.manager, self.client = manager, client

    def run(self, code: str, timeout: float = 60) -> tuple[dict[str, Any], str]:
        """The reply's content and what the code printed."""
        out: list[str] = []
        reply = self.client.execute_interactive(
            code, timeout=timeout, output_hook=lambda m: out.append(m["content"].get("text", ""))
        )
        return reply["content"], "".join(out).strip()


def _start_kernel(specs: Path, env: dict[str, str], cwd: Path) -> Kernel:
    manager = jupyter_client.KernelManager(kernel_name="python3")
    manager.kernel_spec_manager.kernel_dirs = [str(specs / "kernels")]
    manager.start_kernel(cwd=str(cwd), env=env)
    client = manager.client()
    client.start_channels()
    client.wait_for_ready(timeout=60)
    return Kernel(manager, client)


def _stop_kernel(kernel: Kernel) -> None:
    kernel.client.stop_channels()
    kernel.manager.shutdown_kernel(now=True)


def _limits_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCATLAB_KERNEL")}
    return {**env, CPU_ENV: str(CPU)}


@pytest.fixture(scope="module")
def kernel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Kernel]:
    """A lesson kernel as ``scatlab serve`` and a hub without forks start it (``share/kernels/python3``)."""
    started = _start_kernel(SHARE, _limits_env(), tmp_path_factory.mktemp("kernel"))
    yield started
    _stop_kernel(started)


def test_a_lesson_kernel_has_a_memory_limit_and_an_allocation_past_it_fails_alone(kernel: Kernel) -> None:
    reply, said = kernel.run("import resource; print(*resource.getrlimit(resource.RLIMIT_DATA))")
    assert said.split() == [str(MEMORY_BYTES)] * 2
    reply, _ = kernel.run(f"block = bytearray({MEMORY_BYTES})")
    assert reply["status"] == "error" and reply["ename"] == "MemoryError"
    assert kernel.run("print(6 * 7)")[1] == "42"


def test_a_runaway_cell_is_stopped_by_the_cpu_limit_and_the_kernel_goes_on(kernel: Kernel) -> None:
    start = time.monotonic()
    reply, said = kernel.run("try:\n    while True:\n        pass\nexcept Exception:\n    print('swallowed')")
    assert time.monotonic() - start < CPU + 15  # CPU time, on a busy machine a little more wall time
    assert reply["status"] == "error" and reply["ename"] == "ComputationStopped" and said == ""
    assert reply["evalue"] == STOPPED.format(seconds=CPU)
    assert kernel.run("print(6 * 7)")[1] == "42"


def test_a_runaway_widget_callback_is_stopped_with_a_line_on_the_page_and_the_kernel_goes_on(kernel: Kernel) -> None:
    """A click whose callback never ends: stopped after its CPU time, the page's notice box
    (displayed, hidden, after the first cell that used widgets) shows the line, and the
    button works again."""
    views: list[str] = []
    kernel.client.execute_interactive(
        "import ipywidgets\n"
        "clicks = []\n"
        "def spin(_):\n"
        "    clicks.append(len(clicks))\n"
        "    while len(clicks) == 1:  # the first click never ends\n"
        "        pass\n"
        "button = ipywidgets.Button(description='Spin')\n"
        "button.on_click(spin)\n"
        "button",
        timeout=60,
        output_hook=lambda m: views.extend(
            [m["content"]["data"].get("application/vnd.jupyter.widget-view+json", {}).get("model_id", "")]
            if m["msg_type"] in ("display_data", "execute_result")
            else []
        ),
    )
    assert len(views) == 2 and all(views), views  # the button, then the page's notice box
    msg = kernel.client.session.msg(
        "comm_msg", {"comm_id": views[0], "data": {"method": "custom", "content": {"event": "click"}}}
    )
    start = time.monotonic()
    kernel.client.shell_channel.send(msg)
    said = []
    while True:
        out = kernel.client.get_iopub_msg(timeout=CPU + 15)
        if out["parent_header"].get("msg_id") != msg["header"]["msg_id"]:
            continue
        said.append(json.dumps(out["content"]))
        if out["msg_type"] == "status" and out["content"]["execution_state"] == "idle":
            break
    assert time.monotonic() - start < CPU + 15
    assert any(STOPPED.format(seconds=CPU) in line for line in said), said  # the notice's line, sent to the page
    assert any('"display": "flex"' in line for line in said), said  # and the box shown
    kernel.client.shell_channel.send(
        kernel.client.session.msg(
            "comm_msg", {"comm_id": views[0], "data": {"method": "custom", "content": {"event": "click"}}}
        )
    )
    assert kernel.run("print(clicks)")[1] == "[0, 1]"  # the second click ran: the kernel goes on


def test_a_forked_lesson_kernel_has_the_same_limits(tmp_path: Path) -> None:
    """A kernel forked from the class's parent (``forkshare/kernels/python3``) sets them in
    the fork itself."""
    path = socket_path(tmp_path)
    parent = subprocess.Popen(
        [sys.executable, "-c", f"from scatlab.classroom.forks import serve; serve({path!r}, warm=False)"],
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while not Path(path).exists():
            assert parent.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        forked = _start_kernel(KERNEL_SPECS, {**_limits_env(), SOCKET_ENV: path}, tmp_path)
        try:
            _, said = forked.run("import os, resource; print(os.getppid(), *resource.getrlimit(resource.RLIMIT_DATA))")
            assert said.split() == [str(parent.pid), str(MEMORY_BYTES), str(MEMORY_BYTES)]
            reply, _ = forked.run("while True:\n    pass")
            assert reply["ename"] == "ComputationStopped"
            assert forked.run("print(6 * 7)")[1] == "42"
        finally:
            _stop_kernel(forked)
    finally:
        parent.terminate()
        parent.wait(10)
