"""The exact hand analysis (scatlab.analysis) checked against independent brute force.

Everything the analysis computes is recounted here from scratch, with a hand-value function
written in this file (checked against :func:`scatlab.rules.value_of`) and plain loops over
the unseen cards, the opponent hands and the stock: the one-turn numbers (C4, C5), the knock
risk under every showdown rule (C6-C8, V7-V9, V13, V14, V16, V17), the horizon recursion,
card tracking from a live game, the command line and the sympy derivation.

Seats in the game scenarios are numbered clockwise: with dealer 0 the player to move first
is seat 1.
"""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations, permutations

import pytest

from helpers.brute_force import (
    KNOCK_CASES,
    KNOCK_RULES,
    V18,
    Key,
    cards_of,
    knock_case,
    my_key,
    my_knocker_loss,
    my_value,
    opponent_turn,
    without,
)
from scatlab.analysis import (
    Knowledge,
    analyze,
    analyze_turn,
    horizon_values,
    knock_risk,
)
from scatlab.analysis.counting.tables import tables_for
from scatlab.analysis.explain.display import derivation
from scatlab.analysis.model.knock import _Outcomes
from scatlab.cards import Card, deck, format_cards
from scatlab.errors import AnalysisError, CardError
from scatlab.rules import (
    Action,
    GameState,
    HandEnd,
    Phase,
    RuleSet,
    deal_order,
    find_rules,
    settle,
    value_of,
)

SCORING_VARIANTS: dict[str, RuleSet] = {
    **{name: find_rules(name) for name in ("classic", "quick", "cadillac", "gin", "french-canadian", "eenendertigen")},
    "V3": RuleSet.from_codes("V3"),
    "V2": RuleSet.from_codes("V2"),
}


@pytest.mark.parametrize("name", list(SCORING_VARIANTS))
def test_C4_own_value_function_agrees_with_value_of(name: str) -> None:
    rules = SCORING_VARIANTS[name]
    cards = deck(rules.deck_size)
    checked = 0
    for hand in combinations(cards, 3):
        assert my_value(hand, rules) == value_of(hand, rules), format_cards(hand)
        checked += 1
    assert checked == math.comb(rules.deck_size, 3)
    rng = random.Random(4)
    for _ in range(500):
        four = rng.sample(cards, 4)
        assert my_value(four, rules) == value_of(four, rules), format_cards(four)


def test_C4_spot_values_of_own_value_function() -> None:
    classic = find_rules("classic")
    assert my_value(cards_of("AH KH 4C"), classic) == 21
    assert my_value(cards_of("AH KH QH"), classic) == 31
    assert my_value(cards_of("2C 5D 9H"), classic) == 9
    assert my_value(cards_of("7S 7H 7D"), RuleSet.from_codes("V2")) == Fraction(61, 2)
    assert my_value(cards_of("AS AH AD"), find_rules("cadillac")) == 33
    assert my_value(cards_of("AS 2S 3S"), RuleSet.from_codes("V3")) == 30


def test_C4_C9_probability_of_being_dealt_31_is_6_over_5525() -> None:
    classic = find_rules("classic")
    hands = list(combinations(deck(52), 3))
    mine = sum(1 for h in hands if my_value(h, classic) >= 31)
    theirs = sum(1 for h in hands if value_of(h, classic) >= 31)
    assert len(hands) == 22100
    assert mine == theirs == 24
    assert Fraction(mine, len(hands)) == Fraction(6, 5525)


# -- one turn: draw and take, brute force over random situations (C4, C5) -----------------------


def random_situation(
    rng: random.Random, rules: RuleSet, hand_size: int
) -> tuple[list[Card], Card | None, list[Card], list[list[Card]], int]:
    """A random hand, top discard (sometimes none), dead cards, known opponent cards and
    1-4 opponents, always leaving enough unseen cards for the opponents and the stock."""
    cards = list(deck(rules.deck_size))
    rng.shuffle(cards)
    hand = cards[:hand_size]
    rest = cards[hand_size:]
    top = rest.pop() if hand_size == 3 and rng.random() < 0.9 else None
    opponents = rng.randint(1, 4)
    holds: list[list[Card]] = []
    for _ in range(rng.randint(0, opponents)):
        holds.append([rest.pop() for _ in range(rng.choice((0, 0, 1, 1, 2, 3)))])
    needed = sum(3 - len(h) for h in holds) + 3 * (opponents - len(holds)) + 1
    dead = [rest.pop() for _ in range(rng.randint(0, min(len(rest) - needed, 24)))]
    return hand, top, dead, holds, opponents


