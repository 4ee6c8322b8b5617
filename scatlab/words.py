"""The learner's words: every pure text function and phrase table the package speaks to a
learner with (plain values in, a ``str`` out, no game logic), in one module.

Why here, at layer 0 beside :mod:`scatlab.cards` and :mod:`scatlab.errors`: the words are
needed by every layer that talks to a learner, from the rules (a seat's name,
:func:`player_label`) and the decision engine (a chance of winning, :func:`win_level`; the
engine sits below the explanations, so the words cannot live in
``scatlab.analysis.explain``) up to the players' reasons, the session and the widgets. The
words need only the cards (their symbols), the errors and exact fractions, so the one layer
all of them can import is the lowest. What a move or a ranking is stays with the engine:
its functions that read a :class:`~scatlab.analysis.RankedMove` say it with these words.

**Seats and cards, as the table says them to the learner.** The engine, the analysis and the computer players speak
of seats by number, counted from 0,
and of cards in their canonical letters (``C5: player 0 has drawn and must now discard
(discard 6H, …)``): that is their tested contract, for any seat. The table speaks to one
learner, so every engine text it shows goes through :func:`learner_words` first: the
learner's seat becomes "you" (with the verb that follows agreeing: "you have drawn", "your
turn"), every other seat the name the table shows it under, numbered from 1
(``player 2 (tip)`` for seat 1: :func:`player_label`), and every card code its
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

**Chances and figures.** A chance at the table (:func:`chance_words`, :func:`counted_chance`),
the chance of winning the game and its changes (:func:`win_level`, :func:`win_change`: the
one format of the hints, the advice, the review and the lessons), a chance or a cost in
points of percentage (:func:`percent`, :func:`points`), hand values and lives as the reasons
and reports write them (:func:`value_words`, :func:`rounded_value`, :func:`worth`,
:func:`lives_words`, :func:`exact_value`, :func:`exact_chance`, :func:`estimate_words`),
ordinals and suits (:func:`ordinal`, :func:`suits_text`).

**Moves.** The phrase tables the reasons, the advice, the review and the players' searches
say a move with, keyed by the action kind's name (``"draw"``, ``"stop_bus"``: the value of
:class:`scatlab.rules.ActionKind`, so this module needs no rules).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from fractions import Fraction

from .cards import Suit, parse_card
from .errors import AnalysisError, RulesError

__all__ = [
    "YOU",
    "player_label",
    "whose",
    "their",
    "capital",
    "learner_words",
    "card_words",
    "suits_text",
    "chance_words",
    "counted_chance",
    "win_level",
    "win_change",
    "percent",
    "points",
    "about",
    "value_words",
    "rounded_value",
    "worth",
    "lives_words",
    "exact_value",
    "exact_chance",
    "estimate_words",
    "exact_figure",
    "ordinal",
    "RULE_OF",
    "DO",
    "DOES",
    "DOING",
    "DID",
    "with_rule",
    "LOOK_DEEPER",
]

YOU = "you"
"""How the table names the learner's seat in running text."""


def player_label(seat: int) -> str:
    """How a person reads seat ``seat``: players are numbered from 1, as the card table
    shows them (``player 1`` is seat 0). The engine's own texts, records and errors count
    seats from 0 (their tested contract); whatever a learner reads names a seat this way, or
    as "you" (:func:`learner_words`).

    >>> player_label(0), player_label(2)
    ('player 1', 'player 3')
    """
    if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
        raise RulesError(f"{seat!r} is not a seat: the engine numbers seats 0, 1, 2, ...")
    return f"player {seat + 1}"


def whose(who: str) -> str:
    """The possessive of a seat's name in running text: ``"your"``, ``"player 2's"``."""
    return "your" if who == YOU else f"{who}'s"


def their(who: str) -> str:
    """The possessive pronoun of a seat's name: ``"your"``, else ``"their"``."""
    return "your" if who == YOU else "their"


def capital(text: str) -> str:
    """``text`` with its first letter a capital (a sentence that starts with a name)."""
    return text[:1].upper() + text[1:]


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
    "has": "have",
    "is": "are",
    "was": "were",
    "does": "do",
    "holds": "hold",
    "decides": "decide",
    "draws": "draw",
    "takes": "take",
    "discards": "discard",
    "knocks": "knock",
    "passes": "pass",
    "throws": "throw",
    "stops": "stop",
    "declares": "declare",
    "hammers": "hammer",
    "loses": "lose",
    "scores": "score",
    "gets": "get",
    "moves": "move",
    "wins": "win",
    "plays": "play",
    "calls": "call",
    "collects": "collect",
    "keeps": "keep",
    "picks": "pick",
    "goes": "go",
    "needs": "need",
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
    if (
        isinstance(count, bool)
        or isinstance(total, bool)
        or not isinstance(count, int)
        or not isinstance(total, int)
        or not 0 <= count <= total
        or total < 1
    ):
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


