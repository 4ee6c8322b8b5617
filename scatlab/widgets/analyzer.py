"""The hand analyzer widget: enter a position by clicking cards or typing notation, and read
the whole analysis beside it (issue 8).

``Analyzer()`` shows, top to bottom:

- the **controls**: which zone a picked card goes to (hand, top discard, dead cards,
  "opponent N holds"), the number of opponents, the rule set and the horizon;
- a **text field per zone** for notation (``AH KH 4C``, ``A♥ K♥ 4♣``); a parse error or an
  impossible position shows beside the field, and the typed text stays for fixing;
- the **card picker**: the rule set's 52 or 32 cards (V18) drawn by :mod:`.svg`; a click, or
  Tab (or the arrow keys) to a card and Enter, puts the card into the selected zone or takes
  it out; cards in a
  zone carry its badge, and the outs to 31 are marked ``out``;
- the **analysis**: the table of numbers (:func:`.analyzer_state.number_rows`), the
  advice with its reason and rule codes, **Look deeper** below it (the master's deeper look
  at the position, :class:`.deeper.DeeperPanel`: a progress bar while it searches, its verdict
  as it sharpens; from a game's view the game's own, else a hand staged to reach the
  position, :mod:`scatlab.players.staged`), the distribution of the hand's value after drawing
  (:func:`.chart.distribution_svg`) and the derivation of the numbers rendered by sympy as
  LaTeX (:mod:`scatlab.analysis.explain.display`).

Python owns the state (an :class:`.analyzer_state.AnalyzerState`): the picker's JavaScript
(``analyzer.js`` and ``analyzer.css`` beside this file; ``analyzer_panel.css`` styles the
numbers and the advice) only reports clicks (``model.send``) and draws what its traitlets say. Every number shown
is :func:`scatlab.analysis.analyze` of the position, formatted; the widget computes nothing.

>>> a = Analyzer("AH KH 4C", discard="9S", knock=False)
>>> a.pick("QH")  # the selected zone is the hand: a fourth card
>>> a.model.cards["hand"]
(Card('AH'), Card('KH'), Card('4C'), Card('QH'))
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import anywidget
import ipywidgets as w
import traitlets

from ..analysis import HORIZON as ADVICE_TURNS
from ..analysis import Analysis
from ..cards import Card, CardsLike, Suit, format_cards
from ..errors import ScatlabError
from ..rules.options import PRESETS, RuleSet
from ..rules.view import PlayerView
from ..session.display import DeeperDisplay
from .analyzer_state import (
    MAX_OPPONENTS,
    AnalyzerState,
    learner_advice,
    learner_rows,
    learner_working,
    number_rows,
    outs_of,
    zone_title,
)
from .chart import distribution_svg
from .deeper import DeeperPanel, LookRunner
from .svg import card_label, card_svg

__all__ = ["Analyzer", "CardPicker", "ZONE_BADGES"]

ZONE_BADGES = {"hand": "hand", "discard": "top", "dead": "seen"}
"""The badge a card in each zone carries on the picker (``opp 2`` for opponent 2)."""

_HERE = Path(__file__).parent
_ESM = (_HERE / "analyzer.js").read_text(encoding="utf-8")
"""The card picker's ES module (anywidget), ``analyzer.js`` beside this file."""
_CSS = (_HERE / "analyzer.css").read_text(encoding="utf-8")
"""The card picker's style, ``analyzer.css``."""
_STYLE = "<style>" + (_HERE / "analyzer_panel.css").read_text(encoding="utf-8") + "</style>"
"""The style of the analyzer's ipywidgets parts (the numbers, the advice, the errors),
``analyzer_panel.css``, shown in a ``<style>`` element with the title."""


