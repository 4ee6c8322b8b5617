"""What another seat may know of a computer player's move: :class:`PublicMove`.

A player's :class:`~scatlab.players.base.Decision` carries the mover's own reason, built from
the mover's view: it may name the cards in the mover's hand ("throws the 2S, keeping 3C 7H
8H"). Another seat sees those cards face down, so while the hand is live it is told only what
a :class:`PublicMove` holds: the action (public once played) and the facts of the
**observer's** :class:`~scatlab.rules.PlayerView` taken just before it (whose turn and which
one, the top of the discard pile, the card the mover took this turn, the suits each player
has taken from the pile, the stock, the knock). Nothing else goes in, so no text built from it
can name a card the observer cannot see, or state the mover's hand, value or suit: it can
only say what the observer may infer ("takes the QH: it probably collects H").

>>> from scatlab.rules import GameState, deal_order
>>> s = GameState.new("classic", 2).deal(deal_order(["AH KH 4C", "2S 3S 9H"], up="QH"))
>>> s = s.apply("draw")            # player 1 draws a card player 0 does not see
>>> move = PublicMove.of(Action.discard("2S"), s.view(0))
>>> move.mover, move.turn, move.top, move.describe()
(1, 1, Card('QH'), 'throws the 2S')
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Card, Suit
from ..errors import ScatlabError
from ..rules.actions import Action, ActionKind
from ..rules.options import RuleSet
from ..rules.state import Phase
from ..rules.view import PlayerView
from ..words import ordinal, suits_text

__all__ = ["PublicMove", "ordinal", "suits_text"]


def _taken_suits(view: PlayerView, player: int) -> frozenset[Suit]:
    return frozenset(
        e.card.suit
        for e in view.history
        if e.player == player and e.action.kind is ActionKind.TAKE and e.card is not None
    )


@dataclass(frozen=True)
class PublicMove:
    """One move as an observer saw it: the action and the public facts of the moment before
    it, all read from the observer's view (:meth:`of`). Cards named here are public: the top
    discard, the card the mover took (or throws)."""

    mover: int
    action: Action
    phase: Phase
    """The phase the move was made in (a pass means one thing at a throw-down, another with
    the stock gone)."""
    turn: int
    """The mover's turn in this hand, from 1 (its discards and knocks so far, plus one)."""
    top: Card | None
    """The top of the discard pile before the move (under the card thrown, for a discard)."""
    taken: Card | None
    """The card the mover took from the pile this turn (a discard after a take), else None."""
    collects: frozenset[Suit]
    """The suits the mover has taken from the pile this hand (public: everyone saw it)."""
    next_player: int | None
    """The seat that plays after the mover (None when no one else is in)."""
    next_collects: frozenset[Suit]
    """The suits the next player has taken from the pile this hand."""
    stock_size: int
    knocker: int | None
    rules: RuleSet

    @classmethod
    def of(cls, action: Action, seen: PlayerView) -> PublicMove:
        """``action`` by the player to move in ``seen``, an observer's view of the moment
        before the action. Only ``seen`` and ``action`` are read."""
        mover = seen.to_move
        if mover is None:
            raise ScatlabError("no one is to move in this view: a public move is read from the view before it")
        n = seen.num_players
        later = [(mover + k) % n for k in range(1, n) if not seen.out[(mover + k) % n]]
        nxt = later[0] if later else None
        done = sum(
            1 for e in seen.history if e.player == mover and e.action.kind in (ActionKind.DISCARD, ActionKind.KNOCK)
        )
        taken = seen.taken if seen.phase is Phase.DISCARD else None
        return cls(
            mover=mover,
            action=action,
            phase=seen.phase,
            turn=done + 1,
            top=seen.top_discard,
            taken=taken,
            collects=_taken_suits(seen, mover),
            next_player=nxt,
            next_collects=_taken_suits(seen, nxt) if nxt is not None else frozenset(),
            stock_size=seen.stock_size,
            knocker=seen.knocker,
            rules=seen.rules,
        )

    @property
    def kind(self) -> ActionKind:
        """The kind of the action."""
        return self.action.kind

    @property
    def stock_gone(self) -> bool:
        """Whether the stock was empty (C11: take the discard or pass)."""
        return self.stock_size == 0

    @property
    def last_turn(self) -> bool:
        """Whether this is the mover's last turn after someone else's knock (C6)."""
        return self.knocker is not None and self.knocker != self.mover

    def describe(self, inference: str | None = None) -> str:
        """The move in words, from public facts only; ``inference`` (what a learner may infer
        from how this kind of player plays) follows after a colon."""
        text = self._plain()
        return f"{text}: {inference}" if inference else text

    def _plain(self) -> str:
        kind, top = self.kind, self.top
        last = f", in its last turn after player {self.knocker}'s knock" if self.last_turn else ""
        if kind is ActionKind.DRAW:
            return "draws from the stock" + (f" rather than take the {top}" if top is not None else "") + last
        if kind is ActionKind.TAKE:
            return f"takes the {top} from the pile" + (" with the stock gone (C11)" if self.stock_gone else "") + last
        if kind is ActionKind.DISCARD:
            return f"throws the {self.action.card}" + (f", having taken the {self.taken}" if self.taken else "")
        if kind is ActionKind.KNOCK:
            return (
                f"knocks at the start of its {ordinal(self.turn)} turn, so everyone else plays one more turn "
                f"before the showdown (C6)"
            )
        if kind is ActionKind.HAMMER:
            return "calls a hammer on the very first turn, so the hands are shown at once (V10)"
        if kind is ActionKind.THROW_DOWN:
            return "throws down before looking at its cards, so the hands are shown at once (V11)"
        if kind is ActionKind.STOP_BUS:
            return "stops the bus, so the hand ends after its discard (V19)"
        if kind is ActionKind.DECLARE:
            return "declares 31, so its hand is shown and the hand ends (C8)"
        if self.phase is Phase.THROW_DOWN:
            return "does not throw down, so the hand is played (V11)"
        if self.phase is Phase.DECLARE:
            return "does not declare its 31, which then counts as 30 (C10)"
        return (
            "passes with the stock gone"
            + (f", leaving the {top}" if top is not None else "")
            + ", so the hand ends (C11)"
        )
