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

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .advice import Advice, advise
from .candidates import OPPONENT_MODELS
from .horizon import MAX_HORIZON, horizon_values
from .knock import OPPONENT_POLICY, KnockRisk, knock_risk
from .knowledge import Knowledge
from .ranking import KnockLine, Position, RankedMove, Ranking, knock_line, rank
from .onestep import DiscardOption, DrawAnalysis, DrawOutcome, TakeAnalysis, TurnAnalysis, analyze_turn
from .report import Analysis, analyze

if TYPE_CHECKING:
    from .opponents import Observations
    from .review import GameReview, ReviewedDecision, assess, review_game

_LAZY = {"Observations": "opponents", "GameReview": "review", "ReviewedDecision": "review", "assess": "review",
         "review_game": "review"}
"""Names exported here but imported on first use: the adaptive opponent model (its filters
and valuation) and the game review cost a few milliseconds to import, and an analysis under
the uniform model needs neither."""


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:  # the lazy names too (the API reference lists the package's members by dir)
    return sorted(set(globals()) | set(_LAZY))

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
