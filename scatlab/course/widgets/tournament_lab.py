"""Lesson 6's tournament lab: three computer players, a small tournament with a progress bar,
and the win rates with the range each likely lies in (``win_rate_svg``, also drawn by
``notebooks/tournament.ipynb``)."""

from __future__ import annotations

from html import escape
from typing import Any

import ipywidgets as widgets

from ..data import likely_range, tournament_in_steps

__all__ = ["win_rate_svg", "TournamentLab"]


def win_rate_svg(labels: tuple[str, ...], rates: list[tuple[float, float, float]], games: int) -> str:
    """Win rates as dots with their 95% intervals as bars, and the fair share as a line; a
    dot's title says it in words ("won 50%, likely between 34% and 66%")."""
    width, row = 560, 34
    height = 40 + row * len(labels)
    left, right = 90, width - 20

    def x(p: float) -> float:
        return left + (right - left) * p

    fair = 1 / len(labels)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="win rates after {games} games, each with the range it likely lies in">'
    ]
    for tick in (0, 0.25, 0.5, 0.75, 1):
        parts.append(
            f'<line x1="{x(tick):.1f}" x2="{x(tick):.1f}" y1="10" y2="{height - 24}" stroke="#e8e8e8"/>'
            f'<text x="{x(tick):.1f}" y="{height - 10}" text-anchor="middle" font-size="11">{tick:.0%}</text>'
        )
    parts.append(
        f'<line x1="{x(fair):.1f}" x2="{x(fair):.1f}" y1="10" y2="{height - 24}" stroke="#1a5fb4" '
        f'stroke-dasharray="4,3"><title>fair share {fair:.0%}</title></line>'
    )
    for i, (label, (rate, low, high)) in enumerate(zip(labels, rates)):
        cy = 24 + i * row
        parts.append(
            f'<text x="{left - 8}" y="{cy + 4}" text-anchor="end" font-size="12">{escape(label)}</text>'
            f'<line x1="{x(low):.1f}" x2="{x(high):.1f}" y1="{cy}" y2="{cy}" stroke="#555" stroke-width="3"/>'
            f'<circle cx="{x(rate):.1f}" cy="{cy}" r="6" fill="#c0392b"><title>{escape(label)}: won {rate:.0%}, '
            f"{likely_range(low, high)}</title></circle>"
        )
    parts.append("</svg>")
    return "".join(parts)


class TournamentLab(widgets.VBox):  # type: ignore[misc]
    """Pick three computer players, run a small tournament with a progress bar, and see
    the win rates with the range each likely lies in (95% intervals, said in words:
    "likely between 34% and 66%"), the entrants named "tip player 1", never "tip#1". Each run deals new cards
    (``seed``, then the
    next one): a learner sees the rates move from run to run, and no seed field to explain."""

    def __init__(
        self, players: tuple[str, str, str] = ("expert", "tip", "tip"), games: int = 36, seed: int = 1
    ) -> None:
        kinds = ["expert", "tip", "greedy", "random"]
        self.seats = [widgets.Dropdown(options=kinds, value=p, layout=widgets.Layout(width="8em")) for p in players]
        self.games = widgets.IntSlider(value=games, min=9, max=180, step=9, description="Games")
        self.seed = seed
        """The deals of the next run (each run moves on to new deals)."""
        self.run_button = widgets.Button(
            description="Run the tournament", button_style="primary", layout=widgets.Layout(width="auto")
        )
        self.bar = widgets.IntProgress(
            value=0, min=0, max=games, description="Played"
        )  # how far the run is (the slider above is "Games")
        self.chart = widgets.HTML()
        self.table = widgets.HTML()
        self.run_button.on_click(lambda _b: self.run())
        wrap = widgets.Layout(flex_flow="row wrap", align_items="center")
        super().__init__(
            [
                widgets.HBox([widgets.Label("Players"), *self.seats], layout=wrap),
                self.games,
                self.run_button,
                self.bar,
                self.chart,
                self.table,
            ]
        )
        self.add_class("scatlab-tournament")

    def run(self) -> Any:
        """Play the tournament, updating the bar after each round of seats."""
        players = [s.value for s in self.seats]
        self.run_button.disabled = True
        self.bar.max = self.games.value
        self.bar.value = 0
        last = None
        try:
            seed, self.seed = self.seed, self.seed + 1  # the next run deals new cards
            for step in tournament_in_steps(players, self.games.value, "classic", seed):
                self.bar.value = step.done
                last = step
            assert last is not None
            rates = last.intervals()
            self.chart.value = win_rate_svg(last.labels, rates, last.done)
            self.table.value = (
                "<p class='scatlab-tournament-result'>"
                + "; ".join(
                    f"<b>{escape(label)}</b> won {w} of {last.done} ({r:.0%}, {likely_range(lo, hi)})"
                    for label, w, (r, lo, hi) in zip(last.labels, last.wins, rates)
                )
                + "</p>"
            )
        finally:
            self.run_button.disabled = False
        return last
