"""Play seeded games and record, after every turn of the measured seat, the state it kept
and what became of it: whether it lost a life (a letter, a bus step; under V16 whether it
scored) in that hand, and whether it went on to win the game. Every seat is told who sits
where (``announce``), as at the table, so the opponent model's odds are each opponent's
announced kind.

Run: ``python -m research.winchance.collect --rules classic --against tip,tip --games 600
--seed 11 --jobs 2 --out /tmp/classic-tip.npz``, or every setting of :data:`SETTINGS` for
each preset given: ``python -m research.winchance.collect --rules classic gin --all --games
800 --seed 11 --outdir /tmp/wc/it1`` (a file already there is kept).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import math
import time
from pathlib import Path
from typing import Any

import numpy as np

from scatlab.analysis.counting.knowledge import collected_suits, opponent_turns
from scatlab.analysis.counting.tables import tables_for
from scatlab.analysis.engine.position import horizon_tables
from scatlab.analysis.model.kinds import kind_odds_for
from scatlab.players.base import make_player
from scatlab.players.tournament import play_out
from scatlab.rules.actions import Action, ActionKind
from scatlab.rules.options import find_rules
from scatlab.rules.state import GameState
from scatlab.rules.view import PlayerView

SETTINGS = ("tip,tip", "expert,expert", "tip,expert", "tip", "expert", "tip,tip,tip", "expert,expert,expert")
"""The opponents of ``--all``: casual, strong and mixed, heads-up to four-handed."""
FIELDS = (
    "game",
    "hand",
    "final",
    "e5",
    "v",
    "t",
    "n",
    "strong",
    "feeds",
    "own_lives",
    "opp_lives",
    "lost",
    "scored",
    "won",
)
HAND_FIELDS = ("game", "hand", "seat0", "kinds", "before", "lost", "scored", "out")
"""Per hand: each seat's entrant kind (0 tip-like, 1 expert-like, -1 out), standing before, lives lost,
points won and out after, as strings of comma-separated numbers (seat order)."""


def strong_odds(view: PlayerView) -> float:
    """The mean of the opponents' chances of being the strong kind, as the model has learned them."""
    order = tuple(view.opponents)
    odds = kind_odds_for(view, order)
    if odds is None:
        return 0.5
    return float(sum(o[1] for o in odds) / len(odds))


def play_chunk(kinds: tuple[str, ...], rules_name: str, seed: int, games: list[int]) -> dict[str, list[float]]:
    rules = find_rules(rules_name)
    model = horizon_tables(rules)
    tables = tables_for(rules)
    players = [make_player(k) for k in kinds]
    out: dict[str, list[Any]] = {f: [] for f in FIELDS}
    hands: dict[str, list[Any]] = {f: [] for f in HAND_FIELDS}
    for game in games:
        pending: list[dict[str, float]] = []

        def observe(before: GameState, entrant: int, view: PlayerView, action: Action, after: GameState) -> None:
            if (
                entrant == 0
                and action.kind is ActionKind.DISCARD
                and len(after.results) == len(before.results)
                or (entrant == 0 and action.kind is ActionKind.DISCARD)
            ):
                kept = [c for c in view.hand if c != action.card]
                idx = sorted(c.index for c in kept)
                row = tables.row(idx)
                seat = view.player
                nxt = view.opponents[0] if view.opponents else None
                collects = collected_suits(view, nxt) if nxt is not None else set()
                turns = opponent_turns(view)
                alive = list(view.opponents)
                pending.append(
                    {
                        "game": game,
                        "hand": len(before.results),
                        "seat": seat,
                        "final": float(view.knocker is not None),
                        "e5": model.future[row] / model.scale,
                        "v": tables.value2[row] / 2,
                        "t": sum(turns) / len(turns),
                        "n": len(alive),
                        "strong": strong_odds(view),
                        "feeds": float(action.card is not None and action.card.suit in collects),
                        "own_lives": view.lives[seat],
                        "opp_lives": sum(view.lives[p] for p in alive) / len(alive),
                    }
                )

        state, entrant_at, _ = play_out(players, kinds, rules, seed, game, observe, announce=True)  # as at the table
        seat0 = entrant_at.index(0)
        winner = state.winner
        for rec in pending:
            result = state.results[int(rec["hand"])]
            rec["lost"] = result.lives_lost[seat0]
            rec["scored"] = result.points_won[seat0]
            rec["won"] = float(winner == seat0)
            for f in FIELDS:
                out[f].append(float(rec[f]))
        lives = [rules.lives] * len(entrant_at)
        points = [0] * len(entrant_at)
        out_now = [False] * len(entrant_at)
        for number, result in enumerate(state.results):
            before = points if rules.score_keeping == "points" else lives
            hands["game"].append(game)
            hands["hand"].append(number)
            hands["seat0"].append(seat0)
            hands["kinds"].append(
                ",".join(
                    "-1" if out_now[s] else str(int(kinds[entrant_at[s]] != "tip")) for s in range(len(entrant_at))
                )
            )
            hands["before"].append(",".join(str(x) for x in before))
            hands["lost"].append(",".join(str(x) for x in result.lives_lost))
            hands["scored"].append(",".join(str(x) for x in result.points_won))
            hands["out"].append(",".join(str(int(x)) for x in result.out_after))
            lives, points, out_now = list(result.lives_after), list(result.points_after), list(result.out_after)
    out.update({f"hand_{f}": hands[f] for f in HAND_FIELDS})
    return out


