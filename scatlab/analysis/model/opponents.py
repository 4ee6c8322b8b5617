"""What an opponent probably holds: an opponent model that learns from the hand so far.

The knock risk (:mod:`!scatlab.analysis.model.knock`), the advice and the ``expert`` player weigh
every 3-card hand an opponent may hold now. Its unknown cards are unseen cards (not in your
hand, not face up, not thrown, not known to be another's); the cards it took from the pile
and still holds are in every candidate hand; the opponents' hands are independent apart from
not sharing cards; a hand worth 31 has been declared (C8) and weighs nothing; the model is
never shown who holds what, nor told a kind the table did not announce. Under ``"uniform"`` (the simple case, for teaching)
the unknown cards are a uniformly random set of the unseen cards, as if just dealt. Under
``"adaptive"`` (the default) each opponent is dealt at random and is, for the whole hand,
one of two kinds of player: *casual*, the ``tip`` player (collects the suit worth most,
takes a discard of it that raises the hand, throws the lowest card outside it, knocks at 26
or more), or *strong*, the ``expert`` (values hands five turns ahead, takes a discard when
the three it keeps with it are worth more than drawing, does not feed the next player, and
knocks by the expert's own rule read from public facts, :func:`with_knock_rules`, or with
``knock_rules=False`` by the expert's measured chances for the hand's value and the turns
played). Evidence multiplies each hand's weight by the chance of what was seen. With the
game's log (:meth:`Observations.from_view`: in play and in the review) every turn is
followed in order (not knocking where allowed, the card taken or passed over, the card
thrown; each kind slips against its way 2% of the time) by the filter of
:mod:`!scatlab.analysis.model.hand_filter`, and the kinds' odds, even in a game's first hand, are
learned from the hands shown at earlier showdowns (C7), one hand counting at most
:data:`KIND_EVIDENCE_CAP` (e**4) for a kind; an opponent the table announced as a ``tip``
player is casual, as an ``expert`` or ``master`` strong (:data:`ANNOUNCED_KINDS`). From typed-in observations (turns played and
cards rejected, without their order: the analyzer, ``scatlab analyze``) a prior chain plays
those turns of the stated policy (:data:`ADAPTIVE_POLICY`: the casual kind knocks at 26 and
draws, the strong one knocks by :data:`STRONG_KNOCKS` and on half of its turns takes a
random face-up card that helps; a draw is any card not in the hand nor face up; both keep
the strongest three; a hand that knocked drops out), and each rejected card that would have
improved a hand multiplies its weight by 1/4 for a casual player, by 1/8 for a strong one
when just rejected and less for older rejections (:class:`PlayerKind`). With nothing
observed the adaptive model is the uniform one. Weights for exact counting are integers
(multiples of 2**-24 of the largest, at least 1 when positive), so a count weighted by them
is exact for those weights.

>>> from scatlab.analysis import Knowledge, knock_risk
>>> k = Knowledge.of("AH KH QS", discard="2C")                # knocking 21 against one opponent
>>> uniform = knock_risk(k, opponent_model="uniform").p_lose
>>> knock_risk(k, observations=Observations.nothing(1)).p_lose == uniform     # nothing seen
True
>>> seen = Observations(turns=(3,), rejected=((),))            # it has played three turns
>>> uniform, round(float(knock_risk(k, observations=seen).p_lose), 3)
(Fraction(15397, 155664), 0.412)
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from ...cards import Card, Suit, format_cards
from ...checks import shown
from ...errors import AnalysisError
from ...rules.actions import ActionKind
from ...rules.options import RuleSet
from ...rules.state import MAX_PLAYERS, MIN_PLAYERS, HandResult
from ...rules.view import Event, PastHand, PlayerView
from .candidates import OPPONENT_MODELS, HandWeights, OpponentModelName, check_model, uniform_hand_weights
from ..counting.vectorized import sparse_dot
from .hand_filter import LOG_KINDS, FilterKind, KnockChance, KnockRule, LogFilter, Turn, TurnAction
from ..counting.knowledge import Knowledge
from ..counting.store import cached
from ..counting.tables import BLITZ2, RANK_BITS, SOURCE as TABLES_SOURCE, Tables, pair_index, scoring_rules, tables_for
from .valuation import KnockValuation
from .winning import knock_rule

__all__ = [
    "OpponentModelName",
    "OPPONENT_MODELS",
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
    "Observations",
    "HandWeights",
    "hand_weights",
    "row_weights",
    "check_model",
    "turn_priors",
    "pile_tops",
    "with_knock_rules",
    "kind_odds",
    "ANNOUNCED_KINDS",
    "announced_kind",
]


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
        return 1.0 - (1.0 - self.lam) * self.decay ** age


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
SCALE_BITS = 24
"""Integer weights: multiples of 2**-SCALE_BITS of the largest weight."""

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

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Observations:
    """What a player saw each opponent do in the current hand, opponents in turn order
    after the player (the order of :attr:`Knowledge.opponent_holds`).

    ``turns[i]``: the turns opponent ``i`` has completed (their discards); ``rejected[i]``:
    the cards they threw or passed over on the discard pile to draw from the stock;
    ``ages[i]`` (optional, one per rejected card): how many of opponent ``i``'s turns ago
    each was rejected (0: in their last turn). Without ages every rejection counts as
    recent (age 0), as for observations typed in by hand.

    >>> Observations(turns=(2,), rejected=(tuple(),)).describe()
    'opponent 1: 2 turns'
    """

    turns: tuple[int, ...]
    rejected: tuple[tuple[Card, ...], ...]
    ages: tuple[tuple[int, ...], ...] | None = None
    log: tuple[tuple[Turn, ...], ...] | None = None
    """Each opponent's turns in order (:class:`~scatlab.analysis.model.hand_filter.Turn`), when the
    game's log is known (:meth:`from_view`): the weights then follow every turn (the filter)."""
    odds: tuple[tuple[float, ...], ...] | None = None
    """Each opponent's chance of being each kind of :data:`LOG_KINDS` before this hand,
    learned from the hands they showed earlier in the game (:meth:`from_view`); None: the
    kinds' shares (even odds). Used with the log only."""
    players: int | None = None
    """How many players the game was dealt to (:meth:`from_view`); in a game of two the
    strong kind knocks with the chances measured in games of two. Used with the log only."""
    kinds: tuple[FilterKind, ...] | None = None
    """The kinds of player the filter pictures every opponent as (None: :data:`LOG_KINDS`,
    the model in play), with ``odds`` one chance per kind: the calibration study (in
    research/calibration) sets it to tell the model who each opponent is. Used with the log
    only."""

    def __post_init__(self) -> None:
        if len(self.turns) != len(self.rejected):
            raise AnalysisError(f"observations for {len(self.turns)} opponents' turns but "
                                f"{len(self.rejected)} opponents' rejected cards")
        if self.log is not None:
            if not isinstance(self.log, tuple) or len(self.log) != len(self.turns):
                raise AnalysisError(f"a log of {len(self.log) if isinstance(self.log, tuple) else self.log!r} "
                                    f"opponents' turns for {len(self.turns)} opponents: one tuple of turns each")
            for turns in self.log:
                if not isinstance(turns, tuple) or not all(isinstance(t, Turn) for t in turns):
                    raise AnalysisError(f"log entry {turns!r} is not allowed: a tuple of Turn objects")
        if self.players is not None and (not isinstance(self.players, int) or isinstance(self.players, bool)
                                         or not MIN_PLAYERS <= self.players <= MAX_PLAYERS):
            raise AnalysisError(f"players={self.players!r} is not allowed: the number of players dealt in, "
                                f"{MIN_PLAYERS} to {MAX_PLAYERS}")
        if self.kinds is not None and not (isinstance(self.kinds, tuple) and self.kinds
                                           and all(isinstance(k, FilterKind) for k in self.kinds)):
            raise AnalysisError(f"kinds={shown(self.kinds)} is not allowed: None (the model in play) or a "
                                "non-empty tuple of FilterKind")
        n_kinds = len(self.kinds or LOG_KINDS)
        if self.odds is not None:
            if not isinstance(self.odds, tuple) or len(self.odds) != len(self.turns):
                raise AnalysisError(f"kind odds {self.odds!r} are not allowed: one tuple of chances per opponent "
                                    f"({len(self.turns)})")
            for row in self.odds:
                if not isinstance(row, tuple) or len(row) != n_kinds or not all(
                        isinstance(o, (int, float)) and not isinstance(o, bool) and 0 <= o <= 1 for o in row) \
                        or not sum(row) > 0:
                    raise AnalysisError(f"kind odds {row!r} are not allowed: {n_kinds} chance{'s' if n_kinds != 1 else ''} "
                                        "from 0 to 1, "
                                        "not all 0, one per kind")
        for t in self.turns:
            if not isinstance(t, int) or isinstance(t, bool) or t < 0:
                raise AnalysisError(f"turns played {t!r} is not allowed: a whole number 0 or more")
        if self.ages is not None:
            if [len(a) for a in self.ages] != [len(r) for r in self.rejected]:
                raise AnalysisError(f"ages {self.ages!r} do not match the rejected cards: one age per card")
            for row in self.ages:
                for a in row:
                    if not isinstance(a, int) or isinstance(a, bool) or a < 0:
                        raise AnalysisError(f"age {a!r} of a rejected card is not allowed: a whole number 0 or more")

    def ages_of(self, opponent: int) -> tuple[int, ...]:
        """The ages of opponent ``opponent``'s rejected cards (all 0 when not given)."""
        if self.ages is None:
            return (0,) * len(self.rejected[opponent])
        return self.ages[opponent]

    @property
    def empty(self) -> bool:
        """Nothing observed: no turns played and no card rejected."""
        return not any(self.turns) and not any(self.rejected) and not (self.log is not None and any(self.log))

    def describe(self) -> str:
        """One line per opponent, joined by '; '."""
        parts = []
        for i, (t, rej) in enumerate(zip(self.turns, self.rejected), start=1):
            text = f"opponent {i}: {t} turn{'s' if t != 1 else ''}"
            if rej:
                text += f", rejected {format_cards(rej)}"
            parts.append(text)
        return "; ".join(parts)

    @classmethod
    def from_view(cls, view: PlayerView, knock_rules: bool = True) -> Observations:
        """Read the public log of the current hand: each opponent's turns in order (what they
        passed over or took, what they threw, a knock), hence the turns played (their
        discards), the cards thrown and the top discard each time they drew from the stock
        instead.

        The pile's history is rebuilt backwards from the pile now (a discard put a card on
        top, a take removed it; a draw leaves the pile as it is). With ``knock_rules`` (the
        model in play) every turn at which an opponent could knock also carries the rule by
        which the ``expert`` would have knocked there (:func:`with_knock_rules`), so that the
        filter's strong kind knocks by it; without, the strong kind knocks by its measured
        chances (the ``expert``'s own picture of its opponents, which is cheaper).

        >>> from scatlab.rules import GameState, deal_order
        >>> s = GameState.new("classic", 2).deal(deal_order(["AH KH 4C", "2S 3S 9H"], up="QH"))
        >>> for move in ("draw", "discard 9H", "take", "discard 4C", "draw", "discard 3C"):
        ...     s = s.apply(move)
        >>> obs = Observations.from_view(s.view(0))
        >>> [t.action for t in obs.log[0]], obs.log[0][1].knock_rule is not None
        (['draw', 'draw'], True)
        >>> Observations.from_view(s.view(0), knock_rules=False).log[0][1].knock_rule is None
        True
        """
        if not isinstance(view, PlayerView):
            raise AnalysisError(f"Observations.from_view needs a PlayerView, not {shown(view)}")
        if not isinstance(knock_rules, bool):
            raise AnalysisError(f"knock_rules={shown(knock_rules)} is not allowed: use True or False")
        order = view.opponents
        turns, rejected, log = _read_hand(view.history, view.discard_pile, order, view.rules, order + (view.player,))
        odds = _kind_odds(view, order)
        observations = cls(tuple(turns[p] for p in order), tuple(tuple(rejected[p]) for p in order),
                           tuple(tuple(rejected[p].values()) for p in order), tuple(tuple(log[p]) for p in order),
                           odds, view.num_players)
        return with_knock_rules(view, observations) if knock_rules else observations

    @classmethod
    def nothing(cls, opponents: int) -> Observations:
        """No observations for ``opponents`` opponents (the adaptive model is then uniform)."""
        return cls((0,) * opponents, ((),) * opponents)


