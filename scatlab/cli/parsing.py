"""The command line's argument parsing: a parser whose errors are one line with exit status 2,
whose one-value options may be given once and whose whole numbers are ASCII digits once
normalised; and the bounds a command checks its numbers against."""

from __future__ import annotations

import argparse
import re
import sys
from typing import Any, NoReturn

from ..checks import notation, one_line, shown
from ..errors import ScatlabError

__all__ = ["Parser", "StoreOnce", "whole_number", "decimal_number", "bounded", "bounded_seconds"]


class StoreOnce(argparse._StoreAction):
    """An option that takes one value (or one list): given twice, it is refused rather
    than read as the last one given."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        given: set[str] = vars(namespace).setdefault("_options_given", set())
        if self.dest in given:
            raise argparse.ArgumentError(
                self, f"given twice ({shown(getattr(namespace, self.dest, None))}, then {shown(values)}): give it once"
            )
        given.add(self.dest)
        super().__call__(parser, namespace, values, option_string)


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (:func:`scatlab.checks.one_line`) and
    exit status 2, whose one-value options may be given once, and whose subcommands all
    have a description."""

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        if args and str(args[0]).startswith("-") and kwargs.get("action", "store") == "store":
            kwargs["action"] = StoreOnce
        if kwargs.get("type") is int:  # every command's whole numbers, the course's too
            kwargs["type"] = whole_number
        return super().add_argument(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')")

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            self._print_message(one_line(message) + "\n", sys.stderr)
        sys.exit(status)


def whole_number(text: str) -> int:
    """A whole number on the command line: ASCII digits (with a sign) once normalised as
    notation (fullwidth ``１２`` is 12; other scripts' digits, ``1_000`` and ``1e3`` are
    refused)."""
    return int(_matched(text, _DIGITS))


def decimal_number(text: str) -> float:
    """A number on the command line, whole or with a decimal point (``1``, ``0.5``,
    ``.25``): ASCII digits once normalised as notation; ``1e3``, ``nan``, ``inf`` and
    ``1_000`` are refused."""
    return float(_matched(text, _DECIMAL))


whole_number.__name__ = "whole number"  # argparse: "invalid whole number value: 'x'"
decimal_number.__name__ = "number"  # argparse: "invalid number value: 'x'"
_DIGITS = re.compile(r"[+-]?[0-9]+", re.ASCII)
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)", re.ASCII)


def _matched(text: str, pattern: re.Pattern[str]) -> str:
    """``text`` normalised as notation and stripped, if ``pattern`` matches all of it (else a
    ValueError, which argparse reports as an invalid value)."""
    digits = notation(text).strip()
    if not pattern.fullmatch(digits):
        raise ValueError(text)
    return digits


def bounded(option: str, value: int, low: int, high: int, note: str = "") -> None:
    """Refuse ``option``'s ``value`` outside ``low`` to ``high`` (a :class:`ScatlabError`
    naming the range, then ``note``)."""
    if not low <= value <= high:
        raise ScatlabError(f"{option} {value:,} is not allowed: use {low:,} to {high:,}{note}")


def bounded_seconds(option: str, value: float, high: float) -> None:
    """Refuse ``option``'s ``value`` unless it is more than 0 and at most ``high`` seconds."""
    if not 0 < value <= high:
        raise ScatlabError(f"{option} {value:g} is not allowed: use a number of seconds more than 0, up to {high:g}")
