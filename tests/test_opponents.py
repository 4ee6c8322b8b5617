"""The adaptive opponent model (scatlab.analysis.opponents) and the knock risk under it.

The weighted exact count is recounted here by brute force (every opponent hand, with its
weight, and every stock card, played with the stated policy from scratch); the prior chain's
first step is recounted from the hand values; the weights are checked to move in the
documented direction when an opponent rejects a card; the uniform model reproduces the old
numbers exactly; the calibration statistics are checked on small hand-made samples.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter, defaultdict
from dataclasses import replace
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from test_analysis import (
    KNOCK_CASES,
    KNOCK_RULES,
    knock_case,
    my_key,
    my_knocker_loss,
    my_value,
    opponent_turn,
)

from scatlab.analysis import Knowledge, analyze, knock_risk
from scatlab.analysis.opponents import (
    _chain,
    _chain_for,
    CASUAL,
    PLAYER_KINDS,
    STRONG,
    Observations,
    PlayerKind,
    check_model,
    hand_weights,
    integer_weights,
    row_weights,
    turn_priors,
    with_knock_rules,
)
from scatlab.analysis.hand_filter import STRONG_PLAY, TIP_PLAY, LogFilter
from scatlab.analysis.tables import scoring_rules, tables_for
from scatlab.cards import Card, deck, parse_cards
from scatlab.errors import AnalysisError
from scatlab.players.calibration import (
    MAX_PLAYED,
    MAX_TOOK,
    HandPicture,
    Knock,
    collect_knocks,
    criterion_chance,
    expected_loss,
    fidelity,
    hand_fidelity,
    knock_chances,
    knock_table,
    reliability,
    reliability_svg,
    risk_with_hands_shown,
)
from scatlab.players.base import PlayerError, make_player
from scatlab.players.tournament import play_out, seating
from scatlab.rules import GameState, deal_order, find_rules, value_of
from scatlab.rules.actions import Action, ActionKind
from scatlab.rules.view import PlayerView

EENENDERTIGEN = find_rules("eenendertigen")


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def brute_weighted(k: Knowledge, obs: Observations) -> tuple[Fraction, Fraction]:
    """P(lose one), P(lose two) against one opponent: every candidate hand, weighted by the
    model's integer weight, and every stock card, played with the stated policy."""
    rules = k.rules
    weights = hand_weights(k, obs, 0)
    weight_of = {frozenset(int(x) for x in h): int(w) for h, w in zip(weights.hands, weights.weights)}
    holds = k.holds_of(0)
    unseen = list(k.unseen)
    knocker = my_key(k.hand, rules)
    counts: Counter[int] = Counter()
    total = 0
    for rest in combinations(unseen, 3 - len(holds)):
        opp = tuple(holds) + rest
        w = weight_of[frozenset(c.index for c in opp)]
        for s in (c for c in unseen if c not in rest):
            _, _, kept = opponent_turn(rules, opp, k.top, s)
            loss = my_knocker_loss(rules, knocker, my_key(kept, rules), my_value(kept, rules) >= 31)
            counts[loss] += w
            total += w
    return Fraction(counts[1], total), Fraction(counts[2], total)


@pytest.mark.parametrize("code", ["C7", "V8", "V9", "V14", "V16"])
def test_C7_adaptive_knock_risk_equals_weighted_brute_force(code: str) -> None:
    rules = KNOCK_RULES[code]
    checked = 0
    for hand_text, top_text, holds_text, keep_text, seed in KNOCK_CASES[:4]:
        hand, top, dead, holds = knock_case(rules, hand_text, top_text, holds_text, keep_text, seed)
        k = Knowledge.of(hand, top, dead=dead, opponent_holds=[holds] if holds else [], rules=rules)
        rejected = tuple(dead[:2])
        obs = Observations(turns=(3,), rejected=(rejected,))
        risk = knock_risk(k, opponent_model="adaptive", observations=obs)
        assert risk.exact and risk.model == "adaptive"
        assert (risk.p_lose_one, risk.p_lose_two) == brute_weighted(k, obs), (code, hand_text)
        checked += 1
    assert checked == 4


def test_adaptive_weights_are_not_all_equal_so_the_weighted_count_differs_from_uniform() -> None:
    rules = KNOCK_RULES["C7"]
    hand, top, dead, holds = knock_case(rules, "KH QH 9C", "8S", "", "", 1)
    k = Knowledge.of(hand, top, dead=dead, rules=rules)
    obs = Observations(turns=(4,), rejected=((),))
    w = hand_weights(k, obs, 0).weights
    assert len(set(w.tolist())) > 1
    assert knock_risk(k, observations=obs).p_lose != knock_risk(k, opponent_model="uniform").p_lose


def test_uniform_model_reproduces_the_readme_numbers_exactly() -> None:
    """The README's AH KH 4C / 9S facts, under the uniform model and under the adaptive one
    with nothing observed (which is the uniform model)."""
    for model in ("uniform", "adaptive"):
        a = analyze("AH KH 4C", discard="9S", opponent_model=model)
        assert a.turn.draw is not None
        assert a.turn.draw.expected_value == Fraction(541, 24)
        assert a.advice.action == "draw"
        assert a.knock is not None and a.knock.model == "uniform"
        assert "knocking now would cost 0.343 lives expected, playing on 0.227" in a.advice.reason
        assert f"{float(a.knock.expected_loss):.3f}" == "0.340"  # the knock risk's own model, shown beside
    k = Knowledge.of("AH KH QS", discard="2C")
    old = knock_risk(k, opponent_model="uniform")
    assert knock_risk(k, observations=Observations.nothing(1)) == old
    assert knock_risk(k, opponent_model="uniform", observations=Observations((5,), ((),))) == old


