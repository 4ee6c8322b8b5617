"""The decision engine: one ranking of the moves at a position, the strongest play scatlab
knows. The advice, the table's hints, the review, the practice puzzles, ``scatlab
analyze``, lesson 3's knock line and the ``expert`` player all read it, so "follow the
hints" and "play like the expert" are the same thing.

:func:`rank` lists every legal move of a position, best first, with its figures;
:func:`decide` finds the first move (the ``expert`` plays by it; a test checks at every
decision of seeded games under every preset that it is ``rank(view).best``). **The rule**
(each part tested by name in ``tests/test_ranking.py``):

1. **One scale.** Every legal move gets one figure, :attr:`RankedMove.win`: the player's
   chance of winning the game if it makes that move and then plays as the engine advises
   (:mod:`scatlab.analysis.model.winning`). The advice is the move with the highest figure;
   on a tie, the order declare, take, draw, pass, discard, knock (with the stock gone, pass
   before take, so that a hand of takers ends, C11), and between two throws the one keeping
   the higher value.
2. **Ending the hand** (a knock, C6; a hammer, V10; stopping the bus, V19) is valued by the
   knock model: the chance of every outcome of the showdown after the opponents' last turns
   (:meth:`!KnockValuation.outcome <scatlab.analysis.model.valuation.KnockValuation.outcome>`), each outcome by the
   chance of winning the game it leaves.
3. **Playing on** (drawing, taking, throwing) is valued by the hand it keeps: the hand
   model's chance that this hand costs the player a life, from the kept hand's exact
   expected value :data:`HORIZON` (5) own turns ahead and its value now, the turns played,
   the opponents' kinds and whether the card thrown feeds the next player; a draw is the
   average over every unseen card of the best hand it can keep, a take the best hand the
   discard makes. A 31 made is declared at once (C8): every other player loses a life. On a
   last turn (someone knocked, the bus was stopped) the hand kept is valued by its value now.
4. **Close calls.** Moves whose figures are within :data:`CLOSE_CALL` of the best are a
   close call (:attr:`RankedMove.close`): the estimates cannot tell them apart, and the review
   never calls one a mistake.

The figures shown beside the chance of winning are those it is built from: the exact
expected hand value five turns ahead (:attr:`RankedMove.value`), the chance that the move
costs a life this hand (:attr:`RankedMove.loss`), and for an end of the hand its chances of
losing one and two lives.

**The model and its assumptions** (stated in full in ``docs/design/engine.md``):

- **The game.** The chance of winning the game from the standings is the game model of
  :mod:`~scatlab.analysis.model.winning`: each hand costs one player a life (sometimes two),
  or every player but one a life, the player drawn by weights measured for casual and strong
  players; the player being advised plays as the engine does, each opponent is strong as
  the table announced it (a ``tip`` player casual; an ``expert`` or ``master`` strong), else
  with the chance the opponent model has learned from the hands shown.
- **Opponents** are pictured by the adaptive opponent model
  (:mod:`scatlab.analysis.model.opponents`): dealt hands improved by the turns each has played,
  less likely where a card they threw or passed over would have helped, each opponent a
  casual (``tip``-like) or a strong (``expert``-like) player: as announced at the table
  when it was, else in odds learned from the hands shown earlier. Opponents are independent.
- **Ending the hand** gives each opponent one last turn (none after a hammer or a bus
  stop): take the top discard if it makes a stronger hand, else draw any card not in the
  hand nor on the discard pile and keep the best three; then the showdown under the rule
  set (C7, V7, V8, V9, V14, V16) gives the chance of every outcome. The next player sees
  the top discard, every later one the throw of the player before it, pictured as a card
  nobody has seen (two looks at a card that helps).
- **Playing on** is valued by the hand model, measured on seeded games of the ``expert``
  against casual and strong players (``research/winchance``).
- **What is exact and what is estimated.** Draw odds and expected hand values are exact
  (Fractions from exact counting). Against one opponent, with lives kept, a knock's chances
  of losing one and two lives are counted exactly
  (:func:`~scatlab.analysis.model.knock.knock_risk`, the adaptive model). The chances of
  winning the game and of losing a life by playing on are the models' estimates, computed
  in floating point and kept as Fractions rounded to a millionth. Measured on seeded games
  (``benchmarks/bench_calibration.py``), the chances of winning track how often the player
  went on to win.

>>> from scatlab.analysis.counting.knowledge import Knowledge
>>> r = rank(Position.of(Knowledge.of("10H 8H JH", discard="AH", opponents=2)))
>>> r.best.name, r.best.sure_31        # taking the A-heart makes 31: first, never a knock
('take', True)
>>> r.move(Action.KNOCK).lives > 0, r.best.win > r.moves[1].win
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Literal

import numpy as np

from ...cards import Card, Suit
from ...checks import real_number, shown, whole_number
from ...errors import AnalysisError
from ...rules.actions import Action, ActionKind
from ...rules.options import RuleSet, find_rules
from ...rules.state import Phase
from ...rules.values import blitz_of
from ...rules.view import PlayerView
from ..model.hand_filter import LAST_THROW, expert_throw, throw_choice
from ..counting.horizon import horizon_table
from ..counting.knowledge import Knowledge, collected_suits, opponent_turns
from ..counting.tables import BLITZ2, RANK_BITS, Tables, pair_indices, scoring_rules, tables_for
from ..model.valuation import MAX_TURNS, KnockOutcome, KnockValuation, Standing, TurnOdds, turn_odds
from ..model.winning import GameModel, HandModel, draw_level_by_row, family_of, last_turn_by_value, loss_by_row

if TYPE_CHECKING:  # the opponent model is imported when a knock is weighed
    from ..model.opponents import Observations

__all__ = [
    "HORIZON",
    "FEED_MARGIN",
    "Style",
    "EXPERT",
    "Scale",
    "Position",
    "RankedMove",
    "Ranking",
    "Choice",
    "rank",
    "decide",
    "knock_line",
    "KnockLine",
    "lives_unit",
    "win_change",
    "win_level",
    "CLOSE_CALL",
    "prepare",
]

HORIZON = 5
"""Own turns ahead a way of playing on is valued at."""
FEED_MARGIN = 2.0
"""Points of expected hand value (five turns ahead) the fast picture of a strong player's
throw gives up not to feed the next player (the opponent model's picture of an ``expert``,
the master's play-outs). The engine itself weighs feeding in the chance of winning."""
CLOSE_CALL = Fraction(1, 200)
"""Moves whose chances of winning the game are within this of the best move's (half a point
of percentage) are a close call: below what the estimates can tell apart (the calibration of
docs/design/engine.md)."""

Scale = Literal["value", "win"]
"""The scale a figure is read on: ``"value"``, expected hand value; ``"win"``, the chance of
winning the game (the scale every choice is made on)."""

_ZERO = Fraction(0)
_SUITS = tuple(Suit)  # a card's suit is its index // 13 in this order
_ENDING = (ActionKind.KNOCK, ActionKind.HAMMER, ActionKind.STOP_BUS)
_ORDER = {ActionKind.DECLARE: 0, ActionKind.TAKE: 1, ActionKind.DRAW: 2, ActionKind.PASS: 3, ActionKind.DISCARD: 4,
          ActionKind.KNOCK: 5, ActionKind.HAMMER: 6, ActionKind.STOP_BUS: 7}


def win_change(p: Fraction | float) -> str:
    """A change in the chance of winning the game as a learner reads it: signed points of
    percentage, ``"+3.1%"`` (the one format of the hints, the advice, the review and the lessons).

    >>> win_change(Fraction(31, 1000)), win_change(-0.0049)
    ('+3.1%', '-0.5%')
    """
    return f"{float(p) * 100:+.1f}%"


def win_level(p: Fraction | float) -> str:
    """A chance of winning the game as a learner reads it: a level in percent with one
    decimal, ``"34.2%"`` (the one format of the hints, the advice, the review and the lessons;
    a change is :func:`win_change`).

    >>> win_level(Fraction(342, 1000)), win_level(0.05)
    ('34.2%', '5.0%')
    """
    return f"{float(p) * 100:.1f}%"


def lives_unit(rules: RuleSet) -> str:
    """The unit of the lives figures under ``rules``: lives, letters (V14) or points (V16).

    >>> lives_unit(find_rules("gin")), lives_unit(find_rules("classic"))
    ('letters', 'lives')
    """
    return {"gin": "letters", "points": "points"}.get(rules.score_keeping, "lives")


def _estimate(x: float) -> Fraction:
    """A model estimate (floating point) as a Fraction rounded to a millionth."""
    return Fraction(round(x * 1_000_000), 1_000_000)


# -- the style: how the engine plays ---------------------------------------------------------


@dataclass(frozen=True)
class Style:
    """The engine's settings: ``horizon``, own turns ahead the value figures shown beside
    each way of playing on look (0 to 5; the chance of winning always reads five, the horizon
    the hand model was measured with); ``feed_margin``, the fast throw picture's margin
    (:data:`FEED_MARGIN`: the opponent model's picture of a strong player, the master's
    play-outs); ``valuation``, how ending the hand is valued (:class:`KnockValuation`). The
    defaults (:data:`EXPERT`) are the ``expert``'s.

    >>> Style(horizon=7)
    Traceback (most recent call last):
    ...
    scatlab.errors.AnalysisError: horizon=7 is not allowed: use a whole number from 0 to 5
    """

    horizon: int = HORIZON
    feed_margin: float = FEED_MARGIN
    valuation: KnockValuation = field(default_factory=KnockValuation)

    def __post_init__(self) -> None:
        whole_number("horizon", self.horizon, 0, 5, error=AnalysisError)
        real_number("feed_margin", self.feed_margin, 0, 31, error=AnalysisError)
        if not isinstance(self.valuation, KnockValuation):
            raise AnalysisError(f"valuation={shown(self.valuation)} is not allowed: a KnockValuation")


EXPERT = Style()
"""The engine's default style: the ``expert`` player's."""


@dataclass(frozen=True)
class _Model:
    tables: Tables
    future: list[int]  # E_horizon per row, scaled by ``scale``
    scale: int  # 2 * others**horizon
    value2: list[int]  # value2 per row
    odds: TurnOdds


@lru_cache(maxsize=16)
def _model(scoring: RuleSet, horizon: int) -> _Model:
    tables = tables_for(scoring)
    future = [int(x) for x in horizon_table(tables, horizon)]
    others = tables.deck_size - 3
    return _Model(tables, future, 2 * others**horizon, [int(x) for x in tables.value2], turn_odds(scoring))


def _model_for(rules: RuleSet, horizon: int = HORIZON) -> _Model:
    return _model(scoring_rules(rules), horizon)


def prepare(rules: RuleSet | str) -> None:
    """Build the exact tables :func:`rank` uses for ``rules`` now (about a second, once
    per scoring configuration and process), so the first ranking answers at once."""
    _model_for(find_rules(rules))


# -- the position ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """A decision to rank: what the player knows (:class:`Knowledge`), the kinds of move
    the rules allow now, how many turns each opponent has completed in this hand, whether
    this is a last turn (someone knocked or the bus was stopped: only the hand now counts),
    the standings (:class:`~scatlab.analysis.model.valuation.Standing`; None: a game's first hand),
    the suits the next player took from the pile this hand (``next_collects``), and what the
    opponents were seen to do (``observations``; None: read from the game's log for a
    position from a view, else the turns played and nothing rejected). Build it with
    :meth:`from_view` from a game, or :meth:`of` from a :class:`Knowledge` (the analyzer's
    input)."""

    knowledge: Knowledge
    kinds: frozenset[ActionKind]
    opponent_turns: tuple[int, ...]
    final: bool = False
    standing: Standing | None = None
    next_collects: frozenset[Suit] = frozenset()
    observations: Observations | None = None
    log: tuple[object, ...] = ()
    """The game's log the observations are read from, and who the table announced at each
    seat (a position from a view): part of the position's identity, so two positions with
    other histories or other opponents never share a ranking."""
    view: PlayerView | None = field(default=None, compare=False, repr=False)

    @classmethod
    def from_view(cls, view: PlayerView) -> Position:
        """The position of ``view``'s player, who must be to move with a hand to weigh
        (a turn, a discard, or a 31 to declare); the legal moves are the engine's."""
        if not isinstance(view, PlayerView):
            raise AnalysisError(f"Position.from_view needs a PlayerView, not {shown(view)}")
        if view.to_move != view.player:
            raise AnalysisError(f"player {view.player} is not to move in this view (player {view.to_move} is)")
        if view.phase is Phase.THROW_DOWN:
            raise AnalysisError("the throw-down choice (V11) is made before looking at the cards: there is "
                                "nothing to rank")
        final = view.knocker is not None or (
            bool(view.history) and view.history[-1].player == view.player
            and view.history[-1].action.kind is ActionKind.STOP_BUS)
        k = Knowledge.from_view(view)
        nxt = view.opponents[0] if view.opponents else None
        collects = frozenset(collected_suits(view, nxt)) if nxt is not None else frozenset()
        return cls(k, frozenset(a.kind for a in view.legal_actions), tuple(opponent_turns(view)), final,
                   Standing.from_view(view), collects, None, (view.history, view.past_hands, view.seats), view)

    @classmethod
    def of(cls, knowledge: Knowledge, *, opponent_turns: Sequence[int] | None = None, final: bool = False,
           observations: Observations | None = None) -> Position:
        """The position of a :class:`Knowledge` (no game around it, a game's first hand): with
        three cards the player may draw (while the stock has cards), take the discard (when
        there is one), pass (C11, the stock gone) and knock (when the rules allow it now,
        :func:`~scatlab.analysis.model.knock.knock_refusal`, and it is not a last turn); a hand of
        three worth 31 is declared (C8, C9; not one already passed, C10); with four cards it
        discards (not the card just taken, C5). ``opponent_turns``: turns each opponent has
        completed in this hand (default: those of ``observations``, else none, as just dealt);
        ``observations``: what each opponent was seen to do
        (:class:`~scatlab.analysis.model.opponents.Observations`)."""
        from ..model.knock import knock_refusal

        if not isinstance(knowledge, Knowledge):
            raise AnalysisError(f"Position.of needs a Knowledge (see Knowledge.of), not {shown(knowledge)}")
        if observations is not None:
            from ..model.opponents import Observations as _Observations

            if not isinstance(observations, _Observations) or len(observations.turns) != knowledge.opponents:
                raise AnalysisError(f"observations={shown(observations)} is not allowed: Observations of the "
                                    f"{knowledge.opponents} opponents")
            if opponent_turns is None:
                opponent_turns = observations.turns
        turns = tuple(opponent_turns) if opponent_turns is not None else (0,) * knowledge.opponents
        if len(turns) != knowledge.opponents or not all(type(t) is int and 0 <= t <= 999 for t in turns):
            raise AnalysisError(f"opponent_turns={shown(opponent_turns)} is not allowed: give one whole number "
                                f"0 to 999 for each of the {knowledge.opponents} opponents")
        if type(final) is not bool:
            raise AnalysisError(f"final={shown(final)} is not allowed: use True or False")
        k = knowledge
        kinds: set[ActionKind] = set()
        if len(k.hand) == 4:
            kinds.add(ActionKind.DISCARD)
        elif blitz_of(k.hand, k.rules) and not k.undeclared_31:
            kinds.add(ActionKind.DECLARE)
            if k.rules.declare == "manual":
                kinds.add(ActionKind.PASS)
        else:
            stock = k.stock_size is None or k.stock_size > 0
            if stock:
                kinds.add(ActionKind.DRAW)
            if k.top is not None:
                kinds.add(ActionKind.TAKE)
            if not stock:
                kinds.add(ActionKind.PASS)
            elif not final and knock_refusal(k) is None:
                kinds.add(ActionKind.KNOCK)
        return cls(k, frozenset(kinds), turns, final, None, frozenset(), observations)

    @property
    def seats(self) -> Standing:
        """The standings the valuation reads (:attr:`standing`, or a game's first hand)."""
        if self.standing is not None:
            return self.standing
        return Standing.fresh(self.knowledge.rules, self.knowledge.opponents)

    def strong(self) -> tuple[float, ...]:
        """Each opponent's chance of being a strong player (a position from a view): 0 or 1
        for a seat the table announced as a ``tip``, ``expert`` or ``master`` player
        (:data:`~scatlab.analysis.model.opponents.ANNOUNCED_KINDS`), else as the opponent
        model has learned it from the hands shown earlier in the game; even odds before any
        hand was shown, and for a position typed in."""
        memo = self.__dict__.get("_strong")
        if memo is not None:
            return memo  # type: ignore[no-any-return]
        out: tuple[float, ...] = (0.5,) * self.knowledge.opponents
        if self.view is not None and (self.view.past_hands or self.view.seats):
            from ..model.opponents import kind_odds

            odds = kind_odds(self.view)
            if odds is not None:
                out = tuple(o[1] for o in odds)
        object.__setattr__(self, "_strong", out)
        return out

    def observed(self) -> Observations:
        """What the opponents were seen to do, as the opponent model reads it."""
        from ..model.opponents import Observations as _Observations

        if self.observations is not None:
            return self.observations
        if self.view is not None:
            memo = self.__dict__.get("_observed")
            if memo is None:
                memo = _Observations.from_view(self.view, knock_rules=False)
                object.__setattr__(self, "_observed", memo)
            return memo
        n = self.knowledge.opponents
        return _Observations(self.opponent_turns, ((),) * n)


# -- the one scale -----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Scale:
    """The one scale at a position: the chance of winning the game (the game model) and how
    a way of playing on maps onto it (the hand model)."""

    game: GameModel
    hand: HandModel
    lose: float  # the chance of winning once this hand cost the player
    other: float  # ... once it cost one other player
    sure31: float  # ... once it cost every other player (a 31 declared at once; V14: a knock that stands)
    loss_plain: list[float]
    loss_fed: list[float]
    sweep: list[float]
    last_turn: list[float]

    def level(self, loss: float, sweep: float = 0.0) -> float:
        """The chance of winning of playing on with the chances ``loss`` of losing this hand
        and ``sweep`` of costing every other player."""
        return self.other + loss * (self.lose - self.other) + sweep * (self.sure31 - self.other)

    def row_level(self, row: int, fed: bool) -> tuple[float, float]:
        """(chance of winning, chance of losing) of keeping the hand of ``row`` and playing on."""
        q = (self.loss_fed if fed else self.loss_plain)[row]
        return self.level(q, self.sweep[row]), q


@lru_cache(maxsize=1024)
def _scale_for(seats: Standing, strong: tuple[float, ...], turns: float) -> _Scale:
    game = GameModel.of(seats, strong)
    lose, other, sweep = game.play_on()
    n = len(seats.opponents)
    s = round(sum(strong) / len(strong), 2) if strong else 0.5
    scoring = scoring_rules(seats.rules)
    family = family_of(seats.rules)  # the scoring rules keep no way of keeping score: the game's own numbers
    plain, fed, swept = loss_by_row(scoring, n, turns, s, family)
    return _Scale(game, game.model, lose, other, sweep, plain, fed, swept,
                  last_turn_by_value(scoring, n, turns, s, family))


def _scale(position: Position) -> _Scale:
    turns = position.opponent_turns
    mean_turns = round(sum(turns) / len(turns), 2) if turns else 0.0
    return _scale_for(position.seats, position.strong(), mean_turns)


def _last_turn_scale(position: Position, scale: _Scale) -> tuple[float, float, float]:
    """``(lose, other, sure31)`` of a last turn after a knock (or a bus stop): the chance of
    winning once the showdown cost the player, once it did not (then the knocker, strictly
    lowest, loses ``knocker_lowest_loses`` (C7, V8) or, with more players, the lowest of
    the others one, taken as even odds; under V14 the knocker a letter), and after a 31
    declared now (C8: every other player one life; V9: the knocker two). Without a known
    knocker (C11, the stock gone): the scale of playing on."""
    view = position.view
    rules = position.knowledge.rules
    knocker = view.knocker if view is not None else None
    if knocker is None or rules.score_keeping == "points" or knocker not in position.seats.opponents:
        return scale.lose, scale.other, scale.sure31
    g = scale.game
    others = [s for s in position.seats.opponents if s != knocker]
    if rules.score_keeping == "gin":
        other = g.after({knocker: 1})
    else:
        caught = g.after({knocker: rules.knocker_lowest_loses})
        other = caught if not others else 0.5 * caught + 0.5 * sum(g.after({s: 1}) for s in others) / len(others)
    blitz = {s: 1 for s in position.seats.opponents}
    if rules.thirty_one_after_knock == "knocker_two":
        blitz[knocker] = 2
    return scale.lose, other, g.after(blitz)


# -- ending the hand ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Ending:
    """The engine's estimate of ending the hand now: the knock model's outcome, its chance
    of winning the game, and its chances of losing one and two lives (exact counts against
    one opponent with lives kept, else the estimate's).

    Where the exact count gives the figures, the knock model's outcome is only read for the
    words of a reason (the knock is the first move): it is then worked out on first reading
    (``outcome`` given as a function), with the same numbers."""

    pending: KnockOutcome | Callable[[], KnockOutcome] = field(repr=False, compare=False)
    win: float
    p_one: float
    p_two: float
    exact: tuple[Fraction, Fraction] | None

    @property
    def outcome(self) -> KnockOutcome:
        """The knock model's outcome (:meth:`KnockValuation.outcome`)."""
        if not isinstance(self.pending, KnockOutcome):
            object.__setattr__(self, "pending", self.pending())
        assert isinstance(self.pending, KnockOutcome)
        return self.pending

    @property
    def loss(self) -> float:
        """The chance that ending the hand costs the player a life (a letter; under V16: does not score)."""
        return self.p_one + self.p_two


def _ending(position: Position, style: Style, model: _Model, strength: int, extra_turn: bool,
            hand: tuple[Card, ...] | None, scale: _Scale) -> _Ending:
    """Value ending the hand with a hand of table strength ``strength``: against opponents
    pictured by the adaptive model, each with one last turn (``extra_turn``, a knock) or none
    (a hammer, a bus stop, judged on the three cards ``hand`` kept), each outcome by the game
    model's chance of winning."""
    from ..model.opponents import final_value_distribution

    k = position.knowledge
    if hand is not None:  # a bus stop: judged on the three cards kept
        k = Knowledge(hand=hand, top=None, dead=k.dead, opponent_holds=k.opponent_holds, opponents=k.opponents,
                      rules=k.rules)
    observations = position.observed()

    def outcome() -> KnockOutcome:
        dists = [final_value_distribution(k, observations, i, extra_turn) for i in range(k.opponents)]
        return style.valuation.outcome(position.seats, dists, strength >> RANK_BITS, scale.game)

    exact = _exact_knock(position) if extra_turn and hand is None else None
    if exact is not None:  # the exact count is the figure shown: the chance of winning reads it
        p_one, p_two = float(exact[0]), float(exact[1])
        me, opp = position.seats.player, position.seats.opponents[0]
        g = scale.game
        win = p_one * g.after({me: 1}) + p_two * g.after({me: 2}) + (1 - p_one - p_two) * g.after({opp: 1})
        return _Ending(outcome, win, p_one, p_two, exact)  # the outcome, for a reason's words only: when read
    out = outcome()
    return _Ending(out, scale.game.now + out.gain, out.p_one, out.p_two, None)


def _exact_knock(position: Position) -> tuple[Fraction, Fraction] | None:
    """A knock's chances of losing one and two lives, counted exactly by
    :func:`~scatlab.analysis.model.knock.knock_risk` (the adaptive model, with what was seen of
    the opponent), where that count is exact and means lives: one opponent, lives kept (C7,
    C13; the bus, V15). Elsewhere None: the figures stay the engine's estimates. So the
    advice, the hints, the lessons and ``scatlab analyze`` read one figure for a heads-up knock."""
    k = position.knowledge
    if k.opponents != 1 or len(k.hand) != 3 or k.rules.score_keeping not in ("lives", "bus"):
        return None
    from ..model.knock import knock_risk

    risk = knock_risk(k, opponent_model="adaptive", observations=position.observed())
    if not risk.exact:
        return None
    return risk.p_lose_one, risk.p_lose_two


# -- the decision ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """The engine's first move at a position: the ``action``, for a take the card ``then``
    thrown, and the ``reason`` in the ``expert``'s words (it names only the player's own
    cards)."""

    action: Action
    reason: str
    then: Card | None = None
    win: float = 0.0
    """The move's estimated chance of winning the game (:attr:`RankedMove.win`, unrounded)."""


@dataclass
class _Option:
    """A legal move being weighed: its chance of winning, the chance it costs a life this
    hand, the exact value figure shown beside it, and what it plans."""

    action: Action
    win: float
    loss: float
    value: Fraction | None = None
    sure_31: bool = False
    then: Card | None = None
    taken: Card | None = None
    ending: _Ending | None = None
    kept: tuple[Card, ...] | None = None


def decide(position: Position | PlayerView, style: Style = EXPERT) -> Choice:
    """The engine's first move at ``position`` (a :class:`Position`, or a view whose player
    is to move), by the module doc's rule: the first move of :func:`rank`.

    >>> from scatlab.rules import GameState, deal_order
    >>> s = GameState.new("classic", 2).deal(deal_order(["AH KH 4C", "2S 3S 9H"], up="QH"))
    >>> decide(s.view(1)).action                                    # QH into 2S 3S 9H? no: take
    Action(kind=<ActionKind.TAKE: 'take'>, card=None)
    """
    p = _position(position)
    options = _options(p, style)
    best = _ordered(options, p)[0]
    return Choice(best.action, _reason(best, options, p, style), best.then, best.win)


def _position(position: Position | PlayerView) -> Position:
    if isinstance(position, PlayerView):
        return Position.from_view(position)
    if not isinstance(position, Position):
        raise AnalysisError(f"rank needs a Position or a PlayerView, not {shown(position)}")
    return position


def _stock_gone(position: Position) -> bool:
    k = position.knowledge
    return len(k.hand) == 3 and ActionKind.DRAW not in position.kinds and ActionKind.PASS in position.kinds


def _ordered(options: list[_Option], position: Position) -> list[_Option]:
    """Best first: by the chance of winning, then by the order of the module doc's rule 1,
    then (two throws alike) by the value shown."""
    order = dict(_ORDER)
    if _stock_gone(position):  # C11: a hand of takers ends
        order[ActionKind.PASS] = 0
    return sorted(options, key=lambda o: (-o.win, order[o.action.kind], -(o.value or 0), str(o.action)))


def _options(position: Position, style: Style) -> list[_Option]:
    """Every legal move of ``position`` with its figures (the module doc's rule)."""
    k = position.knowledge
    kinds = position.kinds
    model = _model_for(k.rules, style.horizon)
    tables = model.tables
    scale = _scale(position)
    final = position.final or _stock_gone(position)
    options: list[_Option] = []
    fed_suits = position.next_collects if not position.final else frozenset()
    last_lose, last_other, last_31 = _last_turn_scale(position, scale) if final else (0.0, 0.0, 0.0)
    sure31 = last_31 if final else scale.sure31

    def last(q: float) -> float:
        """The chance of winning of a last turn ending with the chance ``q`` of losing."""
        return last_other + q * (last_lose - last_other)

    def kept_option(cards: Sequence[Card], thrown: Card | None) -> tuple[float, float, bool, int]:
        """(win, loss, sure 31, row) of keeping ``cards`` having thrown ``thrown``."""
        idx = sorted(c.index for c in cards)
        row = tables.row(idx)
        v2 = model.value2[row]
        if v2 >= BLITZ2:
            return sure31, 0.0, True, row
        if final:
            q = scale.last_turn[v2]
            return last(q), q, False, row
        win, q = scale.row_level(row, thrown is not None and thrown.suit in fed_suits)
        return win, q, False, row

    def shown_value(row: int) -> Fraction:
        return Fraction(model.value2[row], 2) if final else Fraction(model.future[row], model.scale)

    if ActionKind.DECLARE in kinds:
        options.append(_Option(Action.DECLARE, scale.sure31, 0.0, k.value, True))
        if ActionKind.PASS in kinds:  # C10: a 31 not declared at once counts 30
            turns = sum(position.opponent_turns) / max(1, len(position.opponent_turns))
            strong = sum(position.strong()) / max(1, len(position.strong()))
            q = scale.hand.loss(30.0, 30.0, turns, strong)
            options.append(_Option(Action.PASS, scale.level(q, scale.hand.sweep_chance(30.0, 30.0, turns, strong)), q,
                                   Fraction(30)))
        return options
    if len(k.hand) == 4:
        four = k.hand
        for out in four:
            if out is k.taken:
                continue
            three = tuple(c for c in four if c is not out)
            win, q, sure, r = kept_option(three, out)
            options.append(_Option(Action.discard(out), win, q, Fraction(model.value2[r], 2) if (final or sure)
                                   else shown_value(r), sure, kept=three))
        if ActionKind.STOP_BUS in kinds:
            drawn = k.taken if k.taken is not None else four[-1]
            held = tuple(c for c in four if c is not drawn)
            stop = throw_choice(k.rules, LAST_THROW, (held[0], held[1], held[2]), drawn, taken=k.taken is not None)
            shown = tuple(c for c in four if c is not stop.first)
            strength = tables.strength_of(sorted(c.index for c in shown))
            ending = _ending(position, style, model, strength, False, shown, scale)
            options.append(_Option(Action.STOP_BUS, ending.win, ending.loss, None, ending=ending, kept=shown))
        return options
    hand = k.hand
    idx = sorted(c.index for c in hand)
    row = tables.row(idx)
    top = k.top
    if ActionKind.TAKE in kinds and top is not None:
        best_take: tuple[float, float, bool, int, Card] | None = None
        for out in hand:
            cards = [c for c in hand if c is not out] + [top]
            win, q, sure, r = kept_option(cards, out)
            if best_take is None or win > best_take[0] or (win == best_take[0] and not final
                                                           and model.future[r] > model.future[best_take[3]]):
                best_take = (win, q, sure, r, out)
        assert best_take is not None
        win, q, sure, r, out = best_take
        if _stock_gone(position):  # C11: only the hand now counts; passing ends the hand
            win, q = last(scale.last_turn[model.value2[r]]), scale.last_turn[model.value2[r]]
        options.append(_Option(Action.TAKE, win, q, shown_value(r) if not sure else Fraction(model.value2[r], 2),
                               sure, out, top))
    unseen = k.unseen_index
    if ActionKind.DRAW in kinds and unseen:
        a, b, c = idx
        ca, cb, cc = (next(x for x in hand if x.index == i) for i in (a, b, c))
        rl = tables.row_list
        pairs = tuple(zip(pair_indices(a, b, c), (ca, cb, cc)))
        keep_win, keep_q, keep_sure, _ = (sure31, 0.0, True, row) if model.value2[row] >= BLITZ2 else \
            kept_option(hand, None)
        win_total = 0.0
        q_total = 0.0
        value_total = 0
        sure_count = 0
        suits = fed_suits
        plain, fedl, v2l, lastq, lvl = scale.loss_plain, scale.loss_fed, model.value2, scale.last_turn, scale.level
        swept = scale.sweep
        fut = model.future
        for d in unseen:
            d_suit = _SUITS[d // 13] if suits else None
            # keep the hand, throwing the card drawn
            if keep_sure:
                best_w, best_q, best_sure = keep_win, keep_q, True
            elif final:
                best_q = lastq[v2l[row]]
                best_w, best_sure = last(best_q), False
            else:
                best_q = (fedl if d_suit in suits else plain)[row]
                best_w, best_sure = lvl(best_q, swept[row]), False
            best_val = v2l[row] if final else fut[row]
            for base, out in pairs:
                r = rl[base + d]
                v2 = v2l[r]
                if v2 >= BLITZ2:
                    w, q, sure = sure31, 0.0, True
                elif final:
                    q = lastq[v2]
                    w, sure = last(q), False
                else:
                    q = (fedl if out.suit in suits else plain)[r]
                    w, sure = lvl(q, swept[r]), False
                val = v2 if final else fut[r]
                if w > best_w or (w == best_w and val > best_val):
                    best_w, best_q, best_sure, best_val = w, q, sure, val
            win_total += best_w
            q_total += best_q
            value_total += best_val
            sure_count += best_sure
        n = len(unseen)
        value = Fraction(value_total, 2 * n) if final else Fraction(value_total, n * model.scale)
        options.append(_Option(Action.DRAW, win_total / n, q_total / n, value, sure_count == n))
    if ActionKind.PASS in kinds:
        v2 = 60 if k.undeclared_31 else model.value2[row]
        if final:
            q = scale.last_turn[v2]
            win = last(q)
        else:
            win, q = scale.row_level(row, False)
        options.append(_Option(Action.PASS, win, q, Fraction(v2, 2) if final else shown_value(row)))
    for kind in (ActionKind.HAMMER, ActionKind.KNOCK):
        if kind in kinds:
            ending = _ending(position, style, model, tables.strength_of(idx), kind is ActionKind.KNOCK, None, scale)
            options.append(_Option(Action(kind), ending.win, ending.loss, None, ending=ending))
    if not options:
        raise AnalysisError("there is no move to rank in this position")
    return options


def _reason(best: _Option, options: list[_Option], position: Position, style: Style) -> str:
    """Why the first move, in the ``expert``'s words: its chance of winning the game against
    the next best's."""
    k = position.knowledge
    kind = best.action.kind
    others = [o for o in _ordered(options, position) if o is not best]
    best_win = _estimate(best.win)
    close = [o for o in others if best_win - _estimate(o.win) < CLOSE_CALL]
    said = [best, *(close or others[:1])]
    levels = ", ".join(f"{win_level(o.win)} if it {_option_verb(o, k)}" for o in said)
    chance = (f"its chance of winning the game: {win_level(_scale(position).game.now)} now; {levels}"
              + (" (a close call)" if close else ""))
    if kind is ActionKind.DECLARE:
        return "declares 31 at once (C8)"
    if best.sure_31 and kind is ActionKind.TAKE:
        return f"takes the {k.top} and will throw the {best.then}: the three it keeps make 31"
    if best.sure_31 and kind is ActionKind.DISCARD:
        return f"throws the {best.action.card}: the other three make 31"
    if kind in _ENDING:
        assert best.ending is not None
        verb = {ActionKind.KNOCK: "knocks", ActionKind.HAMMER: "calls a hammer",
                ActionKind.STOP_BUS: "stops the bus"}[kind]
        value = k.value if best.kept is None else Fraction(
            _model_for(k.rules).tables.strength_of(sorted(c.index for c in best.kept)) >> RANK_BITS, 2)
        return f"{verb} with {value}: {best.ending.outcome.phrase}; {chance}"
    if kind is ActionKind.TAKE and _stock_gone(position):
        return f"takes the {k.top} with the stock gone: it raises the hand (C11); {chance}"
    if kind is ActionKind.PASS and _stock_gone(position):
        return "passes: the stock is gone and the discard does not raise the hand (C11)"
    if kind is ActionKind.TAKE:
        return f"takes the {k.top} and will throw the {best.then}: {chance}"
    if kind is ActionKind.DRAW:
        return f"draws: {chance}"
    if kind is ActionKind.DISCARD:
        card = best.action.card
        kept = " ".join(str(c) for c in k.hand if c is not card)
        return f"throws the {card}, keeping {kept}: {chance}"
    return f"{kind.value}: {chance}"


def _option_verb(o: _Option, k: Knowledge) -> str:
    """A move as the reason says it after "if it": ``"draws"``, ``"takes the QH (throwing the 4C)"``."""
    kind = o.action.kind
    if kind is ActionKind.TAKE:
        return f"takes the {k.top}" + (f" (throwing the {o.then})" if o.then is not None else "")
    if kind is ActionKind.DISCARD:
        return f"throws the {o.action.card}"
    return {ActionKind.DRAW: "draws", ActionKind.KNOCK: "knocks", ActionKind.HAMMER: "calls a hammer",
            ActionKind.STOP_BUS: "stops the bus", ActionKind.PASS: "passes", ActionKind.DECLARE: "declares"}[kind]


# -- the ranking -------------------------------------------------------------------------------


@dataclass(frozen=True)
class RankedMove:
    """One legal move with its figures.

    ``win``: the estimated chance of winning the game if the player makes this move (and
    plays on as the engine advises), the figure the engine decides by; ``loss``: the
    estimated chance that the move costs the player a life (a letter, a bus step; under V16:
    that it does not score) this hand; ``value``: the exact expected hand value
    :attr:`Ranking.horizon` turns ahead (the hand now on a last turn; None for a move that
    ends the hand); ``close``: a close call with the best move (:data:`CLOSE_CALL`);
    ``sure_31``: the move makes a 31 declared at once; for a take the card ``then`` thrown
    and the card ``taken``; for an end of the hand ``lives``, ``p_one`` and ``p_two``, the
    expected lives lost and the chances of losing exactly one and two (``lives = p_one + 2 *
    p_two``): exact counts for a knock against one opponent with lives kept
    (:attr:`exact_risk`), the knock model's estimates elsewhere."""

    action: Action
    value: Fraction | None
    lives: Fraction | None
    sure_31: bool = False
    then: Card | None = None
    p_one: Fraction | None = None
    p_two: Fraction | None = None
    taken: Card | None = None
    win: Fraction = _ZERO
    """The estimated chance of winning the game (a probability, e.g. 37/100)."""
    exact_risk: bool = False
    """``p_one``, ``p_two`` and ``lives`` of an end of the hand are exact counts (a knock
    against one opponent, lives kept), not the engine's estimates."""
    loss: Fraction = _ZERO
    """The estimated chance that this move costs the player a life this hand."""
    close: bool = False
    """Within :data:`CLOSE_CALL` of the best move's chance of winning (the best move itself: False)."""

    @property
    def name(self) -> str:
        """``"draw"``, ``"take"``, ``"knock"``, ``"discard 8H"``, ... (the action's text)."""
        return str(self.action)

    @property
    def ends_hand(self) -> bool:
        """A knock, a hammer (V10) or a bus stop (V19): the player ends the hand by choice."""
        return self.action.kind in _ENDING

    def to_json(self) -> dict[str, object]:
        """The move and its figures as JSON-ready data (fractions as strings)."""
        data: dict[str, object] = {"move": self.name, "win": str(self.win), "loss": str(self.loss)}
        if self.then is not None:
            data["then_throw"] = str(self.then)
        if self.value is not None:
            data["value"] = str(self.value)
        if self.lives is not None:
            data["expected_loss"] = str(self.lives)
        if self.close:
            data["close_call"] = True
        if self.sure_31:
            data["sure_31"] = True
        return data

    def label(self) -> str:
        """The move in words, with suit symbols: ``"take the A♥ (throw the 8♥)"``."""
        kind = self.action.kind
        if kind is ActionKind.TAKE:
            taken = f" the {self.taken.pretty}" if self.taken is not None else ""
            return f"take{taken}" + (f" (throw the {self.then.pretty})" if self.then is not None else "")
        if kind is ActionKind.DISCARD and self.action.card is not None:
            return f"throw the {self.action.card.pretty}"
        words = {ActionKind.HAMMER: "hammer (V10)", ActionKind.STOP_BUS: "stop the bus (V19)", ActionKind.PASS: "pass"}
        return words.get(kind, str(kind.value))


@dataclass(frozen=True)
class Ranking:
    """Every legal move of a :class:`Position`, best first (see the module doc's rule)."""

    position: Position
    moves: tuple[RankedMove, ...]
    horizon: int
    """Turns ahead the value figures look (:data:`HORIZON`, or 0 on a last turn / with the stock gone)."""
    unit: str
    """The unit of the lives figures: lives, letters (V14) or points (V16)."""
    reason: str = ""
    """Why the first move, in the ``expert``'s words (:attr:`Choice.reason`)."""
    now: Fraction = _ZERO
    """The estimated chance of winning the game from the standings, before this hand is
    played out (the game model): the level the moves' figures move it from."""

    @property
    def ahead(self) -> str:
        """When the value figures are counted, in words: ``"five turns ahead"`` or ``"now"``."""
        if self.horizon == 0:
            return "now"
        words = ("", "one", "two", "three", "four", "five", "six", "seven", "eight")
        return f"{words[self.horizon]} turn{'s' if self.horizon != 1 else ''} ahead"

    @property
    def best(self) -> RankedMove:
        return self.moves[0]

    @property
    def close_calls(self) -> tuple[RankedMove, ...]:
        """The moves that are a close call with the best (:attr:`RankedMove.close`)."""
        return tuple(m for m in self.moves if m.close)

    @property
    def play_on(self) -> RankedMove | None:
        """The best way of playing on where the position has a move that ends the hand (else None)."""
        if not any(m.ends_hand for m in self.moves):
            return None
        return next((m for m in self.moves if not m.ends_hand), None)

    @property
    def play_on_win(self) -> Fraction | None:
        """The chance of winning the game of the best way of playing on, where the position
        has a move that ends the hand (None elsewhere)."""
        on = self.play_on
        return on.win if on is not None else None

    @property
    def play_on_lives(self) -> Fraction | None:
        """The chance that the best way of playing on costs a life this hand, where the
        position has a move that ends the hand (None elsewhere)."""
        on = self.play_on
        return on.loss if on is not None else None

    def to_json(self) -> dict[str, object]:
        """The ranking as JSON-ready data: the chance of winning now, the moves best first,
        the horizon of their values and the unit of their expected losses.

        >>> from scatlab.analysis.counting.knowledge import Knowledge
        >>> rank(Position.of(Knowledge.of("10H 8H JH", "AH", opponents=2))).to_json()["moves"][0]["move"]
        'take'
        """
        return {"win_now": str(self.now), "horizon": self.horizon, "unit": self.unit,
                "close_call_width": str(CLOSE_CALL), "moves": [m.to_json() for m in self.moves]}

    def move(self, action: Action | str) -> RankedMove:
        """The ranked move of ``action`` (a take matches whatever it then throws)."""
        act = action if isinstance(action, Action) else Action.parse(action)
        for m in self.moves:
            if m.action == act:
                return m
        raise AnalysisError(f"{str(act)!r} is not a legal move here: legal are "
                            f"{', '.join(m.name for m in self.moves)}")

    def scale_of(self, action: Action | str) -> Scale:
        """The scale a choice between the best move and ``action`` is made on: always the
        chance of winning the game (``"win"``; kept for readers of the value scale)."""
        self.move(action)
        return "win"

    def cost(self, action: Action | str) -> Fraction:
        """How much lower ``action``'s chance of winning the game is than the best move's,
        never negative (estimated); 0 for a close call."""
        m = self.move(action)
        if m is self.best or m.close:
            return _ZERO
        return max(self.best.win - m.win, _ZERO)


def rank(position: Position | PlayerView, style: Style = EXPERT) -> Ranking:
    """Rank every legal move of ``position`` (a :class:`Position`, or a view whose player
    is to move), best first, by the module doc's rule: by the chance of winning the game.
    Draw odds and hand values are exact; the chances are the models' estimates (see the
    module doc).

    >>> from scatlab.rules import GameState, deal_order
    >>> s = GameState.new("classic", 2).deal(deal_order(["2S 3S 9D", "AH KH 4C"], up="QH"))
    >>> r = rank(s.view(1))                  # taking the Q-heart makes 31
    >>> r.best.name, r.best.then, r.best.value
    ('take', Card('4C'), Fraction(31, 1))
    """
    return _rank(_position(position), style)


@lru_cache(maxsize=256)
def _rank(position: Position, style: Style) -> Ranking:
    """:func:`rank`, remembered for the last positions (the hints and then the review of
    the same game rank the same positions)."""
    return _rank_options(position, _options(position, style), style)


def _rank_options(position: Position, unordered: list[_Option], style: Style = EXPERT) -> Ranking:
    """The ranking of ``position`` from its moves' figures: best first, close calls marked."""
    options = _ordered(unordered, position)
    best = options[0]
    reason = _reason(best, options, position, style)
    k = position.knowledge
    final = position.final or _stock_gone(position)
    horizon = 0 if final else style.horizon
    best_win = _estimate(best.win)
    moves: list[RankedMove] = []
    for o in options:
        win = _estimate(o.win)
        close = o is not best and best_win - win < CLOSE_CALL
        if o.ending is not None:
            e = o.ending
            if e.exact is not None:
                p_one, p_two = e.exact
            else:
                p_one, p_two = _estimate(e.p_one), _estimate(e.p_two)
            moves.append(RankedMove(o.action, None, p_one + 2 * p_two, False, None, p_one, p_two, win=win,
                                    exact_risk=e.exact is not None, loss=p_one + p_two, close=close))
        else:
            moves.append(RankedMove(o.action, o.value, None, o.sure_31, o.then, taken=o.taken, win=win,
                                    loss=_estimate(o.loss), close=close))
    now = _estimate(_scale(position).game.now)
    return Ranking(position, tuple(moves), horizon, lives_unit(k.rules), reason, now)


# -- the knock line ----------------------------------------------------------------------------


@dataclass(frozen=True)
class KnockLine:
    """The engine's knock line at the start of a turn, per hand value, against
    ``opponents`` opponents who have each completed ``turns`` turns, with ``lives`` lives
    left for every player (a game's standings, or the game's first hand), opponents of
    unknown kind (even odds): for each value, the knock's chances of losing a life and of
    winning the game, and playing on's (drawing, averaged over every hand of that value).
    ``line`` is the lowest value from which every higher value knocks (knocking's chance of
    winning the game above playing on's; None if none). A rule of thumb: the advice for an
    exact hand also reads the cards seen and what each opponent did."""

    rules: RuleSet
    opponents: int
    turns: int
    lives: int
    rows: tuple[tuple[Fraction, Fraction, Fraction, Fraction, Fraction, bool], ...]
    """(value, knock's chance of losing a life, knock's chance of winning the game, playing
    on's chance of losing a life, playing on's chance of winning the game, knocks), by value
    from 15 up."""
    line: Fraction | None
    now: Fraction = _ZERO
    """The chance of winning the game from the standings (every seat with ``lives``)."""


@lru_cache(maxsize=128)
def _knock_line(rules: RuleSet, opponents: int, turns: int, lives: int) -> KnockLine:
    from ..model.opponents import MAX_TURNS as CHAIN_TURNS, turn_priors, value_after_last_turn

    style = EXPERT
    valuation = style.valuation
    model = _model_for(rules)
    tables = model.tables
    n = opponents + 1
    seats = Standing(rules, 0, n, tuple(range(1, n)), (lives,) * n, (0,) * n, (False,) * n)
    scale = _scale_for(seats, (0.5,) * opponents, float(turns))
    w = turn_priors(rules)[min(turns, CHAIN_TURNS)]
    w = w / w.sum()
    # heads-up the top discard is the opponent's own throw: it only draws; with more, each
    # sees a card it has not seen (a throw) and takes it if it raises the hand, else draws
    dist = value_after_last_turn(rules, w, None, top_unseen=opponents > 1)
    dists = [dist] * opponents
    on_win, on_loss = draw_level_by_row(scoring_rules(rules), opponents, float(turns), 0.5, scale.lose, scale.other,
                                        scale.sure31, family_of(rules))
    value2 = tables.value2
    rows: list[tuple[Fraction, Fraction, Fraction, Fraction, Fraction, bool]] = []
    for v2 in range(30, BLITZ2):
        in_value = value2 == v2
        if not in_value.any():
            continue
        on = float(on_win[in_value].mean())
        q_on = float(on_loss[in_value].mean())
        out = valuation.outcome(seats, dists, v2, scale.game)
        knock_win = scale.game.now + out.gain
        rows.append((Fraction(v2, 2), _estimate(out.p_one + out.p_two), _estimate(knock_win), _estimate(q_on),
                     _estimate(on), knock_win > on))
    line = None
    for row_ in reversed(rows):
        if row_[5]:
            line = row_[0]
        else:
            break
    return KnockLine(rules, opponents, turns, lives, tuple(rows), line, _estimate(scale.game.now))


def knock_line(rules: RuleSet | str = "classic", opponents: int = 1, turns: int = 0,
               lives: int | None = None) -> KnockLine:
    """The engine's knock line (see :class:`KnockLine`): from which hand value the engine
    knocks against ``opponents`` (1 to 8) opponents who have each played ``turns`` (0 to
    :data:`~scatlab.analysis.model.valuation.MAX_TURNS`) turns, every player with ``lives`` lives
    left (default: the rules' lives at the start).

    >>> line = knock_line("classic", opponents=1, turns=0)
    >>> all(knocks == (kw > ow) for _v, _k, kw, _o, ow, knocks in line.rows)  # the higher chance decides
    True
    >>> line.line is None or line.rows[-1][5]  # a line: the top value knocks
    True
    """
    ruleset = find_rules(rules)
    if type(opponents) is not int or not 1 <= opponents <= 8:
        raise AnalysisError(f"opponents={shown(opponents)} is not allowed: use a whole number 1 to 8")
    if type(turns) is not int or not 0 <= turns <= MAX_TURNS:
        raise AnalysisError(f"turns={shown(turns)} is not allowed: use a whole number 0 to {MAX_TURNS}")
    if lives is None:
        lives = ruleset.lives
    if type(lives) is not int or not 1 <= lives <= 99:
        raise AnalysisError(f"lives={shown(lives)} is not allowed: use a whole number 1 to 99")
    return _knock_line(ruleset, opponents, turns, lives)
