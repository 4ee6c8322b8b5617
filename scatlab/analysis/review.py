"""Game review: walk a game record and price every decision of the reviewed seat(s).

For each action a reviewed player took with a real choice (more than one legal action),
:func:`review` rebuilds the position **as that player saw it** (their
:class:`~scatlab.rules.view.PlayerView` and the card tracking of
:meth:`Knowledge.from_view <scatlab.analysis.knowledge.Knowledge.from_view>`), works out
the move the analysis prefers, and the **cost** of the move played: how much worse it is
than the preferred one, never negative. :func:`assess` does this for one position and
receives nothing but the view, so no hidden card (another hand, the stock order) can
enter a cost.

**Two scales, kept apart.** They measure different things and are never added together:

- ``value`` (unit ``"hand value"``, points of C4): draw, take, pass (C11), which card to
  discard, declaring a 31 (C10). A choice is worth the exact expected value of the hand it
  leaves, :data:`HORIZON` (5) own turns ahead (the horizon tables of
  :mod:`scatlab.analysis.horizon`, the horizon the expert player uses); drawing is worth
  the average over every card the player has not seen of the best hand it can keep;
  taking, the best hand the discard makes. On a last turn (someone knocked or the player
  stopped the bus, V19) and with the stock gone (C11) only the hand now counts (horizon
  0). A 31 not declared at once counts 30 (C10): not declaring costs 1.
- ``lives`` (unit ``"lives"``; ``"letters"`` under V14 GIN; ``"points"`` under V16, where it
  is the chance of not scoring the point): knocking (C6), a hammer (V10) and stopping the
  bus (V19), each against playing on. A decision is on this scale when the player knocked
  (hammered, stopped the bus) or when the analysis prefers to; otherwise the knock was
  rightly left alone and the rest of the choice is priced on the value scale.

**The opponent model of the lives scale** (the turn model of the expert player's quick
knock screen, computed exactly; the expert's knock itself uses the adaptive model of
:mod:`scatlab.analysis.opponents` and values everyone's standing, not only its own lives). An
opponent's hand is a dealt hand improved by as many turns as that opponent has completed in
this hand, each turn drawing a uniformly random card of the other ``deck - 3`` and keeping
the best three (a 31 stays); hands after more than :data:`TURN_CAP` (8) turns are taken as
after 8. Opponents are independent. Knocking with value ``v`` gives each opponent one more
turn (a hammer or a stopped bus none), then a showdown under the rule set's C7, V7, V8, V9,
V14 or V16 rule: the knocker loses for being strictly lowest, for tying lowest (V7) or to an
opponent's 31. Playing on is one more draw (keeping the best three), then a showdown the
player did not call against opponents with two more turns, lost by being lowest (ties
included) or to a 31. Cards known to be in an opponent's hand, the discard pile and V17's
rank tie-break are not used by this model. All figures are exact fractions.

**Classes** (thresholds on the cost, in the decision's own unit):

=============  =====================  ======================
class          value scale (points)   lives scale (lives)
=============  =====================  ======================
``best``       below 1/4              below 1/20
``inaccuracy`` 1/4 up to 1            1/20 up to 1/5
``mistake``    1 up to 3              1/5 up to 1/2
``blunder``    3 or more              1/2 or more
=============  =====================  ======================

Not reviewed: forced actions (one legal action) and the blind throw-down choice (V11),
which is made before looking at the cards.

Hands and action indexes are counted from 1 (the first action of a hand is action 1).

>>> from scatlab.rules import GameRecord, deal_order
>>> deck = deal_order(["2S 3S 9D", "AH KH 4C", "5D 6D 8C"], up="QH", stock="9C 9H 2D")
>>> record = GameRecord.from_json({"rules": "classic", "players": 3, "dealer": 0, "hands": [
...     {"deck": [str(c) for c in deck],
...      "actions": [{"player": 1, "action": "take"}, {"player": 1, "action": "discard", "card": "AH"}]}]},)
>>> d = review(record, player=1).decisions[-1]
>>> d.played, d.best, d.cost > 3, d.label
('discard AH', 'discard 4C', True, 'blunder')
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Literal

import numpy as np

from ..cards import Card, format_cards
from ..errors import AnalysisError
from ..rules.actions import Action, ActionKind
from ..rules.options import RuleSet
from ..rules.record import GameRecord, replay
from ..rules.state import GameState, Phase
from ..rules.values import format_value
from ..rules.view import PlayerView
from .horizon import horizon_table
from .knowledge import Knowledge
from .tables import BLITZ2, RANK_BITS, Tables, scoring_rules, tables_for
from .valuation import opponent_turns

__all__ = [
    "HORIZON",
    "TURN_CAP",
    "VALUE_THRESHOLDS",
    "LIVES_THRESHOLDS",
    "CLASSES",
    "Assessment",
    "ReviewedDecision",
    "PlayerSummary",
    "GameReview",
    "assess",
    "classify",
    "costliest",
    "knock_loss",
    "lives_unit",
    "play_on_loss",
    "review",
]

HORIZON = 5
"""Turns ahead a hand is valued on the value scale: the expert player's horizon."""
TURN_CAP = 8
"""Opponent hands after more turns than this are modelled as after this many."""
VALUE_THRESHOLDS = (Fraction(1, 4), Fraction(1), Fraction(3))
"""Costs (hand value) from which a decision is an inaccuracy, a mistake, a blunder."""
LIVES_THRESHOLDS = (Fraction(1, 20), Fraction(1, 5), Fraction(1, 2))
"""Costs (expected lives) from which a decision is an inaccuracy, a mistake, a blunder."""
CLASSES = ("best", "inaccuracy", "mistake", "blunder")

