"""Game review: walk a game record and price every decision of the reviewed seat(s).

For each action a reviewed player took with a real choice (more than one legal action),
:func:`review_game` rebuilds the position **as that player saw it** (their
:class:`~scatlab.rules.view.PlayerView` and the card tracking of
:meth:`Knowledge.from_view <scatlab.analysis.counting.knowledge.Knowledge.from_view>`), works out
the move the analysis prefers, and the **cost** of the move played: how much worse it is
than the preferred one, never negative. :func:`assess` does this for one position and
receives nothing but the view, so no hidden card (another hand, the stock order) can
enter a cost.

**The best move is the advice's.** Every position is ranked by
:func:`scatlab.analysis.engine.ranking.rank`, the one ranking the advice and the table's hints
read, so the review's best move is always the move the hints advised (its module doc
states the rule and the opponent model, exactly). A cost is on the scale of the question it
answers, and the two scales are never added together:

- ``value`` (unit ``"hand value"``, points of C4): how to play on: draw, take, pass (C11),
  which card to discard, declaring a 31 (C10, not declaring costs 1). A choice is worth the
  exact expected value of the hand it leaves :data:`HORIZON` (5) own turns ahead; on a last
  turn and with the stock gone only the hand now counts.
- ``win`` (unit ``"chance of winning"``, a probability shown in points of percentage):
  whether to end the hand, a knock (C6), a hammer (V10) or a bus stop (V19), against playing
  on, priced by the engine's estimate of the change in the chance of winning the game. A
  decision is on this scale when the player ended the hand or the engine prefers to;
  otherwise the knock was rightly left alone and the rest of the choice is priced on the
  value scale.

**Classes** (thresholds on the cost, in the decision's own unit):

=============  =====================  ======================
class          value scale (points)   win scale (chance)
=============  =====================  ======================
``best``       below 1/4              below 1 point (1/100)
``inaccuracy`` 1/4 up to 1            1 up to 3 points
``mistake``    1 up to 3              3 up to 8 points
``blunder``    3 or more              8 points or more
=============  =====================  ======================

Not reviewed: forced actions (one legal action) and the blind throw-down choice (V11),
which is made before looking at the cards.

Hands and action indexes are counted from 1 (the first action of a hand is action 1).

>>> from scatlab.rules import GameRecord, deal_order
>>> deck = deal_order(["2S 3S 9D", "AH KH 4C", "5D 6D 8C"], up="QH", stock="9C 9H 2D")
>>> record = GameRecord.from_json({"rules": "classic", "players": 3, "dealer": 0, "hands": [
...     {"deck": [str(c) for c in deck],
...      "actions": [{"player": 1, "action": "take"}, {"player": 1, "action": "discard", "card": "AH"}]}]},)
>>> d = review_game(record, player=1).decisions[-1]
>>> d.played, d.best, d.cost > 3, d.label
('discard AH', 'discard 4C', True, 'blunder')
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ...cards import format_cards
from ...errors import AnalysisError
from ...rules.actions import Action, ActionKind
from ...rules.options import RuleSet
from ...rules.record import GameRecord, replay
from ...rules.state import GameState
from ...rules.values import format_value
from ...rules.view import PlayerView
from ..counting.knowledge import Knowledge
from ..engine.ranking import HORIZON, Position, RankedMove, Ranking, Scale, lives_unit, rank, win_change

__all__ = [
    "HORIZON",
    "VALUE_THRESHOLDS",
    "WIN_THRESHOLDS",
    "WIN_UNIT",
    "CLASSES",
    "Assessment",
    "ReviewedDecision",
    "PlayerSummary",
    "GameReview",
    "assess",
    "classify",
    "costliest",
    "lives_unit",
    "review_game",
]

VALUE_THRESHOLDS = (Fraction(1, 4), Fraction(1), Fraction(3))
"""Costs (hand value) from which a decision is an inaccuracy, a mistake, a blunder."""
WIN_THRESHOLDS = (Fraction(1, 100), Fraction(3, 100), Fraction(8, 100))
"""Costs (chance of winning the game) from which a decision is an inaccuracy, a mistake, a blunder."""
WIN_UNIT = "chance of winning"
"""The unit of a cost on the win scale (a probability; shown as points of percentage)."""
CLASSES = ("best", "inaccuracy", "mistake", "blunder")

_ZERO = Fraction(0)


def classify(cost: Fraction, scale: Scale) -> str:
    """The class of a cost on a scale (see the module doc for the thresholds).

    >>> classify(Fraction(1, 5), "value"), classify(Fraction(1, 20), "win")
    ('best', 'mistake')
    """
    if scale not in ("value", "win"):
        raise AnalysisError(f"scale {scale!r} is not allowed: use 'value' or 'win'")
    thresholds = VALUE_THRESHOLDS if scale == "value" else WIN_THRESHOLDS
    label = CLASSES[0]
    for name, limit in zip(CLASSES[1:], thresholds):
        if cost >= limit:
            label = name
    return label


# -- one position -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Assessment:
    """The analysis of one decision: the preferred move, the cost of the played one (in
    ``unit``, never negative), the class, and each option's figure (``figures``: expected
    hand value on the value scale; the change in the chance of winning the game on the win
    scale, with ``"playing on"`` that of the moves that go on: higher is better on both)."""

    played: Action
    best: Action
    cost: Fraction
    scale: Scale
    unit: str
    label: str
    figures: tuple[tuple[str, Fraction], ...]
    reason: str

    @property
    def cost_text(self) -> str:
        """The cost in words a learner reads: ``"2.33 hand value"`` or ``"2.1% chance of
        winning"`` (a chance given up is shown in points of percentage)."""
        return _cost(self.cost, self.scale)


