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
states the rule and the opponent model, exactly). **One scale**, the engine's: every
decision is priced on the chance of winning the game (unit :data:`WIN_UNIT`, a probability
shown in percent), the estimated chance if the move is made
(:attr:`~scatlab.analysis.engine.ranking.RankedMove.win`); the **cost** of the move played is
the best move's chance less the move's, never negative (:meth:`Ranking.cost
<scatlab.analysis.engine.ranking.Ranking.cost>`). **A close call is never a mistake**: a move
within :data:`~scatlab.analysis.engine.scale.CLOSE_CALL` (half a point) of the best costs
nothing (the estimates cannot tell them apart), is ``best`` and is said to be a close call
(:attr:`Assessment.close`). The figures it is built from are shown beside it: the exact
expected hand value five turns ahead of the ways of playing on (on a last turn and with the
stock gone, the hand kept), and a knock's chance of losing a life against playing on's.

**Classes** (thresholds on the cost in the chance of winning the game; hand value thresholds
are kept for records reviewed before, :data:`VALUE_THRESHOLDS`):

=============  ======================
class          cost (chance)
=============  ======================
``best``       below 1 point (1/100), a close call always
``inaccuracy`` 1 up to 3 points
``mistake``    3 up to 8 points
``blunder``    8 points or more
=============  ======================

Not reviewed: forced actions (one legal action) and the blind throw-down choice (V11),
which is made before looking at the cards.

Hands and action indexes are counted from 1 (the first action of a hand is action 1).

**In the learner's words.** :meth:`scatlab.analysis.ReviewedDecision.words` gives a
decision as the course shows it (the review widget, lesson 8), in reading order: what happened (the position and
the move played), what was better (or that it was the best move), by how much on the
decision's scale with its class, and why (the ranking's figures, rounded: the chance of
winning as levels, "37.2%"; hand values "on average 24.4"). The seats are named as the table names them ("you",
"player 2 (tip)": numbered from 1), a
decision by the player's own move in the hand ("Hand 3, your 12th move"); the exact
fractions stay in :attr:`Assessment.figures`.

>>> from scatlab.rules import GameRecord, deal_order
>>> deck = deal_order(["2S 3S 9D", "AH KH 4C", "5D 6D 8C"], up="QH", stock="9C 9H 2D")
>>> record = GameRecord.from_json({"rules": "classic", "players": 3, "dealer": 0, "hands": [
...     {"deck": [str(c) for c in deck],
...      "actions": [{"player": 1, "action": "take"}, {"player": 1, "action": "discard", "card": "AH"}]}]},)
>>> d = review_game(record, player=1).decisions[-1]
>>> d.played, d.best, d.cost > Fraction(8, 100), d.label, d.scale
('discard AH', 'discard 4C', True, 'blunder', 'win')
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ...cards import Suit, format_cards
from ...errors import AnalysisError
from ...rules.actions import Action, ActionKind
from ...rules.options import RuleSet
from ...rules.record import GameRecord, replay
from ...rules.state import GameState
from ...rules.values import format_value
from ...rules.view import PlayerView
from ...words import DID, YOU, player_label, win_level, with_rule
from ...words import about as _chance
from ...words import capital as _capital
from ...words import ordinal as _ordinal
from ...words import their as _their
from ...words import whose as _whose
from ...words import worth as _worth
from ..counting.knowledge import Knowledge
from ..engine.position import HORIZON, Position
from ..engine.ranking import RankedMove, Ranking, lives_unit, rank
from ..engine.scale import Scale