Scale = Literal["value", "lives"]

_ONE = Fraction(1)
_ZERO = Fraction(0)


def classify(cost: Fraction, scale: Scale) -> str:
    """The class of a cost on a scale (see the module doc for the thresholds).

    >>> classify(Fraction(1, 5), "value"), classify(Fraction(1, 5), "lives")
    ('best', 'mistake')
    """
    if scale not in ("value", "lives"):
        raise AnalysisError(f"scale {scale!r} is not allowed: use 'value' or 'lives'")
    thresholds = VALUE_THRESHOLDS if scale == "value" else LIVES_THRESHOLDS
    label = CLASSES[0]
    for name, limit in zip(CLASSES[1:], thresholds):
        if cost >= limit:
            label = name
    return label


def lives_unit(rules: RuleSet) -> str:
    """The unit of the lives scale under ``rules``: lives, letters (V14) or points (V16)."""
    return {"gin": "letters", "points": "points"}.get(rules.score_keeping, "lives")


# -- the exact opponent model ---------------------------------------------------------------


@dataclass(frozen=True)
class _Model:
    tables: Tables
    future: list[int]  # E_HORIZON per row, scaled by 2 * others**HORIZON
    scale: int
    gt: list[list[int]]  # gt[t][v2]: paths whose value2 after t turns is > v2
    eq: list[list[int]]  # eq[t][v2]: paths whose value2 is == v2
    blitz: list[int]  # paths at 31 or more after t turns
    total: list[int]  # all paths after t turns: m * others**t


