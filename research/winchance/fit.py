"""Fit the chance-of-winning models (:mod:`scatlab.analysis.model.winning`) on the states
``collect.py`` recorded, and write their numbers to ``scatlab/analysis/model/winning.json``.

For each family of rules (a preset) and number of opponents still in (1, 2, 3 standing
for 3 or more), from every recorded file of that family:

- ``play_on``: per bucket of turns played (:data:`T_BUCKETS`), a logistic regression
  (Newton's method, a small ridge, the coefficients of the hand's terms held to one sign so
  that a better hand never loses more often) of "this hand cost the measured seat a life"
  on :data:`PLAY_ON_FEATURES` of the hand it kept after each turn of play (not a last turn);
- ``sweep``: the same terms, "this hand cost every other player a life and the measured
  seat none" (its 31; under V14 its knock that stands), with two or more opponents;
- ``last_turn``: the same on :data:`LAST_TURN_FEATURES` after each last turn;
- ``rho``, ``double``, ``casual_loses``, ``casual_wins``: the game model's numbers, counted
  on the hands (maximum likelihood of the kinds' weights, on a grid).

Games whose number is divisible by 3 are held out: the script prints the log loss on them
and the calibration of the held-out chances by bins, beside the fitted numbers. With
``--all-games`` every game is fitted (the numbers written for use).

Run: ``python -m research.winchance.fit /tmp/wc/it1/*.npz [--all-games] [--write]``
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from scatlab.analysis.model.winning import (
    E_KNOTS,
    MODEL_FILE,
    T_BUCKETS,
    V_KNOTS,
    bucket,
    last_turn_features,
    play_on_features,
)

OUT = Path(__file__).resolve().parents[2] / "scatlab" / "analysis" / "model" / MODEL_FILE
Arr = np.ndarray[Any, Any]


def signs(sign: float) -> Arr:
    """Per term of :data:`PLAY_ON_FEATURES`: the sign its coefficient must have (0: free),
    for a chance that never rises (``sign`` -1: losing) or never falls (+1: sweeping) with a
    better hand."""
    return np.array([0.0, *([sign] * len(E_KNOTS)), *([sign] * len(V_KNOTS)), 0.0, 0.0])


def last_signs() -> Arr:
    return np.array([0.0, *([-1.0] * len(V_KNOTS)), 0.0])


def _box_solve(g: Arr, r: Arr, sign: Arr, start: Arr, sweeps: int = 300) -> Arr:
    """The minimum of ``b @ g @ b / 2 - r @ b`` with every coefficient of the sign ``sign``
    asks for (0: any), by cyclic coordinate descent (``g`` positive definite)."""
    b = start.copy()
    diag = np.diag(g)
    for _ in range(sweeps):
        biggest = 0.0
        for j in range(len(b)):
            new = b[j] + (r[j] - g[j] @ b) / diag[j]
            if sign[j] != 0 and new * sign[j] < 0:
                new = 0.0
            biggest = max(biggest, abs(new - b[j]))
            b[j] = new
        if biggest < 1e-10:
            break
    return b


def irls(x: Arr, y: Arr, sign: Arr | None = None, ridge: float = 2.0, iters: int = 100) -> Arr:
    """Logistic regression coefficients by iteratively reweighted least squares with a small
    ridge on all but the constant, every coefficient of the sign ``sign`` asks for (0: any):
    each weighted least-squares step is solved within those signs (:func:`_box_solve`), and
    halved until the penalised likelihood rises."""
    k = x.shape[1]
    sign = np.zeros(k) if sign is None else sign
    pen = ridge * np.eye(k)
    pen[0, 0] = 1e-6

    def objective(b: Arr) -> float:
        eta = x @ b
        return float(np.sum(y * eta - np.logaddexp(0.0, eta)) - 0.5 * b @ pen @ b)

    b = np.zeros(k)
    best = objective(b)
    for _ in range(iters):
        eta = x @ b
        p = 1.0 / (1.0 + np.exp(-eta))
        w = np.maximum(p * (1 - p), 1e-9)
        z = eta + (y - p) / w
        g = x.T @ (x * w[:, None]) + pen
        r = x.T @ (w * z)
        target = _box_solve(g, r, sign, b)
        step = target - b
        for _ in range(30):  # the new point stays within the signs: the box is convex
            value = objective(b + step)
            if value >= best - 1e-12:
                break
            step = step / 2
        moved = float(np.abs(step).max())
        b = b + step
        best = max(best, objective(b))
        if moved < 1e-7:
            break
    return b


def log_loss(x: Arr, y: Arr, b: Arr) -> float:
    p = np.clip(1.0 / (1.0 + np.exp(-(x @ b))), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def calibration(p: Arr, y: Arr) -> str:
    edges = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.01]
    parts = []
    for lo, hi in zip(edges, edges[1:]):
        k = (p >= lo) & (p < hi)
        if k.sum() >= 200:
            parts.append(f"{lo:.1f}: {100 * (y[k].mean() - p[k].mean()):+.1f} ({k.sum()})")
    return "; ".join(parts)


def load(paths: list[str]) -> dict[str, dict[str, Arr]]:
    """The recorded files by family, the games of each file numbered apart."""
    by_family: dict[str, list[dict[str, Arr]]] = defaultdict(list)
    for i, path in enumerate(paths):
        with np.load(path) as d:
            data = {k: d[k] for k in d.files}
        data["game"] = data["game"] + 1_000_000 * i
        data["hand_game"] = data["hand_game"] + 1_000_000 * i
        by_family[str(data["rules"])].append(data)
    out = {}
    for family, parts in by_family.items():
        keys = [k for k in parts[0] if k not in ("kinds", "rules")]
        out[family] = {k: np.concatenate([p[k] for p in parts]) for k in keys}
    return out


def sweeps(d: dict[str, Arr]) -> Arr:
    """Per recorded state: 1 when its hand cost every other player still in a life and the
    measured seat none."""
    by_hand: dict[tuple[int, int], float] = {}
    for game, hand, seat0, kinds_s, lost_s in zip(
        d["hand_game"], d["hand_hand"], d["hand_seat0"], d["hand_kinds"], d["hand_lost"]
    ):
        kinds = [int(x) for x in str(kinds_s).split(",")]
        lost = [int(x) for x in str(lost_s).split(",")]
        others = [s for s, k in enumerate(kinds) if k >= 0 and s != int(seat0)]
        by_hand[(int(game), int(hand))] = float(
            lost[int(seat0)] == 0 and bool(others) and all(lost[s] > 0 for s in others)
        )
    return np.array([by_hand.get((int(g), int(h)), 0.0) for g, h in zip(d["game"], d["hand"])])


def fit_hands(d: dict[str, Arr], opponents: int, points: bool) -> dict[str, float]:
    """The game model's numbers from the hands with ``opponents`` + 1 players in (3: 3 or more)."""
    singles: list[tuple[list[int], int, int]] = []  # (kinds in, loser's place, lives)
    alls: list[tuple[list[int], int]] = []  # (kinds in, the one who lost nothing)
    scores: list[tuple[list[int], int]] = []
    other = 0
    for kinds_s, lost_s, scored_s in zip(d["hand_kinds"], d["hand_lost"], d["hand_scored"]):
        kinds = [int(x) for x in str(kinds_s).split(",")]
        seats = [s for s, k in enumerate(kinds) if k >= 0]
        if min(len(seats) - 1, 3) != opponents:
            continue
        k_in = [kinds[s] for s in seats]
        lost = [int(x) for x in str(lost_s).split(",")]
        scored = [int(x) for x in str(scored_s).split(",")]
        if points:
            who = [i for i, s in enumerate(seats) if scored[s] > 0]
            if len(who) == 1:
                scores.append((k_in, who[0]))
            else:
                other += 1
            continue
        losers = [i for i, s in enumerate(seats) if lost[s] > 0]
        if len(losers) == 1:
            singles.append((k_in, losers[0], lost[seats[losers[0]]]))
        elif len(seats) >= 3 and len(losers) == len(seats) - 1 and all(lost[seats[i]] == 1 for i in losers):
            alls.append((k_in, next(i for i in range(len(seats)) if i not in losers)))
        else:
            other += 1

    def ratio(events: list[tuple[list[int], int]]) -> float:
        if not events or all(all(k == e[0][0] for k in e[0]) for e in events):
            return 1.0
        grid = np.exp(np.linspace(math.log(0.1), math.log(20.0), 801))
        best, best_ll = 1.0, -math.inf
        for r in grid:
            ll = 0.0
            for k_in, who in events:
                w = [1.0 if k == 1 else r for k in k_in]
                ll += math.log(w[who] / sum(w))
            if ll > best_ll:
                best, best_ll = float(r), ll
        return best

    if points:
        return {
            "rho": 0.0,
            "double": 0.0,
            "casual_loses": 1.0,
            "casual_wins": ratio(scores),
            "hands": len(scores),
            "other": other,
        }
    total = len(singles) + len(alls)
    return {
        "rho": len(alls) / total if total and opponents > 1 else 0.0,
        "double": sum(x[2] >= 2 for x in singles) / max(1, len(singles)),
        "casual_loses": ratio([(k, i) for k, i, _ in singles]),
        "casual_wins": ratio(alls) if opponents > 1 else 1.0,
        "hands": total,
        "other": other,
    }


