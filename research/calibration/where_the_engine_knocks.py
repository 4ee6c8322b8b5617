"""Where the engine knocks, is the opponent model still right? (issue 50's calibration gap)

Replays seeded games of ``expert, tip, tip`` (seed 7, tournament seating) and, at every
decision of the expert where a knock is allowed, compares the opponent model's chance that
the next opponent makes 31 on a last turn (:func:`value_after_last_turn` of the adaptive
weights) with the chance given by that opponent's real hand and the real stock (take the
top discard if it makes a stronger hand, else draw a card of the real stock). Prints the two
averages over every such decision and over the knocks the engine advised and made.

Run: ``python research/calibration/where_the_engine_knocks.py classic 120``
(result on 2026-12-05: every decision 1.32% and 1.32%; advised knocks 0.83% and 1.48%).
"""

from __future__ import annotations

import sys

import numpy as np

from scatlab.analysis import rank
from scatlab.analysis.counting.tables import BLITZ2, RANK_BITS, Tables, scoring_rules, tables_for
from scatlab.analysis.model import opponents as O
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
        taken = O._take_strength(scoring_rules(rules), top)[row]
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
    acc = {"every decision with a knock allowed": [0.0, 0.0, 0.0], "knocks advised and made": [0.0, 0.0, 0.0]}

    def observe(before: GameState, entrant: int, view: PlayerView, action: Action, after: GameState) -> None:
        if entrant != 0 or not any(a.kind is ActionKind.KNOCK for a in view.legal_actions):
            return
        ranking = rank(view)
        k = ranking.position.knowledge
        w = O.row_weights(k, ranking.position.observed(), 0)
        predicted = float(O.value_after_last_turn(k.rules, w / w.sum(), k.top)[BLITZ2:].sum())
        hand = [c.index for c in before.hands[view.opponents[0]]]
        real = real_p31(rules, tables, hand, k.top.index if k.top is not None else None,
                        [c.index for c in before.stock])
        keys = ["every decision with a knock allowed"]
        if ranking.best.ends_hand and action == ranking.best.action:
            keys.append("knocks advised and made")
        for key in keys:
            acc[key][0] += 1
            acc[key][1] += predicted
            acc[key][2] += real

    for game in range(games):
        play_out(players, kinds, rules, 7, game, observe)
    for key, (n, p, r) in acc.items():
        if n:
            print(f"{key}: {int(n)}; the next opponent's 31 on a last turn: model {p / n:.2%}, "
                  f"its real hand and the real stock {r / n:.2%}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "classic", int(sys.argv[2]) if len(sys.argv) > 2 else 120)