@lru_cache(maxsize=8)
def _model(scoring: RuleSet) -> _Model:
    tables = tables_for(scoring)
    future = [int(x) for x in horizon_table(tables, HORIZON)]
    others = tables.deck_size - 3
    rows = tables.rows
    m = len(rows)
    nxt, valid = tables.draw_moves()
    blitz_rows = tables.value2 >= BLITZ2
    nxt = np.where(blitz_rows[:, None], np.arange(m)[:, None], nxt)
    flat_next = nxt[valid]
    owner = np.broadcast_to(np.arange(m)[:, None], (m, 52))[valid]
    value2 = tables.value2
    p = np.ones(m, dtype=np.int64)  # int64 holds m * 49**8 (< 2**63)
    gt: list[list[int]] = []
    eq: list[list[int]] = []
    blitz: list[int] = []
    total: list[int] = []
    for _ in range(TURN_CAP + 1):
        counts = np.zeros(max(int(value2.max()) + 1, BLITZ2 + 1), dtype=np.int64)
        np.add.at(counts, value2, p)
        by_value = [int(x) for x in counts]
        above: list[int] = []
        running = 0
        for v in reversed(range(len(by_value))):
            above.append(running)
            running += by_value[v]
        above.reverse()
        gt.append(above)
        eq.append(by_value)
        blitz.append(sum(by_value[BLITZ2:]))
        total.append(running)
        nxt_p = np.zeros(m, dtype=np.int64)
        np.add.at(nxt_p, flat_next, p[owner])
        p = nxt_p
    return _Model(tables, future, 2 * others**HORIZON, gt, eq, blitz, total)


def _model_for(rules: RuleSet) -> _Model:
    return _model(scoring_rules(rules))


def _probs(model: _Model, t: int, v2: int) -> tuple[Fraction, Fraction, Fraction]:
    """P(an opponent after t turns is above v2/2), P(equal), P(31 or more)."""
    t = min(t, TURN_CAP)
    n = model.total[t]
    eq = model.eq[t][v2] if v2 < len(model.eq[t]) else 0
    gt = model.gt[t][v2] if v2 < len(model.gt[t]) else 0
    return Fraction(gt, n), Fraction(eq, n), Fraction(model.blitz[t], n)


def knock_loss(view: PlayerView, value2: int, extra_turn: bool) -> Fraction:
    """Expected lives (letters, points) lost by showing down now with a hand worth
    ``value2 / 2`` (see the module doc's opponent model); ``extra_turn``: each opponent has
    one more turn first (a knock), or none (a hammer, a stopped bus)."""
    model = _model_for(view.rules)
    rules = view.rules
    all_above = all_at_least = no31 = all_at_most = _ONE
    for played in opponent_turns(view):
        p_gt, p_eq, p31 = _probs(model, played + (1 if extra_turn else 0), value2)
        no31 *= _ONE - p31
        above = max(p_gt - p31, _ZERO)
        all_above *= above
        all_at_least *= above + p_eq
        all_at_most *= _ONE - p_gt
    some31 = _ONE - no31
    if rules.score_keeping == "gin":
        return _ONE - all_at_most * no31
    if rules.score_keeping == "points":
        return _ONE - all_at_most
    lose31 = 2 if rules.thirty_one_after_knock == "knocker_two" else 1
    tie = all_at_least - all_above
    tie_loss = {"classic": 0, "knocker_two": 2, "knocker_only": 1, "cadillac": 2}[rules.knocker_tie]
    return some31 * lose31 + all_above * rules.knocker_lowest_loses + tie * tie_loss


def play_on_loss(view: PlayerView, row: int, unseen: Sequence[int], take: Card | None = None) -> Fraction:
    """Expected lives lost by playing on from hand ``row``: one more draw (keeping the best
    three), then a showdown against opponents with two more turns, lost by being lowest
    (ties included) or to an opponent's 31. With ``take`` (the top discard, when it may be
    taken) playing on is the better of that draw and taking the card."""
    model = _model_for(view.rules)
    after = model.tables.after_draw_row(row)
    played = opponent_turns(view)
    memo: dict[int, Fraction] = {}

    def showdown(v2: int) -> Fraction:
        if v2 not in memo:
            if v2 >= BLITZ2:
                memo[v2] = _ZERO
            else:
                low = no31 = _ONE
                for turns in played:
                    p_gt, p_eq, p31 = _probs(model, turns + 2, v2)
                    no31 *= _ONE - p31
                    low *= max(p_gt + p_eq - p31, _ZERO)
                memo[v2] = (_ONE - no31) + no31 * low
        return memo[v2]

    options = []
    if unseen:
        options.append(sum((showdown(after[card] >> RANK_BITS) for card in unseen), _ZERO) / len(unseen))
    if take is not None:
        options.append(showdown(after[take.index] >> RANK_BITS))
    return min(options) if options else showdown(model.tables.value2_of_cards(model.tables.rows[row].tolist()))


