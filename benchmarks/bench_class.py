"""Benchmark a class on JupyterHub: N learners log in at once, open the course and answer a step.

It starts the class hub of ``deploy/jupyterhub_config.py`` (:class:`scatlab.classroom.hub.LocalHub`:
configurable-http-proxy, the local spawner, the class's own PostgreSQL, the idle culler) in a
temporary class folder, then simulates ``--learners`` learners (default 30) in two waves, as a
class goes: their logins spread over ``--ramp`` seconds (default 60: "log in now"), then, once
the whole class is in, their lessons opened over ``--spread`` seconds (default 60: "open your
lesson"). Each learner:

1. logs in with a name and the class code (the hub's login form); the hub starts their
   server and sends them to the course index (*login to the index*, timed to clickable:
   the server's start is in it);
2. once the class is in, opens one lesson (learners take lessons 1, 2, 4 and 5 in turn),
   timed *to clickable*;
3. answers every puzzle of one of that lesson's steps (the right answer, then "Next
   puzzle"), timing each answer from the click to the kernel's verdict (*answer*);
4. goes back to the index, timed *to clickable*.

``--browsers`` of them (default 3) do this in headless Chromium (Debian's, through
Playwright, one browser each, on this machine too): *to clickable* is the first enabled
button on screen, timed in the page (as ``bench_course.py`` does). The others do what a
browser does over the kernel's websocket: the page's HTML (Voilà runs the notebook for it),
then the kernel's channels, the widgets' states (ipywidgets' ``jupyter.widget.control``
comm), a typed answer as a widget update and a click as the button's message; *to
clickable* is when the states have arrived.

It prints: per page, to clickable median and p95; login to the index; answers; any failed or
hung page (none may hang: each waits at most ``--timeout`` s); the load average; memory (each
learner's server with its kernels at its highest, the hub side: the hub, the proxy, the
culler, the dashboard, the kernels' warm parent and PostgreSQL; proportional set sizes, so a
page shared by a forked kernel and its parent counts once); whether every learner's stars reached the class
database (the teacher's dashboard reads it); then, the pages closed, the memory once the
idle culler has stopped the servers (``SCATLAB_CULL_IDLE`` is ``--cull`` seconds here,
default 150, longer than a learner waits for the class; the culler looks every half of that).

Run: ``python benchmarks/bench_class.py [--learners 30] [--browsers 3] [--ramp 60]
[--spread 60] [--cull 150] [--timeout 90] [--keep]``. It needs node and npm (``make install-class`` or
``npm ci --prefix deploy``), PostgreSQL's binaries (Debian's ``postgresql``) and Chromium.
Benchmarks print, they never assert.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import shutil
import socket
import statistics
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websocket  # websocket-client, which jupyter_server itself requires
from bench_course import CHROMIUM, tree_processes, watch
from playwright.sync_api import Browser, sync_playwright

from scatlab.classroom.classdb import class_report
from scatlab.classroom.hub import LocalHub
from scatlab.classroom.pgserver import LocalPostgres
from scatlab.course.steps import STEPS

CODE, TEACHER_CODE = "bench-class-31", "bench-teacher-7"
INDEX = "00-index"
PLAN = [("01-the-game", "1.1"), ("02-draw-or-take", "2.2"), ("04-showdown", "4.1"), ("05-house-rules", "5.1")]
"""The lesson each learner opens (in turn) and the step they answer there (4.1's answers are
buttons, the others' typed)."""


def free_ports(n: int) -> int:
    """A port p with p .. p+n-1 all free on 127.0.0.1."""
    for _ in range(50):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            base = int(s.getsockname()[1])
        try:
            for p in range(base, base + n):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", p))
            return base
        except OSError:
            continue
    raise SystemExit("no free ports")


@dataclass
class Learner:
    """One simulated learner's figures."""

    name: str
    lesson: str
    step: str
    browser: bool
    login: float | None = None
    clickable: dict[str, float] = field(default_factory=dict)
    answers: list[float] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)


# -- a learner over the kernel's websocket ---------------------------------------------------


