"""Practice puzzles generated from real games (issue 36, part 2).

:func:`generate` plays seeded games between computer players (``expert`` and ``tip``, 2 to 4
players, classic rules, the first hand of each game) and, at every decision a seat makes,
ranks the legal moves with :func:`scatlab.analysis.engine.ranking.rank`: **the one ranking the
advice uses**, never another scoring. A position becomes a puzzle only when **one move is
clearly best**: every other choice shown costs at least a stated margin (the lichess-puzzler
criterion), on the ranking's one scale, the chance of winning the game
(:meth:`~scatlab.analysis.engine.ranking.Ranking.cost`): :data:`WIN_MARGIN`, one point of
percentage, twice the close-call width (:data:`~scatlab.analysis.engine.scale.CLOSE_CALL`),
so a puzzle never asks a close call. (:data:`VALUE_MARGIN`, half a point of expected hand
value, is the margin puzzles made on the hand-value scale had.)

Each reason gives the chance of winning the game of every choice, as levels, first ("Your
chance of winning the game: 46.9% if you draw, 46.0% if you take the 9♥"), then the figures
it is built from (the value five turns ahead, the draw's outs, a knock's lives), never a
signed change alone.

**Themes.** Each position gives at most one puzzle, so a learner never meets the same
position twice in practice: the first theme, in the order **chase-31 > knock >
take-or-draw > throw** (:data:`PRECEDENCE`), whose puzzle the position makes (a theme whose
other choices do not all cost the margin makes none, and the next is tried). A turn
holding a knock where 31 is not being chased is a ``"knock"`` puzzle, never also a
``"take-or-draw"`` one.

- ``"chase-31"``: the best move makes or keeps a sure 31 (taking a discard that makes 31,
  throwing the card that keeps a 31), or its point is 31: a draw when at least
  :data:`CHASE_OUTS` unseen cards make 31, a throw that keeps the most cards that make 31
  (at least :data:`CHASE_OUTS`, more than any other throw). Choices: every legal move.
- ``"take-or-draw"``: take the discard or draw (the best is one of them, not a knock).
- ``"throw"``: which card to throw, holding four (the card just taken is not a choice, C5).
- ``"knock"``: knock or play on ("play on" is the best way of playing on; when the knock is
  best, the way of playing on ranked first after it, so the margin is the closest).

**Levels.** Each other choice's cost is divided by its scale's margin; the smallest of those
ratios is the puzzle's :attr:`Puzzle.margin` (in the unit of its scale). Level 1 (easy)
when that ratio is at least :data:`EASY` (6), level 2 at least :data:`MEDIUM` (3), else
level 3 (hard): a big margin is an easy puzzle.

>>> p = generate("take-or-draw", 1, seed=1)[0]
>>> p.choices[1], p.answer in p.choices
('draw', True)
>>> p.check(p.answer).correct
True
>>> Puzzle.from_json(p.to_json()) == p
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..analysis import Knowledge, Position, RankedMove, Ranking, rank, win_level
from ..cards import Card, format_cards, parse_card
from ..checks import SEED_RANGE, shown
from ..errors import ExerciseError, ScatlabError
from ..players.base import Player, make_player
from ..rules.actions import ActionKind
from ..rules.options import find_rules
from ..rules.record import shuffled_deck
from ..rules.state import GameState, Phase
from ..rules.values import blitz_of, value_of
from ..words import card_words, chance_words
from .exercises import Verdict, show_value

__all__ = [
    "THEMES",
    "LEVELS",
    "VALUE_MARGIN",
    "WIN_MARGIN",
    "EASY",
    "MEDIUM",
    "CHASE_OUTS",
    "MAX_COUNT",
    "POOL_SIZE",
    "POOL_SEED",
    "PRECEDENCE",
    "Puzzle",
    "choice_words",
    "generate",
    "pool",
    "build_pool",
    "pools_json",
    "LAST_TURN_SHARE",
    "POOLS_FILE",
]

THEMES: tuple[str, ...] = ("take-or-draw", "throw", "knock", "chase-31")
"""The themes, in the order the practice page lists them."""
PRECEDENCE: tuple[str, ...] = ("chase-31", "knock", "take-or-draw", "throw")
"""The order themes claim a position: it goes to the first whose puzzle it makes."""
LEVELS: tuple[int, ...] = (1, 2, 3)
"""Difficulty levels: 1 easy, 2 medium, 3 hard."""
VALUE_MARGIN = Fraction(1, 2)
"""The least cost, in expected hand-value points, of every other way of playing on, for a
puzzle on the hand-value scale (puzzles made before the one scale)."""
WIN_MARGIN = Fraction(1, 100)
"""The least cost, in the chance of winning the game, of every other choice (one point of
percentage: twice the close-call width)."""
EASY = 6
"""A puzzle whose closest other choice costs at least this many margins is level 1."""
MEDIUM = 3
"""... at least this many margins (and fewer than :data:`EASY`): level 2; else level 3."""
CHASE_OUTS = 3
"""Unseen cards that must make 31 for a draw or a throw to count as chasing 31."""
MAX_COUNT = 200
"""The most puzzles one call of :func:`generate` makes."""
RULES = "classic"
"""The rule preset of the games the puzzles come from."""
_GAMES_PER_PUZZLE = 60
"""Games tried per puzzle asked for before :func:`generate` gives up (never reached in tests)."""
_MARGINS = {"value": VALUE_MARGIN, "win": WIN_MARGIN}


def _num(x: Fraction, places: int = 1) -> str:
    """A figure for display (floats only here): ``26.4``."""
    return f"{float(x):.{places}f}"


def choice_words(choice: str) -> str:
    """A choice as the words that follow "to" in a sentence.

    >>> choice_words("draw"), choice_words("throw 5♠"), choice_words("take 10♥"), choice_words("play on")
    ('draw', 'throw the 5♠', 'take the 10♥', 'play on')
    """
    verb, _, card = choice.partition(" ")
    return f"{verb} the {card}" if verb in ("take", "throw") and card else choice


def _drawn_or_taken(who: str, n: int) -> str:
    """How often ``who`` has drawn or taken a card this hand, in plain English.

    >>> [_drawn_or_taken("opponent 1", n) for n in range(4)]  # doctest: +NORMALIZE_WHITESPACE
    ['opponent 1 has not drawn or taken a card yet this hand',
     'opponent 1 has drawn or taken a card once this hand',
     'opponent 1 has drawn or taken a card twice this hand',
     'opponent 1 has drawn or taken a card 3 times this hand']
    """
    if n == 0:
        return f"{who} has not drawn or taken a card yet this hand"
    return f"{who} has drawn or taken a card {({1: 'once', 2: 'twice'}).get(n, f'{n} times')} this hand"


def _cards(cards: Sequence[Card]) -> str:
    return format_cards(cards, pretty=True)


def _card_or_none(text: object, what: str) -> Card | None:
    if text is None:
        return None
    return parse_card(_text(text, what))


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise ExerciseError(f"{what}={shown(value)} is not allowed in a puzzle: it is a text")
    return value


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: the position (enough to re-create it without the game: :meth:`position`),
    the choices shown, the answer, how clearly it is best, and why.

    ``choices`` are what the learner reads (``"take 9♥"``, ``"draw"``, ``"knock"``,
    ``"play on"``, ``"throw 4♣"``); ``moves`` the ranking's move of each (``"take"``,
    ``"draw"``, ``"knock"``, ``"discard 4C"``); ``costs`` and ``scales`` each choice's
    :meth:`~scatlab.analysis.engine.ranking.Ranking.cost` and scale (0 for the answer);
    ``margin`` the cost of the closest other choice, on ``margin_scale``; ``seed`` the
    seed given to :func:`generate`, ``game`` the game of that seed it came from.
    """

    id: str
    theme: str
    level: int
    seed: int
    game: int
    rules: str
    phase: str
    """``"turn"`` (three cards: draw, take or knock) or ``"discard"`` (four cards: throw one)."""
    hand: tuple[Card, ...]
    discard: Card | None
    """The top of the discard pile (None holding four cards: the pile is then all seen)."""
    dead: tuple[Card, ...]
    """The other cards of the discard pile: seen, out of play."""
    opponent_holds: tuple[tuple[Card, ...], ...]
    """Per opponent in turn order: the cards seen taken by them and not thrown since."""
    opponents: int
    opponent_turns: tuple[int, ...]
    """Turns each opponent has completed in this hand, in turn order."""
    taken: Card | None
    """The card just taken from the pile (may not be thrown back, C5)."""
    drawn: Card | None
    """The card just drawn from the stock (shown to the learner)."""
    stock_size: int
    final: bool
    """Someone knocked: this is the last turn, only the hand now counts."""
    first_round: bool
    choices: tuple[str, ...]
    moves: tuple[str, ...]
    answer: str
    costs: tuple[Fraction, ...]
    scales: tuple[str, ...]
    margin: Fraction
    margin_scale: str
    why: str
    wins: tuple[Fraction, ...] = ()
    """Each choice's chance of winning the game (the engine's estimate, to a millionth), in
    the order of ``choices``."""

    # -- the position -----------------------------------------------------------------------

    def knowledge(self) -> Knowledge:
        """What the player knows, re-created from the stored fields."""
        return Knowledge(
            hand=self.hand,
            top=self.discard,
            dead=self.dead,
            opponent_holds=self.opponent_holds,
            opponents=self.opponents,
            rules=find_rules(self.rules),
            taken=self.taken,
            first_round=self.first_round,
            stock_size=self.stock_size,
        )

    def position(self) -> Position:
        """The position to rank, re-created without the game (:func:`rank` of it gives
        this puzzle's answer)."""
        return Position.of(self.knowledge(), opponent_turns=self.opponent_turns, final=self.final)

    @property
    def prompt(self) -> str:
        """The question in words."""
        if self.theme == "knock":
            return f"Your turn, holding {_cards(self.hand)} ({_value_text(self.hand, self.rules)}). Knock, or play on?"
        if self.phase == "discard":
            got = (
                f"You took the {self.taken.pretty} from the pile"
                if self.taken is not None
                else f"You drew the {self.drawn.pretty}"
                if self.drawn is not None
                else "You hold four cards"
            )
            return f"{got}. Which card do you throw?"
        assert self.discard is not None
        if "knock" in self.choices:
            return f"Your turn. Take the {self.discard.pretty}, draw from the stock, or knock?"
        return f"Your turn. Take the {self.discard.pretty} or draw from the stock?"

    @property
    def situation_lines(self) -> tuple[str, ...]:
        """The table around the position, one short fact a line: players, the opponents'
        turns so far, the stock, a knock."""
        if self.opponents == 1:
            played = [_drawn_or_taken("your opponent", self.opponent_turns[0])]
        else:
            played = [_drawn_or_taken(f"opponent {i}", t) for i, t in enumerate(self.opponent_turns, start=1)]
        lines = [f"{self.opponents + 1} players", *played, f"{self.stock_size} cards in the stock"]
        if self.final:
            lines.append("an opponent has knocked (instead of drawing): this is your last turn (C6)")
        return tuple(lines)

    @property
    def situation(self) -> str:
        """:attr:`situation_lines` in one line (the text report)."""
        return "; ".join(self.situation_lines)

    def shown(self) -> tuple[tuple[str, str], ...]:
        """The labelled card groups to draw (as :attr:`scatlab.course.exercises.Question.shown`)."""
        groups = [("Your hand", _cards(self.hand))]
        if self.discard is not None:
            groups.append(("Discard pile", self.discard.pretty))
        if self.dead:
            groups.append(("Seen, out of play", _cards(self.dead)))
        for i, held in enumerate(self.opponent_holds, start=1):
            if held:
                groups.append((f"Opponent {i} took", _cards(held)))
        return tuple(groups)

    # -- answers ----------------------------------------------------------------------------

    def choice(self, answer: str) -> str:
        """The choice ``answer`` names (any case; cards in letters or symbols: ``"throw 4c"``);
        an answer that is none of the choices raises :class:`~scatlab.errors.ExerciseError`."""
        if not isinstance(answer, str):
            raise ExerciseError(f"{shown(answer)} is not one of the choices: {', '.join(self.choices)}")
        given = " ".join(card_words(" ".join(part.upper() for part in answer.split())).lower().split())
        for c in self.choices:
            if c.lower() == given:
                return c
        raise ExerciseError(f"{answer!r} is not one of the choices: {', '.join(self.choices)}")

    def check(self, answer: str) -> Verdict:
        """Check ``answer``: right or wrong, the verdict says why.

        >>> p = generate("knock", 1, seed=2)[0]
        >>> wrong = next(c for c in p.choices if c != p.answer)
        >>> p.check(wrong).message.startswith(f"Not quite: you chose to {choice_words(wrong)} (")
        True
        >>> p.check("fold")
        Traceback (most recent call last):
        ...
        scatlab.errors.ExerciseError: 'fold' is not one of the choices: knock, play on
        """
        chosen = self.choice(answer)
        if chosen == self.answer:
            return Verdict(True, chosen, f"Right: {self.why}")
        i = self.choices.index(chosen)
        wins = self.wins
        if len(wins) != len(self.choices):  # a puzzle written before its levels were kept: rank it again
            ranking = rank(self.position())
            wins = tuple(ranking.move(m).win for m in self.moves)
        best = wins[self.choices.index(self.answer)]
        return Verdict(
            False,
            chosen,
            f"Not quite: you chose to {choice_words(chosen)} ({win_level(wins[i])} chance "
            f"of winning the game); the best move is to {choice_words(self.answer)} "
            f"({win_level(best)}). {self.why}",
        )

    # -- JSON -------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data (cards as codes, exact numbers as fraction strings)."""
        return {
            "id": self.id,
            "theme": self.theme,
            "level": self.level,
            "seed": self.seed,
            "game": self.game,
            "rules": self.rules,
            "phase": self.phase,
            "hand": [str(c) for c in self.hand],
            "discard": None if self.discard is None else str(self.discard),
            "dead": [str(c) for c in self.dead],
            "opponent_holds": [[str(c) for c in h] for h in self.opponent_holds],
            "opponents": self.opponents,
            "opponent_turns": list(self.opponent_turns),
            "taken": None if self.taken is None else str(self.taken),
            "drawn": None if self.drawn is None else str(self.drawn),
            "stock_size": self.stock_size,
            "final": self.final,
            "first_round": self.first_round,
            "choices": list(self.choices),
            "moves": list(self.moves),
            "answer": self.answer,
            "costs": [str(c) for c in self.costs],
            "scales": list(self.scales),
            "margin": str(self.margin),
            "margin_scale": self.margin_scale,
            "why": self.why,
            "wins": [str(w) for w in self.wins],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Puzzle:
        """The puzzle of :meth:`to_json`'s data; anything else raises
        :class:`~scatlab.errors.ExerciseError` naming what is wrong."""
        if not isinstance(data, Mapping):
            raise ExerciseError(f"a puzzle is a JSON object, not {shown(data)}")
        missing = [k for k in _FIELDS if k not in data and k not in _OPTIONAL]
        extra = [k for k in data if k not in _FIELDS]
        if missing or extra:
            raise ExerciseError(f"not a puzzle: missing {missing or 'nothing'}, unknown {extra or 'nothing'}")
        try:

            def cards(value: object, what: str) -> tuple[Card, ...]:
                if not isinstance(value, list):
                    raise ExerciseError(f"{what}={shown(value)} is not a list of cards")
                return tuple(parse_card(_text(v, what)) for v in value)

            def strings(value: object, what: str) -> tuple[str, ...]:
                if not isinstance(value, list):
                    raise ExerciseError(f"{what}={shown(value)} is not a list")
                return tuple(_text(v, what) for v in value)

            def whole(value: object, what: str) -> int:
                if type(value) is not int:
                    raise ExerciseError(f"{what}={shown(value)} is not a whole number")
                return value

            def flag(value: object, what: str) -> bool:
                if type(value) is not bool:
                    raise ExerciseError(f"{what}={shown(value)} is not true or false")
                return value

            holds = data["opponent_holds"]
            if not isinstance(holds, list):
                raise ExerciseError(f"opponent_holds={shown(holds)} is not a list")
            turns = data["opponent_turns"]
            if not isinstance(turns, list):
                raise ExerciseError(f"opponent_turns={shown(turns)} is not a list")
            puzzle = cls(
                id=_text(data["id"], "id"),
                theme=_text(data["theme"], "theme"),
                level=whole(data["level"], "level"),
                seed=whole(data["seed"], "seed"),
                game=whole(data["game"], "game"),
                rules=_text(data["rules"], "rules"),
                phase=_text(data["phase"], "phase"),
                hand=cards(data["hand"], "hand"),
                discard=_card_or_none(data["discard"], "discard"),
                dead=cards(data["dead"], "dead"),
                opponent_holds=tuple(cards(h, "opponent_holds") for h in holds),
                opponents=whole(data["opponents"], "opponents"),
                opponent_turns=tuple(whole(t, "opponent_turns") for t in turns),
                taken=_card_or_none(data["taken"], "taken"),
                drawn=_card_or_none(data["drawn"], "drawn"),
                stock_size=whole(data["stock_size"], "stock_size"),
                final=flag(data["final"], "final"),
                first_round=flag(data["first_round"], "first_round"),
                choices=strings(data["choices"], "choices"),
                moves=strings(data["moves"], "moves"),
                answer=_text(data["answer"], "answer"),
                costs=tuple(Fraction(c) for c in strings(data["costs"], "costs")),
                scales=strings(data["scales"], "scales"),
                margin=Fraction(_text(data["margin"], "margin")),
                margin_scale=_text(data["margin_scale"], "margin_scale"),
                why=_text(data["why"], "why"),
                wins=tuple(Fraction(w) for w in strings(data.get("wins", []), "wins")),
            )
        except ScatlabError as exc:
            raise ExerciseError(f"not a puzzle: {exc}") from None
        except (ValueError, ZeroDivisionError) as exc:
            raise ExerciseError(f"not a puzzle: a number cannot be read ({exc})") from None
        if (
            puzzle.theme not in THEMES
            or puzzle.level not in LEVELS
            or puzzle.answer not in puzzle.choices
            or not (len(puzzle.choices) == len(puzzle.moves) == len(puzzle.costs) == len(puzzle.scales))
            or (puzzle.wins and len(puzzle.wins) != len(puzzle.choices))
        ):
            raise ExerciseError(f"not a puzzle: its theme, level, answer or choices do not fit ({puzzle.id!r})")
        return puzzle

    def text(self, *, answer: bool = True) -> str:
        """The puzzle as readable lines (suit symbols), with the answer and why unless not asked."""
        lines = [
            f"{self.prompt}",
            "  " + "; ".join(f"{label}: {cards}" for label, cards in self.shown()),
            f"  {self.situation}",
            "  choices: " + " | ".join(self.choices),
        ]
        if answer:
            lines.append(f"  answer: {self.answer}. {self.why}")
        return "\n".join(lines)


_FIELDS = tuple(Puzzle.__dataclass_fields__)
_OPTIONAL = ("wins",)
"""Fields a puzzle's JSON may leave out (puzzles written before them)."""


# -- wording ---------------------------------------------------------------------------------


def _value_text(hand: Sequence[Card], rules: str) -> str:
    v = value_of(tuple(hand), find_rules(rules))
    return f"worth {v.numerator}" if v.denominator == 1 else f"worth {float(v)}"


def _outs(kept: Sequence[Card], unseen: Sequence[Card]) -> int:
    """How many of ``unseen`` make 31 with two of the three ``kept`` cards."""
    rules = find_rules(RULES)
    a, b, c = kept
    return sum(1 for d in unseen if any(blitz_of((x, y, d), rules) for x, y in ((a, b), (a, c), (b, c))))


def _out_words(n: int, unseen: int) -> str:
    if n == 0:
        return f"none of the {unseen} unseen cards makes 31"
    return (
        f"{n} of the {unseen} unseen cards make{'s' if n == 1 else ''} 31, a chance of "
        f"{chance_words(Fraction(n, unseen))}"
    )


def _worth(x: Fraction) -> str:
    """A hand value for display: exact when whole or a half (``21``, ``30.5``), else ``about 24.8``."""
    if x.denominator in (1, 2):
        return show_value(x)
    return f"about {_num(x)}"


def _ahead(r: Ranking) -> str:
    return "counting the hand now (the last turn)" if r.horizon == 0 else f"looking {r.ahead}, on average"


def _kept(hand: Sequence[Card], thrown: Card) -> tuple[Card, ...]:
    return tuple(c for c in hand if c != thrown)


def _what(m: RankedMove, k: Knowledge, label: str) -> str:
    """A way of playing on as the reason says it: ``"drawing"``, ``"taking the 9♥ (and
    throwing the 6♠)"``, ``"keeping 9♥ 9♠ 9♦"``."""
    if m.action.kind is ActionKind.TAKE and m.then is not None:
        return f"taking the {k.top.pretty if k.top else ''} (and throwing the {m.then.pretty})"
    if m.action.kind is ActionKind.DRAW:
        return "drawing"
    if m.action.card is not None:
        return f"keeping {_cards(_kept(k.hand, m.action.card))}"
    return label  # pragma: no cover - no other way of playing on is offered


def _why_value(r: Ranking, k: Knowledge, choices: Sequence[tuple[str, RankedMove]], best: RankedMove) -> str:
    """Ways of playing on, the figure the chance of winning is built from: the hand value
    (take or draw; which card to throw), said the way it points."""
    parts = []
    ways = [(label, m) for label, m in sorted(choices, key=lambda lm: r.moves.index(lm[1])) if not m.ends_hand]
    for label, m in ways:
        assert m.value is not None
        parts.append(f"{_what(m, k, label)} is worth {_worth(m.value)}")
    text = f"{_ahead(r).capitalize()}: " + "; ".join(parts) + "."
    higher = [
        (label, m)
        for label, m in ways
        if m is not best and m.value is not None and best.value is not None and m.value > best.value
    ]
    if higher and not best.ends_hand:
        text += (
            f" {_what(higher[0][1], k, higher[0][0]).capitalize()} is worth more on average, but the chance of "
            "winning also counts what each move leaves the next player and how the hand may end."
        )
    if best.action.kind is ActionKind.TAKE and r.horizon:
        text += " A card taken from the pile cannot be thrown back this turn (C5)."
    elif any(m.action.kind is ActionKind.DRAW for _, m in choices):
        text += " Either way you then throw one card (C5)."
    return text


def _lives(x: Fraction) -> str:
    """Expected lives for display: ``0.22 lives``."""
    return f"{_num(x, 2)} lives"


def _levels(labelled: Sequence[tuple[str, RankedMove]]) -> str:
    """Every choice's chance of winning the game as levels, best first: "Your chance of
    winning the game: 46.9% if you draw, 46.0% if you take the 9♥." (the hints' words)."""
    shown = sorted(labelled, key=lambda lm: -lm[1].win)
    return (
        "Your chance of winning the game: "
        + ", ".join(f"{win_level(m.win)} if you {choice_words(label)}" for label, m in shown)
        + "."
    )


def _why_knock(
    r: Ranking, k: Knowledge, knock: RankedMove, on_loss: Fraction, labelled: Sequence[tuple[str, RankedMove]]
) -> str:
    assert knock.p_one is not None and knock.p_two is not None and knock.lives is not None
    value = value_of(k.hand, k.rules)
    text = (
        f"{_levels(labelled)} If you knock with {_num(value, 0) if value.denominator == 1 else _num(value)}, you "
        f"lose one life with a chance of {chance_words(knock.p_one)}"
    )
    if knock.p_two:
        text += (
            f" and two lives with a chance of {chance_words(knock.p_two)} (the knocker loses two when their hand "
            f"alone is the lowest, C7)"
        )
    text += (
        f": {_lives(knock.lives)} on average. If you play on, you lose a life this hand with a chance of "
        f"{chance_words(on_loss)}, but you keep the chance to improve and knock later. After a knock every other "
        "player has one more turn (C6), then the lowest hand loses a life (C7)."
    )
    return text


def _why(
    theme: str,
    r: Ranking,
    k: Knowledge,
    labelled: Sequence[tuple[str, RankedMove]],
    answer: RankedMove,
    knock_on: Fraction | None,
) -> str:
    best = answer
    unseen = len(k.unseen)
    if theme == "knock":
        knock = next(m for _, m in labelled if m.ends_hand)
        assert knock_on is not None
        return _why_knock(r, k, knock, knock_on, labelled)
    lead = ""
    if best.sure_31:
        if best.action.kind is ActionKind.TAKE:
            assert k.top is not None and best.then is not None
            kept = tuple(c for c in k.hand if c != best.then) + (k.top,)
            lead = (
                f"Taking the {k.top.pretty} and throwing the {best.then.pretty} makes 31 ({_cards(kept)}): a 31 is "
                "shown at once and every other player loses a life (C8). "
            )
        elif best.action.card is not None:
            lead = (
                f"Throwing the {best.action.card.pretty} keeps 31 ({_cards(_kept(k.hand, best.action.card))}): a "
                "31 is shown at once and every other player loses a life (C8). "
            )
    elif theme == "chase-31" and best.action.kind is ActionKind.DRAW:
        lead = f"Drawing chases 31: {_out_words(_outs(k.hand, k.unseen), unseen)}. "
    elif theme == "chase-31" and best.action.card is not None:
        kept = _kept(k.hand, best.action.card)
        lead = f"Keeping {_cards(kept)} chases 31: {_out_words(_outs(kept, k.unseen), unseen)} if drawn later. "
    elif best.action.kind is ActionKind.DRAW or any(m.action.kind is ActionKind.DRAW for _, m in labelled):
        lead = f"If you draw, {_out_words(_outs(k.hand, k.unseen), unseen)}. "
    text = lead + _levels(labelled) + " " + _why_value(r, k, labelled, best)
    if any(m.ends_hand for _, m in labelled):
        text += " A knock ends the hand after one more turn each (C6, C7)."
    if theme == "throw" or (theme == "chase-31" and k.hand and len(k.hand) == 4):
        text += " Only the best suit of the three cards you keep counts (C4)."
    return text


# -- finding puzzles in a game ----------------------------------------------------------------


def _level(ratio: Fraction) -> int:
    return 1 if ratio >= EASY else 2 if ratio >= MEDIUM else 3


def _candidates(
    r: Ranking, k: Knowledge
) -> list[tuple[str, list[tuple[str, RankedMove]], RankedMove, Fraction | None]]:
    """The puzzles a ranked position may give: (theme, labelled choices, answer move, for a
    knock puzzle the lives of playing on)."""
    kinds = {m.action.kind for m in r.moves}
    best = r.best
    found: list[tuple[str, list[tuple[str, RankedMove]], RankedMove, Fraction | None]] = []
    if len(k.hand) == 4:
        if kinds != {ActionKind.DISCARD}:
            return found
        throws = [
            (f"throw {m.action.card.pretty}", m)
            for c in k.hand
            for m in r.moves
            if m.action.card is not None and m.action.card == c
        ]
        theme = "throw"
        if best.sure_31:
            theme = "chase-31"
        else:
            assert best.action.card is not None
            outs = {
                m.action.card: _outs(_kept(k.hand, m.action.card), k.unseen)
                for _, m in throws
                if m.action.card is not None
            }
            top = outs[best.action.card]
            if top >= CHASE_OUTS and all(n < top for c, n in outs.items() if c != best.action.card):
                theme = "chase-31"
        found.append((theme, throws, best, None))
        return found
    if not {ActionKind.DRAW, ActionKind.TAKE} <= kinds or not kinds <= {
        ActionKind.DRAW,
        ActionKind.TAKE,
        ActionKind.KNOCK,
    }:
        return found
    take = next(m for m in r.moves if m.action.kind is ActionKind.TAKE)
    draw = next(m for m in r.moves if m.action.kind is ActionKind.DRAW)
    assert k.top is not None
    labelled = [(f"take {k.top.pretty}", take), ("draw", draw)]
    knock = next((m for m in r.moves if m.action.kind is ActionKind.KNOCK), None)
    sure = any(m.sure_31 for m in r.moves)
    chase_draw = best is draw and not take.sure_31 and _outs(k.hand, k.unseen) >= CHASE_OUTS
    if best.sure_31 or chase_draw:
        found.append(("chase-31", labelled + ([("knock", knock)] if knock is not None else []), best, None))
    elif not best.ends_hand:
        found.append(("take-or-draw", labelled, best, None))
    if knock is not None and not sure:
        on_moves = [m for m in r.moves if not m.ends_hand]
        on_lives = r.play_on_lives
        assert on_lives is not None
        if best is knock:
            play_on = on_moves[0]
            found.append(("knock", [("knock", knock), ("play on", play_on)], knock, on_lives))
        else:
            found.append(("knock", [("knock", knock), ("play on", best)], best, on_lives))
    return found


def _make(
    theme: str,
    r: Ranking,
    k: Knowledge,
    labelled: list[tuple[str, RankedMove]],
    answer: RankedMove,
    knock_on: Fraction | None,
    *,
    view_drawn: Card | None,
    seed: int,
    game: int,
    step: int,
) -> Puzzle | None:
    """The puzzle, or None when some other choice costs less than its margin."""
    costs: list[Fraction] = []
    scales: list[str] = []
    ratio: Fraction | None = None
    closest: tuple[Fraction, str] = (Fraction(0), "value")
    for _, m in labelled:
        if m is answer:
            costs.append(Fraction(0))
            scales.append(r.scale_of(m.action))
            continue
        cost = r.cost(m.action)
        scale = r.scale_of(m.action)
        share = cost / _MARGINS[scale]
        if share < 1:
            return None
        if ratio is None or share < ratio:
            ratio, closest = share, (cost, scale)
        costs.append(cost)
        scales.append(scale)
    if ratio is None:
        return None
    pos = r.position
    answer_label = next(label for label, m in labelled if m is answer)
    return Puzzle(
        id=f"{theme}/{seed}/{game}/{step}",
        theme=theme,
        level=_level(ratio),
        seed=seed,
        game=game,
        rules=RULES,
        phase="discard" if len(k.hand) == 4 else "turn",
        hand=k.hand,
        discard=k.top,
        dead=k.dead,
        opponent_holds=k.opponent_holds,
        opponents=k.opponents,
        opponent_turns=pos.opponent_turns,
        taken=k.taken,
        drawn=view_drawn if len(k.hand) == 4 and k.taken is None else None,
        stock_size=k.stock_size if k.stock_size is not None else 0,
        final=pos.final,
        first_round=k.first_round,
        choices=tuple(label for label, _ in labelled),
        moves=tuple(m.name for _, m in labelled),
        answer=answer_label,
        costs=tuple(costs),
        scales=tuple(scales),
        margin=closest[0],
        margin_scale=closest[1],
        why=_why(theme, r, k, labelled, answer, knock_on),
        wins=tuple(m.win for _, m in labelled),
    )


@lru_cache(maxsize=4096)
def _game_puzzles(seed: int, game: int) -> tuple[Puzzle, ...]:
    """Every puzzle (of every theme and level, at most one per position: :data:`PRECEDENCE`)
    of the first hand of game ``game`` of ``seed``: 2 to 4 players, each ``expert`` or
    ``tip``, all drawn from one seeded generator."""
    rng = random.Random(f"scatlab-puzzles:{seed}:{game}")
    rules = find_rules(RULES)
    n = rng.randint(2, 4)
    players: list[Player] = [make_player(rng.choice(("expert", "tip"))) for _ in range(n)]
    state = GameState.new(rules, n, rng.randrange(n))
    state = state.deal(shuffled_deck(rules, rng))
    hand = state.hand_number
    found: list[Puzzle] = []
    step = 0
    while state.phase in (Phase.TURN, Phase.DISCARD, Phase.DECLARE) and state.hand_number == hand:
        mover = state.to_move
        assert mover is not None
        view = state.view(mover)
        if state.phase in (Phase.TURN, Phase.DISCARD):
            seen = Position.from_view(view)
            # ranked from the facts the puzzle shows (cards, turns played, a last turn), so
            # that rank(puzzle.position()) gives its answer: not from the game's whole log
            pos = Position.of(seen.knowledge, opponent_turns=seen.opponent_turns, final=seen.final)
            if pos.kinds != seen.kinds:
                state = state.apply(players[mover].choose(view, rng))
                step += 1
                continue
            r = rank(pos)
            k = pos.knowledge
            candidates = sorted(_candidates(r, k), key=lambda c: PRECEDENCE.index(c[0]))
            for theme, labelled, answer, knock_on in candidates:  # one puzzle per position: PRECEDENCE
                puzzle = _make(
                    theme, r, k, labelled, answer, knock_on, view_drawn=view.drawn, seed=seed, game=game, step=step
                )
                if puzzle is None:
                    continue
                if puzzle.position() == pos:  # re-created exactly from its fields
                    found.append(puzzle)
                break
        state = state.apply(players[mover].choose(view, rng))
        step += 1
    return tuple(found)


def _check_args(theme: object, count: object, seed: object, level: object) -> None:
    if not isinstance(theme, str) or theme not in THEMES:
        raise ExerciseError(f"{shown(theme)} is not a puzzle theme: choose one of {', '.join(THEMES)}")
    if type(count) is not int or not 1 <= count <= MAX_COUNT:
        raise ExerciseError(f"count={shown(count)} is not allowed: use a whole number from 1 to {MAX_COUNT}")
    if type(seed) is not int or not SEED_RANGE[0] <= seed <= SEED_RANGE[1]:
        raise ExerciseError(
            f"seed={shown(seed)} is not allowed: use a whole number from {SEED_RANGE[0]:,} to {SEED_RANGE[1]:,}"
        )
    if level is not None and (type(level) is not int or level not in LEVELS):
        raise ExerciseError(f"level={shown(level)} is not allowed: use 1 (easy), 2 or 3 (hard), or none for any")


def generate(theme: str, count: int, seed: int, level: int | None = None) -> list[Puzzle]:
    """``count`` puzzles of ``theme`` (and of ``level`` when given), from the games of
    ``seed`` in order: the same arguments give the same puzzles. Games already played are
    remembered (per process), so asking again, or for another theme, is quick.

    >>> [p.theme for p in generate("throw", 2, seed=5)]
    ['throw', 'throw']
    >>> generate("bluff", 1, seed=0)
    Traceback (most recent call last):
    ...
    scatlab.errors.ExerciseError: 'bluff' is not a puzzle theme: choose one of take-or-draw, throw, knock, chase-31
    """
    _check_args(theme, count, seed, level)
    return _generate(theme, count, seed, level)


def _generate(theme: str, count: int, seed: int, level: int | None) -> list[Puzzle]:
    """:func:`generate` without its cap on ``count`` (the pools read further)."""
    found: list[Puzzle] = []
    limit = _GAMES_PER_PUZZLE * count
    game = 0
    while len(found) < count:
        if game >= limit:
            raise ExerciseError(
                f"only {len(found)} {theme} puzzles of level {level} were found in {limit} games "
                f"of seed {seed}: ask for fewer, or another level"
            )
        for p in _game_puzzles(seed, game):
            if p.theme == theme and (level is None or p.level == level) and len(found) < count:
                found.append(p)
        game += 1
    return found


POOL_SIZE = 24
"""Puzzles per theme in the practice page's pool."""
POOL_SEED = 0
"""The seed of the practice page's pools."""
POOL_READ = 800
"""The most puzzles of a theme read to fill its pool (a knock answer is rare: the engine
knocks where playing on is clearly worse only a few times in a hundred knock decisions)."""


TWO_WAY_SHARE = Fraction(7, 12)
"""In a pool of a two-way theme (knock or play on, take or draw), the most any one answer
fills (14 of 24), so a learner who always gives the same answer cannot score well."""


LAST_TURN_SHARE = Fraction(1, 2)
"""In any pool, the most that last-turn positions (an opponent has knocked) fill (12 of 24):
their answers are the clearest, so without a cap they crowd out the ordinary mid-hand
choice (23 of the first 24 take-or-draw puzzles of the games were last turns)."""


POOLS_FILE = Path(__file__).parent / "data" / "practice-pools.json"
"""The practice page's pools as shipped with the package (written by
``python tools/practice_pools.py``; ``tests/course/test_puzzles.py`` checks it is exactly what
:func:`build_pool` makes): the practice page opens without playing the games again."""


@lru_cache(maxsize=len(THEMES))
def pool(theme: str) -> tuple[Puzzle, ...]:
    """The practice page's puzzles of ``theme``: :data:`POOL_SIZE` puzzles from
    :data:`POOL_SEED` (:func:`build_pool`), read from :data:`POOLS_FILE` when it holds
    the pools of those settings (else made from the games, about 3 s), kept for the process.

    >>> from collections import Counter
    >>> sorted(Counter(p.answer for p in pool("knock")).items())
    [('knock', 10), ('play on', 14)]
    """
    _check_args(theme, POOL_SIZE, POOL_SEED, None)
    shipped = _shipped_pools()
    if shipped is not None and theme in shipped:
        return shipped[theme]
    return build_pool(theme)


def pools_json() -> dict[str, Any]:
    """Every theme's pool as :data:`POOLS_FILE` holds it (what ``tools/practice_pools.py``
    writes)."""
    return {
        "pool_size": POOL_SIZE,
        "seed": POOL_SEED,
        "pools": {theme: [p.to_json() for p in build_pool(theme)] for theme in THEMES},
    }


@lru_cache(maxsize=1)
def _shipped_pools() -> dict[str, tuple[Puzzle, ...]] | None:
    try:
        data = json.loads(POOLS_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("pool_size") != POOL_SIZE or data.get("seed") != POOL_SEED:
        return None
    try:
        return {theme: tuple(Puzzle.from_json(p) for p in puzzles) for theme, puzzles in data["pools"].items()}
    except (KeyError, TypeError, AttributeError, ScatlabError):
        return None


def build_pool(theme: str) -> tuple[Puzzle, ...]:
    """The pool of ``theme`` made from the games: :data:`POOL_SIZE` puzzles from
    :data:`POOL_SEED`, in the order the games give them. Where one answer is far more
    common (playing on is right at most knock decisions) the pool skips the surplus, so no
    answer fills more than :data:`TWO_WAY_SHARE` of it; likewise last-turn positions fill
    at most :data:`LAST_TURN_SHARE`."""
    _check_args(theme, POOL_SIZE, POOL_SEED, None)
    cap = int(POOL_SIZE * TWO_WAY_SHARE)
    last_cap = int(POOL_SIZE * LAST_TURN_SHARE)
    count = POOL_SIZE
    while True:
        found = _generate(theme, count, POOL_SEED, None)  # the games already played are remembered
        kept: list[int] = []
        answers: dict[str, int] = {}
        # mid-hand positions first (the scarcer kind), then last turns up to their share;
        # the pool keeps the games' order
        for i in sorted(range(len(found)), key=lambda i: (found[i].final, i)):
            p = found[i]
            word = p.answer.split()[0]  # "take 9♥" and "take 10♥" are both a take
            if len(p.choices) == 2 and answers.get(word, 0) >= cap:
                continue
            if p.final and sum(found[j].final for j in kept) >= last_cap:
                break
            answers[word] = answers.get(word, 0) + 1
            kept.append(i)
            if len(kept) == POOL_SIZE:
                break
        if len(kept) == POOL_SIZE or count >= POOL_READ:
            return tuple(found[i] for i in sorted(kept))
        count = min(POOL_READ, count * 2)
