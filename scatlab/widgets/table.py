"""The card table widget: a whole game of 31 against computer players, in JupyterLab,
Notebook 7 or a Voilà page.

``Table`` is an ipywidgets ``VBox`` around one anywidget card surface (the ES module
``table.js`` and ``table.css`` beside this file, shipped as package data: nothing comes from
a CDN). Python owns all state: the browser sends each click or key with ``model.send``, the
:class:`~scatlab.session.TableSession` plays it, and the surface redraws the new
:meth:`~scatlab.session.TableSession.display` (a synced ``state`` dict).

Controls (RULES.md, as popular online versions have them): click the stock (D) to draw or the discard pile
(T) to take, then click a hand card (Tab to it, Enter) to discard it; Knock (K) at the start
of a turn; pass, hammer, throw-down, stop-the-bus and declare buttons appear only when the
rules make them legal; N deals the next hand, U undoes. When the game is over, **Review
this game** opens a :class:`~scatlab.widgets.review.ReviewWidget` of the learner's
decisions below the table, whose **Try it yourself** opens a :func:`try_table` (the review
is handed that function: :mod:`.review_steps` never imports this module).

>>> t = Table("classic", opponents=("tip",), seed=3, pace=0)
>>> t.session.display().my_turn
True
>>> t.handle({"type": "key", "key": "d"})["phase"]        # what pressing D does
'discard'
"""

from __future__ import annotations

import asyncio
import functools
import importlib.util
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import anywidget
import ipywidgets
import traitlets

from ..analysis import ReviewedDecision
from ..cards import CardsLike, deck
from ..errors import ScatlabError
from ..rules.options import RuleSet
from ..rules.record import GameRecord
from ..rules.view import PlayerView
from ..session import TableSession
from .chart import distribution_svg
from .deeper import LookRunner
from .review_steps import ReviewWidget, record_before
from .svg import card_svg, empty_slot_svg

__all__ = ["Table", "TableSurface", "CardFaces", "card_faces", "enabled_controls", "try_table", "CONTROLS"]

CONTROLS = ("full", "beginner")
"""The table's control sets: ``full`` (undo, new game, seed, hints, save, load, analyze) and
``beginner`` (undo, new game, hints)."""

_HERE = Path(__file__).parent
_KEYS = {"d": "stock", "t": "discard", "k": "knock", "n": "next", "u": "undo"}