def pile_tops(history: tuple[Event, ...], pile_now: tuple[Card, ...]) -> list[Card | None]:
    """The top discard just before each event of ``history`` (None: an empty pile), rebuilt
    backwards from ``pile_now``, the discard pile after the last event: a discard put a card
    on top, a take removed it, a draw or a knock leaves the pile as it is. So a draw's entry
    is the card it passed over, and a take's the card it took.

    >>> from scatlab.rules import GameState, deal_order
    >>> s = GameState.new("classic", 2).deal(deal_order(["AH KH 4C", "2S 3S 9H"], up="QH"))
    >>> for move in ("draw", "discard 9H", "take", "discard 4C"):
    ...     s = s.apply(move)
    >>> [str(c) for c in pile_tops(s.view(0).history, s.view(0).discard_pile)]
    ['QH', 'QH', '9H', 'QH']
    """
    if not (isinstance(history, tuple) and all(isinstance(e, Event) for e in history)):
        raise AnalysisError(f"history={shown(history)} is not allowed: a tuple of Events (PlayerView.history)")
    if not (isinstance(pile_now, tuple) and all(isinstance(c, Card) for c in pile_now)):
        raise AnalysisError(f"pile_now={shown(pile_now)} is not allowed: a tuple of Cards (PlayerView.discard_pile)")
    return [pile[-1] if pile else None for pile in _piles(history, pile_now)]


