"""The decision engine (scatlab.analysis.engine.ranking) behind the advice, the hints, the review
and the expert: each part of its rule at its boundary, the decision oracle over seeded whole
games under every preset, and the expert playing the engine's first move at every decision.

The oracle plays ``SCATLAB_ORACLE_GAMES`` seeded games per preset (unset: 20, and 3 under
french-canadian, whose race to 31 points makes games of a thousand decisions) between
random and tip players (random players reach odd positions a learner reaches: passed 31s,
late knocks, an empty stock) and checks **every** decision of every seat. For the figure
the README quotes (300 games per preset):
``SCATLAB_ORACLE_GAMES=300 pytest tests/analysis/test_ranking.py -k oracle``.
"""

from __future__ import annotations

import itertools
import os
from fractions import Fraction

import pytest

from scatlab.analysis import (
    CLOSE_CALL,
    EXPERT,
    HORIZON,
    Position,
    Ranking,
    analyze,
    decide,
    knock_line,
    rank,
)
from scatlab.analysis.counting.knowledge import Knowledge
from scatlab.analysis.counting.onestep import analyze_turn
from scatlab.analysis.engine.advice import advise
from scatlab.analysis.engine.decision import Option, ordered
from scatlab.analysis.engine.ranking import _rank_options
from scatlab.analysis.explain.review import assess
from scatlab.analysis.model.valuation import KnockOutcome, KnockValuation, Standing
from scatlab.cli import main
from scatlab.errors import AnalysisError
from scatlab.players import make_player
from scatlab.players.tournament import play_out
from scatlab.rules import PRESETS, Action, ActionKind, GameState, RuleSet, deal_order, find_rules
from scatlab.rules.state import Phase
from scatlab.rules.values import blitz_of, value_of
from scatlab.rules.view import PlayerView

F = Fraction


# -- C8: a sure 31 first -----------------------------------------------------------------------


def test_C8_taking_the_discard_into_a_sure_31_is_advised_not_a_knock() -> None:
    """The issue's case: 10H 8H JH with the AH on the pile, two opponents. Taking the A♥ and
    throwing the 8♥ is a 31 (C8): the advice takes it, the knock comes last."""
    a = analyze("10H 8H JH", discard="AH", opponents=2)
    assert (a.advice.action, str(a.advice.discard)) == ("take", "8H")
    assert "makes 31" in a.advice.reason and "C8" in a.advice.codes
    assert a.ranking is not None and a.ranking.best.sure_31
    assert a.ranking.best.name == "take" and {m.name for m in a.ranking.moves} == {"take", "draw", "knock"}


def test_C8_the_cli_advises_taking_into_31(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "10H", "8H", "JH", "--discard", "AH", "--opponents", "2"]) == 0
    out = capsys.readouterr().out
    advice = next(line for line in out.splitlines() if line.startswith("Advice:"))
    assert advice.startswith("Advice: TAKE (throw 8♥)") and "KNOCK" not in advice


@pytest.mark.parametrize("name", list(PRESETS))
def test_C8_C9_a_hand_worth_31_is_declared_never_knocked(name: str) -> None:
    rules = find_rules(name)
    hand = "AS KS QS" if rules.deck_size == 52 else "AS KS QS"
    a = analyze(hand, discard="9H", opponents=2, rules=rules)
    assert a.advice.action == "declare" and "C8" in a.advice.codes


def test_C8_a_discard_that_keeps_31_is_advised_over_a_higher_future() -> None:
    k = Knowledge.of("AH KH QH 2C", opponents=1)
    r = rank(Position.of(k))
    assert r.best.action == Action.discard("2C") and r.best.sure_31


def test_C8_a_sure_31_by_taking_comes_before_a_knock_the_engine_would_make() -> None:
    """22 (K♥ Q♥ 2♥) against three opponents just dealt is a knock on its own; with the A♥
    on the pile a take makes 31, which comes first (C8)."""
    knock = rank(Position.of(Knowledge.of("KH QH 2H", discard="2S", opponents=3)))
    assert knock.best.name == "knock"
    sure = rank(Position.of(Knowledge.of("KH QH 2H", discard="AH", opponents=3)))
    assert sure.best.name == "take" and sure.best.sure_31 and sure.best.then == Action.discard("2H").card
    assert sure.best.win > sure.move(Action.KNOCK).win


def _option(kind: str, win: float, card: str | None = None) -> Option:
    action = Action.discard(card) if kind == "discard" and card else Action(ActionKind(kind))
    return Option(action, win, 0.0)


def test_one_scale_the_moves_are_ordered_by_the_chance_of_winning() -> None:
    position = Position.of(Knowledge.of("AH KH 4C", discard="9S", opponents=2))
    moves = [_option("knock", 0.40), _option("take", 0.45), _option("draw", 0.44)]
    assert [o.action.kind.value for o in ordered(moves, position)] == ["take", "draw", "knock"]


