"""Lessons 1 and 5: the hand-value explorer. Type any three cards and see what they are worth
under any preset, and by which rule.

>>> e = HandExplorer("7S 7H 7D", preset="gin")
>>> "30.5" in e.result.value
True
"""

from __future__ import annotations

from html import escape

import ipywidgets as widgets

from ...errors import ScatlabError
from ...rules.options import PRESETS, find_rules
from ...rules.values import hand_value, pretty_value, value_rule
from ...widgets.svg import card_svg

__all__ = ["HandExplorer", "cards_html"]


def cards_html(cards: str, width: int = 60) -> str:
    return "".join(
        f'<span style="display:inline-block;margin-right:4px">{card_svg(c, width=width)}</span>' for c in cards.split()
    )


class HandExplorer(widgets.VBox):  # type: ignore[misc]
    """Type any three cards and see what they are worth under any preset (C4, V1, V2, V3,
    V13, V18), and by which rule: ``worth 30½ under the gin rules (V14): three of a kind
    counts 30½ (V2)`` (the 30½ rule is V2 under every preset that plays it)."""

    def __init__(self, cards: str = "AH KH 4C", preset: str = "classic", *, choose_rules: bool = True) -> None:
        """``choose_rules=False`` (lesson 1) hides the rules: presets wait for lesson 5."""
        self.cards = widgets.Text(value=cards, description="Cards", layout=widgets.Layout(width="20em"))
        self.preset = widgets.Dropdown(options=list(PRESETS), value=find_rules(preset).name, description="Rules")
        if not choose_rules:
            self.preset.layout.display = "none"
        self.result = widgets.HTML()
        self.cards.observe(lambda _c: self._update(), "value")
        self.preset.observe(lambda _c: self._update(), "value")
        super().__init__([widgets.HBox([self.cards, self.preset]), self.result])
        self.add_class("scatlab-explorer")
        self._update()

    def _update(self) -> None:
        from ...cards import format_cards, parse_cards

        rules = find_rules(self.preset.value)
        try:
            cards = parse_cards(self.cards.value, count=3, deck_size=rules.deck_size, what="cards in a hand")
            value = hand_value(cards, rules)
        except ScatlabError as exc:
            self.result.value = f"<p style='color:#8a5a00'>{escape(str(exc))}</p>"
            return
        shown = pretty_value(value)
        if self.preset.layout.display == "none":  # lesson 1: the rules are the classic game's, not named yet
            said = f"worth <b>{shown}</b>"
        else:
            code = value_rule(cards, rules)
            how = {
                "V1": f"three of a kind counts {shown}",
                "V2": f"three of a kind counts {shown}",
                "V3": "a straight flush counts 30",
                "V13": "three Aces are a Grand Cadillac, worth 33",
            }.get(
                code,
                "three different suits count the highest card"
                if len({c.suit for c in cards}) == 3
                else "the best suit adds up",
            )
            from .course import rule_link

            codes = rules.codes()
            named = f"the {escape(rules.name)} rules" + (
                f" ({', '.join(rule_link(c) for c in codes)})" if codes else ""
            )
            said = f"worth <b>{shown}</b> under {named}: {escape(how)} ({rule_link(code)})"
        self.result.value = (
            cards_html(format_cards(cards)) + f"<p class='scatlab-value' style='font-size:1.2em'>{said}</p>"
        )
