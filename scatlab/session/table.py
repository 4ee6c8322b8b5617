"""The card table's session: a whole game against computer players, as plain Python.

A :class:`TableSession` holds the game's states (for undo), the computer opponents, the seed,
the learner's seat and what the table shows. It imports no widget library: the
:class:`~scatlab.widgets.table.Table` widget only forwards clicks and keys to it and draws
:meth:`TableSession.model`, a plain :class:`TableModel` that tests compare with the state.

It holds no game logic: every move goes through :meth:`GameState.apply_for` (an illegal one
is refused with the engine's message and rule code, and nothing changes), the opponents are
:func:`scatlab.players.make_player` players that see only their own view, and the hints are
exactly ``analyze(view)`` of the **learner's** :class:`~scatlab.rules.PlayerView` (never the
state: the hints cannot reach a hidden card).

Nothing the table shows names a card the learner cannot see, and that holds for the computer
players' reasons too. A :class:`~scatlab.players.base.Decision`'s ``reason`` is the mover's
own and may name the cards in its hand, so while a hand is live "Why?" shows the mover's
:meth:`~scatlab.players.base.Player.public_reason` instead: built from the **learner's** view
of the moment before the move and the action only (what the learner saw happen, and what the
kind of player lets one infer), it cannot name a hidden card. Once the hand is over every
hand is face up (the showdown): "Why?" then gives the last move's own reason, and the
showdown lists every computer move of the hand with its own reason
(:attr:`ShowdownModel.reasons`); each card they name was in a hand that is now shown or went
to the discard pile. The next deal clears them.

Determinism: the deck of hand ``h`` is shuffled by ``random.Random(f"{seed}:deck:{h}")`` and
an opponent deciding at a moment uses ``random.Random(f"{seed}:{h}:{k}:{seat}")`` (``k`` the
number of actions already in the hand), so a seed replays a game, undo replays the same
future, and a loaded record continues with the same opponents' choices.

>>> s = TableSession("classic", opponents=("tip", "tip"), seed=7)
>>> m = s.model()
>>> m.seed, m.hand_number, m.to_move == m.seat, len(m.hand)
(7, 1, True, 3)
>>> s.click_stock().phase      # D: draw from the stock
'discard'
>>> s.click_stock().message    # a second draw is refused by the engine (in the learner's words), and nothing changes
'C5: you have drawn and must now discard (discard A♦, discard K♦, discard 6♠, discard 8♥)'
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from ..cards import Card, CardsLike, parse_card, parse_cards
from ..errors import AnalysisError, IllegalActionError, RecordError, RulesError, ScatlabError
from ..rules.actions import Action, ActionKind
from ..rules.options import RuleSet, find_rules
from ..rules.record import GameRecord, replay, shuffled_deck
from ..rules.rulebook import RuleEntry, rule_entry
from ..rules.state import GameState, HandResult, Phase
from ..rules.values import blitz_of, value_of
from ..rules.view import PlayerView, player_label
from ..analysis import move_words
from ..analysis import CLOSE_CALL, Ranking, prepare, win_level
from ..analysis import Analysis, analyze
from ..analysis import GameReview, review_game
from ..players.base import Decision, Player, make_player
from ..rules.values import pretty_value
from .wording import chance_words, counted_chance, learner_words

__all__ = [
    "TableSession",
    "TableModel",
    "SeatModel",
    "ESTIMATE",
    "HintsModel",
    "ChanceRow",
    "DrawChart",
    "ShowdownModel",
    "RuleModel",
    "ComputerMove",
    "MIN_SEATS",
    "MAX_SEATS",
]

MIN_SEATS = 2
MAX_SEATS = 6
"""The table seats 2 to 6 players (C2 allows up to 9; six fit a screen)."""

_BUTTON_LABELS = {
    ActionKind.KNOCK: "Knock (K)",
    ActionKind.PASS: "Pass",
    ActionKind.HAMMER: "Hammer",
    ActionKind.THROW_DOWN: "Throw down",
    ActionKind.STOP_BUS: "Stop the bus",
    ActionKind.DECLARE: "Declare 31",
}


@dataclass(frozen=True)
class RuleModel:
    """A rulebook entry as shown: code, title and the project's explanation."""

    code: str
    title: str
    text: str

    @classmethod
    def of(cls, code: str) -> RuleModel:
        entry: RuleEntry = rule_entry(code)
        return cls(entry.code, entry.title, entry.text)


@dataclass(frozen=True)
class SeatModel:
    """One seat as the learner sees it. ``cards`` are card codes (``"QH"``) when face up,
    else ``None`` per face-down card; ``value`` is shown only for a face-up hand."""

    seat: int
    name: str
    kind: str
    is_learner: bool
    cards: tuple[str | None, ...]
    value: str | None
    standing: str
    out: bool
    dealer: bool
    to_move: bool
    knocker: bool


@dataclass(frozen=True)
class DrawChart:
    """What the hints' chart shows: P(value) after drawing, the value to pick out in gold
    (taking the top discard, or the hand now) and the chart's title. The session only
    describes it; the table widget draws it."""

    distribution: Mapping[Fraction, Fraction]
    highlight: Fraction | None
    title: str

    def to_json(self) -> dict[str, Any]:
        """Exact values as strings: ``{"title", "highlight", "distribution": [[value, p], ...]}``."""
        return {
            "title": self.title,
            "highlight": None if self.highlight is None else str(self.highlight),
            "distribution": [[str(v), str(p)] for v, p in sorted(self.distribution.items())],
        }


ESTIMATE = "estimate"
"""The exact value of a hint row that has none (the table's script shows it as "an
estimate"): the figure is the engine's estimate (see docs/design/engine.md, "What is exact
and what is estimated")."""


