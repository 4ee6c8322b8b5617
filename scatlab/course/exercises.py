"""The course's exercises as plain Python: seeded question generators and engine checkers.

An exercise makes a :class:`Question` from a seed (the same seed, the same question) and
checks an answer with the engine and the analysis, never with a stored answer key; the
:class:`Verdict` says whether the answer is right and *why*, citing the rule codes. The
ipywidgets wrapper (:mod:`scatlab.course.widgets.exercises`) only shows questions and forwards
answers; everything here is tested without a browser.

>>> ex = EXERCISES["hand-value"]
>>> q = ex.question(seed=3)
>>> q.seed, q.exercise, q.kind
(3, 'hand-value', 'number')
>>> ex.check(q, q.solution).correct
True
>>> v = ex.check(q, "99")
>>> v.correct, v.message.startswith("Not quite")
(False, True)

Every exercise's questions come from :class:`random.Random` seeded with
``f"{exercise}:{seed}"``; a numeric answer is read exactly (``"30.5"``, ``"61/2"``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from ..cards import Card, Suit, deck, format_cards
from ..errors import ExerciseError
from ..rules.options import find_rules
from ..rules.scoring import settle
from ..rules.values import hand_value, tiebreak_key

if TYPE_CHECKING:
    from ..analysis import TurnAnalysis

__all__ = [
    "ExerciseError",
    "Question",
    "Verdict",
    "Exercise",
    "EXERCISES",
    "exercises_of",
    "read_number",
    "show_value",
    "tenths",
    "knock_worth_question",
]


@dataclass(frozen=True)
class Question:
    """One generated question.

    ``shown`` holds labelled card groups to draw (``("Your hand", "AH KH 4C")``);
    ``choices`` the buttons (empty for a number to type); ``solution`` the right answer in
    its canonical form; ``accepted`` every answer counted right (for ties); ``why`` the
    reasoning shown after an answer; ``codes`` the rules it practises.
    """

    exercise: str
    seed: int
    prompt: str
    shown: tuple[tuple[str, str], ...]
    choices: tuple[str, ...]
    solution: str
    accepted: frozenset[str]
    why: str
    codes: tuple[str, ...] = ()
    position: tuple[str, ...] = ()
    """The position the question is about, in card notation (hand, then the discard; empty
    when there is none): what "Show the working" analyses again."""

    @property
    def kind(self) -> str:
        """``"choice"`` (buttons) or ``"number"`` (a number to type)."""
        return "choice" if self.choices else "number"

    def text(self) -> str:
        """The question in one line (what progress keeps)."""
        cards = "; ".join(f"{label}: {cards}" for label, cards in self.shown)
        return f"{self.prompt} [{cards}]" if cards else self.prompt


@dataclass(frozen=True)
class Verdict:
    """The answer's verdict: ``correct``, the ``answer`` as read, and the ``message`` that
    says why (it starts with "Right" or "Not quite")."""

    correct: bool
    answer: str
    message: str


def show_value(value: Fraction) -> str:
    """A value as a learner types it: ``21``, ``30.5``.

    >>> show_value(Fraction(61, 2)), show_value(Fraction(21))
    ('30.5', '21')
    """
    if value.denominator == 1:
        return str(value.numerator)
    return str(float(value)) if value.denominator in (2, 4, 5, 8, 10) else str(value)


MAX_ANSWER_CHARS = 40
"""The longest typed answer read: a hand's value, a chance or a count is never longer."""
_NUMBER = re.compile(r"[+-]?(\d{1,9}(\.\d{0,9})?|\.\d{1,9})(/[+-]?\d{1,9})?")
"""What a typed number may be once cleaned: up to nine digits either side of the point,
optionally over up to nine digits; no exponent, so reading it is never a long computation."""


def read_number(text: str) -> Fraction:
    """Read a typed number exactly: ``"21"``, ``"30.5"``, ``"30½"``, ``"61/2"``, ``"1 / 48"``,
    ``"30,5"``. Spaces are allowed only around a fraction's bar: ``"2 8"`` is not 28. The
    size is bounded (:data:`MAX_ANSWER_CHARS` characters, nine digits a part, no exponent),
    so any text gets its answer at once.

    >>> read_number(" 30,5 "), read_number("30½"), read_number("1 / 48")
    (Fraction(61, 2), Fraction(61, 2), Fraction(1, 48))
    >>> read_number("lots")
    Traceback (most recent call last):
    ...
    scatlab.errors.ExerciseError: 'lots' is not a number: type a number such as 21, 30.5 or 3/48
    >>> read_number("2 8")
    Traceback (most recent call last):
    ...
    scatlab.errors.ExerciseError: '2 8' has a space inside: type one number such as 21, 30.5 or 3/48
    >>> read_number("1e999999999")
    Traceback (most recent call last):
    ...
    scatlab.errors.ExerciseError: '1e999999999' is not a number: type a number such as 21, 30.5 or 3/48
    """
    if not isinstance(text, str):
        raise ExerciseError(f"an answer is typed text, not {type(text).__name__}")
    if len(text) > MAX_ANSWER_CHARS:
        raise ExerciseError(
            f"the answer has {len(text):,} characters: type one number such as 21, 30.5 or 3/48 "
            f"(at most {MAX_ANSWER_CHARS})"
        )
    cleaned = re.sub(r"\s*/\s*", "/", str(text).strip()).replace(",", ".")  # "1 / 48" is 1/48
    if re.search(r"\s", cleaned):
        raise ExerciseError(f"{text!r} has a space inside: type one number such as 21, 30.5 or 3/48")
    cleaned = re.sub(r"(?<=\d)½", ".5", cleaned).replace("½", "0.5")
    if cleaned.endswith("%"):
        raise ExerciseError(f"{text!r} is a percentage: type a chance as a fraction, outs / unseen cards")
    if not _NUMBER.fullmatch(cleaned):
        raise ExerciseError(f"{text!r} is not a number: type a number such as 21, 30.5 or 3/48")
    try:
        return Fraction(cleaned)
    except (ValueError, ZeroDivisionError):
        raise ExerciseError(f"{text!r} is not a number: type a number such as 21, 30.5 or 3/48") from None


