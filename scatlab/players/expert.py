"""The ``expert`` player: it plays from the analysis.

What it uses, all from its own :class:`PlayerView`:

- **card tracking** (:meth:`Knowledge.from_view`): the unseen cards, the dead cards, what
  each opponent took from the pile;
- **the horizon tables** (:mod:`scatlab.analysis.horizon`): a hand is worth its exact
  expected value after ``horizon`` (5) more turns, so it collects towards hands with a
  future, not just the highest total now;
- **exact draw odds**: drawing is worth the average, over every unseen card, of the best
  hand it can keep; taking is worth the best hand it makes; the larger wins;
- **knocking to win the game**: each opponent's hand is weighted by the adaptive opponent
  model (:mod:`scatlab.analysis.opponents`: dealt hands improved by the turns each has
  played, less likely where a card they threw or passed over would have helped), plus the
  one last turn a knock gives them (a fast approximation: independent opponents, the draw
  from any card not in the hand). From those it gets the chance of every outcome of the
  knock under the rule set (C7, V7, V8, V9, V14, V16): who loses a life or a letter, who
  scores. Each outcome is valued by what it does to **everyone's standing**, through a
  stated model of the chance of winning the game: ``P(win) = s_me / sum of s`` over the
  players still in, ``s = lives ** alpha`` (lives left, the county counting as one; letters
  under V14; bus positions under V15) or ``exp(alpha * points / 4)`` under V16. So an
  opponent's lost life is worth something to it, its own last life is worth far more than
  its first, and under GIN a knock that stands (a letter to every opponent) is worth
  several. It knocks when the knock's expected change in P(win) beats that of playing on
  (one more draw, then a showdown it did not call against opponents with two more turns,
  costing it a life with the chance of being lowest there, else costing an opponent) by
  ``margin`` (0.06 against two opponents, 0.03 heads-up: fitted on every preset), or when a knock costs at most ``knock_risk / players`` lives and does not
  lower P(win) (less on its last life). A quick screen under the simple turn model skips
  the estimate when the knock is lowest with P > 0.3 (under V14/V16: highest with P < 0.3);
- on a last turn after someone knocked it plays for the highest hand now; it never throws
  a card of a suit the next player collects when another discard is worth at most
  ``feed_margin`` (2) points less five turns ahead.

The horizon (5) and ``feed_margin`` (2) were fitted on seed 101 against tip players, heads-up
and under every preset: against the previous 3 and 1/2 they won more often heads-up and under
every preset but eenendertigen, where they made no difference (the README's strength table
is measured on another seed).

>>> import random
>>> from scatlab.rules import GameState, deal_order
>>> s = GameState.new("classic", 2).deal(deal_order(["AH KH 4C", "2S 3S 9H"], up="QH"))
>>> ExpertPlayer().decide(s.view(1), random.Random(0)).action
Action(kind=<ActionKind.TAKE: 'take'>, card=None)
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from ..checks import real_number, shown, whole_number
from ..analysis.hand_filter import KnockRule
from ..analysis.horizon import horizon_table
from ..analysis.knowledge import Knowledge
from ..analysis.opponents import Observations, final_value_distribution
from ..analysis.tables import BLITZ2, RANK_BITS, Tables, scoring_rules, tables_for
from ..cards import Card
from ..rules.actions import Action, ActionKind
from ..rules.options import RuleSet
from ..rules.view import PlayerView
from .base import Decision, Player, PlayerError, settled_choice
from .tip import collected_suits

__all__ = ["ExpertPlayer"]

MAX_TURNS = 20


@dataclass(frozen=True)
class _Model:
    """Per scoring configuration: continuation values and opponent hand distributions."""

    tables: Tables
    future: list[int]  # E_horizon per row, scaled to integers
    gt: npt.NDArray[Any]  # gt[t, v2]: P(an opponent's value after t turns > v2 / 2)
    eq: npt.NDArray[Any]  # eq[t, v2]: P(== v2 / 2)
    blitz: npt.NDArray[Any]  # blitz[t]: P(31 or more after t turns)


@lru_cache(maxsize=8)
def _model(scoring: RuleSet, horizon: int) -> _Model:
    tables = tables_for(scoring)
    future = [int(x) for x in horizon_table(tables, horizon)]
    dist = _turn_distributions(tables)
    gt = 1.0 - np.cumsum(dist, axis=1)
    blitz = dist[:, BLITZ2:].sum(axis=1)
    return _Model(tables, future, gt, dist, blitz)


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


def _model_for(rules: RuleSet, horizon: int) -> _Model:
    return _model(scoring_rules(rules), horizon)


class ExpertPlayer(Player):
    """Plays from the analysis (see the module doc).

    ``knock_risk``: the expected lives a knock may always cost, times the number of
    players (when the knock does not lower its chance of winning); ``horizon``: how many turns ahead hands are valued;
    ``feed_margin``: how much continuation value (in points) it gives up to avoid feeding
    the next player; ``alpha``: the exponent of the standing model; ``margin``: how much
    (in probability of winning the game) a knock must beat playing on by, against two
    opponents (scaled by the number of opponents / 2).
    """

    name = "expert"

    def __init__(self, knock_risk: float = 0.15, horizon: int = 5, feed_margin: float = 2.0,
                 alpha: float = 1.0, margin: float = 0.06) -> None:
        real_number("knock_risk", knock_risk, 0, 10, error=PlayerError)
        whole_number("horizon", horizon, 0, 5, error=PlayerError)
        real_number("feed_margin", feed_margin, 0, 31, error=PlayerError)
        if real_number("alpha", alpha, 0, 10, error=PlayerError) == 0:  # lives ** 0 would weigh every standing alike
            raise PlayerError(f"alpha={alpha!r} is not allowed: use a number more than 0, up to 10")
        real_number("margin", margin, -1, 1, error=PlayerError)
        self.knock_risk = knock_risk
        self.horizon = horizon
        self.feed_margin = feed_margin
        self.alpha = alpha
        self.margin = margin

    # -- the decision ------------------------------------------------------------------

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        kinds, settled = settled_choice(view, "does not throw down blind: its cards are unknown (V11)")
        if settled is not None:
            return settled
        model = _model_for(view.rules, self.horizon)
        if ActionKind.DISCARD in kinds:
            return self._discard(view, model, kinds)
        return self._turn(view, model, kinds)

    def _scale(self, model: _Model) -> int:
        return int(2 * (model.tables.deck_size - 3) ** self.horizon)

    def _turn(self, view: PlayerView, model: _Model, kinds: set[ActionKind]) -> Decision:
        tables = model.tables
        hand = view.hand
        idx = [c.index for c in hand]
        strength = tables.strength_of(idx)
        value = Fraction(strength >> RANK_BITS, 2)
        knowledge = Knowledge.from_view(view)
        unseen = knowledge.unseen_index
        row = tables.row(idx)
        for kind in (ActionKind.HAMMER, ActionKind.KNOCK):
            if kind in kinds:
                verb = "calls a hammer" if kind is ActionKind.HAMMER else "knocks"
                why = self._should_knock(view, knowledge, model, strength, row, extra_turn=kind is ActionKind.KNOCK)
                if why is not None:
                    return Decision(Action(kind), f"{verb} with {value}: {why}")
        future = model.future
        rl = tables.row_list
        top = view.top_discard
        final = view.knocker is not None  # a last turn: only the hand now counts
        scores: list[int] = tables.strength_list if final else future

        def score(r: int) -> int:
            return scores[r]

        take_score = None
        take_discard: Card | None = None
        if ActionKind.TAKE in kinds and top is not None:
            for i, out in enumerate(hand):
                rest = idx[:i] + idx[i + 1:]
                r = rl[rest[0] * 2704 + rest[1] * 52 + top.index]
                s = score(r)
                if take_score is None or s > take_score:
                    take_score, take_discard = s, out
        draw_total = None
        if ActionKind.DRAW in kinds and unseen:
            a, b, c = sorted(idx)
            ab, ac, bc = a * 2704 + b * 52, a * 2704 + c * 52, b * 2704 + c * 52
            keep = score(row)
            total = 0
            for d in unseen:
                best = keep
                for base in (ab, ac, bc):
                    s = score(rl[base + d])
                    if s > best:
                        best = s
                total += best
            draw_total = total
        what = "the hand now" if final else f"the expected value {self.horizon} turns ahead"
        if ActionKind.DRAW not in kinds:
            # C11: the stock is gone. Take only what strictly raises the hand now, so that a
            # hand of takers always ends (each take raises the taker's value).
            if ActionKind.TAKE in kinds and top is not None:
                after, out = max((tables.strength_of(sorted([c.index for c in hand if c is not x] + [top.index])), x)
                                 for x in hand)
                if after > strength:
                    return Decision(Action.TAKE, f"takes the {top} with the stock gone: throwing the {out} "
                                    f"raises the hand from {value} to {Fraction(after >> RANK_BITS, 2)} (C11)")
            return Decision(Action.PASS, "passes: the stock is gone and the discard does not raise the hand (C11)")
        if take_score is not None and (draw_total is None or take_score * len(unseen) >= draw_total):
            return Decision(Action.TAKE, f"takes the {top} and will throw the {take_discard}: it makes "
                            f"{self._show(take_score, model, final)} ({what}), at least the "
                            f"{self._show_avg(draw_total, len(unseen), model, final)} a draw is worth")
        if draw_total is not None:
            return Decision(Action.DRAW, f"draws: over {len(unseen)} unseen cards a draw is worth "
                            f"{self._show_avg(draw_total, len(unseen), model, final)} ({what}), more than "
                            + (f"{self._show(take_score, model, final)} by taking the {top}" if take_score is not None
                               else "keeping the hand"))
        action = view.legal_actions[0]
        return Decision(action, f"{action}: the only sensible action left")

    def _show(self, score: int | None, model: _Model, final: bool) -> str:
        if score is None:
            return "-"
        if final:
            return str(Fraction(score >> RANK_BITS, 2))
        return f"{score / self._scale(model):.2f}"

    def _show_avg(self, total: int | None, n: int, model: _Model, final: bool) -> str:
        if total is None or n == 0:
            return "-"
        if final:
            return f"{(total / n) / (2 << RANK_BITS):.2f}"
        return f"{total / n / self._scale(model):.2f}"

    def _discard(self, view: PlayerView, model: _Model, kinds: set[ActionKind]) -> Decision:
        tables = model.tables
        hand = view.hand
        idx = [c.index for c in hand]
        final = view.knocker is not None
        options: list[tuple[int, int, Card]] = []  # (score, strength, card)
        for i, out in enumerate(hand):
            if out is view.taken:
                continue
            rest = idx[:i] + idx[i + 1:]
            strength = tables.strength_of(sorted(rest))
            if strength >> RANK_BITS >= BLITZ2:
                return Decision(Action.discard(out), f"throws the {out}: the other three make 31")
            row = tables.row(rest)
            score = strength if final else model.future[row]
            options.append((score, strength, out))
        options.sort(key=lambda o: (-o[0], -o[1], o[2].value, o[2].index))
        best = options[0]
        if ActionKind.STOP_BUS in kinds:
            kept_cards = [c for c in hand if c is not best[2]]
            kept_idx = [c.index for c in kept_cards]
            knowledge = Knowledge.from_view(view)
            why = self._should_knock(view, knowledge, model, best[1], tables.row(kept_idx), extra_turn=False,
                                     hand=tuple(kept_cards))
            if why is not None:
                return Decision(Action.STOP_BUS, f"stops the bus, keeping {Fraction(best[1] >> RANK_BITS, 2)}: "
                                f"{why} (V19)")
        choice = best
        note = ""
        nxt = view.opponents[0] if view.opponents else None
        if nxt is not None and not final:
            collects = collected_suits(view, nxt)
            if best[2].suit in collects:
                margin = self.feed_margin * self._scale(model)
                for alt in options[1:]:
                    if alt[2].suit not in collects and best[0] - alt[0] <= margin:
                        choice = alt
                        note = f" (not the {best[2]}: player {nxt} collects {best[2].suit.letter})"
                        break
        kept = [c for c in hand if c is not choice[2]]
        what = f"worth {Fraction(choice[1] >> RANK_BITS, 2)} now" if final else (
            f"worth {choice[0] / self._scale(model):.2f} on average {self.horizon} turns ahead")
        return Decision(Action.discard(choice[2]), f"throws the {choice[2]}, keeping "
                        f"{' '.join(str(c) for c in kept)}, {what}{note}")

    # -- knocking ----------------------------------------------------------------------

    def _limit(self, view: PlayerView) -> float:
        players = len(view.opponents) + 1
        limit = self.knock_risk / players
        rules = view.rules
        if rules.score_keeping in ("lives", "bus", "gin"):
            lives = view.lives[view.player]
            floor = 0 if rules.county else 1
            if lives <= floor:  # one more loss and it is out
                limit *= 0.6
        return limit

    def _risk_playing_on(self, view: PlayerView, model: _Model, row: int, unseen: tuple[int, ...]) -> float:
        """Estimated lives lost by not knocking now: after one more draw (keeping the best
        hand) a showdown in which it is not the knocker, against opponents who have had
        two more turns; it loses a life by being lowest (ties included) or to a 31."""
        after = model.tables.after_draw_row(row)
        played = self._opponent_turns(view)
        memo: dict[int, float] = {}
        total = 0.0
        for card in unseen:
            v2 = after[card] >> RANK_BITS
            if v2 not in memo:
                memo[v2] = self._risk_at(model, played, v2)
            total += memo[v2]
        return total / len(unseen)

    @staticmethod
    def _risk_at(model: _Model, played: list[int], v2: int) -> float:
        """The lives lost in the showdown of :meth:`_risk_playing_on` with a hand worth
        ``v2 / 2`` kept after the draw, against opponents who have played ``played`` turns."""
        if v2 >= BLITZ2:
            return 0.0
        low = no31 = 1.0
        for turns in played:
            t = min(turns + 2, MAX_TURNS + 1)
            p31 = float(model.blitz[t])
            no31 *= 1.0 - p31
            low *= max(float(model.gt[t, v2]) + float(model.eq[t, v2]) - p31, 0.0)
        return (1.0 - no31) + no31 * low

    @classmethod
    def risk_by_value(cls, model: _Model, played: list[int]) -> list[float]:
        """Per value in half points kept after the draw (0 to 66): the lives lost in the
        showdown of :meth:`_risk_playing_on` against opponents who have played ``played``
        turns (one entry each)."""
        return [cls._risk_at(model, played, v2) for v2 in range(67)]

    def knock_rule(self, view: PlayerView, dists: Sequence[npt.NDArray[Any]], played: Sequence[int]) -> KnockRule:
        """The rule by which it would decide to knock at the start of a turn in ``view``,
        for every hand value at once, with its opponents' final values distributed as
        ``dists`` (one array over the 67 half-point values each, as
        :func:`~scatlab.analysis.opponents.final_value_distribution` gives) after
        ``played`` turns each: per value, knock when the knock costs at most its accepted
        risk and does not lower its chance of winning; never when the quick screen calls it
        hopeless; else when playing on (its chance of winning changing by ``base + slope *
        risk``, :meth:`playing_on_line`) is worse than knocking by its margin, ``risk`` the
        hand's chance of losing by playing on (:meth:`risk_by_value`, averaged over the
        draw). The same valuation as its own knock decision, written as a
        :class:`~scatlab.analysis.hand_filter.KnockRule` so that the filter's strong kind can
        knock by it (:func:`scatlab.players.calibration.knock_rules`).

        >>> from scatlab.rules import GameState, deal_order
        >>> s = GameState.new("classic", 2).deal(deal_order(["AH KH 4C", "2S 3S 9H"], up="QH"))
        >>> sure20 = np.zeros(67); sure20[40] = 1.0      # the opponent surely ends on 20
        >>> rule = ExpertPlayer().knock_rule(s.view(0), [sure20], [0])
        >>> rule.threshold[2 * 25], rule.threshold[2 * 26]  # no rule below 26; a 26 beats a sure 20
        (inf, -inf)
        """
        if not isinstance(view, PlayerView):
            raise PlayerError(f"knock_rule needs a PlayerView, not {shown(view)}")
        n = len(view.opponents)
        if not (isinstance(dists, (list, tuple)) and len(dists) == n
                and all(isinstance(d, np.ndarray) and d.shape == (67,) and bool(np.isfinite(d).all())
                        and bool((d >= 0).all()) for d in dists)):
            raise PlayerError(f"dists={shown(dists)} is not allowed: one array of 67 chances (one per hand value "
                              f"in half points) for each of the {n} opponents")
        if not (isinstance(played, (list, tuple)) and len(played) == n
                and all(isinstance(t, int) and not isinstance(t, bool) and t >= 0 for t in played)):
            raise PlayerError(f"played={shown(played)} is not allowed: a whole number of turns of 0 or more for "
                              f"each of the {n} opponents")
        dists, played = list(dists), list(played)
        model = _model_for(view.rules, self.horizon)
        base, slope = self.playing_on_line(view)
        margin = self.margin * len(view.opponents) / 2
        limit = self._limit(view)
        threshold = []
        for v2 in range(67):
            if v2 < 52 or v2 >= BLITZ2 or self._hopeless(view, model, v2 << RANK_BITS, True, played):
                threshold.append(math.inf)
                continue
            own, gain, _ = self._knock_value(view, dists, v2)
            if own <= limit and gain >= 0:
                threshold.append(-math.inf)
            elif slope < 0:  # knock when gain >= base + slope * risk + margin
                threshold.append((gain - margin - base) / slope)
            else:
                threshold.append(-math.inf if gain >= base + margin else math.inf)
        return KnockRule(tuple(threshold), tuple(self.risk_by_value(model, played)))

    def _opponent_turns(self, view: PlayerView) -> list[int]:
        """How many turns each opponent has completed in this hand (their discards)."""
        turns = {p: 0 for p in view.opponents}
        for e in view.history:
            if e.player in turns and e.action.kind is ActionKind.DISCARD:
                turns[e.player] += 1
        return list(turns.values())

    def _should_knock(self, view: PlayerView, knowledge: Knowledge, model: _Model, strength: int, row: int,
                      extra_turn: bool, hand: tuple[Card, ...] | None = None) -> str | None:
        """The reason to knock now, or None (see the module doc: the knock's expected change
        in the chance of winning the game, against playing on)."""
        if self._hopeless(view, model, strength, extra_turn):
            return None
        observations = Observations.from_view(view)
        if hand is not None:  # a bus stop: judged on the three cards kept
            knowledge = Knowledge(hand=hand, top=None, dead=knowledge.dead, opponent_holds=knowledge.opponent_holds,
                                  opponents=knowledge.opponents, rules=knowledge.rules)
        dists = [final_value_distribution(knowledge, observations, i, extra_turn) for i in range(knowledge.opponents)]
        own, gain, scenario = self._knock_value(view, dists, strength >> RANK_BITS)
        if own <= self._limit(view) and gain >= 0:
            unit = {"gin": "letters", "points": "points missed"}.get(view.rules.score_keeping, "lives")
            return f"{scenario}; {own:.2f} {unit} expected, within the {self._limit(view):.2f} it accepts"
        unseen = knowledge.unseen_index
        on = self._value_playing_on(view, model, row, unseen) if unseen else 0.0
        margin = self.margin * len(view.opponents) / 2
        if gain >= on + margin:
            return (f"{scenario}; the knock changes its chance of winning the game by {gain * 100:+.1f} points, "
                    f"playing on by about {on * 100:+.1f}")
        return None

    def _hopeless(self, view: PlayerView, model: _Model, strength: int, extra_turn: bool,
                  turns: list[int] | None = None) -> bool:
        """A quick screen before the full estimate: under the simple turn model (dealt hands
        improved by the turns played: ``turns``, one per opponent, default the turns they
        have played now), the knock is lowest with P > 0.3 (under V14 or V16: highest or
        tied with P < 0.3)."""
        v2 = strength >> RANK_BITS
        if v2 >= BLITZ2:
            return False
        lowest = at_most = 1.0
        for played in self._opponent_turns(view) if turns is None else turns:
            t = min(played + (1 if extra_turn else 0), MAX_TURNS + 1)
            lowest *= float(model.gt[t, v2])
            at_most *= 1.0 - float(model.gt[t, v2])
        if view.rules.score_keeping in ("gin", "points"):
            return at_most < 0.3
        return lowest > 0.3

    # -- standing: a stated model of the chance of winning the game ---------------------

    def _standing(self, view: PlayerView) -> list[float]:
        """Per seat: lives left (counting the county as one) or points; 0 when out."""
        rules = view.rules
        if rules.score_keeping == "points":
            return [float(p) for p in view.points]
        extra = 1 if rules.county else 0
        return [0.0 if view.out[s] else float(view.lives[s] + extra) for s in range(view.num_players)]

    def _p_win(self, standing: list[float], me: int, points: bool) -> float:
        """The stated standing model: P(win) is proportional to lives ** alpha (points:
        to exp(alpha * points / 4)) among the players still in."""
        if points:
            weights = [math.exp(self.alpha * p / 4) for p in standing]
        else:
            weights = [max(p, 0.0) ** self.alpha for p in standing]
        total = sum(weights)
        return weights[me] / total if total > 0 else 0.0

    def _knock_value(self, view: PlayerView, dists: list[npt.NDArray[Any]], k: int) -> tuple[float, float, str]:
        """(expected own lives lost, expected change in P(win), a phrase) of knocking now with
        a hand worth ``k / 2``, opponents' final values distributed as ``dists`` (assumed
        independent)."""
        rules = view.rules
        me = view.player
        seats = view.opponents
        points = rules.score_keeping == "points"
        base_standing = self._standing(view)
        base = self._p_win(base_standing, me, points)

        def du(changes: dict[int, int]) -> float:
            st = list(base_standing)
            for seat, x in changes.items():
                st[seat] = st[seat] + x if points else max(0.0, st[seat] - x)
            return self._p_win(st, me, points) - base

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
            for i, (w, _) in enumerate(self._blitzers(p31, some31)):
                gain += w * du({me: 1, **{s: 1 for j, s in enumerate(seats) if j != i}})
            own = fail + some31
            return own, gain, f"about {stand:.0%} that the knock stands (everyone else a letter, V14)"
        if points:
            win = all_below
            gain = win * du({me: 1})
            total_high = sum(high)
            rest = max(0.0, no31 - win)
            for i, s in enumerate(seats):
                if total_high > 0:
                    gain += rest * high[i] / total_high * du({s: 1})
            for i, (w, _) in enumerate(self._blitzers(p31, some31)):
                gain += w * du({seats[i]: 1})
            return 1.0 - win, gain, f"about {win:.0%} to score the point (V16)"
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
        for i, (w, _) in enumerate(self._blitzers(p31, some31)):
            gain += w * du({me: lose31, **{s: 1 for j, s in enumerate(seats) if j != i}})
        own = some31 * lose31 + all_above * kll + tie * tie_loss
        return own, gain, (f"about {all_above:.0%} to be lowest, {tie:.0%} to tie lowest and {some31:.0%} "
                           f"that someone makes 31")

    @staticmethod
    def _blitzers(p31: list[float], some31: float) -> list[tuple[float, int]]:
        total = sum(p31)
        return [(some31 * p / total if total > 0 else 0.0, i) for i, p in enumerate(p31)]

    def _value_playing_on(self, view: PlayerView, model: _Model, row: int, unseen: tuple[int, ...]) -> float:
        """The expected change in P(win) of not knocking now: a later showdown it did not call
        (see :meth:`_risk_playing_on`) costs it a life (a letter) with that probability, and
        otherwise costs one opponent, each alike (under V16: someone else scores)."""
        mine, others, points = self._showdown_changes(view)
        own = self._risk_playing_on(view, model, row, unseen)
        if points:
            return (1.0 - own) * mine + own * others
        return own * mine + (1.0 - own) * others

    def playing_on_line(self, view: PlayerView) -> tuple[float, float]:
        """``(base, slope)``: playing on changes its chance of winning the game by about
        ``base + slope * risk``, ``risk`` the chance that the later showdown costs it (see
        :meth:`_value_playing_on`)."""
        mine, others, points = self._showdown_changes(view)
        if points:
            return mine, others - mine
        return others, mine - others

    def _showdown_changes(self, view: PlayerView) -> tuple[float, float, bool]:
        """The change in its P(win) when a showdown costs it a life (under V16: it scores),
        the mean change when it costs an opponent (someone else scores), and whether the
        game is played for points (V16)."""
        me = view.player
        seats = view.opponents
        points = view.rules.score_keeping == "points"
        base_standing = self._standing(view)
        base = self._p_win(base_standing, me, points)

        def du(seat: int) -> float:
            st = list(base_standing)
            st[seat] = st[seat] + 1 if points else max(0.0, st[seat] - 1)
            return self._p_win(st, me, points) - base

        others = sum(du(s) for s in seats) / len(seats) if seats else 0.0
        return du(me), others, points
