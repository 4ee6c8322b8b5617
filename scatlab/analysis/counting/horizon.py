"""A longer horizon: the expected value after k more own turns, by exact dynamic programming
over every 3-card hand (22,100 for 52 cards, 4,960 for 32).

**Approximation (the changing stock).** Each future turn draws from the stock, and the card
drawn is equally likely to be any card not in the hand (49 of 52, or 29 of 32): the DP
forgets the discard pile, the other hands and the cards already gone, which a real stock
would not. After each draw the player keeps the three cards with the best expected value
for the turns still to come. A 31 (or Grand Cadillac) ends the hand, so its value stays.

    E_0(H) = value(H)
    E_k(H) = value(H)                                          if H is worth 31 or more
           = 1/(n-3) * sum over d not in H of max over the 4 ways to keep 3 of H+d of E_(k-1)

Values stay exact: ``E_k * 2 * (n-3)**k`` is a whole number for every hand, so the tables
are integer arrays and the results are Fractions.

>>> from scatlab.analysis.counting.knowledge import Knowledge
>>> from scatlab.rules import find_rules
>>> values = horizon_values(Knowledge.of("AH KH 4C", "9S").hand, 2, find_rules("classic"))
>>> values[0], float(values[1]) > 21
(Fraction(21, 1), True)
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from ...cards import CardsLike, format_cards, parse_cards
from ...checks import whole_number
from ...errors import AnalysisError
from ...rules.options import RuleSet, find_rules
from .store import cached
from .tables import BLITZ2, Tables, tables_for
from .tables import SOURCE as TABLES_SOURCE

__all__ = ["horizon_values", "horizon_table", "MAX_HORIZON"]

MAX_HORIZON = 8


def _subrows(tables: Tables) -> tuple[npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any]]:
    """For every hand and drawn card, the rows of the three hands that keep the drawn card."""
    rows = tables.rows
    a, b, c = rows[:, 0:1], rows[:, 1:2], rows[:, 2:3]
    d = np.arange(52)[None, :]
    r_ab = tables.row_of[a, b, d]
    r_ac = tables.row_of[a, c, d]
    r_bc = tables.row_of[b, c, d]
    valid = (r_ab >= 0) & (r_ac >= 0) & (r_bc >= 0)
    return np.where(valid, r_ab, 0), np.where(valid, r_ac, 0), np.where(valid, r_bc, 0), valid


def horizon_table(tables: Tables, k: int) -> npt.NDArray[Any]:
    """``E_k`` for every hand row, scaled by ``2 * (n-3)**k`` (an int64 array). Computed once
    per scoring configuration and cached, together with every shorter horizon."""
    if not 0 <= k <= MAX_HORIZON:
        raise AnalysisError(f"horizon {k!r} is not allowed: use 0 to {MAX_HORIZON} turns")
    levels = tables.horizon_levels  # kept on the tables, so it goes when they go
    if len(levels) > k:
        return levels[k]
    top = max(k, _STORED)
    stored = cached(
        "horizon",
        (tables.key, top),
        lambda: {"levels": np.stack(_levels(tables, top))},
        sources=(__file__, TABLES_SOURCE),
    )["levels"]
    levels[:] = [np.ascontiguousarray(level) for level in stored]
    return levels[k]


_STORED = 6
"""Levels built (and kept on disk, :mod:`scatlab.analysis.counting.store`) at least up to this one:
the expert and the filter use 5 and 6."""


def _levels(tables: Tables, k: int) -> list[npt.NDArray[np.int64]]:
    levels = [tables.value2.astype(np.int64)]
    r_ab, r_ac, r_bc, valid = _subrows(tables)
    others = tables.deck_size - 3
    blitz = tables.value2 >= BLITZ2
    while len(levels) <= k:
        prev = levels[-1]
        keep = prev[:, None]  # throw the drawn card back
        best = np.maximum(np.maximum(keep, prev[r_ab]), np.maximum(prev[r_ac], prev[r_bc]))
        total = np.where(valid, best, 0).sum(axis=1)
        levels.append(np.where(blitz, prev * others, total))
    return levels


def horizon_values(hand: CardsLike, k: int, rules: RuleSet | str | Mapping[str, Any] = "classic") -> list[Fraction]:
    """``[E_0, E_1, …, E_k]`` for a 3-card hand: its exact expected value after 0..k more
    own turns of drawing (see the module doc for the approximation); ``k`` is 0 to
    :data:`MAX_HORIZON`."""
    rules = find_rules(rules)
    hand = parse_cards(hand, count=3, deck_size=rules.deck_size, what="cards in a hand")
    whole_number("horizon", k, 0, MAX_HORIZON, error=AnalysisError)
    tables = tables_for(rules)
    row = tables.row([c.index for c in hand]) if len(hand) == 3 else -1
    if row < 0:
        raise AnalysisError(f"{format_cards(hand)!r} is not a 3-card hand of the {rules.deck_label} deck")
    others = tables.deck_size - 3
    return [Fraction(int(horizon_table(tables, j)[row]), 2 * others**j) for j in range(k + 1)]
