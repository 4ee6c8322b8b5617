"""Benchmark the course app: time to a clickable widget per page, on this tree and (with
``--against PATH``) on another checkout in the same run; server memory with 1 and 10 open
lessons, and a bounded load test (10 pages at once, then the kernels of the closed pages
culled).

Starts ``python -m scatlab serve --no-browser`` on a free port of 127.0.0.1 for this tree (run
from it with ``PYTHONPATH`` the tree, which its kernels inherit, and a temporary
``SCATLAB_HOME``) and drives Debian's headless Chromium with Playwright. With ``--against
PATH`` (a checkout of another commit, e.g. ``git worktree add --detach /tmp/base ec34734``) a
second server serves that checkout's lessons the same way (run from PATH, ``PYTHONPATH=PATH``)
with a table cache of its own (``$SCATLAB_CACHE`` with ``-against`` appended, or
``~/.cache/scatlab-against``: a tree removes the cached tables another tree's source wrote).
Both trees are byte-compiled first (``compileall``), as ``make install`` compiles this one.

- *Time to a clickable widget*: from the start of the navigation to the first enabled control
  on screen (a button, or a slider: :data:`CONTROLS`), timed in the page itself
  (:data:`CLICKABLE_WATCH`), for the index, every lesson, the appendices and the practice page
  (the rulebook, which has no control, is left out), ``--runs`` times per page, ``--pause``
  seconds apart (a learner reading; the server's warm kernels refill meanwhile, and a page
  that comes before they have meets the refilling). Two figures per page: *first visit* (a new
  browser context: nothing cached, as a learner's first page) and *next page* (one tab per
  server going from page to page, the browser's cache warm: a learner clicking through the
  course), each page's first visit then its next page. A run goes round by round, a round
  being every page once on a server; before each round the benchmark waits until the servers
  and their kernels are quiet (their CPU time grows by less than a tenth of a core over half a
  second, at most 30 s). With ``--against`` the rounds alternate between the two servers, the
  server that goes first alternating from round to round, so a machine that slows down slows
  both and one tree's refilling never lands on the other tree's pages; each figure is then a
  table: page, this tree's median, the other's median, and the ratio this / other. Target <=
  1.5 s median, hoped <= 1.0 s. ``--busy N`` runs N CPU-bound processes meanwhile (a loaded
  machine).
- *Memory* (this tree; skipped with ``--times-only``): the resident set size (VmRSS) summed
  over the server and its kernels (the server process and every process below it), with no
  page, 1 open lesson and 10 open lessons.
- *Load* (this tree; skipped with ``--times-only``): 10 browser pages open lessons at once;
  all must render; they are closed and the kernel processes counted every 2 s until only the
  warm kernels waiting for the next pages are left (the app culls kernels idle for 30 s,
  checked every 10 s; target: within a minute).

Run: ``python benchmarks/bench_course.py [--runs 3] [--pause 3] [--pages 10] [--busy 0]
[--against PATH] [--times-only]``, e.g. ``python benchmarks/bench_course.py --against
/tmp/base --runs 3 --times-only``.
"""

from __future__ import annotations

import argparse
import os
import platform
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from subprocess import DEVNULL

from playwright.sync_api import Browser, Page, sync_playwright

from scatlab.app.kernel_pool import WarmKernelManager
from scatlab.course.lessons import APPENDICES, LESSONS

POOL = int(WarmKernelManager.pool_size.default_value)
REPO = Path(__file__).resolve().parent.parent

