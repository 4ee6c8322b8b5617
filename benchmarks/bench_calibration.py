"""Benchmark the knock figures a learner reads: are the ranking's expected losses calibrated?

Seeded whole games (:func:`scatlab.players.tournament.play_out`: the seating, decks and
players' generators of a tournament with ``--seed``) of the measured seat (``--players``,
default ``expert``) against each ``--against`` setting (default ``tip,tip`` and
``expert,expert``) under each of ``--rules`` (default ``classic`` and ``gin``). At every
decision of the measured seat where a legal action ends the hand (a knock, a hammer, a bus
stop), the ranking :func:`scatlab.analysis.rank` of its view is read; when its best move
ends the hand **and** the seat plays that move (an *advised knock taken*), the figure the
learner is shown, ``r.best.lives`` (expected lives lost this hand; letters under gin), is
recorded with the lives (letters) the knocker then really lost in that hand
(``HandResult.lives_lost``).

Printed per setting: the decisions with a knock allowed, the knocks advised, taken and
taken against the advice; then for the advised knocks taken the mean predicted and mean
observed loss, the bias (observed - predicted, in points: x100) with its standard error;
the chance of losing at least one life (``p_one + p_two``) predicted against the frequency
observed; and the same binned by the predicted loss (0-0.05, 0.05-0.1, 0.1-0.2, 0.2-0.3,
0.3-0.5, 0.5+). The verdict: overall bias within 1 point, and within 3 points in every bin
of 200 knocks or more. Hands that ended in a tie-break (C14/V9: every player left would be
out, so nobody loses the life) are counted: there the loss charged is smaller than the
model's.

The games are played in chunks by a process pool of ``--jobs`` workers; each game is seeded
from ``(seed, game)`` alone, so the figures do not depend on ``--jobs``. Benchmarks print,
they never assert.

Run: ``python benchmarks/bench_calibration.py --seed 7 [--games 600] [--jobs 2]
[--rules classic gin] [--players expert] [--against tip,tip expert,expert]``
"""

from __future__ import annotations

import argparse
import concurrent.futures
import math
import os
import platform
import sys
import time
from dataclasses import dataclass, field
from fractions import Fraction

from scatlab.analysis import rank
from scatlab.players.base import make_player
from scatlab.players.tournament import play_out
from scatlab.rules.actions import Action, ActionKind
from scatlab.rules.options import find_rules
from scatlab.rules.state import GameState
from scatlab.rules.view import PlayerView

ENDING = frozenset({ActionKind.KNOCK, ActionKind.HAMMER, ActionKind.STOP_BUS})
EDGES: tuple[float, ...] = (0.0, 0.05, 0.1, 0.2, 0.3, 0.5)
"""Lower ends of the bins of predicted loss (the last bin is open)."""
OVERALL_POINTS = 1.0
BIN_POINTS = 3.0
BIN_MIN = 200


@dataclass(frozen=True)
class Knock:
    """One advised knock taken: the predicted loss (and chances of losing one and two, when
    the ranking gives them) and the loss observed."""

    game: int
    predicted: Fraction
    p_one: Fraction | None
    p_two: Fraction | None
    observed: int
    tie_break: bool


@dataclass
class Tally:
    """The measured seat's knock decisions in some games, and its advised knocks taken."""

    allowed: int = 0
    """Decisions where an action ending the hand was legal."""
    advised: int = 0
    """... where the ranking's best move ended the hand."""
    against: int = 0
    """... where the seat ended the hand though the ranking's best move played on."""
    knocks: list[Knock] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.allowed += other.allowed
        self.advised += other.advised
        self.against += other.against
        self.knocks.extend(other.knocks)


