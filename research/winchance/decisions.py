"""Where the chance of winning is off at the decisions: the measured seat's advised figure
against whether it won the game, split by the players still in, by the kind of decision (a
turn's start, a discard) and by tenths of the figure. Every seat is announced, as at the
table.

Run: ``python -m research.winchance.decisions --rules classic --against expert,expert --games 200 --seed 7``
"""

from __future__ import annotations

import argparse
from collections import defaultdict

import numpy as np

from scatlab.analysis import decide
from scatlab.players.base import make_player
from scatlab.players.tournament import play_out
from scatlab.rules.actions import Action
from scatlab.rules.options import find_rules
from scatlab.rules.state import GameState, Phase
from scatlab.rules.view import PlayerView


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--rules", default="classic")
    p.add_argument("--against", default="expert,expert")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=7)
    a = p.parse_args()
    kinds = ["expert", *a.against.split(",")]
    rules = find_rules(a.rules)
    players = [make_player(k) for k in kinds]
    rows: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for game in range(a.games):
        seen: list[tuple[str, float]] = []

        def observe(before: GameState, entrant: int, view: PlayerView, action: Action, after: GameState) -> None:
            if entrant != 0 or len(view.legal_actions) < 2 or view.phase in (Phase.THROW_DOWN, Phase.DECLARE):
                return
            choice = decide(view)
            if action != choice.action:
                return
            alive = sum(not o for o in view.out)
            kind = "discard" if len(view.hand) == 4 else "start"
            seen.append((f"{alive} in, {kind}", float(choice.win)))

        state, entrant_at, _ = play_out(players, kinds, rules, a.seed, game, observe, announce=True)
        won = float(state.winner == entrant_at.index(0))
        for key, pred in seen:
            rows[key].append((pred, won))
            rows["all"].append((pred, won))
    for key in sorted(rows):
        arr = np.array(rows[key])
        print(f"{key:>16}: {len(arr):6d} decisions, predicted {arr[:, 0].mean():.1%}, won {arr[:, 1].mean():.1%}")
        tenth = np.minimum((arr[:, 0] * 10).astype(int), 9)
        print(
            "    "
            + "; ".join(
                f"{b / 10:.1f}: {arr[tenth == b, 0].mean():.2f}->{arr[tenth == b, 1].mean():.2f} "
                f"({int((tenth == b).sum())})"
                for b in range(10)
                if (tenth == b).sum() >= 100
            )
        )


if __name__ == "__main__":
    main()