def expected_unseen(
    rules: RuleSet, hand: Sequence[Card], top: Card | None, dead: Sequence[Card], holds: Sequence[Sequence[Card]]
) -> tuple[Card, ...]:
    known = set(hand) | set(dead) | {c for h in holds for c in h}
    if top is not None:
        known.add(top)
    return tuple(c for c in deck(rules.deck_size) if c not in known)


def check_three_card_turn(k: Knowledge, unseen: tuple[Card, ...]) -> None:
    """Compare analyze_turn(k) with a brute-force count over ``unseen``."""
    rules = k.rules
    hand = k.hand
    turn = analyze_turn(k)
    current = my_value(hand, rules)
    assert turn.value == current
    assert k.unseen == unseen

    # Taking the top discard: every allowed discard (never the taken card, C5).
    if k.top is None:
        assert turn.take is None
    else:
        top = k.top
        assert turn.take is not None
        assert turn.take.card is top
        expected_take = {d: my_value(without(hand, d) + (top,), rules) for d in hand}
        got_take = {o.discard: o.value for o in turn.take.options}
        assert got_take == expected_take
        assert len(turn.take.options) == 3 and top not in got_take
        values = [o.value for o in turn.take.options]
        assert values == sorted(values, reverse=True)
        assert turn.take.best.value == max(expected_take.values())

    # Drawing: each unseen card equally likely, the best of the 4 discards kept.
    draw = turn.draw
    assert draw is not None
    best: dict[Card, Fraction] = {}
    for u in unseen:
        four = hand + (u,)
        best[u] = max(my_value(without(four, d), rules) for d in four)
    n = len(unseen)
    assert draw.unseen == n
    assert draw.expected_value == Fraction(sum(best.values(), Fraction(0)), n)
    assert draw.p_31 == Fraction(sum(1 for v in best.values() if v >= 31), n)
    assert draw.p_improve == Fraction(sum(1 for v in best.values() if v > current), n)
    counts = Counter(best.values())
    assert draw.distribution == {v: Fraction(c, n) for v, c in counts.items()}
    assert list(draw.distribution) == sorted(counts, reverse=True)
    assert sum(draw.distribution.values(), Fraction(0)) == 1
    assert draw.outs_31 == tuple(u for u in unseen if best[u] >= 31)
    assert draw.outs_improve == tuple(u for u in unseen if best[u] > current)
    assert [o.card for o in draw.outcomes] == list(unseen)
    for o in draw.outcomes:
        four = hand + (o.card,)
        assert o.value == best[o.card]
        assert o.discard in four and my_value(without(four, o.discard), rules) == best[o.card]
    for v in (draw.expected_value, draw.p_31, draw.p_improve, *draw.distribution):
        assert isinstance(v, Fraction)


@pytest.mark.parametrize("name", list(SCORING_VARIANTS))
def test_C5_draw_and_take_match_brute_force(name: str) -> None:
    rules = SCORING_VARIANTS[name]
    tops = 0
    for seed in range(150):
        rng = random.Random(seed)
        hand, top, dead, holds, opponents = random_situation(rng, rules, 3)
        k = Knowledge.of(hand, top, dead=dead, opponent_holds=holds, opponents=opponents, rules=rules)
        assert k.opponents == opponents and k.rules == rules
        check_three_card_turn(k, expected_unseen(rules, hand, top, dead, holds))
        tops += top is not None
    assert 100 < tops < 150  # both with and without a discard to take


@pytest.mark.parametrize("name", list(SCORING_VARIANTS))
def test_C5_four_card_discard_options_match_brute_force(name: str) -> None:
    rules = SCORING_VARIANTS[name]
    for seed in range(60):
        rng = random.Random(1000 + seed)
        hand, _, dead, holds, opponents = random_situation(rng, rules, 4)
        k = Knowledge.of(hand, dead=dead, opponent_holds=holds, opponents=opponents, rules=rules)
        turn = analyze_turn(k)
        assert turn.take is None and turn.draw is None
        expected = {d: my_value(without(k.hand, d), rules) for d in k.hand}
        assert {o.discard: o.value for o in turn.discards} == expected
        assert len(turn.discards) == 4
        assert [o.value for o in turn.discards] == sorted(expected.values(), reverse=True)
        assert turn.value == k.value == max(expected.values())


