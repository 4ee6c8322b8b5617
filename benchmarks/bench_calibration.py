"""Benchmark the figures a learner reads: are the chances of winning and the knock's expected losses calibrated?

**The chance of winning the game.** At every decision of the measured seat with two legal
moves or more, the ranking's best move's chance of winning the game (``r.best.win``, the
figure the advice is chosen by) is recorded with whether the seat went on to win that game;
each is also marked as a knock (the best move ends the hand) or a way of playing on. Printed
per setting, then for every setting together: the mean predicted and observed, the bias (observed - predicted, in
points)
with its standard error counted by game (the decisions of one game share its outcome), and
the same by bins of the predicted chance (tenths); the verdict: the bias within 1 point
overall and within 2 points in every bin of 200 decisions or more.

**The knock's expected losses.**

Seeded whole games (:func:`scatlab.players.tournament.play_out`: the seating, decks and
players' generators of a tournament with ``--seed``; every seat told who sits where, as at
the table, where the learner chose the opponents) of the measured seat (``--players``,
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

from scatlab.analysis import decide, rank
from scatlab.players.base import make_player
from scatlab.players.tournament import play_out
from scatlab.rules.actions import Action, ActionKind
from scatlab.rules.options import find_rules
from scatlab.rules.state import GameState, Phase
from scatlab.rules.view import PlayerView

ENDING = frozenset({ActionKind.KNOCK, ActionKind.HAMMER, ActionKind.STOP_BUS})
EDGES: tuple[float, ...] = (0.0, 0.05, 0.1, 0.2, 0.3, 0.5)
"""Lower ends of the bins of predicted loss (the last bin is open)."""
OVERALL_POINTS = 1.0
BIN_POINTS = 3.0
BIN_MIN = 200
WIN_BIN_POINTS = 2.0
"""The verdict of the chance of winning: every bin of :data:`BIN_MIN` decisions or more within this."""


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


@dataclass(frozen=True)
class Decision:
    """One decision of the measured seat: the predicted chance of winning the game of the
    move advised, whether that move ends the hand, and whether the seat won the game."""

    game: int
    predicted: float
    knock: bool
    won: bool


@dataclass
class Tally:
    """The measured seat's decisions in some games: every advised move's chance of winning,
    and its advised knocks taken."""

    decisions: list[Decision] = field(default_factory=list)
    allowed: int = 0
    """Decisions where an action ending the hand was legal."""
    advised: int = 0
    """... where the ranking's best move ended the hand."""
    against: int = 0
    """... where the seat ended the hand though the ranking's best move played on."""
    knocks: list[Knock] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.decisions.extend(other.decisions)
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
        chances: list[tuple[float, bool]] = []

        def observe(before: GameState, entrant: int, view: PlayerView, action: Action, after: GameState) -> None:
            choice = None
            if entrant == 0 and len(view.legal_actions) >= 2 and view.phase not in (Phase.THROW_DOWN, Phase.DECLARE):
                choice = decide(view)
                if action == choice.action:
                    chances.append((choice.win, choice.action.kind in ENDING))
            if choice is not None and any(a.kind in ENDING for a in view.legal_actions):
                tally.allowed += 1
                if choice.action.kind in ENDING:
                    tally.advised += 1
                    if action == choice.action:
                        best = rank(view).best
                        assert best.action == choice.action and best.lives is not None
                        pending.append((len(before.results), view.player, best.lives, best.p_one, best.p_two))
                elif action.kind in ENDING:
                    tally.against += 1
            while pending and len(after.results) > pending[0][0]:
                number, seat, lives, one, two = pending.pop(0)
                result = after.results[number]
                tally.knocks.append(Knock(game, lives, one, two, result.lives_lost[seat], result.tie_break))

        state, entrant_at, _ = play_out(players, kinds, ruleset, seed, game, observe, announce=True)
        assert not pending, "a knock's hand never ended"
        won = state.winner == entrant_at.index(0)
        tally.decisions.extend(Decision(game, p, knock, won) for p, knock in chances)
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


