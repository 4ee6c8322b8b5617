"""The card table without a browser: whole seeded games driven by what a click calls
(``Table.handle``, the handler of the browser's messages), checked against the state.

Rules cited: C5 (turns), C6-C8 (knocks, showdowns, 31s), C11 (empty stock), C13 (lives),
V13-V16 (Cadillac nickels, GIN letters, the bus, points), V10/V11/V19 (hammer,
throw-down, bus stop: their buttons appear only when legal)."""

from __future__ import annotations

import concurrent.futures
import functools
import random
from fractions import Fraction
from typing import Any

import pytest

from helpers.hidden_cards import public_cards, reachable
from scatlab.analysis import analyze, review_game, win_level
from scatlab.errors import AnalysisError
from scatlab.players import make_player
from scatlab.rules import PRESETS, GameRecord, GameState, Phase, RuleSet, deal_order, find_rules, replay
from scatlab.rules.rulebook import cited_codes
from scatlab.session import ComputerMove, TableDisplay, TableSession, chance_words
from scatlab.widgets.chart import distribution_svg
from scatlab.widgets.review import record_before
from scatlab.widgets.table import Table, enabled_controls

PRESET_NAMES = list(PRESETS)
# French-Canadian games run to 31 points; a target of 5 keeps a whole game short (V16).
SHORT = {
    name: (find_rules(name).replace(points_target=5) if find_rules(name).score_keeping == "points" else name)
    for name in PRESET_NAMES
}


def check_model_matches_state(table: Table) -> None:
    """What the table shows is the state: the learner's hand, the top discard, the stock,
    the standings in the preset's terms, whose turn, and the hand's log in words."""
    s = table.session
    state, seat = s.state, s.seat
    m = s.display()
    view = state.view(seat)
    assert m == s.display()  # the display is a pure function of the session
    assert m.hand == tuple(str(c) for c in view.hand)
    if state.phase is not Phase.THROW_DOWN:
        assert m.hand == tuple(str(c) for c in state.hands[seat])
    assert m.top_discard == (str(state.top_discard) if state.top_discard is not None else None)
    assert m.stock_size == state.stock_size and m.discard_size == len(state.discards)
    assert m.to_move == state.to_move and m.knocker == state.knocker
    # the dealer badge: the finished hand's dealer while its result shows (C3), else the state's
    assert m.dealer == (state.results[-1].dealer if m.showdown is not None else state.dealer)
    for seat_model in m.seats:
        q = seat_model.seat
        assert seat_model.standing == s.standing(q)
        assert seat_model.out == state.out[q]
        if state.phase not in (Phase.DEAL, Phase.GAME_OVER) and q != seat:
            assert seat_model.cards == (None,) * len(state.hands[q])  # opponents face down
    events = state.events or (state.logs[-1] if state.logs and state.phase in (Phase.DEAL, Phase.GAME_OVER) else ())
    assert m.log == tuple(s.words(e.public(seat).describe(pretty=True)) for e in events)
    expected = m.to_json()
    if m.hints is not None and m.hints.chart is not None:  # the widget draws the chart the session describes
        c = m.hints.chart
        expected["hints"]["chart"] = distribution_svg(c.distribution, highlight=c.highlight, title=c.title)
    assert table.surface.state == {
        **expected,
        "pace": 0.0,
        "can_analyze": table.surface.state["can_analyze"],
        "hints_on": s.hints,
        "controls": table.controls,
    }


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_C5_C13_a_whole_seeded_game_by_clicks_under_every_preset(name: str) -> None:
    table = Table(SHORT[name], opponents=("tip", "greedy"), seed=5, hints=False, pace=0)
    rng = random.Random(name)
    for _ in range(5000):
        m = table.surface.state
        if m["game_over"]:
            break
        options = enabled_controls(m)
        assert options, f"no enabled control in phase {m['phase']}: {m['status']}"
        before = table.session.state
        after = table.handle(rng.choice(options))
        assert after["message"] == "", after["message"]  # an enabled control is always legal
        assert table.session.state is not before
        check_model_matches_state(table)
    state = table.session.state
    assert state.is_over and table.surface.state["winner"] == state.winner and state.hand_number > 1
    assert table.surface.state["status"].startswith("Game over") and table.surface.state["can_review"]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_random_clicks_never_raise_and_a_refused_click_changes_nothing(name: str) -> None:
    """Any control, legal or not: an illegal one is refused with the engine's message
    (with its rule code when the engine gives one) and the state is the same object."""
    table = Table(SHORT[name], opponents=("random",), seed=9, hints=False, pace=0)
    rng = random.Random(f"random-{name}")
    codes = [f"{r}{s}" for r in ("A", "K", "10", "7", "2") for s in "HDCS"]
    refused = 0
    for _ in range(400):
        if table.session.state.is_over:
            table.handle({"type": "new"})
        msg = rng.choice(
            [
                {"type": "stock"},
                {"type": "discard"},
                {"type": "knock"},
                {"type": "next"},
                {"type": "card", "card": rng.choice(codes)},
                {"type": "key", "key": rng.choice("dtknxq")},
                {
                    "type": "action",
                    "action": rng.choice(["pass", "hammer", "throw_down", "stop_bus", "declare", "fly"]),
                },
                {"type": "bogus"},
                "not a message",
            ]
        )
        before = table.session.state
        after = table.handle(msg)
        if after["message"]:
            refused += 1
            assert table.session.state is before
        check_model_matches_state(table)
    assert refused > 50


