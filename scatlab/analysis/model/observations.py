"""What a player saw each opponent do in the current hand (:class:`Observations`): typed
in (turns played and cards rejected, at most two a turn: :func:`!check_rejected`), or read
from the game's public log (:meth:`Observations.from_view`), every turn at which a knock
was allowed carrying the rule by which the ``expert`` would have knocked there
(:func:`with_knock_rules`). What the observations make of an opponent's hand:
:mod:`~scatlab.analysis.model.weights`.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ...cards import Card, format_cards
from ...checks import shown
from ...errors import AnalysisError
from ...rules.actions import ActionKind
from ...rules.state import MAX_PLAYERS, MIN_PLAYERS
from ...rules.view import PlayerView
from .hand_filter import LOG_KINDS, FilterKind, KnockRule, LogFilter, Turn
from .hand_log import piles_before, read_hand
from .kinds import kind_odds_for
from .last_turn import last_turn_of
from .valuation import KnockValuation
from .winning import knock_rule

__all__ = ["Observations", "MAX_REJECTED_A_TURN", "check_rejected", "with_knock_rules"]


@dataclass(frozen=True)
class Observations:
    """What a player saw each opponent do in the current hand, opponents in turn order
    after the player (the order of :attr:`~scatlab.analysis.counting.knowledge.Knowledge.opponent_holds`).

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
            raise AnalysisError(
                f"observations for {len(self.turns)} opponents' turns but "
                f"{len(self.rejected)} opponents' rejected cards"
            )
        if self.log is not None:
            if not isinstance(self.log, tuple) or len(self.log) != len(self.turns):
                raise AnalysisError(
                    f"a log of {len(self.log) if isinstance(self.log, tuple) else self.log!r} "
                    f"opponents' turns for {len(self.turns)} opponents: one tuple of turns each"
                )
            for turns in self.log:
                if not isinstance(turns, tuple) or not all(isinstance(t, Turn) for t in turns):
                    raise AnalysisError(f"log entry {turns!r} is not allowed: a tuple of Turn objects")
        if self.players is not None and (
            not isinstance(self.players, int)
            or isinstance(self.players, bool)
            or not MIN_PLAYERS <= self.players <= MAX_PLAYERS
        ):
            raise AnalysisError(
                f"players={self.players!r} is not allowed: the number of players dealt in, "
                f"{MIN_PLAYERS} to {MAX_PLAYERS}"
            )
        if self.kinds is not None and not (
            isinstance(self.kinds, tuple) and self.kinds and all(isinstance(k, FilterKind) for k in self.kinds)
        ):
            raise AnalysisError(
                f"kinds={shown(self.kinds)} is not allowed: None (the model in play) or a non-empty tuple of FilterKind"
            )
        n_kinds = len(self.kinds or LOG_KINDS)
        if self.odds is not None:
            if not isinstance(self.odds, tuple) or len(self.odds) != len(self.turns):
                raise AnalysisError(
                    f"kind odds {self.odds!r} are not allowed: one tuple of chances per opponent ({len(self.turns)})"
                )
            for row in self.odds:
                if (
                    not isinstance(row, tuple)
                    or len(row) != n_kinds
                    or not all(isinstance(o, (int, float)) and not isinstance(o, bool) and 0 <= o <= 1 for o in row)
                    or not sum(row) > 0
                ):
                    raise AnalysisError(
                        f"kind odds {row!r} are not allowed: {n_kinds} chance{'s' if n_kinds != 1 else ''} "
                        "from 0 to 1, "
                        "not all 0, one per kind"
                    )
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
        turns, rejected, log = read_hand(view.history, view.discard_pile, order, view.rules, order + (view.player,))
        odds = kind_odds_for(view, order)
        observations = cls(
            tuple(turns[p] for p in order),
            tuple(tuple(rejected[p]) for p in order),
            tuple(tuple(rejected[p].values()) for p in order),
            tuple(tuple(log[p]) for p in order),
            odds,
            view.num_players,
        )
        return with_knock_rules(view, observations) if knock_rules else observations

    @classmethod
    def nothing(cls, opponents: int) -> Observations:
        """No observations for ``opponents`` opponents (the adaptive model is then uniform)."""
        return cls((0,) * opponents, ((),) * opponents)


MAX_REJECTED_A_TURN = 2
"""The most cards an opponent rejects in one turn: the discard it passed over and the card
it threw."""


