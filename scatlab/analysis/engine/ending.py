"""Ending the hand by choice (a knock, C6; a hammer, V10; stopping the bus, V19), valued by
the knock model: the chance of every outcome of the showdown after the opponents' last
turns, each outcome by the chance of winning the game it leaves; a heads-up knock with
lives kept by the exact count of :func:`~scatlab.analysis.model.knock.knock_risk`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from ...cards import Card
from ...rules.actions import ActionKind
from ..counting.knowledge import Knowledge
from ..counting.tables import RANK_BITS
from ..model.valuation import KnockOutcome
from .position import HorizonTables, Position, Style
from .scale import WinScale

__all__ = ["ENDING", "Ending", "value_ending", "exact_knock"]

ENDING = (ActionKind.KNOCK, ActionKind.HAMMER, ActionKind.STOP_BUS)
"""The kinds of move that end the hand by choice."""


@dataclass(frozen=True)
class Ending:
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
        """The knock model's outcome (:meth:`~scatlab.analysis.model.valuation.KnockValuation.outcome`)."""
        if not isinstance(self.pending, KnockOutcome):
            object.__setattr__(self, "pending", self.pending())
        assert isinstance(self.pending, KnockOutcome)
        return self.pending

    @property
    def loss(self) -> float:
        """The chance that ending the hand costs the player a life (a letter; under V16: does not score)."""
        return self.p_one + self.p_two


def value_ending(
    position: Position,
    style: Style,
    model: HorizonTables,
    strength: int,
    extra_turn: bool,
    hand: tuple[Card, ...] | None,
    scale: WinScale,
) -> Ending:
    """Value ending the hand with a hand of table strength ``strength``: against opponents
    pictured by the adaptive model, each with one last turn (``extra_turn``, a knock) or none
    (a hammer, a bus stop, judged on the three cards ``hand`` kept), each outcome by the game
    model's chance of winning."""
    from ..model.weights import final_value_distribution

    k = position.knowledge
    if hand is not None:  # a bus stop: judged on the three cards kept
        k = Knowledge(
            hand=hand, top=None, dead=k.dead, opponent_holds=k.opponent_holds, opponents=k.opponents, rules=k.rules
        )
    observations = position.observed()

    def outcome() -> KnockOutcome:
        dists = [final_value_distribution(k, observations, i, extra_turn) for i in range(k.opponents)]
        return style.valuation.outcome(position.seats, dists, strength >> RANK_BITS, scale.game)

    exact = exact_knock(position) if extra_turn and hand is None else None
    if exact is not None:  # the exact count is the figure shown: the chance of winning reads it
        p_one, p_two = float(exact[0]), float(exact[1])
        me, opp = position.seats.player, position.seats.opponents[0]
        g = scale.game
        win = p_one * g.after({me: 1}) + p_two * g.after({me: 2}) + (1 - p_one - p_two) * g.after({opp: 1})
        return Ending(outcome, win, p_one, p_two, exact)  # the outcome, for a reason's words only: when read
    out = outcome()
    return Ending(out, scale.game.now + out.gain, out.p_one, out.p_two, None)


def exact_knock(position: Position) -> tuple[Fraction, Fraction] | None:
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