def test_C5_a_refused_move_shows_the_engine_message_with_its_rule_code() -> None:
    table = Table("classic", opponents=("tip", "tip"), seed=7, pace=0)
    table.handle({"type": "stock"})
    state = table.session.state
    shown = table.handle({"type": "stock"})["message"]
    assert shown.startswith("C5: ") and table.session.state is state
    taken = Table("classic", opponents=("tip",), seed=7, pace=0)
    top = taken.surface.state["top_discard"]
    taken.handle({"type": "key", "key": "t"})
    refused = taken.handle({"type": "card", "card": top})["message"]
    assert refused.startswith("C5: a card taken from the discard pile may not be discarded")


def test_C5_a_refusal_out_of_turn_goes_once_the_computer_players_move_on() -> None:
    """A refusal is about the position it answered: pressing D while a computer player is to
    move is refused, and the red message goes with that player's move instead of staying
    beside a turn where drawing is legal."""
    from scatlab.session import TableSession

    s = TableSession("classic", ("tip", "tip"), seat=0, seed=7, auto_play=False)
    s.run_opponents()
    s.click_stock()
    s.click_card(s.state.hands[0][0])
    assert s.waiting and s.message == ""
    state = s.state
    assert "wait for the computer players" in s.click_stock().message and s.state is state
    s.step()
    assert s.message == ""
    s.run_opponents()
    assert not s.waiting and s.display().can_draw and s.display().message == ""


def test_keys_do_what_the_clicks_do() -> None:
    by_key = Table("classic", opponents=("tip", "tip"), seed=21, pace=0)
    by_click = Table("classic", opponents=("tip", "tip"), seed=21, pace=0)
    by_key.handle({"type": "key", "key": "D"})
    by_click.handle({"type": "stock"})
    assert by_key.session.state.hands == by_click.session.state.hands
    card = by_key.surface.state["discardable"][0]
    by_key.handle({"type": "card", "card": card})  # Enter on a focused card sends this
    by_click.handle({"type": "card", "card": card})
    assert by_key.session.display().to_json() == by_click.session.display().to_json()


@pytest.mark.parametrize("name", ["classic", "cadillac", "gin", "ride-the-bus", "french-canadian", "eenendertigen"])
def test_hints_are_exactly_analyze_of_the_learners_view(name: str) -> None:
    s = TableSession(name, opponents=("tip", "tip"), seed=3)
    checked = 0
    rng = random.Random(name)
    while checked < 6 and not s.state.is_over:
        m = s.display()
        if m.hints is not None:
            expected = analyze(s.state.view(s.seat), knock=False)
            got = m.hints.analysis
            assert got.to_json() == expected.to_json() and got.advice == expected.advice
            assert got.knowledge == expected.knowledge
            assert m.hints.advice_action == expected.advice.action
            assert m.hints.advice_reason == s.words(expected.advice.reason)
            assert (str(expected.value),) == (m.hints.rows[0][1],)
            if expected.turn.draw is not None:
                assert m.hints.outs == tuple(str(c) for c in expected.turn.draw.outs_31)
                assert m.hints.chart is not None and m.hints.chart.distribution == expected.turn.draw.distribution
                assert "<desc>" in distribution_svg(m.hints.chart.distribution, highlight=m.hints.chart.highlight)
            checked += 1
        if m.can_next_hand:
            s.next_hand()
            continue
        options = ([s.click_stock] if m.can_draw else []) + [functools.partial(s.click_card, c) for c in m.discardable]
        if m.can_take:
            options.append(s.click_discard)
        rng.choice(options)()
    assert checked == 6