def play_chunk(kinds: tuple[str, ...], rules: str, seed: int, games: list[int]) -> Tally:
    """Play the games numbered ``games`` (entrant 0 measured); top level, so a process pool can run it."""
    ruleset = find_rules(rules)
    players = [make_player(k) for k in kinds]
    tally = Tally()
    for game in games:
        pending: list[tuple[int, int, Fraction, Fraction | None, Fraction | None]] = []

        def observe(before: GameState, entrant: int, view: PlayerView, action: Action, after: GameState) -> None:
            if entrant == 0 and any(a.kind in ENDING for a in view.legal_actions):
                tally.allowed += 1
                best = rank(view).best
                if best.ends_hand:
                    tally.advised += 1
                    if action == best.action:
                        assert best.lives is not None
                        pending.append((len(before.results), view.player, best.lives,
                                        getattr(best, "p_one", None), getattr(best, "p_two", None)))
                elif action.kind in ENDING:
                    tally.against += 1
            while pending and len(after.results) > pending[0][0]:
                number, seat, lives, one, two = pending.pop(0)
                result = after.results[number]
                tally.knocks.append(Knock(game, lives, one, two, result.lives_lost[seat], result.tie_break))

        play_out(players, kinds, ruleset, seed, game, observe)
        assert not pending, "a knock's hand never ended"
    return tally


def collect(kinds: tuple[str, ...], rules: str, seed: int, games: int, jobs: int) -> Tally:
    """Every chunk's tally, merged in game order (the same whatever ``jobs``)."""
    size = max(1, min(25, math.ceil(games / (4 * jobs))))
    chunks = [list(range(s, min(s + size, games))) for s in range(0, games, size)]
    total = Tally()
    if jobs == 1:
        for chunk in chunks:
            total.add(play_chunk(kinds, rules, seed, chunk))
        return total
    with concurrent.futures.ProcessPoolExecutor(max_workers=jobs) as pool:
        for tally in pool.map(play_chunk, [kinds] * len(chunks), [rules] * len(chunks), [seed] * len(chunks), chunks):
            total.add(tally)
    return total


@dataclass(frozen=True)
class Summary:
    count: int
    predicted: float
    observed: float
    bias: float
    """observed - predicted, in points (x100)."""
    se: float
    """The standard error of ``bias``, in points (nan with fewer than two knocks)."""


def summarise(knocks: list[Knock]) -> Summary:
    n = len(knocks)
    if n == 0:
        return Summary(0, math.nan, math.nan, math.nan, math.nan)
    pred = float(sum((k.predicted for k in knocks), Fraction(0))) / n
    obs = sum(k.observed for k in knocks) / n
    diffs = [k.observed - float(k.predicted) for k in knocks]
    mean = sum(diffs) / n
    se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n) if n > 1 else math.nan
    return Summary(n, pred, obs, 100 * (obs - pred), 100 * se)


def bin_of(predicted: Fraction) -> int:
    return max(i for i, low in enumerate(EDGES) if predicted >= low)


def bin_label(i: int) -> str:
    return f"{EDGES[i]:g}-{EDGES[i + 1]:g}" if i + 1 < len(EDGES) else f"{EDGES[i]:g}+"


