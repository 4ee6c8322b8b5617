"""The rulebook as data: every rule code of RULES.md (C1-C14, V1-V19) with a title, a plain
explanation and the :class:`~scatlab.rules.options.RuleSet` options it touches.

Layer 1 of scatlab (standard library and :mod:`scatlab.errors` only). The explanations are
written by the project from the source texts (``/work/shared/seeds``), not copied from them.
Engine messages, tests and lessons cite rules by code; this module turns a code back into
words:

>>> rule_entry("c7").title
'Showdown'
>>> rule_entry("V7(d)").code
'V7'
>>> cited_codes("C5: a card taken from the discard pile may not be thrown back (see C5, V7b)")
('C5', 'V7')
>>> print(rule_entry("C12").describe())
C12 Taking back your own discard: When only two players are left and the opponent has knocked, the card on top of
the discard pile may be the one you threw yourself. You may take it back. This is the only time a player takes
their own discard.
    options: take_back
>>> list(RULEBOOK)[:3], len(RULEBOOK)
(['C1', 'C2', 'C3'], 33)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ..checks import notation, shown
from ..errors import RulesError

__all__ = ["RuleEntry", "RULEBOOK", "rule_entry", "cited_codes"]


@dataclass(frozen=True)
class RuleEntry:
    """One rule of the catalogue.

    ``code`` is the catalogue code (``"C7"``, ``"V14"``), ``title`` a short name, ``text``
    a plain explanation in two to four sentences, and ``options`` the names of the
    :class:`~scatlab.rules.options.RuleSet` fields that switch or tune the rule (empty for a
    core rule that always applies as written).
    """

    code: str
    title: str
    text: str
    options: tuple[str, ...] = ()

    def describe(self) -> str:
        """``"C7 Showdown: <text>"``, with a second line naming the options, if any.

        >>> rule_entry("C2").describe()
        'C2 Players: Two to nine people can play. The source texts allow more, but the engine stops at nine and
        says so when asked for more.'
        """
        line = f"{self.code} {self.title}: {self.text}"
        if self.options:
            line += "\n    options: " + ", ".join(self.options)
        return line


_ENTRIES: tuple[RuleEntry, ...] = (
    # -- core rules (preset classic) ----------------------------------------------------
    RuleEntry(
        "C1",
        "Deck and card values",
        "The game uses an ordinary pack of 52 cards. An Ace is worth 11, a King, Queen or Jack 10, "
        "and every number card the number printed on it.",
        ("deck_size",),
    ),
    RuleEntry(
        "C2",
        "Players",
        "Two to nine people can play. The source texts allow more, but the engine stops at nine "
        "and says so when asked for more.",
    ),
    RuleEntry(
        "C3",
        "The deal",
        "Any player may deal first; after each hand the deal moves one seat to the left. The dealer "
        "gives out cards singly, beginning with the player on their left, until everyone holds three. "
        "The next card is laid face up as the first discard and the undealt cards form the stock.",
    ),
    RuleEntry(
        "C4",
        "Hand value",
        "A hand is worth the largest total you can make from cards of one suit. With three different "
        "suits that is simply your best single card. The top score is 31: an Ace with two ten-point "
        "cards of the same suit.",
    ),
    RuleEntry(
        "C5",
        "A turn",
        "Play starts left of the dealer and goes round clockwise. On your turn you either draw the "
        "hidden top card of the stock or pick up the face-up top discard, then throw one card face up. "
        "A card picked up from the discard pile cannot be thrown straight back in the same turn; a "
        "card drawn from the stock can.",
    ),
    RuleEntry(
        "C6",
        "Knocking",
        "At the start of your turn you may knock instead of drawing. Your hand is then frozen and "
        "each other player has exactly one more turn. When the player on the knocker's right has "
        "discarded, everybody shows their cards.",
    ),
    RuleEntry(
        "C7",
        "Showdown",
        "When the hands are shown, the lowest hand loses a life. A knocker who ties for lowest is "
        "safe and the others in the tie pay; a knocker who is lowest alone pays two lives. When "
        "several players who did not knock tie for lowest, each of them loses one.",
        ("knocker_tie", "knocker_lowest_loses"),
    ),
    RuleEntry(
        "C8",
        "Declaring 31",
        "Whoever makes 31 after drawing and discarding shows it straight away and the hand stops; "
        "every other player loses a life. This applies even after a knock, in which case the knocker "
        "loses a life along with everyone else.",
        ("thirty_one_after_knock",),
    ),
    RuleEntry(
        "C9",
        "Dealt 31",
        "A player whose first three cards already make 31 announces it before anyone plays, and all "
        "the others lose a life. If several players are dealt 31, everybody else loses a life.",
    ),
    RuleEntry(
        "C10",
        "Undeclared 31",
        "A 31 has to be announced the moment it is made. If it is not, it cannot be claimed later and "
        "only counts as 30. Software normally announces it for you; a teaching setting lets a "
        "learner forget.",
        ("declare",),
    ),
    RuleEntry(
        "C11",
        "Empty stock",
        "Once the stock is used up, play goes on only as long as each player chooses to pick up the "
        "previous player's discard. As soon as the player to move declines, the hand ends and is "
        "scored as a showdown; if nobody knocked, the lowest hand (every hand tied for lowest) loses "
        "a life.",
    ),
    RuleEntry(
        "C12",
        "Taking back your own discard",
        "When only two players are left and the opponent has knocked, the card on top of the discard "
        "pile may be the one you threw yourself. You may take it back. This is the only time a player "
        "takes their own discard.",
        ("take_back",),
    ),
    RuleEntry(
        "C13",
        "Lives and the county",
        "Everyone begins with three lives, kept as pennies. A player who has lost them all is 'on the "
        "county' and keeps playing, but the next life lost puts them out; so does losing two lives "
        "while holding only one. The last player still in wins.",
        ("lives", "county"),
    ),
    RuleEntry(
        "C14",
        "Draw game",
        "If every player still in is on the county, the stock runs out without a knock and the hands "
        "are equal, nobody loses: the hand is dealt and played again.",
        ("county",),
    ),
    # -- variants ------------------------------------------------------------------------
    RuleEntry(
        "V1",
        "Three of a kind is 30",
        "Three cards of the same rank count 30, the same as three ten-point cards of one suit.",
        ("three_of_a_kind",),
    ),
    RuleEntry(
        "V2",
        "Three of a kind is 30.5",
        "Three cards of the same rank count 30 and a half, which beats every hand except 31. The "
        "half is kept exactly as a fraction.",
        ("three_of_a_kind",),
    ),
    RuleEntry(
        "V3",
        "Straight flush",
        "Three cards in sequence in one suit count 30. The one exception is Ace-King-Queen of a suit, which counts 31.",
        ("straight_flush",),
    ),
    RuleEntry(
        "V4",
        "Minimum score to knock",
        "You may only knock when your hand reaches an agreed value, for example 17, 19 or 21.",
        ("min_knock",),
    ),
    RuleEntry(
        "V5",
        "Knock only with a flush",
        "You may only knock when all three of your cards are of one suit.",
        ("knock_needs_flush",),
    ),
    RuleEntry(
        "V6",
        "No knock in the first round",
        "Nobody may knock until every player has had one turn, as popular online versions of the game "
        "play it (the quick preset).",
        ("no_knock_first_round",),
    ),
    RuleEntry(
        "V7",
        "Who pays when the knocker ties",
        "Changes what happens when the knocker ties for lowest: (a) as in C7, the knocker is safe; "
        "(b) the knocker loses two lives and the others in the tie one each; (c) only the knocker "
        "loses a life; (d) Cadillac: the knocker loses two and the others nothing.",
        ("knocker_tie",),
    ),
    RuleEntry(
        "V8",
        "Lowest knocker loses one",
        "A knocker whose hand is lowest on its own loses just one life instead of two.",
        ("knocker_lowest_loses",),
    ),
    RuleEntry(
        "V9",
        "31 after a knock",
        "If someone makes 31 after a knock, the player with 31 is safe, the knocker loses two lives "
        "and everyone else one. Several players may lose their last life at once; they then play an "
        "extra hand to decide between them.",
        ("thirty_one_after_knock",),
    ),
    RuleEntry(
        "V10",
        "Hammer",
        "The first player after the dealer may, instead of drawing, call for the cards to be shown at "
        "once. It is scored just like a knock. Also called knocking under the gun.",
        ("hammer",),
    ),
    RuleEntry(
        "V11",
        "Throw-down",
        "Before looking at their cards, the first player may call a throw-down: everyone shows their "
        "hand straight away and it is scored like a knock. Also called a shotgun.",
        ("throw_down",),
    ),
    RuleEntry(
        "V12",
        "Three lives, no county",
        "Each player has three lives and is out as soon as they have none left; there is no playing on "
        "'on the county'. This is how popular online versions play (the quick preset).",
        ("county",),
    ),
    RuleEntry(
        "V13",
        "Cadillac",
        "Players start with four nickels instead of three pennies, and a 31 is called a Cadillac. "
        "Three Aces make a Grand Cadillac worth 33, announced like a 31; any other three of a kind "
        "counts 30, as in V1. A knocker who ties for lowest pays as in V7(d).",
        ("grand_cadillac", "three_of_a_kind", "knocker_tie", "lives"),
    ),
    RuleEntry(
        "V14",
        "GIN",
        "Knocking is a claim to hold the best hand. After the last turns, if the knocker is highest or "
        "shares the highest hand, every other player takes a letter; if not, the knocker takes one. A "
        "31 gives a letter to everyone else, three letters (G, I, N) put a player out, and three of a "
        "kind counts 30.5, as in V2.",
        ("score_keeping", "three_of_a_kind", "county"),
    ),
    RuleEntry(
        "V15",
        "Ride the Bus",
        "Instead of pennies each player moves along the bus: from the back, through the middle and the "
        "front, down the stairs and finally off the bus, which means out. Each lost life is one step "
        "forward, and players may agree on more steps.",
        ("score_keeping", "bus_steps", "lives", "county"),
    ),
    RuleEntry(
        "V16",
        "French-Canadian scoring",
        "Players collect points instead of losing lives. After a knock the highest hand wins a point; "
        "if the knocker ties for highest, the non-knockers in the tie each win it. A declared 31 wins a "
        "point at once, and the first player to 31 points wins the game.",
        ("score_keeping", "points_target"),
    ),
    RuleEntry(
        "V17",
        "Jacobs' tie-break",
        "An addition to V16: a player may only knock with three cards of one suit, and equal hands "
        "are split by their card ranks as in poker. So A-10-9 beats K-Q-J, K-10-9 beats Q-J-9 and "
        "K-J-7 beats K-9-8.",
        ("knock_needs_flush", "rank_tiebreak"),
    ),
    RuleEntry(
        "V18",
        "Eenendertigen",
        "The Dutch game uses a short pack of 32 cards: only the sevens and higher of each suit.",
        ("deck_size",),
    ),
    RuleEntry(
        "V19",
        "Bus stop",
        "After drawing and before discarding, a player may stop the bus, which ends the hand as a "
        "knock would. Nobody may stop the bus on their first turn. This comes from Solitaire.com's "
        "Ride the Bus.",
        ("bus_stop",),
    ),
)

RULEBOOK: Mapping[str, RuleEntry] = MappingProxyType({entry.code: entry for entry in _ENTRIES})
"""Every rule code of RULES.md (C1-C14, then V1-V19, in catalogue order) and its entry."""

_PARTS: dict[str, str] = {"V7": "abcd"}
"""Codes with lettered parts, cited as ``V7(d)`` or ``V7d``; the part names the entry."""

# Matched against the code once normalised (checks.notation: NFKC, then case folding).
_CODE_RE = re.compile(r"^\s*([cv])\s*(\d{1,3})\s*(?:\(\s*([a-z])\s*\)|([a-z]))?\s*$", re.ASCII)
_CITED_RE = re.compile(r"(?<![A-Za-z0-9_])([CV])(\d{1,2})(?:\(([a-d])\)|([a-d]))?(?![A-Za-z0-9_]|[.,]\d)")


def rule_entry(code: str) -> RuleEntry:
    """The entry of a rule code: case and spaces do not matter, and a lettered part of V7
    (``"V7(d)"``, ``"V7d"``) gives the V7 entry.

    >>> rule_entry(" v14 ").title
    'GIN'
    >>> rule_entry("V7(e)")
    Traceback (most recent call last):
    ...
    scatlab.errors.RulesError: unknown rule code 'V7(e)': accepted codes are C1-C14 and V1-V19 (lettered parts:
    V7(a) to V7(d), also written V7a)
    """
    if not isinstance(code, str):
        raise RulesError(_unknown(code))
    match = _CODE_RE.match(notation(code).strip())
    if match is None:
        raise RulesError(_unknown(code))
    key = f"{match.group(1).upper()}{int(match.group(2))}"
    part = match.group(3) or match.group(4) or ""
    if key not in RULEBOOK or match.group(2).startswith("0") or (part and part not in _PARTS.get(key, "")):
        raise RulesError(_unknown(code))
    return RULEBOOK[key]


def _unknown(code: object) -> str:
    return (
        f"unknown rule code {shown(code)}: accepted codes are C1-C14 and V1-V19 "
        "(lettered parts: V7(a) to V7(d), also written V7a)"
    )


def cited_codes(text: str) -> tuple[str, ...]:
    """The rule codes cited in ``text`` (an engine message, a docstring, a lesson), in the
    order they first appear, each once. Only upper-case codes of the catalogue count; a
    lettered part names its code (``V7b`` -> ``V7``); a number outside the catalogue, a
    lower-case ``c7``, a card such as ``10C`` or SVG path data (``C1,0.5``) is not a
    citation.

    >>> cited_codes("V14: the knocker was beaten; see also C7 and V14, not c7 or 10C")
    ('V14', 'C7')
    """
    if not isinstance(text, str):
        raise RulesError(f"cannot look for rule codes in {shown(text)}: give a text")
    found: list[str] = []
    for match in _CITED_RE.finditer(text):
        if match.group(2).startswith("0"):
            continue
        key = f"{match.group(1)}{match.group(2)}"
        part = match.group(3) or match.group(4)
        if key not in RULEBOOK or (part and part not in _PARTS.get(key, "")):
            continue
        if key not in found:
            found.append(key)
    return tuple(found)