def test_hints_off_show_no_numbers() -> None:
    s = TableSession("classic", seed=3, hints=False)
    assert s.display().hints is None and s.display().rule is not None


def test_C6_C7_showdown_turns_every_hand_up_and_cites_the_rule() -> None:
    # Seat 0 knocks at once with 21; the tip players reply; then the showdown (C6, C7).
    order = deal_order(["AH KH 4C", "2S 3S 5D", "9C 8D 7S"], up="QS", dealer=2)
    s = TableSession("classic", opponents=("tip", "tip"), seed=1, deal=order, dealer=2)
    assert s.display().can_knock
    m = s.knock()
    assert m.phase == "deal" and m.showdown is not None
    result = s.state.results[-1]
    sd = m.showdown
    assert sd.explain == s.words(result.explain()) and ("C7" in sd.explain or "C6" in sd.explain)
    assert set(cited_codes(sd.explain)) <= {r.code for r in sd.rules}
    assert [r.code for r in sd.rules] == list(result.codes)
    for seat, cards, _value in sd.hands:
        assert cards == tuple(str(c) for c in result.final[seat])
        assert m.seats[seat].cards == cards  # all hands turned up
    assert any("loses 1 penny" in line or "loses 2 pennies" in line for line in sd.outcome)
    assert m.rule is not None and m.rule.code == result.notes[0].code
    assert m.log and m.log[0] == "you knock"


def test_C3_the_dealer_badge_stays_with_the_finished_hand_until_the_next_deal() -> None:
    """The game passes the deal on as the hand ends (C3); the table moves the badge only
    when the next hand is dealt, not beside the finished hand's result."""
    order = deal_order(["AH KH 4C", "2S 3S 5D", "9C 8D 7S"], up="QS", dealer=2)
    s = TableSession("classic", opponents=("tip", "tip"), seed=1, deal=order, dealer=2)
    assert s.display().dealer == 2 and s.display().seats[2].dealer
    m = s.knock()
    assert m.showdown is not None and s.state.dealer == 0  # the state has passed the deal on
    assert m.dealer == 2 and [seat.dealer for seat in m.seats] == [False, False, True]
    m = s.next_hand()
    assert m.showdown is None and m.dealer == 0 and m.seats[0].dealer


def test_C8_a_31_ends_the_hand_and_the_rule_governs_the_discard() -> None:
    order = deal_order(["AH KH 4C", "2S 3S 5D", "9C 8D 7S"], up="QH", dealer=2)
    s = TableSession("classic", opponents=("tip", "tip"), seed=1, deal=order, dealer=2)
    s.click_discard()
    assert s.display().hints is not None and s.display().hints.rule.code == "C8"  # type: ignore[union-attr]
    m = s.click_card("4C")
    assert m.showdown is not None and m.showdown.ended == "31"
    assert "C8" in m.showdown.explain and "C8" in [r.code for r in m.showdown.rules]


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("classic", "3 pennies"),
        ("cadillac", "4 nickels"),
        ("gin", "no letters"),
        ("ride-the-bus", "seated at the back"),
        ("french-canadian", "0 points"),
        ("eenendertigen", "3 pennies"),
    ],
)
def test_C13_V13_V14_V15_V16_standings_in_the_presets_own_terms(name: str, words: str) -> None:
    s = TableSession(name, seed=2)
    assert [seat.standing for seat in s.display().seats] == [words] * 3


def test_C13_a_player_with_no_pennies_is_on_the_county() -> None:
    s = TableSession("classic", seed=2)
    state = s.state
    object.__setattr__(state, "lives", (0, 3, 3))  # a hand-built moment: seat 0 has no penny left
    assert s.standing(0) == "on the county"


