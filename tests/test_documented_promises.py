"""What the documentation promises, tested at its edges (issue 7: mutants of thresholds,
tie rules, the players' decision rules and the tournament statistics survived).

- thresholds at the boundary: tip knocks at 26 (25 does not), ``knock_at``; the advice's
  knock limit 1/(2 x players) exactly; V4's minimum knock score; the horizon's maximum 8;
  the expert's knock (the highest chance of winning, a tie to playing on) and the knock
  model's lives share without a game model (lives ** alpha);
- every tie rule: C7's branches, V7(a)-(d), V8, V9 (and C8), V14's tied highest, V16's
  ties, V17's rank ordering (A-10-9 > K-Q-J, K-10-9 > Q-J-9, K-J-7 > K-9-8), C11;
- the tip and expert players' documented rules, each in a position where it decides;
- tournament statistics against a recount from the raw per-game results.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from scatlab.analysis import analyze
from scatlab.analysis.counting.knowledge import Knowledge
from scatlab.analysis.model.knock import knock_refusal, knock_risk
from scatlab.analysis.model.valuation import KnockValuation
from scatlab.cards import parse_cards
from scatlab.errors import AnalysisError
from scatlab.errors import RulesError as RulesError_
from scatlab.players import make_player, run_tournament
from scatlab.players.expert import ExpertPlayer
from scatlab.players.tip import TipPlayer, target_suit
from scatlab.players.tournament import play_game, seating
from scatlab.rules import Action, ActionKind, GameState, RuleSet, deal_order, find_rules, settle
from scatlab.rules.values import tiebreak_key

F = Fraction
RNG = random.Random(0)


def _table(
    hands: list[str | None], up: str, rules: str | RuleSet = "classic", dealer: int = 0, stock: str = ""
) -> GameState:
    ruleset = find_rules(rules)
    return GameState.new(ruleset, len(hands), dealer).deal(
        deal_order(hands, up=up, stock=stock, dealer=dealer, rules=ruleset)
    )


# -- thresholds at their boundary ------------------------------------------------------------


@pytest.mark.parametrize(("hand", "knocks"), [("KH QH 6H", True), ("KH QH 5H", False), ("AH KH 9H", True)])
def test_tip_knocks_at_26_or_more_not_at_25(hand: str, knocks: bool) -> None:
    state = _table(["2C 3D 5S", hand], up="4D")  # seat 1 moves first; 4D helps nobody
    decision = TipPlayer().decide(state.view(1), RNG)
    assert (decision.action == Action.KNOCK) is knocks, decision.reason


@pytest.mark.parametrize(("knock_at", "knocks"), [(20, True), (21, False)])
def test_tip_knock_at_parameter_is_inclusive(knock_at: int, knocks: bool) -> None:
    state = _table(["2C 3D 5S", "KH QH 4C"], up="4D")  # 20
    assert (TipPlayer(knock_at).decide(state.view(1), RNG).action == Action.KNOCK) is knocks
    assert (make_player("greedy", knock_at=knock_at).choose(state.view(1), RNG) == Action.KNOCK) is knocks


@pytest.mark.parametrize(("hand", "allowed"), [("KH QH 4C", True), ("KH 9H 4C", False)])
def test_V4_minimum_knock_score_is_inclusive(hand: str, allowed: bool) -> None:
    rules = RuleSet.from_codes("V4", min_knock=20)
    state = _table(["2C 3D 5S", hand], up="4D", rules=rules)  # 20 and 19
    assert (Action.KNOCK in state.legal_actions()) is allowed
    k = Knowledge.of(hand, "4D", rules=rules)
    assert (knock_refusal(k) is None) is allowed


def test_horizon_maximum_is_8_turns() -> None:
    values = analyze("AH KH 9C", "7S", rules="eenendertigen", horizon=8, knock=False).horizon
    assert len(values) == 9 and values[0] == 21
    with pytest.raises(AnalysisError, match="0 to 8"):
        analyze("AH KH 9C", "7S", rules="eenendertigen", horizon=9, knock=False)


def _stub_knock(monkeypatch: pytest.MonkeyPatch, gain: float) -> None:
    """Fix the knock's estimate so that only the comparison decides: the quick screen passes
    and the knock changes the chance of winning the game by ``gain``."""
    from scatlab.analysis.engine import ending, ranking
    from scatlab.analysis.model.valuation import KnockOutcome, KnockValuation

    monkeypatch.setattr(KnockValuation, "hopeless", lambda self, view, odds, strength, extra_turn, turns=None: False)
    monkeypatch.setattr(
        KnockValuation, "outcome", lambda self, view, dists, k, chances=None: KnockOutcome(0.1, gain, 0.1, 0.0, "stub")
    )
    monkeypatch.setattr(ending, "exact_knock", lambda position: None)
    ranking._rank.cache_clear()


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize(("above", "knocks"), [(1e-9, True), (0.0, False), (-1e-9, False)])
def test_expert_knocks_when_knocking_has_the_highest_chance_of_winning(
    players: int, above: float, knocks: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Documented: every move is judged by its chance of winning the game, and the knock is
    made when its chance is the highest; on a tie the way of playing on comes first. The
    knock's figure is set a billionth above, exactly at, and a billionth below the best way of
    playing on's."""
    from scatlab.analysis import Position
    from scatlab.analysis.engine.decision import weigh_options
    from scatlab.analysis.engine.scale import position_scale

    hands: list[str | None] = ["2C 3D 5S", "KH QH 4C", "2H 3H 5D"]
    view = _table(hands[:players], up="4D").view(1)
    position = Position.from_view(view)
    on = max(o.win for o in weigh_options(position, ExpertPlayer().style) if o.action != Action.KNOCK)
    _stub_knock(monkeypatch, on - position_scale(position).game.now + above)
    assert (ExpertPlayer().decide(view, RNG).action == Action.KNOCK) is knocks


