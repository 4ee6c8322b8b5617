"""An independent hand value, showdown key and opponent policy, written from RULES.md
without scatlab.rules.values: the brute force the analysis' tests recount everything with
(checked against :func:`scatlab.rules.value_of` in tests/analysis/test_analysis.py)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

from scatlab.cards import Card, deck, parse_cards
from scatlab.rules import RuleSet, find_rules, tiebreak_key

__all__ = [
    "KNOCK_CASES",
    "KNOCK_RULES",
    "V18",
    "knock_case",
    "Key",
    "card_points",
    "my_value",
    "my_key",
    "without",
    "cards_of",
    "opponent_turn",
    "my_knocker_loss",
]

Key = tuple[Fraction | int, ...]

# -- an independent hand value (C4, V1, V2, V3, V13) and showdown key (V17) --------------------


def card_points(card: Card) -> int:
    """C1: Ace 11, K/Q/J 10, number cards their pips."""
    rank = int(card.rank)
    if rank == 14:
        return 11
    return min(rank, 10)


def _compute_value(cards: Sequence[Card], rules: RuleSet) -> Fraction:
    sums: dict[str, int] = {}
    for c in cards:
        sums[c.suit.value] = sums.get(c.suit.value, 0) + card_points(c)
    best = Fraction(max(sums.values()))
    if len(cards) != 3:
        return best
    ranks = sorted(int(c.rank) for c in cards)
    if ranks[0] == ranks[2]:
        if rules.grand_cadillac and ranks[0] == 14:
            return Fraction(33)  # V13: three Aces are a Grand Cadillac
        if rules.three_of_a_kind is not None:
            best = max(best, Fraction(rules.three_of_a_kind))  # V1 / V2
    if rules.straight_flush and len({c.suit for c in cards}) == 1:
        run = ranks[2] - ranks[1] == 1 and ranks[1] - ranks[0] == 1
        if run or ranks == [2, 3, 14]:
            best = max(best, Fraction(30))  # V3 (A-K-Q is 31 anyway)
    return best


_VALUE_CACHE: dict[tuple[object, int], Fraction] = {}


def my_value(cards: Sequence[Card], rules: RuleSet) -> Fraction:
    """The exact value of 3 or 4 cards, written independently of scatlab.rules.values."""
    mask = 0
    for c in cards:
        mask |= 1 << c.index
    key = (rules.hand_scoring, mask)
    try:
        return _VALUE_CACHE[key]
    except KeyError:
        value = _VALUE_CACHE[key] = _compute_value(cards, rules)
        return value


def my_key(cards: Sequence[Card], rules: RuleSet) -> Key:
    """What decides a showdown: the value (and under V17 the rule engine's rank key,
    remembered per set of cards: brute forces ask for the same hands many times)."""
    if rules.rank_tiebreak:
        mask = 0
        for c in cards:
            mask |= 1 << c.index
        key = (rules.hand_scoring, mask)
        found = _KEY_CACHE.get(key)
        if found is None:
            found = _KEY_CACHE[key] = tiebreak_key(cards, rules)
        return found
    return (my_value(cards, rules),)


_KEY_CACHE: dict[tuple[object, int], Key] = {}


def without(cards: Sequence[Card], card: Card) -> tuple[Card, ...]:
    return tuple(c for c in cards if c is not card)


def cards_of(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def opponent_turn(
    rules: RuleSet, hand: Sequence[Card], top: Card | None, stock: Card | None
) -> tuple[str, Card, tuple[Card, ...]]:
    """The stated policy: take the top discard if keeping it makes a stronger hand, else
    draw; discard to keep the strongest hand. Among equally strong discards the drawn card
    goes back first, then the lowest-valued card (the tie rule of scatlab.analysis.counting.tables
    and onestep). Returns (action, discard, hand kept)."""
    hand = tuple(hand)
    lowest_first = sorted(hand, key=lambda c: (card_points(c), c.index))
    if top is not None:
        current = my_key(hand, rules)
        options = [(my_key(without(hand, d) + (top,), rules), d) for d in lowest_first]
        best_key = max(k for k, _ in options)
        if best_key > current:
            thrown = next(d for k, d in options if k == best_key)
            return "take", thrown, without(hand, thrown) + (top,)
    assert stock is not None
    four = hand + (stock,)
    keeps = [(my_key(without(four, d), rules), d) for d in (stock, *lowest_first)]
    best_key = max(k for k, _ in keeps)
    thrown = next(d for k, d in keeps if k == best_key)
    return "draw", thrown, without(four, thrown)


def my_knocker_loss(rules: RuleSet, knocker: Key, opponent: Key, opponent_31: bool) -> int:
    """Lives (letters) the knocker loses against one opponent; under V16, 1 = no point."""
    keeping = rules.score_keeping
    if opponent_31:
        if keeping in ("points", "gin"):
            return 1  # V16: the 31 scores the point; V14: the knocker gets a letter
        return 2 if rules.thirty_one_after_knock == "knocker_two" else 1  # V9 / C8
    if keeping == "points":
        return 0 if knocker > opponent else 1  # V16: a tie goes to the non-knocker
    if keeping == "gin":
        return 0 if knocker >= opponent else 1  # V14: highest or tied highest is safe
    if knocker > opponent:
        return 0
    if knocker < opponent:
        return rules.knocker_lowest_loses  # C7 two lives, V8 one
    return {"classic": 0, "knocker_two": 2, "knocker_only": 1, "cadillac": 2}[rules.knocker_tie]  # C7 / V7


# -- knock situations the brute forces share (C7, V2, V7-V9, V13, V14, V16, V17) ------------

V18 = "V18"
KNOCK_RULES: dict[str, RuleSet] = {
    "C7": find_rules("eenendertigen"),
    "V8": RuleSet.from_codes(V18, "V8"),
    "V7b": RuleSet.from_codes(V18, "V7", knocker_tie="knocker_two"),
    "V7c": RuleSet.from_codes(V18, "V7", knocker_tie="knocker_only"),
    "V7d": RuleSet.from_codes(V18, "V7", knocker_tie="cadillac"),
    "V9": RuleSet.from_codes(V18, "V9"),
    "V13": RuleSet.from_codes(V18, "V13"),
    "V14": RuleSet.from_codes(V18, "V14"),
    "V16": RuleSet.from_codes(V18, "V16"),
    "V16-V17": RuleSet.from_codes(V18, "V16", "V17"),
    "V2": RuleSet.from_codes(V18, "V2"),
}

# (knocker's hand, top discard, cards the opponent is known to hold, cards kept unseen, seed)
KNOCK_CASES: list[tuple[str, str | None, str, str, int]] = [
    ("KH QH 9C", "8S", "", "", 1),
    ("AS 10S 7D", "JD", "", "", 2),
    ("9D 8D 7C", None, "", "", 3),
    ("QC JC 7H", "AH", "KS", "", 4),
    ("10D 10H 8C", "AS", "", "AC AD AH 10S 10C", 5),
    ("JS 10S 8H", "9C", "AD KD", "", 6),
]


def knock_case(
    rules: RuleSet,
    hand_text: str,
    top_text: str | None,
    holds_text: str,
    keep_text: str,
    seed: int,
    unseen_count: int = 13,
) -> tuple[tuple[Card, ...], Card | None, list[Card], tuple[Card, ...]]:
    """A 32-card situation with many dead cards, so that ``unseen_count`` cards are unseen."""
    hand = cards_of(hand_text)
    top = cards_of(top_text)[0] if top_text else None
    holds = cards_of(holds_text)
    keep = set(cards_of(keep_text))
    known = set(hand) | set(holds) | ({top} if top is not None else set())
    candidates = [c for c in deck(rules.deck_size) if c not in known and c not in keep]
    rng = random.Random(seed)
    rng.shuffle(candidates)
    dead = candidates[: rules.deck_size - len(known) - unseen_count]
    return hand, top, dead, holds
