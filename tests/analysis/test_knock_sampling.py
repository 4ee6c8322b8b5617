"""The adaptive knock risk against two or more opponents: sequential importance sampling
(scatlab.analysis.model.knock._monte_carlo_weighted) against the exact answer where it can be
counted, its standard error against the spread of seeded repeats, and its effective
sample size."""

from __future__ import annotations

import statistics
from fractions import Fraction
from itertools import permutations

import numpy as np
import pytest

from scatlab.analysis import Knowledge, Observations, knock_risk
from scatlab.analysis.counting.tables import tables_for
from scatlab.analysis.model.knock import _Outcomes, _play_out
from scatlab.analysis.model.weights import row_weights
from scatlab.cards import deck, parse_cards
from scatlab.rules import find_rules


def _small_position() -> tuple[Knowledge, Observations]:
    """32 cards (V18), 10 of them unseen, two opponents who have played turns and rejected
    cards: every deal can be counted."""
    rules = find_rules("eenendertigen")
    hand, top = parse_cards("AS 10S 7D"), parse_cards("JD")[0]
    unseen = set(parse_cards("KD QD 9D 8H 9H 10H KC 7C 8S 9S"))
    dead = tuple(c for c in deck(32) if c not in unseen and c not in hand and c is not top)
    k = Knowledge(hand=hand, top=top, dead=dead, opponents=2, rules=rules)
    return k, Observations((2, 3), (parse_cards("8C"), parse_cards("JH QH")))


def _exact(k: Knowledge, obs: Observations) -> tuple[Fraction, Fraction]:
    """P(lose one), P(lose two) counted over every pair of hands with no card in common
    (weighted by the product of the adaptive weights) and every order of the stock."""
    tables = tables_for(k.rules)
    outcomes = _Outcomes(k.rules, tables.strength_of([c.index for c in k.hand]))
    w = [row_weights(k, obs, i) for i in range(2)]
    free = list(k.unseen_index)
    rows = [r for r in range(len(tables.rows)) if set(tables.rows[r].tolist()) <= set(free)]
    totals = {1: Fraction(0), 2: Fraction(0)}
    mass = Fraction(0)
    for r1 in rows:
        if w[0][r1] == 0:
            continue
        h1 = tables.rows[r1].tolist()
        for r2 in rows:
            h2 = tables.rows[r2].tolist()
            if w[1][r2] == 0 or set(h1) & set(h2):
                continue
            rest = [c for c in free if c not in h1 and c not in h2]
            orders = list(permutations(rest, 2))
            joint = Fraction(float(w[0][r1])) * Fraction(float(w[1][r2])) / len(orders)
            for stock in orders:
                lost = _play_out([h1, h2], list(stock), k.top.index if k.top else None, tables, outcomes)
                mass += joint
                if lost:
                    totals[lost] += joint
    return totals[1] / mass, totals[2] / mass


def test_sequential_importance_sampling_agrees_with_the_exact_count_for_two_opponents() -> None:
    k, obs = _small_position()
    one, two = _exact(k, obs)
    risk = knock_risk(k, observations=obs, samples=20_000, seed=5)
    assert risk.model == "adaptive" and not risk.exact
    assert risk.std_error_one is not None and risk.std_error_two is not None
    assert abs(float(risk.p_lose_one - one)) < 4 * risk.std_error_one + 1e-9, (float(one), float(risk.p_lose_one))
    assert abs(float(risk.p_lose_two - two)) < 4 * risk.std_error_two + 1e-9, (float(two), float(risk.p_lose_two))
    assert risk.effective_samples is not None and 0 < risk.effective_samples <= 20_000


def test_the_stated_standard_error_matches_the_spread_of_seeded_repeats() -> None:
    k = Knowledge.of("AH KH 4C", "9S", opponents=3)
    obs = Observations((3, 2, 4), (parse_cards("8S 2D"), (), parse_cards("QC")))
    runs = [knock_risk(k, observations=obs, samples=1500, seed=seed) for seed in range(16)]
    spread = statistics.stdev(float(r.p_lose_one) for r in runs)
    stated = statistics.mean(r.std_error_one or 0.0 for r in runs)
    assert 0.5 < spread / stated < 1.6, (spread, stated)
    assert all(r.effective_samples is not None and r.effective_samples > 1000 for r in runs)


