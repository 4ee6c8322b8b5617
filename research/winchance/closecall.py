"""How far apart must two moves' chances of winning be before the estimates can tell them apart?

The engine calls two moves whose chances of winning the game are within
:data:`scatlab.analysis.engine.scale.CLOSE_CALL` a close call. This study measures the
estimate's own error on the difference between the best move and the next: it refits the
hand model of ``--rules`` on the recorded states (``collect.py``) resampled by game
(``--boot`` times, a bootstrap), and at every decision of the expert in seeded games
(``--games`` games against two tip players, and as many against two experts) it prints
the spread (standard deviation over the refits) of that difference: its median and 90th
percentile, and the share of decisions whose difference is within the width now.

Run: ``python -m research.winchance.closecall /tmp/wc/it1/classic-*.npz --rules classic --boot 8 --games 20``
"""

from __future__ import annotations

import argparse
import statistics
from typing import Any

import numpy as np

from research.winchance import fit
from scatlab.analysis.engine import ranking, scale
from scatlab.analysis.model import observations, weights, winning
from scatlab.players.base import make_player
from scatlab.players.tournament import play_out
from scatlab.rules.options import find_rules
from scatlab.rules.state import Phase
from scatlab.rules.view import PlayerView

Arr = np.ndarray[Any, Any]


def resample(d: dict[str, Arr], rng: np.random.Generator) -> dict[str, Arr]:
    """The recorded states and hands of a bootstrap sample of the games (by game)."""
    games = np.unique(d["game"])
    chosen = rng.choice(games, size=len(games), replace=True)
    counts = {int(g): int(c) for g, c in zip(*np.unique(chosen, return_counts=True))}
    out: dict[str, Arr] = {}
    state_rep = np.array([counts.get(int(g), 0) for g in d["game"]])
    hand_rep = np.array([counts.get(int(g), 0) for g in d["hand_game"]])
    for k, v in d.items():
        if not isinstance(v, np.ndarray) or v.ndim == 0:
            out[k] = v
        elif k.startswith("hand_"):
            out[k] = np.repeat(v, hand_rep)
        else:
            out[k] = np.repeat(v, state_rep)
    return out


def positions(rules: str, games: int) -> list[PlayerView]:
    """Every decision with two moves or more of the first seat (an expert) in seeded games
    against two tip players and against two experts."""
    views: list[PlayerView] = []
    for kinds in (("expert", "tip", "tip"), ("expert", "expert", "expert")):
        players = [make_player(k) for k in kinds]

        def observe(_b: object, i: int, view: PlayerView, _a: object, _af: object) -> None:
            if i == 0 and len(view.legal_actions) >= 2 and view.phase not in (Phase.THROW_DOWN, Phase.DECLARE):
                views.append(view)

        for g in range(games):
            play_out(players, list(kinds), find_rules(rules), 77, g, observe)
    return views


def gaps(views: list[PlayerView]) -> list[float]:
    """Per view: the chance of winning of the engine's best move less the next one's."""
    out = []
    for v in views:
        r = ranking.rank(v)
        out.append(float(r.moves[0].win - r.moves[1].win))
    return out


def clear() -> None:
    """Forget every figure worked out with the hand model's numbers (they change per refit)."""
    for cached in (
        winning._hand_model,
        winning._row_logits,
        winning._loss_by_row,
        winning.last_turn_by_value,
        winning.draw_level_by_row,
        scale.scale_for,
        ranking._rank,
    ):
        cached.cache_clear()
    for table in (observations._RULE_CACHE, weights._WEIGHTS_CACHE, weights._DIST_CACHE):
        table.clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("files", nargs="+")
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--boot", type=int, default=8)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    data = fit.load(args.files)[args.rules]
    views = positions(args.rules, args.games)
    base = gaps(views)
    original = winning._fits()
    rng = np.random.default_rng(args.seed)
    runs: list[list[float]] = []
    fits = winning._fits
    try:
        for b in range(args.boot):
            sample = resample(data, rng)
            models = dict(original["models"])
            models.update(fit.fit_family(args.rules, sample, holdout=False, quiet=True))
            refitted = {**original, "models": models}
            winning._fits = lambda: refitted  # type: ignore[assignment]  # the package file is never written
            clear()
            runs.append(gaps(views))
            print(f"refit {b + 1} of {args.boot}", flush=True)
    finally:
        winning._fits = fits
        clear()
    spread = np.std(np.array(runs), axis=0, ddof=1)
    width = float(scale.CLOSE_CALL)
    print(f"\n{args.rules}: {len(views):,} decisions of seeded games, {args.boot} refits on games resampled")
    print(
        f"spread of (best - next) over the refits: median {100 * statistics.median(spread):.2f} points, "
        f"90th percentile {100 * float(np.percentile(spread, 90)):.2f}, largest {100 * float(spread.max()):.2f}"
    )
    print(
        f"decisions whose best and next are within the close-call width ({100 * width:.1f} points): "
        f"{100 * float(np.mean(np.array(base) < width)):.1f}%"
    )
    print(f"decisions whose gap is within two spreads: {100 * float(np.mean(np.array(base) < 2 * spread)):.1f}%")


if __name__ == "__main__":
    main()
