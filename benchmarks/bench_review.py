"""Benchmark the game review (:func:`scatlab.analysis.review_game`): time per reviewed decision
and per whole 3-player game. Target: a whole game in <= 2 s on one core.

Games: seeded 3-player classic games between a random, a tip and an expert player (seats
rotating, as in ``review_study.py``), every seat reviewed. The first review of the process
also builds the lookup tables, the horizon table and the opponent model; that cold run is
reported on its own (on a separate game), then every game is timed warm.

Run: ``python benchmarks/bench_review.py [--games 20] [--seed 0] [--rules classic]``
"""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence

from review_study import game_set, play_record, reviewed_games, seats_for

from scatlab.analysis.review import review_game

TARGET_SECONDS = 2.0


def main(argv: Sequence[str] | None = None) -> int:
    args, rules = game_set(argv, __doc__.splitlines()[0], games=20)
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores; "
          f"{args.games} games of {rules.name} (random, tip, expert), seed {args.seed}")
    warmup = play_record(seats_for(0), rules, args.seed * 1_000_003 + 10**6)
    t0 = time.perf_counter()
    cold = review_game(warmup)
    cold_secs = time.perf_counter() - t0
    print(f"first review in this process (the players had built the lookup tables): {cold_secs:.2f} s "
          f"for a game of {len(cold.decisions)} decisions")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "game.json")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(warmup.dumps())
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "scatlab", "review", path, "--json"], check=True,
                       stdout=subprocess.DEVNULL)
        print(f"'scatlab review game.json --json' as a fresh process (imports and every table built): "
              f"{time.perf_counter() - t0:.2f} s")
    per_game: list[float] = []
    decisions = 0
    for reviewed in reviewed_games(rules, args.seed, args.games):
        per_game.append(reviewed.seconds)
        decisions += len(reviewed.review.decisions)
    total = sum(per_game)
    worst = max(per_game)
    ok = "ok" if worst <= TARGET_SECONDS else "MISSED"
    print(f"warm: {decisions:,} decisions in {total:.2f} s: {1000 * total / decisions:.2f} ms per decision")
    print(f"per whole game: median {statistics.median(per_game):.3f} s, max {worst:.3f} s, "
          f"{decisions / args.games:.0f} decisions per game on average (target <= {TARGET_SECONDS:.0f} s: {ok})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
