"""Playing cards drawn as SVG by the project itself (nothing is fetched from the network).

Every card is a standalone ``<svg>`` element with ``role="img"`` and a spoken label
(``aria-label="queen of hearts"``), so a screen reader names it and a browser test can find
it. The suit is shown by its symbol (drawn as a path, so no font is needed) as well as by
its colour: hearts and diamonds red, clubs and spades black (C1 names the 52 cards; V18
the 32-card deck, which uses the same faces).

>>> from scatlab.cards import Card
>>> svg = card_svg(Card.parse("QH"))
>>> svg.startswith("<svg") and 'aria-label="queen of hearts"' in svg
True
>>> 'aria-label="face-down card"' in card_svg(Card.parse("QH"), face_up=False)
True
>>> card_label(Card.parse("10C"))
'ten of clubs'

This module is pure Python (no ipywidgets): the widgets, the docs and the tests all draw
cards with it.
"""

from __future__ import annotations

from html import escape

from ..cards import Card, Rank, Suit, parse_card
from ..errors import CardError

__all__ = ["card_svg", "card_label", "empty_slot_svg", "suit_colour", "suit_path", "RED", "BLACK", "CARD_RATIO"]

RED = "#c8102e"
BLACK = "#1b1b1b"
#: Height divided by width of a card (a poker card is 88 x 63 mm, close to 1.4).
CARD_RATIO = 1.4

_RANK_NAMES = {
    Rank.TWO: "two",
    Rank.THREE: "three",
    Rank.FOUR: "four",
    Rank.FIVE: "five",
    Rank.SIX: "six",
    Rank.SEVEN: "seven",
    Rank.EIGHT: "eight",
    Rank.NINE: "nine",
    Rank.TEN: "ten",
    Rank.JACK: "jack",
    Rank.QUEEN: "queen",
    Rank.KING: "king",
    Rank.ACE: "ace",
}
_SUIT_NAMES = {Suit.CLUBS: "clubs", Suit.DIAMONDS: "diamonds", Suit.HEARTS: "hearts", Suit.SPADES: "spades"}

# Suit shapes in a 1 x 1 box (drawn as paths, so no font with card symbols is needed).
_SUIT_PATHS = {
    Suit.HEARTS: (
        "M0.5,0.95 C 0.22,0.72 0,0.52 0,0.3 C 0,0.13 0.12,0.02 0.27,0.02 "
        "C 0.38,0.02 0.46,0.09 0.5,0.19 C 0.54,0.09 0.62,0.02 0.73,0.02 "
        "C 0.88,0.02 1,0.13 1,0.3 C 1,0.52 0.78,0.72 0.5,0.95 Z"
    ),
    Suit.DIAMONDS: "M0.5,0 L0.88,0.5 L0.5,1 L0.12,0.5 Z",
    Suit.SPADES: (
        "M0.5,0 C 0.78,0.25 1,0.42 1,0.6 C 1,0.75 0.89,0.84 0.76,0.84 "
        "C 0.66,0.84 0.58,0.79 0.54,0.72 C 0.56,0.85 0.61,0.94 0.7,1 L0.3,1 "
        "C 0.39,0.94 0.44,0.85 0.46,0.72 C 0.42,0.79 0.34,0.84 0.24,0.84 "
        "C 0.11,0.84 0,0.75 0,0.6 C 0,0.42 0.22,0.25 0.5,0 Z"
    ),
    Suit.CLUBS: (
        "M0.5,0.02 A0.21,0.21 0 1 1 0.499,0.02 Z "
        "M0.25,0.38 A0.21,0.21 0 1 1 0.249,0.38 Z "
        "M0.75,0.38 A0.21,0.21 0 1 1 0.749,0.38 Z "
        "M0.46,0.5 C 0.46,0.78 0.41,0.92 0.3,1 L0.7,1 C 0.59,0.92 0.54,0.78 0.54,0.5 Z"
    ),
}

