"""Cards, ranks, suits, decks and card notation (the bottom layer: no dependencies).

Rules cited: C1 (the 52-card deck and card values), V18 (the 32-card deck, 7 and higher).

Notation accepted by :func:`parse_cards` (case-insensitive; cards separated by spaces,
commas or semicolons):

- ranks ``A K Q J 10 9 8 7 6 5 4 3 2`` (``T`` also means 10);
- suits ``H D C S`` or the symbols ``♥ ♦ ♣ ♠`` (and the hollow ``♡ ♢ ♧ ♤``).

The one normalisation rule (:func:`scatlab.checks.notation`): the text is NFKC-normalised
and case-folded (and the presentation selectors U+FE0E/U+FE0F some keyboards append to a
suit symbol are dropped); after that only the ASCII ranks and suit letters above and the
eight suit symbols are accepted. So fullwidth ``ＡＨ``, the Kelvin sign U+212A before an
``H`` (NFKC: ``K``) and the long s in ``Aſ`` (NFKC: ``s``) read as ``AH``, ``KH`` and ``AS``;
any other character (``Ä``, ``ß``, a ligature, a combining mark, a zero-width space, a
control character) is refused with a :class:`~scatlab.errors.CardError`.

Cards always print in one canonical form: rank then suit letter, ``10`` for ten
(``AH KH 10C``).

>>> parse_cards("ah, kh tc")
(Card('AH'), Card('KH'), Card('10C'))
>>> format_cards(parse_cards("A♥ K♥ 10♣"))
'AH KH 10C'
>>> Card.parse("qs").value
10

Cards are interned value objects: there are exactly 52 instances, so ``is`` and ``==``
agree, and each card has a small integer :attr:`Card.index` (0 to 51) that the engine and
the analysis use for fast tables.
"""

from __future__ import annotations

import enum
import itertools
import re
from collections.abc import Iterable
from typing import TypeAlias

from .checks import notation, notation_pieces, shown
from .errors import CardError

__all__ = [
    "Rank",
    "Suit",
    "Card",
    "CardsLike",
    "ALL_CARDS",
    "deck",
    "parse_card",
    "parse_cards",
    "format_cards",
    "RANK_HELP",
    "SUIT_HELP",
]


class Rank(enum.IntEnum):
    """A card's rank; the integer order is the ranking order used by the V17 tie-break
    (the Ace is highest)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        """The canonical symbol: ``A K Q J 10 9 … 2``."""
        return _RANK_SYMBOLS[self]

    @property
    def points(self) -> int:
        """The rank's value in a hand (C1): Ace 11, K/Q/J 10, number cards their pips."""
        if self is Rank.ACE:
            return 11
        return min(int(self), 10)


class Suit(enum.Enum):
    """A card's suit. ``value`` is the canonical letter."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def symbol(self) -> str:
        """The suit's playing-card symbol (``♣ ♦ ♥ ♠``)."""
        return _SUIT_SYMBOLS[self]

    @property
    def letter(self) -> str:
        """The canonical letter (``C D H S``)."""
        return self.value


_RANK_SYMBOLS = {
    Rank.TWO: "2",
    Rank.THREE: "3",
    Rank.FOUR: "4",
    Rank.FIVE: "5",
    Rank.SIX: "6",
    Rank.SEVEN: "7",
    Rank.EIGHT: "8",
    Rank.NINE: "9",
    Rank.TEN: "10",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.ACE: "A",
}
_SUIT_SYMBOLS = {
    Suit.CLUBS: "♣",
    Suit.DIAMONDS: "♦",
    Suit.HEARTS: "♥",
    Suit.SPADES: "♠",
}
_SUIT_ORDER = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)

