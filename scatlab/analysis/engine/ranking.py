"""The decision engine: one ranking of the moves at a position, the strongest play scatlab
knows. The advice, the table's hints, the review, the practice puzzles, ``scatlab
analyze``, lesson 3's knock line and the ``expert`` player all read it, so "follow the
hints" and "play like the expert" are the same thing.

:func:`rank` lists every legal move of a position, best first, with its figures;
:func:`~scatlab.analysis.engine.decision.decide` finds the first move (the ``expert`` plays by it; a test checks at
every
decision of seeded games under every preset that it is ``rank(view).best``). **The rule**
(each part tested by name in ``tests/analysis/test_ranking.py``):

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
   expected value :data:`~scatlab.analysis.engine.position.HORIZON` (5) own turns ahead and its value now, the
   turns played,
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
  (:mod:`scatlab.analysis.model.weights`): dealt hands improved by the turns each has played,
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

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from ...cards import Card
from ...errors import AnalysisError
from ...rules.actions import Action, ActionKind
from ...rules.options import RuleSet
from ...rules.view import PlayerView
from .decision import Option, as_position, ordered, reason_for, stock_gone, weigh_options
from .ending import ENDING
from .position import EXPERT, Position, Style
from .scale import CLOSE_CALL, Scale, estimate, position_scale

__all__ = ["RankedMove", "Ranking", "rank", "lives_unit"]

_ZERO = Fraction(0)


def lives_unit(rules: RuleSet) -> str:
    """The unit of the lives figures under ``rules``: lives, letters (V14) or points (V16).

    >>> from scatlab.rules import find_rules
    >>> lives_unit(find_rules("gin")), lives_unit(find_rules("classic"))
    ('letters', 'lives')
    """
    return {"gin": "letters", "points": "points"}.get(rules.score_keeping, "lives")


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
        return self.action.kind in ENDING

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
    """Turns ahead the value figures look (:data:`~scatlab.analysis.engine.position.HORIZON`,
    or 0 on a last turn / with the stock gone)."""
    unit: str
    """The unit of the lives figures: lives, letters (V14) or points (V16)."""
    reason: str = ""
    """Why the first move, in the ``expert``'s words (:attr:`~scatlab.analysis.engine.decision.Choice.reason`)."""
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
        return {
            "win_now": str(self.now),
            "horizon": self.horizon,
            "unit": self.unit,
            "close_call_width": str(CLOSE_CALL),
            "moves": [m.to_json() for m in self.moves],
        }

    def move(self, action: Action | str) -> RankedMove:
        """The ranked move of ``action`` (a take matches whatever it then throws)."""
        act = action if isinstance(action, Action) else Action.parse(action)
        for m in self.moves:
            if m.action == act:
                return m
        raise AnalysisError(f"{str(act)!r} is not a legal move here: legal are {', '.join(m.name for m in self.moves)}")

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
    return _rank(as_position(position), style)


@lru_cache(maxsize=256)
def _rank(position: Position, style: Style) -> Ranking:
    """:func:`rank`, remembered for the last positions (the hints and then the review of
    the same game rank the same positions)."""
    return _rank_options(position, weigh_options(position, style), style)


def _rank_options(position: Position, unordered: list[Option], style: Style = EXPERT) -> Ranking:
    """The ranking of ``position`` from its moves' figures: best first, close calls marked."""
    options = ordered(unordered, position)
    best = options[0]
    reason = reason_for(best, options, position, style)
    k = position.knowledge
    final = position.final or stock_gone(position)
    horizon = 0 if final else style.horizon
    best_win = estimate(best.win)
    moves: list[RankedMove] = []
    for o in options:
        win = estimate(o.win)
        close = o is not best and best_win - win < CLOSE_CALL
        if o.ending is not None:
            e = o.ending
            if e.exact is not None:
                p_one, p_two = e.exact
            else:
                p_one, p_two = estimate(e.p_one), estimate(e.p_two)
            moves.append(
                RankedMove(
                    o.action,
                    None,
                    p_one + 2 * p_two,
                    False,
                    None,
                    p_one,
                    p_two,
                    win=win,
                    exact_risk=e.exact is not None,
                    loss=p_one + p_two,
                    close=close,
                )
            )
        else:
            moves.append(
                RankedMove(
                    o.action,
                    o.value,
                    None,
                    o.sure_31,
                    o.then,
                    taken=o.taken,
                    win=win,
                    loss=estimate(o.loss),
                    close=close,
                )
            )
    now = estimate(position_scale(position).game.now)
    return Ranking(position, tuple(moves), horizon, lives_unit(k.rules), reason, now)
