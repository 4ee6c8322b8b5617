"""The exact posterior of the opponents' hands (research.calibration.study.posterior_risk),
by rejection sampling from the real deal (the hand dealt again, research.calibration.deals).

The posterior is the yardstick for the adaptive model's picture of the hands with no model
of how opponents play but the players themselves: where nothing was seen it must agree with
the uniform model, and where a tip was seen it must agree with the model told that the
opponent is a tip (the filter's ``TIP_PLAY``), whose every factor is the tip's own."""

from __future__ import annotations

import pytest

from research.calibration import run
from research.calibration.study import (
    MIN_KEPT,
    PosteriorCheck,
    PosteriorRisk,
    _told,
    posterior_checks,
    posterior_risk,
    posterior_table,
)
from scatlab.analysis import Knowledge, knock_risk
from scatlab.analysis.model.observations import Observations
from scatlab.players import make_player
from scatlab.players.base import PlayerError
from scatlab.rules import GameState, deal_order

TIPS = [make_player("tip"), make_player("tip")]


def _told_risk(state: GameState) -> float:
    view = state.view(state.to_move if state.to_move is not None else 0)
    told = _told(Observations.from_view(view), ["tip"] * len(view.opponents))
    return float(knock_risk(Knowledge.from_view(view), observations=told).p_lose)


def test_posterior_where_nothing_was_seen_is_the_uniform_model() -> None:
    """The knocker moves first: its opponent has not played, so every deal but a dealt 31
    (declared at once, C9) is kept and the risk is the uniform model's."""
    s = GameState.new("classic", 2).deal(deal_order(["QS JS 9D", "AH KH 5C"], up="2C"))
    p = posterior_risk(s, TIPS, tries=3_000, seed=4)
    uniform = float(knock_risk(Knowledge.from_view(s.view(1)), opponent_model="uniform").p_lose)
    assert p.tries == 3_000 and p.accepted >= 2_990
    assert p.risk is not None and abs(p.risk - uniform) < 4 * p.std_error
    assert p.std_error == pytest.approx(p.spread / (p.accepted - 1) ** 0.5)


@pytest.mark.parametrize("moves, seed", [(("take", "discard 2S"), 1), (("draw", "discard 4D"), 2)])
def test_posterior_after_a_tips_turn_is_the_model_told_it_faces_a_tip(moves: tuple[str, str], seed: int) -> None:
    """After a tip took the QH (hearts, its suit) or drew and threw, the deals kept are the
    tip's own hands, and the model told that the opponent is a tip pictures them the same
    (within 4 standard errors of the sample); the uniform model, which ignores the turn,
    does not."""
    s = GameState.new("classic", 2).deal(deal_order(["AH KH 5C", "2S 3S 9H"], up="QH", stock="4D"))
    for move in moves:
        s = s.apply(move)
    assert s.to_move == 0
    p = posterior_risk(s, TIPS, tries=30_000, seed=seed)
    assert p.risk is not None and p.accepted > 100
    assert abs(p.risk - _told_risk(s)) < 4 * p.std_error
    uniform = float(knock_risk(Knowledge.from_view(s.view(0)), opponent_model="uniform").p_lose)
    if moves[0] == "take":
        assert p.risk - uniform > 4 * p.std_error  # a tip that took for hearts is stronger than a dealt hand


def test_posterior_keeps_no_deal_the_real_players_would_not_have_played() -> None:
    """Seat 1 threw the QH it could not have thrown as a tip collecting hearts with it (it took
    the 9H, so its hand held hearts worth more than 9; the tip throws outside its suit): a
    random player did this, and no deal of tips is kept."""
    s = GameState.new("classic", 2).deal(deal_order(["AS KS 5C", "QH 3S 2D"], up="9H"))
    s = s.apply("take").apply("discard QH")
    p = posterior_risk(s, TIPS, tries=2_000, seed=0)
    assert p == PosteriorRisk(None, 0.0, 0.0, 0, 2_000)


def test_posterior_risk_refuses_what_it_cannot_read() -> None:
    s = GameState.new("classic", 2).deal(deal_order(["AH KH 5C", "2S 3S 9H"], up="QH"))
    with pytest.raises(PlayerError, match="needs a GameState at the start of a player's turn, not 'state'"):
        posterior_risk("state", TIPS)  # type: ignore[arg-type]
    with pytest.raises(PlayerError, match=r"is for the start of a turn, .* not the 'discard' phase"):
        posterior_risk(s.apply("draw"), TIPS)
    with pytest.raises(PlayerError, match="not the 'deal' phase"):
        posterior_risk(GameState.new("classic", 2), TIPS)
    with pytest.raises(PlayerError, match=r"needs one player per seat \(2\), not"):
        posterior_risk(s, TIPS[:1])
    for bad in ({"tries": 0}, {"samples": 0}, {"seed": 2**70}, {"tries": True}):
        with pytest.raises(PlayerError, match=f"{next(iter(bad))}="):
            posterior_risk(s, TIPS, **bad)


