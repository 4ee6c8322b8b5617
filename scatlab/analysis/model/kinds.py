"""Learning an opponent's kind: the two kinds of player of the stated policies (casual
and strong, :class:`PlayerKind`), the prior chain of their turns that weighs an opponent's
hands from typed-in observations (:func:`!turn_priors`), and each opponent's odds of each kind
of the log filter (:data:`~scatlab.analysis.model.hand_filter.LOG_KINDS`), certain for a seat
the table announced, else learned from the hands shown at earlier showdowns
(:func:`kind_odds`). The opponent model they serve: :mod:`~scatlab.analysis.model.weights`.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from ...rules.options import RuleSet
from ...rules.state import HandResult
from ...rules.view import PastHand, PlayerView
from ..counting.store import cached
from ..counting.tables import BLITZ2, Tables, scoring_rules, tables_for
from ..counting.tables import SOURCE as TABLES_SOURCE
from .hand_filter import LOG_KINDS, KnockChance, LogFilter
from .hand_log import read_hand

__all__ = [
    "CASUAL_KNOCKS",
    "STRONG_KNOCKS",
    "PlayerKind",
    "CASUAL",
    "STRONG",
    "PLAYER_KINDS",
    "MAX_TURNS",
    "ADAPTIVE_POLICY",
    "LOG_POLICY",
    "KIND_EVIDENCE_CAP",
    "ANNOUNCED_KINDS",
    "announced_kind",
    "kind_odds",
    "kind_odds_for",
    "Chain",
    "chain_for",
    "turn_priors",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


CASUAL_KNOCKS: tuple[tuple[int, float], ...] = ((26, 1.0),)
"""A casual player's knock, as ``(value, chance)`` steps in increasing value: at the start
of a turn a hand worth at least ``value`` (and less than the next step's) knocks with that
chance; below the first step it never knocks (a 31 has always been declared, C8). The
``tip`` player: always at 26 or more."""
STRONG_KNOCKS: tuple[tuple[int, float], ...] = ((26, 0.25), (27, 0.4), (28, 0.55), (29, 0.75), (30, 0.95))
"""A strong player's knock in the prior chain: the chance at each value, the ``expert``'s
measured chances (of the first adaptive version) rounded to 5%."""


@dataclass(frozen=True)
class PlayerKind:
    """One kind of opponent in the stated policy: how they knock, draw and reject.

    ``share``: the chance an opponent is of this kind (for the whole hand); ``knocks``: the
    knock steps (:data:`CASUAL_KNOCKS`); ``take``: each turn, the chance that a uniformly
    random card is offered face up and taken when it makes the hand stronger (else the
    player draws); ``lam``: how much less likely a hand is for each rejected card that would
    have improved it; ``decay``: a card rejected ``a`` of the opponent's turns ago counts
    ``1 - (1 - lam) * decay**a`` (1: it counts fully however old it is).

    >>> STRONG.rejection_factor(0), STRONG.rejection_factor(2), CASUAL.rejection_factor(2)
    (0.125, 0.57125, 0.25)
    """

    name: str
    share: float
    knocks: tuple[tuple[int, float], ...]
    take: float = 0.0
    lam: float = 0.25
    decay: float = 1.0

    def rejection_factor(self, age: int) -> float:
        """The weight factor, for a hand the card would have improved, of a card rejected
        ``age`` turns ago (0: in the opponent's last turn)."""
        return 1.0 - (1.0 - self.lam) * self.decay**age


CASUAL = PlayerKind("casual", 0.5, CASUAL_KNOCKS)
"""Knocks at 26 or more, never takes in the chain, and what it rejected counts fully however
long ago: a casual player commits to one suit early (like the ``tip`` player)."""
STRONG = PlayerKind("strong", 0.5, STRONG_KNOCKS, take=0.5, lam=0.125, decay=0.7)
"""Knocks by :data:`STRONG_KNOCKS`; on half of its turns it is offered a random face-up card
and takes it when it helps; a card it rejected just now is 1/8 as likely to improve its
hand, but older rejections count less (times 0.7 per turn since): a strong player changes
its plans (the ``expert`` keeps cards to avoid feeding the next player and values hands
turns ahead)."""
PLAYER_KINDS: tuple[PlayerKind, ...] = (CASUAL, STRONG)
"""The stated policy's opponent: casual or strong, even odds, for the whole hand."""
MAX_TURNS = 24
"""Turns of the prior chain computed (more turns played use the last one)."""

ADAPTIVE_POLICY = (
    "opponents are dealt uniformly at random, and each is, for the whole hand and with even odds, a casual "
    "player (knocks at 26 or more) or a strong one (knocks with the chance "
    + ", ".join(f"{chance:.0%} at {value}" for value, chance in STRONG_KNOCKS)
    + " or more, and on half of its turns takes a random face-up card when it helps); a hand that knocked "
    "drops out, the rest draw a uniformly random card and keep the strongest three; a 31 would have been "
    f"declared; each card an opponent threw or passed over makes hands it would have improved "
    f"{Fraction(CASUAL.lam).limit_denominator()} as likely for a casual player, and "
    f"{Fraction(STRONG.lam).limit_denominator()} as likely for a strong one when just rejected, "
    f"less so for older rejections (times {Fraction(STRONG.decay).limit_denominator()} per turn since)"
)
"""The stated policy of the chain (typed-in observations), as one sentence for derivations."""


def _knock_range(table: tuple[tuple[int, KnockChance], ...]) -> str:
    """A knock table in words: each value's chance at a first turn and from the last turn
    played it tells apart (e.g. ``26: 85% -> 28%``)."""

    def ends(c: KnockChance) -> str:
        return f"{c[0]:.0%} -> {c[-1]:.0%}" if isinstance(c, tuple) else f"{c:.0%}"

    return ", ".join(f"{value}: {ends(c)}" for value, c in table)


LOG_POLICY = (
    "opponents are dealt uniformly at random and each is followed through every turn seen; each is, for the "
    "whole hand, a casual player (collects the suit worth most, takes a discard of it that "
    "raises the hand, knocks at "
    + ", ".join(f"{value}" for value, _ in LOG_KINDS[0].knocks)
    + " or more, throws its lowest card outside that suit) or a strong one (values hands "
    + f"{LOG_KINDS[1].horizon} turns ahead, takes a discard worth more than drawing, throws as the "
    + "expert does, keeping the three worth most without feeding the next player's suit, and knocks as the "
    "expert would have decided at that turn: if knocking raised its chance of winning the game enough over "
    "playing on, against the other players' hands as pictured from their turns before it, given the lives and "
    "the turns played (a 2% slip either way; at a turn given no such rule, with the expert's measured chance "
    "for the hand's value and the turns it has played (at its first turn -> from its eighth on), against two "
    "opponents "
    + _knock_range(LOG_KINDS[1].knocks)
    + "; heads-up "
    + _knock_range(LOG_KINDS[1].knocks_heads_up or LOG_KINDS[1].knocks)
    + "; in a game of two "
    + _knock_range(LOG_KINDS[1].knocks_two or LOG_KINDS[1].knocks)
    + ")); both draw otherwise, slip "
    + f"{LOG_KINDS[0].slip:.0%} of the time, and a 31 would have been declared; the odds of the two kinds are "
    "even in a game's first hand, then learned from each opponent's turns and the hands shown at earlier "
    "showdowns"
)
"""The stated policy of the filter (the game's log known), as one sentence for derivations."""


KIND_EVIDENCE_CAP = 4.0
"""The most one shown hand can count for one kind against another, in natural logarithms
(a factor of about 55): a single surprising hand (a slip, or play outside both kinds) moves
the odds a lot but never settles them."""


ANNOUNCED_KINDS: dict[str, int] = {"tip": 0, "expert": 1, "master": 1}
"""The seat names (:attr:`PlayerView.seats`, as the table announces who sits where) the
model takes at their word: the index of their kind in :data:`LOG_KINDS` (0 casual, 1 strong).
A seat announced by another name, or not announced, is of a kind the model learns."""


def announced_kind(view: PlayerView, seat: int) -> int | None:
    """The kind (index in :data:`LOG_KINDS`) the table announced for ``seat``, or None.

    >>> from scatlab.rules import GameState
    >>> v = GameState.new("classic", 3, seats=("you", "tip", "random")).view(0)
    >>> announced_kind(v, 1), announced_kind(v, 2)
    (0, None)
    """
    if not view.seats or not 0 <= seat < len(view.seats):
        return None
    return ANNOUNCED_KINDS.get(view.seats[seat])


def kind_odds(view: PlayerView) -> tuple[tuple[float, ...], ...] | None:
    """Each of ``view``'s opponents' (in the order of :attr:`PlayerView.opponents`) odds of
    being casual and strong (:data:`LOG_KINDS`): certain for a seat the table announced
    (:data:`ANNOUNCED_KINDS`), else learned from the hands shown before this one (None when
    nothing was announced nor shown).

    >>> from scatlab.rules import GameState
    >>> kind_odds(GameState.new("classic", 3, seats=("you", "tip", "expert")).view(0))
    ((1.0, 0.0), (0.0, 1.0))
    >>> kind_odds(GameState.new("classic", 3).view(0)) is None
    True
    """
    return kind_odds_for(view, tuple(view.opponents))


def kind_odds_for(view: PlayerView, order: tuple[int, ...]) -> tuple[tuple[float, ...], ...] | None:
    """Each opponent's odds of each kind of :data:`LOG_KINDS` before this hand: certain for a
    seat the table announced (:func:`announced_kind`); else learned from the hands shown
    before: the kinds' shares times, for every finished hand the opponent played turns in,
    the chance of their turns and of the hand they showed (:meth:`LogFilter.evidence`), each
    hand's evidence capped at :data:`KIND_EVIDENCE_CAP` against the likeliest kind. None when
    nothing was announced nor shown."""
    known = {p: announced_kind(view, p) for p in order}
    if not view.past_hands and all(k is None for k in known.values()):
        return None
    totals = {p: [math.log(kind.share) for kind in LOG_KINDS] for p in order}
    learn = tuple(p for p in order if known[p] is None)
    if learn:
        for past, result in zip(view.past_hands, view.results):
            evidence = _hand_evidence(past, result, view.rules, learn, view.num_players == 2)
            for p in learn:
                for k, e in enumerate(evidence.get(p) or ()):
                    totals[p][k] += e
    out = []
    for p in order:
        kind = known[p]
        if kind is not None:
            out.append(tuple(1.0 if k == kind else 0.0 for k in range(len(LOG_KINDS))))
            continue
        best = max(totals[p])
        chances = [math.exp(t - best) for t in totals[p]]
        out.append(tuple(c / sum(chances) for c in chances))
    return tuple(out)


_EVIDENCE_CACHE: OrderedDict[int, tuple[PastHand, RuleSet, dict[int, tuple[float, ...] | None]]] = OrderedDict()
_EVIDENCE_CACHE_SIZE = 1024


def _hand_evidence(
    past: PastHand, result: HandResult, rules: RuleSet, seats: tuple[int, ...], two_players: bool = False
) -> dict[int, tuple[float, ...] | None]:
    """For each of ``seats`` that played turns in the finished hand ``past`` and showed
    three cards, each kind's capped log evidence (0 for the likeliest kind; None: no
    evidence). Cached by the hand and seat (a view's finished hands are the same objects all
    through the next hands, so a long game reads each once)."""
    found = _EVIDENCE_CACHE.get(id(past))
    if found is not None and found[0] is past and found[1] == rules:
        _EVIDENCE_CACHE.move_to_end(id(past))
        evidence = found[2]
    else:
        evidence = {}
        _EVIDENCE_CACHE[id(past)] = (past, rules, evidence)
        if len(_EVIDENCE_CACHE) > _EVIDENCE_CACHE_SIZE:
            _EVIDENCE_CACHE.popitem(last=False)
    missing = tuple(p for p in seats if p not in evidence)
    if missing:
        seats = tuple({s for s, cards in enumerate(result.final) if cards} | {e.player for e in past.history})
        _, _, logs = read_hand(past.history, past.discard_pile, missing, rules, seats)
        filt = LogFilter.of(rules, heads_up=sum(len(h) > 0 for h in result.final) == 2, two_players=two_players)
        for p in missing:
            final = result.final[p] if p < len(result.final) else ()
            evidence[p] = None
            if logs[p] and len(final) == 3:
                ev = filt.evidence(tuple(logs[p]), (final[0].index, final[1].index, final[2].index))
                top = max(ev)
                if top > -math.inf:
                    evidence[p] = tuple(max(e - top, -KIND_EVIDENCE_CAP) for e in ev)
    return evidence


# -- the prior chain --------------------------------------------------------------------


@dataclass(frozen=True)
class Chain:
    """The prior chain of kinds of player under one scoring configuration: each kind's weight of every hand after
    each number of turns of the stated policy, and which cards would improve each hand (what
    the rejection factors read)."""

    tables: Tables
    kinds: tuple[PlayerKind, ...]
    kind_priors: FloatArray  # (kinds, MAX_TURNS + 1, rows): each kind's weight (times its share) after t turns
    improves: npt.NDArray[np.bool_]  # (rows, 52): card d would make the hand strictly stronger
    improve_bits: IntArray  # (rows,): bit mask of the cards that would make the hand strictly stronger

    @property
    def priors(self) -> FloatArray:
        """(MAX_TURNS + 1, rows): the unnormalised weight of each hand after t turns, kinds summed."""
        return np.asarray(self.kind_priors.sum(axis=0), dtype=np.float64)


@lru_cache(maxsize=8)
def _chain(scoring: RuleSet, kinds: tuple[PlayerKind, ...]) -> Chain:
    tables = tables_for(scoring)
    valid = tables.discard >= 0
    improves = valid & (tables.after_draw > tables.strength[:, None])
    kind_priors = cached(
        "prior-chain",
        (tables.key, kinds),
        lambda: {"priors": _kind_priors(tables, kinds, improves)},
        sources=(__file__, TABLES_SOURCE),
    )["priors"]
    kind_priors = np.asarray(kind_priors, dtype=np.float64)
    improve_bits = (np.where(improves, np.int64(1) << np.arange(52, dtype=np.int64)[None, :], 0)).sum(axis=1)
    return Chain(tables, kinds, kind_priors, improves, improve_bits)


def _kind_priors(tables: Tables, kinds: tuple[PlayerKind, ...], improves: npt.NDArray[np.bool_]) -> FloatArray:
    rows = tables.rows
    m = len(rows)
    nxt, valid = tables.draw_moves()
    others = tables.deck_size - 3
    flat_next = nxt[valid]
    owner = np.broadcast_to(np.arange(m)[:, None], (m, 52))[valid]
    kind_priors = np.zeros((len(kinds), MAX_TURNS + 1, m))
    blitz = tables.value2 >= BLITZ2
    helps = improves[valid]  # per (hand, card) move: the card makes the hand stronger
    unhelped = 1.0 - improves.sum(axis=1) / others  # the share of face-up cards that would not help

    def move_shares(take: float) -> FloatArray:
        """Each move's (hand, card) chance in one turn: draw any other card and keep the
        best three; with chance ``take`` a random card is offered face up first and taken
        if it helps (else a draw). So ``(1 - take) / others`` (drawn) plus ``take *
        unhelped / others`` (offered a card that does not help, then drawn) plus, when the
        card helps, ``take / others`` (offered and taken)."""
        return np.asarray(((1.0 - take) + take * unhelped[owner] + take * helps) / others, dtype=np.float64)

    def step(weights: FloatArray, shares: FloatArray) -> FloatArray:
        return np.asarray(np.bincount(flat_next, weights=weights[owner] * shares, minlength=m), dtype=np.float64)

    # One chain per kind of player, not renormalised: a hand's weight after t turns is the
    # chance of being dealt it, playing on at every turn and reaching it; the kinds are then
    # mixed by their shares, so a kind that would have knocked by now counts for less.
    for k, kind in enumerate(kinds):
        goes_on = np.where(blitz, 0.0, 1.0)  # the chance a hand plays its turn on
        for value, chance in kind.knocks:
            goes_on = np.where((tables.value2 >= 2 * value) & ~blitz, 1.0 - chance, goes_on)
        p: FloatArray = np.full(m, kind.share / m)
        shares = move_shares(kind.take)
        for t in range(MAX_TURNS + 1):
            kind_priors[k, t] = p
            p = step(p * goes_on, shares)
    kind_priors[:, :, blitz] = 0.0
    return kind_priors


def chain_for(rules: RuleSet) -> Chain:
    """The prior chain of :data:`PLAYER_KINDS` under ``rules``' scoring (cached)."""
    return _chain(scoring_rules(rules), PLAYER_KINDS)


def turn_priors(rules: RuleSet) -> FloatArray:
    """``priors[t, row]``: the prior weight of every hand (row of the tables) after ``t``
    turns of the stated policy (unnormalised; 31s have weight 0)."""
    return chain_for(rules).priors
