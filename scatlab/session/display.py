"""The card table's presenter: what the table shows, as plain data computed from a
:class:`~scatlab.session.table.TableSession` (the learner's view, and after a hand its public
result).

:func:`table_display` is what :meth:`TableSession.display` returns: a :class:`TableDisplay` of
:class:`SeatDisplay` seats, :class:`HintsDisplay` hints (:func:`hints_display` of the learner's
``analyze(view)``, with a :class:`DrawChart` and :class:`ChanceRow` rows), a
:class:`ShowdownDisplay` after a hand and the :class:`RuleDisplay` that governs the moment. Every
text the engine gives goes through :meth:`TableSession.words` (the learner's words). Nothing
here changes the game: the session holds it and moves it on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..analysis import CLOSE_CALL, Analysis, Ranking, move_words, win_level
from ..rules.actions import Action, ActionKind
from ..rules.rulebook import RuleEntry, rule_entry
from ..rules.state import HandResult, Phase
from ..rules.values import pretty_value
from ..rules.view import PlayerView
from ..words import LOOK_DEEPER, chance_words, counted_chance

if TYPE_CHECKING:
    from .table import ComputerMove, TableSession

__all__ = [
    "TableDisplay",
    "SeatDisplay",
    "ESTIMATE",
    "HintsDisplay",
    "DeeperDisplay",
    "ChanceRow",
    "DrawChart",
    "ShowdownDisplay",
    "RuleDisplay",
    "table_display",
    "hints_display",
    "in_words",
]

_BUTTON_LABELS = {
    ActionKind.KNOCK: "Knock (K)",
    ActionKind.PASS: "Pass",
    ActionKind.HAMMER: "Hammer",
    ActionKind.THROW_DOWN: "Throw down",
    ActionKind.STOP_BUS: "Stop the bus",
    ActionKind.DECLARE: "Declare 31",
}


@dataclass(frozen=True)
class RuleDisplay:
    """A rulebook entry as shown: code, title and the project's explanation."""

    code: str
    title: str
    text: str

    @classmethod
    def of(cls, code: str) -> RuleDisplay:
        entry: RuleEntry = rule_entry(code)
        return cls(entry.code, entry.title, entry.text)


@dataclass(frozen=True)
class SeatDisplay:
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
class HintsDisplay:
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
    rule: RuleDisplay
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
class DeeperDisplay:
    """The master's deeper look as the hints show it, below their own text (and the hand
    analyzer below its advice): ``can``, whether **Look deeper** may be asked for now (the
    learner's decision, with moves to weigh, and no look asked for at this moment yet); then
    the look's verdict so far (:meth:`ViewLook.findings
    <scatlab.players.deeper.ViewLook.findings>`, empty before one is asked for), how it was
    made, whether it is ``final``, and ``note``, why none can be asked for (or empty)."""

    can: bool
    lines: tuple[str, ...] = ()
    how: str = ""
    final: bool = False
    note: str = ""

    @classmethod
    def of(cls, look: Any, can: bool, note: str = "") -> DeeperDisplay:
        """The display of ``look`` (a :class:`~scatlab.players.deeper.ViewLook`, or None);
        before a look, ``note`` says what Look deeper does where one can be asked for
        (:data:`~scatlab.words.LOOK_DEEPER`)."""
        if look is None:
            return cls(can, note=note or (LOOK_DEEPER if can else ""))
        return cls(can, tuple(look.findings()), look.how(), bool(look.final), note)

    def to_json(self) -> dict[str, Any]:
        return {"can": self.can, "lines": list(self.lines), "how": self.how, "final": self.final, "note": self.note}


@dataclass(frozen=True)
class ShowdownDisplay:
    """The end of a hand: every final hand face up with its value, what each seat lost or
    won, the engine's explanation (``HandResult.explain()``, in the learner's words:
    :meth:`TableSession.words`) and the rules it cites."""

    number: int
    ended: str
    knocker: int | None
    hands: tuple[tuple[int, tuple[str, ...], str | None], ...]
    outcome: tuple[str, ...]
    explain: str
    rules: tuple[RuleDisplay, ...]
    reasons: tuple[str, ...] = ()
    """Every computer move of the hand with the mover's own reason, in order, in the learner's
    words ("player 1 (expert) chose to discard 2♠: throws the 2♠, keeping …"): told once the
    hands are face up."""


