"""Calibration study of the knock risk: predicted P(knocker loses) against what happened.

Plays seeded whole games between the chosen computer players and, at every real knock,
records the knock risk that ``knock_risk`` reports from the knocker's view under the
``uniform`` (before) and ``adaptive`` (after) opponent models, then whether the knocker
lost. Prints, per knocking player kind and per model, the bias, the Brier score and the
predicted against observed table per bin, and writes a reliability diagram (SVG) under
``benchmarks/out/`` (ignored by git).

Run: ``python benchmarks/calibrate.py --players expert,tip,tip --games 6000 --rules classic
--seed 11 --jobs 2`` (``--samples`` Monte Carlo deals per prediction against 2+ opponents).

``--knock-chances`` instead prints how often each player kind knocked with a hand worth
26-30 when a knock was allowed (what the adaptive model's ``STRONG_KNOCKS`` is measured from):
``python benchmarks/calibrate.py --knock-chances --games 1000 --seed 77``.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import sys
import time
from pathlib import Path

from scatlab.players.calibration import Knock, collect_knocks, knock_chances, reliability, reliability_svg

OUT = Path(__file__).resolve().parent / "out"


def _chunk(args: tuple[list[str], str, int, int, int, int]) -> list[Knock]:
    kinds, rules, seed, samples, first, games = args
    return collect_knocks(kinds, games, rules=rules, seed=seed, samples=samples, first_game=first)


def _play(args: argparse.Namespace, kinds: list[str]) -> list[Knock]:
    start = time.perf_counter()
    work = [(kinds, args.rules, args.seed, args.samples, g, min(args.chunk, args.games - g))
            for g in range(0, args.games, args.chunk)]
    knocks: list[Knock] = []
    if args.jobs > 1:
        with concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
            for part in pool.map(_chunk, work):
                knocks.extend(part)
    else:
        for w in work:
            knocks.extend(_chunk(w))
    elapsed = time.perf_counter() - start
    print(f"{args.games:,} games of {args.players} under {args.rules}, seed {args.seed}, {args.samples:,} Monte "
          f"Carlo deals per prediction against 2+ opponents: {len(knocks):,} knocks in {elapsed:.0f} s "
          f"({args.jobs} job{'s' if args.jobs != 1 else ''})")
    return knocks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="expert,tip,tip")
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--samples", type=int, default=2_000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--chunk", type=int, default=50)
    parser.add_argument("--json", help="also write the knocks and tables to this JSON file")
    parser.add_argument("--svg", help="the reliability diagram's file (default benchmarks/out/calibration-....svg)")
    parser.add_argument("--from-json", nargs="+", metavar="FILE",
                        help="no games: report on the knocks saved by earlier runs' --json (pooled)")
    parser.add_argument("--knock-chances", action="store_true",
                        help="print how often each player kind knocks by hand value, and stop")
    args = parser.parse_args(argv)
    kinds = args.players.split(",")
    if args.knock_chances:
        chances = knock_chances(kinds, args.games, rules=args.rules, seed=args.seed)
        print(f"{args.games:,} games of {args.players} under {args.rules}, seed {args.seed}: at a turn's start "
              "where a knock is allowed, the share of hands worth V that knocked")
        for kind, by_value in chances.items():
            cells = ", ".join(f"{v}: {k / n:.0%} of {n:,}" for v, (k, n) in sorted(by_value.items()))
            print(f"- {kind}: {cells}")
        return 0
    if args.from_json:
        knocks = []
        runs = []
        for name in args.from_json:
            saved = json.loads(Path(name).read_text())
            knocks += [Knock(k["kind"], len(k["against"]), k["turn"], k["predicted"], k["lost"], tuple(k["against"]))
                       for k in saved["knocks"]]
            runs.append(f"{saved['games']:,} games of {','.join(saved['players'])} under {saved['rules']}, seed "
                        f"{saved['seed']}, {saved['samples']:,} Monte Carlo deals per prediction")
            kinds, args.rules, args.players = saved["players"], saved["rules"], ",".join(saved["players"])
        print(f"{len(knocks):,} knocks pooled from: " + "; ".join(runs))
    else:
        knocks = _play(args, kinds)
    curves = []
    data: dict[str, object] = {"games": args.games, "players": kinds, "rules": args.rules, "seed": args.seed,
                               "samples": args.samples, "tables": {}}
    for kind in dict.fromkeys(kinds):
        mine = [k for k in knocks if k.kind == kind]
        if not mine:
            continue
        for model in ("uniform", "adaptive"):
            r = reliability(mine, model)
            label = f"knocks by {kind}, {model} model"
            print(f"\n## {label}\n{r.table()}")
            curves.append((f"{kind}, {model}", r))
            for against in sorted({k.against for k in mine}):
                part = reliability([k for k in mine if k.against == against], model)
                print(f"- against {'+'.join(against)}: {part.knocks:,} knocks, predicted {part.predicted:.2%}, "
                      f"observed {part.observed:.2%}, bias {part.bias * 100:+.2f} points")
            assert isinstance(data["tables"], dict)
            data["tables"][f"{kind}/{model}"] = r.to_json()
    svg = Path(args.svg) if args.svg else OUT / f"calibration-{args.rules}-{args.players.replace(',', '-')}.svg"
    svg.parent.mkdir(parents=True, exist_ok=True)
    svg.write_text(reliability_svg(curves, f"knock risk calibration: {args.players.replace(',', ', ')}, {args.rules}"))
    print(f"\nreliability diagram: {os.path.relpath(svg)}")
    if args.json and not args.from_json:
        data["knocks"] = [{"kind": k.kind, "against": k.against, "turn": k.turn, "predicted": k.predicted,
                           "lost": k.lost} for k in knocks]
        Path(args.json).write_text(json.dumps(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
