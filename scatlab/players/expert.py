"""The ``expert`` player: it plays from the analysis.

What it uses, all from its own :class:`PlayerView`:

- **card tracking** (:meth:`Knowledge.from_view`): the unseen cards, the dead cards, what
  each opponent took from the pile;
- **the horizon tables** (:mod:`scatlab.analysis.horizon`): a hand is worth its exact
  expected value after ``horizon`` (5) more turns, so it collects towards hands with a
  future, not just the highest total now;
- **exact draw odds**: drawing is worth the average, over every unseen card, of the best
  hand it can keep; taking is worth the best hand it makes; the larger wins;
- **knocking to win the game** (the valuation is
  :class:`~scatlab.analysis.valuation.KnockValuation`, its ``valuation``, kept in the
  analysis layer so that the opponent model can picture a strong opponent knocking by it):
  each opponent's hand is weighted by the adaptive opponent model
  (:mod:`scatlab.analysis.opponents`: dealt hands improved by the turns each has played,
  less likely where a card they threw or passed over would have helped; its strong kind
  knocking with the expert's measured chances, ``Observations.from_view(view,
  knock_rules=False)``, which is cheaper than the rule the knock risk in play uses), plus the
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
every preset but eenendertigen, where they made no difference (the strength table in the
players guide, docs/guide/players.md, is measured on another seed).

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

from ..checks import real_number, whole_number
from ..analysis.hand_filter import LAST_THROW, expert_throw, throw_choice
from ..analysis.horizon import horizon_table
from ..analysis.knowledge import Knowledge
from ..analysis.opponents import Observations, final_value_distribution
from ..analysis.tables import BLITZ2, RANK_BITS, Tables, scoring_rules, tables_for
from ..analysis.valuation import KnockValuation, TurnOdds, turn_odds
from ..cards import Card, Rank
from ..rules.actions import Action, ActionKind
from ..rules.options import RuleSet
from ..rules.state import Phase
from ..rules.view import PlayerView
from .base import Decision, Player, PlayerError, settled_choice
from .public import PublicMove, suits_text
from .tip import collected_suits

__all__ = ["ExpertPlayer"]

_RANK_PLURALS = {Rank.ACE: "aces", Rank.KING: "kings", Rank.QUEEN: "queens", Rank.JACK: "jacks"}

@dataclass(frozen=True)
class _Model:
    """Per scoring configuration and horizon: the continuation values and the simple turn
    model (:class:`~scatlab.analysis.valuation.TurnOdds`)."""

    tables: Tables
    future: list[int]  # E_horizon per row, scaled to integers
    odds: TurnOdds


@lru_cache(maxsize=8)
def _model(scoring: RuleSet, horizon: int) -> _Model:
    tables = tables_for(scoring)
    return _Model(tables, [int(x) for x in horizon_table(tables, horizon)], turn_odds(scoring))


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
        self.horizon = horizon
        self.feed_margin = feed_margin
        self.valuation = KnockValuation(knock_risk, alpha, margin)
        """How it values a knock (:class:`~scatlab.analysis.valuation.KnockValuation`, with
        its ``knock_risk``, ``alpha`` and ``margin``)."""

    @property
    def knock_risk(self) -> float:
        """Its valuation's ``knock_risk``."""
        return self.valuation.knock_risk

    @property
    def alpha(self) -> float:
        """Its valuation's ``alpha``."""
        return self.valuation.alpha

    @property
    def margin(self) -> float:
        """Its valuation's ``margin`` (against two opponents)."""
        return self.valuation.margin

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
        final = view.knocker is not None
        drawn = view.taken if view.taken is not None else hand[-1]
        held = tuple(c for c in hand if c is not drawn)
        nxt = view.opponents[0] if view.opponents else None
        avoid = frozenset(collected_suits(view, nxt)) if nxt is not None and not final else frozenset()
        way = LAST_THROW if final else expert_throw(self.horizon, self.feed_margin)
        throw = throw_choice(view.rules, way, (held[0], held[1], held[2]), drawn, taken=view.taken is not None,
                             avoid=avoid)

        def kept(out: Card) -> tuple[list[Card], int, int]:  # the three kept, their strength now and their worth
            cards = [c for c in hand if c is not out]
            idx = sorted(c.index for c in cards)
            strength = tables.strength_of(idx)
            return cards, strength, strength if final else model.future[tables.row(idx)]

        best_cards, best_strength, _ = kept(throw.first)
        if best_strength >> RANK_BITS >= BLITZ2:
            return Decision(Action.discard(throw.first), f"throws the {throw.first}: the other three make 31")
        if ActionKind.STOP_BUS in kinds:
            knowledge = Knowledge.from_view(view)
            why = self._should_knock(view, knowledge, model, best_strength,
                                     tables.row(sorted(c.index for c in best_cards)), extra_turn=False,
                                     hand=tuple(best_cards))
            if why is not None:
                return Decision(Action.STOP_BUS, f"stops the bus, keeping {Fraction(best_strength >> RANK_BITS, 2)}: "
                                f"{why} (V19)")
        card = throw.card
        note = f" (not the {throw.first}: player {nxt} collects {throw.first.suit.letter})" if card is not throw.first else ""
        cards, strength, worth = kept(card)
        what = f"worth {Fraction(strength >> RANK_BITS, 2)} now" if final else (
            f"worth {worth / self._scale(model):.2f} on average {self.horizon} turns ahead")
        return Decision(Action.discard(card), f"throws the {card}, keeping "
                        f"{' '.join(str(c) for c in cards)}, {what}{note}")

    # -- what an observer is told ------------------------------------------------------

    def inference(self, move: PublicMove) -> str | None:
        """What the expert's way of playing (the module doc) lets an observer infer from
        ``move``: it weighs every choice by its count of the unseen cards."""
        kind, top = move.kind, move.top
        ahead = "for the showdown" if move.last_turn else f"{self.horizon} turns ahead"
        if kind is ActionKind.TAKE and top is not None:
            if move.stock_gone:
                return "with the stock gone it takes the discard only when that raises its hand"
            why = (f"by its count of the unseen cards the {top} is worth more to its hand than a draw ({ahead}), "
                   f"so it probably collects {top.suit.letter}")
            if move.rules.three_of_a_kind is not None:
                why += f" (or {_RANK_PLURALS.get(top.rank, top.rank.symbol + 's')}, three of a kind counting)"
            return why
        if kind is ActionKind.DRAW and top is not None:
            return f"by its count of the unseen cards a draw is worth more to its hand than the {top} ({ahead})"
        if kind is ActionKind.DISCARD:
            why = f"it keeps the three cards worth most to it {ahead}"
            card, nxt, feeds = move.action.card, move.next_player, move.next_collects
            if card is not None and nxt is not None and feeds and card.suit not in feeds and not move.last_turn:
                why += f", and it avoids feeding player {nxt}, known to collect {suits_text(feeds)}, when that costs little"
            return why
        if kind in (ActionKind.KNOCK, ActionKind.HAMMER):
            verb = "knocks" if kind is ActionKind.KNOCK else "calls a hammer"
            return (f"the expert {verb} only when its count says that raises its chance of winning the game, "
                    "so its hand is probably strong or the others' look weak")
        if kind is ActionKind.STOP_BUS:
            return ("the expert stops the bus only when its count says that ending the hand now raises its chance "
                    "of winning the game")
        if kind is ActionKind.PASS and move.phase is Phase.TURN and top is not None:
            return f"it takes the discard then only when that raises its hand, so the {top} would not"
        return None

    # -- knocking: the valuation lives in the analysis (scatlab.analysis.valuation) -------

    def _should_knock(self, view: PlayerView, knowledge: Knowledge, model: _Model, strength: int, row: int,
                      extra_turn: bool, hand: tuple[Card, ...] | None = None) -> str | None:
        """The reason to knock now, or None (see the module doc: the knock's expected change
        in the chance of winning the game, against playing on)."""
        valuation = self.valuation
        if valuation.hopeless(view, model.odds, strength, extra_turn):
            return None
        observations = Observations.from_view(view, knock_rules=False)
        if hand is not None:  # a bus stop: judged on the three cards kept
            knowledge = Knowledge(hand=hand, top=None, dead=knowledge.dead, opponent_holds=knowledge.opponent_holds,
                                  opponents=knowledge.opponents, rules=knowledge.rules)
        dists = [final_value_distribution(knowledge, observations, i, extra_turn) for i in range(knowledge.opponents)]
        own, gain, scenario = valuation.knock_value(view, dists, strength >> RANK_BITS)
        limit = valuation.limit(view)
        if own <= limit and gain >= 0:
            unit = {"gin": "letters", "points": "points missed"}.get(view.rules.score_keeping, "lives")
            return f"{scenario}; {own:.2f} {unit} expected, within the {limit:.2f} it accepts"
        unseen = knowledge.unseen_index
        on = valuation.value_playing_on(view, model.odds, row, unseen) if unseen else 0.0
        if gain >= on + valuation.scaled_margin(view):
            return (f"{scenario}; the knock changes its chance of winning the game by {gain * 100:+.1f} points, "
                    f"playing on by about {on * 100:+.1f}")
        return None