@pytest.mark.parametrize(
    ("alpha", "standing", "p_win"),
    [
        (1.0, [3.0, 1.0], 3 / 4),
        (2.0, [3.0, 1.0], 9 / 10),
        (1.0, [2.0, 0.0, 2.0], 1 / 2),
        (0.5, [4.0, 1.0], 2 / 3),
    ],
)
def test_expert_standing_model_p_win_is_proportional_to_lives_to_the_alpha(
    alpha: float, standing: list[float], p_win: float
) -> None:
    """Documented: without a game model the knock model reads the lives share, P(win) = s_me /
    sum of s over the players still in, s = lives ** alpha."""
    from scatlab.analysis.model.valuation import KnockValuation

    assert KnockValuation(alpha=alpha).p_win(standing, 0, False) == pytest.approx(p_win)


def test_expert_standing_counts_the_county_as_one_life() -> None:
    """C13: classic's 3 lives and the county stand as 4; without the county (V12), 2 lives as 2."""
    classic = _table(["2C 3D 5S", "KH QH 4C"], up="4D").view(1)
    assert KnockValuation.standing(classic) == [4.0, 4.0]
    no_county = _table(["2C 3D 5S", "KH QH 4C"], up="4D", rules=RuleSet.from_codes("V12", lives=2)).view(1)
    assert KnockValuation.standing(no_county) == [2.0, 2.0]


# -- tie rules -------------------------------------------------------------------------------


def _losses(
    rules: RuleSet | str,
    values: tuple[int, int, int],
    ended: str = "knock",
    knocker: int | None = 0,
    declarers: tuple[int, ...] = (),
) -> tuple[int, ...]:
    ruleset = find_rules(rules)
    result = settle(
        ruleset,
        ended,  # type: ignore[arg-type]
        players=(0, 1, 2),
        keys={p: (F(v),) for p, v in enumerate(values)},
        knocker=knocker,
        declarers=declarers,
    )
    if ruleset.score_keeping == "points":
        return tuple(result.points[p] for p in range(3))
    return tuple(result.losses[p] for p in range(3))