def _piles(history: tuple[Event, ...], pile_now: tuple[Card, ...]) -> list[tuple[Card, ...]]:
    """The discard pile (top last) just before each event of ``history``, rebuilt backwards
    from ``pile_now`` as :func:`pile_tops` describes (its tops are these piles' last cards)."""
    piles: list[tuple[Card, ...]] = []
    pile = list(pile_now)
    for event in reversed(history):
        kind = event.action.kind
        if kind is ActionKind.DISCARD and pile:
            pile.pop()
        elif kind is ActionKind.TAKE and event.card is not None:
            pile.append(event.card)
        piles.append(tuple(pile))
    piles.reverse()
    return piles


_RULE_CACHE: OrderedDict[tuple[object, ...], KnockRule | None] = OrderedDict()
_RULE_CACHE_SIZE = 4096
_UNSET = object()
_TURN_STARTS = (ActionKind.DRAW, ActionKind.TAKE, ActionKind.KNOCK, ActionKind.HAMMER)


def with_knock_rules(view: PlayerView, observations: Observations,
                     valuation: KnockValuation | None = None) -> Observations:
    """``observations`` (:meth:`Observations.from_view` of ``view``, without rules) with, on
    every turn of an opponent at which a knock was allowed, the
    :class:`~scatlab.analysis.model.hand_filter.KnockRule` by which the ``expert`` (``valuation``,
    default its :class:`~scatlab.analysis.model.valuation.KnockValuation`) would have knocked there,
    worked out from what everyone could see at that moment: each other player's hand
    pictured by the adaptive model from their turns before it (with their kind odds as
    learned from the hands shown, the strong kind knocking by its measured chances) after
    the last turn a knock would give them, the standings, and the turns each had played.
    The filter's strong kind then knocks by it (:attr:`FilterKind.rule_slip
    <scatlab.analysis.model.hand_filter.FilterKind.rule_slip>`) instead of by its table: it
    follows the expert's reading of its opponents (it holds back when they look strong),
    which one chance per value and turn averages over.

    Only public facts are read (the log with the stock draws hidden, the piles, the
    standings, the hands shown), so the rule at a turn is the same whoever looks, and it is
    cached turn by turn (a table click or the next decision reuses every rule already
    worked out). Approximations, beside the expert's own: the pictures do not rule out the
    cards the opponent held or saw on the pile (nobody else knows them), and its chance of
    losing by playing on averages over every card not in the hand rather than the cards it
    had not seen. A turn at which some other player's turns fit neither kind of player keeps
    no rule (the strong kind then knocks by its table).

    >>> from scatlab.rules import GameState, deal_order
    >>> s = GameState.new("classic", 2).deal(deal_order(["AH KH 4C", "2S 3S 9H"], up="QH"))
    >>> for move in ("draw", "discard 9H", "take", "discard 4C", "draw", "discard 3C"):
    ...     s = s.apply(move)
    >>> obs = with_knock_rules(s.view(0), Observations.from_view(s.view(0), knock_rules=False))
    >>> rule = obs.log[0][1].knock_rule             # seat 1's second turn, as anyone saw it
    >>> [round(rule.threshold[2 * v], 2) for v in (26, 27, 28, 29)]  # knocks once playing on risks more
    [0.22, 0.17, 0.15, 0.09]
    """
    if not isinstance(view, PlayerView):
        raise AnalysisError(f"with_knock_rules needs a PlayerView, not {shown(view)}")
    if not isinstance(observations, Observations) or observations.log is None \
            or len(observations.log) != len(view.opponents):
        raise AnalysisError("with_knock_rules needs the observations of the view's player read from the game's "
                            f"log (Observations.from_view), not {shown(observations)}")
    if valuation is None:
        valuation = KnockValuation()
    elif not isinstance(valuation, KnockValuation):
        raise AnalysisError(f"valuation={shown(valuation)} is not allowed: a KnockValuation or None")
    rules, history = view.rules, view.history
    piles = _piles(history, view.discard_pile)
    logs = []
    for i, p in enumerate(view.opponents):
        # p's position, as anyone sees it (p's cards hidden: the rule reads public facts only)
        theirs = replace(view, player=p, hand=(), value=None, drawn=None, taken=None, legal_actions=())
        order = theirs.opponents
        _, _, seen = _read_hand(history, view.discard_pile, order, rules, order + (p,))
        odds = _kind_odds(theirs, order)
        done = {q: 0 for q in order}
        turns = iter(observations.log[i])
        out = []
        for event, pile in zip(history, piles):
            if event.player == p and event.action.kind in _TURN_STARTS:
                turn = next(turns, None)
                if turn is None:
                    break
                if turn.may_knock:
                    before = tuple(tuple(seen[q][:done[q]]) for q in order)
                    rule = _knock_rule(theirs, before, odds, pile, valuation)
                    if rule is not None:
                        turn = replace(turn, knock_rule=rule)
                out.append(turn)
            elif event.action.kind is ActionKind.DISCARD and event.player in done:
                done[event.player] += 1
        out.extend(turns)
        logs.append(tuple(out))
    return replace(observations, log=tuple(logs))