def check_rejected(turns: int, rejected: Sequence[Card], typed: str, where: str = "") -> None:
    """Refuse typed-in observations of an opponent who rejected more cards than ``turns``
    turns allow (:data:`MAX_REJECTED_A_TURN` a turn, none before its first turn), with an
    :class:`~scatlab.errors.AnalysisError` quoting ``typed``, the cards as they were typed,
    after ``where`` (what they were typed into, or nothing).

    >>> from scatlab.cards import parse_cards
    >>> check_rejected(1, parse_cards("8S 2D"), "8S 2D")
    >>> check_rejected(1, parse_cards("8S 2D 9H"), "8S 2D 9H")
    Traceback (most recent call last):
    ...
    scatlab.errors.AnalysisError: 3 rejected cards ('8S 2D 9H') after 1 turn: an opponent rejects at most 2 cards a
    turn (the discard passed over and the card thrown)
    """
    if rejected and turns == 0:
        raise AnalysisError(
            f"{where}{typed!r}: with no turn played yet, an opponent has rejected no card "
            "(set the turns they have played first)"
        )
    if len(rejected) > MAX_REJECTED_A_TURN * turns:
        raise AnalysisError(
            f"{where}{len(rejected)} rejected cards ({typed!r}) after {turns} turn"
            f"{'s' if turns != 1 else ''}: an opponent rejects at most {MAX_REJECTED_A_TURN} cards "
            "a turn (the discard passed over and the card thrown)"
        )


_RULE_CACHE: OrderedDict[tuple[object, ...], KnockRule | None] = OrderedDict()
_RULE_CACHE_SIZE = 4096
_UNSET = object()
_TURN_STARTS = (ActionKind.DRAW, ActionKind.TAKE, ActionKind.KNOCK, ActionKind.HAMMER)


def with_knock_rules(
    view: PlayerView, observations: Observations, valuation: KnockValuation | None = None
) -> Observations:
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
    if (
        not isinstance(observations, Observations)
        or observations.log is None
        or len(observations.log) != len(view.opponents)
    ):
        raise AnalysisError(
            "with_knock_rules needs the observations of the view's player read from the game's "
            f"log (Observations.from_view), not {shown(observations)}"
        )
    if valuation is None:
        valuation = KnockValuation()
    elif not isinstance(valuation, KnockValuation):
        raise AnalysisError(f"valuation={shown(valuation)} is not allowed: a KnockValuation or None")
    rules, history = view.rules, view.history
    piles = piles_before(history, view.discard_pile)
    logs = []
    for i, p in enumerate(view.opponents):
        # p's position, as anyone sees it (p's cards hidden: the rule reads public facts only)
        theirs = replace(view, player=p, hand=(), value=None, drawn=None, taken=None, legal_actions=())
        order = theirs.opponents
        _, _, seen = read_hand(history, view.discard_pile, order, rules, order + (p,))
        odds = kind_odds_for(theirs, order)
        done = dict.fromkeys(order, 0)
        turns = iter(observations.log[i])
        out = []
        for event, pile in zip(history, piles):
            if event.player == p and event.action.kind in _TURN_STARTS:
                turn = next(turns, None)
                if turn is None:
                    break
                if turn.may_knock:
                    before = tuple(tuple(seen[q][: done[q]]) for q in order)
                    rule = _knock_rule(theirs, before, odds, pile, valuation)
                    if rule is not None:
                        turn = replace(turn, knock_rule=rule)
                out.append(turn)
            elif event.action.kind is ActionKind.DISCARD and event.player in done:
                done[event.player] += 1
        out.extend(turns)
        logs.append(tuple(out))
    return replace(observations, log=tuple(logs))


def _knock_rule(
    theirs: PlayerView,
    before: tuple[tuple[Turn, ...], ...],
    odds: tuple[tuple[float, ...], ...] | None,
    pile: tuple[Card, ...],
    valuation: KnockValuation,
) -> KnockRule | None:
    """The rule of :func:`with_knock_rules` at one turn of ``theirs.player``, its opponents
    having played the turns ``before`` (one tuple each, in the order of
    ``theirs.opponents``) with the kind odds ``odds``, ``pile`` the discard pile, top last
    (cached)."""
    key = (
        theirs.rules,
        theirs.num_players,
        theirs.player,
        theirs.lives,
        theirs.out,
        theirs.points,
        before,
        odds,
        pile,
        valuation,
    )
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
