"""The engine's words, as the table says them to the learner.

The engine, the analysis and the computer players speak of seats by number, counted from 0,
and of cards in their canonical letters (``C5: player 0 has drawn and must now discard
(discard 6H, …)``): that is their tested contract, for any seat. The table speaks to one
learner, so every engine text it shows goes through :func:`learner_words` first: the
learner's seat becomes "you" (with the verb that follows agreeing: "you have drawn", "your
turn"), every other seat the name the table shows it under, numbered from 1
(``player 2 (tip)`` for seat 1: :func:`scatlab.rules.player_label`), and every card code its
symbol form as the table draws cards (``6♥``, :attr:`scatlab.cards.Card.pretty`). A rule
code at the front stays at the front, and nothing else in the text changes. A learner never
reads "player 0".

>>> names = {0: "you", 1: "player 2 (tip)"}
>>> learner_words("C5: player 0 has drawn and must now discard (discard 6H, discard KD)", 0, names)
'C5: you have drawn and must now discard (discard 6♥, discard K♦)'
>>> learner_words("it is player 1's turn, not player 0's", 0, names)
"it is player 2 (tip)'s turn, not yours"
>>> learner_words("lowest hand 14: players 0, 1 all tied lowest lose a life", 0, names)
'lowest hand 14: you and player 2 (tip) all tied lowest lose a life'
>>> learner_words("lowest hand 14: players 1, 2 all tied lowest lose a life", 0, {})
'lowest hand 14: player 2 and player 3 all tied lowest lose a life'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction

from ..cards import parse_card
from ..errors import AnalysisError
from ..rules.view import player_label

__all__ = ["learner_words", "card_words", "chance_words", "counted_chance", "YOU"]

YOU = "you"
"""How the table names the learner's seat in running text."""

_CARD = re.compile(r"(?<![\w♣♦♥♠])(10|[2-9AKQJ])([HDCS])(?![\w♣♦♥♠])")
"""A card code in letters (``10H``, ``QS``), standing alone."""
_SUIT = re.compile(r"\b(a|outside|collects?) ([HDCS](?: and [HDCS])*)(?![\w'])")
"""A lone suit letter in the players' reasons ("outside H", "player 2 collects D"), or
several ("collects D and H")."""
_SEATS = re.compile(r"\bplayers (?P<seats>\d+(?:, \d+)+)\b(?! \()")
"""Several seats at once: ``players 0, 2``."""
_SEAT = re.compile(r"\bplayer (?P<seat>\d+)\b(?P<own>'s)?(?! \()(?!, [A-Za-z][^(),]*\))(?!\w)")
"""One seat: ``player 1`` or ``player 1's`` (not one already named: ``player 1 (tip)``, or
``(player 1, tip)`` in brackets)."""
_ANY_SEATS = re.compile(f"{_SEATS.pattern}|{_SEAT.pattern}")
"""Either, in one pass: a seat is renumbered once."""
_YOU_VERB = re.compile(r"\byou ((?:first |already |still )?)([a-z]+)\b")
"""The verb after "you" (maybe after an adverb), to agree with it."""
_SECOND_PERSON = {
    "has": "have", "is": "are", "was": "were", "does": "do", "holds": "hold", "decides": "decide",
    "draws": "draw", "takes": "take", "discards": "discard", "knocks": "knock", "passes": "pass",
    "throws": "throw", "stops": "stop", "declares": "declare", "hammers": "hammer", "loses": "lose",
    "scores": "score", "gets": "get", "moves": "move", "wins": "win", "plays": "play", "calls": "call",
    "collects": "collect", "keeps": "keep", "picks": "pick", "goes": "go", "needs": "need",
}
_AFTER_YOU = (
    # a second verb of the same sentence, and a pronoun that meant the player
    (re.compile(r"\b(you have no lives left and )plays on\b"), r"\1play on"),
    (re.compile(r"\b(you lost more lives than )they had\b"), r"\1you had"),
)


def _seat_name(seat: int, learner: int, names: Mapping[int, str]) -> str:
    if seat == learner:
        return YOU
    return names.get(seat, player_label(seat))


def chance_words(p: Fraction) -> str:
    """A probability as a learner reads it at the table: a whole percentage, and below one
    in five also "1 in n" (exact when it is one, "about" when rounded); the exact fraction
    is the table's to show on request.

    >>> [chance_words(Fraction(x)) for x in ("0", "1", "1/16", "1/80", "1/5", "43/100")]
    ['0% (never)', '100% (certain)', '6% (1 in 16)', '1% (1 in 80)', '20%', '43%']
    >>> chance_words(Fraction(9, 1000)), chance_words(Fraction(999, 1000)), chance_words(Fraction(3, 47))
    ('under 1% (about 1 in 111)', 'over 99%', '6% (about 1 in 16)')
    """
    if isinstance(p, bool) or not isinstance(p, (Fraction, int)) or not 0 <= p <= 1:
        raise AnalysisError(f"{p!r} is not a probability: give an exact fraction from 0 to 1")
    p = Fraction(p)
    if p == 0:
        return "0% (never)"
    if p == 1:
        return "100% (certain)"
    pct = p * 100
    shown = "under 1%" if pct < 1 else "over 99%" if pct > 99 else f"{int(pct + Fraction(1, 2))}%"
    if p >= Fraction(1, 5):
        return shown
    if p.numerator == 1:
        return f"{shown} (1 in {p.denominator:,})"
    return f"{shown} (about 1 in {int(1 / p + Fraction(1, 2)):,})"