def _knock_rule(theirs: PlayerView, before: tuple[tuple[Turn, ...], ...],
                odds: tuple[tuple[float, ...], ...] | None, pile: tuple[Card, ...],
                valuation: KnockValuation) -> KnockRule | None:
    """The rule of :func:`with_knock_rules` at one turn of ``theirs.player``, its opponents
    having played the turns ``before`` (one tuple each, in the order of
    ``theirs.opponents``) with the kind odds ``odds``, ``pile`` the discard pile, top last
    (cached)."""
    key = (theirs.rules, theirs.num_players, theirs.player, theirs.lives, theirs.out, theirs.points,
           before, odds, pile, valuation)
    found = _RULE_CACHE.get(key, _UNSET)
    if found is not _UNSET:
        try:
            _RULE_CACHE.move_to_end(key)
        except KeyError:  # dropped meanwhile by another thread: it is still the rule
            pass
        return found if isinstance(found, KnockRule) else None
    rules = theirs.rules
    filt = LogFilter.of(rules, heads_up=len(before) == 1, two_players=theirs.num_players == 2)
    dists = []
    for j, log in enumerate(before):
        w = filt.weights(log, odds[j] if odds is not None else None)
        if not w.sum() > 0:  # no kind could have played those turns: no rule, the table
            break
        dists.append(last_turn_of(rules, w / w.sum(), j, pile[:-1], pile[-1] if pile else None))
    rule = knock_rule(theirs, dists, [len(log) for log in before], valuation) if len(dists) == len(before) else None
    _RULE_CACHE[key] = rule
    while len(_RULE_CACHE) > _RULE_CACHE_SIZE:
        try:
            _RULE_CACHE.popitem(last=False)
        except KeyError:
            break
    return rule


