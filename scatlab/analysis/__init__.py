"""Exact hand analysis and advice (layer 3: imports cards, rules and numpy; sympy only in
:mod:`scatlab.analysis.display`, for notebooks).

>>> from scatlab.analysis import analyze
>>> a = analyze("AH KH 4C", discard="9S")
>>> a.turn.draw.expected_value, a.turn.draw.p_31
(Fraction(541, 24), Fraction(1, 16))

The game review is the function ``review_game(record, player=None)``, exported here;
``scatlab.analysis.review`` is its module (thresholds, :func:`~scatlab.analysis.review.costliest`,
:func:`~scatlab.analysis.review.knock_loss`, ...): no name exported by a package of scatlab is
also the name of one of its modules, so ``import scatlab.analysis.review`` always gives the module.
"""

from __future__ import annotations

from .advice import Advice, advise
from .horizon import MAX_HORIZON, horizon_values
from .knock import OPPONENT_POLICY, KnockRisk, knock_risk
from .knowledge import Knowledge
from .opponents import OPPONENT_MODELS, Observations
from .ranking import KnockLine, Position, RankedMove, Ranking, knock_line, rank
from .onestep import DiscardOption, DrawAnalysis, DrawOutcome, TakeAnalysis, TurnAnalysis, analyze_turn
from .report import Analysis, analyze
from .review import GameReview, ReviewedDecision, assess, review_game

__all__ = [
    "Advice",
    "advise",
    "MAX_HORIZON",
    "horizon_values",
    "OPPONENT_POLICY",
    "KnockRisk",
    "knock_risk",
    "Knowledge",
    "OPPONENT_MODELS",
    "Observations",
    "DiscardOption",
    "DrawAnalysis",
    "DrawOutcome",
    "TakeAnalysis",
    "TurnAnalysis",
    "analyze_turn",
    "Analysis",
    "KnockLine",
    "Position",
    "RankedMove",
    "Ranking",
    "knock_line",
    "rank",
    "analyze",
    "GameReview",
    "ReviewedDecision",
    "assess",
    "review_game",
]