WIN_EDGES: tuple[float, ...] = tuple(i / 10 for i in range(10))
"""Lower ends of the bins of the predicted chance of winning (tenths)."""


def win_summary(decisions: list[Decision]) -> tuple[int, float, float, float, float]:
    """(count, mean predicted, mean observed, bias in points, its standard error in points
    counted by game: the decisions of one game share its outcome)."""
    n = len(decisions)
    if n == 0:
        return 0, math.nan, math.nan, math.nan, math.nan
    pred = sum(d.predicted for d in decisions) / n
    obs = sum(d.won for d in decisions) / n
    by_game: dict[int, list[float]] = {}
    for d in decisions:
        by_game.setdefault(d.game, []).append(d.won - d.predicted)
    bias = obs - pred
    sums = [sum(r) - len(r) * bias for r in by_game.values()]  # each game's residuals about the bias
    se = math.sqrt(sum(x * x for x in sums)) / n if len(sums) > 1 else math.nan
    return n, pred, obs, 100 * bias, 100 * se


def report_chances(tally: Tally) -> bool:
    """Print the calibration of the chance of winning; whether it met the verdict."""
    decisions = tally.decisions
    if not decisions:
        print("chance of winning: no decision advised")
        return True
    games = len({d.game for d in decisions})
    n, pred, obs, bias, se = win_summary(decisions)
    knocks = [d for d in decisions if d.knock]
    print(
        f"chance of winning the game, {n:,} advised decisions taken in {games:,} games "
        f"({len(knocks):,} ending the hand): predicted {100 * pred:.2f}%, won {100 * obs:.2f}%, "
        f"bias {bias:+.2f} points (se {se:.2f})"
    )
    for label, part in (("knocks", knocks), ("playing on", [d for d in decisions if not d.knock])):
        k = win_summary(part)
        if k[0]:
            print(
                f"  {label:<11} {k[0]:>7,}  predicted {100 * k[1]:.2f}%, won {100 * k[2]:.2f}%, bias {k[3]:+.2f} "
                f"(se {k[4]:.2f})"
            )
    print(f"  {'predicted':<10} {'decisions':>9} {'mean pred':>10} {'won':>7} {'bias pts':>9} {'se':>6}")
    bins: list[list[Decision]] = [[] for _ in WIN_EDGES]
    for d in decisions:
        bins[max(i for i, low in enumerate(WIN_EDGES) if d.predicted >= low)].append(d)
    ok = True
    for i, members in enumerate(bins):
        c, p, o, b, e = win_summary(members)
        if c == 0:
            continue
        judged = c >= BIN_MIN
        if judged and abs(b) > WIN_BIN_POINTS:
            ok = False
        mark = "" if not judged else ("  ok" if abs(b) <= WIN_BIN_POINTS else "  MISSED")
        label = f"{WIN_EDGES[i]:.1f}-{WIN_EDGES[i] + 0.1:.1f}"
        print(f"  {label:<10} {c:>9,} {100 * p:>9.2f}% {100 * o:>6.2f}% {b:>+9.2f} {e:>6.2f}{mark}")
    overall = abs(bias) <= OVERALL_POINTS
    print(
        f"verdict: overall bias {bias:+.2f} within {OVERALL_POINTS:g} point: {'ok' if overall else 'MISSED'}; "
        f"bins of {BIN_MIN}+ decisions within {WIN_BIN_POINTS:g} points: {'ok' if ok else 'MISSED'}"
    )
    return overall and ok


