"""Argument checks shared by every public entry point, and the bounds on work.

The error contract (the docs' CLI guide, "Errors and exit status"): for a bad argument the
Python API raises only a :class:`~scatlab.errors.ScatlabError` subclass, whose message
quotes the bad value and says what is accepted. These helpers are the one place where numbers, flags and lists coming
from a caller are checked, so each entry point states its bounds in one line.

>>> whole_number("games", 10, 1, MAX_GAMES)
10
>>> whole_number("games", 10**9, 1, MAX_GAMES)
Traceback (most recent call last):
...
scatlab.errors.ScatlabError: games=1000000000 is not allowed: use a whole number from 1 to 1,000,000
>>> whole_number("seed", 2.5)
Traceback (most recent call last):
...
scatlab.errors.ScatlabError: seed=2.5 is not allowed: use a whole number
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Sequence
from typing import Any

from .errors import ScatlabError

__all__ = [
    "whole_number",
    "real_number",
    "flag",
    "sequence",
    "shown",
    "notation",
    "notation_pieces",
    "one_line",
    "MAX_GAMES",
    "MAX_SAMPLES",
    "MAX_JOBS",
    "MAX_RECORD_CHARS",
    "MAX_NESTING",
    "SEED_RANGE",
]

MAX_GAMES = 1_000_000
"""The most games one tournament plays (about two hours of expert play on two cores)."""
MAX_SAMPLES = 1_000_000
"""The most Monte Carlo deals one knock-risk estimate draws (about 25 s)."""
MAX_JOBS = 256
"""The most worker processes a tournament starts."""
MAX_RECORD_CHARS = 10_000_000
"""The longest game record read, in characters (a whole game is a few kilobytes)."""
MAX_NESTING = 32
"""The deepest nesting of JSON arrays and objects in a record (a record needs 5 levels)."""
SEED_RANGE = (-(2**63), 2**63 - 1)
"""Seeds are 64-bit signed whole numbers."""


def shown(value: object, limit: int = 60) -> str:
    """``repr(value)``, shortened to ``limit`` characters for an error message (a
    value whose repr fails or is huge is still shown safely)."""
    try:
        if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 160:
            text = f"a {len(str(abs(value))) if value.bit_length() < 10_000 else 'huge'}-digit number"
            return text
        text = repr(value)
    except Exception:  # noqa: BLE001 - a hostile __repr__ must not hide the real error
        text = f"<{type(value).__name__} object>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


_PRESENTATION_SELECTORS = dict.fromkeys(map(ord, "\ufe0e\ufe0f"))


def notation(text: str) -> str:
    r"""Text typed as notation (cards, preset names, rule codes, action names), normalised
    by the one rule every reader applies: **NFKC normalisation, then case folding**; the
    two presentation selectors (U+FE0E text, U+FE0F emoji, which some keyboards append to
    a suit symbol) are then dropped. Readers accept only their ASCII spellings after that
    (and, for cards, the suit symbols), so a compatibility form of an accepted letter reads
    as that letter (fullwidth ``Ａ``, the Kelvin sign ``\u212a``, the long s ``ſ``) and any
    other character is refused.

    >>> notation("Ａ♥\ufe0f"), notation("\u212aS"), notation("Aſ"), notation("Ride The Bus")
    ('a♥', 'ks', 'as', 'ride the bus')
    """
    return unicodedata.normalize("NFKC", text).casefold().translate(_PRESENTATION_SELECTORS)


# Pieces of notation are separated by whitespace, commas and semicolons, and by the
# characters NFKC turns into a comma or semicolon (fullwidth, small and vertical forms; the
# Greek question mark is a semicolon); tests/cards/test_cards.py checks this list against unicodedata.
_SEPARATORS = re.compile("[\\s,;\u037e\ufe10\ufe14\ufe50\ufe54\uff0c\uff1b]+")


def notation_pieces(text: str) -> list[str]:
    """``text`` split at whitespace, commas and semicolons (in any width), the pieces as
    given (not yet normalised), empty ones dropped.

    >>> notation_pieces(" AH,KH；４Ｃ ")
    ['AH', 'KH', '４Ｃ']
    """
    return [piece for piece in _SEPARATORS.split(text) if piece]


def one_line(text: object) -> str:
    r"""``text`` as one printable line for an error message: surrounding whitespace
    dropped, and every character that is not printable (newline, tab, escape and the other
    control and format characters, line separators, lone surrogates) written as its Python
    escape, as ``repr`` writes it.

    >>> print(one_line("bad 'x\ny'\n"))
    bad 'x\ny'
    >>> print(one_line("\x1b[31mred\u2028 tab\tend"))
    \x1b[31mred\u2028 tab\tend
    >>> one_line("  ")
    '(no message)'
    """
    try:
        line = str(text).strip()
    except Exception:  # noqa: BLE001 - a hostile __str__ must not hide the real error
        line = f"<{type(text).__name__} object>"
    if not line.isprintable():
        line = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in line)
    return line or "(no message)"


def whole_number(
    name: str,
    value: object,
    low: int | None = None,
    high: int | None = None,
    *,
    error: type[ScatlabError] = ScatlabError,
) -> int:
    """``value`` if it is an ``int`` (not a bool) within ``low..high``; else ``error``."""
    if (
        not isinstance(value, int)
        or isinstance(value, bool)
        or (low is not None and value < low)
        or (high is not None and value > high)
    ):
        if low is not None and high is not None:
            accepted = f"a whole number from {low:,} to {high:,}"
        elif low is not None:
            accepted = f"a whole number of at least {low:,}"
        elif high is not None:
            accepted = f"a whole number of at most {high:,}"
        else:
            accepted = "a whole number"
        raise error(f"{name}={shown(value)} is not allowed: use {accepted}")
    return value


def real_number(
    name: str, value: object, low: float, high: float, *, error: type[ScatlabError] = ScatlabError
) -> float:
    """``value`` as a float if it is a finite int or float within ``low..high``."""
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    if ok:
        try:
            number = float(value)  # type: ignore[arg-type]
        except OverflowError:
            ok = False
        else:
            ok = math.isfinite(number) and low <= number <= high
    if not ok:
        raise error(f"{name}={shown(value)} is not allowed: use a number from {low:g} to {high:g}")
    return float(value)  # type: ignore[arg-type]


def flag(name: str, value: object, *, error: type[ScatlabError] = ScatlabError) -> bool:
    """``value`` if it is True or False."""
    if not isinstance(value, bool):
        raise error(f"{name}={shown(value)} is not allowed: use True or False")
    return value


def sequence(
    name: str, value: object, what: str, *, error: type[ScatlabError] = ScatlabError, most: int | None = None
) -> Sequence[Any]:
    """``value`` if it is a list or tuple (not a string), with at most ``most`` items."""
    if not isinstance(value, (list, tuple)):
        raise error(f"{name}={shown(value)} is not allowed: give a list of {what}")
    if most is not None and len(value) > most:
        raise error(f"{name} has {len(value):,} items: give at most {most:,} ({what})")
    return value
