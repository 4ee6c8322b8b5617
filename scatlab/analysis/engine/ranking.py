"""The decision engine: one ranking of the moves at a position, the strongest play scatlab
knows. The advice, the table's hints, the review, the practice puzzles, ``scatlab
analyze``, lesson 3's knock line and the ``expert`` player all read it, so "follow the
hints" and "play like the expert" are the same thing.

:func:`rank` lists every legal move of a position, best first, with its figures;
:func:`decide` finds the first move alone, doing only the work that move needs (the
``expert`` plays by it; a test checks at every decision of seeded games under every preset
that it is ``rank(view).best``). **The rule** (each part tested by name in
``tests/test_ranking.py``):

1. **A 31 is declared** (C8, C9), and a move that makes a 31 declared at once with
   certainty (taking a discard into it, keeping it with the discard) comes first among the
   ways of playing on.
2. **Ending the hand** (a knock, C6; a hammer, V10; stopping the bus, V19) **is judged on
   the scale the game is won on**: the expected change in the player's chance of winning
   the game. The engine ends the hand when its estimated change beats that of playing on by
   a margin (:attr:`KnockValuation.margin`, 6 points against two opponents, scaled by the
   number of opponents / 2), or when it costs at most ``knock_risk / players`` expected lives
   (less on the last life) and does not lower the chance of winning. It never does when a
   quick screen under the simple turn model calls it hopeless (lowest with a chance over
   30%; under V14 or V16 highest or tied with a chance under 30%).
3. **Ways of playing on are weighed by expected hand value** :data:`HORIZON` (5) own turns
   ahead (the exact horizon tables of :mod:`!scatlab.analysis.counting.horizon`): drawing is worth the
   average over every unseen card of the best hand it can keep, taking the best hand the
   discard makes; on a tie it takes. A throw keeps the three cards worth most, but **does
   not feed the next player**: it does not throw a card of a suit the next player took from
   the pile when another throw gives up at most :data:`FEED_MARGIN` (2) points five turns
   ahead. On a last turn (someone knocked, the bus was stopped) only the hand now counts; with
   the stock gone (C11) it takes only a card that raises the hand now, else passes.

**The model and its assumptions** (stated in full in ``docs/design/engine.md``):

- **Standing.** The chance of winning the game is ``P(win) = s_me / sum of s`` over the
  players still in, ``s`` the lives left (the county counting as one; letters under V14; bus
  positions under V15) or ``exp(points / 4)`` under V16 (:class:`KnockValuation`). So an
  opponent's lost life is worth something, the player's own last life more than its first,
  and under V14 a knock that stands (a letter to every opponent) is worth several.
- **Opponents** are pictured by the adaptive opponent model
  (:mod:`scatlab.analysis.model.opponents`): dealt hands improved by the turns each has played,
  less likely where a card they threw or passed over would have helped, each opponent a
  casual (``tip``-like) or a strong (``expert``-like) player in odds learned from the hands
  shown earlier; with the game's log (a position from a view) every turn is followed in
  order, from typed-in facts (``Position.of``) the turns played and the cards rejected.
  Opponents are independent.
- **Ending the hand** gives each opponent one last turn (none after a hammer or a bus
  stop): take the top discard if it makes a stronger hand, else draw any card not in the
  hand nor on the discard pile and keep the best three; then the showdown under the rule
  set (C7, V7, V8, V9, V14, V16) gives the chance of every outcome. The next player sees
  the top discard, every later one the throw of the player before it, pictured as a card
  nobody has seen (two looks at a card that helps).
- **Playing on** is one more draw (keeping the best hand), then a showdown the player did
  not call, against opponents who have had two more turns of the simple turn model; it costs
  the player a life with the chance of being lowest there (or of an opponent's 31), else it
  costs an opponent.
- **What is exact and what is estimated.** Draw odds and expected hand values are exact
  (Fractions from exact counting). The chances of losing one or two lives and the changes
  in the chance of winning the game are model estimates computed in floating point and kept
  as Fractions rounded to a millionth; against one opponent, with lives kept, a knock's
  chances are counted exactly instead (:func:`~scatlab.analysis.model.knock.knock_risk`, the
  adaptive model), so the advice, the hints, lesson 3 and ``scatlab analyze`` read one
  figure. The decision itself reads the estimates. Measured on seeded games
  (``benchmarks/bench_calibration.py``), the lives a knock is predicted to cost track the
  lives it cost.

>>> from scatlab.analysis.counting.knowledge import Knowledge
>>> r = rank(Position.of(Knowledge.of("10H 8H JH", discard="AH", opponents=2)))
>>> [m.name for m in r.moves]          # taking the A-heart makes 31: first, never a knock
['take', 'draw', 'knock']
>>> r.best.sure_31, r.move(Action.KNOCK).lives > 0
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
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
from ..counting.tables import BLITZ2, RANK_BITS, Tables, scoring_rules, tables_for
from ..model.valuation import MAX_TURNS, KnockOutcome, KnockValuation, Standing, TurnOdds, turn_odds

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
    "prepare",
]

HORIZON = 5
"""Own turns ahead a way of playing on is valued at."""
FEED_MARGIN = 2.0
"""Points of expected hand value (five turns ahead) a throw gives up not to feed the next player."""

Scale = Literal["value", "win"]
"""The scale a choice is made on: ``"value"``, expected hand value (how to play on);
``"win"``, the chance of winning the game (whether to end the hand)."""

_ZERO = Fraction(0)
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
    """The engine's settings: ``horizon``, own turns ahead a way of playing on is valued
    at (0 to 5); ``feed_margin``, points of that value a throw gives up not to feed the next
    player; ``valuation``, how ending the hand is valued (:class:`KnockValuation`). The
    defaults (:data:`EXPERT`) are the strongest measured (docs/guide/players.md).

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
    """The game's log the observations are read from (a position from a view): part of the
    position's identity, so two positions with other histories never share a ranking."""
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
                   Standing.from_view(view), collects, None, (view.history, view.past_hands), view)

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


