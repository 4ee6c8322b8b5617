"""Computer players (layer 3): they see only a :class:`~scatlab.rules.PlayerView` and an
injected random generator, and explain each move in one sentence.

- ``random``: any legal action, uniformly;
- ``tip``: the casual player's tips (commit to a suit, knock at 26, do not feed the next
  player);
- ``expert``: plays from the exact analysis (card tracking, draw odds, horizon tables, knock
  risk);
- ``greedy``: the simple player of the terminal demo;
- ``master``: searches from the engine: plays its first moves out in deals sampled from what
  it saw, and plays another move only when that is clearly better.
"""

from __future__ import annotations

from .base import PLAYER_KINDS, Decision, Player, PlayerError, RandomPlayer, make_player, seat_policy
from .simple import GreedyPlayer, greedy_action, greedy_policy
from .tournament import TournamentResult, run_tournament

__all__ = [
    "PLAYER_KINDS",
    "Decision",
    "Player",
    "PlayerError",
    "RandomPlayer",
    "make_player",
    "seat_policy",
    "GreedyPlayer",
    "greedy_action",
    "greedy_policy",
    "TournamentResult",
    "run_tournament",
]
