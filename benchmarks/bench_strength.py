"""Benchmark playing strength: the win rate of one player kind under every preset, and before/after a change.

Each row is a tournament (:func:`scatlab.players.run_tournament`, fair seating, every game
seeded from ``(--seed, game)``) of the seat under test (``--players``, default ``expert``)
against ``--against`` (default ``tip,tip``) under one preset of
:data:`scatlab.rules.options.PRESETS`, plus the row ``heads-up``: classic rules against
``--heads-up-against`` alone (default ``tip``). For each row it prints the games, the
tested seat's wins and win rate with its 95% Wilson interval, its fair share (one game in
the number of players) and the seconds the row took.

With ``--before PATH``, a checkout of another commit of this repository (for example
``git worktree add /tmp/base ec34734``), the same rows are also played by that checkout's
code, in a separate process (this script re-run with ``PYTHONPATH=PATH`` and a hidden
``--worker`` flag that prints JSON), so the two versions never share a process. The table
then shows before and after side by side, the change in points, whether after is at least
before or inside before's interval (``ok``, else ``WORSE``), and whether the games were
identical (the same wins per entrant, hands and actions: the change did not alter play).

The default of 2,400 games a row is a whole number of seating cycles for two players (4
games); for three (9 games) all but 6 games are. A full run (8 rows, twice with ``--before``) takes a long while:
use ``--rows`` for a subset. Benchmarks print, they never assert.

With ``--announce`` every seat of the code under test is told who sits where (each
entrant's kind), as at the table (:attr:`scatlab.rules.GameState.seats`); a ``--before``
checkout plays as it always did (an older engine reads no announcement).

With ``--budget N`` every ``master`` entrant searches ``N`` rollouts a decision (its
default otherwise; the entrant is the kind ``master:N``, so worker processes get it too). When a ``master`` plays,
the script also times a small sample of its decisions (``--timing-games`` games of the
first row, default 2) and prints their median, 95th percentile and slowest.

Run: ``python benchmarks/bench_strength.py --seed 7 [--games 2400] [--jobs 2]
[--rows classic,gin,heads-up] [--players expert] [--against tip,tip] [--heads-up-against tip]
[--budget 600] [--timing-games 2] [--announce] [--before /tmp/base]``

For example, the master against the expert heads-up and against two experts::

    python benchmarks/bench_strength.py --seed 2027 --games 1200 --jobs 1 --rows heads-up,classic \
        --players master --heads-up-against expert --against expert,expert --budget 200
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import scatlab
from scatlab.players import Decision, Player, make_player, run_tournament
from scatlab.players.tournament import play_out, wilson_interval
from scatlab.rules import PlayerView, find_rules
from scatlab.rules.options import PRESETS

HEADS_UP = "heads-up"
"""The row of classic rules between the tested seat and one opponent."""


@dataclass(frozen=True)
class Row:
    """One row's tournament: its name, the rule set and the entrants (the tested seat first)."""

    name: str
    rules: str
    players: tuple[str, ...]


@dataclass(frozen=True)
class Outcome:
    """What one version of the code made of a row: wins per entrant (the tested seat first),
    hands, actions and wall-clock seconds."""

    row: str
    games: int
    wins: tuple[int, ...]
    hands: int
    actions: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.wins[0] / self.games

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins[0], self.games)

    def same_games(self, other: Outcome) -> bool:
        """The same wins per entrant, hands and actions: the games were (almost surely) identical."""
        return (self.games, self.wins, self.hands, self.actions) == (
            other.games,
            other.wins,
            other.hands,
            other.actions,
        )


def all_rows(seat: str, against: list[str], heads_up_against: str) -> list[Row]:
    rows = [Row(name, name, (seat, *against)) for name in PRESETS]
    rows.append(Row(HEADS_UP, "classic", (seat, heads_up_against)))
    return rows


def with_budget(kinds: tuple[str, ...], budget: int | None) -> tuple[str, ...]:
    """``kinds`` with every ``master`` searching ``budget`` rollouts a decision (``master:N``,
    a kind make_player knows); unchanged for None."""
    return kinds if budget is None else tuple(f"master:{budget}" if k == "master" else k for k in kinds)


