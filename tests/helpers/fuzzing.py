"""Shared helpers of the fuzz tests: strategies of junk values and an input counter
(reported at the end of the pytest run by conftest.py).

Knobs for a hunting run (the default run is deterministic and stays the same):

- ``HYPOTHESIS_PROFILE=explore`` (tests/conftest.py): random examples, fresh each run, for
  every ``@given`` test; ``--hypothesis-seed=N`` makes such a run repeatable.
- ``SCATLAB_FUZZ_SEED=N``: the seed of the command-line mutator of tests/cli/test_cli_fuzz.py
  (default 7) and of the other hand-rolled loops that use :func:`fuzz_rng`.
- ``SCATLAB_FUZZ_SCALE=K``: K times as many cases as the default, for the hand-rolled loops
  (command lines) and the ``max_examples`` of the fuzz tests of test_errors.py,
  test_cards.py and test_properties.py (those that take ``cases(n)``).

For example, a hunting run (then pin what it finds with ``@example``)::

    HYPOTHESIS_PROFILE=explore SCATLAB_FUZZ_SCALE=10 SCATLAB_FUZZ_SEED=1234 \
        .venv/bin/python -m pytest -p no:cacheprovider --hypothesis-seed=1234 tests/cards/test_errors.py
"""

from __future__ import annotations

import functools
import os
import random
import re
import unicodedata
from collections import Counter
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

COUNTS: Counter[str] = Counter()
"""Inputs tried per fuzz test, summed over the session."""

FUZZ_SEED = int(os.environ.get("SCATLAB_FUZZ_SEED", "7"))
FUZZ_SCALE = max(1, int(os.environ.get("SCATLAB_FUZZ_SCALE", "1")))


def fuzz_rng(salt: int = 0) -> random.Random:
    """The random source of a hand-rolled fuzz loop: seeded by ``SCATLAB_FUZZ_SEED``."""
    return random.Random(FUZZ_SEED * 1_000_003 + salt)


def cases(default: int) -> int:
    """How many cases a hand-rolled fuzz loop tries: ``default`` times ``SCATLAB_FUZZ_SCALE``."""
    return default * FUZZ_SCALE


# Characters that trip Unicode normalisation or case folding, or a one-line message: the
# Kelvin sign (NFKC: K, and case-insensitive regexes match it as k), the long s (NFKC and
# case folding: s), fullwidth and mathematical letters and digits, ligatures, a combining
# mark, the sharp s and dotted/dotless i (case folding changes their length or script),
# circled ten, the Roman numeral hundred (NFKC: C), a diaeresis (NFKC: space + combining),
# the NFKC separators (fullwidth comma, Greek question mark: ;), zero-width and bidi
# format characters, the presentation selectors, a playing-card emoji, lone surrogates.
UNICODE_TRAPS = [
    "\u212a",
    "ſ",
    "Ａ",
    "ｈ",
    "１",
    "０",
    "𝐀",
    "𝐇",
    "ﬀ",
    "ﬆ",
    "\u0301",
    "\u0308",
    "ß",
    "ẞ",
    "İ",
    "ı",
    "⑩",
    "Ⅽ",
    "Ⅹ",
    "¨",
    "，",
    "；",
    "\u037e",
    "\u200b",
    "\u200d",
    "\u202e",
    "\ufe0e",
    "\ufe0f",
    "🂡",
    "\udcff",
    "\ud800",
    "ǈ",
    "ᴬ",
    "ₕ",
    "㏅",
    "\u3000",
    "\xa0",
]
CONTROL = ["\n", "\r", "\t", "\x0b", "\x0c", "\x1b", "\x00", "\x7f", "\x85", "\x1c", "\u2028", "\u2029"]
"""Control characters and line breaks that must never reach a message unescaped."""
CONTROL_SEQUENCES = [*CONTROL, "\r\n", "\x1b[31m", "\x1b[2J\x1b[H", "\n\n"]

