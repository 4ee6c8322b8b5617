"""Lesson 3's figures in the lesson's words, every one read from the one engine.

Lesson 3 teaches the engine's criterion: **knock when knocking gives you a better chance of
winning the game than playing on**; the knock line is where that starts, for an average
hand. This module holds what the lesson, its steps and its chart say about a position, as
plain Python (tested without a browser); the widgets of
:mod:`scatlab.course.widgets.knock_chart` only draw it.

- :class:`KnockSum`: a knock weighed as the lesson teaches (:func:`knock_sum`): against one
  opponent, each way the showdown can end (you lose one life, you lose two, your opponent
  loses one), its chance (counted exactly) and your chance of winning the game after it,
  added up as lesson 2 weighed a draw. The total is the ranking's own figure for the knock
  (:attr:`~scatlab.analysis.engine.ranking.RankedMove.win`), and playing on's is the
  ranking's best way of playing on: the worked example, step 3.1 and ``scatlab analyze``
  state one figure for one position.
- :func:`chart_rows`, :func:`readout`, :func:`knock_runs`, :func:`line_words`: the knock
  chart's figures (:func:`~scatlab.analysis.engine.knock_line.knock_line`, an average hand of
  each value) as a learner reads them: levels first, never a signed change alone, never a
  readout where the move not advised shows the better figure.
- :func:`differs_words`: the one line that says why a hand's own figures are not the chart's.

>>> s = knock_sum("AH KH 4C", "9S")
>>> s.knock == s.ranking.move("knock").win and s.play_on is s.ranking.play_on
True
>>> abs(s.total() - s.knock) < Fraction(1, 10**5)      # the lesson's sum is the engine's figure
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from ..cards import Card, CardsLike, format_cards
from ..errors import ScatlabError
from ..rules.values import format_value as show_value

if TYPE_CHECKING:
    from ..analysis import KnockLine, RankedMove, Ranking

__all__ = [
    "WORKED_HAND",
    "WORKED_PILE",
    "KnockSum",
    "knock_sum",
    "level",
    "shown_chance",
    "ChartRow",
    "chart_rows",
    "readout",
    "knock_runs",
    "line_words",
    "differs_words",
    "move_words",
]

WORKED_HAND, WORKED_PILE = "AH KH 4C", "9S"
"""Lesson 3's worked example: A♥ K♥ 4♣ (worth 21) against one opponent just dealt, the 9♠ on
the pile (lesson 2's hand, now at the start of a turn)."""


def level(p: Fraction | float) -> str:
    """A chance of winning the game as every page writes it: percent, one decimal
    (:func:`!scatlab.analysis.engine.scale.win_level`).

    >>> level(Fraction(650131, 1000000))
    '65.0%'
    """
    from ..analysis import win_level

    return win_level(p)


def shown_chance(p: Fraction | float) -> Fraction:
    """A chance as the page shows it, read back: :func:`level`'s percent as a Fraction of 1
    (the learner's own figure, which the lesson's sums start from).

    >>> shown_chance(Fraction(79, 25944))
    Fraction(3, 1000)
    """
    return Fraction(level(p)[:-1]) / 100


def move_words(move: RankedMove, ranking: Ranking) -> str:
    """A way of playing on as the lesson says it: ``"draw"``, ``"take the 9♠ (throwing the 4♣)"``."""
    from ..analysis import move_words as words

    return words(move, ranking.position.knowledge)


@dataclass(frozen=True)
class KnockSum:
    """A knock weighed as lesson 3 teaches, against one opponent just dealt (see the module doc).

    ``p_one`` and ``p_two``: the knock's chances of losing one and two lives (counted
    exactly, :attr:`~scatlab.analysis.engine.ranking.RankedMove.exact_risk`); ``after_one``,
    ``after_two``, ``after_theirs``: your chance of winning the game after you lose one
    life, after you lose two, and after your opponent loses one (the game model, from the
    standings); ``knock``: the ranking's figure for the knock, which those add up to;
    ``play_on``: the ranking's best way of playing on; ``now``: your chance of winning the
    game before this hand."""

    hand: tuple[Card, ...]
    pile: Card | None
    value: Fraction
    p_one: Fraction
    p_two: Fraction
    after_one: float
    after_two: float
    after_theirs: float
    knock: Fraction
    play_on: RankedMove
    now: Fraction
    ranking: Ranking

    @property
    def p_theirs(self) -> Fraction:
        """The chance that your opponent loses the life (you are neither lowest nor beaten by a 31)."""
        return 1 - self.p_one - self.p_two

    @property
    def knocks(self) -> bool:
        """The engine's choice between knocking and playing on: knock when knocking's chance
        of winning the game is the higher."""
        return self.knock > self.play_on.win

    @property
    def close(self) -> bool:
        """Knocking and playing on are a close call: within
        :data:`!scatlab.analysis.engine.scale.CLOSE_CALL`, closer than the estimates can tell apart."""
        from ..analysis import CLOSE_CALL

        return abs(self.knock - self.play_on.win) < CLOSE_CALL

    def total(self) -> Fraction:
        """The sum unrounded: each outcome's chance times your chance of winning after it."""
        return (
            self.p_one * Fraction(self.after_one)
            + self.p_two * Fraction(self.after_two)
            + self.p_theirs * Fraction(self.after_theirs)
        )

    def shown(self) -> tuple[tuple[Fraction, Fraction], ...]:
        """The three (chance, chance of winning after it) pairs as the page shows them (one
        decimal of percent, read back as Fractions); the three chances add up to 100%."""
        one, two = shown_chance(self.p_one), shown_chance(self.p_two)
        return (
            (one, shown_chance(self.after_one)),
            (two, shown_chance(self.after_two)),
            (1 - one - two, shown_chance(self.after_theirs)),
        )

    def rounded_total(self) -> Fraction:
        """The sum a learner works out from the shown figures."""
        return sum((p * a for p, a in self.shown()), Fraction(0))

    def terms(self) -> str:
        """The sum as the lesson writes it: ``"0.3% × 44.6% + 16.8% × 27.4% + 82.9% × 72.7%"``."""
        return " + ".join(f"{_percent(p)} × {_percent(a)}" for p, a in self.shown())

    def products(self) -> list[Fraction]:
        """Each term of :meth:`terms` worked out, rounded to one decimal of percent."""
        return [shown_chance(p * a) for p, a in self.shown()]

    def lands(self) -> bool:
        """The learner's sum lands on the engine's figure: the rounded terms' products, added
        up, and the rounded figures' sum all show as the knock's own level."""
        return level(sum(self.products(), Fraction(0))) == level(self.rounded_total()) == level(self.knock)


def _percent(p: Fraction) -> str:
    """A shown chance (a Fraction of 1 with one decimal of percent) back in percent: ``0.3%``."""
    return level(p)


def knock_sum(hand: CardsLike, pile: CardsLike | None) -> KnockSum:
    """Weigh a knock with ``hand`` (three cards) against one opponent just dealt, ``pile`` on
    the discard pile, the game's first hand (every player with the rules' lives), as lesson 3
    does: the ranking of :func:`~scatlab.analysis.engine.ranking.rank` and the game model's
    chances after each outcome (:class:`!scatlab.analysis.model.winning.GameModel`). A
    :class:`ScatlabError` when a knock is not a move here or its chances are not counted exactly."""
    from ..analysis import GameModel, Knowledge, Position, rank

    position = Position.of(Knowledge.of(hand, pile, opponents=1))
    ranking = rank(position)
    knock = next((m for m in ranking.moves if m.action.kind.value == "knock"), None)
    if knock is None or not knock.exact_risk or knock.p_one is None or knock.p_two is None:
        raise ScatlabError(
            f"{format_cards(position.knowledge.hand)} with {pile!r} on the pile: a knock is not a move "
            "here, or its chances are not counted exactly"
        )
    on = ranking.play_on
    assert on is not None
    seats = position.seats
    game = GameModel.of(seats, position.strong())
    me, them = seats.player, seats.opponents[0]
    k = position.knowledge
    return KnockSum(
        k.hand,
        k.top,
        k.value,
        knock.p_one,
        knock.p_two,
        game.after({me: 1}),
        game.after({me: 2}),
        game.after({them: 1}),
        knock.win,
        on,
        ranking.now,
        ranking,
    )


# -- the chart -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChartRow:
    """One hand value of the knock chart: your chance of winning the game if you knock and if
    you play on (an average hand of that value), whether the advice knocks, and whether the
    two are a close call."""

    value: Fraction
    knock: Fraction
    play_on: Fraction
    knocks: bool
    close: bool


def chart_rows(line: KnockLine) -> list[ChartRow]:
    """The chart's rows, from :class:`~scatlab.analysis.engine.knock_line.KnockLine` as it is."""
    from ..analysis import CLOSE_CALL

    return [
        ChartRow(Fraction(v), Fraction(kw), Fraction(ow), bool(knocks), abs(Fraction(kw) - Fraction(ow)) < CLOSE_CALL)
        for v, _k, kw, _o, ow, knocks in line.rows
    ]


def readout(row: ChartRow) -> str:
    """A value's figures as the chart states them, levels first, the advice last. The move
    advised never shows the lower figure: the levels are rounded alike, so where they show
    equal the readout says it is a close call.

    >>> print(readout(ChartRow(Fraction(21), Fraction(683, 1000), Fraction(637, 1000), True, False)))
    worth 21: your chance of winning the game: 68.3% if you knock, 63.7% if you play on; the advice: knock
    """
    advice = "knock" if row.knocks else "play on"
    close = " (a close call)" if row.close or level(row.knock) == level(row.play_on) else ""
    return (
        f"worth {show_value(row.value)}: your chance of winning the game: {level(row.knock)} if you knock, "
        f"{level(row.play_on)} if you play on; the advice: {advice}{close}"
    )


def knock_runs(rows: Sequence[ChartRow]) -> list[tuple[Fraction, Fraction]]:
    """The runs of hand values where the advice knocks, lowest first: ``[(19, 30)]``.

    >>> r = [ChartRow(Fraction(v), Fraction(0), Fraction(0), 19 <= v <= 26, False) for v in range(15, 31)]
    >>> knock_runs(r)
    [(Fraction(19, 1), Fraction(26, 1))]
    """
    runs: list[tuple[Fraction, Fraction]] = []
    start: Fraction | None = None
    previous: Fraction | None = None
    for row in rows:
        if row.knocks and start is None:
            start = row.value
        if not row.knocks and start is not None:
            assert previous is not None
            runs.append((start, previous))
            start = None
        previous = row.value
    if start is not None and previous is not None:
        runs.append((start, previous))
    return runs


def line_words(rows: Sequence[ChartRow]) -> str:
    """Where the advice knocks, for an average hand, in words: ``"from 19 up"``, ``"with 20
    to 26"``, ``"never"``.

    >>> r = [ChartRow(Fraction(v), Fraction(0), Fraction(0), v >= 19, False) for v in range(15, 31)]
    >>> s = [ChartRow(Fraction(v), Fraction(0), Fraction(0), 20 <= v <= 26, False) for v in range(15, 31)]
    >>> line_words(r), line_words(s)
    ('from 19 up', 'with 20 to 26')
    """
    runs = knock_runs(rows)
    if not runs:
        return "never"
    top = rows[-1].value
    parts = [
        f"from {show_value(a)} up"
        if b == top
        else (f"with {show_value(a)}" if a == b else f"with {show_value(a)} to {show_value(b)}")
        for a, b in runs
    ]
    return " and ".join(parts) if len(parts) < 3 else ", ".join(parts[:-1]) + " and " + parts[-1]


def differs_words(s: KnockSum, row: ChartRow) -> str:
    """The one line that says why a hand's own figures are not the chart's for its value:
    the chart pictures an average hand of that value with no card known on the pile; the
    hand's own figures read its three cards and the card on the pile, which the opponent
    may take in their last turn."""
    pile = (
        f" and the {s.pile.pretty} on the pile, which your opponent may take in their last turn"
        if s.pile is not None
        else ""
    )
    return (
        f"For an average hand worth {show_value(row.value)} the chart below gives {level(row.knock)} if you knock "
        f"and {level(row.play_on)} if you play on; this hand's own figures differ because they read its three "
        f"cards{pile}."
    )
