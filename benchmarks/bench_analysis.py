"""Benchmark the exact hand analysis: one-turn odds, knock risk, horizon tables, ``scatlab analyze``.

Figures (targets from the analysis issue), on one process and one core unless said:

1. one-turn analyses per second: :func:`scatlab.analysis.analyze_turn` plus reading
   ``draw.expected_value``, ``draw.p_31``, ``draw.p_improve`` and ``take.best``, over
   seeded random classic-rules :class:`Knowledge` objects (random hand of 3, random top
   discard, 0-5 random dead cards), after the lookup tables are built once (that build is
   timed on its own). Reported for the first pass over the objects (the after-draw row of
   each new hand is computed on first use and kept) and for later passes. Target >= 20,000/s;
2. a plain brute-force loop over the same objects (every unseen card, the 4 possible
   discards, each 3-card value from scratch as a per-suit sum, exact Fraction sums) and the
   ratio fast/brute (target >= 20). Every benchmarked object is checked: both paths must
   give identical Fractions and the same take options, or the script stops;
3. exact knock risk against one opponent (median and max over 20 hands, tables warm;
   target <= 250 ms): uniform, adaptive from typed-in observations (the chain) and adaptive
   from a log of 8 turns (the filter, uncached), the filter's cost per turn, and one Monte
   Carlo run against two opponents (10,000 deals);
4. horizon tables (``horizon_values(hand, 5, rules)``) cold, in a fresh subprocess (table
   build reported separately from a second fresh subprocess), and warm, in process, for the
   52-card ``classic`` and 32-card ``eenendertigen`` decks (no target);
5. ``scatlab analyze AH KH 4C --discard 9S`` as a whole process (``python -m scatlab``
   and the installed console script), text and ``--json``: median and max wall time over
   11 runs. Target <= 0.5 s median.

Run: ``python benchmarks/bench_analysis.py [--turns N] [--seed S]`` (about half a minute).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from scatlab.analysis import Knowledge, Observations, analyze_turn, horizon_values, knock_risk
from scatlab.analysis.counting.tables import tables_for
from scatlab.analysis.model.hand_filter import LOG_KINDS, LogFilter, Turn
from scatlab.cards import Card, Suit, deck, parse_cards
from scatlab.rules import find_rules
from scatlab.rules.options import CLASSIC

CLOCK = time.perf_counter
REPO = Path(__file__).resolve().parent.parent

TURN_TARGET = 20_000.0
RATIO_TARGET = 20.0
KNOCK_TARGET_MS = 250.0
CLI_TARGET_S = 0.5


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


# -- 1 and 2: one-turn analysis, fast and brute force ------------------------------------


def random_knowledge(rng: random.Random) -> Knowledge:
    """A random classic-rules moment: hand of 3, a top discard, 0-5 dead cards."""
    cards = rng.sample(deck(52), 4 + rng.randint(0, 5))
    return Knowledge(hand=tuple(cards[:3]), top=cards[3], dead=tuple(cards[4:]), rules=CLASSIC)


@dataclass(frozen=True)
class TurnFigures:
    """The numbers both paths must agree on."""

    expected_value: Fraction
    p_31: Fraction
    p_improve: Fraction
    best_discard: Card
    best_value: Fraction
    take_options: tuple[tuple[Card, Fraction], ...]


def brute_value(cards: Sequence[Card]) -> int:
    """A classic 3-card value from scratch: the best total of one suit's cards (C4)."""
    totals: dict[Suit, int] = {}
    for card in cards:
        totals[card.suit] = totals.get(card.suit, 0) + card.value
    return max(totals.values())


def brute_turn(k: Knowledge) -> TurnFigures:
    """The one-turn numbers the straightforward way (no tables, no caches)."""
    assert k.top is not None
    known = set(k.hand) | {k.top} | set(k.dead)
    unseen = [c for c in deck(52) if c not in known]
    n = len(unseen)
    current = brute_value(k.hand)
    ev = p31 = p_improve = Fraction(0)
    for drawn in unseen:
        four = k.hand + (drawn,)
        best = max(brute_value([c for c in four if c is not out]) for out in four)
        ev += Fraction(best, n)
        if best >= 31:
            p31 += Fraction(1, n)
        if best > current:
            p_improve += Fraction(1, n)
    # Take the top discard: it may not go back (C5); best first, ties throw the lowest card.
    four = k.hand + (k.top,)
    options = [(out, Fraction(brute_value([c for c in four if c is not out]))) for out in k.hand]
    options.sort(key=lambda o: (-o[1], o[0].value, o[0].index))
    return TurnFigures(ev, p31, p_improve, options[0][0], options[0][1], tuple(options))