@dataclass(frozen=True)
class ChanceRow:
    """One move's chance of winning the game as the hints show it: the move in the learner's
    words after "if you" (``"take the 7♠ (throwing the 10♥)"``), the level as shown
    (``"37.2%"``), the engine's estimate behind it (``win``), whether it is the advised move
    and whether it is a close call with it (within
    :data:`~scatlab.analysis.engine.scale.CLOSE_CALL`)."""

    move: str
    level: str
    win: Fraction
    advised: bool
    close: bool

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "level": self.level, "advised": self.advised, "close": self.close}


@dataclass(frozen=True)
class HintsModel:
    """Advice for the learner's decision, all from ``analysis = analyze(view)``.

    What the hints show **first**, on the one scale the advice decides by: ``chance_now``,
    the chance of winning the game from the standings (a level, ``"40.4%"``), and
    ``chances``, each move's chance of winning if it is made (:class:`ChanceRow`, best
    first: the advised move has the highest figure, or a close call within half a point of
    it); ``summary`` says the same in one sentence ("Your chance of winning the game: 40.4%
    now; 46.9% if you draw, …"); ``close`` says where the advice is a close call (else
    empty); ``thumb`` where it departs from a lesson's rule of thumb, with the figures that
    decide (:attr:`~scatlab.analysis.engine.advice.Advice.thumb`, else empty).

    Then, **on demand** (the table's "More figures"): ``advice_reason`` (the advice in full)
    and ``rows``, (label, exact value, display value) triples, the exact value
    :data:`~scatlab.session.ESTIMATE` for a figure the engine estimates (a knock's chances
    against two or more opponents, the chance that playing on costs a life); ``outs``; and
    ``chart``, the value distribution after drawing (None when no draw is possible), which
    the table widget draws (:func:`scatlab.widgets.chart.distribution_svg`). A chance of
    winning is always shown as a level, never as a signed change."""

    analysis: Analysis
    rows: tuple[tuple[str, str, str], ...]
    advice_action: str
    advice_discard: str | None
    advice_reason: str
    outs: tuple[str, ...]
    chart: DrawChart | None
    rule: RuleModel
    chance_now: str = ""
    chances: tuple[ChanceRow, ...] = ()
    summary: str = ""
    close: str = ""
    thumb: str = ""

    @property
    def advised(self) -> ChanceRow | None:
        """The advised move's row of :attr:`chances` (None without a ranking)."""
        return next((c for c in self.chances if c.advised), None)


@dataclass(frozen=True)
class ShowdownModel:
    """The end of a hand: every final hand face up with its value, what each seat lost or
    won, the engine's explanation (``HandResult.explain()``, in the learner's words:
    :meth:`TableSession.words`) and the rules it cites."""

    number: int
    ended: str
    knocker: int | None
    hands: tuple[tuple[int, tuple[str, ...], str | None], ...]
    outcome: tuple[str, ...]
    explain: str
    rules: tuple[RuleModel, ...]
    reasons: tuple[str, ...] = ()
    """Every computer move of the hand with the mover's own reason, in order, in the learner's
    words ("player 1 (expert) chose to discard 2♠: throws the 2♠, keeping …"): told once the
    hands are face up."""


@dataclass(frozen=True)
class TableModel:
    """Everything the table shows, as plain data (the widget draws exactly this)."""

    rules_name: str
    seed: int
    hand_number: int
    phase: str
    seat: int
    seats: tuple[SeatModel, ...]
    hand: tuple[str, ...]
    hand_value: str | None
    drawn: str | None
    taken: str | None
    stock_size: int
    top_discard: str | None
    discard_size: int
    dealer: int
    """The seat with the dealer badge: while a finished hand's result shows, that hand's
    dealer (the game has already passed the deal on, C3)."""
    to_move: int | None
    knocker: int | None
    my_turn: bool
    can_draw: bool
    can_take: bool
    can_knock: bool
    discardable: tuple[str, ...]
    buttons: tuple[tuple[str, str], ...]
    can_next_hand: bool
    waiting: bool
    status: str
    message: str
    """The engine's refusal of the last control (with its rule code at the front), in the
    learner's words (:meth:`TableSession.words`), or empty."""
    notice: str
    """A note on what the last control did (an undo, a loaded game), or empty."""
    log: tuple[str, ...]
    why: str | None
    """The last computer move of this hand and why, or None: while the hand is live its public
    reason (:meth:`~scatlab.players.base.Player.public_reason` of the learner's view), once
    the hand is over the mover's own reason."""
    hints: HintsModel | None
    rule: RuleModel | None
    showdown: ShowdownModel | None
    game_over: bool
    winner: int | None
    practice: bool
    can_undo: bool
    can_review: bool
    """The game is over: "Review this game" is offered (:meth:`TableSession.review`)."""

    def to_json(self) -> dict[str, Any]:
        """The model as JSON-ready data for the browser (the analysis object itself is left
        out; its numbers are in ``hints.rows``)."""
        data: dict[str, Any] = {}
        for name in self.__dataclass_fields__:
            data[name] = _jsonable(getattr(self, name))
        return data


def _jsonable(value: Any) -> Any:
    if isinstance(value, HintsModel):
        return {
            "rows": [list(r) for r in value.rows],
            "advice_action": value.advice_action,
            "advice_discard": value.advice_discard,
            "advice_reason": value.advice_reason,
            "outs": list(value.outs),
            "chart": value.chart.to_json() if value.chart is not None else None,
            "rule": _jsonable(value.rule),
            "chance_now": value.chance_now,
            "chances": [c.to_json() for c in value.chances],
            "summary": value.summary,
            "close": value.close,
            "thumb": value.thumb,
        }
    if hasattr(value, "__dataclass_fields__"):
        return {name: _jsonable(getattr(value, name)) for name in value.__dataclass_fields__}
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    return value


