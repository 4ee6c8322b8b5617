"""Lesson 5, house rules: the presets side by side, and a card table under any preset."""

from __future__ import annotations

from html import escape
from typing import Any

import ipywidgets as widgets

from ...rules.options import PRESETS, find_rules
from ..data import PRESET_FIELDS, preset_rows

__all__ = ["preset_table", "TryRules"]


def _rules_name(rules: Any) -> str:
    text = str(rules.describe())
    return f"the {rules.name} rules ({text.split(' with ')[1]})" if " with " in text else f"the {rules.name} rules"


def preset_table() -> widgets.HTML:
    """The presets side by side (the options that differ from classic are bold)."""
    rows = preset_rows()
    base = rows[0][2]
    head = "".join(f"<th style='padding:3px 8px'>{escape(label)}</th>" for _, label in PRESET_FIELDS)
    body = []
    for name, codes, cells in rows:
        tds = "".join(
            f"<td style='padding:3px 8px'>{'<b>' + escape(c) + '</b>' if c != b else escape(c)}</td>"
            for c, b in zip(cells, base)
        )
        body.append(
            f"<tr><td style='padding:3px 8px'><b>{escape(name)}</b></td>"
            f"<td style='padding:3px 8px'>{escape(codes)}</td>{tds}</tr>"
        )
    w = widgets.HTML(
        "<p class='scat-narrow-hint' style='display:none;color:#555;font-size:0.9em'>Swipe the table "
        "sideways to see every column.</p>"
        "<table class='scatlab-presets' style='border-collapse:collapse;font-size:0.92em'>"
        f"<tr><th style='padding:3px 8px'>preset</th><th style='padding:3px 8px'>variants</th>{head}</tr>"
        + "".join(body)
        + "</table>"
    )
    w.add_class("scatlab-presets")
    return w


class TryRules(widgets.VBox):  # type: ignore[misc]
    """Lesson 5: a card table under any preset, to feel what the options change."""

    def __init__(self, preset: str = "quick", seed: int = 5) -> None:
        self.preset = widgets.Dropdown(options=list(PRESETS), value=find_rules(preset).name, description="Rules")
        self.seed = seed
        self.describe = widgets.HTML()
        self.table_box = widgets.VBox()
        self.preset.observe(lambda _c: self._deal(), "value")
        super().__init__([self.preset, self.describe, self.table_box])
        self.add_class("scatlab-try-rules")
        self._deal()

    def _deal(self) -> None:
        from ...widgets.table import Table

        rules = find_rules(self.preset.value)
        self.table = Table(
            rules.name, opponents=("tip", "tip"), seed=self.seed, pace=0.4, hints=False, controls="beginner"
        )
        self.table_box.children = (self.table,)
        self.describe.value = f"<p>Playing {escape(_rules_name(rules))}.</p>"
