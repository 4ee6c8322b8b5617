"""Lesson 8, play a game: a whole game against computer players with hints, saved to the
learner's progress (``GameWithHints``), and the stand-in's finished game the lesson
reviews when the learner has not finished one (:func:`stand_in_game`)."""

from __future__ import annotations

from functools import lru_cache
from html import escape
from typing import Any

import ipywidgets as widgets

from ...errors import ScatlabError
from ..progress import ProgressError, game_id_from_text

__all__ = [
    "OPPONENT_CHOICES",
    "FIRST_SEED",
    "GameWithHints",
    "play_to_the_end",
    "STAND_IN_SEAT",
    "stand_in_record",
    "stand_in_game",
]


OPPONENT_CHOICES = (("Tip players", "tip"), ("Experts", "expert"), ("Masters", "master"))
"""Lesson 8's opponents: the player kinds a learner may play against, weakest first."""

FIRST_SEED = 8
"""The seed of lesson 8's first game (:class:`GameWithHints`'s own; the warm kernels work out
its first hints before a page asks: :mod:`scatlab.app.warmup`)."""


class GameWithHints(widgets.VBox):  # type: ignore[misc]
    """Lesson 8: a whole game against two computer players, tip players unless the learner
    chooses experts or masters (``opponents``, one of :data:`OPPONENT_CHOICES`' kinds), hints on
    or off with the table's own Hints button, saved to the learner's progress on request;
    ``?game=ID`` in the page's address reopens a saved game. A new choice of opponents deals a
    new game at once when no move of the learner's would be lost, else after a second click."""

    def __init__(
        self,
        seed: int = FIRST_SEED,
        hints: bool = True,
        progress: Any = None,
        game: str | int | None = None,
        pace: float = 0.5,
        opponents: str = "tip",
    ) -> None:
        from .course import open_progress

        kinds = [kind for _, kind in OPPONENT_CHOICES]
        if opponents not in kinds:
            raise ScatlabError(f"opponents={opponents!r} is not allowed: choose one of {', '.join(kinds)}")
        self.opponents = opponents
        self.choose = widgets.ToggleButtons(
            options=list(OPPONENT_CHOICES), value=opponents, description="Against", style={"button_width": "auto"}
        )
        self.change_note = widgets.HTML()
        self.change_button = widgets.Button(layout=widgets.Layout(width="auto", display="none"))
        self.choose.observe(lambda _c: self._chosen(), "value")
        self.change_button.on_click(lambda _b: self._change())

        if progress is None:
            self.progress, notice = open_progress()
        else:
            self.progress, notice = progress, ""
        self.pace = pace
        self.hints_on = hints
        self.save_name = widgets.Text(placeholder="a name for this game", layout=widgets.Layout(width="16em"))
        self.save_button = widgets.Button(description="Save to my progress", layout=widgets.Layout(width="auto"))
        self.status = widgets.HTML(f"<p style='color:#8a5a00'>{escape(notice)}</p>" if notice else "")
        self.table_box = widgets.VBox()
        self.seed = seed
        self.save_button.on_click(lambda _b: self.save())
        super().__init__(
            [
                widgets.HBox([self.choose]),
                widgets.HBox([self.change_note, self.change_button]),
                self.table_box,
                widgets.HBox([self.save_name, self.save_button]),
                self.status,
            ]
        )
        self.add_class("scatlab-game")
        self.new_game(seed)
        if game is not None:
            self.reopen(game)

    def new_game(self, seed: int | None = None) -> None:
        """Deal a new game (the next seed unless one is given)."""
        from ...widgets.table import Table

        if seed is None:
            self.seed += 1
        else:
            self.seed = seed
        self.table = Table(
            "classic",
            opponents=(self.opponents,) * 2,
            seed=self.seed,
            hints=self.hints_on,
            pace=self.pace,
            controls="beginner",
        )
        self.table.surface.takes_focus = True  # the page's game, above the review's try-it tables
        self.table_box.children = (self.table,)

    def _in_play(self) -> bool:
        """Whether the learner has moved in a game that is not over (a new deal would lose it)."""
        session = self.table.session
        state = session.state
        return not state.is_over and any(h.actions for h in session.record().hands)

    def _chosen(self) -> None:
        kind = str(self.choose.value)
        self.change_button.layout.display = "none"
        self.change_note.value = ""
        if kind == self.opponents:
            return
        name = {k: n for n, k in OPPONENT_CHOICES}[kind].lower()
        if self._in_play():
            self.change_note.value = (
                f"<p>Your game so far would end: save it first to keep it, then deal a new one "
                f"against {escape(name)}.</p>"
            )
            self.change_button.description = f"Deal a new game against {name}"
            self.change_button.layout.display = ""
            return
        self._change()

    def _change(self) -> None:
        """Deal a new game against the chosen opponents."""
        self.opponents = str(self.choose.value)
        self.change_button.layout.display = "none"
        self.change_note.value = ""
        self.new_game()

    def save(self) -> int | None:
        """Keep the game so far in the progress database; returns its id."""
        if self.progress is None:
            self.status.value = "<p style='color:#8a5a00'>Progress is not kept, so games cannot be saved.</p>"
            return None
        name = self.save_name.value.strip() or f"game {self.seed}, hand {self.table.session.state.hand_number}"
        try:
            gid = int(self.progress.save_game(name, self.table.session.record_json()))
        except ProgressError as exc:  # a name too long, a read-only or locked file: said, nothing saved
            self.status.value = f"<p class='scatlab-save-error' style='color:#b00020'>Not saved: {escape(str(exc))}</p>"
            return None
        self.status.value = (
            f"<p class='scatlab-saved-note' style='color:#1e7b34'>Saved as &ldquo;{escape(name)}"
            "&rdquo;; the course index lists it.</p>"
        )
        return gid

    def reopen(self, game: str | int) -> None:
        """Reopen a saved game by its id (from the index's link, ``?game=3``); an id that is
        not a whole number, or that no saved game has, is said in :attr:`status`."""
        if self.progress is None:
            return
        try:
            saved = self.progress.load_game(game_id_from_text(game) if isinstance(game, str) else game)
        except ProgressError as exc:
            shown = str(game) if len(str(game)) <= 40 else str(game)[:37] + "..."
            words = str(exc)  # the analyst's message; a learner reads plain words, no API names:
            if "no saved game has id" in words:
                words = f"There is no saved game {shown} here: open a saved game from the course index."
            elif "saved game's id" in words:
                words = f"{shown!r} is not the number of a saved game: open a saved game from the course index."
            self.status.value = (
                f"<p class='scatlab-reopen-error' style='color:#8a5a00'>Cannot reopen game "
                f"{escape(shown)}: {escape(words)}</p>"
            )
            return
        self.table.handle({"type": "load", "text": saved.record})
        self.status.value = f"<p class='scatlab-reopened'>Reopened &ldquo;{escape(saved.name)}&rdquo;.</p>"


