"""Tables kept on disk between processes (scatlab.analysis.counting.store): a cache changes speed,
never a number."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from scatlab.analysis.counting import store
from scatlab.analysis.counting.tables import Tables, scoring_rules
from scatlab.rules import find_rules


def test_cached_tables_are_exactly_the_tables_built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every stored table (the after-draw tables, horizon levels, the filter's take masks and
    last-turn takes, the prior chain, the filter's rankings of the sets of four, the knock
    risk's draw classes, the last turn's values by hand, the knock line's draw levels)
    is the same written as read back, and equals a fresh build, for a 52-card and a 32-card
    deck (the draw levels: the 52-card deck)."""
    from scatlab.analysis.counting import horizon
    from scatlab.analysis.model import hand_filter, kinds, knock, last_turn, throws, winning

    monkeypatch.setenv("SCATLAB_CACHE", str(tmp_path))
    try:
        for name in ("classic", "eenendertigen"):
            scoring = scoring_rules(find_rules(name))
            fresh = Tables(scoring)  # a new object: nothing kept on it
            best, discard = fresh._after_draw(fresh.rows, fresh.strength, fresh.triple)
            levels = np.stack(horizon._levels(fresh, 6))
            improves = (fresh.discard >= 0) & (fresh.after_draw > fresh.strength[:, None])
            priors = kinds._kind_priors(fresh, kinds.PLAYER_KINDS, improves)
            quads = []
            below = knock._classes_below(fresh)
            by_value = last_turn._by_value(fresh)
            last_takes = hand_filter._last_takes(fresh)
            level = winning._draw_level(scoring, 2, 1.0, 0.5, 0.2, 0.4, 0.6, "classic") if name == "classic" else None
            for round_ in ("written", "read"):
                again = Tables(scoring)
                assert np.array_equal(again.after_draw, best) and np.array_equal(again.discard, discard), round_
                assert np.array_equal(horizon.horizon_table(Tables(scoring), 6), levels[6]), round_
                assert np.array_equal(
                    hand_filter._horizon_takes(Tables(scoring), 5), hand_filter._horizon_takes(fresh, 5)
                ), round_
                kinds._chain.cache_clear()
                assert np.array_equal(kinds._chain(scoring, kinds.PLAYER_KINDS).kind_priors, priors), round_
                throws.quad_ranks.cache_clear()
                quads.append(throws.quad_ranks(scoring, ("horizon", 5, 2.0)))
                knock._draw_classes.cache_clear()
                classes = knock._draw_classes(scoring)
                assert classes is not None and np.array_equal(classes.below, below), round_
                last_turn._last_turn.cache_clear()
                stored = last_turn._last_turn(scoring)
                assert all(np.array_equal(getattr(stored, k), v) for k, v in by_value.items()), round_
                assert np.array_equal(hand_filter._last_take_mask(Tables(scoring)), last_takes), round_
                if level is not None:
                    winning.draw_level_by_row.cache_clear()
                    again_level = winning.draw_level_by_row(scoring, 2, 1.0, 0.5, 0.2, 0.4, 0.6)
                    assert all(np.array_equal(a, b) for a, b in zip(again_level, level, strict=True)), round_
            assert np.array_equal(quads[0].cards, quads[1].cards)
            assert np.array_equal(quads[0].eligible, quads[1].eligible)
        names = {p.name.rsplit("-", 2)[0] for p in tmp_path.iterdir()}
        assert names >= {
            "horizon",
            "prior-chain",
            "quad-ranks",
            "draw-classes",
            "last-turn",
            "last-takes",
            "draw-level",
        }
    finally:
        throws.quad_ranks.cache_clear()
        kinds._chain.cache_clear()
        knock._draw_classes.cache_clear()
        last_turn._last_turn.cache_clear()
        winning.draw_level_by_row.cache_clear()