# -- one position -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Assessment:
    """The analysis of one decision: the preferred move, the cost of the played one (in
    ``unit``, never negative), the class, and each option's figure (``figures``: expected
    hand value on the value scale, higher is better; expected loss on the lives scale,
    lower is better)."""

    played: Action
    best: Action
    cost: Fraction
    scale: Scale
    unit: str
    label: str
    figures: tuple[tuple[str, Fraction], ...]
    reason: str


def _show(x: Fraction) -> str:
    return format_value(x) if x.denominator <= 2 else f"{float(x):.2f}"


def assess(view: PlayerView, played: Action) -> Assessment | None:
    """Price the action ``played`` in the position ``view`` (whose player is to move).
    Returns None for a decision that is not reviewed: a forced action or the blind
    throw-down choice (V11). Only the view is used, so no hidden card enters the result.

    >>> from scatlab.rules import GameState, deal_order
    >>> s = GameState.new("classic", 2).deal(deal_order(["2S 3S 9D", "AH KH 4C"], up="QH"))
    >>> a = assess(s.view(1), Action.DRAW)          # taking the QH makes 31
    >>> str(a.best), a.scale, a.cost, a.label
    ('take', 'value', Fraction(13807872985, 3389702988), 'blunder')
    """
    if view.to_move != view.player:
        raise AnalysisError(f"player {view.player} is not to move in this view (player {view.to_move} is)")
    legal = view.legal_actions
    if played not in legal:
        raise AnalysisError(f"{str(played)!r} is not a legal action here: legal are "
                            f"{', '.join(str(a) for a in legal)}")
    if len(legal) < 2:
        return None
    kinds = {a.kind for a in legal}
    if ActionKind.THROW_DOWN in kinds:
        return None
    if ActionKind.DECLARE in kinds:
        return _assess_declare(view, played)
    if view.phase is Phase.DISCARD:
        return _assess_discard(view, played, kinds)
    return _assess_turn(view, played, kinds)


def _value_result(played: Action, options: dict[Action, Fraction], labels: dict[Action, str],
                  order: Sequence[Action], unit: str = "hand value", note: str = "") -> Assessment:
    best = max(order, key=lambda a: options[a])  # first of the best, in ``order``
    cost = options[best] - options[played]
    figures = tuple((labels[a], options[a]) for a in order)
    if played == best or cost == 0:
        best = played
        reason = f"{labels[played]}: worth {_show(options[played])}, as good as any choice{note}"
    else:
        reason = (f"{labels[played]} is worth {_show(options[played])}; {labels[best]} is worth "
                  f"{_show(options[best])}{note}")
    return Assessment(played, best, cost, "value", unit, classify(cost, "value"), figures, reason)


def _assess_declare(view: PlayerView, played: Action) -> Assessment:
    value = view.value if view.value is not None else Fraction(31)
    options = {Action.DECLARE: value, Action.PASS: Fraction(30)}
    labels = {Action.DECLARE: "declare", Action.PASS: "not declaring (C10: the 31 counts 30)"}
    return _value_result(played, options, labels, [Action.DECLARE, Action.PASS])


def _final(view: PlayerView) -> bool:
    """A last turn: someone knocked, or the player has just stopped the bus (V19)."""
    if view.knocker is not None:
        return True
    return bool(view.history) and view.history[-1].player == view.player and \
        view.history[-1].action.kind is ActionKind.STOP_BUS