def play_to_the_end(table: Any, player: str = "tip", seed: int = 0, limit: int = 10_000) -> Any:
    """Play a card :class:`~scatlab.widgets.table.Table`'s learner seat to the end of the
    game with the computer player ``player`` (``tip``, ``expert``, ``greedy``, ``random``),
    through the very calls a click makes (``session.play``, ``session.next_hand``); its
    random choices come from ``seed``. Returns the table, its game over (the opponents play
    as the table's own players). Stops with an error after ``limit`` actions (a game that
    never ends would be a bug).

    >>> from scatlab.widgets.table import Table
    >>> t = play_to_the_end(Table("quick", seed=3, hints=False, pace=0), seed=3)
    >>> t.session.state.is_over and t.session.display().can_review
    True
    """
    _play_session(table.session, player, seed, limit)
    return table


def _play_session(s: Any, player: str, seed: int, limit: int) -> None:
    """:func:`play_to_the_end` on a :class:`~scatlab.session.TableSession` (no widget)."""
    import random

    from ...players import make_player
    from ...rules import Phase

    stand_in, rng = make_player(player), random.Random(seed)
    for _ in range(limit):
        if s.state.is_over:
            return
        if s.state.phase is Phase.DEAL:  # what the table's "Next hand" button waits for
            s.next_hand()
        else:
            s.play(stand_in.decide(s.view(), rng).action)
    raise ScatlabError(f"the game did not end within limit={limit!r} actions: give a larger limit")


STAND_IN_SEAT = 0
"""The seat the stand-in plays (:func:`stand_in_game`): the learner's seat of its table, the
one lesson 8 reviews."""


def stand_in_record(
    rules: str = "quick", seed: int = 16, opponents: tuple[str, ...] = ("tip", "tip"), player: str = "tip"
) -> str:
    """The game record (JSON) of :func:`stand_in_game`, played once per process on a table
    session with no widget (the warm kernels play it before a page asks:
    :mod:`scatlab.app.warmup`), however the arguments are given.

    >>> import json
    >>> game = json.loads(stand_in_record())
    >>> game["rules"], game["players"], len(game["hands"])
    ('quick', 3, 7)
    >>> stand_in_record() is stand_in_record("quick", 16, ("tip", "tip"), "tip")  # one game, played once
    True
    """
    return _stand_in_record(rules, seed, tuple(opponents), player)


@lru_cache(maxsize=8)
def _stand_in_record(rules: str, seed: int, opponents: tuple[str, ...], player: str) -> str:
    from ...session import TableSession

    session = TableSession(rules, opponents, STAND_IN_SEAT, seed, False, None, None, auto_play=True)
    _play_session(session, player, seed, 10_000)
    return str(session.record_json())


def stand_in_game(
    rules: str = "quick", seed: int = 16, opponents: tuple[str, ...] = ("tip", "tip"), player: str = "tip"
) -> Any:
    """A finished game to review when the learner has not finished one: a table of
    ``rules`` dealt from ``seed``, the learner's seat played by ``player``
    (:func:`!play_to_the_end`, same seed). The defaults (the quick preset, seed 16: seven
    short hands, 64 decisions, played and reviewed in well under a second) give costly
    decisions of both kinds, a knock and a draw, and a close call. The game is
    played once per process (:func:`stand_in_record`) and loaded into a new table each time.

    >>> g = stand_in_game()
    >>> g.session.state.is_over, g.session.display().status.startswith("Game over")
    (True, True)
    """
    from ...widgets.table import Table

    table = Table(rules, opponents=opponents, seat=STAND_IN_SEAT, seed=seed, hints=False, pace=0)
    table.handle({"type": "load", "text": stand_in_record(rules, seed, tuple(opponents), player)})
    return table
