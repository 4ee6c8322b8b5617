"""Benchmark the engine's knock figure: ``ending.value_ending`` at every decision of the
``expert`` where a knock (or a hammer, V10) is legal, in seeded games.

The engine values a knock at every decision where one is legal, so the knock figure (each
opponent's final value, the outcome of the showdown, the exact heads-up count) is most of
the ``expert``'s cost. This benchmark plays a fixed set of seeded games once (in their own
process: :func:`record`), then, in a fresh process per tree and round, replays them move by
move without asking any player (so no cache is warm but for one warm-up game of other
seeds), and times ``value_ending`` at each such decision in the order of play, as the ``expert``
meets them (the caches of a hand's earlier decisions count, as they do in play).

The games (``--games N`` of each): ``expert,tip,tip`` and ``expert,tip`` under ``classic``,
and ``expert,tip,tip`` under ``gin`` (V14), tournament seed 11.

Where the ``expert`` made the move, the time includes reading the outcome's words (its reason
reads them; against one opponent the outcome is worked out only then, the figures being the
exact count's). Each decision is then asked again with a new ``Position`` of the same view, as a ranking
of the same position (a hint, the review) after the ``expert``'s own decision asks it. It
prints, per tree, the median and p95 CPU seconds of one call (each call's median over the
rounds) and the whole set's seconds (median over the rounds), and checks that every figure
(the outcome's expected loss, gain and chances, the chance of winning, the exact count) is
identical between the trees, or to a reference file (``--reference``, written by
``--save``). With ``--against PATH`` (a checkout of another commit, e.g. made with ``git
worktree add /tmp/base one-scale --detach``) both trees run round after round, so a machine
that slows down slows both. Benchmarks print, never assert.

Run: ``python benchmarks/bench_knock.py [--against PATH] [--games 8] [--rounds 3]
[--save FILE] [--reference FILE] [--profile]``
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SEED = 11
WARM_SEED = 12345
SETS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("classic", ("expert", "tip", "tip")),
    ("classic", ("expert", "tip")),
    ("gin", ("expert", "tip", "tip")),
)


# -- in a worker process (PYTHONPATH: the tree under test) ---------------------------------


def _record(games: int, seed: int) -> list[dict[str, Any]]:
    """Play ``games`` games of every set with seed ``seed``: each game's moves, as indices
    into the legal actions of the mover's view."""
    from scatlab.players import make_player
    from scatlab.players.tournament import play_out
    from scatlab.rules import find_rules

    out = []
    for rules, kinds in SETS:
        for game in range(games):
            moves: list[int] = []

            def observe(_before: object, _i: int, view: Any, action: Any, _after: object) -> None:
                moves.append(view.legal_actions.index(action))

            play_out([make_player(k) for k in kinds], list(kinds), find_rules(rules), seed, game, observe)
            out.append({"rules": rules, "kinds": list(kinds), "seed": seed, "game": game, "moves": moves})
    return out


def _replayed(game: dict[str, Any]) -> list[tuple[Any, Any]]:
    """The views of the ``expert`` in ``game`` (recorded by :func:`_record`) at which a
    knock or a hammer is legal, with the kind of move it made there, in the order of play,
    by replaying the moves (no player is asked, so no engine cache is touched)."""
    from scatlab.players.base import Decision, Player
    from scatlab.players.tournament import play_out
    from scatlab.rules import find_rules
    from scatlab.rules.actions import ActionKind

    moves = iter(game["moves"])

    class Replay(Player):
        def decide(self, view: Any, rng: Any) -> Decision:
            return Decision(view.legal_actions[next(moves)], "")

    kinds = game["kinds"]
    views: list[tuple[Any, Any]] = []

    def observe(_before: object, i: int, view: Any, action: Any, _after: object) -> None:
        if kinds[i] == "expert" and any(a.kind in (ActionKind.KNOCK, ActionKind.HAMMER) for a in view.legal_actions):
            views.append((view, action.kind))

    play_out([Replay() for _ in kinds], list(kinds), find_rules(game["rules"]), game["seed"], game["game"], observe)
    return views


