"""A deeper look at a reviewed decision (scatlab.players.deeper; issue 53): the master's
search on demand, in the review widget (Look deeper) and the CLI (scatlab review --deep)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from scatlab.analysis import review_game
from scatlab.cli import main
from scatlab.errors import AnalysisError
from scatlab.players.deeper import DeepLook, look_deeper, look_deeper_at_costliest
from scatlab.rules import GameRecord, deal_order, play_random_game

LOOK = 240  # rollouts: enough to tell a blunder, quick in a test


def record(hands: list[str], up: str, stock: str, actions: list[dict[str, Any]]) -> GameRecord:
    deck = deal_order(hands, up=up, stock=stock)
    return GameRecord.from_json(
        {"rules": "classic", "players": 3, "dealer": 0, "hands": [{"deck": [str(c) for c in deck], "actions": actions}]}
    )


THREW_THE_ACE = [{"player": 1, "action": "take"}, {"player": 1, "action": "discard", "card": "AH"}]
"""Player 1 takes the QH to A K Q of hearts and throws the AH (C5): a blunder."""


def blunder(hands: tuple[str, str] = ("2S 3S 9D", "5D 6D 8C"), stock: str = "9C 9H 2D") -> Any:
    game = record([hands[0], "AH KH 4C", hands[1]], "QH", stock, THREW_THE_ACE)
    return review_game(game, player=1).decisions[1]


def test_a_deeper_look_at_a_blunder_agrees_on_the_best_move_and_gives_its_own_cost_range() -> None:
    look = look_deeper(blunder(), budget=LOOK)
    assert isinstance(look, DeepLook) and look.agrees and look.master_move == "discard 4C"
    assert str(look.found.moves[look.played].action) == "discard AH"
    mean, low, high = look.gap(look.pick, look.played)
    assert 0 < low <= mean <= high and look.cost_range == (low, high)
    lines = look.lines({1: "you"})
    assert lines[0] == "A deeper look agrees that throwing the 4♣ is the best move."
    assert lines[1].startswith(
        f"It puts your move's cost at {low * 100:.1f}% to {high * 100:.1f}% (the review said "
        f"about {look.review_cost * 100:.1f}%"
    )
    assert lines[2].startswith("How: in ") and "deals that fit everything that had been seen" in lines[2]
    assert "agrees with the review" not in look.text()
    assert not any(word in look.text() for word in ("±", "seed", "rollout", "P("))
    data = look.to_json()
    assert data["agrees"] and data["master"] == "discard 4C" and data["played"] == "discard AH"
    assert data["cost_agrees"] == (low <= look.review_cost <= high) and data["review_cost"] == round(
        look.review_cost, 6
    )
    assert data["deals"] == look.found.deals and len(data["moves"]) == len(look.found.moves)


def test_a_deeper_look_is_seeded_and_reproducible() -> None:
    d = blunder()
    assert look_deeper(d, LOOK, seed=3).to_json() == look_deeper(d, LOOK, seed=3).to_json()


def test_a_deeper_look_reads_only_the_view_hidden_cards_change_nothing() -> None:
    """Two games player 1 cannot tell apart at its throw (the other hands and the stock
    differ): the same look, figure for figure."""
    one, other = blunder(), blunder(("JC 10S 7D", "2C 3C 5S"), "KD 9S 8S")
    assert one.view == other.view
    assert look_deeper(one, LOOK).to_json() == look_deeper(other, LOOK).to_json()


def test_the_progress_callback_counts_the_deals_up_to_the_planned_number() -> None:
    calls: list[tuple[int, int]] = []
    look = look_deeper(blunder(), LOOK, progress=lambda done, total: calls.append((done, total)))
    assert calls and calls[-1] == (look.found.deals, look.found.deals)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)


def test_the_costliest_decisions_are_looked_at_worst_first_with_one_progress() -> None:
    review = review_game(GameRecord.from_state(play_random_game("classic", 3, seed=1)), player=0)
    calls: list[tuple[int, int]] = []
    looks = look_deeper_at_costliest(review, 2, 0, budget=80, progress=lambda d, t: calls.append((d, t)))
    assert len(looks) == 2 and looks[0].decision.cost > 0
    assert calls[-1][0] == calls[-1][1] and len({t for _, t in calls}) == 1


@pytest.mark.parametrize(("budget", "seed", "said"), [(0, 0, "budget=0"), (10, -1, "seed=-1"), (2.5, 0, "budget=2.5")])
def test_bad_budgets_and_seeds_are_refused_quoting_them(budget: Any, seed: Any, said: str) -> None:
    with pytest.raises(AnalysisError, match=said):
        look_deeper(blunder(), budget, seed)


def test_the_review_widget_looks_deeper_with_a_progress_bar_once_per_decision() -> None:
    from scatlab.widgets.review import ReviewWidget

    game = record(["2S 3S 9D", "AH KH 4C", "5D 6D 8C"], "QH", "9C 9H 2D", THREW_THE_ACE)
    w = ReviewWidget(game, player=1)
    w.steps.go(1)
    shown: list[dict[str, Any]] = []
    w.surface.observe(lambda change: shown.append(dict(change["new"])), "progress")
    lines = w.look_deeper(budget=LOOK)
    assert shown[0]["done"] == 0 and shown[-1] == {}
    assert all(p["what"].startswith("Looking deeper:") for p in shown[:-1])  # the bar says what it is doing
    assert any(
        p and p["done"] == p["total"] > 1 and f"deal {p['done']:,} of {p['total']:,}" in p["what"] for p in shown
    )
    state = w.surface.state
    assert state["looked"] and "A second opinion" in state["html"] and "A deeper look agrees that" in state["html"]
    assert lines[1].startswith("It puts your move's cost at")
    shown.clear()
    assert w.look_deeper(budget=LOOK) == lines and len(shown) == 2 and shown[-1] == {}  # kept: no search again
    w.handle({"type": "prev"})
    assert not w.surface.state["looked"] and "A second opinion" not in w.surface.state["html"]


def run(argv: list[str], capsys: Any) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_review_deep_adds_the_masters_look_at_the_costliest(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record(["2S 3S 9D", "AH KH 4C", "5D 6D 8C"], "QH", "9C 9H 2D", THREW_THE_ACE).to_json()))
    code, out, _ = run(["review", str(path), "--player", "1", "--deep", "--budget", str(LOOK)], capsys)
    assert code == 0 and "A deeper look at the 1 costliest decision:" in out
    assert "Hand 1, action 2, player 1: A deeper look agrees that throwing the 4♣ is the best move." in out
    code, out, _ = run(["review", str(path), "--player", "1", "--deep", "1", "--budget", str(LOOK), "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and len(data["deeper"]) == 1 and data["deeper"][0]["master"] == "discard 4C"
    for argv, said in (
        (["--budget", "50"], "give --deep as well"),
        (["--deep", "0"], "--deep 0 is not allowed"),
        (["--deep", "--budget", "0"], "--budget 0 is not allowed"),
    ):
        code, out, err = run(["review", str(path), *argv], capsys)
        assert code == 2 and said in err and err.count("\n") == 1 and not out


def test_cli_tournament_budget_sets_every_masters_rollouts(capsys: Any) -> None:
    code, out, _ = run(
        ["tournament", "--players", "master,tip", "--budget", "20", "--games", "1", "--json", "--no-progress"], capsys
    )
    assert code == 0 and [e["kind"] for e in json.loads(out)["entrants"]] == ["master:20", "tip"]
    code, _, err = run(["tournament", "--players", "tip,tip", "--budget", "20"], capsys)
    assert code == 2 and "--budget 20 is read only by master players" in err


def test_a_deeper_look_finds_better_only_with_its_range_above_zero_knocks_too() -> None:
    """The master at the table trusts a knock from one standard error; a deeper look asks two
    of every move, the range it prints, so "finds better" never comes with a range reaching
    below zero."""
    from scatlab.analysis import rank
    from scatlab.players.deeper import LOOK_CONFIDENCE, _master
    from scatlab.players.master import SearchResult
    from scatlab.rules import GameState

    view = GameState.new("classic", 2).deal(deal_order(["9C 10D 2H", "KH 4H 5S"], up="2C")).view(1)
    by_name = {m.name: m for m in rank(view).moves}
    moves = (by_name["draw"], by_name["knock"])
    scores = ((0.5, 0.5, 0.5, 0.5), (0.52, 0.5, 0.52, 0.5))  # knocking 1 point better, 0.58 SE: 1.7 SE
    mean = sum(b - a for a, b in zip(*scores)) / 4
    found = SearchResult(moves, 4, (0.5, 0.51), (0.0, mean), (0.0, 0.01 / 3**0.5), scores)
    master = _master(100, 0)
    assert LOOK_CONFIDENCE == 2.0 and master.knock_confidence == master.confidence == LOOK_CONFIDENCE
    assert master.pick(found) == 0
    from scatlab.players.master import MasterPlayer

    assert MasterPlayer().pick(found) == 1  # at the table: a knock from 1 SE


# -- two judgements, apart: the best move, then the cost (issue 64, item 7) ----------------------


def _look_with(pick: int, gaps: tuple[float, ...], spread: float) -> DeepLook:
    """A look at the blunder whose deals give each searched move ``gaps`` less than the first
    (the review's best), alternating by ``spread`` deal by deal; the master picks ``pick``."""
    from scatlab.players.deeper import LOOK_CONFIDENCE, _candidates, _master
    from scatlab.players.master import SearchResult

    d = blunder()
    moves, played = _candidates(d, _master(LOOK, 0))
    deals = 100
    scores = tuple(
        tuple(0.5 - g + (spread if k % 2 else -spread) * (i > 0) for k in range(deals))
        for i, g in enumerate(gaps[: len(moves)])
    )
    means = tuple(sum(x) / deals for x in scores)
    found = SearchResult(moves, deals, means, tuple(m - means[0] for m in means), (0.0,) * len(moves), scores)
    return DeepLook(d, found, pick, played, LOOK_CONFIDENCE)


def _played_gap(look: DeepLook, cost: float) -> tuple[float, ...]:
    gaps = [0.0] * len(look.found.moves)
    gaps[look.played] = cost
    return tuple(gaps)


def test_look_deeper_says_the_best_move_and_the_cost_apart_and_never_agrees_outside_its_range() -> None:
    """Agreeing on the best move is one judgement; the cost of the move played is another: a
    range set beside the review's cost. Where the range leaves the review's cost out the look
    says it puts the cost lower (or higher), never that it agrees with the review."""
    base = _look_with(0, (0.0,), 0.0)
    review = base.review_cost
    assert review > 0.02  # the review's cost of throwing the ace
    # the review's cost inside the look's range: "within that range"
    inside = _look_with(0, _played_gap(base, review), 0.02)
    low, high = inside.cost_range
    assert low < review < high and inside.cost_agrees
    first, cost = inside.findings({1: "you"})
    assert first == "A deeper look agrees that throwing the 4♣ is the best move."
    assert cost == (
        f"It puts your move's cost at {low * 100:.1f}% to {high * 100:.1f}% (the review said about "
        f"{review * 100:.1f}%, within that range)."
    )
    # far lower than the review's: the same best move, the cost said lower, no "agrees"
    lower = _look_with(0, _played_gap(base, review / 3), 0.005)
    low, high = lower.cost_range
    assert high < review and not lower.cost_agrees and lower.agrees
    first, cost = lower.findings({1: "you"})
    assert first.startswith("A deeper look agrees that throwing the 4♣") and "the look puts it lower" in cost
    assert "agrees with the review" not in lower.text() and f"{low * 100:.1f}% to {high * 100:.1f}%" in cost
    # higher than the review's
    higher = _look_with(0, _played_gap(base, review * 2), 0.005)
    assert not higher.cost_agrees and "the look puts it higher" in higher.findings()[1]


def test_look_deeper_that_finds_another_best_move_says_so_with_its_range() -> None:
    base = _look_with(0, (0.0,), 0.0)
    if len(base.found.moves) < 3:
        pytest.skip("the blunder's search has only the best move and the move played")
    gaps = [0.0] * len(base.found.moves)
    other = next(i for i in range(1, len(gaps)) if i != base.played)
    gaps[other] = -0.05  # the look finds this move 5 points better than the review's best
    gaps[base.played] = base.review_cost
    look = _look_with(other, tuple(gaps), 0.004)
    first, cost = look.findings({1: "you"})
    said = first.split(" better than ")[0]
    assert said.startswith("A deeper look finds ") and "the review's best move" in first and not look.agrees
    _, low, high = look.gap(other, 0)
    assert 0 < low and f"between {low * 100:.1f}% and {high * 100:.1f}% more often" in first
    assert cost.startswith("It puts your move's cost at") and "agrees" not in look.text()


def test_a_close_call_reviewed_at_no_cost_is_said_so_beside_the_looks_range() -> None:
    """A move the review called a close call costs nothing there; the look says so beside its
    own range, and agrees only where its range holds nothing (0)."""
    from dataclasses import replace

    look = _look_with(0, _played_gap(_look_with(0, (0.0,), 0.0), 0.003), 0.05)
    close = replace(
        look,
        decision=replace(
            look.decision, assessment=replace(look.decision.assessment, cost=Fraction(0), close=True, label="best")
        ),
    )
    low, high = close.cost_range
    assert low == 0 < high and close.cost_agrees
    assert "the review called it a close call, at no cost, within that range" in close.findings()[1]