@dataclass(frozen=True)
class Exercise:
    """An exercise: its id, lesson, title, a question maker and the codes it practises."""

    id: str
    lesson: str
    title: str
    make: Callable[[random.Random, int], Question] = field(repr=False)
    explain: Callable[[Question], str] | None = field(default=None, repr=False)
    """The working behind the answer as LaTeX lines (sympy renders them; imported only when
    asked), or None when the reason says it all."""

    def working(self, question: Question) -> str:
        """The worked sum behind ``question``'s answer, in the lesson's words: one line of LaTeX
        per display, a line that is only ``\\text{...}`` being plain words ("" when there is none).

        >>> print(EXERCISES["ev-sum"].working(EXERCISES["ev-sum"].question(0)))
        \\text{on average} = (3 \\times 31 + 30 + 29 + 43 \\times 28) / 48
        = 1356/48\\text{, about 28.3 (exactly 28.25)}
        """
        if not isinstance(question, Question) or question.exercise != self.id:
            raise ExerciseError(
                f"that question belongs to {getattr(question, 'exercise', question)!r}, not to {self.id!r}"
            )
        return self.explain(question) if self.explain is not None else ""

    def question(self, seed: int) -> Question:
        """The question of ``seed`` (a whole number; the same seed, the same question)."""
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ExerciseError(f"seed={seed!r} is not a seed: give a whole number 0 or more")
        return self.make(random.Random(f"{self.id}:{seed}"), seed)

    def check(self, question: Question, answer: str) -> Verdict:
        """Check ``answer`` to ``question``; a right answer and a wrong one both say why."""
        if question.exercise != self.id:
            raise ExerciseError(f"that question belongs to {question.exercise!r}, not to {self.id!r}")
        given = str(answer).strip()
        if question.kind == "number":  # kept and echoed as typed: "2/48" stays "2/48"
            value = read_number(given)
            shown = re.sub(r"\s*/\s*", "/", given)
            right = value in {read_number(a) for a in question.accepted}
            said = shown if "/" not in shown or show_value(value) == shown else f"{shown}, which is {show_value(value)}"
        else:
            lowered = {c.lower(): c for c in question.choices}
            if given.lower() not in lowered:
                raise ExerciseError(f"{answer!r} is not one of the choices: {', '.join(question.choices)}")
            shown = said = lowered[given.lower()]
            right = shown in question.accepted
        why = question.why[:1].upper() + question.why[1:]
        if right:
            return Verdict(True, shown, f"Right: {why}")
        others = sorted(a for a in question.accepted if a != question.solution) if question.kind != "number" else []
        also = f" ({' and '.join(others)} {'is' if len(others) == 1 else 'are'} right too)" if others else ""
        return Verdict(False, shown, f"Not quite: you answered {said}, the answer is {question.solution}{also}. {why}")


# -- helpers ---------------------------------------------------------------------------------


def _cards(cards: Sequence[Card]) -> str:
    return format_cards(cards, pretty=True)


def _suit_sums(hand: Sequence[Card]) -> str:
    parts = []
    for suit in Suit:
        mine = [c for c in hand if c.suit is suit]
        if mine:
            total = sum(c.value for c in mine)
            terms = " + ".join(f"{c.pretty} {c.value}" for c in mine)
            parts.append(f"{terms} = {total}" if len(mine) > 1 else f"{terms}")
    return "; ".join(parts)


def _num(v: Fraction) -> str:
    return show_value(v) if v.denominator in (1, 2) else f"about {tenths(v)}"


def _hand_with_a_pair_of_suit(rng: random.Random, cards: Sequence[Card], high: bool = False) -> list[Card]:
    """Three cards, two of one suit (often), drawn from ``cards``."""
    pool = list(cards)
    suit = rng.choice(list(Suit))
    same = [c for c in pool if c.suit is suit and (not high or c.value >= 10)]
    first = rng.sample(same, 2)
    rest = [c for c in pool if c not in first]
    return first + [rng.choice(rest)]


def _turn(hand: Sequence[Card], up: Card) -> TurnAnalysis:
    """Taking and drawing, exactly, one opponent (one turn only: cheap)."""
    from ..analysis import Knowledge, analyze_turn

    return analyze_turn(Knowledge.of(hand, discard=up, opponents=1))


# -- 1. the game: what is a hand worth -------------------------------------------------------


def _hand_value(rng: random.Random, seed: int) -> Question:
    full = deck(52)
    hand = rng.sample(full, 3) if rng.random() < 0.4 else _hand_with_a_pair_of_suit(rng, full)
    rng.shuffle(hand)
    value = hand_value(hand)
    suits = {c.suit for c in hand}
    if len(suits) == 3:
        why = (
            f"three different suits, so the hand is worth its highest card: {_suit_sums(hand)}; "
            f"the highest is {show_value(value)} (C4; an Ace is worth 11, a King, Queen or Jack 10, C1)."
        )
    else:
        why = (
            f"only cards of one suit add up: {_suit_sums(hand)}; the best suit gives "
            f"{show_value(value)} (C4; an Ace is worth 11, a King, Queen or Jack 10, C1)."
        )
    return Question(
        "hand-value",
        seed,
        "What is this hand worth?",
        (("Your hand", _cards(hand)),),
        (),
        show_value(value),
        frozenset({show_value(value)}),
        why,
        ("C1", "C4"),
    )