def report(title: str, tally: Tally, unit: str, seconds: float) -> bool:
    """Print one setting's figures; whether it met the verdict (True when there was nothing to judge)."""
    knocks = tally.knocks
    print(f"\n== {title}  ({seconds:.1f} s)")
    chances_ok = report_chances(tally)
    print(
        f"decisions with a knock allowed {tally.allowed:,}; advised (best move ends the hand) {tally.advised:,}; "
        f"advised and taken {len(knocks):,}; knocks against the advice {tally.against:,}"
    )
    if not knocks:
        print("no advised knock taken: nothing to judge")
        return chances_ok
    s = summarise(knocks)
    ties = sum(k.tie_break for k in knocks)
    print(
        f"expected {unit} lost: predicted {s.predicted:.4f}, observed {s.observed:.4f}, "
        f"bias {s.bias:+.2f} points (se {s.se:.2f}); {ties} of these hands ended in a tie-break (C14/V9)"
    )
    with_p = [k for k in knocks if k.p_one is not None and k.p_two is not None]
    if with_p:
        p_any = float(
            sum((k.p_one + k.p_two for k in with_p if k.p_one is not None and k.p_two is not None), Fraction(0))
        ) / len(with_p)
        o_any = sum(k.observed >= 1 for k in with_p) / len(with_p)
        p_two = float(sum((k.p_two for k in with_p if k.p_two is not None), Fraction(0))) / len(with_p)
        o_two = sum(k.observed >= 2 for k in with_p) / len(with_p)
        print(
            f"P(lose at least one): predicted {100 * p_any:.2f}%, observed {100 * o_any:.2f}%, "
            f"bias {100 * (o_any - p_any):+.2f} points; P(lose two): predicted {100 * p_two:.2f}%, "
            f"observed {100 * o_two:.2f}%  ({len(with_p):,} knocks)"
        )
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
        print(
            f"  {bin_label(i):<10} {b.count:>7,} {b.predicted:>10.4f} {b.observed:>9.4f} {b.bias:>+9.2f} "
            f"{b.se:>6.2f}{mark}"
        )
    overall_ok = abs(s.bias) <= OVERALL_POINTS
    judged_bins = sum(len(m) >= BIN_MIN for m in bins)
    print(
        f"verdict: overall bias {s.bias:+.2f} within {OVERALL_POINTS:g} point: {'ok' if overall_ok else 'MISSED'}; "
        f"bins of {BIN_MIN}+ knocks ({judged_bins}) within {BIN_POINTS:g} points: {'ok' if bins_ok else 'MISSED'}"
    )
    return overall_ok and bins_ok and chances_ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, required=True, help="game seed (required)")
    parser.add_argument("--games", type=int, default=600, help="games per setting (default 600)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--rules", nargs="+", default=["classic", "gin"], help="rule sets (default classic gin)")
    parser.add_argument("--players", default="expert", help="the measured seat's kind (default expert)")
    parser.add_argument(
        "--against",
        nargs="+",
        default=["tip,tip", "expert,expert"],
        help="opponent settings, each comma-separated (default tip,tip expert,expert)",
    )
    args = parser.parse_args()
    if args.games < 1 or args.jobs < 1:
        sys.exit("--games and --jobs must be at least 1")
    print(
        f"python {platform.python_version()} on {platform.machine()}, "
        f"{os.cpu_count()} cores; {args.games} games a setting, seed {args.seed}, jobs {args.jobs}; "
        f"measured seat {args.players}"
    )
    results = []
    pooled = Tally()
    for rules in args.rules:
        unit = {"gin": "letters", "points": "points"}.get(find_rules(rules).score_keeping, "lives")
        for against in args.against:
            kinds = (args.players.strip(), *(k.strip() for k in against.split(",") if k.strip()))
            start = time.perf_counter()
            tally = collect(kinds, rules, args.seed, args.games, args.jobs)
            title = f"{rules}: {kinds[0]} against {', '.join(kinds[1:])}"
            ok = report(title, tally, unit, time.perf_counter() - start)
            results.append((title, len(tally.knocks), ok))
            offset = len(results) * 1_000_000  # one game number per game of every setting
            pooled.decisions.extend(Decision(d.game + offset, d.predicted, d.knock, d.won) for d in tally.decisions)
    if len(results) > 1:
        print("\n== every setting together ==")
        pooled_ok = report_chances(pooled)
        results.append(("every setting together: chance of winning", 0, pooled_ok))
    print("\nsummary:")
    for title, n, ok in results:
        taken = f"{n:>7,} advised knocks taken" if not title.startswith("every setting") else f"{'':>28}"
        print(f"  {title:<40} {taken}  {'ok' if ok else 'MISSED'}")


if __name__ == "__main__":
    main()