def pick_rows(args: argparse.Namespace) -> list[Row]:
    rows = [
        Row(r.name, r.rules, with_budget(r.players, args.budget))
        for r in all_rows(args.players.strip(), split(args.against), args.heads_up_against.strip())
    ]
    if not args.rows:
        return rows
    by_name = {r.name: r for r in rows}
    wanted = split(args.rows)
    unknown = [w for w in wanted if w not in by_name]
    if unknown:
        sys.exit(f"unknown row(s) {', '.join(unknown)}: choose among {', '.join(by_name)}")
    return [by_name[w] for w in wanted]


def split(text: str) -> list[str]:
    return [p.strip() for p in text.split(",") if p.strip()]


def play(rows: list[Row], games: int, seed: int, jobs: int, label: str, announce: bool = False) -> list[Outcome]:
    """Play every row with the scatlab this process imports; a line per row on standard error."""
    out = []
    for row in rows:
        start = time.perf_counter()
        extra: dict[str, Any] = {"announce": True} if announce else {}  # an older checkout has no announce
        result = run_tournament(list(row.players), games, row.rules, seed, jobs=jobs, progress=False, **extra)
        secs = time.perf_counter() - start
        outcome = Outcome(
            row.name, result.games, tuple(e.wins for e in result.entrants), result.hands, result.actions, secs
        )
        print(f"  [{label}] {row.name}: {100 * outcome.rate:.1f}% in {secs:.1f} s", file=sys.stderr, flush=True)
        out.append(outcome)
    return out


def worker_argv(args: argparse.Namespace) -> list[str]:
    """This script's command line for a worker that plays the same rows."""
    argv = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--worker",
        "--seed",
        str(args.seed),
        "--games",
        str(args.games),
        "--jobs",
        str(args.jobs),
        "--players",
        args.players,
        "--against",
        args.against,
        "--heads-up-against",
        args.heads_up_against,
    ]
    if args.rows:
        argv += ["--rows", args.rows]
    if args.budget is not None:
        argv += ["--budget", str(args.budget)]
    return argv


def play_before(args: argparse.Namespace) -> tuple[str, list[Outcome]]:
    """The rows played by the checkout at ``args.before``, in a subprocess of the same interpreter."""
    before = Path(args.before).resolve()
    if not (before / "scatlab" / "__init__.py").is_file():
        sys.exit(f"--before {args.before}: no scatlab package there (give the root of a checkout of this repository)")
    env = dict(os.environ, PYTHONPATH=str(before))
    done = subprocess.run(worker_argv(args), env=env, stdout=subprocess.PIPE, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"the worker on {before} failed (exit status {done.returncode})")
    data = json.loads(done.stdout)
    where = str(data["scatlab"])
    if not Path(where).resolve().is_relative_to(before):
        sys.exit(f"the worker imported scatlab from {where}, not from {before}")
    outcomes = [
        Outcome(o["row"], o["games"], tuple(o["wins"]), o["hands"], o["actions"], o["seconds"])
        for o in data["outcomes"]
    ]
    return where, outcomes


def rate_text(o: Outcome) -> str:
    low, high = o.interval
    return f"{100 * o.rate:5.1f}% ({100 * low:4.1f}-{100 * high:4.1f})"


def print_table(rows: list[Row], after: list[Outcome], before: list[Outcome] | None) -> None:
    head = f"{'row':<16} {'players':>7} {'fair':>5} {'games':>6} "
    if before is None:
        print(head + f"{'wins':>6}  {'win rate (95% CI)':<20} {'seconds':>8}")
        for row, a in zip(rows, after):
            fair = 100 / len(row.players)
            print(
                f"{row.name:<16} {len(row.players):>7} {fair:>4.0f}% {a.games:>6} {a.wins[0]:>6}  "
                f"{rate_text(a):<20} {a.seconds:>8.1f}"
            )
        return
    print(
        head + f"{'before (95% CI)':<20} {'after (95% CI)':<20} {'change':>7}  {'verdict':<7} {'same games':<10} "
        f"{'s before':>8} {'s after':>8}"
    )
    for row, b, a in zip(rows, before, after):
        fair = 100 / len(row.players)
        low, high = b.interval
        ok = a.rate >= b.rate or low <= a.rate <= high
        change = 100 * (a.rate - b.rate)
        print(
            f"{row.name:<16} {len(row.players):>7} {fair:>4.0f}% {a.games:>6} {rate_text(b):<20} {rate_text(a):<20} "
            f"{change:>+7.1f}  {'ok' if ok else 'WORSE':<7} {'yes' if a.same_games(b) else 'no':<10} "
            f"{b.seconds:>8.1f} {a.seconds:>8.1f}"
        )
    print(
        "verdict: ok when after >= before or after lies inside before's 95% interval; change in points; "
        "same games: the same wins per entrant, hands and actions"
    )


