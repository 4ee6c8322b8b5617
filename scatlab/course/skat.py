"""Skat game values: the German trick-taking game that is *not* 31 (Scat).

A small calculator for the contrast lesson ("Not this game"), from the seed text
``002_…`` (Skat on PlayingCards.io, its section "Scoring"). It has nothing to do with the
31 engine and imports nothing of it.

**Suit and Grand games.** The game value is the base value times the multiplier (the
"game level"):

- base value: diamonds 9, hearts 10, spades 11, clubs 12, grand 24;
- the multiplier adds up: game 1 (always), 1 per matador "with" or "without", hand 1,
  schneider 1, schneider announced 1, schwarz 1, schwarz announced 1, open (ouvert) 1.

**Null games** have fixed values: Null 23, Null Hand 35, Null Ouvert 46, Null Ouvert
Hand 59.

**A lost game** subtracts twice its value from the declarer's score (seed, point 11).

Choices where the seed is silent or inconsistent, stated here (they follow the
International Skat Order, ISkO):

- Trumps rank J♣ J♠ J♥ J♦ then, in a suit game, the trump suit's A 10 K Q 9 8 7 (the
  seed's own ranking list). The seed's matador example names the Jack of Spades as "the
  highest"; its ranking list puts the Jack of Clubs first, and so does this module.
- Matadors count the unbroken run of top trumps the declarer holds ("with") or lacks
  ("without") in the ten cards dealt plus the skat (seed, point 8).
- Schneider: the declarer has 90 card points or more, or 30 or fewer (then the
  defenders made schneider); schwarz: one side took every trick.
- Announcements (schneider, schwarz, open) need a hand game (seed, contracts point 2).
  Announcing schwarz also announces schneider, and playing open also announces schwarz
  (and so schneider): an open game counts every level above it.
- An announced schneider or schwarz that is not made loses the game (seed, point 11).
- Overbid: when the value is below the bid, the game is lost and its value is raised to
  the smallest multiple of the base value at least the bid (for Null: the smallest Null
  value at least the bid is not defined, so a Null overbid loses twice the Null value).

>>> game_value("clubs", matadors=2).value            # clubs, with 2: (1 + 2) × 12
36
>>> game_value("grand", matadors=1, hand=True).value  # grand hand, with 1: (1 + 1 + 1) × 24
72
>>> game_value("null", hand=True, ouvert=True).value
59
>>> count_matadors("JC JS JH 7D 8D 9D AH 10H KH QH AS 10S", "hearts")
('with', 3)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..checks import notation, notation_pieces, shown
from ..errors import SkatError

__all__ = [
    "SkatError",
    "CONTRACTS",
    "BASE_VALUES",
    "NULL_VALUES",
    "GameValue",
    "parse_skat_cards",
    "count_matadors",
    "game_value",
    "settle",
]


Contract = Literal["diamonds", "hearts", "spades", "clubs", "grand", "null"]
CONTRACTS: tuple[str, ...] = ("diamonds", "hearts", "spades", "clubs", "grand", "null")
"""Every contract, suit games by rising base value."""

BASE_VALUES: dict[str, int] = {"diamonds": 9, "hearts": 10, "spades": 11, "clubs": 12, "grand": 24}
"""Base values of the suit and grand games (seed ``002_…``, Scoring point 5)."""

NULL_VALUES: dict[tuple[bool, bool], int] = {
    (False, False): 23,  # Null
    (True, False): 35,  # Null Hand
    (False, True): 46,  # Null Ouvert (Open Null)
    (True, True): 59,  # Null Ouvert Hand
}
"""Null values by (hand, ouvert) (seed ``002_…``, Scoring point 9)."""

_RANKS = ("A", "10", "K", "Q", "J", "9", "8", "7")
_SUITS = ("C", "S", "H", "D")
_SUIT_NAMES = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
_SYMBOLS = {"♣": "C", "♠": "S", "♥": "H", "♦": "D"}
# Spellings once normalised (checks.notation: NFKC, then case folding).
_SKAT_SUITS = {**{s.lower(): s for s in _SUITS}, **_SYMBOLS}
_SKAT_RANKS = {**{r.lower(): r for r in _RANKS}, "t": "10"}


def _contract(contract: str) -> str:
    name = notation(contract).strip() if isinstance(contract, str) else None
    if name not in CONTRACTS:
        raise SkatError(f"{shown(contract)} is not a Skat contract; use one of {', '.join(CONTRACTS)}")
    return str(name)


def parse_skat_cards(text: str) -> tuple[str, ...]:
    """Parse Skat cards ("JC 10H AS", "J♣ T♥") into canonical strings such as ``'10H'``.

    The Skat deck has 32 cards: A 10 K Q J 9 8 7 (T for 10) in clubs, spades, hearts and
    diamonds (C S H D or ♣ ♠ ♥ ♦). Duplicates are refused. The text is read as 31's card
    notation is (:func:`scatlab.checks.notation`: NFKC-normalised and case-folded, then
    only these ASCII spellings and symbols).

    >>> parse_skat_cards("jc, T♥ as")
    ('JC', '10H', 'AS')
    >>> parse_skat_cards("6H")
    Traceback (most recent call last):
    ...
    scatlab.errors.SkatError: '6H' is not a Skat card: a Skat card is a rank A 10 K Q J 9 8 7 (T for 10) then a
    suit C S H D (or ♣ ♠ ♥ ♦), e.g. 'JC'
    """
    if not isinstance(text, str):
        raise SkatError(f"{shown(text)} is not Skat cards: give a text such as 'JC 10H AS'")
    cards: list[str] = []
    for token in notation_pieces(text):
        raw = notation(token).strip()
        suit = _SKAT_SUITS.get(raw[-1:], "")
        rank = _SKAT_RANKS.get(raw[:-1], "")
        if not suit or not rank:
            raise SkatError(
                f"{shown(token)} is not a Skat card: a Skat card is a rank A 10 K Q J 9 8 7 (T for 10) "
                "then a suit C S H D (or ♣ ♠ ♥ ♦), e.g. 'JC'"
            )
        card = rank + suit
        if card in cards:
            raise SkatError(f"{shown(token)} appears twice in {shown(text, 80)}; a Skat deck has each card once")
        cards.append(card)
    return tuple(cards)


def _trumps(contract: str) -> tuple[str, ...]:
    jacks = tuple("J" + s for s in _SUITS)
    if contract == "grand":
        return jacks
    suit = next(s for s, n in _SUIT_NAMES.items() if n == contract)
    return jacks + tuple(r + suit for r in ("A", "10", "K", "Q", "9", "8", "7"))


def count_matadors(cards: str, contract: str) -> tuple[Literal["with", "without"], int]:
    """Matadors of the declarer's twelve cards (the ten dealt plus the skat).

    "With n": the declarer holds the n highest trumps in an unbroken run from J♣;
    "without n": the n highest trumps are all missing. Either way the multiplier gains n.
    A suit game has 11 trumps (four Jacks and seven cards of the suit), a grand 4.

    >>> count_matadors("JS JH AC 10C KC QC 9C 8C 7C AS 10S KS", "clubs")   # no J♣, J♦
    ('without', 1)
    >>> count_matadors("JC JS JH JD AC 10C KC QC 9C 8C 7C AS", "clubs")   # all 11
    ('with', 11)
    >>> count_matadors("JC JS", "null")
    Traceback (most recent call last):
    ...
    scatlab.errors.SkatError: a null game has no trumps and so no matadors; matadors count in diamonds, hearts,
    spades, clubs or grand
    """
    name = _contract(contract)
    if name == "null":
        raise SkatError(
            "a null game has no trumps and so no matadors; matadors count in diamonds, hearts, spades, clubs or grand"
        )
    held = set(parse_skat_cards(cards))
    if len(held) != 12:
        raise SkatError(
            f"{shown(cards, 80)} has {len(held)} cards; matadors are counted over 12 (the ten dealt plus the skat)"
        )
    trumps = _trumps(name)
    first = trumps[0] in held
    run = 0
    for card in trumps:
        if (card in held) != first:
            break
        run += 1
    return ("with" if first else "without"), run


@dataclass(frozen=True)
class GameValue:
    """A Skat game's value and how it was reached.

    ``base`` is 0 for Null (whose values are fixed), ``levels`` lists each multiplier
    step by name, and ``value`` is what the declarer scores when the game is won.
    """

    contract: str
    base: int
    levels: tuple[str, ...]
    value: int

    @property
    def multiplier(self) -> int:
        """The game level: the number of multiplier steps (0 for Null).

        >>> game_value("spades", matadors=1, hand=True, schneider=True).multiplier
        4
        """
        return len(self.levels)

    def explain(self) -> str:
        """One line that shows the sum.

        >>> print(game_value("hearts", matadors=2, schneider=True).explain())
        hearts: base 10 × (game 1 + matadors 2 + schneider 1) = 10 × 4 = 40
        >>> print(game_value("null", hand=True).explain())
        null hand: a fixed value of 35
        """
        if self.base == 0:
            return f"{self.contract}: a fixed value of {self.value}"
        counts: dict[str, int] = {}
        for level in self.levels:
            counts[level] = counts.get(level, 0) + 1
        parts = " + ".join(f"{name} {n}" for name, n in counts.items())
        return f"{self.contract}: base {self.base} × ({parts}) = {self.base} × {self.multiplier} = {self.value}"


def game_value(
    contract: str,
    *,
    matadors: int = 1,
    hand: bool = False,
    schneider: bool = False,
    schneider_announced: bool = False,
    schwarz: bool = False,
    schwarz_announced: bool = False,
    ouvert: bool = False,
) -> GameValue:
    """The value of a Skat game (seed ``002_…``, Scoring points 5 to 9).

    ``matadors`` is the count "with" or "without" (1 to 11 in a suit game, 1 to 4 in a
    grand; see :func:`count_matadors`). ``schneider`` and ``schwarz`` say what happened
    (either side); the announcements need ``hand=True``. Announcing schwarz implies
    schneider announced; ``ouvert`` implies schwarz announced. A schwarz game is also
    schneider. For ``"null"`` only ``hand`` and ``ouvert`` matter.

    >>> game_value("diamonds").value          # the cheapest game: 2 × 9
    18
    >>> game_value("grand", matadors=4, hand=True, schneider=True, schneider_announced=True,
    ...            schwarz=True, schwarz_announced=True, ouvert=True).value   # (1+4+6) × 24
    264
    >>> game_value("grand", matadors=5)
    Traceback (most recent call last):
    ...
    scatlab.errors.SkatError: matadors=5 is impossible in a grand: with or without 1 to 4
    >>> game_value("clubs", schneider_announced=True)
    Traceback (most recent call last):
    ...
    scatlab.errors.SkatError: schneider announced needs a hand game (hand=True): announcements are made only when
    the skat is not picked up
    """
    name = _contract(contract)
    if name == "null":
        value = NULL_VALUES[(bool(hand), bool(ouvert))]
        label = "null" + (" ouvert" if ouvert else "") + (" hand" if hand else "")
        return GameValue(label, 0, (), value)
    most = 4 if name == "grand" else 11
    if isinstance(matadors, bool) or not isinstance(matadors, int) or not 1 <= matadors <= most:
        raise SkatError(f"matadors={shown(matadors)} is impossible in a {name}: with or without 1 to {most}")
    schwarz_announced = schwarz_announced or ouvert
    schneider_announced = schneider_announced or schwarz_announced
    schneider = schneider or schwarz
    for flag, what in ((schneider_announced, "schneider announced"), (ouvert, "ouvert")):
        if flag and not hand:
            raise SkatError(
                f"{what} needs a hand game (hand=True): announcements are made only when the skat is not picked up"
            )
    levels = ["game"] + ["matadors"] * matadors
    for flag, step in (
        (hand, "hand"),
        (schneider, "schneider"),
        (schneider_announced, "schneider announced"),
        (schwarz, "schwarz"),
        (schwarz_announced, "schwarz announced"),
        (ouvert, "ouvert"),
    ):
        if flag:
            levels.append(step)
    base = BASE_VALUES[name]
    return GameValue(name, base, tuple(levels), base * len(levels))


def settle(value: GameValue, *, won: bool, bid: int = 18) -> int:
    """The change to the declarer's score: ``+value`` when won, ``-2 × value`` when lost.

    A game worth less than the bid is lost (overbid) and its value raised to the smallest
    multiple of the base value at least the bid (ISkO; the seed only says it is lost).
    The lowest bid is 18.

    >>> settle(game_value("hearts", matadors=1), won=True)        # 20
    20
    >>> settle(game_value("hearts", matadors=1), won=False)
    -40
    >>> settle(game_value("hearts", matadors=1), won=True, bid=22)   # overbid: 30 lost twice
    -60
    >>> settle(game_value("null"), won=False)
    -46
    """
    if isinstance(bid, bool) or not isinstance(bid, int) or bid < 18:
        raise SkatError(f"bid={shown(bid)} is not a Skat bid: bids are whole numbers from 18 up")
    if value.value >= bid:
        return value.value if won else -2 * value.value
    if value.base == 0:
        return -2 * value.value
    raised = -(-bid // value.base) * value.base
    return -2 * raised