# Pip positions (centre x, centre y) in the 100 x 140 card for 2 to 10; pips below the
# middle are drawn upside down, as on a real card.
_L, _C, _R = 30.0, 50.0, 70.0
_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    2: ((_C, 30), (_C, 110)),
    3: ((_C, 30), (_C, 70), (_C, 110)),
    4: ((_L, 30), (_R, 30), (_L, 110), (_R, 110)),
    5: ((_L, 30), (_R, 30), (_C, 70), (_L, 110), (_R, 110)),
    6: ((_L, 30), (_R, 30), (_L, 70), (_R, 70), (_L, 110), (_R, 110)),
    7: ((_L, 30), (_R, 30), (_C, 50), (_L, 70), (_R, 70), (_L, 110), (_R, 110)),
    8: ((_L, 30), (_R, 30), (_C, 50), (_L, 70), (_R, 70), (_C, 90), (_L, 110), (_R, 110)),
    9: ((_L, 30), (_R, 30), (_L, 56.7), (_R, 56.7), (_C, 70), (_L, 83.3), (_R, 83.3), (_L, 110), (_R, 110)),
    10: (
        (_L, 30),
        (_R, 30),
        (_C, 43.3),
        (_L, 56.7),
        (_R, 56.7),
        (_L, 83.3),
        (_R, 83.3),
        (_C, 96.7),
        (_L, 110),
        (_R, 110),
    ),
}
_FONT = "Georgia, 'DejaVu Serif', 'Times New Roman', serif"


def _as_card(card: Card | str) -> Card:
    if isinstance(card, Card):
        return card
    if isinstance(card, str):
        return parse_card(card)
    raise CardError(f"{card!r} is not a card: give a Card or notation such as 'QH' or 'Q♥'")


def card_label(card: Card | str | None) -> str:
    """The spoken name of a card: ``"queen of hearts"``; ``None`` is ``"face-down card"``.

    >>> card_label("AS"), card_label("7♦"), card_label(None)
    ('ace of spades', 'seven of diamonds', 'face-down card')
    >>> card_label("1H")
    Traceback (most recent call last):
    ...
    scatlab.errors.CardError: '1H' is not a card: '1' is not a rank; a card is a rank A K Q J 10 9 8 7 6 5 4 3 2 (T
    for 10) then a suit H D C S or ♥ ♦ ♣ ♠, e.g. 'AH' or '10♣'
    """
    if card is None:
        return "face-down card"
    c = _as_card(card)
    return f"{_RANK_NAMES[c.rank]} of {_SUIT_NAMES[c.suit]}"


def suit_colour(suit: Suit) -> str:
    """Red for hearts and diamonds, black for clubs and spades.

    >>> suit_colour(Suit.HEARTS) == RED, suit_colour(Suit.SPADES) == BLACK
    (True, True)
    """
    return RED if suit in (Suit.HEARTS, Suit.DIAMONDS) else BLACK


def suit_path(suit: Suit, x: float, y: float, size: float, *, flip: bool = False) -> str:
    """An SVG ``<path>`` of the suit's symbol centred at (x, y), ``size`` units across.

    >>> suit_path(Suit.DIAMONDS, 10, 10, 4).startswith('<path transform="translate(8,8) scale(4)"')
    True
    """
    left, top = x - size / 2, y - size / 2
    transform = f"translate({_num(left)},{_num(top)}) scale({_num(size)})"
    if flip:
        transform = f"rotate(180 {_num(x)} {_num(y)}) " + transform
    return f'<path transform="{transform}" d="{_SUIT_PATHS[suit]}" fill="{suit_colour(suit)}"/>'


