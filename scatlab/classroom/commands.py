"""The classroom's command for the ``scatlab`` command line: ``class`` (the teacher's report
from the class database, :mod:`scatlab.classroom.classdb`, and the class's backup and
restore, :mod:`scatlab.classroom.backup`).

Each of the app, the course and the classroom owns its commands: :mod:`scatlab.cli` adds
them with :func:`add_commands` and runs them with :data:`COMMANDS`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import Any

__all__ = ["add_commands", "COMMANDS"]


def add_commands(sub: Any) -> None:
    """Add ``class`` (``report``, ``backup``, ``restore``) to an argparse sub-parser set."""
    klass = sub.add_parser("class", help="the teacher's view of the class database (SCATLAB_CLASS_DB)")
    class_sub = klass.add_subparsers(dest="class_command", metavar="{report,backup,restore}", required=True)
    report = class_sub.add_parser(
        "report",
        help="per learner: lessons, stars, practice rating; where the class struggles",
        description="Per learner: lessons opened and finished, stars per step, practice rating over time; then "
        "the exercises and steps the class gets right at the first try least often.",
    )
    report.add_argument(
        "--db", metavar="URL", help="the class database's postgresql:// URL (default $SCATLAB_CLASS_DB)"
    )
    report.add_argument(
        "--csv",
        metavar="FILE",
        help="also write every event as CSV to FILE ('-' for standard output, then without the report)",
    )
    for name, what in (
        (
            "backup",
            "write the class folder's learners, secrets and codes, and every event, to FILE (a .tar.gz, mode 0600)",
        ),
        ("restore", "put a backup FILE back into the class folder and its database (no hub may run)"),
    ):
        one = class_sub.add_parser(name, help=what, description=what[0].upper() + what[1:] + ".")
        one.add_argument("file", metavar="FILE")
        one.add_argument(
            "--class-dir", metavar="DIR", help="the class folder (default $SCATLAB_CLASS_DIR, else class/)"
        )
        one.add_argument(
            "--db-port",
            metavar="PORT",
            type=int,
            help="the class's own database server's port (default the hub's port + 4: "
            "$SCATLAB_CLASS_DB_PORT, else $SCATLAB_HUB_PORT + 4, else 8004)",
        )


def _cmd_class(args: argparse.Namespace) -> int:
    from .classdb import ENV, ClassDatabaseError, class_report, configured_url, write_csv

    if args.class_command in ("backup", "restore"):
        from pathlib import Path

        from .backup import backup, restore

        folder = Path(args.class_dir or os.environ.get("SCATLAB_CLASS_DIR") or "class")
        port = args.db_port or int(
            os.environ.get("SCATLAB_CLASS_DB_PORT") or int(os.environ.get("SCATLAB_HUB_PORT") or 8000) + 4
        )
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
    "class": _cmd_class,
}
"""Each command's name and the function that runs it (its exit status)."""