CLASSIC = find_rules("classic")
V7B = RuleSet.from_codes("V7", knocker_tie="knocker_two")
V7C = RuleSet.from_codes("V7", knocker_tie="knocker_only")
V7D = RuleSet.from_codes("V7", knocker_tie="cadillac")
V8 = RuleSet.from_codes("V8")
V9 = RuleSet.from_codes("V9")


@pytest.mark.parametrize(
    ("rules", "values", "expected"),
    [
        (CLASSIC, (20, 25, 15), (0, 0, 1)),  # C7: the lowest loses one
        (CLASSIC, (15, 20, 25), (2, 0, 0)),  # C7: a knocker strictly lowest loses two
        (CLASSIC, (15, 15, 25), (0, 1, 0)),  # C7: tie involving the knocker: the other tied lose, knocker safe
        (CLASSIC, (15, 15, 15), (0, 1, 1)),
        (CLASSIC, (25, 15, 15), (0, 1, 1)),  # C7: non-knockers tied lowest all lose one
        (V7B, (15, 15, 25), (2, 1, 0)),  # V7(b): knocker two, other tied one
        (V7C, (15, 15, 25), (1, 0, 0)),  # V7(c): only the knocker (one life)
        (V7D, (15, 15, 25), (2, 0, 0)),  # V7(d): knocker two, the others nothing
        (V7B, (15, 20, 25), (2, 0, 0)),  # V7 changes only ties: strictly lowest is still C7
        (V7C, (25, 15, 15), (0, 1, 1)),
        (V8, (15, 20, 25), (1, 0, 0)),  # V8: a knocker strictly lowest loses only one
        (V8, (15, 15, 25), (0, 1, 0)),  # V8 leaves the knocker tie of C7
    ],
)
def test_C7_V7_V8_showdown_tie_rules(
    rules: RuleSet, values: tuple[int, int, int], expected: tuple[int, int, int]
) -> None:
    assert _losses(rules, values) == expected


def test_C8_V9_31_after_a_knock() -> None:
    assert _losses(CLASSIC, (25, 31, 20), "31", declarers=(1,)) == (1, 0, 1)  # C8: everyone else one
    assert _losses(V9, (25, 31, 20), "31", declarers=(1,)) == (2, 0, 1)  # V9: the knocker two
    assert _losses(V9, (25, 20, 31), "31", knocker=None, declarers=(2,)) == (1, 1, 0)  # no knock: C8


def test_C11_exhausted_stock_without_a_knock_all_tied_lowest_lose_one() -> None:
    assert _losses(CLASSIC, (20, 15, 15), "stock_exhausted", knocker=None) == (0, 1, 1)
    assert _losses(CLASSIC, (20, 15, 25), "stock_exhausted", knocker=None) == (0, 1, 0)


def test_V14_gin_knocker_highest_or_tied_highest_gives_everyone_else_a_letter() -> None:
    gin = find_rules("gin")
    assert _losses(gin, (25, 25, 10)) == (0, 1, 1)  # tied highest: safe
    assert _losses(gin, (26, 25, 10)) == (0, 1, 1)
    assert _losses(gin, (24, 25, 10)) == (1, 0, 0)  # not highest: the knocker's letter
    assert _losses(gin, (24, 31, 10), "31", declarers=(1,)) == (1, 0, 1)  # 31: everyone else


def test_V16_ties_go_to_the_non_knockers() -> None:
    fc = RuleSet.from_codes("V16")
    assert _losses(fc, (25, 20, 10)) == (1, 0, 0)  # the highest scores
    assert _losses(fc, (25, 25, 10)) == (0, 1, 0)  # tie with the knocker: the non-knocker
    assert _losses(fc, (20, 25, 25)) == (0, 1, 1)  # tied non-knockers each score
    assert _losses(fc, (25, 25, 25)) == (0, 1, 1)