def _assess_discard(view: PlayerView, played: Action, kinds: set[ActionKind]) -> Assessment:
    model = _model_for(view.rules)
    tables = model.tables
    final = _final(view)
    idx = [c.index for c in view.hand]
    options: dict[Action, Fraction] = {}
    labels: dict[Action, str] = {}
    rows: dict[Action, int] = {}
    order: list[Action] = []
    for i, out in enumerate(view.hand):
        if out is view.taken:
            continue
        rest = sorted(idx[:i] + idx[i + 1:])
        row = tables.row(rest)
        act = Action.discard(out)
        if final:
            options[act] = Fraction(tables.strength_of(rest) >> RANK_BITS, 2)
        else:
            options[act] = Fraction(model.future[row], model.scale)
        labels[act] = f"discard {out}"
        rows[act] = row
        order.append(act)
    horizon = "the hand now" if final else f"expected value {HORIZON} turns ahead"
    value_choice = _value_result(played if played.kind is ActionKind.DISCARD else max(order, key=lambda a: options[a]),
                                 options, labels, order, note=f" ({horizon})")
    if ActionKind.STOP_BUS not in kinds:
        return value_choice
    # V19: stopping the bus keeps the best hand and shows down with no more turns.
    best_discard = max(order, key=lambda a: options[a])
    row = rows[best_discard]
    value2 = tables.value2[row]
    stop = knock_loss(view, int(value2), extra_turn=False)
    unseen = Knowledge.from_view(view).unseen_index
    on = play_on_loss(view, row, unseen)
    if played.kind is not ActionKind.STOP_BUS and on <= stop:
        return value_choice
    unit = lives_unit(view.rules)
    figures = (("stop the bus", stop), ("play on", on))
    if played.kind is ActionKind.STOP_BUS:
        cost = max(stop - on, _ZERO)
        best = played if cost == 0 else value_choice.best
        reason = (f"stopping the bus costs {_show(stop)} {unit} expected; playing on "
                  f"{_show(on)} (V19)")
    else:
        cost = on - stop
        best = Action.STOP_BUS
        reason = (f"playing on costs {_show(on)} {unit} expected; stopping the bus with "
                  f"{format_value(Fraction(int(value2), 2))} only {_show(stop)} (V19)")
    return Assessment(played, best, cost, "lives", unit, classify(cost, "lives"), figures, reason)


