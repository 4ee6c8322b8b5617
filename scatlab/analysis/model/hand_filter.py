"""Following an opponent's hand turn by turn: the adaptive model's filter over a game's log.

When the whole log of the current hand is known (in play: the knock risk from a player's
view, the ``expert``, the review), the adaptive opponent model
(:mod:`scatlab.analysis.model.weights`) follows each opponent through every turn they played,
as a Bayesian filter over all 3-card hands (22,100 for 52 cards), once for each kind of
player they may be (:data:`LOG_KINDS`). Each kind states how it plays:

- at the start of a turn it knocks with its **knock chance** for the hand's value and
  the turns it has played in the hand (:attr:`FilterKind.knocks`; in a hand of two
  players, and in a game dealt to two, the chances measured there), where the rules allow
  a knock (a knock seen with a hand the kind would not knock with counts with a chance of
  1%, so a surprising knock does not rule every hand out); or, for a kind with
  :attr:`FilterKind.rule_slip` (the strong one) at a turn that carries a
  :class:`KnockRule` (:attr:`Turn.knock_rule`, worked out by
  :func:`scatlab.analysis.model.observations.with_knock_rules`), by the expert's own rule at that moment:
  whether the knock beats playing on given how strong the others looked then, and how
  likely this very hand was to lose by playing on, with a 2% slip either way;
- it **takes** the top discard with chance ``take`` when the card is worth taking, and
  otherwise with chance ``slip`` (2%); if it does not take, it draws a card uniformly from
  the cards neither in its hand nor face up. Worth taking: with ``takes="suit"`` a card of
  the hand's target suit (the suit worth most, ties to more cards, then clubs, diamonds,
  hearts, spades) that makes the hand strictly stronger; with ``takes="better"`` any card
  that does; with ``takes="horizon"`` a card with which the best three it can keep are
  worth more, valued ``horizon`` turns ahead (:mod:`scatlab.analysis.counting.horizon`), than
  drawing is (the hand's value one turn further ahead): how the ``expert`` chooses;
- it **throws** (``takes="better"``) the card that keeps the strongest three, the drawn
  card back on a tie, else the lowest; with ``takes="suit"`` as the ``tip`` player does: the
  lowest card outside the suit worth most among its four cards (all of that suit: the
  lowest), not a card of a suit the next player has taken from the pile this hand if
  another is left; with ``takes="horizon"`` as the ``expert`` does: the card that keeps the
  three worth most ``horizon`` turns ahead (ties: the strongest three now, then the lowest
  card, then clubs, diamonds, hearts, spades), but, when that card is of a suit the next
  player has taken from the pile this hand (:attr:`Turn.next_took`), the best card of
  another suit if it keeps three worth at most ``feed_margin`` points less (the expert does
  not feed the next player). With chance ``slip`` it throws one of the other cards instead,
  each alike (a card just taken is never thrown, C5). On a last turn after a knock
  (:attr:`Turn.last`) the ``horizon`` kind plays for the hand now, as the expert does: it
  takes a discard when the best three kept with it are at least as strong as a draw keeps
  on average, and throws by strength now (the same order, no feed rule);
- a hand worth 31 has been declared (C8) and drops out, as does a hand that knocked.

The opponent starts from a uniformly random hand; each observed turn multiplies every hand
by the chance of what was seen (no knock or the knock, the take or the pass, the card
thrown) and moves it to the hand kept. So the weight of a hand is the chance that this kind
of player, dealt at random, would have played exactly the turns seen and now hold it. The
kinds are summed with their shares (or with odds learned before the hand, see
:meth:`LogFilter.weights`): an opponent whose play fits the strong kind better counts as
strong for more, turn by turn. :meth:`LogFilter.evidence` reads a finished hand the same
way: each kind's chance of the turns seen and of the hand shown at the showdown, from which
:mod:`scatlab.analysis.model.kinds` learns each opponent's odds over a game.

The filter runs in floating point over the hands; each kind's weights are renormalised
after every turn with the scale kept as a logarithm, so long hands do not underflow. The
results are cached by the opponent's log (each new turn extends the cached weights of the
turns before it), so a player asking after every turn pays for one turn each time.

>>> from scatlab.rules import find_rules
>>> from scatlab.cards import parse_card
>>> f = LogFilter.of(find_rules("classic"))
>>> turn = Turn("draw", parse_card("KH"), parse_card("2C"))
>>> w = f.weights((turn,))
>>> w.shape, bool(w[f.tables.row(sorted(c.index for c in (parse_card("2C"), parse_card("3C"), parse_card("4C"))))] == 0)
((22100,), True)
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from ...cards import ALL_CARDS, Card, Suit
from ...checks import shown, whole_number
from ...errors import AnalysisError
from ...rules.options import RuleSet
from ..counting.horizon import MAX_HORIZON, horizon_table
from ..counting.store import cached
from ..counting.tables import BLITZ2, RANK_BITS, Tables, scoring_rules, tables_for
from ..counting.tables import SOURCE as TABLES_SOURCE
from ..counting.vectorized import draw_step
from .throws import (
    SUIT_ORDER,
    ThrowKey,
    deck_layout,
    deck_places,
    quad_ranks,
    row_throws,
    rows_holding,
    take_moves,
    thrown_by_place,
)

__all__ = [
    "TurnAction",
    "KnockRule",
    "Turn",
    "KnockChance",
    "FilterKind",
    "CASUAL_PLAY",
    "STRONG_PLAY",
    "TIP_PLAY",
    "LOG_KINDS",
    "LogFilter",
]

TurnAction = Literal["draw", "take", "knock"]
KnockChance = float | tuple[float, ...]
"""A knock chance: one for every turn, or one per turn the player has played in the hand
before this one (0, 1, 2, ...), the last for every later turn."""
FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
ThrowArray = npt.NDArray[np.signedinteger[Any]]
"""A ``[row, card]`` table of thrown cards (int8 when built from a ranking)."""
BoolArray = npt.NDArray[np.bool_]


_VALUES2 = 67  # hand values in half points, 0 to 33


@dataclass(frozen=True)
class KnockRule:
    """How a player who knocks by the ``expert``'s rule decided at one turn, worked out from
    what everyone could see then (:func:`scatlab.analysis.model.observations.with_knock_rules`).

    For a hand worth ``v2 / 2`` it knocks when its **chance of losing by playing on** (the
    mean, over every card it could draw, of ``risk[w2]`` for the value ``w2 / 2`` it keeps
    after the draw) is at least ``threshold[v2]``: ``-inf`` knocks with any such hand, ``inf``
    with none. Both tuples hold 67 numbers, one per value in half points (0 to 33).

    >>> rule = KnockRule.never()
    >>> rule.threshold[60], len(rule.risk)
    (inf, 67)
    """

    threshold: tuple[float, ...]
    risk: tuple[float, ...]

    def __post_init__(self) -> None:
        for name in ("threshold", "risk"):
            value = getattr(self, name)
            if not (
                isinstance(value, tuple)
                and len(value) == _VALUES2
                and all(isinstance(x, (int, float)) and not isinstance(x, bool) and not math.isnan(x) for x in value)
            ):
                raise AnalysisError(
                    f"{name}={shown(value)} is not allowed: a tuple of {_VALUES2} numbers, "
                    "one per hand value in half points"
                )
        if not all(0 <= x <= 1 for x in self.risk):
            raise AnalysisError(f"risk={shown(self.risk)} is not allowed: chances from 0 to 1")

    @staticmethod
    def never() -> KnockRule:
        """The rule of a player who knocks with no hand."""
        return KnockRule((math.inf,) * _VALUES2, (0.0,) * _VALUES2)


@dataclass(frozen=True)
class Turn:
    """One turn of an opponent, as everyone saw it.

    ``action``: ``"draw"`` (from the stock, passing over ``card``, the top discard, or
    ``None`` when the pile was empty), ``"take"`` (took ``card`` from the pile) or
    ``"knock"`` (knocked instead of drawing, C6, or called a hammer, V10); ``thrown``: the
    card discarded (``None`` for a knock);
    ``may_knock``: whether the rules let this player knock at the start of this turn (not
    after someone knocked, nor in the first round under V6); ``next_took``: the suits the
    next player had taken from the pile earlier in the hand (public: a strong player avoids
    throwing them, see :attr:`FilterKind.feed_margin`); ``last``: a last turn after someone
    knocked (C6), in which a strong player plays for the hand now; ``knock_rule``: how a
    player knocking by the expert's rule would have decided at this turn (:class:`KnockRule`,
    used by kinds with :attr:`FilterKind.rule_slip`; None: the kind's knock chances).

    >>> from scatlab.cards import parse_card
    >>> Turn("take", parse_card("QH"), parse_card("2C")).action
    'take'
    """

    action: TurnAction
    card: Card | None
    thrown: Card | None = None
    may_knock: bool = True
    next_took: frozenset[Suit] = frozenset()
    last: bool = False
    knock_rule: KnockRule | None = None

    def __post_init__(self) -> None:
        if self.knock_rule is not None and not isinstance(self.knock_rule, KnockRule):
            raise AnalysisError(f"knock_rule={shown(self.knock_rule)} is not allowed: a KnockRule or None")
        if not (isinstance(self.next_took, frozenset) and all(isinstance(s, Suit) for s in self.next_took)):
            raise AnalysisError(f"next_took={self.next_took!r} is not allowed: a frozenset of Suits")
        for name in ("card", "thrown"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, Card):
                raise AnalysisError(f"turn {name}={value!r} is not allowed: a Card or None")
        for flag in ("may_knock", "last"):
            if not isinstance(getattr(self, flag), bool):
                raise AnalysisError(f"{flag}={getattr(self, flag)!r} is not allowed: True or False")
        if self.last and (self.may_knock or self.action == "knock"):
            raise AnalysisError("a last turn (after a knock) allows no knock: may_knock must be False")
        if self.action not in ("draw", "take", "knock"):
            raise AnalysisError(f"turn action {self.action!r} is not an action: use 'draw', 'take' or 'knock'")
        if self.action == "take" and (self.card is None or self.thrown is None):
            raise AnalysisError(
                f"a take needs the card taken and the card thrown, not {self.card!r} and {self.thrown!r}"
            )
        if self.action == "draw" and self.thrown is None:
            raise AnalysisError("a draw needs the card thrown")
        if self.action == "take" and self.thrown == self.card:
            raise AnalysisError(f"a card just taken ({self.card}) cannot be thrown (C5)")
        if self.action == "draw" and self.card is not None and self.thrown == self.card:
            raise AnalysisError(f"the {self.card} passed over stayed on the pile: it cannot be the card thrown")


@dataclass(frozen=True)
class FilterKind:
    """A kind of player as the filter follows it (see the module doc).

    ``knocks`` and its variants give, from each value up, the knock chance: one number, or
    one per turn the player has played in the hand before this one (the last for every later
    turn).

    >>> CASUAL_PLAY.knock_chance(26), STRONG_PLAY.knock_chance(28), STRONG_PLAY.knock_chance(28, played=9)
    (1.0, 0.94, 0.7)
    >>> STRONG_PLAY.knock_chance(28.5, heads_up=True, played=2), STRONG_PLAY.knock_chance(28, True, True, 2)
    (0.48, 0.42)
    >>> CASUAL_PLAY.knock_chance(28, two_players=True, played=5), STRONG_PLAY.knock_chance(25), STRONG_PLAY.knock_turns
    (1.0, 0.0, 8)
    """

    name: str
    share: float
    knocks: tuple[tuple[int, KnockChance], ...]
    takes: Literal["suit", "better", "horizon"]
    take: float
    slip: float = 0.02
    knocks_heads_up: tuple[tuple[int, KnockChance], ...] | None = None
    """The knock chances in a hand of two players (None: the same as ``knocks``)."""
    knocks_two: tuple[tuple[int, KnockChance], ...] | None = None
    """The knock chances in a game dealt to two players (None: as in a hand of two)."""
    horizon: int = 5
    """With ``takes="horizon"``: how many turns ahead hands are valued (the expert's 5)."""
    feed_margin: float = 0.0
    """With ``takes="horizon"``: when the card worth throwing is of a suit the next player
    has taken from the pile this hand, it throws the best card of another suit instead if
    that keeps three worth at most this many points less (the expert's ``feed_margin``, 2)."""
    rule_slip: float | None = None
    """When set, at a turn that carries a :class:`KnockRule` (:attr:`Turn.knock_rule`) the
    kind knocks by that rule instead of its knock chances: with chance ``1 - rule_slip`` with
    a hand the rule knocks with, ``rule_slip`` with one it does not (where the rules allow a
    knock and the hand is worth 26 or more)."""

    def __post_init__(self) -> None:
        if self.rule_slip is not None and not (
            isinstance(self.rule_slip, (int, float))
            and not isinstance(self.rule_slip, bool)
            and 0 < self.rule_slip < 0.5
        ):
            raise AnalysisError(
                f"rule_slip={self.rule_slip!r} is not allowed: None or a chance more than 0 and less than 0.5"
            )
        if not (isinstance(self.slip, (int, float)) and not isinstance(self.slip, bool) and 0 <= self.slip < 0.5):
            raise AnalysisError(f"slip={self.slip!r} is not allowed: a chance from 0 up to (not including) 0.5")
        if self.takes not in ("suit", "better", "horizon"):
            raise AnalysisError(f"takes={self.takes!r} is not allowed: 'suit', 'better' or 'horizon'")
        if not (isinstance(self.horizon, int) and 0 <= self.horizon < MAX_HORIZON):
            raise AnalysisError(
                f"horizon={self.horizon!r} is not allowed: a whole number of turns from 0 to "
                f"{MAX_HORIZON - 1} (drawing is valued one turn further)"
            )
        if not (isinstance(self.feed_margin, (int, float)) and 0 <= self.feed_margin <= 31):
            raise AnalysisError(f"feed_margin={self.feed_margin!r} is not allowed: a number of points from 0 to 31")
        for name in ("knocks", "knocks_heads_up", "knocks_two"):
            table = getattr(self, name)
            if table is not None and not _valid_knocks(table):
                raise AnalysisError(
                    f"{name}={table!r} is not allowed: (value, chance) pairs with rising values, "
                    "each chance from 0 to 1 or a non-empty tuple of them (one per turn played)"
                )

    def knock_chance(self, value: float, heads_up: bool = False, two_players: bool = False, played: int = 0) -> float:
        """The chance of knocking, where allowed, with a hand worth ``value`` at a turn after
        ``played`` turns of its own in the hand (in a hand of two players with ``heads_up``;
        in a game dealt to two with ``two_players``)."""
        whole_number("played", played, 0, error=AnalysisError)  # turns played before this one
        steps = self.knocks
        if heads_up or two_players:
            steps = self.knocks_heads_up if self.knocks_heads_up is not None else steps
        if two_players and self.knocks_two is not None:
            steps = self.knocks_two
        chance = 0.0
        for step, c in steps:
            if value >= step:
                chance = c[min(played, len(c) - 1)] if isinstance(c, tuple) else c
        return chance

    @property
    def knock_turns(self) -> int:
        """How many turns played the knock chances tell apart (1: the same at every turn)."""
        return max(
            (
                len(c)
                for table in (self.knocks, self.knocks_heads_up or (), self.knocks_two or ())
                for _, c in table
                if isinstance(c, tuple)
            ),
            default=1,
        )


def _valid_knocks(table: object) -> bool:
    def chance(c: object) -> bool:
        return isinstance(c, (int, float)) and not isinstance(c, bool) and 0 <= c <= 1

    if not isinstance(table, tuple) or not all(isinstance(p, tuple) and len(p) == 2 for p in table):
        return False
    values = [v for v, _ in table]
    return (
        all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
        and values == sorted(set(values))
        and all(chance(c) or (isinstance(c, tuple) and c and all(chance(x) for x in c)) for _, c in table)
    )


CASUAL_PLAY = FilterKind("casual", 0.5, ((26, 1.0),), "suit", 1.0)
"""Knocks at 26 or more; collects one suit, taking a discard of it whenever it raises the
hand and throwing the lowest card outside it: the ``tip`` player's tips (it takes and throws
exactly as tip does, as the calibration study in research/calibration checks)."""
STRONG_PLAY = FilterKind(
    "strong",
    0.5,
    (
        (26, (0.85, 0.76, 0.53, 0.44, 0.4, 0.37, 0.42, 0.28)),
        (27, (0.91, 0.85, 0.69, 0.62, 0.55, 0.55, 0.51, 0.54)),
        (28, (0.94, 0.89, 0.78, 0.74, 0.72, 0.72, 0.7, 0.7)),
        (29, (0.97, 0.93, 0.87, 0.87, 0.84, 0.85, 0.84, 0.84)),
        (30, (0.95, 0.95, 0.91, 0.91, 0.87, 0.85, 0.86, 0.8)),
    ),
    "horizon",
    1.0,
    rule_slip=0.02,
    knocks_heads_up=(
        (26, (0.33, 0.29, 0.39, 0.46, 0.3, 0.02, 0.02, 0.01)),
        (27, (0.52, 0.48, 0.46, 0.51, 0.58, 0.62, 0.32, 0.01)),
        (28, (0.71, 0.63, 0.48, 0.54, 0.62, 0.63, 0.72, 0.2)),
        (29, (0.81, 0.88, 0.78, 0.74, 0.7, 0.72, 0.79, 0.53)),
        (30, (0.99, 0.99, 0.99, 0.99, 0.99, 0.99, 0.99, 0.95)),
    ),
    feed_margin=2.0,
    knocks_two=(
        (26, (0.32, 0.17, 0.21, 0.28, 0.2, 0.0, 0.01, 0.0)),
        (27, (0.42, 0.39, 0.29, 0.29, 0.4, 0.54, 0.34, 0.0)),
        (28, (0.7, 0.57, 0.42, 0.41, 0.44, 0.49, 0.56, 0.2)),
        (29, (0.85, 0.86, 0.75, 0.67, 0.64, 0.67, 0.71, 0.45)),
        (30, (0.99, 0.99, 0.99, 0.99, 0.99, 0.99, 0.99, 0.97)),
    ),
)
"""Chooses its cards as the ``expert`` does: hands valued five turns ahead, a discard worth
more than drawing always taken, the card thrown by the expert's order and feed rule (the
same card as the expert at every turn before a knock in the tests' games); knocks with the
expert's measured chances, by the hand's value (26 to 30) and the turns it has played in
the hand (0 to 7 or more): the expert knocks early with hands it holds back later (against
two opponents a 26 at 85% at its first turn and 28% after seven; heads-up it hardly ever
knocks a 26 or 27 after seven turns). The chances were measured by the calibration study
(research/calibration) in 3-player classic games (the heads-up chances from the hands left
to two players) and in games dealt to two; each cell is the share of knocks shrunk toward
the value's share over all turns as if 20 more turns had been seen there, at most 99% so
that no hand is ruled out. At a turn that carries a
:class:`KnockRule` it knocks by that rule instead, with a 2% slip (``rule_slip``): in the
tests' games of two the rule read at the expert's real hand knocked exactly when the expert
did."""
TIP_PLAY = FilterKind("tip", 0.5, ((26, 1.0),), "suit", 1.0, slip=0.0)
"""The ``tip`` player exactly: the casual kind without its slip (it never throws, takes or
passes against its tips). Not in :data:`LOG_KINDS`: the model in play is not told who its
opponents are; the calibration study (research/calibration) uses it for the ``tip`` players
in its model ``"told"``, to tell the picture's error that comes from not knowing the kind
(and the slip) from the rest.

>>> TIP_PLAY.slip, TIP_PLAY.knock_chance(26), TIP_PLAY.knock_chance(25.5)
(0.0, 1.0, 0.0)
"""
LOG_KINDS: tuple[FilterKind, ...] = (CASUAL_PLAY, STRONG_PLAY)
"""The stated policy's opponent when the log is known: casual or strong, with even odds in a
game's first hand and odds learned from the hands shown after it."""

_CACHE_SIZE = 96
_EVIDENCE_SIZE = 4096


class LogFilter:
    """The filter for one set of rules (scoring and knock restrictions); build with :meth:`of`."""

    def __init__(
        self, rules: RuleSet, kinds: tuple[FilterKind, ...], heads_up: bool = False, two_players: bool = False
    ) -> None:
        tables = tables_for(rules)
        self.tables: Tables = tables
        self.scoring = scoring_rules(rules)
        self.kinds = kinds
        self.heads_up = heads_up
        self.two_players = two_players
        rows = tables.rows
        m = len(rows)
        self.m = m
        self.deck_size = tables.deck_size
        self.blitz: BoolArray = tables.value2 >= BLITZ2
        self.discard: IntArray = tables.discard
        self.valid: BoolArray = self.discard >= 0
        suits = rows // 13
        self.take_masks: tuple[BoolArray, ...] = _take_masks(tables, kinds, self.valid, suits)
        """Per kind, ``[card, row]``: the kind would take ``card`` into hand ``row`` (if it does take)."""
        self.last_take_mask: BoolArray = _last_take_mask(tables)
        """``[card, row]``: on a last turn, the ``horizon`` kind would take ``card`` into hand
        ``row`` (the best three with it at least as strong as a draw keeps on average)."""
        self._throw_keys: tuple[ThrowKey, ...] = tuple(_throw_way(k) for k in kinds)
        _build_rankings(self.scoring, self._throw_keys)
        allowed = _knock_allowed(rules, tables, suits, self.blitz)
        self.allowed: BoolArray = allowed & (tables.value2 >= 52)
        """Per row: a knock is allowed with the hand and it is worth 26 or more (where a
        :class:`KnockRule` may knock)."""
        self._rule_counts: FloatArray | None = None
        """For :meth:`rule_knocks`, per row of ``_rule_rows`` (the rows of ``allowed``): how
        many of the cards it can draw keep each value in half points (built on first use)."""
        self._rule_rows: IntArray = np.zeros(0, dtype=np.int64)
        self._rule_draws: FloatArray = np.ones(0)
        """Per row of ``_rule_rows``: how many cards it can draw."""
        self.knocks: tuple[FloatArray, ...] = _knock_chances(kinds, allowed, tables.value2, heads_up, two_players)
        """Per kind, ``[played, row]``: the chance of knocking with hand ``row`` at a turn after
        ``played`` turns of its own (the last row for every later turn)."""
        self.goes_on: tuple[tuple[FloatArray, ...], ...] = tuple(
            tuple(_read_only(1.0 - row) for row in table) for table in self.knocks
        )
        """Per kind, ``[played][row]``: ``1 - knocks[k][played]``, the chance of playing the turn
        on (worked out once: every step reads one)."""
        self._blitz_rows: IntArray = np.flatnonzero(self.blitz)
        self._ones = np.ones(m)
        self._cache: OrderedDict[tuple[int, tuple[Turn, ...]], tuple[FloatArray, float]] = OrderedDict()
        self._evidence: OrderedDict[tuple[tuple[Turn, ...], tuple[int, int, int]], tuple[float, ...]] = OrderedDict()

    @staticmethod
    def of(
        rules: RuleSet, kinds: tuple[FilterKind, ...] = LOG_KINDS, heads_up: bool = False, two_players: bool = False
    ) -> LogFilter:
        """The filter for ``rules`` and a hand of two players (``heads_up``) or more, in a
        game dealt to two players (``two_players``) or more (built once per scoring and
        knock rules and kept; about 0.1 s with the tables it reads kept on disk,
        :mod:`scatlab.analysis.counting.store`, about a second the first time on a machine)."""
        return _filter(
            scoring_rules(rules), rules.min_knock, rules.knock_needs_flush, kinds, heads_up or two_players, two_players
        )

    # -- one turn -------------------------------------------------------------------------

    def throw_table(
        self, k: int, avoid: frozenset[Suit] = frozenset(), taken: bool = False, last: bool = False
    ) -> ThrowArray:
        """``[row, card]``: the card kind ``k`` throws after adding ``card`` to hand ``row``
        (-1 where it cannot be added), when the next player has taken the suits ``avoid``
        from the pile, with ``taken`` when ``card`` was taken (it cannot go back, C5), and
        with ``last`` on a last turn after a knock: picked from the kind's ranking of the
        cards (built on first use, about 0.3 s, shared by every filter of the same scoring
        rules) per suits to avoid, in a few milliseconds. (The filter itself ranks only the
        hands a turn can reach, :meth:`step`.)

        >>> from scatlab.rules import find_rules
        >>> from scatlab.cards import Suit, parse_card, parse_cards
        >>> f = LogFilter.of(find_rules("classic"))
        >>> row = f.tables.row(sorted(c.index for c in parse_cards("KH QH 9C")))
        >>> ah, strong = parse_card("AH").index, 1
        >>> str(ALL_CARDS[f.throw_table(strong)[row, ah]])                  # keeps A K Q of hearts
        '9C'
        >>> str(ALL_CARDS[f.throw_table(strong, frozenset({Suit.CLUBS}))[row, ah]])  # 9C is safe to throw anyway
        '9C'
        """
        if not (isinstance(k, int) and 0 <= k < len(self.kinds)):
            raise AnalysisError(f"kind {k!r} is not allowed: the index of one of the {len(self.kinds)} kinds")
        if not (isinstance(avoid, frozenset) and all(isinstance(s, Suit) for s in avoid)):
            raise AnalysisError(f"avoid={avoid!r} is not allowed: a frozenset of Suits")
        key, mask = self._throw_key(k, last, avoid)
        if key[0] == "now":
            return self.discard
        return row_throws(self.scoring, key, taken, mask)

    def _throw_key(self, k: int, last: bool, avoid: frozenset[Suit]) -> tuple[ThrowKey, int]:
        """How kind ``k`` throws (``("now", ...)``: by value now, the drawn card back on a
        tie; ``("suit", ...)``: as ``tip``; ``("horizon", horizon, feed margin)``: as the
        expert; ``("last", ...)``: as the expert on a last turn) and the bits of the suits
        to avoid that matter to it."""
        key = self._throw_keys[k]
        if key[0] == "horizon" and last:
            return ("last", 0, 0.0), 0
        if key[0] == "now":
            return key, 0
        return key, sum(1 << SUIT_ORDER.index(s) for s in avoid)

    def take_mask(self, k: int, last: bool = False) -> BoolArray:
        """``[card, row]``: whether kind ``k`` would take ``card`` into hand ``row`` (on a
        ``last`` turn after a knock, the ``horizon`` kind's rule for the hand now)."""
        return self.last_take_mask if last and self.kinds[k].takes == "horizon" else self.take_masks[k]

    def _take_chance(self, k: int, hands: IntArray | slice, card: int, last: bool = False) -> FloatArray:
        kind = self.kinds[k]
        helps = self.take_mask(k, last)[card, hands]
        return np.where(helps, kind.slip + (1.0 - 2.0 * kind.slip) * kind.take, kind.slip)

    def step(self, k: int, w: FloatArray, turn: Turn, played: int = 0) -> FloatArray:
        """The weights after one more turn of kind ``k`` (unnormalised), ``played`` turns of
        its own into the hand."""
        whole_number("played", played, 0, error=AnalysisError)  # turns played before this one
        kind = self.kinds[k]
        tables = self.tables
        factor: FloatArray | None = None  # each hand's chance of playing this turn on as seen
        if turn.may_knock:
            if kind.rule_slip is not None and turn.knock_rule is not None:
                knock = self.rule_knocks(turn.knock_rule, kind.rule_slip)
                goes_on = 1.0 - knock
            else:
                knocks = self.knocks[k]
                knock = knocks[min(played, len(knocks) - 1)]
                goes_on = self.goes_on[k][min(played, len(knocks) - 1)]
            if turn.action == "knock":
                return np.asarray(w * np.maximum(knock, 0.01), dtype=np.float64)
            factor = goes_on
        elif turn.action == "knock":
            return w
        card = turn.card.index if turn.card is not None else None
        assert turn.thrown is not None
        x = turn.thrown.index
        key, mask = self._throw_key(k, turn.last, turn.next_took)
        if turn.action == "take":
            assert card is not None
            rows, new, best = take_moves(self.scoring, key, mask, x, card)
            slip = kind.slip  # a taken card is never thrown: a slip is one of the two other cards
            thrown = np.where(best == card, 1.0 / 3.0, np.where(best == x, 1.0 - slip, slip / 2.0))
            chance = w[rows] * self._take_chance(k, rows, card, turn.last) * thrown
            if factor is not None:
                chance *= factor[rows]
            return np.asarray(np.bincount(new, weights=chance, minlength=self.m), dtype=np.float64)
        if card is not None:  # passed over the top discard to draw: 1 - the chance of taking it
            passes = np.where(
                self.take_mask(k, turn.last)[card],
                1.0 - (kind.slip + (1.0 - 2.0 * kind.slip) * kind.take),
                1.0 - kind.slip,
            )
            factor = passes if factor is None else factor * passes
            factor[rows_holding(self.scoring, card).rows] = 0.0
        others = self.deck_size - 3 - (card is not None)
        layout = deck_layout(self.scoring)
        place = int(deck_places(self.scoring)[x])
        keep, slip = (1.0 - kind.slip) / others, kind.slip / 3.0 / others
        if key[0] == "now":  # the drawn card goes back on a tie: which card was drawn matters
            dest, src, _ = layout.moves(place)
            v = w if factor is None else w * factor
            drawn = tables.rows[dest].T
            chance = np.where(self.discard[src, drawn] == x, keep, slip)
            out = np.zeros(self.m)
            out[dest] = (v[src] * chance).sum(axis=0) + v[dest] * np.where(self.discard[dest, x] == x, keep, slip)
        else:  # the card thrown depends only on the four cards: one chance per hand kept
            out = draw_step(
                w,
                self._ones if factor is None else factor,
                x,
                place,
                layout,
                thrown_by_place(self.scoring, key, mask, place),
                keep,
                slip,
            )
        if card is not None:  # a hand kept with the card passed over drew it: it cannot have
            out[rows_holding(self.scoring, card).rows] = 0.0
        return out

    def rule_knocks(self, rule: KnockRule, slip: float) -> FloatArray:
        """Per row: the chance of knocking by ``rule`` (:class:`KnockRule`) with ``slip``
        (see :attr:`FilterKind.rule_slip`); 0 where no knock is allowed or the hand is worth
        less than 26.

        >>> from scatlab.rules import find_rules
        >>> f = LogFilter.of(find_rules("classic"))
        >>> always = KnockRule((-math.inf,) * 67, (0.0,) * 67)
        >>> sorted(set(f.rule_knocks(always, 0.02).round(2).tolist()))
        [0.0, 0.98]
        >>> float(f.rule_knocks(KnockRule.never(), 0.02).max())
        0.02
        """
        if self._rule_counts is None:  # per hand that may knock, its draws by the value kept: built on first use
            rows = np.flatnonzero(self.allowed)
            valid = self.valid[rows]
            kept = np.minimum(self.tables.after_draw[rows] >> RANK_BITS, _VALUES2 - 1)
            counts = np.zeros((len(rows), _VALUES2))
            i, d = np.nonzero(valid)
            np.add.at(counts, (i, kept[i, d]), 1.0)
            self._rule_rows = rows
            self._rule_counts = counts
            self._rule_draws = np.maximum(valid.sum(axis=1), 1).astype(np.float64)
        rows = self._rule_rows
        on = (self._rule_counts @ np.asarray(rule.risk, dtype=np.float64)) / self._rule_draws
        knocks = on >= np.asarray(rule.threshold, dtype=np.float64)[self.tables.value2[rows]]
        out = np.zeros(self.m)
        out[rows] = np.where(knocks, 1.0 - slip, slip)
        return out

    # -- a whole log ----------------------------------------------------------------------

    def _kind_weights(self, k: int, log: tuple[Turn, ...]) -> tuple[FloatArray, float]:
        """Kind ``k``'s weights after ``log``, normalised to sum 1, and the log of the scale
        (so the weights are ``exp(scale) * w`` with the kind's share): from the longest
        cached start of the log, one step per turn after it, each kept in the cache."""
        done = len(log)
        while done > 0 and (k, log[:done]) not in self._cache:
            done -= 1
        state = self._cache.get((k, log[:done]))
        if state is None:  # nothing seen yet: every hand but a 31, alike
            w = np.where(self.blitz, 0.0, 1.0)
            total = float(w.sum())
            state = (w / total, math.log(self.kinds[k].share * total / self.m))
            self._remember((k, ()), state)
        self._cache.move_to_end((k, log[:done]))
        for n in range(done, len(log)):
            before, scale = state
            w = self.step(k, before, log[n], n)
            w[self._blitz_rows] = 0.0
            total = float(w.sum())
            state = (w / total, scale + math.log(total)) if total > 0 else (w, -math.inf)
            self._remember((k, log[: n + 1]), state)
        return state

    def _remember(self, key: tuple[int, tuple[Turn, ...]], state: tuple[FloatArray, float]) -> None:
        self._cache[key] = state
        if len(self._cache) > _CACHE_SIZE:
            self._cache.popitem(last=False)

    def clear_cache(self) -> None:
        """Forget the cached weights (benchmarks time the filter from scratch with it)."""
        self._cache.clear()
        self._evidence.clear()

    def _scales(self, log: tuple[Turn, ...], odds: tuple[float, ...] | None) -> list[tuple[FloatArray, float]]:
        """Each kind's normalised weights after ``log`` and the log of its scale, with the
        kinds' shares replaced by ``odds`` when given."""
        parts = [self._kind_weights(k, log) for k in range(len(self.kinds))]
        if odds is None:
            return parts
        if (
            len(odds) != len(self.kinds)
            or not all(isinstance(o, (int, float)) and o >= 0 for o in odds)
            or not sum(odds) > 0
        ):
            raise AnalysisError(
                f"kind odds {odds!r} are not allowed: one chance of 0 or more for each of "
                f"the {len(self.kinds)} kinds, not all 0"
            )
        return [
            (w, scale - math.log(kind.share) + math.log(o) if o > 0 else -math.inf)
            for (w, scale), kind, o in zip(parts, self.kinds, odds)
        ]

    def weights(self, log: tuple[Turn, ...], odds: tuple[float, ...] | None = None) -> FloatArray:
        """The weight of every hand (row of the tables) after ``log``, the kinds summed by
        their shares (or ``odds``, each kind's chance before the hand) and their likelihood
        of the log, scaled so the largest is 1 (all 0 when no kind could have played the
        log)."""
        parts = self._scales(log, odds)
        top = max(scale for _, scale in parts)
        if top == -math.inf:
            return np.zeros(self.m)
        # the kinds' terms added in order (0 + a is a; the likeliest kind's factor is exp(0) = 1)
        w: FloatArray | None = None
        for wk, scale in parts:
            if scale > -math.inf:
                term = wk if scale == top else np.exp(scale - top) * wk
                w = term if w is None else w + term
        assert w is not None
        return np.asarray(w / w.max(), dtype=np.float64)

    def kind_odds(self, log: tuple[Turn, ...], odds: tuple[float, ...] | None = None) -> tuple[float, ...]:
        """Each kind's probability after ``log`` (the shares, or ``odds``, times the chance
        of the log).

        >>> from scatlab.rules import find_rules
        >>> LogFilter.of(find_rules("classic")).kind_odds(())
        (0.5, 0.5)
        >>> [round(x, 9) for x in LogFilter.of(find_rules("classic")).kind_odds((), odds=(0.9, 0.1))]
        [0.9, 0.1]
        """
        scales = [scale for _, scale in self._scales(log, odds)]
        top = max(scales)
        if top == -math.inf:
            return tuple(0.0 for _ in scales)
        e = [math.exp(s - top) for s in scales]
        return tuple(x / sum(e) for x in e)

    def evidence(self, log: tuple[Turn, ...], final: tuple[int, int, int]) -> tuple[float, ...]:
        """Each kind's log chance of playing ``log`` and ending the hand holding ``final``
        (three card indices, the hand shown at the showdown), from a uniformly random deal;
        ``-inf`` where the kind could not have (cached: a finished hand is asked about on
        every later turn of the game).

        >>> from scatlab.rules import find_rules
        >>> from scatlab.cards import parse_card
        >>> f = LogFilter.of(find_rules("classic"))
        >>> knock = (Turn("knock", None),)
        >>> casual, strong = f.evidence(knock, (0, 1, 2))      # the 2 3 4 of clubs, worth 9
        >>> round(strong - casual, 6)                           # 1% floor against 0% knocks each
        0.0
        >>> casual, strong = f.evidence(knock, (9, 10, 11))     # 10 J Q of clubs, worth 30
        >>> round(math.exp(casual - strong), 2)                 # knocks always against 95% at a first turn
        1.05
        """
        key = (log, final)
        found = self._evidence.get(key)
        if found is not None:
            self._evidence.move_to_end(key)
            return found
        row = self.tables.row(sorted(final))
        out = []
        for k, kind in enumerate(self.kinds):  # the log's weights, from the turns cached while it was played
            w, scale = self._kind_weights(k, log)
            out.append(
                scale - math.log(kind.share) + math.log(w[row]) if scale > -math.inf and w[row] > 0 else -math.inf
            )
        result = tuple(out)
        self._evidence[key] = result
        if len(self._evidence) > _EVIDENCE_SIZE:
            self._evidence.popitem(last=False)
        return result


def _in_target_suit(tables: Tables, suits: IntArray) -> BoolArray:
    """``[row, card]``: ``card`` is of the suit hand ``row`` collects (most points, most cards, clubs first)."""
    rows = tables.rows
    m = len(rows)
    values = np.array([c.value for c in ALL_CARDS], dtype=np.int64)[rows]
    totals = np.zeros((m, 4), dtype=np.int64)
    counts = np.zeros((m, 4), dtype=np.int64)
    for j in range(3):
        np.add.at(totals, (np.arange(m), suits[:, j]), values[:, j])
        np.add.at(counts, (np.arange(m), suits[:, j]), 1)
    target = np.argmax(totals * 64 + counts * 8 + (3 - np.arange(4))[None, :], axis=1)  # ties: clubs first
    in_target: BoolArray = (np.arange(52)[None, :] // 13) == target[:, None]
    return in_target


def _take_masks(
    tables: Tables, kinds: tuple[FilterKind, ...], valid: BoolArray, suits: IntArray
) -> tuple[BoolArray, ...]:
    """Per kind, ``[card, row]``: whether the kind would take ``card`` into hand ``row`` (by its ``takes``)."""
    improves = valid & (tables.after_draw > tables.strength[:, None])
    in_target = _in_target_suit(tables, suits)
    ahead = {k.horizon: _horizon_takes(tables, k.horizon) for k in kinds if k.takes == "horizon"}
    return tuple(
        np.ascontiguousarray(
            (improves & in_target if k.takes == "suit" else improves if k.takes == "better" else ahead[k.horizon]).T
        )
        for k in kinds
    )


def _last_take_mask(tables: Tables) -> BoolArray:
    """``[card, row]``: on a last turn, the best three with ``card`` are as strong as a draw keeps
    on average (:func:`_last_takes`, kept on disk: :mod:`~scatlab.analysis.counting.store`)."""
    takes = cached("last-takes", tables.key, lambda: {"takes": _last_takes(tables)}, sources=(__file__, TABLES_SOURCE))
    return np.ascontiguousarray(takes["takes"], dtype=np.bool_)


def _last_takes(tables: Tables) -> BoolArray:
    """:func:`_last_take_mask`, built (about 0.05 s)."""
    rows = tables.rows
    valid = tables.discard >= 0
    with_card = np.maximum(
        np.maximum(
            tables.triple[rows[:, 1:2], rows[:, 2:3], np.arange(52)[None, :]],
            tables.triple[rows[:, 0:1], rows[:, 2:3], np.arange(52)[None, :]],
        ),
        tables.triple[rows[:, 0:1], rows[:, 1:2], np.arange(52)[None, :]],
    )
    draw_mean = np.where(valid, tables.after_draw, 0).sum(axis=1) / np.maximum(valid.sum(axis=1), 1)
    return np.ascontiguousarray((valid & (with_card >= draw_mean[:, None])).T)


def _throw_way(kind: FilterKind) -> ThrowKey:
    """How ``kind`` throws: as the expert (``horizon``), as ``tip`` (``suit``), else by value now."""
    if kind.takes == "horizon":
        return ("horizon", kind.horizon, float(kind.feed_margin))
    if kind.takes == "suit":
        return ("suit", 0, 0.0)
    return ("now", 0, 0.0)


def _build_rankings(scoring: RuleSet, keys: tuple[ThrowKey, ...]) -> None:
    """Build now, not mid-game, every ranking of the cards a draw may need for the ways ``keys``."""
    for key in dict.fromkeys(keys):
        for way in (key, ("last", 0, 0.0)) if key[0] == "horizon" else (key,):
            if way[0] != "now":
                quad_ranks(scoring, way)


def _knock_allowed(rules: RuleSet, tables: Tables, suits: IntArray, blitz: BoolArray) -> BoolArray:
    """Per row: the rules let the hand knock (not a 31; V4's minimum, V5's flush)."""
    v2 = tables.value2
    allowed = ~blitz
    if rules.min_knock is not None:
        allowed &= v2 >= 2 * rules.min_knock
    if rules.knock_needs_flush:
        allowed &= (suits[:, 0] == suits[:, 1]) & (suits[:, 1] == suits[:, 2])
    return allowed


def _knock_chances(
    kinds: tuple[FilterKind, ...], allowed: BoolArray, v2: IntArray, heads_up: bool, two_players: bool
) -> tuple[FloatArray, ...]:
    """Per kind, ``[played, row]``: the kind's chance of knocking with hand ``row`` (0 where not ``allowed``)."""
    top = int(v2.max()) + 1
    return tuple(
        np.where(
            allowed[None, :],
            np.array(
                [[k.knock_chance(v / 2, heads_up, two_players, t) for v in range(top)] for t in range(k.knock_turns)]
            )[:, v2],
            0.0,
        )
        for k in kinds
    )


def _read_only(a: FloatArray) -> FloatArray:
    """``a``, made read-only (an array the filter keeps and shares)."""
    a.flags.writeable = False
    return a


def _horizon_takes(tables: Tables, horizon: int) -> BoolArray:
    """``[row, d]``: whether a player valuing hands ``horizon`` turns ahead
    (:func:`scatlab.analysis.counting.horizon.horizon_table`) takes ``d`` into hand ``row``: when the
    best three it can keep with ``d`` are worth more than drawing, whose worth is the hand's
    value one turn further ahead. (Drawing is worth at least keeping the hand, so the three
    that beat it keep ``d``, as a taken card must, C5.)"""

    def build() -> dict[str, BoolArray]:
        best, _ = tables.after_draw_by(horizon_table(tables, horizon))
        further = horizon_table(tables, horizon + 1)
        # E_h is scaled by 2 * (n-3)**h, E_(h+1) by 2 * (n-3)**(h+1)
        return {"takes": np.asarray((best >= 0) & (best * (tables.deck_size - 3) > further[:, None]), dtype=np.bool_)}

    found = tables.horizon_takes.get(horizon)
    if found is None:  # kept on the tables (every filter of the scoring rules) and on disk
        found = np.asarray(
            cached("horizon-takes", (tables.key, horizon), build, sources=(__file__, TABLES_SOURCE))["takes"],
            dtype=np.bool_,
        )
        tables.horizon_takes[horizon] = found
    return found


@lru_cache(maxsize=8)
def _filter(
    scoring: RuleSet,
    min_knock: int | None,
    flush: bool,
    kinds: tuple[FilterKind, ...],
    heads_up: bool,
    two_players: bool,
) -> LogFilter:
    return LogFilter(scoring.replace(min_knock=min_knock, knock_needs_flush=flush), kinds, heads_up, two_players)