def fast_pass(
    knowledge: Sequence[Knowledge],
) -> tuple[float, list[tuple[Fraction, Fraction, Fraction, Card, Fraction]]]:
    """Time analyze_turn plus reading the four figures; return (seconds, the figures)."""
    out: list[tuple[Fraction, Fraction, Fraction, Card, Fraction]] = []
    append = out.append
    start = CLOCK()
    for k in knowledge:
        turn = analyze_turn(k)
        draw, take = turn.draw, turn.take
        assert draw is not None and take is not None
        best = take.best
        append((draw.expected_value, draw.p_31, draw.p_improve, best.discard, best.value))
    return CLOCK() - start, out


def brute_pass(knowledge: Sequence[Knowledge]) -> tuple[float, list[TurnFigures]]:
    start = CLOCK()
    out = [brute_turn(k) for k in knowledge]
    return CLOCK() - start, out


def check_turns(
    knowledge: Sequence[Knowledge],
    fast: Sequence[tuple[Fraction, Fraction, Fraction, Card, Fraction]],
    brute: Sequence[TurnFigures],
) -> None:
    """Stop the benchmark if the fast path disagrees with brute force anywhere (explicit
    raises, not ``assert``: the check must hold under ``python -O`` too)."""
    if not len(fast) == len(brute) == len(knowledge):
        raise AssertionError(f"{len(fast)} fast results, {len(brute)} brute-force results, {len(knowledge)} inputs")
    for k, got, b in zip(knowledge, fast, brute):
        want = (b.expected_value, b.p_31, b.p_improve, b.best_discard, b.best_value)
        if not all(isinstance(x, Fraction) for x in (got[0], got[1], got[2], got[4])):
            raise AssertionError(f"fast path gave a non-Fraction for {k.describe()}: {got}")
        if got != want:
            raise AssertionError(f"fast path disagrees with brute force for {k.describe()}: {got} != {want}")
        turn = analyze_turn(k)
        options = tuple((o.discard, o.value) for o in turn.take.options) if turn.take is not None else ()
        if options != b.take_options:
            raise AssertionError(f"take options differ for {k.describe()}: {options} != {b.take_options}")


def bench_turns(count: int, seed: int, repeat: int) -> None:
    # The brute force is the classic per-suit sum: make sure that is what classic scores.
    if CLASSIC.hand_scoring != (None, False, False) or CLASSIC.rank_tiebreak:
        raise AssertionError(f"classic now scores {CLASSIC.hand_scoring}: update brute_value")
    start = CLOCK()
    tables_for(CLASSIC)
    build = CLOCK() - start
    print(f"table build (tables_for classic, once per process): {build * 1000:.1f} ms  (no target)")

    rng = random.Random(seed)
    knowledge = [random_knowledge(rng) for _ in range(count)]
    hands = len({frozenset(k.hand) for k in knowledge})

    first_secs, fast = fast_pass(knowledge)
    later_secs = min(fast_pass(knowledge)[0] for _ in range(repeat))
    brute_secs, brute = brute_pass(knowledge)
    check_turns(knowledge, fast, brute)

    first_rate, later_rate, brute_rate = count / first_secs, count / later_secs, count / brute_secs
    print(
        f"{count:,} seeded random knowledge objects ({hands:,} different hands, 0-5 dead cards, classic); "
        "fast and brute force give identical Fractions and take options for every one"
    )
    print(
        f"one-turn analyses/s, first pass (each new hand's after-draw row computed): {first_rate:,.0f}  "
        f"(target >= {TURN_TARGET:,.0f}: {verdict(first_rate >= TURN_TARGET)})"
    )
    print(
        f"one-turn analyses/s, later passes (best of {repeat}): {later_rate:,.0f}  "
        f"(target >= {TURN_TARGET:,.0f}: {verdict(later_rate >= TURN_TARGET)})"
    )
    print(f"brute-force analyses/s (per-suit sums, Fraction sums): {brute_rate:,.0f}  (reference, no target)")
    r1, r2 = first_rate / brute_rate, later_rate / brute_rate
    print(f"ratio fast/brute, first pass: {r1:,.1f}x  (target >= {RATIO_TARGET:.0f}x: {verdict(r1 >= RATIO_TARGET)})")
    print(f"ratio fast/brute, later passes: {r2:,.1f}x  (target >= {RATIO_TARGET:.0f}x: {verdict(r2 >= RATIO_TARGET)})")


