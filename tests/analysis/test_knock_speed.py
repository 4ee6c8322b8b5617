"""The knock figure's fast paths give the numbers of their plain versions, bit for bit.

The engine values a knock at every decision where one is legal (``ending.value_ending``), so
its hot path was made faster (``benchmarks/bench_knock.py``). Each fast function is compared
here with a straightforward reference kept in this file (the code as it was before the
speed-up), on every ``expert`` decision with a knock legal in seeded games (classic with
two and three players, gin): the last-turn distributions, the sparse product, the filter's
draw step, the outcome's lowest / highest chances, the heads-up exact count, the game
model's memo. The last test pins the knock's figures on those positions to stored values
(to 12 significant digits), so no later change alters them unnoticed.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from scatlab.analysis.counting.tables import BLITZ2, RANK_BITS, scoring_rules, tables_for
from scatlab.analysis.counting.vectorized import Layout, draw_step, sparse_dot
from scatlab.analysis.engine import ending, position, scale
from scatlab.analysis.model import knock as knock_mod
from scatlab.analysis.model.hand_filter import LogFilter
from scatlab.analysis.model.last_turn import (
    _NO_DRAW,
    _after_by_card,
    _last_turn,
    _stays,
    _take_strength,
    last_turn_of,
    value_after_last_turn,
)
from scatlab.analysis.model.throws import deck_layout, deck_places, rows_holding, thrown_by_place
from scatlab.analysis.model.valuation import _lowest_highest
from scatlab.analysis.model.weights import (
    _final_value_distribution,
    _row_weights,
    final_value_distribution,
    hand_weights,
    row_weights,
)
from scatlab.players import make_player
from scatlab.players.tournament import play_out
from scatlab.rules import find_rules
from scatlab.rules.actions import ActionKind
from scatlab.rules.view import PlayerView

FloatArray = npt.NDArray[np.float64]
SETS = (("classic", ("greedy", "tip", "tip")), ("classic", ("greedy", "tip")), ("gin", ("greedy", "tip", "tip")))
"""Seeded games whose first seat's decisions with a knock legal are the positions: players
that do not read the engine, so the positions stay the same when the engine's models are
measured again."""


@lru_cache(maxsize=1)
def positions() -> tuple[position.Position, ...]:
    """Every decision of the first seat with a knock legal in one seeded game of each set."""
    out: list[position.Position] = []
    for rules, kinds in SETS:
        views: list[PlayerView] = []

        def observe(_before: object, i: int, view: PlayerView, _action: object, _after: object) -> None:
            if i == 0 and any(a.kind is ActionKind.KNOCK for a in view.legal_actions):
                views.append(view)

        play_out([make_player(k) for k in kinds], list(kinds), find_rules(rules), 5, 0, observe)
        out.extend(position.Position.from_view(v) for v in views)
    return tuple(out)


# -- the references: the plain code --------------------------------------------------------


def ref_sparse_dot(w: FloatArray, rows: Any, counts: Any, values: Any, starts: Any, size: int) -> FloatArray:
    out = np.zeros(size)
    out[values] = np.add.reduceat(w[rows] * counts.astype(np.uint8), starts)
    return out


def ref_value_after_last_turn(
    rules: Any, w: FloatArray, top: Any, seen: tuple[int, ...] = (), top_unseen: bool = False
) -> FloatArray:
    """value_after_last_turn over every row, one bincount per seen card."""
    tables = tables_for(rules)
    scoring = scoring_rules(rules)
    last = _last_turn(scoring)
    n: Any = float(tables.deck_size - 3)
    after_t = None
    if seen:
        after_t = _after_by_card(scoring)[np.asarray(seen)]
        seen_mask = 0
        for c in seen:
            seen_mask |= 1 << c
        held = np.bitwise_count(tables.cards_mask & np.int64(seen_mask)).astype(np.float64)
        n = tables.deck_size - 3 - len(seen) + held
    stay = None
    if top_unseen:
        left = _stays(scoring).astype(np.float64)
        if after_t is not None:
            left = left - (after_t == tables.value2[None, :]).sum(axis=0)
        q = 1.0 - left / n
        stay = w * (1.0 - q)
        draw_w = w * (2.0 - q)
        takes = None
    elif top is not None:
        take = _take_strength(scoring, top.index)
        takes = take > tables.strength
        draw_w = np.where(takes, 0.0, w)
    else:
        takes = None
        draw_w = w
    per_card = draw_w / n
    dist = ref_sparse_dot(per_card, last.rows, last.counts, last.values, last.starts, 67)
    if after_t is not None:
        for values in after_t:
            dist = dist - np.bincount(values, weights=per_card, minlength=_NO_DRAW + 1)[:67]
    if stay is not None:
        dist = dist - np.bincount(tables.value2, weights=stay, minlength=67)[:67]
    dist = np.maximum(dist, 0.0)
    if takes is not None:
        dist = (
            dist
            + np.bincount(np.where(takes, take >> RANK_BITS, 0), weights=np.where(takes, w, 0.0), minlength=67)[:67]
        )
    return np.asarray(dist, dtype=np.float64)


def ref_draw_step(
    w: FloatArray, factor: FloatArray, x: int, place: int, layout: Layout, thrown: Any, keep: float, slip: float
) -> FloatArray:
    v = w * factor
    rows_x, pairs_x = layout.holding(place)
    n = len(layout.cards)
    by_pair = np.zeros(n * n)
    by_pair[pairs_x] = v[rows_x]
    ab, ac, bc = layout.pairs()
    out = np.where(thrown == x, keep, slip) * (by_pair[bc] + by_pair[ac] + by_pair[ab] + v)
    out[rows_x] = 0.0
    return np.asarray(out, dtype=np.float64)


def ref_lowest_highest(dists: Sequence[FloatArray], p31: list[float], k: int) -> tuple[list[float], list[float]]:
    """The double loop of KnockValuation.outcome as it was."""
    n = len(dists)
    below = [np.cumsum(d) for d in dists]
    low, high = [], []
    for i in range(n):
        d = dists[i]
        lo_i = hi_i = 0.0
        for v in (int(x) for x in np.flatnonzero(d[:BLITZ2])):
            others_above = math.prod(max(0.0, 1.0 - float(below[j][v]) - float(p31[j])) for j in range(n) if j != i)
            others_below = math.prod(float(below[j][v - 1]) if v > 0 else 0.0 for j in range(n) if j != i)
            if v < k:
                lo_i += float(d[v]) * others_above
            if v >= k:
                hi_i += float(d[v]) * others_below
        low.append(lo_i)
        high.append(hi_i)
    return low, high


def same(a: FloatArray, b: FloatArray) -> bool:
    """Equal bit for bit (the same floats, in the same places)."""
    return a.shape == b.shape and bool((a == b).all())


# -- the comparisons -----------------------------------------------------------------------


def test_last_turn_distributions_are_the_plain_code_bit_for_bit() -> None:
    checked = 0
    for p in positions():
        k = p.knowledge
        obs = p.observed()
        pile = tuple(c.index for c in k.dead) + ((k.top.index,) if k.top is not None else ())
        for i in range(k.opponents):
            w = row_weights(k, obs, i)
            w = w / w.sum()
            top = k.top if i == 0 else None
            assert same(
                value_after_last_turn(k.rules, w, top, pile, i > 0),
                ref_value_after_last_turn(k.rules, w, top, pile, i > 0),
            )
            assert same(
                last_turn_of(k.rules, w, i, k.dead, k.top), ref_value_after_last_turn(k.rules, w, top, pile, i > 0)
            )
            checked += 1
    # weights that are not the knocker's picture (a pile card may be in a pictured hand), an empty pile
    rules = find_rules("classic")
    rng = np.random.default_rng(3)
    m = len(tables_for(rules).rows)
    for _ in range(4):
        w = rng.random(m) * (rng.random(m) < 0.5)
        w /= w.sum()
        seen = tuple(int(c) for c in rng.choice(52, 9, replace=False))
        for top_unseen in (False, True):
            assert same(
                value_after_last_turn(rules, w, None, seen, top_unseen),
                ref_value_after_last_turn(rules, w, None, seen, top_unseen),
            )
        assert same(value_after_last_turn(rules, w, None), ref_value_after_last_turn(rules, w, None))
    assert checked > 20


def test_sparse_product_is_the_plain_code_bit_for_bit() -> None:
    rules = find_rules("classic")
    last = _last_turn(scoring_rules(rules))
    rng = np.random.default_rng(5)
    for _ in range(5):
        w = rng.random(len(tables_for(rules).rows)) * (rng.random(len(tables_for(rules).rows)) < 0.4)
        assert same(
            sparse_dot(w, last.rows, last.counts, last.values, last.starts, 67),
            ref_sparse_dot(w, last.rows, last.counts, last.values, last.starts, 67),
        )


def test_filter_draw_step_is_the_plain_code_bit_for_bit() -> None:
    scoring = scoring_rules(find_rules("classic"))
    layout = deck_layout(scoring)
    filt = LogFilter.of(find_rules("classic"))
    rng = np.random.default_rng(7)
    for x in (0, 12, 25, 38, 51):
        place = int(deck_places(scoring)[x])
        for key in filt._throw_keys:
            thrown = thrown_by_place(scoring, key, 0, place)
            w = rng.random(filt.m)
            factor = rng.random(filt.m)
            factor[rows_holding(scoring, (x + 7) % 52).rows] = 0.0
            assert same(
                draw_step(w, factor, x, place, layout, thrown, 0.98 / 48, 0.02 / 3 / 48),
                ref_draw_step(w, factor, x, place, layout, thrown, 0.98 / 48, 0.02 / 3 / 48),
            )


def test_filter_weights_follow_the_plain_step() -> None:
    """The filter's kinds' weights after every log of the positions, recomputed with the
    steps' factors worked out as before (1 - knock chance, 1 - take chance, in turn)."""
    for p in positions()[:12]:
        obs = p.observed()
        assert obs.log is not None
        filt = LogFilter.of(p.knowledge.rules, heads_up=len(obs.turns) == 1, two_players=obs.players == 2)
        for log in obs.log:
            for k, kind in enumerate(filt.kinds):
                w = np.where(filt.blitz, 0.0, 1.0)
                w = w / w.sum()
                for n, turn in enumerate(log):
                    knocks = filt.knocks[k]
                    if turn.may_knock and turn.action != "knock" and turn.card is not None and turn.action == "draw":
                        knock = knocks[min(n, len(knocks) - 1)]
                        helps = filt.take_mask(k, turn.last)[turn.card.index]
                        factor = (1.0 - knock) * (
                            1.0 - np.where(helps, kind.slip + (1.0 - 2.0 * kind.slip) * kind.take, kind.slip)
                        )
                        factor[rows_holding(filt.scoring, turn.card.index).rows] = 0.0
                        key, mask = filt._throw_key(k, turn.last, turn.next_took)
                        if key[0] == "now":
                            out = filt.step(k, w, turn, n)
                        else:
                            x = turn.thrown.index if turn.thrown is not None else -1
                            place = int(deck_places(filt.scoring)[x])
                            others = filt.deck_size - 4
                            out = ref_draw_step(
                                w,
                                factor,
                                x,
                                place,
                                deck_layout(filt.scoring),
                                thrown_by_place(filt.scoring, key, mask, place),
                                (1.0 - kind.slip) / others,
                                kind.slip / 3.0 / others,
                            )
                            out[rows_holding(filt.scoring, turn.card.index).rows] = 0.0
                            assert same(filt.step(k, w, turn, n), out)
                    else:
                        out = filt.step(k, w, turn, n)
                    out[filt.blitz] = 0.0
                    total = float(out.sum())
                    w = out / total if total > 0 else out


