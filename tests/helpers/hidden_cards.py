"""Finding a hidden card in a text: what one seat may see, and which cards a text names.

What a seat may see comes from its own :class:`~scatlab.rules.PlayerView`: its hand (and
the card it drew), the discard pile, every card the hand's public log shows moving (taken,
thrown, or drawn by the seat itself), and once a hand is over every final hand and the final
pile (the showdown turns them up). Every other card of the deck is hidden from it: in another
hand or in the stock.

A text names a card in any form the table uses: its code (``10H``, :func:`str`), its symbol
form (``10♥``, :attr:`~scatlab.cards.Card.pretty`), or its spoken name (``ten of hearts``,
:func:`~scatlab.widgets.svg.card_label`, the cards' screen-reader labels). A code counts only
standing alone (``0♥`` inside ``10♥`` and ``A♥`` inside ``JA♥`` do not).
"""

from __future__ import annotations

import dataclasses
import enum
import random
import re
import types
from collections.abc import Iterator
from fractions import Fraction
from functools import lru_cache
from typing import Any

from scatlab.cards import ALL_CARDS, Card, deck, parse_card
from scatlab.rules import GameState, Phase
from scatlab.widgets.svg import card_label

CARD_CODE = re.compile(r"(?<![\w♣♦♥♠])(?:10|[2-9AKQJ])[HDCS♣♦♥♠](?![\w♣♦♥♠])")
"""A card in letters or with its suit symbol, standing alone."""
SPOKEN = re.compile(
    r"\b(?:two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace) of (?:clubs|diamonds|hearts|spades)\b",
    re.IGNORECASE,
)
"""A card by its spoken name."""
_BY_LABEL = {card_label(c): c for c in ALL_CARDS}


@lru_cache(maxsize=65536)  # the same texts (rules, names, log lines) come back at every moment
def cards_named(text: str) -> frozenset[Card]:
    """Every card ``text`` names, in any of the table's forms.

    >>> sorted(map(str, cards_named("throws the 10♥, keeping 3C 7H and the queen of spades; 0♥ JA♥")))
    ['10H', '3C', '7H', 'QS']
    """
    named = {parse_card(m.group(0)) for m in CARD_CODE.finditer(text)}
    named |= {_BY_LABEL[m.group(0).lower()] for m in SPOKEN.finditer(text)}
    return frozenset(named)


def seen_by(state: GameState, seat: int) -> set[Card]:
    """The cards ``seat`` may see now, read from its own view (see the module doc)."""
    view = state.view(seat)
    seen = set(view.hand) | set(view.discard_pile) | {e.card for e in view.history if e.card is not None}
    if view.drawn is not None:
        seen.add(view.drawn)
    if view.phase in (Phase.DEAL, Phase.GAME_OVER) and view.results:
        for hand in view.results[-1].final:
            seen.update(hand)
        seen.update(view.past_hands[-1].discard_pile)
    return seen


def hidden_from(state: GameState, seat: int) -> set[Card]:
    """The cards of the deck ``seat`` cannot see now."""
    return set(deck(state.rules.deck_size)) - seen_by(state, seat)


def strings(data: Any, path: str = "") -> list[tuple[str, str]]:
    """Every string in JSON-like ``data`` with where it is (``.seats[1].name``)."""
    if isinstance(data, str):
        return [(path, data)]
    if isinstance(data, dict):
        return [item for key, value in data.items() for item in strings(value, f"{path}.{key}")]
    if isinstance(data, (list, tuple)):
        return [item for i, value in enumerate(data) for item in strings(value, f"{path}[{i}]")]
    return []


def hidden_named(texts: list[tuple[str, str]], hidden: set[Card]) -> list[str]:
    """Each text that names a card of ``hidden``, with where it is and the cards."""
    problems = []
    for where, text in texts:
        bad = cards_named(text) & hidden
        if bad:
            problems.append(f"{where} names {' '.join(sorted(map(str, bad)))}: {text!r}")
    return problems


# -- every card an object reaches, and what a seat may know from the real state ---------------

_OPAQUE = (
    type,
    types.ModuleType,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    types.BuiltinMethodType,
    types.MethodWrapperType,
    types.WrapperDescriptorType,
)


