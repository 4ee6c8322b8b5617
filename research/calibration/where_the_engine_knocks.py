"""Where the engine knocks, is the last-turn picture right? (issue 50's calibration gap)

Replays seeded games of ``expert, tip, tip`` (seed 7, tournament seating) and, at every knock
the engine advised and the expert made, compares for each opponent in turn order:

- the model's chance that it makes 31 on its last turn (the engine's own
  :func:`~scatlab.analysis.model.weights.final_value_distribution`: the next player sees
  the top discard, a later one a card nobody has seen);
- the chance given by its real hand and the real stock, every opponent seeing the top
  discard of the knock (the picture the engine used before 2026-12-06);
- how often it really made 31 on that last turn (a 31 declared ends the hand, C8).

The real hand with the knock's top discard says less than what happened for the second
opponent: it sees the first opponent's throw, not that top. That is why the model gives the
later opponents a top nobody has seen.

Run: ``python research/calibration/where_the_engine_knocks.py classic 1200``
(result on 2026-12-06: 2,609 advised knocks; the model 0.86% and 1.57%, the real hands with
the knock's top 0.76% and 0.78%, made 0.96% and 1.61%).
"""

from __future__ import annotations

import sys

import numpy as np

from scatlab.analysis import rank
from scatlab.analysis.counting.tables import BLITZ2, RANK_BITS, Tables, scoring_rules, tables_for
from scatlab.analysis.model import last_turn, weights
from scatlab.players.base import make_player
from scatlab.players.tournament import play_out
from scatlab.rules.actions import Action, ActionKind
from scatlab.rules.options import RuleSet, find_rules
from scatlab.rules.state import GameState
from scatlab.rules.view import PlayerView


def real_p31(rules: RuleSet, tables: Tables, hand: list[int], top: int | None, stock: list[int]) -> float:
    """The chance that the hand ``hand`` makes 31 on a last turn with the real stock."""
    row = tables.row(sorted(hand))
    current = tables.strength[row]
    if top is not None:
        taken = last_turn._take_strength(scoring_rules(rules), top)[row]
        if taken > current:
            return float((int(taken) >> RANK_BITS) >= BLITZ2)
    cards = [c for c in stock if c not in hand]
    if not cards:
        return 0.0
    return float(np.mean([(int(tables.after_draw[row, c]) >> RANK_BITS) >= BLITZ2 for c in cards]))


def main(rules_name: str, games: int) -> None:
    kinds = ("expert", "tip", "tip")
    rules = find_rules(rules_name)
    tables = tables_for(rules)
    players = [make_player(k) for k in kinds]
    model = np.zeros(2)
    real = np.zeros(2)
    made = np.zeros(2)
    knocks = 0
    for game in range(games):
        pending: list[tuple[int, tuple[int, ...]]] = []

        def observe(before: GameState, entrant: int, view: PlayerView, action: Action, after: GameState) -> None:
            nonlocal knocks
            if entrant == 0 and action.kind is ActionKind.KNOCK and len(view.opponents) == 2:
                ranking = rank(view)
                if ranking.best.action == action:
                    k = ranking.position.knowledge
                    obs = ranking.position.observed()
                    top = k.top.index if k.top is not None else None
                    stock = [c.index for c in before.stock]
                    for i, seat in enumerate(view.opponents):
                        model[i] += weights.final_value_distribution(k, obs, i, True)[BLITZ2:].sum()
                        real[i] += real_p31(rules, tables, [c.index for c in before.hands[seat]], top, stock)
                    knocks += 1
                    pending.append((len(before.results), tuple(view.opponents)))
            while pending and len(after.results) > pending[0][0]:
                number, seats = pending.pop(0)
                values = after.results[number].values
                for i, seat in enumerate(seats):
                    value = values[seat]
                    made[i] += value is not None and value >= 31

        play_out(players, kinds, rules, 7, game, observe)
    if knocks:
        print(f"{knocks} advised knocks; each opponent's 31 on its last turn, next player first:")
        print(
            f"  model {model[0] / knocks:.2%} and {model[1] / knocks:.2%}; real hand with the knock's top "
            f"{real[0] / knocks:.2%} and {real[1] / knocks:.2%}; made {made[0] / knocks:.2%} and "
            f"{made[1] / knocks:.2%}"
        )


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "classic", int(sys.argv[2]) if len(sys.argv) > 2 else 300)
