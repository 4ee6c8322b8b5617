"""The course's command for the ``scatlab`` command line: ``progress`` (the learner's own
progress store, :mod:`scatlab.course.progress`, shown or reset).

Each of the app, the course and the classroom owns its commands: :mod:`scatlab.cli` adds
them with :func:`add_commands` and runs them with :data:`COMMANDS`.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Any

__all__ = ["add_commands", "COMMANDS"]


def add_commands(sub: Any) -> None:
    """Add ``progress`` to an argparse sub-parser set."""
    progress = sub.add_parser("progress", help="show the course progress kept for you (or --reset it)")
    progress.add_argument(
        "--reset",
        action="store_true",
        help="delete every answer, finished lesson, saved game, star and practice rating",
    )
    progress.add_argument("--yes", action="store_true", help="with --reset: do not ask")


def _cmd_progress(args: argparse.Namespace) -> int:
    from .lessons import APPENDICES, LESSONS
    from .progress import Progress
    from .steps import steps_of

    progress = Progress()  # a ProgressError (locked, not a file, ...) is one line and exit status 2
    out = sys.stdout
    if args.reset and progress.read_only:
        progress.reset()  # raises the read-only ProgressError: one line, nothing asked, nothing deleted
    if progress.notice:
        sys.stderr.write(progress.notice + "\n")
    if args.reset:
        if not args.yes:
            out.write(
                f"Delete every answer, finished lesson, saved game, star and practice rating in {progress.path}? [y/N] "
            )
            out.flush()
            reply = sys.stdin.readline() if sys.stdin is not None else ""
            if reply.strip().lower() not in ("y", "yes"):
                out.write("\nNothing deleted.\n")
                return 1
        progress.reset()
        out.write(f"Progress deleted ({progress.path}).\n")
        return 0
    summary = progress.summary()
    earned = progress.step_stars()
    out.write(f"Progress kept in {progress.path}\n")
    for item in LESSONS:
        s = summary.get(item.id)
        done = "finished" if s and s.finished else "not finished"
        right = f"{s.correct} of {s.answered} right" if s and s.answered else "no answers yet"
        steps = steps_of(item.id)
        stars = f"stars {sum(earned.get(st.id, 0) for st in steps)} of {3 * len(steps)}" if steps else ""
        out.write(f"  {item.number}. {item.title:<28} {done:<13} {stars:<14} {right}\n")
    if progress.practice_answers():
        out.write(f"  practice rating: {progress.practice_rating()}\n")
    for extra in APPENDICES:  # optional pages: their answers are shown, never counted as a lesson
        s = summary.get(extra.id)
        if s and s.answered:
            out.write(f"  optional: {extra.title:<18} {s.correct} of {s.answered} right\n")
    known = {item.id for item in LESSONS} | {extra.id for extra in APPENDICES}
    for name, s in sorted(summary.items()):
        if name not in known:
            out.write(f"  {name}: {'finished' if s.finished else 'not finished'}, {s.correct} of {s.answered} right\n")
    games = progress.saved_games()
    out.write(f"Saved games: {len(games)}\n")
    for game in games:
        out.write(f"  #{game.id} {game.name} ({time.strftime('%Y-%m-%d %H:%M', time.localtime(game.at))})\n")
    return 0


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "progress": _cmd_progress,
}
"""Each command's name and the function that runs it (its exit status)."""