def _assess_turn(view: PlayerView, played: Action, kinds: set[ActionKind]) -> Assessment:
    model = _model_for(view.rules)
    tables = model.tables
    knowledge = Knowledge.from_view(view)
    unseen = knowledge.unseen_index
    hand = view.hand
    idx = sorted(c.index for c in hand)
    row = tables.row(idx)
    final = view.knocker is not None or ActionKind.DRAW not in kinds
    if final:
        scores: Sequence[int] = _value2_list(tables)
        scale = 2
    else:
        scores, scale = model.future, model.scale
    rl = tables.row_list
    options: dict[Action, Fraction] = {}
    labels: dict[Action, str] = {}
    order: list[Action] = []
    top = view.top_discard
    if ActionKind.DRAW in kinds and unseen:
        a, b, c = idx
        ab, ac, bc = a * 2704 + b * 52, a * 2704 + c * 52, b * 2704 + c * 52
        keep = scores[row]
        total = 0
        for d in unseen:
            top_score = keep
            for base in (ab, ac, bc):
                s = scores[rl[base + d]]
                if s > top_score:
                    top_score = s
            total += top_score
        options[Action.DRAW] = Fraction(total, len(unseen) * scale)
        labels[Action.DRAW] = f"draw (average over {len(unseen)} unseen cards)"
        order.append(Action.DRAW)
    if ActionKind.TAKE in kinds and top is not None:
        best_take, thrown = -1, hand[0]
        for i, out in enumerate(hand):
            rest = [c.index for c in hand if c is not out]
            s = scores[tables.row(sorted(rest + [top.index]))]
            if s > best_take:
                best_take, thrown = s, out
        options[Action.TAKE] = Fraction(best_take, scale)
        labels[Action.TAKE] = f"take {top} (then discard {thrown})"
        order.append(Action.TAKE)
    if ActionKind.PASS in kinds:
        options[Action.PASS] = Fraction(scores[row], scale)
        labels[Action.PASS] = "pass (C11: the hand ends)"
        order.append(Action.PASS)
    horizon = "the hand now" if final else f"expected value {HORIZON} turns ahead"
    knock_kinds = [k for k in (ActionKind.KNOCK, ActionKind.HAMMER) if k in kinds]
    if not order:  # nothing but knocking: no real choice on the value scale
        options[played] = _ZERO
        labels[played] = str(played)
        order.append(played)
    value_played = played if played in options else max(order, key=lambda a: options[a])
    value_choice = _value_result(value_played, options, labels, order, note=f" ({horizon})")
    if not knock_kinds:
        return value_choice
    value2 = tables.value2_of_cards(idx)
    losses = {Action(k): knock_loss(view, value2, extra_turn=k is ActionKind.KNOCK) for k in knock_kinds}
    on = play_on_loss(view, row, unseen, top if ActionKind.TAKE in kinds else None)
    best_knock = min(losses, key=lambda a: losses[a])
    if played.kind not in knock_kinds and on <= losses[best_knock]:
        return value_choice
    unit = lives_unit(view.rules)
    names = {Action.KNOCK: "knocking", Action.HAMMER: "a hammer (V10)"}
    figures = tuple((names[a], losses[a]) for a in losses) + (("playing on", on),)
    least = min(on, losses[best_knock])
    best = best_knock if losses[best_knock] < on else value_choice.best
    if played.kind in knock_kinds:
        cost = losses[played] - least
        reason = (f"{names[played]} with {format_value(Fraction(value2, 2))} costs {_show(losses[played])} "
                  f"{unit} expected; playing on {_show(on)}")
    else:
        cost = on - least
        reason = (f"playing on costs {_show(on)} {unit} expected; {names[best_knock]} with "
                  f"{format_value(Fraction(value2, 2))} only {_show(losses[best_knock])}")
    if cost == 0:
        best = played
    return Assessment(played, best, cost, "lives", unit, classify(cost, "lives"), figures, reason)


def _value2_list(tables: Tables) -> list[int]:
    cached: list[int] | None = getattr(tables, "_review_value2", None)
    if cached is None:
        cached = [int(x) for x in tables.value2]
        tables._review_value2 = cached  # type: ignore[attr-defined]
    return cached


# -- a whole record -------------------------------------------------------------------------


@dataclass(frozen=True)
class ReviewedDecision:
    """One reviewed decision: where it was (``hand`` and ``index`` from 1, as in the
    record), whose, the position as the player saw it (``view``, ``knowledge``), and its
    :class:`Assessment`."""

    hand: int
    index: int
    player: int
    view: PlayerView
    assessment: Assessment

    @property
    def knowledge(self) -> Knowledge | None:
        """The player's card tracking at the decision (None without a hand to analyse).
        Computed from the view on demand: its ``unseen`` cards are every card the player
        has not seen, which a stored copy would hold beside the view."""
        if len(self.view.hand) not in (3, 4):
            return None
        return Knowledge.from_view(self.view)

    @property
    def played(self) -> str:
        return str(self.assessment.played)

    @property
    def best(self) -> str:
        return str(self.assessment.best)

    @property
    def cost(self) -> Fraction:
        return self.assessment.cost

    @property
    def unit(self) -> str:
        return self.assessment.unit

    @property
    def scale(self) -> Scale:
        return self.assessment.scale

    @property
    def label(self) -> str:
        return self.assessment.label

    def position(self) -> str:
        """The position in words: hand, discard, what the player tracked."""
        knowledge = self.knowledge
        if knowledge is None:
            return f"hand {format_cards(self.view.hand)}"
        return knowledge.describe()

    def to_json(self) -> dict[str, Any]:
        a = self.assessment
        return {
            "hand": self.hand,
            "index": self.index,
            "player": self.player,
            "played": str(a.played),
            "best": str(a.best),
            "cost": str(a.cost),
            "unit": a.unit,
            "scale": a.scale,
            "class": a.label,
            "position": self.position(),
            "figures": {name: str(x) for name, x in a.figures},
            "reason": a.reason,
        }