class CardPicker(anywidget.AnyWidget):
    """The clickable deck: one row per suit, each card drawn by :func:`.svg.card_svg`.

    ``rows`` (synced) is what the JavaScript draws: per suit, a label and its cards (id,
    spoken label, SVG, zone, out). A click or Enter sends ``{"kind": "pick", "card": id}``;
    :meth:`on_pick` registers the Python handler.
    """

    _esm = traitlets.Unicode(_ESM).tag(sync=True)
    _css = traitlets.Unicode(_CSS).tag(sync=True)
    rows = traitlets.List(traitlets.Dict()).tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._handlers: list[Callable[[str], None]] = []
        self.on_msg(self._on_message)

    def on_pick(self, handler: Callable[[str], None]) -> None:
        """Call ``handler(card_id)`` for every card the learner picks."""
        self._handlers.append(handler)

    def _on_message(self, _widget: object, content: Any, _buffers: object) -> None:
        if isinstance(content, dict) and content.get("kind") == "pick" and isinstance(content.get("card"), str):
            for handler in self._handlers:
                handler(content["card"])


def _badge(zone: str) -> str:
    return ZONE_BADGES.get(zone, "opp " + zone.split()[-1])


class Analyzer(w.VBox):  # type: ignore[misc]
    """The hand analyzer (see the module doc). Arguments as for
    :func:`scatlab.analysis.analyze`; ``model`` starts from a prepared
    :class:`.analyzer_state.AnalyzerState` instead (as :meth:`from_view` does)."""

    def __init__(
        self,
        hand: CardsLike = (),
        discard: CardsLike = (),
        *,
        dead: CardsLike = (),
        opponent_holds: Sequence[CardsLike] = (),
        opponents: int | None = None,
        rules: RuleSet | str = "classic",
        horizon: int = 0,
        knock: bool = True,
        samples: int = 10_000,
        seed: int = 0,
        model: AnalyzerState | None = None,
        card_width: int = 46,
        beginner: bool = False,
    ) -> None:
        """``beginner``: lesson 2's analyzer: the classic rules, no look ahead, the numbers
        lesson 2 teaches in its words (:func:`.analyzer_state.learner_rows`), and where they
        come from in the same words (:func:`.analyzer_state.learner_working`: outs over unseen
        cards, the draw's sum), folded away under "Where the numbers come from". The exact
        derivation in the analyst's notation (P, E[...], sets of cards) is the full view's."""
        if model is None:
            model = AnalyzerState(
                hand,
                discard,
                dead=dead,
                opponent_holds=opponent_holds,
                opponents=opponents,
                rules=rules,
                horizon=horizon,
                knock=knock,
                samples=samples,
                seed=seed,
            )
        elif not knock:
            model.knock = False
        self.model = model
        self.card_width = card_width
        self.beginner = bool(beginner)
        self._updating = False
        self._make_settings(model)
        self._make_panels()
        self.clear_button = w.Button(description="Clear all", tooltip="empty every zone")
        self._connect()
        super().__init__(self._layout())
        self.add_class("scat-analyzer")
        if self.beginner:  # the rules, the look ahead and the master are later lessons' (5, 6 and 8)
            for part in (self.rules_input, self.horizon_input, self.horizon_help, self.deeper):
                part.layout.display = "none"
        self._build_fields()
        self.refresh()

    def _make_settings(self, model: AnalyzerState) -> None:
        """The title and the controls: where picks go, the opponents, the rule set, the horizon and its help."""
        self.title = w.HTML("<h3 style='margin:4px 0'>Hand analyzer</h3>" + _STYLE)
        self.zone_picker = w.ToggleButtons(description="Picks go to:", style={"description_width": "initial"})
        self.opponents_input = w.BoundedIntText(
            value=model.opponents, min=1, max=MAX_OPPONENTS, description="Opponents:", layout=w.Layout(width="150px")
        )
        options: list[tuple[str, str]] = [(name, name) for name in model.presets()]
        self._custom_rules = model.rules
        if _rules_key(model.rules) == _CUSTOM:
            options.insert(0, (f"{model.rules.name} (custom)", _CUSTOM))
        self.rules_input = w.Dropdown(
            options=options, value=_rules_key(model.rules), description="Rules:", layout=w.Layout(width="260px")
        )
        self.horizon_input = w.BoundedIntText(
            value=model.horizon,
            min=0,
            max=8,
            description="Turns ahead:",
            tooltip=HORIZON_HELP,
            style={"description_width": "initial"},
            layout=w.Layout(width="150px"),
        )
        self.horizon_help = w.HTML(
            f"<span class='scat-horizon-help' style='display:block;line-height:1.4;color:#555;font-size:0.9em'>"
            f"{HORIZON_HELP}</span>"
        )

    def _make_panels(self) -> None:
        """The parts :meth:`refresh` fills: the zones' fields, the picker, the message and the analysis."""
        self.fields: dict[str, w.Text] = {}
        self.field_errors: dict[str, w.HTML] = {}
        self.fields_box = w.VBox()
        self.picker = CardPicker()
        self.message = w.HTML()
        self.status = w.HTML()
        self.numbers = w.HTML()
        self.advice = w.HTML()
        self.chart = w.HTML()
        self.derivation = w.HTMLMath()
        self.deeper = DeeperPanel()
        self._looks = LookRunner(lambda p: setattr(self.deeper, "progress", p))
        self.look_budget: int | None = None
        """Rollouts of a deeper look asked for from the page (None: the look's own, 8,000)."""
        self.look_seconds: float | None = None
        """How long it may sharpen, from its start (None: the look's own, a second)."""

    def _connect(self) -> None:
        """Each control to what it does: a picked card, a zone, the opponents, the rules, the horizon, clear."""
        self.picker.on_pick(self.pick)
        self.zone_picker.observe(self._on_zone, names="value")
        self.opponents_input.observe(self._on_opponents, names="value")
        self.rules_input.observe(self._on_rules, names="value")
        self.horizon_input.observe(self._on_horizon, names="value")
        self.clear_button.on_click(lambda _b: self.clear())
        self.deeper.on_deep(lambda: self.look_deeper(self.look_budget, self.look_seconds))

    def _layout(self) -> list[Any]:
        """The analyzer's parts top to bottom: title, settings, fields, zones, picker, message, analysis."""
        settings = w.VBox(
            [
                w.HBox(
                    [self.opponents_input, self.rules_input, self.horizon_input, self.clear_button],
                    layout=w.Layout(flex_flow="row wrap", align_items="center"),
                ),
                self.horizon_help,
            ]
        )
        analysis = w.VBox([self.status, self.advice, self.deeper, w.HBox([self.numbers, self.chart]), self.derivation])
        return [self.title, settings, self.fields_box, self.zone_picker, self.picker, self.message, analysis]

    # -- construction from a game ---------------------------------------------------------

    @classmethod
    def from_view(cls, view: PlayerView, **kwargs: Any) -> Analyzer:
        """The analyzer opened on a player's view of a game (the table's "Analyze this
        position"): only the view's knowledge is used (:meth:`AnalyzerState.from_view`)."""
        settings = {key: kwargs.pop(key) for key in ("horizon", "knock", "samples", "seed") if key in kwargs}
        return cls(model=AnalyzerState.from_view(view, **settings), **kwargs)

    # -- what the controls call -----------------------------------------------------------

    def pick(self, card: Card | str) -> None:
        """What a click on a picker card does: toggle it in the selected zone. A refusal
        shows the engine's message and changes nothing."""
        self._act(lambda: self.model.toggle(card))

    def select_zone(self, zone: str) -> None:
        """Send picked cards to ``zone`` (``hand``, ``discard``, ``dead``, ``opponent N``)."""
        self._act(lambda: self.model.select(zone))

    def type(self, zone: str, text: str) -> None:
        """What typing into a zone's field does (the text stays, with its error if any)."""
        self._act(lambda: self.model.set_text(zone, text))

    def set_opponents(self, n: int) -> None:
        self._act(lambda: self.model.set_opponents(n))

    def set_rules(self, rules: RuleSet | str) -> None:
        self._act(lambda: self.model.set_rules(rules))

    def set_horizon(self, k: int) -> None:
        self._act(lambda: self.model.set_horizon(k))

    def clear(self) -> None:
        """Empty every zone."""
        self._act(lambda: self.model.clear())

    def look_deeper(self, budget: int | None = None, seconds: float | None = None) -> Any:
        """Ask the master for a deeper look at the position
        (:meth:`.analyzer_state.AnalyzerState.look_deeper`), with a progress bar while it
        searches and its verdict shown as it sharpens; returns the final
        :class:`~scatlab.players.deeper.ViewLook`. Nothing happens (None) while a look runs,
        and where none can be made the panel says why."""

        m = self.model
        if self.beginner or self._looks.busy:  # lesson 2's analyzer has no Look deeper (the master is lesson 8's)
            return None
        kept = m.deeper()
        if (kept is not None and kept.final) or m.deeper_refusal() is not None:
            look = m.look_deeper()  # the look already made here, or None
        else:
            look = self._looks.run(
                lambda progress: m.look_deeper(budget, seconds, progress, lambda _: self._show_deeper())
            )
        self._show_deeper()
        return look

    def _show_deeper(self) -> None:
        """The Look deeper panel from the model: the look so far, or whether one can be asked for."""
        m = self.model
        if not m.ready:
            self.deeper.state = {}
            return
        look = m.deeper()
        refusal = m.deeper_refusal() if look is None else None
        can = look is None and refusal is None and not self._looks.busy
        note = "" if refusal is None else f"No deeper look here: {refusal}"
        self.deeper.state = DeeperDisplay.of(look, can, note).to_json()

    def _act(self, action: Any) -> None:
        try:
            action()
        except ScatlabError as err:
            self.message.value = (
                f"<span class='scat-analyzer-error' role='alert'>Refused: {html.escape(str(err))}</span>"
            )
            self.refresh(keep_message=True)
            return
        self.refresh()

    # -- widget events --------------------------------------------------------------------

    def _on_zone(self, change: dict[str, Any]) -> None:
        if not self._updating and change["new"]:
            self.select_zone(change["new"])

    def _on_opponents(self, change: dict[str, Any]) -> None:
        if not self._updating:
            self.set_opponents(int(change["new"]))

    def _on_rules(self, change: dict[str, Any]) -> None:
        if not self._updating:
            self.set_rules(self._custom_rules if change["new"] == _CUSTOM else change["new"])

    def _on_horizon(self, change: dict[str, Any]) -> None:
        if not self._updating:
            self.set_horizon(int(change["new"]))

    def _on_text(self, zone: str, change: dict[str, Any]) -> None:
        if not self._updating:
            self.type(zone, change["new"])

    def _build_fields(self) -> None:
        rows = []
        fields: dict[str, w.Text] = {}
        errors: dict[str, w.HTML] = {}
        for zone in self.model.zones:
            old = self.fields.get(zone)
            if old is not None:
                fields[zone], errors[zone] = old, self.field_errors[zone]
            else:
                label = {"hand": "Hand", "discard": "Top discard", "dead": "Seen cards"}.get(zone, zone.capitalize())
                field = w.Text(
                    description=label + ":",
                    continuous_update=False,
                    placeholder={
                        "hand": "e.g. AH KH 4C",
                        "discard": "e.g. 9S",
                        "dead": "seen on the pile, e.g. 2D",
                    }.get(zone, "cards seen taken, e.g. QS"),
                    style={"description_width": "110px"},
                    layout=w.Layout(width="360px"),
                )
                field.add_class(f"scat-field-{zone.replace(' ', '-')}")
                field.observe(lambda change, z=zone: self._on_text(z, change), names="value")
                fields[zone], errors[zone] = field, w.HTML()
                errors[zone].add_class(f"scat-error-{zone.replace(' ', '-')}")
            rows.append(w.HBox([fields[zone], errors[zone]]))
        self.fields, self.field_errors = fields, errors
        self.fields_box.children = rows

    # -- drawing --------------------------------------------------------------------------

    def refresh(self, keep_message: bool = False) -> None:
        """Redraw every part from the model (values are updated, nothing is re-displayed)."""
        m = self.model
        self._updating = True
        try:
            if not keep_message:
                self.message.value = ""
            if tuple(self.fields) != m.zones:
                self._build_fields()
            for zone in m.zones:
                self.fields[zone].value = m.texts.get(zone, "")
                error = m.errors.get(zone)
                self.field_errors[zone].value = (
                    f"<span class='scat-analyzer-error' role='alert'>{html.escape(error)}</span>" if error else ""
                )
            self.zone_picker.options = [(_zone_button(z), z) for z in m.zones]
            self.zone_picker.value = m.zone
            self.opponents_input.value = m.opponents
            self.horizon_input.value = m.horizon
            key = _rules_key(m.rules)
            if key == _CUSTOM and m.rules != self._custom_rules:
                self._custom_rules = m.rules
                presets = [o for o in self.rules_input.options if o[1] != _CUSTOM]
                self.rules_input.options = [(f"{m.rules.name} (custom)", _CUSTOM), *presets]
            self.rules_input.value = key
            analysis = self._analysis()
            self.picker.rows = self._rows(analysis)
            self._show(analysis)
        finally:
            self._updating = False

    def _analysis(self) -> Analysis | None:
        if not self.model.ready:
            return None
        try:
            return self.model.analysis()
        except ScatlabError as err:
            self.message.value = f"<span class='scat-analyzer-error' role='alert'>{html.escape(str(err))}</span>"
            return None

    def _rows(self, analysis: Analysis | None) -> list[dict[str, Any]]:
        m = self.model
        outs = set(outs_of(analysis)) if analysis is not None else set()
        rows: list[dict[str, Any]] = []
        for suit in (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS):
            cards = sorted((c for c in m.deck if c.suit is suit), key=lambda c: -c.rank)
            entries = []
            for c in cards:
                zone = m.where(c)
                out = c in outs
                mark = _badge(zone) if zone else ("out" if out else None)
                label = card_label(c) + (f", in {zone_title(zone)}" if zone else "") + (", an out to 31" if out else "")
                tag = _badge(zone).upper() if zone else ("OUT" if out else "")
                entries.append(
                    {
                        "id": str(c),
                        "label": label,
                        "zone": zone or "",
                        "out": out,
                        "tag": tag,
                        "svg": card_svg(c, selected=zone is not None, mark=mark, width=self.card_width),
                    }
                )
            rows.append({"label": suit.name.lower(), "cards": entries})
        return rows

    def _show(self, a: Analysis | None) -> None:
        m = self.model
        if a is None:
            problem = m.problem() or "Nothing to analyse."
            self.status.value = f"<p><i>{html.escape(problem)}</i></p>"
            for part in (self.numbers, self.advice, self.chart):
                part.value = ""
            self.derivation.value = ""
            self.deeper.state = {}
            return
        game = ""
        if m.context.get("stock_size") is not None:
            game = f" · from the game: {m.context['stock_size']} cards in the stock"
        self.status.value = (
            f"<p class='scat-analyzer-status'>{html.escape(_position_line(a, beginner=self.beginner) + game)}</p>"
        )
        body = "".join(
            f"<tr data-key='{html.escape(r.key)}'><td>{html.escape(r.label)}</td>"
            f"<td class='num'>{html.escape(r.text).replace('/', '/<wbr>')}</td></tr>"
            for r in (learner_rows(a) if self.beginner else number_rows(a))
        )
        head = "<th>What</th><th>How much</th>" if self.beginner else "<th>Number</th><th>Value (exact, ≈ decimal)</th>"
        self.numbers.value = (
            f"<table class='scat-analyzer-numbers' aria-label='the numbers'><tr>{head}</tr>{body}</table>"
        )
        adv = a.advice
        what = adv.action.replace("_", " ") + (f" (throw the {adv.discard.pretty})" if adv.discard is not None else "")
        codes = ", ".join(adv.codes)
        if self.beginner:
            what, _, reason = learner_advice(a).partition(": ")
        else:
            reason = adv.reason
        self.advice.value = (
            f"<div class='scat-analyzer-advice' role='status'>Advice: <b>{html.escape(what)}</b>: "
            f"{html.escape(reason)}{f' ({html.escape(codes)})' if codes else ''}</div>"
        )
        if not self.beginner:
            self._show_deeper()
        draw = a.turn.draw
        self.chart.value = (
            distribution_svg(draw.distribution, highlight=a.value, title=f"Value after drawing (now {_num(a.value)})")
            if draw
            else ""
        )
        if self.beginner:  # lesson 2's own words, folded away: a learner opens it if curious
            lines = learner_working(a)
            self.derivation.value = (
                (
                    "<details class='scat-analyzer-working'><summary>Where the numbers come from"
                    "</summary>" + "".join(f"<p>{html.escape(line)}</p>" for line in lines) + "</details>"
                )
                if lines
                else ""
            )
            return
        from ..analysis import latex  # sympy: only when there is a derivation to show

        self.derivation.value = (DERIVATION_HEADING + "$$" + latex(a).strip("$") + "$$") if draw or a.knock else ""