def _read_hand(history: tuple[Event, ...], pile_now: tuple[Card, ...], order: tuple[int, ...],
               rules: RuleSet, seats: tuple[int, ...] | None = None
               ) -> tuple[dict[int, int], dict[int, dict[Card, int]], dict[int, list[Turn]]]:
    """One hand's public log read for the players ``order``: the turns each completed, the
    cards each rejected (card -> age in their turns, the latest time) and each one's turns
    in order (:class:`Turn`, with the suits the next player of ``seats``, the seats in the
    hand, had taken from the pile by then; default: ``order`` and every seat in the log).
    The pile's history is rebuilt backwards from ``pile_now``, the discard pile after the
    last event (a discard put a card on top, a take removed it; a draw leaves the pile as
    it is)."""
    ring = sorted(set(seats) if seats is not None else set(order) | {e.player for e in history})
    after = {p: ring[(i + 1) % len(ring)] for i, p in enumerate(ring)}
    took: dict[int, frozenset[Suit]] = {p: frozenset() for p in ring}
    turns = {p: 0 for p in order}
    rejected: dict[int, dict[Card, int]] = {p: {} for p in order}  # card -> age (the latest time)
    tops = pile_tops(history, pile_now)
    for event, top in zip(reversed(history), reversed(tops)):
        kind = event.action.kind
        if kind is ActionKind.DISCARD and event.player in turns:
            if event.card is not None:
                rejected[event.player].setdefault(event.card, turns[event.player])
            turns[event.player] += 1
        elif kind is ActionKind.DRAW and event.player in turns and top is not None:
            # the same turn as the discard that follows it (already counted, going backwards)
            rejected[event.player].setdefault(top, max(turns[event.player] - 1, 0))
    log: dict[int, list[Turn]] = {p: [] for p in order}
    played = {p: 0 for p in order}
    pending: dict[int, tuple[TurnAction, Card | None, bool]] = {}
    knocked = False
    for event, top in zip(history, tops):
        kind, p = event.action.kind, event.player
        may_knock = not knocked and not (rules.no_knock_first_round and played.get(p, 0) == 0)
        if kind is ActionKind.TAKE and event.card is not None:
            took[p] = took.get(p, frozenset()) | {event.card.suit}
        if kind is ActionKind.KNOCK or kind is ActionKind.HAMMER:
            if p in log:
                log[p].append(Turn("knock", None, None, may_knock))
            knocked = True
        elif p not in log:
            continue
        elif kind is ActionKind.DRAW:
            pending[p] = ("draw", top, may_knock)
        elif kind is ActionKind.TAKE:
            pending[p] = ("take", event.card, may_knock)
        elif kind is ActionKind.DISCARD and p in pending:
            action, card, allowed = pending.pop(p)
            log[p].append(Turn(action, card, event.card, allowed, took.get(after.get(p, p), frozenset()), knocked))
            played[p] += 1
    return turns, rejected, log


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
    return _kind_odds(view, tuple(view.opponents))


def _kind_odds(view: PlayerView, order: tuple[int, ...]) -> tuple[tuple[float, ...], ...] | None:
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


def _hand_evidence(past: PastHand, result: HandResult, rules: RuleSet, seats: tuple[int, ...],
                   two_players: bool = False) -> dict[int, tuple[float, ...] | None]:
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
        _, _, logs = _read_hand(past.history, past.discard_pile, missing, rules, seats)
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
class _Chain:
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
def _chain(scoring: RuleSet, kinds: tuple[PlayerKind, ...]) -> _Chain:
    tables = tables_for(scoring)
    valid = tables.discard >= 0
    improves = valid & (tables.after_draw > tables.strength[:, None])
    kind_priors = cached("prior-chain", (tables.key, kinds), lambda: {"priors": _kind_priors(tables, kinds, improves)},
                         sources=(__file__, TABLES_SOURCE))["priors"]
    kind_priors = np.asarray(kind_priors, dtype=np.float64)
    improve_bits = (np.where(improves, np.int64(1) << np.arange(52, dtype=np.int64)[None, :], 0)).sum(axis=1)
    return _Chain(tables, kinds, kind_priors, improves, improve_bits)


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


@dataclass(frozen=True)
class _LastTurn:
    rows: npt.NDArray[np.intp]  # a sparse table of the value after one draw from the rest of the deck, by value:
    counts: FloatArray  # hand row and how many of its draws keep the value (a whole number, as a float),
    values: IntArray  # the values (value2) in the table, in order,
    starts: IntArray  # and where each one's entries start
    pair_base: IntArray  # (3, rows): the pair_index of the hand's three pairs (to look up a pair + card)