@pytest.mark.parametrize("name", list(SCORING_VARIANTS))
def test_C5_take_options_never_discard_the_taken_card(name: str) -> None:
    rules = SCORING_VARIANTS[name]
    for seed in range(60):
        rng = random.Random(2000 + seed)
        four = tuple(rng.sample(deck(rules.deck_size), 4))
        taken = four[rng.randrange(4)]
        k = Knowledge(hand=four, top=None, taken=taken, rules=rules)
        turn = analyze_turn(k)
        expected = {d: my_value(without(four, d), rules) for d in four if d is not taken}
        assert {o.discard: o.value for o in turn.discards} == expected
        assert taken not in [o.discard for o in turn.discards]
        assert turn.value == k.value == max(expected.values())
        # and from a three-card hand: the top discard is never among the take options
        three = four[:3] if taken is four[3] else without(four, taken)[:3]
        turn3 = analyze_turn(Knowledge(hand=three, top=taken, rules=rules))
        assert turn3.take is not None
        assert [o.discard for o in turn3.take.options if o.discard is taken] == []
        assert {o.discard for o in turn3.take.options} == set(three)


# -- the worked example: AH KH 4C with 9S up ---------------------------------------------------

EXAMPLE_HAND = "AH KH 4C"
EXAMPLE_UP = "9S"


def test_C4_C5_worked_example_AH_KH_4C_with_9S_up() -> None:
    turn = analyze_turn(Knowledge.of(EXAMPLE_HAND, EXAMPLE_UP))
    assert turn.value == 21
    draw = turn.draw
    assert draw is not None
    assert draw.unseen == 48
    assert draw.expected_value == Fraction(541, 24)
    assert draw.p_31 == Fraction(1, 16)
    assert draw.p_improve == Fraction(11, 48)
    assert [str(c) for c in draw.outs_31] == ["10H", "JH", "QH"]
    assert turn.take is not None
    assert str(turn.take.best.discard) == "4C" and turn.take.best.value == 21
    # the same numbers from the brute force
    check_three_card_turn(
        Knowledge.of(EXAMPLE_HAND, EXAMPLE_UP),
        expected_unseen(find_rules("classic"), cards_of(EXAMPLE_HAND), cards_of(EXAMPLE_UP)[0], (), ()),
    )


def test_analysis_json_has_documented_keys_and_exact_strings() -> None:
    data = analyze(EXAMPLE_HAND, discard=EXAMPLE_UP).to_json()
    assert json.loads(json.dumps(data)) == data  # JSON-ready
    assert {"hand", "value", "unseen", "take", "draw", "knock", "advice"} <= set(data)
    assert data["hand"] == ["AH", "KH", "4C"]
    assert data["value"] == "21"
    assert data["unseen"] == 48
    take = data["take"]
    assert take["card"] == "9S"
    assert take["options"][0] == {"discard": "4C", "value": "21"}
    assert all(set(o) == {"discard", "value"} for o in take["options"])
    assert {o["discard"] for o in take["options"]} == {"AH", "KH", "4C"}
    draw = data["draw"]
    assert {"expected_value", "p_31", "p_improve", "distribution", "outs_31"} <= set(draw)
    assert draw["expected_value"] == "541/24"
    assert draw["p_31"] == "1/16"
    assert draw["p_improve"] == "11/48"
    assert draw["outs_31"] == ["10H", "JH", "QH"]
    assert draw["distribution"]["31"] == "1/16"
    assert draw["distribution"]["21"] == "37/48"
    assert sum((Fraction(p) for p in draw["distribution"].values()), Fraction(0)) == 1
    knock = data["knock"]
    assert {"value", "p_lose_one", "p_lose_two", "exact"} <= set(knock)
    risk = knock_risk(Knowledge.of(EXAMPLE_HAND, EXAMPLE_UP))
    assert knock["value"] == "21" and knock["exact"] is True
    assert knock["p_lose_one"] == str(risk.p_lose_one) and knock["p_lose_two"] == str(risk.p_lose_two)
    assert {"action", "reason"} <= set(data["advice"])
    best = analyze(EXAMPLE_HAND, discard=EXAMPLE_UP).ranking
    assert best is not None and data["advice"]["action"] == best.best.action.kind.value  # the ranking's first move


def test_C5_advice_for_worked_example_is_draw_citing_outs_and_expected_value() -> None:
    advice = analyze(EXAMPLE_HAND, discard=EXAMPLE_UP).advice
    assert advice.action == "draw"
    assert "3 of 48 unseen cards make 31" in advice.reason
    assert "drawing is worth 27.02 five turns ahead against 26.40 by taking the 9♠" in advice.reason
    assert advice.numbers["draw_expected_value"] == Fraction(541, 24)
    assert advice.numbers["draw_horizon_value"] > advice.numbers["take_horizon_value"]


