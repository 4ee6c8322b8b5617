"""Benchmark the game review (:func:`scatlab.analysis.review_game`): time per reviewed decision
and per whole 3-player game. Target: a whole game in <= 2 s on one core.

Games: seeded 3-player classic games between a random, a tip and an expert player (seats
rotating, the same games as the review study's, ``research/review``), every seat reviewed. The first review of the
process
also builds the lookup tables, the horizon table and the opponent model; that cold run is
reported on its own (on a separate game), then every game is timed warm.

Run: ``python benchmarks/bench_review.py [--games 20] [--seed 0] [--rules classic]``
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from scatlab.analysis.explain.review import GameReview, review_game
from scatlab.players import make_player, seat_policy
from scatlab.rules import GameRecord, RuleSet, find_rules, play_random_game

TARGET_SECONDS = 2.0
KINDS = ("random", "tip", "expert")


def play_record(kinds: Sequence[str], rules: RuleSet | str, seed: int) -> GameRecord:
    """The record of one whole seeded game between players of ``kinds`` (seat order)."""
    players = seat_policy([make_player(k) for k in kinds])
    return GameRecord.from_state(play_random_game(rules, len(kinds), seed, policy=players))


def seats_for(game: int) -> tuple[str, ...]:
    """The kinds in seat order for game ``game`` (rotating)."""
    return tuple(KINDS[(i + game) % 3] for i in range(3))


def game_set(argv: Sequence[str] | None, description: str, games: int) -> tuple[argparse.Namespace, RuleSet]:
    """The command line of a run over seeded games: ``--games`` (default ``games``),
    ``--seed`` and ``--rules``; returns the arguments and the rules."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--games", type=int, default=games)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rules", default="classic")
    args = parser.parse_args(argv)
    return args, find_rules(args.rules)


@dataclass(frozen=True)
class ReviewedGame:
    """One game: the kinds in seat order, its review and the seconds the review took."""

    kinds: tuple[str, ...]
    review: GameReview
    seconds: float


def reviewed_games(rules: RuleSet, seed: int, games: int) -> Iterator[ReviewedGame]:
    """Games ``0 .. games - 1`` (seats rotating, game ``g`` from ``seed * 1_000_003 + g``),
    each reviewed for every seat; only the review is timed."""
    for game in range(games):
        kinds = seats_for(game)
        record = play_record(kinds, rules, seed * 1_000_003 + game)
        t0 = time.perf_counter()
        result = review_game(record)
        yield ReviewedGame(kinds, result, time.perf_counter() - t0)


def main(argv: Sequence[str] | None = None) -> int:
    args, rules = game_set(argv, __doc__.splitlines()[0], games=20)
    print(
        f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores; "
        f"{args.games} games of {rules.name} (random, tip, expert), seed {args.seed}"
    )
    warmup = play_record(seats_for(0), rules, args.seed * 1_000_003 + 10**6)
    t0 = time.perf_counter()
    cold = review_game(warmup)
    cold_secs = time.perf_counter() - t0
    print(
        f"first review in this process (the players had built the lookup tables): {cold_secs:.2f} s "
        f"for a game of {len(cold.decisions)} decisions"
    )
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "game.json")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(warmup.dumps())
        t0 = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "scatlab", "review", path, "--json"], check=True, stdout=subprocess.DEVNULL
        )
        print(
            f"'scatlab review game.json --json' as a fresh process (imports and every table built): "
            f"{time.perf_counter() - t0:.2f} s"
        )
    per_game: list[float] = []
    decisions = 0
    for reviewed in reviewed_games(rules, args.seed, args.games):
        per_game.append(reviewed.seconds)
        decisions += len(reviewed.review.decisions)
    total = sum(per_game)
    worst = max(per_game)
    ok = "ok" if worst <= TARGET_SECONDS else "MISSED"
    print(f"warm: {decisions:,} decisions in {total:.2f} s: {1000 * total / decisions:.2f} ms per decision")
    print(
        f"per whole game: median {statistics.median(per_game):.3f} s, max {worst:.3f} s, "
        f"{decisions / args.games:.0f} decisions per game on average (target <= {TARGET_SECONDS:.0f} s: {ok})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