# -- 3: knock risk ------------------------------------------------------------------------


def in_play(hands: int, kinds: Sequence[str] = ("tip", "expert")) -> None:
    """Time the knock risk as the table asks for it: from the first ``kinds`` player's view
    in seeded games (at the first turn of a hand after each opponent had played 6 turns),
    the observations read from the log with the expert's knock rule worked out at each of
    the opponents' turns (``Observations.from_view``), then the knock risk (exact against
    one opponent, 10,000 Monte Carlo deals against more); once with nothing cached (no rule,
    no filter weights) and once more with all that cached (the next click)."""
    from scatlab.analysis.model import observations
    from scatlab.players import make_player
    from scatlab.players.tournament import play_out
    from scatlab.rules.actions import ActionKind
    from scatlab.rules.view import PlayerView

    rules = find_rules("classic")
    picked: dict[tuple[int, int], PlayerView] = {}
    game = 0
    while len(picked) < hands:

        def observe(before: Any, entrant: int, view: PlayerView, action: Any, after: Any, game: int = game) -> None:
            key = (game, len(before.results))
            played = [
                sum(1 for e in view.history if e.player == p and e.action.kind is ActionKind.DISCARD)
                for p in view.opponents
            ]
            if (
                entrant == 0
                and action.kind in (ActionKind.DRAW, ActionKind.TAKE, ActionKind.KNOCK)
                and len(played) == len(kinds) - 1
                and min(played) >= 6
                and view.knocker is None
                and key not in picked
                and len(picked) < hands
            ):
                picked[key] = view

        play_out([make_player(k) for k in kinds], list(kinds), rules, 1, game, observe)
        game += 1
    heads_up = len(kinds) == 2

    def risk(view: PlayerView) -> object:
        return knock_risk(Knowledge.from_view(view), observations=Observations.from_view(view))

    cold, warm = [], []
    for view in picked.values():
        observations._RULE_CACHE.clear()
        for f in {LogFilter.of(rules, heads_up=h, two_players=heads_up) for h in (True, heads_up)}:
            f.clear_cache()
        cold.append(timed(lambda: risk(view)))
        warm.append(timed(lambda: risk(view)))
    med, worst = statistics.median(cold) * 1000, max(cold) * 1000
    what = "exact" if heads_up else "Monte Carlo, 10,000 deals"
    target = f"target <= {KNOCK_TARGET_MS:.0f} ms: {verdict(worst <= KNOCK_TARGET_MS)}" if heads_up else "no target"
    print(
        f"knock risk vs {len(kinds) - 1} opponent{'s' if len(kinds) > 2 else ''}, {what}, in play "
        f"({' vs '.join(kinds)}: a game view after 6 turns of each opponent, the expert's rule at each of their "
        f"turns, nothing cached), {hands} hands: median {med:.1f} ms, max {worst:.1f} ms  ({target}); "
        f"the same view again (rules and weights cached): median {statistics.median(warm) * 1000:.1f} ms"
    )


def timed(fn: Callable[[], object]) -> float:
    start = CLOCK()
    fn()
    return CLOCK() - start