def is_master(kind: str) -> bool:
    return kind.partition(":")[0] == "master"


class Timed(Player):
    """A player whose every decision is timed (wall clock, seconds)."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.name = player.name
        self.seconds: list[float] = []

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        start = time.perf_counter()
        decision = self.player.decide(view, rng)
        self.seconds.append(time.perf_counter() - start)
        return decision


def time_master(row: Row, games: int, seed: int) -> None:
    """Print the median, 95th percentile and slowest of the master's decisions in ``games``
    games of ``row`` (each decision it makes, the forced ones too)."""
    timed = [Timed(make_player(kind)) for kind in row.players]
    for game in range(games):
        play_out(timed, list(row.players), find_rules(row.rules), seed, game)
    seconds = sorted(t for player in timed if player.name == "master" for t in player.seconds)
    if not seconds:
        return
    p95 = seconds[min(len(seconds) - 1, int(0.95 * len(seconds)))]
    print(
        f"master's time a decision ({row.name}, {games} game{'s' if games != 1 else ''}, {len(seconds)} "
        f"decisions): median {1000 * statistics.median(seconds):.0f} ms, 95th percentile {1000 * p95:.0f} ms, "
        f"slowest {1000 * seconds[-1]:.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, required=True, help="tournament seed (required)")
    parser.add_argument("--games", type=int, default=2400, help="games per row (default 2400)")
    parser.add_argument("--jobs", type=int, default=2, help="workers of each tournament (default 2)")
    parser.add_argument(
        "--rows", default="", help=f"comma-separated rows (default all: {', '.join(PRESETS)}, {HEADS_UP})"
    )
    parser.add_argument("--players", default="expert", help="the kind of the seat under test (default expert)")
    parser.add_argument("--against", default="tip,tip", help="its opponents under each preset (default tip,tip)")
    parser.add_argument("--heads-up-against", default="tip", help="its one opponent in the heads-up row (default tip)")
    parser.add_argument("--budget", type=int, help="rollouts a decision of every master entrant (default: its own)")
    parser.add_argument(
        "--timing-games",
        type=int,
        default=2,
        help="games of the first row whose master decisions are timed (default 2; 0: none)",
    )
    parser.add_argument(
        "--announce",
        action="store_true",
        help="tell every seat who sits where, as at the table (the code under test only)",
    )
    parser.add_argument("--before", metavar="PATH", help="a checkout of an older commit to compare with")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    rows = pick_rows(args)

    if args.budget is not None and not 1 <= args.budget <= 1_000_000:
        sys.exit(f"--budget {args.budget}: use a whole number from 1 to 1,000,000")
    if args.worker:  # play the rows with the scatlab on PYTHONPATH and answer in JSON on standard output
        outcomes = play(rows, args.games, args.seed, args.jobs, "before")
        json.dump(
            {"scatlab": str(Path(scatlab.__file__).parent), "outcomes": [asdict(o) for o in outcomes]}, sys.stdout
        )
        return

    budget = f"; master's budget {args.budget} rollouts a decision" if args.budget is not None else ""
    print(
        f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores; {args.games} games "
        f"a row, seed {args.seed}, jobs {args.jobs}; {args.players} against {args.against} "
        f"(heads-up: {args.heads_up_against}){budget}"
    )
    before = None
    if args.before:
        where, before = play_before(args)
        print(f"before: scatlab from {where}")
    after = play(rows, args.games, args.seed, args.jobs, "after" if before is not None else "run", args.announce)
    print(f"{'after' if before is not None else 'code'}: scatlab from {Path(scatlab.__file__).parent}")
    print_table(rows, after, before)
    if args.timing_games > 0 and rows and any(is_master(k) for row in rows for k in row.players):
        row = next(r for r in rows if any(is_master(k) for k in r.players))
        time_master(row, args.timing_games, args.seed)


if __name__ == "__main__":
    main()
