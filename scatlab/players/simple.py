"""A simple greedy player: it only looks at its own :class:`PlayerView`.

Policy (stated so that lessons and tests can rely on it):

- declare a 31 whenever it may, never throw down, never call a hammer;
- at the start of a turn, knock when allowed and the hand is worth ``knock_at`` (26) or
  more; otherwise take the top discard if that makes the hand better than it is now,
  else draw (when the stock is out: pass). Each take strictly raises the taker's value,
  so a hand whose stock ran out always ends;
- after drawing, discard the card that leaves the highest value (ties: the lowest card);
  it never stops the bus.

>>> from scatlab.rules import GameState, deal_order
>>> s = GameState.new("classic", 2).deal(deal_order(["AH KH 4C", "2S 3S 4S"], up="QH"))
>>> str(greedy_action(s.view(1)))
'take'
"""

from __future__ import annotations

import random
from fractions import Fraction

from ..cards import Card
from ..checks import whole_number
from ..rules.actions import Action, ActionKind
from ..rules.state import GameState, Phase
from ..rules.values import value_of
from ..rules.view import PlayerView
from .base import Decision, Player, PlayerError
from .public import PublicMove

__all__ = ["greedy_action", "greedy_policy", "GreedyPlayer"]


def _best_discard(view: PlayerView, hand: tuple[Card, ...], banned: Card | None) -> tuple[Fraction, Card]:
    best: tuple[Fraction, int, Card] | None = None
    for card in hand:
        if card is banned:
            continue
        rest = tuple(c for c in hand if c is not card)
        key = (value_of(rest, view.rules), -card.value, card)
        if best is None or key[:2] > best[:2]:
            best = key
    assert best is not None
    return best[0], best[2]


def greedy_action(view: PlayerView, knock_at: int = 26) -> Action:
    """The greedy player's choice among ``view.legal_actions`` (see the module doc)."""
    legal = view.legal_actions
    if not legal:
        raise ValueError(f"player {view.player} has no action to take now")
    kinds = {a.kind for a in legal}
    if ActionKind.DECLARE in kinds:
        return Action.DECLARE
    if ActionKind.THROW_DOWN in kinds:
        return Action.PASS
    if ActionKind.DISCARD in kinds:
        _, card = _best_discard(view, view.hand, view.taken)
        return Action.discard(card)
    now = value_of(view.hand, view.rules)
    if ActionKind.KNOCK in kinds and now >= knock_at:
        return Action.KNOCK
    if ActionKind.TAKE in kinds and view.top_discard is not None:
        after, _ = _best_discard(view, view.hand + (view.top_discard,), view.top_discard)
        if after > now:  # strictly better, so a stock-out hand always ends
            return Action.TAKE
    if ActionKind.DRAW in kinds:
        return Action.DRAW
    if ActionKind.PASS in kinds:
        return Action.PASS
    return legal[0]


def greedy_policy(state: GameState, rng: random.Random) -> Action:
    """:func:`greedy_action` for the player to move, as a policy for
    :func:`~scatlab.rules.play_random_game` (it ignores ``rng``)."""
    assert state.to_move is not None
    return greedy_action(state.view(state.to_move))


class GreedyPlayer(Player):
    """The greedy player as a :class:`Player` (see the module doc)."""

    name = "greedy"

    def __init__(self, knock_at: int = 26) -> None:
        self.knock_at = whole_number("knock_at", knock_at, 0, 31, error=PlayerError)

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        action = greedy_action(view, self.knock_at)
        kind = action.kind
        if kind is ActionKind.KNOCK:
            reason = f"knocks: the hand is worth {view.value}, at least {self.knock_at}"
        elif kind is ActionKind.TAKE:
            reason = f"takes the {view.top_discard}: it makes the hand better than {view.value}"
        elif kind is ActionKind.DRAW:
            reason = "draws: taking the discard would not make the hand better"
        elif kind is ActionKind.DISCARD:
            reason = f"throws the {action.card}: the other three cards make the best hand"
        elif kind is ActionKind.DECLARE:
            reason = "declares 31"
        else:
            reason = f"{action}: nothing better is possible"
        return Decision(action, reason)

    def inference(self, move: PublicMove) -> str | None:
        """What the greedy policy (the module doc) lets an observer infer from ``move``."""
        kind, top, k = move.kind, move.top, self.knock_at
        if kind is ActionKind.TAKE:
            return "a greedy player takes the discard whenever it makes its hand better"
        if kind is ActionKind.DRAW and top is not None:
            return f"a greedy player takes the discard whenever it makes its hand better, so the {top} would not"
        if kind is ActionKind.DISCARD:
            return "a greedy player throws the card that leaves the best three"
        if kind is ActionKind.KNOCK:
            return f"a greedy player knocks with {k} or more, so its hand is worth at least {k}"
        if kind is ActionKind.PASS and move.phase is Phase.TURN and top is not None:
            return f"a greedy player takes the discard whenever it makes its hand better, so the {top} would not"
        return None
