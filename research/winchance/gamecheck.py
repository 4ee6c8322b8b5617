"""How well the game model alone predicts who wins the game: at the start of every recorded
hand, the measured seat's chance of winning the game from the standings
(:func:`scatlab.analysis.model.winning.game_chance`), with each opponent's kind known (tip:
casual, expert: strong) and with even odds, against whether that seat went on to win.

Run: ``python -m research.winchance.gamecheck /tmp/wc/it2/classic-tip_tip.npz --rules classic``
"""

from __future__ import annotations

import argparse
from collections import defaultdict

import numpy as np

from scatlab.analysis.model.winning import game_chance
from scatlab.rules.options import find_rules


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("files", nargs="+")
    p.add_argument("--rules", required=True)
    a = p.parse_args()
    rules = find_rules(a.rules)
    points = rules.score_keeping == "points"
    for path in a.files:
        d = np.load(path, allow_pickle=True)
        # the winner of each game: the seat left in after its last hand (or the top scorer)
        last: dict[int, int] = {}
        for i, g in enumerate(d["hand_game"]):
            last[int(g)] = i
        rows: dict[str, list[tuple[float, float, float]]] = defaultdict(list)
        for _i, (g, kinds_s, before_s, seat0) in enumerate(
            zip(d["hand_game"], d["hand_kinds"], d["hand_before"], d["hand_seat0"])
        ):
            j = last[int(g)]
            out_after = [int(x) for x in str(d["hand_out"][j]).split(",")]
            won = (
                float(not out_after[int(seat0)])
                if not points
                else float(
                    max(range(len(out_after)), key=lambda s: int(str(d["hand_before"][j]).split(",")[s])) == int(seat0)
                )
            )
            kinds = [int(x) for x in str(kinds_s).split(",")]
            before = [int(x) for x in str(before_s).split(",")]
            if kinds[int(seat0)] < 0:
                continue
            alive = [s for s, k in enumerate(kinds) if k >= 0]
            extra = 1 if rules.county else 0  # the county counts as one, as the engine counts it
            counts = tuple((before[s] + extra if s in alive else 0) for s in range(len(kinds)))
            if points:
                counts = tuple(
                    (max(1, rules.points_target - before[s]) if s in alive else 0) for s in range(len(kinds))
                )
            known = tuple(1.0 if s == int(seat0) else float(max(0, kinds[s])) for s in range(len(kinds)))
            even = tuple(1.0 if s == int(seat0) else 0.5 for s in range(len(kinds)))
            p_known = game_chance(rules, counts, known, int(seat0), points)
            p_even = game_chance(rules, counts, even, int(seat0), points)
            rows[f"{len(alive)} in"].append((p_known, p_even, won))
            rows["all"].append((p_known, p_even, won))
        print(path)
        for key in sorted(rows):
            arr = np.array(rows[key])
            n = len(arr)
            se = float(np.sqrt(arr[:, 2].mean() * (1 - arr[:, 2].mean()) / n)) * 100
            print(
                f"  {key:>6}: {n:5d} hands; won {arr[:, 2].mean():.1%}; kinds known {arr[:, 0].mean():.1%} "
                f"(bias {100 * (arr[:, 2].mean() - arr[:, 0].mean()):+.1f}), even odds {arr[:, 1].mean():.1%} "
                f"(bias {100 * (arr[:, 2].mean() - arr[:, 1].mean()):+.1f}); se {se:.1f}"
            )
            if key == "all":  # kinds known, by tenths of the predicted chance
                tenth = np.minimum((arr[:, 0] * 10).astype(int), 9)
                for b in range(10):
                    sel = arr[tenth == b]
                    if len(sel) >= 50:
                        print(
                            f"      {b / 10:.1f}-{(b + 1) / 10:.1f}: {len(sel):5d} hands, predicted "
                            f"{sel[:, 0].mean():.1%}, won {sel[:, 2].mean():.1%}"
                        )


if __name__ == "__main__":
    main()
