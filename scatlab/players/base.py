"""What a computer player is: an object that sees a :class:`PlayerView` and picks an action.

A player never receives the game state, only the view of one seat (what an honest client at
the table may know) and an injected ``random.Random`` (OpenSpiel's bots work the same way).

Every choice comes with a one-sentence reason, :attr:`Decision.reason`. That reason is the
**mover's own**: it is built from the mover's view and may name the cards in its hand ("throws
the 2S, keeping 3C 7H 8H"), so it is for whoever may see that hand: a tournament or the CLI,
where everything is known, or a table once the hand is over and every hand is face up.

What another seat is told is :meth:`Player.public_reason`: built from that seat's own view of
the moment before the move and the action (a :class:`~scatlab.players.public.PublicMove`),
plus what may be inferred from how this kind of player plays ("takes the QH from the pile: a
tip player takes a discard only of the suit it collects, so it collects H"). It never sees the
mover's hand or its private reason, so it cannot name a card, a suit or a value the observer
cannot see. The widget table shows it for every computer move while the hand is live, and the
private reasons once the hand is over (:class:`~scatlab.session.TableSession`).

>>> import random
>>> from scatlab.rules import GameState, deal_order
>>> state = GameState.new("classic", 2).deal(deal_order(["AH KH 4C", "2S 3S 4S"], up="QH"))
>>> player = make_player("random")
>>> decision = player.decide(state.view(1), random.Random(1))
>>> decision.action in state.legal_actions(), bool(decision.reason)
(True, True)
>>> player.public_reason(decision.action, state.view(0))   # what seat 0 is told
'draws from the stock rather than take the QH: a random player picks any legal action at random'
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..checks import shown
from ..errors import PlayerError
from ..rules.actions import Action, ActionKind
from ..rules.record import Policy
from ..rules.state import GameState
from ..rules.view import PlayerView
from .public import PublicMove

__all__ = [
    "Decision",
    "Player",
    "RandomPlayer",
    "make_player",
    "PLAYER_KINDS",
    "PlayerError",
    "settled_choice",
    "seat_policy",
]


@dataclass(frozen=True)
class Decision:
    """An action and the one-sentence reason for it.

    ``reason`` is the mover's own: it may name the cards in the mover's hand, so it is shown
    only where that hand may be seen (see the module doc); another seat is told
    :meth:`Player.public_reason`."""

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
        """Why this player would take the action it takes in ``view``, in one sentence (the
        mover's own reason: it may name the cards of ``view``'s hand)."""
        return self.decide(view, rng or random.Random(0)).reason

    def public_reason(self, action: Action, seen: PlayerView) -> str:
        """This player's ``action`` in words for an observer whose view ``seen`` is of the
        moment just before it (``seen.to_move`` is this player's seat): the move's public facts
        (:class:`~scatlab.players.public.PublicMove`) and what :meth:`inference` adds. Only
        ``seen`` and ``action`` are read, never the mover's hand or its :class:`Decision`, so
        the text names no card the observer cannot see."""
        move = PublicMove.of(action, seen)
        return move.describe(self.inference(move))

    def inference(self, move: PublicMove) -> str | None:
        """What an observer may infer from ``move`` knowing how this kind of player plays (its
        policy is public), or None. It receives the public facts only."""
        return None

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

    def inference(self, move: PublicMove) -> str | None:
        return "a random player picks any legal action at random"


def _loaded(module: str, name: str) -> Callable[..., Player]:
    """A player class found by name on first use: the registry imports no subclass (they
    import this module), and ``import scatlab.players`` stays free of the analysis tables
    the expert needs."""

    def make(**params: Any) -> Player:
        cls: Callable[..., Player] = getattr(importlib.import_module(module, __package__), name)
        return cls(**params)

    return make


PLAYER_KINDS: dict[str, Callable[..., Player]] = {
    "random": RandomPlayer,
    "tip": _loaded(".tip", "TipPlayer"),
    "expert": _loaded(".expert", "ExpertPlayer"),
    "greedy": _loaded(".simple", "GreedyPlayer"),
    "master": _loaded(".master", "MasterPlayer"),
}


def make_player(kind: str, **params: Any) -> Player:
    """A player by name: ``random``, ``tip``, ``expert``, ``greedy`` or ``master``; ``master:N``
    is a master searching ``N`` rollouts a decision (a name that pickles, for a tournament's
    worker processes).

    >>> make_player("master", budget=200).budget, make_player("master:300").budget
    (200, 300)
    >>> make_player("champion")
    Traceback (most recent call last):
    ...
    scatlab.errors.PlayerError: unknown player 'champion': choose one of random, tip, expert, greedy, master
    """
    key = kind.strip().lower() if isinstance(kind, str) else None
    if key is not None and ":" in key:  # "master:300": a master searching 300 rollouts a decision
        name, _, budget = key.partition(":")
        if name.strip() != "master" or not budget.strip().isdigit():
            raise PlayerError(
                f"unknown player {shown(kind)}: only the master takes a budget, as master:300 "
                f"(rollouts a decision); choose one of {', '.join(PLAYER_KINDS)}"
            )
        if "budget" in params:
            raise PlayerError(f"player {shown(kind)} is given a budget twice")
        try:
            return make_player("master", budget=int(budget), **params)
        except PlayerError as exc:
            raise PlayerError(f"player {shown(kind)}: {exc}") from None
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