def _figures(ending: Any) -> list[str]:
    o = ending.outcome
    exact = None if ending.exact is None else [str(x) for x in ending.exact]
    return [
        repr(o.own),
        repr(o.gain),
        repr(o.p_one),
        repr(o.p_two),
        o.phrase,
        repr(ending.win),
        repr(ending.p_one),
        repr(ending.p_two),
        json.dumps(exact),
    ]


def _endings(view: Any) -> list[tuple[Any, ...]]:
    """The ``value_ending`` calls ``decision.weigh_options`` makes at ``view`` (a knock, a
    hammer), as argument tuples; the position's scale is worked out first (``weigh_options``
    does so before)."""
    from scatlab.analysis.engine.position import EXPERT, Position, horizon_tables
    from scatlab.analysis.engine.scale import position_scale
    from scatlab.rules.actions import ActionKind

    p = Position.from_view(view)
    model = horizon_tables(p.knowledge.rules, EXPERT.horizon)
    scale = position_scale(p)
    strength = model.tables.strength_of(sorted(c.index for c in p.knowledge.hand))
    return [
        (p, EXPERT, model, strength, kind is ActionKind.KNOCK, None, scale)
        for kind in (ActionKind.HAMMER, ActionKind.KNOCK)
        if kind in p.kinds
    ]


def worker(games_file: Path, out_file: Path, profile: bool) -> None:
    """Time ``value_ending`` at every recorded position (see the module doc); write the seconds
    and the figures of each call as JSON."""
    from scatlab.analysis.engine.ending import value_ending
    from scatlab.rules.actions import ActionKind

    recorded = json.loads(games_file.read_text())
    for view in _warm_views():  # tables and filters built, on another game's positions
        for args in _endings(view):
            value_ending(*args)
    seconds: list[float] = []
    figures: list[list[str]] = []
    prof = None
    if profile:
        import cProfile

        prof = cProfile.Profile()
    clock = time.process_time
    again: list[float] = []
    for game in recorded:
        for view, made in _replayed(game):
            for args in _endings(view):
                chosen = made is (ActionKind.KNOCK if args[4] else ActionKind.HAMMER)
                if prof is not None:
                    prof.enable()
                start = clock()
                ending = value_ending(*args)
                if chosen:  # the engine's reason for the move reads the outcome's words
                    _ = ending.outcome.phrase
                seconds.append(clock() - start)
                if prof is not None:
                    prof.disable()
                figures.append(_figures(ending))
            for args in _endings(view):  # the same decision ranked again (a hint, the review): a new Position
                chosen = made is (ActionKind.KNOCK if args[4] else ActionKind.HAMMER)
                start = clock()
                ending = value_ending(*args)
                if chosen:
                    _ = ending.outcome.phrase
                again.append(clock() - start)
                figures.append(_figures(ending))
    out_file.write_text(json.dumps({"seconds": seconds, "again": again, "figures": figures}))
    if prof is not None:
        import pstats

        pstats.Stats(prof, stream=sys.stderr).sort_stats("tottime").print_stats(30)


def _warm_views() -> list[Any]:
    """The ``expert``'s first views in one warm-up game per set (another seed): playing it
    builds the tables and filters, and fills no cache the timed games read but the empty
    log's."""
    from scatlab.players import make_player
    from scatlab.players.tournament import play_out
    from scatlab.rules import find_rules

    views = []
    for rules, kinds in SETS:
        found: list[Any] = []

        def observe(_before: object, i: int, view: Any, _action: object, _after: object) -> None:
            if kinds[i] == "expert" and len(found) < 3 and view.legal_actions:
                found.append(view)

        play_out([make_player(k) for k in kinds], list(kinds), find_rules(rules), WARM_SEED, 0, observe)
        views.extend(found)
    return views


# -- the driver ------------------------------------------------------------------------------


def _run(tree: Path, args: list[str], stderr: Any = None) -> None:
    env = dict(os.environ, PYTHONPATH=str(tree), OPENBLAS_NUM_THREADS="1")
    subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), *args], env=env, check=True, cwd="/tmp", stderr=stderr
    )