@pytest.mark.parametrize(
    ("kinds", "first"), [(("draw", "take"), "take"), (("knock", "draw"), "draw"), (("knock", "take", "draw"), "take")]
)
def test_one_scale_a_tie_goes_to_take_then_draw_then_knock(kinds: tuple[str, ...], first: str) -> None:
    """On equal chances of winning the order of rule 1: declare, take, draw, pass, discard, knock."""
    position = Position.of(Knowledge.of("AH KH 4C", discard="9S", opponents=2))
    assert ordered([_option(k, 0.4) for k in kinds], position)[0].action.kind.value == first


def test_C11_with_the_stock_gone_a_tie_passes_so_that_a_hand_of_takers_ends() -> None:
    k = Knowledge(
        hand=Knowledge.of("AH KH 4C").hand,
        top=Knowledge.of("AH KH 4C", discard="9S").top,
        dead=(),
        opponent_holds=(),
        opponents=1,
        rules=find_rules("classic"),
        stock_size=0,
    )
    position = Position.of(k)
    assert ActionKind.PASS in position.kinds and ActionKind.DRAW not in position.kinds
    assert ordered([_option("take", 0.4), _option("pass", 0.4)], position)[0].action.kind is ActionKind.PASS
    r = rank(position)  # the 9♠ does not raise A♥ K♥ (21): pass
    assert r.best.action.kind is ActionKind.PASS


@pytest.mark.parametrize(("gap", "close"), [(CLOSE_CALL - F(1, 10**6), True), (CLOSE_CALL, False)])
def test_a_close_call_is_a_move_within_the_close_call_width_of_the_best(gap: Fraction, close: bool) -> None:
    """At the boundary: a move whose chance of winning is a millionth less than the width
    below the best's is a close call; one exactly the width below is not."""
    position = Position.of(Knowledge.of("AH KH 4C", discard="9S", opponents=2))
    ranked = _rank_options(position, [_option("take", 0.5), _option("draw", float(F(1, 2) - gap))])
    assert ranked.moves[1].close is close and not ranked.moves[0].close
    assert ranked.cost("draw") == (0 if close else gap)


def test_one_scale_the_best_move_has_the_highest_chance_of_winning() -> None:
    for hand, top, opponents in (
        ("AH KH 4C", "9S", 1),
        ("AH KH 4C", "9S", 2),
        ("7S 7H 7D", "2C", 2),
        ("10H 8H JH", "AH", 2),
        ("2S 5D 9C", "KD", 3),
        ("AH KH QS", "2C", 1),
    ):
        r = rank(Position.of(Knowledge.of(hand, discard=top, opponents=opponents)))
        assert all(r.best.win >= m.win for m in r.moves), [(m.name, m.win) for m in r.moves]
        assert [m.win for m in r.moves] == sorted((m.win for m in r.moves), reverse=True)
        assert all(m.close == (r.best.win - m.win < CLOSE_CALL) for m in r.moves[1:])


def test_C6_a_knock_already_made_leaves_no_knock_to_advise() -> None:
    s = GameState.new("classic", 2).deal(deal_order(["2S 3S 9D", "10H 8H JH"], up="5C"))
    s = s.apply(Action.KNOCK)
    view = s.view(s.to_move)  # type: ignore[arg-type]
    a = analyze(view, knock=False)
    assert a.ranking is not None and a.ranking.horizon == 0
    assert all(not m.ends_hand for m in a.ranking.moves)
    assert "knock" not in a.advice.reason


def test_V6_no_knock_in_the_first_round_is_never_advised() -> None:
    rules = RuleSet.from_codes("V6")
    s = GameState.new(rules, 2).deal(deal_order(["2S 3S 9D", "AH KH QS"], up="5C", rules=rules))
    r = rank(s.view(1))
    assert ActionKind.KNOCK not in {m.action.kind for m in r.moves}


def test_C7_V8_V7_the_knock_outcome_follows_the_tie_and_lowest_rules() -> None:
    """An opponent sure to end on 20 against a knock of 20 (a tie) or of 19 (lowest)."""
    import numpy as np

    sure20 = np.zeros(67)
    sure20[40] = 1.0
    valuation = KnockValuation()

    def outcome(rules: RuleSet, k: int) -> KnockOutcome:
        return valuation.outcome(Standing.fresh(rules, 1), [sure20], k)

    classic = find_rules("classic")
    assert (outcome(classic, 38).p_two, outcome(classic, 38).p_one) == (1.0, 0.0)  # C7: lowest alone loses two
    assert outcome(classic, 40).own == 0.0  # C7: a tying knocker loses nothing
    v8 = RuleSet.from_codes("V8")
    assert (outcome(v8, 38).p_one, outcome(v8, 38).p_two) == (1.0, 0.0)  # V8: the knocker loses one
    cadillac_tie = RuleSet.from_codes("V7", knocker_tie="cadillac")
    assert outcome(cadillac_tie, 40).p_two == 1.0  # a tie costs the knocker two


