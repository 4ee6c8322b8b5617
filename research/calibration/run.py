"""Calibration study of the knock risk: predicted P(knocker loses) against what happened.

Plays seeded whole games between the chosen computer players and, at every real knock,
records the knock risk that ``knock_risk`` reports from the knocker's view under the
``uniform`` (before) and ``adaptive`` (after) opponent models, then whether the knocker
lost. Prints, per knocking player kind and per model, the bias, the Brier score and the
predicted against observed table per bin, and writes a reliability diagram (SVG) under
``research/calibration/out/`` (ignored by git).

Run from the repository's root: ``python -m research.calibration.run --players expert,tip,tip
--games 6000 --rules classic --seed 11 --jobs 2`` (``--samples`` Monte Carlo deals per
prediction against 2+ opponents).

The ``adaptive`` model is the one in play: the filter's strong kind knocks by the expert's rule
at each opponent turn (``Observations.from_view``). ``--table-model`` also records the
adaptive model whose strong kind knocks by its measured chances instead (the model in play
before, and the expert's own picture of its opponents), as the model ``table``.
``--told-model`` also records the model in play told who each opponent is (the model
``told``: a ``tip`` opponent pictured as exactly the tip player, the casual kind without its
slip; an ``expert`` one as the strong kind): a control, which shows how much of the error
comes from not knowing the opponents' kinds.

``--models uniform,adaptive`` reports and draws only those of the recorded models (how lesson
3's diagram is drawn from the saved runs: ``--from-json c16.json c17.json c18.json c19.json
--models uniform,adaptive --svg scatlab/course/figures/calibration-classic-3p.svg``).

``--given-hands N`` also records, at every knock, the knocker's chance of losing given the
real hands (``expected_loss`` over N orders of the stock's top cards, the real players
playing the last turns) and prints, per knocking kind, the adaptive model's predictions
against it: the same comparison with the luck of the draw taken out. It also records the
knock risk with the real hands shown to it (``Knock.shown``: the model's own last-turn
policy) and prints the predictions against that too: the error of the picture of the hands
alone, so what is left given the real hands is the last-turn policy's.

``--knock-chances`` instead prints how often each player kind knocked with a hand worth
26-30 when a knock was allowed, against two opponents and against one, by the turns it had
played in the hand and (summed over the turns) by the cards the others had taken from the
pile, and the knock table the filter's kinds take from it (what the filter's strong kind
and the chain's ``STRONG_KNOCKS`` are measured from):
``python -m research.calibration.run --knock-chances --games 6000 --seed 12 --jobs 2`` (and
``--players expert,tip --games 4000`` for games dealt to two).

``--agreement`` instead prints how each player kind's takes and throws agree with each kind of
the filter (``kind_agreement``: how the strong and casual kinds are checked against the expert
and tip): ``python -m research.calibration.run --agreement --games 300 --seed 12``.

``--posterior N`` instead checks the model's picture against the exact posterior of the
hands: at every knock in a hand left to two whose opponent is a ``tip`` player that has played at
most ``--posterior-turns`` turns (default 1) in the hand, it samples the hidden cards from the real
deal N times, replays the hand with the real players and keeps the deals in which every
opponent did what was seen (``posterior_risk``), and prints per knocking kind and model, per
bin, the prediction against the knock risk under that posterior (the picture's error, with no
luck in it) and the risk with the real hands shown against it (luck alone, with the standard
error the posterior's own spread gives): ``python -m research.calibration.run --posterior 10000
--games 3000 --seed 23 --jobs 2 --told-model --samples 1000``.

``--fidelity`` instead compares, at every knock, each opponent's hand as the knocker's
adaptive model pictures it with the real hand, by opponent kind, turns played and whether
the opponent took a card from the pile (where the knock risk's errors come from):
``python -m research.calibration.run --fidelity --games 2500 --seed 13 --jobs 2``; add ``--chain``
to picture them as the model does without the order of the turns (typed-in observations), or
``--told-model`` to picture them as the model told who each opponent is.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from research.calibration.study import (
    DEFAULT_EDGES,
    MAX_PLAYED,
    MAX_TOOK,
    MIN_KEPT,
    HandPicture,
    Knock,
    KnockCell,
    PosteriorCheck,
    bin_indices,
    collect_knocks,
    criterion_chance,
    fidelity,
    hand_fidelity,
    kind_agreement,
    knock_chances,
    knock_table,
    posterior_checks,
    posterior_table,
    reliability,
    reliability_svg,
)

OUT = Path(__file__).resolve().parent / "out"
"""Where the reliability diagram goes without ``--svg`` (ignored by git)."""
FIDELITY_TURNS = 6
"""--fidelity groups opponents who played this many turns or more together."""
T = TypeVar("T")
W = TypeVar("W")


def _chunk(args: tuple[list[str], str, int, int, int, int, int, bool, bool]) -> list[Knock]:
    kinds, rules, seed, samples, first, games, given_hands, table_model, told_model = args
    return collect_knocks(
        kinds,
        games,
        rules=rules,
        seed=seed,
        samples=samples,
        first_game=first,
        given_hands=given_hands,
        table_model=table_model,
        told_model=told_model,
    )


def _in_chunks(run: Callable[[W], list[T]], work: list[W], jobs: int) -> list[T]:
    """``run`` over the chunks of games, on ``jobs`` processes, the results in chunk order."""
    out: list[T] = []
    if jobs > 1:
        with concurrent.futures.ProcessPoolExecutor(jobs) as pool:
            for part in pool.map(run, work):
                out.extend(part)
    else:
        for w in work:
            out.extend(run(w))
    return out


def _chances(args: tuple[list[str], str, int, int, int]) -> list[dict[str, dict[KnockCell, tuple[int, int]]]]:
    kinds, rules, seed, first, games = args
    return [knock_chances(kinds, games, rules=rules, seed=seed, first_game=first)]


def _knock_chances(args: argparse.Namespace, kinds: list[str]) -> None:
    start = time.perf_counter()
    work = [
        (kinds, args.rules, args.seed, g, min(args.chunk, args.games - g)) for g in range(0, args.games, args.chunk)
    ]
    chances: dict[str, dict[KnockCell, tuple[int, int]]] = {k: {} for k in kinds}
    for part in _in_chunks(_chances, work, args.jobs):
        for kind, cells in part.items():
            for key, (k, n) in cells.items():
                k0, n0 = chances[kind].get(key, (0, 0))
                chances[kind][key] = (k0 + k, n0 + n)
    print(
        f"{args.games:,} games of {args.players} under {args.rules}, seed {args.seed} "
        f"({time.perf_counter() - start:.0f} s): at a turn's start where a knock is allowed, the share of hands "
        "worth V that knocked, by the turns the player had played in the hand"
    )
    for kind, cells in chances.items():
        for opponents in sorted({c[0] for c in cells}, reverse=True):
            print(f"\n## {kind}, against {opponents} opponent{'s' if opponents > 1 else ''}\n")
            print(
                "| value | all turns | "
                + " | ".join(f"after {t}{'+' if t == MAX_PLAYED else ''}" for t in range(MAX_PLAYED + 1))
                + " |"
            )
            print("|---:|---:|" + "---:|" * (MAX_PLAYED + 1))
            values = sorted({c[1] for c in cells if c[0] == opponents})
            for v in values:
                row = [_count(cells, lambda c: c[:3] == (opponents, v, t)) for t in range(MAX_PLAYED + 1)]
                k, n = sum(a for a, _ in row), sum(b for _, b in row)
                print(
                    f"| {v} | {k / n:.0%} of {n:,} | "
                    + " | ".join(f"{a / b:.0%} of {b:,}" if b else "-" for a, b in row)
                    + " |"
                )
            print("\nby the cards the other players had taken from the pile in the hand, all turns:\n")
            print(
                "| value | " + " | ".join(f"took {t}{'+' if t == MAX_TOOK else ''}" for t in range(MAX_TOOK + 1)) + " |"
            )
            print("|---:|" + "---:|" * (MAX_TOOK + 1))
            for v in values:
                row = [_count(cells, lambda c: (c[0], c[1], c[3]) == (opponents, v, t)) for t in range(MAX_TOOK + 1)]
                print(f"| {v} | " + " | ".join(f"{a / b:.0%} of {b:,}" if b else "-" for a, b in row) + " |")
            print(f"\nas a filter kind's knock table: {knock_table(cells, opponents)}")


def _count(cells: dict[KnockCell, tuple[int, int]], where: Callable[[KnockCell], bool]) -> tuple[int, int]:
    """The knocks and turns of the cells ``where`` picks."""
    picked = [kn for c, kn in cells.items() if where(c)]
    return sum(k for k, _ in picked), sum(n for _, n in picked)


def _pictures(args: tuple[list[str], str, int, int, int, bool, bool]) -> list[HandPicture]:
    kinds, rules, seed, first, games, chain, told = args
    return hand_fidelity(kinds, games, rules=rules, seed=seed, first_game=first, chain=chain, told_model=told)


def _fidelity(args: argparse.Namespace, kinds: list[str]) -> None:
    start = time.perf_counter()
    work = [
        (kinds, args.rules, args.seed, g, min(args.chunk, args.games - g), args.chain, args.told_model)
        for g in range(0, args.games, args.chunk)
    ]
    pictures = _in_chunks(_pictures, work, args.jobs)
    how = (
        "without the order of the turns (the chain)"
        if args.chain
        else "told who each opponent is (the model told)"
        if args.told_model
        else "following each opponent's turns (the filter)"
    )
    print(
        f"{args.games:,} games of {args.players} under {args.rules}, seed {args.seed}: {len(pictures):,} opponent "
        f"hands at knocks, pictured by the knocker's adaptive model {how}, in {time.perf_counter() - start:.0f} s"
    )
    high = pictures[0].high if pictures else 20
    for kind in dict.fromkeys(kinds):
        rows = [f for f in fidelity(pictures, max_turns=FIDELITY_TURNS) if f.kind == kind]
        if not rows:
            continue
        print(f"\n## opponents of kind {kind}\n")
        print(
            f"| turns played | took a card | hands | mean value: model | real | P(at least {high:g}): model "
            "| real | gap (in s.e.) |"
        )
        print("|---:|---|---:|---:|---:|---:|---:|---:|")
        for f in rows:
            turns = f"{f.turns}+" if f.turns == FIDELITY_TURNS else str(f.turns)
            gap = (f.real_high - f.model_high) / f.std_error if f.std_error else 0.0
            print(
                f"| {turns} | {'yes' if f.took else 'no'} | {f.hands:,} | {f.model_mean:.2f} | {f.real_mean:.2f} "
                f"| {f.model_high:.1%} | {f.real_high:.1%} | {100 * (f.real_high - f.model_high):+.1f} ({gap:+.1f}) |"
            )


def _checks(args: tuple[list[str], str, int, int, int, int, float, int, int, bool]) -> list[PosteriorCheck]:
    kinds, rules, seed, samples, tries, turns, least, first, games, told = args
    return posterior_checks(
        kinds,
        games,
        rules=rules,
        seed=seed,
        samples=samples,
        tries=tries,
        max_turns=turns,
        min_predicted=least,
        first_game=first,
        told_model=told,
    )


def _posterior(args: argparse.Namespace, kinds: list[str]) -> None:
    start = time.perf_counter()
    work = [
        (
            kinds,
            args.rules,
            args.seed,
            args.samples,
            args.posterior,
            args.posterior_turns,
            args.posterior_from,
            g,
            min(args.chunk, args.games - g),
            args.told_model,
        )
        for g in range(0, args.games, args.chunk)
    ]
    checks = _in_chunks(_checks, work, args.jobs)
    kept = [c for c in checks if c.posterior.accepted >= MIN_KEPT]
    print(
        f"{args.games:,} games of {args.players} under {args.rules}, seed {args.seed}: {len(checks):,} knocks "
        f"in hands of two against a tip player who had played at most {args.posterior_turns} turn"
        f"{'s' if args.posterior_turns != 1 else ''} in the hand"
        + (f", predicted {args.posterior_from:.0%} or more by the model in play" if args.posterior_from else "")
        + f", {args.posterior:,} deals tried at each "
        f"({sum(c.posterior.accepted for c in checks):,} kept; {len(checks) - len(kept)} knocks kept fewer than "
        f"{MIN_KEPT} and are left out), in {time.perf_counter() - start:.0f} s"
    )
    print(
        "\nThe prediction against the knock risk under the exact posterior of the hands (the model's picture "
        "against the hands as they could really be: no luck in the gap), and the risk with the real hands shown "
        "against the posterior (luck alone: its standard error is what the posterior's own spread gives, if the "
        "real hands are draws from it)."
    )
    for kind in dict.fromkeys(kinds):
        mine = [c for c in kept if c.kind == kind]
        if not mine:
            continue
        for model in [m for m in ("uniform", "adaptive", "told") if all(m in c.predicted for c in mine)]:
            bins = posterior_table(mine, model)
            n = len(mine)
            gap = sum(c.predicted[model] - (c.posterior.risk or 0.0) for c in mine) / n
            print(
                f"\n## knocks by {kind}, {model} model: {n:,} knocks, prediction minus posterior {gap * 100:+.2f} "
                "points\n"
            )
            print(
                "| predicted risk | knocks | mean predicted | posterior (± s.e.) | predicted - posterior "
                "| real hands shown (± s.e. of luck) | shown - posterior (in s.e.) |"
            )
            print("|---|---:|---:|---:|---:|---:|---:|")
            for b in bins:
                z = (b.shown - b.posterior) / b.luck_error if b.luck_error else 0.0
                print(
                    f"| {b.low:.1%}-{b.high:.1%} | {b.knocks:,} | {b.predicted:.2%} | {b.posterior:.2%} ± "
                    f"{b.posterior_error:.2%} | {(b.predicted - b.posterior) * 100:+.2f} | {b.shown:.2%} ± "
                    f"{b.luck_error:.2%} | {(b.shown - b.posterior) * 100:+.2f} ({z:+.1f}) |"
                )


def _play(args: argparse.Namespace, kinds: list[str]) -> list[Knock]:
    start = time.perf_counter()
    work = [
        (
            kinds,
            args.rules,
            args.seed,
            args.samples,
            g,
            min(args.chunk, args.games - g),
            args.given_hands,
            args.table_model,
            args.told_model,
        )
        for g in range(0, args.games, args.chunk)
    ]
    knocks = _in_chunks(_chunk, work, args.jobs)
    elapsed = time.perf_counter() - start
    print(
        f"{args.games:,} games of {args.players} under {args.rules}, seed {args.seed}, {args.samples:,} Monte "
        f"Carlo deals per prediction against 2+ opponents: {len(knocks):,} knocks in {elapsed:.0f} s "
        f"({args.jobs} job{'s' if args.jobs != 1 else ''})"
    )
    return knocks


def _told_beside_in_play(by_kind: dict[str, list[Knock]]) -> None:
    """Print, per knocking kind and per bin of the model in play, the mean prediction in play
    and told on the same knocks, the observed rate and (when recorded) the risk with the
    hands shown."""
    print(
        "\nThe model told who each opponent is beside the model in play, on the same knocks, by the bin of "
        "the model in play: mean prediction in play / told / observed (/ with the hands shown); bins under "
        "200 knocks in brackets."
    )
    for kind, mine in by_kind.items():
        parts = []
        for (low, high), idx in zip(
            zip(DEFAULT_EDGES, DEFAULT_EDGES[1:]), bin_indices([k.predicted["adaptive"] for k in mine])
        ):
            group = [mine[i] for i in idx]
            if not group:
                continue
            n = len(group)
            text = (
                f"{low:.1%}-{high:.1%}, {n:,} knocks: {sum(k.predicted['adaptive'] for k in group) / n:.2%} / "
                f"{sum(k.predicted['told'] for k in group) / n:.2%} / {sum(k.lost for k in group) / n:.2%}"
            )
            if all(k.shown is not None for k in group):
                text += f" / {sum(k.shown or 0.0 for k in group) / n:.2%}"
            parts.append(text if n >= 200 else f"({text})")
        print(f"- knocks by {kind}: " + "; ".join(parts))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m research.calibration.run", description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="expert,tip,tip")
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--samples", type=int, default=2_000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--chunk", type=int, default=50)
    parser.add_argument(
        "--given-hands",
        type=int,
        default=0,
        metavar="N",
        help="also compare with each knock's chance of losing given the real hands (N stock orders)",
    )
    parser.add_argument(
        "--table-model",
        action="store_true",
        help="also predict with the strong kind knocking by its measured chances, not by the expert's "
        "rule at each opponent turn (the model 'table': the model in play before the rule)",
    )
    parser.add_argument(
        "--told-model",
        action="store_true",
        help="also predict with the model told who each opponent is (the model 'told': a tip "
        "pictured as exactly the tip player, an expert as the strong kind; tip and expert "
        "players only); with --fidelity: picture the hands as that model does",
    )
    parser.add_argument(
        "--models",
        metavar="M1,M2",
        help="report and draw only these of the models recorded (default: every one recorded for "
        "every knock), e.g. uniform,adaptive for lesson 3's diagram",
    )
    parser.add_argument("--json", help="also write the knocks and tables to this JSON file")
    parser.add_argument(
        "--svg", help="the reliability diagram's file (default research/calibration/out/calibration-....svg)"
    )
    parser.add_argument(
        "--from-json",
        nargs="+",
        metavar="FILE",
        help="no games: report on the knocks saved by earlier runs' --json (pooled)",
    )
    parser.add_argument(
        "--knock-chances", action="store_true", help="print how often each player kind knocks by hand value, and stop"
    )
    parser.add_argument(
        "--agreement",
        action="store_true",
        help="print how each player kind's takes and throws agree with the filter's kinds, and stop",
    )
    parser.add_argument(
        "--chain",
        action="store_true",
        help="with --fidelity: picture the hands without the order of the turns (the chain)",
    )
    parser.add_argument(
        "--fidelity",
        action="store_true",
        help="print how the adaptive model pictures the opponents' hands at knocks against the real hands, and stop",
    )
    parser.add_argument(
        "--posterior",
        type=int,
        default=0,
        metavar="N",
        help="check the models against the exact posterior of the hands (N deals tried per knock, "
        "at knocks against tip players early in a hand), and stop",
    )
    parser.add_argument(
        "--posterior-turns",
        type=int,
        default=1,
        metavar="K",
        help="with --posterior: only knocks where each opponent has played at most K turns",
    )
    parser.add_argument(
        "--posterior-from",
        type=float,
        default=0.0,
        metavar="P",
        help="with --posterior: only knocks the model in play gave a risk of P (0 to 1) or more",
    )
    args = parser.parse_args(argv)
    if args.given_hands < 0:
        parser.error(f"--given-hands must be 0 (off) or a number of stock orders, not {args.given_hands}")
    if args.posterior < 0 or args.posterior_turns < 0 or not 0 <= args.posterior_from <= 1:
        parser.error(
            f"--posterior and --posterior-turns must be 0 or more and --posterior-from a chance from 0 to 1, "
            f"not {args.posterior}, {args.posterior_turns} and {args.posterior_from}"
        )
    kinds = args.players.split(",")
    if args.posterior:
        _posterior(args, kinds)
        return 0
    if args.fidelity:
        _fidelity(args, kinds)
        return 0
    if args.agreement:
        print(
            f"{args.games:,} games of {args.players} under {args.rules}, seed {args.seed}: each player's choices "
            "against each kind of the filter"
        )
        for a in kind_agreement(kinds, args.games, rules=args.rules, seed=args.seed):
            (tw, nw), (to, no), (same, n) = a.takes_worth, a.takes_other, a.throws
            print(
                f"- {a.player} as the {a.kind} kind: took {tw:,} of the {nw:,} discards the kind takes "
                f"({tw / max(nw, 1):.1%}) and {to:,} of the {no:,} others ({to / max(no, 1):.2%}); "
                f"threw the kind's card {same:,} times of {n:,} ({same / max(n, 1):.1%})"
            )
        return 0
    if args.knock_chances:
        _knock_chances(args, kinds)
        return 0
    if args.from_json:
        knocks = []
        runs = []
        for name in args.from_json:
            saved = json.loads(Path(name).read_text())
            knocks += [
                Knock(
                    k["kind"],
                    len(k["against"]),
                    k["turn"],
                    k["predicted"],
                    k["lost"],
                    tuple(k["against"]),
                    k.get("expected"),
                    k.get("shown"),
                )
                for k in saved["knocks"]
            ]
            runs.append(
                f"{saved['games']:,} games of {','.join(saved['players'])} under {saved['rules']}, seed "
                f"{saved['seed']}, {saved['samples']:,} Monte Carlo deals per prediction"
            )
            kinds, args.rules, args.players = saved["players"], saved["rules"], ",".join(saved["players"])
        print(f"{len(knocks):,} knocks pooled from: " + "; ".join(runs))
    else:
        knocks = _play(args, kinds)
    curves = []
    data: dict[str, object] = {
        "games": args.games,
        "players": kinds,
        "rules": args.rules,
        "seed": args.seed,
        "samples": args.samples,
        "given_hands": args.given_hands,
    }
    tables: dict[str, object] = {}
    data["tables"] = tables
    by_kind = {kind: mine for kind in dict.fromkeys(kinds) if (mine := [k for k in knocks if k.kind == kind])}
    models = [m for m in ("uniform", "adaptive", "table", "told") if knocks and all(m in k.predicted for k in knocks)]
    if args.models:
        chosen = args.models.split(",")
        missing = [m for m in chosen if m not in models]
        if missing or "adaptive" not in chosen:
            parser.error(
                f"--models {args.models!r} is not allowed: a comma-separated choice of the models recorded "
                f"for every knock ({', '.join(models)}), with adaptive among them"
            )
        models = [m for m in models if m in chosen]
    modelled = [m for m in models if m != "uniform"]  # the models with a picture of the hands
    for kind, mine in by_kind.items():
        for model in models:
            r = reliability(mine, model)
            label = f"knocks by {kind}, {model} model"
            print(f"\n## {label}\n{r.table()}")
            curves.append((f"{kind}, {model}", r))
            for against in sorted({k.against for k in mine}):
                part = reliability([k for k in mine if k.against == against], model)
                print(
                    f"- against {'+'.join(against)}: {part.knocks:,} knocks, predicted {part.predicted:.2%}, "
                    f"observed {part.observed:.2%}, bias {part.bias * 100:+.2f} points"
                )
            tables[f"{kind}/{model}"] = r.to_json()
    if "told" in models:
        _told_beside_in_play(by_kind)
    against_chances = (
        (
            "expected",
            "\nThe same knocks against each knock's chance of losing given the real hands (the stock's order "
            "averaged out, the real players playing the last turns): the model's error without the draw's luck.",
            "given the real hands",
            "given-hands",
        ),
        (
            "shown",
            "\nThe same knocks against the knock risk with the real hands shown to it (its own last-turn "
            "policy, the stock's order unknown): the error of the picture of the hands alone. What is left of the "
            "error given the real hands is the last-turn policy's.",
            "against the risk with the hands shown",
            "hands-shown",
        ),
    )
    for outcome, intro, heading, key in against_chances:
        if not knocks or any(getattr(k, outcome) is None for k in knocks):
            continue
        print(intro)
        for kind, mine in by_kind.items():
            for model in modelled:
                r = reliability(mine, model, outcome=outcome)
                print(f"\n## knocks by {kind}, {model} model, {heading}\n{r.table()}")
                tables[f"{kind}/{model}/{key}"] = r.to_json()
    if knocks and all(k.expected is not None and k.shown is not None for k in knocks):
        print(
            "\nThe last-turn policy's part of the error, per bin: the chance given the real hands minus the risk "
            "with the hands shown, in points (bins under 200 knocks in brackets)."
        )
        for kind, mine in by_kind.items():
            for model in modelled:
                given, open_hands = (
                    reliability(mine, model, outcome="expected"),
                    reliability(mine, model, outcome="shown"),
                )
                parts = [(b, (g.observed - b.observed) * 100) for g, b in zip(given.bins, open_hands.bins) if b.knocks]
                shown_parts = [
                    f"{b.low:.1%}-{b.high:.1%} {d:+.2f}" if b.knocks >= 200 else f"({b.low:.1%}-{b.high:.1%} {d:+.2f})"
                    for b, d in parts
                ]
                big = [abs(d) for b, d in parts if b.knocks >= 200]
                print(
                    f"- knocks by {kind}, {model} model: "
                    + ", ".join(shown_parts)
                    + (f"; at most {max(big):.2f} in bins of 200+" if big else "")
                )
    for model in modelled:
        chance = criterion_chance(list(by_kind.values()), model)
        print(
            f"\nIf every {model} prediction were exactly right, every bin of 200+ knocks of every player kind "
            f"would be within 2 points in {chance:.1%} of 2,000 simulated studies with these knocks (outcomes "
            "drawn with the predicted chances, seed 0)."
        )
    svg = Path(args.svg) if args.svg else OUT / f"calibration-{args.rules}-{args.players.replace(',', '-')}.svg"
    svg.parent.mkdir(parents=True, exist_ok=True)
    svg.write_text(reliability_svg(curves, f"knock risk calibration: {args.players.replace(',', ', ')}, {args.rules}"))
    print(f"\nreliability diagram: {os.path.relpath(svg)}")
    if args.json and not args.from_json:
        data["knocks"] = [
            {
                "kind": k.kind,
                "against": k.against,
                "turn": k.turn,
                "predicted": k.predicted,
                "lost": k.lost,
                "expected": k.expected,
                "shown": k.shown,
            }
            for k in knocks
        ]
        Path(args.json).write_text(json.dumps(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