def _show(x: Fraction) -> str:
    return format_value(x) if x.denominator <= 2 else f"{float(x):.2f}"


def assess(view: PlayerView, played: Action) -> Assessment | None:
    """Price the action ``played`` in the position ``view`` (whose player is to move) by
    the one ranking of :func:`scatlab.analysis.engine.ranking.rank` (the advice's). Returns None
    for a decision that is not reviewed: a forced action or the blind throw-down choice
    (V11). Only the view is used, so no hidden card enters the result.

    >>> from scatlab.rules import GameState, deal_order
    >>> s = GameState.new("classic", 2).deal(deal_order(["2S 3S 9D", "AH KH 4C"], up="QH"))
    >>> a = assess(s.view(1), Action.DRAW)          # taking the QH makes 31
    >>> str(a.best), a.scale, a.cost, a.label
    ('take', 'value', Fraction(13807872985, 3389702988), 'blunder')
    """
    if not isinstance(view, PlayerView):
        raise AnalysisError(f"assess needs a PlayerView, not {type(view).__name__}")
    if view.to_move != view.player:
        raise AnalysisError(f"player {view.player} is not to move in this view (player {view.to_move} is)")
    legal = view.legal_actions
    if played not in legal:
        raise AnalysisError(f"{str(played)!r} is not a legal action here: legal are "
                            f"{', '.join(str(a) for a in legal)}")
    if len(legal) < 2 or any(a.kind is ActionKind.THROW_DOWN for a in legal):
        return None
    return assessment(rank(Position.from_view(view)), played)


def assessment(ranking: Ranking, played: Action) -> Assessment:
    """The :class:`Assessment` of ``played`` (a legal move of the ranked position)."""
    move = ranking.move(played)
    best = ranking.best
    scale = ranking.scale_of(played)
    cost = ranking.cost(played)
    unit = WIN_UNIT if scale == "win" else "hand value"
    horizon = "the hand now" if ranking.horizon == 0 else f"expected value {ranking.ahead}"
    if scale == "value":
        figures = tuple((m.name, m.value) for m in ranking.moves if m.value is not None)
    else:
        figures = tuple((m.name, m.win) for m in ranking.moves if m.win is not None and m.ends_hand)
        if ranking.play_on_win is not None:
            figures += (("playing on", ranking.play_on_win),)
    shown_best = played if cost == 0 else best.action
    what = _words(move, ranking)
    if ActionKind.DECLARE in ranking.position.kinds:
        note = ""
    elif scale == "value":
        note = f" ({horizon})"
    else:
        note = ""
    if scale == "value":
        assert move.value is not None and best.value is not None
        if cost == 0:
            reason = f"{what}: worth {_show(move.value)}, as good as any choice{note}"
        else:
            reason = f"{what} is worth {_show(move.value)}; {_words(best, ranking)} is worth {_show(best.value)}{note}"
    else:
        assert move.win is not None and best.win is not None
        if cost == 0:
            reason = f"{what}: {_points(move.win)} to the chance of winning the game, as good as any choice"
        else:
            other = "playing on" if move.ends_hand and not best.ends_hand and not best.sure_31 else _words(best, ranking)
            reason = (f"{what} changes the chance of winning the game by {_points(move.win)}; {other} by "
                      f"{_points(best.win)}")
    return Assessment(played, shown_best, cost, scale, unit, classify(cost, scale), figures, reason)


def _cost(cost: Fraction, scale: Scale) -> str:
    """A cost in its unit: ``"2.33 hand value"`` or ``"2.1% chance of winning"``.

    >>> _cost(Fraction(21, 1000), "win"), _cost(Fraction(7, 3), "value")
    ('2.1% chance of winning', '2.33 hand value')
    """
    if scale == "win":
        return f"{float(cost) * 100:.1f}% {WIN_UNIT}"
    return f"{_show(cost)} hand value"


def _points(p: Fraction) -> str:
    """A change in a chance in points of percentage, signed (:func:`win_change`).

    >>> _points(Fraction(21, 1000)), _points(Fraction(-1, 200))
    ('+2.1%', '-0.5%')
    """
    return win_change(p)