# -- knock risk against one opponent: exact brute force (C6, C7, C8, V7, V8, V9, V13, V14, V16) --


def brute_knock_one(
    rules: RuleSet, hand: Sequence[Card], top: Card | None, dead: Sequence[Card], holds: Sequence[Card]
) -> tuple[Fraction, Fraction]:
    """P(knocker loses one), P(loses two) over every opponent hand and stock card."""
    unseen = expected_unseen(rules, hand, top, dead, [holds])
    knocker = my_key(hand, rules)
    counts: Counter[int] = Counter()
    total = 0
    for rest in combinations(unseen, 3 - len(holds)):
        opp = tuple(holds) + rest
        stock_cards = [c for c in unseen if c not in rest]
        for s in stock_cards:
            _, _, kept = opponent_turn(rules, opp, top, s)
            loss = my_knocker_loss(rules, knocker, my_key(kept, rules), my_value(kept, rules) >= 31)
            counts[loss] += 1
            total += 1
    return Fraction(counts[1], total), Fraction(counts[2], total)


@pytest.mark.parametrize("code", list(KNOCK_RULES))
def test_C7_knock_risk_matches_brute_force(code: str) -> None:
    rules = KNOCK_RULES[code]
    lost_something = 0
    for hand_text, top_text, holds_text, keep_text, seed in KNOCK_CASES:
        hand, top, dead, holds = knock_case(rules, hand_text, top_text, holds_text, keep_text, seed)
        k = Knowledge.of(hand, top, dead=dead, opponent_holds=[holds] if holds else [], rules=rules)
        assert len(k.unseen) == 13
        risk = knock_risk(k)
        one, two = brute_knock_one(rules, hand, top, dead, holds)
        assert (risk.p_lose_one, risk.p_lose_two) == (one, two), (code, hand_text)
        assert risk.exact and risk.opponents == 1 and risk.samples is None
        assert risk.value == my_value(hand, rules)
        assert risk.expected_loss == one + 2 * two
        flush = len({c.suit for c in hand}) == 1
        assert risk.allowed == (flush or not rules.knock_needs_flush)
        lost_something += (one + two) > 0
    assert lost_something > 0


def test_C7_knock_risk_with_fully_known_opponent_hand_matches_brute_force() -> None:
    """An opponent whose three cards are all known (taken from the discard pile) is a
    possible situation: the risk is still an exact count over the stock cards."""
    for code in ("C7", "V9", "V7b"):
        rules = KNOCK_RULES[code]
        hand, top, dead, holds = knock_case(rules, "KH QH 9C", "8S", "7D 8D 10D", "", 7, unseen_count=10)
        one, two = brute_knock_one(rules, hand, top, dead, holds)
        risk = knock_risk(Knowledge.of(hand, top, dead=dead, opponent_holds=[holds], rules=rules))
        assert (risk.p_lose_one, risk.p_lose_two) == (one, two)


def test_C7_V7_V8_own_outcome_table_agrees_with_settle() -> None:
    """The showdown table used by the brute force against scatlab.rules.scoring.settle."""
    keys = [(Fraction(v),) for v in (10, 20, 21, 30)]
    for rules in KNOCK_RULES.values():
        if rules.rank_tiebreak:
            continue
        for knocker in keys:
            for opponent in keys:
                for blitz in (False, True):
                    opp_key: Key = (Fraction(31),) if blitz else opponent
                    result = settle(
                        rules,
                        "31" if blitz else "knock",
                        players=(0, 1),
                        keys={0: knocker, 1: opp_key},
                        knocker=0,
                        declarers=(1,) if blitz else (),
                    )
                    lost = (0 if result.points[0] else 1) if rules.score_keeping == "points" else result.losses[0]
                    assert my_knocker_loss(rules, knocker, opp_key, blitz) == lost, (rules.name, knocker, opp_key)


ENGINE_RULES = ["C7", "V8", "V7b", "V7c", "V7d", "V9", "V13", "V14", "V16", "V2"]