def test_outcome_lowest_and_highest_are_the_plain_double_loop_bit_for_bit() -> None:
    dists_seen = []
    for p in positions():
        known = p.knowledge
        obs = p.observed()
        dists_seen.append([final_value_distribution(known, obs, i, True) for i in range(known.opponents)])
    rng = np.random.default_rng(11)
    for n in (1, 2, 3, 4):
        for _ in range(3):
            ds = [rng.random(67) * (rng.random(67) < 0.6) for _ in range(n)]
            dists_seen.append([d / d.sum() for d in ds])
    for dists in dists_seen:
        p31 = [float(d[BLITZ2:].sum()) for d in dists]
        for v2 in (0, 20, 41, 52, 61, 62, 66):
            assert _lowest_highest(dists, p31, v2) == ref_lowest_highest(dists, p31, v2)


def test_heads_up_exact_count_by_rows_is_the_count_by_hands() -> None:
    checked = 0
    for p in positions():
        k = p.knowledge
        if k.opponents != 1:
            continue
        tables = tables_for(k.rules)
        strength = tables.strength_of([c.index for c in k.hand])
        obs = p.observed()
        outcomes = knock_mod._Outcomes(k.rules, strength)
        weighted = knock_mod._exact_one(k, tables, outcomes, hand_weights(k, obs, 0))
        plain = knock_mod._exact_one(k, tables, outcomes, None)
        knock_mod._heads_up.cache_clear()
        assert knock_mod._heads_up(k, strength, obs, "adaptive") == weighted
        assert knock_mod._heads_up(k, strength, None, "uniform") == plain
        checked += 1
    assert checked > 5