__all__ = [
    "HORIZON",
    "VALUE_THRESHOLDS",
    "WIN_THRESHOLDS",
    "WIN_UNIT",
    "CLASSES",
    "CLASS_RANGES",
    "Assessment",
    "DecisionWords",
    "REVIEW_THEMES",
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
"""The unit of a cost on the win scale (a probability; shown in percent)."""
CLASSES = ("best", "inaccuracy", "mistake", "blunder")
CLASS_RANGES = {
    "value": {
        "best": "below 1/4 point",
        "inaccuracy": "1/4 up to 1 point",
        "mistake": "1 up to 3 points",
        "blunder": "3 points or more",
    },
    "win": {"best": "below 1%", "inaccuracy": "1% up to 3%", "mistake": "3% up to 8%", "blunder": "8% or more"},
}
"""Each class's range in the learner's words, per scale (the thresholds above, as lesson 8's table states them)."""

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
    ``unit``, never negative; 0 for a close call), the class, and each option's chance of
    winning the game (``figures``, best first: higher is better). ``reason`` is the
    analyst's line (the CLI report); ``better``, ``why`` and ``labels`` are the same
    comparison in the learner's words."""

    played: Action
    best: Action
    cost: Fraction
    scale: Scale
    unit: str
    label: str
    figures: tuple[tuple[str, Fraction], ...]
    reason: str
    horizon: int = HORIZON
    """Own turns ahead the value figures look: :data:`~scatlab.analysis.engine.position.HORIZON`,
    or 0 on a last turn (only the hand kept counts)."""
    better: str = ""
    """The preferred move in the learner's words: ``"taking the 9♥ (then throwing the 6♠)"``."""
    why: str = ""
    """Why, in the learner's words: the figures the ranking compares, rounded."""
    labels: tuple[str, ...] = ()
    """Each option of ``figures`` in the learner's words (``"take the 9♥ (throw the 6♠)"``)."""
    close: bool = False
    """The move played is a close call with the ranking's best (within
    :data:`~scatlab.analysis.engine.scale.CLOSE_CALL`): it costs nothing and is ``best``."""
    now: Fraction | None = None
    """The chance of winning the game from the standings, before the hand was played out."""
    values: tuple[tuple[str, Fraction], ...] = ()
    """The exact figures the chances are built from, per option (``figures``' names): the
    expected hand value :attr:`horizon` turns ahead of a way of playing on, the expected
    lives a move that ends the hand costs."""
    top: str = ""
    """The ranking's best move in the learner's words (``better`` names it too, where it was better)."""

    @property
    def cost_text(self) -> str:
        """The cost as a learner reads it: ``"10.5% chance of winning the game"``, or
        ``"nothing"`` for a move that cost nothing (a close call too)."""
        if self.cost == 0:
            return "nothing"
        if self.scale == "win":
            return f"{_amount(self.cost, 'win')} chance of winning the game"
        return f"{_points_of(self.cost)} of hand value"

    def level(self, name: str) -> Fraction:
        """The chance of winning of option ``name`` (a move's text, ``"draw"``)."""
        return dict(self.figures)[name]


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
    >>> str(a.best), a.scale, a.cost == a.level("take") - a.level("draw") > 0, a.label
    ('take', 'win', True, 'mistake')
    """
    if not isinstance(view, PlayerView):
        raise AnalysisError(f"assess needs a PlayerView, not {type(view).__name__}")
    if view.to_move != view.player:
        raise AnalysisError(f"player {view.player} is not to move in this view (player {view.to_move} is)")
    legal = view.legal_actions
    if played not in legal:
        raise AnalysisError(f"{str(played)!r} is not a legal action here: legal are {', '.join(str(a) for a in legal)}")
    if len(legal) < 2 or any(a.kind is ActionKind.THROW_DOWN for a in legal):
        return None
    return assessment(rank(Position.from_view(view)), played)


def assessment(ranking: Ranking, played: Action) -> Assessment:
    """The :class:`Assessment` of ``played`` (a legal move of the ranked position): its
    cost is :meth:`Ranking.cost <scatlab.analysis.engine.ranking.Ranking.cost>` (0 for a
    close call), on the chance of winning the game."""
    move = ranking.move(played)
    best = ranking.best
    cost = ranking.cost(played)
    close = move.close
    figures = tuple((m.name, m.win) for m in ranking.moves)
    labels = tuple(_label(m, ranking) for m in ranking.moves)
    values = tuple(
        (m.name, m.value if m.value is not None else m.lives)
        for m in ranking.moves
        if m.value is not None or m.lives is not None
    )
    shown_best = played if cost == 0 else best.action
    what = _words(move, ranking)
    if move is best:
        reason = f"{what}: {win_level(move.win)}, the best move"
    elif close:
        reason = (
            f"{what}: {win_level(move.win)}; {_words(best, ranking)} was rated {win_level(best.win)}, a close "
            "call (no cost)"
        )
    else:
        reason = f"{what}: {win_level(move.win)}; {_words(best, ranking)} was best: {win_level(best.win)}"
    label = "best" if close else classify(cost, "win")
    return Assessment(
        played,
        shown_best,
        cost,
        "win",
        WIN_UNIT,
        label,
        figures,
        reason,
        ranking.horizon,
        _words(best, ranking),
        _why(ranking, move, best),
        labels,
        close,
        ranking.now,
        tuple((n, v) for n, v in values if v is not None),
        _words(best, ranking),
    )


def _ahead(horizon: int) -> str:
    """When a value figure is counted, in the learner's words (lesson 6 names the horizon)."""
    return (
        "looking five turns ahead"
        if horizon == HORIZON
        else ("on a last turn, counting only the hand kept" if horizon == 0 else f"looking {horizon} turns ahead")
    )