@pytest.mark.parametrize("code", ENGINE_RULES)
def test_C6_C7_knock_outcome_matches_real_engine(code: str) -> None:
    """Sampled opponent hands and stock cards, played out by the real engine: the knocker
    (seat 1) knocks, the opponent (seat 0) plays the stated policy; the knocker's loss
    equals the brute-force table and the analysis's outcome mapping."""
    rules = KNOCK_RULES[code]
    tables = tables_for(rules)
    rng = random.Random(code)
    seen_losses: set[int] = set()
    played = 0
    for hand_text, top_text, _, _, _ in KNOCK_CASES:
        if top_text is None:
            continue  # a real deal always turns up a card
        hand = cards_of(hand_text)
        top = cards_of(top_text)[0]
        outcomes = _Outcomes(rules, tables.strength_of([c.index for c in hand]))
        free = [c for c in deck(rules.deck_size) if c not in hand and c is not top]
        tries = 0
        while tries < 12:
            picked = rng.sample(free, 4)
            opp, stock = tuple(picked[:3]), picked[3]
            if my_value(opp, rules) >= 31:
                continue  # a dealt 31 ends the hand at once (C9), before any knock
            tries += 1
            state = GameState.new(rules, players=2, dealer=0)
            state = state.deal(deal_order([opp, hand], up=[top], stock=[stock], dealer=0, rules=rules))
            assert state.phase is Phase.TURN and state.to_move == 1
            state = state.apply(Action.KNOCK)
            assert state.to_move == 0
            action, thrown, kept = opponent_turn(rules, opp, top, stock)
            state = state.apply(action)
            if action == "draw":
                assert state.drawn is stock
            state = state.apply(Action.discard(thrown))
            result = state.results[-1]
            blitz = my_value(kept, rules) >= 31
            assert result.ended == ("31" if blitz else "knock")
            assert result.knocker == 1
            if rules.score_keeping == "points":
                engine_loss = 0 if result.points_won[1] else 1
            else:
                engine_loss = result.lives_lost[1]
            mine = my_knocker_loss(rules, my_key(hand, rules), my_key(kept, rules), blitz)
            analysis = outcomes.loss((tables.strength_of([c.index for c in kept]),), 0 if blitz else None)
            assert engine_loss == mine == analysis, (code, format_cards(opp), stock, action)
            seen_losses.add(engine_loss)
            played += 1
    assert played == 12 * sum(1 for case in KNOCK_CASES if case[1] is not None)
    assert len(seen_losses) >= 2


# -- knock risk against two opponents: Monte Carlo vs an exact count ------------------------------


def brute_knock_two(
    rules: RuleSet, hand: Sequence[Card], top: Card | None, dead: Sequence[Card], holds: Sequence[Sequence[Card]]
) -> tuple[Fraction, Fraction]:
    """Exact P(lose one), P(lose two) against two opponents acting in turn order (the
    second sees the first one's discard), the stock in uniformly random order."""
    unseen = expected_unseen(rules, hand, top, dead, holds)
    h1, h2 = (tuple(h) for h in holds)
    knocker = my_key(hand, rules)
    counts: Counter[int] = Counter()
    total = 0
    memo: dict[tuple[object, ...], int] = {}
    for r1 in combinations(unseen, 3 - len(h1)):
        left1 = [c for c in unseen if c not in r1]
        for r2 in combinations(left1, 3 - len(h2)):
            left2 = [c for c in left1 if c not in r2]
            for stock in permutations(left2, 2):
                pile = top
                drawn = 0
                finals: list[Key] = []
                blitzer: int | None = None
                for i, opp in enumerate((h1 + r1, h2 + r2)):
                    action, thrown, kept = opponent_turn(rules, opp, pile, stock[drawn])
                    drawn += action == "draw"
                    pile = thrown
                    finals.append(my_key(kept, rules))
                    if my_value(kept, rules) >= 31:
                        blitzer = i + 1
                        break
                key = (tuple(finals), blitzer)
                if key not in memo:
                    players = tuple(range(len(finals) + 1))
                    keys = {0: knocker, **{i + 1: f for i, f in enumerate(finals)}}
                    ended: HandEnd = "31" if blitzer is not None else "knock"
                    result = settle(
                        rules,
                        ended,
                        players=players,
                        keys=keys,
                        knocker=0,
                        declarers=(blitzer,) if blitzer is not None else (),
                    )
                    memo[key] = result.losses[0]
                counts[memo[key]] += 1
                total += 1
    return Fraction(counts[1], total), Fraction(counts[2], total)