CHROMIUM = os.environ.get("SCATLAB_CHROMIUM", "/usr/bin/chromium")
TARGET = 1.5
HOPED = 1.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def tree_processes(root: int) -> list[tuple[int, str, int]]:
    """(pid, command, RSS in kB) of ``root`` and every process below it (the server, Voilà
    and the kernels it started, which run in sessions of their own)."""
    info: dict[int, tuple[int, str, int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
            rss = 0
            for line in (entry / "status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1])
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            info[int(entry.name)] = (ppid, cmd, rss)
        except (OSError, ValueError, IndexError):
            continue
    found = {root}
    changed = True
    while changed:
        changed = False
        for pid, (ppid, _, _) in info.items():
            if ppid in found and pid not in found:
                found.add(pid)
                changed = True
    return [(pid, info[pid][1], info[pid][2]) for pid in sorted(found) if pid in info]


def memory_mb(root: int) -> tuple[float, int]:
    procs = tree_processes(root)
    kernels = sum(1 for _, cmd, _ in procs if "ipykernel" in cmd)
    return sum(rss for _, _, rss in procs) / 1024, kernels


CONTROLS = ".widget-button:not([disabled]), .widget-slider .noUi-handle"
"""What a learner can use on a page: an enabled button, or a slider's handle (the appendix "How
we know the numbers" has no button: a slider and a text box)."""

CLICKABLE_WATCH = """
(() => {
  // The moment an enabled control is first on screen, in ms from the start of the navigation.
  const ready = () => {
    for (const b of document.querySelectorAll(CONTROLS)) {
      const r = b.getBoundingClientRect();
      if (r.width > 0 && r.height > 0 && getComputedStyle(b).visibility !== 'hidden') return true;
    }
    return false;
  };
  const check = () => {
    if (window.__scatlabClickable === undefined && ready()) window.__scatlabClickable = performance.now();
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
  const frame = () => { check(); if (window.__scatlabClickable === undefined) requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
})();
""".replace("CONTROLS", repr(CONTROLS))
"""Installed in every page before its scripts (``add_init_script``). Timed in the page:
Playwright's own wait polls ever more slowly (every 0.5 s after the first few tries), which
added up to half a second to every figure before 2026-12-04."""


def watch(page: Page) -> Page:
    """``page`` with :data:`CLICKABLE_WATCH` installed."""
    page.add_init_script(CLICKABLE_WATCH)
    return page


LAGS: list[float] = []
"""How much later than the page Playwright's wait saw each control (printed at the end)."""


def wait_clickable(page: Page, timeout: float = 60.0) -> None:
    """Wait until :data:`CLICKABLE_WATCH` has seen a control on ``page`` (Playwright polls at
    every animation frame)."""
    page.wait_for_function("window.__scatlabClickable !== undefined", timeout=timeout * 1000)


def time_to_clickable(page: Page, url: str) -> float:
    """Seconds from the start of the navigation to ``url`` to the first enabled, visible
    control (:data:`CONTROLS`; ``page`` from :func:`watch`)."""
    start = time.perf_counter()
    page.goto(url, wait_until="commit")
    wait_clickable(page)
    seen = time.perf_counter() - start
    clickable = float(page.evaluate("window.__scatlabClickable")) / 1000
    LAGS.append(seen - clickable)
    return clickable


@dataclass
class Server:
    """One ``scatlab serve`` process and the tree it serves."""

    label: str
    tree: Path
    proc: subprocess.Popen[bytes]
    base: str


def start_server(label: str, tree: Path, env: dict[str, str]) -> Server:
    """``python -m scatlab serve`` for ``tree`` (run from it, ``env`` its environment) on a free
    port, once it answers (the readiness probe fetches a static file: no kernel is started)."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "scatlab", "serve", "--no-browser", "--port", str(port)],
        env=env,
        cwd=tree,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    server = Server(label, tree, proc, f"http://127.0.0.1:{port}")
    t0 = time.perf_counter()
    while True:
        try:
            with urllib.request.urlopen(server.base + "/voila/static/voila.js", timeout=2):
                break
        except OSError:
            if time.perf_counter() - t0 > 60 or proc.poll() is not None:
                stop_server(server)
                raise SystemExit(f"the server of {tree} did not start") from None
            time.sleep(0.2)
    print(f"{label}: server ready in {time.perf_counter() - t0:.1f} s ({tree})", flush=True)
    return server


def stop_server(server: Server) -> None:
    try:
        os.killpg(server.proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    server.proc.wait(20)


def tree_cpu(root: int) -> float:
    """CPU seconds (user + system) used so far by ``root`` and the processes below it."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid, _, _ in tree_processes(root):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


QUIET_SHARE = 0.1
"""A server is quiet when its processes use less than this share of a core over :data:`QUIET_WINDOW`."""
QUIET_WINDOW = 0.5
QUIET_LIMIT = 30.0
WAITS: list[float] = []
"""Seconds spent waiting for the servers to be quiet before each round (printed at the end)."""


def wait_quiet(servers: list[Server], pause: float) -> None:
    """Sleep ``pause`` seconds, then until each of ``servers`` and its kernels are quiet (at
    most :data:`QUIET_LIMIT` seconds more)."""
    time.sleep(pause)
    start = time.perf_counter()
    before = sum(tree_cpu(s.proc.pid) for s in servers)
    while time.perf_counter() - start < QUIET_LIMIT:
        time.sleep(QUIET_WINDOW)
        now = sum(tree_cpu(s.proc.pid) for s in servers)
        if now - before < QUIET_SHARE * QUIET_WINDOW:
            break
        before = now
    WAITS.append(time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=2, help="loads per page (default 2)")
    parser.add_argument("--pause", type=float, default=3.0, help="seconds between loads (default 3)")
    parser.add_argument("--pages", type=int, default=10, help="pages at once in the load test (default 10)")
    parser.add_argument("--busy", type=int, default=0, help="CPU-bound processes running meanwhile (default 0)")
    parser.add_argument("--against", type=Path, help="a checkout of another commit, timed in the same run")
    parser.add_argument("--times-only", action="store_true", help="only the times to a clickable widget")
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]  # each figure as it comes
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # stopped (timeout, kill): the servers stop too
    trees = [("this tree", REPO)] + ([(str(args.against), args.against.resolve())] if args.against else [])
    for _, tree in trees:  # both read bytecode (the Makefile compiles this one at install)
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "scatlab")], check=True, stdout=DEVNULL)
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"load average before the run {os.getloadavg()[0]:.1f} (1 min); {args.busy} busy processes",
        flush=True,
    )
    servers: list[Server] = []
    try:
        for label, tree in trees:
            servers.append(start_server(label, tree, server_env(tree, against=tree != REPO)))
        wait_quiet(servers, 5.0)  # the warm kernels fill
        WAITS.clear()
        if not args.times_only:
            mb, kernels = memory_mb(servers[0].proc.pid)
            print(f"memory, no page open: {mb:.0f} MB ({kernels} kernels: the warm ones)")
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True)
            time_pages(browser, servers, args.runs, args.pause)
            if not args.times_only:
                memory_and_load(browser, servers[0], args.pages)
            browser.close()
        print(f"load average after the run {os.getloadavg()[0]:.1f} (1 min)")
    finally:
        for b in burners:
            b.kill()
        for server in servers:
            stop_server(server)