def collect(kinds: tuple[str, ...], rules: str, seed: int, games: int, jobs: int) -> dict[str, np.ndarray[Any, Any]]:
    size = max(1, min(25, math.ceil(games / (4 * jobs))))
    chunks = [list(range(s, min(s + size, games))) for s in range(0, games, size)]
    parts: list[dict[str, list[float]]] = []
    if jobs == 1:
        parts = [play_chunk(kinds, rules, seed, c) for c in chunks]
    else:
        with concurrent.futures.ProcessPoolExecutor(max_workers=jobs) as pool:
            parts = list(
                pool.map(play_chunk, [kinds] * len(chunks), [rules] * len(chunks), [seed] * len(chunks), chunks)
            )
    keys = list(FIELDS) + [f"hand_{f}" for f in HAND_FIELDS]
    return {f: np.array([x for p in parts for x in p[f]]) for f in keys}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--rules", nargs="+", default=["classic"])
    p.add_argument("--players", default="expert")
    p.add_argument("--against", default="tip,tip")
    p.add_argument("--all", action="store_true", help="every setting of SETTINGS, into --outdir")
    p.add_argument("--games", type=int, default=600)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--out", help="the file of one setting")
    p.add_argument("--outdir", help="the folder of --all")
    a = p.parse_args()
    runs: list[tuple[str, str, Path]] = []
    if a.all:
        if not a.outdir:
            p.error("--all needs --outdir")
        for rules in a.rules:
            for against in SETTINGS:
                runs.append((rules, against, Path(a.outdir) / f"{rules}-{against.replace(',', '_')}.npz"))
    else:
        if not a.out or len(a.rules) != 1:
            p.error("give --out and one --rules (or --all with --outdir)")
        runs.append((a.rules[0], a.against, Path(a.out)))
    for rules, against, out in runs:
        if a.all and out.exists():
            continue
        out.parent.mkdir(parents=True, exist_ok=True)
        kinds = (a.players, *against.split(","))
        start = time.perf_counter()
        data = collect(kinds, rules, a.seed, a.games, a.jobs)
        np.savez_compressed(out, allow_pickle=False, kinds=np.array(kinds), rules=np.array(rules), **data)
        print(
            f"{len(data['game'])} states from {a.games} games of {rules} {kinds} in "
            f"{time.perf_counter() - start:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