@pytest.mark.parametrize(
    ("high", "low"), [("AH 10H 9H", "KS QS JS"), ("KH 10H 9H", "QC JC 9C"), ("KD JD 7D", "KH 9H 8H")]
)
def test_V17_rank_tiebreak_orders_equal_values_as_in_poker(high: str, low: str) -> None:
    fc = find_rules("french-canadian")
    a, b = parse_cards(high), parse_cards(low)
    assert tiebreak_key(a, fc)[0] == tiebreak_key(b, fc)[0]  # equal values
    assert tiebreak_key(a, fc) > tiebreak_key(b, fc)
    for knocker_hand, other, knocker_scores in ((a, b, True), (b, a, False)):
        result = settle(
            fc,
            "knock",
            players=(0, 1),
            keys={0: tiebreak_key(knocker_hand, fc), 1: tiebreak_key(other, fc)},
            knocker=0,
            declarers=(),
        )
        assert (result.points[0] == 1) is knocker_scores and (result.points[1] == 1) is not knocker_scores
    assert tiebreak_key(a, CLASSIC) == tiebreak_key(b, CLASSIC)  # without V17 they tie


# -- the tip player's rules ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "suit"),
    [("KH 10S", "H"), ("5C 5D", "C"), ("KH 6S 4S", "S"), ("9D 9S", "D"), ("AH 2C 3C", "H"), ("7H 7S", "H")],
)
def test_tip_target_suit_is_worth_most_then_more_cards_then_clubs_diamonds_hearts_spades(cards: str, suit: str) -> None:
    assert target_suit(parse_cards(cards)).letter == suit


def test_tip_takes_a_discard_of_the_target_suit_that_helps_and_draws_otherwise() -> None:
    tip = TipPlayer()
    take = tip.decide(_table(["AD KD 4C", "2S 3S 9H"], up="QH").view(1), RNG)
    assert take.action == Action.TAKE  # QH is of the target suit (hearts: 9) and raises 9 to 19
    other = tip.decide(_table(["AD KD 4C", "2S 3S 9H"], up="QS").view(1), RNG)
    assert other.action == Action.DRAW  # QS would raise the value too, but it is not the target suit
    useless = TipPlayer(31).decide(_table(["AD KD 4C", "KH QH 9H"], up="2H").view(1), RNG)
    assert useless.action == Action.DRAW  # of the suit but it does not raise the hand


def test_tip_throws_the_lowest_card_outside_the_target_suit_never_the_taken_card() -> None:
    tip = TipPlayer()
    state = _table(["AD KD 4C", "KH 9H 3S"], up="5C").apply("draw")  # draws the stock top
    hand = state.hands[1]
    decision = tip.decide(state.view(1), RNG)
    outside = sorted((c for c in hand if c.suit is not target_suit(hand)), key=lambda c: (c.value, c.index))
    assert decision.action == Action.discard(outside[0])
    taken = _table(["AD KD 4C", "KH 9H 3S"], up="2S").apply("take")  # takes the 2S although it does not help
    d = tip.decide(taken.view(1), RNG)
    assert d.action.card is not None and str(d.action.card) != "2S"  # C5: never the card just taken
    assert str(d.action.card) == "3S"


def test_tip_avoids_a_suit_the_next_player_collects_when_it_has_another_choice() -> None:
    state = _table(["2S 3S 4S", "AH KH 2D", "AD 9C 8C"], up="QC", dealer=0, stock="5D 7C 6S 6C")
    state = state.apply("draw").apply("discard 5D")  # seat 1 draws the 5D and throws it
    state = state.apply("take").apply("discard 8C")  # seat 2 takes the 5D: it collects diamonds
    state = state.apply("draw").apply("discard 7C")  # seat 0 draws the 7C and throws it
    state = state.apply("draw")  # seat 1 draws the 6S: AH KH 2D 6S, collecting hearts
    decision = TipPlayer().decide(state.view(1), RNG)
    assert decision.action == Action.discard("6S"), decision.reason  # not the lower 2D: seat 2 collects D
    assert "collects D" in decision.reason
    alone = _table(["2S 3S 4S", "AH KH 2D", "AD 9C 8C"], up="QC", dealer=0, stock="5D 7C 6H")
    alone = alone.apply("draw").apply("discard 5D").apply("take").apply("discard 8C")
    alone = alone.apply("draw").apply("discard 7C").apply("draw")  # seat 1 draws the 6H: AH KH 2D 6H
    assert TipPlayer().decide(alone.view(1), RNG).action == Action.discard("2D")  # the only card outside H