def test_undo_restores_the_exact_earlier_state_and_marks_practice() -> None:
    s = TableSession("classic", opponents=("tip", "tip"), seed=4)
    start = s.state
    first = s.display()
    s.click_stock()
    mid = s.state
    s.click_card(s.display().discardable[0])
    assert s.state is not mid and s.display().can_undo
    assert s.undo().notice.endswith("this game is now practice")
    assert s.state is mid and s.practice
    s.undo()
    assert s.state is start
    again = s.display()
    assert again.practice and again.hand == first.hand and again.log == first.log
    assert s.undo().message.startswith("nothing to undo")
    # the same moves again lead to the same game (the opponents' choices come from the seed)
    s.click_stock()
    assert s.state.hands == mid.hands


def test_save_then_load_continues_the_same_game() -> None:
    a = TableSession("gin", opponents=("tip", "expert"), seed=12)
    rng = random.Random(0)
    for _ in range(12):  # (with seed 12 the expert wins this game after 21 clicks: save before that)
        m = a.display()
        options = ([a.click_stock] if m.can_draw else []) + [functools.partial(a.click_card, c) for c in m.discardable]
        options += [a.next_hand] if m.can_next_hand else []
        rng.choice(options)()
    assert not a.display().game_over  # a game in progress is saved
    saved = a.record_json()
    assert GameRecord.loads(saved) == GameRecord.from_state(a.state)
    b = TableSession("gin", opponents=("tip", "expert"), seed=12)
    m = b.load_record(saved)
    assert m.notice.startswith("loaded a saved game") and m.message == ""
    assert GameRecord.from_state(b.state) == GameRecord.from_state(a.state)
    assert b.display().hand == a.display().hand and b.display().log == a.display().log
    continued = 0
    for _ in range(25):  # the same clicks give the same game in both
        ma = a.display()
        if ma.game_over:
            break
        continued += 1
        pick = rng.randrange(10)
        for s in (a, b):
            mm = s.display()
            options = ([s.click_stock] if mm.can_draw else []) + [
                functools.partial(s.click_card, c) for c in mm.discardable
            ]
            options += [s.next_hand] if mm.can_next_hand else []
            options[pick % len(options)]()
        assert a.state.hands == b.state.hands and a.display().log == b.display().log
    assert continued > 0


def test_a_bad_record_is_refused_and_changes_nothing() -> None:
    s = TableSession("classic", seed=1)
    state = s.state
    assert s.load_record("{not json").message.startswith("cannot load the record: not JSON")
    assert s.load_record(b"\xff\xfe").message.startswith("cannot load the file")
    two = TableSession("classic", opponents=("tip",), seed=1).record_json()
    assert "seats 3" in s.load_record(two).message
    assert s.state is state


def test_new_game_seed_and_a_given_deal() -> None:
    s = TableSession("classic", seed=8)
    hands = s.state.hands
    assert s.new_game(8).seed == 8 and s.state.hands == hands
    order = deal_order(["AH KH 4C", "2S 3S 5D", "9C 8D 7S"], up="QS", dealer=2)
    s.new_game(8, deal=order)
    assert s.display().hand == ("AH", "KH", "4C") and s.display().top_discard == "QS"
    assert s.new_game().hand_number == 1 and s.display().seed == s.seed
    with pytest.raises(ValueError, match="seed=-1"):
        s.new_game(-1)


def test_V10_V11_V19_buttons_appear_only_when_legal() -> None:
    rules = RuleSet.from_codes("V10", "V11", "V19")
    s = TableSession(rules, opponents=("tip", "tip"), seed=6)
    m = s.display()
    assert m.phase == "throw_down" and dict(m.buttons) == {"throw_down": "Throw down", "pass": "Pass"}
    assert m.hand == () and all(c is None for c in m.seats[0].cards)  # V11: decided before looking
    m = s.play("pass")
    assert "hammer" in dict(m.buttons) and m.can_knock
    m = s.click_stock()
    assert "stop_bus" not in dict(m.buttons)  # V19: not in the first turn
    classic = TableSession("classic", seed=6).display()
    assert classic.buttons == ()


