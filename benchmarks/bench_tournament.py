"""Benchmark tournaments: whole games per second on one core and on every core.

Seeded games of ``--players`` (default expert against two tips) under ``--rules``, played
by :func:`scatlab.players.run_tournament` with ``jobs=1`` (in this process) and with
``jobs=2`` (a process pool), and the projected time of a 10,000-game tournament. Target:
10,000 games within 10 minutes on the project's 2-core machine (at least 16.7 games per
second with both cores). The two runs must give identical results (same seed).

Run: ``python benchmarks/bench_tournament.py [--players expert,tip,tip] [--games 300]
[--jobs 2] [--rules classic] [--seed 1]``
"""

from __future__ import annotations

import argparse
import os
import platform
import time

from scatlab.players import TournamentResult, run_tournament

TARGET_GAMES = 10_000
TARGET_SECONDS = 600.0


def timed(players: list[str], games: int, rules: str, seed: int, jobs: int) -> tuple[TournamentResult, float]:
    start = time.perf_counter()
    result = run_tournament(players, games, rules, seed, jobs=jobs, progress=False)
    return result, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--players", default="expert,tip,tip", help="comma-separated player kinds")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=2, help="workers of the parallel run (default 2)")
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    players = [p.strip() for p in args.players.split(",")]
    print(
        f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores; "
        f"{args.games} games of {args.rules}, {' vs '.join(players)}, seed {args.seed}"
    )
    one, secs1 = timed(players, args.games, args.rules, args.seed, 1)
    many, secs2 = timed(players, args.games, args.rules, args.seed, args.jobs)
    per_hand = one.hands / one.games
    print(
        f"{one.hands:,} hands ({per_hand:.1f} per game), {one.actions:,} actions "
        f"({one.actions / one.hands:.1f} per hand)"
    )
    need = TARGET_GAMES / TARGET_SECONDS
    for label, result, secs in (("jobs=1", one, secs1), (f"jobs={args.jobs}", many, secs2)):
        rate = result.games / secs
        projected = TARGET_GAMES / rate
        if result is one:  # the target is for both cores; one core is shown for reference
            verdict = "one core, no target"
        else:
            ok = "ok" if projected <= TARGET_SECONDS else "MISSED"
            verdict = f"target <= {TARGET_SECONDS / 60:.0f} min, >= {need:.1f} games/s: {ok}"
        print(
            f"{label}: {rate:,.1f} games/s ({secs:.1f} s for {result.games}); projected {TARGET_GAMES:,} games: "
            f"{projected / 60:.1f} min  ({verdict})"
        )
    print(f"speed-up with {args.jobs} workers: {secs1 / secs2:.2f}x; identical results: {one == many}")
    print(one.table())


if __name__ == "__main__":
    main()
