"""Which nearly-safe limit, once the knock figures are calibrated? (issue 50)

The engine ends the hand when a knock is *nearly safe*: it costs at most ``knock_risk /
players`` expected lives and does not lower the chance of winning. ``knock_risk`` was 0.15,
fitted when the knock figures were optimistic by about a quarter (docs/design/engine.md,
"Calibration"). With calibrated figures the same limit knocks less often than the fit
meant. This plays the ``expert`` (every one of its knock decisions, and the opponent
model's picture of an expert's knocks, with the given ``knock_risk``) against two tip
players under classic and gin and against one tip player, on a seed the strength table does
not use, as ``benchmarks/bench_strength.py`` plays its rows.

Run: ``python research/calibration/knock_limit.py --seed 11 --games 2400 --jobs 2 0.15 0.2 0.25 0.3``

Result on 2026-12-06 (win rates, classic / gin / heads-up, 2,400 games each; each figure's
95% interval is about 2 points either way):

| knock_risk | classic | gin | heads-up |
|---:|---:|---:|---:|
| 0.15 | 50.0% | 52.0% | 64.7% |
| 0.2 | 50.6% | 52.2% | 64.9% |
| 0.25 | 51.3% | 52.4% | 65.3% |
| 0.3 | 51.4% | 52.5% | 65.5% |

The expert before calibration (optimistic figures, 0.15) gave 51.0%, 52.6% and 64.8% on the
same games. The engine now uses 0.3: 0.15 lives against one opponent, 0.1 against two.
"""

from __future__ import annotations

import argparse

from scatlab.analysis.engine import ranking
from scatlab.analysis.model.valuation import KnockValuation
from scatlab.players import expert, run_tournament


def use_knock_risk(x: float) -> None:
    """Make ``x`` the default ``knock_risk`` of the expert and of the valuation (the worker
    processes of a tournament are forked, so they inherit it)."""
    for init in (expert.ExpertPlayer.__init__, KnockValuation.__init__):
        defaults = list(init.__defaults__ or ())
        defaults[0] = x
        init.__defaults__ = tuple(defaults)
    ranking.EXPERT = ranking.Style()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--games", type=int, default=2400)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("risks", type=float, nargs="+")
    args = parser.parse_args()
    rows = (("classic", ["expert", "tip", "tip"]), ("gin", ["expert", "tip", "tip"]), ("classic", ["expert", "tip"]))
    print("knock_risk  classic    gin  heads-up")
    for x in args.risks:
        use_knock_risk(x)
        rates = []
        for rules, players in rows:
            result = run_tournament(players, args.games, rules, args.seed, jobs=args.jobs, progress=False)
            rates.append(result.entrants[0].wins / result.games)
        print(f"{x:>10}  " + "  ".join(f"{100 * r:5.1f}%" for r in rates), flush=True)


if __name__ == "__main__":
    main()
