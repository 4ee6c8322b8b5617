"""The review study: over many seeded games between the random, tip and expert players,
the average cost per decision that :func:`scatlab.analysis.review_game` finds for each.

If the review measures anything, the order must be random > tip > expert on both scales
(hand value for draw/take/discard, the chance of winning the game for knocks); the script says whether it is.

Each game seats one random, one tip and one expert player (3 players); the seating rotates
with the game number (game g puts kind (i + g) mod 3 in seat i), and game g's cards and
random choices come from ``random.Random(seed * 1_000_003 + g)``. Every decision of every
seat is reviewed.

Run from the repository's root: ``nice -n 10 python -m research.review.run [--games 1000] [--seed 0]
[--rules classic]``
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

from scatlab.analysis.explain.review import CLASSES

# The seeded game set and its timed reviews are the review benchmark's (one definition of
# the games both use); benchmarks/ is a folder of scripts, put on the path here.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from bench_review import KINDS, ReviewedGame, game_set, play_record, reviewed_games, seats_for

__all__ = ["KINDS", "ReviewedGame", "game_set", "play_record", "reviewed_games", "seats_for", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    args, rules = game_set(argv, __doc__.splitlines()[0], games=1000)
    cost: dict[tuple[str, str], Fraction] = {(k, s): Fraction(0) for k in KINDS for s in ("value", "win")}
    count: dict[tuple[str, str], int] = dict.fromkeys(cost, 0)
    classes = {k: dict.fromkeys(CLASSES, 0) for k in KINDS}
    start = time.perf_counter()
    review_secs = 0.0
    for game, reviewed in enumerate(reviewed_games(rules, args.seed, args.games)):
        review_secs += reviewed.seconds
        for d in reviewed.review.decisions:
            kind = reviewed.kinds[d.player]
            cost[kind, d.scale] += d.cost
            count[kind, d.scale] += 1
            classes[kind][d.label] += 1
        if (game + 1) % 100 == 0:
            print(f"  {game + 1} games, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    print(
        f"review study: {args.games} games of {rules.name}, seats random/tip/expert rotating, seed {args.seed}; "
        f"{time.perf_counter() - start:.0f} s in all, {review_secs:.0f} s reviewing"
    )
    print(
        f"{'player':<8} {'value decisions':>16} {'avg cost (hand value)':>22} {'knock decisions':>16} "
        f"{'avg cost (win)':>17} {'blunders':>9} {'mistakes':>9}"
    )
    averages: dict[str, tuple[float, float]] = {}
    for kind in KINDS:
        vc, vn, lc, ln = cost[kind, "value"], count[kind, "value"], cost[kind, "win"], count[kind, "win"]
        av = float(vc / vn) if vn else 0.0
        al = float(lc / ln) if ln else 0.0
        averages[kind] = (av, al)
        print(
            f"{kind:<8} {vn:>16,} {av:>22.4f} {ln:>16,} {al:>17.4f} {classes[kind]['blunder']:>9,} "
            f"{classes[kind]['mistake']:>9,}"
        )
    ok = all(averages["random"][i] > averages["tip"][i] > averages["expert"][i] for i in (0, 1))
    print(f"order random > tip > expert on both scales: {'yes' if ok else 'NO'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