def test_the_knock_line_is_the_engines_rule_for_every_value() -> None:
    """C6, one scale: for every value of the chart the engine knocks exactly where knocking's
    chance of winning the game is above playing on's (a tie plays on: the knock is last in the
    tie order), and ``line`` is the lowest value from which every higher value knocks (None
    where the top value plays on). Against one opponent the first knocking value never falls
    as the turns go by."""
    for opponents, turns in itertools.product((1, 2, 3), (0, 2)):
        line = knock_line("classic", opponents, turns)
        for _value, _k, kw, _o, ow, knocks in line.rows:
            assert knocks == (kw > ow)
        tail = [r[0] for i, r in enumerate(line.rows) if all(x[5] for x in line.rows[i:])]
        assert line.line == (min(tail) if tail else None)
    first = [next(r[0] for r in knock_line("classic", 1, t).rows if r[5]) for t in (0, 1, 2)]
    assert first == sorted(first)
    with pytest.raises(AnalysisError, match="opponents=0"):
        knock_line("classic", 0)
    with pytest.raises(AnalysisError, match="turns=True"):
        knock_line("classic", 1, True)
    with pytest.raises(AnalysisError, match="lives=0"):
        knock_line("classic", 1, 0, lives=0)


def test_position_of_refuses_turns_of_the_wrong_length_quoting_them() -> None:
    k = Knowledge.of("AH KH 4C", discard="9S", opponents=2)
    with pytest.raises(AnalysisError, match=r"opponent_turns=\[1\]"):
        Position.of(k, opponent_turns=[1])
    with pytest.raises(AnalysisError, match="final=1"):
        Position.of(k, final=1)  # type: ignore[arg-type]


def test_advise_refuses_a_ranking_of_another_hand() -> None:
    turn = analyze_turn(Knowledge.of("AH KH 4C", discard="9S"))
    other = rank(Position.of(Knowledge.of("AH KH 5C", discard="9S")))
    with pytest.raises(AnalysisError, match="another hand"):
        advise(turn, other)


def test_the_horizon_is_the_reviews_and_the_experts() -> None:
    from scatlab.players.expert import ExpertPlayer

    assert HORIZON == ExpertPlayer().horizon == 5
    assert ExpertPlayer().style == EXPERT


# -- the decision oracle -----------------------------------------------------------------------

ORACLE_GAMES = os.environ.get("SCATLAB_ORACLE_GAMES")
"""Games per preset when set (every preset alike); unset: 20, and 3 under french-canadian."""
_SEATS = (("random", "tip"), ("tip", "random", "random"), ("random", "random", "tip", "random"))


def _sure_31(view: PlayerView) -> set[Action]:
    """The moves that make a 31 declared at once for certain, found by brute force with the
    rules' own hand values (independent of the analysis's tables)."""
    rules = view.rules
    kinds = {a.kind for a in view.legal_actions}
    sure: set[Action] = set()
    if ActionKind.DECLARE in kinds:
        sure.add(Action.DECLARE)
    if view.phase is Phase.DISCARD:
        for a in view.legal_actions:
            if a.kind is ActionKind.DISCARD and blitz_of(tuple(c for c in view.hand if c is not a.card), rules):
                sure.add(a)
    if ActionKind.TAKE in kinds and view.top_discard is not None and len(view.hand) == 3:
        top = view.top_discard
        if any(blitz_of(tuple(c for c in view.hand if c is not out) + (top,), rules) for out in view.hand):
            sure.add(Action.TAKE)
    return sure


def _check(view: PlayerView, played: Action) -> None:
    legal = view.legal_actions
    if len(legal) < 2 or any(a.kind is ActionKind.THROW_DOWN for a in legal):
        return
    if view.phase is Phase.DECLARE:
        assert assess(view, played) is not None
        assert assess(view, Action.DECLARE).cost == 0  # type: ignore[union-attr]
        return
    advice = analyze(view, knock=False).advice
    advised = advice.as_action()
    assert advised in legal, (advice, legal)
    # (a) the review's best move is the advice: the advised move costs nothing, and any
    # other move played is priced against the advice (or ties with it)
    mine = assess(view, advised)
    assert mine is not None and mine.cost == 0 and mine.best == advised
    other = assess(view, played)
    assert other is not None and (other.best == advised or other.cost == 0), (advice, other)
    # (b) the first move is the engine's decision (the screened knocks of decide never hide
    # the best), and no move has a higher chance of winning
    position = Position.from_view(view)
    r = rank(position)
    best = r.best
    assert best.action == advised == decide(position).action
    assert all(best.win >= m.win for m in r.moves), [(m.name, m.win) for m in r.moves]
    # (c) a 31 reachable this turn for certain is reached
    sure = _sure_31(view)
    if sure:
        assert advised in sure, (advice, sure)
        if advised.kind is ActionKind.TAKE:
            assert advice.discard is not None and view.top_discard is not None
            kept = tuple(c for c in view.hand if c is not advice.discard) + (view.top_discard,)
            assert value_of(kept, view.rules) >= 31