def test_row_weights_are_remembered_read_only_and_the_same() -> None:
    for p in positions()[:10]:
        k = p.knowledge
        obs = p.observed()
        for i in range(k.opponents):
            w = row_weights(k, obs, i)
            assert not w.flags.writeable
            assert same(w, _row_weights(k, obs, i))
            assert row_weights(k, obs, i) is w


def test_distributions_are_remembered_read_only_and_the_same() -> None:
    for p in positions()[:10]:
        k = p.knowledge
        again = position.Position.from_view(p.view) if p.view is not None else p  # a new Position, equal observations
        for i in range(k.opponents):
            for extra in (True, False):
                d = final_value_distribution(k, p.observed(), i, extra)
                assert not d.flags.writeable
                assert same(d, _final_value_distribution(k, p.observed(), i, extra, "adaptive"))
                assert final_value_distribution(again.knowledge, again.observed(), i, extra) is d


def test_game_model_after_is_remembered_and_the_same() -> None:
    for p in positions()[:10]:
        game = scale.position_scale(p).game
        for changes in ({0: 1}, {1: 1}, {0: 2}, {1: 1, 0: 1}):
            assert game.after(changes) == game._after(changes) == game.after(dict(reversed(list(changes.items()))))


def _figures() -> list[str]:
    out = []
    for p in positions():
        model = position.horizon_tables(p.knowledge.rules)
        win_scale = scale.position_scale(p)
        strength = model.tables.strength_of(sorted(c.index for c in p.knowledge.hand))
        e = ending.value_ending(p, position.EXPERT, model, strength, True, None, win_scale)
        numbers = (e.outcome.own, e.outcome.p_one, e.outcome.p_two, e.p_one, e.p_two)
        exact = "" if e.exact is None else f" {e.exact[0]} {e.exact[1]}"
        out.append(" ".join(f"{x:.12g}" for x in numbers) + exact)
    return out


KNOCK_FIGURES_SHA256 = "182b977ae5bc1cc71ef0f4c154c85887ad355811a0bc30ee3c6de879ff823985"


def test_knock_figures_on_seeded_positions_are_the_stored_ones() -> None:
    """The knock's figures (the outcome's expected loss and chances, the exact heads-up
    count: what the opponent model gives, not the game model's chance of winning, which is
    measured again from time to time) at every position, to 12 significant digits, hashed:
    the hash was taken on the code before the speed-up (the same figures). A change of the
    opponent model must update it on purpose."""
    text = "\n".join(_figures())
    assert hashlib.sha256(text.encode()).hexdigest() == KNOCK_FIGURES_SHA256, text[:2000]
