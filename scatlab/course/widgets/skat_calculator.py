"""The Skat appendix's game-value calculator (:mod:`scatlab.course.skat`).

>>> s = SkatCalculator()
>>> s.contract.value = "grand"; s.matadors.value = 2
>>> "= 72" in s.result.value
True
"""

from __future__ import annotations

from html import escape

import ipywidgets as widgets

from ...errors import ScatlabError

__all__ = ["SkatCalculator"]


class SkatCalculator(widgets.VBox):  # type: ignore[misc]
    """A Skat game-value calculator (:mod:`scatlab.course.skat`): contract, matadors, levels."""

    def __init__(self) -> None:
        from ..skat import CONTRACTS

        self.contract = widgets.Dropdown(options=list(CONTRACTS), value="clubs", description="Contract")
        self.matadors = widgets.IntSlider(value=1, min=1, max=11, description="Matadors")
        self.kind = widgets.ToggleButtons(options=["with", "without"], value="with")
        self.flags = {
            name: widgets.Checkbox(value=False, description=label, indent=False, layout=widgets.Layout(width="auto"))
            for name, label in (
                ("hand", "hand"),
                ("schneider", "schneider"),
                ("schneider_announced", "schneider announced"),
                ("schwarz", "schwarz"),
                ("schwarz_announced", "schwarz announced"),
                ("ouvert", "ouvert / open"),
            )
        }
        self.result = widgets.HTML()
        for w in (self.contract, self.matadors, self.kind, *self.flags.values()):
            w.observe(lambda _c: self._update(), "value")
        wrap = widgets.Layout(flex_flow="row wrap", align_items="center")
        super().__init__(
            [
                widgets.HBox([self.contract, self.matadors, self.kind], layout=wrap),
                widgets.HBox(list(self.flags.values()), layout=wrap),
                self.result,
            ]
        )
        self.add_class("scatlab-skat")
        self._update()

    def _update(self) -> None:
        from ..skat import game_value

        self.matadors.max = 4 if self.contract.value == "grand" else 11
        options = {k: bool(w.value) for k, w in self.flags.items()}
        try:
            if self.contract.value == "null":
                v = game_value("null", hand=options["hand"], ouvert=options["ouvert"])
            else:
                v = game_value(self.contract.value, matadors=int(self.matadors.value), **options)
        except ScatlabError as exc:
            self.result.value = f"<p style='color:#8a5a00'>{escape(str(exc))}</p>"
            return
        self.result.value = (
            f"<p class='scatlab-skat-value' style='font-size:1.15em'>{escape(v.explain())}</p>"
            f"<p style='color:#555'>Won: +{v.value}; lost: -{2 * v.value} (twice the value).</p>"
        )
