"""The ``scatlab`` command line.

- ``scatlab demo [--seed N] [--players N] [--rules PRESET]``: play a seeded game in the
  terminal, narrating every move and every outcome with its rule code.
- ``scatlab record [--seed N] [--players N] [--rules PRESET] [--policy greedy|random]
  [-o FILE]``: write the JSON record of a seeded game.
- ``scatlab replay FILE.json``: replay a record and print the JSON result.
- ``scatlab review FILE.json [--player P] [--json]``: the cost of every decision of a
  recorded game (or of one seat), with the move the analysis prefers.
- ``scatlab analyze HAND --discard CARD [--dead CARDS] [--opponent-holds CARDS]...
  [--opponents N] [--rules PRESET] [--horizon K] [--opponent-model adaptive|uniform] [--turns T...]
  [--rejected CARDS]... [--no-knock] [--json]``: exact odds, every move ranked by the chance of
  winning the game, and the advice (:mod:`!scatlab.analysis.explain.report`: each figure stated
  once, in percent; ``--no-knock`` leaves the knock out of the advice too).
- ``scatlab rules [PRESET] [--explain CODE]``: list the presets, or show one preset's options
  and the rules in force (code and title); ``--explain C7`` prints one rulebook entry.
- ``scatlab tournament --players expert,tip,tip [--games N] [--rules PRESET] [--seed N]
  [--jobs N] [--json] [--no-progress]``: many seeded games between computer players, with
  fair seating and win rates with confidence intervals (a progress bar on standard error).
- ``scatlab puzzles --theme THEME [--count N] [--seed S] [--level L] [--json]``: a
  reproducible set of practice puzzles from real games (:mod:`scatlab.course.puzzles`):
  the position, the choices, the answer and why; ``--json`` prints a JSON list.
- ``scatlab serve [--port P] [--host H] [--no-browser]``, ``scatlab lab``,
  ``scatlab progress [--reset] [--yes]``: the course (:mod:`scatlab.course.commands`); ``serve``
  and ``lab`` the app's (:mod:`scatlab.app.commands`), ``class`` the classroom's
  (:mod:`scatlab.classroom.commands`).

Bad input never shows a traceback: the command prints one line to standard error and exits
with status 2; anything unexpected prints one line and exits with status 1. The line is one
line whatever the input holds: a newline, tab, escape or other unprintable character quoted
from the input is written as its escape (``\\n``, ``\\x1b``; :func:`scatlab.checks.one_line`),
for argparse's own errors too. An option that takes one value may be given once (``--discard
9S --discard 7S`` is refused, not read as the last). Whole numbers are ASCII digits once
normalised (:func:`scatlab.checks.notation`: ``３`` is 3, ``٣`` is refused). Output goes
through whatever encoding the terminal has: where the suit symbols cannot be written
(``PYTHONIOENCODING=ascii``), they become the letters H D C S.

Each command is a module of this package that registers its own parser: ``add_commands(sub)``
adds its sub-commands to the argparse set and ``COMMANDS`` maps each name to the function that
runs it (the app's, the course's and the classroom's commands have the same two names).
:data:`REGISTRANTS` lists those modules; ``build_parser()`` assembles them.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from ..checks import one_line
from ..errors import ScatlabError
from .output import SafeText, say
from .parsing import Parser

__all__ = ["main", "REGISTRANTS"]

REGISTRANTS = (
    "scatlab.cli.games",  # demo, record
    "scatlab.cli.records",  # replay, review
    "scatlab.cli.analyze",
    "scatlab.cli.rules",
    "scatlab.cli.tournament",
    "scatlab.cli.puzzles",
    "scatlab.app.commands",  # serve, lab
    "scatlab.course.commands",  # progress
    "scatlab.classroom.commands",  # class
)
"""The modules that register the commands, in the order ``scatlab --help`` lists them. Each
has ``add_commands(sub)`` (adds its sub-parsers to an argparse sub-parser set) and
``COMMANDS`` (a dict: command name to the function that runs it, given the parsed arguments,
returning the exit status). A module is imported only when the command line is built."""


def _registrants() -> list[ModuleType]:
    """The modules of :data:`REGISTRANTS`, imported."""
    return [importlib.import_module(name) for name in REGISTRANTS]


def _commands() -> dict[str, Callable[[Any], int]]:
    """Every command's name and the function that runs it, from :data:`REGISTRANTS`."""
    commands: dict[str, Callable[[Any], int]] = {}
    for module in _registrants():
        commands.update(module.COMMANDS)
    return commands


def build_parser() -> Parser:
    """The ``scatlab`` parser: each module of :data:`REGISTRANTS` adds its sub-commands, and
    a sub-command without a description is given its help as one."""
    parser = Parser(prog="scatlab", description="Teach and analyse the card game 31 (Scat, Blitz).")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    for module in _registrants():
        module.add_commands(sub)
    helps = {action.dest: action.help for action in sub._choices_actions}
    for name, command in sub.choices.items():
        if command.description is None and helps.get(name):
            text = str(helps[name])
            command.description = text[:1].upper() + text[1:] + "."
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status: 0, 2 for bad input (one line on
    standard error), 1 for anything unexpected (one line, never a traceback)."""
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = SafeText(out), SafeText(err)
    command = "?"
    try:
        parser = build_parser()
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # --help, or a usage error already printed (one line)
            return exc.code if isinstance(exc.code, int) else 2
        command = args.command
        return _commands()[command](args)
    except ScatlabError as exc:
        say(f"scatlab {command}: error: {one_line(exc)}")
        return 2
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return 0
    except KeyboardInterrupt:  # pragma: no cover - interactive
        say(f"scatlab {command}: interrupted")
        return 130
    except RecursionError:
        say(f"scatlab {command}: error: the input is nested too deeply to read")
        return 2
    except MemoryError:
        say(f"scatlab {command}: error: out of memory; use smaller inputs")
        return 1
    except Exception as exc:  # noqa: BLE001 - the contract: one line, never a traceback
        say(f"scatlab {command}: internal error: {type(exc).__name__}: {one_line(exc)[:300]} (please report this)")
        return 1
    finally:
        try:
            sys.stdout.flush()
        except Exception:  # noqa: BLE001 - e.g. a closed pipe; nothing left to tell
            pass
        sys.stdout, sys.stderr = out, err