@dataclass(frozen=True)
class TableDisplay:
    """Everything the table shows, as plain data (the widget draws exactly this)."""

    rules_name: str
    seed: int
    hand_number: int
    phase: str
    seat: int
    seats: tuple[SeatDisplay, ...]
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
    hints: HintsDisplay | None
    rule: RuleDisplay | None
    showdown: ShowdownDisplay | None
    game_over: bool
    winner: int | None
    practice: bool
    can_undo: bool
    can_review: bool
    """The game is over: "Review this game" is offered (:meth:`TableSession.review`)."""
    deeper: DeeperDisplay | None = None
    """The hints' deeper look (None when no hints show): :meth:`TableSession.look_deeper`."""

    def to_json(self) -> dict[str, Any]:
        """The display as JSON-ready data for the browser (the analysis object itself is left
        out; its numbers are in ``hints.rows``)."""
        data: dict[str, Any] = {}
        for name in self.__dataclass_fields__:
            data[name] = _jsonable(getattr(self, name))
        return data


def _jsonable(value: Any) -> Any:
    if isinstance(value, HintsDisplay):
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


def table_display(session: TableSession) -> TableDisplay:
    """Everything the table shows now, computed from the learner's view (and, after a
    hand, the public result)."""
    state = session.state
    view = session.view()
    my_turn = view.is_my_turn and not session.waiting
    legal = view.legal_actions if my_turn else ()
    kinds = {a.kind for a in legal}
    showdown = _showdown(session) if state.phase in (Phase.DEAL, Phase.GAME_OVER) and state.results else None
    my_value = _my_value(session, view, showdown)
    # while a finished hand is on the table, its dealer keeps the badge (the next deals after it)
    dealer = state.results[-1].dealer if showdown is not None else state.dealer
    hints = session._hints(view) if session.hints and my_turn else None
    deeper = None
    if hints is not None:
        look = session.deeper()
        deeper = DeeperDisplay.of(look, look is None and session.deeper_refusal() is None)
    rule_code = hints.rule.code if hints is not None else session.governing_rule(view)
    events = view.history
    if not events and state.phase in (Phase.DEAL, Phase.GAME_OVER) and state.logs:
        events = tuple(e.public(session.seat) for e in state.logs[-1])
    buttons = tuple(
        (a.kind.value, _BUTTON_LABELS[a.kind])
        for a in legal
        if a.kind in _BUTTON_LABELS and a.kind is not ActionKind.KNOCK
    )
    why = None
    if session.moves:  # this hand's last computer move: its public reason until the hands are shown
        move = session.moves[-1]
        why = _told(session, move, own=state.phase in (Phase.DEAL, Phase.GAME_OVER))
    return TableDisplay(
        rules_name=session.ruleset.name,
        seed=int(session.seed or 0),
        hand_number=state.hand_number,
        phase=state.phase.value,
        seat=session.seat,
        seats=_seats(session, view, showdown, my_value, dealer),
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
        waiting=session.waiting,
        status=_status(session, view, my_turn, kinds),
        message=session.words(session.message),
        notice=session.words(session.notice),
        log=tuple(session.words(e.describe(pretty=True)) for e in events),
        why=why,
        hints=hints,
        rule=hints.rule if hints is not None else RuleDisplay.of(rule_code),
        deeper=deeper,
        showdown=showdown,
        game_over=state.is_over,
        winner=state.winner,
        practice=session.practice,
        can_undo=bool(session._history),
        can_review=state.is_over,
    )


def _my_value(session: TableSession, view: PlayerView, showdown: ShowdownDisplay | None) -> str | None:
    """The learner's hand value as shown: the value scored once the hand is over, else the
    hand's value now (an undeclared 31 counts as 30, C10)."""
    scored = {s: v for s, _, v in showdown.hands} if showdown is not None else {}  # the values scored
    mine = view.value
    if mine is not None and mine >= 31 and session.seat in session.state.undeclared:
        mine = Fraction(30)  # C10: a 31 not declared at once counts as 30
    return scored.get(session.seat) or (pretty_value(mine) if mine is not None else None)


def _seats(
    session: TableSession, view: PlayerView, showdown: ShowdownDisplay | None, my_value: str | None, dealer: int
) -> tuple[SeatDisplay, ...]:
    """Every seat as the learner sees it: the learner's own cards, the others' face down
    until the showdown shows their final hands."""
    state = session.state
    me = session.seat
    final = {s: h for s, h, _ in showdown.hands} if showdown is not None else {}
    scored = {s: v for s, _, v in showdown.hands} if showdown is not None else {}
    seats = []
    for s in range(state.num_players):
        if s == me:
            cards: tuple[str | None, ...] = (
                tuple(str(c) for c in view.hand) if view.hand else ((None,) * view.hand_sizes[s])
            )
            value = my_value
        elif s in final:
            cards = final[s]
            value = scored.get(s)
        else:
            cards = (None,) * view.hand_sizes[s]
            value = None
        seats.append(
            SeatDisplay(
                seat=s,
                name=session.seat_name(s),
                kind=session.seat_names[s],
                is_learner=s == me,
                cards=cards,
                value=value,
                standing=session.standing(s),
                out=state.out[s],
                dealer=dealer == s,
                to_move=view.to_move == s,
                knocker=view.knocker == s,
            )
        )
    return tuple(seats)


