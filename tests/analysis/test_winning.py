"""The chance of winning the game (scatlab.analysis.model.winning): the game model worked out
exactly, the hand model's promises, and the knock rule the opponent model pictures a strong
player by."""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scatlab.analysis.counting.tables import scoring_rules, tables_for
from scatlab.analysis.model.valuation import KnockValuation, Standing
from scatlab.analysis.model.winning import (
    GameModel,
    _chances,
    _race,
    draw_level_by_row,
    e5_by_row,
    family_of,
    game_chance,
    hand_model,
    knock_rule,
    last_turn_by_value,
    loss_by_row,
)
from scatlab.errors import AnalysisError
from scatlab.rules import PRESETS, GameState, deal_order, find_rules


def _negative_binomial(mine: int, theirs: int) -> float:
    """Heads-up, each hand costs one of two equal players one life: the chance that the
    other loses ``theirs`` lives before the player loses ``mine``."""
    return float(sum(math.comb(theirs - 1 + k, k) / 2 ** (theirs + k) for k in range(mine)))


@pytest.mark.parametrize(("mine", "theirs"), [(1, 1), (2, 1), (3, 5), (4, 4), (1, 4)])
def test_C13_heads_up_between_equals_the_game_is_a_race_to_lose_the_lives(mine: int, theirs: int) -> None:
    """Two equal players, one life a hand (no double loss): the chance of winning is the
    negative binomial race, exactly, not the lives share mine / (mine + theirs)."""
    even = ((1.0, 1.0), (1.0, 1.0))
    assert _chances((mine, theirs), even, 0.0, 0.0, False)[0] == pytest.approx(_negative_binomial(mine, theirs))


@given(
    st.lists(st.integers(1, 4), min_size=2, max_size=4),
    st.floats(0.0, 0.5),
    st.floats(0.0, 0.3),
    st.lists(st.floats(0.3, 3.0), min_size=4, max_size=4),
)
@settings(max_examples=60, deadline=None)
def test_the_game_model_gives_chances_that_sum_to_one_and_reward_lives(
    counts: list[int], rho: float, double: float, loser: list[float]
) -> None:
    weights = tuple((w, 1.0 / w) for w in loser[: len(counts)])
    out = _chances(tuple(counts), weights, rho, double, False)
    assert sum(out) == pytest.approx(1.0)
    assert all(0.0 <= x <= 1.0 for x in out)
    more = list(counts)
    more[0] += 1
    assert _chances(tuple(more), weights, rho, double, False)[0] >= out[0] - 1e-12  # a life more never hurts


def test_equal_players_have_equal_chances_whatever_the_table() -> None:
    for n in (2, 3, 4):
        out = _chances((4,) * n, ((1.0, 1.0),) * n, 0.2, 0.05, False)
        assert out == pytest.approx((1.0 / n,) * n)


def test_V16_the_race_to_the_points_is_counted_exactly() -> None:
    """Each hand gives one of the players a point: the chance of being first to the target is
    the multinomial sum, the same as the game worked out standing by standing."""
    assert _race((3, 5), (1.0, 1.0), 1) == pytest.approx(_negative_binomial(3, 5))
    assert _race((2, 3, 4), (1.0, 1.0, 1.0), 0) == pytest.approx(_chances((2, 3, 4), ((1, 1),) * 3, 0, 0, True)[0])
    total = sum(_race((31, 31, 31), (1.0, 0.8, 0.8), i) for i in range(3))
    assert total == pytest.approx(1.0)


