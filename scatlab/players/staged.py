"""A hand staged from an analyzed position, for the master's search (:func:`staged_view`).

``scatlab analyze`` and the hand analyzer are given a position, not a game: the hand, the
top discard, the cards seen on the pile below it, the cards each opponent is known to hold,
and perhaps the turns each opponent has played and the cards it rejected
(:class:`~scatlab.analysis.Knowledge`, :class:`~scatlab.analysis.Observations`). The
master's search draws its deals from a :class:`~scatlab.rules.PlayerView` whose public log
replays to that moment (:class:`~scatlab.players.master.WorldSampler`), so a deeper look at a
typed position plays a hand **staged** to reach it. What the staging assumes:

- **The seats.** You sit at seat 0 and it is your turn; the opponents follow you in turn
  order, as they were typed. It is the first hand of a fresh game: everyone has all their
  lives (or no points), and nobody has knocked.
- **The turns.** Each opponent has played the turns typed (which must be turns one hand can
  have: in turn order after you each opponent has played as many turns as the one before it,
  or one more, and the last at most one more than the first; you have played as many as the
  first). Without typed turns, as many turns as the pile shows: every turn put one card on
  the pile, and the cards an opponent holds were taken from it (a round more where an
  opponent holds more such cards than it would have had turns).
- **The moves.** An opponent took each card it is known to hold from the pile at its last
  turns (the card the player before it had just thrown, or the up card). Every other turn,
  yours too, drew from the stock and threw the card drawn, so your hand is as dealt; with
  four cards you have just drawn the last one given. The pile's cards were thrown in the
  order given (the cards seen, bottom first, then the top discard); a card an opponent was
  typed as rejecting is thrown by that opponent at its last turn that draws, where it can be.
- **The cards nobody named.** If the turns threw more cards than the pile shows (turns
  typed, the pile not listed in full), the missing ones, at the bottom of the pile, are
  drawn at random from the cards nobody named (seeded: the same position, the same
  staging); so are the opponents' unknown cards and the stock's order, which the view does
  not show. A deal in which an opponent would hold 31 is drawn again.

A position the staging cannot reach is refused with an :class:`~scatlab.errors.AnalysisError`
saying why (no top discard, turns no hand can have, more cards on the pile than the turns
threw, a stock too small for the turns, a 31 in hand, which is declared at once).

>>> from scatlab.analysis import Knowledge
>>> view = staged_view(Knowledge.of("AH KH 4C", "9S", dead="2D 7C", opponents=2))
>>> view.hand, view.top_discard, view.discard_pile[:-1], view.to_move
((Card('AH'), Card('KH'), Card('4C')), Card('9S'), (Card('2D'), Card('7C')), 0)
>>> Knowledge.from_view(view).dead
(Card('2D'), Card('7C'))
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..analysis import Knowledge, Observations
from ..cards import Card, deck, format_cards
from ..errors import AnalysisError, ScatlabError
from ..rules.actions import Action
from ..rules.state import GameState, Phase, deal_order
from ..rules.values import blitz_of
from ..rules.view import PlayerView

__all__ = ["staged_view", "TRIES"]

TRIES = 40
"""Deals of the unnamed cards drawn before a staging gives up (one in which an opponent would
hold 31 is drawn again)."""


@dataclass(frozen=True)
class _Plan:
    """The staged hand's public story: the dealer, who plays each turn before yours (in
    order), the card each turn takes (None: it draws) and the cards the turns throw (index 0
    the up card, index j thrown at turn j)."""

    dealer: int
    movers: tuple[int, ...]
    takes: tuple[Card | None, ...]
    stream: tuple[Card, ...]


def staged_view(knowledge: Knowledge, observations: Observations | None = None, seed: int = 0) -> PlayerView:
    """Seat 0's view of a hand staged to reach ``knowledge`` (with the opponents' turns and
    rejected cards of ``observations``, if given): see the module doc for what it assumes.
    The same arguments give the same view."""
    if not isinstance(knowledge, Knowledge):
        raise AnalysisError(f"staged_view needs a Knowledge, not {type(knowledge).__name__}")
    k = knowledge
    if observations is not None and len(observations.turns) != k.opponents:
        raise AnalysisError(
            f"observations of {len(observations.turns)} opponents for a position with {k.opponents}: one each"
        )
    pile = k.dead + ((k.top,) if k.top is not None else ())
    if not pile:
        raise AnalysisError(
            "a deeper look at a typed position needs the top discard: the pile holds a card at every turn (C3, C5)"
        )
    if len(k.hand) == 3 and blitz_of(k.hand, k.rules):
        raise AnalysisError(f"{format_cards(k.hand)} is 31, declared at once (C8, C9): there is no move to weigh")
    holds = tuple(k.opponent_holds) + ((),) * (k.opponents - len(k.opponent_holds))
    turns = _turns(k, observations, len(pile) - 1 + sum(map(len, holds)), holds)
    rng = random.Random(f"staged:{seed}:{format_cards(k.hand)}:{format_cards(pile)}:{turns}")
    problem = "every deal tried gave an opponent 31"
    for _ in range(TRIES):
        spare = [c for c in deck(k.rules.deck_size) if c not in set(k.hand) | set(pile) | {c for h in holds for c in h}]
        rng.shuffle(spare)
        plan = _plan(k, observations, turns, holds, pile, spare)
        try:
            state = _play(k, plan, holds, spare)
        except ScatlabError as exc:  # pragma: no cover - the plan is legal by construction
            problem = str(exc)
            continue
        if state is not None:
            return state.view(0)
    raise AnalysisError(f"this position cannot be staged for a deeper look: {problem}")


def _turns(
    k: Knowledge, observations: Observations | None, thrown: int, holds: Sequence[tuple[Card, ...]]
) -> tuple[int, ...]:
    """The turns each seat has played (yours first, then the opponents' in turn order): as
    typed, or as many as the pile's ``thrown`` cards (the pile less the up card, plus the
    cards taken from it and held), and more where an opponent holds more cards taken from
    the pile than it would have had turns."""
    n = k.opponents
    if observations is None or not any(observations.turns):
        while True:
            rounds, extra = divmod(thrown, n + 1)
            turns = (rounds,) + (rounds,) * (n - extra) + (rounds + 1,) * extra
            if all(t >= len(h) for t, h in zip(turns[1:], holds)):
                return turns
            thrown += 1
    typed = tuple(observations.turns)
    first = typed[0]
    if any(b not in (a, a + 1) for a, b in zip(typed, typed[1:])) or typed[-1] > first + 1:
        raise AnalysisError(
            f"turns {', '.join(map(str, typed))} cannot be staged: in one hand, in turn order after you, each "
            "opponent has played as many turns as the one before it or one more, and the last at most one more "
            "than the first (e.g. 2, 2, 3)"
        )
    return (first,) + typed


def _plan(
    k: Knowledge,
    observations: Observations | None,
    turns: tuple[int, ...],
    holds: Sequence[tuple[Card, ...]],
    pile: tuple[Card, ...],
    spare: list[Card],
) -> _Plan:
    """The story of the hand (see :class:`_Plan` and the module doc); ``spare`` gives up the
    cards that fill the pile's bottom."""
    n = k.opponents
    more = sum(1 for t in turns[1:] if t > turns[0])  # the last opponents have played one turn more
    dealer = n - more
    movers = [(dealer + 1 + j) % (n + 1) for j in range(sum(turns))]
    takes: list[Card | None] = [None] * len(movers)
    for seat in range(1, n + 1):
        own = [j for j, s in enumerate(movers) if s == seat]
        if len(holds[seat - 1]) > len(own):
            raise AnalysisError(
                f"opponent {seat} is known to hold {len(holds[seat - 1])} cards taken from the pile "
                f"({format_cards(holds[seat - 1])}) but has played {len(own)} turn{'s' if len(own) != 1 else ''}"
            )
        for j, card in zip(own[len(own) - len(holds[seat - 1]) :], holds[seat - 1]):
            takes[j] = card
    free = [j for j in range(len(movers) + 1) if j == len(movers) or takes[j] is None]  # stream slots left on the pile
    if len(pile) > len(free):
        raise AnalysisError(
            f"the pile's {len(pile)} cards ({format_cards(pile)}) need more turns than the {len(movers)} played "
            "(each turn throws one card)"
        )
    stream: list[Card | None] = [None] * (len(movers) + 1)
    for j, held in enumerate(takes):
        if held is not None:
            stream[j] = held  # thrown by the player before, taken at turn j + 1 (index j of movers)
    _place(stream, free, list(pile), spare, movers, observations)
    return _Plan(dealer, tuple(movers), tuple(takes), tuple(c for c in stream if c is not None))