def _why(ranking: Ranking, move: RankedMove, best: RankedMove) -> str:
    """Why ``move`` cost what it did, in the learner's words: the chance of winning the game
    as levels (before the hand, with the move played, with the best move and any close
    call), then the figure each is built from, rounded (the exact ones are
    :attr:`Assessment.figures` and :attr:`Assessment.values`); it follows "Why: "."""
    shown = [move] + [m for m in ranking.moves if m is not move and (m is best or m.close)]
    if len(shown) == 1 and len(ranking.moves) > 1:  # the best move played: the next best beside it
        shown.append(ranking.moves[1])
    levels = ", ".join(f"{win_level(m.win)} by {_words(m, ranking)}" for m in shown)
    text = f"your chance of winning the game was {win_level(ranking.now)} before the hand: {levels}."
    if ActionKind.DECLARE in ranking.position.kinds:
        return text[:1].upper() + text[1:]
    worth = [(m, m.value) for m in shown[:2] if m.value is not None and not m.sure_31]
    if len(worth) == 2:
        (a, va), (b, vb) = worth
        text += (
            f" {_capital(_ahead(ranking.horizon))}, {_words(a, ranking)} is {_worth(va)}; "
            f"{_words(b, ranking)} is {_worth(vb)}."
        )
    ender = next((m for m in shown[:2] if m.ends_hand), None)
    on = ranking.play_on
    if ender is not None and on is not None and ender.p_one is not None:
        text += (
            f" {_capital(_words(ender, ranking))} loses a life with a chance of {_chance(ender.loss)}; "
            f"{_words(on, ranking)}, {_chance(on.loss)} this hand."
        )
    return text[:1].upper() + text[1:]


def _label(move: RankedMove, ranking: Ranking) -> str:
    """An option of the figures' table in the learner's words: ``"take the 9♥ (throw the 6♠)"``."""
    kind = move.action.kind
    if kind is ActionKind.PASS:
        return "do not declare (C10)" if ActionKind.DECLARE in ranking.position.kinds else "pass (C11)"
    if kind is ActionKind.DECLARE:
        return "declare the 31"
    return move.label() + (" for 31" if move.sure_31 else "")


def _amount(cost: Fraction, scale: Scale) -> str:
    """A cost rounded as a learner reads it: one decimal (``"5.6"``, ``"10.5%"`` as the
    ranking's ``win_level`` writes a chance), more where one
    decimal would put it in another class, ``"less than 0.1"`` when it rounds to nothing.

    >>> _amount(Fraction(557, 100), "value"), _amount(Fraction(2, 1), "value"), _amount(Fraction(21, 200), "win")
    ('5.6', '2', '10.5%')
    >>> _amount(Fraction(296, 100), "value"), _amount(Fraction(1, 1000), "value"), _amount(Fraction(796, 10000), "win")
    ('2.96', 'less than 0.1', '7.96%')
    """
    scaled, pct = (cost * 100, "%") if scale == "win" else (cost, "")
    if scaled.denominator == 1:
        return f"{scaled.numerator}{pct}"
    places = 1
    while places < 4:
        text = f"{float(scaled):.{places}f}"
        if Fraction(text) == 0:
            return f"less than 0.1{pct}"
        if classify(Fraction(text) / (100 if pct else 1), scale) == classify(cost, scale):
            break
        places += 1
    return text + pct


def _only(amount: str) -> str:
    return amount if amount.startswith("less than") else f"only {amount}"


def _points_of(cost: Fraction) -> str:
    """A cost on the value scale: ``"5.6 points"``, ``"1 point"``."""
    amount = _amount(cost, "value")
    return f"{amount} point" + ("" if amount == "1" else "s")


def _cost(cost: Fraction, scale: Scale) -> str:
    """A cost in its unit: ``"2.33 hand value"`` or ``"2.1% chance of winning"``.

    >>> _cost(Fraction(21, 1000), "win"), _cost(Fraction(7, 3), "value")
    ('2.1% chance of winning', '2.33 hand value')
    """
    if scale == "win":
        return f"{float(cost) * 100:.1f}% {WIN_UNIT}"
    return f"{_show(cost)} hand value"


