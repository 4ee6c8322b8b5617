"""One call for everything: :func:`analyze` returns an :class:`Analysis` holding the
one-turn numbers, the knock risk, the horizon and the advice, as data, JSON, a text table,
and (in a notebook) a sympy-rendered derivation.

>>> a = analyze("AH KH 4C", discard="9S")
>>> a.to_json()["draw"]["expected_value"], a.advice.action
('541/24', 'draw')
>>> print(a.advice.reason)
drawing is worth 27.02 five turns ahead against 26.40 by taking the 9♠ (throwing the 4♣); 3 of 48 unseen cards make 31; knocking now would cost 0.340 lives expected and change the chance of winning the game by +3.1%, playing on by +3.9%
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ...cards import CardsLike
from ...checks import MAX_SAMPLES, SEED_RANGE, flag, whole_number
from ...errors import AnalysisError
from ...rules.options import RuleSet
from ...rules.view import PlayerView
from ..engine.advice import Advice, advise
from ..counting.horizon import MAX_HORIZON, horizon_values
from ..model.knock import KnockRisk, knock_risk
from ..model.candidates import OpponentModelName, check_model
from ..counting.knowledge import Knowledge
from ..counting.onestep import TurnAnalysis, analyze_turn
from ..engine.ranking import Position, Ranking, rank

if TYPE_CHECKING:  # the adaptive model is imported only when an analysis uses it
    from ..model.opponents import Observations

__all__ = ["Analysis", "analyze"]


@dataclass(frozen=True)
class Analysis:
    """The whole analysis of one moment (see :func:`analyze`)."""

    knowledge: Knowledge
    turn: TurnAnalysis
    knock: KnockRisk | None
    horizon: tuple[Fraction, ...]
    advice: Advice
    observations: Observations | None = None
    """What was seen of the opponents (from a game view), used by the adaptive model."""
    ranking: Ranking | None = None
    """Every legal move ranked, best first: the advice is its first move
    (:func:`scatlab.analysis.engine.ranking.rank`)."""

    @property
    def value(self) -> Fraction:
        """The hand's exact value now."""
        return self.turn.value

    def to_json(self) -> dict[str, Any]:
        """The analysis as JSON-ready data: exact numbers as strings of fractions in lowest
        terms (``"541/24"``), cards in canonical notation."""
        k = self.knowledge
        data: dict[str, Any] = {
            "hand": [str(c) for c in k.hand],
            "value": str(self.value),
            "unseen": len(k.unseen),
            "rules": k.rules.name,
            "opponents": k.opponents,
        }
        if self.turn.discards:
            data["discard"] = {"options": [o.to_json() for o in self.turn.discards]}
        if self.turn.take is not None:
            data["take"] = self.turn.take.to_json()
        if self.turn.draw is not None:
            data["draw"] = self.turn.draw.to_json()
        if self.knock is not None:
            data["knock"] = self.knock.to_json()
        if len(self.horizon) > 1:
            data["horizon"] = {str(i): str(v) for i, v in enumerate(self.horizon) if i > 0}
        if self.ranking is not None:
            data["ranking"] = self.ranking.to_json()
        data["advice"] = self.advice.to_json()
        return data

    def table(self) -> str:
        """A readable text report (what ``scatlab analyze`` prints)."""
        from .text import render_text

        return render_text(self)

    def __str__(self) -> str:
        return self.table()

    def _repr_latex_(self) -> str:
        from .display import latex

        return latex(self)

    def derivation(self) -> list[Any]:
        """The derivation as sympy equations (imports sympy; for notebooks)."""
        from .display import derivation

        return derivation(self)


def analyze(
    hand: CardsLike | Knowledge | PlayerView,
    discard: CardsLike | None = None,
    *,
    dead: CardsLike = (),
    opponent_holds: Sequence[CardsLike] = (),
    opponents: int | None = None,
    rules: RuleSet | str | dict[str, Any] = "classic",
    horizon: int = 0,
    knock: bool = True,
    samples: int = 10_000,
    seed: int = 0,
    opponent_model: OpponentModelName = "adaptive",
    observations: Observations | None = None,
) -> Analysis:
    """Analyse a hand: from plain arguments, a :class:`Knowledge`, or a player's view of a
    live game (card tracking is automatic).

    ``horizon`` adds the expected value after 1..k more turns (k at most 8); ``knock``
    computes the knock risk (exact against one opponent, else ``samples`` seeded Monte
    Carlo deals, 1 to 1,000,000). ``opponent_model`` weighs the opponents' hands
    (:mod:`scatlab.analysis.model.opponents`): ``"adaptive"`` (the default) learns from what
    each opponent was seen to do, read from a view or given as ``observations``; with
    nothing observed it is the ``"uniform"`` model. Bad arguments raise
    :class:`~scatlab.errors.AnalysisError` or :class:`~scatlab.errors.CardError`.
    """
    position: Position | None = None
    if isinstance(hand, Knowledge):
        knowledge = hand
    elif isinstance(hand, PlayerView):
        if hand.to_move == hand.player:
            position = Position.from_view(hand)
            knowledge = position.knowledge
        else:
            knowledge = Knowledge.from_view(hand)
        if observations is None and knock is True and len(knowledge.hand) == 3:  # only a knock risk reads them
            from ..model.opponents import Observations

            observations = Observations.from_view(hand, knock_rules=True)
    else:
        knowledge = Knowledge.of(hand, discard, dead=dead, opponent_holds=opponent_holds,
                                 opponents=opponents, rules=rules)
    whole_number("horizon", horizon, 0, MAX_HORIZON, error=AnalysisError)
    flag("knock", knock, error=AnalysisError)
    whole_number("samples", samples, 1, MAX_SAMPLES, error=AnalysisError)
    whole_number("seed", seed, *SEED_RANGE, error=AnalysisError)
    turn = analyze_turn(knowledge)
    model = check_model(opponent_model)
    if position is None:
        turns = observations.turns if observations is not None and len(observations.turns) == knowledge.opponents \
            else None
        position = Position.of(knowledge, opponent_turns=turns,
                               observations=observations if turns is not None else None)
    ranking = rank(position)
    risk = None
    if knock and len(knowledge.hand) == 3:
        risk = knock_risk(knowledge, samples=samples, seed=seed, opponent_model=model, observations=observations)
    values: tuple[Fraction, ...] = ()
    if horizon and len(knowledge.hand) == 3:
        values = tuple(horizon_values(knowledge.hand, horizon, knowledge.rules))
    return Analysis(knowledge, turn, risk, values, advise(turn, ranking), observations, ranking)