def _place(
    stream: list[Card | None],
    free: list[int],
    pile: list[Card],
    spare: list[Card],
    movers: Sequence[int],
    observations: Observations | None,
) -> None:
    """Put the pile's cards in the free slots of ``stream``, bottom first: cards nobody named
    fill the bottom, then the cards seen in order, the top discard last; a card typed as
    rejected by an opponent goes to that opponent's last throw after a draw, where it can."""
    fill = [spare.pop() for _ in range(len(free) - len(pile))]
    order = fill + pile
    top, rest = order[-1], order[:-1]
    slots = free[:-1]
    wanted: dict[int, Card] = {}
    if observations is not None:
        for seat, rejected in enumerate(observations.rejected, start=1):
            own = [j for j in slots if j > 0 and movers[j - 1] == seat]
            card = next((c for c in rejected if c in rest and c not in wanted.values()), None)
            if own and card is not None:
                wanted[own[-1]] = card
    remaining = iter(c for c in rest if c not in wanted.values())
    for j in slots:
        stream[j] = wanted.get(j) or next(remaining)
    stream[free[-1]] = top


def _play(k: Knowledge, plan: _Plan, holds: Sequence[tuple[Card, ...]], spare: list[Card]) -> GameState | None:
    """Deal the staged hand and play its turns to your turn (None: it went another way,
    e.g. an opponent dealt 31)."""
    n = k.opponents
    hands: list[list[Card]] = [list(k.hand[:3])] + [[spare.pop() for _ in range(3 - len(h))] for h in holds]
    draws: list[Card] = []
    for j, (seat, taken) in enumerate(zip(plan.movers, plan.takes), start=1):
        if taken is None:
            draws.append(plan.stream[j])  # drawn and thrown at once
        else:
            hands[seat].append(plan.stream[j])  # dealt, thrown when the card taken comes in
    if len(k.hand) == 4:
        draws.append(k.hand[3])
    stock_size = k.rules.deck_size - 3 * (n + 1) - 1
    if len(draws) > stock_size:
        raise AnalysisError(f"the {len(plan.movers)} turns before yours draw more cards than the stock holds (C11)")
    order = deal_order(hands, up=plan.stream[0], stock=draws + spare, dealer=plan.dealer, rules=k.rules)
    state = GameState.new(k.rules, n + 1, plan.dealer).deal(order)
    for j, (seat, taken) in enumerate(zip(plan.movers, plan.takes), start=1):
        after = _turn(state, seat, Action.TAKE if taken is not None else Action.DRAW, plan.stream[j])
        if after is None:
            return None
        state = after
    if state.phase is Phase.THROW_DOWN:
        state = state.apply(Action.PASS)
    if len(k.hand) == 4 and state.phase is Phase.TURN:
        state = state.apply(Action.DRAW)
    want = Phase.DISCARD if len(k.hand) == 4 else Phase.TURN
    return state if state.phase is want and state.to_move == 0 else None


def _turn(state: GameState, seat: int, start: Action, thrown: Card) -> GameState | None:
    """One turn of the story: ``seat`` draws or takes, then throws ``thrown``."""
    if state.phase is Phase.THROW_DOWN:
        state = state.apply(Action.PASS)
    if state.phase is not Phase.TURN or state.to_move != seat:
        return None
    state = state.apply(start)
    if state.phase is not Phase.DISCARD:
        return None
    return state.apply(Action.discard(thrown))
