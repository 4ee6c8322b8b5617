"""Benchmark the card table: kernel time from a click to the updated table, hints on.

One sample is one ``Table.handle(message)`` call, exactly what the browser's click or key
triggers in the kernel (run here inside an asyncio event loop, as in a kernel): the
learner's move through the engine, the computer opponents' replies (pace 0, so they are
included), the complete hints for the learner's next decision (the one-turn numbers and
the ranking of every move with the advice, :func:`scatlab.analysis.engine.ranking.rank`), the
chart SVG, and the new table model set on the widget: one figure per click, the table
with its complete hints.

The learner clicks uniformly among the enabled controls except Knock (left out since the
first version of this benchmark, so the figures stay comparable). Target (issue 8): median and
95th percentile at most 150 ms (hoped: 50 ms).

Run: ``python benchmarks/bench_table.py [--clicks N] [--rules PRESET] [--opponents tip,tip]``
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import statistics
import time

from scatlab.widgets.table import Table, enabled_controls


async def measure(rules: str, opponents: tuple[str, ...], clicks: int, seed: int) -> list[float]:
    """Milliseconds per click until the table is set with its complete hints, over
    ``clicks`` clicks (new seeded games as needed)."""
    rng = random.Random(seed)
    times: list[float] = []
    game = 0
    table = Table(rules, opponents=opponents, seed=seed, hints=True, pace=0)
    clock = time.perf_counter
    while len(times) < clicks:
        m = table.surface.state
        if m["game_over"]:
            game += 1
            table = Table(rules, opponents=opponents, seed=seed + game, hints=True, pace=0)
            continue
        message = rng.choice([c for c in enabled_controls(m) if c["type"] != "knock"])
        start = clock()
        table.handle(message)
        times.append((clock() - start) * 1000)
        await asyncio.sleep(0)
    return times


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * len(ordered))) - 1)]
    return f"median {statistics.median(ordered):6.1f} ms, p95 {p95:6.1f} ms, max {ordered[-1]:6.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=200)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--opponents", default="tip,tip;tip")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"python {platform.python_version()} on {platform.machine()}, load average {load:.1f}; "
        f"rules {args.rules}; {args.clicks} clicks each"
    )
    for group in args.opponents.split(";"):
        opponents = tuple(group.split(","))
        times = asyncio.run(measure(args.rules, opponents, args.clicks, args.seed))
        print(f"opponents {','.join(opponents):8s} click -> table with complete hints: {summary(times)}")


if __name__ == "__main__":
    main()