@dataclass(frozen=True)
class ComputerMove:
    """One computer move at the table: the seat and the hand, the mover's own
    :class:`~scatlab.players.base.Decision` (its ``reason`` may name the mover's hidden
    cards: shown only once the hand is over) and ``public``, what the learner is told while
    the hand is live (:meth:`~scatlab.players.base.Player.public_reason` of the learner's
    view just before the move)."""

    seat: int
    hand_number: int
    decision: Decision
    public: str


@dataclass
class _Snapshot:
    state: GameState
    last_decision: tuple[int, Decision] | None
    moves: tuple[ComputerMove, ...]


@dataclass
class TableSession:
    """A game at the table: the learner at ``seat`` against ``opponents`` (player kinds of
    :func:`scatlab.players.make_player`, one per other seat, clockwise from the seat after
    the learner's), under ``rules`` (a preset name, a :class:`RuleSet` or its options).

    ``seed`` (an int; None picks one) fixes every deck and every opponent's choice.
    ``deal`` gives the first hand's whole deck order (e.g. from
    :func:`scatlab.rules.deal_order`); ``dealer`` is the first dealer (by default the seat
    to the learner's right, so the learner plays first). ``auto_play`` runs the opponents
    at once after each learner move (the widget turns it off to show them one at a time).
    """

    rules: RuleSet | str | dict[str, Any] = "classic"
    opponents: Sequence[str] = ("tip", "tip")
    seat: int = 0
    seed: int | None = None
    hints: bool = True
    deal: CardsLike | None = None
    dealer: int | None = None
    auto_play: bool = True
    state: GameState = field(init=False)
    message: str = field(init=False, default="")
    notice: str = field(init=False, default="")
    practice: bool = field(init=False, default=False)
    last_decision: tuple[int, Decision] | None = field(init=False, default=None, repr=False)
    """The last computer move and the mover's own decision (its reason may name hidden cards:
    the table shows it only as :attr:`TableModel.why` allows; the repr leaves it out)."""
    moves: tuple[ComputerMove, ...] = field(init=False, default=(), repr=False)
    """The computer moves of the current hand (the finished one until the next deal)."""
    _ruleset: RuleSet = field(init=False, repr=False)
    _players: dict[int, Player] = field(init=False, repr=False)
    _kinds: dict[int, str] = field(init=False, repr=False)
    _history: list[_Snapshot] = field(init=False, repr=False)
    _hint_cache: tuple[PlayerView, HintsModel | None] | None = field(init=False, repr=False, default=None)

    def __post_init__(self) -> None:
        self._ruleset = find_rules(self.rules)
        kinds = tuple(self.opponents) if not isinstance(self.opponents, str) else (self.opponents,)
        n = len(kinds) + 1
        if not MIN_SEATS <= n <= MAX_SEATS:
            raise RulesError(
                f"opponents={kinds!r} makes {n} players: the table seats {MIN_SEATS} to {MAX_SEATS}, "
                f"so give 1 to {MAX_SEATS - 1} opponents"
            )
        if not isinstance(self.seat, int) or isinstance(self.seat, bool) or not 0 <= self.seat < n:
            raise RulesError(f"seat={self.seat!r} is not a seat: use 0 to {n - 1}")
        if self.dealer is not None and (
            not isinstance(self.dealer, int) or isinstance(self.dealer, bool) or not 0 <= self.dealer < n
        ):
            raise RulesError(f"dealer={self.dealer!r} is not a seat: use 0 to {n - 1}")
        others = [(self.seat + k) % n for k in range(1, n)]
        self._players = {s: make_player(kind) for s, kind in zip(others, kinds)}
        self._kinds = {s: str(kind).strip().lower() for s, kind in zip(others, kinds)}
        if self.seed is None:
            self.seed = random.SystemRandom().randrange(1, 1_000_000)
        elif not isinstance(self.seed, int) or isinstance(self.seed, bool) or self.seed < 0:
            raise RulesError(f"seed={self.seed!r} is not a seed: give a whole number 0 or more, or None")
        if self.hints:  # the ranking's exact tables (about 1 s) are built as the table opens, not on a click
            prepare(self._ruleset)
        self._start(self.deal)

    # -- set-up --------------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        """How many seats are at the table."""
        return len(self._players) + 1

    @property
    def seat_names(self) -> tuple[str, ...]:
        """Who sits at each seat, as the table announces it to every seat: ``"you"`` at the
        learner's, the opponents' player kinds at theirs (the engine reads a ``tip``
        player as casual and an ``expert`` or ``master`` as strong).

        >>> TableSession(opponents=("tip", "expert"), seed=1, hints=False).seat_names
        ('you', 'tip', 'expert')
        """
        return tuple("you" if s == self.seat else self._kinds[s] for s in range(self.num_players))

    @property
    def ruleset(self) -> RuleSet:
        """The rules in force."""
        return self._ruleset

    def _start(self, first_deal: CardsLike | None) -> None:
        n = self.num_players
        dealer = self.dealer if self.dealer is not None else (self.seat - 1) % n
        state = GameState.new(self._ruleset, n, dealer, self.seat_names)
        order = None
        if first_deal is not None:
            order = parse_cards(first_deal, deck_size=self._ruleset.deck_size, what="cards in the deck")
        self.state = state.deal(order if order is not None else self._deck(1))
        self.message = self.notice = ""
        self.practice = False
        self.last_decision = None
        self.moves = ()
        self._history = []
        self._hint_cache = None
        if self.auto_play:
            self.run_opponents()

    def _deck(self, hand_number: int) -> tuple[Card, ...]:
        return shuffled_deck(self._ruleset, random.Random(f"{self.seed}:deck:{hand_number}"))

    def new_game(self, seed: int | None = None, *, deal: CardsLike | None = None) -> TableModel:
        """Start again with ``seed`` (None: a fresh random seed) and, optionally, a given
        first deal (a whole deck order, e.g. from :func:`scatlab.rules.deal_order`)."""
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
            raise RulesError(f"seed={seed!r} is not a seed: give a whole number 0 or more, or None")
        self.seed = seed if seed is not None else random.SystemRandom().randrange(1, 1_000_000)
        self.deal = deal
        self._start(deal)
        return self.model()

    # -- moves ---------------------------------------------------------------------------

    @property
    def waiting(self) -> bool:
        """Whether a computer opponent is to move (the learner waits)."""
        mover = self.state.to_move
        return mover is not None and mover != self.seat and self.state.phase not in (Phase.DEAL, Phase.GAME_OVER)

    def step(self) -> Decision | None:
        """Let the opponent to move make one move (None when no opponent is to move). The
        learner is told its public reason, worded from the learner's view before the move
        (:class:`ComputerMove`). A refusal shown to the learner (``message``) was about the
        position before this move and goes with it."""
        if not self.waiting:
            return None
        state = self.state
        mover = state.to_move
        assert mover is not None
        player = self._players[mover]
        rng = random.Random(f"{self.seed}:{state.hand_number}:{len(state.events)}:{mover}")
        decision = player.decide(state.view(mover), rng)
        public = player.public_reason(decision.action, state.view(self.seat))
        self.state = state.apply_for(mover, decision.action)
        self.last_decision = (mover, decision)
        self.moves += (ComputerMove(mover, state.hand_number, decision, public),)
        self.message = ""
        return decision

    def run_opponents(self, limit: int = 10_000) -> int:
        """Let the opponents move until it is the learner's turn, the hand is over or the
        game is over; returns how many moves they made."""
        moves = 0
        while self.waiting and moves < limit:
            self.step()
            moves += 1
        return moves

    def play(self, action: Action | str) -> TableModel:
        """The learner's move. An illegal one (or one out of turn) is refused: the model's
        ``message`` carries the engine's reason and rule code (in the learner's words), and
        nothing changes."""
        try:
            act = action if isinstance(action, Action) else Action.parse(action)
            if self.waiting:
                raise IllegalActionError(
                    f"it is player {self.state.to_move}'s turn: wait for the computer players to move"
                )
            new = self.state.apply_for(self.seat, act)
        except ScatlabError as exc:
            self.message = str(exc)
            return self.model()
        self._history.append(_Snapshot(self.state, self.last_decision, self.moves))
        self.state = new
        self.message = self.notice = ""
        if self.auto_play:
            self.run_opponents()
        return self.model()

    def click_stock(self) -> TableModel:
        """What a click on the stock (or the key D) does: draw."""
        return self.play(Action.DRAW)

    def click_discard(self) -> TableModel:
        """What a click on the discard pile (or the key T) does: take its top card."""
        return self.play(Action.TAKE)

    def click_card(self, card: Card | str) -> TableModel:
        """What a click on a hand card (or Enter on it) does: discard it."""
        try:
            chosen = parse_card(card)
        except ScatlabError as exc:
            self.message = str(exc)
            return self.model()
        return self.play(Action.discard(chosen))

    def knock(self) -> TableModel:
        """The Knock button (or the key K)."""
        return self.play(Action.KNOCK)

    def next_hand(self) -> TableModel:
        """Deal the next hand (its deck comes from the seed) once a hand has been scored."""
        if self.state.phase is not Phase.DEAL:
            what = "the game is over" if self.state.is_over else "the current hand is still being played"
            self.message = f"cannot deal the next hand now: {what}"
            return self.model()
        self._history.append(_Snapshot(self.state, self.last_decision, self.moves))
        self.state = self.state.deal(self._deck(self.state.hand_number + 1))
        self.moves = ()  # the new hand's cards are face down again
        self.message = self.notice = ""
        if self.auto_play:
            self.run_opponents()
        return self.model()

    def undo(self) -> TableModel:
        """Take back the learner's last move (and the opponents' replies): the game is then
        marked as practice. Nothing to undo leaves a message."""
        if not self._history:
            self.message = "nothing to undo: no move of yours yet in this game"
            return self.model()
        snap = self._history.pop()
        self.state = snap.state
        self.last_decision = snap.last_decision
        self.moves = snap.moves
        self.message = ""
        self.notice = ("your last move was taken back" if self.practice
                       else "your last move was taken back: this game is now practice")
        self.practice = True
        return self.model()

    # -- records -------------------------------------------------------------------------

    def record_json(self) -> str:
        """The game so far as the engine's JSON record (:class:`GameRecord`)."""
        return GameRecord.from_state(self.state).dumps()

    def load_record(self, text: str | bytes) -> TableModel:
        """Continue a saved game: replay the engine's JSON record and carry on from where it
        stopped (the learner keeps their seat, the opponents their kinds; later decks come
        from this session's seed). A bad record is refused with the reason and changes
        nothing."""
        try:
            if isinstance(text, bytes):
                text = text.decode("utf-8")
            record = GameRecord.loads(text)
            if record.players != self.num_players:
                raise RecordError(
                    f"the record is a game of {record.players} players, but this table seats {self.num_players}: "
                    f"start a table with {record.players - 1} opponents to load it"
                )
            state = replay(record)
        except UnicodeDecodeError:
            self.message = "cannot load the file: a game record is UTF-8 JSON text"
            return self.model()
        except ScatlabError as exc:
            self.message = f"cannot load the record: {exc}"
            return self.model()
        self._ruleset = record.rules
        self.rules = record.rules
        self.state = state.announced(self.seat_names)  # the opponents keep their kinds, as the table says
        self._history = []
        self.last_decision = None
        self.moves = ()
        self._hint_cache = None
        self.practice = False
        self.message = ""
        self.notice = f"loaded a saved game: hand {state.hand_number}, {len(state.events)} moves into it"
        if self.auto_play:
            self.run_opponents()
        return self.model()

    def record(self) -> GameRecord:
        """The game so far as the engine's :class:`GameRecord` (every hand dealt)."""
        return GameRecord.from_state(self.state)

    def review(self) -> GameReview:
        """The review of the finished game, of the learner's seat only
        (:func:`scatlab.analysis.review_game` of :meth:`record` with ``player=seat``): every
        decision of the learner priced from the learner's own view, so no hidden card enters
        it. Offered once the game is over (``can_review``); before that it is refused with
        an :class:`~scatlab.errors.AnalysisError`.

        >>> from scatlab.rules import deal_order
        >>> s = TableSession({"lives": 1, "county": False}, opponents=("tip",), seed=1,
        ...                  deal=deal_order(["AH KH 4C", "2S 3S 5D"], up="QH", dealer=1), dealer=1)
        >>> s.model().can_review
        False
        >>> s.click_discard().phase, s.click_card("4C").can_review   # take the Q♥, throw the 4♣: 31
        ('discard', True)
        >>> [(d.player, d.played) for d in s.review().decisions]
        [(0, 'take'), (0, 'discard 4C')]
        """
        if not self.state.is_over:
            where = "between hands" if self.state.phase is Phase.DEAL else f"in hand {self.state.hand_number}"
            raise AnalysisError(f"the game is not over ({where}): a game is reviewed once it has ended")
        return review_game(self.record(), player=self.seat)

    # -- what to show --------------------------------------------------------------------

    def view(self) -> PlayerView:
        """The learner's view: the only thing the hints ever see."""
        return self.state.view(self.seat)

    def analysis(self) -> Analysis | None:
        """``analyze(view)`` of the learner's view when the learner has a decision with a
        hand to weigh (start of a turn or a discard), else None."""
        hints = self._hints(self.view())
        return hints.analysis if hints is not None else None

    def _hints(self, view: PlayerView) -> HintsModel | None:
        """The hints of ``view``: ``analyze(view, knock=False)``, whose advice is the first
        move of the one ranking (:func:`scatlab.analysis.engine.ranking.rank`, exact, milliseconds)
        and whose rows show the ranking's own figures."""
        if self._hint_cache is not None and self._hint_cache[0] == view:
            return self._hint_cache[1]
        hints = None
        if view.is_my_turn and view.phase in (Phase.TURN, Phase.DISCARD) and len(view.hand) in (3, 4):
            try:
                analysis = analyze(view, knock=False)
            except AnalysisError:  # pragma: no cover - every game position analyses
                analysis = None
            if analysis is not None:
                hints = _hints_model(analysis, view, self.governing_rule(view, analysis))
                hints = replace(  # the analysis's own texts (a knock refusal, the reason), in the learner's words
                    hints,
                    rows=tuple((self.words(label), exact, self.words(shown)) for label, exact, shown in hints.rows),
                    advice_reason=self.words(hints.advice_reason),
                    chances=tuple(replace(c, move=self.words(c.move)) for c in hints.chances),
                    summary=self.words(hints.summary),
                    close=self.words(hints.close),
                    thumb=self.words(hints.thumb),
                )
        self._hint_cache = (view, hints)
        return hints

    def governing_rule(self, view: PlayerView | None = None, analysis: Analysis | None = None) -> str:
        """The code of the rule that governs the learner's moment: the turn (C5), a knock
        in progress (C6), the empty stock (C11), a possible 31 (C8), a 31 passed (C10), the first-round
        knock ban (V6), a hammer (V10), a throw-down (V11), declaring (C9, C10), the bus
        stop (V19); after a hand, the rule that decided it; after the game, how it is kept."""
        view = view if view is not None else self.view()
        rules = self._ruleset
        phase = view.phase
        if phase is Phase.GAME_OVER:
            if rules.score_keeping == "lives" and not rules.county:
                return "V12"  # no county: no lives left means out
            return {"gin": "V14", "bus": "V15", "points": "V16"}.get(rules.score_keeping, "C13")
        if phase is Phase.DEAL:
            result = view.results[-1] if view.results else None
            return result.notes[0].code if result is not None and result.notes else "C3"
        if phase is Phase.THROW_DOWN:
            return "V11"
        if phase is Phase.DECLARE:
            return "C9" if self.state.declare_context == "dealt" else "C10"
        if not view.is_my_turn:
            return "C6" if view.knocker is not None else "C5"
        kinds = {a.kind for a in view.legal_actions}
        if phase is Phase.DISCARD:
            if any(value_of(tuple(c for c in view.hand if c is not d), rules) >= 31 for d in view.hand if d is not view.taken):
                return "C8"
            if ActionKind.STOP_BUS in kinds:
                return "V19"
            return "C5"
        if view.stock_size == 0:
            return "C11"
        if len(view.hand) == 3 and blitz_of(view.hand, rules):
            return "C10"  # a 31 held at the start of a turn was passed: it counts as 30
        if view.knocker is not None:
            return "C6"
        if ActionKind.HAMMER in kinds:
            return "V10"
        if analysis is not None and analysis.advice.action == "knock":
            return "C6"
        if ActionKind.KNOCK not in kinds and rules.no_knock_first_round:
            return "V6"
        return "C5"

    def standing(self, seat: int) -> str:
        """A seat's standing in the preset's own terms: pennies and "on the county"
        (C13), Cadillac nickels (V13), G-I-N letters (V14), bus positions (V15), points (V16)."""
        state, rules = self.state, self._ruleset
        if rules.score_keeping != "lives" or state.out[seat]:
            return state.standing(seat)
        lives = state.lives[seat]
        if lives == 0:
            return "on the county"
        coin = ("nickel", "nickels") if rules.grand_cadillac else ("penny", "pennies")
        return f"{lives} {coin[0] if lives == 1 else coin[1]}"

    def seat_name(self, seat: int) -> str:
        """``player 1 (you)`` or ``player 2 (tip)``: the names the seats are shown under,
        numbered from 1 (:func:`scatlab.rules.player_label`), with who sits there."""
        return f"{player_label(seat)} ({'you' if seat == self.seat else self._kinds[seat]})"

    def words(self, text: str) -> str:
        """An engine text (a refusal, a showdown note, a log line, a computer player's reason)
        as the table shows it to the learner (:func:`~scatlab.session.wording.learner_words`):
        the learner's seat is "you", the others are named as their seats are shown, cards
        are in symbols, and a rule code stays at the front. Every engine text the table
        shows goes through it.

        >>> s = TableSession("classic", opponents=("tip", "expert"), seed=7)
        >>> s.words("C6: player 2 has already knocked; only one knock a hand")
        'C6: player 3 (expert) has already knocked; only one knock a hand'
        >>> s.words("C5: player 0 does not hold 6H; discard one of AD KD 6S 8H")
        'C5: you do not hold 6♥; discard one of A♦ K♦ 6♠ 8♥'
        """
        names = {s: self.seat_name(s) for s in range(self.num_players) if s != self.seat}
        return learner_words(text, self.seat, names)

    def model(self) -> TableModel:
        """Everything the table shows now, computed from the learner's view (and, after a
        hand, the public result)."""
        state = self.state
        view = self.view()
        me = self.seat
        my_turn = view.is_my_turn and not self.waiting
        legal = view.legal_actions if my_turn else ()
        kinds = {a.kind for a in legal}
        showdown = self._showdown() if state.phase in (Phase.DEAL, Phase.GAME_OVER) and state.results else None
        final = {s: h for s, h, _ in showdown.hands} if showdown is not None else {}
        scored = {s: v for s, _, v in showdown.hands} if showdown is not None else {}  # the values scored
        mine = view.value
        if mine is not None and mine >= 31 and me in state.undeclared:
            mine = Fraction(30)  # C10: a 31 not declared at once counts as 30
        my_value = scored.get(me) or (pretty_value(mine) if mine is not None else None)
        # while a finished hand is on the table, its dealer keeps the badge (the next deals after it)
        dealer = state.results[-1].dealer if showdown is not None else state.dealer
        seats = []
        for s in range(state.num_players):
            if s == me:
                cards: tuple[str | None, ...] = tuple(str(c) for c in view.hand) if view.hand else (
                    (None,) * view.hand_sizes[s])
                value = my_value
            elif s in final:
                cards = final[s]
                value = scored.get(s)
            else:
                cards = (None,) * view.hand_sizes[s]
                value = None
            seats.append(SeatModel(
                seat=s,
                name=self.seat_name(s),
                kind="you" if s == me else self._kinds[s],
                is_learner=s == me,
                cards=cards,
                value=value,
                standing=self.standing(s),
                out=state.out[s],
                dealer=dealer == s,
                to_move=view.to_move == s,
                knocker=view.knocker == s,
            ))
        hints = self._hints(view) if self.hints and my_turn else None
        rule_code = hints.rule.code if hints is not None else self.governing_rule(view)
        events = view.history
        if not events and state.phase in (Phase.DEAL, Phase.GAME_OVER) and state.logs:
            events = tuple(e.public(me) for e in state.logs[-1])
        buttons = tuple(
            (a.kind.value, _BUTTON_LABELS[a.kind]) for a in legal if a.kind in _BUTTON_LABELS and a.kind is not ActionKind.KNOCK
        )
        why = None
        if self.moves:  # this hand's last computer move: its public reason until the hands are shown
            move = self.moves[-1]
            why = self._told(move, own=state.phase in (Phase.DEAL, Phase.GAME_OVER))
        return TableModel(
            rules_name=self._ruleset.name,
            seed=int(self.seed or 0),
            hand_number=state.hand_number,
            phase=state.phase.value,
            seat=me,
            seats=tuple(seats),
            hand=tuple(str(c) for c in view.hand),
            hand_value=my_value,
            drawn=str(view.drawn) if view.drawn is not None else None,
            taken=str(view.taken) if view.taken is not None and view.is_my_turn else None,
            stock_size=view.stock_size,
            top_discard=str(view.top_discard) if view.top_discard is not None else None,
            discard_size=len(view.discard_pile),
            dealer=dealer,
            to_move=view.to_move,
            knocker=view.knocker,
            my_turn=my_turn,
            can_draw=ActionKind.DRAW in kinds,
            can_take=ActionKind.TAKE in kinds,
            can_knock=ActionKind.KNOCK in kinds,
            discardable=tuple(str(a.card) for a in legal if a.kind is ActionKind.DISCARD),
            buttons=buttons,
            can_next_hand=state.phase is Phase.DEAL,
            waiting=self.waiting,
            status=self._status(view, my_turn, kinds),
            message=self.words(self.message),
            notice=self.words(self.notice),
            log=tuple(self.words(e.describe(pretty=True)) for e in events),
            why=why,
            hints=hints,
            rule=hints.rule if hints is not None else RuleModel.of(rule_code),
            showdown=showdown,
            game_over=state.is_over,
            winner=state.winner,
            practice=self.practice,
            can_undo=bool(self._history),
            can_review=state.is_over,
        )

    def _told(self, move: ComputerMove, own: bool) -> str:
        """A computer move as the learner is told it: its public reason, or (``own``, once
        the hand is over) the mover's own reason."""
        reason = move.decision.reason if own else move.public
        return f"{self.seat_name(move.seat)} chose to {self.words(str(move.decision.action))}: {self.words(reason)}"

    def _status(self, view: PlayerView, my_turn: bool, kinds: set[ActionKind]) -> str:
        state = self.state
        if state.is_over:
            who = self.words(f"player {state.winner} wins")
            return f"Game over: {who}. Review this game to see your costliest decisions, or start a new game."
        if state.phase is Phase.DEAL:
            return f"Hand {state.hand_number} is over. Deal the next hand (N) when you are ready."
        if not my_turn:
            playing = self.words(f"player {view.to_move} is playing")
            if self.state.out[self.seat]:
                return f"You are out of the game; {playing}."
            return f"{playing[:1].upper()}{playing[1:]}…"
        top = view.top_discard.pretty if view.top_discard is not None else ""
        if state.phase is Phase.DISCARD:
            extra = " or stop the bus" if ActionKind.STOP_BUS in kinds else ""
            keys = f"1-{len(view.hand)}" if len(view.hand) > 1 else "1"
            return f"Your turn: click a card of your hand to discard it, or press its number ({keys}){extra}."
        if state.phase is Phase.THROW_DOWN:
            return "Your turn: throw down (a showdown before looking at your cards) or pass."
        if state.phase is Phase.DECLARE:
            return "You hold 31: declare it, or pass (it then counts as 30)."
        options = []
        if ActionKind.DRAW in kinds:
            options.append("draw from the stock (D)")
        if ActionKind.TAKE in kinds:
            options.append(f"take the {top} (T)")
        if ActionKind.KNOCK in kinds:
            options.append("knock (K)")
        if ActionKind.HAMMER in kinds:
            options.append("hammer")
        if ActionKind.PASS in kinds:
            options.append("pass")
        said = ", ".join(options[:-1]) + (" or " if len(options) > 1 else "") + options[-1] if options else "wait"
        last = ""
        if view.knocker is not None:  # C6: one more turn each, then the showdown
            last = f" This is your last turn: {self.words(f'player {view.knocker} knocked')}."
        elif state.stopper is not None:  # V19 (public: the bus stop is announced)
            last = f" This is your last turn: {self.words(f'player {state.stopper} stopped the bus')}."
        return f"Your turn: {said}.{last}"

    def _showdown(self) -> ShowdownModel:
        result: HandResult = self.state.results[-1]
        hands = tuple(
            (s, tuple(str(c) for c in result.final[s]), pretty_value(v) if v is not None else None)
            for s, v in enumerate(result.values)
            if result.final[s]
        )
        outcome = []
        keeping = self._ruleset.score_keeping
        for s in range(self.state.num_players):
            lost, won = result.lives_lost[s], result.points_won[s]
            if keeping == "points":
                if won:
                    outcome.append(self.words(f"player {s} scores {won} point{'s' if won != 1 else ''}"))
                continue
            if not lost:
                continue
            unit = {"gin": ("letter", "letters"), "bus": ("step", "steps")}.get(
                keeping, ("nickel", "nickels") if self._ruleset.grand_cadillac else ("penny", "pennies"))
            verb = "gets" if keeping == "gin" else ("moves up" if keeping == "bus" else "loses")
            after = "out" if result.out_after[s] else self.state.standing(s) if keeping != "lives" else (
                "on the county" if result.lives_after[s] == 0 else f"{result.lives_after[s]} left")
            outcome.append(self.words(f"player {s} {verb} {lost} {unit[0] if lost == 1 else unit[1]} ({after})"))
        if not outcome:
            outcome.append("nobody loses anything this hand")
        return ShowdownModel(
            number=result.number,
            ended=result.ended,
            knocker=result.knocker,
            hands=hands,
            outcome=tuple(outcome),
            explain=self.words(result.explain()),
            rules=tuple(RuleModel.of(c) for c in result.codes),
            reasons=tuple(self._told(m, own=True) for m in self.moves if m.hand_number == result.number),
        )