def test_tip_with_the_stock_gone_takes_when_it_helps_else_passes() -> None:
    tip = TipPlayer()
    rules = find_rules("classic")
    state = GameState.new(rules, 2, 0)
    order = deal_order(["2C 3C 4C", "KH 9H 3S"], up="5D", rules=rules)
    state = state.deal(order)
    while state.stock_size:  # both players draw and throw back until the stock is gone
        state = state.apply("draw")
        drawn = state.drawn
        assert drawn is not None
        state = state.apply(Action.discard(drawn))
        if state.phase.value != "turn":
            pytest.skip("the hand ended before the stock ran out")
    view = state.view(state.to_move if state.to_move is not None else 0)
    assert ActionKind.DRAW not in {a.kind for a in view.legal_actions}
    decision = tip.decide(view, RNG)
    top = view.top_discard
    assert top is not None
    from scatlab.rules.values import value_of

    helps = max(value_of([x for x in view.hand if x is not d] + [top], rules) for d in view.hand) > value_of(
        view.hand, rules
    )
    assert decision.action == (Action.TAKE if helps else Action.PASS), decision.reason


def test_tip_always_declares_31_and_never_throws_down() -> None:
    manual = RuleSet.from_codes("V11", declare="manual")
    state = _table(["2S 3S 4S", "AH KH 4C"], up="QH", rules=manual)
    assert state.phase.value == "throw_down"
    assert TipPlayer().decide(state.view(1), RNG).action == Action.PASS
    state = state.apply("pass").apply("take").apply("discard 4C")  # A K Q of hearts
    assert state.phase.value == "declare"
    assert TipPlayer().decide(state.view(1), RNG).action == Action.DECLARE


# -- the expert player's rules ---------------------------------------------------------------


def test_expert_takes_a_discard_that_makes_31_and_draws_for_a_future() -> None:
    expert = ExpertPlayer()
    assert expert.decide(_table(["2C 3D 5S", "AH KH 4C"], up="QH").view(1), RNG).action == Action.TAKE
    weak = expert.decide(_table(["AS KS 9C", "AH 8D 4C"], up="2S").view(1), RNG)
    assert weak.action == Action.DRAW  # the 2S helps nothing; drawing is worth more


def test_expert_never_knocks_a_weak_hand_and_knocks_a_30_against_fresh_hands() -> None:
    expert = ExpertPlayer()
    assert expert.decide(_table(["2C 3D 5S", "2H 7D 4C"], up="9S").view(1), RNG).action != Action.KNOCK
    assert expert.decide(_table(["2C 3D 5S", "AH KH 9H"], up="4D").view(1), RNG).action == Action.KNOCK


def test_expert_with_the_stock_gone_takes_only_what_raises_the_hand() -> None:
    from scatlab.players.expert import ExpertPlayer as E

    rules = find_rules("classic")
    checked = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = GameState.new(rules, 2, 0).deal(deal_order(["2C 3C 4C", "KH 9H 3S"], up="5D", rules=rules))
        # draw and discard until the stock is gone, the last drawn card discarded too (the loop
        # used to stop right after the last draw, so no seed ever reached the check below)
        while state.phase.value == "discard" or (state.stock_size and state.phase.value == "turn"):
            state = state.apply("draw") if state.phase.value == "turn" else state.apply(Action.discard(state.drawn))  # type: ignore[arg-type]
        assert state.phase.value == "turn" and state.stock_size == 0
        checked += 1
        view = state.view(state.to_move)  # type: ignore[arg-type]
        top = view.top_discard
        assert top is not None
        from scatlab.rules.values import value_of

        best = max(value_of([c for c in view.hand if c is not d] + [top], rules) for d in view.hand)
        expected = Action.TAKE if best > value_of(view.hand, rules) else Action.PASS
        assert E().decide(view, rng).action == expected
    assert checked == 3


# -- tournament statistics against a recount ------------------------------------------------


