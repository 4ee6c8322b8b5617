"""The plain-text report of an analysis (``scatlab analyze`` without ``--json``).

Exact fractions come first; the decimals and percentages beside them are for reading. A
hand value with a half is written ``30.5`` (never ``61/2``). Every chance of winning the
game is a level in percent (``46.9%``), the unit of the advice; each figure is stated once,
and the knock's chances are the ranking's own (:mod:`scatlab.analysis.explain.report`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...cards import format_cards
from ...rules.actions import ActionKind
from ...words import estimate_words as estimate
from ...words import exact_chance as _prob
from ...words import exact_value as _value
from ...words import lives_words as _lives
from ...words import percent as _pct
from ...words import value_words as _short
from ...words import win_level
from ..engine.ranking import RankedMove, Ranking

if TYPE_CHECKING:
    from ..counting.knowledge import Knowledge
    from ..counting.onestep import DrawAnalysis
    from ..model.knock import KnockRisk
    from .report import Analysis

__all__ = ["render_text", "estimate"]  # estimate: the words the derivation writes an estimate with too


def _ending(m: RankedMove, unit: str, points: bool) -> str:
    """The figures of a move that ends the hand: its chances of losing one and two lives
    (exact counts as fractions, the engine's estimates in percent) and the lives expected."""
    assert m.p_one is not None and m.p_two is not None and m.lives is not None
    chance = _prob if m.exact_risk else _pct
    if points:
        odds = f"P(not scoring the point) = {chance(m.p_one)}"
    else:
        odds = f"P(lose one) = {chance(m.p_one)}, P(lose two) = {chance(m.p_two)}"
    how = "counted exactly" if m.exact_risk else "the engine's estimates"
    return f"{odds}: {_lives(m.lives)} {unit} expected ({how})"


def render_text(a: Analysis) -> str:
    """The analysis as a readable table: the exact counts first (taking, drawing), then
    every move ranked by the engine with its figures, each stated once (the knock's are the
    ranking's own), then the advice. Every chance of winning the game is a level in percent."""
    k = a.knowledge
    lines = [
        f"Hand {format_cards(k.hand, pretty=True)} = {_value(a.value)}   "
        f"({k.rules.name} rules; {k.opponents} opponent{'s' if k.opponents != 1 else ''}; "
        f"{len(k.unseen)} unseen cards)",
    ]
    if k.dead or any(k.opponent_holds):
        lines.append(_known(k))
    t = a.turn
    if t.discards:
        lines.append(
            "Discard options: " + " | ".join(f"throw {o.discard.pretty} -> {_value(o.value)}" for o in t.discards)
        )
    if t.take is not None:
        lines.append(
            f"Take the {t.take.card.pretty}: "
            + " | ".join(f"throw {o.discard.pretty} -> {_value(o.value)}" for o in t.take.options)
        )
    if t.draw is not None:
        lines += _draw_lines(t.draw)
    ranked_knock = a.ranking is not None and any(m.action.kind is ActionKind.KNOCK for m in a.ranking.moves)
    if a.knock is not None and not ranked_knock:  # not a move here: its own figure, not the ranking's
        lines.append(_knock_risk_line(a.knock))
    if a.knock_left_out:
        lines.append("Knock: left out, as asked: the moves are ranked and the advice given without it")
    if len(a.horizon) > 1:
        lines.append(
            "Horizon (drawing each turn): "
            + "; ".join(f"{i} turn{'s' if i != 1 else ''} {_value(v)}" for i, v in enumerate(a.horizon) if i > 0)
        )
    ranking = a.ranking
    if ranking is not None and len(ranking.moves) > 1:
        lines += _ranking_lines(ranking, k.rules.score_keeping == "points")
    adv = a.advice
    action = adv.action.upper().replace("_", " ") + (
        f" (throw {adv.discard.pretty})" if adv.discard is not None else ""
    )
    lines.append(f"Advice: {action}: {adv.reason}")
    return "\n".join(lines)


def _known(k: Knowledge) -> str:
    """The line of the cards known beside the hand: the dead cards and what each opponent
    is known to hold."""
    known = []
    if k.dead:
        known.append(f"dead: {format_cards(k.dead, pretty=True)}")
    for i, held in enumerate(k.opponent_holds):
        if held:
            known.append(f"opponent {i + 1} holds {format_cards(held, pretty=True)}")
    return "Known: " + "; ".join(known)


def _draw_lines(d: DrawAnalysis) -> list[str]:
    """Drawing's exact figures: the expected value and the chances, the plan (what to throw
    on drawing each card) and the distribution of the value kept."""
    outs = format_cards(d.outs_31, pretty=True) or "none"
    lines = [
        f"Draw: expected value {_value(d.expected_value)}; P(31) = {_prob(d.p_31)}, outs {outs}; "
        f"P(improve) = {_prob(d.p_improve)}"
    ]
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
        lines.append(f"  {_value(value):>5}  {str(p):>6}  {float(p) * 100:5.1f}%")
    return lines


def _knock_risk_line(r: KnockRisk) -> str:
    """The knock risk's line when knocking is not a ranked move: exact, or an estimate with
    its standard error."""
    allowed = "" if r.allowed else f" [not allowed now: {r.refusal}]"
    model = "" if r.model == "uniform" else ", opponents weighted by what they were seen to do"
    if r.exact:
        return (
            f"Knock risk with {_value(r.value)}: P(lose one) = {_prob(r.p_lose_one)}, "
            f"P(lose two) = {_prob(r.p_lose_two)} (exact{model}){allowed}"
        )
    # an estimate: a decimal with its standard error, never a fraction that looks exact
    return (
        f"Knock risk with {_value(r.value)}: P(lose one) = {estimate(r.p_lose_one, r.std_error_one)}, "
        f"P(lose two) = {estimate(r.p_lose_two, r.std_error_two)} "
        f"(Monte Carlo, {r.samples:,} deals{model}){allowed}"
    )


def _ranking_lines(ranking: Ranking, points: bool) -> list[str]:
    """Every move ranked by the engine, with its figures, each stated once (``points``: the
    game keeps score in points)."""
    ahead = ranking.ahead
    lines = [f"Moves ranked by your chance of winning the game ({win_level(ranking.now)} now):"]
    for i, m in enumerate(ranking.moves, start=1):
        figures = [win_level(m.win) + (" (a close call)" if m.close else "")]
        if m.ends_hand and m.lives is not None:
            figures.append(_ending(m, ranking.unit, points))
        else:
            if not m.sure_31:
                one = {"letters": "a letter", "points": "the point"}.get(ranking.unit, "a life")
                what = "not scoring the point" if points else f"lose {one}"
                figures.append(f"P({what} this hand) = {_pct(m.loss)}")
            if m.value is not None:
                figures.append("a sure 31" if m.sure_31 else f"worth {_short(m.value)} {ahead}")
        lines.append(f"  {i}. {m.label()}: " + "; ".join(figures))
    return lines