class Kernel:
    """A page's kernel, spoken to as the page's JavaScript does (JSON messages on the channels
    websocket)."""

    def __init__(self, hub: LocalHub, session: Any, user: str, kernel_id: str, timeout: float) -> None:
        ws_url = hub.url.replace("http", "ws", 1) + f"/user/{user}/api/kernels/{kernel_id}/channels"
        cookie = "; ".join(f"{c.name}={c.value}" for c in session.cookies)
        self.session_id = uuid.uuid4().hex
        self.ws = websocket.create_connection(
            f"{ws_url}?session_id={self.session_id}", timeout=timeout, cookie=cookie, origin=hub.url
        )
        self.timeout = timeout
        self.states: dict[str, dict[str, Any]] = {}

    def send(self, msg_type: str, content: dict[str, Any], metadata: dict[str, Any] | None = None) -> str:
        msg_id = uuid.uuid4().hex
        self.ws.send(
            json.dumps(
                {
                    "header": {
                        "msg_id": msg_id,
                        "msg_type": msg_type,
                        "session": self.session_id,
                        "username": "",
                        "version": "5.3",
                        "date": "",
                    },
                    "parent_header": {},
                    "metadata": metadata or {},
                    "content": content,
                    "channel": "shell",
                    "buffers": [],
                }
            )
        )
        return msg_id

    def wait(self, done: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
        """Read messages until ``done`` says one is it; a TimeoutError naming ``what`` if none comes."""
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            self.ws.settimeout(max(0.1, deadline - time.monotonic()))
            try:
                msg: dict[str, Any] = json.loads(self.ws.recv())
            except websocket.WebSocketTimeoutException:
                break
            if msg.get("msg_type") == "comm_open":  # a widget made since the page opened
                content = msg["content"]
                self.states[content["comm_id"]] = {
                    "model_name": content["data"]["state"].get("_model_name", ""),
                    "state": dict(content["data"]["state"]),
                }
            if msg.get("msg_type") == "comm_msg":
                data = msg["content"].get("data", {})
                if data.get("method") == "update" and msg["content"]["comm_id"] in self.states:
                    self.states[msg["content"]["comm_id"]]["state"].update(data.get("state", {}))
            if done(msg):
                return msg
        raise TimeoutError(f"no {what} within {self.timeout:g} s")

    def ready(self) -> None:
        """The kernel's info, then every widget's state (what the page needs to show them)."""
        mid = self.send("kernel_info_request", {})
        self.wait(lambda m: m.get("parent_header", {}).get("msg_id") == mid, "kernel info")
        control = uuid.uuid4().hex
        self.send(
            "comm_open", {"comm_id": control, "target_name": "jupyter.widget.control", "data": {}}, {"version": "1.0.0"}
        )  # ipywidgets 8's control protocol
        self.send("comm_msg", {"comm_id": control, "data": {"method": "request_states"}})
        reply = self.wait(
            lambda m: m.get("msg_type") == "comm_msg" and m["content"].get("data", {}).get("method") == "update_states",
            "widget states",
        )
        self.states = {k: dict(v) for k, v in reply["content"]["data"]["states"].items()}

    def find(self, pred: Callable[[str, dict[str, Any]], bool]) -> list[str]:
        return [k for k, v in self.states.items() if pred(v.get("model_name", ""), v.get("state", {}))]

    def step_box(self, step_id: str) -> dict[str, str]:
        """The model ids of a step's answer box, its Check and Next puzzle buttons and its feedback."""
        for box in self.find(lambda n, s: n == "VBoxModel" and "scatlab-step" in s.get("_dom_classes", [])):
            kids = [c.removeprefix("IPY_MODEL_") for c in self.states[box]["state"]["children"]]
            title = self.states[kids[0]]["state"].get("value", "")
            if f"Step {step_id} goal" not in title:
                continue
            row = [c.removeprefix("IPY_MODEL_") for c in self.states[kids[4]]["state"]["children"]]
            buttons = [c.removeprefix("IPY_MODEL_") for c in self.states[kids[7]]["state"]["children"]]
            return {"text": row[0], "check": row[1], "feedback": kids[5], "next": buttons[0], "choices": kids[3]}
        raise LookupError(f"step {step_id} is not on the page")

    def click(self, model: str) -> None:
        self.send("comm_msg", {"comm_id": model, "data": {"method": "custom", "content": {"event": "click"}}})

    def type(self, model: str, text: str) -> None:
        self.send(
            "comm_msg", {"comm_id": model, "data": {"method": "update", "state": {"value": text}, "buffer_paths": []}}
        )
        self.states[model]["state"]["value"] = text

    def answer(self, box: dict[str, str], text: str, choice: bool) -> None:
        """Type and check an answer, or click the choice of that name; return when the
        feedback shows the verdict."""
        feedback = box["feedback"]
        if choice:
            kids = [c.removeprefix("IPY_MODEL_") for c in self.states[box["choices"]]["state"]["children"]]
            button = [k for k in kids if self.states.get(k, {}).get("state", {}).get("description") == text]
            if not button:
                raise LookupError(f"no choice {text!r} on the page")
            self.click(button[0])
        else:
            self.type(box["text"], text)
            self.click(box["check"])
        self.wait(
            lambda m: (
                m.get("msg_type") == "comm_msg"
                and m["content"]["comm_id"] == feedback
                and "scatlab-right" in str(m["content"].get("data", {}).get("state", {}).get("value", ""))
            ),
            "verdict",
        )

    def close(self) -> None:
        self.ws.close()


KERNEL_ID = re.compile(r'"kernelId"\s*:\s*"([0-9a-f-]{36})"')


def connect(hub: LocalHub, session: Any, user: str, page: str, r: Any, timeout: float) -> Kernel:
    """The kernel of a rendered page (its HTTP answer ``r``), its widgets' states fetched."""
    if r.status_code != 200:
        raise RuntimeError(f"{page}: HTTP {r.status_code}")
    found = KERNEL_ID.search(r.text)
    if found is None:
        tail = re.sub(r"<[^>]+>", " ", r.text)[-300:].strip()
        raise RuntimeError(f"{page}: no kernel on the page ({tail!r})")
    kernel = Kernel(hub, session, user, found.group(1), timeout)
    kernel.ready()
    return kernel


def open_page(hub: LocalHub, session: Any, user: str, page: str, timeout: float) -> tuple[Kernel, float]:
    """GET a lesson page (Voilà runs it), connect to its kernel and fetch its widgets' states."""
    start = time.perf_counter()
    r = session.get(f"{hub.url}/user/{user}/voila/render/{page}.ipynb", timeout=timeout)
    kernel = connect(hub, session, user, page, r, timeout)
    return kernel, time.perf_counter() - start


@dataclass
class Pace:
    """When a learner acts: ``login`` seconds after the start they log in; once the whole class
    is in (``class_in``) they wait ``lesson`` more seconds and open their lesson."""

    login: float
    lesson: float
    class_in: threading.Barrier

    def wait_for_the_class(self) -> None:
        try:
            self.class_in.wait()
        except threading.BrokenBarrierError:
            pass  # someone failed to log in: the others go on
        time.sleep(self.lesson)


def websocket_learner(hub: LocalHub, learner: Learner, pace: Pace, timeout: float) -> None:
    time.sleep(pace.login)
    start = time.perf_counter()
    try:
        session = hub.login(learner.name, f"{learner.name}-secret", CODE)  # claims the name
        if session.login_status != 302:
            raise RuntimeError(f"login answered {session.login_status}")
        # the hub starts their server and sends them to the course index, as it does a browser
        r = hub.page(session, learner.name, path=f"voila/render/{INDEX}.ipynb", wait=timeout)
        connect(hub, session, learner.name, INDEX, r, timeout).close()
        learner.login = time.perf_counter() - start
    except BaseException:
        pace.class_in.abort()
        raise
    pace.wait_for_the_class()
    kernel, learner.clickable[learner.lesson] = open_page(hub, session, learner.name, learner.lesson, timeout)
    try:
        box = kernel.step_box(learner.step)
        for i, q in enumerate(STEPS[learner.step].questions(0)):
            t = time.perf_counter()
            kernel.answer(box, q.solution, choice=bool(q.choices))
            learner.answers.append(time.perf_counter() - t)
            if i < STEPS[learner.step].puzzles - 1:
                kernel.click(box["next"])
    finally:
        kernel.close()
    index, learner.clickable[INDEX] = open_page(hub, session, learner.name, INDEX, timeout)  # back to the index
    index.close()


# -- a learner in Chromium -------------------------------------------------------------------


def browser_learner(hub: LocalHub, learner: Learner, pace: Pace, timeout: float) -> None:
    """In a Chromium of its own (Playwright's sync API is one per thread)."""
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            in_chromium(hub, browser, learner, pace, timeout)
        finally:
            browser.close()


def in_chromium(hub: LocalHub, browser: Browser, learner: Learner, pace: Pace, timeout: float) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = watch(context.new_page())
    ms = timeout * 1000
    try:
        time.sleep(pace.login)
        start = time.perf_counter()
        try:
            page.goto(f"{hub.url}/hub/login", wait_until="domcontentloaded")
            page.get_by_label("Your name").fill(learner.name)
            page.get_by_label("Your secret").fill(f"{learner.name}-secret")  # claims the name
            page.get_by_label("Class code").fill(CODE)
            page.get_by_role("button", name="Sign in").click()
            page.wait_for_url(f"**/user/{learner.name}/voila/render/{INDEX}.ipynb", timeout=ms)
            page.locator(".widget-button:not([disabled])").first.wait_for(state="visible", timeout=ms)
            learner.login = time.perf_counter() - start
        except BaseException:
            pace.class_in.abort()
            raise
        pace.wait_for_the_class()

        def visit(name: str) -> None:
            t = time.perf_counter()
            page.goto(f"{hub.url}/user/{learner.name}/voila/render/{name}.ipynb", wait_until="commit")
            page.locator(".widget-button:not([disabled])").first.wait_for(state="visible", timeout=ms)
            learner.clickable[name] = min(
                float(page.evaluate("window.__scatlabClickable")) / 1000, time.perf_counter() - t
            )

        visit(learner.lesson)
        box = page.locator(".scatlab-step").filter(has_text=f"Step {learner.step} goal")
        box.scroll_into_view_if_needed()
        questions = STEPS[learner.step].questions(0)
        for i, q in enumerate(questions):
            if not q.choices:
                box.locator("input").fill(q.solution)
            t = time.perf_counter()
            box.get_by_role("button", name=q.solution if q.choices else "Check", exact=True).click()
            expect(box.locator(".scatlab-right")).to_be_visible(timeout=ms)
            learner.answers.append(time.perf_counter() - t)
            if i < len(questions) - 1:
                box.get_by_role("button", name="Next puzzle").click()
        expect(box.locator(".widget-label", has_text="Step done")).to_be_visible(timeout=ms)
        visit(INDEX)  # back to the index
    finally:
        context.close()


# -- the class --------------------------------------------------------------------------------


def pss_kb(pid: int) -> int:
    """The proportional set size of a process (kB): its own pages, and its share of the pages
    it shares with others (a forked kernel shares most of its parent's), so that summing
    processes counts every page once."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


class ForkedKernels:
    """The kernels forked for each learner (scatlab.classroom.forks), from the hub's log, where
    the warm parent writes "forked kernel PID for LEARNER" (a fork's environment in /proc is
    its parent's, so the log is where the learner is named)."""

    PATTERN = re.compile(r"scatlab kernels: forked kernel (\d+) for (\S+)")

    def __init__(self, log: Path) -> None:
        self.log, self.offset = log, 0
        self.owner: dict[int, str] = {}

    def __call__(self) -> dict[str, list[int]]:
        try:
            with self.log.open("rb") as f:
                f.seek(self.offset)
                text = f.read().decode(errors="replace")
                self.offset = f.tell()
        except OSError:
            text = ""
        for pid, user in self.PATTERN.findall(text):
            self.owner[int(pid)] = user
        found: dict[str, list[int]] = {}
        for pid, user in list(self.owner.items()):
            if Path(f"/proc/{pid}").exists():
                found.setdefault(user, []).append(pid)
            else:
                del self.owner[pid]
        return found


def learner_mb(server: int, forked: list[int]) -> tuple[float, int]:
    """A learner's memory (MB, proportional): their server, the kernels it started or that
    were forked for it; and how many kernels."""
    procs = tree_processes(server)
    kernels = sum(1 for _, cmd, _ in procs if "ipykernel" in cmd or "--kernel" in cmd)
    return (sum(pss_kb(p) for p, _c, _r in procs) + sum(pss_kb(p) for p in forked)) / 1024, kernels


def rss_mb(pids: list[int]) -> float:
    """The memory (MB, proportional) of these processes and every process below them."""
    seen: set[int] = set()
    for pid in pids:
        seen.update(p for p, _cmd, _rss in tree_processes(pid))
    return sum(pss_kb(p) for p in seen) / 1024


def postgres_pid(hub: LocalHub) -> int | None:
    pidfile = hub.folder / "postgres" / "data" / "postmaster.pid"
    try:
        return int(pidfile.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def hub_side_mb(hub: LocalHub, servers: set[int], forked: dict[str, list[int]] | None = None) -> float:
    """The hub, the proxy, the culler, the dashboard and PostgreSQL, without the learners' servers."""
    assert hub.process is not None
    below = {p for pid in servers for p, _c, _r in tree_processes(pid)}
    below.update(p for pids in (forked or {}).values() for p in pids)  # learners' forked kernels
    procs = {p for p, _c, _r in tree_processes(hub.process.pid) if p not in below}
    proxy = hub.folder / "jupyterhub-proxy.pid"
    extra = [int(proxy.read_text())] if proxy.is_file() else []
    pg = postgres_pid(hub)
    for pid in [*extra, *([pg] if pg else [])]:
        procs.update(p for p, _c, _r in tree_processes(pid))
    return sum(pss_kb(p) for p in procs) / 1024


def quantiles(xs: list[float]) -> str:
    if not xs:
        return "no figures"
    xs = sorted(xs)
    p95 = xs[min(len(xs) - 1, round(0.95 * (len(xs) - 1)))]
    return f"median {statistics.median(xs):.2f} s, p95 {p95:.2f} s, max {xs[-1]:.2f} s (n={len(xs)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--learners", type=int, default=30, help="learners in the class (default 30)")
    parser.add_argument("--browsers", type=int, default=3, help="of them, in Chromium (default 3)")
    parser.add_argument("--ramp", type=float, default=60.0, help="seconds over which they log in (default 60)")
    parser.add_argument(
        "--spread",
        type=float,
        default=60.0,
        help="once all are in, seconds over which they open their lesson (default 60)",
    )
    parser.add_argument(
        "--cull",
        type=int,
        default=150,
        help="idle seconds before the culler stops a server (default 150: longer than a learner waits for the class)",
    )
    parser.add_argument("--timeout", type=float, default=90.0, help="seconds a page may take before it counts as hung")
    parser.add_argument("--keep", action="store_true", help="keep the class folder (its hub.log) afterwards")
    args = parser.parse_args()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"load average before {os.getloadavg()[0]:.2f}; {args.learners} learners ({args.browsers} in Chromium) "
        f"logging in over {args.ramp:g} s, then opening their lesson over {args.spread:g} s",
        flush=True,
    )
    folder = Path(tempfile.mkdtemp(prefix="scatlab-bench-class-"))
    hub = LocalHub(
        folder, free_ports(5), class_code=CODE, teacher_code=TEACHER_CODE, env={"SCATLAB_CULL_IDLE": str(args.cull)}
    )
    learners = [
        Learner(f"learner-{i + 1:02d}", *PLAN[i % len(PLAN)], browser=i < args.browsers) for i in range(args.learners)
    ]
    rng = random.Random(31)
    logins = sorted(rng.uniform(0, args.ramp) for _ in learners)
    class_in = threading.Barrier(len(learners))
    paces = [Pace(t, rng.uniform(0, args.spread), class_in) for t in logins]
    try:
        t0 = time.perf_counter()
        hub.start()
        print(f"hub up in {time.perf_counter() - t0:.1f} s, memory {hub_side_mb(hub, set()):.0f} MB", flush=True)
        t0 = time.perf_counter()
        monitor = Monitor(hub, learners)
        monitor.start()

        def run(learner: Learner, pace: Pace) -> None:
            try:
                if learner.browser:
                    browser_learner(hub, learner, pace, args.timeout)
                else:
                    websocket_learner(hub, learner, pace, args.timeout)
            except Exception as exc:  # noqa: BLE001  (a benchmark reports every failure)
                learner.failed.append(f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}")

        threads = [threading.Thread(target=run, args=(ln, pace)) for ln, pace in zip(learners, paces)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        monitor.stop()
        report(hub, learners, monitor, time.perf_counter() - t0)
        servers = {pid for ln in learners if (pid := hub.server_pid(ln.name))}
        t1 = time.perf_counter()
        print(f"\nthe pages are closed; waiting for the culler (idle {args.cull} s) ...", flush=True)
        while time.perf_counter() - t1 < args.cull * 4 + 60:
            running = [ln.name for ln in learners if hub.server_pid(ln.name)]
            if not running:
                break
            time.sleep(5)
        left = [ln.name for ln in learners if hub.server_pid(ln.name)]
        print(
            f"after {time.perf_counter() - t1:.0f} s: {len(learners) - len(left)} of {len(learners)} servers "
            f"culled; memory of the hub side {hub_side_mb(hub, servers):.0f} MB"
            + (
                f", and of the {len(left)} servers left {rss_mb([p for n in left if (p := hub.server_pid(n))]):.0f} MB"
                if left
                else ""
            ),
            flush=True,
        )
    finally:
        hub.stop()
        if args.keep:
            print(f"class folder kept: {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


class Monitor(threading.Thread):
    """Every 3 s the load average; every 9 s each learner's server's memory (with its kernels)
    and the hub side's."""

    def __init__(self, hub: LocalHub, learners: list[Learner]) -> None:
        super().__init__(daemon=True)
        self.hub, self.learners = hub, learners
        self.forked = ForkedKernels(hub.log)
        self.loads: list[float] = []
        self.peak: dict[str, tuple[float, int]] = {}  # learner: (MB, kernels) at their server's highest
        self.hub_peak = 0.0
        self.total_peak = 0.0
        self._done = threading.Event()

    def run(self) -> None:
        tick = 0
        while not self._done.wait(3.0):
            self.loads.append(os.getloadavg()[0])
            tick += 1
            if tick % 3 != 1:  # memory every 9 s: reading proportional sizes costs system time
                continue
            servers = {}
            for ln in self.learners:
                try:
                    pid = self.hub.server_pid(ln.name)
                except Exception:  # noqa: BLE001  (the hub's database busy: the next sample)
                    continue
                if pid:
                    servers[ln.name] = pid
            total = 0.0
            forked = self.forked()
            for name, pid in servers.items():
                mb, kernels = learner_mb(pid, forked.get(name, []))
                total += mb
                if mb > self.peak.get(name, (0.0, 0))[0]:
                    self.peak[name] = (mb, kernels)
            side = hub_side_mb(self.hub, set(servers.values()), forked)
            self.hub_peak = max(self.hub_peak, side)
            self.total_peak = max(self.total_peak, total + side)

    def stop(self) -> None:
        self._done.set()
        self.join()


def report(hub: LocalHub, learners: list[Learner], monitor: Monitor, elapsed: float) -> None:
    print(
        f"\nthe class done in {elapsed:.0f} s; load average (1 min) at the end {os.getloadavg()[0]:.2f}, "
        f"highest {max(monitor.loads, default=0):.2f}"
    )
    failed = [ln for ln in learners if ln.failed]
    print(
        f"failed or hung: {len(failed)} of {len(learners)}"
        + "".join(f"\n  {ln.name} ({'chromium' if ln.browser else 'websocket'}): {ln.failed[0]}" for ln in failed)
    )
    print(
        "login to the course index clickable (their server started meanwhile): "
        + quantiles([ln.login for ln in learners if ln.login is not None])
    )
    print(
        "  over the websocket: "
        + quantiles([ln.login for ln in learners if ln.login is not None and not ln.browser])
        + "\n  in Chromium: "
        + quantiles([ln.login for ln in learners if ln.login is not None and ln.browser])
    )
    every: list[float] = []
    for page in [INDEX, *dict.fromkeys(ln.lesson for ln in learners)]:
        xs = [ln.clickable[page] for ln in learners if page in ln.clickable]
        every += xs
        print(f"to clickable, {page}: " + quantiles(xs))
    print("to clickable, every page: " + quantiles(every))
    print("  of which in Chromium: " + quantiles([x for ln in learners if ln.browser for x in ln.clickable.values()]))
    print("answer to verdict: " + quantiles([x for ln in learners for x in ln.answers]))
    if monitor.peak:
        per = [mb for mb, _k in monitor.peak.values()]
        kernels = statistics.median(k for _mb, k in monitor.peak.values())
        print(
            f"memory per learner (their server with its kernels, at its highest; median {kernels:g} kernels "
            f"then): median {statistics.median(per):.0f} MB, max {max(per):.0f} MB; the hub side at its highest "
            f"{monitor.hub_peak:.0f} MB; everything at its highest {monitor.total_peak / 1024:.1f} GB"
        )
    class_ = class_report(LocalPostgres(hub.folder / "postgres", hub.port + 4).dashboard_url)  # read only
    stars = {row.learner: row.stars for row in class_.learners}
    kept = [ln.name for ln in learners if stars.get(ln.name, {}).get(ln.step) == 3]
    print(f"three stars in the class database (the teacher's dashboard): {len(kept)} of {len(learners)} learners")


if __name__ == "__main__":
    main()
