"""The review widget (scatlab.widgets.review, issue 10): pages rendered in Python from the
reviewed player's view, navigation, the timeline, and "try it yourself" at the table."""

from __future__ import annotations

import re

from dataclasses import replace
from fractions import Fraction

import pytest

from scatlab.analysis.explain.review import CLASSES, VALUE_THRESHOLDS, WIN_THRESHOLDS, ReviewedDecision, review_game
from scatlab.cards import deck
from scatlab.errors import AnalysisError
from scatlab.rules import Action, GameRecord, Phase, deal_order, play_random_game, replay
from scatlab.widgets.review import ReviewSteps, ReviewWidget, costliest, decision_html, record_before
from scatlab.widgets.svg import card_label


def _blunder_record() -> GameRecord:
    order = deal_order(["2S 3S 9D", "AH KH 4C", "5D 6D 8C"], up="QH", stock="9C 9H 2D")
    return GameRecord.from_json({"rules": "classic", "players": 3, "dealer": 0, "hands": [
        {"deck": [str(c) for c in order],
         "actions": [{"player": 1, **Action.TAKE.to_json()}, {"player": 1, **Action.discard("AH").to_json()}]}]})


def test_a_page_shows_the_player_s_cards_the_moves_and_the_class() -> None:
    steps = ReviewSteps(_blunder_record(), player=1)
    first, second = steps.decisions
    page = decision_html(first)
    for card in first.view.hand:
        assert f'aria-label="{card_label(card)}"' in page
    assert f'aria-label="{card_label(first.view.top_discard)}"' in page
    page = decision_html(second)
    # the learner reads suit symbols, never card codes; the exact fractions sit behind a click
    assert "Played <b>discard A♥</b>; the analysis prefers <b>discard 4♣</b>" in page
    assert re.search(r"\b(10|[2-9AKQJ])[HDCS]\b", re.sub(r"<[^>]*>", "", page)) is None
    assert 'data-class="blunder"' in page and ">blunder<" in page
    exact = page.index('<details class="scat-review-exact">')
    assert page.index(f"exactly {second.cost}") > exact and "exactly" not in page[:exact]


def test_a_page_draws_no_card_the_player_could_not_see() -> None:
    record = GameRecord.from_state(play_random_game("classic", 3, seed=4))
    steps = ReviewSteps(record)
    for d in steps.decisions[:40]:
        page = decision_html(d)
        shown = set(d.view.hand) | ({d.view.top_discard} if d.view.top_discard is not None else set())
        for card in deck(52):
            if card not in shown:
                assert f'aria-label="{card_label(card)}"' not in page


def test_navigation_clamps_and_the_timeline_marks_every_decision() -> None:
    steps = ReviewSteps(GameRecord.from_state(play_random_game("quick", 3, seed=2)))
    n = len(steps.decisions)
    assert n > 3
    assert steps.move(-1).step == 0
    assert steps.go(n + 10).step == n - 1
    assert steps.move(+1).step == n - 1
    state = steps.state()
    assert state["count"] == n == len(state["marks"])
    assert [m["class"] for m in state["marks"]] == [d.label for d in steps.decisions]


def test_record_before_replays_to_the_decision() -> None:
    record = GameRecord.from_state(play_random_game("classic", 3, seed=6))
    steps = ReviewSteps(record)
    for d in steps.decisions[::7]:
        state = replay(record_before(record, d.hand, d.index))
        assert state.to_move == d.player
        assert state.view(d.player) == d.view
    with pytest.raises(AnalysisError, match="hand 99"):
        record_before(record, 99, 1)


def test_the_widget_steps_and_opens_a_table_at_the_decision() -> None:
    widget = ReviewWidget(_blunder_record(), player=1)
    assert widget.handle({"type": "next"})["step"] == 1
    assert widget.handle({"type": "prev"})["step"] == 0
    assert widget.handle({"type": "goto", "step": 1})["step"] == 1
    assert widget.handle({"type": "nonsense"})["step"] == 1
    widget.handle({"type": "try"})
    table = widget.table
    assert table is not None and widget.children[-1] is table
    state = table.session.state
    assert state.phase is Phase.DISCARD and state.to_move == 1
    assert state.view(1) == widget.steps.current().view  # type: ignore[union-attr]
    assert table.session.seat == 1


