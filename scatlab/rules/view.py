"""What one player may know: the :class:`PlayerView` of a game state, and the public log.

A view hides the other players' hands and the order of the stock, exactly what an honest
client at the table could not see. The analysis, the computer players and the widgets work
from views only.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from ..cards import Card
from ..words import player_label  # a seat as a person reads it: one of the learner's words
from .actions import Action, ActionKind
from .options import RuleSet

if TYPE_CHECKING:
    from .state import HandResult, Phase

__all__ = ["Event", "PastHand", "PlayerView", "player_label"]


@dataclass(frozen=True, slots=True)
class Event:
    """One action in a hand's log: who did it, what, and the card it moved.

    ``card`` is the card taken or discarded (public) or drawn from the stock (private:
    :meth:`public` hides it from everyone but the drawer).
    """

    player: int
    action: Action
    card: Card | None = None

    def public(self, viewer: int) -> Event:
        """The event as ``viewer`` saw it: a stock draw's card is hidden from others."""
        if self.action.kind is ActionKind.DRAW and viewer != self.player and self.card is not None:
            return Event(self.player, self.action, None)
        return self

    def __str__(self) -> str:
        return self.describe()

    def describe(self, pretty: bool = False) -> str:
        """The event in words, e.g. ``player 1 takes 10H`` (``10♥`` with ``pretty``)."""
        card = "" if self.card is None else " " + (self.card.pretty if pretty else str(self.card))
        kind = self.action.kind
        if kind is ActionKind.DRAW:
            return f"player {self.player} draws{card}"
        if kind is ActionKind.TAKE:
            return f"player {self.player} takes{card}"
        if kind is ActionKind.DISCARD:
            return f"player {self.player} discards{card}"
        words = {
            ActionKind.THROW_DOWN: "throws down",
            ActionKind.STOP_BUS: "stops the bus",
            ActionKind.DECLARE: "declares 31",
            ActionKind.PASS: "passes",
        }
        return f"player {self.player} {words.get(kind, kind.value + 's')}"


@dataclass(frozen=True, slots=True)
class PastHand:
    """A finished hand as one player saw it: its public log (other players' stock draws
    hidden) and the discard pile at its end. Its result, with every hand shown, is the
    view's ``results`` entry of the same index.

    >>> from scatlab.rules.state import GameState
    >>> s = GameState.new("classic", 2)
    >>> s.view(0).past_hands
    ()
    """

    history: tuple[Event, ...]
    discard_pile: tuple[Card, ...]


@dataclass(frozen=True)
class PlayerView:
    """Everything ``player`` may know about a game at one moment.

    Public: the rules, lives/points, who is out, the dealer, whose turn and the phase, the
    whole discard pile (bottom first; the top card is the last), the stock's size, every
    hand's size, the knocker, who sits at each seat when announced, past hands' results
    (hands are shown at a showdown) and logs, and the current hand's log, with stock draws
    hidden. Private to ``player``: their own hand and
    the cards they drew. Never included: other hands and the stock order. While the first
    player decides on a throw-down (V11) their own hand is hidden too: that choice is made
    before looking.
    """

    player: int
    rules: RuleSet
    num_players: int
    hand_number: int
    dealer: int
    phase: Phase
    to_move: int | None
    hand: tuple[Card, ...]
    value: Fraction | None
    """The value of a three-card hand (None while holding four cards, or none)."""
    discard_pile: tuple[Card, ...]
    stock_size: int
    hand_sizes: tuple[int, ...]
    lives: tuple[int, ...]
    points: tuple[int, ...]
    out: tuple[bool, ...]
    knocker: int | None
    taken: Card | None
    drawn: Card | None
    legal_actions: tuple[Action, ...]
    history: tuple[Event, ...]
    results: tuple[HandResult, ...]
    winner: int | None
    past_hands: tuple[PastHand, ...] = ()
    """The finished hands' public logs and final piles, one per entry of ``results``: what
    an attentive player remembers of how each opponent played before their hand was shown."""
    seats: tuple[str, ...] = ()
    """Who sits at each seat, as the table announced it to everyone (e.g. ``"tip"``), or
    empty when nobody was announced (:attr:`GameState.seats`)."""

    @property
    def top_discard(self) -> Card | None:
        """The card on top of the discard pile, if any."""
        return self.discard_pile[-1] if self.discard_pile else None

    @property
    def opponents(self) -> tuple[int, ...]:
        """The other players still in the game, in turn order after ``player``."""
        n = self.num_players
        return tuple((self.player + k) % n for k in range(1, n) if not self.out[(self.player + k) % n])

    @property
    def is_my_turn(self) -> bool:
        """Whether ``player`` is the one to act now."""
        return self.to_move == self.player