def reachable(root: object) -> tuple[set[Card], list[object]]:
    """Every Card reachable from ``root`` through containers, dataclass fields, ``__dict__``
    and ``__slots__`` (not through modules, classes or functions), and any GameState met."""
    cards: set[Card] = set()
    states: list[object] = []
    seen: set[int] = set()
    stack: list[object] = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or obj is None or isinstance(obj, (str, bytes, int, float, Fraction) + _OPAQUE):
            continue
        seen.add(id(obj))
        if isinstance(obj, GameState):
            states.append(obj)
        if isinstance(obj, Card):
            cards.add(obj)
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, (tuple, list, set, frozenset)):
            stack.extend(obj)
        if dataclasses.is_dataclass(obj):
            stack.extend(getattr(obj, f.name) for f in dataclasses.fields(obj))
        if isinstance(obj, enum.Enum):
            stack.append(obj.value)
        stack.extend(v for k, v in getattr(obj, "__dict__", {}).items() if k != "__objclass__")
        for cls in type(obj).__mro__:
            slots = cls.__dict__.get("__slots__", ())
            for name in (slots,) if isinstance(slots, str) else slots:
                if hasattr(obj, name):
                    stack.append(getattr(obj, name))
    return cards, states


def public_cards(state: GameState, seat: int) -> set[Card]:
    """What ``seat`` may know, from the real state: own hand (unless deciding on a
    throw-down, V11), the discard pile, the cards in the hand's log (others' stock draws
    hidden), every card shown in past hands' results, the cards in past hands' logs (the
    same way) and each past hand's first face-up card."""
    allowed: set[Card] = set(state.discards)
    if not (state.phase is Phase.THROW_DOWN and state.to_move == seat):
        allowed |= set(state.hands[seat])
    allowed |= {c for e in state.events if (c := e.public(seat).card) is not None}
    allowed |= {c for r in state.results for h in r.final for c in h}
    for order, log, result in zip(state.decks, state.logs, state.results):
        allowed |= {c for e in log if (c := e.public(seat).card) is not None}
        players = sum(len(h) > 0 for h in result.final)
        allowed.add(order[3 * players])  # the up card (C3)
    return allowed


def three_seat_states(rules: Any, hands: int, every: int) -> Iterator[GameState]:
    """The states of a seeded three-seat game (a random, a tip and a greedy player, seeded
    by the rule set), every ``every`` actions, for its first ``hands`` hands."""
    from scatlab.players import PLAYER_KINDS, RandomPlayer
    from scatlab.rules import shuffled_deck

    rng = random.Random(rules.describe())
    players = [RandomPlayer(), PLAYER_KINDS["tip"](), PLAYER_KINDS["greedy"]()]
    state = GameState.new(rules, 3)
    step = 0
    while not state.is_over and state.hand_number <= hands:
        if state.phase is Phase.DEAL:
            state = state.deal(shuffled_deck(rules, rng))
        else:
            mover = state.to_move
            assert mover is not None
            state = state.apply(players[mover].choose(state.view(mover), rng))
        step += 1
        if step % every == 0:
            yield state


def held_from(state: GameState, seat: int) -> set[Card]:
    """The cards in other hands and the stock that ``seat`` may not know (less
    :func:`public_cards`, the cards it may know from the real state)."""
    others = {c for p in range(len(state.hands)) if p != seat for c in state.hands[p]}
    return (others | set(state.remaining_stock)) - public_cards(state, seat)


def hidden_twin(state: GameState, seat: int, rng: random.Random, tries: int = 50) -> GameState | None:
    """A game ``seat`` cannot tell from ``state``: the cards hidden from it
    (:func:`held_from`: the other hands' unseen cards and the stock's) shuffled among their
    places in the current hand's deck, and the hand's actions played again. None when no
    shuffle of ``tries`` replays to the same view with other hidden cards (a shuffle may
    give an opponent 31, which changes the hand)."""
    from dataclasses import replace

    from scatlab.errors import ScatlabError
    from scatlab.rules import GameRecord, replay
    from scatlab.rules.record import HandRecord

    record = GameRecord.from_state(state)
    hidden = held_from(state, seat)
    order = list(record.hands[-1].deck)
    places = [i for i, c in enumerate(order) if c in hidden]
    for _ in range(tries):
        cards = [order[i] for i in places]
        rng.shuffle(cards)
        deck_order = list(order)
        for i, c in zip(places, cards):
            deck_order[i] = c
        hand = HandRecord(tuple(deck_order), record.hands[-1].actions)
        try:
            twin = replay(replace(record, hands=record.hands[:-1] + (hand,)))
        except ScatlabError:
            continue
        others = [p for p in range(len(state.hands)) if p != seat]
        if twin.view(seat) == state.view(seat) and (
            any(twin.hands[p] != state.hands[p] for p in others) or twin.remaining_stock != state.remaining_stock
        ):
            return twin
    return None
