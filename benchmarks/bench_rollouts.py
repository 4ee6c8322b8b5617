"""Benchmark the master's search: rollouts a second on one core, this tree against another.

The positions are the decisions of seeded expert games (classic rules, two and three
players) at which the master searches (at least two candidates), written as replayable
records (the deck and actions of every hand so far). Each tree under test replays them with
its own rules, ranks them with its own engine and runs its own
:func:`scatlab.players.master.search` at ``--budget`` rollouts each, seeded; the figure is
the rollouts played divided by the CPU seconds the searches took (sampling the deals,
playing them out and scoring their ends, all of it), twice in one process: *cold*, the
first time (every knock line and throw the play-outs meet worked out on the way, as in a
fresh kernel on a machine that never ran scatlab: each process gets an empty
``SCATLAB_CACHE``), and *warm*, the same searches again (as at a table, a few decisions in).
With ``--profile`` it also prints where the time went (cProfile, by function, this tree
only).

With ``--check N`` it instead plays N seeded play-outs a preset (two to five players, some
actions into a hand, random lives and suits taken) in both the play-out engine and the rules
engine and prints how many were the same: every action, the final hands, the end.

With ``--against PATH`` (a checkout of another commit, for example made with
``git worktree add /tmp/base 723d558``) every round runs this tree and that one in turn, each
in a fresh process with ``PYTHONPATH`` set to its tree, so a machine that slows down slows
both; it prints each round's figures and the median ratio. Benchmarks print, never assert.

Run: ``python benchmarks/bench_rollouts.py [--against PATH] [--positions 40] [--budget 400]
[--rounds 3] [--profile] [--check N]``
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
import time
from pathlib import Path
from typing import Any

from scatlab.cards import Suit

SUITS = tuple(Suit)
REPO = Path(__file__).resolve().parent.parent


def positions(count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` positions at which the master searches, from seeded expert games: each as
    its rules, players, first dealer, the decks and actions of the hands before and the
    actions of its own hand up to the decision."""
    from scatlab.analysis import rank
    from scatlab.players import make_player
    from scatlab.players.master import MasterPlayer
    from scatlab.players.tournament import play_out
    from scatlab.rules import GameState, Phase, find_rules

    master = MasterPlayer()
    found: list[dict[str, Any]] = []
    game = 0
    while len(found) < count:
        n = 2 + game % 2
        rules = find_rules("classic")
        final, _, _ = play_out([make_player("expert") for _ in range(n)], ["expert"] * n, rules, seed, game)
        game += 1
        state = GameState.new(rules, n, final.first_dealer)
        hands: list[dict[str, Any]] = []
        for deck, log in zip(final.decks, final.logs):
            state = state.deal(deck)
            actions: list[str] = []
            hands.append({"deck": [str(c) for c in deck], "actions": actions})
            for event in log:
                if state.phase in (Phase.TURN, Phase.DISCARD) and len(found) < count and len(actions) % 3 == 0:
                    assert state.to_move is not None
                    view = state.view(state.to_move)
                    if len(master.candidates_for(rank(view, master.style))) >= 2:
                        found.append(
                            {"players": n, "dealer": final.first_dealer, "hands": json.loads(json.dumps(hands))}
                        )
                state = state.apply(event.action)
                actions.append(str(event.action))
            if state.phase is not Phase.DEAL:
                break
    return found


def view_of(position: dict[str, Any]) -> Any:
    """The view of the seat to move at ``position`` (replayed by the rules of the tree imported)."""
    from scatlab.rules import GameState

    state = GameState.new("classic", position["players"], position["dealer"])
    for hand in position["hands"]:
        state = state.deal(hand["deck"])
        for action in hand["actions"]:
            state = state.apply(action)
    assert state.to_move is not None
    return state.view(state.to_move)


def measure(points: list[dict[str, Any]], budget: int, profile: bool = False) -> dict[str, Any]:
    """Search every position at ``budget`` rollouts; the rollouts played and the seconds taken."""
    from scatlab.analysis import rank
    from scatlab.players.master import MasterPlayer, search

    master = MasterPlayer()
    work = []
    for k, p in enumerate(points):
        view = view_of(p)
        work.append((view, master.candidates_for(rank(view, master.style)), k))
    search(work[0][0], work[0][1], 8, random.Random(0))  # the tables built before the clock starts
    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    figures = []
    for _ in range(2):  # cold (the first searches build the knock lines and throws they meet), then warm
        rollouts = 0
        start = time.process_time()
        for view, moves, k in work:
            rollouts += search(view, moves, budget, random.Random(k)).rollouts
        figures.append((rollouts, time.process_time() - start))
    if profiler is not None:
        import pstats

        profiler.disable()
        pstats.Stats(profiler, stream=sys.stderr).sort_stats("tottime").print_stats(25)
    (rollouts, cold), (_, warm) = figures
    return {"rollouts": rollouts, "seconds": warm, "per_second": rollouts / warm, "cold": rollouts / cold}


