"""A deeper look at a view (scatlab.players.deeper; issue 67): the master's search wherever a
best move is shown, refined while the learner looks, from the seat's view alone; and the hand
staged to reach a typed position (scatlab.players.staged) for ``scatlab analyze --deep`` and
the hand analyzer."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from helpers.hidden_cards import hidden_twin, three_seat_states
from scatlab.analysis import Knowledge, Observations, rank
from scatlab.cards import parse_cards
from scatlab.errors import AnalysisError, PlayerError
from scatlab.players.deeper import (
    FIRST_DEALS,
    MIN_CLEAR_DEALS,
    DeepLook,
    Judged,
    ViewLook,
    deeper_looks,
    deeper_refusal,
    look_at_view,
    margin_clear,
)
from scatlab.players.master import SearchResult
from scatlab.players.staged import staged_view
from scatlab.rules import GameState, Phase, PlayerView, deal_order, find_rules

LOOK = 60  # rollouts: a few batches of deals, quick in a test


def opening(hands: tuple[str, str] = ("9C 10D 2H", "KH QH 5S"), up: str = "4D", stock: str = "") -> PlayerView:
    """Heads-up, player 1 to play first: draw, take the up card or knock."""
    return GameState.new("classic", 2).deal(deal_order(list(hands), up=up, stock=stock)).view(1)


def every_look(view: PlayerView, **kwargs: Any) -> list[dict[str, Any]]:
    return [look.to_json() for look in deeper_looks(view, budget=LOOK, seconds=None, **kwargs)]


def test_a_look_at_a_view_is_the_same_for_the_same_seed_and_budget() -> None:
    view = opening()
    first = every_look(view, seed=5)
    assert first == every_look(view, seed=5)
    assert first[-1]["final"] and first[-1]["stopped"] == "budget"


def test_a_look_at_a_view_reads_only_the_view_hidden_cards_change_nothing() -> None:
    """Opponents' hands and the stock's order shuffled among their places in the deck, the
    hand played again to the same moment: the seat's view is the same, and so is every
    verdict of the look, figure for figure."""
    rng = random.Random(4)
    compared = 0
    for state in three_seat_states(find_rules("classic"), hands=1, every=3):
        seat = state.to_move
        if seat is None or state.phase not in (Phase.TURN, Phase.DISCARD) or deeper_refusal(state.view(seat)):
            continue
        twin = hidden_twin(state, seat, rng)
        if twin is None:
            continue
        assert twin.view(seat) == state.view(seat) and (twin.hands, twin.stock) != (state.hands, state.stock)
        assert every_look(twin.view(seat)) == every_look(state.view(seat))
        compared += 1
        if compared == 2:
            break
    assert compared == 2


def test_successive_looks_play_more_deals_and_only_the_last_is_final() -> None:
    calls: list[tuple[int, int]] = []
    looks = list(deeper_looks(opening(), budget=4 * LOOK, seconds=None, progress=lambda d, t: calls.append((d, t))))
    deals = [look.deals for look in looks]
    assert deals[0] == FIRST_DEALS and deals == sorted(deals) and len(set(deals)) == len(deals)
    assert [look.final for look in looks] == [False] * (len(looks) - 1) + [True]
    assert looks[0].status().startswith(f"Still looking: {FIRST_DEALS} of {looks[0].planned} deals")
    assert [d for d, _ in calls] == sorted(d for d, _ in calls) and calls[-1] == (deals[-1], looks[-1].planned)


def test_on_verdict_sees_every_look_as_it_sharpens() -> None:
    seen: list[ViewLook] = []
    final = look_at_view(opening(), budget=LOOK, seconds=None, on_verdict=seen.append)
    assert seen[-1] is final and final.final and len(seen) > 1


def test_a_look_stops_once_the_margin_is_clear() -> None:
    """Taking the J♥ makes 31 (C8): far better than any other move, so the look stops after
    the fewest deals it allows, long before its budget."""
    view = opening(("2S 3S 9D", "AH KH QC"), up="JH")
    look = look_at_view(view, budget=100_000, seconds=None)
    assert look.stopped == "clear" and MIN_CLEAR_DEALS <= look.deals < look.planned and look.clear
    assert look.findings()[-1] == f"Final, after {look.deals:,} deals: the answer is clear."


def _found(gaps: tuple[float, ...], spread: float, deals: int = 200) -> SearchResult:
    """A search whose deals give each move ``gaps`` more than the first (the engine's best),
    alternating by ``spread`` deal by deal."""
    ranking = rank(opening())
    moves = ranking.moves[: len(gaps)]
    scores = tuple(
        tuple(0.5 + g + (spread if k % 2 else -spread) * (i > 0) for k in range(deals)) for i, g in enumerate(gaps)
    )
    means = tuple(sum(x) / deals for x in scores)
    margins = [SearchResult(moves, deals, means, (), (), scores).difference(i, 0) for i in range(len(moves))]
    return SearchResult(moves, deals, means, tuple(m for m, _ in margins), tuple(e for _, e in margins), scores)


def test_a_clear_margin_is_the_best_moves_range_above_every_other_or_the_engines_move_not_beaten() -> None:
    assert margin_clear(_found((0.0, -0.05, -0.06), 0.01))  # the engine's move, clearly best
    assert margin_clear(_found((0.0, 0.05), 0.01))  # another, clearly better
    assert not margin_clear(_found((0.0, 0.001), 0.05))  # too close, and it might be better by more than 0.5
    assert margin_clear(_found((0.0, 0.0), 0.0001))  # no better by half a point, even at best
    one = _found((0.0, 0.05), 0.01, deals=1)
    assert not margin_clear(one) and math.isinf(one.errors[1])


def test_the_verdict_is_said_in_the_words_of_the_reviews_deeper_look() -> None:
    """One wording for both looks (Judged): "agrees that …" or "finds … better than …, the
    engine's best move: it wins the game somewhere between a% and b% more often", then the
    margin over the next best with its range, then where the look is."""
    agree = ViewLook(_found((0.0, -0.05), 0.01), 0, 2.0, 500)
    said = agree.said()
    first, margin, status = agree.findings()
    assert first == f"A deeper look agrees that {said[0]} is the best move."
    _, low, high = agree.gap(0, 1)
    assert margin == (
        f"{said[0][:1].upper()}{said[0][1:]} wins the game somewhere between {low * 100:.1f}% and "
        f"{high * 100:.1f}% more often than {said[1]}, the next best."
    )
    assert status == "Still looking: 200 of 500 deals so far."
    better = ViewLook(_found((0.0, 0.05), 0.01), 1, 2.0, 200, "budget")
    _, low, high = better.gap(1, 0)
    assert better.findings()[0] == (
        f"A deeper look finds {said[1]} better than {said[0]}, the engine's best move: it wins the game "
        f"somewhere between {low * 100:.1f}% and {high * 100:.1f}% more often."
    )
    assert better.findings()[-1] == "Final, after 200 deals."
    assert issubclass(DeepLook, Judged) and issubclass(ViewLook, Judged)  # one wording, shared
    assert not any(word in better.text() + agree.text() for word in ("±", "seed", "rollout"))
    data = better.to_json()
    assert data["engine_best"] == str(said and better.found.moves[0].action) and data["master"] == better.master_move
    assert data["moves"][1]["margin_range"] == [round(low, 6), round(high, 6)] and data["deals"] == 200


@pytest.mark.parametrize(
    ("kwargs", "quoted"),
    [
        ({"budget": 0}, "budget=0"),
        ({"budget": -3}, "budget=-3"),
        ({"budget": 2.5}, "budget=2.5"),
        ({"budget": True}, "budget=True"),
        ({"budget": 10**7}, "budget=10000000"),
        ({"seconds": 0}, "seconds=0"),
        ({"seconds": -1.0}, "seconds=-1.0"),
        ({"seconds": float("nan")}, "seconds=nan"),
        ({"seconds": float("inf")}, "seconds=inf"),
        ({"seconds": "1"}, "seconds='1'"),
        ({"seconds": 4000}, "seconds=4000"),
        ({"seed": -1}, "seed=-1"),
    ],
)
def test_bad_budgets_seconds_and_seeds_are_refused_at_once_quoting_them(kwargs: dict[str, Any], quoted: str) -> None:
    with pytest.raises(AnalysisError, match=quoted) as caught:
        deeper_looks(opening(), **kwargs)  # refused when called, not at the first verdict
    assert isinstance(caught.value, ValueError) and "use " in str(caught.value)


def test_a_look_needs_the_seats_turn_with_moves_to_weigh() -> None:
    state = GameState.new("classic", 2).deal(deal_order(["9C 10D 2H", "KH QH 5S"], up="4D"))
    assert deeper_refusal(state.view(0)) == "it is not your turn: a deeper look weighs your own moves"
    with pytest.raises(PlayerError, match="no deeper look: it is not your turn"):
        deeper_looks(state.view(0))
    with pytest.raises(PlayerError, match="PlayerView"):
        deeper_refusal(state)  # type: ignore[arg-type]


# -- the hand staged to reach a typed position -----------------------------------------------------


def test_a_staged_hand_reaches_the_typed_position_with_the_typed_turns() -> None:
    typed = Knowledge.of("AH KH 4C", "9S", dead="2D 7C", opponent_holds=["QS"], opponents=2)
    seen = Observations((1, 2), ((), parse_cards("7C")))
    view = staged_view(typed, seen)
    back = Knowledge.from_view(view)
    assert (back.hand, back.top, back.opponent_holds) == (typed.hand, typed.top, typed.opponent_holds)
    assert set(typed.dead) <= set(back.dead) and view.to_move == view.player == 0 and view.phase is Phase.TURN
    assert Observations.from_view(view, knock_rules=False).turns == (1, 2)
    thrown = [e.card for e in view.history if e.player == 2 and e.action.kind.value == "discard"]
    assert "7C" in map(str, thrown)  # a card typed as rejected is thrown by its opponent
    assert staged_view(typed, seen) == view  # seeded: the same position, the same staging


def test_four_cards_are_staged_just_after_drawing_the_last() -> None:
    view = staged_view(Knowledge.of("AH KH 4C 5D", "9S"))
    assert view.phase is Phase.DISCARD and view.drawn is not None and str(view.drawn) == "5D"


@pytest.mark.parametrize(
    ("typed", "seen", "said"),
    [
        (Knowledge.of("AH KH 4C", None), None, "needs the top discard"),
        (Knowledge.of("AH KH QH", "9S"), None, "is 31, declared at once"),
        (Knowledge.of("AH KH 4C", "9S", opponents=2), Observations((2, 1), ((), ())), "turns 2, 1 cannot be staged"),
        (Knowledge.of("AH KH 4C", "9S", dead="2D 3D 4D 5D"), Observations((1,), ((),)), "need more turns"),
    ],
)
def test_a_position_no_hand_can_reach_is_refused_saying_why(
    typed: Knowledge, seen: Observations | None, said: str
) -> None:
    with pytest.raises(AnalysisError, match=said):
        staged_view(typed, seen)
