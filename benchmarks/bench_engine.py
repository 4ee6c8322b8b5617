"""Benchmark the rules engine: actions per second and full games per second.

Seeded 3-player games of uniformly random legal play under ``classic``, on one core.
"Actions per second" times exactly the work of a player's move: listing the legal actions
and applying one (dealing and shuffling are left out of that figure, and included in the
games-per-second figure). Target (issue 2): at least 50,000 actions per second.

Run: ``python benchmarks/bench_engine.py [--games N] [--rules PRESET]``
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from scatlab.rules import GameState, Phase, find_rules, play_random_game, shuffled_deck


def measure_actions(rules_name: str, games: int, seed: int) -> tuple[int, float]:
    """Play ``games`` games; return (actions, seconds spent listing and applying them)."""
    rules = find_rules(rules_name)
    rng = random.Random(seed)
    actions = 0
    spent = 0.0
    clock = time.perf_counter
    for _ in range(games):
        state = GameState.new(rules, 3)
        while not state.is_over:
            if state.phase is Phase.DEAL:
                state = state.deal(shuffled_deck(rules, rng))
                continue
            start = clock()
            legal = state.legal_actions()
            state = state.apply(legal[rng.randrange(len(legal))])
            spent += clock() - start
            actions += 1
    return actions, spent


def measure_games(rules_name: str, games: int, seed: int) -> tuple[int, float]:
    """Whole games (shuffles, deals, actions, scoring); return (games, seconds)."""
    start = time.perf_counter()
    for g in range(games):
        play_random_game(rules_name, players=3, seed=seed + g)
    return games, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}; one process, one core")
    print(f"{args.games} seeded 3-player games of random legal play under {args.rules!r}, best of {args.repeat}")
    best_rate = 0.0
    for _ in range(args.repeat):
        n, secs = measure_actions(args.rules, args.games, args.seed)
        best_rate = max(best_rate, n / secs)
    print(f"actions per second (legal_actions + apply): {best_rate:,.0f}  ({n:,} actions per run; target >= 50,000)")
    best_games = 0.0
    for _ in range(args.repeat):
        g, secs = measure_games(args.rules, args.games, args.seed)
        best_games = max(best_games, g / secs)
    print(f"full games per second (shuffle, deal, play, score): {best_games:,.0f}")


if __name__ == "__main__":
    main()
