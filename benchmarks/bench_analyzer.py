"""Benchmark the hand analyzer widget: kernel time from an action to the updated widget.

What is timed is what a click or an Enter in a field calls in the kernel (``Analyzer.type``,
``Analyzer.pick``): the model update, :func:`scatlab.analysis.analyze` of the new position,
and the redraw of every part (picker SVGs, numbers, advice, chart, the sympy derivation).
The browser's own drawing and the websocket are not included.

1. a new hand typed into the hand field (a position not seen before, so nothing is cached),
   against 1 opponent (exact knock risk), 2 and 3 opponents (10,000 Monte Carlo deals);
2. a card clicked in and out of the hand again (the position comes back from the cache).

Seeded random hands of the classic deck with the 9♠ on the pile; median and 95th percentile
in milliseconds. No target is set by the issue for the analyzer (the table's is 150 ms).

Run: ``python benchmarks/bench_analyzer.py [--runs N] [--seed S]``.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from scatlab.cards import ALL_CARDS, Card, format_cards
from scatlab.widgets.analyzer import Analyzer


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _hands(n: int, rng: random.Random) -> list[str]:
    others = [c for c in ALL_CARDS if str(c) != "9S"]
    return [format_cards(rng.sample(others, 3)) for _ in range(n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40, help="actions timed per case")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}; {args.runs} actions per case")
    for opponents in (1, 2, 3):
        widget = Analyzer("AH KH 4C", discard="9S", opponents=opponents)
        times: list[float] = []
        for hand in _hands(args.runs, random.Random(args.seed + opponents)):
            start = time.perf_counter()
            widget.type("hand", hand)
            times.append((time.perf_counter() - start) * 1000)
            assert widget.model.ready and widget.numbers.value, hand
        print(
            f"new hand typed, {opponents} opponent{'s' if opponents > 1 else ''}: "
            f"median {statistics.median(times):.1f} ms, p95 {_percentile(times, 0.95):.1f} ms"
        )
    widget = Analyzer("AH KH 4C", discard="9S", opponents=3)
    queen: Card = Card.parse("QH")
    times = []
    for _ in range(args.runs):
        start = time.perf_counter()
        widget.pick(queen)
        times.append((time.perf_counter() - start) * 1000)
    print(
        f"card clicked in and out again (cached), 3 opponents: median {statistics.median(times):.1f} ms, "
        f"p95 {_percentile(times, 0.95):.1f} ms"
    )


if __name__ == "__main__":
    main()
