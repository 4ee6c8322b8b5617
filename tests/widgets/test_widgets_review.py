"""The review widget (scatlab.widgets.review, issues 10 and 64): pages rendered in Python from
the reviewed player's view, navigation, the timeline, and "try it yourself" at the table. Every
cost is on the chance of winning the game, shown as levels; the figures are the engine's
estimates, refitted often, so the tests assert relations, not values."""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction

import pytest

from scatlab.analysis import win_level
from scatlab.analysis.explain.review import (
    CLASS_RANGES,
    CLASSES,
    VALUE_THRESHOLDS,
    WIN_THRESHOLDS,
    ReviewedDecision,
    review_game,
)
from scatlab.cards import deck
from scatlab.errors import AnalysisError
from scatlab.rules import Action, GameRecord, Phase, deal_order, play_random_game, replay
from scatlab.widgets.review import ReviewSteps, ReviewWidget, costliest, decision_html, record_before
from scatlab.widgets.svg import card_label


def _blunder_record() -> GameRecord:
    order = deal_order(["2S 3S 9D", "AH KH 4C", "5D 6D 8C"], up="QH", stock="9C 9H 2D")
    return GameRecord.from_json(
        {
            "rules": "classic",
            "players": 3,
            "dealer": 0,
            "hands": [
                {
                    "deck": [str(c) for c in order],
                    "actions": [
                        {"player": 1, **Action.TAKE.to_json()},
                        {"player": 1, **Action.discard("AH").to_json()},
                    ],
                }
            ],
        }
    )


def test_a_page_shows_the_player_s_cards_the_moves_and_the_class() -> None:
    steps = ReviewSteps(_blunder_record(), player=1)
    first, second = steps.decisions
    page = decision_html(first)
    for card in first.view.hand:
        assert f'aria-label="{card_label(card)}"' in page
    assert f'aria-label="{card_label(first.view.top_discard)}"' in page
    page = decision_html(second, steps.names)
    # the learner reads suit symbols, never card codes; the exact fractions sit behind a click
    assert "You threw the A♥." in page and "<b>Better:</b> throwing the 4♣." in page
    assert re.search(r"\b(10|[2-9AKQJ])[HDCS]\b", re.sub(r"<[^>]*>", "", page)) is None
    assert f'data-class="{second.label}"' in page and f">{second.label}<" in page and second.label != "best"
    exact = page.index('<details class="scat-review-exact">')
    kept = dict(second.assessment.values)["discard AH"]  # the exact figure the chance is built from
    assert page.index(f"exactly {kept}") > exact and "exactly" not in page[:exact]


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
    # the same position, at a table that names its seats (the learner's and the opponents')
    assert state.seats == table.session.seat_names == ("tip", "you", "tip")
    assert state.view(1) == replace(widget.steps.current().view, seats=state.seats)  # type: ignore[union-attr]
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
    """A review prices on the chance of winning; a cost in hand value (a record reviewed
    before the one scale) is never added to it: a knock costing 16% of the chance of winning
    is two blunder thresholds (8% each), four points of hand value are 4/3 of one (3 points)."""
    result = review_game(GameRecord.from_state(play_random_game("classic", 3, seed=1)))
    assert {d.scale for d in result.decisions} == {"win"}
    lives = result.decisions[0]
    value = replace(result.decisions[1], assessment=replace(result.decisions[1].assessment, scale="value"))
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
        assert table.session.state.seats == ("you", "expert", "tip")
        assert table.session.state.view(0) == replace(d.view, seats=("you", "expert", "tip"))
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


# -- in the learner's words, in reading order (docs/design/voice.md, "The review") --------------


def _text(html: str) -> str:
    """A page's text, as read (tags and the cards' SVG left out)."""
    from html import unescape

    text = unescape(re.sub(r"<[^>]*>", " ", re.sub(r"<svg.*?</svg>", "", html, flags=re.S)))
    return re.sub(r"\s+", " ", text).replace(" :", ":").replace(" .", ".")


def _stand_in_steps() -> ReviewSteps:
    from scatlab.course.widgets.game_with_hints import stand_in_record

    return ReviewSteps(GameRecord.from_json(__import__("json").loads(stand_in_record())), player=0)


def test_a_decision_reads_what_happened_what_was_better_by_how_much_then_why() -> None:
    steps = ReviewSteps(_blunder_record(), player=1)
    page = _text(decision_html(steps.decisions[1], steps.names))
    d = steps.decisions[1]
    a = d.assessment
    mine, best = win_level(a.level("discard AH")), win_level(a.level("discard 4C"))
    parts = [
        "Hand 1, your 2nd move",
        d.label,
        "You had taken the Q♥ and held A♥ K♥ 4♣ Q♥.",
        "You threw the A♥.",
        "Better: throwing the 4♣.",
        f"your move lowered your chance of winning the game from {best} to {mine}, by about",
        f"a {d.label} ({CLASS_RANGES['win'][d.label]})",
        f"Why: Your chance of winning the game was {win_level(a.now or 0)} before the hand: {mine} by throwing "
        f"the A♥, {best} by throwing the 4♣.",
        "The estimates and the exact figures",
        f"exactly {dict(a.values)['discard AH']}",
    ]
    at = [page.find(part) for part in parts]
    assert -1 not in at and at == sorted(at), list(zip(parts, at))


