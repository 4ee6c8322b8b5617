"""Lesson 3's knock line: from which hand value the engine knocks, by the opponents, the
turns played and the lives left (:func:`knock_line`), the knock model's chances set
against playing on's averaged over every hand of a value (a rule of thumb: the advice for
an exact hand reads the cards seen and what each opponent did)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ...checks import shown
from ...errors import AnalysisError
from ...rules.options import RuleSet, find_rules
from ..counting.store import cached
from ..counting.tables import BLITZ2, scoring_rules
from ..model.valuation import MAX_TURNS, Standing
from ..model.winning import draw_level_by_row, family_of
from .position import EXPERT, horizon_tables
from .scale import estimate, scale_for

__all__ = ["KnockLine", "knock_line", "knock_values"]

_ZERO = Fraction(0)


@dataclass(frozen=True)
class KnockLine:
    """The engine's knock line at the start of a turn, per hand value, against
    ``opponents`` opponents who have each completed ``turns`` turns, with ``lives`` lives
    left for every player (a game's standings, or the game's first hand), opponents of
    unknown kind (even odds): for each value, the knock's chances of losing a life and of
    winning the game, and playing on's (drawing, averaged over every hand of that value).
    ``line`` is the lowest value from which every higher value knocks (knocking's chance of
    winning the game above playing on's; None if none). A rule of thumb: the advice for an
    exact hand also reads the cards seen and what each opponent did."""

    rules: RuleSet
    opponents: int
    turns: int
    lives: int
    rows: tuple[tuple[Fraction, Fraction, Fraction, Fraction, Fraction, bool], ...]
    """(value, knock's chance of losing a life, knock's chance of winning the game, playing
    on's chance of losing a life, playing on's chance of winning the game, knocks), by value
    from 15 up."""
    line: Fraction | None
    now: Fraction = _ZERO
    """The chance of winning the game from the standings (every seat with ``lives``)."""


@lru_cache(maxsize=128)
def _knock_line(rules: RuleSet, opponents: int, turns: int, lives: int) -> KnockLine:
    from ..model.kinds import MAX_TURNS as CHAIN_TURNS
    from ..model.kinds import turn_priors
    from ..model.last_turn import value_after_last_turn

    style = EXPERT
    valuation = style.valuation
    model = horizon_tables(rules)
    tables = model.tables
    n = opponents + 1
    seats = Standing(rules, 0, n, tuple(range(1, n)), (lives,) * n, (0,) * n, (False,) * n)
    scale = scale_for(seats, (0.5,) * opponents, float(turns))
    w = turn_priors(rules)[min(turns, CHAIN_TURNS)]
    w = w / w.sum()
    # heads-up the top discard is the opponent's own throw: it only draws; with more, each
    # sees a card it has not seen (a throw) and takes it if it raises the hand, else draws
    dist = value_after_last_turn(rules, w, None, top_unseen=opponents > 1)
    dists = [dist] * opponents
    on_win, on_loss = draw_level_by_row(
        scoring_rules(rules), opponents, float(turns), 0.5, scale.lose, scale.other, scale.sure31, family_of(rules)
    )
    value2 = tables.value2
    rows: list[tuple[Fraction, Fraction, Fraction, Fraction, Fraction, bool]] = []
    for v2 in range(30, BLITZ2):
        in_value = value2 == v2
        if not in_value.any():
            continue
        on = float(on_win[in_value].mean())
        q_on = float(on_loss[in_value].mean())
        out = valuation.outcome(seats, dists, v2, scale.game)
        knock_win = scale.game.now + out.gain
        rows.append(
            (
                Fraction(v2, 2),
                estimate(out.p_one + out.p_two),
                estimate(knock_win),
                estimate(q_on),
                estimate(on),
                knock_win > on,
            )
        )
    line = None
    for row_ in reversed(rows):
        if row_[5]:
            line = row_[0]
        else:
            break
    return KnockLine(rules, opponents, turns, lives, tuple(rows), line, estimate(scale.game.now))


def knock_line(
    rules: RuleSet | str = "classic", opponents: int = 1, turns: int = 0, lives: int | None = None
) -> KnockLine:
    """The engine's knock line (see :class:`KnockLine`): from which hand value the engine
    knocks against ``opponents`` (1 to 8) opponents who have each played ``turns`` (0 to
    :data:`~scatlab.analysis.model.valuation.MAX_TURNS`) turns, every player with ``lives`` lives
    left (default: the rules' lives at the start).

    >>> line = knock_line("classic", opponents=1, turns=0)
    >>> all(knocks == (kw > ow) for _v, _k, kw, _o, ow, knocks in line.rows)  # the higher chance decides
    True
    >>> line.line is None or line.rows[-1][5]  # a line: the top value knocks
    True
    """
    ruleset = find_rules(rules)
    if type(opponents) is not int or not 1 <= opponents <= 8:
        raise AnalysisError(f"opponents={shown(opponents)} is not allowed: use a whole number 1 to 8")
    if type(turns) is not int or not 0 <= turns <= MAX_TURNS:
        raise AnalysisError(f"turns={shown(turns)} is not allowed: use a whole number 0 to {MAX_TURNS}")
    if lives is None:
        lives = ruleset.lives
    if type(lives) is not int or not 1 <= lives <= 99:
        raise AnalysisError(f"lives={shown(lives)} is not allowed: use a whole number 1 to 99")
    return _knock_line(ruleset, opponents, turns, lives)


_SOURCES = tuple(
    sorted(str(path) for path in Path(__file__).resolve().parents[1].rglob("*.py"))
    + [str(Path(__file__).resolve().parents[2] / "rules" / name) for name in ("values.py", "scoring.py", "options.py")]
)
"""The modules a knock line is worked out by (every module of the analysis, and the rules'
values and scoring): a changed program never reads a knock line kept by an older one."""


@lru_cache(maxsize=4096)
def knock_values(rules: RuleSet, opponents: int, turns: int, lives: int) -> frozenset[int]:
    """The hand values (twice, in half points) at which :func:`knock_line` knocks (its rows
    whose chance of winning the game is higher by knocking), kept on disk between processes
    (:func:`!scatlab.analysis.counting.store.cached`: a knock line takes some 20 ms to work out,
    and a play-out meets dozens).

    >>> sorted(knock_values(find_rules("classic"), 1, 0, 3)) == sorted(
    ...     int(row[0] * 2) for row in knock_line("classic", 1, 0, 3).rows if row[5])
    True
    """

    def build() -> dict[str, npt.NDArray[np.int64]]:
        rows = knock_line(rules, opponents, turns, lives).rows
        return {"values": np.array([int(row[0] * 2) for row in rows if row[5]], dtype=np.int64)}

    arrays = cached("knock_values", (rules, opponents, turns, lives), build, _SOURCES)
    return frozenset(int(v) for v in arrays["values"])
