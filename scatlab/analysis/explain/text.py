"""The plain-text report of an analysis (``scatlab analyze`` without ``--json``).

Exact fractions come first; the decimals and percentages beside them are for reading.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from ...cards import format_cards
from ..engine.ranking import win_change

if TYPE_CHECKING:
    from .report import Analysis

__all__ = ["render_text"]


def _frac(p: Fraction) -> str:
    return str(p) if p.denominator == 1 else f"{p} ≈ {float(p):.2f}"


def estimate(p: Fraction | float, std_error: float | None) -> str:
    """A Monte Carlo estimate as a decimal with its standard error (three decimals, four
    when the error is below 0.001).

    >>> estimate(Fraction(2140, 10000), 0.0041)
    '0.214 ± 0.004'
    >>> estimate(Fraction(21, 2500), 0.00091)
    '0.0084 ± 0.0009'
    """
    se = std_error or 0.0
    places = 3 if se >= 0.001 else 4
    return f"{float(p):.{places}f} ± {se:.{places}f}"


def _short(v: Fraction) -> str:
    return str(v) if v.denominator <= 2 and v.denominator == 1 else (f"{float(v):g}" if v.denominator == 2
                                                                    else f"{float(v):.2f}")


def _lives(x: Fraction) -> str:
    return "0" if x == 0 else f"{float(x):.3f}"


def _prob(p: Fraction) -> str:
    return f"{p} ({float(p) * 100:.1f}%)"


def render_text(a: Analysis) -> str:
    """The analysis as a readable table."""
    k = a.knowledge
    lines = [
        f"Hand {format_cards(k.hand, pretty=True)} = {a.value}   "
        f"({k.rules.name} rules; {k.opponents} opponent{'s' if k.opponents != 1 else ''}; "
        f"{len(k.unseen)} unseen cards)",
    ]
    if k.dead or any(k.opponent_holds):
        known = []
        if k.dead:
            known.append(f"dead: {format_cards(k.dead, pretty=True)}")
        for i, held in enumerate(k.opponent_holds):
            if held:
                known.append(f"opponent {i + 1} holds {format_cards(held, pretty=True)}")
        lines.append("Known: " + "; ".join(known))
    t = a.turn
    if t.discards:
        lines.append("Discard options: " + " | ".join(f"throw {o.discard.pretty} -> {o.value}" for o in t.discards))
    if t.take is not None:
        lines.append(f"Take the {t.take.card.pretty}: "
                     + " | ".join(f"throw {o.discard.pretty} -> {o.value}" for o in t.take.options))
    if t.draw is not None:
        d = t.draw
        outs = format_cards(d.outs_31, pretty=True) or "none"
        lines.append(f"Draw: expected value {_frac(d.expected_value)}; P(31) = {_prob(d.p_31)}, outs {outs}; "
                     f"P(improve) = {_prob(d.p_improve)}")
        groups: dict[str, list[str]] = {}
        back = 0
        for o in d.outcomes:
            if o.discard is o.card:
                back += 1
            else:
                groups.setdefault(o.discard.pretty, []).append(o.card.pretty)
        plan = [f"throw {thrown} on drawing {' '.join(cards)}" for thrown, cards in groups.items()]
        if back:
            plan.append(f"throw the card back on the other {back}")
        lines.append("  plan: " + "; ".join(plan))
        lines.append("  value  probability")
        for value, p in d.distribution.items():
            lines.append(f"  {str(value):>5}  {str(p):>6}  {float(p) * 100:5.1f}%")
    if a.knock is not None:
        r = a.knock
        allowed = "" if r.allowed else f" [not allowed now: {r.refusal}]"
        model = "" if r.model == "uniform" else ", opponents weighted by what they were seen to do"
        if r.exact:
            lines.append(f"Knock risk with {r.value}: P(lose one) = {_prob(r.p_lose_one)}, "
                         f"P(lose two) = {_prob(r.p_lose_two)} (exact{model}){allowed}")
        else:  # an estimate: a decimal with its standard error, never a fraction that looks exact
            lines.append(f"Knock risk with {r.value}: P(lose one) = {estimate(r.p_lose_one, r.std_error_one)}, "
                         f"P(lose two) = {estimate(r.p_lose_two, r.std_error_two)} "
                         f"(Monte Carlo, {r.samples:,} deals{model}){allowed}")
    if len(a.horizon) > 1:
        lines.append("Horizon (drawing each turn): " + "; ".join(
            f"{i} turn{'s' if i != 1 else ''} {_frac(v)}" for i, v in enumerate(a.horizon) if i > 0))
    ranking = a.ranking
    if ranking is not None and len(ranking.moves) > 1:
        ahead = ranking.ahead
        ranked = []
        for i, m in enumerate(ranking.moves, start=1):
            if m.ends_hand and m.lives is not None:
                figure = f"{_lives(m.lives)} {ranking.unit} expected" + (
                    f", chance of winning {win_change(m.win)}" if m.win is not None else "")
            elif m.value is not None:
                figure = "a sure 31" if m.sure_31 else f"worth {_short(m.value)} {ahead}"
            else:
                figure = ""
            ranked.append(f"{i}. {m.label()} ({figure})" if figure else f"{i}. {m.label()}")
        on = ranking.play_on_lives
        tail = (f"; playing on costs {_lives(on)} {ranking.unit} expected"
                + (f", chance of winning {win_change(ranking.play_on_win)}"
                   if ranking.play_on_win is not None else "")
                if on is not None and any(m.ends_hand for m in ranking.moves) else "")
        lines.append("Moves ranked: " + "; ".join(ranked) + tail)
    adv = a.advice
    action = adv.action.upper().replace("_", " ") + (f" (throw {adv.discard.pretty})" if adv.discard is not None else "")
    lines.append(f"Advice: {action}: {adv.reason}")
    return "\n".join(lines)
