"""Exact hand analysis and advice (layer 3: imports cards, rules and numpy; sympy only in
:mod:`scatlab.analysis.explain.display`, for notebooks).

>>> from scatlab.analysis import analyze
>>> a = analyze("AH KH 4C", discard="9S")
>>> a.turn.draw.expected_value, a.turn.draw.p_31
(Fraction(541, 24), Fraction(1, 16))

Four sub-packages, each importing only those before it (``tests/test_layers.py``; the
design notes argue the split, ``docs/design/engine.md``):

- :mod:`~scatlab.analysis.counting`: exact counting (the tables of every hand, the kernels,
  the one-turn odds, the horizon, the store) and what a player has seen (``Knowledge``);
- :mod:`~scatlab.analysis.model`: the opponent model (uniform, the chain of turns, the log
  filter), the standing and knock valuation it reads a non-knock with, and the knock risk;
- :mod:`~scatlab.analysis.engine`: the decision engine (``rank``, ``decide``) and the advice;
- :mod:`~scatlab.analysis.explain`: one analysis as data, text and a derivation, and the
  game review.

The game review is the function ``review_game(record, player=None)``, exported here;
``scatlab.analysis.explain.review`` is its module (thresholds,
:func:`~scatlab.analysis.explain.review.costliest`, ...): no name exported by a package of
scatlab is also the name of one of its modules, so ``import scatlab.analysis.explain.review``
always gives the module.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .engine.advice import Advice, advise
from .model.candidates import OPPONENT_MODELS
from .counting.horizon import MAX_HORIZON, horizon_values
from .model.knock import OPPONENT_POLICY, KnockRisk, knock_risk
from .counting.knowledge import Knowledge
from .engine.ranking import KnockLine, Position, RankedMove, Ranking, knock_line, rank
from .counting.onestep import DiscardOption, DrawAnalysis, DrawOutcome, TakeAnalysis, TurnAnalysis, analyze_turn
from .explain.report import Analysis, analyze

if TYPE_CHECKING:
    from .model.opponents import Observations
    from .explain.review import GameReview, ReviewedDecision, assess, review_game

_LAZY = {"Observations": "model.opponents", "GameReview": "explain.review", "ReviewedDecision": "explain.review",
         "assess": "explain.review", "review_game": "explain.review"}
"""Names exported here but imported on first use: the game review costs a few milliseconds
to import and an analysis does not need it (the opponent model is loaded with the engine)."""


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