# -- ending the hand ---------------------------------------------------------------------------


def nearly_safe(own: Fraction | float, gain: Fraction | float, limit: Fraction | float) -> bool:
    """Rule 2's first way (module doc): ending the hand costs at most ``limit`` expected
    lives (``own``) and does not lower the chance of winning (``gain`` at least 0)."""
    return own <= limit and gain >= 0


def ends_the_hand(own: Fraction | float, gain: Fraction | float, on: Fraction | float, limit: Fraction | float,
                  margin: Fraction | float) -> bool:
    """Rule 2 on an estimate's figures (the quick screen aside): nearly safe, or its change
    in the chance of winning (``gain``) beats playing on's (``on``) by ``margin``."""
    return nearly_safe(own, gain, limit) or gain >= on + margin


@dataclass(frozen=True)
class _Ending:
    """The engine's estimate of ending the hand now against playing on."""

    hopeless: bool
    outcome: KnockOutcome | None  # None when hopeless and not asked for the figures
    on: float  # the expected change in P(win) of playing on
    on_lives: float  # the expected lives playing on costs
    limit: float
    margin: float

    @property
    def chosen(self) -> bool:
        """The rule: end the hand (see the module doc)."""
        if self.hopeless or self.outcome is None:
            return False
        out = self.outcome
        return ends_the_hand(out.own, out.gain, self.on, self.limit, self.margin)

    def why(self, rules: RuleSet) -> str:
        """The reason in the ``expert``'s words."""
        assert self.outcome is not None
        out = self.outcome
        if out.own <= self.limit and out.gain >= 0:
            unit = {"gin": "letters", "points": "points missed"}.get(rules.score_keeping, "lives")
            return f"{out.phrase}; {out.own:.2f} {unit} expected, within the {self.limit:.2f} it accepts"
        return (f"{out.phrase}; the knock changes its chance of winning the game by {win_change(out.gain)}, "
                f"playing on by about {win_change(self.on)}")


def _ending(position: Position, style: Style, model: _Model, strength: int, row: int, extra_turn: bool,
            hand: tuple[Card, ...] | None, figures: bool) -> _Ending:
    """Weigh ending the hand with a hand of table strength ``strength`` (row ``row``):
    against opponents pictured by the adaptive model, each with one last turn
    (``extra_turn``, a knock) or none (a hammer, a bus stop, judged on the three cards
    ``hand`` kept). With ``figures`` False a hopeless end is not estimated further."""
    from ..model.opponents import final_value_distribution

    valuation = style.valuation
    seats = position.seats
    played = position.opponent_turns
    hopeless = valuation.hopeless(seats, model.odds, strength, extra_turn, played)
    limit, margin = valuation.limit(seats), valuation.scaled_margin(seats)
    if hopeless and not figures:  # the rule never ends the hand here: nothing more to weigh
        return _Ending(True, None, 0.0, 0.0, limit, margin)
    k = position.knowledge
    unseen = k.unseen_index
    on_lives = valuation.risk_playing_on(seats, model.odds, row, unseen, played) if unseen else 0.0
    on = valuation.value_of_risk(seats, on_lives) if unseen else 0.0
    if hand is not None:  # a bus stop: judged on the three cards kept
        k = Knowledge(hand=hand, top=None, dead=k.dead, opponent_holds=k.opponent_holds, opponents=k.opponents,
                      rules=k.rules)
    observations = position.observed()
    dists = [final_value_distribution(k, observations, i, extra_turn) for i in range(k.opponents)]
    outcome = valuation.outcome(seats, dists, strength >> RANK_BITS)
    return _Ending(hopeless, outcome, on, on_lives, limit, margin)


