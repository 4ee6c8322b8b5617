"""``scatlab puzzles``: a reproducible set of practice puzzles from real games
(:mod:`scatlab.course.puzzles`): the position, the choices, the answer and why."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from ..checks import SEED_RANGE
from .parsing import bounded, whole_number

__all__ = ["add_commands", "COMMANDS"]


def add_commands(sub: Any) -> None:
    """Add ``puzzles`` to an argparse sub-parser set."""
    puzzles = sub.add_parser(
        "puzzles",
        help="practice puzzles from real games: the position, the choices, the answer and why",
        description="A reproducible set of practice puzzles from seeded games between computer players; each has "
        "one clearly best move by the analysis' ranking (the same seed, the same puzzles).",
    )
    puzzles.add_argument("--theme", required=True, help="take-or-draw, throw, knock or chase-31")
    puzzles.add_argument("--count", type=whole_number, default=5, help="number of puzzles, 1 to 200 (default 5)")
    puzzles.add_argument("--seed", type=whole_number, default=0, help="random seed (default 0)")
    puzzles.add_argument(
        "--level",
        type=whole_number,
        default=None,
        help="only puzzles of this level: 1 easy, 2 medium, 3 hard (default any)",
    )
    puzzles.add_argument("--json", action="store_true", help="print a JSON list")


def _cmd_puzzles(args: argparse.Namespace) -> int:
    from ..course.puzzles import LEVELS, MAX_COUNT, generate

    bounded("--count", args.count, 1, MAX_COUNT)
    bounded("--seed", args.seed, *SEED_RANGE)
    if args.level is not None:
        bounded("--level", args.level, LEVELS[0], LEVELS[-1], " (1 easy, 3 hard)")
    found = generate(args.theme.strip(), args.count, args.seed, args.level)
    if args.json:
        sys.stdout.write(json.dumps([p.to_json() for p in found], ensure_ascii=False) + "\n")
        return 0
    for i, p in enumerate(found, start=1):
        sys.stdout.write(f"{i}. {p.theme}, level {p.level} ({p.id})\n{p.text()}\n\n")
    return 0


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "puzzles": _cmd_puzzles,
}