def _move(action: Action) -> str:
    """An action in the report's one card notation: ``"discard A♥"``, ``"take"``."""
    return f"{action.kind.value} {action.card.pretty}" if action.card is not None else str(action)


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


_SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


def _seat(seat: int, names: Mapping[int, str]) -> str:
    return names.get(seat, player_label(seat))


def _did(played: Action, view: PlayerView) -> str:
    """The move played, in the past tense: ``"drew from the stock"``, ``"threw the 9♦"``."""
    kind = played.kind
    if kind is ActionKind.TAKE:
        top = view.top_discard
        return f"took the {top.pretty}" if top is not None else "took the top discard"
    if kind is ActionKind.DISCARD and played.card is not None:
        return f"threw the {played.card.pretty}"
    if kind is ActionKind.PASS:
        if any(a.kind is ActionKind.DECLARE for a in view.legal_actions):
            return "did not declare the 31 (C10)"
        return "passed, which ends the hand (C11)"
    return with_rule(kind.value, DID[kind.value]) if kind.value in DID else str(played)


@dataclass(frozen=True)
class DecisionWords:
    """One reviewed decision in the learner's words
    (:meth:`scatlab.analysis.ReviewedDecision.words`), in the order it is read: where, what happened, what was
    better, by how much (with the class
    and its range), why; then the cards the player had seen (a count, ``seen``, and the
    discard pile by suit, ``by_suit``: ``("♠", "K 9 2")``; ``held``: cards another player
    took and still holds)."""

    where: str
    label: str
    happened: str
    better: str
    how_much: str
    why: str
    seen: str = ""
    by_suit: tuple[tuple[str, str], ...] = ()
    held: tuple[str, ...] = ()

    def text(self) -> str:
        """The decision as plain lines (the cards seen by suit left out: a count is enough)."""
        lines = [
            f"{self.where}: {self.label}",
            self.happened,
            self.better,
            self.how_much,
            f"Why: {self.why}" if self.why else "",
            self.seen,
            *self.held,
        ]
        return "\n".join(line for line in lines if line)


