"""The derivation of an analysis, rendered with sympy (LaTeX in notebooks).

This is the only module that imports sympy, and only the display path imports it: the
core computation and the command line stay fast.

Under the adaptive opponent model the knock risk's steps state the model: each opponent
hand ``H`` weighs ``w(H) = sum over the kinds k (casual, strong) of pi_k,t(H) * product of
f_k(a_x)`` (its chance after ``t`` turns of kind ``k``'s stated policy, times ``f_k(a) = 1 -
(1 - lambda_k) rho_k ** a`` per card ``x`` rejected ``a_x`` turns ago that would have
improved it), and the
exact risk is the weighted count ``sum w(H) L(H) / sum w(H) |stock|``, ``L(H)`` the stock
cards with which the knocker loses.

The knock's chances are those of :attr:`Analysis.knock <scatlab.analysis.explain.report.Analysis.knock>`:
the ranking's own (a weighted count against one opponent, else the engine's estimate, shown
in percent), so the derivation states the figure the report and the advice state.

Each :class:`Step` shows how a number comes about, e.g. ``P(31) = 3/48 = 1/16`` with the
outs listed, and the expected value as the sum over the distribution divided by the
number of unseen cards.

>>> from scatlab.analysis import analyze
>>> steps = derivation(analyze("AH KH 4C", discard="9S", knock=False))
>>> print(steps[0].latex())
P(31) = \\frac{\\left|\\{10\\text{♥}, J\\text{♥}, Q\\text{♥}\\}\\right|}{48} = \\frac{3}{48} = \\frac{1}{16}
\\approx 0.0625
>>> str(steps[1].value)
'541/24'
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import sympy

from ...cards import Card
from ..model.kinds import CASUAL, STRONG
from .text import estimate

if TYPE_CHECKING:
    from ..counting.onestep import DrawAnalysis
    from ..model.knock import KnockRisk
    from .report import Analysis

__all__ = ["Step", "derivation", "latex"]


@dataclass(frozen=True)
class Step:
    """One line of a derivation: ``name = middle… = value``."""

    name: str
    middle: tuple[str, ...]
    expression: Any
    """The unevaluated sympy expression of the count (e.g. ``3/48``)."""
    value: Fraction
    estimate: str | None = None
    """For a Monte Carlo estimate: the decimal with its standard error, shown instead of a
    fraction that would look exact."""

    @property
    def exact(self) -> Any:
        """The value as a sympy Rational."""
        return sympy.Rational(self.value.numerator, self.value.denominator)

    def latex(self) -> str:
        """The step as LaTeX."""
        if self.estimate is not None:
            return " = ".join([self.name, *self.middle]) + rf" \approx {self.estimate}"
        parts = [self.name, *self.middle, sympy.latex(self.expression)]
        reduced = sympy.latex(self.exact)
        if reduced != parts[-1]:
            parts.append(reduced)
        text = " = ".join(parts)
        if self.value.denominator != 1:
            text += rf" \approx {float(self.value):.4g}"
        return text


_SUIT_TEX = {"C": r"\text{♣}", "D": r"\text{♦}", "H": r"\text{♥}", "S": r"\text{♠}"}
"""The suits as the cards show them (♥ ♦, not LaTeX's white ♡ ♢), in text mode."""


def _card(card: Card) -> str:
    return rf"{card.rank.symbol}{_SUIT_TEX[card.suit.letter]}"


def _frac(num: int, den: int) -> Any:
    """``num/den`` kept unevaluated (so 3/48 is not reduced to 1/16, and 1/48 is not
    printed as ``1 \\cdot 1/48``).

    >>> sympy.latex(_frac(1, 48)), sympy.latex(_frac(3, 48))
    ('\\\\frac{1}{48}', '\\\\frac{3}{48}')
    """
    numerator = sympy.UnevaluatedExpr(sympy.Integer(num))
    return sympy.Mul(numerator, sympy.Pow(sympy.Integer(den), -1, evaluate=False), evaluate=False)


def _set(cards: tuple[Card, ...]) -> str:
    """The set of cards counted; a long set shows its first cards and its size (the count
    follows in the next term), so the line stays readable."""
    shown = cards if len(cards) <= 13 else (*cards[:8],)
    if not cards:
        return r"\left|\varnothing\right|"
    inner = ", ".join(_card(c) for c in shown)
    if len(shown) < len(cards):
        inner += rf", \ldots\ (\text{{{len(cards)} cards}})"
    return rf"\left|\{{{inner}\}}\right|"


def _fraction(number: float) -> Fraction:
    return Fraction(number).limit_denominator(1000)


def _rational(number: float) -> Any:
    f = _fraction(number)
    return sympy.Rational(f.numerator, f.denominator)


def derivation(analysis: Analysis) -> list[Step]:
    """The derivation of the draw numbers and the knock risk, step by step."""
    steps: list[Step] = []
    draw = analysis.turn.draw
    if draw is not None:
        steps.extend(_draw_steps(draw))
    risk = analysis.knock
    if risk is not None:
        adaptive = risk.model == "adaptive"
        if adaptive:  # the opponent model, stated (see scatlab.analysis.model.weights)
            steps.extend(_model_steps())
        for j, (name, p, se) in enumerate(
            (
                (r"P(\text{knock loses one})", risk.p_lose_one, risk.std_error_one),
                (r"P(\text{knock loses two})", risk.p_lose_two, risk.std_error_two),
            )
        ):
            steps.append(_knock_step(risk, adaptive, j, name, p, se))
    for k, value in enumerate(analysis.horizon):
        if k:
            steps.append(
                Step(rf"E_{{{k}}}[\text{{value}}]", (), sympy.Rational(value.numerator, value.denominator), value)
            )
    return steps


def _draw_steps(draw: DrawAnalysis) -> list[Step]:
    """The draw's steps: P(31) with its outs, the expected value, P(improve) with its outs."""
    u = draw.unseen
    terms = " + ".join(
        rf"{sympy.latex(sympy.Rational(v.numerator, v.denominator))} \cdot {p * u}"
        for v, p in draw.distribution.items()
    )
    total = sum((v * p * u for v, p in draw.distribution.items()), Fraction(0))
    scale = total.denominator  # 2 when half points (V2) are involved
    return [
        Step("P(31)", (rf"\frac{{{_set(draw.outs_31)}}}{{{u}}}",), _frac(draw.count_31, u), draw.p_31),
        Step(
            r"E[\text{value}]",
            (rf"\frac{{1}}{{{u}}}\left({terms}\right)",),
            _frac(total.numerator, scale * u),
            draw.expected_value,
        ),
        Step(
            r"P(\text{improve})",
            (rf"\frac{{{_set(draw.outs_improve)}}}{{{u}}}",),
            _frac(draw.count_improve, u),
            draw.p_improve,
        ),
    ]


def _model_steps() -> list[Step]:
    """The adaptive opponent model's weight of a hand, with its constants."""
    steps = [
        Step(
            r"w(H) = \sum_{k} \pi_{k,t}(H) \prod_{x} f_k(a_x),\ f_k(a) = 1 - (1 - \lambda_k)\,\rho_k^{a},"
            r"\quad \lambda_{\text{casual}}",
            (),
            _rational(CASUAL.lam),
            _fraction(CASUAL.lam),
        )
    ]
    for label, number in (
        (r"\rho_{\text{casual}}", CASUAL.decay),
        (r"\lambda_{\text{strong}}", STRONG.lam),
        (r"\rho_{\text{strong}}", STRONG.decay),
    ):
        steps.append(Step(label, (), _rational(number), _fraction(number)))
    return steps


def _knock_step(risk: KnockRisk, adaptive: bool, j: int, name: str, p: Fraction, se: float | None) -> Step:
    """The step of the knock's chance ``p`` of losing ``j + 1`` lives: exact, sampled or the engine's."""
    if not risk.exact and risk.samples is None:  # the engine's estimate (the ranking's knock move)
        return Step(
            name + r"\ (\text{the engine's estimate})",
            (),
            sympy.Rational(p.numerator, p.denominator),
            p,
            rf"{float(p) * 100:.1f}\%",
        )
    if not risk.exact:  # a Monte Carlo estimate: a decimal with its standard error
        shown = estimate(p, se).replace("±", r"\pm")
        return Step(
            name + rf"\ (\text{{Monte Carlo, {risk.samples:,} deals}})",
            (),
            sympy.Rational(p.numerator, p.denominator),
            p,
            shown,
        )
    note: tuple[str, ...] = ()
    if adaptive:
        note = (rf"\frac{{\sum_H w(H)\,L_{j + 1}(H)}}{{\sum_H w(H)\,|\text{{stock}}|}}",)
    return Step(name, note, sympy.Rational(p.numerator, p.denominator), p)


def latex(analysis: Analysis) -> str:
    """The whole derivation as one LaTeX block (what a notebook shows for an Analysis)."""
    lines = [step.latex() for step in derivation(analysis)]
    body = r" \\ ".join(
        line.replace(" = ", " &= ", 1) if " = " in line else line.replace(r" \approx", r" &\approx", 1)
        for line in lines
    )
    return rf"$\begin{{aligned}} {body} \end{{aligned}}$"
