"""The card table's session: a whole game against computer players, as plain Python.

A :class:`TableSession` holds the game's states (for undo), the computer opponents, the seed,
the learner's seat and what the table shows. It imports no widget library: the
:class:`~scatlab.widgets.table.Table` widget only forwards clicks and keys to it and draws
:meth:`TableSession.display`, a plain :class:`TableDisplay` that tests compare with the state.

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
(:attr:`ShowdownDisplay.reasons`); each card they name was in a hand that is now shown or went
to the discard pile. The next deal clears them.

Determinism: the deck of hand ``h`` is shuffled by ``random.Random(f"{seed}:deck:{h}")`` and
an opponent deciding at a moment uses ``random.Random(f"{seed}:{h}:{k}:{seat}")`` (``k`` the
number of actions already in the hand), so a seed replays a game, undo replays the same
future, and a loaded record continues with the same opponents' choices.

>>> s = TableSession("classic", opponents=("tip", "tip"), seed=7)
>>> m = s.display()
>>> m.seed, m.hand_number, m.to_move == m.seat, len(m.hand)
(7, 1, True, 3)
>>> s.click_stock().phase      # D: draw from the stock
'discard'
>>> s.click_stock().message    # a second draw is refused by the engine (in the learner's words), and nothing changes
'C5: you have drawn and must now discard (discard A♦, discard K♦, discard 6♠, discard 8♥)'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..analysis import Analysis, GameReview, analyze, prepare, review_game
from ..cards import Card, CardsLike, parse_card, parse_cards
from ..errors import AnalysisError, IllegalActionError, RecordError, RulesError, ScatlabError
from ..players.base import Decision, Player, make_player
from ..rules.actions import Action
from ..rules.governing import governing_rule
from ..rules.options import RuleSet, find_rules
from ..rules.record import GameRecord, replay, shuffled_deck
from ..rules.state import GameState, Phase
from ..rules.view import PlayerView, player_label
from ..words import learner_words
from .display import HintsDisplay, TableDisplay, hints_display, in_words, table_display

if TYPE_CHECKING:  # the master's search is imported only when a deeper look is asked for
    from ..players.deeper import ViewLook

__all__ = ["TableSession", "ComputerMove", "MIN_SEATS", "MAX_SEATS"]

MIN_SEATS = 2
MAX_SEATS = 6
"""The table seats 2 to 6 players (C2 allows up to 9; six fit a screen)."""


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
    the table shows it only as :attr:`TableDisplay.why` allows; the repr leaves it out)."""
    moves: tuple[ComputerMove, ...] = field(init=False, default=(), repr=False)
    """The computer moves of the current hand (the finished one until the next deal)."""
    _ruleset: RuleSet = field(init=False, repr=False)
    _players: dict[int, Player] = field(init=False, repr=False)
    _kinds: dict[int, str] = field(init=False, repr=False)
    _history: list[_Snapshot] = field(init=False, repr=False)
    _hint_cache: tuple[PlayerView, HintsDisplay | None] | None = field(init=False, repr=False, default=None)
    _deeper: tuple[PlayerView, ViewLook] | None = field(init=False, repr=False, default=None)

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

    def new_game(self, seed: int | None = None, *, deal: CardsLike | None = None) -> TableDisplay:
        """Start again with ``seed`` (None: a fresh random seed) and, optionally, a given
        first deal (a whole deck order, e.g. from :func:`scatlab.rules.deal_order`)."""
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
            raise RulesError(f"seed={seed!r} is not a seed: give a whole number 0 or more, or None")
        self.seed = seed if seed is not None else random.SystemRandom().randrange(1, 1_000_000)
        self.deal = deal
        self._start(deal)
        return self.display()

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

    def play(self, action: Action | str) -> TableDisplay:
        """The learner's move. An illegal one (or one out of turn) is refused: the display's
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
            return self.display()
        self._history.append(_Snapshot(self.state, self.last_decision, self.moves))
        self.state = new
        self.message = self.notice = ""
        if self.auto_play:
            self.run_opponents()
        return self.display()

    def click_stock(self) -> TableDisplay:
        """What a click on the stock (or the key D) does: draw."""
        return self.play(Action.DRAW)

    def click_discard(self) -> TableDisplay:
        """What a click on the discard pile (or the key T) does: take its top card."""
        return self.play(Action.TAKE)

    def click_card(self, card: Card | str) -> TableDisplay:
        """What a click on a hand card (or Enter on it) does: discard it."""
        try:
            chosen = parse_card(card)
        except ScatlabError as exc:
            self.message = str(exc)
            return self.display()
        return self.play(Action.discard(chosen))

    def knock(self) -> TableDisplay:
        """The Knock button (or the key K)."""
        return self.play(Action.KNOCK)

    def next_hand(self) -> TableDisplay:
        """Deal the next hand (its deck comes from the seed) once a hand has been scored."""
        if self.state.phase is not Phase.DEAL:
            what = "the game is over" if self.state.is_over else "the current hand is still being played"
            self.message = f"cannot deal the next hand now: {what}"
            return self.display()
        self._history.append(_Snapshot(self.state, self.last_decision, self.moves))
        self.state = self.state.deal(self._deck(self.state.hand_number + 1))
        self.moves = ()  # the new hand's cards are face down again
        self.message = self.notice = ""
        if self.auto_play:
            self.run_opponents()
        return self.display()

    def undo(self) -> TableDisplay:
        """Take back the learner's last move (and the opponents' replies): the game is then
        marked as practice. Nothing to undo leaves a message."""
        if not self._history:
            self.message = "nothing to undo: no move of yours yet in this game"
            return self.display()
        snap = self._history.pop()
        self.state = snap.state
        self.last_decision = snap.last_decision
        self.moves = snap.moves
        self.message = ""
        self.notice = (
            "your last move was taken back"
            if self.practice
            else "your last move was taken back: this game is now practice"
        )
        self.practice = True
        return self.display()

    # -- records -------------------------------------------------------------------------

    def record_json(self) -> str:
        """The game so far as the engine's JSON record (:class:`GameRecord`)."""
        return GameRecord.from_state(self.state).dumps()

    def load_record(self, text: str | bytes) -> TableDisplay:
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
            return self.display()
        except ScatlabError as exc:
            self.message = f"cannot load the record: {exc}"
            return self.display()
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
        return self.display()

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
        >>> s.display().can_review
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

    def _hints(self, view: PlayerView) -> HintsDisplay | None:
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
                hints = in_words(hints_display(analysis, view, self.governing_rule(view, analysis)), self.words)
        self._hint_cache = (view, hints)
        return hints

    # -- a deeper look -------------------------------------------------------------------

    def deeper(self) -> ViewLook | None:
        """The deeper look asked for at the learner's moment now, as far as it has gone
        (:class:`~scatlab.players.deeper.ViewLook`; None: none asked for here)."""
        if self._deeper is not None and self._deeper[0] == self.view():
            return self._deeper[1]
        return None

    def deeper_refusal(self) -> str | None:
        """Why no deeper look can be asked for now (None: one can): the hints must be on and
        the learner to decide, with at least two moves to weigh
        (:func:`~scatlab.players.deeper.deeper_refusal`)."""
        if not self.hints:
            return "the hints are off"
        view = self.view()
        if self.waiting or not view.is_my_turn:
            return "it is not your turn: a deeper look weighs your own moves"
        hints = self._hints(view)
        if hints is None or hints.analysis.ranking is None:
            return "there is no decision to weigh now"
        from ..players.deeper import deeper_refusal

        return deeper_refusal(view, hints.analysis.ranking)

    def look_deeper(
        self,
        budget: int | None = None,
        seconds: float | None = None,
        progress: Callable[[int, int], None] | None = None,
        on_verdict: Callable[[ViewLook], object] | None = None,
    ) -> ViewLook | None:
        """Ask the master for a deeper look at the learner's moment: its search from the
        **learner's view** only (:func:`scatlab.players.deeper.deeper_looks`, seeded by the
        table's seed), each verdict kept as it sharpens (:meth:`deeper`) before
        ``on_verdict`` is called with it; the final one is returned. ``budget`` and
        ``seconds`` default to the look's own (8,000 rollouts, a second). A look already
        made at this moment is returned again; a moment with none (:meth:`deeper_refusal`)
        leaves a message and returns None, changing nothing else."""
        from ..players.deeper import DEEP_BUDGET, LOOK_SECONDS, look_at_view

        kept = self.deeper()
        if kept is not None and kept.final:
            return kept
        refusal = self.deeper_refusal()
        if refusal is not None:
            self.message = f"no deeper look now: {refusal}"
            return None
        view = self.view()
        hints = self._hints(view)
        assert hints is not None and self.seed is not None

        def verdict(look: ViewLook) -> None:
            self._deeper = (view, look)
            if on_verdict is not None:
                on_verdict(look)

        return look_at_view(
            view,
            ranking=hints.analysis.ranking,
            budget=DEEP_BUDGET if budget is None else budget,
            seconds=LOOK_SECONDS if seconds is None else seconds,
            seed=self.seed,
            progress=progress,
            on_verdict=verdict,
        )

    def governing_rule(self, view: PlayerView | None = None, analysis: Analysis | None = None) -> str:
        """The code of the rule that governs the learner's moment: the turn (C5), a knock
        in progress (C6), the empty stock (C11), a possible 31 (C8), a 31 passed (C10), the first-round
        knock ban (V6), a hammer (V10), a throw-down (V11), declaring (C9, C10), the bus
        stop (V19); after a hand, the rule that decided it; after the game, how it is kept."""
        view = view if view is not None else self.view()
        knocks = analysis is not None and analysis.advice.action == "knock"
        return governing_rule(view, self._ruleset, self.state.declare_context, knocks)

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
        as the table shows it to the learner (:func:`~scatlab.words.learner_words`):
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

    def display(self) -> TableDisplay:
        """Everything the table shows now, computed from the learner's view (and, after a
        hand, the public result): :func:`!scatlab.session.display.table_display`."""
        return table_display(self)