def server_env(tree: Path, *, against: bool) -> dict[str, str]:
    """The environment of ``tree``'s server and its kernels: ``PYTHONPATH`` the tree (the
    kernels run from the lessons' folder, where an installed scatlab would come first), a
    temporary ``SCATLAB_HOME``, and for the other tree a table cache of its own."""
    env = {**os.environ, "PYTHONPATH": str(tree), "SCATLAB_HOME": tempfile.mkdtemp(prefix="scatlab-bench-")}
    if against:
        cache = os.environ.get("SCATLAB_CACHE") or str(Path.home() / ".cache" / "scatlab")
        env["SCATLAB_CACHE"] = cache.rstrip("/") + "-against"
    return env


PAGES = ["00-index", *(lesson.id for lesson in LESSONS), *(a.id for a in APPENDICES), "practice"]
"""The pages timed: every page of the course with a control (the rulebook has none)."""


def time_pages(browser: Browser, servers: list[Server], runs: int, pause: float) -> None:
    """Time every page of :data:`PAGES` ``runs`` times on each server, a round of every page on
    one server, then on the other, and print the medians."""
    print(
        f"time to a clickable widget (navigation -> first enabled control visible), {runs} loads per page "
        f"{pause:g} s apart; target median <= {TARGET} s, hoped <= {HOPED} s:"
    )
    first: dict[str, dict[str, list[float]]] = {s.label: {name: [] for name in PAGES} for s in servers}
    following: dict[str, dict[str, list[float]]] = {s.label: {name: [] for name in PAGES} for s in servers}
    tabs = {s.label: watch(browser.new_context().new_page()) for s in servers}
    for round_ in range(runs):
        for server in servers if round_ % 2 == 0 else servers[::-1]:
            wait_quiet(servers, 0.0)  # the other server's refilling does not land on this round
            for name in PAGES:
                url = f"{server.base}/voila/render/{name}.ipynb"
                context = browser.new_context()
                first[server.label][name].append(time_to_clickable(watch(context.new_page()), url))
                context.close()
                time.sleep(pause)
                following[server.label][name].append(time_to_clickable(tabs[server.label], url))
                time.sleep(pause)
    for tab in tabs.values():
        tab.context.close()
    for label, times in (
        ("first visit (nothing cached)", first),
        ("next page (one tab per server, cache warm)", following),
    ):
        print(f"  {label}:")
        if len(servers) == 1:
            print_times(times[servers[0].label])
        else:
            print_comparison(times[servers[0].label], times[servers[1].label], servers[1].label)
    waits = ""
    if WAITS:
        med, top = statistics.median(WAITS), max(WAITS)
        waits = f"; the servers were quiet {med:.1f} s after a round, median, max {top:.1f} s"
    print(
        f"  (Playwright's wait saw the control {statistics.median(LAGS):.2f} s later, median; the figures above "
        f"are the page's own{waits})"
    )


