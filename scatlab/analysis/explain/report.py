"""One call for everything: :func:`analyze` returns an :class:`Analysis` holding the
one-turn numbers, the knock's figures, the horizon and the advice, as data, JSON, a text
table, and (in a notebook) a sympy-rendered derivation.

**Each figure has one source.** Every move is priced by the one engine
(:func:`~scatlab.analysis.engine.ranking.rank`), and the knock's chances of losing one and
two lives shown in the knock section are the ranking's knock move's own (exact counts
against one opponent, the engine's estimates against more), so the knock section, the
ranking and the advice never state two figures for one thing. Only a knock that is not a
move here (the rules refuse it now, V4, V5, V6; the stock is gone, C11; a 31 is to be
declared), which the ranking leaves out, is priced by
:func:`~scatlab.analysis.model.knock.knock_risk` (exact, or ``samples`` seeded Monte Carlo
deals against two or more opponents). ``rank_knock=False`` (``scatlab analyze
--no-knock``) leaves the knock out of the ranking and so out of the advice, and the
analysis says so (:attr:`Analysis.knock_left_out`).

>>> a = analyze("AH KH 4C", discard="9S")
>>> a.to_json()["draw"]["expected_value"], a.advice.action == a.ranking.best.action.kind.value
('541/24', True)
>>> knock = a.ranking.move("knock")
>>> (a.knock.p_lose_one, a.knock.p_lose_two) == (knock.p_one, knock.p_two)   # one figure
True
>>> analyze("7S 7H 7D", rules="gin").to_json()["value"]                       # never 61/2
'30.5'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ...cards import CardsLike
from ...checks import MAX_SAMPLES, SEED_RANGE, flag, whole_number
from ...errors import AnalysisError
from ...rules.actions import ActionKind
from ...rules.options import RuleSet
from ...rules.view import PlayerView
from ..counting.horizon import MAX_HORIZON, horizon_values
from ..counting.knowledge import Knowledge
from ..counting.onestep import TurnAnalysis, analyze_turn
from ..engine.advice import Advice, advise
from ..engine.position import Position
from ..engine.ranking import RankedMove, Ranking, rank
from ..engine.scale import CLOSE_CALL
from ..model.candidates import OpponentModelName, check_model
from ..model.knock import OPPONENT_POLICY, KnockRisk, knock_risk

if TYPE_CHECKING:  # the adaptive model is imported only when an analysis uses it
    from ..model.observations import Observations

__all__ = ["Analysis", "analyze", "percent", "json_number"]


def percent(p: Fraction | float) -> str:
    """An estimated chance as the JSON output writes it: percent, with every digit the
    estimate keeps (the engine rounds its estimates to a millionth).

    >>> percent(Fraction(469249, 1000000)), percent(Fraction(1, 200)), percent(Fraction(0))
    ('46.9249%', '0.5%', '0%')
    """
    return f"{float(p) * 100:.4f}".rstrip("0").rstrip(".") + "%"


def json_number(x: Fraction) -> str:
    """An exact number as the JSON output writes it: a whole number or a half as a decimal
    (a hand worth 30½ is ``"30.5"``, never ``"61/2"``), anything else as a fraction in
    lowest terms (``"541/24"``). Both read back exactly with :class:`~fractions.Fraction`.

    >>> json_number(Fraction(61, 2)), json_number(Fraction(21)), json_number(Fraction(541, 24))
    ('30.5', '21', '541/24')
    """
    if x.denominator == 1:
        return str(x.numerator)
    if x.denominator == 2:
        return f"{float(x):.1f}"
    return str(x)


_HALF = re.compile(r"-?\d+/2")


def _halves(data: Any) -> Any:
    """``data`` (JSON-ready) with every number written as a fraction over 2 (``"61/2"``, a
    hand worth 30½, as the lower layers' JSON writes it) written as a decimal (``"30.5"``),
    in keys and values alike."""
    if isinstance(data, dict):
        return {_halves(k): _halves(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_halves(v) for v in data]
    if isinstance(data, str) and _HALF.fullmatch(data):
        return json_number(Fraction(data))
    return data


@dataclass(frozen=True)
class Analysis:
    """The whole analysis of one moment (see :func:`analyze`)."""

    knowledge: Knowledge
    turn: TurnAnalysis
    knock: KnockRisk | None
    """The knock's chances of losing one and two lives: the ranking's knock move's own
    (:attr:`~scatlab.analysis.engine.ranking.RankedMove.p_one`, ``p_two``), or, for a knock
    that is not a move here (refused by the rules now: ``allowed`` False; the stock gone; a
    31 to declare), :func:`~scatlab.analysis.model.knock.knock_risk`'s; None when not asked
    for (``knock=False``, ``rank_knock=False``) or with four cards."""
    horizon: tuple[Fraction, ...]
    advice: Advice
    observations: Observations | None = None
    """What was seen of the opponents (from a game view), used by the adaptive model."""
    ranking: Ranking | None = None
    """Every legal move ranked, best first: the advice is its first move
    (:func:`scatlab.analysis.engine.ranking.rank`)."""
    knock_left_out: bool = False
    """The knock was left out of the ranking and the advice (``rank_knock=False``,
    ``scatlab analyze --no-knock``) where the rules allowed it."""

    @property
    def value(self) -> Fraction:
        """The hand's exact value now."""
        return self.turn.value

    def to_json(self) -> dict[str, Any]:
        """The analysis as JSON-ready data: exact numbers as strings, a whole number or a
        half as a decimal (``"30.5"``) and anything else as a fraction in lowest terms
        (``"541/24"``); the engine's estimates (every chance of winning the game, the chances
        of losing a life it estimates) in percent (``"46.9249%"``), the unit of the text;
        cards in canonical notation. Each figure is stated once: the knock's in ``knock``
        (the ranking's own), every move's chance of winning in ``ranking``, and the advice
        as its move and its reason."""
        k = self.knowledge
        data: dict[str, Any] = {
            "hand": [str(c) for c in k.hand],
            "value": json_number(self.value),
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
            data["knock"] = _knock_json(self.knock)
        elif self.knock_left_out:
            data["knock"] = {"left_out": True}
        if len(self.horizon) > 1:
            data["horizon"] = {str(i): json_number(v) for i, v in enumerate(self.horizon) if i > 0}
        if self.ranking is not None:
            data["ranking"] = _ranking_json(self.ranking)
        advice = self.advice.to_json()
        advice.pop("numbers", None)  # each figure once: they are the sections' and the ranking's
        data["advice"] = advice
        return _halves(data)  # type: ignore[no-any-return]

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


def _knock_json(risk: KnockRisk) -> dict[str, Any]:
    """The knock's figures: exact counts as fractions, the engine's estimates in percent,
    a Monte Carlo estimate (a refused knock against two or more opponents) as
    :meth:`KnockRisk.to_json` writes it."""
    data = risk.to_json()
    if not risk.exact and risk.samples is None:  # the engine's estimate: percent, like every estimate
        data["p_lose_one"], data["p_lose_two"] = percent(risk.p_lose_one), percent(risk.p_lose_two)
        data["expected_loss"] = f"{float(risk.expected_loss):.6f}".rstrip("0").rstrip(".")
        data["estimated_by"] = "the engine"
        for key in ("samples", "std_error_one", "std_error_two"):
            data.pop(key, None)
    return data


def _ranking_json(ranking: Ranking) -> dict[str, Any]:
    """The ranking in the JSON's units: the chance of winning now and each move's in
    percent; each move's chance of losing a life this hand in percent (a knock's counted
    exactly against one opponent: its fraction); values and expected losses exact (an end of
    the hand's, the engine's estimate elsewhere, as a decimal)."""
    moves = []
    for m in ranking.moves:
        loss = json_number(m.loss) if m.exact_risk else percent(m.loss)  # an exact count stays exact
        data: dict[str, Any] = {"move": m.name, "win": percent(m.win), "loss": loss}
        if m.then is not None:
            data["then_throw"] = str(m.then)
        if m.value is not None:
            data["value"] = json_number(m.value)
        if m.lives is not None:
            data["expected_loss"] = (
                json_number(m.lives) if m.exact_risk else f"{float(m.lives):.6f}".rstrip("0").rstrip(".")
            )
        if m.close:
            data["close_call"] = True
        if m.sure_31:
            data["sure_31"] = True
        moves.append(data)
    return {
        "win_now": percent(ranking.now),
        "horizon": ranking.horizon,
        "unit": ranking.unit,
        "close_call_width": percent(CLOSE_CALL),
        "moves": moves,
    }


def _knock_move(ranking: Ranking) -> RankedMove | None:
    """The ranking's knock move, if the knock is a legal move here."""
    return next((m for m in ranking.moves if m.action.kind is ActionKind.KNOCK), None)


def _engine_risk(knowledge: Knowledge, move: RankedMove, position: Position) -> KnockRisk:
    """The ranking's knock move as a :class:`KnockRisk`: its chances of losing one and two
    lives (exact against one opponent with lives kept, else the engine's estimate)."""
    from ..model.kinds import ADAPTIVE_POLICY, LOG_POLICY

    assert move.p_one is not None and move.p_two is not None
    observed = position.observed()
    model: OpponentModelName = "uniform" if observed.empty else "adaptive"
    policy = (
        OPPONENT_POLICY
        if observed.empty
        else ((LOG_POLICY if observed.log is not None else ADAPTIVE_POLICY) + "; last turn: " + OPPONENT_POLICY)
    )
    value = knowledge.value if not knowledge.undeclared_31 else Fraction(30)
    return KnockRisk(
        value, knowledge.opponents, move.p_one, move.p_two, move.exact_risk, True, None, policy=policy, model=model
    )


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
    rank_knock: bool = True,
) -> Analysis:
    """Analyse a hand: from plain arguments, a :class:`Knowledge`, or a player's view of a
    live game (card tracking is automatic).

    ``horizon`` adds the expected value after 1..k more turns (k at most 8); ``knock``
    adds the knock's figures (:attr:`Analysis.knock`: the ranking's knock move's own; for a
    knock that is not a move here, exact against one opponent, else ``samples`` seeded Monte
    Carlo deals, 1 to 1,000,000). ``rank_knock=False`` leaves the knock out of the ranking
    and the advice (:attr:`Analysis.knock_left_out`). ``opponent_model`` weighs the
    opponents' hands for every figure (:mod:`scatlab.analysis.model.weights`):
    ``"adaptive"`` (the default) learns from what each opponent was seen to do, read from a
    view or given as ``observations``; with nothing observed it is the ``"uniform"`` model,
    which pictures every opponent as just dealt. Bad arguments raise
    :class:`~scatlab.errors.AnalysisError` or :class:`~scatlab.errors.CardError`.
    """
    position: Position | None = None
    if isinstance(hand, Knowledge):
        knowledge = hand
    elif isinstance(hand, PlayerView):
        knowledge, position, observations = _read_view(hand, knock, observations)
    else:
        knowledge = Knowledge.of(
            hand, discard, dead=dead, opponent_holds=opponent_holds, opponents=opponents, rules=rules
        )
    whole_number("horizon", horizon, 0, MAX_HORIZON, error=AnalysisError)
    flag("knock", knock, error=AnalysisError)
    flag("rank_knock", rank_knock, error=AnalysisError)
    whole_number("samples", samples, 1, MAX_SAMPLES, error=AnalysisError)
    whole_number("seed", seed, *SEED_RANGE, error=AnalysisError)
    turn = analyze_turn(knowledge)
    model = check_model(opponent_model)
    position = _modelled_position(knowledge, position, observations, model)
    left_out = not rank_knock and ActionKind.KNOCK in position.kinds
    if left_out:
        position = replace(position, kinds=position.kinds - {ActionKind.KNOCK})
    ranking = rank(position)
    risk = None
    if knock and rank_knock and len(knowledge.hand) == 3:
        risk = _knock_figure(knowledge, ranking, position, samples, seed, model, observations)
    values: tuple[Fraction, ...] = ()
    if horizon and len(knowledge.hand) == 3:
        values = tuple(horizon_values(knowledge.hand, horizon, knowledge.rules))
    return Analysis(knowledge, turn, risk, values, advise(turn, ranking), observations, ranking, left_out)


def _knock_figure(
    knowledge: Knowledge,
    ranking: Ranking,
    position: Position,
    samples: int,
    seed: int,
    model: OpponentModelName,
    observations: Observations | None,
) -> KnockRisk:
    """The knock's figures: the ranking's knock move's, else (not a move here) :func:`knock_risk`'s."""
    move = _knock_move(ranking)
    if move is not None:  # one source: the ranking's figure
        return _engine_risk(knowledge, move, position)
    # not a move here (refused by the rules, the stock gone, a 31 to declare): the ranking has no figure
    return knock_risk(knowledge, samples=samples, seed=seed, opponent_model=model, observations=observations)


def _read_view(
    view: PlayerView, knock: bool, observations: Observations | None
) -> tuple[Knowledge, Position | None, Observations | None]:
    """A view's knowledge, its position (on the player's turn) and, for a knock risk, what was observed."""
    position: Position | None = None
    if view.to_move == view.player:
        position = Position.from_view(view)
        knowledge = position.knowledge
    else:
        knowledge = Knowledge.from_view(view)
    if observations is None and knock is True and len(knowledge.hand) == 3:  # only a knock risk reads them
        from ..model.observations import Observations

        observations = Observations.from_view(view, knock_rules=True)
    return knowledge, position, observations


def _modelled_position(
    knowledge: Knowledge, position: Position | None, observations: Observations | None, model: OpponentModelName
) -> Position:
    """The position the engine ranks: the view's or one built with the observations, fresh opponents if ``uniform``."""
    if position is None:
        turns = (
            observations.turns if observations is not None and len(observations.turns) == knowledge.opponents else None
        )
        position = Position.of(
            knowledge, opponent_turns=turns, observations=observations if turns is not None else None
        )
    if model == "uniform" and not position.observed().empty:  # every figure as if the opponents were just dealt
        from ..model.observations import Observations

        n = knowledge.opponents
        position = replace(position, opponent_turns=(0,) * n, observations=Observations((0,) * n, ((),) * n))
    return position