def _words(move: RankedMove, ranking: Ranking) -> str:
    """A move in the review's words, cards with their suit symbols."""
    kind = move.action.kind
    held = format_value(ranking.position.knowledge.value) if len(ranking.position.knowledge.hand) == 3 else ""
    if kind is ActionKind.KNOCK:
        return f"knocking with {held}"
    if kind is ActionKind.HAMMER:
        return f"a hammer (V10) with {held}"
    if kind is ActionKind.STOP_BUS:
        return "stopping the bus (V19)"
    if kind is ActionKind.DECLARE:
        return "declaring"
    if kind is ActionKind.PASS:
        if ActionKind.DECLARE in ranking.position.kinds:
            return "not declaring (C10: the 31 counts 30)"
        return "passing (C11: the hand ends)"
    if kind is ActionKind.TAKE:
        top = ranking.position.knowledge.top
        taken = f" the {top.pretty}" if top is not None else ""
        made = " for 31" if move.sure_31 else ""
        return f"taking{taken}" + (f" (then throwing the {move.then.pretty}){made}" if move.then is not None else made)
    if kind is ActionKind.DRAW:
        return "drawing"
    assert move.action.card is not None
    return f"throwing the {move.action.card.pretty}"


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
        """The position in words, cards with their suit symbols as the table shows them:
        hand, discard, what the player tracked."""
        knowledge = self.knowledge
        if knowledge is None:
            return f"hand {format_cards(self.view.hand, pretty=True)}"
        return knowledge.describe(pretty=True)

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
    total_win: Fraction
    value_decisions: int
    win_decisions: int
    classes: tuple[tuple[str, int], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "decisions": self.decisions,
            "total_cost": {"hand value": str(self.total_value), WIN_UNIT: str(self.total_win)},
            "value_decisions": self.value_decisions,
            "win_decisions": self.win_decisions,
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
        lives = [d.cost for d in mine if d.scale == "win"]
        return PlayerSummary(
            player, len(mine), sum(value, _ZERO), sum(lives, _ZERO), len(value), len(lives),
            tuple((name, sum(1 for d in mine if d.label == name)) for name in CLASSES),
        )

    def costly(self) -> tuple[ReviewedDecision, ...]:
        """The decisions that are not ``best``."""
        return tuple(d for d in self.decisions if d.label != "best")

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.name,
            "players_in_game": self.players,
            "units": {"value": "hand value", "win": WIN_UNIT},
            "thresholds": {
                "value": [str(x) for x in VALUE_THRESHOLDS],
                "win": [str(x) for x in WIN_THRESHOLDS],
            },
            "decisions": [d.to_json() for d in self.decisions],
            "players": [self.summary(p).to_json() for p in self.seats],
        }

    def text(self) -> str:
        """A readable report: each hand's costly decisions with their numbers and reason,
        then each player's totals."""
        lines = [f"Review of a {self.players}-player game ({self.rules.describe()}); "
                 f"seats reviewed: {', '.join(str(s) for s in self.seats)}.",
                 f"Costs: hand value for draw/take/discard ({HORIZON} turns ahead), the chance of winning the "
                 "game for knocks; the two are never added."]
        hand = 0
        for d in self.costly():
            if d.hand != hand:
                hand = d.hand
                lines.append(f"Hand {hand}:")
            lines.append(f"  action {d.index}, player {d.player} ({d.position()}): played {d.played}, "
                         f"best {d.best}; cost {_cost(d.cost, d.scale)} [{d.label}]")
            lines.append(f"    {d.assessment.reason}")
        if not self.costly():
            lines.append("No costly decision: every decision was best.")
        for p in self.seats:
            s = self.summary(p)
            counts = ", ".join(f"{n} {name}" for name, n in s.classes if n)
            lines.append(f"Player {p}: {s.decisions} decisions; cost {_show(s.total_value)} hand value over "
                         f"{s.value_decisions}, {_cost(s.total_win, 'win')} over {s.win_decisions}"
                         + (f"; {counts}" if counts else ""))
        return "\n".join(lines)

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)


def review_game(record: GameRecord | Mapping[str, Any], player: int | None = None) -> GameReview:
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
    scale's blunder threshold (3 points of hand value, 8% of the chance of winning), so a
    cost of 16% (two blunder thresholds) ranks before 4 points (4/3 of one); equal ranks keep the game's
    order (the earlier decision first).

    >>> from scatlab.rules import GameRecord, deal_order
    >>> deck = deal_order(["2S 3S 9D", "AH KH 4C", "5D 6D 8C"], up="QH", stock="9C 9H 2D")
    >>> record = GameRecord.from_json({"rules": "classic", "players": 3, "dealer": 0, "hands": [
    ...     {"deck": [str(c) for c in deck],
    ...      "actions": [{"player": 1, "action": "take"}, {"player": 1, "action": "discard", "card": "AH"}]}]})
    >>> [(d.played, d.label) for d in costliest(review_game(record, player=1))]
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
        blunder = (VALUE_THRESHOLDS if d.scale == "value" else WIN_THRESHOLDS)[-1]
        return (-CLASSES.index(d.label), -d.cost / blunder, i)

    return tuple(d for _, d in sorted(costly, key=rank)[:n])