def test_opponents_step_one_move_at_a_time_and_why_explains_the_last() -> None:
    s = TableSession("classic", opponents=("tip", "tip"), seed=4, auto_play=False)
    s.click_stock()
    s.click_card(s.display().discardable[0])
    assert s.waiting and s.display().why is None
    refused = s.click_stock()
    assert "wait" in refused.message
    seen = s.view()  # the learner's view as player 1 moves
    decision = s.step()
    assert decision is not None and s.last_decision == (1, decision)
    why = s.display().why
    public = make_player("tip").public_reason(decision.action, seen)  # from the learner's view only
    assert why == f"player 2 (tip) chose to {s.words(str(decision.action))}: {s.words(public)}"
    assert s.run_opponents() >= 1 and not s.waiting


def test_why_tells_a_live_move_from_the_learners_view_and_its_own_reason_once_the_hands_are_shown() -> None:
    """While the hand is live "Why?" is the mover's public reason; once the hand is over (every
    hand face up) it is the mover's own, and the showdown lists every computer move of the hand
    with its own reason. Undo brings back the moves of the position it returns to; the next
    deal clears them."""
    s = TableSession("classic", opponents=("expert",), seed=3, hints=False, auto_play=False)
    me = make_player("tip")
    rng = random.Random(3)
    while s.state.phase is not Phase.DEAL:
        if s.waiting:
            s.step()
            move, now = s.moves[-1], s.display()
            if now.phase != "deal":
                assert (
                    now.why == f"player 2 (expert) chose to {s.words(str(move.decision.action))}: "
                    f"{s.words(move.public)}"
                )
        else:
            s.play(me.decide(s.view(), rng).action)
    m = s.display()
    own = [
        f"player 2 (expert) chose to {s.words(str(x.decision.action))}: {s.words(x.decision.reason)}" for x in s.moves
    ]
    assert m.showdown is not None and list(m.showdown.reasons) == own and len(own) > 1
    assert m.why == own[-1] and any("keeping" in line for line in own)  # the expert names what it kept
    assert all(x.hand_number == 1 for x in s.moves)
    after = s.next_hand()  # the new hand's cards are face down: nothing of hand 1 is told
    assert len(s.moves) == 0 and after.why is None and after.showdown is None
    s.step()
    moves: tuple[ComputerMove, ...] = s.moves
    assert [(x.hand_number, x.seat) for x in moves] == [(2, 1)] and s.display().why == (
        f"player 2 (expert) chose to {s.words(str(moves[0].decision.action))}: {s.words(moves[0].public)}"
    )
    back = s.undo()
    assert (
        back.phase == "deal"
        and back.why == own[-1]
        and back.showdown is not None
        and back.showdown.reasons == tuple(own)
    )


def test_table_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="7 players"):
        TableSession("classic", opponents=("tip",) * 6)
    with pytest.raises(ValueError, match="seat=3"):
        TableSession("classic", opponents=("tip", "tip"), seat=3)
    with pytest.raises(ValueError, match="pace"):
        Table(pace=-1)
    with pytest.raises(ValueError, match="champion"):
        TableSession("classic", opponents=("champion",))


def test_save_offers_the_record_as_a_download() -> None:
    table = Table("classic", opponents=("tip",), seed=3, pace=0)
    table.handle({"type": "save"})
    download = table.surface.download
    assert download["name"] == "scatlab-game-seed-3-hand-1.json"
    assert GameRecord.loads(download["text"]) == GameRecord.from_state(table.session.state)
    table.handle({"type": "stock"})
    assert table.surface.download == {}  # the record (the deck in it) left the browser with the next click
    card = table.surface.state["discardable"][0]
    table.handle({"type": "card", "card": card})
    assert GameRecord.from_state(table.session.state) != GameRecord.loads(download["text"])
    table.handle({"type": "load", "text": download["text"]})
    assert GameRecord.from_state(table.session.state) == GameRecord.loads(download["text"])


def test_model_json_is_plain_data() -> None:
    import json

    m: TableDisplay = TableSession("classic", seed=3).display()
    text = json.dumps(m.to_json())
    assert "analysis" not in json.loads(text)["hints"]