@dataclass(frozen=True)
class PlayerSummary:
    """One player's decisions: how many, the total cost on each scale (never added
    together) and how many fell in each class."""

    player: int
    decisions: int
    total_value: Fraction
    total_lives: Fraction
    value_decisions: int
    lives_decisions: int
    classes: tuple[tuple[str, int], ...]

    def to_json(self, lives_name: str) -> dict[str, Any]:
        return {
            "player": self.player,
            "decisions": self.decisions,
            "total_cost": {"hand value": str(self.total_value), lives_name: str(self.total_lives)},
            "value_decisions": self.value_decisions,
            "lives_decisions": self.lives_decisions,
            "classes": dict(self.classes),
        }


@dataclass(frozen=True)
class GameReview:
    """The review of one game record: every reviewed decision in order."""

    rules: RuleSet
    players: int
    seats: tuple[int, ...]
    decisions: tuple[ReviewedDecision, ...]

    def summary(self, player: int) -> PlayerSummary:
        """The sums for one reviewed seat."""
        if player not in self.seats:
            raise AnalysisError(f"player {player!r} was not reviewed: reviewed seats are "
                                f"{', '.join(str(s) for s in self.seats)}")
        mine = [d for d in self.decisions if d.player == player]
        value = [d.cost for d in mine if d.scale == "value"]
        lives = [d.cost for d in mine if d.scale == "lives"]
        return PlayerSummary(
            player, len(mine), sum(value, _ZERO), sum(lives, _ZERO), len(value), len(lives),
            tuple((name, sum(1 for d in mine if d.label == name)) for name in CLASSES),
        )

    def costly(self) -> tuple[ReviewedDecision, ...]:
        """The decisions that are not ``best``."""
        return tuple(d for d in self.decisions if d.label != "best")

    def to_json(self) -> dict[str, Any]:
        unit = lives_unit(self.rules)
        return {
            "rules": self.rules.name,
            "players_in_game": self.players,
            "units": {"value": "hand value", "lives": unit},
            "thresholds": {
                "value": [str(x) for x in VALUE_THRESHOLDS],
                "lives": [str(x) for x in LIVES_THRESHOLDS],
            },
            "decisions": [d.to_json() for d in self.decisions],
            "players": [self.summary(p).to_json(unit) for p in self.seats],
        }

    def text(self) -> str:
        """A readable report: each hand's costly decisions with their numbers and reason,
        then each player's totals."""
        unit = lives_unit(self.rules)
        lines = [f"Review of a {self.players}-player game ({self.rules.describe()}); "
                 f"seats reviewed: {', '.join(str(s) for s in self.seats)}.",
                 f"Costs: hand value for draw/take/discard ({HORIZON} turns ahead), expected {unit} "
                 "for knocks; the two are never added."]
        hand = 0
        for d in self.costly():
            if d.hand != hand:
                hand = d.hand
                lines.append(f"Hand {hand}:")
            lines.append(f"  action {d.index}, player {d.player} ({d.position()}): played {d.played}, "
                         f"best {d.best}; cost {_show(d.cost)} {d.unit} [{d.label}]")
            lines.append(f"    {d.assessment.reason}")
        if not self.costly():
            lines.append("No costly decision: every decision was best.")
        for p in self.seats:
            s = self.summary(p)
            counts = ", ".join(f"{n} {name}" for name, n in s.classes if n)
            lines.append(f"Player {p}: {s.decisions} decisions; cost {_show(s.total_value)} hand value over "
                         f"{s.value_decisions}, {_show(s.total_lives)} {unit} over {s.lives_decisions}"
                         + (f"; {counts}" if counts else ""))
        return "\n".join(lines)

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)


