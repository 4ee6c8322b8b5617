"""Shared helpers of the fuzz tests: strategies of junk values and an input counter
(reported at the end of the pytest run by conftest.py)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

COUNTS: Counter[str] = Counter()
"""Inputs tried per fuzz test, summed over the session."""

ODD_TEXT = ["", " ", "AH", "ah kh 4c", "10♣", "A♥ K♥", "ＡＨ", "A\u0308H", "ǈH", "ⅫH", "ß", "İH", "ﬀ", "\x00",
            "🂡", "1H", "AH AH", "AH,KH;4C", "\udcff", "T♠", "A" * 500, "♥" * 50, "AH " * 60, "\u200bAH", "a\u0301h"]

TEXT = st.one_of(st.sampled_from(ODD_TEXT), st.text(max_size=20),
                 st.text(alphabet="AKQJT1098765432HDCSahdcs♥♦♣♠ ,\t", max_size=25))

JUNK: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([-1, 0, 1, 2, 3, 9, 10, 31, 2**63, -(2**63) - 1, 10**30, 10**400]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([Fraction(61, 2), Fraction(1, 3), b"AH", bytearray(b"\xff"), object(), ("AH", 5), {1, 2}]),
    TEXT,
    st.lists(st.one_of(TEXT, st.integers(-3, 60), st.none()), max_size=6),
    st.dictionaries(st.one_of(TEXT, st.integers()), st.one_of(TEXT, st.integers(), st.none()), max_size=4),
)
"""Values of every wrong type and size, and some right ones."""
