"""How the ``expert`` values a knock: the standing model and the knock rule (layer 3).

The ``expert`` (:class:`scatlab.players.ExpertPlayer`) decides to knock by
:class:`KnockValuation`; the opponent model pictures a strong opponent's knocks by the same
valuation (:meth:`KnockValuation.knock_rule`, worked out from public facts by
:meth:`scatlab.analysis.Observations.from_view`), which is why it lives in the analysis
layer and not with the player.

What a knock is worth:

- **the outcomes**: each opponent's final value is distributed as given (67 chances, one
  per value in half points, e.g. by
  :func:`~scatlab.analysis.model.opponents.final_value_distribution`), the opponents independent;
  from those the chance of every outcome of the knock under the rule set (C7, V7, V8, V9,
  V14, V16): who loses a life or a letter, who scores;
- **the standing model**: each outcome is valued by what it does to everyone's chance of
  winning the game, ``P(win) = s_me / sum of s`` over the players still in, ``s = lives **
  alpha`` (lives left, the county counting as one; letters under V14; bus positions under
  V15) or ``exp(alpha * points / 4)`` under V16;
- **playing on**: one more draw (keeping the best hand), then a showdown it did not call
  against opponents who have had two more turns of the simple turn model (dealt hands, a
  uniformly random card drawn and the best three kept each turn), costing it a life with
  the chance of being lowest there (or of a 31), else costing an opponent;
- it knocks when the knock costs at most ``knock_risk / players`` expected lives (less on
  its last life) and does not lower P(win), or when the knock's expected change in P(win)
  beats playing on by ``margin`` (scaled by the number of opponents / 2); never when a
  quick screen under the simple turn model calls the knock hopeless (lowest with P > 0.3;
  under V14 or V16 highest or tied with P < 0.3).

>>> import numpy as np
>>> from scatlab.rules import GameState, deal_order
>>> s = GameState.new("classic", 2).deal(deal_order(["AH KH 4C", "2S 3S 9H"], up="QH"))
>>> sure20 = np.zeros(67); sure20[40] = 1.0      # the opponent surely ends on 20
>>> own, gain, why = KnockValuation().knock_value(s.view(0), [sure20], 2 * 26)
>>> own, round(gain, 3), why    # the opponent surely loses a life: P(win) from 4/8 to 4/7
(0.0, 0.071, 'about 0% to be lowest, 0% to tie lowest and 0% that someone makes 31')
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from ...checks import real_number, shown
from ...errors import AnalysisError
from ...rules.options import RuleSet
from ...rules.view import PlayerView
from .hand_filter import KnockRule
from ..counting.knowledge import opponent_turns
from ..counting.store import cached
from ..counting.tables import BLITZ2, RANK_BITS, SOURCE as TABLES_SOURCE, Tables, scoring_rules, tables_for

__all__ = ["KnockValuation", "KnockOutcome", "Seats", "Standing", "TurnOdds", "turn_odds", "opponent_turns",
           "MAX_TURNS"]

MAX_TURNS = 20
""":class:`!TurnOdds` holds the simple turn model up to this many turns (and one more)."""


class Seats(Protocol):
    """The public facts a valuation reads: a :class:`~scatlab.rules.PlayerView` has them,
    and so does a :class:`Standing` (a position typed in, with no game around it)."""

    @property
    def rules(self) -> RuleSet: ...
    @property
    def player(self) -> int: ...
    @property
    def num_players(self) -> int: ...
    @property
    def opponents(self) -> tuple[int, ...]: ...
    @property
    def lives(self) -> tuple[int, ...]: ...
    @property
    def points(self) -> tuple[int, ...]: ...
    @property
    def out(self) -> tuple[bool, ...]: ...


@dataclass(frozen=True)
class Standing:
    """The standings of a game as the valuation reads them (:class:`Seats`): whose the
    decision is, the opponents in turn order after that player, and each seat's lives,
    points and whether it is out.

    >>> from scatlab.rules import find_rules
    >>> Standing.fresh(find_rules("classic"), opponents=2).lives     # just dealt: every life left
    (3, 3, 3)
    """

    rules: RuleSet
    player: int
    num_players: int
    opponents: tuple[int, ...]
    lives: tuple[int, ...]
    points: tuple[int, ...]
    out: tuple[bool, ...]

    @classmethod
    def from_view(cls, view: Seats) -> Standing:
        """The standings of ``view`` (a :class:`~scatlab.rules.PlayerView`)."""
        return cls(view.rules, view.player, view.num_players, tuple(view.opponents), tuple(view.lives),
                   tuple(view.points), tuple(view.out))

    @classmethod
    def fresh(cls, rules: RuleSet, opponents: int) -> Standing:
        """A game's first hand: player 0 against ``opponents`` opponents, every seat with
        all its lives (letters, bus positions) and no points."""
        n = opponents + 1
        return cls(rules, 0, n, tuple(range(1, n)), (rules.lives,) * n, (0,) * n, (False,) * n)


@dataclass(frozen=True)
class KnockOutcome:
    """What ending the hand now is expected to do (:meth:`KnockValuation.outcome`).

    ``own``: the expected lives (letters; under V16 the chance of not scoring the point)
    the player loses; ``p_one`` and ``p_two``: the chances of losing exactly one and exactly
    two (``own = p_one + 2 * p_two``); ``gain``: the expected change in the player's chance
    of winning the game (the standing model); ``phrase``: the odds in words."""

    own: float
    gain: float
    p_one: float
    p_two: float
    phrase: str


@dataclass(frozen=True)
class TurnOdds:
    """The simple turn model per scoring configuration: a dealt hand that draws a uniformly
    random card each turn and keeps the best three. ``gt[t, v2]``: the chance that it is
    worth more than ``v2 / 2`` after ``t`` turns; ``eq[t, v2]``: exactly ``v2 / 2``;
    ``blitz[t]``: 31 or more (31s stay)."""

    tables: Tables
    gt: npt.NDArray[Any]
    eq: npt.NDArray[Any]
    blitz: npt.NDArray[Any]


@lru_cache(maxsize=8)
def _turn_odds(scoring: RuleSet) -> TurnOdds:
    tables = tables_for(scoring)
    dist = cached("turn-odds", (tables.key, MAX_TURNS), lambda: {"dist": _turn_distributions(tables)},
                  sources=(__file__, TABLES_SOURCE))["dist"]
    gt = 1.0 - np.cumsum(dist, axis=1)
    blitz = dist[:, BLITZ2:].sum(axis=1)
    return TurnOdds(tables, gt, dist, blitz)


def turn_odds(rules: RuleSet) -> TurnOdds:
    """The :class:`TurnOdds` of ``rules`` (cached per scoring configuration).

    >>> from scatlab.rules import find_rules
    >>> odds = turn_odds(find_rules("classic"))
    >>> round(float(odds.eq[0].sum()), 9), odds.gt.shape
    (1.0, (22, 67))
    """
    return _turn_odds(scoring_rules(rules))


def _turn_distributions(tables: Tables) -> npt.NDArray[Any]:
    """``dist[t, v2]``: the chance that a dealt hand, after t turns of drawing a uniformly
    random card and keeping the best three, is worth ``v2 / 2`` (31s stay)."""
    rows = tables.rows
    m = len(rows)
    nxt, valid = tables.draw_moves()
    blitz = tables.value2 >= BLITZ2
    nxt = np.where(blitz[:, None], np.arange(m)[:, None], nxt)
    others = tables.deck_size - 3
    p: npt.NDArray[Any] = np.full(m, 1.0 / m)
    out = np.zeros((MAX_TURNS + 2, 67))
    flat_next = nxt[valid]
    owner = np.broadcast_to(np.arange(m)[:, None], (m, 52))[valid]
    for t in range(MAX_TURNS + 2):
        out[t] = np.bincount(tables.value2, weights=p, minlength=67)[:67]
        p = np.bincount(flat_next, weights=p[owner] / others, minlength=m)
    return out


@dataclass(frozen=True)
class KnockValuation:
    """The expert's valuation of a knock (see the module doc), from the public facts of a
    :class:`PlayerView` (its player, the rules, the standings, the opponents and their turns;
    never the hand).

    ``knock_risk``: the expected lives a knock may always cost, times the number of players
    (when the knock does not lower the chance of winning); ``alpha``: the exponent of the
    standing model; ``margin``: how much (in probability of winning the game) a knock must
    beat playing on by, against two opponents (scaled by the number of opponents / 2). The
    defaults are the ``expert``'s.

    >>> KnockValuation(margin=2)
    Traceback (most recent call last):
    ...
    scatlab.errors.AnalysisError: margin=2 is not allowed: use a number from -1 to 1
    """

    knock_risk: float = 0.3
    alpha: float = 1.0
    margin: float = 0.06

    def __post_init__(self) -> None:
        real_number("knock_risk", self.knock_risk, 0, 10, error=AnalysisError)
        if real_number("alpha", self.alpha, 0, 10, error=AnalysisError) == 0:
            raise AnalysisError(f"alpha={self.alpha!r} is not allowed: use a number more than 0, up to 10")
        real_number("margin", self.margin, -1, 1, error=AnalysisError)

    # -- the decision's parts --------------------------------------------------------------

    def scaled_margin(self, view: Seats) -> float:
        """How much a knock must beat playing on by in ``view``: ``margin`` times the number
        of opponents / 2."""
        return self.margin * len(view.opponents) / 2

    def limit(self, view: Seats) -> float:
        """The expected lives (letters, points missed) a knock may always cost: ``knock_risk /
        players``, times 0.6 on the last life (the county's last under V6)."""
        players = len(view.opponents) + 1
        limit = self.knock_risk / players
        rules = view.rules
        if rules.score_keeping in ("lives", "bus", "gin"):
            lives = view.lives[view.player]
            floor = 0 if rules.county else 1
            if lives <= floor:  # one more loss and it is out
                limit *= 0.6
        return limit

    @staticmethod
    def hopeless(view: Seats, odds: TurnOdds, strength: int, extra_turn: bool,
                 turns: Sequence[int] | None = None) -> bool:
        """The quick screen before the full estimate: under the simple turn model (dealt
        hands improved by ``turns``, one per opponent, default the turns they have played
        now; one more with ``extra_turn``), a knock with ``strength`` (a table strength) is
        lowest with P > 0.3 (under V14 or V16: highest or tied with P < 0.3)."""
        v2 = strength >> RANK_BITS
        if v2 >= BLITZ2:
            return False
        lowest = at_most = 1.0
        for played in _turns(view) if turns is None else turns:
            t = min(played + (1 if extra_turn else 0), MAX_TURNS + 1)
            lowest *= float(odds.gt[t, v2])
            at_most *= 1.0 - float(odds.gt[t, v2])
        if view.rules.score_keeping in ("gin", "points"):
            return at_most < 0.3
        return lowest > 0.3

    @staticmethod
    def risk_at(odds: TurnOdds, played: Sequence[int], v2: int) -> float:
        """The lives lost in the later showdown of playing on with a hand worth ``v2 / 2``
        kept after the draw, against opponents who have played ``played`` turns (they have
        two more): it loses by being lowest (ties included) or to a 31."""
        if v2 >= BLITZ2:
            return 0.0
        low = no31 = 1.0
        for turns in played:
            t = min(turns + 2, MAX_TURNS + 1)
            p31 = float(odds.blitz[t])
            no31 *= 1.0 - p31
            low *= max(float(odds.gt[t, v2]) + float(odds.eq[t, v2]) - p31, 0.0)
        return (1.0 - no31) + no31 * low

    @classmethod
    def risk_by_value(cls, odds: TurnOdds, played: Sequence[int]) -> list[float]:
        """:meth:`risk_at` for every value in half points kept after the draw (0 to 66)."""
        return [cls.risk_at(odds, played, v2) for v2 in range(67)]

    def risk_playing_on(self, view: Seats, odds: TurnOdds, row: int, unseen: Sequence[int],
                        played: Sequence[int] | None = None) -> float:
        """The expected lives lost by not knocking now with the hand of table row ``row``:
        :meth:`risk_at` averaged over drawing each card of ``unseen`` (card indices) and
        keeping the best hand, against opponents who have played ``played`` turns (default:
        the turns of ``view``, a :class:`~scatlab.rules.PlayerView`)."""
        after = odds.tables.after_draw_row(row)
        played = _turns(view) if played is None else list(played)
        memo: dict[int, float] = {}
        total = 0.0
        for card in unseen:
            v2 = after[card] >> RANK_BITS
            if v2 not in memo:
                memo[v2] = self.risk_at(odds, played, v2)
            total += memo[v2]
        return total / len(unseen)

    # -- standing: a stated model of the chance of winning the game -----------------------

    @staticmethod
    def standing(view: Seats) -> list[float]:
        """Per seat: lives left (counting the county as one) or points; 0 when out."""
        rules = view.rules
        if rules.score_keeping == "points":
            return [float(p) for p in view.points]
        extra = 1 if rules.county else 0
        return [0.0 if view.out[s] else float(view.lives[s] + extra) for s in range(view.num_players)]

    def p_win(self, standing: Sequence[float], me: int, points: bool) -> float:
        """The standing model: P(win) is proportional to lives ** alpha (points: to
        exp(alpha * points / 4)) among the players still in."""
        if points:
            weights = [math.exp(self.alpha * p / 4) for p in standing]
        else:
            weights = [max(p, 0.0) ** self.alpha for p in standing]
        total = sum(weights)
        return weights[me] / total if total > 0 else 0.0

    def knock_value(self, view: Seats, dists: Sequence[npt.NDArray[Any]], k: int) -> tuple[float, float, str]:
        """(expected own lives lost, expected change in P(win), a phrase) of knocking now
        with a hand worth ``k / 2``, the opponents' final values distributed as ``dists``
        (one per opponent of ``view``, assumed independent): :meth:`outcome`'s figures."""
        out = self.outcome(view, dists, k)
        return out.own, out.gain, out.phrase

    def outcome(self, view: Seats, dists: Sequence[npt.NDArray[Any]], k: int) -> KnockOutcome:
        """The :class:`KnockOutcome` of ending the hand now with a hand worth ``k / 2``, the
        opponents' final values distributed as ``dists`` (one per opponent of ``view``,
        assumed independent)."""
        rules = view.rules
        me = view.player
        seats = view.opponents
        points = rules.score_keeping == "points"
        base_standing = self.standing(view)
        base = self.p_win(base_standing, me, points)

        def du(changes: dict[int, int]) -> float:
            st = list(base_standing)
            for seat, x in changes.items():
                st[seat] = st[seat] + x if points else max(0.0, st[seat] - x)
            return self.p_win(st, me, points) - base

        p31 = [float(d[BLITZ2:].sum()) for d in dists]
        lt = [float(d[:k].sum()) for d in dists]
        eq = [float(d[k]) if k < BLITZ2 else 0.0 for d in dists]
        gt = [max(0.0, 1.0 - a - b - c) for a, b, c in zip(p31, lt, eq)]
        no31 = math.prod(1.0 - x for x in p31)
        some31 = 1.0 - no31
        all_above = math.prod(gt)
        all_at_least = math.prod(g + e for g, e in zip(gt, eq))
        all_at_most = math.prod(a + e for a, e in zip(lt, eq))
        all_below = math.prod(lt)
        tie = max(0.0, all_at_least - all_above)
        n = len(dists)
        # who is lowest / highest among the opponents below / above the knocker
        below = [np.cumsum(d) for d in dists]  # below[i][v] = P(V_i <= v)
        low = []
        high = []
        for i in range(n):
            d = dists[i]
            lo_i = 0.0
            hi_i = 0.0
            for v in (int(x) for x in np.flatnonzero(d[:BLITZ2])):
                others_above = math.prod(max(0.0, 1.0 - float(below[j][v]) - float(p31[j])) for j in range(n) if j != i)
                others_below = math.prod(float(below[j][v - 1]) if v > 0 else 0.0 for j in range(n) if j != i)
                if v < k:
                    lo_i += float(d[v]) * others_above
                if v >= k:
                    hi_i += float(d[v]) * others_below
            low.append(lo_i)
            high.append(hi_i)
        if rules.score_keeping == "gin":
            stand = all_at_most
            fail = max(0.0, 1.0 - stand - some31)
            gain = stand * du({s: 1 for s in seats}) + fail * du({me: 1})
            for i, (w, _) in enumerate(_blitzers(p31, some31)):
                gain += w * du({me: 1, **{s: 1 for j, s in enumerate(seats) if j != i}})
            own = fail + some31
            return KnockOutcome(own, gain, own, 0.0, f"about {stand:.0%} that the knock stands (everyone else a "
                                f"letter, V14)")
        if points:
            win = all_below
            gain = win * du({me: 1})
            total_high = sum(high)
            rest = max(0.0, no31 - win)
            for i, s in enumerate(seats):
                if total_high > 0:
                    gain += rest * high[i] / total_high * du({s: 1})
            for i, (w, _) in enumerate(_blitzers(p31, some31)):
                gain += w * du({seats[i]: 1})
            return KnockOutcome(1.0 - win, gain, 1.0 - win, 0.0, f"about {win:.0%} to score the point (V16)")
        lose31 = 2 if rules.thirty_one_after_knock == "knocker_two" else 1
        tie_loss = {"classic": 0, "knocker_two": 2, "knocker_only": 1, "cadillac": 2}[rules.knocker_tie]
        kll = rules.knocker_lowest_loses
        gain = all_above * du({me: kll})
        if tie_loss:
            gain += tie * du({me: tie_loss})
        else:
            total_eq = sum(eq)
            for i, s in enumerate(seats):
                if total_eq > 0:
                    gain += tie * eq[i] / total_eq * du({s: 1})
        rest = max(0.0, no31 - all_at_least)
        total_low = sum(low)
        for i, s in enumerate(seats):
            if total_low > 0:
                gain += rest * low[i] / total_low * du({s: 1})
        for i, (w, _) in enumerate(_blitzers(p31, some31)):
            gain += w * du({me: lose31, **{s: 1 for j, s in enumerate(seats) if j != i}})
        lost = {1: 0.0, 2: 0.0}
        for lives, p in ((lose31, some31), (kll, all_above), (tie_loss, tie)):
            if lives:
                lost[lives] += p
        own = lost[1] + 2 * lost[2]
        return KnockOutcome(own, gain, lost[1], lost[2], f"about {all_above:.0%} to be lowest, {tie:.0%} to tie "
                            f"lowest and {some31:.0%} that someone makes 31")

    def showdown_changes(self, view: Seats) -> tuple[float, float, bool]:
        """The change in P(win) when a showdown costs ``view``'s player a life (under V16: it
        scores), the mean change when it costs an opponent (someone else scores), and whether
        the game is played for points (V16)."""
        me = view.player
        seats = view.opponents
        points = view.rules.score_keeping == "points"
        base_standing = self.standing(view)
        base = self.p_win(base_standing, me, points)

        def du(seat: int) -> float:
            st = list(base_standing)
            st[seat] = st[seat] + 1 if points else max(0.0, st[seat] - 1)
            return self.p_win(st, me, points) - base

        others = sum(du(s) for s in seats) / len(seats) if seats else 0.0
        return du(me), others, points

    def playing_on_line(self, view: Seats) -> tuple[float, float]:
        """``(base, slope)``: playing on changes the chance of winning the game by about
        ``base + slope * risk``, ``risk`` the chance that the later showdown costs it (see
        :meth:`value_playing_on`)."""
        mine, others, points = self.showdown_changes(view)
        if points:
            return mine, others - mine
        return others, mine - others

    def value_playing_on(self, view: Seats, odds: TurnOdds, row: int, unseen: Sequence[int],
                         played: Sequence[int] | None = None) -> float:
        """The expected change in P(win) of not knocking now with the hand of row ``row``: a
        later showdown it did not call costs it a life (a letter) with the chance of
        :meth:`risk_playing_on`, and otherwise costs one opponent, each alike (under V16:
        someone else scores)."""
        return self.value_of_risk(view, self.risk_playing_on(view, odds, row, unseen, played))

    def value_of_risk(self, view: Seats, own: float) -> float:
        """The expected change in P(win) of playing on when the later showdown costs the
        player with the chance ``own`` (see :meth:`value_playing_on`)."""
        mine, others, points = self.showdown_changes(view)
        if points:
            return (1.0 - own) * mine + own * others
        return own * mine + (1.0 - own) * others

    # -- the rule for every value at once --------------------------------------------------

    def knock_rule(self, view: PlayerView | Standing, dists: Sequence[npt.NDArray[Any]], played: Sequence[int]) -> KnockRule:
        """The rule by which ``view``'s player would decide to knock at the start of a turn,
        for every hand value at once, with its opponents' final values distributed as
        ``dists`` (one array over the 67 half-point values each, as
        :func:`~scatlab.analysis.model.opponents.final_value_distribution` gives) after ``played``
        turns each: per value, knock when the knock costs at most :meth:`limit` and does not
        lower its chance of winning; never when :meth:`hopeless`; else when playing on (its
        chance of winning changing by ``base + slope * risk``, :meth:`playing_on_line`) is
        worse than knocking by the margin, ``risk`` the hand's chance of losing by playing on
        (:meth:`risk_by_value`, averaged over the draw). Only public facts of ``view`` are
        read (never its hand).

        >>> from scatlab.rules import GameState, deal_order
        >>> s = GameState.new("classic", 2).deal(deal_order(["AH KH 4C", "2S 3S 9H"], up="QH"))
        >>> sure20 = np.zeros(67); sure20[40] = 1.0      # the opponent surely ends on 20
        >>> rule = KnockValuation().knock_rule(s.view(0), [sure20], [0])
        >>> rule.threshold[2 * 25], rule.threshold[2 * 26]  # no rule below 26; a 26 beats a sure 20
        (inf, -inf)
        """
        if not isinstance(view, (PlayerView, Standing)):
            raise AnalysisError(f"knock_rule needs a PlayerView or a Standing, not {shown(view)}")
        n = len(view.opponents)
        if not (isinstance(dists, (list, tuple)) and len(dists) == n
                and all(isinstance(d, np.ndarray) and d.shape == (67,) and bool(np.isfinite(d).all())
                        and bool((d >= 0).all()) for d in dists)):
            raise AnalysisError(f"dists={shown(dists)} is not allowed: one array of 67 chances (one per hand "
                                f"value in half points) for each of the {n} opponents")
        if not (isinstance(played, (list, tuple)) and len(played) == n
                and all(isinstance(t, int) and not isinstance(t, bool) and t >= 0 for t in played)):
            raise AnalysisError(f"played={shown(played)} is not allowed: a whole number of turns of 0 or more for "
                                f"each of the {n} opponents")
        dists, played = list(dists), list(played)
        odds = turn_odds(view.rules)
        base, slope = self.playing_on_line(view)
        margin = self.scaled_margin(view)
        limit = self.limit(view)
        threshold = []
        for v2 in range(67):
            if v2 < 52 or v2 >= BLITZ2 or self.hopeless(view, odds, v2 << RANK_BITS, True, played):
                threshold.append(math.inf)
                continue
            own, gain, _ = self.knock_value(view, dists, v2)
            if own <= limit and gain >= 0:
                threshold.append(-math.inf)
            elif slope < 0:  # knock when gain >= base + slope * risk + margin
                threshold.append((gain - margin - base) / slope)
            else:
                threshold.append(-math.inf if gain >= base + margin else math.inf)
        return KnockRule(tuple(threshold), tuple(self.risk_by_value(odds, played)))


def _turns(view: Seats) -> list[int]:
    if not isinstance(view, PlayerView):
        raise AnalysisError("the opponents' turns played are needed: pass them, or give a PlayerView")
    return opponent_turns(view)


def _blitzers(p31: list[float], some31: float) -> list[tuple[float, int]]:
    total = sum(p31)
    return [(some31 * p / total if total > 0 else 0.0, i) for i, p in enumerate(p31)]