def _wilson(k: int, n: int) -> tuple[float, float]:
    """The Wilson interval as the roots of (p - k/n)^2 = z^2 p (1 - p) / n."""
    z = 1.959963984540054
    a = 1 + z * z / n
    b = -(2 * k / n + z * z / n)
    c = (k / n) ** 2
    disc = math.sqrt(max(b * b - 4 * a * c, 0.0))
    return (-b - disc) / (2 * a), (-b + disc) / (2 * a)


def test_tournament_statistics_match_a_recount_from_the_raw_games() -> None:
    kinds = ["tip", "random", "greedy"]
    games = 18
    result = run_tournament(kinds, games, "classic", seed=5, progress=False)
    raw = [play_game(kinds, "classic", 5, g) for g in range(games)]
    wins = [sum(1 for g in raw if g["winner"] == i) for i in range(3)]
    assert list(result.winners) == [g["winner"] for g in raw]
    assert sum(wins) == games and result.hands == sum(g["hands"] for g in raw)
    assert result.actions == sum(g["actions"] for g in raw)
    for i, e in enumerate(result.entrants):
        assert e.games == games and e.wins == wins[i]
        assert e.win_rate == pytest.approx(wins[i] / games)
        low, high = _wilson(wins[i], games)
        assert e.win_low == pytest.approx(low, abs=1e-12) and e.win_high == pytest.approx(high, abs=1e-12)
        assert e.win_low <= e.win_rate <= e.win_high
        totals = [sum(g["entrants"][i][j] for g in raw) for j in range(6)]
        assert [e.hands, e.lives_lost, e.points_won, e.knocks, e.knocks_lost, e.declared_31] == totals
        assert e.lives_per_hand == pytest.approx(totals[1] / totals[0])
    # fair seating: over n * n games every entrant sits in every seat under every first dealer once
    for i in range(3):
        assert len({(seating(g, 3)[0][i], seating(g, 3)[1]) for g in range(9)}) == 9


def test_tournament_per_game_counts_match_the_game_played_again() -> None:
    """Games recounted from their own states: the winner, hands, lives lost, knocks, knocks
    that cost the knocker a life (V8 makes one-life knock losses common) and 31s."""
    from scatlab.players.base import make_player as mk
    from scatlab.rules import shuffled_deck

    kinds = ["tip", "greedy"]
    rules = RuleSet.from_codes("V8")
    knocks_lost = 0
    for g in range(6):
        raw = play_game(kinds, rules, 9, g)
        seats, dealer = seating(g, 2)
        players = [mk(k) for k in kinds]
        rngs = [random.Random(f"scatlab-tournament:9:{g}:entrant:{i}") for i in range(2)]
        deck_rng = random.Random(f"scatlab-tournament:9:{g}:deck")
        state = GameState.new(rules, 2, dealer)
        while not state.is_over:
            if state.phase.value == "deal":
                state = state.deal(shuffled_deck(state.rules, deck_rng))
                continue
            seat = state.to_move
            assert seat is not None
            i = seats.index(seat)
            state = state.apply(players[i].choose(state.view(seat), rngs[i]))
        assert state.winner is not None and raw["winner"] == seats.index(state.winner)
        assert raw["hands"] == len(state.results)
        for i in range(2):
            mine = [r for r in state.results if r.values[seats[i]] is not None]
            lost = sum(r.lives_lost[seats[i]] for r in mine)
            knocks = [r for r in mine if r.knocker == seats[i]]
            costly = sum(1 for r in knocks if r.lives_lost[seats[i]] > 0)
            declared = sum(1 for r in mine if r.ended in ("31", "dealt_31") and seats[i] in r.declarers)
            assert raw["entrants"][i] == [len(mine), lost, 0, len(knocks), costly, declared]
            knocks_lost += sum(1 for r in knocks if r.lives_lost[seats[i]] == 1)
    assert knocks_lost > 0  # a knock that cost exactly one life was recounted


