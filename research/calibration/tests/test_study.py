"""The calibration study (research/calibration/study.py) and its command
(``python -m research.calibration.run``): the reliability statistics on small hand-made
samples; the knocks, knock chances, hand pictures and kind agreement it collects from seeded
games, recounted or checked against the games they come from; the chance of losing given the
real hands and the risk with the hands shown, on hands worked out by hand."""

from __future__ import annotations

import json
import math
import re
from dataclasses import replace
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from research.calibration import run
from research.calibration.study import (
    MAX_PLAYED,
    MAX_TOOK,
    HandPicture,
    Knock,
    collect_knocks,
    criterion_chance,
    expected_loss,
    fidelity,
    hand_fidelity,
    kind_agreement,
    knock_chances,
    knock_table,
    reliability,
    reliability_svg,
    risk_with_hands_shown,
)
from scatlab.analysis import Knowledge
from scatlab.analysis.counting.tables import tables_for
from scatlab.analysis.model.hand_filter import STRONG_PLAY, TIP_PLAY, LogFilter
from scatlab.analysis.model.observations import Observations
from scatlab.analysis.model.weights import row_weights
from scatlab.players.base import PlayerError, make_player
from scatlab.players.tournament import play_out, seating
from scatlab.rules import GameState, deal_order, find_rules, value_of
from scatlab.rules.actions import Action, ActionKind
from scatlab.rules.view import PlayerView