def _told(session: TableSession, move: ComputerMove, own: bool) -> str:
    """A computer move as the learner is told it: its public reason, or (``own``, once
    the hand is over) the mover's own reason."""
    reason = move.decision.reason if own else move.public
    return (
        f"{session.seat_name(move.seat)} chose to {session.words(str(move.decision.action))}: {session.words(reason)}"
    )


def _status(session: TableSession, view: PlayerView, my_turn: bool, kinds: set[ActionKind]) -> str:
    state = session.state
    if state.is_over:
        who = session.words(f"player {state.winner} wins")
        return f"Game over: {who}. Review this game to see your costliest decisions, or start a new game."
    if state.phase is Phase.DEAL:
        return f"Hand {state.hand_number} is over. Deal the next hand (N) when you are ready."
    if not my_turn:
        playing = session.words(f"player {view.to_move} is playing")
        if session.state.out[session.seat]:
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
        last = f" This is your last turn: {session.words(f'player {view.knocker} knocked')}."
    elif state.stopper is not None:  # V19 (public: the bus stop is announced)
        last = f" This is your last turn: {session.words(f'player {state.stopper} stopped the bus')}."
    return f"Your turn: {said}.{last}"


def _showdown(session: TableSession) -> ShowdownDisplay:
    result: HandResult = session.state.results[-1]
    hands = tuple(
        (s, tuple(str(c) for c in result.final[s]), pretty_value(v) if v is not None else None)
        for s, v in enumerate(result.values)
        if result.final[s]
    )
    outcome = []
    keeping = session.ruleset.score_keeping
    for s in range(session.state.num_players):
        lost, won = result.lives_lost[s], result.points_won[s]
        if keeping == "points":
            if won:
                outcome.append(session.words(f"player {s} scores {won} point{'s' if won != 1 else ''}"))
            continue
        if not lost:
            continue
        unit = {"gin": ("letter", "letters"), "bus": ("step", "steps")}.get(
            keeping, ("nickel", "nickels") if session.ruleset.grand_cadillac else ("penny", "pennies")
        )
        verb = "gets" if keeping == "gin" else ("moves up" if keeping == "bus" else "loses")
        after = (
            "out"
            if result.out_after[s]
            else session.state.standing(s)
            if keeping != "lives"
            else ("on the county" if result.lives_after[s] == 0 else f"{result.lives_after[s]} left")
        )
        outcome.append(session.words(f"player {s} {verb} {lost} {unit[0] if lost == 1 else unit[1]} ({after})"))
    if not outcome:
        outcome.append("nobody loses anything this hand")
    return ShowdownDisplay(
        number=result.number,
        ended=result.ended,
        knocker=result.knocker,
        hands=hands,
        outcome=tuple(outcome),
        explain=session.words(result.explain()),
        rules=tuple(RuleDisplay.of(c) for c in result.codes),
        reasons=tuple(_told(session, m, own=True) for m in session.moves if m.hand_number == result.number),
    )


def hints_display(analysis: Analysis, view: PlayerView, rule_code: str) -> HintsDisplay:
    """The hints of one analysis (its numbers, unchanged). First, the chance of winning the
    game as levels (now, and if each move is made: the figure the advice decides by), a
    close call and the rule of thumb the advice departs from; then, on demand, the figures
    they are built from: the one-turn odds, the hand value ``horizon`` turns ahead of the
    ways of playing on, and for a move that ends the hand its chances of losing lives
    beside the chance that playing on costs a life."""
    rows, taken_now = _hand_rows(analysis, view)
    ranking = analysis.ranking
    draw = analysis.turn.draw
    if ranking is not None:
        rows += _ranking_rows(ranking, draw is not None, taken_now)
    rows += _knock_row(analysis, view)
    advice = analysis.advice
    chances: tuple[ChanceRow, ...] = ()
    now = summary = ""
    if ranking is not None:
        chances = _chances(ranking, advice.as_action())
        now = win_level(ranking.now)
        summary = _summary(now, chances)
    return HintsDisplay(
        analysis=analysis,
        rows=tuple(rows),
        advice_action=advice.action,
        advice_discard=str(advice.discard) if advice.discard is not None else None,
        advice_reason=advice.reason,
        outs=tuple(str(c) for c in draw.outs_31) if draw is not None else (),
        chart=_draw_chart(analysis, taken_now),
        rule=RuleDisplay.of(rule_code),
        chance_now=now,
        chances=chances,
        summary=summary,
        close=_close_words(chances),
        thumb=_sentence(advice.thumb),
    )


