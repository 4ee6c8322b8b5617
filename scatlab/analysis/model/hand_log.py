"""One hand's public log read: the discard pile just before each event (:func:`!pile_tops`,
rebuilt backwards from the pile now) and, for the players asked about, the turns each
completed, the cards each rejected and each one's turns in order (:func:`!read_hand`). The
observations (:mod:`~scatlab.analysis.model.observations`) and the kinds' evidence from the
hands shown (:mod:`~scatlab.analysis.model.kinds`) both read the log this way.
"""

from __future__ import annotations

from ...cards import Card, Suit
from ...checks import shown
from ...errors import AnalysisError
from ...rules.actions import ActionKind
from ...rules.options import RuleSet
from ...rules.view import Event
from .hand_filter import Turn, TurnAction

__all__ = ["pile_tops", "piles_before", "read_hand"]


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
    return [pile[-1] if pile else None for pile in piles_before(history, pile_now)]


def piles_before(history: tuple[Event, ...], pile_now: tuple[Card, ...]) -> list[tuple[Card, ...]]:
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


def read_hand(
    history: tuple[Event, ...],
    pile_now: tuple[Card, ...],
    order: tuple[int, ...],
    rules: RuleSet,
    seats: tuple[int, ...] | None = None,
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
    turns = dict.fromkeys(order, 0)
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
    played = dict.fromkeys(order, 0)
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
