"""Advice as data: the recommended action, the numbers behind it and a plain-language reason.

**The advice is the first move of the one ranking** (:func:`scatlab.analysis.engine.ranking.rank`,
whose module doc states the rule and its model exactly): the table's hints and the game
review read the same ranking, so the advice, the hints and the review's best move always
agree. In short:

0. A hand of three cards worth 31 (or a Grand Cadillac, V13) is **declared**, never knocked,
   and a move that makes a 31 for sure (taking the discard into it, keeping it with the
   discard) comes before any other (C8, C9). A 31 already passed (C10,
   :attr:`Knowledge.undeclared_31`) counts as 30 and can no longer be declared.
1. A knock (C6; a hammer, V10; stopping the bus, V19) is advised when it raises the chance
   of winning the game more than playing on does, by the engine's margin (playing on keeps
   the option to knock later), or when it is all but safe: the engine's rule and its model
   of opponents and standing are stated in :mod:`scatlab.analysis.engine.ranking`. There is no
   fixed knock line (:func:`~scatlab.analysis.engine.ranking.knock_line` derives the rule of
   thumb the lessons teach from the same engine). The reason quotes the knock's chances of
   losing one and two lives and both moves' change in the chance of winning.
2. Otherwise the move that leaves the best expected hand value
   :data:`~scatlab.analysis.engine.ranking.HORIZON` (5) turns ahead: draw or take at the start of a
   turn (with the plan of which card to throw for every card that may come), the discard
   with four cards; on a last turn and with the stock gone, the best hand now.

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
from ..counting.onestep import TurnAnalysis
from .ranking import Position, RankedMove, Ranking, ends_the_hand, nearly_safe, rank, win_change as _signed

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

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"action": self.action, "reason": self.reason}
        if self.discard is not None:
            data["discard"] = str(self.discard)
        data["numbers"] = {k: str(v) for k, v in self.numbers.items()}
        data["rules"] = list(self.codes)
        return data

    def as_action(self) -> Action:
        """The engine action advised now (a take's card to throw comes after it).

        >>> from scatlab.cards import parse_card
        >>> Advice("take", "", parse_card("8H")).as_action(), Advice("discard", "", parse_card("8H")).as_action()
        (Action(kind=<ActionKind.TAKE: 'take'>, card=None), Action(kind=<ActionKind.DISCARD: 'discard'>, card=Card('8H')))
        """
        if self.action == "discard":
            assert self.discard is not None
            return Action.discard(self.discard)
        return Action(ActionKind(self.action))

    def __str__(self) -> str:
        what = f"{self.action} (throw {self.discard})" if self.discard is not None and self.action == "take" else (
            f"{self.action} {self.discard}" if self.discard is not None else self.action)
        return f"{what}: {self.reason}"


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def _num(v: Fraction) -> str:
    return str(v) if v.denominator == 1 else f"{float(v):.2f}"


def declare_advice(value: Fraction, rules: RuleSet) -> Advice:
    """The advice for a hand of three cards worth 31 (33 for a Grand Cadillac, V13) that may
    still be declared: declare it, never knock (C8, C9), with what it costs the others
    under ``rules``.

    >>> from scatlab.rules import find_rules
    >>> a = declare_advice(Fraction(31), find_rules("classic"))
    >>> a.action, a.codes
    ('declare', ('C8', 'C9'))
    >>> print(a.reason)
    a hand worth 31 is declared, not knocked: it is shown at once and the hand ends (C8; dealt, C9); every other player loses a life
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


def _ending_note(ranking: Ranking, numbers: dict[str, Fraction]) -> str:
    """The knock (hammer, bus stop) left alone, with its change in the chance of winning
    against playing on's."""
    ends = [m for m in ranking.moves if m.ends_hand and m.lives is not None and m.win is not None]
    on = ranking.play_on_lives
    if not ends or on is None or ranking.play_on_win is None:
        return ""
    m = ends[0]  # the best of them (the ranking orders the ends of the hand by the chance of winning)
    assert m.lives is not None and m.win is not None
    numbers[f"{m.action.kind.value}_expected_loss"] = m.lives
    numbers[f"{m.action.kind.value}_win_change"] = m.win
    numbers["play_on_expected_loss"] = on
    numbers["play_on_win_change"] = ranking.play_on_win
    return (f"; {_ENDING_WORDS[m.action.kind]} now would cost {_lives(m.lives)} {ranking.unit} expected and change "
            f"the chance of winning the game by {_signed(m.win)}, playing on by {_signed(ranking.play_on_win)}"
            f"{_ending_rule(ranking, m) if not ranking.best.sure_31 else ''}")


def _ending_rule(ranking: Ranking, m: RankedMove) -> str:
    """Why figures that favour ending the hand (``m``, not advised) do not end it: the
    engine's rule in words (module doc of :mod:`~scatlab.analysis.engine.ranking`, rule 2),
    with this position's limit and margin; empty where the figures do not favour it (they
    speak for themselves) or where the rule would end it on these figures (then a screen or
    an exact count decided, not the rule)."""
    assert m.win is not None and m.lives is not None and ranking.play_on_win is not None
    if m.win < ranking.play_on_win:
        return ""
    if ends_the_hand(m.lives, m.win, ranking.play_on_win, ranking.limit, ranking.margin):
        return ""
    verb = {ActionKind.KNOCK: "knocks", ActionKind.HAMMER: "hammers",
            ActionKind.STOP_BUS: "stops the bus"}[m.action.kind]
    points = f"{float(ranking.margin) * 100:.1f}".removesuffix(".0")
    return (f": the advice {verb} only when that costs at most {_limit(ranking)} {ranking.unit} without "
            f"lowering the chance of winning (nearly safe), or beats playing on by {points} points or more "
            "(playing on keeps the choice to end the hand later with a better one)")


def _limit(ranking: Ranking) -> str:
    """The nearly-safe limit as the lessons write it: ``0.1``, ``0.15``."""
    return f"{float(ranking.limit):.3f}".rstrip("0")


_ENDING_WORDS = {ActionKind.KNOCK: "knocking", ActionKind.HAMMER: "a hammer (V10)",
                 ActionKind.STOP_BUS: "stopping the bus (V19)"}


def _lives(x: Fraction) -> str:
    return "0" if x == 0 else f"{float(x):.3f}"




def _advise_play(turn: TurnAnalysis, ranking: Ranking) -> Advice:
    k = turn.knowledge
    best = ranking.best
    kind = best.action.kind
    numbers: dict[str, Fraction] = {"value": turn.value}
    ahead = _ahead(ranking)
    if best.ends_hand:
        assert best.lives is not None and best.p_one is not None and best.p_two is not None
        on = ranking.play_on_lives
        numbers.update(p_lose_one=best.p_one, p_lose_two=best.p_two, expected_loss=best.lives)
        if on is not None:
            numbers["play_on_expected_loss"] = on
        unit = ranking.unit
        what = _ENDING_WORDS[kind]
        value = turn.discards[0].value if turn.discards else turn.value
        odds = (f"P(lose one) = {_pct(best.p_one)}" if k.rules.score_keeping in ("gin", "points")
                else f"P(lose one) = {_pct(best.p_one)}, P(lose two) = {_pct(best.p_two)}")
        if k.rules.score_keeping == "points":
            odds = f"P(not scoring the point) = {_pct(best.p_one)}"
        assert best.win is not None
        if ranking.play_on_win is not None:
            numbers.update(win_change=best.win, play_on_win_change=ranking.play_on_win)
            compared = (f"it changes the chance of winning the game by {_signed(best.win)}, playing on by "
                        f"{_signed(ranking.play_on_win)}")
            if best.win < ranking.play_on_win and nearly_safe(best.lives, best.win, ranking.limit):
                compared += (f": nearly safe (at most {_limit(ranking)} {unit} without lowering the chance of "
                             "winning), and the advice takes a nearly safe end of the hand")  # not its figure
        else:
            numbers["win_change"] = best.win
            compared = f"it changes the chance of winning the game by {_signed(best.win)}"
        reason = f"{what} with {_num(value)} costs {_lives(best.lives)} {unit} expected ({odds}); {compared}"
        end_codes = {ActionKind.KNOCK: ("C6", "C7"), ActionKind.HAMMER: ("V10", "C7"),
                     ActionKind.STOP_BUS: ("V19", "C7")}[kind]
        action: ActionName = {ActionKind.KNOCK: "knock", ActionKind.HAMMER: "hammer",
                              ActionKind.STOP_BUS: "stop_bus"}[kind]  # type: ignore[assignment]
        return Advice(action, reason, None, numbers, end_codes)
    if kind is ActionKind.DISCARD:
        card = best.action.card
        assert card is not None and best.value is not None
        kept = format_cards((c for c in k.hand if c is not card), pretty=True)
        reason = f"throw the {card.pretty}: keeping {kept} is worth {_num(best.value)} {ahead}"
        others = [m for m in ranking.moves if m.action.kind is ActionKind.DISCARD and m is not best]
        if others and others[0].value is not None:
            reason += f" (the next best discard keeps {_num(others[0].value)})"
        numbers["discard_value"] = best.value
        codes: tuple[str, ...] = ("C5",)
        if best.sure_31:
            if k.rules.declare == "manual":
                reason += ", to declare at once, or it counts as 30 (C8, C10)"
                codes = ("C5", "C8", "C10")
            else:
                reason += ", declared at once: the hand ends (C8)"
                codes = ("C5", "C8")
        reason += _ending_note(ranking, numbers)
        return Advice("discard", reason, card, numbers, codes)
    draw = turn.draw
    take = ranking.move(Action.TAKE) if ActionKind.TAKE in ranking.position.kinds else None
    if draw is not None:
        numbers.update(draw_expected_value=draw.expected_value, p_31=draw.p_31, p_improve=draw.p_improve)
    if ActionKind.DRAW in ranking.position.kinds:
        numbers["draw_horizon_value"] = ranking.move(Action.DRAW).value or _ZERO
    if take is not None and take.value is not None:
        numbers["take_horizon_value"] = take.value
    note = _ending_note(ranking, numbers)
    if kind is ActionKind.PASS:
        reason = f"the stock is gone and the discard does not raise {_num(turn.value)}: pass, ending the hand"
        return Advice("pass", reason, None, numbers, ("C11",))
    if kind is ActionKind.TAKE:
        assert best.then is not None and best.value is not None and turn.take is not None
        shown = turn.take.card.pretty
        if best.sure_31:
            end = (", to declare at once (C8, C10)" if k.rules.declare == "manual"
                   else ", declared at once: the hand ends (C8)")
            reason = f"taking the {shown} and throwing the {best.then.pretty} makes 31{end}" + note
            return Advice("take", reason, best.then, numbers, ("C5", "C8"))
        if draw is None:
            reason = (f"the stock is gone: taking the {shown} and throwing the {best.then.pretty} makes "
                      f"{_num(best.value)} (passing ends the hand with {_num(turn.value)})")
            return Advice("take", reason, best.then, numbers, ("C11", "C5"))
        draw_move = ranking.move(Action.DRAW)
        assert draw_move.value is not None
        reason = (f"taking the {shown} (throwing the {best.then.pretty}) is worth {_num(best.value)} {ahead}, "
                  f"drawing {_num(draw_move.value)}{note}")
        return Advice("take", reason, best.then, numbers, ("C5",))
    assert kind is ActionKind.DRAW and draw is not None and best.value is not None
    outs = f"{draw.count_31} of {draw.unseen} unseen cards make 31"
    if take is not None and take.value is not None and turn.take is not None:
        assert take.then is not None
        reason = (f"drawing is worth {_num(best.value)} {ahead} against {_num(take.value)} by taking the "
                  f"{turn.take.card.pretty} (throwing the {take.then.pretty}); {outs}{note}")
    else:
        reason = f"drawing is worth {_num(best.value)} {ahead}; {outs}{note}"
    return Advice("draw", reason, None, numbers, ("C5",))