def print_times(times: dict[str, list[float]]) -> None:
    for name in PAGES:
        med = statistics.median(times[name])
        verdict = "ok" if med <= TARGET else "over target"
        print(f"    {name:<22} median {med:.2f} s, max {max(times[name]):.2f} s  ({verdict})")
    medians = [statistics.median(times[n]) for n in PAGES]
    print(
        f"    pages within the target: {sum(m <= TARGET for m in medians)} of {len(PAGES)}; "
        f"median of the medians {statistics.median(medians):.2f} s"
    )


def print_comparison(this: dict[str, list[float]], other: dict[str, list[float]], other_label: str) -> None:
    print(f"    {'page':<22} {'this tree':>10} {'other':>10} {'ratio':>7}   (medians; other: {other_label})")
    for name in [*PAGES, "median of the medians"]:
        if name in this:
            a, b = statistics.median(this[name]), statistics.median(other[name])
        else:
            a = statistics.median(statistics.median(this[n]) for n in PAGES)
            b = statistics.median(statistics.median(other[n]) for n in PAGES)
        print(f"    {name:<22} {a:>8.2f} s {b:>8.2f} s {a / b:>6.2f}x")
    faster = sum(statistics.median(this[n]) <= statistics.median(other[n]) for n in PAGES)
    within = sum(statistics.median(this[n]) <= TARGET for n in PAGES)
    print(f"    this tree as fast or faster on {faster} of {len(PAGES)} pages; within the target on {within}")


def memory_and_load(browser: Browser, server: Server, pages: int) -> None:
    """The memory of ``server`` idle and with one lesson open, then the load test."""
    base, root = server.base, server.proc.pid
    time.sleep(45)  # let the kernels of the pages above be culled before measuring memory
    mb0, k0 = memory_mb(root)
    context = browser.new_context()
    page = watch(context.new_page())
    time_to_clickable(page, f"{base}/voila/render/{LESSONS[2].id}.ipynb")
    mb1, k1 = memory_mb(root)
    print(f"memory, idle after culling: {mb0:.0f} MB ({k0} kernels); 1 open lesson: {mb1:.0f} MB ({k1} kernels)")
    context.close()
    load_test(browser, base, root, pages)


def load_test(browser: Browser, base: str, root: int, pages: int) -> None:
    """``pages`` pages at once, each on its own lesson; then their kernels culled."""
    contexts = [browser.new_context() for _ in range(pages)]
    opened = [watch(c.new_page()) for c in contexts]
    start = time.perf_counter()
    for i, p in enumerate(opened):
        p.goto(f"{base}/voila/render/{LESSONS[i % len(LESSONS)].id}.ipynb", wait_until="commit")
    rendered = 0
    for p in opened:
        try:
            wait_clickable(p, timeout=120)
            rendered += 1
        except Exception:  # noqa: BLE001 - counted as not rendered
            pass
    elapsed = time.perf_counter() - start
    mb10, k10 = memory_mb(root)
    print(f"load: {rendered} of {pages} pages opened at once rendered a clickable widget in {elapsed:.1f} s")
    print(f"memory, {pages} open lessons: {mb10:.0f} MB ({k10} kernels)")
    for c in contexts:
        c.close()
    closed = time.perf_counter()
    while True:
        _, left = memory_mb(root)
        waited = time.perf_counter() - closed
        if left <= POOL or waited > 120:
            break
        time.sleep(2)
    verdict = "ok" if left <= POOL and waited <= 60 else "over target"
    print(
        f"culling: {k10} kernels -> {left} kernels (the {POOL} warm ones) {waited:.0f} s after the pages "
        f"closed (target: within 60 s: {verdict})"
    )
    mb_end, _ = memory_mb(root)
    print(f"memory after culling: {mb_end:.0f} MB")


if __name__ == "__main__":
    main()
