"""The ``expert`` player: it plays the decision engine's first move.

At every decision it returns :func:`scatlab.analysis.engine.decision.decide`'s move, the first
move of :func:`~scatlab.analysis.engine.ranking.rank` (a test checks this at every decision of
seeded games under every preset), so "follow the hints" and "play like the expert" are the
same thing. The engine's module doc states its rule and every assumption of its model: card
tracking, hands valued by their exact expected value five turns ahead, draw against take by
exact counting over the unseen cards, throws that do not feed the next player, and ending
the hand when that raises its chance of winning the game, estimated with the adaptive
opponent model and a stated model of standing.

It has no parameters of its own to tune: every choice is the move with the highest chance of
winning the game by the engine's models (:mod:`scatlab.analysis.model.winning`), whose numbers
were measured on seeded games (``research/winchance``); the strength table in the players
guide, docs/guide/players.md, is measured on other seeds. ``horizon`` only sets how far ahead
the value figures in its reasons look.

>>> import random
>>> from scatlab.rules import GameState, deal_order
>>> s = GameState.new("classic", 2).deal(deal_order(["AH KH 4C", "2S 3S 9H"], up="QH"))
>>> ExpertPlayer().decide(s.view(1), random.Random(0)).action
Action(kind=<ActionKind.TAKE: 'take'>, card=None)
"""

from __future__ import annotations

import random

from ..analysis import Style, decide
from ..cards import Rank
from ..checks import whole_number
from ..rules.actions import ActionKind
from ..rules.state import Phase
from ..rules.view import PlayerView
from .base import Decision, Player, PlayerError, settled_choice
from .public import PublicMove, suits_text

__all__ = ["ExpertPlayer"]

_RANK_PLURALS = {Rank.ACE: "aces", Rank.KING: "kings", Rank.QUEEN: "queens", Rank.JACK: "jacks"}


class ExpertPlayer(Player):
    """Plays from the analysis (see the module doc). ``horizon``: how many turns ahead the
    value figures of its reasons look (0 to 5; the choice reads the chance of winning the
    game, whatever the horizon)."""

    name = "expert"

    def __init__(self, horizon: int = 5) -> None:
        whole_number("horizon", horizon, 0, 5, error=PlayerError)
        self.horizon = horizon
        self.style = Style(horizon)
        """The engine's settings it plays with (:class:`~scatlab.analysis.engine.position.Style`)."""

    # -- the decision ------------------------------------------------------------------

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        _, settled = settled_choice(view, "does not throw down blind: its cards are unknown (V11)")
        if settled is not None:
            return settled
        choice = decide(view, self.style)
        return Decision(choice.action, choice.reason)

    # -- what an observer is told ------------------------------------------------------

    def inference(self, move: PublicMove) -> str | None:
        """What the expert's way of playing (the module doc) lets an observer infer from
        ``move``: it weighs every choice by its count of the unseen cards."""
        kind, top = move.kind, move.top
        ahead = "for the showdown" if move.last_turn else f"{self.horizon} turns ahead"
        if kind is ActionKind.TAKE and top is not None:
            if move.stock_gone:
                return "with the stock gone it takes the discard only when that raises its hand"
            why = (
                f"by its count of the unseen cards the {top} is worth more to its hand than a draw ({ahead}), "
                f"so it probably collects {top.suit.letter}"
            )
            if move.rules.three_of_a_kind is not None:
                why += f" (or {_RANK_PLURALS.get(top.rank, top.rank.symbol + 's')}, three of a kind counting)"
            return why
        if kind is ActionKind.DRAW and top is not None:
            return f"by its count of the unseen cards a draw is worth more to its hand than the {top} ({ahead})"
        if kind is ActionKind.DISCARD:
            why = f"it keeps the three cards worth most to it {ahead}"
            card, nxt, feeds = move.action.card, move.next_player, move.next_collects
            if card is not None and nxt is not None and feeds and card.suit not in feeds and not move.last_turn:
                why += (
                    f", and it avoids feeding player {nxt}, known to collect {suits_text(feeds)}, "
                    "when that costs little"
                )
            return why
        if kind in (ActionKind.KNOCK, ActionKind.HAMMER):
            verb = "knocks" if kind is ActionKind.KNOCK else "calls a hammer"
            return (
                f"the expert {verb} only when its count says that raises its chance of winning the game, "
                "so its hand is probably strong or the others' look weak"
            )
        if kind is ActionKind.STOP_BUS:
            return (
                "the expert stops the bus only when its count says that ending the hand now raises its chance "
                "of winning the game"
            )
        if kind is ActionKind.PASS and move.phase is Phase.TURN and top is not None:
            return f"it takes the discard then only when that raises its hand, so the {top} would not"
        return None
