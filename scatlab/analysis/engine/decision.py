"""The engine's decision at a position: every legal move weighed on the one scale
(:func:`!weigh_options`: playing on by the hand it keeps, ending the hand by
:mod:`.ending`), ordered by the rule of :mod:`.ranking`'s module doc (:func:`!ordered`), and the first
move with its reason in the ``expert``'s words (:func:`decide`, :class:`Choice`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ...cards import Card, Suit
from ...checks import shown
from ...errors import AnalysisError
from ...rules.actions import Action, ActionKind
from ...rules.view import PlayerView
from ...words import DOES, win_level
from ..counting.knowledge import Knowledge
from ..counting.tables import BLITZ2, RANK_BITS, pair_indices
from ..model.throws import LAST_THROW, throw_choice
from .ending import ENDING, Ending, value_ending
from .position import EXPERT, HorizonTables, Position, Style, horizon_tables
from .scale import CLOSE_CALL, WinScale, estimate, last_turn_scale, position_scale

__all__ = ["Choice", "decide", "Option", "as_position", "stock_gone", "ordered", "weigh_options", "reason_for"]

_SUITS = tuple(Suit)  # a card's suit is its index // 13 in this order
_ORDER = {
    ActionKind.DECLARE: 0,
    ActionKind.TAKE: 1,
    ActionKind.DRAW: 2,
    ActionKind.PASS: 3,
    ActionKind.DISCARD: 4,
    ActionKind.KNOCK: 5,
    ActionKind.HAMMER: 6,
    ActionKind.STOP_BUS: 7,
}


@dataclass(frozen=True)
class Choice:
    """The engine's first move at a position: the ``action``, for a take the card ``then``
    thrown, and the ``reason`` in the ``expert``'s words (it names only the player's own
    cards)."""

    action: Action
    reason: str
    then: Card | None = None
    win: float = 0.0
    """The move's estimated chance of winning the game
    (:attr:`~scatlab.analysis.engine.ranking.RankedMove.win`, unrounded)."""


@dataclass
class Option:
    """A legal move being weighed: its chance of winning, the chance it costs a life this
    hand, the exact value figure shown beside it, and what it plans."""

    action: Action
    win: float
    loss: float
    value: Fraction | None = None
    sure_31: bool = False
    then: Card | None = None
    taken: Card | None = None
    ending: Ending | None = None
    kept: tuple[Card, ...] | None = None


def decide(position: Position | PlayerView, style: Style = EXPERT) -> Choice:
    """The engine's first move at ``position`` (a :class:`Position`, or a view whose player
    is to move), by the rule of :mod:`.ranking`: the first move of
    :func:`~scatlab.analysis.engine.ranking.rank`.

    >>> from scatlab.rules import GameState, deal_order
    >>> s = GameState.new("classic", 2).deal(deal_order(["AH KH 4C", "2S 3S 9H"], up="QH"))
    >>> decide(s.view(1)).action                                    # QH into 2S 3S 9H? no: take
    Action(kind=<ActionKind.TAKE: 'take'>, card=None)
    """
    p = as_position(position)
    options = weigh_options(p, style)
    best = ordered(options, p)[0]
    return Choice(best.action, reason_for(best, options, p, style), best.then, best.win)


def as_position(position: Position | PlayerView) -> Position:
    if isinstance(position, PlayerView):
        return Position.from_view(position)
    if not isinstance(position, Position):
        raise AnalysisError(f"rank needs a Position or a PlayerView, not {shown(position)}")
    return position


def stock_gone(position: Position) -> bool:
    k = position.knowledge
    return len(k.hand) == 3 and ActionKind.DRAW not in position.kinds and ActionKind.PASS in position.kinds


def ordered(options: list[Option], position: Position) -> list[Option]:
    """Best first: by the chance of winning, then by the order of the module doc's rule 1,
    then (two throws alike) by the value shown."""
    order = dict(_ORDER)
    if stock_gone(position):  # C11: a hand of takers ends
        order[ActionKind.PASS] = 0
    return sorted(options, key=lambda o: (-o.win, order[o.action.kind], -(o.value or 0), str(o.action)))


def weigh_options(position: Position, style: Style) -> list[Option]:
    """Every legal move of ``position`` with its figures (the module doc's rule)."""
    k = position.knowledge
    kinds = position.kinds
    w = _Weighing.of(position, style)
    if ActionKind.DECLARE in kinds:
        return _declare_options(w)
    if len(k.hand) == 4:
        return _four_card_options(w)
    options: list[Option] = []
    hand = k.hand
    idx = sorted(c.index for c in hand)
    row = w.model.tables.row(idx)
    top = k.top
    if ActionKind.TAKE in kinds and top is not None:
        options.append(_take_option(w, top))
    if ActionKind.DRAW in kinds and k.unseen_index:
        options.append(_draw_option(w, idx, row))
    if ActionKind.PASS in kinds:
        options.append(_pass_option(w, row))
    for kind in (ActionKind.HAMMER, ActionKind.KNOCK):
        if kind in kinds:
            ending = value_ending(
                position, style, w.model, w.model.tables.strength_of(idx), kind is ActionKind.KNOCK, None, w.scale
            )
            options.append(Option(Action(kind), ending.win, ending.loss, None, ending=ending))
    if not options:
        raise AnalysisError("there is no move to rank in this position")
    return options


@dataclass(frozen=True)
class _Weighing:
    """What weighing the moves of one position reads: the position, the engine's tables for
    the style's horizon, the one scale, whether the hand ends after this turn (``final``:
    a last turn, or C11's stock gone), the suits a throw would feed to the next player, and
    the chances of winning of a last turn's outcomes."""

    position: Position
    style: Style
    model: HorizonTables
    scale: WinScale
    final: bool
    fed_suits: frozenset[Suit]
    last_lose: float
    last_other: float
    sure31: float

    @classmethod
    def of(cls, position: Position, style: Style) -> _Weighing:
        model = horizon_tables(position.knowledge.rules, style.horizon)
        scale = position_scale(position)
        final = position.final or stock_gone(position)
        fed_suits = position.next_collects if not position.final else frozenset()
        last_lose, last_other, last_31 = last_turn_scale(position, scale) if final else (0.0, 0.0, 0.0)
        sure31 = last_31 if final else scale.sure31
        return cls(position, style, model, scale, final, fed_suits, last_lose, last_other, sure31)

    def last(self, q: float) -> float:
        """The chance of winning of a last turn ending with the chance ``q`` of losing."""
        return self.last_other + q * (self.last_lose - self.last_other)

    def kept_option(self, cards: Sequence[Card], thrown: Card | None) -> tuple[float, float, bool, int]:
        """(win, loss, sure 31, row) of keeping ``cards`` having thrown ``thrown``."""
        idx = sorted(c.index for c in cards)
        row = self.model.tables.row(idx)
        v2 = self.model.value2[row]
        if v2 >= BLITZ2:
            return self.sure31, 0.0, True, row
        if self.final:
            q = self.scale.last_turn[v2]
            return self.last(q), q, False, row
        win, q = self.scale.row_level(row, thrown is not None and thrown.suit in self.fed_suits)
        return win, q, False, row

    def shown_value(self, row: int) -> Fraction:
        model = self.model
        return Fraction(model.value2[row], 2) if self.final else Fraction(model.future[row], model.scale)


def _declare_options(w: _Weighing) -> list[Option]:
    """A 31 in hand: declare it, or (C10) pass and count 30."""
    position, scale = w.position, w.scale
    options = [Option(Action.DECLARE, scale.sure31, 0.0, position.knowledge.value, True)]
    if ActionKind.PASS in position.kinds:  # C10: a 31 not declared at once counts 30
        turns = sum(position.opponent_turns) / max(1, len(position.opponent_turns))
        strong = sum(position.strong()) / max(1, len(position.strong()))
        q = scale.hand.loss(30.0, 30.0, turns, strong)
        options.append(
            Option(Action.PASS, scale.level(q, scale.hand.sweep_chance(30.0, 30.0, turns, strong)), q, Fraction(30))
        )
    return options


def _four_card_options(w: _Weighing) -> list[Option]:
    """Four cards in hand: each throw (not the card just taken), and stopping the bus."""
    position, model = w.position, w.model
    k = position.knowledge
    options: list[Option] = []
    four = k.hand
    for out in four:
        if out is k.taken:
            continue
        three = tuple(c for c in four if c is not out)
        win, q, sure, r = w.kept_option(three, out)
        options.append(
            Option(
                Action.discard(out),
                win,
                q,
                Fraction(model.value2[r], 2) if (w.final or sure) else w.shown_value(r),
                sure,
                kept=three,
            )
        )
    if ActionKind.STOP_BUS in position.kinds:
        drawn = k.taken if k.taken is not None else four[-1]
        held = tuple(c for c in four if c is not drawn)
        stop = throw_choice(k.rules, LAST_THROW, (held[0], held[1], held[2]), drawn, taken=k.taken is not None)
        shown = tuple(c for c in four if c is not stop.first)
        strength = model.tables.strength_of(sorted(c.index for c in shown))
        ending = value_ending(position, w.style, model, strength, False, shown, w.scale)
        options.append(Option(Action.STOP_BUS, ending.win, ending.loss, None, ending=ending, kept=shown))
    return options


def _take_option(w: _Weighing, top: Card) -> Option:
    """Taking ``top``, the top discard, and the best throw after it."""
    model, final = w.model, w.final
    hand = w.position.knowledge.hand
    best_take: tuple[float, float, bool, int, Card] | None = None
    for out in hand:
        cards = [c for c in hand if c is not out] + [top]
        win, q, sure, r = w.kept_option(cards, out)
        if (
            best_take is None
            or win > best_take[0]
            or (win == best_take[0] and not final and model.future[r] > model.future[best_take[3]])
        ):
            best_take = (win, q, sure, r, out)
    assert best_take is not None
    win, q, sure, r, out = best_take
    if stock_gone(w.position):  # C11: only the hand now counts; passing ends the hand
        win, q = w.last(w.scale.last_turn[model.value2[r]]), w.scale.last_turn[model.value2[r]]
    return Option(Action.TAKE, win, q, w.shown_value(r) if not sure else Fraction(model.value2[r], 2), sure, out, top)


def _draw_option(w: _Weighing, idx: list[int], row: int) -> Option:
    """Drawing from the stock: for every unseen card, the best of keeping the hand and of
    each throw after taking it in, averaged (the engine's hot loop: every name it reads is
    a local)."""
    model, scale, final, last = w.model, w.scale, w.final, w.last
    k = w.position.knowledge
    hand = k.hand
    unseen = k.unseen_index
    tables = model.tables
    sure31 = w.sure31
    a, b, c = idx
    ca, cb, cc = (next(x for x in hand if x.index == i) for i in (a, b, c))
    rl = tables.row_list
    pairs = tuple(zip(pair_indices(a, b, c), (ca, cb, cc)))
    keep_win, keep_q, keep_sure, _ = (
        (sure31, 0.0, True, row) if model.value2[row] >= BLITZ2 else w.kept_option(hand, None)
    )
    win_total = 0.0
    q_total = 0.0
    value_total = 0
    sure_count = 0
    suits = w.fed_suits
    plain, fedl, v2l, lastq, lvl = scale.loss_plain, scale.loss_fed, model.value2, scale.last_turn, scale.level
    swept = scale.sweep
    fut = model.future
    for d in unseen:
        d_suit = _SUITS[d // 13] if suits else None
        # keep the hand, throwing the card drawn
        if keep_sure:
            best_w, best_q, best_sure = keep_win, keep_q, True
        elif final:
            best_q = lastq[v2l[row]]
            best_w, best_sure = last(best_q), False
        else:
            best_q = (fedl if d_suit in suits else plain)[row]
            best_w, best_sure = lvl(best_q, swept[row]), False
        best_val = v2l[row] if final else fut[row]
        for base, out in pairs:
            r = rl[base + d]
            v2 = v2l[r]
            if v2 >= BLITZ2:
                win, q, sure = sure31, 0.0, True
            elif final:
                q = lastq[v2]
                win, sure = last(q), False
            else:
                q = (fedl if out.suit in suits else plain)[r]
                win, sure = lvl(q, swept[r]), False
            val = v2 if final else fut[r]
            if win > best_w or (win == best_w and val > best_val):
                best_w, best_q, best_sure, best_val = win, q, sure, val
        win_total += best_w
        q_total += best_q
        value_total += best_val
        sure_count += best_sure
    n = len(unseen)
    value = Fraction(value_total, 2 * n) if final else Fraction(value_total, n * model.scale)
    return Option(Action.DRAW, win_total / n, q_total / n, value, sure_count == n)


def _pass_option(w: _Weighing, row: int) -> Option:
    """Passing (C11, or a 31 not declared): keeping the hand as it is."""
    v2 = 60 if w.position.knowledge.undeclared_31 else w.model.value2[row]
    if w.final:
        q = w.scale.last_turn[v2]
        win = w.last(q)
    else:
        win, q = w.scale.row_level(row, False)
    return Option(Action.PASS, win, q, Fraction(v2, 2) if w.final else w.shown_value(row))


def reason_for(best: Option, options: list[Option], position: Position, style: Style) -> str:
    """Why the first move, in the ``expert``'s words: its chance of winning the game against
    the next best's."""
    k = position.knowledge
    kind = best.action.kind
    others = [o for o in ordered(options, position) if o is not best]
    best_win = estimate(best.win)
    close = [o for o in others if best_win - estimate(o.win) < CLOSE_CALL]
    said = [best, *(close or others[:1])]
    levels = ", ".join(f"{win_level(o.win)} if it {_option_verb(o, k)}" for o in said)
    chance = f"its chance of winning the game: {win_level(position_scale(position).game.now)} now; {levels}" + (
        " (a close call)" if close else ""
    )
    if kind is ActionKind.DECLARE:
        return "declares 31 at once (C8)"
    if best.sure_31 and kind is ActionKind.TAKE:
        return f"takes the {k.top} and will throw the {best.then}: the three it keeps make 31"
    if best.sure_31 and kind is ActionKind.DISCARD:
        return f"throws the {best.action.card}: the other three make 31"
    if kind in ENDING:
        assert best.ending is not None
        verb = {ActionKind.KNOCK: "knocks", ActionKind.HAMMER: "calls a hammer", ActionKind.STOP_BUS: "stops the bus"}[
            kind
        ]
        value = (
            k.value
            if best.kept is None
            else Fraction(
                horizon_tables(k.rules).tables.strength_of(sorted(c.index for c in best.kept)) >> RANK_BITS, 2
            )
        )
        return f"{verb} with {value}: {best.ending.outcome.phrase}; {chance}"
    if kind is ActionKind.TAKE and stock_gone(position):
        return f"takes the {k.top} with the stock gone: it raises the hand (C11); {chance}"
    if kind is ActionKind.PASS and stock_gone(position):
        return "passes: the stock is gone and the discard does not raise the hand (C11)"
    if kind is ActionKind.TAKE:
        return f"takes the {k.top} and will throw the {best.then}: {chance}"
    if kind is ActionKind.DRAW:
        return f"draws: {chance}"
    if kind is ActionKind.DISCARD:
        card = best.action.card
        kept = " ".join(str(c) for c in k.hand if c is not card)
        return f"throws the {card}, keeping {kept}: {chance}"
    return f"{kind.value}: {chance}"


def _option_verb(o: Option, k: Knowledge) -> str:
    """A move as the reason says it after "if it": ``"draws"``, ``"takes the QH (throwing the 4C)"``."""
    kind = o.action.kind
    if kind is ActionKind.TAKE:
        return DOES["take"].format(k.top) + (f" (throwing the {o.then})" if o.then is not None else "")
    if kind is ActionKind.DISCARD:
        return DOES["discard"].format(o.action.card)
    return DOES[kind.value]