def _hand_rows(analysis: Analysis, view: PlayerView) -> tuple[list[tuple[str, str, str]], Fraction | None]:
    """The one-turn figures: the hand now, each throw, the one draw's odds and the take the
    ranking plays; and what the hand is worth after that take (None without one)."""
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
        then = (
            ranking.move(Action.TAKE).then
            if ranking is not None and ActionKind.TAKE in ranking.position.kinds
            else None
        )
        option = next((o for o in turn.take.options if o.discard == then), turn.take.best)
        taken_now = option.value
        rows.append(
            (f"take the {turn.take.card.pretty}, throw the {option.discard.pretty}: worth now", *_num(option.value))
        )
    return rows, taken_now


def _ranking_rows(ranking: Ranking, can_draw: bool, taken_now: Fraction | None) -> list[tuple[str, str, str]]:
    """The figures the chance of winning is built from: the hand looking five turns ahead
    (lesson 6 names it), or the hand now on a last turn; a move that ends the hand, its
    chances of losing lives; and the chance that playing on costs a life."""
    rows: list[tuple[str, str, str]] = []
    ahead = "worth now (last turn)" if ranking.horizon == 0 else f"worth on average, looking {ranking.ahead}"
    for move in ranking.moves:  # the ways of playing on (a discard's own row shows it now; the reason, ahead)
        if move.value is not None and move.action.kind in (ActionKind.DRAW, ActionKind.TAKE, ActionKind.PASS):
            if ranking.horizon == 0 and (
                (move.action.kind is ActionKind.DRAW and can_draw)
                or (move.action.kind is ActionKind.TAKE and taken_now is not None)
            ):
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
            rows.append(
                (f"{name}: {unit} lost on average", str(move.lives) if exact else ESTIMATE, f"{float(move.lives):.2f}")
            )
    on = ranking.play_on_lives
    if on is not None:
        lose = {"points": "not scoring the point", "letters": "getting a letter"}.get(unit, "losing a life")
        rows.append((f"playing on: chance of {lose} this hand", *_pct(on, False)))
    return rows


def _knock_row(analysis: Analysis, view: PlayerView) -> list[tuple[str, str, str]]:
    """Why the rules refuse a knock now (V4, V5, V6), as a row, when they do and there is a
    stock to play on from."""
    if len(view.hand) == 3 and view.knocker is None and ActionKind.KNOCK not in {a.kind for a in view.legal_actions}:
        from ..analysis import knock_refusal

        refusal = knock_refusal(analysis.knowledge)
        if refusal is not None and view.stock_size:
            return [("knock", "not allowed", refusal)]
    return []


def _draw_chart(analysis: Analysis, taken_now: Fraction | None) -> DrawChart | None:
    """The chart of the hand's value after drawing (None when no draw is possible), the
    take's value in gold."""
    turn = analysis.turn
    draw = turn.draw
    if draw is None:
        return None
    title = "After drawing"
    if turn.take is not None and taken_now is not None:
        # the gold bar only where a draw can give that value too (else no bar to colour)
        gold = "gold: " if taken_now in draw.distribution else ""
        title += f" ({gold}taking the {turn.take.card.pretty} gives {pretty_value(taken_now)})"
    return DrawChart(draw.distribution, taken_now, title)


def in_words(hints: HintsDisplay, words: Callable[[str], str]) -> HintsDisplay:
    """``hints`` with the analysis's own texts (a knock refusal, the reason, the moves) in the
    learner's ``words`` (:meth:`TableSession.words`)."""
    return replace(
        hints,
        rows=tuple((words(label), exact, words(shown)) for label, exact, shown in hints.rows),
        advice_reason=words(hints.advice_reason),
        chances=tuple(replace(c, move=words(c.move)) for c in hints.chances),
        summary=words(hints.summary),
        close=words(hints.close),
        thumb=words(hints.thumb),
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
    return tuple(
        ChanceRow(move_words(m, k), win_level(m.win), m.win, m.action == advised, m.close) for m in ranking.moves
    )


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
    return (
        f"A close call: {others} against {best.level} if you {best.move}, within "
        f"{float(CLOSE_CALL) * 100:.1f}%, closer than the estimates can tell apart: "
        "either is a good move."
    )
