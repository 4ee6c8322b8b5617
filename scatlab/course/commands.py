"""The course's commands for the ``scatlab`` command line: ``serve``, ``lab``, ``progress``
and ``class`` (the teacher's report from the class database, :mod:`scatlab.course.classdb`).

Kept here (not in :mod:`scatlab.cli`) so the course owns its commands; the CLI adds them
with :func:`add_commands` and runs them with :data:`COMMANDS`.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from typing import Any

__all__ = ["add_commands", "COMMANDS"]


def add_commands(sub: Any) -> None:
    """Add ``serve``, ``lab``, ``progress`` and ``class`` to an argparse sub-parser set."""
    serve = sub.add_parser(
        "serve",
        help="serve the course (lessons/) as a web app with Voilà",
        description="Serve the lessons as a web app on 127.0.0.1 (this machine only) unless --host is given.",
    )
    serve.add_argument("--port", type=int, default=8866, help="port (default 8866)")
    serve.add_argument("--host", help="address to listen on (default 127.0.0.1; 0.0.0.0 lets other machines in)")
    serve.add_argument("--no-browser", action="store_true", help="do not open a browser")
    serve.add_argument("--debug", action="store_true", help="log everything Voilà does (default: warnings only)")

    lab = sub.add_parser("lab", help="open JupyterLab on the lessons (127.0.0.1 only)")
    lab.add_argument("--port", type=int, default=8888, help="port (default 8888)")
    lab.add_argument("--no-browser", action="store_true", help="do not open a browser")

    progress = sub.add_parser("progress", help="show the course progress kept for you (or --reset it)")
    progress.add_argument("--reset", action="store_true", help="delete every answer, finished lesson, saved game, star and practice rating")
    progress.add_argument("--yes", action="store_true", help="with --reset: do not ask")

    klass = sub.add_parser("class", help="the teacher's view of the class database (SCATLAB_CLASS_DB)")
    class_sub = klass.add_subparsers(dest="class_command", metavar="{report,backup,restore}", required=True)
    report = class_sub.add_parser(
        "report", help="per learner: lessons, stars, practice rating; where the class struggles",
        description="Per learner: lessons opened and finished, stars per step, practice rating over time; then "
        "the exercises and steps the class gets right at the first try least often.",
    )
    report.add_argument("--db", metavar="URL", help="the class database's postgresql:// URL (default $SCATLAB_CLASS_DB)")
    report.add_argument("--csv", metavar="FILE", help="also write every event as CSV to FILE ('-' for standard output, "
                        "then without the report)")
    for name, what in (("backup", "write the class folder's learners, secrets and codes, and every event, to FILE "
                                  "(a .tar.gz, mode 0600)"),
                       ("restore", "put a backup FILE back into the class folder and its database (no hub may run)")):
        one = class_sub.add_parser(name, help=what, description=what[0].upper() + what[1:] + ".")
        one.add_argument("file", metavar="FILE")
        one.add_argument("--class-dir", metavar="DIR", help="the class folder (default $SCATLAB_CLASS_DIR, else class/)")
        one.add_argument("--db-port", metavar="PORT", type=int,
                         help="the class's own database server's port (default the hub's port + 4: "
                              "$SCATLAB_CLASS_DB_PORT, else $SCATLAB_HUB_PORT + 4, else 8004)")


def _cmd_serve(args: argparse.Namespace) -> int:
    from .app import serve

    return serve(port=args.port, host=args.host, open_browser=not args.no_browser, debug=args.debug)


def _cmd_lab(args: argparse.Namespace) -> int:
    from .app import lab

    return lab(port=args.port, open_browser=not args.no_browser)


def _cmd_progress(args: argparse.Namespace) -> int:
    from .lessons import APPENDICES, LESSONS
    from .steps import steps_of
    from .progress import Progress

    progress = Progress()  # a ProgressError (locked, not a file, ...) is one line and exit status 2
    out = sys.stdout
    if args.reset and progress.read_only:
        progress.reset()  # raises the read-only ProgressError: one line, nothing asked, nothing deleted
    if progress.notice:
        sys.stderr.write(progress.notice + "\n")
    if args.reset:
        if not args.yes:
            out.write(f"Delete every answer, finished lesson, saved game, star and practice rating in {progress.path}? [y/N] ")
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


def _cmd_class(args: argparse.Namespace) -> int:
    from .classdb import ENV, ClassDatabaseError, class_report, configured_url, write_csv

    if args.class_command in ("backup", "restore"):
        from pathlib import Path

        from .backup import backup, restore

        folder = Path(args.class_dir or os.environ.get("SCATLAB_CLASS_DIR") or "class")
        port = args.db_port or int(os.environ.get("SCATLAB_CLASS_DB_PORT")
                                   or int(os.environ.get("SCATLAB_HUB_PORT") or 8000) + 4)
        if args.class_command == "backup":
            sys.stdout.write(backup(folder, args.file, db_port=port).text("Backed up", Path(args.file)) + "\n")
        else:
            sys.stdout.write(restore(args.file, folder, db_port=port).text("Restored", folder) + "\n")
        return 0

    url = args.db if args.db is not None else configured_url()
    if not url:
        raise ClassDatabaseError(f"no class database: give --db postgresql://... or set {ENV}")
    if args.csv == "-":
        write_csv(url, sys.stdout)
        return 0
    sys.stdout.write(class_report(url).text())
    if args.csv is not None:
        count = write_csv(url, args.csv)
        sys.stdout.write(f"{count} event(s) written to {args.csv}\n")
    return 0


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "serve": _cmd_serve,
    "lab": _cmd_lab,
    "progress": _cmd_progress,
    "class": _cmd_class,
}