def test_a_best_move_s_text_has_no_cost_0() -> None:
    steps = _stand_in_steps()
    best = [d for d in steps.decisions if d.cost == 0]
    assert len(best) > 30 and {d.scale for d in best} == {"win"}
    for d in best:
        page = _text(decision_html(d, steps.names))
        if d.assessment.close:  # a close call: no cost, said as such
            assert "A close call:" in page and "No cost: a close call" in page
        else:
            assert "This was the best move." in page and "No cost: this was the best move." in page
        assert not re.search(r"\bcost:? 0\b", page, re.IGNORECASE), page
        assert not re.search(r"(?<![\d.])0 hand value", page) and not re.search(r"(?<![\d.])0\.0%", page)
        assert d.assessment.cost_text == "nothing"


def test_no_dead_anywhere_in_decision_html_or_the_widget() -> None:
    """The cards a player had seen are "cards you had seen" (voice.md), never "dead" cards;
    shown compactly: a count, the discard pile by suit behind a click."""
    record = GameRecord.from_state(play_random_game("classic", 3, seed=4))
    widget = ReviewWidget(record, player=0, opponents=("tip", "expert"))
    seen = 0
    for step, d in enumerate(widget.steps.decisions):
        state = widget.handle({"type": "goto", "step": step})
        texts = [state["html"], state["title"], state["summary"], state["trying"]] + [
            m["title"] for m in state["marks"]
        ]
        assert not any(re.search(r"\bdead\b", t, re.IGNORECASE) for t in texts), d.to_json()
        if '<details class="scat-review-seen">' in state["html"]:
            seen += 1
            summary = re.search(r'<details class="scat-review-seen"><summary>([^<]*)</summary>', state["html"])
            assert summary is not None and summary.group(1).startswith("Cards you had seen, beside your hand")
            assert re.search(r": \d+ (in the discard pile|taken by)", summary.group(1))
            if "in the discard pile" in summary.group(1):  # one line per suit, not one card after another
                assert state["html"].count('class="scat-review-suit"') == 4
    assert seen > 10


def test_listed_decisions_are_in_play_order_and_the_costliest_say_they_are_sorted_by_cost() -> None:
    from scatlab.course.widgets.review_and_replay import costliest_html

    steps = _stand_in_steps()
    marks = [(m["hand"], m["index"]) for m in steps.marks()]
    assert marks == sorted(marks) and len(marks) == len(steps.decisions)
    assert "in the order they were played" in steps.state()["summary"] and "in the order played" in steps.title
    worst = costliest(steps.result, 2)
    html = costliest_html(worst, steps.names)
    assert html.startswith(
        "<h3 class='scatlab-costliest-head'>The two costliest decisions</h3>"
        "<p class='scatlab-costliest-order'>Sorted by cost, the worst first (not in the order "
        "they were played)"
    )
    one = costliest_html(worst[:1], steps.names)  # one: "the costliest decision", not "decisions"
    assert "The costliest decision</h3>" in one and "decisions" not in one.split("</h3>")[0]
    shown = re.findall(r"<b>(Hand \d+, your \d+\w\w move)</b>", html)
    assert shown == [d.where(steps.names) for d in worst]


def test_a_decision_is_named_by_the_player_s_move_not_the_engine_s_action() -> None:
    widget = ReviewWidget(_blunder_record(), player=1, opponents=("tip", "expert"))
    state = widget.handle({"type": "goto", "step": 1})
    words = [_text(state["html"]), state["marks"][1]["title"]]
    assert words[1] == "Hand 1, your 2nd move: threw the A♥ (blunder)"
    for text in words:
        assert not re.search(r"\baction \d|\bplayer \d to move|the analysis prefers", text), text
    widget.handle({"type": "try"})
    assert widget.surface.state["trying"].startswith(
        "Below: Hand 1, your 2nd move again, as you saw it (you threw the A♥"
    )
    assert widget.steps.names == {1: "you", 2: "player 3 (tip)", 0: "player 1 (expert)"}


def _last_turn_record() -> GameRecord:
    # Player 1 knocks at once; players 2 and 0 then have their last turn (C6).
    order = deal_order(["2S 3S 9D", "AH KH 4C", "5D 6D 8C"], up="QH", stock="9C 9H 2D")
    actions = [(1, "knock"), (2, "draw"), (2, "discard 5D"), (0, "draw"), (0, "discard 2S")]
    return GameRecord.from_json(
        {
            "rules": "classic",
            "players": 3,
            "dealer": 0,
            "hands": [
                {
                    "deck": [str(c) for c in order],
                    "actions": [{"player": p, **Action.parse(a).to_json()} for p, a in actions],
                }
            ],
        }
    )


def test_a_decision_on_a_last_turn_counts_the_hand_kept_not_five_turns_ahead() -> None:
    steps = ReviewSteps(_last_turn_record(), player=0)
    draw = steps.decisions[0]
    assert draw.played == "draw" and draw.scale == "win"
    assert draw.assessment.horizon == 0
    page = _text(decision_html(draw, steps.names))
    assert "Player 2 had knocked, so this was your last turn. You drew from the stock." in page
    assert (
        "On a last turn, counting only the hand kept, " in page
        and "taking the 5♦ (then throwing the 2♠) is worth 14" in page
    )
    assert "five turns ahead" not in page and "the hand now" not in page


def test_a_decision_before_a_knock_looks_five_turns_ahead() -> None:
    steps = ReviewSteps(_blunder_record(), player=1)
    for d in steps.decisions:
        assert d.assessment.horizon == 5
        page = _text(decision_html(d, steps.names))
        assert "five turns ahead" in page and "last turn" not in page and "the hand now" not in page