def test_prior_chain_first_step_matches_a_recount_from_hand_values() -> None:
    """priors[1] (up to scale): dealt uniformly; each kind of player in PLAYER_KINDS (with its
    share) knocks with the chance its curve gives the hand's value (those drop out) and 31s
    drop out; the rest play on: with the kind's ``take`` chance a random other card is
    offered face up and taken when it makes the hand stronger, else (and otherwise) one draw
    of any other card; keep the best three (drawn card back on a tie, else the lowest card);
    31s have weight 0. Recounted on the 32-card deck."""
    rules = EENENDERTIGEN
    tables = tables_for(rules)
    the_deck = deck(32)
    assert any(kind.take > 0 for kind in PLAYER_KINDS)  # the taking branch is counted
    counts: defaultdict[frozenset[int], float] = defaultdict(float)
    for hand in combinations(the_deck, 3):
        v = value_of(hand, rules)
        strength = tables.strength_of([c.index for c in hand])
        others = [d for d in the_deck if d not in hand]
        kept_after = {d: opponent_turn(rules, hand, None, d)[2] for d in others}
        helps = [d for d in others if tables.strength_of([c.index for c in kept_after[d]]) > strength]
        for kind in PLAYER_KINDS:
            goes_on = 0.0 if v >= 31 else 1.0
            for value, chance in kind.knocks:
                if value <= v < 31:
                    goes_on = 1.0 - chance
            if goes_on == 0.0:
                continue
            n = len(others)
            for d in others:  # drawn: when not offered a card, or offered one that does not help
                share = (1.0 - kind.take) / n + kind.take * (n - len(helps)) / n / n
                counts[frozenset(c.index for c in kept_after[d])] += kind.share * goes_on * share
            for d in helps:  # offered face up and taken
                counts[frozenset(c.index for c in kept_after[d])] += kind.share * goes_on * kind.take / n
    priors = turn_priors(rules)[1]
    expected = np.zeros(len(tables.rows))
    for key, n_ in counts.items():
        row = tables.row(sorted(key))
        if tables.value2[row] < 62:
            expected[row] = n_
    got = priors / priors.sum()
    want = expected / expected.sum()
    assert np.allclose(got, want, rtol=1e-9, atol=1e-15)
    assert (priors[tables.value2 >= 62] == 0).all()


def test_prior_chain_mixes_kinds_of_player_for_the_whole_hand_not_turn_by_turn() -> None:
    """After t turns the prior is the shares' mix of each kind's own chain (a kind that would
    have knocked by now counts for less): not one chain of the averaged knock chances."""
    scoring = scoring_rules(EENENDERTIGEN)
    mixed = _chain(scoring, PLAYER_KINDS).priors
    kinds = [_chain(scoring, (kind,)).priors for kind in PLAYER_KINDS]
    assert np.allclose(mixed, sum(kinds), rtol=1e-12, atol=0)
    curves = [kind.knocks for kind in PLAYER_KINDS]
    average = tuple((v, sum(kind.share * dict(kind.knocks).get(v, max((c for w, c in kind.knocks if w <= v),
                                                                        default=0.0))
                            for kind in PLAYER_KINDS)) for v in range(26, 31))
    assert curves[0] != curves[1]
    same_play = tuple(replace(kind, take=0.0) for kind in PLAYER_KINDS)  # only the knocks differ
    split = _chain(scoring, same_play).priors
    one_chain = _chain(scoring, (PlayerKind("average", 1.0, average),)).priors
    for t in (0, 1):  # the same until the kinds' survival differs...
        assert np.allclose(split[t] / split[t].sum(), one_chain[t] / one_chain[t].sum(), rtol=1e-9)
    assert not np.allclose(split[4] / split[4].sum(), one_chain[4] / one_chain[4].sum(), rtol=1e-6)  # ...not after


def test_weights_drop_by_each_kinds_factor_for_hands_a_rejected_card_would_improve() -> None:
    """An opponent who passed over (or threw) the 9H: for each kind, hands that the 9H would
    have made stronger keep that kind's ``rejection_factor(age)`` of their weight (casual:
    1/4 at any age; strong: 1/8 just now, 1 - 7/8 * 0.7**age later); others keep their
    weight. Without ages a rejection counts as just now."""
    k = Knowledge.of("2C 3C 4C", discard="9H")
    nine = cards("9H")[0]
    before = row_weights(k, Observations((5,), ((),)), 0)
    chain = _chain_for(k.rules)
    tables = tables_for(k.rules)
    jh_qh_2s = tables.row(sorted(c.index for c in cards("JH QH 2S")))  # 9H would make JH QH 9H = 29
    as_ks_qs = tables.row(sorted(c.index for c in cards("AS KS QS")))  # 9H does not help
    casual, strong = chain.kind_priors[0, 5], chain.kind_priors[1, 5]
    assert (CASUAL.lam, CASUAL.decay, STRONG.lam, STRONG.decay) == (0.25, 1.0, 0.125, 0.7)
    for ages, strong_factor in ((None, 0.125), (((0,),), 0.125), (((1,),), 1 - 0.875 * 0.7),
                                (((3,),), 1 - 0.875 * 0.7 ** 3)):
        after = row_weights(k, Observations((5,), ((nine,),), ages), 0)
        want = casual[jh_qh_2s] * 0.25 + strong[jh_qh_2s] * strong_factor
        assert after[jh_qh_2s] == pytest.approx(want, rel=1e-12)
        assert after[as_ks_qs] == before[as_ks_qs]
    assert CASUAL.rejection_factor(9) == 0.25  # a casual player's old rejections count fully


def test_observations_from_a_view_record_how_many_turns_ago_each_card_was_rejected() -> None:
    """from_view: a card thrown in an opponent's last turn, and the discard they passed over
    in that same turn, have age 0; those of the turn before, age 1."""
    g = GameState.new("classic", 3).deal(deal_order(["2S 3S 4S", "AH KH 4C", "5D 6D 8C"], up="QS"))
    g = g.apply("draw").apply("discard 4C")  # player 1 passes over the QS, throws the 4C
    g = g.apply("take").apply("discard 8C")  # player 2 takes the 4C, throws the 8C
    g = g.apply("take").apply("discard 2S")  # player 0
    g = g.apply("draw").apply("discard KH")  # player 1 passes over the 2S, throws the KH
    g = g.apply("draw").apply("discard 5D")  # player 2 passes over the KH, throws the 5D
    obs = Observations.from_view(g.view(0))
    assert obs.turns == (2, 2)
    ages = [dict(zip((str(c) for c in obs.rejected[i]), obs.ages_of(i))) for i in range(2)]
    assert ages[0] == {"KH": 0, "2S": 0, "4C": 1, "QS": 1}
    assert ages[1] == {"5D": 0, "KH": 0, "8C": 1}
    assert Observations((2,), (cards("KH 4C"),)).ages_of(0) == (0, 0)  # typed in: as if just now
    with pytest.raises(AnalysisError, match="one age per card"):
        Observations((1,), (cards("9H"),), ((0, 1),))
    with pytest.raises(AnalysisError, match="age -1"):
        Observations((1,), (cards("9H"),), ((-1,),))