@pytest.mark.no_cover  # long and CPU-bound, its lines run by faster tests too: not traced (the suite's time)
@pytest.mark.parametrize("name", list(PRESETS))
def test_decision_oracle_advice_equals_the_reviews_best_move_at_every_decision(name: str) -> None:
    rules = find_rules(name)
    decisions = 0

    def observe(_before: GameState, _i: int, view: PlayerView, action: Action, _after: GameState) -> None:
        nonlocal decisions
        _check(view, action)
        decisions += 1

    if ORACLE_GAMES is not None:
        games = int(ORACLE_GAMES)
    else:
        games = 1 if name == "french-canadian" else 20  # a race to 31 points: games of a thousand decisions
    for g in range(games):
        kinds = _SEATS[g % len(_SEATS)]
        play_out([make_player(k) for k in kinds], list(kinds), rules, 2039, g, observe)
    assert decisions > games * 10


def test_decision_oracle_pinned_disagreements() -> None:
    """Positions where the advice and the review disagreed before the one ranking: each
    now agrees (C8: the sure 31 by taking; C6: a knock after a knock)."""
    s = GameState.new("classic", 3).deal(deal_order(["2S 3S 9D", "10H 8H JH", "5D 6D 8C"], up="AH"))
    view = s.view(1)
    _check(view, Action.KNOCK)
    assert analyze(view).advice.as_action() == Action.TAKE
    s2 = GameState.new("classic", 2).deal(deal_order(["2S 3S 9D", "10H 8H JH"], up="5C")).apply(Action.KNOCK)
    _check(s2.view(s2.to_move), Action.DRAW)  # type: ignore[arg-type]


def test_ranking_is_a_value_type_and_its_moves_are_the_legal_ones() -> None:
    s = GameState.new("classic", 2).deal(deal_order(["2S 3S 9D", "AH KH 4C"], up="QH"))
    view = s.view(1)
    r = rank(view)
    assert isinstance(r, Ranking) and rank(view) is r  # remembered
    assert {m.action for m in r.moves} == set(view.legal_actions)
    with pytest.raises(AnalysisError, match="not a legal move"):
        r.move("pass")
    with pytest.raises(AnalysisError, match="not to move"):
        rank(s.view(0))


# -- one brain: the expert plays the engine's first move ----------------------------------------


@pytest.mark.no_cover  # long and CPU-bound, its lines run by faster tests too: not traced (the suite's time)
@pytest.mark.parametrize("name", list(PRESETS))
def test_the_expert_plays_the_engines_first_move_at_every_decision(name: str) -> None:
    """Seeded games of experts against tip players under every preset, heads-up and three
    handed: at every decision an expert makes (but the blind throw-down, V11, made before
    looking at the cards) its move is ``rank(view).best``."""
    import random

    rules = find_rules(name)
    checked = 0

    def observe(_before: GameState, entrant: int, view: PlayerView, action: Action, _after: GameState) -> None:
        nonlocal checked
        if seat_kinds[entrant] != "expert" or view.phase is Phase.THROW_DOWN:
            return
        if view.phase is Phase.DECLARE:
            assert action == Action.DECLARE
            return
        assert action == rank(view).best.action, (view.hand, action, rank(view).best)
        assert make_player("expert").decide(view, random.Random(0)).action == action
        checked += 1

    games = 1 if name == "french-canadian" else 3 if name == "cadillac" else 5  # the longest games: fewer
    for g in range(games):
        seat_kinds = ("expert", "tip") if g % 2 else ("expert", "tip", "expert")
        play_out([make_player(k) for k in seat_kinds], list(seat_kinds), rules, 4051, g, observe)
    assert checked > games * 5


def test_an_expert_only_game_reviews_as_all_best_moves() -> None:
    from scatlab.analysis.explain.review import review_game
    from scatlab.rules import GameRecord

    kinds = ["expert", "expert", "expert"]
    state, _, _ = play_out([make_player(k) for k in kinds], kinds, find_rules("classic"), 12, 0)
    review = review_game(GameRecord.from_state(state))
    assert len(review.decisions) > 30
    assert all(d.label == "best" and d.cost == 0 for d in review.decisions), review.costly()
