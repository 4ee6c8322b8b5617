"""``scatlab replay`` and ``scatlab review``: read a JSON game record (a file or standard
input) and print its replayed result, or the cost of every decision with the move the analysis
prefers (and, with ``--deep``, a deeper look at the costliest)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from ..checks import SEED_RANGE, shown
from ..errors import ScatlabError
from .output import deal_bar
from .parsing import bounded, whole_number

__all__ = ["add_commands", "COMMANDS"]


def add_commands(sub: Any) -> None:
    """Add ``replay`` and ``review`` to an argparse sub-parser set."""
    replay = sub.add_parser("replay", help="replay a JSON game record and print the JSON result")
    replay.add_argument("file", help="the record, a JSON file ('-' reads standard input)")
    replay.add_argument("--compact", action="store_true", help="one-line JSON")

    review = sub.add_parser("review", help="review a JSON game record: the cost of every decision")
    review.add_argument("file", help="the record, a JSON file ('-' reads standard input)")
    review.add_argument("--player", type=whole_number, default=None, help="review only this seat (default: every seat)")
    review.add_argument("--json", action="store_true", help="JSON instead of the readable report")
    review.add_argument(
        "--deep",
        type=whole_number,
        nargs="?",
        const=3,
        default=None,
        metavar="N",
        help="a deeper look at the N costliest decisions (default 3): the master plays each choice "
        "out in sampled deals and says which wins most often",
    )
    review.add_argument(
        "--budget",
        type=whole_number,
        default=None,
        help="rollouts of each deeper look (default 8000, about half a second each)",
    )
    review.add_argument("--seed", type=whole_number, default=0, help="seed of the deeper looks (default 0)")
    review.add_argument("--no-progress", action="store_true", help="no progress bar on standard error")


def _record(file: str) -> Any:
    """The record named on the command line (``-``: standard input), read with the bound
    of :func:`scatlab.rules.record.read_record` (replay and review alike)."""
    from ..rules.record import read_record

    if file == "-":
        return read_record(sys.stdin, "standard input")
    _refuse_unless_regular_file(file)
    return read_record(file)


def _refuse_unless_regular_file(file: str) -> None:
    """A :class:`RecordError` for a path that names something other than a regular file
    (a named pipe, which would block forever with no writer; a device such as
    ``/dev/zero``; a folder), checked with ``os.stat`` before anything opens it. A missing
    or unreadable path is left to :func:`~scatlab.rules.record.read_record`."""
    import os
    import stat

    from ..errors import RecordError

    try:
        mode = os.stat(file).st_mode
    except (OSError, ValueError):  # missing, no access, a NUL: read_record says so
        return
    if stat.S_ISREG(mode):
        return
    if stat.S_ISDIR(mode):
        what = "a folder"
    elif stat.S_ISFIFO(mode):
        what = "a named pipe (FIFO)"
    elif stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        what = "a device"
    elif stat.S_ISSOCK(mode):
        what = "a socket"
    else:  # pragma: no cover - door, whiteout, ...
        what = "not a regular file"
    raise RecordError(
        f"cannot read {shown(file, 300)}: it is {what}; give a record saved as a file (or '-' for standard input)"
    )


def _cmd_replay(args: argparse.Namespace) -> int:
    from ..rules.record import replay, result_json

    result = result_json(replay(_record(args.file)))
    sys.stdout.write(json.dumps(result, indent=None if args.compact else 2, ensure_ascii=False) + "\n")
    return 0


def _cmd_review(args: argparse.Namespace) -> int:
    from ..analysis import review_game

    if args.deep is None and (args.budget is not None or args.seed):
        raise ScatlabError("--budget and --seed set the deeper looks: give --deep as well")
    if args.deep is not None:
        from ..players.deeper import DEEP_BUDGET, look_deeper_at_costliest

        args.budget = DEEP_BUDGET if args.budget is None else args.budget
        bounded("--deep", args.deep, 1, 50)
        bounded("--budget", args.budget, 1, 1_000_000)
        bounded("--seed", args.seed, *SEED_RANGE)
    result = review_game(_record(args.file), args.player)
    looks: tuple[Any, ...] = ()
    if args.deep is not None:
        with deal_bar(not args.no_progress, "looking deeper") as progress:
            looks = look_deeper_at_costliest(result, args.deep, args.player, args.budget, args.seed, progress)
    if args.json:
        data = result.to_json()
        if args.deep is not None:
            data["deeper"] = [look.to_json() for look in looks]
        sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
    else:
        text = result.text()
        if args.deep is not None:
            names = {args.player: "you"} if args.player is not None else {}
            text += f"\nA deeper look at the {len(looks)} costliest decision{'s' if len(looks) != 1 else ''}:"
            if not looks:
                text += " none cost anything."
            for look in looks:
                d = look.decision
                text += f"\n  Hand {d.hand}, action {d.index}, player {d.player}: " + "\n    ".join(look.lines(names))
        sys.stdout.write(text + "\n")
    return 0


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "replay": _cmd_replay,
    "review": _cmd_review,
}