def review(record: GameRecord | Mapping[str, Any], player: int | None = None) -> GameReview:
    """Review every decision of ``player`` (every seat when None) in a game record.

    The record is first replayed as :func:`scatlab.rules.replay` does, so a bad record fails
    with the same :class:`~scatlab.errors.RecordError`.
    """
    if not isinstance(record, GameRecord):
        record = GameRecord.from_json(record)
    replay(record)
    n = record.players
    if player is None:
        seats = tuple(range(n))
    elif isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < n:
        raise AnalysisError(f"player {player!r} is not a seat of this {n}-player game: use 0 to {n - 1}")
    else:
        seats = (player,)
    decisions: list[ReviewedDecision] = []
    state = GameState.new(record.rules, n, record.dealer)
    for h, hand in enumerate(record.hands, start=1):
        state = state.deal(hand.deck)
        for i, (p, action) in enumerate(hand.actions, start=1):
            if p in seats:
                view = state.view(p)
                assessment = assess(view, action)
                if assessment is not None:
                    decisions.append(ReviewedDecision(h, i, p, view, assessment))
            state = state.apply_for(p, action)
    return GameReview(record.rules, n, seats, tuple(decisions))


def costliest(result: GameReview, n: int = 2, player: int | None = None) -> tuple[ReviewedDecision, ...]:
    """The ``n`` costliest decisions of a review (of ``player`` only, when given), worst first:
    what a learner replays first.

    Only decisions that cost something (cost above 0) are listed, so fewer than ``n`` come
    back when the game had fewer. **How the two scales are ranked together** (they are
    never added): first by class (a blunder before a mistake before an inaccuracy before a
    ``best`` with a small cost), then, within a class, by the cost as a fraction of its own
    scale's blunder threshold (3 points of hand value, 1/2 life), so a cost of 1 life
    (two blunder thresholds) ranks before 4 points (4/3 of one); equal ranks keep the game's
    order (the earlier decision first).

    >>> from scatlab.rules import GameRecord, deal_order
    >>> deck = deal_order(["2S 3S 9D", "AH KH 4C", "5D 6D 8C"], up="QH", stock="9C 9H 2D")
    >>> record = GameRecord.from_json({"rules": "classic", "players": 3, "dealer": 0, "hands": [
    ...     {"deck": [str(c) for c in deck],
    ...      "actions": [{"player": 1, "action": "take"}, {"player": 1, "action": "discard", "card": "AH"}]}]})
    >>> [(d.played, d.label) for d in costliest(review(record, player=1))]
    [('discard AH', 'blunder')]
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise AnalysisError(f"n={n!r} is not a number of decisions: give a whole number 0 or more")
    if player is not None and player not in result.seats:
        raise AnalysisError(f"player {player!r} was not reviewed: reviewed seats are "
                            f"{', '.join(str(s) for s in result.seats)}")
    costly = [(i, d) for i, d in enumerate(result.decisions)
              if d.cost > 0 and (player is None or d.player == player)]

    def rank(item: tuple[int, ReviewedDecision]) -> tuple[int, Fraction, int]:
        i, d = item
        blunder = (VALUE_THRESHOLDS if d.scale == "value" else LIVES_THRESHOLDS)[-1]
        return (-CLASSES.index(d.label), -d.cost / blunder, i)

    return tuple(d for _, d in sorted(costly, key=rank)[:n])