def fit_family(family: str, d: dict[str, Arr], holdout: bool = True, quiet: bool = False) -> dict[str, Any]:
    """The models of one family (``{"classic/2": {...}, ...}``) fitted on its states ``d``;
    with ``holdout`` on the games not divisible by 3, printing (unless ``quiet``) the held-out
    figures."""

    def say(*parts: object) -> None:
        if not quiet:
            print(*parts)

    models: dict[str, Any] = {}
    points = family == "french-canadian"
    target = (d["scored"] < 1) if points else (d["lost"] >= 1)
    swept = sweeps(d)
    n = np.minimum(d["n"], 3)
    held = (d["game"] % 3 == 0) if holdout else np.zeros(len(d["game"]), dtype=bool)
    buckets = np.array([bucket(float(t)) for t in d["t"]])
    x_on = play_on_features(d["e5"], d["v"], d["strong"], d["feeds"])
    x_last = last_turn_features(d["v"], d["strong"])
    y = target.astype(float)
    # a hand kept at 31 is declared at once (C8): the engine values it as a sweep itself
    declared = d["v"] >= 31
    for opponents in (1, 2, 3):
        on_all = (n == opponents) & (d["final"] == 0) & ~declared
        last_all = (n == opponents) & (d["final"] == 1) & ~declared
        if on_all.sum() < 2000:
            continue
        key = f"{family}/{opponents}"
        b_on, b_sweep, b_last = [], [], []
        p_on, p_sw, p_last = np.zeros(len(y)), np.zeros(len(y)), np.zeros(len(y))
        for k in range(len(T_BUCKETS)):
            on = on_all & (buckets == k)
            last = last_all & (buckets == k)
            coef = irls(x_on[on & ~held], y[on & ~held], signs(-1.0))
            b_on.append(coef)
            p_on[on] = 1 / (1 + np.exp(-(x_on[on] @ coef)))
            if opponents > 1 and not points:
                coef = irls(x_on[on & ~held], swept[on & ~held], signs(1.0))
                b_sweep.append(coef)
                p_sw[on] = 1 / (1 + np.exp(-(x_on[on] @ coef)))
            coef = irls(x_last[last & ~held], y[last & ~held], last_signs())
            b_last.append(coef)
            p_last[last] = 1 / (1 + np.exp(-(x_last[last] @ coef)))
        hands = fit_hands(d, opponents, points)
        say(f"\n== {key}: {on_all.sum():,} states of play, {last_all.sum():,} last turns, {hands['hands']:,} hands")
        if holdout:
            held_on = on_all & held
            base = y[on_all & ~held].mean()
            const = float(-np.mean(y[held_on] * np.log(base) + (1 - y[held_on]) * np.log(1 - base)))
            pp = np.clip(p_on[held_on], 1e-9, 1 - 1e-9)
            loss = float(-np.mean(y[held_on] * np.log(pp) + (1 - y[held_on]) * np.log(1 - pp)))
            say(f"play on: held-out log loss {loss:.4f} (constant {const:.4f})")
            say("  calibration (held out, observed - predicted, points):", calibration(p_on[held_on], y[held_on]))
            if b_sweep:
                say(
                    f"  sweep: rate {swept[on_all].mean():.3f}; "
                    f"calibration {calibration(p_sw[held_on], swept[held_on])}"
                )
            say("  last turn calibration:", calibration(p_last[last_all & held], y[last_all & held]))
        say("  hands:", {k: round(v, 4) if isinstance(v, float) else v for k, v in hands.items()})
        models[key] = {
            "play_on": [[round(float(c), 5) for c in row] for row in b_on],
            "sweep": [[round(float(c), 5) for c in row] for row in b_sweep],
            "last_turn": [[round(float(c), 5) for c in row] for row in b_last],
            "rho": round(hands["rho"], 5),
            "double": round(hands["double"], 5),
            "casual_loses": round(hands["casual_loses"], 4),
            "casual_wins": round(hands["casual_wins"], 4),
            "states": int(on_all.sum()),
            "last_turns": int(last_all.sum()),
            "hands": int(hands["hands"]),
        }
    return models


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("files", nargs="+")
    parser.add_argument("--write", action="store_true", help=f"write {OUT}")
    parser.add_argument(
        "--all-games", action="store_true", help="fit on every game (no held-out figures): the models written for use"
    )
    args = parser.parse_args()
    data = load(args.files)
    models: dict[str, Any] = {}
    if OUT.exists():
        models = json.loads(OUT.read_text())["models"]
    for family, d in sorted(data.items()):
        models.update(fit_family(family, d, holdout=not args.all_games))
    if args.write:
        OUT.write_text(
            json.dumps(
                {
                    "about": "Measured by research/winchance (collect.py, then fit.py); see "
                    "scatlab/analysis/model/winning.py.",
                    "models": dict(sorted(models.items())),
                },
                indent=1,
            )
            + "\n"
        )
        print(f"\nwrote {OUT}")


if __name__ == "__main__":
    main()