def win_change(p: Fraction | float) -> str:
    """A change in the chance of winning the game as a learner reads it: signed points of
    percentage, ``"+3.1%"`` (the one format of the hints, the advice, the review and the lessons).

    >>> win_change(Fraction(31, 1000)), win_change(-0.0049)
    ('+3.1%', '-0.5%')
    """
    return f"{float(p) * 100:+.1f}%"


def win_level(p: Fraction | float) -> str:
    """A chance of winning the game as a learner reads it: a level in percent with one
    decimal, ``"34.2%"`` (the one format of the hints, the advice, the review and the lessons;
    a change is :func:`win_change`).

    >>> win_level(Fraction(342, 1000)), win_level(0.05)
    ('34.2%', '5.0%')
    """
    return f"{float(p) * 100:.1f}%"


def percent(p: Fraction | float) -> str:
    """An estimated chance in percent with one decimal, as the advice writes it (a chance of
    losing, beside :func:`win_level`'s chance of winning).

    >>> percent(Fraction(1, 8))
    '12.5%'
    """
    return f"{float(p) * 100:.1f}%"


def points(p: float) -> str:
    """The size of a difference of chances, in points of percentage, unsigned: ``"3.1%"``
    (a search's margin and its error).

    >>> points(-0.031)
    '3.1%'
    """
    return f"{abs(p) * 100:.1f}%"


def about(p: Fraction) -> str:
    """A chance as the voice guide writes one that is not counted: ``"about 12%"``, below 1%
    one decimal (``"about 0.3%"``), ``"never"`` for none.

    >>> about(Fraction(12, 100)), about(Fraction(3, 1000)), about(Fraction(0))
    ('about 12%', 'about 0.3%', 'never')
    """
    pct = float(p) * 100
    if pct == 0:
        return "never"
    return f"about {pct:.1f}%" if pct < 1 else f"about {pct:.0f}%"


def value_words(v: Fraction) -> str:
    """A value for reading: ``21``, a half as ``30.5`` (never ``30.50`` or ``61/2``), else two
    decimals (a value five turns ahead: ``27.02``).

    >>> value_words(Fraction(21)), value_words(Fraction(61, 2)), value_words(Fraction(541, 24))
    ('21', '30.5', '22.54')
    """
    if v.denominator == 1:
        return str(v)
    return f"{float(v):.1f}" if v.denominator == 2 else f"{float(v):.2f}"


def rounded_value(v: Fraction) -> str:
    """A hand value as the rule of thumb says it: whole, or one decimal (``"15.2"``, an average).

    >>> rounded_value(Fraction(21)), rounded_value(Fraction(541, 24))
    ('21', '22.5')
    """
    return str(v.numerator) if v.denominator == 1 else f"{float(v):.1f}"


def worth(x: Fraction) -> str:
    """A hand value as a learner reads it: ``"worth 21"``, ``"worth 30.5"``, and an average
    rounded to one decimal: ``"worth on average 24.4"``.

    >>> worth(Fraction(21)), worth(Fraction(61, 2)), worth(Fraction(1082, 48))
    ('worth 21', 'worth 30.5', 'worth on average 22.5')
    """
    if x.denominator == 1:
        return f"worth {x.numerator}"
    if x.denominator == 2:
        return f"worth {float(x):.1f}"
    return f"worth on average {float(x):.1f}"


def lives_words(x: Fraction) -> str:
    """Lives expected, for reading: ``"0"`` or three decimals (``"0.125"``)."""
    return "0" if x == 0 else f"{float(x):.3f}"


def exact_value(v: Fraction) -> str:
    """A hand value or an exact average: whole, a half as a decimal (``30.5``, never
    ``61/2``), anything else as its fraction with a decimal beside (``541/24 ≈ 22.54``).

    >>> exact_value(Fraction(61, 2)), exact_value(Fraction(541, 24))
    ('30.5', '541/24 ≈ 22.54')
    """
    if v.denominator == 1:
        return str(v.numerator)
    if v.denominator == 2:
        return f"{float(v):.1f}"
    return f"{v} ≈ {float(v):.2f}"


