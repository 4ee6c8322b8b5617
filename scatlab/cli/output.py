"""The command line's output: standard output and error written whatever the terminal's
encoding (suit symbols as letters where it cannot show them), and one-line messages on
standard error."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from ..checks import one_line

__all__ = ["SafeText", "say", "deal_bar"]


# Characters the output uses beyond ASCII, and what a terminal that cannot show them gets.
_ASCII = str.maketrans(
    {
        "\u2665": "H",
        "\u2666": "D",
        "\u2663": "C",
        "\u2660": "S",
        "\u00b1": "+/-",
        "\u00d7": "x",
        "\u2026": "...",
        "\u2014": "-",
        "\u2013": "-",
        "\u2248": "~",
        "\u2264": "<=",
        "\u2265": ">=",
    }
)


class SafeText(io.TextIOBase):
    """Writes to a text stream whatever its encoding: characters it cannot encode are
    replaced (suit symbols by their letters first), so no output ends in a traceback."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.encoding_name = getattr(stream, "encoding", None) or "utf-8"

    def write(self, text: str) -> int:
        try:
            text.encode(self.encoding_name)
        except (UnicodeEncodeError, LookupError):
            text = text.translate(_ASCII)
            try:
                text = text.encode(self.encoding_name, "replace").decode(self.encoding_name)
            except LookupError:
                text = text.encode("ascii", "replace").decode("ascii")
        self.stream.write(text)
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return bool(getattr(self.stream, "isatty", lambda: False)())

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self.encoding_name


def say(line: str) -> None:
    """Write one line to standard error (escaped by :func:`scatlab.checks.one_line`)."""
    sys.stderr.write(one_line(line) + "\n")


@contextmanager
def deal_bar(show: bool, what: str) -> Iterator[Callable[[int, int], None]]:
    """A progress callback ``(deals played, deals planned)`` drawing a bar on standard
    error when ``show`` and standard error is a terminal (else it does nothing); the bar is
    closed on leaving."""
    bar: Any = None
    if show and sys.stderr.isatty():
        from tqdm.auto import tqdm

        bar = tqdm(total=0, unit="deal", desc=what, file=sys.stderr, dynamic_ncols=True)

    def progress(done: int, planned: int) -> None:
        if bar is not None:
            bar.total = planned
            bar.n = done
            bar.refresh()

    try:
        yield progress
    finally:
        if bar is not None:
            bar.close()