# -- 2. draw or take --------------------------------------------------------------------------


def _outs_position(rng: random.Random) -> tuple[list[Card], Card, tuple[Card, ...], int]:
    """A hand with two high cards of one suit, a discard, the outs to 31 and the unseen count."""
    full = deck(52)
    hand = _hand_with_a_pair_of_suit(rng, full, high=True)
    up = rng.choice([c for c in full if c not in hand])
    draw = _turn(hand, up).draw
    assert draw is not None
    return hand, up, draw.outs_31, draw.unseen


def _count_outs(rng: random.Random, seed: int) -> Question:
    hand, up, outs, unseen = _outs_position(rng)
    n = len(outs)
    listed = ", ".join(c.pretty for c in outs) if outs else "none"
    why = (
        f"31 needs an Ace and two cards worth ten of one suit (C4). Drawn from the stock, these make 31: {listed} - "
        f"{n} of the {unseen} cards you have not seen (the {up.pretty} on the pile is seen), so the chance is "
        f"{n}/{unseen} (C5: you draw, then throw one card)."
    )
    return Question(
        "count-outs",
        seed,
        "How many unseen cards would give you 31 if you drew them from the stock?",
        (("Your hand", _cards(hand)), ("Discard pile", up.pretty)),
        (),
        str(n),
        frozenset({str(n)}),
        why,
        ("C4", "C5"),
        (format_cards(hand), str(up)),
    )


def _take_or_draw(rng: random.Random, seed: int) -> Question:
    full = deck(52)
    hand = _hand_with_a_pair_of_suit(rng, full) if rng.random() < 0.7 else rng.sample(full, 3)
    rest = [c for c in full if c not in hand]
    up = rng.choice([c for c in rest if c.suit in {h.suit for h in hand}] or rest)
    a = _turn(hand, up)
    take, draw = a.take, a.draw
    assert take is not None and draw is not None
    tv, dv = take.best.value, draw.expected_value
    solution = "take" if tv >= dv else "draw"
    accepted = {"take", "draw"} if tv == dv else {solution}
    why = (
        f"taking the {up.pretty} (and throwing the {take.best.discard.pretty}) makes {_num(tv)} for sure; "
        f"drawing is worth {_num(dv)} on average over the {draw.unseen} unseen cards, each equally likely "
        f"(C5: a taken card may not be thrown back). {'Taking' if tv >= dv else 'Drawing'} is worth more."
    )
    return Question(
        "take-or-draw",
        seed,
        f"Which is worth more now: taking the {up.pretty} or drawing from the stock?",
        (("Your hand", _cards(hand)), ("Discard pile", up.pretty)),
        ("take", "draw"),
        solution,
        frozenset(accepted),
        why,
        ("C5",),
        (format_cards(hand), str(up)),
    )


# -- 4. the showdown (lesson 3's knocking exercises are below, with the working) ----------

_C7_CASES = ("one lowest", "knocker tied", "knocker lowest", "others tied")


def _lives(n: int) -> str:
    """``nothing``, ``a life``, ``two lives``: what a player loses, in words."""
    return {0: "nothing", 1: "a life", 2: "two lives"}.get(n, f"{n} lives")