@lru_cache(maxsize=8)
def _last_turn(scoring: RuleSet) -> _LastTurn:
    """What :func:`value_after_last_turn` reads, per scoring configuration (3.9 MB for 52
    cards, about 0.05 s; the rows as indices and the counts as floats, so that the sparse
    product converts nothing)."""
    tables = tables_for(scoring)
    rows = tables.rows
    m = len(rows)
    valid = tables.discard >= 0
    key = (tables.after_draw >> RANK_BITS) * m + np.arange(m)[:, None]  # by value, then row
    uniq, counts = np.unique(key[valid], return_counts=True)
    values, starts = np.unique(uniq // m, return_index=True)
    pair_base = np.stack([pair_index(rows[:, 0], rows[:, 1]), pair_index(rows[:, 0], rows[:, 2]),
                          pair_index(rows[:, 1], rows[:, 2])])
    return _LastTurn((uniq % m).astype(np.intp), counts.astype(np.float64), values, starts, pair_base)


_NO_DRAW = 127
"""In :func:`_after_by_card`: the card is in the hand (or not in the deck)."""


@lru_cache(maxsize=8)
def _after_by_card(scoring: RuleSet) -> npt.NDArray[np.int8]:
    """``[card, row]``: the value (value2) a hand keeps after drawing ``card``, or
    :data:`_NO_DRAW` when it cannot (card by card, so a card's row of hands is contiguous)."""
    tables = tables_for(scoring)
    valid = tables.discard >= 0
    return np.ascontiguousarray(np.where(valid, tables.after_draw >> RANK_BITS, _NO_DRAW).astype(np.int8).T)


@lru_cache(maxsize=8)
def _stays(scoring: RuleSet) -> IntArray:
    """Per hand row: how many of the cards not in the hand leave its value as it is."""
    tables = tables_for(scoring)
    valid = tables.discard >= 0
    return np.asarray(((tables.after_draw >> RANK_BITS) == tables.value2[:, None]).sum(axis=1, where=valid),
                      dtype=np.int64)


@lru_cache(maxsize=2 * 52)
def _take_strength(scoring: RuleSet, top: int) -> IntArray:
    """Per hand row: the strength of the best three it can keep with the card ``top`` added."""
    tables = tables_for(scoring)
    tl = tables.triple.ravel()
    base = _last_turn(scoring).pair_base
    return np.asarray(np.maximum(np.maximum(tl[base[0] + top], tl[base[1] + top]), tl[base[2] + top]), dtype=np.int64)


def _chain_for(rules: RuleSet) -> _Chain:
    return _chain(scoring_rules(rules), PLAYER_KINDS)


def turn_priors(rules: RuleSet) -> FloatArray:
    """``priors[t, row]``: the prior weight of every hand (row of the tables) after ``t``
    turns of the stated policy (unnormalised; 31s have weight 0)."""
    return _chain_for(rules).priors


_WEIGHTS_CACHE: OrderedDict[tuple[object, ...], FloatArray] = OrderedDict()
_WEIGHTS_CACHE_SIZE = 16


def row_weights(knowledge: Knowledge, observations: Observations, opponent: int) -> FloatArray:
    """The adaptive weight (float, unnormalised) of every row of the tables as opponent
    ``opponent``'s hand; 0 for hands that cannot be theirs (a card seen elsewhere, or
    missing a card they are known to hold): each kind's prior after the turns played
    times its factors for the rejected cards (see the module doc), summed over the kinds.

    The array is read-only and remembered for the last few questions (a knock's figure asks
    for the same opponent's weights for its distribution and for its exact count)."""
    key = (knowledge.rules, knowledge.unseen_index, knowledge.holds_of(opponent), observations, opponent)
    found = _WEIGHTS_CACHE.get(key)
    if found is not None:
        try:
            _WEIGHTS_CACHE.move_to_end(key)
        except KeyError:  # dropped meanwhile by another thread: still the weights
            pass
        return found
    w = _row_weights(knowledge, observations, opponent)
    w.flags.writeable = False
    _WEIGHTS_CACHE[key] = w
    while len(_WEIGHTS_CACHE) > _WEIGHTS_CACHE_SIZE:
        try:
            _WEIGHTS_CACHE.popitem(last=False)
        except KeyError:
            break
    return w


def _row_weights(knowledge: Knowledge, observations: Observations, opponent: int) -> FloatArray:
    """:func:`row_weights`, worked out."""
    avail = 0
    for i in knowledge.unseen_index:
        avail |= 1 << i
    held = 0
    for c in knowledge.holds_of(opponent):
        held |= 1 << c.index
    avail |= held
    masks = tables_for(knowledge.rules).cards_mask
    ok = (masks & ~np.int64(avail)) == 0
    if held:
        ok &= (masks & np.int64(held)) == held
    if observations.log is not None:  # the filter; the chain only if no hand it allows is possible
        odds = observations.odds[opponent] if observations.odds is not None else None
        filt = LogFilter.of(knowledge.rules, observations.kinds or LOG_KINDS, heads_up=len(observations.turns) == 1,
                            two_players=observations.players == 2)
        w = np.where(ok, filt.weights(observations.log[opponent], odds), 0.0)
        if w.max() > 0:
            return w
    return np.where(ok, _chain_weights(_chain_for(knowledge.rules), observations, opponent), 0.0)


def _chain_weights(chain: _Chain, observations: Observations, opponent: int) -> FloatArray:
    """The prior chain's weights times the rejection factors, kinds summed (no log known)."""
    t = min(observations.turns[opponent], MAX_TURNS)
    by_age: dict[int, int] = {}  # age -> bit mask of the cards rejected that many turns ago
    for card, age in zip(observations.rejected[opponent], observations.ages_of(opponent)):
        by_age[age] = by_age.get(age, 0) | 1 << card.index
    hits = {age: np.bitwise_count(chain.improve_bits & np.int64(mask)) for age, mask in by_age.items()}
    w = np.zeros(len(chain.tables.rows))
    for k, kind in enumerate(chain.kinds):
        wk = chain.kind_priors[k, t]
        if hits and kind.decay == 1.0:  # every rejection counts the same: one power of the total count
            wk = wk * kind.lam ** sum(hits.values()).astype(np.float64)
        elif hits:  # the product of the factors, as the exponential of a sum of their logarithms
            wk = wk * np.exp(sum(h * math.log(kind.rejection_factor(age)) for age, h in hits.items()))
        w = w + wk
    return w


def hand_weights(knowledge: Knowledge, observations: Observations | None, opponent: int,
                 model: OpponentModelName = "adaptive") -> HandWeights:
    """The candidate hands of opponent ``opponent`` with integer weights: all 1 under the
    uniform model (or with nothing observed), else the adaptive weights on the integer grid
    (see the module doc)."""
    uniform = uniform_hand_weights(knowledge, opponent)
    if model == "uniform" or observations is None or observations.empty:
        return uniform
    hands = uniform.hands
    tables = tables_for(knowledge.rules)
    w = row_weights(knowledge, observations, opponent)[tables.row_of[hands[:, 0], hands[:, 1], hands[:, 2]]]
    return HandWeights(hands, integer_weights(w), uniform.free_parts)


def integer_weights(w: FloatArray) -> IntArray:
    """Float weights on the integer grid: multiples of 2**-24 of the largest, at least 1
    when positive.

    >>> integer_weights(np.array([1.0, 0.5, 0.0, 1e-12])).tolist()
    [16777216, 8388608, 0, 1]
    """
    top = float(w.max()) if len(w) else 0.0
    if top <= 0:
        raise AnalysisError("no opponent hand is possible under the adaptive model with what was observed")
    scaled = np.rint(w / top * (1 << SCALE_BITS)).astype(np.int64)
    return np.where(w > 0, np.maximum(scaled, 1), 0)


def final_value_distribution(knowledge: Knowledge, observations: Observations, opponent: int,
                             extra_turn: bool, model: OpponentModelName = "adaptive") -> FloatArray:
    """``dist[v2]``: the probability that opponent ``opponent``'s hand is worth ``v2 / 2``,
    now (``extra_turn`` False) or after one more turn of the last-turn policy (take the top
    discard if that makes a stronger hand, else draw and keep the strongest three). A fast
    approximation for the ``expert``: the drawn card is any card not on the discard pile
    and not in the opponent's hand (the knocker's own cards are not ruled out, so that
    anyone can work out the same figure from what the table shows: :func:`with_knock_rules`).
    The first opponent sees the top discard; every later one sees the card the opponent
    before it threw, pictured as such a card too. Returns 67 floats summing to 1 (read-only,
    remembered for the last few questions: the ``expert``'s decision and a ranking of the
    same position, a hint or the review, ask for the same distributions)."""
    key = (knowledge.rules, knowledge.unseen_index, knowledge.holds_of(opponent), knowledge.dead, knowledge.top,
           observations if model != "uniform" else None, opponent, extra_turn, model)
    found = _DIST_CACHE.get(key)
    if found is not None:
        try:
            _DIST_CACHE.move_to_end(key)
        except KeyError:  # dropped meanwhile by another thread: still the distribution
            pass
        return found
    dist = _final_value_distribution(knowledge, observations, opponent, extra_turn, model)
    dist.flags.writeable = False
    _DIST_CACHE[key] = dist
    while len(_DIST_CACHE) > _DIST_CACHE_SIZE:
        try:
            _DIST_CACHE.popitem(last=False)
        except KeyError:
            break
    return dist


_DIST_CACHE: OrderedDict[tuple[object, ...], FloatArray] = OrderedDict()
_DIST_CACHE_SIZE = 32


def _final_value_distribution(knowledge: Knowledge, observations: Observations, opponent: int,
                              extra_turn: bool, model: OpponentModelName) -> FloatArray:
    """:func:`final_value_distribution`, worked out."""
    tables = tables_for(knowledge.rules)
    obs = Observations.nothing(knowledge.opponents) if model == "uniform" else observations
    w = row_weights(knowledge, obs, opponent)
    if model == "uniform" or obs.empty:
        w = np.where(w > 0, 1.0, 0.0)
    total = w.sum()
    if total <= 0:
        raise AnalysisError("no opponent hand is possible under the adaptive model with what was observed")
    w = w / total
    if not extra_turn:
        return np.asarray(np.bincount(tables.value2, weights=w, minlength=67)[:67], dtype=np.float64)
    return last_turn_of(knowledge.rules, w, opponent, knowledge.dead, knowledge.top)


def last_turn_of(rules: RuleSet, w: FloatArray, opponent: int, under: Sequence[Card], top: Card | None) -> FloatArray:
    """:func:`value_after_last_turn` of opponent number ``opponent`` (0: the next player)
    after a knock, the discard pile ``under`` with ``top`` on it: the next player sees
    ``top``, every later one the throw of the player before it."""
    pile = tuple(c.index for c in under) + ((top.index,) if top is not None else ())
    if opponent == 0:
        return value_after_last_turn(rules, w, top, pile)
    return value_after_last_turn(rules, w, None, pile, top_unseen=True)


def value_after_last_turn(rules: RuleSet, w: FloatArray, top: Card | None, seen: tuple[int, ...] = (),
                          top_unseen: bool = False) -> FloatArray:
    """``dist[v2]``: the chance that a hand drawn by the weights ``w`` (one per row of the
    tables, summing to 1) is worth ``v2 / 2`` after one more turn of the last-turn policy of
    :func:`final_value_distribution`, with ``top`` the top discard (None: an empty pile). The
    card drawn is any card not in the hand and not among ``seen`` (card indices; a pictured
    hand may hold one of them, then it draws among the others). With ``top_unseen`` the top discard is such a card too,
    unknown (the throw of the opponent before): the hand takes it when it raises the value,
    else draws, so it keeps its value only when neither card raises it.

    >>> from scatlab.rules import find_rules
    >>> from scatlab.analysis.counting.tables import tables_for
    >>> rules = find_rules("classic")
    >>> w = np.zeros(len(tables_for(rules).rows)); w[0] = 1.0      # the 2 3 4 of clubs
    >>> d = value_after_last_turn(rules, w, None)
    >>> round(float(d.sum()), 9), int(d.argmax()) / 2, round(float(d[2 * 18]) * 49, 6)  # the ace of clubs makes 18
    (1.0, 9.0, 1.0)
    """
    tables = tables_for(rules)
    scoring = scoring_rules(rules)
    last = _last_turn(scoring)
    # Only the hands with weight count: every sum below but the sparse product adds the
    # weights one by one in the order of the rows (np.bincount), where a zero changes
    # nothing, so the figures are those of the same sums over every row, bit for bit.
    live = (w != 0).nonzero()[0]  # np.flatnonzero(w), faster for floats
    wl = w[live]
    n: npt.NDArray[np.float64] | float = float(tables.deck_size - 3)  # the cards a hand may draw
    after_t = None
    if seen:  # a seen card is drawn by no hand (it may be in a pictured hand: then it is in no draw)
        after_t = np.take(_after_by_card(scoring)[np.asarray(seen)], live, axis=1)
        seen_mask = 0
        for c in seen:
            seen_mask |= 1 << c
        held = np.bitwise_count(tables.cards_mask[live] & np.int64(seen_mask)).astype(np.float64)
        n = tables.deck_size - 3 - len(seen) + held
    stay = None
    takes = take = None
    if top_unseen:  # q: the chance that one card raises the hand's value; the two looks
        left = _stays(scoring)[live].astype(np.float64)
        if after_t is not None:
            left = left - (after_t == tables.value2[live][None, :]).sum(axis=0)
        q = 1.0 - left / n
        stay = wl * (1.0 - q)
        draw_w = wl * (2.0 - q)
    elif top is not None:
        take = _take_strength(scoring, top.index)[live]
        takes = take > tables.strength[live]
        draw_w = np.where(takes, 0.0, wl)
    else:
        draw_w = wl
    per_card = np.zeros(len(w))  # each hand's weight per card it may draw
    per_card[live] = draw_w / n
    # each hand's draws by the value they keep: a sparse matrix-vector product (over every row)
    dist = sparse_dot(per_card, last.rows, last.counts, last.values, last.starts, 67)
    if after_t is not None:  # the draws of a seen card, taken out (one bincount for every seen card)
        k = len(seen)
        drawn = np.bincount((after_t + (np.arange(k) * (_NO_DRAW + 1))[:, None]).ravel(),
                            weights=np.tile(per_card[live], k), minlength=k * (_NO_DRAW + 1))
        for values in drawn.reshape(k, _NO_DRAW + 1)[:, :67]:
            dist = dist - values
    if stay is not None:  # took neither card: (2 - q) draws counted the value kept once too often
        dist = dist - np.bincount(tables.value2[live], weights=stay, minlength=67)[:67]
    dist = np.maximum(dist, 0.0)
    if takes is not None and take is not None:
        dist = dist + np.bincount(take[takes] >> RANK_BITS, weights=wl[takes], minlength=67)[:67]
    return np.asarray(dist, dtype=np.float64)
