"""``scatlab tournament``: many seeded games between computer players with fair seating, and
their win rates with confidence intervals."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from ..checks import MAX_GAMES, MAX_JOBS, SEED_RANGE, shown
from ..errors import ScatlabError
from .parsing import bounded, whole_number

__all__ = ["add_commands", "COMMANDS"]


def add_commands(sub: Any) -> None:
    """Add ``tournament`` to an argparse sub-parser set."""
    tournament = sub.add_parser(
        "tournament",
        help="play many seeded games between computer players and compare them",
        description="Whole games between computer players with fair seating (the seats rotate every game, "
        "the first dealer every N games); the same seed gives the same result for any --jobs.",
    )
    tournament.add_argument(
        "--players",
        default="expert,tip,tip",
        help="comma-separated player kinds, one per entrant (default expert,tip,tip)",
    )
    tournament.add_argument("--games", type=whole_number, default=1000, help="number of games (default 1000)")
    tournament.add_argument("--rules", default="classic", help="rule preset or alias (default classic)")
    tournament.add_argument("--seed", type=whole_number, default=0, help="random seed (default 0)")
    tournament.add_argument(
        "--jobs", type=whole_number, default=1, help="worker processes (default 1; 0 means one per core)"
    )
    tournament.add_argument(
        "--budget",
        type=whole_number,
        default=None,
        help="rollouts a decision of every master entrant (default 1000, about a twentieth of a second)",
    )
    tournament.add_argument("--json", action="store_true", help="print one JSON object")
    tournament.add_argument("--no-progress", action="store_true", help="no progress bar on standard error")


def _cmd_tournament(args: argparse.Namespace) -> int:
    from ..players.tournament import run_tournament

    bounded("--games", args.games, 1, MAX_GAMES)
    bounded("--jobs", args.jobs, 0, MAX_JOBS, " (0: one per core)")
    bounded("--seed", args.seed, *SEED_RANGE)
    players = [p.strip() for p in args.players.split(",")]
    if args.budget is not None:
        bounded("--budget", args.budget, 1, 1_000_000)
        if not any(p.lower() == "master" for p in players):
            raise ScatlabError(
                f"--budget {args.budget} is read only by master players, and --players {shown(args.players)} has none"
            )
        players = [f"master:{args.budget}" if p.lower() == "master" else p for p in players]
    result = run_tournament(
        players, args.games, args.rules, args.seed, jobs=args.jobs, progress=False if args.no_progress else None
    )
    if args.json:
        sys.stdout.write(json.dumps(result.to_json(), ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(result.table() + "\n")
    return 0


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "tournament": _cmd_tournament,
}
