"""The ``expert`` player: it plays from the analysis.

What it uses, all from its own :class:`PlayerView`:

- **card tracking** (:meth:`Knowledge.from_view`): the unseen cards, the dead cards, what
  each opponent took from the pile;
- **the horizon tables** (:mod:`scatlab.analysis.horizon`): a hand is worth its exact
  expected value after ``horizon`` (3) more turns, so it collects towards hands with a
  future, not just the highest total now;
- **exact draw odds**: drawing is worth the average, over every unseen card, of the best
  hand it can keep; taking is worth the best hand it makes; the larger wins;
- **knock risk**: opponents' hands are modelled as dealt hands improved by as many greedy
  turns as each has played (a Markov chain over all 22,100 hands, computed once), plus the
  one last turn a knock gives them. From that it estimates the expected lives a knock
  costs (strictly lowest, tied lowest and an opponent's 31, under the rule set's C7, V7,
  V8, V9, V14 or V16 rules). It weighs that against the risk of playing on (one more draw,
  then a showdown it did not call, against opponents with two more turns: being lowest,
  ties included, or someone's 31) and knocks when the knock costs at most ``weigh`` (1/2)
  times the risk of playing on, or at most ``knock_risk`` divided by the number of players
  whatever playing on costs (less when its own lives are short). So it knocks sooner
  against fresh hands, and later when it is on its last life;
- on a last turn after someone knocked it plays for the highest hand now; it never throws
  a card of a suit the next player collects when another discard is nearly as good.

>>> import random
>>> from scatlab.rules import GameState, deal_order
>>> s = GameState.new("classic", 2).deal(deal_order(["AH KH 4C", "2S 3S 9H"], up="QH"))
>>> ExpertPlayer().decide(s.view(1), random.Random(0)).action
Action(kind=<ActionKind.TAKE: 'take'>, card=None)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from ..checks import real_number, whole_number
from ..analysis.horizon import horizon_table
from ..analysis.knowledge import Knowledge
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
    thrown = tables.discard  # (m, 52): card thrown after drawing d (d itself: hand kept)
    d = np.broadcast_to(np.arange(52)[None, :], (m, 52))
    a, b, c = (np.broadcast_to(rows[:, j:j + 1], (m, 52)) for j in range(3))
    # The two hand cards kept beside d: throw a -> (b, c); throw b -> (a, c); throw c -> (a, b).
    keep_x = np.where(thrown == a, b, a)
    keep_y = np.where(thrown == c, b, c)
    nxt = np.where(thrown == d, np.arange(m)[:, None], tables.row_of[keep_x, keep_y, d])
    valid = thrown >= 0
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
    players; ``weigh``: a knock is also made when it costs at most this times the
    estimated cost of playing on; ``horizon``: how many turns ahead hands are valued;
    ``feed_margin``: how much continuation value (in points) it gives up to avoid feeding
    the next player.
    """

    name = "expert"

    def __init__(self, knock_risk: float = 0.15, horizon: int = 3, feed_margin: float = 0.5,
                 weigh: float = 0.5) -> None:
        real_number("knock_risk", knock_risk, 0, 10, error=PlayerError)
        whole_number("horizon", horizon, 0, 5, error=PlayerError)
        real_number("weigh", weigh, 0, 10, error=PlayerError)
        real_number("feed_margin", feed_margin, 0, 31, error=PlayerError)
        self.knock_risk = knock_risk
        self.horizon = horizon
        self.feed_margin = feed_margin
        self.weigh = weigh

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
                loss, detail = self._knock_loss(view, strength, extra_turn=kind is ActionKind.KNOCK)
                limit = self._limit(view)
                verb = "calls a hammer" if kind is ActionKind.HAMMER else "knocks"
                if loss <= limit:
                    return Decision(Action(kind), f"{verb} with {value}: {detail}, {loss:.2f} lives expected, "
                                    f"within the {limit:.2f} it accepts")
                if self.weigh and unseen:
                    on = self._risk_playing_on(view, model, row, unseen)
                    if loss <= self.weigh * on:
                        return Decision(Action(kind), f"{verb} with {value}: {detail}, {loss:.2f} lives expected, "
                                        f"less than the {on:.2f} that playing on is estimated to cost")
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
            loss, detail = self._knock_loss(view, best[1], extra_turn=False)
            if loss <= self._limit(view):
                return Decision(Action.STOP_BUS, f"stops the bus, keeping {Fraction(best[1] >> RANK_BITS, 2)}: "
                                f"{detail}, {loss:.2f} lives expected (V19)")
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
                if v2 >= BLITZ2:
                    memo[v2] = 0.0
                else:
                    low = no31 = 1.0
                    for turns in played:
                        t = min(turns + 2, MAX_TURNS + 1)
                        p31 = float(model.blitz[t])
                        no31 *= 1.0 - p31
                        low *= max(float(model.gt[t, v2]) + float(model.eq[t, v2]) - p31, 0.0)
                    memo[v2] = (1.0 - no31) + no31 * low
            total += memo[v2]
        return total / len(unseen)

    def _opponent_turns(self, view: PlayerView) -> list[int]:
        """How many turns each opponent has completed in this hand (their discards)."""
        turns = {p: 0 for p in view.opponents}
        for e in view.history:
            if e.player in turns and e.action.kind is ActionKind.DISCARD:
                turns[e.player] += 1
        return list(turns.values())

    def _knock_loss(self, view: PlayerView, strength: int, extra_turn: bool) -> tuple[float, str]:
        """Estimated expected lives lost by knocking (or showing down) now, and a phrase."""
        model = _model_for(view.rules, self.horizon)
        rules = view.rules
        v2 = strength >> RANK_BITS
        all_above = all_at_least = no31 = 1.0
        all_at_most = 1.0
        for played in self._opponent_turns(view):
            t = min(played + (1 if extra_turn else 0), MAX_TURNS + 1)
            p_gt = float(model.gt[t, v2])
            p_eq = float(model.eq[t, v2])
            p31 = float(model.blitz[t])
            no31 *= 1.0 - p31
            all_above *= max(p_gt - p31, 0.0)
            all_at_least *= max(p_gt - p31, 0.0) + p_eq
            all_at_most *= 1.0 - p_gt
        some31 = 1.0 - no31
        if rules.score_keeping == "gin":
            loss = 1.0 - all_at_most * no31
            return loss, f"P(beaten) about {loss:.0%}"
        if rules.score_keeping == "points":
            loss = 1.0 - all_at_most
            return loss, f"P(not scoring) about {loss:.0%}"
        lose31 = 2 if rules.thirty_one_after_knock == "knocker_two" else 1
        tie = all_at_least - all_above
        tie_loss = {"classic": 0, "knocker_two": 2, "knocker_only": 1, "cadillac": 2}[rules.knocker_tie]
        loss = some31 * lose31 + all_above * rules.knocker_lowest_loses + tie * tie_loss
        return loss, (f"about {all_above:.0%} to be lowest, {tie:.0%} to tie lowest and {some31:.0%} "
                      f"that someone makes 31")
