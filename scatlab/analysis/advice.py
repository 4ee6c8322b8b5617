"""Advice as data: the recommended action, the numbers behind it and a plain-language reason.

**The rule the advice follows** (stated so lessons can teach it and tests can check it):

0. A hand of three cards worth 31 (or a Grand Cadillac, V13) is **declared**, never knocked:
   a 31 is shown at once and ends the hand (C8; a dealt 31, C9), and what it costs the
   others depends on the rules (a life each; a letter each under GIN, V14; a point for the
   declarer under French-Canadian, V16; the knocker two under V9). With manual declaring it
   must be declared at once or it counts as 30 (C10). A 31 already passed (a game view at
   the start of a turn, :attr:`Knowledge.undeclared_31`) can no longer be declared: the
   advice then follows rules 2 and 3 and says the 31 counts as 30.
1. With four cards (after drawing or taking): throw the card that leaves the strongest hand
   (a 31 left is declared at once, C8).
2. At the start of a turn, when the rules allow a knock: knock if the expected number of
   lives lost by knocking now (``P(lose one) + 2 P(lose two)``, see
   :mod:`scatlab.analysis.knock`) is at most ``1 / (2 × players)``, half a fair share.
3. Otherwise take the discard if the hand it makes (with the best discard) is worth at
   least the expected value of drawing, else draw; when drawing, the plan says which card
   to throw for every card that may come.

Percentages and decimals in the reason are for reading only; the numbers are Fractions.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Literal

from ..cards import Card, format_cards
from ..rules.options import RuleSet
from ..rules.values import is_blitz
from .knock import KnockRisk
from .onestep import TurnAnalysis

__all__ = ["Advice", "advise", "declare_advice", "knock_threshold"]

ActionName = Literal["declare", "knock", "take", "draw", "discard", "pass"]


@dataclass(frozen=True)
class Advice:
    """What to do now: ``action`` (and the ``discard`` for take/discard), a one-sentence
    ``reason`` citing the numbers, the ``numbers`` themselves (exact) and the rule ``codes``
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

    def __str__(self) -> str:
        what = f"{self.action} (throw {self.discard})" if self.discard is not None and self.action == "take" else (
            f"{self.action} {self.discard}" if self.discard is not None else self.action)
        return f"{what}: {self.reason}"


def knock_threshold(opponents: int) -> Fraction:
    """Knock when the expected lives lost by knocking is at most this: 1 / (2 × players)."""
    return Fraction(1, 2 * (opponents + 1))


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


def advise(turn: TurnAnalysis, risk: KnockRisk | None = None) -> Advice:
    """The advice for a one-turn analysis (and the knock risk, when one was computed)."""
    k = turn.knowledge
    if len(k.hand) == 3 and is_blitz(turn.value):
        if not k.undeclared_31:
            return declare_advice(turn.value, k.rules)
        played = _advise_play(turn, risk)
        passed = "this 31 was not declared at once, so it counts as 30 and can no longer be declared (C10); "
        return replace(played, reason=passed + played.reason, codes=("C10", *played.codes))
    return _advise_play(turn, risk)


def _advise_play(turn: TurnAnalysis, risk: KnockRisk | None) -> Advice:
    k = turn.knowledge
    if turn.discards:
        best = turn.discards[0]
        kept = format_cards((c for c in k.hand if c is not best.discard), pretty=True)
        reason = f"throw the {best.discard.pretty}: keeping {kept} is worth {_num(best.value)}"
        if len(turn.discards) > 1:
            reason += f" (the next best discard keeps {_num(turn.discards[1].value)})"
        codes: tuple[str, ...] = ("C5",)
        if is_blitz(best.value):
            if k.rules.declare == "manual":
                reason += ", to declare at once, or it counts as 30 (C8, C10)"
                codes = ("C5", "C8", "C10")
            else:
                reason += ", declared at once: the hand ends (C8)"
                codes = ("C5", "C8")
        return Advice("discard", reason, best.discard, {"value": best.value}, codes)
    if turn.draw is None:  # C11: the stock is exhausted: take the discard or pass
        take = turn.take
        if take is not None and take.best.value > turn.value:
            reason = (f"the stock is gone: taking the {take.card.pretty} and throwing the "
                      f"{take.best.discard.pretty} raises the hand from {_num(turn.value)} to {_num(take.best.value)}")
            return Advice("take", reason, take.best.discard, {"value": turn.value, "take_value": take.best.value},
                          ("C11", "C5"))
        reason = f"the stock is gone and the discard does not raise {_num(turn.value)}: pass, ending the hand"
        return Advice("pass", reason, None, {"value": turn.value}, ("C11",))
    draw = turn.draw
    numbers: dict[str, Fraction] = {
        "value": turn.value,
        "draw_expected_value": draw.expected_value,
        "p_31": draw.p_31,
        "p_improve": draw.p_improve,
    }
    knock_note = ""
    if risk is not None and risk.allowed:
        threshold = knock_threshold(k.opponents)
        numbers.update(p_lose_one=risk.p_lose_one, p_lose_two=risk.p_lose_two,
                       expected_loss=risk.expected_loss, knock_threshold=threshold)
        how = "exactly" if risk.exact else f"estimated over {risk.samples:,} deals"
        if risk.expected_loss <= threshold:
            reason = (
                f"knocking with {_num(turn.value)} loses one life with P = {_pct(risk.p_lose_one)} and two with "
                f"P = {_pct(risk.p_lose_two)} ({how}): {float(risk.expected_loss):.3f} lives expected, within the "
                f"{float(threshold):.3f} a knock may risk against {k.opponents} opponent"
                f"{'s' if k.opponents != 1 else ''}"
            )
            return Advice("knock", reason, None, numbers, ("C6", "C7"))
        knock_note = (f"; knocking now would risk {float(risk.expected_loss):.3f} lives "
                      f"(more than {float(threshold):.3f})")
    outs = f"{draw.count_31} of {draw.unseen} unseen cards make 31"
    if turn.take is not None:
        best = turn.take.best
        numbers["take_value"] = best.value
        take_text = f"{_num(best.value)} by taking the {turn.take.card.pretty} (throwing the {best.discard.pretty})"
        if best.value >= 31 or best.value >= draw.expected_value:
            reason = (f"taking the {turn.take.card.pretty} and throwing the {best.discard.pretty} makes "
                      f"{_num(best.value)} for sure; drawing is worth {_num(draw.expected_value)} on average "
                      f"({outs}){knock_note}")
            return Advice("take", reason, best.discard, numbers, ("C5",))
        reason = (f"{outs}; drawing is worth {_num(draw.expected_value)} on average against {take_text}"
                  f"{knock_note}")
        return Advice("draw", reason, None, numbers, ("C5",))
    reason = f"{outs}; drawing is worth {_num(draw.expected_value)} on average{knock_note}"
    return Advice("draw", reason, None, numbers, ("C5",))