def check(per_preset: int, seed: int) -> None:
    """Replay ``per_preset`` seeded play-outs under every preset in the rules engine and print
    how many gave the same actions, final hands and end as the play-out engine (the large
    sample of ``tests/players/test_playout.py``'s differential test)."""
    from scatlab.players.master import RolloutPolicy, _play_out
    from scatlab.players.playout import Hand, action_code, play_out
    from scatlab.rules import GameState, Phase, find_rules
    from scatlab.rules.options import PRESETS
    from scatlab.rules.record import shuffled_deck

    odd = ("hammer", "throw_down", "stop_bus")
    for name in sorted(PRESETS):
        rules = find_rules(name)
        policy = RolloutPolicy.of(rules)
        rng = random.Random(f"check:{seed}:{name}")
        same = played = 0
        start = time.perf_counter()
        while played < per_preset:
            players = 2 + played % 4
            state = GameState.new(rules, players, rng.randrange(players)).deal(shuffled_deck(rules, rng))
            lives = [rng.choice((1, rules.lives)) for _ in range(players)]
            for _ in range(rng.randrange(16)):  # some actions in: the policy's, now and then another
                if state.phase not in (Phase.TURN, Phase.DISCARD, Phase.THROW_DOWN, Phase.DECLARE):
                    break
                legal = [a for a in state.legal_actions() if a.kind.value not in odd]
                mine = state.phase in (Phase.TURN, Phase.DISCARD) and rng.random() < 0.7
                state = state.apply(policy.choose(state, lives) if mine else rng.choice(legal))
            if not Hand.covers(state):
                continue
            bits = [rng.randrange(16) for _ in range(players)]
            suits = [frozenset(s for i, s in enumerate(SUITS) if b >> i & 1) for b in bits]
            expected: list[Any] = []
            end = _play_out(state, policy, lives, suits, expected).results[-1]
            got: list[tuple[int, int, int]] = []
            ending = play_out(Hand.of(state, bits), policy, lives, trace=got)
            finals = tuple(tuple(c.index for c in hand) for hand in end.final)
            knocker = -1 if end.knocker is None else end.knocker
            same += got == [(seat, *action_code(action)) for seat, action in expected] and tuple(ending) == (
                end.ended,
                knocker,
                end.declarers,
                finals,
            )
            played += 1
        took = time.perf_counter() - start
        print(f"{name:16} {same:,} of {played:,} play-outs the same in both engines ({took:.1f} s)", flush=True)


def run_tree(tree: Path, points_file: Path, budget: int) -> dict[str, Any]:
    """One measurement in a fresh process importing scatlab from ``tree``."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="bench-rollouts-") as cache:
        env = dict(os.environ, PYTHONPATH=str(tree), SCATLAB_CACHE=cache)
        argv = [sys.executable, __file__, "--worker", str(points_file), "--budget", str(budget)]
        done = subprocess.run(argv, env=env, stdout=subprocess.PIPE, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"the worker on {tree} failed (exit status {done.returncode})")
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if Path(out["scatlab"]).resolve() != (tree / "scatlab").resolve():
        sys.exit(f"the worker imported scatlab from {out['scatlab']}, not from {tree}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", type=Path, help="a checkout of another commit to compare with")
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--budget", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2031)
    parser.add_argument("--profile", action="store_true", help="print where this tree's time went")
    parser.add_argument("--check", type=int, metavar="N", help="compare N play-outs a preset with the rules engine")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.check:
        sys.path.insert(0, str(REPO))
        check(args.check, args.seed)
        return
    if args.worker is not None:
        import scatlab

        out = measure(json.loads(args.worker.read_text()), args.budget)
        print(json.dumps(dict(out, scatlab=str(Path(scatlab.__file__).parent))))
        return
    sys.path.insert(0, str(REPO))
    points = positions(args.positions, args.seed)
    if args.profile:
        out = measure(points, args.budget, profile=True)
        print(f"this tree: {out['rollouts']:,} rollouts in {out['seconds']:.2f} s: {out['per_second']:,.0f} a second")
        return
    import tempfile

    print(f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores")
    print(f"{len(points)} positions (seed {args.seed}), {args.budget} rollouts each, one core, CPU seconds")
    trees = [REPO] + ([args.against.resolve()] if args.against else [])
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(points, f)
    figures: dict[Path, list[float]] = {t: [] for t in trees}
    colds: dict[Path, list[float]] = {t: [] for t in trees}
    for r in range(args.rounds):
        line = [f"round {r + 1}:"]
        for tree in trees:
            out = run_tree(tree, Path(f.name), args.budget)
            figures[tree].append(out["per_second"])
            colds[tree].append(out["cold"])
            line.append(
                f"{tree.name}: {out['per_second']:,.0f} rollouts/s warm, {out['cold']:,.0f} cold "
                f"({out['rollouts']:,} in {out['seconds']:.1f} s warm)"
            )
        print("  ".join(line), flush=True)
    os.unlink(f.name)
    print()
    for tree in trees:
        print(
            f"{tree}: median {statistics.median(figures[tree]):,.0f} rollouts a second warm, "
            f"{statistics.median(colds[tree]):,.0f} cold"
        )
    if args.against:
        for name, table in (("warm", figures), ("cold", colds)):
            ratio = statistics.median(table[REPO]) / statistics.median(table[trees[1]])
            print(f"this / that, {name}: {ratio:.1f}x")


if __name__ == "__main__":
    main()
