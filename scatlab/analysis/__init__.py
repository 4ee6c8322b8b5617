"""Exact hand analysis and advice (layer 2, after the rules, 1, and the cards, 0: imports
cards, rules and numpy; sympy only in :mod:`scatlab.analysis.explain.display`, for
notebooks).

>>> from scatlab.analysis import analyze
>>> a = analyze("AH KH 4C", discard="9S")
>>> a.turn.draw.expected_value, a.turn.draw.p_31
(Fraction(541, 24), Fraction(1, 16))

Four sub-packages, each importing only those before it (``tests/test_layers.py``; the
design notes argue the split, ``docs/design/engine.md``):

- :mod:`~scatlab.analysis.counting`: exact counting (the tables of every hand, their vectorized loops,
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

from ..words import YOU as YOU  # the learner's words
from ..words import win_change as win_change
from ..words import win_level as win_level
from .counting.horizon import MAX_HORIZON, horizon_values

# For the package's other layers (players, session, widgets, course): they import from
# scatlab.analysis only, never from its parts (tests/test_layers.py). Not the documented
# API (``__all__``); each is re-exported by name (``X as X``) for mypy.
from .counting.horizon import horizon_table as horizon_table
from .counting.knowledge import Knowledge
from .counting.knowledge import collected_suits as collected_suits
from .counting.onestep import DiscardOption, DrawAnalysis, DrawOutcome, TakeAnalysis, TurnAnalysis, analyze_turn
from .counting.tables import BLITZ2 as BLITZ2
from .counting.tables import RANK_BITS as RANK_BITS
from .counting.tables import Tables as Tables
from .counting.tables import pair_indices as pair_indices
from .counting.tables import scoring_rules as scoring_rules
from .counting.tables import tables_for as tables_for
from .engine.advice import Advice, advise
from .engine.advice import move_words as move_words
from .engine.decision import Choice as Choice
from .engine.decision import decide as decide
from .engine.knock_line import KnockLine, knock_line, knock_values
from .engine.position import EXPERT as EXPERT
from .engine.position import HORIZON as HORIZON
from .engine.position import Position
from .engine.position import Style as Style
from .engine.position import prepare as prepare
from .engine.ranking import RankedMove, Ranking, rank
from .engine.scale import CLOSE_CALL as CLOSE_CALL
from .explain.report import Analysis, analyze
from .model.candidates import OPPONENT_MODELS
from .model.knock import OPPONENT_POLICY, KnockRisk, knock_risk
from .model.knock import knock_refusal as knock_refusal
from .model.throws import LAST_THROW as LAST_THROW
from .model.throws import TIP_THROW as TIP_THROW
from .model.throws import avoid_list as avoid_list
from .model.throws import expert_throw as expert_throw
from .model.throws import throw_choice as throw_choice
from .model.throws import throw_lists as throw_lists
from .model.valuation import MAX_TURNS as MAX_TURNS
from .model.valuation import KnockValuation as KnockValuation
from .model.valuation import Standing as Standing
from .model.winning import GameModel as GameModel

if TYPE_CHECKING:
    from .explain.display import latex as latex
    from .explain.review import Assessment as Assessment
    from .explain.review import DecisionWords as DecisionWords
    from .explain.review import GameReview, ReviewedDecision, assess, review_game
    from .explain.review import costliest as costliest
    from .model.hand_log import pile_tops as pile_tops
    from .model.kinds import kind_odds as kind_odds
    from .model.observations import Observations
    from .model.observations import check_rejected as check_rejected
    from .model.weights import row_weights as row_weights

_LAZY = {
    "Observations": "model.observations",
    "check_rejected": "model.observations",
    "kind_odds": "model.kinds",
    "pile_tops": "model.hand_log",
    "row_weights": "model.weights",
    "GameReview": "explain.review",
    "ReviewedDecision": "explain.review",
    "assess": "explain.review",
    "review_game": "explain.review",
    "Assessment": "explain.review",
    "DecisionWords": "explain.review",
    "costliest": "explain.review",
    "latex": "explain.display",
}
"""Names exported here but imported on first use: the game review costs a few milliseconds
to import and an analysis does not need it (the opponent model is loaded with the engine);
the derivation's ``latex`` imports sympy."""


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
    "knock_values",
    "rank",
    "analyze",
    "GameReview",
    "ReviewedDecision",
    "assess",
    "review_game",
]