def report(title: str, tally: Tally, unit: str, seconds: float) -> bool:
    """Print one setting's figures; whether it met the verdict (True when there was nothing to judge)."""
    knocks = tally.knocks
    print(f"\n== {title}  ({seconds:.1f} s)")
    print(f"decisions with a knock allowed {tally.allowed:,}; advised (best move ends the hand) {tally.advised:,}; "
          f"advised and taken {len(knocks):,}; knocks against the advice {tally.against:,}")
    if not knocks:
        print("no advised knock taken: nothing to judge")
        return True
    s = summarise(knocks)
    ties = sum(k.tie_break for k in knocks)
    print(f"expected {unit} lost: predicted {s.predicted:.4f}, observed {s.observed:.4f}, "
          f"bias {s.bias:+.2f} points (se {s.se:.2f}); {ties} of these hands ended in a tie-break (C14/V9)")
    with_p = [k for k in knocks if k.p_one is not None and k.p_two is not None]
    if with_p:
        p_any = float(sum((k.p_one + k.p_two for k in with_p if k.p_one is not None and k.p_two is not None),
                          Fraction(0))) / len(with_p)
        o_any = sum(k.observed >= 1 for k in with_p) / len(with_p)
        p_two = float(sum((k.p_two for k in with_p if k.p_two is not None), Fraction(0))) / len(with_p)
        o_two = sum(k.observed >= 2 for k in with_p) / len(with_p)
        print(f"P(lose at least one): predicted {100 * p_any:.2f}%, observed {100 * o_any:.2f}%, "
              f"bias {100 * (o_any - p_any):+.2f} points; P(lose two): predicted {100 * p_two:.2f}%, "
              f"observed {100 * o_two:.2f}%  ({len(with_p):,} knocks)")
    else:
        print("P(lose at least one): the ranking gives no p_one / p_two")
    print(f"  {'predicted':<10} {'knocks':>7} {'mean pred':>10} {'mean obs':>9} {'bias pts':>9} {'se':>6}")
    bins: list[list[Knock]] = [[] for _ in EDGES]
    for k in knocks:
        bins[bin_of(k.predicted)].append(k)
    bins_ok = True
    for i, members in enumerate(bins):
        b = summarise(members)
        if b.count == 0:
            print(f"  {bin_label(i):<10} {0:>7}")
            continue
        judged = b.count >= BIN_MIN
        if judged and abs(b.bias) > BIN_POINTS:
            bins_ok = False
        mark = "" if not judged else ("  ok" if abs(b.bias) <= BIN_POINTS else "  MISSED")
        print(f"  {bin_label(i):<10} {b.count:>7,} {b.predicted:>10.4f} {b.observed:>9.4f} {b.bias:>+9.2f} "
              f"{b.se:>6.2f}{mark}")
    overall_ok = abs(s.bias) <= OVERALL_POINTS
    judged_bins = sum(len(m) >= BIN_MIN for m in bins)
    print(f"verdict: overall bias {s.bias:+.2f} within {OVERALL_POINTS:g} point: {'ok' if overall_ok else 'MISSED'}; "
          f"bins of {BIN_MIN}+ knocks ({judged_bins}) within {BIN_POINTS:g} points: {'ok' if bins_ok else 'MISSED'}")
    return overall_ok and bins_ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, required=True, help="game seed (required)")
    parser.add_argument("--games", type=int, default=600, help="games per setting (default 600)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--rules", nargs="+", default=["classic", "gin"], help="rule sets (default classic gin)")
    parser.add_argument("--players", default="expert", help="the measured seat's kind (default expert)")
    parser.add_argument("--against", nargs="+", default=["tip,tip", "expert,expert"],
                        help="opponent settings, each comma-separated (default tip,tip expert,expert)")
    args = parser.parse_args()
    if args.games < 1 or args.jobs < 1:
        sys.exit("--games and --jobs must be at least 1")
    print(f"python {platform.python_version()} on {platform.machine()}, "
          f"{os.cpu_count()} cores; {args.games} games a setting, seed {args.seed}, jobs {args.jobs}; "
          f"measured seat {args.players}")
    results = []
    for rules in args.rules:
        unit = {"gin": "letters", "points": "points"}.get(find_rules(rules).score_keeping, "lives")
        for against in args.against:
            kinds = (args.players.strip(), *(k.strip() for k in against.split(",") if k.strip()))
            start = time.perf_counter()
            tally = collect(kinds, rules, args.seed, args.games, args.jobs)
            title = f"{rules}: {kinds[0]} against {', '.join(kinds[1:])}"
            ok = report(title, tally, unit, time.perf_counter() - start)
            results.append((title, len(tally.knocks), ok))
    print("\nsummary:")
    for title, n, ok in results:
        print(f"  {title:<40} {n:>7,} advised knocks taken  {'ok' if ok else 'MISSED'}")


if __name__ == "__main__":
    main()