def exact_chance(p: Fraction) -> str:
    """An exact chance as its fraction with the percentage beside: ``1/16 (6.2%)``."""
    return f"{p} ({float(p) * 100:.1f}%)"


def exact_figure(x: Fraction) -> str:
    """An exact figure: ``about 24.43 (exactly 110413352741/4519603984)``, or ``30``."""
    return str(x) if x.denominator == 1 else f"about {float(x):.2f} (exactly {x})"


def estimate_words(p: Fraction | float, std_error: float | None) -> str:
    """A Monte Carlo estimate as a decimal with its standard error (three decimals, four
    when the error is below 0.001).

    >>> estimate_words(Fraction(2140, 10000), 0.0041)
    '0.214 ± 0.004'
    >>> estimate_words(Fraction(21, 2500), 0.00091)
    '0.0084 ± 0.0009'
    """
    se = std_error or 0.0
    places = 3 if se >= 0.001 else 4
    return f"{float(p):.{places}f} ± {se:.{places}f}"


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``… ``11th``, ``21st``.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 102, 103)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '102nd', '103rd']
    """
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


_SUIT_ORDER = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)


def suits_text(suits: Iterable[Suit]) -> str:
    """Suit letters in the players' canonical order, joined with "and": ``D and H``
    (:func:`card_words` shows them as symbols to the learner).

    >>> suits_text([Suit.HEARTS, Suit.DIAMONDS])
    'D and H'
    """
    letters = [s.letter for s in _SUIT_ORDER if s in set(suits)]
    return " and ".join(letters)


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
        return "your" if re.match(r" \w", m.string[m.end() :]) else "yours"  # "your turn", "not yours"

    out = _ANY_SEATS.sub(renamed, text)
    out = _YOU_VERB.sub(lambda m: f"you {m.group(1)}{_SECOND_PERSON.get(m.group(2), m.group(2))}", out)
    for pattern, replacement in _AFTER_YOU:
        out = pattern.sub(replacement, out)
    out = _NESTED.sub(r"(\1, \2)", out)  # "the knocker (player 2 (tip))" reads "(player 2, tip)"
    return card_words(out)


# -- moves ------------------------------------------------------------------------------------
# Keyed by the action kind's name (scatlab.rules.ActionKind's value). A move that points the
# learner to its rule adds RULE_OF's code in brackets: "call a hammer (V10)".

RULE_OF = {"hammer": "V10", "stop_bus": "V19"}
"""The rule a learner is pointed to where the advice, the review or a deeper look names the move."""

DO = {
    "draw": "draw",
    "pass": "pass",
    "declare": "declare",
    "knock": "knock",
    "hammer": "call a hammer",
    "stop_bus": "stop the bus",
}
"""A move as the advice says it after "if you" or "to": ``"draw"``, ``"call a hammer"``."""

DOES = {
    "draw": "draws",
    "knock": "knocks",
    "hammer": "calls a hammer",
    "stop_bus": "stops the bus",
    "pass": "passes",
    "declare": "declares",
    "take": "takes the {}",
    "discard": "throws the {}",
}
"""A move as a computer player's reason says it: ``"draws"``, ``"takes the {}"`` (a card to fill in)."""

DOING = {
    "draw": "drawing",
    "knock": "knocking",
    "hammer": "calling a hammer",
    "stop_bus": "stopping the bus",
    "pass": "passing",
    "declare": "declaring",
    "take": "taking the {}",
    "discard": "throwing the {}",
}
"""A move as the subject of a sentence: ``"drawing is ..."``, ``"taking the {}"``."""

DID = {
    "draw": "drew from the stock",
    "knock": "knocked",
    "hammer": "hammered",
    "stop_bus": "stopped the bus",
    "declare": "declared the 31",
}
"""A move played, as the review tells it: ``"drew from the stock"``."""


def with_rule(kind: str, phrase: str) -> str:
    """``phrase``, the words of a move of kind ``kind``, with the rule it points to.

    >>> with_rule("hammer", DO["hammer"]), with_rule("draw", DO["draw"])
    ('call a hammer (V10)', 'draw')
    """
    code = RULE_OF.get(kind)
    return phrase if code is None else f"{phrase} ({code})"


LOOK_DEEPER = (
    "Look deeper asks the master, the strongest computer player, for a second opinion: it plays the "
    "best moves out to the end of the hand in many deals that fit what you can see, and says which "
    "wins the game most often (about a second)."
)
"""What **Look deeper** does, beside the button (the table's hints and the hand analyzer)."""