def test_expert_and_tip_with_the_stock_gone_take_only_what_strictly_raises_the_hand() -> None:
    """C11: seat 0 faces an empty stock with the last stock card on the pile. The 3D keeps
    K-9 of hearts at 19 (no raise: pass); the QH raises it to 29 (take)."""
    from scatlab.cards import deck

    for last, expected in (("3D", Action.PASS), ("QH", Action.TAKE)):
        hands, up = ["KH 9H 3S", "2C 3C 4C"], parse_cards("5D")
        used = set(parse_cards(" ".join(hands))) | set(up)
        rest = [c for c in deck(52) if c not in used and str(c) != last] + list(parse_cards(last))
        state = GameState.new("classic", 2, 0).deal(deal_order(hands, up="5D", stock=rest))
        while state.stock_size:
            state = state.apply("draw")
            state = state.apply(Action.discard(state.drawn))  # type: ignore[arg-type]
        assert state.to_move == 0 and state.top_discard is not None and str(state.top_discard) == last
        view = state.view(0)
        assert ExpertPlayer().decide(view, RNG).action == expected
        assert TipPlayer().decide(view, RNG).action == expected


# -- documented bounds of options and work (README "Errors"; RuleSet's option table) -------


@pytest.mark.parametrize(
    ("option", "accepted", "refused"),
    [
        ("min_knock", (0, 31), (-1, 32)),  # V4: a whole number 0 to 31
        ("lives", (1, 99), (0, 100)),  # C13: 1 to 99
        ("points_target", (1, 999), (0, 1000)),  # V16: 1 to 999
    ],
)
def test_rule_option_bounds_are_inclusive(option: str, accepted: tuple[int, int], refused: tuple[int, int]) -> None:
    from scatlab.errors import RulesError

    for value in accepted:
        assert getattr(RuleSet().replace(**{option: value}), option) == value
    for value in refused:
        with pytest.raises(RulesError, match=f"{option}={value}"):
            RuleSet().replace(**{option: value})


def test_bounds_on_work_are_inclusive() -> None:
    from scatlab.checks import MAX_GAMES, MAX_SAMPLES, whole_number
    from scatlab.errors import ScatlabError

    assert (MAX_GAMES, MAX_SAMPLES) == (1_000_000, 1_000_000)  # as the README states
    assert whole_number("games", MAX_GAMES, 1, MAX_GAMES) == MAX_GAMES
    with pytest.raises(ScatlabError, match="1 to 1,000,000"):
        run_tournament(["random", "random"], games=MAX_GAMES + 1, progress=False)
    with pytest.raises(AnalysisError, match="1 to 1,000,000"):
        analyze("AH KH 4C", "9S", opponents=2, samples=MAX_SAMPLES + 1)
    assert analyze("AH KH 4C", "9S", opponents=2, samples=1).knock is not None  # the lower end
    with pytest.raises(RulesError_, match="2 to 9"):
        GameState.new("classic", 10)
    assert GameState.new("classic", 9).num_players == 9 and GameState.new("classic", 2).num_players == 2
    with pytest.raises(RulesError_, match="2 to 9"):
        GameState.new("classic", 1)
    with pytest.raises(AnalysisError, match="1 to 8 opponents"):
        Knowledge.of("AH KH 4C", "9S", opponents=9)
    assert Knowledge.of("AH KH 4C", "9S", opponents=8).opponents == 8


def test_records_nested_at_the_limit_are_read_and_one_deeper_refused() -> None:
    from scatlab.checks import MAX_NESTING
    from scatlab.errors import RecordError
    from scatlab.rules import GameRecord

    def record(depth: int) -> str:  # the object itself is one level
        return '{"rules": "classic", "players": 2, "hands": [], "x": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}"

    # At the limit the nesting passes; the strict reader then refuses the key "x" (a record
    # has no such key, and nothing in a real record nests deeper than 5 levels).
    with pytest.raises(RecordError, match="unknown key 'x' in the record"):
        GameRecord.loads(record(MAX_NESTING))
    deeper = record(MAX_NESTING + 1)
    with pytest.raises(RecordError, match=f"{MAX_NESTING + 1} levels deep: at most {MAX_NESTING}"):
        GameRecord.loads(deeper)


