"""Look deeper in the table's hints and in the hand analyzer (issue 67), without a browser:
the page sends ``{"type": "deep"}`` and the kernel decides everything. A look shows a
progress bar that says what it is doing, its verdict as it sharpens and final; a forged
message (no decision to weigh, a look already running) is refused harmlessly."""

from __future__ import annotations

from typing import Any

from helpers.hidden_cards import cards_named, seen_by
from scatlab.rules import Phase
from scatlab.session import TableSession
from scatlab.widgets.analyzer import Analyzer
from scatlab.widgets.deeper import LookRunner
from scatlab.widgets.table import Table

LOOK = 120  # rollouts: three batches of deals in a test


def table() -> Table:
    t = Table("classic", opponents=("tip", "tip"), seed=7, pace=0)
    t.look_budget, t.look_seconds = LOOK, 3600
    return t


def watch(widget: Any, name: str) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    widget.observe(lambda change: seen.append(dict(change["new"])), name)
    return seen


def test_the_tables_look_deeper_shows_progress_then_the_verdict_as_it_sharpens_below_the_hints() -> None:
    t = table()
    before = t.surface.state
    assert before["deeper"]["can"] and before["deeper"]["lines"] == [] and before["deeper"]["note"]
    progress, states = watch(t.surface, "progress"), watch(t.surface, "state")
    t.handle({"type": "deep"})
    assert progress[0]["what"] == "Looking deeper: drawing deals that fit what you can see" and progress[-1] == {}
    assert any(
        p and "Looking deeper: the master plays each move out in deal " in p["what"] and p["done"] == p["total"]
        for p in progress
    )
    shown = [s["deeper"] for s in states if s["deeper"]["lines"]]
    assert not shown[0]["final"] and shown[0]["lines"][-1].startswith("Still looking:")
    assert shown[-1]["final"] and shown[-1]["lines"][0].startswith("A deeper look ") and shown[-1]["how"]
    after = t.surface.state
    assert after["deeper"] == shown[-1] and not after["deeper"]["can"]
    assert after["hints"] == before["hints"]  # the hints' own text is kept; the look is added below
    kept = t.session.deeper()
    assert kept is not None and kept.final
    said = " ".join(after["deeper"]["lines"]) + after["deeper"]["how"]
    assert cards_named(said) and cards_named(said) <= seen_by(t.session.state, t.session.seat)  # no hidden card


def test_asking_again_at_the_same_moment_searches_nothing_and_a_move_clears_the_look() -> None:
    t = table()
    t.handle({"type": "deep"})
    progress = watch(t.surface, "progress")
    t.handle({"type": "deep"})
    assert progress == [] and t.surface.state["deeper"]["final"]
    t.handle({"type": "stock"})  # drawing: a new moment, a new decision (the discard)
    fresh = t.surface.state["deeper"]
    assert fresh["can"] and fresh["lines"] == [] and not fresh["final"] and t.session.deeper() is None


def test_a_forged_deep_message_with_nothing_to_weigh_is_refused_harmlessly() -> None:
    t = table()
    t.session.hints = False
    t._refresh()
    progress = watch(t.surface, "progress")
    state = t.handle({"type": "deep"})
    assert progress == [] and t.session.deeper() is None
    assert state["message"] == "no deeper look now: the hints are off" and state["deeper"] is None
    t.handle({"type": "hints", "on": True})
    game = t.session.state
    t.session.state = game.apply("knock")  # the opponents' last turns: not the learner's
    t.session.run_opponents = lambda limit=0: 0  # type: ignore[method-assign]  # leave them waiting
    state = t.handle({"type": "deep"})
    assert progress == [] and "no deeper look now: it is not your turn" in state["message"]
    assert t.session.state.phase is Phase.TURN and t.session.state.knocker == 0  # nothing else changed


def test_a_deep_message_while_a_look_runs_is_refused_harmlessly() -> None:
    t = table()
    t._looks.busy = True  # a look under way (the kernel handles one message at a time)
    progress = watch(t.surface, "progress")
    assert t.look_deeper() is None and progress == [] and t.session.deeper() is None
    runner = LookRunner(lambda _p: None)
    assert runner.run(lambda _progress: runner.run(lambda _p: "inner")) is None  # one at a time


def test_the_table_session_looks_from_the_learners_view_only() -> None:
    s = TableSession("classic", opponents=("tip", "tip"), seed=7)
    seen: list[Any] = []
    look = s.look_deeper(LOOK, 3600, on_verdict=seen.append)
    assert look is not None and look.final and seen[-1] is look and s.deeper() is look
    from scatlab.players.deeper import look_at_view

    again = look_at_view(s.view(), budget=LOOK, seconds=3600, seed=s.seed or 0)
    assert look is not None and again.to_json() == look.to_json()


def test_the_analyzers_look_deeper_shows_progress_and_the_verdict_from_a_deep_message() -> None:
    a = Analyzer("AH KH 4C", discard="9S")
    a.look_budget, a.look_seconds = LOOK, 3600
    assert a.deeper.state["can"] and "Look deeper asks the master" in a.deeper.state["note"]
    progress, states = watch(a.deeper, "progress"), watch(a.deeper, "state")
    a.deeper._on_message(a.deeper, {"type": "deep"}, [])
    assert progress[0]["done"] == 0 and progress[-1] == {}
    assert any(p and "deal " in p["what"] for p in progress)
    assert not states[0]["final"] and states[-1]["final"] and not states[-1]["can"]
    assert states[-1]["lines"][0].startswith("A deeper look ") and "How it" not in states[-1]["how"]
    a.pick("QH")  # a new position (four cards): the look goes, the button is back
    assert a.deeper.state["can"] and a.deeper.state["lines"] == []


def test_the_analyzer_refuses_a_look_it_cannot_make_and_says_why() -> None:
    a = Analyzer("AH KH", discard="9S")  # two cards: not a position yet
    assert a.deeper.state == {}
    a.deeper._on_message(a.deeper, {"type": "deep"}, [])
    assert a.model.deeper() is None
    a.type("hand", "AH KH QH")  # 31: declared at once, nothing to weigh
    assert not a.deeper.state["can"] and "No deeper look here: AH KH QH is 31" in a.deeper.state["note"]
    assert a.look_deeper() is None
    a.deeper._on_message(a.deeper, {"type": "something else"}, [])
    beginner = Analyzer("AH KH 4C", discard="9S", beginner=True)  # lesson 2: no master yet
    assert beginner.deeper.layout.display == "none" and beginner.look_deeper() is None
