"""Benchmark the adaptive opponent model's cost, against an older checkout, interleaved.

Every workload runs as its own process (``python -m scatlab ...`` or ``python -c ...``) with
``PYTHONPATH`` set to the tree under test, so the figures include imports and first calls,
as a user meets them. With ``--against PATH`` (a checkout of another commit, e.g. made with
``git worktree add /tmp/base 7ff847b``) each workload runs on both trees in turn, round
after round, so a machine that slows down slows both; the figure is the median over the
rounds and the ratio this / that.

Workloads (issue 35's list):

1. ``scatlab tournament --players expert,tip,tip --games 150 --seed 7 --jobs 1``: CPU
   seconds (user + system) and peak memory (max RSS);
2. ``scatlab analyze AH KH 4C --discard 9S --opponent-model uniform``: CPU seconds;
3. ``scatlab analyze AH KH 4C --discard 9S --opponents N --turns 2 ... (N times)`` with the
   adaptive model, N = 1 to 8 (this tree only: older trees took minutes at N = 8): wall
   seconds of the whole process;
4. first calls in a fresh process, after the imports: the first adaptive knock risk (one
   opponent who played two turns) and the first filter over a log of two turns;
5. ``benchmarks/bench_analysis.py``'s peak memory (this tree only).

Run: ``python benchmarks/bench_speed.py [--against PATH] [--rounds 5] [--skip analysis]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

TOURNAMENT = ["tournament", "--players", "expert,tip,tip", "--games", "150", "--seed", "7", "--jobs", "1"]
UNIFORM = ["analyze", "AH", "KH", "4C", "--discard", "9S", "--opponent-model", "uniform"]

FIRST_CALLS = """
import time
from scatlab.analysis import Knowledge, Observations, knock_risk
from scatlab.analysis.model.hand_filter import LogFilter, Turn
from scatlab.cards import parse_card, parse_cards
from scatlab.rules import find_rules
rules = find_rules("classic")
k = Knowledge(hand=tuple(parse_cards("AH KH 4C")), top=parse_card("9S"), rules=rules)
t0 = time.perf_counter()
knock_risk(k, observations=Observations((2,), ((),)))
t1 = time.perf_counter()
LogFilter.of(rules).weights((Turn("draw", parse_card("KH"), parse_card("2C")), Turn("take", parse_card("QS"),
parse_card("3D"))))
t2 = time.perf_counter()
print(t1 - t0, t2 - t1)
"""


def measured(
    tree: Path, args: list[str], code: str | None = None, check: bool = True
) -> tuple[float, float, float, str]:
    """Run ``python -m scatlab args`` (or ``python -c code``) on ``tree``: (CPU s, wall s,
    peak MiB, stdout), the CPU and memory read by ``wait4``. A failed run stops the script,
    or, with ``check`` off, gives zeros and an empty stdout."""
    env = dict(os.environ, PYTHONPATH=str(tree), OPENBLAS_NUM_THREADS="1")
    cmd = [sys.executable, "-c", code] if code is not None else [sys.executable, "-m", "scatlab", *args]
    out_path = Path("/tmp") / f"bench_speed_{os.getpid()}.out"
    start = time.perf_counter()
    with open(out_path, "w") as out, open(os.devnull, "w") as devnull:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=devnull, cwd="/tmp")
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    text = out_path.read_text()
    out_path.unlink()
    if proc.returncode != 0:
        if not check:
            return 0.0, wall, 0.0, ""
        raise SystemExit(f"{' '.join(cmd[:5])} ... failed on {tree} (exit {proc.returncode})")
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024, text


def median(xs: list[float]) -> float:
    return statistics.median(xs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, help="a checkout of another commit to compare with")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of the interleaved runs (default 5)")
    parser.add_argument(
        "--skip", nargs="*", default=[], choices=["tournament", "uniform", "opponents", "first", "analysis"]
    )
    args = parser.parse_args()
    trees = [("this", REPO)] + ([("that", args.against.resolve())] if args.against else [])
    for _, tree in trees:  # both read bytecode (the Makefile compiles this one at install)
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", str(tree / "scatlab")], check=True, stdout=subprocess.DEVNULL
        )
    print(
        f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs; "
        f"load average {os.getloadavg()[0]:.2f}; trees: " + ", ".join(f"{n} = {p}" for n, p in trees)
    )

    def compare(title: str, cmd: list[str], rounds: int) -> None:
        cpu: dict[str, list[float]] = {n: [] for n, _ in trees}
        mem: dict[str, list[float]] = {n: [] for n, _ in trees}
        for _ in range(rounds):
            for name, tree in trees:
                c, _, m, out = measured(tree, cmd, check=False)
                if not out and "--opponent-model" in cmd:  # an older tree had the uniform model only
                    i = cmd.index("--opponent-model")
                    c, _, m, out = measured(tree, cmd[:i] + cmd[i + 2 :])
                cpu[name].append(c)
                mem[name].append(m)
        line = f"{title}: " + "; ".join(
            f"{n} CPU {median(cpu[n]):.2f} s, peak {median(mem[n]):.0f} MiB" for n, _ in trees
        )
        if len(trees) == 2:
            line += (
                f"; ratio CPU {median(cpu['this']) / median(cpu['that']):.2f}x, "
                f"memory {median(mem['this']) / median(mem['that']):.2f}x"
            )
        print(line + f" (median of {rounds})", flush=True)

    if "tournament" not in args.skip:
        compare("scatlab " + " ".join(TOURNAMENT), TOURNAMENT, args.rounds)
    if "uniform" not in args.skip:
        compare("scatlab " + " ".join(UNIFORM), UNIFORM, args.rounds)
    if "opponents" not in args.skip:
        figures = []
        for n in range(1, 9):
            walls = [
                measured(
                    REPO,
                    ["analyze", "AH", "KH", "4C", "--discard", "9S", "--opponents", str(n), "--turns", *(["2"] * n)],
                )[1]
                for _ in range(3)
            ]
            figures.append(f"N={n} {median(walls):.2f} s")
        print(
            "scatlab analyze AH KH 4C --discard 9S --opponents N --turns 2 (x N), adaptive, whole process "
            "(median of 3): " + ", ".join(figures),
            flush=True,
        )
    if "first" not in args.skip:
        for name, tree in trees:
            texts = [measured(tree, [], FIRST_CALLS, check=False)[3] for _ in range(3)]
            if not all(texts):
                print(f"{name}: first calls not measured (the tree lacks this API)")
                continue
            pairs = [tuple(float(x) for x in text.split()) for text in texts]
            print(
                f"{name}: first adaptive knock risk {median([p[0] for p in pairs]):.2f} s, first filter over "
                f"a log {median([p[1] for p in pairs]):.2f} s (fresh process, after imports, median of 3)",
                flush=True,
            )
    if "analysis" not in args.skip:
        _, wall, peak, _ = measured(
            REPO,
            [],
            "import runpy, sys; sys.argv = ['bench_analysis.py']; "
            f"runpy.run_path({str(REPO / 'benchmarks' / 'bench_analysis.py')!r}, "
            "run_name='__main__')",
        )
        print(f"benchmarks/bench_analysis.py: peak memory {peak:.0f} MiB ({wall:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