def test_opponent_who_passed_over_a_heart_is_less_likely_to_hold_two_hearts() -> None:
    k = Knowledge.of("2C 3C 4C", discard="9S")
    tables = tables_for(k.rules)
    hearts = np.array([sum(1 for x in row if x // 13 == 2) >= 2 for row in tables.rows.tolist()])
    heart = [c for c in k.unseen if str(c) == "8H"][0]

    def share(obs: Observations) -> float:
        w = row_weights(k, obs, 0)
        return float(w[hearts].sum() / w.sum())

    plain = share(Observations((3,), ((),)))
    passed = share(Observations((3,), ((heart,),)))
    assert passed < plain


def test_more_turns_played_mean_stronger_opponent_hands_and_a_higher_knock_risk() -> None:
    k = Knowledge.of("KH QH 9C", discard="2S")
    tables = tables_for(k.rules)
    means = []
    for t in (0, 2, 5):
        w = row_weights(k, Observations((t,), ((),)), 0)
        means.append(float((w * tables.value2).sum() / w.sum()) / 2)
    assert means[0] < means[1] < means[2]
    risks = [knock_risk(k, observations=Observations((t,), ((),))).p_lose for t in (1, 3, 6)]
    assert risks[0] < risks[1] < risks[2]


def test_known_cards_are_in_every_candidate_hand_and_seen_cards_in_none() -> None:
    k = Knowledge.of("KH QH 9C", discard="2S", dead="3D 4D", opponent_holds=["5C"])
    w = hand_weights(k, Observations((2,), ((),)), 0)
    assert (w.hands[:, 0] == cards("5C")[0].index).all()
    seen = {c.index for c in (*k.hand, k.top, *k.dead) if c is not None}
    assert not seen & set(w.hands.ravel().tolist())
    assert (w.weights > 0).all()


def test_observations_from_a_view_read_turns_throws_and_passed_over_discards() -> None:
    g = GameState.new("classic", 3).deal(deal_order(["2S 3S 4S", "AH KH 4C", "5D 6D 8C"], up="QS"))
    g = g.apply("draw").apply("discard 4C")  # player 1 passes over the QS, throws the 4C
    g = g.apply("take").apply("discard 8C")  # player 2 takes the 4C, throws the 8C
    obs = Observations.from_view(g.view(0))
    assert obs.turns == (1, 1)
    assert set(obs.rejected[0]) == set(cards("QS 4C"))
    assert obs.rejected[1] == cards("8C")


def test_monte_carlo_under_the_adaptive_model_is_seeded_and_reports_its_error() -> None:
    k = Knowledge.of("AH KH QS", discard="2C", opponents=2)
    obs = Observations((3, 3), ((), ()))
    a = knock_risk(k, samples=1_000, seed=3, observations=obs)
    b = knock_risk(k, samples=1_000, seed=3, observations=obs)
    assert a == b and not a.exact and a.model == "adaptive" and a.samples == 1_000
    assert a.std_error_one is not None and 0 < a.std_error_one < 0.02
    uniform = knock_risk(k, samples=1_000, seed=3, opponent_model="uniform")
    assert a.p_lose > uniform.p_lose  # opponents who played three turns hold better hands


def test_bad_opponent_model_name_is_refused_with_the_accepted_names() -> None:
    with pytest.raises(AnalysisError, match="'kind'.*'uniform' or 'adaptive'"):
        check_model("kind")
    with pytest.raises(AnalysisError, match="observations are for 2 opponents"):
        knock_risk(Knowledge.of("AH KH QS", "2C"), observations=Observations.nothing(2))


def test_integer_weights_keep_every_possible_hand() -> None:
    w = integer_weights(np.array([3.0, 1e-30, 0.0]))
    assert w.tolist() == [1 << 24, 1, 0]


def test_calibration_statistics_on_a_hand_made_sample() -> None:
    knocks = [Knock("tip", 2, 3, {"m": p}, lost) for p, lost in
              [(0.01, False)] * 99 + [(0.01, True)] + [(0.4, True), (0.4, False)]]
    r = reliability(knocks, "m")
    assert r.knocks == 101 + 1
    low = next(b for b in r.bins if b.low == 0.0)
    assert low.knocks == 100 and low.observed == pytest.approx(0.01) and low.predicted == pytest.approx(0.01)
    assert r.observed == pytest.approx(2 / 102)
    assert r.brier == pytest.approx((99 * 0.01**2 + 0.99**2 + 0.6**2 + 0.4**2) / 102)
    svg = reliability_svg([("m", r)], "test", min_knocks=2)
    assert svg.count("<circle") == 2 and "not drawn" not in svg
    svg = reliability_svg([("m", r)], "test")  # the bin of 2 knocks (0.4) is below the default 20
    assert svg.count("<circle") == 1 and "bins of fewer than 20 knocks are not drawn" in svg
    with pytest.raises(PlayerError, match="min_knocks=0 is not allowed"):
        reliability_svg([("m", r)], "test", min_knocks=0)


def test_knock_chances_count_each_allowed_knock_by_opponents_left_value_turns_played_and_cards_taken() -> None:
    """``knock_chances`` (what the strong kind's knock chances are measured with) counts
    every start of a turn where a knock was allowed with 26 to 30, split by the opponents
    still in, the turns played before it (7 or more together) and the cards the others had
    taken from the pile (3 or more together): tip knocks every time, the expert not always,
    and a 3-player game has turns against two opponents and, once a player is out, against
    one. ``knock_table`` turns one kind's counts into a filter kind's knock chances (the
    cards taken summed over), each cell shrunk toward its value's share over all turns."""
    chances = knock_chances(["expert", "tip", "tip"], games=6, seed=3)
    for kind in ("expert", "tip"):
        assert chances[kind] and all(o in (1, 2) and 26 <= v <= 30 and 0 <= t <= MAX_PLAYED and 0 <= x <= MAX_TOOK
                                     and 0 <= k <= n for (o, v, t, x), (k, n) in chances[kind].items())
    assert all(k == n for k, n in chances["tip"].values())
    assert {c[0] for c in chances["tip"]} == {1, 2}
    assert {c[2] for c in chances["tip"]} >= {1, 2, 3}
    assert {c[3] for c in chances["tip"]} >= {0, 1, 2}
    assert sum(k for k, _ in chances["expert"].values()) < sum(n for _, n in chances["expert"].values())
    table = knock_table(chances["tip"], 2)
    assert [v for v, _ in table] == sorted({c[1] for c in chances["tip"] if c[0] == 2})
    assert all(len(row) == MAX_PLAYED + 1 and set(row) == {0.99} for _, row in table)  # always: 99% at most
    counts = {(1, 28, 0, 0): (2, 2), (1, 28, 0, 3): (1, 2), (1, 28, 2, 1): (0, 4)}  # 3 of 8 over all turns
    table = knock_table(counts, 1, prior=4)
    assert table == ((28, (0.56, 0.38, 0.19, 0.38, 0.38, 0.38, 0.38, 0.38)),)
    assert knock_table(counts, 2) == ()


def test_knock_chances_count_the_cards_the_other_players_took_in_the_hand() -> None:
    """The ``took`` of each counted turn is the number of cards the *other* players had
    taken from the pile earlier in the same hand (the player's own takes and earlier hands'
    do not count), 3 or more together: recounted here from the actions as they are played."""
    kinds = ["tip", "tip", "tip"]
    expected: dict[tuple[int, int, int, int], tuple[int, int]] = {}
    taken: dict[int, int] = {}

    def observe(before, entrant, view, action, after) -> None:  # type: ignore[no-untyped-def]
        if not view.history:
            taken.clear()  # a new hand
        value = view.value
        if len(view.hand) == 3 and any(a.kind is ActionKind.KNOCK for a in view.legal_actions) \
                and value is not None and 26 <= value < 31:
            played = sum(1 for e in view.history
                         if e.player == view.player and e.action.kind in (ActionKind.DRAW, ActionKind.TAKE))
            others = sum(n for p, n in taken.items() if p != view.player)
            key = (len(view.opponents), int(value), min(played, MAX_PLAYED), min(others, MAX_TOOK))
            k, n = expected.get(key, (0, 0))
            expected[key] = (k + (action.kind is ActionKind.KNOCK), n + 1)
        if action.kind is ActionKind.TAKE:
            taken[view.player] = taken.get(view.player, 0) + 1

    players = [make_player(k) for k in kinds]
    for game in range(4):
        play_out(players, kinds, find_rules("classic"), 9, game, observe)
    counted = knock_chances(kinds, games=4, seed=9)["tip"]
    assert counted == expected and {c[3] for c in counted} == set(range(MAX_TOOK + 1))


def test_criterion_chance_is_how_often_a_right_model_keeps_every_big_bin_within_two_points() -> None:
    """``criterion_chance``: bins of fewer than 200 knocks do not count; certain predictions
    always pass; 250 coin flips land within 2 points of one half about 47% of the time
    (|z| <= 0.63); two such bins must both pass; seeded, so the same every run."""
    def knocks(p: float, n: int) -> list[Knock]:
        return [Knock("tip", 1, 0, {"m": p}, False)] * n

    assert criterion_chance([knocks(0.5, 199)], "m", runs=200) == 1.0
    assert criterion_chance([knocks(0.0, 400), knocks(1.0, 300)], "m", runs=50) == 1.0
    one = criterion_chance([knocks(0.5, 250)], "m", runs=2000)
    assert 0.42 < one < 0.52 and one == criterion_chance([knocks(0.5, 250)], "m", runs=2000)
    both = criterion_chance([knocks(0.5, 250), knocks(0.4, 250)], "m", runs=2000)
    assert 0.15 < both < 0.3
    assert criterion_chance([knocks(0.5, 250)], "m", runs=2000, tolerance=0.2) == 1.0


def test_calibration_collects_every_knock_with_its_outcome() -> None:
    knocks = collect_knocks(["tip", "tip", "tip"], games=2, seed=4, samples=100)
    assert knocks and all(set(k.predicted) == {"uniform", "adaptive"} for k in knocks)
    assert all(k.opponents in (1, 2) for k in knocks)
    assert collect_knocks(["tip", "tip", "tip"], games=2, seed=4, samples=100) == knocks


def test_expected_loss_is_the_knockers_chance_of_losing_over_the_orders_of_the_stock_C7_C8() -> None:
    """``expected_loss``: seat 1 knocks 30 in spades; seat 2 (AH KH 5C, a tip) draws next and
    makes 31 with the 10, J or Q of hearts (C8: the knocker loses), ties at 30 with the 9H
    (C7: the knocker is safe in a tie); seat 0 cannot reach 30. So the chance is 3 in the 42
    stock cards: exactly, over every order of the two cards the last turns draw; over 60
    sampled orders a multiple of 1/60, the same for the same seed. Refused (PlayerError
    quoting it): a moment that is not just after that player's knock, a player per seat
    missing, no orders."""
    tips = [make_player("tip") for _ in range(3)]
    s = GameState.new("classic", 3).deal(deal_order(["2D 3D 4C", "AS KS 9S", "AH KH 5C"], up="2C"))
    after = s.apply("knock")
    assert len(after.stock) == 42 and after.knocker == 1
    assert expected_loss(after, 1, tips, orders=42 * 41) == Fraction(3, 42)
    sampled = expected_loss(after, 1, tips, orders=60, seed=5)
    assert (sampled * 60).denominator == 1 and sampled == expected_loss(after, 1, tips, orders=60, seed=5)
    assert abs(sampled - 3 / 42) < 0.1
    with pytest.raises(PlayerError, match="just after player 1's knock"):
        expected_loss(s, 1, tips)
    with pytest.raises(PlayerError, match="just after player 2's knock"):
        expected_loss(after, 2, tips)
    with pytest.raises(PlayerError, match="one player per seat"):
        expected_loss(after, 1, tips[:2])
    with pytest.raises(PlayerError, match="orders"):
        expected_loss(after, 1, tips, orders=0)


def test_risk_with_hands_shown_follows_the_stated_last_turn_policy_not_the_real_player_C6_C7_C8() -> None:
    """``risk_with_hands_shown``: the knock risk with the opponents' real hands shown to it.
    Seat 1 knocks 25 in clubs against AS 8S 10H with the AH face up. The stated last-turn
    policy takes the AH (the 10H and AH make 21) and cannot reach 25: no risk. The real tip
    collects spades, so it draws and beats 25 with the 7, 9, 10, J, Q or K of spades (6 of
    the 45 stock cards): what is left between the two is the policy's error, not the
    picture's. Against two opponents it is a seeded Monte Carlo over the stock (C8: the
    tip's 10H JH QH make 31 before seat 0 plays). Refused: not a view, a hand per opponent
    missing."""
    s = GameState.new("classic", 2).deal(deal_order(["AS 8S 10H", "KC QC 5C"], up="AH"))
    tips = [make_player("tip"), make_player("tip")]
    assert risk_with_hands_shown(s.view(1), [s.hands[0]]) == 0
    assert expected_loss(s.apply("knock"), 1, tips) == Fraction(6, 45)
    three = GameState.new("classic", 3).deal(deal_order(["2D 3D 4C", "AS KS 9S", "AH KH 5C"], up="2C"))
    view = three.view(1)
    risk = risk_with_hands_shown(view, [three.hands[p] for p in view.opponents], samples=4000, seed=3)
    assert risk == risk_with_hands_shown(view, [three.hands[p] for p in view.opponents], samples=4000, seed=3)
    assert (risk * 4000).denominator == 1 and abs(risk - Fraction(3, 42)) < 0.015
    with pytest.raises(PlayerError, match="PlayerView"):
        risk_with_hands_shown(three, [])  # type: ignore[arg-type]
    with pytest.raises(PlayerError, match="one hand per opponent"):
        risk_with_hands_shown(view, [three.hands[2]])
    with pytest.raises(PlayerError, match="one hand per opponent"):
        risk_with_hands_shown(view, 2)  # type: ignore[arg-type]


def test_calibration_given_the_real_hands_leaves_the_games_as_they_were() -> None:
    """``collect_knocks(..., given_hands=N)`` plays the same games and makes the same
    predictions with the same outcomes, and adds each knock's chance of losing given the real
    hands; ``reliability(..., outcome="expected")`` compares the predictions with it (its
    standard error from the spread of those chances) and refuses knocks without one."""
    kinds = ["expert", "tip", "tip"]
    plain = collect_knocks(kinds, games=2, seed=4, samples=100)
    given = collect_knocks(kinds, games=2, seed=4, samples=100, given_hands=30)
    assert [replace(k, expected=None, shown=None) for k in given] == plain
    assert all(k.expected is not None and 0 <= k.expected <= 1 for k in given)
    assert all(k.shown is not None and 0 <= k.shown <= 1 for k in given)
    shown_hands = reliability(given, "adaptive", outcome="shown")
    assert shown_hands.observed == pytest.approx(sum(k.shown or 0.0 for k in given) / len(given))
    assert "risk with the real hands shown" in shown_hands.table()
    with pytest.raises(PlayerError, match="risk with the hands shown"):
        reliability(plain[:2], "adaptive", outcome="shown")
    r = reliability(given, "adaptive", outcome="expected")
    assert r.outcome == "expected" and r.predicted == reliability(plain, "adaptive").predicted
    assert r.observed == pytest.approx(sum(k.expected or 0.0 for k in given) / len(given))
    assert "expected given the real hands" in r.table()
    two = [Knock("tip", 1, 0, {"m": 0.1}, True, (), 0.3), Knock("tip", 1, 0, {"m": 0.1}, False, (), 0.1)]
    assert reliability(two, "m", outcome="expected").bins[3].std_error == pytest.approx(0.1 / 2 ** 0.5)
    assert reliability(two, "m").bins[3].std_error == pytest.approx(0.5 / 2 ** 0.5)
    with pytest.raises(PlayerError, match="2 of 2 knocks have none"):
        reliability(plain[:2], "adaptive", outcome="expected")
    with pytest.raises(PlayerError, match="'luck' is not allowed"):
        reliability(given, "adaptive", outcome="luck")
    with pytest.raises(PlayerError, match="given_hands"):
        collect_knocks(kinds, games=1, given_hands=-1)


def _rule_against_real_knocks(kinds: list[str], games: int) -> Counter[tuple[bool, bool]]:
    """At every turn at which an expert could knock with 26 to 30.5, as the next non-expert
    player saw it: (the rule that ``Observations.from_view`` attaches to that turn knocks with
    the expert's real hand, the expert knocked)."""
    rules = find_rules("classic")
    players = [make_player(k) for k in kinds]
    tables = tables_for(rules)
    seen: Counter[tuple[bool, bool]] = Counter()
    for game in range(games):
        hands: defaultdict[tuple[int, int], list[int]] = defaultdict(list)

        def observe(before: GameState, entrant: int, view: PlayerView, action: Action, after: GameState) -> None:
            if action.kind not in (ActionKind.DRAW, ActionKind.TAKE, ActionKind.KNOCK):
                return
            if kinds[entrant] == "expert":
                hands[(len(before.results), view.player)].append(tables.row(sorted(c.index for c in view.hand)))
                return
            obs = Observations.from_view(view)
            assert obs.log is not None
            filt = LogFilter.of(rules, heads_up=len(view.opponents) == 1, two_players=len(kinds) == 2)
            for i, seat in enumerate(view.opponents):
                log, rows = obs.log[i], hands.get((len(before.results), seat), [])
                if not log or len(rows) != len(log) or not log[-1].may_knock or not 52 <= tables.value2[rows[-1]] < 62:
                    continue  # not an expert, or its last turn allowed no knock or was below 26
                rule = log[-1].knock_rule
                assert rule is not None
                seen[(bool(filt.rule_knocks(rule, 0.02)[rows[-1]] > 0.5), log[-1].action == "knock")] += 1

        play_out(players, kinds, rules, 31, game, observe)
    return seen


def test_knock_rules_match_every_knock_decision_of_the_expert_in_games_of_two_C6() -> None:
    """``with_knock_rules`` works out, from what everyone could see, the rule the expert knocks by
    (C6): in seeded games dealt to the expert and a tip, at every turn at which the expert
    could knock with 26 to 30.5, the rule read at its real hand knocks exactly when it did
    (both decisions occur)."""
    seen = _rule_against_real_knocks(["expert", "tip"], 8)
    assert set(seen) == {(True, True), (False, False)} and sum(seen.values()) >= 20


def test_knock_rules_mostly_match_the_expert_against_two_opponents() -> None:
    """Against two opponents the rule misses some of the expert's decisions (the pictures
    do not rule out the cards the expert held or saw; the README gives the share measured
    over more games), but agrees on most of them, both ways."""
    seen = _rule_against_real_knocks(["expert", "tip", "tip"], 6)
    agree = seen[(True, True)] + seen[(False, False)]
    assert seen[(True, True)] and seen[(False, False)] and agree >= 0.85 * sum(seen.values())


def test_knock_rules_refuse_a_view_or_observations_not_from_a_game() -> None:
    s = GameState.new("classic", 2).deal(deal_order(["AH KH 4C", "2S 3S 9H"], up="QH"))
    with pytest.raises(AnalysisError, match="with_knock_rules needs a PlayerView, not 'view'"):
        with_knock_rules("view", Observations.nothing(1))  # type: ignore[arg-type]
    with pytest.raises(AnalysisError, match="read from the game's log"):
        with_knock_rules(s.view(0), Observations.nothing(1))
    with pytest.raises(AnalysisError, match="valuation=0.5 is not allowed: a KnockValuation or None"):
        with_knock_rules(s.view(0), Observations.from_view(s.view(0)), 0.5)  # type: ignore[arg-type]
    with pytest.raises(AnalysisError, match="knock_rules='yes' is not allowed: use True or False"):
        Observations.from_view(s.view(0), knock_rules="yes")  # type: ignore[arg-type]


def test_knock_rules_are_read_from_public_facts_the_same_for_every_viewer_C6() -> None:
    """The rule on an opponent's turn is worked out from public facts only: in a seeded
    3-player game every player who sees a turn (the other two) attaches the same rule to it,
    the rules are added exactly on the turns at which a knock was allowed (and the rest of
    each turn is as read without rules), and the rules cached turn by turn are those worked
    out afresh."""
    from scatlab.analysis import opponents

    kinds = ["expert", "tip", "tip"]
    views: list[PlayerView] = []

    def observe(before: GameState, entrant: int, view: PlayerView, action: Action, after: GameState) -> None:
        if not before.results and action.kind in (ActionKind.DRAW, ActionKind.TAKE, ActionKind.KNOCK):
            views.append(view)

    play_out([make_player(k) for k in kinds], kinds, find_rules("classic"), 3, 0, observe)
    last = views[-1]
    state_seats = [last.player, *last.opponents]
    rules_seen: dict[tuple[int, int], object] = {}
    for seat in state_seats:
        later = [v for v in views if v.player == seat][-1]
        plain = Observations.from_view(later, knock_rules=False)
        ruled = Observations.from_view(later)
        assert plain.log is not None and ruled.log is not None
        for p, a, b in zip(later.opponents, plain.log, ruled.log):
            assert [replace(t, knock_rule=None) for t in b] == list(a)
            assert [t.knock_rule is not None for t in b] == [t.may_knock for t in a]
            for n, t in enumerate(b):
                rules_seen.setdefault((p, n), t.knock_rule)
                assert rules_seen[(p, n)] == t.knock_rule  # the same whoever looks
    forward = [Observations.from_view(v) for v in views]  # the cache filled turn by turn, as in play
    opponents._RULE_CACHE.clear()
    backward = [Observations.from_view(v) for v in reversed(views)]  # each rule worked out afresh
    assert backward[::-1] == forward


def test_calibration_with_the_table_model_adds_the_previous_models_prediction() -> None:
    """``collect_knocks(..., table_model=True)`` plays the same games with the same
    predictions and adds the model ``"table"`` (the strong kind knocking by its measured
    chances, not by the expert's rule), which differs from the adaptive model's at some of
    tip's knocks against the expert."""
    kinds = ["expert", "tip"]
    plain = collect_knocks(kinds, games=2, seed=4, samples=100)
    tabled = collect_knocks(kinds, games=2, seed=4, samples=100, table_model=True)
    assert [replace(k, predicted={m: p for m, p in k.predicted.items() if m != "table"}) for k in tabled] == plain
    assert all(0 <= k.predicted["table"] <= 1 for k in tabled)
    assert any(abs(k.predicted["table"] - k.predicted["adaptive"]) > 1e-6 for k in tabled if k.kind == "tip")
    with pytest.raises(PlayerError, match=re.escape("table_model='yes' is not allowed")):
        collect_knocks(kinds, games=1, table_model="yes")  # type: ignore[arg-type]


def test_hand_fidelity_pictures_every_opponent_at_every_knock_from_the_knockers_view() -> None:
    """One picture per opponent per knock (the same knocks the calibration collects), seeded
    like them; and before anything is seen the weights a picture is made of are the uniform
    model's (every unseen hand alike, a 31 left out)."""
    kinds = ["expert", "tip", "tip"]
    pictures = hand_fidelity(kinds, games=2, seed=4)
    knocks = collect_knocks(kinds, games=2, seed=4, samples=10)
    assert len(pictures) == sum(k.opponents for k in knocks)
    assert [p.kind for p in pictures] == [kind for k in knocks for kind in k.against]
    assert hand_fidelity(kinds, games=2, seed=4) == pictures
    # recount each picture from the knocker's view: the weights' mean value and share of
    # hands worth 20 or more, the real hand's value, and whether the opponent took a card
    recount: list[tuple[int, bool, float, float, float]] = []

    def observe(before: GameState, entrant: int, view: PlayerView, action: Action, after: GameState) -> None:
        if action.kind is ActionKind.KNOCK:
            knowledge, obs = Knowledge.from_view(view), Observations.from_view(view)
            for i, seat in enumerate(view.opponents):
                w = row_weights(knowledge, obs, i)
                values = tables.value2 / 2
                took = any(e.player == seat and e.action.kind is ActionKind.TAKE for e in view.history)
                recount.append((obs.turns[i], took, float((w * values).sum() / w.sum()),
                                float(w[values >= 20].sum() / w.sum()), float(value_of(before.hands[seat]))))

    tables = tables_for(find_rules("classic"))
    players = [make_player(kind) for kind in kinds]
    for game in range(2):
        play_out(players, kinds, find_rules("classic"), 4, game, observe)
    assert len(recount) == len(pictures)
    for p, (turns, took, mean, high, real) in zip(pictures, recount):
        assert (p.turns, p.took, p.real) == (turns, took, real)
        assert p.model_mean == pytest.approx(mean, rel=1e-12) and p.model_high == pytest.approx(high, abs=1e-12)
    assert {p.took for p in pictures} == {True, False}
    g = GameState.new("classic", 2).deal(deal_order(["2S 3S 4S", "AH KH 4C"], up="QS"))
    view = g.view(0)
    k = Knowledge.from_view(view)
    w = row_weights(k, Observations.from_view(view), 0)
    tables = tables_for(k.rules)
    unseen = [c.index for c in k.unseen]
    hands = [r for r in (tables.row(sorted(h)) for h in combinations(unseen, 3)) if tables.value2[r] < 62]
    assert np.count_nonzero(w) == len(hands)  # nothing seen yet: every unseen hand but a 31 (C8), alike
    assert np.allclose(w[hands], w[hands[0]])


def test_hand_fidelity_chain_pictures_the_same_knocks_without_the_log() -> None:
    """``chain=True`` pictures the same opponents at the same knocks (same real hands) with
    the weights the model gives without the order of the turns, recounted here."""
    kinds = ["expert", "tip", "tip"]
    log = hand_fidelity(kinds, games=2, seed=4)
    chain = hand_fidelity(kinds, games=2, seed=4, chain=True)
    assert [(p.kind, p.turns, p.took, p.real) for p in chain] == [(p.kind, p.turns, p.took, p.real) for p in log]
    assert any(abs(a.model_mean - b.model_mean) > 0.1 for a, b in zip(chain, log))
    means: list[float] = []

    def observe(before: GameState, entrant: int, view: PlayerView, action: Action, after: GameState) -> None:
        if action.kind is ActionKind.KNOCK:
            knowledge, obs = Knowledge.from_view(view), replace(Observations.from_view(view), log=None)
            for i in range(len(view.opponents)):
                w = row_weights(knowledge, obs, i)
                means.append(float((w * tables.value2 / 2).sum() / w.sum()))

    tables = tables_for(find_rules("classic"))
    players = [make_player(kind) for kind in kinds]
    for game in range(2):
        play_out(players, kinds, find_rules("classic"), 4, game, observe)
    assert [p.model_mean for p in chain] == pytest.approx(means, rel=1e-12)


def test_hand_fidelity_told_model_pictures_each_tip_as_exactly_the_tip_player() -> None:
    """``told_model=True`` pictures the same opponents at the same knocks with the filter told
    who each one is (a tip as ``TIP_PLAY``, recounted here); it refuses players the filter
    cannot be told, the chain beside it, and flags that are not booleans."""
    kinds = ["expert", "tip", "tip"]
    plain = hand_fidelity(kinds, games=2, seed=4)
    told = hand_fidelity(kinds, games=2, seed=4, told_model=True)
    assert [(p.kind, p.turns, p.took, p.real) for p in told] == [(p.kind, p.turns, p.took, p.real) for p in plain]
    assert any(abs(a.model_mean - b.model_mean) > 1e-6 for a, b in zip(told, plain))
    means: list[float] = []

    def observe(before: GameState, entrant: int, view: PlayerView, action: Action, after: GameState) -> None:
        if action.kind is ActionKind.KNOCK:
            knowledge = Knowledge.from_view(view)
            filt = LogFilter.of(find_rules("classic"), (TIP_PLAY, STRONG_PLAY), heads_up=len(view.opponents) == 1)
            obs = Observations.from_view(view, knock_rules=False)
            assert obs.log is not None
            for i, seat in enumerate(view.opponents):
                if kinds[seat_entrant[seat]] != "tip":
                    means.append(math.nan)
                    continue
                exact = filt.weights(obs.log[i], (1.0, 0.0))
                avail = sum(1 << c for c in knowledge.unseen_index) | sum(1 << c.index for c in knowledge.holds_of(i))
                held = sum(1 << c.index for c in knowledge.holds_of(i))
                masks = tables.cards_mask
                mask = ((masks & ~np.int64(avail)) == 0) & ((masks & np.int64(held)) == held)
                e = np.where(mask, exact, 0.0)
                means.append(float((e * tables.value2 / 2).sum() / e.sum()))

    tables = tables_for(find_rules("classic"))
    players = [make_player(kind) for kind in kinds]
    for game in range(2):
        seats, _ = seating(game, len(kinds))
        seat_entrant = {s: i for i, s in enumerate(seats)}
        play_out(players, kinds, find_rules("classic"), 4, game, observe)
    tips = [(p.model_mean, m) for p, m in zip(told, means) if p.kind == "tip"]
    assert tips and [a for a, _ in tips] == pytest.approx([b for _, b in tips], rel=1e-9)
    with pytest.raises(PlayerError, match="told_model needs every player to be one of tip, expert"):
        hand_fidelity(["expert", "simple"], games=1, told_model=True)
    with pytest.raises(PlayerError, match="chain and told_model cannot go together"):
        hand_fidelity(kinds, games=1, chain=True, told_model=True)
    with pytest.raises(PlayerError, match="told_model='yes' is not allowed: use True or False"):
        hand_fidelity(kinds, games=1, told_model="yes")  # type: ignore[arg-type]


def test_fidelity_groups_by_kind_turns_and_taking_with_the_share_of_high_hands() -> None:
    pictures = [HandPicture("tip", t, took, 18.0, 0.4, real, 20)
                for t, took, real in [(1, False, 15), (1, False, 21), (1, True, 20), (9, True, 25), (7, True, 19.5)]]
    groups = fidelity(pictures, max_turns=6)
    assert [(f.turns, f.took, f.hands) for f in groups] == [(1, False, 2), (1, True, 1), (6, True, 2)]
    assert groups[0].real_mean == 18 and groups[0].real_high == 0.5  # 21 counts, 15 does not
    assert groups[1].real_high == 1.0  # a hand worth exactly 20 is "at least 20"
    assert groups[2].real_high == 0.5 and groups[2].real_mean == 22.25  # 19.5 is below 20
    assert groups[0].std_error == pytest.approx((0.4 * 0.6 / 2) ** 0.5)


def test_C7_adaptive_knock_risk_with_a_fully_known_opponent_hand_matches_brute_force() -> None:
    """All three of the opponent's cards known (taken from the pile): one candidate hand."""
    rules = KNOCK_RULES["C7"]
    hand, top, dead, holds = knock_case(rules, "KH QH 9C", "8S", "7D 8D 10D", "", 7, unseen_count=10)
    k = Knowledge.of(hand, top, dead=dead, opponent_holds=[holds], rules=rules)
    obs = Observations((4,), (tuple(dead[:1]),))
    risk = knock_risk(k, observations=obs)
    assert (risk.p_lose_one, risk.p_lose_two) == brute_weighted(k, obs)
    two = Knowledge.of(hand, top, dead=dead[2:], opponent_holds=[holds], opponents=2, rules=rules)
    assert 0 <= knock_risk(two, samples=200, observations=Observations((4, 2), ((), ()))).p_lose <= 1


@pytest.mark.parametrize("model", ["uniform", "adaptive"])
def test_C8_knock_risk_when_every_opponent_hand_takes_the_discard(model: str) -> None:
    """The opponent holds 2♠ 3♠ 4♥ (taken from the pile) and the 5♠ is on top: every
    candidate hand takes it (10 beats 5), though some draws would have made more; the
    knocker's 5 is lowest and loses two lives (C7)."""
    k = Knowledge.of("2C 3C 4D", discard="5S", opponent_holds=["2S 3S 4H"])
    obs = Observations((3,), ((),)) if model == "adaptive" else None
    risk = knock_risk(k, opponent_model=check_model(model), observations=obs)
    assert (risk.p_lose_one, risk.p_lose_two) == (Fraction(0), Fraction(1))


def test_told_model_pictures_each_opponent_as_the_player_it_is() -> None:
    """``collect_knocks(..., told_model=True)`` also predicts with the model told who each
    opponent is (a tip as exactly the tip player, an expert as the strong kind): on the same
    knocks as the model in play, a chance from 0 to 1, and where it differs it is because of
    the kinds alone; other players, or a flag that is not True or False, are refused."""
    plain = collect_knocks(["expert", "tip", "tip"], games=2, seed=3, samples=100)
    told = collect_knocks(["expert", "tip", "tip"], games=2, seed=3, samples=100, told_model=True)
    assert [k.predicted["adaptive"] for k in told] == [k.predicted["adaptive"] for k in plain]
    assert all(0 <= k.predicted["told"] <= 1 for k in told) and len(told) > 5
    assert any(k.predicted["told"] != k.predicted["adaptive"] for k in told)
    with pytest.raises(PlayerError, match="told_model needs every player to be one of tip, expert"):
        collect_knocks(["expert", "simple"], games=1, told_model=True)
    with pytest.raises(PlayerError, match="told_model='yes' is not allowed: use True or False"):
        collect_knocks(["tip", "tip"], games=1, told_model="yes")  # type: ignore[arg-type]


def test_calibrate_script_given_hands_prints_and_pools_the_chances_given_the_real_hands(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``benchmarks/calibrate.py --given-hands N`` prints, per knocking kind, the predictions
    against the chance of losing given the real hands, saves each knock's chance in ``--json``
    and pools it back with ``--from-json``; a negative N is refused in one line."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("calibrate", Path(__file__).parent.parent / "benchmarks" / "calibrate.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    saved, svg = tmp_path / "run.json", tmp_path / "run.svg"
    assert script.main(["--players", "tip,tip", "--games", "3", "--seed", "2", "--samples", "50",
                        "--given-hands", "10", "--told-model", "--json", str(saved), "--svg", str(svg)]) == 0
    first = capsys.readouterr().out
    assert "## knocks by tip, adaptive model, given the real hands" in first
    assert "## knocks by tip, told model\n" in first and "## knocks by tip, told model, given the real hands" in first
    assert "The model told who each opponent is beside the model in play" in first and "- knocks by tip: (" in first
    data = json.loads(saved.read_text())
    assert data["given_hands"] == 10 and all(0 <= k["expected"] <= 1 for k in data["knocks"])
    assert all(0 <= k["shown"] <= 1 for k in data["knocks"])
    assert "## knocks by tip, adaptive model, against the risk with the hands shown" in first
    assert "- knocks by tip, adaptive model: " in first and "The last-turn policy's part of the error" in first
    assert script.main(["--from-json", str(saved), str(saved), "--svg", str(svg)]) == 0
    pooled = capsys.readouterr().out
    assert f"{2 * len(data['knocks']):,} knocks pooled" in pooled and "given the real hands" in pooled
    assert "against the risk with the hands shown" in pooled
    assert script.main(["--from-json", str(saved), "--models", "adaptive", "--svg", str(svg)]) == 0
    only = capsys.readouterr().out
    assert "## knocks by tip, adaptive model\n" in only and "uniform model" not in only and "told model" not in only
    assert svg.read_text().count("tip, adaptive") == 1 and "tip, told" not in svg.read_text()
    with pytest.raises(SystemExit) as stop:
        script.main(["--from-json", str(saved), "--models", "uniform,rule", "--svg", str(svg)])
    assert stop.value.code == 2 and "--models 'uniform,rule' is not allowed" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        script.main(["--given-hands", "-1"])
    assert stop.value.code == 2 and "--given-hands must be 0 (off)" in capsys.readouterr().err
