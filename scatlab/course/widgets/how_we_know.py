"""The appendix "How we know" (lesson 3's optional page): the two opponent models side by
side on one hand, later in the hand (``OpponentModelExplorer``), and the calibration study's
reliability diagram.
"""

from __future__ import annotations

import re
from html import escape
from typing import Any

import ipywidgets as widgets

from ...errors import ScatlabError
from ...words import card_words
from .hand_explorer import cards_html as _cards_html

__all__ = ["OpponentModelExplorer", "CALIBRATION_FIGURE", "calibration_svg", "calibration_figure"]


def _percent(p: Any) -> str:
    return f"{float(p):.1%}"


class OpponentModelExplorer(widgets.VBox):  # type: ignore[misc]
    """Later in a hand (lesson 3's optional page, ``appendix-how-we-know``): one fixed hand
    and discard against one opponent, a slider for the turns that opponent has played and a
    field for the cards they rejected (threw, or passed over on the discard pile); the knock
    risk (C6, C7) under the two opponent models side by side, exact.

    The numbers are :func:`~scatlab.analysis.model.knock.knock_risk`'s, called with
    ``opponent_model="uniform"`` and ``"adaptive"`` and the :class:`Observations` the
    controls give (the model and its stated policy are in
    :mod:`scatlab.analysis.model.weights`); this widget computes no probability itself.

    >>> e = OpponentModelExplorer()
    >>> e.risks["uniform"] == e.risks["adaptive"]  # nothing seen yet: the same model
    True
    >>> e.turns.value = 3; e.rejected.value = "8S"
    >>> e.risks["adaptive"].p_lose > e.risks["uniform"].p_lose
    True
    >>> e.rejected.value = "8S 8S"; e.risks
    {}
    >>> "appears twice" in e.error.value
    True
    """

    def __init__(
        self, hand: str = "AH KH QS", discard: str = "2C", turns: int = 0, rejected: str = "", max_turns: int = 8
    ) -> None:
        from ...analysis import Knowledge

        self.knowledge = Knowledge.of(hand, discard, opponents=1)
        self.risks: dict[str, Any] = {}
        self.turns = widgets.IntSlider(
            value=turns,
            min=0,
            max=max_turns,
            description="Turns played",
            style={"description_width": "initial"},
            continuous_update=False,
        )
        self.rejected = widgets.Text(
            value=rejected,
            description="Cards they rejected",
            placeholder="e.g. 8S 2D",
            style={"description_width": "initial"},
            layout=widgets.Layout(width="22em"),
            continuous_update=False,
        )
        self.error = widgets.HTML()
        self.result = widgets.HTML()
        self.turns.observe(lambda _c: self._update(), "value")
        self.rejected.observe(lambda _c: self._update(), "value")
        shown = widgets.HTML(
            f"<p>Your hand {_cards_html(hand, 44)} &nbsp; the discard {_cards_html(discard, 44)}"
            " &nbsp; one opponent, and it is your turn: knock now?</p>"
        )
        super().__init__([shown, self.turns, widgets.HBox([self.rejected, self.error]), self.result])
        self.add_class("scatlab-opponent-models")
        self._update()

    def observations(self) -> Any:
        """The :class:`Observations` the controls give; a :class:`ScatlabError` quoting the
        field when the rejected cards are not cards or are more than the turns allow (at most
        two a turn: the discard passed over and the card thrown)."""
        from ...analysis import Observations, check_rejected
        from ...cards import parse_cards

        text = str(self.rejected.value)
        cards = (
            parse_cards(text, deck_size=self.knowledge.rules.deck_size, what="rejected cards") if text.strip() else ()
        )
        turns = int(self.turns.value)
        check_rejected(turns, cards, text.strip())
        return Observations((turns,), (cards,))

    def _update(self) -> None:
        from ...analysis import Position, knock_risk, rank, win_level

        try:
            seen = self.observations()
        except ScatlabError as exc:
            self.risks = {}
            self.error.value = f"<span class='scatlab-field-error' style='color:#8a5a00'>{escape(str(exc))}</span>"
            self.result.value = "<p style='color:#555'>Fix the rejected cards to see the numbers.</p>"
            return
        mine = [c for c in seen.rejected[0] if c in self.knowledge.hand]
        self.error.value = (
            ""
            if not mine
            else (
                f"<span class='scatlab-field-note' style='color:#555'>{' '.join(c.pretty for c in mine)} "
                f"{'is' if len(mine) == 1 else 'are'} in your hand: they rejected {'it' if len(mine) == 1 else 'them'} "
                f"only if you then took {'it' if len(mine) == 1 else 'them'} from the pile (C5)</span>"
            )
        )
        self.risks = {
            m: knock_risk(self.knowledge, opponent_model=m, observations=seen) for m in ("uniform", "adaptive")
        }
        heads = {"uniform": "uniform: as if just dealt", "adaptive": "adaptive: what they have probably kept"}
        rows = (
            ("You lose a life", "p_lose_one"),
            ("You lose two lives", "p_lose_two"),
            ("You lose anything", "p_lose"),
        )
        cell = "padding:4px 12px;vertical-align:top"
        body = []
        for label, field in rows:
            tds = "".join(
                f"<td style='{cell}' data-model='{m}' data-field='{field}'><b>{_percent(getattr(r, field))}</b>"
                f"<br><span style='font-size:0.8em;color:#555'>= {getattr(r, field)}</span></td>"
                for m, r in self.risks.items()
            )
            body.append(f"<tr><td style='{cell}'>{label}</td>{tds}</tr>")
        loss = "".join(
            f"<td style='{cell}' data-model='{m}' data-field='expected_loss'><b>{float(r.expected_loss):.3f}"
            f"</b><br><span style='font-size:0.8em;color:#555'>= {r.expected_loss}</span></td>"
            for m, r in self.risks.items()
        )
        body.append(f"<tr><td style='{cell}'>Lives a knock costs on average</td>{loss}</tr>")
        ranking = rank(Position.of(self.knowledge, opponent_turns=(int(self.turns.value),), observations=seen))
        on, on_win = ranking.play_on_lives, ranking.play_on_win
        knock = ranking.move("knock")
        assert on is not None and on_win is not None and knock.win is not None
        self.play_on = on
        self.advice = ranking.best.name
        body.append(
            f"<tr><td style='{cell}'>Playing on: chance of losing a life this hand (the advice's "
            f"estimate)</td><td style='{cell}' colspan='2' data-field='play_on'><b>{_percent(on)}</b></td></tr>"
        )
        verdict = (
            "<span style='color:#1e7b34'>knock</span>"
            if ranking.best.ends_hand
            else "<span style='color:#c0392b'>play on</span>"
        )
        body.append(
            f"<tr><td style='{cell}'>The advice (adaptive model)</td><td style='{cell}' colspan='2' "
            f"data-field='verdict'>{verdict}: your chance of winning the game is {win_level(knock.win)} if "
            f"you knock, {win_level(on_win)} if you play on</td></tr>"
        )
        head = "".join(f"<th style='{cell};text-align:left'>{heads[m]}</th>" for m in self.risks)
        seen_text = (
            "nothing seen yet" if seen.empty else escape(card_words(seen.describe().replace("opponent 1: ", "")))
        )
        self.result.value = (
            f"<p style='color:#555'>What you have seen of the opponent: {seen_text}.</p>"
            f"<table class='scatlab-model-risks' style='border-collapse:collapse'>"
            f"<tr><th style='{cell}'></th>{head}</tr>{''.join(body)}</table>"
        )


CALIBRATION_FIGURE = "calibration-classic-3p.svg"
"""The reliability diagram of the calibration study (3 players, classic), kept as package
data in ``scatlab/course/figures`` (drawn by the study's command in research/calibration)."""


def calibration_svg(name: str = CALIBRATION_FIGURE) -> str:
    """The text of a figure of the course (package data, read with :mod:`importlib.resources`).

    >>> calibration_svg().lstrip().startswith("<svg")
    True
    """
    from importlib.resources import files

    text = files("scatlab.course").joinpath("figures").joinpath(name).read_text(encoding="utf-8")
    return re.sub(r"^\s*<\?xml[^>]*>\s*", "", text)


def calibration_figure(name: str = CALIBRATION_FIGURE) -> widgets.HTML:
    """The calibration study's reliability diagram as a widget for a lesson, drawn half as
    large again as the file (up to the page's width), so that its legend reads at a glance."""
    scale = "<style>.scatlab-calibration svg{width:100%;height:auto}</style>"
    w = widgets.HTML(f"<figure style='margin:0;max-width:540px'>{scale}{calibration_svg(name)}</figure>")
    w.add_class("scatlab-calibration")
    return w
