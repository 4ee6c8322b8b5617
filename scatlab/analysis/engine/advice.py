"""Advice as data: the recommended action, the numbers behind it and a plain-language reason.

**The advice is the first move of the one ranking** (:func:`scatlab.analysis.engine.ranking.rank`,
whose module doc states the rule and its model exactly): the table's hints and the game
review read the same ranking, so the advice, the hints and the review's best move always
agree. In short:

0. A hand of three cards worth 31 (or a Grand Cadillac, V13) is **declared**, never knocked,
   and a move that makes a 31 for sure (taking the discard into it, keeping it with the
   discard) comes before any other (C8, C9). A 31 already passed (C10,
   :attr:`Knowledge.undeclared_31`) counts as 30 and can no longer be declared.
1. Every legal move has one figure, the estimated **chance of winning the game** if you make
   it, and the advice is the move with the highest (:attr:`RankedMove.win`). The reason gives
   it as a level: "your chance of winning the game: 34.1% now; 37.2% if you draw, 36.8% if
   you take the 7♠". Moves within :data:`~scatlab.analysis.engine.scale.CLOSE_CALL` of the
   best are a **close call**, and the reason says so.
2. **Rules of thumb.** Lesson 2 teaches "take when the sure value beats the draw's average",
   lesson 3 "knock from the line" (:func:`~scatlab.analysis.engine.knock_line.knock_line`).
   Where the advice departs from the rule of thumb the reason says so in one sentence, with
   the figures that decide (:attr:`Advice.thumb`).

Percentages and decimals in the reason are for reading only; the numbers are Fractions.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Literal

from ...cards import Card, format_cards
from ...errors import AnalysisError
from ...rules.actions import Action, ActionKind
from ...rules.options import RuleSet
from ...words import DO, win_level, with_rule
from ...words import lives_words as _lives
from ...words import percent as _pct
from ...words import rounded_value as _one
from ...words import value_words as _num
from ..counting.knowledge import Knowledge
from ..counting.onestep import TurnAnalysis
from .knock_line import knock_line
from .position import Position
from .ranking import RankedMove, Ranking, rank
from .scale import CLOSE_CALL

__all__ = ["Advice", "advise", "declare_advice"]

ActionName = Literal["declare", "knock", "hammer", "stop_bus", "take", "draw", "discard", "pass"]

_ZERO = Fraction(0)


@dataclass(frozen=True)
class Advice:
    """What to do now: ``action`` (and the ``discard`` for take/discard), a one-sentence
    ``reason`` citing the numbers, the ``numbers`` themselves (Fractions: exact counts, save
    the changes in the chance of winning and, against more than one opponent, a knock's
    chances, which are the engine's estimates rounded to a millionth) and the rule ``codes``
    that govern the moment."""

    action: ActionName
    reason: str
    discard: Card | None = None
    numbers: dict[str, Fraction] = field(default_factory=dict)
    codes: tuple[str, ...] = ()
    thumb: str = ""
    """Where the advice departs from the rule of thumb a lesson taught, the one sentence that
    says so with the figures that decide (else empty)."""
    close: bool = False
    """The best move is a close call with another (within
    :data:`~scatlab.analysis.engine.scale.CLOSE_CALL` of its chance of winning)."""

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"action": self.action, "reason": self.reason}
        if self.discard is not None:
            data["discard"] = str(self.discard)
        data["numbers"] = {k: str(v) for k, v in self.numbers.items()}
        data["rules"] = list(self.codes)
        if self.thumb:
            data["rule_of_thumb"] = self.thumb
        data["close_call"] = self.close
        return data

    def as_action(self) -> Action:
        """The engine action advised now (a take's card to throw comes after it).

        >>> from scatlab.cards import parse_card
        >>> Advice("take", "", parse_card("8H")).as_action(), Advice("discard", "", parse_card("8H")).as_action()
        (Action(kind=<ActionKind.TAKE: 'take'>, card=None), Action(kind=<ActionKind.DISCARD: 'discard'>,
        card=Card('8H')))
        """
        if self.action == "discard":
            assert self.discard is not None
            return Action.discard(self.discard)
        return Action(ActionKind(self.action))

    def __str__(self) -> str:
        what = (
            f"{self.action} (throw {self.discard})"
            if self.discard is not None and self.action == "take"
            else (f"{self.action} {self.discard}" if self.discard is not None else self.action)
        )
        return f"{what}: {self.reason}"


def declare_advice(value: Fraction, rules: RuleSet) -> Advice:
    """The advice for a hand of three cards worth 31 (33 for a Grand Cadillac, V13) that may
    still be declared: declare it, never knock (C8, C9), with what it costs the others
    under ``rules``.

    >>> from scatlab.rules import find_rules
    >>> a = declare_advice(Fraction(31), find_rules("classic"))
    >>> a.action, a.codes
    ('declare', ('C8', 'C9'))
    >>> print(a.reason)
    a hand worth 31 is declared, not knocked: it is shown at once and the hand ends (C8; dealt, C9); every other
    player loses a life
    >>> declare_advice(Fraction(31), find_rules("french-canadian")).codes
    ('C8', 'C9', 'V16')
    """
    if rules.grand_cadillac and value > 31:
        what = f"three Aces are a Grand Cadillac ({_num(value)}), declared like 31 (V13)"
    elif rules.grand_cadillac:
        what = "a hand worth 31 (a Cadillac, V13) is declared, not knocked"
    else:
        what = f"a hand worth {_num(value)} is declared, not knocked"
    reason = f"{what}: it is shown at once and the hand ends (C8; dealt, C9)"
    codes: list[str] = ["C8", "C9"]
    if rules.grand_cadillac:
        codes.append("V13")
    if rules.score_keeping == "points":
        reason += "; it scores a point at once (V16)"
        codes.append("V16")
    elif rules.score_keeping == "gin":
        reason += "; everyone else gets a letter (V14)"
        codes.append("V14")
    else:
        unit = "moves up a step on the bus (V15)" if rules.score_keeping == "bus" else "loses a life"
        reason += f"; every other player {unit}"
        if rules.score_keeping == "bus":
            codes.append("V15")
        if rules.thirty_one_after_knock == "knocker_two":
            reason += "; after a knock, the knocker loses two (V9)"
            codes.append("V9")
    if rules.declare == "manual":
        reason += "; declare it now: a 31 not declared at once cannot be claimed later and counts as 30 (C10)"
        codes.append("C10")
    return Advice("declare", reason, None, {"value": value}, tuple(codes))


def advise(turn: TurnAnalysis, ranking: Ranking | None = None) -> Advice:
    """The advice for a one-turn analysis: the first move of ``ranking`` (by default the
    ranking of ``Position.of(turn.knowledge)``: opponents as just dealt, knocking allowed
    where the rules allow it).

    >>> from scatlab.analysis.counting.knowledge import Knowledge
    >>> from scatlab.analysis.counting.onestep import analyze_turn
    >>> a = advise(analyze_turn(Knowledge.of("10H 8H JH", discard="AH", opponents=2)))
    >>> a.action, a.discard                  # take the A-heart and throw the 8: a sure 31
    ('take', Card('8H'))
    """
    k = turn.knowledge
    if ranking is None:
        ranking = rank(Position.of(k))
    elif ranking.position.knowledge.hand != k.hand:
        raise AnalysisError("the ranking is of another hand than the turn analysis")
    best = ranking.best
    if best.action.kind is ActionKind.DECLARE:
        return declare_advice(turn.value, k.rules)
    played = _advise_play(turn, ranking)
    if len(k.hand) == 3 and k.undeclared_31:
        passed = "this 31 was not declared at once, so it counts as 30 and can no longer be declared (C10); "
        return replace(played, reason=passed + played.reason, codes=("C10", *played.codes))
    return played


def _ahead(ranking: Ranking) -> str:
    return ranking.ahead


def move_words(m: RankedMove, k: Knowledge) -> str:
    """A move as the advice says it after "if you": ``"draw"``, ``"take the 7♠ (throwing the 10♥)"``."""
    kind = m.action.kind
    if kind is ActionKind.TAKE:
        top = m.taken if m.taken is not None else k.top
        what = f"take the {top.pretty}" if top is not None else "take"
        return what + (f" (throwing the {m.then.pretty})" if m.then is not None else "")
    if kind is ActionKind.DISCARD and m.action.card is not None:
        return f"throw the {m.action.card.pretty}"
    return with_rule(kind.value, DO[kind.value])


def levels(ranking: Ranking, limit: int = 4) -> str:
    """The chance of winning the game as levels: now, then for the best moves (at most
    ``limit``), best first: ``"34.1% now; 37.2% if you draw, 36.8% if you take the 7♠
    (throwing the 10♥)"``."""
    k = ranking.position.knowledge
    parts = [f"{win_level(m.win)} if you {move_words(m, k)}" for m in ranking.moves[:limit]]
    return f"{win_level(ranking.now)} now; " + ", ".join(parts)


def _close_note(ranking: Ranking) -> str:
    """``": a close call with drawing"`` where another move is within the close-call width."""
    close = ranking.close_calls
    if not close:
        return ""
    k = ranking.position.knowledge
    names = " or ".join(move_words(m, k) for m in close[:2])
    return (
        f"; a close call: to {names} is within {float(CLOSE_CALL) * 100:.1f}%, closer than the estimates can tell apart"
    )


def _thumb(turn: TurnAnalysis, ranking: Ranking) -> str:
    """The rule of thumb a lesson taught, where the advice departs from it (else empty):
    lesson 2's "take when the sure value beats the draw's average" (one draw), lesson 3's
    "knock from the line". The figure that decides comes first (the chance of winning the
    game, the advice's one scale, as levels), then the value five turns ahead, said the way
    it points (it may point the other way: the chance of winning also weighs what the
    throw feeds the next player and how the hand may end).

    >>> from scatlab.analysis.counting.knowledge import Knowledge
    >>> from scatlab.analysis.counting.onestep import analyze_turn
    >>> _thumb(analyze_turn(Knowledge.of("10H 8H JH", discard="AH", opponents=2)),
    ...        rank(Position.of(Knowledge.of("10H 8H JH", discard="AH", opponents=2))))   # a sure 31: no thumb
    ''
    """
    k = turn.knowledge
    best = ranking.best
    kinds = ranking.position.kinds
    if best.sure_31 or len(k.hand) != 3:
        return ""
    notes = []
    if (
        turn.take is not None
        and turn.draw is not None
        and ActionKind.TAKE in kinds
        and ActionKind.DRAW in kinds
        and best.action.kind in (ActionKind.TAKE, ActionKind.DRAW)
    ):
        sure, average = turn.take.best.value, turn.draw.expected_value
        thumb = "take" if sure > average else "draw"
        if thumb != best.action.kind.value:
            take, draw = ranking.move(Action.TAKE), ranking.move(Action.DRAW)
            drawing = best.action.kind is ActionKind.DRAW
            better, worse = ("drawing", "taking") if drawing else ("taking", "drawing")
            hi_w, lo_w = (draw.win, take.win) if drawing else (take.win, draw.win)
            close = take.close or draw.close
            little = "a little " if close else ""
            text = (
                f"the rule of thumb says {thumb} ({_one(sure)} sure against {_one(average)} on average after "
                f"one draw); here {better} is {little}better: your chance of winning the game is "
                f"{win_level(hi_w)} against {win_level(lo_w)}{' (a close call)' if close else ''}"
            )
            if take.value is not None and draw.value is not None and ranking.horizon:
                hi_v, lo_v = (draw.value, take.value) if drawing else (take.value, draw.value)
                if hi_v >= lo_v:
                    text += (
                        f"; looking {ranking.ahead} {better} is also worth more on average "
                        f"({_one(hi_v)} against {_one(lo_v)})"
                    )
                else:
                    text += (
                        f"; looking {ranking.ahead} {worse} is worth more on average ({_one(lo_v)} against "
                        f"{_one(hi_v)}), but the chance of winning also counts what each leaves the next "
                        "player and how the hand may end"
                    )
            notes.append(text)
    if ActionKind.KNOCK in kinds and k.opponents <= 8:
        line = _line(ranking)
        if line is not None:
            knock = ranking.move(Action.KNOCK)
            says_knock = turn.value >= line
            knocks = best.action.kind is ActionKind.KNOCK
            if says_knock != knocks:
                on = ranking.play_on
                assert on is not None
                hi, lo = (knock.win, on.win) if knocks else (on.win, knock.win)
                what = "knocking" if knocks else "playing on"
                close = knock.close or on.close
                notes.append(
                    f"the rule of thumb says {'knock' if says_knock else 'play on'} (the line is "
                    f"{_one(line)}, you hold {_one(turn.value)}); here {what} is "
                    f"{'a little ' if close else ''}better: your chance of winning the game is "
                    f"{win_level(hi)} against {win_level(lo)}{' (a close call)' if close else ''}"
                    f"{_why_not_line(ranking)}"
                )
    return "; ".join(notes)


def _line(ranking: Ranking) -> Fraction | None:
    """Lesson 3's knock line for this position: its rules, opponents, turns played (the
    fewest of any opponent) and lives."""
    p = ranking.position
    k = p.knowledge
    turns = min(p.opponent_turns) if p.opponent_turns else 0
    lives = p.seats.lives[p.seats.player] if k.rules.score_keeping != "points" else None
    try:
        return knock_line(k.rules, k.opponents, min(turns, 20), lives if lives and lives > 0 else None).line
    except AnalysisError:
        return None


def _why_not_line(ranking: Ranking) -> str:
    """Why an exact hand departs from the chart's average hand of its value, in one clause."""
    p = ranking.position
    k = p.knowledge
    reasons = []
    if k.top is not None:
        reasons.append(f"the {k.top.pretty} on the pile")
    if p.view is not None and any(p.observed().rejected[i] for i in range(k.opponents)):
        reasons.append("what the opponents passed over")
    if not reasons:
        return ""
    return f" (the line is for an average hand; this one reads {' and '.join(reasons)})"


def _advise_play(turn: TurnAnalysis, ranking: Ranking) -> Advice:
    k = turn.knowledge
    best = ranking.best
    kind = best.action.kind
    numbers: dict[str, Fraction] = {"value": turn.value, "win_now": ranking.now, "win": best.win, "loss": best.loss}
    for m in ranking.moves:
        numbers.setdefault(f"{m.action.kind.value}_win", m.win)
    ahead = _ahead(ranking)
    chance = f"your chance of winning the game: {levels(ranking)}"
    close = _close_note(ranking)
    thumb = _thumb(turn, ranking)
    tail = close + (f"; {thumb}" if thumb else "")
    endings = [m for m in ranking.moves if m.ends_hand]
    if endings:
        e = endings[0]
        assert e.lives is not None
        numbers[f"{e.action.kind.value}_expected_loss"] = e.lives
        numbers[f"{e.action.kind.value}_loss"] = e.loss
    if best.ends_hand:
        return _advise_ending(turn, ranking, numbers, chance, tail, thumb)
    knock_note = ""
    if endings:
        e = endings[0]
        assert e.lives is not None
        knock_note = (
            f"; to {move_words(e, k)} would cost {_lives(e.lives)} {ranking.unit} expected "
            f"(P(lose a life) = {_pct(e.loss)})"
        )
    if kind is ActionKind.DISCARD:
        return _advise_discard(turn, ranking, numbers, chance, ahead, knock_note, tail, thumb)
    draw = turn.draw
    take = ranking.move(Action.TAKE) if ActionKind.TAKE in ranking.position.kinds else None
    if draw is not None:
        numbers.update(draw_expected_value=draw.expected_value, p_31=draw.p_31, p_improve=draw.p_improve)
    if ActionKind.DRAW in ranking.position.kinds:
        numbers["draw_horizon_value"] = ranking.move(Action.DRAW).value or _ZERO
    if take is not None and take.value is not None:
        numbers["take_horizon_value"] = take.value
    if kind is ActionKind.PASS:
        reason = f"the stock is gone and the discard does not raise {_num(turn.value)}: pass, ending the hand"
        return Advice("pass", reason + f"; {chance}", None, numbers, ("C11",), thumb, bool(ranking.close_calls))
    if kind is ActionKind.TAKE:
        return _advise_take(turn, ranking, numbers, chance, ahead, knock_note, tail, thumb)
    assert kind is ActionKind.DRAW and draw is not None and best.value is not None
    outs = f"{draw.count_31} of {draw.unseen} unseen cards make 31"
    if take is not None and take.value is not None and turn.take is not None:
        assert take.then is not None
        reason = (
            f"drawing is best: {chance}; drawing is worth {_num(best.value)} {ahead} against {_num(take.value)} by "
            f"taking the {turn.take.card.pretty}; {outs}{knock_note}{tail}"
        )
    else:
        reason = f"drawing is best: {chance}; drawing is worth {_num(best.value)} {ahead}; {outs}{knock_note}{tail}"
    return Advice("draw", reason, None, numbers, ("C5",), thumb, bool(ranking.close_calls))


def _advise_ending(
    turn: TurnAnalysis, ranking: Ranking, numbers: dict[str, Fraction], chance: str, tail: str, thumb: str
) -> Advice:
    """:func:`_advise_play` when the best move ends the hand (a knock, a hammer, stopping the
    bus): what it costs; ``tail``: the close call and the rule of thumb."""
    k = turn.knowledge
    best = ranking.best
    kind = best.action.kind
    assert best.lives is not None and best.p_one is not None and best.p_two is not None
    numbers.update(p_lose_one=best.p_one, p_lose_two=best.p_two, expected_loss=best.lives)
    on = ranking.play_on
    if on is not None:
        numbers["play_on_loss"] = on.loss
    unit = ranking.unit
    value = turn.discards[0].value if turn.discards else turn.value
    odds = (
        f"P(lose one) = {_pct(best.p_one)}"
        if k.rules.score_keeping in ("gin", "points")
        else f"P(lose one) = {_pct(best.p_one)}, P(lose two) = {_pct(best.p_two)}"
    )
    if k.rules.score_keeping == "points":
        odds = f"P(not scoring the point) = {_pct(best.p_one)}"
    what = {
        ActionKind.KNOCK: "knocking",
        ActionKind.HAMMER: "a hammer (V10)",
        ActionKind.STOP_BUS: "stopping the bus (V19)",
    }[kind]
    reason = (
        f"{what} with {_num(value)} is best: {chance}; it costs {_lives(best.lives)} {unit} expected ({odds}){tail}"
    )
    end_codes = {ActionKind.KNOCK: ("C6", "C7"), ActionKind.HAMMER: ("V10", "C7"), ActionKind.STOP_BUS: ("V19", "C7")}[
        kind
    ]
    action: ActionName = {ActionKind.KNOCK: "knock", ActionKind.HAMMER: "hammer", ActionKind.STOP_BUS: "stop_bus"}[kind]  # type: ignore[assignment]
    return Advice(action, reason, None, numbers, end_codes, thumb, bool(ranking.close_calls))


def _advise_discard(
    turn: TurnAnalysis,
    ranking: Ranking,
    numbers: dict[str, Fraction],
    chance: str,
    ahead: str,
    knock_note: str,
    tail: str,
    thumb: str,
) -> Advice:
    """:func:`_advise_play` when the best move is a throw (four cards in hand); ``knock_note``
    and ``tail``: what follows the chance of winning (what ending the hand would cost; the
    close call and the rule of thumb)."""
    k = turn.knowledge
    best = ranking.best
    card = best.action.card
    assert card is not None and best.value is not None
    kept = format_cards((c for c in k.hand if c is not card), pretty=True)
    reason = f"throw the {card.pretty}: keeping {kept} is worth {_num(best.value)} {ahead}"
    numbers["discard_value"] = best.value
    codes: tuple[str, ...] = ("C5",)
    if best.sure_31:
        if k.rules.declare == "manual":
            reason += ", to declare at once, or it counts as 30 (C8, C10)"
            codes = ("C5", "C8", "C10")
        else:
            reason += ", declared at once: the hand ends (C8)"
            codes = ("C5", "C8")
    reason += f"; {chance}{knock_note}{tail}"
    return Advice("discard", reason, card, numbers, codes, thumb, bool(ranking.close_calls))


def _advise_take(
    turn: TurnAnalysis,
    ranking: Ranking,
    numbers: dict[str, Fraction],
    chance: str,
    ahead: str,
    knock_note: str,
    tail: str,
    thumb: str,
) -> Advice:
    """:func:`_advise_play` when taking the discard is best; ``knock_note`` and ``tail`` as
    for :func:`_advise_discard`."""
    k = turn.knowledge
    best = ranking.best
    draw = turn.draw
    assert best.then is not None and best.value is not None and turn.take is not None
    shown = turn.take.card.pretty
    if best.sure_31:
        end = (
            ", to declare at once (C8, C10)"
            if k.rules.declare == "manual"
            else ", declared at once: the hand ends (C8)"
        )
        reason = f"taking the {shown} and throwing the {best.then.pretty} makes 31{end}; {chance}"
        return Advice("take", reason, best.then, numbers, ("C5", "C8"), thumb, bool(ranking.close_calls))
    if draw is None:
        reason = (
            f"the stock is gone: taking the {shown} and throwing the {best.then.pretty} makes "
            f"{_num(best.value)} (passing ends the hand with {_num(turn.value)}); {chance}"
        )
        return Advice("take", reason, best.then, numbers, ("C11", "C5"), thumb, bool(ranking.close_calls))
    draw_move = ranking.move(Action.DRAW)
    assert draw_move.value is not None
    reason = (
        f"taking the {shown} (throwing the {best.then.pretty}) is best: {chance}; taking is worth "
        f"{_num(best.value)} {ahead}, drawing {_num(draw_move.value)}{knock_note}{tail}"
    )
    return Advice("take", reason, best.then, numbers, ("C5",), thumb, bool(ranking.close_calls))