_CUSTOM = "__custom__"
DERIVATION_HEADING = (
    "<b>Where the numbers come from</b><br>"
    "<span class='scat-narrow-hint' style='display:none;color:#555;font-size:0.9em'>"
    "Swipe a long line sideways to read it all.</span>"
)
"""The derivation's heading; its hint shows only on a narrow screen (the course's page style)."""

HORIZON_HELP = (
    "Turns ahead: 1 to 8 add to the numbers what the hand is expected to be worth after that "
    "many more of your turns, drawing each time; 0 adds none. The advice itself always looks "
    f"{ADVICE_TURNS} turns ahead."
)
"""What the "Turns ahead" setting (the horizon) means, beside it."""


def _position_line(a: Analysis, beginner: bool = False) -> str:
    """The position in words: ``Hand A♥ K♥ 4♣ worth 21 · top discard 9♠ · …``; for a
    ``beginner`` (lesson 2, before lesson 5 names the presets) without the rules' name and deck."""
    k = a.knowledge
    parts = [f"Hand {format_cards(k.hand, pretty=True)} worth {_num(a.value)}"]
    parts.append(f"top discard {k.top.pretty}" if k.top is not None else "no top discard")
    if k.dead:
        parts.append(f"{len(k.dead)} other card{'s' if len(k.dead) != 1 else ''} seen")
    parts.append(f"{k.opponents} opponent{'s' if k.opponents != 1 else ''}")
    parts.append(f"{len(k.unseen)} unseen cards")
    if not beginner:
        parts.append(f"{k.rules.name} rules, {k.rules.deck_label}")
    return " · ".join(parts)


def _rules_key(rules: RuleSet) -> str:
    """The dropdown value of a rule set: its preset name, or the custom entry."""
    return rules.name if PRESETS.get(rules.name) == rules else _CUSTOM


def _zone_button(zone: str) -> str:
    return {"hand": "Hand", "discard": "Top discard", "dead": "Seen"}.get(zone, zone.capitalize())


def _num(value: Any) -> str:
    return str(value) if value.denominator == 1 else f"{float(value):.1f}"