def _quantile(xs: list[float], q: float) -> float:
    ordered = sorted(xs)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--against", type=Path, help="a checkout of another commit to compare with")
    parser.add_argument("--games", type=int, default=8, help="games of each set (default 8)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the interleaved runs (default 3)")
    parser.add_argument("--save", type=Path, help="write this tree's figures to this file")
    parser.add_argument("--reference", type=Path, help="compare this tree's figures with this file's")
    parser.add_argument("--profile", action="store_true", help="print a profile of this tree's timed calls")
    parser.add_argument("--worker", nargs=2, type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--record", nargs=1, type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker[0], args.worker[1], args.profile)
        return
    if args.record:
        args.record[0].write_text(json.dumps(_record(args.games, SEED)))
        return
    trees = [("this", REPO)] + ([("that", args.against.resolve())] if args.against else [])
    for _, tree in trees:
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", str(tree / "scatlab")], check=True, stdout=subprocess.DEVNULL
        )
    print(
        f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs; "
        f"load average {os.getloadavg()[0]:.2f}; trees: " + ", ".join(f"{n} = {p}" for n, p in trees)
    )
    with tempfile.TemporaryDirectory() as tmp:
        games_file = Path(tmp) / "games.json"
        _run(trees[-1][1], ["--record", str(games_file), "--games", str(args.games)])  # the reference tree's games
        seconds: dict[str, list[list[float]]] = {n: [] for n, _ in trees}
        again: dict[str, list[list[float]]] = {n: [] for n, _ in trees}
        figures: dict[str, list[list[str]]] = {}
        for r in range(args.rounds):
            for name, tree in trees:
                out = Path(tmp) / f"{name}-{r}.json"
                profile = args.profile and name == "this" and r == 0
                _run(tree, ["--worker", str(games_file), str(out)] + (["--profile"] if profile else []))
                data = json.loads(out.read_text())
                seconds[name].append(data["seconds"])
                again[name].append(data["again"])
                figures.setdefault(name, data["figures"])
    calls = len(seconds["this"][0])
    print(
        f"{args.games} games of each of "
        + ", ".join(f"{','.join(k)} ({r})" for r, k in SETS)
        + f", seed {SEED}: {calls} calls of ending.value_ending (CPU time), each then asked again; "
        f"median of {args.rounds} rounds"
    )
    for label, runs in (("first call", seconds), ("asked again", again)):
        per_call: dict[str, list[float]] = {}
        for name, _ in trees:
            per_call[name] = [statistics.median(xs) for xs in zip(*runs[name])]
            total = statistics.median(sum(run) for run in runs[name])
            print(
                f"{label}, {name}: per call median {statistics.median(per_call[name]) * 1e3:.2f} ms, "
                f"p95 {_quantile(per_call[name], 0.95) * 1e3:.2f} ms; whole set {total:.2f} s"
            )
        if len(trees) == 2:
            this, that = per_call["this"], per_call["that"]
            ratios = [b / a for a, b in zip(this, that)]
            whole = statistics.median(sum(r) for r in runs["that"]) / statistics.median(sum(r) for r in runs["this"])
            print(
                f"{label}, speed-up (that / this): median {statistics.median(that) / statistics.median(this):.2f}x, "
                f"p95 {_quantile(that, 0.95) / _quantile(this, 0.95):.2f}x, whole set {whole:.2f}x, "
                f"per call median of ratios {statistics.median(ratios):.2f}x"
            )
    if len(trees) == 2:
        _compare("that tree", figures["that"], figures["this"])
    if args.reference:
        _compare(str(args.reference), json.loads(args.reference.read_text()), figures["this"])
    if args.save:
        args.save.write_text(json.dumps(figures["this"]))
        print(f"this tree's figures written to {args.save}")


def _compare(name: str, reference: list[list[str]], figures: list[list[str]]) -> None:
    if len(reference) != len(figures):
        print(f"figures DIFFER from {name}: {len(figures)} calls against {len(reference)}")
        return
    differ = [i for i, (a, b) in enumerate(zip(reference, figures)) if a != b]
    if differ:
        i = differ[0]
        print(
            f"figures DIFFER from {name} at {len(differ)} of {len(figures)} calls; first, call {i}: "
            f"{figures[i]} against {reference[i]}"
        )
    else:
        print(f"figures identical to {name} ({len(figures)} calls, every figure bit for bit)")


if __name__ == "__main__":
    main()
