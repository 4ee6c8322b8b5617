"""The hand in play dealt again, or its stock reordered: what the calibration study asks of
a game ("what if the cards had lain otherwise?"), built from scatlab's public record API
(:class:`~scatlab.rules.GameRecord`, :func:`~scatlab.rules.replay`) as any user could.

A game is fully determined by its decks and actions (C3: each hand is dealt from a deck
order, top first; the rest of the deck after the card turned up is the stock), so the game
replayed from its record with the hand in play left out is the moment before that hand's
deal (:func:`hand_start`); dealing another deck from there is :func:`redeal`, and replaying
the hand's actions on a deck whose undrawn stock is in another order is :func:`restock`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from scatlab.cards import Card, CardsLike, format_cards, parse_cards
from scatlab.checks import shown
from scatlab.errors import IllegalActionError, RulesError
from scatlab.rules import GameRecord, GameState, Phase, replay

__all__ = ["hand_start", "redeal", "restock", "replay_hand", "restocked_deck"]


def hand_start(state: GameState) -> GameState:
    """The moment just before the hand in play was dealt (phase ``DEAL``): the game's
    standings, dealer and past hands as they are. Between hands and after the game there is
    no hand in play (IllegalActionError).

    >>> from scatlab.rules import deal_order
    >>> s = GameState.new("classic", 2).deal(deal_order(["AH KH 5C", "2S 3S 9H"], up="QH")).apply("draw")
    >>> start = hand_start(s)
    >>> start.phase.value, start.hand_number, start.lives
    ('deal', 0, (3, 3))
    """
    if state.phase in (Phase.DEAL, Phase.GAME_OVER):
        raise IllegalActionError(
            f"cannot deal the hand again now: the game is in the {state.phase.value!r} "
            "phase, and a hand must be in play"
        )
    record = GameRecord.from_state(state)
    return replay(replace(record, hands=record.hands[:-1]))


def redeal(state: GameState, order: CardsLike) -> GameState:
    """The hand in play dealt again from ``order`` (a whole deck, top first, as for
    :meth:`GameState.deal`): the moment just after its deal, with the game's standings,
    dealer and past hands as they are. For asking what the hand would have been with other
    cards (:func:`research.calibration.study.posterior_risk`, which deals from
    :func:`hand_start` once for its many decks); between hands and after the game there is
    no hand in play to deal again.

    >>> from scatlab.rules import deal_order
    >>> s = GameState.new("classic", 2).deal(deal_order(["AH KH 5C", "2S 3S 9H"], up="QH"))
    >>> again = redeal(s.apply("draw"), s.decks[-1])
    >>> again.hands == s.hands, again.stock == s.stock, again.to_move, again.hand_number, again.events
    (True, True, 1, 1, ())
    """
    return hand_start(state).deal(order)


def replay_hand(start: GameState, deck: Sequence[Card], state: GameState) -> GameState:
    """The hand in play of ``state`` played again from ``start`` (its :func:`hand_start`)
    with ``deck``: dealt, then every action of the hand so far as it was."""
    s = start.deal(deck)
    for e in state.hand_actions()[-1]:
        s = s.apply_for(e.player, e.action)
    return s


def restock(state: GameState, order: CardsLike) -> GameState:
    """The same moment with the cards still in the stock in ``order`` (top first), which
    must be a reordering of them; the hand's recorded deck changes to match, as if it had
    been dealt that way (no card of the stock has been seen, so the play so far fits it):
    the hand replayed from that deck. Between hands and after the game there is no stock to
    reorder (IllegalActionError). For studies that average over the stock's unknown order
    (:func:`research.calibration.study.expected_loss`).

    >>> from scatlab.rules import deal_order
    >>> s = GameState.new("classic", 2).deal(deal_order(["AH KH 4C", "2S 3S 9H"], up="QH", stock="5D 6D"))
    >>> r = restock(s, [*reversed(s.stock[:2]), *s.stock[2:]])
    >>> format_cards(r.stock[:2]), format_cards(r.decks[-1][7:9]), format_cards(s.stock[:2])
    ('6D 5D', '6D 5D', '5D 6D')
    >>> restock(s, "6D 5D")
    Traceback (most recent call last):
    ...
    scatlab.errors.RulesError: restock needs the 45 cards still in the stock in a new order, not 2 cards: '6D 5D'
    """
    if state.phase in (Phase.DEAL, Phase.GAME_OVER):
        raise IllegalActionError(f"restock needs a hand in play: the game is in the {state.phase.value!r} phase")
    left = state.remaining_stock
    cards = parse_cards(order, deck_size=state.rules.deck_size, what="cards of the stock")
    in_stock = set(left)
    if len(cards) != len(left) or set(cards) != in_stock:
        stranger = [c for c in cards if c not in in_stock]
        why = (
            f"{format_cards(stranger)} {'is' if len(stranger) == 1 else 'are'} not in it"
            if stranger
            else f"not {len(cards)} card{'' if len(cards) == 1 else 's'}"
        )
        raise RulesError(
            f"restock needs the {len(left)} cards still in the stock in a new order, {why}: {shown(order)}"
        )
    return replay_hand(hand_start(state), restocked_deck(state, cards), state)


def restocked_deck(state: GameState, cards: Sequence[Card]) -> tuple[Card, ...]:
    """The hand in play's deck with ``cards`` (a reordering of the undrawn stock) in place of
    the undrawn stock: the cards dealt, turned up and drawn stay where they were."""
    deck = state.decks[-1]
    drawn = len(deck) - len(state.remaining_stock)
    return tuple(deck[:drawn]) + tuple(cards)