# Spellings after normalisation (scatlab.checks.notation: NFKC, then case folding).
_RANK_BY_TEXT: dict[str, Rank] = {s.casefold(): r for r, s in _RANK_SYMBOLS.items()}
_RANK_BY_TEXT["t"] = Rank.TEN
_SUIT_BY_TEXT: dict[str, Suit] = {s.value.casefold(): s for s in Suit}
_SUIT_BY_TEXT.update({s.symbol: s for s in Suit})
_SUIT_BY_TEXT.update({"♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES})

RANK_HELP = "a rank A K Q J 10 9 8 7 6 5 4 3 2 (T for 10)"
SUIT_HELP = "a suit H D C S or ♥ ♦ ♣ ♠"


class Card:
    """One playing card: an interned, immutable value with a rank and a suit.

    ``Card(rank, suit)`` and :meth:`Card.parse` return the one shared instance, so cards
    compare and hash as fast as small integers.

    >>> c = Card(Rank.ACE, Suit.HEARTS)
    >>> c is Card.parse("AH"), str(c), repr(c), c.value, c.pretty
    (True, 'AH', "Card('AH')", 11, 'A♥')
    """

    __slots__ = ("rank", "suit", "index")

    rank: Rank
    suit: Suit
    index: int

    _interned: dict[tuple[Rank, Suit], Card] = {}

    def __new__(cls, rank: Rank, suit: Suit) -> Card:
        try:
            return cls._interned[(rank, suit)]
        except (KeyError, TypeError):
            pass
        if not isinstance(rank, Rank) or not isinstance(suit, Suit):
            raise CardError(
                f"not a card: rank {shown(rank, 40)}, suit {shown(suit, 40)}; use Rank and Suit members "
                "(or parse_card('AH'))"
            )
        raise AssertionError("unreachable: every (Rank, Suit) pair is interned")  # pragma: no cover

    @classmethod
    def _make(cls, rank: Rank, suit: Suit, index: int) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "index", index)
        cls._interned[(rank, suit)] = card
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (parse_card, (str(self),))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    @property
    def value(self) -> int:
        """The card's points in a hand (C1)."""
        return self.rank.points

    @property
    def pretty(self) -> str:
        """The card with a suit symbol, e.g. ``10♣``."""
        return self.rank.symbol + self.suit.symbol

    def __str__(self) -> str:
        return self.rank.symbol + self.suit.value

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card such as ``AH``, ``tc``, ``10♣``; see :func:`parse_card`."""
        return parse_card(text)


# Index order: suit-major (clubs, diamonds, hearts, spades), ranks 2..A within a suit.
ALL_CARDS: tuple[Card, ...] = tuple(
    Card._make(rank, suit, 13 * si + (int(rank) - 2)) for si, suit in enumerate(_SUIT_ORDER) for rank in Rank
)


def deck(size: int = 52) -> tuple[Card, ...]:
    """The cards of a deck in index order: 52 cards (C1) or 32 cards, 7 and higher (V18).

    >>> len(deck(52)), len(deck(32)), min(c.rank for c in deck(32)).symbol
    (52, 32, '7')
    >>> deck(52.0)
    Traceback (most recent call last):
    ...
    scatlab.errors.CardError: no deck of 52.0 cards: a deck has 52 cards (C1) or 32 cards (V18), a whole number
    """
    if type(size) is int:
        if size == 52:
            return ALL_CARDS
        if size == 32:
            return _DECK32
    raise CardError(f"no deck of {shown(size)} cards: a deck has 52 cards (C1) or 32 cards (V18), a whole number")


_DECK32: tuple[Card, ...] = tuple(c for c in ALL_CARDS if c.rank >= Rank.SEVEN)

# Every accepted token once normalised (checks.notation), and its card.
_CARD_BY_TOKEN: dict[str, Card] = {
    rank_text + suit_text: Card(rank, suit)
    for rank_text, rank in _RANK_BY_TEXT.items()
    for suit_text, suit in _SUIT_BY_TEXT.items()
}
_PARSED: dict[str, Card] = {}
"""Texts read before (as given), for speed; bounded by :data:`_PARSED_MOST`."""
_PARSED_MOST = 4096


def parse_card(text: str | Card) -> Card:
    """Parse one card in any accepted notation (see the module doc): the text is
    NFKC-normalised and case-folded (:func:`scatlab.checks.notation`), then only the ASCII
    ranks ``A K Q J 10 9 … 2`` (``T`` for 10) and suit letters ``H D C S``, and the suit
    symbols ``♥ ♦ ♣ ♠ ♡ ♢ ♧ ♤``, are accepted. Anything else, of any kind, raises
    :class:`~scatlab.errors.CardError` quoting the text.

    >>> parse_card("10h"), parse_card("T♠"), parse_card(" qd "), parse_card("ＡＨ"), parse_card("\u212a♥")
    (Card('10H'), Card('10S'), Card('QD'), Card('AH'), Card('KH'))
    >>> parse_card("1H")
    Traceback (most recent call last):
    ...
    scatlab.errors.CardError: '1H' is not a card: '1' is not a rank; a card is a rank A K Q J 10 9 8 7 6 5 4 3 2 (T
    for 10) then a suit H D C S or ♥ ♦ ♣ ♠, e.g. 'AH' or '10♣'
    """
    if type(text) is Card:
        return text
    if not isinstance(text, str):
        raise CardError(f"{shown(text)} is not a card: expected text such as 'AH' or '10♣'")
    card = _PARSED.get(text)
    if card is not None:
        return card
    card = _CARD_BY_TOKEN.get(notation(text).strip())
    if card is None:
        raise CardError(f"{shown(text)} is not a card: {_diagnose(text)}; {_HELP}")
    if len(_PARSED) < _PARSED_MOST:
        _PARSED[text] = card
    return card


_HELP = f"a card is {RANK_HELP} then {SUIT_HELP}, e.g. 'AH' or '10♣'"
_DIGITS = re.compile(r"\d+", re.ASCII)


def _diagnose(text: str) -> str:
    """Say which part of a bad card token is wrong, quoting that part as given."""
    raw = text.strip()
    if not notation(raw).strip():
        return "it is empty"
    for k in (3, 2, 1):  # the longest start that reads as a rank: '10', '１０', '⑩', 'A'
        if notation(raw[:k]) in _RANK_BY_TEXT:
            rest = raw[k:]
            break
    else:
        digits = _DIGITS.match(raw)
        return f"{shown(digits.group(0) if digits else raw[0])} is not a rank"
    if not notation(rest).strip():
        return "the suit is missing"
    if notation(rest) in _SUIT_BY_TEXT:  # pragma: no cover - only if normalising the parts differs from the whole
        return f"it reads as {notation(raw)!r} once normalised (NFKC, case folded), which is not a card"
    return f"{shown(rest)} is not a suit"


CardsLike: TypeAlias = str | Card | Iterable[str | Card]
"""Anything that names cards: a string of cards, one card, or an iterable of cards or
card strings. Public functions normalise it with :func:`parse_cards`."""


def parse_cards(
    cards: CardsLike,
    *,
    count: int | None = None,
    deck_size: int | None = None,
    what: str = "cards",
) -> tuple[Card, ...]:
    """Normalise cards-like input to a tuple of cards, in the order given.

    A string is split at whitespace, commas and semicolons, and each piece read by
    :func:`parse_card`. ``count`` demands an exact number of cards; ``deck_size=32``
    refuses cards outside the 32-card deck (V18). Duplicates are always refused. Every
    error quotes the piece as given.

    >>> parse_cards("AH KH 10C", count=3)
    (Card('AH'), Card('KH'), Card('10C'))
    >>> parse_cards(["as", Card.parse("2c")])
    (Card('AS'), Card('2C'))
    >>> parse_cards("AH KH AH")
    Traceback (most recent call last):
    ...
    scatlab.errors.CardError: 'AH' appears twice in 'AH KH AH': each card of the deck exists once
    >>> parse_cards("ah A♥")
    Traceback (most recent call last):
    ...
    scatlab.errors.CardError: 'ah' and 'A♥' are both AH in 'ah A♥': each card of the deck exists once
    >>> parse_cards("AH 6♥ 10C", deck_size=32)
    Traceback (most recent call last):
    ...
    scatlab.errors.CardError: '6♥' (6H) is not in the 32-card deck (V18): it holds only 7 8 9 10 J Q K A
    """
    if count is not None and (type(count) is not int or count < 0):
        raise CardError(f"count={shown(count)} is not allowed: use None or a whole number of cards")
    if deck_size is not None:
        deck(deck_size)  # refuses sizes other than 52 and 32
    if not isinstance(what, str):
        raise CardError(f"what={shown(what)} is not allowed: use a text such as 'cards'")
    items: list[object]
    if type(cards) is Card:
        items = [cards]
    elif isinstance(cards, str):
        # A piece that normalises to nothing (a lone presentation selector) is no card.
        items = [piece for piece in notation_pieces(cards) if notation(piece).strip()]
    elif isinstance(cards, (bytes, bytearray, memoryview)):
        raise CardError(f"{shown(cards)} is not cards: give a text such as 'AH KH 10C' (not bytes) or a list of cards")
    else:
        try:
            # More than 52 items always hold a duplicate or a bad one: 53 are enough to say so.
            items = list(itertools.islice(iter(cards), 53))  # type: ignore[arg-type]
        except TypeError:
            raise CardError(
                f"{shown(cards)} is not cards: give a string such as 'AH KH 10C' or a list of cards"
            ) from None

    result = tuple(item if type(item) is Card else parse_card(item) for item in items)  # type: ignore[arg-type]
    if len(set(result)) != len(result):
        first: dict[Card, object] = {}
        for item, card in zip(items, result):
            if card in first:
                other = first[card]
                if other == item:
                    raise CardError(
                        f"{_quoted(item)} appears twice in {shown(cards, 80)}: each card of the deck exists once"
                    )
                raise CardError(
                    f"{_quoted(other)} and {_quoted(item)} are both {card} in {shown(cards, 80)}: each "
                    "card of the deck exists once"
                )
            first[card] = item
    if deck_size == 32:
        for item, card in zip(items, result):
            if card.rank < Rank.SEVEN:
                raise CardError(
                    f"{_quoted(item)}{'' if item == str(card) else f' ({card})'} is not in the "
                    "32-card deck (V18): it holds only 7 8 9 10 J Q K A"
                )
    if count is not None and len(result) != count:
        raise CardError(f"expected {count} {what}, got {len(result)}: {shown(cards, 80)}")
    return result


def _quoted(item: object) -> str:
    """A piece of cards-like input as given: a string quoted, a Card as its notation."""
    return repr(str(item)) if type(item) is Card else shown(item)


def format_cards(cards: CardsLike, *, pretty: bool = False) -> str:
    """Print cards in the canonical form, space separated, in the order given.

    >>> format_cards(parse_cards("ah tc"))
    'AH 10C'
    >>> format_cards(parse_cards("ah tc"), pretty=True)
    'A♥ 10♣'
    """
    if not isinstance(cards, (tuple, list)) or not all(type(c) is Card for c in cards):
        cards = parse_cards(cards, what="cards to format")
    if not isinstance(pretty, bool):
        raise CardError(f"pretty={shown(pretty, 40)} is not allowed: use True or False")
    if pretty:
        return " ".join(c.pretty for c in cards)
    return " ".join(str(c) for c in cards)


def sort_cards(cards: CardsLike) -> tuple[Card, ...]:
    """Cards grouped by suit (clubs, diamonds, hearts, spades), high rank first.

    >>> format_cards(sort_cards(parse_cards("2C AH 10C KH")))
    '10C 2C AH KH'
    """
    return tuple(sorted(parse_cards(cards, what="cards to sort"), key=lambda c: (c.index // 13, -c.index)))


__all__.append("sort_cards")