def bench_knock(hands: int, seed: int) -> None:
    rng = random.Random(seed + 1)
    warm = random_knowledge(rng)
    cases = [random_knowledge(rng) for _ in range(hands)]

    def exact(what: str, first_what: str, seen: Callable[[Knowledge], Observations | None]) -> None:
        """Time the exact knock risk over the cases (the first call in the process apart)."""
        first = timed(lambda: knock_risk(warm, observations=seen(warm)))
        times = [timed(lambda: knock_risk(k, observations=seen(k))) for k in cases]
        med, worst = statistics.median(times) * 1000, max(times) * 1000
        print(
            f"knock risk vs 1 opponent, exact, {what}, {hands} hands: median {med:.1f} ms, max {worst:.1f} ms  "
            f"(target <= {KNOCK_TARGET_MS:.0f} ms: {verdict(worst <= KNOCK_TARGET_MS)}; "
            f"first call in process{first_what} {first * 1000:.1f} ms)"
        )

    # the adaptive opponent model: each opponent has played 3 turns and rejected 2 cards
    def observed(k: Knowledge) -> Observations:
        unseen = list(k.unseen)
        return Observations((3,) * k.opponents, tuple((unseen[0], unseen[1]) for _ in range(k.opponents)))

    # the same model from a game's log: the opponent passed over a card and drew, 8 turns
    def logged(k: Knowledge, turns: int = 8) -> Observations:
        unseen = list(k.unseen)
        log = tuple(Turn("draw", unseen[2 * i], unseen[2 * i + 1]) for i in range(turns))
        return Observations((turns,), (tuple(unseen[: 2 * turns]),), log=(log,))

    exact("tables warm", "", lambda k: None)
    exact("adaptive model (3 turns, 2 rejected cards)", ", building the prior chain,", observed)
    exact("adaptive model from a log of 8 turns (the filter, nothing cached)", ", building the filter,", logged)
    in_play(hands)
    in_play(hands, ("tip", "expert", "tip"))
    f = LogFilter.of(warm.rules)
    steps = [logged(k).log[0] for k in cases]  # type: ignore[index]
    f.clear_cache()
    start = CLOCK()
    for log in steps:
        for n in range(1, len(log) + 1):
            f.weights(log[:n])
    per_turn = (CLOCK() - start) / sum(len(log) for log in steps) / len(LOG_KINDS) * 1000
    print(f"the filter, one more turn (a draw) per kind, cached log before it: {per_turn:.2f} ms  (no target)")
    two = Knowledge.of("AH KH QS", discard="2C", opponents=2)
    adaptive = timed(lambda: knock_risk(two, observations=observed(two)))
    print(
        f"knock risk vs 2 opponents, Monte Carlo, adaptive model, 10,000 deals: {adaptive * 1000:.0f} ms  (no target)"
    )
    risk_holder: list[Any] = []
    mc = timed(lambda: risk_holder.append(knock_risk(two)))
    risk = risk_holder[0]
    assert not risk.exact and risk.samples == 10_000
    print(
        f"knock risk vs 2 opponents, Monte Carlo, {risk.samples:,} deals (AH KH QS, discard 2C): "
        f"{mc * 1000:.0f} ms  (no target)"
    )


# -- 4: horizon tables ------------------------------------------------------------------

_HORIZON_CHILD = """
import json, sys, time
clock = time.perf_counter
start = clock()
from scatlab.analysis import horizon_values
from scatlab.analysis.model.hand_filter import LOG_KINDS, LogFilter, Turn
from scatlab.analysis.counting.tables import tables_for
from scatlab.cards import parse_cards
from scatlab.rules import find_rules
imported = clock() - start
rules, hand, mode = find_rules(sys.argv[1]), parse_cards(sys.argv[2]), sys.argv[3]
out = {"import": imported}
if mode == "split":
    start = clock(); tables_for(rules); out["tables"] = clock() - start
start = clock(); values = horizon_values(hand, 5, rules); out["call"] = clock() - start
out["values"] = [str(v) for v in values]
print(json.dumps(out))
"""


def run_child(rules: str, hand: str, mode: str) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-c", _HORIZON_CHILD, rules, hand, mode], capture_output=True, text=True, check=True, cwd=REPO
    )
    data: dict[str, Any] = json.loads(proc.stdout)
    return data