def counted_chance(count: int, total: int) -> str:
    """A chance counted card by card, as the course writes it (docs/design/voice.md): the
    count first, then the whole percentage ("about" unless it is exact).

    >>> counted_chance(3, 48), counted_chance(12, 48), counted_chance(0, 48), counted_chance(1, 200)
    ('3 in 48 (about 6%)', '12 in 48 (25%)', '0 in 48 (never)', '1 in 200 (under 1%)')
    """
    if (isinstance(count, bool) or isinstance(total, bool) or not isinstance(count, int)
            or not isinstance(total, int) or not 0 <= count <= total or total < 1):
        raise AnalysisError(f"{count!r} in {total!r} is not a count of cards: give 0 <= count <= total, total >= 1")
    p = Fraction(count, total)
    if count == 0:
        return f"0 in {total} (never)"
    if count == total:
        return f"{count} in {total} (certain)"
    pct = p * 100
    if pct < 1:
        return f"{count} in {total} (under 1%)"
    whole = int(pct + Fraction(1, 2))
    return f"{count} in {total} ({'' if pct == whole else 'about '}{whole}%)"


def card_words(text: str) -> str:
    """``text`` with every card code in symbols and the players' lone suit letters as suit
    symbols (what a learner reads: no ``AC``).

    >>> card_words("discard AC, keeping 10H QH")
    'discard A♣, keeping 10♥ Q♥'
    """
    text = _CARD.sub(lambda m: parse_card(m.group(0)).pretty, text)
    def suits(m: re.Match[str]) -> str:
        shown = " and ".join(parse_card("A" + letter).suit.symbol for letter in m.group(2).split(" and "))
        return f"{m.group(1)} {shown}"

    return _SUIT.sub(suits, text)


_NESTED = re.compile(r"\(([^()]+) \(([^()]+)\)\)")


def learner_words(text: str, seat: int, names: Mapping[int, str]) -> str:
    """``text`` (an engine message, a showdown note, a log line, a computer player's reason)
    as the table shows it to the learner at ``seat``: the engine's seat ``seat`` is "you",
    any other seat ``s`` is ``names[s]`` (as the table shows it), or ``player s+1`` when it
    is not named (:func:`scatlab.rules.player_label`: the engine counts seats from 0, the
    table from 1), card codes in symbols. Give it the engine's text once: a seat named with
    who sits there (``player 2 (tip)``) is left alone if it is applied again.

    >>> learner_words("player 0 draws 10C", 0, {1: "player 2 (tip)"})
    'you draw 10♣'
    >>> learner_words("player 1 draws 10C", 0, {})
    'player 2 draws 10♣'
    >>> learner_words("C12: the top discard (9S) is player 0's own; it may be taken back", 0, {})
    'C12: the top discard (9♠) is your own; it may be taken back'
    >>> learner_words("V11: player 1 first decides whether to throw down", 1, {0: "player 1 (expert)"})
    'V11: you first decide whether to throw down'
    >>> learner_words("throws the 4C, the lowest card outside H (not the 2S: player 0 collects S)", 0, {})
    'throws the 4♣, the lowest card outside ♥ (not the 2♠: you collect ♠)'
    >>> learner_words("takes the QH: it probably collects H; player 1 collects D and S", 0, {})
    'takes the Q♥: it probably collects ♥; player 2 collects ♦ and ♠'
    >>> learner_words("player 1 has no lives left and plays on, on the county", 1, {})
    'you have no lives left and play on, on the county'
    >>> learner_words("C7: the knocker (player 1) is lowest on their own", 0, {1: "player 2 (tip)"})
    'C7: the knocker (player 2, tip) is lowest on their own'
    >>> learner_words(_, 0, {1: "player 2 (tip)"})
    'C7: the knocker (player 2, tip) is lowest on their own'
    """

    def renamed(m: re.Match[str]) -> str:
        if m.group("seats") is not None:
            shown = [_seat_name(int(s), seat, names) for s in m.group("seats").split(", ")]
            return ", ".join(shown[:-1]) + " and " + shown[-1]
        who = int(m.group("seat"))
        if m.group("own") is None:
            return _seat_name(who, seat, names)
        if who != seat:
            return _seat_name(who, seat, names) + "'s"
        return "your" if re.match(r" \w", m.string[m.end():]) else "yours"  # "your turn", "not yours"

    out = _ANY_SEATS.sub(renamed, text)
    out = _YOU_VERB.sub(lambda m: f"you {m.group(1)}{_SECOND_PERSON.get(m.group(2), m.group(2))}", out)
    for pattern, replacement in _AFTER_YOU:
        out = pattern.sub(replacement, out)
    out = _NESTED.sub(r"(\1, \2)", out)  # "the knocker (player 2 (tip))" reads "(player 2, tip)"
    return card_words(out)