# -- the costliest decisions (what a lesson replays) --------------------------------------------


def _rank(d: ReviewedDecision) -> tuple[int, Fraction]:
    blunder = (VALUE_THRESHOLDS if d.scale == "value" else WIN_THRESHOLDS)[-1]
    return CLASSES.index(d.label), d.cost / blunder


@pytest.mark.parametrize(("preset", "seed"), [("classic", 1), ("quick", 2), ("gin", 3)])
def test_costliest_lists_the_worst_decisions_by_class_then_cost_on_its_own_scale(preset: str, seed: int) -> None:
    result = review_game(GameRecord.from_state(play_random_game(preset, 3, seed=seed)))
    costly = [d for d in result.decisions if d.cost > 0]
    top = costliest(result, n=len(costly) + 5)
    assert sorted(top, key=lambda d: (d.hand, d.index)) == sorted(costly, key=lambda d: (d.hand, d.index))
    ranks = [_rank(d) for d in top]
    assert ranks == sorted(ranks, reverse=True)  # worst first
    assert costliest(result) == top[:2] and costliest(result, 0) == ()
    mine = costliest(result, n=3, player=1)
    assert all(d.player == 1 for d in mine) and list(mine) == [d for d in top if d.player == 1][:3]


def test_costliest_ranks_a_win_blunder_of_sixteen_percent_before_four_points() -> None:
    """The two scales are never added: a knock costing 16% of the chance of winning is two
    blunder thresholds (8% each), four points of hand value are 4/3 of one (3 points)."""
    result = review_game(GameRecord.from_state(play_random_game("classic", 3, seed=1)))
    value = next(d for d in result.decisions if d.scale == "value")
    lives = next(d for d in result.decisions if d.scale == "win")
    fake_value = replace(value, assessment=replace(value.assessment, cost=Fraction(4), label="blunder"))
    fake_lives = replace(lives, assessment=replace(lives.assessment, cost=Fraction(16, 100), label="blunder"))
    small = replace(value, assessment=replace(value.assessment, cost=Fraction(9), label="mistake"))
    made = replace(result, decisions=(small, fake_value, fake_lives))
    assert costliest(made, 3) == (fake_lives, fake_value, small)


def test_costliest_refuses_a_bad_count_or_an_unreviewed_seat() -> None:
    result = review_game(_blunder_record(), player=1)
    with pytest.raises(AnalysisError, match="n=-1 is not a number of decisions"):
        costliest(result, -1)
    with pytest.raises(AnalysisError, match="player 2 was not reviewed"):
        costliest(result, 2, player=2)


def test_try_it_at_a_chosen_decision_steps_there_and_opens_its_position() -> None:
    record = GameRecord.from_state(play_random_game("classic", 3, seed=5))
    widget = ReviewWidget(record, player=0, opponents=("expert", "tip"))
    worst = widget.costliest(2)
    assert worst and worst == costliest(widget.result, 2)
    for d in worst:
        table = widget.try_it(d)
        assert widget.steps.current() == d and widget.surface.state["step"] == widget.steps.step_of(d)
        assert widget.children[-1] is table and table.session.seat == 0
        assert table.session.state.view(0) == d.view
        assert table.session.opponents == ["expert", "tip"]
    other = review_game(record, player=1).decisions[0]
    with pytest.raises(AnalysisError, match="is not a decision of this review"):
        widget.show(other)


def test_the_timeline_and_the_try_line_name_cards_as_the_page_does_not_by_code() -> None:
    widget = ReviewWidget(_blunder_record(), player=1)
    widget.handle({"type": "goto", "step": 1})
    widget.handle({"type": "try"})
    state = widget.surface.state
    words = [m["title"] for m in state["marks"]] + [state["trying"]]
    assert any("A♥" in w for w in words), words
    assert not any(re.search(r"\b(AH|QH|10[SHDC]|[2-9JQKA][SHDC])\b", w) for w in words), words