ODD_TEXT = [
    "",
    " ",
    "AH",
    "ah kh 4c",
    "10♣",
    "A♥ K♥",
    "ＡＨ",
    "A\u0308H",
    "ǈH",
    "ⅫH",
    "ß",
    "İH",
    "ﬀ",
    "\x00",
    "🂡",
    "1H",
    "AH AH",
    "AH,KH;4C",
    "\udcff",
    "T♠",
    "A" * 500,
    "♥" * 50,
    "AH " * 60,
    "\u200bAH",
    "a\u0301h",
    "\u212aH",
    "Aſ",
    "\u212a\u212a",
    "ＫＨ，ＡＨ",
    "1０♥",
    "⑩♦",
    "AⅭ",
    "A♥\ufe0f",
    "A\nH",
    "AH\nKH",
    "\x1b[2J",
    "Q\u200dH",
    "K\u0301H",
]


@functools.cache
def _normalising_characters() -> tuple[str, ...]:
    """Every character that NFKC or case folding changes into ASCII letters, digits or
    separators (about 1,200: fullwidth, mathematical, circled, modifier letters...)."""
    ascii_like = re.compile(r"[0-9a-z,; ]+")
    found = []
    for code in range(0x110000):
        ch = chr(code)
        if (unicodedata.decomposition(ch) or ch.casefold() != ch) and ascii_like.fullmatch(
            unicodedata.normalize("NFKC", ch).casefold()
        ):
            found.append(ch)
    return tuple(found)


NORMALISING_CHARACTER = st.deferred(lambda: st.sampled_from(_normalising_characters()))

TRAP_TEXT = st.text(
    alphabet=st.one_of(
        st.sampled_from("AKQJT1098765432HDCSahdcs♥♦♣♠♡♢♧♤ ,;"),
        st.sampled_from(UNICODE_TRAPS),
        st.sampled_from(CONTROL),
        NORMALISING_CHARACTER,
        st.characters(exclude_categories=()),
    ),
    max_size=12,
)
"""Card-like text salted with characters that trip normalisation and one-line messages."""

TEXT = st.one_of(
    st.sampled_from(ODD_TEXT),
    st.text(max_size=20),
    st.text(alphabet="AKQJT1098765432HDCSahdcs♥♦♣♠ ,\t", max_size=25),
    TRAP_TEXT,
)

JUNK: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([-1, 0, 1, 2, 3, 9, 10, 31, 2**63, -(2**63) - 1, 10**30, 10**400, 10**5000]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([Fraction(61, 2), Fraction(1, 3), b"AH", bytearray(b"\xff"), object(), ("AH", 5), {1, 2}]),
    TEXT,
    st.lists(st.one_of(TEXT, st.integers(-3, 60), st.none()), max_size=6),
    st.dictionaries(st.one_of(TEXT, st.integers()), st.one_of(TEXT, st.integers(), st.none()), max_size=4),
)
"""Values of every wrong type and size, and some right ones."""

VALUES_OF_EVERY_TYPE: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    2,
    3,
    30,
    31,
    32,
    52,
    99,
    100,
    -1,
    10**400,
    0.0,
    1.0,
    2.0,
    30.0,
    30.2,
    30.5,
    32.0,
    52.0,
    float("nan"),
    float("inf"),
    Fraction(30),
    Fraction(61, 2),
    Fraction(52),
    Fraction(1, 3),
    "",
    "true",
    "yes",
    "1",
    "0",
    "52",
    "32",
    "30",
    "61/2",
    "30.5",
    " 30",
    "classic",
    "Classic",
    "ＣＬＡＳＳＩＣ",
    "knocker_two",
    "cadillac",
    "gin",
    "bus",
    "points",
    "manual",
    "auto",
    "lives",
    "x\ny",
    [],
    ["a", "b"],
    ("a",),
    [""],
    ["a\nb"],
    [1, 2],
    {},
    {"a": 1},
    b"52",
    object(),
]
"""A value of every type for every rule option: bools, ints (0 and 1 among them), floats
equal to a right int, Fractions, texts of numbers and names, containers."""
