"""Following an opponent's hand turn by turn: the adaptive model's filter over a game's log.

When the whole log of the current hand is known (in play: the knock risk from a player's
view, the ``expert``, the review, the calibration study), the adaptive opponent model
(:mod:`scatlab.analysis.opponents`) follows each opponent through every turn they played,
as a Bayesian filter over all 3-card hands (22,100 for 52 cards), once for each kind of
player they may be (:data:`LOG_KINDS`). Each kind states how it plays:

- at the start of a turn it knocks with its **knock chance** for the hand's value
  (:attr:`FilterKind.knocks`), where the rules allow a knock (a knock seen with a hand the
  kind would not knock with counts with a chance of 1%, so a surprising knock does not
  rule every hand out);
- it **takes** the top discard with chance ``take`` when the card is worth taking, and
  otherwise with chance ``slip`` (2%); if it does not take, it draws a card uniformly from
  the cards neither in its hand nor face up. Worth taking: with ``takes="suit"`` a card of
  the hand's target suit (the suit worth most, ties to more cards, then clubs, diamonds,
  hearts, spades) that makes the hand strictly stronger; with ``takes="better"`` any card
  that does; with ``takes="horizon"`` a card with which the best three it can keep are
  worth more, valued ``horizon`` turns ahead (:mod:`scatlab.analysis.horizon`), than
  drawing is (the hand's value one turn further ahead): how the ``expert`` chooses;
- it **throws** the card that keeps the strongest three (``takes="horizon"``: the three
  worth most ``horizon`` turns ahead), the drawn card back on a tie, else the lowest; and
  with chance ``slip`` one of the other three cards instead, each alike (a card just taken
  is never thrown, C5);
- a hand worth 31 has been declared (C8) and drops out, as does a hand that knocked.

The opponent starts from a uniformly random hand; each observed turn multiplies every hand
by the chance of what was seen (no knock or the knock, the take or the pass, the card
thrown) and moves it to the hand kept. So the weight of a hand is the chance that this kind
of player, dealt at random, would have played exactly the turns seen and now hold it. The
kinds are summed with their shares (or with odds learned before the hand, see
:meth:`LogFilter.weights`): an opponent whose play fits the strong kind better counts as
strong for more, turn by turn. :meth:`LogFilter.evidence` reads a finished hand the same
way: each kind's chance of the turns seen and of the hand shown at the showdown, from which
:mod:`scatlab.analysis.opponents` learns each opponent's odds over a game.

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
from typing import Literal

import numpy as np
import numpy.typing as npt

from ..cards import ALL_CARDS, Card
from ..errors import AnalysisError
from ..rules.options import RuleSet
from .horizon import MAX_HORIZON, horizon_table
from .tables import BLITZ2, Tables, scoring_rules, tables_for

__all__ = ["TurnAction", "Turn", "FilterKind", "CASUAL_PLAY", "STRONG_PLAY", "LOG_KINDS", "LogFilter"]

TurnAction = Literal["draw", "take", "knock"]
FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class Turn:
    """One turn of an opponent, as everyone saw it.

    ``action``: ``"draw"`` (from the stock, passing over ``card``, the top discard, or
    ``None`` when the pile was empty), ``"take"`` (took ``card`` from the pile) or
    ``"knock"`` (knocked instead of drawing, C6, or called a hammer, V10); ``thrown``: the
    card discarded (``None`` for a knock);
    ``may_knock``: whether the rules let this player knock at the start of this turn (not
    after someone knocked, nor in the first round under V6).

    >>> from scatlab.cards import parse_card
    >>> Turn("take", parse_card("QH"), parse_card("2C")).action
    'take'
    """

    action: TurnAction
    card: Card | None
    thrown: Card | None = None
    may_knock: bool = True

    def __post_init__(self) -> None:
        for name in ("card", "thrown"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, Card):
                raise AnalysisError(f"turn {name}={value!r} is not allowed: a Card or None")
        if not isinstance(self.may_knock, bool):
            raise AnalysisError(f"may_knock={self.may_knock!r} is not allowed: True or False")
        if self.action not in ("draw", "take", "knock"):
            raise AnalysisError(f"turn action {self.action!r} is not an action: use 'draw', 'take' or 'knock'")
        if self.action == "take" and (self.card is None or self.thrown is None):
            raise AnalysisError(f"a take needs the card taken and the card thrown, not {self.card!r} and {self.thrown!r}")
        if self.action == "draw" and self.thrown is None:
            raise AnalysisError("a draw needs the card thrown")
        if self.action == "take" and self.thrown == self.card:
            raise AnalysisError(f"a card just taken ({self.card}) cannot be thrown (C5)")
        if self.action == "draw" and self.card is not None and self.thrown == self.card:
            raise AnalysisError(f"the {self.card} passed over stayed on the pile: it cannot be the card thrown")


@dataclass(frozen=True)
class FilterKind:
    """A kind of player as the filter follows it (see the module doc).

    >>> CASUAL_PLAY.knock_chance(26), STRONG_PLAY.knock_chance(28), STRONG_PLAY.knock_chance(28, heads_up=True)
    (1.0, 0.75, 0.49)
    >>> STRONG_PLAY.knock_chance(25)
    0.0
    """

    name: str
    share: float
    knocks: tuple[tuple[int, float], ...]
    takes: Literal["suit", "better", "horizon"]
    take: float
    slip: float = 0.02
    knocks_heads_up: tuple[tuple[int, float], ...] | None = None
    """The knock chances in a hand of two players (None: the same as ``knocks``)."""
    horizon: int = 5
    """With ``takes="horizon"``: how many turns ahead hands are valued (the expert's 5)."""

    def __post_init__(self) -> None:
        if self.takes not in ("suit", "better", "horizon"):
            raise AnalysisError(f"takes={self.takes!r} is not allowed: 'suit', 'better' or 'horizon'")
        if not (isinstance(self.horizon, int) and 0 <= self.horizon < MAX_HORIZON):
            raise AnalysisError(f"horizon={self.horizon!r} is not allowed: a whole number of turns from 0 to "
                                f"{MAX_HORIZON - 1} (drawing is valued one turn further)")

    def knock_chance(self, value: float, heads_up: bool = False) -> float:
        """The chance of knocking, where allowed, with a hand worth ``value`` (in a hand of
        two players with ``heads_up``)."""
        steps = self.knocks_heads_up if heads_up and self.knocks_heads_up is not None else self.knocks
        chance = 0.0
        for step, c in steps:
            if value >= step:
                chance = c
        return chance


CASUAL_PLAY = FilterKind("casual", 0.5, ((26, 1.0),), "suit", 1.0)
"""Knocks at 26 or more; collects one suit, taking a discard of it whenever it raises the
hand (like the ``tip`` player)."""
STRONG_PLAY = FilterKind("strong", 0.5, ((26, 0.43), (27, 0.61), (28, 0.75), (29, 0.86), (30, 0.88)), "horizon", 0.6,
                         knocks_heads_up=((26, 0.17), (27, 0.33), (28, 0.49), (29, 0.68), (30, 0.99)))
"""Chooses its cards as the ``expert`` does, valuing hands five turns ahead (60% of the time
it takes a discard worth more than drawing); knocks with the expert's measured chances: 43%, 61%,
75%, 86% and 88% of its 26s to 30s against two opponents, 17%, 33%, 49%, 68% and 99%
heads-up (``benchmarks/calibrate.py --knock-chances --games 3000 --seed 12``, the expert of
the version before this kind; 3-player classic, the heads-up chances from the hands left
to two players). Kept value-now cards instead, the kind needed knock chances of 3% to 80%
to leave the filter the strong hands the expert really holds."""
LOG_KINDS: tuple[FilterKind, ...] = (CASUAL_PLAY, STRONG_PLAY)
"""The stated policy's opponent when the log is known: casual or strong, with even odds in a
game's first hand and odds learned from the hands shown after it."""

_CACHE_SIZE = 96
_EVIDENCE_SIZE = 4096


@dataclass(frozen=True)
class _DrawMoves:
    """For one thrown card ``x``: each (hand with ``x``, drawn card) pair, the hand kept and
    whether keeping the strongest three throws ``x``; and the hands without ``x`` that could
    draw it and throw it back."""

    source: IntArray
    drawn: IntArray
    dest: IntArray
    best: BoolArray
    back: IntArray
    back_best: BoolArray


class LogFilter:
    """The filter for one set of rules (scoring and knock restrictions); build with :meth:`of`."""

    def __init__(self, rules: RuleSet, kinds: tuple[FilterKind, ...], heads_up: bool = False) -> None:
        tables = tables_for(rules)
        self.tables: Tables = tables
        self.kinds = kinds
        self.heads_up = heads_up
        rows = tables.rows
        m = len(rows)
        self.m = m
        self.deck_size = tables.deck_size
        self.blitz: BoolArray = tables.value2 >= BLITZ2
        self.discard: IntArray = tables.discard
        self.valid: BoolArray = self.discard >= 0
        improves = self.valid & (tables.after_draw > tables.strength[:, None])
        suits = rows // 13
        values = np.array([c.value for c in ALL_CARDS], dtype=np.int64)[rows]
        totals = np.zeros((m, 4), dtype=np.int64)
        counts = np.zeros((m, 4), dtype=np.int64)
        for j in range(3):
            np.add.at(totals, (np.arange(m), suits[:, j]), values[:, j])
            np.add.at(counts, (np.arange(m), suits[:, j]), 1)
        target = np.argmax(totals * 64 + counts * 8 + (3 - np.arange(4))[None, :], axis=1)  # ties: clubs first
        in_target = (np.arange(52)[None, :] // 13) == target[:, None]
        ahead = {k.horizon: _horizon_play(tables, k.horizon) for k in kinds if k.takes == "horizon"}
        self.take_masks: tuple[BoolArray, ...] = tuple(np.ascontiguousarray(
            (improves & in_target if k.takes == "suit" else improves if k.takes == "better" else ahead[k.horizon][1]).T)
            for k in kinds)
        """Per kind, ``[card, row]``: the kind would take ``card`` into hand ``row`` (if it does take)."""
        self.throws: tuple[IntArray, ...] = tuple(
            ahead[k.horizon][0] if k.takes == "horizon" else self.discard for k in kinds)
        """Per kind, ``[row, card]``: the card it throws after adding ``card`` to hand ``row``."""
        self._throw_keys = tuple(k.horizon if k.takes == "horizon" else -1 for k in kinds)
        self.has = [np.flatnonzero((rows == x).any(axis=1)) for x in range(52)]
        self.lacks = [np.flatnonzero(~(rows == x).any(axis=1)) for x in range(52)]
        self.pair = [rows[r][rows[r] != x].reshape(-1, 2) for x, r in enumerate(self.has)]
        v2 = tables.value2
        allowed = ~self.blitz
        if rules.min_knock is not None:
            allowed &= v2 >= 2 * rules.min_knock
        if rules.knock_needs_flush:
            allowed &= (suits[:, 0] == suits[:, 1]) & (suits[:, 1] == suits[:, 2])
        self.knocks: tuple[FloatArray, ...] = tuple(
            np.where(allowed, np.array([k.knock_chance(v / 2, heads_up) for v in range(int(v2.max()) + 1)])[v2], 0.0)
            for k in kinds)
        self._moves: dict[tuple[int, int], _DrawMoves] = {}
        self._cache: OrderedDict[tuple[int, tuple[Turn, ...]], tuple[FloatArray, float]] = OrderedDict()
        self._evidence: OrderedDict[tuple[tuple[Turn, ...], tuple[int, int, int]], tuple[float, ...]] = OrderedDict()

    @staticmethod
    def of(rules: RuleSet, kinds: tuple[FilterKind, ...] = LOG_KINDS, heads_up: bool = False) -> LogFilter:
        """The filter for ``rules`` and a hand of two players (``heads_up``) or more (built
        once per scoring and knock rules, about 0.1 s)."""
        return _filter(scoring_rules(rules), rules.min_knock, rules.knock_needs_flush, kinds, heads_up)

    # -- one turn -------------------------------------------------------------------------

    def _throw(self, k: int, hands: IntArray, added: IntArray, thrown: int, taken: bool) -> FloatArray:
        """The chance that kind ``k`` throws ``thrown`` from hand row ``hands`` plus card ``added``."""
        slip = self.kinds[k].slip
        best = self.throws[k][hands, added]
        if taken:  # a taken card is never thrown: a slip is one of the two other cards
            return np.where(best == added, 1.0 / 3.0, np.where(best == thrown, 1.0 - slip, slip / 2.0))
        return np.where(best == thrown, 1.0 - slip, slip / 3.0)

    def _take_chance(self, k: int, hands: IntArray | slice, card: int) -> FloatArray:
        kind = self.kinds[k]
        helps = self.take_masks[k][card, hands]
        return np.where(helps, kind.slip + (1.0 - 2.0 * kind.slip) * kind.take, kind.slip)

    def step(self, k: int, w: FloatArray, turn: Turn) -> FloatArray:
        """The weights after one more turn of kind ``k`` (unnormalised)."""
        kind = self.kinds[k]
        tables = self.tables
        if turn.may_knock:
            knock = self.knocks[k]
            if turn.action == "knock":
                return np.asarray(w * np.maximum(knock, 0.01), dtype=np.float64)
            w = w * (1.0 - knock)
        elif turn.action == "knock":
            return w
        card = turn.card.index if turn.card is not None else None
        assert turn.thrown is not None
        x = turn.thrown.index
        if turn.action == "take":
            assert card is not None
            rows = self.has[x]
            pair = self.pair[x]
            ok = ~(tables.rows[rows] == card).any(axis=1)
            rows, pair = rows[ok], pair[ok]
            chance = w[rows] * self._take_chance(k, rows, card) * self._throw(k, rows, np.full(len(rows), card), x,
                                                                               True)
            new = tables.row_of[pair[:, 0], pair[:, 1], card]
            return np.asarray(np.bincount(new, weights=chance, minlength=self.m), dtype=np.float64)
        if card is not None:  # passed over the top discard to draw
            w = w * (1.0 - self._take_chance(k, slice(None), card))
            w[self.has[card]] = 0.0
        others = self.deck_size - 3 - (card is not None)
        moves = self._draw_moves(k, x)
        # the drawn card d stays and x, a card of the hand, goes (hands with x) ...
        chance = w[moves.source] * np.where(moves.best, 1.0 - kind.slip, kind.slip / 3.0)
        if card is not None:
            chance = chance * (moves.drawn != card)
        out: FloatArray = np.asarray(np.bincount(moves.dest, weights=chance, minlength=self.m), dtype=np.float64)
        # ... or the drawn card was x and went back (hands without x keep their cards)
        back = moves.back
        out[back] += w[back] * np.where(moves.back_best, 1.0 - kind.slip, kind.slip / 3.0)
        return np.asarray(out / others, dtype=np.float64)

    def _draw_moves(self, k: int, x: int) -> _DrawMoves:
        """Every way a turn of kind ``k`` drawing from the stock can end with ``x`` thrown
        (cached; kinds that throw alike share it)."""
        key = (self._throw_keys[k], x)
        moves = self._moves.get(key)
        if moves is None:
            throws = self.throws[k]
            tables = self.tables
            rows, pair = self.has[x], self.pair[x]
            ok = self.valid[rows] & (np.arange(52)[None, :] != x)
            i, d = np.nonzero(ok)
            lacks = self.lacks[x]
            back = lacks[self.valid[lacks, x]]
            moves = _DrawMoves(rows[i], d, tables.row_of[pair[i, 0], pair[i, 1], d], throws[rows[i], d] == x,
                               back, throws[back, x] == x)
            self._moves[key] = moves
        return moves

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
            w = self.step(k, before, log[n])
            w[self.blitz] = 0.0
            total = float(w.sum())
            state = (w / total, scale + math.log(total)) if total > 0 else (w, -math.inf)
            self._remember((k, log[:n + 1]), state)
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
        if len(odds) != len(self.kinds) or not all(isinstance(o, (int, float)) and o >= 0 for o in odds) \
                or not sum(odds) > 0:
            raise AnalysisError(f"kind odds {odds!r} are not allowed: one chance of 0 or more for each of "
                                f"the {len(self.kinds)} kinds, not all 0")
        return [(w, scale - math.log(kind.share) + math.log(o) if o > 0 else -math.inf)
                for (w, scale), kind, o in zip(parts, self.kinds, odds)]

    def weights(self, log: tuple[Turn, ...], odds: tuple[float, ...] | None = None) -> FloatArray:
        """The weight of every hand (row of the tables) after ``log``, the kinds summed by
        their shares (or ``odds``, each kind's chance before the hand) and their likelihood
        of the log, scaled so the largest is 1 (all 0 when no kind could have played the
        log)."""
        parts = self._scales(log, odds)
        top = max(scale for _, scale in parts)
        if top == -math.inf:
            return np.zeros(self.m)
        w = sum((np.exp(scale - top) * wk for wk, scale in parts if scale > -math.inf), np.zeros(self.m))
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
        >>> round(math.exp(casual - strong), 2)                 # knocks always against 88%
        1.14
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
            out.append(scale - math.log(kind.share) + math.log(w[row]) if scale > -math.inf and w[row] > 0
                       else -math.inf)
        result = tuple(out)
        self._evidence[key] = result
        if len(self._evidence) > _EVIDENCE_SIZE:
            self._evidence.popitem(last=False)
        return result


def _horizon_play(tables: Tables, horizon: int) -> tuple[IntArray, BoolArray]:
    """``(throws, takes)`` for a player valuing hands ``horizon`` turns ahead
    (:func:`scatlab.analysis.horizon.horizon_table`): ``throws[row, d]``, the card thrown
    after adding ``d`` to hand ``row`` (:meth:`Tables.after_draw_by`: the one whose loss keeps
    the three worth most; ``d`` itself on a tie, else the lowest card; -1 where ``d`` cannot
    be added); ``takes[row, d]``, whether taking ``d`` leaves three worth more than drawing,
    whose worth is the hand's value one turn further ahead. (Drawing is worth at least
    keeping the hand, so the three that beat it keep ``d``, as a taken card must, C5.)"""
    best, throws = tables.after_draw_by(horizon_table(tables, horizon))
    further = horizon_table(tables, horizon + 1)
    # E_h is scaled by 2 * (n-3)**h, E_(h+1) by 2 * (n-3)**(h+1)
    takes = (throws >= 0) & (best * (tables.deck_size - 3) > further[:, None])
    return throws, takes


@lru_cache(maxsize=8)
def _filter(scoring: RuleSet, min_knock: int | None, flush: bool, kinds: tuple[FilterKind, ...],
            heads_up: bool) -> LogFilter:
    return LogFilter(scoring.replace(min_knock=min_knock, knock_needs_flush=flush), kinds, heads_up)
