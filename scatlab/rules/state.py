"""The game: deal, turns, knocks, 31s, showdowns, lives, and whole games over many hands.

A :class:`GameState` is immutable: :meth:`GameState.apply` returns a new state and an
illegal action raises :class:`~scatlab.errors.IllegalActionError` (saying why, with the rule
code) while the state it was tried on stays as it was. Keep old states for undo.

Chance is explicit: between hands the state is in the ``DEAL`` phase and waits for a deck
order (:meth:`GameState.deal`), so a game is fully determined by its decks and actions,
which is what a game record stores.

Seats are numbered 0..n-1 clockwise: player ``i + 1`` sits to the left of player ``i``.

>>> from scatlab.cards import parse_cards, deck
>>> s = GameState.new("classic", players=2, dealer=0)
>>> order = parse_cards("2C 3C 4C 5C 6C 7C 8C") + tuple(c for c in deck() if c.index > 6)
>>> s = s.deal(order)     # player 1 (left of the dealer) gets 2C 4C 6C and begins
>>> s.to_move, s.hands[1], s.top_discard
(1, (Card('2C'), Card('4C'), Card('6C')), Card('8C'))
>>> [str(a) for a in s.legal_actions()]
['draw', 'take', 'knock']
>>> s2 = s.apply("take")
>>> s2.apply("discard 8C")
Traceback (most recent call last):
...
scatlab.errors.IllegalActionError: C5: a card taken from the discard pile may not be discarded in the same turn
(8C); discard one of 2C 4C 6C (refused: 'discard 8C')
>>> s.phase, s2.phase        # the original state is untouched
(<Phase.TURN: 'turn'>, <Phase.DISCARD: 'discard'>)
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..cards import Card, CardsLike, deck, format_cards, parse_cards
from ..checks import sequence, shown, whole_number
from ..errors import CardError, IllegalActionError, RulesError
from .actions import _DISCARDS, Action, ActionKind
from .options import RuleSet, find_rules
from .scoring import HandEnd, RuleNote, settle
from .values import blitz_of, is_flush, tiebreak_key, value_of
from .view import Event, PastHand, PlayerView

__all__ = ["Phase", "HandResult", "GameState", "deal_order", "MAX_PLAYERS", "MIN_PLAYERS"]

MIN_PLAYERS = 2
MAX_PLAYERS = 9
"""C2: 2 to 9 players (the source allows more; the engine caps at 9 so that a 32-card
deck still deals)."""

_THIRTY = Fraction(30)
MAX_SEAT_NAME = 40
"""The longest name a seat may be announced by (:attr:`GameState.seats`)."""


def check_seats(seats: object, players: int) -> tuple[str, ...]:
    """``seats`` as a tuple of names, one a seat (or none), else a :class:`RulesError`.

    >>> check_seats(["you", "tip"], 2)
    ('you', 'tip')
    >>> check_seats(("tip",), 2)
    Traceback (most recent call last):
    ...
    scatlab.errors.RulesError: seats=('tip',) names 1 seat, but the game has 2 players: name every seat, or none
    """
    names = tuple(sequence("seats", seats, "names, one a seat", error=RulesError, most=MAX_PLAYERS))
    if names and len(names) != players:
        raise RulesError(
            f"seats={shown(seats)} names {len(names)} seat{'s' * (len(names) != 1)}, but the game has "
            f"{players} players: name every seat, or none"
        )
    for name in names:
        if not isinstance(name, str) or not name.isprintable() or not 0 < len(name) <= MAX_SEAT_NAME:
            raise RulesError(
                f"seat name {shown(name)} is not allowed: give a printable text of 1 to "
                f'{MAX_SEAT_NAME} characters, such as "tip"'
            )
    return names


class Phase(str, enum.Enum):
    """Where a game stands."""

    DEAL = "deal"
    """Waiting for a deck order: the next hand is to be dealt (a chance node)."""
    DECLARE = "declare"
    """C10 with manual declaring: a player holding 31 may declare it or pass."""
    THROW_DOWN = "throw_down"
    """V11: the first player may throw down before looking, or pass."""
    TURN = "turn"
    """The start of a turn: draw, take, knock (and hammer, or pass when the stock is out)."""
    DISCARD = "discard"
    """After drawing or taking: discard a card (and maybe stop the bus first)."""
    GAME_OVER = "game_over"
    """One player remains (or a points target was reached)."""


@dataclass(frozen=True)
class HandResult:
    """How one hand ended and what it cost: the data behind every explanation.

    ``final`` and ``values`` have one entry per seat (an empty hand and ``None`` for
    players already out); ``values`` are the showdown values (an undeclared 31 counts as 30,
    C10). ``notes`` carry the rule codes that decided the outcome.
    """

    number: int
    dealer: int
    ended: HandEnd
    knocker: int | None
    declarers: tuple[int, ...]
    final: tuple[tuple[Card, ...], ...]
    values: tuple[Fraction | None, ...]
    lives_lost: tuple[int, ...]
    points_won: tuple[int, ...]
    lives_after: tuple[int, ...]
    points_after: tuple[int, ...]
    out_after: tuple[bool, ...]
    newly_out: tuple[int, ...]
    tie_break: bool
    notes: tuple[RuleNote, ...]

    @property
    def codes(self) -> tuple[str, ...]:
        """The rule codes that decided this hand, in order, without repeats."""
        return tuple(dict.fromkeys(n.code for n in self.notes))

    def explain(self) -> str:
        """The outcome in plain sentences, each with its rule code."""
        return "\n".join(str(n) for n in self.notes)


class _Log:
    """An immutable cons list of events: appending is O(1) and shares the tail."""

    __slots__ = ("prev", "event", "size")

    prev: _Log | None
    event: Event
    size: int

    def __init__(self, prev: _Log | None, event: Event) -> None:
        self.prev = prev
        self.event = event
        self.size = 1 if prev is None else prev.size + 1

    def items(self) -> tuple[Event, ...]:
        out: list[Event] = []
        node: _Log | None = self
        while node is not None:
            out.append(node.event)
            node = node.prev
        out.reverse()
        return tuple(out)


def _log_items(log: _Log | None) -> tuple[Event, ...]:
    return () if log is None else log.items()


class GameState:
    """One moment of a game of 31 under a :class:`RuleSet`. Immutable.

    Create with :meth:`new`, then :meth:`deal` a deck order, then :meth:`apply` actions
    from :meth:`legal_actions`. Between hands the phase is ``DEAL`` again; when one player
    remains it is ``GAME_OVER`` and :attr:`winner` is set.
    """

    __slots__ = (
        "rules",
        "num_players",
        "lives",
        "points",
        "out",
        "out_order",
        "dealer",
        "first_dealer",
        "phase",
        "to_move",
        "hands",
        "stock",
        "stock_pos",
        "discards",
        "taken",
        "drawn",
        "knocker",
        "stopper",
        "turns",
        "last_discarder",
        "undeclared",
        "declare_queue",
        "declared",
        "declare_context",
        "log",
        "decks",
        "logs",
        "past",
        "results",
        "winner",
        "seats",
    )

    rules: RuleSet
    num_players: int
    lives: tuple[int, ...]
    points: tuple[int, ...]
    out: tuple[bool, ...]
    out_order: tuple[int, ...]
    dealer: int
    first_dealer: int
    phase: Phase
    to_move: int | None
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    stock_pos: int
    discards: tuple[Card, ...]
    taken: Card | None
    drawn: Card | None
    knocker: int | None
    stopper: int | None
    turns: tuple[int, ...]
    last_discarder: int | None
    undeclared: frozenset[int]
    declare_queue: tuple[int, ...]
    declared: tuple[int, ...]
    declare_context: str
    log: _Log | None
    decks: tuple[tuple[Card, ...], ...]
    seats: tuple[str, ...]
    """Who sits at each seat, as the table announces it (public, e.g. ``("you", "tip",
    "expert")``); empty when nobody was announced."""
    logs: tuple[tuple[Event, ...], ...]
    past: tuple[tuple[PastHand, ...], ...]
    """Per seat, the finished hands as that player saw them (public logs and final piles),
    extended when a hand ends."""
    results: tuple[HandResult, ...]
    winner: int | None

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("GameState is immutable: apply() returns a new state")

    # -- construction ------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        rules: RuleSet | str | Mapping[str, Any] = "classic",
        players: int = 3,
        dealer: int = 0,
        seats: Sequence[str] = (),
    ) -> GameState:
        """A game before its first deal (phase ``DEAL``). ``seats``: who sits at each seat, as
        the table announces it to everyone (one short name a seat, e.g. the player kinds of
        :func:`scatlab.players.make_player`), or none.

        >>> GameState.new("quick", players=4, dealer=2).lives
        (3, 3, 3, 3)
        >>> GameState.new("classic", 2, seats=("you", "tip")).view(0).seats
        ('you', 'tip')
        """
        ruleset = find_rules(rules)
        if not isinstance(players, int) or isinstance(players, bool) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise RulesError(
                f"players={shown(players)} is not allowed: 31 is played by {MIN_PLAYERS} to {MAX_PLAYERS} players (C2)"
            )
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < players:
            raise RulesError(f"dealer={shown(dealer)} is not allowed: use a seat from 0 to {players - 1}")
        s = object.__new__(cls)
        init = object.__setattr__
        init(s, "rules", ruleset)
        init(s, "num_players", players)
        init(s, "lives", (ruleset.lives,) * players)
        init(s, "points", (0,) * players)
        init(s, "out", (False,) * players)
        init(s, "out_order", ())
        init(s, "dealer", dealer)
        init(s, "first_dealer", dealer)
        init(s, "decks", ())
        init(s, "logs", ())
        init(s, "past", ((),) * players)
        init(s, "results", ())
        init(s, "winner", None)
        init(s, "seats", check_seats(seats, players))
        cls._clear_hand(s, Phase.DEAL)
        return s

    def announced(self, seats: Sequence[str]) -> GameState:
        """This game with ``seats`` announced as who sits at each seat (see :meth:`new`)."""
        s = object.__new__(GameState)
        _copy_slots(self, s)
        object.__setattr__(s, "seats", check_seats(seats, self.num_players))
        return s

    @staticmethod
    def _clear_hand(s: GameState, phase: Phase) -> None:
        init = object.__setattr__
        init(s, "phase", phase)
        init(s, "to_move", None)
        init(s, "hands", ((),) * s.num_players)
        init(s, "stock", ())
        init(s, "stock_pos", 0)
        init(s, "discards", ())
        init(s, "taken", None)
        init(s, "drawn", None)
        init(s, "knocker", None)
        init(s, "stopper", None)
        init(s, "turns", (0,) * s.num_players)
        init(s, "last_discarder", None)
        init(s, "undeclared", frozenset())
        init(s, "declare_queue", ())
        init(s, "declared", ())
        init(s, "declare_context", "")
        init(s, "log", None)

    def _copy(self) -> GameState:
        s = object.__new__(GameState)
        _copy_slots(self, s)
        return s

    # -- public read-only properties ---------------------------------------------------

    @property
    def active(self) -> tuple[int, ...]:
        """Seats still in the game, in seat order."""
        return tuple(p for p in range(self.num_players) if not self.out[p])

    @property
    def hand_number(self) -> int:
        """How many hands have been dealt (the current hand's number, from 1)."""
        return len(self.decks)

    @property
    def top_discard(self) -> Card | None:
        """The top card of the discard pile."""
        return self.discards[-1] if self.discards else None

    @property
    def stock_size(self) -> int:
        """Cards left in the stock."""
        return len(self.stock) - self.stock_pos

    @property
    def remaining_stock(self) -> tuple[Card, ...]:
        """The stock, top first (hidden information: views never include it)."""
        return self.stock[self.stock_pos :]

    @property
    def events(self) -> tuple[Event, ...]:
        """The current hand's log, in order."""
        return _log_items(self.log)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.phase is Phase.GAME_OVER

    def _seat(self, player: object) -> int:
        """``player`` if it is a seat of this game, else IllegalActionError."""
        if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < self.num_players:
            raise IllegalActionError(f"player={shown(player)} is not a seat: use 0 to {self.num_players - 1}")
        return player

    def value(self, player: int) -> Fraction:
        """The exact value of ``player``'s current hand."""
        return value_of(self.hands[self._seat(player)], self.rules)

    def standing(self, player: int) -> str:
        """A player's standing in words: lives (C13), letters (V14), bus position (V15) or
        points (V16).

        >>> GameState.new("classic", 2).standing(0), GameState.new("gin", 2).standing(1)
        ('3 lives', 'no letters')
        """
        player = self._seat(player)
        rules = self.rules
        keeping = rules.score_keeping
        if keeping == "points":
            n = self.points[player]
            return f"{n} point{'s' if n != 1 else ''}"
        if self.out[player]:
            return "off the bus" if keeping == "bus" else "out"
        lives = self.lives[player]
        if keeping == "gin":
            letters = "GIN"[: rules.lives - lives]
            return f"letters {letters}" if letters else "no letters"
        if keeping == "bus":
            return rules.bus_steps[len(rules.bus_steps) - lives]
        if lives == 0:
            return "on the county"
        return f"{lives} li{'ves' if lives != 1 else 'fe'}"

    def next_seat(self, player: int) -> int:
        """The next seat clockwise after ``player`` that is still in the game."""
        return self._next_seat(self._seat(player))

    def _next_seat(self, player: int) -> int:
        n = self.num_players
        for k in range(1, n + 1):
            q = (player + k) % n
            if not self.out[q]:
                return q
        raise AssertionError("no player is in the game")  # pragma: no cover

    # -- dealing -----------------------------------------------------------------------

    def deal(self, order: CardsLike) -> GameState:
        """Deal a hand from ``order``, the whole deck top first (C3).

        ``order[0]`` goes to the dealer's left, one card at a time clockwise over the players
        still in, until each has three; the next card starts the discard pile and the rest
        is the stock, top first. A player dealt 31 declares it at once (C9).
        """
        if self.phase is not Phase.DEAL:
            raise IllegalActionError(f"cannot deal now: the game is in the {self.phase.value!r} phase, not 'deal'")
        cards = parse_cards(order, deck_size=self.rules.deck_size, what="cards in the deck")
        if len(cards) != self.rules.deck_size:
            missing = [c for c in deck(self.rules.deck_size) if c not in set(cards)]
            raise CardError(
                f"the deck has {len(cards)} cards, but the {self.rules.name} rules use {self.rules.deck_label}; "
                f"missing: {format_cards(missing)}"
            )
        s = self._copy()
        init = object.__setattr__
        GameState._clear_hand(s, Phase.TURN)
        seats = [self._next_seat(self.dealer)]
        while len(seats) < len(self.active):
            seats.append(self._next_seat(seats[-1]))
        m = len(seats)
        hands: list[tuple[Card, ...]] = [()] * self.num_players
        for i in range(3 * m):
            hands[seats[i % m]] += (cards[i],)
        init(s, "hands", tuple(hands))
        init(s, "discards", (cards[3 * m],))
        init(s, "stock", cards[3 * m + 1 :])
        init(s, "decks", self.decks + (cards,))
        init(s, "to_move", seats[0])
        blitzers = tuple(p for p in seats if blitz_of(hands[p], self.rules))
        if blitzers:
            if self.rules.declare == "auto":
                return s._end_hand("dealt_31", None, blitzers)
            init(s, "phase", Phase.DECLARE)
            init(s, "declare_queue", blitzers)
            init(s, "declare_context", "dealt")
            init(s, "to_move", blitzers[0])
            return s
        s._start_play()
        return s

    def _start_play(self) -> None:
        first = self._next_seat(self.dealer)
        object.__setattr__(self, "to_move", first)
        object.__setattr__(self, "phase", Phase.THROW_DOWN if self.rules.throw_down else Phase.TURN)

    # -- legal actions -----------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Exactly the actions the player to move may take now (empty while dealing and
        when the game is over)."""
        phase = self.phase
        p = self.to_move
        if phase is Phase.DISCARD:
            assert p is not None
            taken = self.taken
            acts = [_DISCARDS[c.index] for c in self.hands[p] if c is not taken]
            if self.rules.bus_stop and self.stopper is None and self.knocker is None and self.turns[p] > 0:
                acts.append(Action.STOP_BUS)
            return acts
        if phase is Phase.TURN:
            assert p is not None
            acts = []
            stock_left = self.stock_pos < len(self.stock)
            if stock_left:
                acts.append(Action.DRAW)
            if self._may_take(p):
                acts.append(Action.TAKE)
            if self.knocker is None and stock_left:  # C11: an empty stock leaves take or pass
                if self._knock_refusal(p) is None:
                    acts.append(Action.KNOCK)
                if self.rules.hammer and self._is_very_first_turn():
                    acts.append(Action.HAMMER)
            if not stock_left:
                acts.append(Action.PASS)
            return acts
        if phase is Phase.DECLARE:
            return [Action.DECLARE, Action.PASS]
        if phase is Phase.THROW_DOWN:
            return [Action.THROW_DOWN, Action.PASS]
        return []

    def _may_take(self, p: int) -> bool:
        if not self.discards:
            return False
        if self.last_discarder != p:
            return True
        # C12: only two players left and the opponent knocked: take back your own discard.
        return self.rules.take_back and self.knocker is not None and self.knocker != p and len(self.active) == 2

    def _is_very_first_turn(self) -> bool:
        return not any(self.turns)

    def _knock_refusal(self, p: int) -> str | None:
        """Why ``p`` may not knock now (None: they may)."""
        rules = self.rules
        if self.knocker is not None:
            return f"C6: player {self.knocker} has already knocked; only one knock a hand"
        if rules.no_knock_first_round and self.turns[p] == 0:
            return "V6: no knocking in the first round"
        hand = self.hands[p]
        if rules.min_knock is not None:
            v = value_of(hand, rules)
            if v < rules.min_knock:
                return f"V4: a knock needs at least {rules.min_knock}; {format_cards(hand)} is worth {v}"
        if rules.knock_needs_flush and not is_flush(hand):
            return f"V5: a knock needs three cards of one suit; {format_cards(hand)} is not"
        return None

    def can(self, action: Action | str) -> bool:
        """Whether ``action`` is legal now."""
        try:
            act = action if isinstance(action, Action) else Action.parse(action)
        except IllegalActionError:
            return False
        return act in self.legal_actions()

    def check(self, action: Action | str) -> Action:
        """Return the action if it is legal now; otherwise raise
        :class:`IllegalActionError` saying why (with the rule code)."""
        act = action if isinstance(action, Action) else Action.parse(action)
        if act in self.legal_actions():
            return act
        raise IllegalActionError(self._refusal(action, act))

    def _refusal(self, action: object, act: Action) -> str:
        """Why ``act`` is illegal now; an action given as text is quoted as given (an
        :class:`Action` is named by the reason itself)."""
        reason = self._why_illegal(act)
        return reason if isinstance(action, Action) else f"{reason} (refused: {shown(action)})"

    def _why_illegal(self, act: Action) -> str:
        phase = self.phase
        p = self.to_move
        kind = act.kind
        legal = ", ".join(str(a) for a in self.legal_actions())
        if phase is Phase.GAME_OVER:
            return f"the game is over (player {self.winner} won); no action is possible"
        if phase is Phase.DEAL:
            return "the next hand has not been dealt yet: deal a deck first"
        assert p is not None
        if phase is Phase.DISCARD:
            if kind is ActionKind.DISCARD:
                if act.card is self.taken:
                    rest = format_cards(c for c in self.hands[p] if c is not self.taken)
                    return (
                        f"C5: a card taken from the discard pile may not be discarded in the same turn "
                        f"({act.card}); discard one of {rest}"
                    )
                return f"C5: player {p} does not hold {act.card}; discard one of {format_cards(self.hands[p])}"
            if kind is ActionKind.STOP_BUS:
                if not self.rules.bus_stop:
                    return "V19: these rules have no bus stop"
                if self.turns[p] == 0:
                    return "V19: the bus cannot be stopped in your first turn"
                return "V19: the hand is already ending (a knock or a stop was called)"
            return f"C5: player {p} has drawn and must now discard ({legal})"
        if phase is Phase.DECLARE:
            return f"C10: player {p} holds 31 and must declare it or pass ({legal})"
        if phase is Phase.THROW_DOWN:
            return f"V11: player {p} first decides whether to throw down ({legal})"
        # Phase.TURN
        if kind is ActionKind.DISCARD:
            return f"C5: player {p} must draw or take a card before discarding ({legal})"
        if kind is ActionKind.DRAW:
            return "C11: the stock is exhausted: take the discard or pass"
        if kind is ActionKind.TAKE:
            if self.last_discarder == p:
                if len(self.active) == 2 and self.knocker is not None and not self.rules.take_back:
                    return "C12: these rules do not let you take back your own discard"
                return (
                    f"C12: the top discard ({self.top_discard}) is player {p}'s own; it may be taken back "
                    "only when two players are left and the opponent knocked"
                )
            return "C5: there is no discard to take"
        if kind is ActionKind.KNOCK:
            if self.stock_pos >= len(self.stock):
                return "C11: the stock is exhausted: take the discard or pass"
            reason = self._knock_refusal(p)
            return reason or "C6: knocking is not possible now"
        if kind is ActionKind.HAMMER:
            if not self.rules.hammer:
                return "V10: these rules have no hammer"
            return "V10: only the first player, on the very first turn, may call a hammer"
        if kind is ActionKind.PASS:
            return f"C11: passing ends the hand only when the stock is exhausted ({legal})"
        if kind is ActionKind.THROW_DOWN:
            return "V11: a throw-down is called before the first turn, and only if the rules allow it"
        if kind is ActionKind.STOP_BUS:
            return "V19: the bus is stopped after drawing, before discarding"
        return f"{act} is not possible now ({legal})"  # DECLARE outside the declare phase

    # -- applying actions --------------------------------------------------------------

    def apply(self, action: Action | str) -> GameState:
        """The state after the player to move takes ``action`` (an :class:`Action` or text
        such as ``"discard 4C"``). Illegal actions raise :class:`IllegalActionError`;
        ``self`` never changes."""
        act = action if isinstance(action, Action) else Action.parse(action)
        if act not in self.legal_actions():
            raise IllegalActionError(self._refusal(action, act))
        return self._do(act)

    def apply_for(self, player: int, action: Action | str) -> GameState:
        """:meth:`apply`, first checking that ``player`` is the one to move."""
        player = self._seat(player)
        if player != self.to_move:
            if self.to_move is None:
                raise IllegalActionError(f"player {player} cannot act: {self._why_illegal(Action.PASS)}")
            raise IllegalActionError(f"it is player {self.to_move}'s turn, not player {player}'s")
        return self.apply(action)

    def _do(self, act: Action) -> GameState:
        s = self._copy()
        p = self.to_move
        assert p is not None
        init = object.__setattr__
        kind = act.kind
        if kind is ActionKind.DISCARD:
            card = act.card
            hand = tuple(c for c in self.hands[p] if c is not card)
            s._set_hand(p, hand)
            init(s, "discards", self.discards + (card,))
            init(s, "last_discarder", p)
            init(s, "taken", None)
            init(s, "drawn", None)
            s._bump_turn(p)
            init(s, "log", _Log(self.log, Event(p, act, card)))
            if p in self.undeclared:
                if card is self.drawn:
                    # C10: the same undeclared 31 kept: it cannot be claimed later.
                    return s._continue_after_turn(p)
                init(s, "undeclared", self.undeclared - {p})
            if blitz_of(hand, self.rules):
                if self.rules.declare == "auto":
                    return s._end_hand("31", self.knocker, (p,))
                init(s, "phase", Phase.DECLARE)
                init(s, "declare_queue", (p,))
                init(s, "declare_context", "turn")
                return s
            return s._continue_after_turn(p)
        if kind is ActionKind.DRAW:
            card = self.stock[self.stock_pos]
            init(s, "stock_pos", self.stock_pos + 1)
            s._set_hand(p, self.hands[p] + (card,))
            init(s, "drawn", card)
            init(s, "phase", Phase.DISCARD)
            init(s, "log", _Log(self.log, Event(p, act, card)))
            return s
        if kind is ActionKind.TAKE:
            card = self.discards[-1]
            init(s, "discards", self.discards[:-1])
            s._set_hand(p, self.hands[p] + (card,))
            init(s, "taken", card)
            init(s, "phase", Phase.DISCARD)
            init(s, "log", _Log(self.log, Event(p, act, card)))
            return s
        init(s, "log", _Log(self.log, Event(p, act)))
        if kind is ActionKind.KNOCK:
            init(s, "knocker", p)
            s._bump_turn(p)
            return s._continue_after_turn(p)
        if kind is ActionKind.HAMMER:
            return s._end_hand("hammer", p, ())
        if kind is ActionKind.THROW_DOWN:
            return s._end_hand("throw_down", p, ())
        if kind is ActionKind.STOP_BUS:
            init(s, "stopper", p)
            return s
        if kind is ActionKind.DECLARE:
            init(s, "declared", self.declared + (p,))
            return s._next_declarer()
        # PASS
        if self.phase is Phase.THROW_DOWN:
            init(s, "phase", Phase.TURN)
            return s
        if self.phase is Phase.DECLARE:
            init(s, "undeclared", self.undeclared | {p})
            return s._next_declarer()
        return s._end_hand("stock_exhausted", self.knocker, ())

    def _set_hand(self, p: int, hand: tuple[Card, ...]) -> None:
        hands = list(self.hands)
        hands[p] = hand
        object.__setattr__(self, "hands", tuple(hands))

    def _bump_turn(self, p: int) -> None:
        turns = list(self.turns)
        turns[p] += 1
        object.__setattr__(self, "turns", tuple(turns))

    def _continue_after_turn(self, p: int) -> GameState:
        """After ``p``'s discard (or knock): a stopped bus ends the hand, and so does the
        turn coming back to the knocker (C6); otherwise the next player moves."""
        if self.stopper == p:
            return self._end_hand("bus_stop", p, ())
        nxt = self._next_seat(p)
        if nxt == self.knocker:
            return self._end_hand("knock", self.knocker, ())
        object.__setattr__(self, "to_move", nxt)
        object.__setattr__(self, "phase", Phase.TURN)
        return self

    def _next_declarer(self) -> GameState:
        queue = self.declare_queue[1:]
        init = object.__setattr__
        init(self, "declare_queue", queue)
        if queue:
            init(self, "to_move", queue[0])
            return self
        declared = self.declared
        init(self, "declared", ())
        if self.declare_context == "dealt":
            if declared:
                return self._end_hand("dealt_31", None, declared)
            self._start_play()
            return self
        p = self.to_move
        assert p is not None
        if declared:
            return self._end_hand("31", self.knocker, declared)
        return self._continue_after_turn(p)

    # -- ending a hand -----------------------------------------------------------------

    def _showdown_key(self, p: int) -> tuple[Fraction | int, ...]:
        key = tiebreak_key(self.hands[p], self.rules)
        if p in self.undeclared and key[0] >= 31:
            return (_THIRTY, *key[1:])  # C10: an undeclared 31 counts as 30
        return key

    def _end_hand(self, ended: HandEnd, knocker: int | None, declarers: tuple[int, ...]) -> GameState:
        rules = self.rules
        n = self.num_players
        players = self.active
        keys = {p: self._showdown_key(p) for p in players}
        result = settle(rules, ended, players=players, keys=keys, knocker=knocker, declarers=declarers)
        notes = list(result.notes)
        if self.undeclared:
            for p in sorted(self.undeclared):
                notes.append(RuleNote("C10", f"player {p}'s undeclared 31 counts as 30"))
        lives = list(self.lives)
        out = list(self.out)
        lost = [0] * n
        newly_out: list[int] = []
        tie_break = False
        if rules.score_keeping != "points":
            tie_break = self._lose_lives(result.losses, ended, notes, lives, out, lost, newly_out)
        points = list(self.points)
        won = [0] * n
        for p, k in result.points.items():
            won[p] = k
            points[p] += k
        hand_result = HandResult(
            number=len(self.decks),
            dealer=self.dealer,
            ended=ended,
            knocker=knocker,
            declarers=tuple(declarers),
            final=self.hands,
            values=tuple(Fraction(keys[p][0]) if p in keys else None for p in range(n)),
            lives_lost=tuple(lost),
            points_won=tuple(won),
            lives_after=tuple(lives),
            points_after=tuple(points),
            out_after=tuple(out),
            newly_out=tuple(newly_out),
            tie_break=tie_break,
            notes=tuple(notes),
        )
        init = object.__setattr__
        init(self, "lives", tuple(lives))
        init(self, "points", tuple(points))
        init(self, "out", tuple(out))
        init(self, "out_order", self.out_order + tuple(newly_out))
        init(self, "results", self.results + (hand_result,))
        init(self, "logs", self.logs + (_log_items(self.log),))
        init(
            self,
            "past",
            tuple(
                seen + (PastHand(tuple(e.public(p) for e in self.logs[-1]), self.discards),)
                for p, seen in enumerate(self.past)
            ),
        )
        winner = self._find_winner()
        final_hands = self.hands
        GameState._clear_hand(self, Phase.DEAL)
        init(self, "hands", final_hands)  # shown at the end of the hand until the next deal
        if winner is not None:
            init(self, "winner", winner)
            init(self, "phase", Phase.GAME_OVER)
        else:
            init(self, "dealer", self._next_seat(self.dealer))
        return self

    def _lose_lives(
        self,
        losses: Mapping[int, int],
        ended: HandEnd,
        notes: list[RuleNote],
        lives: list[int],
        out: list[bool],
        lost: list[int],
        newly_out: list[int],
    ) -> bool:
        """The hand's ``losses`` taken from the lives (C13, V12, V14, V15): fills ``lives``,
        ``out``, ``lost`` and ``newly_out`` and adds the notes; True when the hand would
        have put every remaining player out and is played again to break the tie (C14, V9)."""
        rules = self.rules
        players = self.active
        floor = 0 if rules.county else 1
        after = {p: self.lives[p] - losses[p] for p in players}
        gone = [p for p in players if after[p] < floor]
        tie_break = bool(gone) and len(gone) == len(players)
        if tie_break:
            # C14 / V9: the hand would put every remaining player out; they stay in at
            # the lowest standing (on the county) and play on to break the tie.
            for p in players:
                after[p] = max(after[p], floor)
            gone = []
            if all(self.lives[p] == floor for p in players) and ended == "stock_exhausted":
                notes.append(
                    RuleNote("C14", "everyone left is on the county and tied: a draw game, the hand is replayed")
                )
            else:
                notes.append(
                    RuleNote(
                        "V9",
                        "every remaining player would be out at once: they stay in "
                        "at their last standing and play another hand to break the tie",
                    )
                )
        for p in players:
            lost[p] = self.lives[p] - after[p]
            lives[p] = max(after[p], 0)  # a player out has no lives, never fewer
        for p in gone:
            out[p] = True
            newly_out.append(p)
        if rules.county:
            for p in players:
                if lives[p] == 0 and p not in gone and self.lives[p] > 0:
                    notes.append(RuleNote("C13", f"player {p} has no lives left and plays on, on the county"))
        for p in gone:
            notes.append(self._out_note(p))
        return tie_break

    def _out_note(self, p: int) -> RuleNote:
        """Why player ``p`` is out of the game, with the rule's code."""
        rules = self.rules
        if rules.score_keeping == "gin":
            code, why = "V14", "has all three letters, G-I-N"
        elif rules.score_keeping == "bus":
            code, why = "V15", "is off the bus"
        elif rules.county:
            code = "C13"
            why = "lost a life on the county" if self.lives[p] == 0 else "lost more lives than they had"
        else:
            code, why = "V12", "has no lives left"
        return RuleNote(code, f"player {p} {why}: out of the game")

    def _find_winner(self) -> int | None:
        if self.rules.score_keeping == "points":
            best = max(self.points)
            leaders = [p for p in range(self.num_players) if self.points[p] == best]
            if best >= self.rules.points_target and len(leaders) == 1:
                return leaders[0]
            return None
        active = self.active
        return active[0] if len(active) == 1 else None

    # -- views and records -------------------------------------------------------------

    def view(self, player: int) -> PlayerView:
        """What ``player`` may know now (see :class:`PlayerView`)."""
        player = self._seat(player)
        hand = self.hands[player]
        my_turn = self.to_move == player
        if self.phase is Phase.THROW_DOWN and my_turn:
            hand = ()  # V11: the throw-down is decided before looking at the cards
        return PlayerView(
            player=player,
            rules=self.rules,
            num_players=self.num_players,
            hand_number=self.hand_number,
            dealer=self.dealer,
            phase=self.phase,
            to_move=self.to_move,
            hand=hand,
            value=value_of(hand, self.rules) if len(hand) == 3 else None,
            discard_pile=self.discards,
            stock_size=self.stock_size,
            hand_sizes=tuple(len(h) for h in self.hands),
            lives=self.lives,
            points=self.points,
            out=self.out,
            knocker=self.knocker,
            taken=self.taken,
            drawn=self.drawn if my_turn else None,
            legal_actions=tuple(self.legal_actions()) if my_turn else (),
            history=tuple(e.public(player) for e in self.events),
            results=self.results,
            winner=self.winner,
            past_hands=self.past[player],
            seats=self.seats,
        )

    def hand_actions(self) -> tuple[tuple[Event, ...], ...]:
        """Every dealt hand's log, the current one last (possibly unfinished)."""
        if len(self.logs) < len(self.decks):
            return self.logs + (_log_items(self.log),)
        return self.logs

    def __repr__(self) -> str:
        return (
            f"<GameState {self.rules.name} players={self.num_players} hand={self.hand_number} "
            f"phase={self.phase.value} to_move={self.to_move} lives={self.lives}>"
        )