def _sure_31_gain(position: Position, style: Style) -> float:
    """The change in P(win) of a 31 declared at once: every opponent loses a life (a
    letter; under V16 the player scores)."""
    seats = position.seats
    valuation = style.valuation
    points = seats.rules.score_keeping == "points"
    base_standing = valuation.standing(seats)
    base = valuation.p_win(base_standing, seats.player, points)
    st = list(base_standing)
    if points:
        st[seats.player] += 1
    else:
        for s in seats.opponents:
            st[s] = max(0.0, st[s] - 1)
    return valuation.p_win(st, seats.player, points) - base


# -- the decision ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """The engine's first move at a position: the ``action``, for a take the card ``then``
    thrown, and the ``reason`` in the ``expert``'s words (it names only the player's own
    cards)."""

    action: Action
    reason: str
    then: Card | None = None


@dataclass
class _Work:
    """What deciding computed, for :func:`rank` to reuse."""

    endings: dict[ActionKind, _Ending] = field(default_factory=dict)
    throw: Card | None = None
    first_throw: Card | None = None
    kept_best: tuple[Card, ...] | None = None


def decide(position: Position | PlayerView, style: Style = EXPERT) -> Choice:
    """The engine's first move at ``position`` (a :class:`Position`, or a view whose player
    is to move), by the module doc's rule: the first move of :func:`rank`, found with only
    the work that move needs.

    >>> from scatlab.rules import GameState, deal_order
    >>> s = GameState.new("classic", 2).deal(deal_order(["AH KH 4C", "2S 3S 9H"], up="QH"))
    >>> decide(s.view(1)).action                                    # QH into 2S 3S 9H? no: take
    Action(kind=<ActionKind.TAKE: 'take'>, card=None)
    """
    if isinstance(position, PlayerView) and position.phase is Phase.DISCARD and position.to_move == position.player \
            and not any(a.kind is ActionKind.STOP_BUS for a in position.legal_actions):
        return _decide(_throw_position(position), style, _Work(), figures=False)
    position = _position(position)
    return _decide(position, style, _Work(), figures=False)


def _throw_position(view: PlayerView) -> Position:
    """The position of a throw with no bus stop to weigh, for :func:`decide` alone: the
    throw reads only the four cards, the card taken, whether it is a last turn and the suits
    the next player collects, so the card tracking of the pile and the opponents' cards
    (:meth:`Knowledge.from_view`, most of a throw's time) is left out. Never ranked."""
    k = Knowledge(hand=view.hand, top=None, dead=(), opponent_holds=(), opponents=len(view.opponents),
                  rules=view.rules, taken=view.taken)
    final = view.knocker is not None or (
        bool(view.history) and view.history[-1].player == view.player
        and view.history[-1].action.kind is ActionKind.STOP_BUS)
    nxt = view.opponents[0] if view.opponents else None
    collects = frozenset(collected_suits(view, nxt)) if nxt is not None else frozenset()
    return Position(k, frozenset((ActionKind.DISCARD,)), tuple(opponent_turns(view)), final,
                    Standing.from_view(view), collects, None, (), view)


def _position(position: Position | PlayerView) -> Position:
    if isinstance(position, PlayerView):
        return Position.from_view(position)
    if not isinstance(position, Position):
        raise AnalysisError(f"rank needs a Position or a PlayerView, not {shown(position)}")
    return position


def _decide(position: Position, style: Style, work: _Work, figures: bool) -> Choice:
    kinds = position.kinds
    if ActionKind.DECLARE in kinds:
        return Choice(Action.DECLARE, "declares 31 at once (C8)")
    model = _model_for(position.knowledge.rules, style.horizon)
    if ActionKind.DISCARD in kinds:
        return _discard(position, style, model, work, figures)
    return _turn(position, style, model, work, figures)


def _show(score: int | None, model: _Model, final: bool) -> str:
    if score is None:
        return "-"
    if final:
        return str(Fraction(score >> RANK_BITS, 2))
    return f"{score / model.scale:.2f}"


def _show_avg(total: int | None, n: int, model: _Model, final: bool) -> str:
    if total is None or n == 0:
        return "-"
    if final:
        return f"{(total / n) / (2 << RANK_BITS):.2f}"
    return f"{total / n / model.scale:.2f}"


def _turn(position: Position, style: Style, model: _Model, work: _Work, figures: bool) -> Choice:
    k = position.knowledge
    kinds = position.kinds
    tables = model.tables
    hand = k.hand
    idx = [c.index for c in hand]
    strength = tables.strength_of(idx)
    value = Fraction(strength >> RANK_BITS, 2)
    unseen = k.unseen_index
    row = tables.row(idx)
    chosen: Choice | None = None
    top = k.top
    if ActionKind.TAKE in kinds and top is not None and not k.undeclared_31:  # C8: a 31 for sure comes first
        made = max((tables.strength_of(sorted([c.index for c in hand if c is not x] + [top.index])), x) for x in hand)
        if made[0] >> RANK_BITS >= BLITZ2:
            chosen = Choice(Action.TAKE, f"takes the {top} and will throw the {made[1]}: the three it keeps make 31",
                            made[1])
            if not figures:
                return chosen
    for kind in (ActionKind.HAMMER, ActionKind.KNOCK):
        if kind in kinds:
            ending = _ending(position, style, model, strength, row, kind is ActionKind.KNOCK, None, figures)
            work.endings[kind] = ending
            if chosen is None and ending.chosen:
                verb = "calls a hammer" if kind is ActionKind.HAMMER else "knocks"
                chosen = Choice(Action(kind), f"{verb} with {value}: {ending.why(k.rules)}")
                if not figures:
                    return chosen
    if chosen is not None:
        return chosen
    final = position.final  # a last turn: only the hand now counts
    scores: list[int] = tables.strength_list if final else model.future
    rl = tables.row_list
    take_score = None
    take_discard: Card | None = None
    if ActionKind.TAKE in kinds and top is not None:
        for i, out in enumerate(hand):
            rest = idx[:i] + idx[i + 1:]
            s = scores[rl[rest[0] * 2704 + rest[1] * 52 + top.index]]
            if take_score is None or s > take_score:
                take_score, take_discard = s, out
    what = "the hand now" if final else f"worth on average {style.horizon} turns ahead"
    if ActionKind.DRAW not in kinds:
        # C11: the stock is gone. Take only what strictly raises the hand now, so that a
        # hand of takers always ends (each take raises the taker's value).
        if ActionKind.TAKE in kinds and top is not None:
            after, out = max((tables.strength_of(sorted([c.index for c in hand if c is not x] + [top.index])), x)
                             for x in hand)
            if after > strength:
                return Choice(Action.TAKE, f"takes the {top} with the stock gone: throwing the {out} raises the "
                              f"hand from {value} to {Fraction(after >> RANK_BITS, 2)} (C11)", out)
        if ActionKind.PASS in kinds:
            return Choice(Action.PASS, "passes: the stock is gone and the discard does not raise the hand (C11)")
    draw_total = None
    if ActionKind.DRAW in kinds and unseen:
        a, b, c = sorted(idx)
        ab, ac, bc = a * 2704 + b * 52, a * 2704 + c * 52, b * 2704 + c * 52
        keep = scores[row]
        total = 0
        for d in unseen:
            best = keep
            for base in (ab, ac, bc):
                s = scores[rl[base + d]]
                if s > best:
                    best = s
            total += best
        draw_total = total
    if take_score is not None and (draw_total is None or take_score * len(unseen) >= draw_total):
        return Choice(Action.TAKE, f"takes the {top} and will throw the {take_discard}: it makes "
                      f"{_show(take_score, model, final)} ({what}), at least the "
                      f"{_show_avg(draw_total, len(unseen), model, final)} a draw is worth", take_discard)
    if draw_total is not None:
        return Choice(Action.DRAW, f"draws: over {len(unseen)} unseen cards a draw is worth "
                      f"{_show_avg(draw_total, len(unseen), model, final)} ({what}), more than "
                      + (f"{_show(take_score, model, final)} by taking the {top}" if take_score is not None
                         else "keeping the hand"))
    for kind in (ActionKind.DRAW, ActionKind.PASS, ActionKind.TAKE, ActionKind.KNOCK, ActionKind.HAMMER):
        if kind in kinds:
            return Choice(Action(kind), f"{kind.value}: the only sensible action left")
    raise AnalysisError("there is no move to rank in this position")


def _discard(position: Position, style: Style, model: _Model, work: _Work, figures: bool) -> Choice:
    k = position.knowledge
    tables = model.tables
    hand = k.hand
    final = position.final
    drawn = k.taken if k.taken is not None else hand[-1]
    held = tuple(c for c in hand if c is not drawn)
    avoid = position.next_collects if not final else frozenset()
    way = LAST_THROW if final else expert_throw(style.horizon, style.feed_margin)
    throw = throw_choice(k.rules, way, (held[0], held[1], held[2]), drawn, taken=k.taken is not None, avoid=avoid)
    work.throw, work.first_throw = throw.card, throw.first

    def kept(out: Card) -> tuple[list[Card], int, int]:  # the three kept, their strength now and their worth
        cards = [c for c in hand if c is not out]
        idx = sorted(c.index for c in cards)
        strength = tables.strength_of(idx)
        return cards, strength, strength if final else model.future[tables.row(idx)]

    _, first_strength, _ = kept(throw.first)
    sure = first_strength >> RANK_BITS >= BLITZ2
    if sure and not (figures and ActionKind.STOP_BUS in position.kinds):
        return Choice(Action.discard(throw.first), f"throws the {throw.first}: the other three make 31")
    chosen: Choice | None = None
    if sure:
        chosen = Choice(Action.discard(throw.first), f"throws the {throw.first}: the other three make 31")
    if ActionKind.STOP_BUS in position.kinds:
        # V19: the hand shows down with the three it keeps now, the highest (its last throw)
        last = throw_choice(k.rules, LAST_THROW, (held[0], held[1], held[2]), drawn, taken=k.taken is not None)
        best_cards, best_strength, _ = kept(last.first)
        work.kept_best = tuple(best_cards)
        ending = _ending(position, style, model, best_strength, tables.row(sorted(c.index for c in best_cards)),
                         False, tuple(best_cards), figures)
        work.endings[ActionKind.STOP_BUS] = ending
        if chosen is None and ending.chosen:
            chosen = Choice(Action.STOP_BUS, f"stops the bus, keeping {Fraction(best_strength >> RANK_BITS, 2)}: "
                            f"{ending.why(k.rules)} (V19)")
            if not figures:
                return chosen
    if chosen is not None:
        return chosen
    card = throw.card
    nxt = position.seats.opponents[0] if position.seats.opponents else None
    note = (f" (not the {throw.first}: player {nxt} collects {throw.first.suit.letter})"
            if card is not throw.first else "")
    cards, strength, worth = kept(card)
    what = f"worth {Fraction(strength >> RANK_BITS, 2)} now" if final else (
        f"worth {worth / model.scale:.2f} on average {style.horizon} turns ahead")
    return Choice(Action.discard(card), f"throws the {card}, keeping {' '.join(str(c) for c in cards)}, {what}{note}")


# -- the ranking -------------------------------------------------------------------------------


@dataclass(frozen=True)
class RankedMove:
    """One legal move with its figures.

    ``value``: the exact expected hand value :attr:`Ranking.horizon` turns ahead (the hand
    now on a last turn; None for a move that ends the hand); ``lives``: the expected lives
    (letters, points missed) lost this hand, estimated where the position has a move that
    ends the hand (for a way of playing on, that of playing on); ``win``: the estimated
    change in the chance of winning the game, likewise; ``sure_31``: the move makes a 31
    declared at once; for a take the card ``then`` thrown and the card ``taken``; for an
    end of the hand ``p_one`` and ``p_two``, the chances of losing exactly one and two lives
    (``lives = p_one + 2 * p_two``): exact counts for a knock against one opponent with
    lives kept (:func:`!_exact_knock`), the engine's estimates elsewhere."""

    action: Action
    value: Fraction | None
    lives: Fraction | None
    sure_31: bool = False
    then: Card | None = None
    p_one: Fraction | None = None
    p_two: Fraction | None = None
    taken: Card | None = None
    win: Fraction | None = None
    """The estimated change in the chance of winning the game (a probability, e.g. 3/100 for
    three points), where the position has a move that ends the hand."""
    exact_risk: bool = False
    """``p_one``, ``p_two`` and ``lives`` of an end of the hand are exact counts (a knock
    against one opponent, lives kept), not the engine's estimates."""

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
        data: dict[str, object] = {"move": self.name}
        if self.then is not None:
            data["then_throw"] = str(self.then)
        if self.value is not None:
            data["value"] = str(self.value)
        if self.lives is not None:
            data["expected_loss"] = str(self.lives)
        if self.win is not None:
            data["win_change"] = str(self.win)
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
    margin: Fraction = _ZERO
    """How much ending the hand must beat playing on by, in the chance of winning the game."""
    play_on_win: Fraction | None = None
    """The estimated change in the chance of winning the game of playing on (None where no
    move ends the hand)."""
    limit: Fraction = _ZERO
    """The expected lives (letters, points missed) ending the hand may always cost when it
    does not lower the chance of winning: *nearly safe* (:meth:`KnockValuation.limit`)."""

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
    def play_on_lives(self) -> Fraction | None:
        """The estimated lives playing on costs (None where no move ends the hand)."""
        lives = [m.lives for m in self.moves if not m.ends_hand and not m.sure_31 and m.lives is not None]
        return min(lives) if lives else None

    def to_json(self) -> dict[str, object]:
        """The ranking as JSON-ready data: the moves best first, the horizon of their values
        and the unit of their expected losses.

        >>> from scatlab.analysis.counting.knowledge import Knowledge
        >>> rank(Position.of(Knowledge.of("10H 8H JH", "AH", opponents=2))).to_json()["moves"][0]["move"]
        'take'
        """
        data: dict[str, object] = {"horizon": self.horizon, "unit": self.unit,
                                   "moves": [m.to_json() for m in self.moves]}
        on = self.play_on_lives
        if on is not None:
            data["play_on_expected_loss"] = str(on)
        if self.play_on_win is not None:
            data["play_on_win_change"] = str(self.play_on_win)
        return data

    def move(self, action: Action | str) -> RankedMove:
        """The ranked move of ``action`` (a take matches whatever it then throws)."""
        act = action if isinstance(action, Action) else Action.parse(action)
        for m in self.moves:
            if m.action == act:
                return m
        raise AnalysisError(f"{str(act)!r} is not a legal move here: legal are "
                            f"{', '.join(m.name for m in self.moves)}")

    def scale_of(self, action: Action | str) -> Scale:
        """The scale a choice between the best move and ``action`` is made on: the chance
        of winning the game when either ends the hand (a knock, a hammer, a bus stop), else
        hand value."""
        m = self.move(action)
        return "win" if (m.ends_hand or self.best.ends_hand) else "value"

    def cost(self, action: Action | str) -> Fraction:
        """How much worse ``action`` is than the best move, never negative, on
        :meth:`scale_of`'s scale: on ``"win"``, the chance of winning the game it gives up
        (estimated); on ``"value"``, the expected hand value it gives up (exact)."""
        m = self.move(action)
        best = self.best
        if m is best:
            return _ZERO
        if self.scale_of(action) == "win":
            assert m.win is not None and best.win is not None
            return max(best.win - m.win, _ZERO)
        assert m.value is not None and best.value is not None
        return max(best.value - m.value, _ZERO)


def rank(position: Position | PlayerView, style: Style = EXPERT) -> Ranking:
    """Rank every legal move of ``position`` (a :class:`Position`, or a view whose player
    is to move), best first, by the module doc's rule: the first move is :func:`decide`'s,
    the other ways of playing on follow by value, then the ends of the hand by the chance of
    winning. Draw odds and hand values are exact; the lives and win figures are the model's
    estimates (see the module doc).

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
    work = _Work()
    choice = _decide(position, style, work, figures=True)
    k = position.knowledge
    rules = k.rules
    model = _model_for(rules, style.horizon)
    tables = model.tables
    kinds = position.kinds
    final = position.final or (len(k.hand) == 3 and ActionKind.DRAW not in kinds and ActionKind.PASS in kinds)
    scores, scale = (model.value2, 2) if final else (model.future, model.scale)
    horizon = 0 if final else style.horizon
    row_list = tables.row_list
    moves: list[RankedMove] = []
    endings = work.endings
    any_end = next(iter(endings.values()), None)
    on_win = _estimate(any_end.on) if any_end is not None else None
    on_lives = _estimate(any_end.on_lives) if any_end is not None else None
    sure_win = _estimate(_sure_31_gain(position, style)) if any_end is not None else None

    def playing(action: Action, value: Fraction | None, sure: bool = False, then: Card | None = None,
                taken: Card | None = None) -> RankedMove:
        if any_end is None:
            return RankedMove(action, value, None, sure, then, taken=taken)
        return RankedMove(action, value, _ZERO if sure else on_lives, sure, then, taken=taken,
                          win=sure_win if sure else on_win)

    if ActionKind.DECLARE in kinds:
        moves.append(RankedMove(Action.DECLARE, k.value, None, True))
        if ActionKind.PASS in kinds:  # C10: a 31 not declared at once counts 30
            moves.append(RankedMove(Action.PASS, Fraction(30), None))
    elif len(k.hand) == 4:
        idx = [c.index for c in k.hand]
        for i, out in enumerate(k.hand):
            if out is k.taken:
                continue
            row = tables.row(sorted(idx[:i] + idx[i + 1:]))
            sure = model.value2[row] >= BLITZ2
            value = Fraction(model.value2[row], 2) if final or sure else Fraction(model.future[row], model.scale)
            moves.append(playing(Action.discard(out), value, sure))
    else:
        idx = sorted(c.index for c in k.hand)
        row = tables.row(idx)
        own2 = 60 if k.undeclared_31 else model.value2[row]  # C10: an undeclared 31 counts 30
        keep = (60 * scale // 2) if k.undeclared_31 else scores[row]
        unseen = k.unseen_index
        if ActionKind.DRAW in kinds and unseen:
            a, b, c = idx
            ab, ac, bc = a * 2704 + b * 52, a * 2704 + c * 52, b * 2704 + c * 52
            total = 0
            sure_count = 0
            for d in unseen:
                top_score = keep
                made = 0
                for base in (ab, ac, bc):
                    r = row_list[base + d]
                    s = scores[r]
                    if s > top_score:
                        top_score = s
                    if model.value2[r] >= BLITZ2:
                        made = 1
                total += top_score
                sure_count += made
            moves.append(playing(Action.DRAW, Fraction(total, len(unseen) * scale), sure_count == len(unseen)))
        top = k.top
        if ActionKind.TAKE in kinds and top is not None:
            t = top.index
            best_take, thrown, best_v2 = -1, k.hand[0], 0
            for out in k.hand:
                r = tables.row(sorted([x.index for x in k.hand if x is not out] + [t]))
                if scores[r] > best_take:
                    best_take, thrown, best_v2 = scores[r], out, model.value2[r]
            if choice.action.kind is ActionKind.TAKE and choice.then is not None:
                thrown = choice.then
            moves.append(playing(Action.TAKE, Fraction(best_take, scale), best_v2 >= BLITZ2, thrown, top))
        if ActionKind.PASS in kinds:
            moves.append(playing(Action.PASS, Fraction(own2, 2) if final else Fraction(keep, scale)))
    for kind, ending in endings.items():
        est = ending.outcome
        assert est is not None
        p_one, p_two = _estimate(est.p_one), _estimate(est.p_two)
        exact = _exact_knock(position) if kind is ActionKind.KNOCK else None
        if exact is not None:
            p_one, p_two = exact
        moves.append(RankedMove(Action(kind), None, p_one + 2 * p_two, False, None, p_one, p_two,
                                win=_estimate(est.gain), exact_risk=exact is not None))
    if not moves:
        raise AnalysisError("there is no move to rank in this position")
    first = next(m for m in moves if m.action == choice.action)
    ordered = (first,) + _order([m for m in moves if m is not first])
    margin = _estimate(any_end.margin) if any_end is not None else _ZERO
    limit = _estimate(any_end.limit) if any_end is not None else _ZERO
    return Ranking(position, ordered, horizon, lives_unit(rules), choice.reason, margin, on_win, limit)


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


def _order(moves: list[RankedMove]) -> tuple[RankedMove, ...]:
    """The moves after the first: 31s made for sure, then the ways of playing on by value,
    then the ends of the hand by the chance of winning."""
    def by_value(m: RankedMove) -> tuple[Fraction, int]:
        assert m.value is not None
        return (-m.value, _ORDER[m.action.kind])

    sure = sorted((m for m in moves if m.sure_31 and not m.ends_hand), key=by_value)
    playing = sorted((m for m in moves if not m.sure_31 and not m.ends_hand), key=by_value)
    ending = sorted((m for m in moves if m.ends_hand), key=lambda m: (-(m.win or _ZERO), _ORDER[m.action.kind]))
    return tuple(sure + playing + ending)


# -- the knock line ----------------------------------------------------------------------------


@dataclass(frozen=True)
class KnockLine:
    """The engine's knock line at the start of a turn, per hand value, against
    ``opponents`` opponents who have each completed ``turns`` turns, with ``lives`` lives
    left for every player (a game's standings, or the game's first hand): for each value,
    the knock's expected lives lost and change in the chance of winning the game, and
    playing on's (averaged over every hand of that value drawing one of the other cards).
    ``line`` is the lowest value from which every higher value knocks by the engine's rule
    (None if none). A rule of thumb: the advice for an exact hand also reads the cards seen
    and what each opponent did."""

    rules: RuleSet
    opponents: int
    turns: int
    lives: int
    rows: tuple[tuple[Fraction, Fraction, Fraction, Fraction, Fraction, bool], ...]
    """(value, knock's lives, knock's win change, playing on's lives, playing on's win change,
    knocks), by value from 15 up."""
    line: Fraction | None
    safe: Fraction = _ZERO
    """The expected lives a knock may always cost and still be taken (the engine's "nearly
    safe" limit, :meth:`~scatlab.analysis.model.valuation.KnockValuation.limit`): 0.3 ÷ players."""


@lru_cache(maxsize=128)
def _knock_line(rules: RuleSet, opponents: int, turns: int, lives: int) -> KnockLine:
    from ..model.opponents import MAX_TURNS as CHAIN_TURNS, turn_priors, value_after_last_turn

    style = EXPERT
    valuation = style.valuation
    model = _model_for(rules)
    tables = model.tables
    n = opponents + 1
    seats = Standing(rules, 0, n, tuple(range(1, n)), (lives,) * n, (0,) * n, (False,) * n)
    played = (turns,) * opponents
    w = turn_priors(rules)[min(turns, CHAIN_TURNS)]
    w = w / w.sum()
    # heads-up the top discard is the opponent's own throw: it only draws; with more, each
    # sees a card it has not seen (a throw) and takes it if it raises the hand, else draws
    dist = value_after_last_turn(rules, w, None, top_unseen=opponents > 1)
    dists = [dist] * opponents
    risk = np.array(valuation.risk_by_value(model.odds, played))
    after = tables.after_draw >> RANK_BITS
    valid = tables.discard >= 0
    per_row = np.where(valid, risk[np.minimum(after, 66)], 0.0).sum(axis=1) / valid.sum(axis=1)
    value2 = tables.value2
    base, slope = valuation.playing_on_line(seats)
    limit, margin = valuation.limit(seats), valuation.scaled_margin(seats)
    rows: list[tuple[Fraction, Fraction, Fraction, Fraction, Fraction, bool]] = []
    for v2 in range(30, BLITZ2):
        in_value = value2 == v2
        if not in_value.any():
            continue
        on_lives = float(per_row[in_value].mean())
        on = base + slope * on_lives
        out = valuation.outcome(seats, dists, v2)
        hopeless = valuation.hopeless(seats, model.odds, v2 << RANK_BITS, True, played)
        knocks = not hopeless and ends_the_hand(out.own, out.gain, on, limit, margin)
        rows.append((Fraction(v2, 2), _estimate(out.own), _estimate(out.gain), _estimate(on_lives), _estimate(on),
                     knocks))
    line = None
    for row_ in reversed(rows):
        if row_[5]:
            line = row_[0]
        else:
            break
    return KnockLine(rules, opponents, turns, lives, tuple(rows), line, _estimate(limit))


def knock_line(rules: RuleSet | str = "classic", opponents: int = 1, turns: int = 0,
               lives: int | None = None) -> KnockLine:
    """The engine's knock line (see :class:`KnockLine`): from which hand value the engine
    knocks against ``opponents`` (1 to 8) opponents who have each played ``turns`` (0 to
    :data:`~scatlab.analysis.model.valuation.MAX_TURNS`) turns, every player with ``lives`` lives
    left (default: the rules' lives at the start).

    >>> line = knock_line("classic", opponents=1, turns=0)
    >>> 20 < line.line <= 31
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