def test_the_game_model_reads_the_standings_and_the_opponents_kinds() -> None:
    classic = find_rules("classic")
    fresh = Standing.fresh(classic, 2)
    casual = GameModel.of(fresh, (0.0, 0.0))
    strong = GameModel.of(fresh, (1.0, 1.0))
    assert strong.now == pytest.approx(1 / 3)  # the player plays as a strong player does
    assert casual.now > strong.now  # casual opponents lose more hands
    lose, other, sweep = casual.play_on()
    assert lose < casual.now < other < sweep
    assert casual.after({0: 1}) < casual.now < casual.after({1: 1})
    assert casual.after({0: 2}) < casual.after({0: 1})
    last = Standing(classic, 0, 3, (1, 2), (0, 3, 3), (0, 0, 0), (False, False, False))
    assert GameModel.of(last).after({0: 1}) == 0.0  # on the county, a life lost is out (C13)
    with pytest.raises(AnalysisError, match="strong="):
        GameModel.of(fresh, (0.5,))
    with pytest.raises(AnalysisError, match="strong="):
        GameModel.of(fresh, (0.5, 1.5))


def test_V16_the_game_model_counts_points_to_the_target() -> None:
    rules = find_rules("french-canadian")
    ahead = Standing(rules, 0, 2, (1,), (3, 3), (30, 10), (False, False))
    g = GameModel.of(ahead, (1.0,))
    assert g.now > 0.9 and g.after({0: 1}) == 1.0  # one point from the target


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_has_a_measured_hand_model(name: str) -> None:
    rules = find_rules(name)
    assert family_of(rules) in PRESETS
    for opponents in (1, 2, 3, 5):
        m = hand_model(rules, opponents)
        assert 0 < m.loss(25.0, 22.0, 2, 0.5) < 1 and 0 < m.last_turn_loss(22.0, 2, 0.5) < 1


def test_the_hand_model_loses_less_with_a_better_hand_and_more_when_it_feeds() -> None:
    m = hand_model(find_rules("classic"), 2)
    assert m.loss(28.0, 27.0, 2, 0.5) < m.loss(24.0, 20.0, 2, 0.5) < m.loss(20.0, 14.0, 2, 0.5)
    plain, fed, _ = loss_by_row(scoring_rules(find_rules("classic")), 2, 2.0, 0.5)
    assert (m.feed_logit(2.0) > 0) == all(f > p for p, f in zip(plain[:50], fed[:50]))


@pytest.mark.parametrize("name", ["classic", "gin", "eenendertigen"])
def test_a_last_turn_never_loses_more_often_with_a_better_hand(name: str) -> None:
    q = last_turn_by_value(scoring_rules(find_rules(name)), 2, 3.0, 0.5)
    assert all(a >= b for a, b in zip(q, q[1:]))


def test_drawing_is_worth_at_least_keeping_the_hand() -> None:
    """Drawing keeps the best three of four, so its chance of winning is at least that of
    keeping the hand and throwing the card drawn."""
    scoring = scoring_rules(find_rules("classic"))
    tables = tables_for(scoring)
    lose, other, sweep = 0.3, 0.45, 0.6
    level, loss = draw_level_by_row(scoring, 1, 0.0, 0.5, lose, other, sweep)
    plain, _, swept = (np.asarray(x) for x in loss_by_row(scoring, 1, 0.0, 0.5))
    keep = other + plain * (lose - other) + swept * (sweep - other)
    mask = tables.value2 < 62
    assert level.shape == plain.shape and bool((loss >= 0).all())
    assert bool((level[mask] >= keep[mask] - 1e-12).all())


def test_the_knock_rule_knocks_by_the_engines_comparison() -> None:
    """The opponent model pictures a strong player knocking when knocking's chance of
    winning beats drawing's: a hand sure to beat the opponent knocks unless drawing is all but
    sure to win the hand (playing on, the opponent might lose two), a hand sure to lose never
    does."""
    s = GameState.new("classic", 2).deal(deal_order(["AH KH 4C", "2S 3S 9H"], up="QH"))
    sure20 = np.zeros(67)
    sure20[40] = 1.0
    rule = knock_rule(s.view(0), [sure20], [0])
    assert rule.threshold[2 * 26] < 0.1  # beats a sure 20
    assert rule.threshold[2 * 19] > 1  # loses to it: never
    assert all(0 <= r <= 1 for r in rule.risk)
    with pytest.raises(AnalysisError, match="knock_rule needs"):
        knock_rule("view", [sure20], [0])  # type: ignore[arg-type]
    with pytest.raises(AnalysisError, match="dists="):
        knock_rule(s.view(0), [], [0])
    with pytest.raises(AnalysisError, match="dists="):
        knock_rule(s.view(0), [np.full(67, np.nan)], [0])
    with pytest.raises(AnalysisError, match="played="):
        knock_rule(s.view(0), [sure20], [-1])
    with pytest.raises(AnalysisError, match="played="):
        knock_rule(s.view(0), [sure20], [True])