def test_in_a_kernel_a_click_sets_the_complete_hints_at_once() -> None:
    """In an event loop (a kernel) a click sets the table with the complete hints: the
    ranking (and with it the advice) answers in milliseconds, nothing is left pending."""
    import asyncio

    async def run() -> tuple[dict[str, Any], Table]:
        table = Table("classic", opponents=("tip", "tip"), seed=7, pace=0)
        table.handle({"type": "stock"})
        await asyncio.sleep(0)
        first = table.handle({"type": "card", "card": table.surface.state["discardable"][0]})
        return first, table

    # a thread of its own: another test's browser driver may hold this thread's event loop
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        first, table = pool.submit(asyncio.run, run()).result()
    expected = analyze(table.session.view(), knock=False)
    assert "pending" not in first["hints"]
    assert first["hints"]["advice_reason"] == expected.advice.reason
    assert table.session.display().hints.analysis.to_json() == expected.to_json()  # type: ignore[union-attr]


def test_analyze_this_position_opens_the_learners_view_in_an_analyzer() -> None:
    from scatlab.widgets import Analyzer

    table = Table("classic", opponents=("tip", "tip"), seed=7, pace=0)
    assert table.surface.state["can_analyze"]
    table.handle({"type": "analyze"})
    assert len(table.children) == 2 and isinstance(table.children[1], Analyzer)
    expected = Analyzer.from_view(table.session.view())
    assert type(table.children[1]) is type(expected)
    # between hands there is no hand to analyse: refused with a message, nothing opened
    order = deal_order(["AH KH 4C", "2S 3S 5D", "9C 8D 7S"], up="QH", dealer=2)
    done = Table("classic", opponents=("tip", "tip"), seed=1, deal=order, dealer=2, pace=0)
    done.handle({"type": "discard"})
    done.handle({"type": "card", "card": "4C"})
    assert done.surface.state["phase"] == "deal"
    message = done.handle({"type": "analyze"})["message"]
    assert message.startswith("cannot analyse this position") and len(done.children) == 1


def test_C6_the_showdown_names_the_knocker() -> None:
    order = deal_order(["AH KH 4C", "2S 3S 5D", "9C 8D 7S"], up="QS", dealer=2)
    s = TableSession("classic", opponents=("tip", "tip"), seed=1, deal=order, dealer=2)
    showdown = s.knock().showdown
    assert showdown is not None and showdown.knocker == 0 == s.state.results[-1].knocker


# -- "Review this game" (issue 10) -----------------------------------------------------------

# One life and no county (C13 without the county): the loser of a hand is out, so a
# two-player game ends with its first hand.
ONE_HAND = {"lives": 1, "county": False}


def _finish_by_clicks(table: Table, seed: str) -> list[dict[str, Any]]:
    """Play the learner's moves by random enabled clicks until the game is over; returns
    every table model seen before the end."""
    rng = random.Random(seed)
    seen: list[dict[str, Any]] = []
    for _ in range(5000):
        m = table.surface.state
        if m["game_over"]:
            return seen
        seen.append(m)
        table.handle(rng.choice(enabled_controls(m)))
    raise AssertionError("the game did not end")


def test_review_this_game_is_offered_only_once_the_game_is_over() -> None:
    from scatlab.widgets.review import ReviewWidget

    table = Table("quick", opponents=("tip", "greedy"), seed=4, hints=False, pace=0)
    seen = _finish_by_clicks(table, "review-offer")
    assert seen and not any(m["can_review"] for m in seen)
    assert any(m["phase"] == "deal" for m in seen)  # not offered between hands either
    end = table.surface.state
    assert end["game_over"] and end["can_review"] and "Review this game" in end["status"]
    widget = table.handle({"type": "review"}) and table.children[-1]
    assert len(table.children) == 2 and isinstance(widget, ReviewWidget)
    assert widget.result.seats == (0,) and widget.steps.record == table.session.record()
    table.handle({"type": "seed", "seed": "x"})  # a refused seed changes nothing
    assert table.children[-1] is widget
    table.handle({"type": "new"})  # the review of the old game goes with it
    assert len(table.children) == 1 and not table.surface.state["can_review"]


def test_review_before_the_end_is_refused_and_opens_nothing() -> None:
    table = Table("classic", opponents=("tip", "tip"), seed=7, pace=0)
    before = table.session.state
    message = table.handle({"type": "review"})["message"]
    assert message.startswith("cannot review yet") and len(table.children) == 1
    assert table.session.state is before
    with pytest.raises(AnalysisError, match="the game is not over"):
        table.session.review()