REVIEW_THEMES: tuple[str, ...] = ("knock", "take-or-draw", "throw", "other")
"""What a reviewed decision was about (:attr:`ReviewedDecision.theme`), in the order a
teacher's dashboard lists them."""
_ENDING = frozenset({ActionKind.KNOCK, ActionKind.HAMMER, ActionKind.STOP_BUS, ActionKind.DECLARE})


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

    @property
    def theme(self) -> str:
        """What the decision was about, as practice names its themes
        (``REVIEW_THEMES``): ``"knock"`` when the move played or the better one ends the
        hand (a knock, a hammer, a bus stop, a declared 31), ``"take-or-draw"`` for a choice
        between the discard pile and the stock, ``"throw"`` for which card to throw, and
        ``"other"`` (a throw-down, a pass when the stock is out).

        >>> from scatlab.rules import GameRecord, deal_order
        >>> deck = deal_order(["2S 3S 9D", "AH KH 4C", "5D 6D 8C"], up="QH", stock="9C 9H 2D")
        >>> record = GameRecord.from_json({"rules": "classic", "players": 3, "dealer": 0, "hands": [
        ...     {"deck": [str(c) for c in deck],
        ...      "actions": [{"player": 1, "action": "take"}, {"player": 1, "action": "discard", "card": "AH"}]}]})
        >>> [d.theme for d in review_game(record, player=1).decisions]
        ['take-or-draw', 'throw']
        """
        kinds = {self.assessment.played.kind, self.assessment.best.kind}
        if kinds & _ENDING:
            return "knock"
        if kinds <= {ActionKind.TAKE, ActionKind.DRAW}:
            return "take-or-draw"
        if kinds == {ActionKind.DISCARD}:
            return "throw"
        return "other"

    @property
    def move_number(self) -> int:
        """Which of the player's own moves in this hand the decision was (from 1; a draw and
        the discard after it are two moves, a forced one counts too)."""
        return 1 + sum(1 for e in self.view.history if e.player == self.player)

    def words(self, names: Mapping[int, str] | None = None) -> DecisionWords:
        """The decision in the learner's words, in reading order
        (:class:`~scatlab.analysis.explain.review.DecisionWords`).
        ``names`` names the seats as the table shows them: the learner's seat ``"you"``,
        another ``"player 2 (tip)"``; a seat not in ``names`` is numbered from 1, as the
        table numbers seats (seat 1 is ``"player 2"``: :func:`scatlab.rules.player_label`).

        >>> from scatlab.rules import GameRecord, deal_order
        >>> deck = deal_order(["2S 3S 9D", "AH KH 4C", "5D 6D 8C"], up="QH", stock="9C 9H 2D")
        >>> record = GameRecord.from_json({"rules": "classic", "players": 3, "dealer": 0, "hands": [
        ...     {"deck": [str(c) for c in deck],
        ...      "actions": [{"player": 1, "action": "take"}, {"player": 1, "action": "discard", "card": "AH"}]}]})
        >>> take, throw = review_game(record, player=1).decisions
        >>> print(take.words({1: "you"}).text())  # doctest: +ELLIPSIS
        Hand 1, your 1st move: best
        You held A♥ K♥ 4♣, worth 21, with the Q♥ on top of the discard pile. You took the Q♥.
        This was the best move.
        Why: Your chance of winning the game was ...% before the hand: ...% by taking the Q♥ (then throwing the 4♣)
        for 31, ...% by knocking with 21. Knocking with 21 loses a life with a chance of about ...%; taking the Q♥
        (then throwing the 4♣) for 31, never this hand.
        Cards you had seen: none besides your hand and the top discard; 48 not seen yet.
        >>> print(throw.words({1: "you"}).text())  # doctest: +ELLIPSIS
        Hand 1, your 2nd move: blunder
        You had taken the Q♥ and held A♥ K♥ 4♣ Q♥. You threw the A♥.
        Better: throwing the 4♣.
        Compared with that, your move lowered your chance of winning the game from ...% to ...%, by about ...%: a
        blunder (8% or more).
        Why: Your chance of winning the game was ...% before the hand: ...% by throwing the A♥, ...% by throwing the 4♣.
        Cards you had seen: none besides your hand; 48 not seen yet.
        """
        names = names if names is not None else {}
        view, a = self.view, self.assessment
        who = _seat(self.player, names)
        whose = _whose(who)
        hand = " ".join(c.pretty for c in view.hand)
        if len(view.hand) == 3:
            top = view.top_discard
            pile = f"with the {top.pretty} on top of the discard pile" if top is not None else "with no discard pile"
            worth = f", {_worth(view.value)}," if view.value is not None else ""
            held = f"{_capital(who)} held {hand}{worth} {pile}."
        elif view.taken is not None:
            held = f"{_capital(who)} had taken the {view.taken.pretty} and held {hand}."
        elif view.drawn is not None:
            held = f"{_capital(who)} had drawn the {view.drawn.pretty} and held {hand}."
        else:
            held = f"{_capital(who)} held {hand}."
        if view.knocker is not None and view.knocker != self.player:
            held += f" {_capital(_seat(view.knocker, names))} had knocked, so this was {_their(who)} last turn."
        happened = f"{held} {_capital(who)} {self.did}."
        mine, best_level = win_level(a.level(str(a.played))), win_level(a.figures[0][1])
        if a.close:  # within half a point of the best: never a mistake, said as a close call
            better = (
                f"A close call: {a.top} was rated {best_level}, against {mine} for {whose} move, closer than the "
                "estimates can tell apart, so it counts as best."
            )
            how_much = ""
        elif a.cost == 0:
            better, how_much = "This was the best move.", ""
        else:
            better = f"{'Slightly better' if a.label == 'best' else 'Better'}: {a.better}."
            amount = _amount(a.cost, "win")
            span = CLASS_RANGES["win"][a.label]
            if a.label == "best":
                how_much = (
                    f"The difference is {_only(amount)} in {_their(who)} chance of winning the game ({best_level} "
                    f"against {mine}), so this still counts as best ({span})."
                )
            else:
                how_much = (
                    f"Compared with that, {whose} move lowered {_their(who)} chance of winning the game from "
                    f"{best_level} to {mine}, by about {amount}: {'an' if a.label == 'inaccuracy' else 'a'} "
                    f"{a.label} ({span})."
                )
        return DecisionWords(self.where(names), a.label, happened, better, how_much, a.why, *self._seen(who, names))

    def where(self, names: Mapping[int, str] | None = None) -> str:
        """Where the decision was, in the learner's words: ``"Hand 3, your 12th move"``
        (``names`` as in :meth:`words`)."""
        who = _seat(self.player, names if names is not None else {})
        return f"Hand {self.hand}, {_whose(who)} {_ordinal(self.move_number)} move"

    @property
    def did(self) -> str:
        """The move played, in the past tense: ``"drew from the stock"``, ``"threw the 9♦"``."""
        return _did(self.assessment.played, self.view)

    def _seen(self, who: str, names: Mapping[int, str]) -> tuple[str, tuple[tuple[str, str], ...], tuple[str, ...]]:
        """What the player had seen (beside their hand): a count, the cards by suit, who holds what."""
        knowledge = self.knowledge
        if knowledge is None:
            return "", (), ()
        k = knowledge
        beside = "your hand" if who == YOU else "their hand"
        beside += " and the top discard" if k.top is not None else ""
        head = f"Cards {who} had seen, beside {beside}"
        held = []
        for seat, cards in zip(self.view.opponents, k.opponent_holds):
            if cards:
                shown = " and ".join(f"the {c.pretty}" for c in cards)
                held.append(
                    f"{_capital(_seat(seat, names))} took {shown} from the pile and still held "
                    f"{'it' if len(cards) == 1 else 'them'}."
                )
        counted = len(k.dead) + sum(len(h) for h in k.opponent_holds)
        if counted == 0:
            return f"Cards {who} had seen: none besides {beside}; {len(k.unseen)} not seen yet.", (), ()
        parts = [f"{len(k.dead)} in the discard pile"] if k.dead else []
        if len(held):
            n = sum(len(h) for h in k.opponent_holds)
            parts.append(f"{n} taken by {'another player' if len(held) == 1 else 'other players'}")
        by_suit = (
            tuple(
                (
                    suit.symbol,
                    " ".join(
                        c.rank.symbol for c in sorted((c for c in k.dead if c.suit is suit), key=lambda c: -c.rank)
                    )
                    or "none",
                )
                for suit in _SUIT_ORDER
            )
            if k.dead
            else ()
        )
        return (f"{head}: {' and '.join(parts)}; {len(k.unseen)} not seen yet.", by_suit, tuple(held))

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
            "close_call": a.close,
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
            raise AnalysisError(
                f"player {player!r} was not reviewed: reviewed seats are {', '.join(str(s) for s in self.seats)}"
            )
        mine = [d for d in self.decisions if d.player == player]
        value = [d.cost for d in mine if d.scale == "value"]
        lives = [d.cost for d in mine if d.scale == "win"]
        return PlayerSummary(
            player,
            len(mine),
            sum(value, _ZERO),
            sum(lives, _ZERO),
            len(value),
            len(lives),
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
        lines = [
            f"Review of a {self.players}-player game ({self.rules.describe()}); "
            f"seats reviewed: {', '.join(str(s) for s in self.seats)}.",
            "Costs: the chance of winning the game the best move keeps over the move played (the engine's "
            "estimate); a close call (within half a point) costs nothing.",
        ]
        hand = 0
        for d in self.costly():
            if d.hand != hand:
                hand = d.hand
                lines.append(f"Hand {hand}:")
            lines.append(
                f"  action {d.index}, player {d.player} ({d.position()}): played {_move(d.assessment.played)}, "
                f"best {_move(d.assessment.best)}; cost {_cost(d.cost, d.scale)} [{d.label}]"
            )
            lines.append(f"    {d.assessment.reason}")
        if not self.costly():
            lines.append("No costly decision: every decision was best.")
        for p in self.seats:
            s = self.summary(p)
            counts = ", ".join(f"{n} {name}" for name, n in s.classes if n)
            value = f"{_show(s.total_value)} hand value over {s.value_decisions}, " if s.value_decisions else ""
            lines.append(
                f"Player {p}: {s.decisions} decisions; cost {value}{_cost(s.total_win, 'win')} over "
                f"{s.win_decisions}" + (f"; {counts}" if counts else "")
            )
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
    state = GameState.new(record.rules, n, record.dealer, record.seats)
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
        raise AnalysisError(
            f"player {player!r} was not reviewed: reviewed seats are {', '.join(str(s) for s in result.seats)}"
        )
    costly = [(i, d) for i, d in enumerate(result.decisions) if d.cost > 0 and (player is None or d.player == player)]

    def rank(item: tuple[int, ReviewedDecision]) -> tuple[int, Fraction, int]:
        i, d = item
        blunder = (VALUE_THRESHOLDS if d.scale == "value" else WIN_THRESHOLDS)[-1]
        return (-CLASSES.index(d.label), -d.cost / blunder, i)

    return tuple(d for _, d in sorted(costly, key=rank)[:n])
