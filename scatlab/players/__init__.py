"""Computer players (layer 4): policies that see only a :class:`~scatlab.rules.PlayerView`.

For now one simple policy used by the terminal demo and the seeded records; the
``random``/``tip``/``expert`` opponents and the tournament runner build on this package.
"""

from __future__ import annotations

from .simple import greedy_action, greedy_policy

__all__ = ["greedy_action", "greedy_policy"]