def test_cache_rebuilds_a_damaged_file_and_never_needs_to_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file that cannot be read is built again (and replaced); a folder that cannot be
    written costs only the time to build; SCATLAB_CACHE=off writes nothing."""
    monkeypatch.setenv("SCATLAB_CACHE", str(tmp_path))
    calls = []

    def build() -> dict[str, np.ndarray]:
        calls.append(1)
        return {"x": np.arange(4)}

    assert store.cached("t", ("k", 1), build)["x"].tolist() == [0, 1, 2, 3]
    assert store.cached("t", ("k", 1), build)["x"].tolist() == [0, 1, 2, 3]
    assert len(calls) == 1  # the second came from the file
    (path,) = tmp_path.glob("t-*.npz")
    path.write_bytes(b"not a table")
    assert store.cached("t", ("k", 1), build)["x"].tolist() == [0, 1, 2, 3] and len(calls) == 2
    assert store.cached("t", ("k", 1), build)["x"].tolist() == [0, 1, 2, 3] and len(calls) == 2  # replaced
    assert store.cached("t", ("k", 2), build) and len(calls) == 3  # another key, another file
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder should be")
    monkeypatch.setenv("SCATLAB_CACHE", str(blocked / "sub"))
    assert store.cached("t", ("k", 1), build)["x"].tolist() == [0, 1, 2, 3] and len(calls) == 4
    monkeypatch.setenv("SCATLAB_CACHE", "off")
    before = sorted(os.listdir(tmp_path))
    assert store.cache_dir() is None
    assert store.cached("u", ("k", 1), build) and len(calls) == 5
    assert sorted(os.listdir(tmp_path)) == before


def test_cache_file_names_change_with_the_code_that_builds_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file's name carries a digest of the building modules' source: a changed program
    never reads an old table, and writing its own removes the old one (the folder does not
    grow with every version that ran), leaving other keys and other tables alone."""
    monkeypatch.setenv("SCATLAB_CACHE", str(tmp_path))
    source = tmp_path / "builder.py"
    source.write_text("version = 1\n")
    store.cached("v", "key", lambda: {"x": np.zeros(1)}, sources=(str(source),))
    store.cached("v", "other key", lambda: {"x": np.zeros(2)}, sources=(str(source),))
    store.cached("v-w", "key", lambda: {"x": np.zeros(3)}, sources=(str(source),))  # a table named v-...
    (tmp_path / ("v-" + "0" * 24 + ".npz")).write_bytes(b"a file named as before 2026-12-04")
    (first,) = [p for p in tmp_path.glob("v-*.npz") if p.stat().st_size > 100 and np.load(p)["x"].shape == (1,)]
    source.write_text("version = 2\n")
    store._source_digest.cache_clear()
    assert store.cached("v", "key", lambda: {"x": np.ones(1)}, sources=(str(source),))["x"].tolist() == [1.0]
    assert not first.exists()
    shapes = sorted(np.load(p)["x"].shape[0] for p in tmp_path.glob("v-*.npz"))
    assert shapes == [1, 2, 3]  # the new table for "key", the other key's, the other table's
    store._source_digest.cache_clear()


def test_every_cache_of_the_analysis_and_players_is_bounded() -> None:
    """Issue 35: every in-process cache has a bound (functools caches a maxsize; the filter's
    weights and evidence, the evidence of finished hands, the layouts' tables per card), so
    a long tournament or a classroom server cannot grow without limit."""
    import importlib
    import pkgutil

    import scatlab.analysis
    import scatlab.players
    from scatlab.analysis.counting import vectorized
    from scatlab.analysis.model import hand_filter, kinds
    from scatlab.cards import parse_card

    unbounded = []
    for package in (scatlab.analysis, scatlab.players):
        for info in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"{package.__name__}.{info.name}")
            for name, value in vars(module).items():
                params = getattr(value, "cache_parameters", None)
                if (
                    callable(params)
                    and getattr(value, "__module__", None) == module.__name__
                    and params()["maxsize"] is None
                ):
                    unbounded.append(f"{module.__name__}.{name}")
    assert unbounded == []
    f = hand_filter.LogFilter(find_rules("classic"), hand_filter.LOG_KINDS)
    thrown = [parse_card(c) for c in ("2C", "3D", "4H", "5S", "6C", "7D", "8H", "9S", "10C", "JD", "QH", "KS")]
    for i in range(60):  # many different logs, each a few turns long
        log = tuple(hand_filter.Turn("draw", None, thrown[(i + j) % 12]) for j in range(1 + i % 3))
        f.weights(log)
        f.evidence(log, (20, 30, 40))
    assert len(f._cache) <= hand_filter._CACHE_SIZE and len(f._evidence) <= hand_filter._EVIDENCE_SIZE
    assert kinds._EVIDENCE_CACHE_SIZE == 1024
    layout = vectorized.Layout.of(np.arange(8))
    for place in range(8):
        layout.moves(place)
        layout.holding(place)
    assert len(layout._moves) <= 104 and len(layout._memo) <= 8 + 2
