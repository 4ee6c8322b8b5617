"""The one scale every move is weighed on, the chance of winning the game: how a learner
reads it (:func:`~scatlab.words.win_level`, :func:`~scatlab.words.win_change`, among the
learner's words of :mod:`scatlab.words`; a close call within :data:`CLOSE_CALL`),
and how a position maps onto it (:class:`!WinScale`: the game model's levels and the hand
model's chance of losing a life by the hand kept)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Literal

from ..counting.tables import scoring_rules
from ..model.valuation import Standing
from ..model.winning import GameModel, HandModel, family_of, last_turn_by_value, loss_by_row
from .position import Position

__all__ = ["CLOSE_CALL", "Scale", "estimate", "WinScale", "scale_for", "position_scale", "last_turn_scale"]

CLOSE_CALL = Fraction(1, 200)
"""Moves whose chances of winning the game are within this of the best move's (half a point
of percentage) are a close call: below what the estimates can tell apart (the calibration of
docs/design/engine.md)."""

Scale = Literal["value", "win"]
"""The scale a figure is read on: ``"value"``, expected hand value; ``"win"``, the chance of
winning the game (the scale every choice is made on)."""


def estimate(x: float) -> Fraction:
    """A model estimate (floating point) as a Fraction rounded to a millionth."""
    return Fraction(round(x * 1_000_000), 1_000_000)


@dataclass(frozen=True)
class WinScale:
    """The one scale at a position: the chance of winning the game (the game model) and how
    a way of playing on maps onto it (the hand model)."""

    game: GameModel
    hand: HandModel
    lose: float  # the chance of winning once this hand cost the player
    other: float  # ... once it cost one other player
    sure31: float  # ... once it cost every other player (a 31 declared at once; V14: a knock that stands)
    loss_plain: Sequence[float]
    loss_fed: Sequence[float]
    sweep: Sequence[float]
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
def scale_for(seats: Standing, strong: tuple[float, ...], turns: float) -> WinScale:
    game = GameModel.of(seats, strong)
    lose, other, sweep = game.play_on()
    n = len(seats.opponents)
    s = round(sum(strong) / len(strong), 2) if strong else 0.5
    scoring = scoring_rules(seats.rules)
    family = family_of(seats.rules)  # the scoring rules keep no way of keeping score: the game's own numbers
    plain, fed, swept = loss_by_row(scoring, n, turns, s, family)
    return WinScale(
        game, game.model, lose, other, sweep, plain, fed, swept, last_turn_by_value(scoring, n, turns, s, family)
    )


def position_scale(position: Position) -> WinScale:
    turns = position.opponent_turns
    mean_turns = round(sum(turns) / len(turns), 2) if turns else 0.0
    return scale_for(position.seats, position.strong(), mean_turns)


def last_turn_scale(position: Position, scale: WinScale) -> tuple[float, float, float]:
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
    blitz = dict.fromkeys(position.seats.opponents, 1)
    if rules.thirty_one_after_knock == "knocker_two":
        blitz[knocker] = 2
    return scale.lose, other, g.after(blitz)