@pytest.mark.parametrize(
    ("hand_text", "top_text", "holds_text", "seed"),
    [
        ("KH QH 9C", "8S", "", 11),
        ("AS 10S 8D", "JD", "QS", 12),
    ],
)
def test_C7_monte_carlo_two_opponents_is_reproducible_and_near_exact_count(
    hand_text: str, top_text: str, holds_text: str, seed: int
) -> None:
    rules = find_rules("eenendertigen")
    hand, top, dead, first_holds = knock_case(rules, hand_text, top_text, holds_text, "", seed, unseen_count=9)
    holds = [list(first_holds), []]
    k = Knowledge.of(hand, top, dead=dead, opponent_holds=holds, opponents=2, rules=rules)
    risk = knock_risk(k)
    again = knock_risk(k)
    assert risk == again  # same seed, same estimate
    assert not risk.exact and risk.samples == 10_000 and risk.opponents == 2
    assert risk.std_error_one is not None and risk.std_error_two is not None
    assert risk.std_error_one <= 0.005 and risk.std_error_two <= 0.005
    one, two = brute_knock_two(rules, hand, top, dead, holds)
    assert one + two > 0
    for estimate, exact in ((risk.p_lose_one, one), (risk.p_lose_two, two)):
        se = math.sqrt(float(exact) * (1 - float(exact)) / 10_000)
        assert abs(float(estimate) - float(exact)) <= 4 * se, (estimate, exact, se)


# -- horizon: exact DP over own future draws -----------------------------------------------------


def my_horizon(
    hand: tuple[Card, ...], k: int, rules: RuleSet, memo: dict[tuple[frozenset[Card], int], Fraction]
) -> Fraction:
    """E_k: draw uniformly from the deck_size - 3 cards not in the hand, keep the best three
    by E_(k-1); a 31 (or 33) ends the hand."""
    key = (frozenset(hand), k)
    if key in memo:
        return memo[key]
    value = my_value(hand, rules)
    if k == 0 or value >= 31:
        memo[key] = value
        return value
    others = [c for c in deck(rules.deck_size) if c not in hand]
    total = Fraction(0)
    for d in others:
        four = hand + (d,)
        total += max(my_horizon(without(four, x), k - 1, rules, memo) for x in four)
    memo[key] = total / len(others)
    return memo[key]


@pytest.mark.parametrize(
    ("rules_codes", "hand_text"),
    [
        ((V18,), "AH KH 9C"),
        ((V18,), "7S 8D 9H"),
        ((V18,), "JC 10C 7C"),
        ((V18,), "AH KH QH"),
        ((V18, "V2"), "QS QH QD"),
        ((V18, "V2"), "QS QH 7D"),
        ((V18, "V3"), "8D 9D JD"),
        ((V18, "V13"), "AS AH 7D"),
    ],
)
def test_horizon_values_match_independent_recursion(rules_codes: tuple[str, ...], hand_text: str) -> None:
    rules = RuleSet.from_codes(*rules_codes)
    hand = cards_of(hand_text)
    memo: dict[tuple[frozenset[Card], int], Fraction] = {}
    values = horizon_values(hand, 2, rules)
    assert len(values) == 3
    assert all(isinstance(v, Fraction) for v in values)
    assert values[0] == my_value(hand, rules)
    assert values == [my_horizon(hand, k, rules, memo) for k in range(3)]
    assert horizon_values(hand, 1, rules) == values[:2]


def test_horizon_of_31_stays_31() -> None:
    assert horizon_values(cards_of("AH KH QH"), 2, find_rules("eenendertigen")) == [Fraction(31)] * 3


# -- Knowledge: validation and card tracking ----------------------------------------------------


def test_knowledge_errors_are_value_errors() -> None:
    assert issubclass(AnalysisError, ValueError) and issubclass(CardError, ValueError)


def test_C5_knowledge_refuses_discard_that_is_in_the_hand() -> None:
    with pytest.raises(AnalysisError, match="AH"):
        Knowledge.of("AH KH 4C", discard="AH")


@pytest.mark.parametrize(
    ("dead", "holds", "card"),
    [
        ("2D 5S", ["2D"], "2D"),
        ("KH", [], "KH"),
        ("", ["9S"], "9S"),
        ("3C", ["4D", "4D"], "4D"),
    ],
)
def test_knowledge_refuses_a_card_given_twice(dead: str, holds: list[str], card: str) -> None:
    with pytest.raises(AnalysisError, match=card):
        Knowledge.of("AH KH 4C", "9S", dead=dead, opponent_holds=holds, opponents=max(1, len(holds)))


def test_knowledge_refuses_a_duplicate_within_the_hand() -> None:
    with pytest.raises(CardError, match="'AH'"):
        Knowledge.of("AH KH AH", "9S")


