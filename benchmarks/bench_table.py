"""Benchmark the card table: kernel time from a click to the updated table, hints on.

One sample is one ``Table.handle(message)`` call, exactly what the browser's click or key
triggers in the kernel (run here inside an asyncio event loop, as in a kernel): the
learner's move through the engine, the computer opponents' replies (pace 0, so they are
included), the hints for the learner's next decision, the chart SVG, and the new table
model set on the widget. Two figures per click:

- **updated table**: until the table model is set with the cards and the one-turn hints
  (exact expected values, P(31), outs, the chart); the knock risk is still "computing";
- **complete hints**: until the table model is set again with the whole ``analyze(view)``
  (the knock risk: exact against one opponent, 10,000 seeded Monte Carlo deals against
  more; and the advice), which the widget computes right after the first update.

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
from typing import Any

from scatlab.widgets.table import Table, enabled_controls


async def measure(rules: str, opponents: tuple[str, ...], clicks: int, seed: int) -> tuple[list[float], list[float]]:
    """Milliseconds per click until the updated table and until the complete hints, over
    ``clicks`` clicks (new seeded games as needed)."""
    rng = random.Random(seed)
    times: list[float] = []
    complete: list[float] = []
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
        await asyncio.sleep(0)  # the loop runs the widget's follow-up: the complete hints
        await asyncio.sleep(0)
        complete.append((clock() - start) * 1000)
        assert table.surface.state.get("hints") is None or not table.surface.state["hints"]["pending"]
    return times, complete


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
    print(f"python {platform.python_version()} on {platform.machine()}, load average {load:.1f}; "
          f"rules {args.rules}; {args.clicks} clicks each")
    for group in args.opponents.split(";"):
        opponents = tuple(group.split(","))
        times, complete = asyncio.run(measure(args.rules, opponents, args.clicks, args.seed))
        print(f"opponents {','.join(opponents):8s} click -> updated table:  {summary(times)}")
        print(f"opponents {','.join(opponents):8s} click -> complete hints: {summary(complete)}")


if __name__ == "__main__":
    main()