def _together(words: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _showdown_names(seats: Sequence[int]) -> str:
    """Seats of a lesson 4 showdown as the table numbers them (from 1; seat 0 knocked), as
    one subject: ``the knocker (player 1) and player 3``, ``players 2 and 3``."""
    parts = ["the knocker (player 1)"] if 0 in seats else []
    rest = [str(p + 1) for p in seats if p != 0]
    if rest:
        parts.append(("player " if len(rest) == 1 else "players ") + _together(rest))
    return " and ".join(parts)


def _showdown_why(values: Sequence[Fraction], losses: dict[int, int], code: str) -> str:
    """Why a lesson 4 showdown (the knocker in seat 0) costs what it does, each player named
    as the table numbers them (from 1: the knocker is player 1) and each player's loss told
    once: the hands' values, the lowest hand and who pays, who pays nothing, and the rule.

    >>> print(_showdown_why([Fraction(16), Fraction(11), Fraction(18)], {1: 1}, "C7"))
    The hands are worth 16, 11 and 18 (players 1, 2 and 3). Player 2 is lowest on their own and loses a life; the
    knocker (player 1) and player 3 lose nothing (C7).
    >>> print(_showdown_why([Fraction(20), Fraction(25), Fraction(20)], {2: 1}, "C7"))
    The hands are worth 20, 25 and 20 (players 1, 2 and 3). Player 3 ties the knocker (player 1) for lowest at 20
    and loses a life; the knocker is safe; player 2 loses nothing (C7).
    >>> print(_showdown_why([Fraction(9), Fraction(20), Fraction(25)], {0: 2}, "C7"))
    The hands are worth 9, 20 and 25 (players 1, 2 and 3). The knocker (player 1) is lowest on their own and loses
    two lives; players 2 and 3 lose nothing (C7).
    """
    seats = list(range(len(values)))
    low = min(values)
    lowest = [p for p in seats if values[p] == low]
    worth = (
        f"The hands are worth {_together([show_value(v) for v in values])} "
        f"(players {_together([str(p + 1) for p in seats])})."
    )
    if len(lowest) == 1:
        said = f"{_showdown_names(lowest)} is lowest on their own and loses {_lives(losses.get(lowest[0], 0))}"
    else:
        payers = [p for p in lowest if p != 0 and losses.get(p, 0)]
        if 0 in lowest:
            one = len(payers) == 1
            said = (
                f"{_showdown_names(payers)} {'ties' if one else 'tie'} the knocker (player 1) for lowest at "
                f"{show_value(low)} and {'loses' if one else 'lose'} a life; the knocker is safe"
            )
        else:
            said = (
                f"{_showdown_names(lowest)} tie for lowest at {show_value(low)}: "
                f"{'both' if len(payers) == 2 else 'all'} lose a life"
            )
    free = [p for p in seats if p not in lowest]
    assert not any(losses.get(p, 0) for p in free), (values, losses)  # at a showdown only the lowest pay (C7)
    nothing = f"; {_showdown_names(free)} {'loses' if len(free) == 1 else 'lose'} nothing" if free else ""
    return f"{worth} {said[:1].upper()}{said[1:]}{nothing} ({code})."


def _showdown(rng: random.Random, seed: int) -> Question:
    from ..rules.view import player_label

    rules = find_rules("classic")
    case = rng.choice(_C7_CASES)
    full = deck(52)
    for _ in range(20_000):
        cards = rng.sample(full, 9)
        hands = [cards[0:3], cards[3:6], cards[6:9]]
        values = [hand_value(h) for h in hands]
        if 31 in values:
            continue
        low = min(values)
        lowest = [p for p in range(3) if values[p] == low]
        kind = (
            "knocker lowest"
            if lowest == [0]
            else "knocker tied"
            if 0 in lowest
            else "others tied"
            if len(lowest) > 1
            else "one lowest"
        )
        if kind == case:
            break
    s = settle(
        rules,
        "knock",
        players=[0, 1, 2],
        keys={p: tiebreak_key(hands[p], rules) for p in range(3)},
        knocker=0,
        declarers=(),
    )
    target = rng.choice((0, 0, 1, 2))
    lost = s.losses[target]
    code = s.notes[0].code if s.notes else "C7"
    why = _showdown_why(values, {p: n for p, n in s.losses.items() if n}, code)
    # the players as the table numbers them: from 1, the knocker first (seat 0 is player 1)
    who = "the knocker (player 1)" if target == 0 else player_label(target)
    return Question(
        "showdown",
        seed,
        f"Player 1 knocked and everyone has had their last turn. How many lives does {who} lose?",
        tuple((f"{player_label(p).capitalize()}{' (knocker)' if p == 0 else ''}", _cards(hands[p])) for p in range(3)),
        ("0", "1", "2"),
        str(lost),
        frozenset({str(lost)}),
        why,
        (code,),
    )


# -- 5. house rules ---------------------------------------------------------------------------

_PRESET_CODES = {
    "classic": ("C4",),
    "quick": ("V1",),
    "gin": ("V2", "V14"),
    "cadillac": ("V13",),
    "eenendertigen": ("V18",),
}


def _house_value(rng: random.Random, seed: int) -> Question:
    preset = rng.choice(list(_PRESET_CODES))
    rules = find_rules(preset)
    full = deck(rules.deck_size)
    shape = rng.choice(("trips", "trips", "suited", "mixed"))
    if shape == "trips":
        rank = rng.choice(sorted({c.rank for c in full}))
        hand = rng.sample([c for c in full if c.rank == rank], 3)
    elif shape == "suited":
        hand = _hand_with_a_pair_of_suit(rng, full)
    else:
        hand = rng.sample(full, 3)
    value = hand_value(hand, rules)
    trips = len({c.rank for c in hand}) == 1
    if trips and rules.grand_cadillac and all(c.value == 11 for c in hand):
        reason = "Three Aces are a Grand Cadillac, worth 33 (V13)"
    elif trips and rules.three_of_a_kind is not None:  # V1 or V2, under every preset that plays it (GIN's 30.5 is V2)
        reason = (
            f"Three of a kind counts {show_value(rules.three_of_a_kind)} under these rules "
            f"({'V2' if rules.three_of_a_kind == Fraction(61, 2) else 'V1'})"
        )
    elif trips:
        reason = "Three of a kind counts nothing special here: only one suit adds up (C4)"
    elif len({c.suit for c in hand}) == 3:
        reason = f"Three different suits count the highest card: {_suit_sums(hand)} (C4)"
    else:
        reason = f"The best suit adds up: {_suit_sums(hand)} (C4)"
    why = f"{rules.describe()}. {reason}, so the hand is worth {show_value(value)}."
    return Question(
        "house-value",
        seed,
        f"Under the {preset} rules, what is this hand worth?",
        (("Your hand", _cards(hand)),),
        (),
        show_value(value),
        frozenset({show_value(value)}),
        why,
        _PRESET_CODES[preset],
    )


# -- 6. strategy: the best discard ------------------------------------------------------------


def _best_discard(rng: random.Random, seed: int) -> Question:
    full = deck(52)
    while True:  # a puzzle where some throw is wrong (not four throws that all keep as much)
        hand = _hand_with_a_pair_of_suit(rng, full)
        hand.append(rng.choice([c for c in full if c not in hand]))
        rng.shuffle(hand)
        kept = {c: hand_value([h for h in hand if h is not c]) for c in hand}
        best = max(kept.values())
        if any(v < best for v in kept.values()):
            break
    accepted = frozenset(c.pretty for c in hand if kept[c] == best)
    # of equal throws, the lowest card (the tip's "lowest card outside your suit"); the others are right too
    solution = min((c for c in hand if kept[c] == best), key=lambda c: (c.value, c.index)).pretty
    listing = "; ".join(f"throw {c.pretty}: keep {show_value(kept[c])}" for c in hand)
    why = (
        f"after a draw you hold four cards and throw one (C5); keep the three worth most (C4): {listing}. "
        f"The tip and expert players both do this; the expert also weighs what the kept cards may become."
    )
    return Question(
        "best-discard",
        seed,
        "You drew a card. Which card do you throw?",
        (("Your four cards", _cards(hand)),),
        tuple(c.pretty for c in hand),
        solution,
        accepted,
        why,
        ("C4", "C5"),
    )


# -- 7. not this game: Skat -------------------------------------------------------------------


def _skat_value(rng: random.Random, seed: int) -> Question:
    from .skat import game_value

    contract = rng.choice(("diamonds", "hearts", "spades", "clubs", "grand", "grand", "null"))
    if contract == "null":
        v = game_value("null", hand=rng.random() < 0.5, ouvert=rng.random() < 0.3)
        desc = v.contract.replace("null", "Null").replace("ouvert", "Ouvert").replace("hand", "Hand")
    else:
        matadors = rng.randint(1, 4)
        kind = rng.choice(("with", "without"))
        hand = rng.random() < 0.4
        schneider = rng.random() < 0.3
        schwarz = schneider and rng.random() < 0.3
        v = game_value(contract, matadors=matadors, hand=hand, schneider=schneider, schwarz=schwarz)
        flags = (
            [f"{kind} {matadors}"]
            + (["hand"] if hand else [])
            + (["schwarz"] if schwarz else ["schneider"] if schneider else [])
        )
        desc = f"{contract.capitalize()} ({', '.join(flags)})"
    why = (
        f"{v.explain()}. Skat values a game as base value × game level (Null has fixed values): "
        "nothing like 31's hand values."
    )
    return Question(
        "skat-value",
        seed,
        f"Skat, not 31: what is a won game of {desc} worth?",
        (),
        (),
        str(v.value),
        frozenset({str(v.value)}),
        why,
        (),
    )


# -- the working behind an answer (only when a learner asks) ----------------------------------
#
# The working writes out the sum the lesson wrote, in the lesson's words (docs/design/voice.md):
# counts times values with "×", a chance as "3 in 48 (about 6%)", an average "on average", the
# learner's rounded figures first and the exact fraction after. The precise notation (P, E[...],
# sets of outs) stays in the analyzer's detail view and the command line. Each line is one
# display of LaTeX; a long sum is cut into lines of a few terms, so it fits a phone.

_TERMS_PER_LINE = 4
"""Terms of a sum on one line of the working (four fit 390 px)."""


def _tex(text: str) -> str:
    """Plain words inside the working's LaTeX."""
    return rf"\text{{{text}}}"


def _sum_lines(head: str, terms: Sequence[str], tail: str) -> list[str]:
    """``head (t1 + t2 + ...) tail`` as lines of at most :data:`_TERMS_PER_LINE` terms."""
    rows = [terms[i : i + _TERMS_PER_LINE] for i in range(0, len(terms), _TERMS_PER_LINE)]
    lines = []
    for i, row in enumerate(rows):
        text = " + ".join(row)
        start = f"{head} ({text}" if i == 0 else rf"+\ {text}"
        lines.append(start + (f") {tail}" if i == len(rows) - 1 else ""))
    return lines


def _count_terms(counts: Sequence[tuple[Fraction, int]]) -> list[str]:
    """``3 × 31``, ``30`` (one card), as the lesson writes them: count × value."""
    return [show_value(v) if n == 1 else rf"{n} \times {show_value(v)}" for v, n in counts]


def _outcome_counts(hand: Sequence[Card], up: Card) -> tuple[list[tuple[Fraction, int]], int, Fraction]:
    """The draw's outcomes, best first, with how many unseen cards give each; the unseen count
    and the exact average."""
    draw = _turn(hand, up).draw
    assert draw is not None
    u = draw.unseen
    counts = sorted(((v, int(p * u)) for v, p in draw.distribution.items()), key=lambda vc: -vc[0])
    return counts, u, draw.expected_value


def _position(question: Question) -> tuple[list[Card], Card]:
    from ..cards import parse_card, parse_cards

    return list(parse_cards(question.position[0])), parse_card(question.position[1])


def _working_p31(question: Question) -> str:
    from ..words import counted_chance

    hand, up = _position(question)
    draw = _turn(hand, up).draw
    assert draw is not None
    n, u = len(draw.outs_31), draw.unseen
    outs = ", ".join(c.pretty for c in draw.outs_31) or "none"
    exact = Fraction(n, u)
    reduced = f" = {exact.numerator}/{exact.denominator}" if n and exact.denominator != u else ""
    return "\n".join(
        [
            _tex(f"outs (cards you have not seen that make 31): {outs}"),
            _tex(f"chance of 31 = outs / unseen cards = {n}/{u}{reduced}"),
            _tex(f"= {counted_chance(n, u)}"),
        ]
    )


def _average_lines(hand: Sequence[Card], up: Card, rounded: str) -> list[str]:
    counts, u, ev = _outcome_counts(hand, up)
    total = sum((v * n for v, n in counts), Fraction(0))
    if ev == read_number(rounded):
        last = rf"= {show_value(total)}/{u} = {show_value(ev)}"
    elif ev.denominator == u:
        last = rf"= {show_value(total)}/{u}" + _tex(f", about {rounded}")
    else:
        last = rf"= {show_value(total)}/{u}" + _tex(f", about {rounded} (exactly {show_value(ev)})")
    return [*_sum_lines(_tex("on average") + " =", _count_terms(counts), f"/ {u}"), last]


def _working_ev(question: Question) -> str:
    hand, up = _position(question)
    return "\n".join(_average_lines(hand, up, question.solution))


def _working_take_or_draw(question: Question) -> str:
    hand, up = _position(question)
    take = _turn(hand, up).take
    assert take is not None
    _, _, ev = _outcome_counts(hand, up)
    tv = take.best.value
    word = "more than" if tv > ev else "less than" if tv < ev else "the same as"
    return "\n".join(
        [
            _tex(f"take the {up.pretty}: worth {show_value(tv)} for sure"),
            *_average_lines(hand, up, tenths(ev)),
            _tex(f"taking is worth {word} drawing: {question.solution}"),
        ]
    )


def _working_knock_cost(question: Question) -> str:
    """Step 3.1's working: the knock's sum from the question's own rounded figures, term by
    term, against playing on's figure; then the exact chances the sum starts from."""
    from .knocking import knock_sum, level

    w = knock_sum(question.position[0], question.position[1])
    on = w.play_on
    verdict = "knock" if w.knocks else "play on"
    better = "higher" if w.knocks else "lower"
    return "\n".join(
        [
            _tex("knocking = (chance you lose one) × (your chance after it)"),
            _tex("+ (chance you lose two) × (your chance after it)"),
            _tex("+ (chance they lose one) × (your chance after it)"),
            _tex(f"= {w.terms()}"),
            _tex(f"= {' + '.join(level(x) for x in w.products())} = {level(w.knock)}"),
            _tex(f"playing on: {level(on.win)}; knocking is {better}: {verdict}"),
            _tex(f"exactly: you lose one with chance {w.p_one}, two with {w.p_two}, they lose one with {w.p_theirs}"),
        ]
    )


# -- 2. the one-draw chance and the expected value ----------------------------------------------


def _half_up(value: Fraction, step: int) -> Fraction:
    """``value`` rounded to the nearest ``1/step``, halves up (as a learner rounds)."""
    return Fraction((value * step + Fraction(1, 2)).__floor__(), step)


def tenths(value: Fraction) -> str:
    """A value to one decimal, halves rounded up as a learner rounds (``28.25`` is ``28.3``).

    >>> tenths(Fraction(113, 4)), tenths(Fraction(28)), tenths(Fraction(541, 24))
    ('28.3', '28.0', '22.5')
    """
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
        raise ExerciseError(f"{value!r} is not an exact value: give a Fraction or a whole number")
    tens = int(_half_up(value, 10) * 10)
    sign, tens = ("-" if tens < 0 else ""), abs(tens)
    return f"{sign}{tens // 10}.{tens % 10}"


def _draw_chance(rng: random.Random, seed: int) -> Question:
    from ..words import chance_words  # (the session package is heavy: only when used)

    hand, up, outs, unseen = _outs_position(rng)
    n = len(outs)
    listed = ", ".join(c.pretty for c in outs) if outs else "none"
    exact = Fraction(n, unseen)
    why = (
        f"{n} of the {unseen} cards you have not seen {'makes' if n == 1 else 'make'} 31 ({listed}), "
        "each as likely as any other, so the "
        f"chance is {n}/{unseen}{f' = {exact.numerator}/{exact.denominator}' if exact.denominator != unseen else ''}"
        f", {chance_words(exact)} (C5). At the table: each out is worth about 2%, so {n} out"
        f"{'s are' if n != 1 else ' is'} about {2 * n}%."
    )
    accepted = frozenset({f"{n}/{unseen}", f"{exact.numerator}/{exact.denominator}"})
    return Question(
        "draw-chance",
        seed,
        "You draw from the stock. What is the chance the card makes 31? Type it as a fraction: outs / unseen cards.",
        (("Your hand", _cards(hand)), ("Discard pile", up.pretty)),
        (),
        f"{n}/{unseen}",
        accepted,
        why,
        ("C4", "C5"),
        (format_cards(hand), str(up)),
    )


def _ev_sum(rng: random.Random, seed: int) -> Question:
    full = deck(52)
    while True:  # three cards of one suit: few outcomes, a sum a learner can work out
        suit = rng.choice(list(Suit))
        hand = rng.sample([c for c in full if c.suit is suit], 3)
        if not 18 <= hand_value(hand) <= 29:
            continue
        rest = [c for c in full if c not in hand]
        up = rng.choice(rest)
        draw = _turn(hand, up).draw
        assert draw is not None
        dist = draw.distribution
        if len(dist) > 5:
            continue
        u = draw.unseen
        ev = draw.expected_value
        naive = sum(dist, Fraction(0)) / len(dist)
        now = draw.current
        shown = [tenths(x) for x in (ev, naive, now)]
        if len(set(shown)) == 3 and min(abs(ev - naive), abs(ev - now)) >= Fraction(1, 5):
            break
    counts = sorted(((v, p * u) for v, p in dist.items()), key=lambda vc: -vc[0])
    groups = "; ".join(
        f"{int(n)} card{'s' if n != 1 else ''} leave{'s' if n == 1 else ''} you {show_value(v)}" for v, n in counts
    )
    terms = " + ".join(
        show_value(v) if n == 1 else f"{int(n)} × {show_value(v)}" for v, n in counts
    )  # as lesson 2 writes it
    total = sum((v * n for v, n in counts), Fraction(0))
    choices = list(shown)
    rng.shuffle(choices)  # not in order of size: the answer is not always the middle one
    exact = f" = {show_value(ev)}" if show_value(ev) != f"{show_value(total)}/{u}" else ""
    why = (
        f"weigh each outcome by how many cards give it: ({terms}) / {u} = {show_value(total)}/{u}{exact}, "
        f"{shown[0]} to one decimal. The plain average of the outcomes ({shown[1]}) "
        "forgets that some come from many cards "
        f"and some from one; {shown[2]} is what you hold now (C5)."
    )
    return Question(
        "ev-sum",
        seed,
        f"Of the {u} cards you could draw (keeping your best three): {groups}. "
        "What is drawing worth on average, to one decimal?",
        (("Your hand", _cards(hand)), ("Discard pile", up.pretty)),
        tuple(choices),
        shown[0],
        frozenset({shown[0]}),
        why,
        ("C4", "C5"),
        (format_cards(hand), str(up)),
    )


# -- 3. what a knock is worth, and knocking early ----------------------------------------------


def wants_knock(exercise: str, seed: int) -> bool:
    """Whether the puzzle of ``seed`` is dealt so that knocking is right: in each block of six
    seeds, three knocks and three play-ons in a shuffled order, so an answer is never a safe
    guess and no pattern gives it away.

    >>> [wants_knock("knock-cost", s) for s in range(6)].count(True)
    3
    """
    pattern = [True, True, True, False, False, False]
    random.Random(f"{exercise}:answers:{seed // 6}").shuffle(pattern)
    return pattern[seed % 6]


def knock_worth_question(hand: str, pile: str, seed: int = 0) -> Question:
    """Step 3.1's question about one position (``hand`` against one opponent just dealt,
    ``pile`` on the discard pile): what a knock is worth, weighed as lesson 3 teaches
    (:func:`~scatlab.course.knocking.knock_sum`), against playing on's chance of winning the
    game; the answer is the engine's choice between the two. Every figure is the ranking's,
    so the step, the worked example and ``scatlab analyze`` state one figure for a position.

    >>> q = knock_worth_question("AH KH 4C", "9S")
    >>> q.choices, q.position
    (('knock', 'play on'), ('AH KH 4C', '9S'))
    """
    from ..cards import parse_card
    from .knocking import knock_sum, level, move_words

    w = knock_sum(hand, pile)
    (p1, a1), (p2, a2), (p3, a3) = w.shown()
    on = w.play_on
    solution = "knock" if w.knocks else "play on"
    lives = w.ranking.position.seats.lives[0]
    up = parse_card(pile)
    prompt = (
        f"One opponent, just dealt; everyone has {lives} lives. If you knock, you lose one life with chance "
        f"{level(p1)}, two with {level(p2)}, and your opponent loses one with {level(p3)}. Your chance of "
        f"winning the game after each: {level(a1)}, {level(a2)} and {level(a3)}. If you play on "
        f"({move_words(on, w.ranking)}), it is {level(on.win)}. Knock or play on?"
    )
    which = "Knocking" if w.knocks else "Playing on"
    why = (
        f"knocking: {w.terms()} = {level(w.knock)}; playing on: {level(on.win)}. {which} gives you the better "
        f"chance of winning the game, so {solution} (C6, C7). These figures are for this very hand and the "
        f"{up.pretty} on the pile (your opponent may take it); the chart's are for an average hand."
    )
    return Question(
        "knock-cost",
        seed,
        prompt,
        (("Your hand", _cards(list(w.hand))), ("Discard pile", up.pretty)),
        ("knock", "play on"),
        solution,
        frozenset({solution}),
        why,
        ("C6", "C7"),
        (format_cards(w.hand), str(up)),
    )


def _knock_cost(rng: random.Random, seed: int) -> Question:
    """What a knock is worth (lesson 3): a heads-up hand, just dealt, whose knock is weighed
    outcome by outcome (:func:`knock_worth_question`); knocking and playing on at least a point
    apart (never a close call), the question's rounded figures adding up to the engine's
    own, and the answer dealt three knocks and three play-ons in every six seeds."""
    from ..analysis import CLOSE_CALL
    from ..errors import ScatlabError
    from .knocking import knock_sum

    full = deck(52)
    want_knock = wants_knock("knock-cost", seed)
    while True:  # a position whose shown figures give the advice's answer, never a coin toss
        hand = _hand_with_a_pair_of_suit(rng, full)
        if not 17 <= hand_value(hand) <= 30:
            continue
        up = rng.choice([c for c in full if c not in hand])
        try:
            w = knock_sum(hand, up)
        except ScatlabError:  # a knock is not a move here: deal again
            continue
        if w.knocks == want_knock and abs(w.knock - w.play_on.win) >= 2 * CLOSE_CALL and w.lands():
            return knock_worth_question(format_cards(hand), str(up), seed)


def _knock_by_line(rng: random.Random, seed: int, exercise: str, opponents: int | None, turns: int) -> Question:
    """Knock or play on by the knock chart (lesson 3: an average hand of each value, against
    ``opponents``, 1 to 3 dealt at random when None, who have played ``turns`` turns): a value
    near where the advice switches, knocking and playing on at least a point apart, the answer
    dealt by :func:`wants_knock`."""
    from ..analysis import CLOSE_CALL, knock_line
    from .knocking import chart_rows, level, line_words

    full = deck(52)
    want_knock = wants_knock(exercise, seed)
    for attempt in range(2000):
        n = opponents if opponents is not None else rng.choice((1, 2, 3))
        rows = chart_rows(knock_line("classic", opponents=n, turns=turns))
        by_value = {r.value: r for r in rows}
        switches = [b.value for a, b in zip(rows, rows[1:]) if a.knocks != b.knocks]
        hand = _hand_with_a_pair_of_suit(rng, full)
        value = hand_value(hand)
        row = by_value.get(value)
        if row is None or abs(row.knock - row.play_on) < 2 * CLOSE_CALL:
            continue
        near = not switches or min(abs(value - s) for s in switches) <= 4
        if near and (row.knocks == want_knock or attempt >= 1500):  # (no value fits the answer dealt: any clear one)
            break
    else:  # pragma: no cover - every value a close call
        raise ExerciseError(f"no hand value against {opponents} opponents after {turns} turns is clear enough to ask")
    solution = "knock" if row.knocks else "play on"
    against = f"{n} opponent{'s' if n != 1 else ''}"
    when = "just dealt" if turns == 0 else f"after {turns} turn{'s' if turns != 1 else ''} each"
    better = "knocking" if row.knocks else "playing on"
    why = (
        f"for an average hand worth {show_value(value)} against {against} {when}, the chart gives your chance of "
        f"winning the game as {level(row.knock)} if you knock and {level(row.play_on)} if you play on: {better} is "
        f"better, so {solution} (C6, C7). Here the advice knocks {line_words(rows)}."
    )
    if turns:
        why += " Every turn the others play improves their hands, so the line moves as a hand goes on."
    return Question(
        exercise,
        seed,
        f"Against {against}, {when}. By the chart: knock or play on?",
        (("Your hand", _cards(hand)),),
        ("knock", "play on"),
        solution,
        frozenset({solution}),
        why,
        ("C6", "C7"),
    )


def _knock_chart(rng: random.Random, seed: int) -> Question:
    return _knock_by_line(rng, seed, "knock-chart", None, 0)


def _knock_early(rng: random.Random, seed: int) -> Question:
    return _knock_by_line(rng, seed, "knock-early", 1, seed % 4)  # the line climbing, turn by turn


# -- 6. strategy: what your discard gives the next player -------------------------------------


def _feed_next(rng: random.Random, seed: int) -> Question:
    full = deck(52)
    while True:
        keep_suit, their_suit, other_suit = rng.sample(list(Suit), 3)
        pair = rng.sample([c for c in full if c.suit is keep_suit], 2)
        theirs = rng.choice([c for c in full if c.suit is their_suit])
        other = rng.choice([c for c in full if c.suit is other_suit])
        hand = pair + [theirs, other]
        kept = {c: hand_value([h for h in hand if h is not c]) for c in hand}
        best = max(kept.values())
        if kept[theirs] == kept[other] == best and all(kept[c] < best for c in pair):
            break
    taken = rng.choice([c for c in full if c.suit is their_suit and c not in hand])
    rng.shuffle(hand)
    suit = their_suit.symbol
    why = (
        f"throwing the {theirs.pretty} or the {other.pretty} keeps {show_value(best)} either way (C4), but the "
        f"next player took the {taken.pretty}: they collect {suit}. The {theirs.pretty} on the pile is theirs to "
        f"take (C5); the {other.pretty} helps nobody you know of. Throw the {other.pretty}."
    )
    return Question(
        "feed-next",
        seed,
        f"You drew a card. Last turn the next player took the {taken.pretty} from the pile. Which card do you throw?",
        (("Your four cards", _cards(hand)),),
        tuple(c.pretty for c in hand),
        other.pretty,
        frozenset({other.pretty}),
        why,
        ("C4", "C5"),
    )


EXERCISES: dict[str, Exercise] = {
    e.id: e
    for e in (
        Exercise("hand-value", "01-the-game", "What is the hand worth?", _hand_value),
        Exercise("count-outs", "02-draw-or-take", "Count the outs to 31", _count_outs, _working_p31),
        Exercise("draw-chance", "02-draw-or-take", "The chance of 31 in one draw", _draw_chance, _working_p31),
        Exercise("ev-sum", "02-draw-or-take", "What is a draw worth?", _ev_sum, _working_ev),
        Exercise("take-or-draw", "02-draw-or-take", "Take or draw?", _take_or_draw, _working_take_or_draw),
        Exercise("knock-cost", "03-knocking", "What a knock is worth", _knock_cost, _working_knock_cost),
        Exercise("knock-chart", "03-knocking", "Knock or play on, by the chart", _knock_chart),
        Exercise("showdown", "04-showdown", "Who loses at the showdown?", _showdown),
        Exercise("house-value", "05-house-rules", "Same hand, other rules", _house_value),
        Exercise("best-discard", "06-strategy-lab", "Which card to throw?", _best_discard),
        Exercise("feed-next", "06-strategy-lab", "Don't feed the next player", _feed_next),
        Exercise("knock-early", "06-strategy-lab", "Knock early", _knock_early),
        Exercise("skat-value", "appendix-skat", "A Skat game's value", _skat_value),
    )
}
"""Every exercise by id."""


def exercises_of(lesson: str) -> list[Exercise]:
    """The exercises of one lesson id, in course order.

    >>> [e.id for e in exercises_of("02-draw-or-take")]
    ['count-outs', 'draw-chance', 'ev-sum', 'take-or-draw']
    """
    return [e for e in EXERCISES.values() if e.lesson == lesson]