@pytest.mark.parametrize(("seat", "seed"), [(0, 3), (1, 8), (2, 12)])
def test_the_review_covers_the_learners_decisions_from_the_learners_view(seat: int, seed: int) -> None:
    """The review of a finished table game is exactly ``review_game(record, player=seat)``:
    every decision is the learner's, taken in the learner's view of the real position, and
    nothing reachable from it is a card the learner could not see (the reachability walk
    of the player tests)."""
    table = Table(ONE_HAND, opponents=("tip", "random"), seat=seat, seed=seed, hints=False, pace=0)
    _finish_by_clicks(table, f"review-{seat}")
    record = table.session.record()
    result = table.session.review()
    assert [d.to_json() for d in result.decisions] == [d.to_json() for d in review_game(record, player=seat).decisions]
    learner_moves = [
        (h, i)
        for h, hand in enumerate(record.hands, 1)
        for i, (p, a) in enumerate(hand.actions, 1)
        if p == seat and len(_state_before(record, h, i).legal_actions()) > 1
    ]
    assert [(d.hand, d.index) for d in result.decisions] == learner_moves
    for d in result.decisions:
        state = _state_before(record, d.hand, d.index)
        assert d.player == seat and d.view == state.view(seat)
        cards, states = reachable(d)
        assert states == []
        assert cards <= public_cards(state, seat)


def test_the_review_does_not_change_with_cards_the_learner_never_saw() -> None:
    """Swap two stock cards nobody drew (hidden from everyone for the whole hand): the
    game replays identically and the learner's review is the same, number for number."""
    order = deal_order(["AH KH 4C", "2S 3S 5D"], up="QS", dealer=1)
    game = []
    for deck in (order, order[:-2] + (order[-1], order[-2])):
        table = Table(ONE_HAND, opponents=("tip",), seed=2, deal=deck, dealer=1, hints=False, pace=0)
        _finish_by_clicks(table, "hidden")
        assert table.session.record().hands[0].deck == deck
        game.append([d.to_json() for d in table.session.review().decisions])
    assert game[0] == game[1] and game[0]


def _state_before(record: GameRecord, hand: int, index: int) -> GameState:
    """The real state just before action ``index`` of hand ``hand`` (both from 1)."""
    return replay(record_before(record, hand, index))


def test_C6_the_knock_rows_are_the_rankings_figures_beside_playing_on_estimates_marked() -> None:
    """The table shows the figures the advice compares: the knock's chances and expected
    lives, and playing on's. Against two opponents they are the engine's estimates, so their
    exact column says ``estimate`` (never a rounded decimal passed off as a fraction), as does
    the chance that playing on costs a life; no "±". The chance of winning is not a row: it is
    shown first, as levels (``HintsDisplay.chances``)."""
    from scatlab.session.display import ESTIMATE

    s = TableSession("classic", opponents=("tip", "tip"), seed=8)
    m = s.display()
    assert m.hints is not None and m.hints.analysis.ranking is not None
    ranking = m.hints.analysis.ranking
    knock = ranking.move("knock")
    assert not knock.exact_risk
    rows = {label: (exact, shown) for label, exact, shown in m.hints.rows}
    assert rows["knock: chance of losing one life"] == (ESTIMATE, chance_words(knock.p_one or Fraction(0)))
    assert rows["knock: chance of losing two lives"][0] == ESTIMATE
    assert rows["knock: lives lost on average"] == (ESTIMATE, f"{float(knock.lives or 0):.2f}")
    assert rows["playing on: chance of losing a life this hand"] == (
        ESTIMATE,
        chance_words(ranking.play_on_lives or Fraction(0)),
    )
    assert not any("change in" in label for label in rows)  # a chance of winning is a level, shown first
    chances = {c.move: c.level for c in m.hints.chances}
    assert chances["knock"] == win_level(knock.win) and m.hints.chance_now == win_level(ranking.now)
    assert rows["draw: chance of 31"][0] != ESTIMATE  # counted over the unseen cards: exact
    assert not any("±" in shown or "Monte Carlo" in label for label, _, shown in m.hints.rows)


