"""The analysis tables (scatlab.analysis.counting.tables) against the rules layer, exhaustively."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from scatlab.analysis.counting.tables import RANK_BITS, Tables, tables_for
from scatlab.cards import ALL_CARDS
from scatlab.rules import PRESETS, RuleSet, find_rules, tiebreak_key, value_of

RULES = [*PRESETS.values(), RuleSet.from_codes("V3"), RuleSet.from_codes("V2")]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.describe())
def test_C4_V1_V2_V3_V13_table_values_equal_value_of_for_every_hand(rules: RuleSet) -> None:
    tables = tables_for(rules)
    assert len(tables.rows) == (22100 if rules.deck_size == 52 else 4960)
    for row, strength in zip(tables.rows.tolist(), tables.strength.tolist()):
        assert strength >> RANK_BITS == 2 * value_of([ALL_CARDS[i] for i in row], rules)


def test_V17_strengths_order_hands_like_tiebreak_key() -> None:
    rules = find_rules("french-canadian")
    tables = tables_for(rules)
    rng = random.Random(17)
    rows = tables.rows.tolist()
    for _ in range(3000):
        i, j = rng.randrange(len(rows)), rng.randrange(len(rows))
        ki = tiebreak_key([ALL_CARDS[c] for c in rows[i]], rules)
        kj = tiebreak_key([ALL_CARDS[c] for c in rows[j]], rules)
        si, sj = int(tables.strength[i]), int(tables.strength[j])
        assert (ki < kj) == (si < sj) and (ki == kj) == (si == sj)


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.describe())
def test_C4_V17_distinct_strengths_are_every_strength_once_ascending(rules: RuleSet) -> None:
    """The exact knock count looks up the knocker's loss by the strength an opponent ends
    with: every strength a hand can have is there, once, in order."""
    distinct = tables_for(rules).distinct_strengths.tolist()
    assert distinct == sorted(set(tables_for(rules).strength.tolist()))


@pytest.mark.parametrize("name", ["classic", "gin", "french-canadian", "eenendertigen"])
def test_lazy_rows_equal_the_full_table(name: str) -> None:
    """The one-turn path's per-hand rows (built without numpy) agree with the full
    vectorised table, including the tie rule for the card thrown."""
    tables = Tables(find_rules(name))  # a new object: no full table built yet
    assert tables._full is None
    rows = list(range(0, len(tables.rows), 11))
    lazy = [(tables.after_draw_row(r), tables.discard_row(r)) for r in rows]
    full_best, full_thrown = tables.after_draw, tables.discard
    assert tables._full is not None
    for r, (best, thrown) in zip(rows, lazy):
        assert best == full_best[r].tolist()
        assert thrown == full_thrown[r].tolist()


def test_horizon_tables_are_kept_with_their_own_scoring() -> None:
    """Horizon levels live on the Tables object of their scoring configuration, so two
    scorings never share (or mix up) them, and rule sets that score alike do share."""
    from scatlab.analysis.counting.horizon import horizon_table, horizon_values
    from scatlab.cards import parse_cards

    classic, gin = tables_for(find_rules("classic")), tables_for(find_rules("gin"))
    assert tables_for(find_rules("classic").replace(min_knock=21)) is classic
    hand = parse_cards("7S 7H 2C")
    assert horizon_values(hand, 1, find_rules("classic"))[0] == 7
    assert horizon_values(hand, 1, find_rules("gin"))[0] == Fraction(7)  # not three of a kind yet
    assert len(classic.horizon_levels) >= 2 and len(gin.horizon_levels) >= 2
    assert horizon_table(classic, 1) is classic.horizon_levels[1]
    assert not (horizon_table(classic, 1) == horizon_table(gin, 1)).all()
