"""What a computer player is: an object that sees a :class:`PlayerView` and picks an action.

A player never receives the game state, only the view of one seat (what an honest client at
the table may know) and an injected ``random.Random`` (OpenSpiel's bots work the same way).
Every choice comes with a one-sentence reason, which the widget table shows when a learner
asks "why did it do that?".

>>> import random
>>> from scatlab.rules import GameState, deal_order
>>> state = GameState.new("classic", 2).deal(deal_order(["AH KH 4C", "2S 3S 4S"], up="QH"))
>>> player = make_player("random")
>>> decision = player.decide(state.view(1), random.Random(1))
>>> decision.action in state.legal_actions(), bool(decision.reason)
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..checks import shown
from ..errors import ScatlabError
from ..rules.actions import Action, ActionKind
from ..rules.record import Policy
from ..rules.state import GameState
from ..rules.view import PlayerView

__all__ = [
    "Decision", "Player", "RandomPlayer", "make_player", "PLAYER_KINDS", "PlayerError", "settled_choice", "seat_policy",
]


class PlayerError(ScatlabError):
    """An unknown player kind, or a bad player parameter."""


@dataclass(frozen=True)
class Decision:
    """An action and the one-sentence reason for it."""

    action: Action
    reason: str


def settled_choice(view: PlayerView, throw_down_reason: str) -> tuple[set[ActionKind], Decision | None]:
    """The kinds of action legal in ``view``, and the decision when there is nothing to
    weigh: a 31 is always declared (C8, C10) and a blind throw-down (V11) always declined.
    Raises :class:`PlayerError` when the player has no action to take."""
    legal = view.legal_actions
    if not legal:
        raise PlayerError(f"player {view.player} has no action to take now")
    kinds = {a.kind for a in legal}
    if ActionKind.DECLARE in kinds:
        return kinds, Decision(Action.DECLARE, "declares 31 at once (C8)")
    if ActionKind.THROW_DOWN in kinds:
        return kinds, Decision(Action.PASS, throw_down_reason)
    return kinds, None


class Player:
    """Base class of computer players. Subclasses implement :meth:`decide`."""

    name = "player"

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        """The action for ``view`` (one of ``view.legal_actions``) and why."""
        raise NotImplementedError

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """Just the action of :meth:`decide`."""
        return self.decide(view, rng).action

    def explain(self, view: PlayerView, rng: random.Random | None = None) -> str:
        """Why this player would take the action it takes in ``view``, in one sentence."""
        return self.decide(view, rng or random.Random(0)).reason

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


class RandomPlayer(Player):
    """Any legal action, uniformly at random."""

    name = "random"

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        legal = view.legal_actions
        if not legal:
            raise PlayerError(f"player {view.player} has no action to take now")
        action = legal[rng.randrange(len(legal))]
        return Decision(action, f"picked {action} at random among {len(legal)} legal actions")


def _tip(**params: Any) -> Player:
    from .tip import TipPlayer

    return TipPlayer(**params)


def _expert(**params: Any) -> Player:
    from .expert import ExpertPlayer

    return ExpertPlayer(**params)


def _greedy(**params: Any) -> Player:
    from .simple import GreedyPlayer

    return GreedyPlayer(**params)


PLAYER_KINDS: dict[str, Callable[..., Player]] = {
    "random": RandomPlayer,
    "tip": _tip,
    "expert": _expert,
    "greedy": _greedy,
}


def make_player(kind: str, **params: Any) -> Player:
    """A player by name: ``random``, ``tip``, ``expert`` or ``greedy``.

    >>> make_player("champion")
    Traceback (most recent call last):
    ...
    scatlab.players.base.PlayerError: unknown player 'champion': choose one of random, tip, expert, greedy
    """
    key = kind.strip().lower() if isinstance(kind, str) else None
    if key not in PLAYER_KINDS:
        raise PlayerError(f"unknown player {shown(kind)}: choose one of {', '.join(PLAYER_KINDS)}")
    try:
        return PLAYER_KINDS[key](**params)
    except TypeError as exc:
        raise PlayerError(f"bad parameters for the {key} player: {exc}") from None


def seat_policy(players: Sequence[Player]) -> Policy:
    """The engine policy of a table of players: ``players[seat]`` chooses for its seat,
    from that seat's own :class:`~scatlab.rules.PlayerView` and the policy's random
    generator. With :func:`scatlab.rules.play_random_game` it plays a whole seeded game
    between computer players (one ``random.Random(seed)`` shuffles the decks and feeds
    every choice, so the seed replays the game).

    >>> from scatlab.rules import play_random_game
    >>> table = lambda: seat_policy([make_player(k) for k in ("random", "tip", "expert")])
    >>> a = play_random_game("classic", 3, seed=4, policy=table())
    >>> b = play_random_game("classic", 3, seed=4, policy=table())
    >>> a.is_over, a.winner == b.winner, a.decks == b.decks, a.results == b.results
    (True, True, True, True)
    """
    seated = tuple(players)

    def policy(state: GameState, rng: random.Random) -> Action:
        mover = state.to_move
        assert mover is not None
        return seated[mover].choose(state.view(mover), rng)

    return policy