def bench_horizon(runs: int) -> None:
    for rules_name, hand_text in (("classic", "AH KH 4C"), ("eenendertigen", "AH KH 9C")):
        rules = find_rules(rules_name)
        hand = parse_cards(hand_text)
        expected = [str(v) for v in horizon_values(hand, 5, rules)]  # builds this process's caches
        warm = min(timed(lambda: horizon_values(hand, 5, rules)) for _ in range(20))
        cold = [run_child(rules_name, hand_text, "cold") for _ in range(runs)]
        split = [run_child(rules_name, hand_text, "split") for _ in range(runs)]
        for d in cold + split:
            assert d["values"] == expected, (rules_name, d["values"], expected)
        cold_call = statistics.median(d["call"] for d in cold)
        cold_max = max(d["call"] for d in cold)
        tables = statistics.median(d["tables"] for d in split)
        dp = statistics.median(d["call"] for d in split)
        imports = statistics.median(d["import"] for d in cold)
        print(
            f"horizon_values({hand_text}, 5), {rules.deck_size}-card {rules_name}: cold (fresh process, "
            f"median of {runs}) {cold_call * 1000:.1f} ms (max {cold_max * 1000:.1f}); in another fresh process, "
            f"tables {tables * 1000:.1f} ms then the DP {dp * 1000:.1f} ms; "
            f"warm {warm * 1e6:.1f} us  (no target; import scatlab.analysis {imports * 1000:.0f} ms not included)"
        )


# -- 5: the command line ------------------------------------------------------------------


def bench_cli(runs: int) -> None:
    args = ["analyze", "AH", "KH", "4C", "--discard", "9S"]
    as_is = dict(os.environ)
    variants: list[tuple[str, list[str], dict[str, str]]] = [
        ("python -m scatlab", [sys.executable, "-m", "scatlab"], as_is)
    ]
    script = Path(sys.executable).parent / ("scatlab.exe" if os.name == "nt" else "scatlab")
    if script.exists():
        variants.append((f"{script.name} (console script)", [str(script)], as_is))
    else:
        print(f"(no console script at {script}; timing python -m scatlab only)")
    with tempfile.TemporaryDirectory(prefix="bench-pycache-") as pycache:
        if os.environ.get("PYTHONDONTWRITEBYTECODE"):
            # As the environment is, every run compiles scatlab's sources again; also time the
            # usual case of a bytecode cache (kept in a temporary directory, not in the repo).
            cached = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
            cached["PYTHONPYCACHEPREFIX"] = pycache
            print(
                "(PYTHONDONTWRITEBYTECODE is set here, so no .pyc files exist for scatlab: the runs below "
                "compile its sources each time, except the ones marked 'with a bytecode cache')"
            )
            variants.append(("python -m scatlab, with a bytecode cache", [sys.executable, "-m", "scatlab"], cached))
        for label, command, env in variants:
            for extra in ([], ["--json"]):
                times = cli_times(command + args + extra, env, bool(extra), runs)
                med = statistics.median(times)
                shown = " ".join(["scatlab"] + args + extra)
                print(
                    f"{label}: `{shown}` median {med:.3f} s, max {max(times):.3f} s over {runs} runs  "
                    f"(target <= {CLI_TARGET_S} s median: {verdict(med <= CLI_TARGET_S)})"
                )


def cli_times(argv: list[str], env: dict[str, str], is_json: bool, runs: int) -> list[float]:
    """Wall times of ``runs`` runs of ``argv``, after one untimed run (it warms the OS file
    cache and writes the bytecode cache, if any); each run's output is checked."""

    def once() -> float:
        start = CLOCK()
        proc = subprocess.run(argv, capture_output=True, text=True, cwd=REPO, env=env)
        secs = CLOCK() - start
        assert proc.returncode == 0, proc.stderr
        if is_json:
            assert json.loads(proc.stdout)["draw"]["expected_value"] == "541/24", proc.stdout
        else:
            assert "541/24" in proc.stdout, proc.stdout
        return secs

    once()
    return [once() for _ in range(runs)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--turns", type=int, default=3000, help="knowledge objects for figures 1-2")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="later passes of figure 1 (best of)")
    parser.add_argument("--knock-hands", type=int, default=20)
    parser.add_argument("--horizon-runs", type=int, default=5, help="fresh processes per horizon figure")
    parser.add_argument("--cli-runs", type=int, default=11)
    args = parser.parse_args()
    print(
        f"python {platform.python_version()} ({platform.python_implementation()}) on {platform.machine()}, "
        f"{platform.system()} {platform.release()}, {os.cpu_count()} CPUs; numpy {np.__version__}; "
        "analysis timings are one process on one core"
    )
    started = CLOCK()
    bench_turns(args.turns, args.seed, args.repeat)
    bench_knock(args.knock_hands, args.seed)
    bench_horizon(args.horizon_runs)
    bench_cli(args.cli_runs)
    print(f"(benchmark took {CLOCK() - started:.0f} s)")


if __name__ == "__main__":
    main()