def test_calibration_statistics_on_a_hand_made_sample() -> None:
    knocks = [
        Knock("tip", 2, 3, {"m": p}, lost)
        for p, lost in [(0.01, False)] * 99 + [(0.01, True)] + [(0.4, True), (0.4, False)]
    ]
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
        assert chances[kind] and all(
            o in (1, 2) and 26 <= v <= 30 and 0 <= t <= MAX_PLAYED and 0 <= x <= MAX_TOOK and 0 <= k <= n
            for (o, v, t, x), (k, n) in chances[kind].items()
        )
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
        if (
            len(view.hand) == 3
            and any(a.kind is ActionKind.KNOCK for a in view.legal_actions)
            and value is not None
            and 26 <= value < 31
        ):
            played = sum(
                1
                for e in view.history
                if e.player == view.player and e.action.kind in (ActionKind.DRAW, ActionKind.TAKE)
            )
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
    assert reliability(two, "m", outcome="expected").bins[3].std_error == pytest.approx(0.1 / 2**0.5)
    assert reliability(two, "m").bins[3].std_error == pytest.approx(0.5 / 2**0.5)
    with pytest.raises(PlayerError, match="2 of 2 knocks have none"):
        reliability(plain[:2], "adaptive", outcome="expected")
    with pytest.raises(PlayerError, match="'luck' is not allowed"):
        reliability(given, "adaptive", outcome="luck")
    with pytest.raises(PlayerError, match="given_hands"):
        collect_knocks(kinds, games=1, given_hands=-1)


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
                recount.append(
                    (
                        obs.turns[i],
                        took,
                        float((w * values).sum() / w.sum()),
                        float(w[values >= 20].sum() / w.sum()),
                        float(value_of(before.hands[seat])),
                    )
                )

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
    pictures = [
        HandPicture("tip", t, took, 18.0, 0.4, real, 20)
        for t, took, real in [(1, False, 15), (1, False, 21), (1, True, 20), (9, True, 25), (7, True, 19.5)]
    ]
    groups = fidelity(pictures, max_turns=6)
    assert [(f.turns, f.took, f.hands) for f in groups] == [(1, False, 2), (1, True, 1), (6, True, 2)]
    assert groups[0].real_mean == 18 and groups[0].real_high == 0.5  # 21 counts, 15 does not
    assert groups[1].real_high == 1.0  # a hand worth exactly 20 is "at least 20"
    assert groups[2].real_high == 0.5 and groups[2].real_mean == 22.25  # 19.5 is below 20
    assert groups[0].std_error == pytest.approx((0.4 * 0.6 / 2) ** 0.5)


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
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``python -m research.calibration.run --given-hands N`` prints, per knocking kind, the
    predictions against the chance of losing given the real hands, saves each knock's chance
    in ``--json`` and pools it back with ``--from-json``; a negative N is refused in one line."""
    saved, svg = tmp_path / "run.json", tmp_path / "run.svg"
    assert (
        run.main(
            [
                "--players",
                "tip,tip",
                "--games",
                "3",
                "--seed",
                "2",
                "--samples",
                "50",
                "--given-hands",
                "10",
                "--told-model",
                "--json",
                str(saved),
                "--svg",
                str(svg),
            ]
        )
        == 0
    )
    first = capsys.readouterr().out
    assert "## knocks by tip, adaptive model, given the real hands" in first
    assert "## knocks by tip, told model\n" in first and "## knocks by tip, told model, given the real hands" in first
    assert "The model told who each opponent is beside the model in play" in first and "- knocks by tip: (" in first
    data = json.loads(saved.read_text())
    assert data["given_hands"] == 10 and all(0 <= k["expected"] <= 1 for k in data["knocks"])
    assert all(0 <= k["shown"] <= 1 for k in data["knocks"])
    assert "## knocks by tip, adaptive model, against the risk with the hands shown" in first
    assert "- knocks by tip, adaptive model: " in first and "The last-turn policy's part of the error" in first
    assert run.main(["--from-json", str(saved), str(saved), "--svg", str(svg)]) == 0
    pooled = capsys.readouterr().out
    assert f"{2 * len(data['knocks']):,} knocks pooled" in pooled and "given the real hands" in pooled
    assert "against the risk with the hands shown" in pooled
    assert run.main(["--from-json", str(saved), "--models", "adaptive", "--svg", str(svg)]) == 0
    only = capsys.readouterr().out
    assert "## knocks by tip, adaptive model\n" in only and "uniform model" not in only and "told model" not in only
    assert svg.read_text().count("tip, adaptive") == 1 and "tip, told" not in svg.read_text()
    with pytest.raises(SystemExit) as stop:
        run.main(["--from-json", str(saved), "--models", "uniform,rule", "--svg", str(svg)])
    assert stop.value.code == 2 and "--models 'uniform,rule' is not allowed" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        run.main(["--given-hands", "-1"])
    assert stop.value.code == 2 and "--given-hands must be 0 (off)" in capsys.readouterr().err


def test_kinds_agree_with_the_players_they_stand_for() -> None:
    """``kind_agreement`` over seeded games: tip takes and throws exactly as the casual kind
    (classic and quick), the expert throws as the strong kind does nine times in ten (the
    kind is a fast picture; the expert throws by its chance of winning) and takes what it
    would take nearly always (the kind's 2% slip covers most of the rest: 2 of 48 under quick,
    seed 4); the strong kind does not throw
    as tip does. The casual kind's card is the expert's about as often as the strong kind's
    (88 and 82 of 94 under classic, seed 4): the expert now throws by its chance of winning the
    game, which weighs the hand kept now more than the strong kind's picture (five turns
    ahead) does, so a throw tells an expert from a tip player less than it did."""
    for rules_name in ("classic", "quick"):
        found = {(a.player, a.kind): a for a in kind_agreement(["expert", "tip", "tip"], 4, rules=rules_name, seed=4)}
        tip, expert = found[("tip", "casual")], found[("expert", "strong")]
        assert tip.takes_worth[0] == tip.takes_worth[1] > 0 and tip.takes_other[0] == 0
        assert tip.throws[0] == tip.throws[1] > 100
        assert expert.throws[0] >= 0.85 * expert.throws[1] and expert.throws[1] > 50
        assert (
            expert.takes_worth[0] >= 0.9 * expert.takes_worth[1]
            and expert.takes_other[0] <= 0.05 * expert.takes_other[1]
        )
        assert found[("tip", "strong")].throws[0] < tip.throws[0]
        assert found[("expert", "casual")].throws[0] <= 1.1 * expert.throws[0]
