"""The app's commands for the ``scatlab`` command line: ``serve`` (the course as a Voilà web
app, :mod:`scatlab.app.launch`) and ``lab`` (the lessons in JupyterLab).

Each of the app, the course and the classroom owns its commands: :mod:`scatlab.cli` adds
them with :func:`add_commands` and runs them with :data:`COMMANDS`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

__all__ = ["add_commands", "COMMANDS"]


def add_commands(sub: Any) -> None:
    """Add ``serve`` and ``lab`` to an argparse sub-parser set."""
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


def _cmd_serve(args: argparse.Namespace) -> int:
    from .launch import serve

    return serve(port=args.port, host=args.host, open_browser=not args.no_browser, debug=args.debug)


def _cmd_lab(args: argparse.Namespace) -> int:
    from .launch import lab

    return lab(port=args.port, open_browser=not args.no_browser)


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "serve": _cmd_serve,
    "lab": _cmd_lab,
}
"""Each command's name and the function that runs it (its exit status)."""