def test_estimates_print_as_percentages_monte_carlo_with_its_standard_error_exact_ones_as_fractions() -> None:
    """The knock's figures are the ranking's own (issue 64): the engine's estimate against two
    opponents prints in percent, never as a fraction that looks exact; a knock the rules refuse
    now (V4) is not ranked, and its Monte Carlo estimate prints as a decimal with its standard
    error; an exact count prints as a fraction."""
    estimate = analyze("AH KH 4C", "9S", opponents=2)
    line = next(x for x in estimate.table().splitlines() if ". knock:" in x)
    assert "the engine's estimates" in line and "/" not in line and "%" in line, line
    data = estimate.to_json()["knock"]
    assert data["exact"] is False and data["p_lose_one"].endswith("%") and "/" not in data["p_lose_one"]
    assert estimate.ranking is not None and estimate.knock is not None
    assert estimate.knock.p_lose_one == estimate.ranking.move("knock").p_one
    assert r"\text{the engine's estimate}" in estimate._repr_latex_()
    refused = analyze("AH KH 4C", "9S", opponents=2, rules={"min_knock": 25}, samples=2000)
    line = next(x for x in refused.table().splitlines() if x.startswith("Knock risk"))
    assert "±" in line and "(Monte Carlo, 2,000 deals)" in line and "/" not in line.split("(Monte")[0], line
    assert "[not allowed now: V4" in line
    data = refused.to_json()["knock"]
    assert data["exact"] is False and "/" not in data["p_lose_one"] and "." in data["p_lose_one"]
    assert abs(Fraction(data["p_lose_one"]) - refused.knock.p_lose_one) < F(1, 10**4)  # type: ignore[union-attr]
    assert r"\pm" in refused._repr_latex_()
    exact = analyze("AH KH 4C", "9S")
    line = next(x for x in exact.table().splitlines() if ". knock:" in x)
    assert "(counted exactly)" in line and "±" not in line and "/" in line
    assert exact.to_json()["knock"]["p_lose_one"] == str(exact.knock.p_lose_one)  # type: ignore[union-attr]


def test_monte_carlo_standard_error_is_sqrt_p_1_minus_p_over_n_and_the_seed_is_the_one_given() -> None:
    """The Monte Carlo prices a knock the rules refuse now (V4), which the ranking leaves out."""
    k = Knowledge.of("AH KH 4C", "9S", opponents=2, rules={"min_knock": 25})
    for seed in (0, 3):
        risk = analyze(k, samples=500, seed=seed).knock
        assert risk is not None and risk == knock_risk(k, samples=500, seed=seed)  # analyze passes its seed
        for p, se in ((risk.p_lose_one, risk.std_error_one), (risk.p_lose_two, risk.std_error_two)):
            assert se == pytest.approx(math.sqrt(float(p) * (1 - float(p)) / 500), rel=1e-12)
    assert knock_risk(k, samples=500, seed=0) != knock_risk(k, samples=500, seed=3)


def test_V6_refuses_a_knock_only_in_the_first_round() -> None:
    rules = RuleSet.from_codes("V6")
    first = Knowledge(hand=parse_cards("KH QH 9H"), top=parse_cards("4D")[0], rules=rules, first_round=True)
    later = Knowledge(hand=parse_cards("KH QH 9H"), top=parse_cards("4D")[0], rules=rules, first_round=False)
    assert knock_refusal(first) is not None and "V6" in knock_refusal(first)  # type: ignore[operator]
    assert knock_refusal(later) is None
    state = _table(["2C 3D 5S", "KH QH 9H"], up="4D", rules=rules)
    assert Knowledge.from_view(state.view(1)).first_round and Action.KNOCK not in state.legal_actions()
    state = state.apply("draw").apply(Action.discard(state.apply("draw").drawn))  # type: ignore[arg-type]
    state = state.apply("draw")
    state = state.apply(Action.discard(state.drawn))  # type: ignore[arg-type]
    assert state.to_move == 1 and Action.KNOCK in state.legal_actions()
    k = Knowledge.from_view(state.view(1))
    assert not k.first_round and knock_refusal(k) is None