def test_C2_knowledge_refuses_too_many_opponents() -> None:
    with pytest.raises(AnalysisError, match="opponents=9"):
        Knowledge.of("AH KH 4C", "9S", opponents=9)
    # 32 cards: 8 opponents need 24 unseen cards and the stock one more; 23 are left
    dead = "7C 8C 9C 10C JC"
    with pytest.raises(AnalysisError, match="8 opponents") as info:
        Knowledge.of("AH KH QS", "JD", dead=dead, opponents=8, rules="eenendertigen")
    assert "23" in str(info.value)
    enough = Knowledge.of("AH KH QS", "JD", dead="7C 8C 9C", opponents=8, rules="eenendertigen")
    assert len(enough.unseen) == 25  # 24 for the hands and one for the stock


@pytest.mark.parametrize(
    ("hand", "discard", "dead", "holds"),
    [
        ("AH KH 4C", "9S", "", []),
        ("AH KH QC", "4C", "", []),
        ("AH KH QC", "9S", "4C", []),
        ("AH KH QC", "9S", "", ["4C"]),
    ],
)
def test_V18_knowledge_refuses_4C_in_the_32_card_deck(hand: str, discard: str, dead: str, holds: list[str]) -> None:
    with pytest.raises(CardError, match="'4C'.*32-card deck"):
        Knowledge.of(hand, discard, dead=dead, opponent_holds=holds, rules="eenendertigen")


@pytest.mark.parametrize("hand", ["AH KH", "AH KH 4C 5C 6C", "AH"])
def test_knowledge_refuses_wrong_hand_size(hand: str) -> None:
    with pytest.raises(AnalysisError, match=repr(hand)):
        Knowledge.of(hand, "9S")


def test_knowledge_from_view_tracks_top_dead_and_cards_taken_from_the_pile() -> None:
    state = GameState.new("classic", players=3, dealer=0)
    state = state.deal(deal_order(["2C 5D 9H", "3S 6H 8C", "4D 7S 10C"], up="QS", stock="KD 2H 3H 4H 5H", dealer=0))
    assert state.to_move == 1
    qs, s3, d4, kd, h2 = cards_of("QS 3S 4D KD 2H")
    state = state.apply("take").apply("discard 3S")  # p1 takes QS, throws 3S
    state = state.apply("take").apply("discard 4D")  # p2 takes 3S, throws 4D
    state = state.apply("draw").apply("discard KD")  # p0 draws KD, throws it back

    k1 = Knowledge.from_view(state.view(1))  # p1 to move: p2 holds 3S
    assert k1.top is kd and k1.dead == (d4,)
    assert k1.opponents == 2
    assert k1.opponent_holds == ((s3,),)
    assert k1.holds_of(0) == (s3,) and k1.holds_of(1) == ()

    state = state.apply("draw").apply("discard 2H")  # p1 draws 2H, throws it back
    k2 = Knowledge.from_view(state.view(2))  # p2: p1 still holds QS
    assert k2.top is h2 and k2.dead == (d4, kd)
    assert k2.opponent_holds == ((), (qs,))
    state = state.apply("draw").apply("discard 3S")  # p2 draws 3H, throws the 3S taken earlier

    k0 = Knowledge.from_view(state.view(0))  # p0 to move
    assert state.to_move == 0
    assert k0.hand == cards_of("2C 5D 9H")
    assert k0.top is s3 and k0.dead == (d4, kd, h2)
    assert k0.opponents == 2
    assert k0.opponent_holds == ((qs,),)  # p1 holds QS; p2 threw its 3S
    assert len(k0.unseen) == 52 - 3 - 1 - 3 - 1
    assert s3 not in k0.unseen and qs not in k0.unseen
    k1_now = Knowledge.from_view(state.view(1))
    assert k1_now.opponent_holds == ()  # the 3S taken by p2 is not held any more

    state = state.apply("take")  # p0 takes 3S: four cards, 3S may not go back
    k4 = Knowledge.from_view(state.view(0))
    assert len(k4.hand) == 4 and k4.top is None and k4.taken is s3
    assert k4.dead == (d4, kd, h2)
    turn = analyze_turn(k4)
    assert s3 not in [o.discard for o in turn.discards] and len(turn.discards) == 3
    watcher = Knowledge.from_view(state.view(1))  # p1 watches p0's take (C5 is p0's, not p1's)
    assert watcher.taken is None and watcher.opponent_holds == ((), (s3,))


# -- the command line ---------------------------------------------------------------------------


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scatlab", *args], check=False, capture_output=True, text=True, timeout=60
    )