def _num(value: Fraction) -> tuple[str, str]:
    exact = str(value)
    shown = pretty_value(value) if value.denominator in (1, 2) else f"{float(value):.2f}"
    return exact, shown


def _pct(p: Fraction, exact: bool = True) -> tuple[str, str]:
    return str(p) if exact else ESTIMATE, chance_words(p)


def _counted(p: Fraction, unseen: int) -> tuple[str, str]:
    """A chance counted over the unseen cards: ``3/48`` and "3 in 48 (about 6%)"."""
    n = p * unseen
    assert n.denominator == 1, (p, unseen)
    return f"{n.numerator}/{unseen}", counted_chance(n.numerator, unseen)


def _sentence(text: str) -> str:
    """``text`` as a sentence: a capital first, a full stop last."""
    text = text.strip()
    if not text:
        return ""
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def _chances(ranking: Ranking, advised: Action) -> tuple[ChanceRow, ...]:
    """Every move's chance of winning the game as a level, best first (the ranking's order),
    the advised one marked."""
    k = ranking.position.knowledge
    return tuple(ChanceRow(move_words(m, k), win_level(m.win), m.win, m.action == advised, m.close)
                 for m in ranking.moves)


def _summary(now: str, chances: Sequence[ChanceRow]) -> str:
    """The chances as one sentence, levels only: "Your chance of winning the game: 40.4% now;
    46.9% if you draw, 46.0% if you take the 3♥ (throwing the 6♠)."."""
    moves = ", ".join(f"{c.level} if you {c.move}" for c in chances)
    return f"Your chance of winning the game: {now} now; {moves}."