def _num(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text if text not in ("-0", "") else "0"


def _corner(card: Card, colour: str) -> str:
    rank = card.rank.symbol
    size = 19 if len(rank) == 1 else 16
    return (
        f'<text x="11" y="22" text-anchor="middle" font-family="{_FONT}" font-size="{size}" '
        f'font-weight="bold" fill="{colour}" letter-spacing="-1">{rank}</text>' + suit_path(card.suit, 11, 32, 11)
    )


def _face(card: Card) -> str:
    colour = suit_colour(card.suit)
    corner = _corner(card, colour)
    parts = [corner, f'<g transform="rotate(180 50 70)">{corner}</g>']
    if card.rank is Rank.ACE:
        parts.append(suit_path(card.suit, 50, 70, 42))
    elif card.rank in (Rank.JACK, Rank.QUEEN, Rank.KING):
        tint = "#fdecef" if colour == RED else "#eef0f6"
        parts.append(
            f'<rect x="23" y="20" width="54" height="100" rx="4" fill="{tint}" stroke="{colour}" stroke-width="1.5"/>'
            f'<text x="50" y="84" text-anchor="middle" font-family="{_FONT}" font-size="44" '
            f'font-weight="bold" fill="{colour}">{card.rank.symbol}</text>'
        )
        parts.append(suit_path(card.suit, 50, 36, 16))
        parts.append(suit_path(card.suit, 50, 104, 16, flip=True))
    else:
        size = 18 if int(card.rank) < 9 else 16
        for px, py in _PIPS[int(card.rank)]:
            parts.append(suit_path(card.suit, px, py, size, flip=py > 70))
    return "".join(parts)


def _back() -> str:
    parts = [
        '<rect x="7" y="7" width="86" height="126" rx="5" fill="#1d4e89"/>',
        '<rect x="11" y="11" width="78" height="118" rx="3" fill="none" stroke="#f4f1e8" stroke-width="1.5"/>',
    ]
    for row in range(7):
        for col in range(4):
            cx = 23 + col * 18 + (9 if row % 2 else 0)
            cy = 22 + row * 16
            if cx > 84:
                continue
            parts.append(
                f'<path d="M{cx},{cy - 6} L{cx + 6},{cy} L{cx},{cy + 6} L{cx - 6},{cy} Z" '
                'fill="none" stroke="#8fb3de" stroke-width="1.2"/>'
            )
    return "".join(parts)


def card_svg(
    card: Card | str | None,
    *,
    face_up: bool = True,
    selected: bool = False,
    mark: str | None = None,
    width: int = 64,
) -> str:
    """One card as a standalone ``<svg>`` (``width`` pixels wide, 1.4 times as tall).

    ``card=None`` or ``face_up=False`` draws the back (a hidden card's identity is never
    written into the SVG, not even in a label). ``selected`` draws a thick gold border;
    ``mark`` writes a small badge in the top right corner (e.g. ``"out"`` for a card that
    would make 31).

    >>> from scatlab.cards import Card
    >>> svg = card_svg(Card.parse("7D"), selected=True, mark="out", width=80)
    >>> 'width="80"' in svg and 'height="112"' in svg and ">out<" in svg
    True
    >>> "queen" in card_svg("QH", face_up=False)
    False
    >>> card_svg("QH", width=0)
    Traceback (most recent call last):
    ...
    scatlab.errors.CardError: width 0 is not a card width: give a whole number of pixels from 8 to 1000
    """
    if not isinstance(width, int) or isinstance(width, bool) or not 8 <= width <= 1000:
        raise CardError(f"width {width!r} is not a card width: give a whole number of pixels from 8 to 1000")
    shown = _as_card(card) if card is not None and face_up else None
    label = card_label(shown)
    if mark:
        label += f" ({mark})"
    height = round(width * CARD_RATIO)
    border = "#d4a017" if selected else "#9a9a9a"
    border_width = 5 if selected else 1.5
    body = _face(shown) if shown is not None else _back()
    badge = ""
    if mark:
        text = escape(mark[:6])
        box = 8 + 7 * len(mark[:6])
        badge = (
            f'<rect x="{96 - box}" y="3" width="{box}" height="17" rx="8" fill="#1e7b34"/>'
            f'<text x="{96 - box / 2:g}" y="15.5" text-anchor="middle" font-family="sans-serif" '
            f'font-size="12" font-weight="bold" fill="#ffffff">{text}</text>'
        )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 140" width="{width}" height="{height}" '
        f'role="img" aria-label="{escape(label)}">'
        f"<title>{escape(label)}</title>"
        f'<rect x="1.5" y="1.5" width="97" height="137" rx="8" fill="#ffffff" stroke="{border}" '
        f'stroke-width="{border_width}"/>'
        f"{body}{badge}</svg>"
    )


def empty_slot_svg(label: str = "empty pile", *, width: int = 64) -> str:
    """A dashed outline where a pile would be (an empty stock or discard pile).

    >>> 'aria-label="empty pile"' in empty_slot_svg()
    True
    """
    height = round(width * CARD_RATIO)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 140" width="{width}" height="{height}" '
        f'role="img" aria-label="{escape(label)}"><title>{escape(label)}</title>'
        '<rect x="2" y="2" width="96" height="136" rx="8" fill="none" stroke="#7a9a7a" '
        'stroke-width="2" stroke-dasharray="6 5"/></svg>'
    )