def test_posterior_table_bins_by_the_prediction_and_leaves_out_knocks_with_too_few_deals_kept() -> None:
    kept = PosteriorCheck("expert", ("tip",), 1, {"m": 0.22}, PosteriorRisk(0.25, 0.3, 0.02, 225, 10_000), 0.0)
    low = PosteriorCheck("expert", ("tip",), 0, {"m": 0.01}, PosteriorRisk(0.02, 0.1, 0.01, 100, 10_000), 0.1)
    none = PosteriorCheck("expert", ("tip",), 1, {"m": 0.22}, PosteriorRisk(None, 0.0, 0.0, 0, 10_000), 1.0)
    rough = PosteriorCheck("expert", ("tip",), 2, {"m": 0.22}, PosteriorRisk(0.9, 0.0, 0.0, MIN_KEPT - 1, 10_000), 1.0)
    bins = posterior_table([kept, low, none, rough, kept], "m")
    assert [(b.low, b.knocks) for b in bins] == [(0.0, 1), (0.2, 2)]
    b = bins[1]
    assert (b.predicted, b.posterior, b.shown) == pytest.approx((0.22, 0.25, 0.0))
    assert b.posterior_error == pytest.approx((2 * 0.02**2) ** 0.5 / 2)
    assert b.luck_error == pytest.approx((2 * 0.3**2) ** 0.5 / 2)


def test_posterior_checks_pick_knocks_in_hands_of_two_against_tips_early_in_the_hand() -> None:
    checks = posterior_checks(["expert", "tip", "tip"], games=12, seed=4, tries=500, samples=100, told_model=True)
    assert checks and all(c.against == ("tip",) and c.opponent_turns <= 1 for c in checks)
    assert all({"uniform", "adaptive", "told"} <= set(c.predicted) for c in checks)
    for c in checks:
        if c.posterior.risk is not None:
            assert 0 <= c.posterior.risk <= 1 and c.posterior.accepted <= 500
    risky = posterior_checks(
        ["expert", "tip", "tip"], games=12, seed=4, tries=500, samples=100, min_predicted=0.05, told_model=True
    )
    assert [c.predicted for c in risky] == [c.predicted for c in checks if c.predicted["adaptive"] >= 0.05]
    with pytest.raises(PlayerError, match="max_opponents"):
        posterior_checks(["tip", "tip"], games=1, max_opponents=0)
    with pytest.raises(PlayerError, match="min_predicted=1.5 is not allowed: a chance from 0 to 1"):
        posterior_checks(["tip", "tip"], games=1, min_predicted=1.5)


def test_calibrate_script_posterior_prints_the_picture_and_the_luck_per_bin(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        run.main(
            [
                "--posterior",
                "1000",
                "--players",
                "tip,tip",
                "--games",
                "8",
                "--seed",
                "2",
                "--samples",
                "50",
                "--posterior-turns",
                "2",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "in hands of two against a tip player who had played at most 2 turns" in out
    assert "## knocks by tip, adaptive model:" in out and "| shown - posterior (in s.e.) |" in out
    with pytest.raises(SystemExit) as stop:
        run.main(["--posterior", "-1"])
    assert stop.value.code == 2 and "--posterior and --posterior-turns must be 0 or more" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        run.main(["--posterior", "10", "--posterior-from", "2"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "--posterior-from a chance from 0 to 1, not 10, 1 and 2.0" in err


def test_posterior_against_two_opponents_who_have_not_played_is_the_uniform_model() -> None:
    """Three players, the knocker first to move: both opponents' hands are any two of the
    unseen hands (each kept deal's risk counted with whose hand is whose)."""
    s = GameState.new("classic", 3).deal(deal_order(["QS JS 9D", "AH KH 5C", "2D 3C 4S"], up="2C"))
    assert s.to_move == 1
    p = posterior_risk(s, [make_player("tip")] * 3, tries=400, seed=2, samples=300)
    uniform = knock_risk(Knowledge.from_view(s.view(1)), opponent_model="uniform", seed=2)
    u = float(uniform.p_lose)
    u_error = (u * (1 - u) / (uniform.samples or 1)) ** 0.5  # a Monte Carlo estimate too
    assert p.risk is not None and p.accepted >= 395
    assert abs(p.risk - u) < 4 * (p.std_error**2 + u_error**2) ** 0.5