def _make_slot_copier() -> Any:
    """A straight-line function copying every slot of a GameState (copy-on-apply is the
    engine's hot path; a loop over getattr is three times slower)."""
    lines = ["def copy_slots(src, dst):", "    init = object.__setattr__"]
    lines += [f"    init(dst, {name!r}, src.{name})" for name in GameState.__slots__]
    namespace: dict[str, Any] = {}
    exec("\n".join(lines), namespace)
    return namespace["copy_slots"]


_copy_slots = _make_slot_copier()


def deal_order(
    hands: Sequence[CardsLike | None],
    up: CardsLike,
    stock: CardsLike = (),
    *,
    dealer: int = 0,
    rules: RuleSet | str = "classic",
) -> tuple[Card, ...]:
    """Build a full deck order that deals ``hands`` (one per seat, in seat order; ``None``
    for a seat that is out) with ``up`` as the first discard and ``stock`` on top of the
    stock; the rest of the deck follows in index order. Handy for scenario tests and
    lessons.

    >>> from scatlab.cards import format_cards
    >>> format_cards(deal_order(["AH KH 4C", "2S 3S 4S"], up="9S", stock="QH")[:8])
    '2S AH 3S KH 4S 4C 9S QH'
    """
    ruleset = find_rules(rules)
    sequence("hands", hands, "hands, one per seat (None for a seat that is out)", error=CardError)
    if not MIN_PLAYERS <= len(hands) <= MAX_PLAYERS:
        raise RulesError(f"{len(hands)} hands given: 31 is played by {MIN_PLAYERS} to {MAX_PLAYERS} players (C2)")
    whole_number("dealer", dealer, 0, len(hands) - 1, error=RulesError)
    seats = [None if h is None else parse_cards(h, count=3, what="cards in a hand") for h in hands]
    up_card = parse_cards(up, count=1, what="up card")
    on_stock = parse_cards(stock)
    parts = [(f"hand of seat {i}", h, c) for i, (h, c) in enumerate(zip(hands, seats)) if c is not None]
    first: dict[Card, tuple[str, object]] = {}
    for where, given, cards in [*parts, ("up card", up, up_card), ("stock", stock, on_stock)]:
        for card in cards:
            if card in first:
                other, other_given = first[card]
                raise CardError(
                    f"{card} is given twice, in the {other} ({shown(other_given)}) and in the {where} "
                    f"({shown(given)}): each card of the deck exists once"
                )
            first[card] = (where, given)
    n = len(seats)
    order: list[Card] = []
    for round_ in range(3):
        for k in range(1, n + 1):
            seat = seats[(dealer + k) % n]
            if seat is not None:
                order.append(seat[round_])
    order.extend(up_card)
    order.extend(on_stock)
    used = set(order)
    order.extend(c for c in deck(ruleset.deck_size) if c not in used)
    return parse_cards(order, deck_size=ruleset.deck_size)