def test_C6_against_one_opponent_the_knock_rows_are_exact_counts() -> None:
    """Against one opponent with lives kept the knock's chances are exact counts
    (docs/design/engine.md): the exact column holds their fractions, and lives = one + 2 × two."""
    for seed in range(20):
        m = TableSession("classic", opponents=("tip",), seed=seed).display()
        ranking = m.hints.analysis.ranking if m.hints is not None else None
        if ranking is None or not any(mv.ends_hand for mv in ranking.moves):
            continue
        knock = ranking.move("knock")
        assert knock.exact_risk and knock.p_one is not None and knock.p_two is not None
        rows = {label: exact for label, exact, _ in m.hints.rows}  # type: ignore[union-attr]
        assert rows["knock: chance of losing one life"] == str(knock.p_one)
        assert rows["knock: chance of losing two lives"] == str(knock.p_two)
        assert rows["knock: lives lost on average"] == str(knock.p_one + 2 * knock.p_two)
        return
    raise AssertionError("no seed gave a knock to weigh against one opponent")


def test_a_table_offers_the_controls_asked_for_and_refuses_an_unknown_set() -> None:
    """``controls="beginner"`` tells the browser to show undo, new game and hints only;
    an unknown set is refused with the choices named."""
    from scatlab.errors import ScatlabError
    from scatlab.widgets.table import CONTROLS, Table

    assert Table("classic", seed=3, pace=0, controls="beginner").surface.state["controls"] == "beginner"
    assert Table("classic", seed=3, pace=0).surface.state["controls"] == "full"
    with pytest.raises(ScatlabError, match="'expert' is not a choice: use one of full, beginner"):
        Table("classic", seed=3, pace=0, controls="expert")
    assert CONTROLS == ("full", "beginner")


def test_the_hints_speak_the_lessons_words() -> None:
    """docs/design/voice.md: the table's hints use no notation ("P(31)", "expected value"),
    a draw's chances are counted over the unseen cards ("3 in 48 (about 6%)"), and the
    one-draw average and the five-turn figure say which is which."""
    import re

    from scatlab.session import TableSession

    for seed in range(6):
        session = TableSession("classic", opponents=("tip", "tip"), seed=seed)
        model = session.display()
        if model.hints is None:
            continue
        labels = [row[0] for row in model.hints.rows]
        shown = " ".join(label + " " + row[2] for label, row in zip(labels, model.hints.rows))
        assert "P(" not in shown and "expected value" not in shown and "E[" not in shown
        assert "draw: worth on average after this one draw" in labels
        chance = {row[0]: row[2] for row in model.hints.rows}["draw: chance of 31"]
        assert re.fullmatch(r"\d+ in \d+ \((about )?\d+%\)|\d+ in \d+ \((never|under 1%)\)", chance), chance
        return
    raise AssertionError("no seed gave the learner a decision with hints")


def test_the_charts_title_names_a_gold_bar_only_where_one_is_drawn() -> None:
    """The chart colours the value taking gives only where a draw can give it too; its title
    says "gold" exactly then (seed 0: taking gives 18, a draw can; seed 4: taking gives 13,
    no draw can)."""
    for seed, gold in ((0, True), (4, False)):
        m = TableSession("classic", opponents=("tip", "tip"), seed=seed).display()
        assert m.hints is not None and m.hints.chart is not None
        chart = m.hints.chart
        assert chart.highlight is not None and "taking the" in chart.title
        assert (chart.highlight in chart.distribution) is gold
        assert ("gold:" in chart.title) is gold, chart.title


def test_C6_a_last_turn_shows_each_way_of_playing_on_once() -> None:
    """After a knock (C6) the one-draw and take rows are the ranking's figures (the hand now):
    no second row saying the same as "worth now (last turn)"."""
    from scatlab.rules import Action
    from scatlab.session.display import hints_display

    s = GameState.new("classic", 2).deal(deal_order(["2S 3S 9D", "10H 8H JH"], up="5C")).apply(Action.KNOCK)
    view = s.view(s.to_move)  # type: ignore[arg-type]
    a = analyze(view, knock=False)
    assert a.ranking is not None and a.ranking.horizon == 0
    labels = [label for label, _, _ in hints_display(a, view, "C6").rows]
    assert "draw: worth on average after this one draw" in labels and "take the 5♣, throw the 2♠: worth now" in labels
    assert not any("(last turn)" in label for label in labels), labels