def test_cli_analyze_json_prints_one_object_with_exact_numbers() -> None:
    proc = run_cli("analyze", "AH", "KH", "4C", "--discard", "9S", "--json")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1
    data = json.loads(lines[0])
    assert isinstance(data, dict)
    assert data["hand"] == ["AH", "KH", "4C"] and data["value"] == "21" and data["unseen"] == 48
    assert data["draw"]["expected_value"] == "541/24"
    assert data["draw"]["p_31"] == "1/16"
    assert data["draw"]["p_improve"] == "11/48"
    assert data["draw"]["outs_31"] == ["10H", "JH", "QH"]
    assert data["take"]["options"][0] == {"discard": "4C", "value": "21"}
    expected = analyze(EXAMPLE_HAND, discard=EXAMPLE_UP)
    assert expected.ranking is not None and data["advice"]["action"] == expected.ranking.best.action.kind.value
    assert data == json.loads(json.dumps(expected.to_json()))


def test_cli_analyze_text_shows_exact_expected_value() -> None:
    proc = run_cli("analyze", "AH", "KH", "4C", "--discard", "9S")
    assert proc.returncode == 0, proc.stderr
    assert "541/24" in proc.stdout
    assert proc.stderr == ""


@pytest.mark.parametrize(
    ("args", "quoted"),
    [
        (("AH", "KH", "4X", "--discard", "9S"), "4X"),
        (("AH", "KH", "AH", "--discard", "9S"), "AH"),
        (("AH", "KH", "4C", "--discard", "AH"), "AH"),
        (("AH", "KH", "4C", "--discard", "9S", "--opponents", "9"), "9"),
        (
            (
                "AH",
                "KH",
                "QS",
                "--discard",
                "JD",
                "--rules",
                "eenendertigen",
                "--opponents",
                "8",
                "--dead",
                "7C",
                "8C",
                "9C",
                "10C",
                "JC",
            ),
            "8 opponents",
        ),
    ],
)
def test_cli_analyze_bad_input_exits_2_with_one_line(args: tuple[str, ...], quoted: str) -> None:
    proc = run_cli("analyze", *args)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert quoted in proc.stderr


# -- display ------------------------------------------------------------------------------------


def test_display_derivation_shows_the_count_and_the_reduced_fraction() -> None:
    a = analyze(EXAMPLE_HAND, discard=EXAMPLE_UP)
    steps = derivation(a)
    first = steps[0].latex()
    assert "\\frac{3}{48}" in first
    assert "\\frac{1}{16}" in first
    assert steps[0].value == Fraction(1, 16)
    assert steps[1].value == Fraction(541, 24)
    assert a._repr_latex_().startswith("$\\begin{aligned}")


def test_C11_analysis_of_a_view_with_the_stock_exhausted() -> None:
    """From a live game whose stock is gone, the knowledge knows the stock is empty: there
    is no draw to analyse, the knock risk lets the opponent only take or pass, and the
    advice is to take (if that raises the hand) or pass."""
    state = GameState.new("classic", 2).deal(deal_order(["AH KH 4C", "2S 3S 9H"], up="QD"))
    while state.stock_size:
        state = state.apply("draw")
        assert state.drawn is not None
        state = state.apply(Action.discard(state.drawn))
    assert state.to_move is not None
    view = state.view(state.to_move)
    knowledge = Knowledge.from_view(view)
    assert knowledge.stock_size == 0
    assert len(knowledge.unseen) == 3  # exactly the opponent's hand
    result = analyze(view)
    assert result.turn.draw is None
    assert result.knock is not None and result.knock.exact
    assert result.advice.action in ("take", "pass")
    assert "C11" in result.advice.codes
    assert set(view.legal_actions) == {Action.TAKE, Action.PASS}


def test_C7_knock_risk_when_every_opponent_hand_takes_the_discard() -> None:
    """Found by the widget table's random clicks (V16-V17): the draws of the opponent hands
    that take the 5H are never final, so the largest of them may be missing from the
    finals; they used to be looked up there anyway (an IndexError). The exact count must
    agree with the brute force."""
    rules = find_rules("french-canadian")
    hand, top = cards_of("7H 2S 8H"), cards_of("5H")[0]
    dead, holds = cards_of("AD 6H JD 6D AC JH KS"), cards_of("6S")
    risk = knock_risk(Knowledge.of(hand, top, dead=dead, opponent_holds=[holds], rules=rules))
    assert (risk.p_lose_one, risk.p_lose_two) == brute_knock_one(rules, hand, top, dead, holds)
