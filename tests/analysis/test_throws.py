"""One way to throw for each kind of player (C5: never the card just taken). The ``tip`` and
``expert`` players and the opponent model read the same rankings
(:func:`scatlab.analysis.model.throws.throw_choice`); these tests check the one-position
reading against the ranking built for many hands at once, and the rules the docs state."""

from __future__ import annotations

import random

import numpy as np
import pytest

from scatlab.analysis.counting.tables import scoring_rules, tables_for
from scatlab.analysis.model.throws import LAST_THROW, SUIT_ORDER, TIP_THROW, _pair_ranks, expert_throw, throw_choice
from scatlab.cards import Card, Suit, deck, parse_cards
from scatlab.errors import AnalysisError
from scatlab.rules import find_rules
from scatlab.rules.values import blitz_of

WAYS = {"tip": TIP_THROW, "last": LAST_THROW, "expert": expert_throw(5, 2.0), "expert-3": expert_throw(3, 0.5)}
RULES = {
    "classic": find_rules("classic"),
    "quick": find_rules("quick"),
    "classic-32": find_rules("classic").replace(deck_size=32, name="classic-32"),
}


@pytest.mark.parametrize("rules_name", sorted(RULES))
@pytest.mark.parametrize("way_name", sorted(WAYS))
def test_C5_one_position_throw_equals_the_ranking_of_many_hands(rules_name: str, way_name: str) -> None:
    """600 seeded positions per rules and way (drawn or taken, no suit or up to two avoided):
    the card thrown and the card thrown with no suit avoided are those of the ranking the
    opponent model builds for every hand, and never the card taken."""
    rules, way = RULES[rules_name], WAYS[way_name]
    scoring = scoring_rules(rules)
    tables = tables_for(scoring)
    cards = deck(rules.deck_size)
    rng = random.Random(f"throws:{rules_name}:{way_name}")
    for _ in range(600):
        four = rng.sample(cards, 4)
        hand, drawn = (four[0], four[1], four[2]), four[3]
        taken = rng.random() < 0.4
        avoid = frozenset(rng.sample(list(Suit), rng.choice((0, 0, 1, 2))))
        got = throw_choice(rules, way, hand, drawn, taken=taken, avoid=avoid)
        row = np.array([tables.row(sorted(c.index for c in hand))])
        ranks = _pair_ranks(scoring, way, taken, row, np.array([drawn.index]))
        bits = sum(1 << SUIT_ORDER.index(s) for s in avoid)
        assert got.card.index == int(ranks.choose(bits)[0]), (hand, drawn, taken, avoid)
        assert got.first.index == int(ranks.choose(0)[0]), (hand, drawn, taken, avoid)
        assert not (taken and got.card is drawn)


@pytest.mark.parametrize("way_name", sorted(WAYS))
def test_C4_a_31_is_never_missed(way_name: str) -> None:
    """Whenever a throw leaves three cards making 31, the card thrown leaves 31, whatever
    suit is avoided."""
    rules = RULES["classic"]
    rng = random.Random(f"31:{way_name}")
    cards = deck()
    for _ in range(300):
        suit = rng.choice(list(Suit))
        ace = next(c for c in cards if c.suit is suit and c.value == 11)
        tens = rng.sample([c for c in cards if c.suit is suit and c.value == 10], 2)
        other = rng.choice([c for c in cards if c not in (ace, *tens)])
        four = [ace, *tens, other]
        rng.shuffle(four)
        taken = rng.random() < 0.5 and four[3] is not other  # the one card that leaves 31 is never taken
        got = throw_choice(
            rules, WAYS[way_name], (four[0], four[1], four[2]), four[3], taken=taken, avoid=frozenset({other.suit})
        )
        assert blitz_of([d for d in four if d is not got.card], rules), (four, got)


def test_tip_throws_the_lowest_card_outside_its_suit_and_spares_the_next_players_suit() -> None:
    """The tip player's rule (its module doc): the lowest card outside the suit worth most;
    a suit the next player collects is avoided when another card is outside."""
    rules = RULES["classic"]
    hand = (Card.parse("AH"), Card.parse("KH"), Card.parse("7C"))
    eight = parse_cards("8D")[0]
    assert throw_choice(rules, TIP_THROW, hand, eight).card == Card.parse("7C")
    avoided = throw_choice(rules, TIP_THROW, hand, eight, avoid=frozenset({Suit.CLUBS}))
    assert (str(avoided.card), str(avoided.first)) == ("8D", "7C")
    only = throw_choice(rules, TIP_THROW, hand, parse_cards("9H")[0], avoid=frozenset({Suit.CLUBS}))
    assert str(only.card) == "7C"  # the only card outside hearts: thrown even though clubs are avoided


def test_a_throw_needs_four_different_cards_of_the_deck() -> None:
    rules = RULES["classic-32"]
    with pytest.raises(AnalysisError, match="four different cards"):
        throw_choice(
            rules, TIP_THROW, (Card.parse("AH"), Card.parse("KH"), Card.parse("2C")), Card.parse("9H")
        )  # no 2 in 32 cards
    with pytest.raises(AnalysisError, match="four different cards"):
        throw_choice(rules, TIP_THROW, (Card.parse("AH"), Card.parse("KH"), Card.parse("7C")), Card.parse("AH"))