def _close_words(chances: Sequence[ChanceRow]) -> str:
    """Where the advice is a close call, the sentence that says so, with both levels."""
    best = next((c for c in chances if c.advised), None)
    close = [c for c in chances if c.close and not c.advised]
    if best is None or not close:
        return ""
    said = [f"{c.level} if you {c.move}" for c in close]
    others = said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]
    return (f"A close call: {others} against {best.level} if you {best.move}, within "
            f"{float(CLOSE_CALL) * 100:.1f}%, closer than the estimates can tell apart: "
            "either is a good move.")


def _hints_model(analysis: Analysis, view: PlayerView, rule_code: str) -> HintsModel:
    """The hints of one analysis (its numbers, unchanged). First, the chance of winning the
    game as levels (now, and if each move is made: the figure the advice decides by), a
    close call and the rule of thumb the advice departs from; then, on demand, the figures
    they are built from: the one-turn odds, the hand value ``horizon`` turns ahead of the
    ways of playing on, and for a move that ends the hand its chances of losing lives
    beside the chance that playing on costs a life."""
    rows: list[tuple[str, str, str]] = [("your hand is worth now", *_num(analysis.value))]
    turn = analysis.turn
    for option in turn.discards:
        kept = " ".join(c.pretty for c in view.hand if c is not option.discard)
        rows.append((f"throw the {option.discard.pretty} (keep {kept}): worth", *_num(option.value)))
    draw = turn.draw
    if draw is not None:
        rows.append(("draw: worth on average after this one draw", *_num(draw.expected_value)))
        rows.append(("draw: chance of 31", *_counted(draw.p_31, draw.unseen)))
        rows.append(("draw: chance of a better hand", *_counted(draw.p_improve, draw.unseen)))
    ranking = analysis.ranking
    taken_now: Fraction | None = None
    if turn.take is not None:  # the hand now after the take the ranking plays (its throw, not another)
        then = ranking.move(Action.TAKE).then if ranking is not None and ActionKind.TAKE in ranking.position.kinds \
            else None
        option = next((o for o in turn.take.options if o.discard == then), turn.take.best)
        taken_now = option.value
        rows.append((f"take the {turn.take.card.pretty}, throw the {option.discard.pretty}: worth now",
                     *_num(option.value)))
    if ranking is not None:
        # the figures the chance of winning is built from: looking five turns ahead (lesson
        # 6 names it), or the hand now on a last turn
        ahead = "worth now (last turn)" if ranking.horizon == 0 else f"worth on average, looking {ranking.ahead}"
        for move in ranking.moves:  # the ways of playing on (a discard's own row shows it now; the reason, ahead)
            if move.value is not None and move.action.kind in (ActionKind.DRAW, ActionKind.TAKE, ActionKind.PASS):
                if ranking.horizon == 0 and (
                        (move.action.kind is ActionKind.DRAW and draw is not None)
                        or (move.action.kind is ActionKind.TAKE and taken_now is not None)):
                    continue  # a last turn: the one-draw and take rows above say what the hand is worth
                rows.append((f"{move.label()}: {ahead}", *_num(move.value)))
        unit = ranking.unit
        for move in ranking.moves:
            if move.ends_hand and move.lives is not None and move.p_one is not None and move.p_two is not None:
                name = move.label()
                exact = move.exact_risk  # else the engine's estimates: no exact fraction to show
                if unit == "points":
                    rows.append((f"{name}: chance of not scoring the point", *_pct(move.p_one, exact)))
                else:
                    one, two = ("a letter", "two letters") if unit == "letters" else ("one life", "two lives")
                    rows.append((f"{name}: chance of losing {one}", *_pct(move.p_one, exact)))
                    if unit != "letters":
                        rows.append((f"{name}: chance of losing {two}", *_pct(move.p_two, exact)))
                rows.append((f"{name}: {unit} lost on average", str(move.lives) if exact else ESTIMATE,
                             f"{float(move.lives):.2f}"))
        on = ranking.play_on_lives
        if on is not None:
            lose = {"points": "not scoring the point", "letters": "getting a letter"}.get(unit, "losing a life")
            rows.append((f"playing on: chance of {lose} this hand", *_pct(on, False)))
    if len(view.hand) == 3 and view.knocker is None and ActionKind.KNOCK not in {a.kind for a in view.legal_actions}:
        from ..analysis import knock_refusal

        refusal = knock_refusal(analysis.knowledge)
        if refusal is not None and view.stock_size:
            rows.append(("knock", "not allowed", refusal))
    advice = analysis.advice
    chart = None
    if draw is not None:
        highlight = taken_now
        title = "After drawing"
        if turn.take is not None and taken_now is not None:
            # the gold bar only where a draw can give that value too (else no bar to colour)
            gold = "gold: " if taken_now in draw.distribution else ""
            title += f" ({gold}taking the {turn.take.card.pretty} gives {pretty_value(taken_now)})"
        chart = DrawChart(draw.distribution, highlight, title)
    chances: tuple[ChanceRow, ...] = ()
    now = summary = ""
    if ranking is not None:
        chances = _chances(ranking, advice.as_action())
        now = win_level(ranking.now)
        summary = _summary(now, chances)
    return HintsModel(
        analysis=analysis,
        rows=tuple(rows),
        advice_action=advice.action,
        advice_discard=str(advice.discard) if advice.discard is not None else None,
        advice_reason=advice.reason,
        outs=tuple(str(c) for c in draw.outs_31) if draw is not None else (),
        chart=chart,
        rule=RuleModel.of(rule_code),
        chance_now=now,
        chances=chances,
        summary=summary,
        close=_close_words(chances),
        thumb=_sentence(advice.thumb),
    )
