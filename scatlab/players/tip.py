"""The ``tip`` player: the tips a good casual player follows (the tips popular online versions give).

- Commit to one suit early: the target suit is the suit worth most in the hand (ties: more
  cards of it, then clubs, diamonds, hearts, spades).
- Take the discard when it is of the target suit and makes the hand better; otherwise draw.
  (With the stock gone, C11: take when that helps, else pass.)
- Throw the lowest card outside the target suit (all in the suit: the lowest card), a card
  that leaves 31 first, never the discard just taken (C5), and, if there is another choice,
  not a card of a suit the next player is known to collect (they took a card of it from the
  pile this hand). The choice is :func:`scatlab.analysis.model.throws.throw_choice`, the
  ranking the opponent model reads for a ``tip`` opponent.
- Knock at the start of a turn with ``knock_at`` (26) or more, when the rules allow.
- Always declare a 31; never throw down or stop the bus; call a hammer (V10) only with
  ``knock_at`` or more.

>>> import random
>>> from scatlab.rules import GameState, deal_order
>>> s = GameState.new("classic", 2).deal(deal_order(["AH KH 4C", "2S 3S 9H"], up="QH"))
>>> TipPlayer().decide(s.view(1), random.Random(0)).reason
'takes the QH: it is a H, the suit being collected, and raises the hand from 9 to 19'

That reason is the mover's own (it states its hand's value). Another seat is told what its
own view shows and what the tips let it infer (:meth:`~scatlab.players.base.Player.public_reason`):

>>> TipPlayer().public_reason(Action.TAKE, s.view(0))
'takes the QH from the pile: a tip player takes a discard only of the suit it collects, so it collects H'
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..analysis import collected_suits
from ..cards import Card, Suit
from ..checks import whole_number
from ..rules.actions import Action, ActionKind
from ..rules.state import Phase
from ..rules.values import blitz_of, value_of
from ..rules.view import PlayerView
from .base import Decision, Player, PlayerError, settled_choice
from .public import PublicMove, suits_text

__all__ = ["TipPlayer", "target_suit", "collected_suits"]

_SUIT_ORDER = {s: i for i, s in enumerate((Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES))}


def target_suit(cards: Sequence[Card]) -> Suit:
    """The suit worth most among ``cards`` (ties: more cards, then the suit order)."""
    totals: dict[Suit, tuple[int, int]] = {}
    for c in cards:
        total, count = totals.get(c.suit, (0, 0))
        totals[c.suit] = (total + c.value, count + 1)
    return max(totals, key=lambda s: (totals[s][0], totals[s][1], -_SUIT_ORDER[s]))


class TipPlayer(Player):
    """The casual player's tips (see the module doc)."""

    name = "tip"

    def __init__(self, knock_at: int = 26) -> None:
        whole_number("knock_at", knock_at, 0, 31, error=PlayerError)
        self.knock_at = knock_at

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        kinds, settled = settled_choice(view, "never throws down blind (V11)")
        if settled is not None:
            return settled
        legal = view.legal_actions
        if ActionKind.DISCARD in kinds:
            return self._discard(view)
        value = view.value if view.value is not None else value_of(view.hand, view.rules)
        if ActionKind.HAMMER in kinds and value >= self.knock_at:
            return Decision(Action.HAMMER, f"calls a hammer with {value}, at least {self.knock_at} (V10)")
        if ActionKind.KNOCK in kinds and value >= self.knock_at:
            return Decision(Action.KNOCK, f"knocks with {value}: the tip is to knock at {self.knock_at} or more")
        top = view.top_discard
        if ActionKind.TAKE in kinds and top is not None:
            suit = target_suit(view.hand)
            after = max(value_of([c for c in view.hand + (top,) if c is not d], view.rules) for d in view.hand)
            if top.suit is suit and after > value:
                return Decision(
                    Action.TAKE,
                    f"takes the {top}: it is a {suit.letter}, the suit being collected, "
                    f"and raises the hand from {value} to {after}",
                )
            if ActionKind.DRAW not in kinds and after > value:
                return Decision(Action.TAKE, f"takes the {top}: the stock is gone and it raises the hand to {after}")
        if ActionKind.DRAW in kinds:
            return Decision(Action.DRAW, "draws: the discard does not help the suit being collected")
        if ActionKind.PASS in kinds:
            return Decision(Action.PASS, "passes: the stock is gone and the discard would not help (C11)")
        return Decision(legal[0], f"{legal[0]}: the only sensible action left")

    def _discard(self, view: PlayerView) -> Decision:
        from ..analysis import TIP_THROW, throw_choice  # numpy: loaded at the first throw

        hand = view.hand
        drawn = view.taken if view.taken is not None else hand[-1]
        held = tuple(c for c in hand if c is not drawn)
        nxt = view.opponents[0] if view.opponents else None
        avoid = frozenset(collected_suits(view, nxt)) if nxt is not None else frozenset()
        throw = throw_choice(
            view.rules, TIP_THROW, (held[0], held[1], held[2]), drawn, taken=view.taken is not None, avoid=avoid
        )
        card = throw.card
        if blitz_of([c for c in hand if c is not card], view.rules):
            return Decision(Action.discard(card), f"throws the {card}: the other three make 31")
        suit = target_suit(hand)
        where = "outside" if card.suit is not suit else "of"
        why = f"throws the {card}, the lowest card {where} {suit.letter}, the suit being collected"
        if throw.first is not card:
            why += f" (not the {throw.first}: player {nxt} collects {throw.first.suit.letter})"
        return Decision(Action.discard(card), why)

    def inference(self, move: PublicMove) -> str | None:
        """What the tips (the module doc) let an observer infer from ``move``."""
        kind, top, k = move.kind, move.top, self.knock_at
        if kind is ActionKind.TAKE and top is not None:
            if move.stock_gone:
                return "with the stock gone a tip player takes the discard only when it raises its hand"
            return f"a tip player takes a discard only of the suit it collects, so it collects {top.suit.letter}"
        if kind is ActionKind.DRAW and top is not None:
            return "a tip player takes the discard only when it is of the suit it collects and raises its hand"
        if kind is ActionKind.DISCARD and move.action.card is not None:
            suit = move.action.card.suit
            why = (
                "a tip player throws its lowest card outside the suit it collects, "
                f"so it probably does not collect {suit.letter}"
            )
            nxt, feeds = move.next_player, move.next_collects
            if nxt is not None and feeds and suit not in feeds:
                why += f", and it does not feed player {nxt}, known to collect {suits_text(feeds)}"
            return why
        if kind is ActionKind.KNOCK:
            return f"a tip player knocks with {k} or more, so its hand is worth at least {k}"
        if kind is ActionKind.HAMMER:
            return f"a tip player calls one with {k} or more, so its hand is worth at least {k}"
        if kind is ActionKind.PASS and move.phase is Phase.TURN and top is not None:
            return f"a tip player takes the discard then only when it raises its hand, so the {top} would not"
        return None