def enabled_controls(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The messages of every control the table shows as enabled in ``state`` (a table
    display as JSON, :meth:`TableDisplay.to_json`), in the table's order: Next hand, the stock,
    the discard pile, Knock, each discardable hand card, then the action buttons. Each is
    what a click sends to :meth:`Table.handle`, and each is legal (an enabled control is
    never refused).

    >>> t = Table("classic", opponents=("tip",), seed=3, pace=0)
    >>> [c["type"] for c in enabled_controls(t.surface.state)]
    ['stock', 'discard', 'knock']
    """
    out: list[dict[str, Any]] = []
    if state["can_next_hand"] and not state["game_over"]:
        out.append({"type": "next"})
    if state["can_draw"]:
        out.append({"type": "stock"})
    if state["can_take"]:
        out.append({"type": "discard"})
    if state["can_knock"]:
        out.append({"type": "knock"})
    out += [{"type": "card", "card": c} for c in state["discardable"]]
    out += [{"type": "action", "action": a} for a, _ in state["buttons"]]
    return out


class CardFaces(ipywidgets.Widget):  # type: ignore[misc]
    """The pictures of one deck's cards (``faces``: card code, ``back`` and ``empty`` to
    SVG), a model with no view. Every table of a kernel shares one (:func:`card_faces`), so
    a page with four tables sends the 54 pictures (130 kB) once, not four times."""

    faces = traitlets.Dict().tag(sync=True)


_CARD_FACES: dict[int, CardFaces] = {}


def card_faces(deck_size: int) -> CardFaces:
    """The shared :class:`CardFaces` of a deck of ``deck_size`` cards (made again if it was
    closed, e.g. by ``Widget.close_all()``).

    >>> card_faces(32) is card_faces(32), len(card_faces(32).faces), card_faces(52).faces["AS"][:4]
    (True, 34, '<svg')
    """
    shared = _CARD_FACES.get(deck_size)
    if shared is None or shared.comm is None:
        faces = {str(c): card_svg(c) for c in deck(deck_size)}
        faces["back"] = card_svg(None, face_up=False)
        faces["empty"] = empty_slot_svg("empty stock")
        shared = _CARD_FACES[deck_size] = CardFaces(faces=faces)
    return shared


class TableSurface(anywidget.AnyWidget):
    """The card surface: draws ``state`` (a :class:`TableDisplay` as JSON) with the card
    pictures of ``deck_faces`` (a shared :class:`CardFaces`) and sends every click and key
    back to Python."""

    _esm = (_HERE / "table.js").read_text(encoding="utf-8")
    _css = (_HERE / "table.css").read_text(encoding="utf-8")
    state = traitlets.Dict().tag(sync=True)
    deck_faces = traitlets.Instance(CardFaces, allow_none=True).tag(sync=True, **ipywidgets.widget_serialization)
    download = traitlets.Dict().tag(sync=True)
    takes_focus = traitlets.Bool(False).tag(sync=True)
    """The page's main table: it takes the keys when the page shows, even beside other
    tables (a page's only table always does)."""
    progress = traitlets.Dict().tag(sync=True)
    """A deeper look under way: ``{"done": deals played, "total": deals planned, "what": what it
    is doing, in words}`` (empty: none)."""


class Table(ipywidgets.VBox):  # type: ignore[misc]
    """A whole game at the card table, the learner at ``seat`` against ``opponents``.

    ``rules`` is a preset name (``classic``, ``quick``, ``cadillac``, ``gin``,
    ``ride-the-bus``, ``french-canadian``, ``eenendertigen``), a :class:`RuleSet` or its
    options; ``opponents`` are player kinds (``tip``, ``expert``, ``master``, ``greedy``, ``random``),
    one per other seat (1 to 5); ``seed`` replays a game (None picks one, shown on the
    table); ``hints`` shows the learner's chance of winning the game with each move, the
    advice (the highest, or a close call said as such) and, under **More figures**, the exact
    analysis behind them (:class:`~scatlab.session.HintsDisplay`); ``pace`` is the
    pause in seconds between two opponent moves (0 plays them at once); ``deal`` starts from
    a given deck order (:func:`scatlab.rules.deal_order`); ``controls`` is ``"full"`` (seed,
    save, load and the analyzer too) or ``"beginner"`` (undo, new game and hints only, for
    a lesson's step).

    Keys, once the table has focus (it takes it when it is the page's only table): 1-4
    throw that card of the hand, D draw, T take, K knock, N next hand, U undo; Tab reaches
    the hand's cards first.
    """

    children: tuple[Any, ...]  # the card surface, then an Analyzer or ReviewWidget opened below it

    def __init__(
        self,
        rules: RuleSet | str | dict[str, Any] = "classic",
        opponents: Sequence[str] = ("tip", "tip"),
        seat: int = 0,
        seed: int | None = None,
        hints: bool = True,
        pace: float = 0.6,
        deal: CardsLike | None = None,
        dealer: int | None = None,
        controls: str = "full",
    ) -> None:
        if controls not in CONTROLS:
            raise ScatlabError(f"controls={controls!r} is not a choice: use one of {', '.join(CONTROLS)}")
        self.controls = controls
        if isinstance(pace, bool) or not isinstance(pace, (int, float)) or not 0 <= pace <= 10:
            raise ScatlabError(f"pace={pace!r} is not a pause: give seconds from 0 to 10 between opponent moves")
        self.session = TableSession(rules, opponents, seat, seed, hints, deal, dealer, auto_play=pace == 0)
        self.pace = float(pace)
        self.on_review: Callable[[], object] | None = None
        """Called by "Review this game" instead of opening a review below the table (a
        lesson whose page already shows one)."""
        self.on_new: Callable[[], object] | None = None
        """Called by "New game" instead of dealing a new game (a lesson's fixed deal, or a
        review's position, deals itself again)."""
        self._timer: asyncio.TimerHandle | None = None
        self.surface = TableSurface()
        self.surface.deck_faces = card_faces(self.session.ruleset.deck_size)
        self.surface.on_msg(self._on_msg)
        self._looks = LookRunner(lambda p: setattr(self.surface, "progress", p))
        self.look_budget: int | None = None
        """Rollouts of a deeper look asked for from the page (None: the look's own, 8,000)."""
        self.look_seconds: float | None = None
        """How long it may sharpen, from its start (None: the look's own, a second)."""
        super().__init__(children=(self.surface,))
        self.add_class("scat-table-box")
        self._after_move()

    # -- the session, driven ---------------------------------------------------------

    def _on_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        self.handle(content)

    def handle(self, content: Any) -> dict[str, Any]:
        """Play one message from the browser and return the new table display (as JSON).

        A message is ``{"type": "stock" | "discard" | "knock" | "next" | "undo" | "new" |
        "hints" | "save" | "analyze" | "review" | "deep"}``, ``{"type": "card", "card": "QH"}``, ``{"type":
        "action", "action": "pass"}``, ``{"type": "key", "key": "d"}``, ``{"type": "seed",
        "seed": 12}`` or ``{"type": "load", "text": "<JSON record>"}``. Anything else is
        refused with a message on the table."""
        s = self.session
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "key":
            kind = _KEYS.get(str(content.get("key", "")).lower())
        if kind != "save" and self.surface.download:
            # the saved record holds the deck (to continue the hand): it reaches the browser
            # only for the click that asked for it, never beside later moves
            self.surface.download = {}
        if kind in ("new", "seed", "undo", "load"):
            self._cancel()
        if kind == "stock":
            s.click_stock()
        elif kind == "discard":
            s.click_discard()
        elif kind == "card":
            s.click_card(str(content.get("card", "")))
        elif kind == "knock":
            s.knock()
        elif kind == "action":
            s.play(str(content.get("action", "")))
        elif kind == "next":
            s.next_hand()
        elif kind == "undo":
            s.undo()
        elif kind == "new":
            if self.on_new is not None:
                self.on_new()
            else:
                s.new_game()
                self._close_panels()
        elif kind == "seed":
            self._new_seed(content.get("seed"))
        elif kind == "hints":
            s.hints = bool(content.get("on", not s.hints))
        elif kind == "save":
            self.surface.download = {
                "name": f"scatlab-game-seed-{s.seed}-hand-{s.state.hand_number}.json",
                "text": s.record_json(),
            }
        elif kind == "load":
            if not s.load_record(str(content.get("text", ""))).message:
                self._close_panels()
        elif kind == "analyze":
            self.analyze_position()
        elif kind == "deep":
            self.look_deeper(self.look_budget, self.look_seconds)
        elif kind == "review":
            if self.on_review is not None:  # a page with its own review of this game shows it there
                self.on_review()
            else:
                self.review_game()
        else:
            s.message = f"{content!r} is not a table control: click a card, the stock or the discard pile, or a button"
        return self._after_move()

    def _new_seed(self, raw: Any) -> None:
        try:
            seed = int(str(raw).strip())
            if seed < 0:
                raise ValueError
        except ValueError:
            self.session.message = f"{raw!r} is not a seed: type a whole number 0 or more"
            return
        self.session.new_game(seed)
        self._close_panels()

    def _close_panels(self) -> None:
        """A new or loaded game: the analyzer or review opened below the old one goes."""
        if len(self.children) > 1:
            self.children = (self.surface,)

    def _after_move(self) -> dict[str, Any]:
        if self.pace == 0:
            self.session.run_opponents()
        else:
            self._schedule()
        return self._refresh()

    def _refresh(self) -> dict[str, Any]:
        """Set the new table display (its hints complete: the ranking answers in milliseconds)."""
        shown = self.session.display()
        data = shown.to_json()
        if shown.hints is not None and shown.hints.chart is not None:  # the session describes the chart; drawn here
            c = shown.hints.chart
            data["hints"]["chart"] = distribution_svg(c.distribution, highlight=c.highlight, title=c.title)
        data["pace"] = self.pace
        data["controls"] = self.controls
        data["can_analyze"] = analyzer_available()
        data["hints_on"] = self.session.hints
        self.surface.state = data
        return data

    def _schedule(self) -> None:
        if not self.session.waiting or self._timer is not None:
            return
        loop = _running_loop()
        if loop is None:  # no event loop (a script): play the opponents at once
            self.session.run_opponents()
            return
        self._timer = loop.call_later(self.pace, self._tick)

    def _tick(self) -> None:
        self._timer = None
        self.session.step()
        self._refresh()
        self._schedule()

    def _cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    # -- a deeper look -------------------------------------------------------------------

    def look_deeper(self, budget: int | None = None, seconds: float | None = None) -> Any:
        """The hints' **Look deeper**: the master's deeper look at the learner's moment, from
        the learner's view only (:meth:`TableSession.look_deeper`), with a progress bar
        while it searches and its verdict shown below the hints as it sharpens; returns the
        final :class:`~scatlab.players.deeper.ViewLook`. A second one while a look runs does
        nothing (None); a moment with no decision to weigh leaves a message and changes
        nothing else."""
        s = self.session
        if self._looks.busy:
            return None
        kept = s.deeper()
        if (kept is not None and kept.final) or s.deeper_refusal() is not None:
            return s.look_deeper()  # the look already made here, or a message saying why there is none
        return self._looks.run(lambda progress: s.look_deeper(budget, seconds, progress, lambda _look: self._refresh()))

    # -- the analyzer hook ---------------------------------------------------------------

    def view(self) -> PlayerView:
        """The learner's current view (what "Analyze this position" opens)."""
        return self.session.view()

    def analyze_position(self) -> Any:
        """Open the learner's current view in an Analyzer below the table (and return it).
        Needs :mod:`!scatlab.widgets.analyzer`."""
        if not analyzer_available():
            self.session.message = "the hand analyzer is not installed in this version of scatlab"
            return None
        from importlib import import_module

        analyzer_cls = import_module("scatlab.widgets.analyzer").Analyzer
        try:
            analyzer = analyzer_cls.from_view(self.session.view())
        except ScatlabError as exc:
            self.session.message = f"cannot analyse this position: {exc}"
            return None
        self.children = (self.surface, analyzer)
        return analyzer

    # -- the review hook -----------------------------------------------------------------

    def review_game(self) -> Any:
        """Open the review of the finished game (the learner's seat,
        :meth:`TableSession.review`) in a :class:`~scatlab.widgets.review.ReviewWidget`
        below the table, and return it. Its "Try it yourself" tables seat the learner
        against the same kinds of opponents. Before the game is over it is refused with a
        message on the table and nothing opens."""
        s = self.session
        if not s.state.is_over:
            s.message = "cannot review yet: a game is reviewed once it is over (Review this game appears then)"
            return None
        widget = self.review_widget()
        self.children = (self.surface, widget)
        return widget

    def review_widget(self, controls: str = "full") -> Any:
        """The review of the finished game as :meth:`review_game` shows it, not shown
        anywhere (for a page that shows it in a place of its own); its **Try it yourself**
        tables carry ``controls`` (a lesson gives ``"beginner"``)."""
        s = self.session
        kinds = tuple(s.opponents) if not isinstance(s.opponents, str) else (s.opponents,)
        return ReviewWidget(
            s.record(),
            player=s.seat,
            opponents=kinds,
            title="Review of this game: your decisions",
            table_at=functools.partial(try_table, controls=controls),
        )


def try_table(
    record: GameRecord, decision: ReviewedDecision, opponents: str | Sequence[str] = "tip", controls: str = "full"
) -> Table:
    """A card :class:`Table` at ``decision`` of ``record`` (the state just before it,
    :func:`~scatlab.widgets.review_steps.record_before`), the learner in the deciding
    player's seat with hints on, against ``opponents`` (one kind for every other seat, or one
    kind per seat clockwise from the seat after the learner's), who answer at once
    (``pace=0``), with ``controls`` as in :class:`Table` (a lesson gives ``"beginner"``).
    Later hands, if the learner plays on, are dealt from seed ``decision.hand``. The table's
    notice says where the learner is back; its "New game" goes back there again. The game is
    practice from the start (an Undo does not make it so).
    What a review's **Try it yourself** opens (also importable from :mod:`scatlab.widgets.review`).

    >>> from scatlab.rules import GameRecord, play_random_game
    >>> from scatlab.analysis import review_game
    >>> record = GameRecord.from_state(play_random_game("classic", 3, seed=1))
    >>> d = review_game(record, player=0).decisions[3]
    >>> view = try_table(record, d).view()               # the same position, the table's seats named
    >>> from dataclasses import replace
    >>> view.seats, view == replace(d.view, seats=view.seats)
    (('you', 'tip', 'tip'), True)
    """
    n = record.players
    kinds = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
    table = Table(record.rules, opponents=kinds, seat=decision.player, seed=decision.hand, pace=0, controls=controls)
    position = record_before(record, decision.hand, decision.index).dumps()

    def back() -> None:  # "New game" here: back to the position, not a random game
        table.session.load_record(position)
        table.session.practice = True  # a position to try again: practice from the start
        table._close_panels()
        table.session.notice = f"back at {decision.where({decision.player: 'you'}).lower()}: play it again, hints on"

    table.on_new = back
    table.handle({"type": "new"})
    return table


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def analyzer_available() -> bool:
    """Whether :mod:`scatlab.widgets.analyzer` exists (the Analyze button shows only then)."""
    return importlib.util.find_spec("scatlab.widgets.analyzer") is not None