@pytest.mark.parametrize("opponents", [4, 8])
def test_many_opponents_are_dealt_without_throwing_deals_away(opponents: int) -> None:
    """The rejection sampler retried a whole deal whenever two hands shared a card (1 in
    762 deals kept at 8 opponents); dealt one after another and weighted, every deal counts,
    and the effective sample size says how much each is worth."""
    k = Knowledge.of("AH KH 4C", "9S", opponents=opponents)
    obs = Observations((2,) * opponents, ((),) * opponents)
    risk = knock_risk(k, observations=obs, samples=400, seed=1)
    assert risk.model == "adaptive" and risk.samples == 400
    assert risk.effective_samples is not None and 200 < risk.effective_samples <= 400
    assert 0 < risk.p_lose < 1
    data = risk.to_json()
    assert data["effective_samples"] == round(risk.effective_samples, 1)


def test_the_same_seed_gives_the_same_estimate() -> None:
    k = Knowledge.of("AH KH 4C", "9S", opponents=2)
    obs = Observations((1, 2), ((), ()))
    assert knock_risk(k, observations=obs, samples=300, seed=9) == knock_risk(k, observations=obs, samples=300, seed=9)
    assert knock_risk(k, observations=obs, samples=300, seed=9) != knock_risk(k, observations=obs, samples=300, seed=10)


def test_exact_counts_are_not_sampled() -> None:
    """Against one opponent the adaptive risk is still an exact weighted count."""
    k = Knowledge.of("AH KH 4C", "9S", opponents=1)
    risk = knock_risk(k, observations=Observations((2,), ((),)))
    assert risk.exact and risk.effective_samples is None


@pytest.mark.parametrize("rules_name", ["classic", "gin", "quick", "ride-the-bus", "eenendertigen"])
def test_last_turns_played_together_match_the_one_deal_reference(rules_name: str) -> None:
    """The Monte Carlo plays every deal's last turns as arrays (``_play_out_all``): for
    seeded random deals of 1 to 8 opponents, with and without a top discard and with a
    short stock, each deal's loss is the one-deal reference's (``_play_out``): the same
    takes (C5), draws, passes with the stock gone (C11) and 31s that end the hand (C8)."""
    import random as _random

    from scatlab.analysis.counting.tables import tables_for as _tables_for
    from scatlab.analysis.model.knock import _Outcomes, _play_out, _play_out_all

    rules = find_rules(rules_name)
    tables = _tables_for(rules)
    cards = [c.index for c in deck(rules.deck_size)]
    rng = _random.Random(7)
    for n in range(1, 9):
        for top in (None, 0):
            for depth in (n, max(0, n - 2)):
                if 3 * n + depth + 4 > len(cards):  # a 32-card deck holds fewer opponents
                    continue
                hands, stocks, tops = [], [], []
                for _ in range(60):
                    pick = rng.sample(cards, 3 * n + depth + 4)
                    hands.append(pick[: 3 * n])
                    stocks.append(pick[3 * n : 3 * n + depth])
                    tops.append(None if top is None else pick[-1])
                for first in set(tops):
                    idx = [i for i, t in enumerate(tops) if t == first]
                    outcomes = _Outcomes(rules, tables.strength_of(sorted(cards[:3])))
                    together = _play_out_all(
                        np.array([hands[i] for i in idx], dtype=np.int64).reshape(len(idx), 3 * n),
                        np.array([stocks[i] for i in idx], dtype=np.int64).reshape(len(idx), depth),
                        first,
                        tables,
                        outcomes,
                    )
                    for j, i in enumerate(idx):
                        one = _play_out(
                            [hands[i][3 * k : 3 * k + 3] for k in range(n)], stocks[i], first, tables, outcomes
                        )
                        assert together[j] == one, (rules_name, n, hands[i], stocks[i], first)