def test_the_knock_outcome_is_valued_by_the_game_model() -> None:
    s = GameState.new("classic", 2).deal(deal_order(["AH KH 4C", "2S 3S 9H"], up="QH"))
    sure20 = np.zeros(67)
    sure20[40] = 1.0
    view = s.view(0)
    game = GameModel.of(Standing.from_view(view), (0.5,))
    out = KnockValuation().outcome(view, [sure20], 2 * 26, game)
    assert out.own == 0.0 and out.gain == pytest.approx(game.after({1: 1}) - game.now)
    assert game_chance(view.rules, (4, 4), (1.0, 1.0), 0) == pytest.approx(0.5)
    assert isinstance(Fraction(out.gain).limit_denominator(), Fraction)


@pytest.mark.parametrize("name", ["gin", "french-canadian"])
def test_the_per_row_tables_read_the_games_own_hand_model_not_classics(name: str) -> None:
    """The scoring rules keep only what compares hands, not the way of keeping score: the
    tables the engine ranks by must read the game's own family (V14, V16), as
    :func:`hand_model` does, never classic's numbers."""
    rules = find_rules(name)
    scoring = scoring_rules(rules)
    assert family_of(rules) == name and family_of(scoring) == "classic"
    own, _, _ = loss_by_row(scoring, 2, 0.0, 0.5, family_of(rules))
    m = hand_model(rules, 2)
    e5 = e5_by_row(scoring)
    values = tables_for(scoring).value2
    for row in (0, len(own) // 3, len(own) // 2, len(own) - 1):
        assert math.isclose(own[row], m.loss(float(e5[row]), values[row] / 2, 0.0, 0.5), rel_tol=1e-9)
    assert own != loss_by_row(scoring, 2, 0.0, 0.5)[0]


def test_V16_a_hand_is_lost_when_another_player_scores_far_more_often_than_a_life() -> None:
    """Under French-Canadian (V16) a hand is lost when another player scores its point, so
    with two opponents drawing with A-K of hearts at the start loses the hand over a third of
    the time; under classic it costs a life far less often (the bug this pins read
    classic's numbers for V16, and its expert won 49% where it had won 59%)."""
    from scatlab.analysis import rank
    from scatlab.rules import Action

    deck = deal_order(["2S 3S 9D", "AH KH 4C", "5D 6D 8C"], up="QS")
    fc = rank(GameState.new("french-canadian", 3).deal(deck).view(1)).move(Action.DRAW).loss
    classic = rank(GameState.new("classic", 3).deal(deck).view(1)).move(Action.DRAW).loss
    assert fc > Fraction(1, 3) and fc > 2 * classic


# -- who sits where: the kinds the table announces ------------------------------------------


def _announced_position(seats: tuple[str, ...]) -> GameState:
    order = deal_order(["AH KH 4C", "2S 3S 9H", "5D 6D 8C"], up="QS")
    return GameState.new("classic", 3, dealer=2, seats=seats).deal(order)


def test_an_announced_tip_player_is_casual_and_an_expert_or_master_strong() -> None:
    """The table announces who sits where (``GameState.seats``): the opponent model takes a
    ``tip`` player as casual and an ``expert`` or ``master`` as strong, for certain; a seat
    announced by another name, or a game where nobody was announced, keeps the odds it learns
    (even before any hand was shown)."""
    from scatlab.analysis import Position
    from scatlab.analysis.model.kinds import ANNOUNCED_KINDS, kind_odds

    assert ANNOUNCED_KINDS == {"tip": 0, "expert": 1, "master": 1}
    view = _announced_position(("you", "tip", "expert")).view(0)
    assert kind_odds(view) == ((1.0, 0.0), (0.0, 1.0))
    assert Position.from_view(view).strong() == (0.0, 1.0)
    view = _announced_position(("you", "master", "random")).view(0)
    assert kind_odds(view) == ((0.0, 1.0), (0.5, 0.5))
    assert Position.from_view(view).strong() == (1.0, 0.5)
    assert kind_odds(_announced_position(()).view(0)) is None
    assert Position.from_view(_announced_position(()).view(0)).strong() == (0.5, 0.5)


def test_the_chance_of_winning_reads_the_announced_kinds() -> None:
    """The same position is worth more against two announced tip players than against
    players nobody announced, and more against those than against two announced experts:
    the game model weighs each opponent by the kind the table says it is."""
    from scatlab.analysis import rank

    tips = rank(_announced_position(("you", "tip", "tip")).view(0)).best.win
    unknown = rank(_announced_position(()).view(0)).best.win
    experts = rank(_announced_position(("you", "expert", "expert")).view(0)).best.win
    assert tips > unknown > experts


def test_a_seat_announced_keeps_its_kind_whatever_its_shown_hands_say() -> None:
    """An announced kind is certain: the hands shown later in the game do not move it, while
    the same game with nobody announced learns odds from them."""
    from scatlab.analysis.model.kinds import kind_odds
    from scatlab.players.base import make_player
    from scatlab.players.tournament import play_out

    views: list[GameState] = []

    def observe(before: GameState, entrant: int, view: object, action: object, after: GameState) -> None:
        if before.view(0).past_hands and not views:
            views.append(before)

    play_out([make_player("expert"), make_player("tip")], ["expert", "tip"], find_rules("classic"), 3, 0, observe)
    assert views, "the game has a second hand"
    state = views[0]
    learned = kind_odds(state.view(0))
    assert learned is not None and 0.0 < learned[0][1] < 1.0
    assert kind_odds(state.announced(("expert", "tip")).view(0)) == ((1.0, 0.0),)


def test_each_hand_of_the_game_model_is_drawn_by_the_numbers_for_the_players_then_in() -> None:
    """A game of three that comes down to two is played out by the heads-up numbers (the
    hand model measured against one opponent), not by the three-handed ones: checked
    against a plain recursion over every standing, written here from the module doc."""

    from scatlab.analysis.model.winning import hand_model

    rules = find_rules("classic")

    @functools.cache
    def chance(counts: tuple[int, ...], strong: tuple[float, ...], me: int) -> float:
        alive = [s for s, c in enumerate(counts) if c > 0]
        if me not in alive:
            return 0.0
        if len(alive) == 1:
            return 1.0
        m = hand_model(rules, len(alive) - 1)
        lose = {s: strong[s] + (1 - strong[s]) * m.casual_loses for s in alive}
        win = {s: strong[s] + (1 - strong[s]) * m.casual_wins for s in alive}
        total = 0.0
        for s in alive:
            single = (1 - m.rho) * lose[s] / sum(lose.values())
            for cost, p in ((1, 1 - m.double), (2, m.double)):
                new = tuple(max(0, c - cost) if o == s else c for o, c in enumerate(counts))
                total += single * p * chance(new, strong, me)
            swept = tuple(max(0, c - 1) if o != s and c > 0 else c for o, c in enumerate(counts))
            total += m.rho * win[s] / sum(win.values()) * chance(swept, strong, me)
        return total

    assert hand_model(rules, 1).casual_loses != hand_model(rules, 2).casual_loses
    for counts in ((2, 2, 2), (1, 3, 2), (3, 1, 1)):
        for strong in ((1.0, 0.0, 0.0), (1.0, 1.0, 0.5), (1.0, 1.0, 1.0)):
            assert game_chance(rules, counts, strong, 0) == pytest.approx(chance(counts, strong, 0), abs=1e-12)
