"""A bar chart of a hand value distribution, drawn as the project's own SVG.

No chart library is needed at runtime (matplotlib adds 70-100 ms to every redraw in a
widget, JUPYTER-NOTES): the chart is a few rectangles and labels. The probabilities are
exact fractions; they are turned into floats only to draw bar heights and percentages,
and the exact fractions are kept in the chart's ``<desc>`` for screen readers and tests.

>>> from fractions import Fraction as F
>>> svg = distribution_svg({F(21): F(3, 4), F(31): F(1, 4)}, highlight=F(21), title="after drawing")
>>> svg.startswith("<svg") and 'role="img"' in svg and "31: 1/4" in svg
True
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from html import escape

from ..errors import AnalysisError
from ..rules.values import pretty_value

__all__ = ["distribution_svg"]

_WIDTH = 380
_HEIGHT = 190
_LEFT, _RIGHT, _TOP, _BOTTOM = 34, 10, 30, 34
_BAR = "#5b8fc9"
_HIGHLIGHT = "#d4a017"
_THIRTY_ONE = "#1e7b34"


def _percent(p: Fraction) -> str:
    pct = float(p) * 100
    if pct == 0:
        return "0%"
    if pct < 1:
        return "<1%"
    return f"{pct:.0f}%"  # display only: the exact fraction is in the bar's title


def distribution_svg(
    distribution: Mapping[Fraction, Fraction],
    *,
    highlight: Fraction | None = None,
    title: str = "",
) -> str:
    """Bars of P(value) for each hand value, in increasing value order.

    ``highlight`` colours one value's bar gold (e.g. the hand's current value, or the value
    taking the discard would give); a value of 31 or more is green (a hand that ends the
    round, C8). The distribution must have non-negative probabilities summing to 1.

    >>> from fractions import Fraction as F
    >>> distribution_svg({F(20): F(1, 2)})
    Traceback (most recent call last):
    ...
    scatlab.errors.AnalysisError: the probabilities {20: 1/2} sum to 1/2, not 1: give a distribution of hand values
    whose probabilities sum to 1
    """
    if not distribution:
        raise AnalysisError("the distribution {} is empty: give at least one hand value with its probability")
    items = sorted((Fraction(v), Fraction(p)) for v, p in distribution.items())
    shown = "{" + ", ".join(f"{v}: {p}" for v, p in items) + "}"
    if any(p < 0 for _, p in items):
        raise AnalysisError(f"the probabilities {shown} include a negative one: every probability must be 0 to 1")
    total = sum((p for _, p in items), Fraction(0))
    if total != 1:
        raise AnalysisError(
            f"the probabilities {shown} sum to {total}, not 1: "
            "give a distribution of hand values whose probabilities sum to 1"
        )
    peak = max(p for _, p in items)
    plot_w = _WIDTH - _LEFT - _RIGHT
    plot_h = _HEIGHT - _TOP - _BOTTOM
    step = plot_w / len(items)
    bar_w = max(2.0, step * 0.78)
    every = 1 if len(items) <= 16 else 2
    label = title or "distribution of the hand value"
    desc = "; ".join(f"{pretty_value(v)}: {p}" for v, p in items)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_WIDTH} {_HEIGHT}" width="{_WIDTH}" '
        f'height="{_HEIGHT}" role="img" aria-label="{escape(label)}" class="scat-chart">',
        f"<title>{escape(label)}</title><desc>{escape(desc)}</desc>",
        f'<rect x="0" y="0" width="{_WIDTH}" height="{_HEIGHT}" fill="#ffffff"/>',
        f'<text x="{_WIDTH / 2:g}" y="18" text-anchor="middle" font-family="sans-serif" font-size="13" '
        f'font-weight="bold" fill="#222">{escape(title)}</text>',
    ]
    base = _TOP + plot_h
    # gridlines at round percentages; the axis top is the first gridline at or above the peak
    step_p = next(Fraction(n, 100) for n in (1, 2, 5, 10, 20, 25) if Fraction(n, 100) * 4 >= peak)
    ticks = -(-peak // step_p)
    top = step_p * ticks
    for k in range(1, int(ticks) + 1):
        y = base - plot_h * float(step_p * k / top)
        parts.append(
            f'<line x1="{_LEFT}" y1="{y:.1f}" x2="{_WIDTH - _RIGHT}" y2="{y:.1f}" stroke="#e3e3e3" stroke-width="1"/>'
            f'<text x="{_LEFT - 4}" y="{y + 4:.1f}" text-anchor="end" font-family="sans-serif" font-size="10" '
            f'fill="#666">{_percent(step_p * k)}</text>'
        )
    for i, (value, p) in enumerate(items):
        h = plot_h * float(p / top)
        x = _LEFT + i * step + (step - bar_w) / 2
        colour = _HIGHLIGHT if highlight is not None and value == highlight else (_THIRTY_ONE if value >= 31 else _BAR)
        parts.append(
            f'<rect x="{x:.1f}" y="{base - h:.1f}" width="{bar_w:.1f}" height="{h:.1f}" fill="{colour}">'
            f"<title>{pretty_value(value)}: {p} ({_percent(p)})</title></rect>"
        )
        if i % every == 0 or value == highlight or value >= 31:
            parts.append(
                f'<text x="{x + bar_w / 2:.1f}" y="{base + 13}" text-anchor="middle" font-family="sans-serif" '
                f'font-size="10" fill="#333">{pretty_value(value)}</text>'
            )
    parts.append(
        f'<line x1="{_LEFT}" y1="{base}" x2="{_WIDTH - _RIGHT}" y2="{base}" stroke="#444" stroke-width="1"/>'
        f'<text x="{_LEFT + plot_w / 2:g}" y="{_HEIGHT - 6}" text-anchor="middle" font-family="sans-serif" '
        f'font-size="11" fill="#444">hand value</text></svg>'
    )
    return "".join(parts)
