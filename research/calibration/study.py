"""Calibration of the knock risk: does "knocking risks 7%" lose 7% of the time in real play?

:func:`collect_knocks` plays seeded whole games between computer players (seated and seeded
as in a tournament) and, at every real knock, records what :func:`scatlab.analysis.knock_risk`
reports from the knocker's own view (under each opponent model asked for) and what then
happened: whether the knocker lost (a life or letter, or under V16 did not score the point).
:func:`reliability` bins the predictions and compares them with the observed frequencies
(bias, observed minus predicted; the Brier score, the mean squared gap between each
prediction and its 0/1 outcome; and per bin the mean prediction, the observed rate and its
standard error); :func:`reliability_svg` draws the reliability diagram as a small standalone SVG.
:func:`hand_fidelity` looks at the same knocks from the other side: each opponent's hand as
the knocker's adaptive model pictures it beside the real hand (:func:`fidelity` groups them
by opponent kind, turns played and whether the opponent took a card). The model in play
has the filter's strong kind knock by the expert's rule at each opponent turn
(:func:`scatlab.analysis.model.observations.with_knock_rules`); ``collect_knocks(...,
table_model=True)`` also records the adaptive model whose strong kind knocks by its measured
chances (the study's model ``"table"``, the model in play before), and ``told_model=True`` the
model in play told who each opponent is (the model ``"told"``: a control, not a model a
player could use).

Against two or more opponents each prediction is a Monte Carlo estimate over ``samples``
deals (seeded per knock); its noise averages out over many knocks.

**Draw luck.** Whether a knock lost also depends on the stock's order, which nobody at the
table knows. With ``given_hands`` :func:`collect_knocks` also records, at every knock, the
knocker's chance of losing *given the real hands* (:func:`expected_loss`: the same moment
replayed with the stock in every order of the cards the last turns can draw, or a seeded
sample of them, the real players playing the last turns). It has the same expectation as
the 0/1 outcome, since the stock's order is uniformly random whatever was seen, but far less
spread, so ``reliability(..., outcome="expected")`` tells a model's error from the luck of
the draw with fewer knocks. It also records the knock risk with the real hands shown
(:attr:`Knock.shown`: ``knock_risk``'s own last-turn policy), which splits that error into
the picture of the hands (``reliability(..., outcome="shown")``) and the last-turn policy.

>>> knocks = collect_knocks(["tip", "tip"], games=2, seed=1, samples=200)
>>> all(0 <= k.predicted["adaptive"] <= 1 for k in knocks)
True
>>> table = reliability(knocks, "adaptive")
>>> table.knocks == len(knocks)
True
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import numpy as np

from scatlab.analysis.counting.knowledge import Knowledge
from scatlab.analysis.counting.tables import tables_for
from scatlab.analysis.model.candidates import OpponentModelName
from scatlab.analysis.model.hand_filter import STRONG_PLAY, TIP_PLAY, FilterKind
from scatlab.analysis.model.knock import knock_risk
from scatlab.analysis.model.observations import Observations, with_knock_rules
from scatlab.analysis.model.weights import row_weights
from scatlab.cards import Card
from scatlab.checks import MAX_SAMPLES, SEED_RANGE, shown, whole_number
from scatlab.players.base import Player, PlayerError, make_player
from scatlab.players.tournament import play_out, seating
from scatlab.rules.actions import Action, ActionKind
from scatlab.rules.options import RuleSet, find_rules
from scatlab.rules.state import GameState, HandResult
from scatlab.rules.view import PlayerView

from .deals import hand_start, replay_hand, restocked_deck

__all__ = [
    "Knock",
    "collect_knocks",
    "expected_loss",
    "risk_with_hands_shown",
    "knock_chances",
    "knock_table",
    "MAX_PLAYED",
    "MAX_TOOK",
    "KnockCell",
    "Agreement",
    "kind_agreement",
    "Bin",
    "Reliability",
    "reliability",
    "criterion_chance",
    "reliability_svg",
    "DEFAULT_EDGES",
    "bin_indices",
    "HandPicture",
    "Fidelity",
    "hand_fidelity",
    "fidelity",
    "TOLD_KINDS",
    "TOLD_ODDS",
    "PosteriorRisk",
    "posterior_risk",
    "PosteriorCheck",
    "posterior_checks",
    "PosteriorBin",
    "posterior_table",
    "MIN_KEPT",
]

DEFAULT_EDGES: tuple[float, ...] = (0.0, 0.025, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0)


@dataclass(frozen=True)
class Knock:
    """One real knock: who knocked (entrant kind), the kinds of its opponents in turn order,
    how many turns the knocker had played in the hand, the prediction per model, the
    outcome."""

    kind: str
    opponents: int
    turn: int
    predicted: dict[str, float]
    lost: bool
    against: tuple[str, ...] = ()
    expected: float | None = None
    """The knocker's chance of losing given the real hands (:func:`expected_loss`), when
    :func:`collect_knocks` was asked for it."""
    shown: float | None = None
    """The knock risk with every opponent's real hand shown to it (``knock_risk`` with the
    hands as known cards: its stated last-turn policy, the stock's order unknown), when
    :func:`collect_knocks` was asked for the real hands. Beside :attr:`expected` it splits a
    model's error in two: ``shown`` minus the prediction is the picture of the hands,
    ``expected`` minus ``shown`` the last-turn policy against the real players' last turns."""


def _lost(result: HandResult, seat: int, rules: RuleSet) -> bool:
    """Whether ``seat`` lost the hand: a life or letter, or under V16 no point."""
    if rules.score_keeping == "points":
        return result.points_won[seat] == 0
    return result.lives_lost[seat] > 0


def expected_loss(
    after: GameState, knocker: int, players: Sequence[Player], orders: int = 200, seed: int = 0
) -> Fraction:
    """The chance that ``knocker`` loses the hand from ``after`` (the moment just after its
    knock), given the real hands: the share of stock orders in which it loses when the hand
    is played to its end by ``players`` (one per seat). The last turns draw one card each, so
    the orders are every way of putting that many of the stock's cards on top, or, when there
    are more than ``orders`` of them, ``orders`` of them drawn at random without repeats
    (``random.Random(seed)``), the rest of the stock shuffled after them. Each player chooses
    with a fresh ``random.Random(seed)``. Exact (a :class:`~fractions.Fraction`) when every
    order is played.

    >>> from scatlab.rules import GameState, deal_order
    >>> from scatlab.players import make_player
    >>> s = GameState.new("classic", 2).deal(deal_order(["AH KH 5C", "AS KS 9S"], up="2D"))
    >>> s = s.apply("knock")   # seat 1 knocks 30 against 21 in hearts: 10, J or Q of hearts make 31
    >>> expected_loss(s, 1, [make_player("tip"), make_player("tip")], orders=100), len(s.stock)
    (Fraction(1, 15), 45)
    """
    if not isinstance(after, GameState) or after.knocker != knocker or after.to_move is None:
        raise PlayerError(f"expected_loss needs the moment just after player {knocker!r}'s knock, not {shown(after)}")
    whole_number("orders", orders, 1, 100_000, error=PlayerError)
    if len(players) != after.num_players or not all(isinstance(p, Player) for p in players):
        raise PlayerError(f"expected_loss needs one player per seat ({after.num_players}), not {shown(players)}")
    left = after.stock[after.stock_pos :]
    k = min(len(after.active) - 1, len(left))
    rng = random.Random(seed)
    if math.perm(len(left), k) <= orders:
        heads = list(itertools.permutations(left, k))
    else:
        chosen: dict[tuple[Card, ...], None] = {}
        while len(chosen) < orders:
            chosen[tuple(rng.sample(left, k))] = None
        heads = list(chosen)
    number = len(after.results)
    start = hand_start(after)  # the hand replayed from here on each restocked deck (deals.restock)
    lost = 0
    for head in heads:
        tail = [c for c in left if c not in head]
        rng.shuffle(tail)  # only matters where a turn can draw more than one card
        state = replay_hand(start, restocked_deck(after, [*head, *tail]), after)
        while len(state.results) == number:
            seat = state.to_move
            assert seat is not None
            state = state.apply(players[seat].choose(state.view(seat), random.Random(seed)))
        lost += _lost(state.results[number], knocker, after.rules)
    return Fraction(lost, len(heads))


def risk_with_hands_shown(
    view: PlayerView, hands: Sequence[Sequence[Card]], samples: int = 2_000, seed: int = 0
) -> Fraction:
    """The knock risk (:func:`~scatlab.analysis.knock_risk`) that the player of ``view`` takes
    by knocking now, with every opponent's real hand shown to it (``hands``, one per opponent
    in the order of ``view.opponents``): the stated last-turn policy of each opponent, the
    stock's order unknown. Exact against one opponent, else a Monte Carlo estimate over
    ``samples`` orders of the stock (``seed``). Beside :func:`expected_loss` (the real players
    playing the last turns) it tells how much of a model's error is its picture of the hands.

    >>> from scatlab.rules import GameState, deal_order
    >>> from scatlab.players import make_player
    >>> s = GameState.new("classic", 2).deal(deal_order(["AS 8S 10H", "KC QC 5C"], up="AH"))
    >>> risk_with_hands_shown(s.view(1), [s.hands[0]])   # the policy takes the AH (21): no threat to 25
    Fraction(0, 1)
    >>> expected_loss(s.apply("knock"), 1, [make_player("tip"), make_player("tip")])  # tip draws for spades
    Fraction(2, 15)
    """
    if not isinstance(view, PlayerView):
        raise PlayerError(f"risk_with_hands_shown needs the knocker's PlayerView, not {shown(view)}")
    knowledge = Knowledge.from_view(view)
    if not isinstance(hands, (list, tuple)) or len(hands) != knowledge.opponents:
        raise PlayerError(
            f"risk_with_hands_shown needs one hand per opponent ({knowledge.opponents}), not {shown(hands)}"
        )
    open_hands = replace(knowledge, opponent_holds=tuple(tuple(h) for h in hands))
    return knock_risk(open_hands, samples=samples, opponent_model="uniform", seed=seed).p_lose


TOLD_KINDS: tuple[FilterKind, ...] = (TIP_PLAY, STRONG_PLAY)
"""The kinds of the study's model ``"told"``: the tip player exactly (the casual kind without
its slip) and the strong kind (the expert has no exact kind: the strong kind chooses its
cards as it does, with a slip, and knocks by its rule)."""
TOLD_ODDS: dict[str, tuple[float, float]] = {"tip": (1.0, 0.0), "expert": (0.0, 1.0)}
"""The model ``"told"``'s odds of :data:`TOLD_KINDS` for each player kind it can be told."""


def _check_flags(kinds: Sequence[str], **flags: object) -> None:
    """Refuse a flag that is not a boolean, and ``told_model`` for players the filter cannot
    be told (:data:`TOLD_ODDS`)."""
    for name, flag in flags.items():
        if not isinstance(flag, bool):
            raise PlayerError(f"{name}={shown(flag)} is not allowed: use True or False")
    if flags.get("told_model") and not set(kinds) <= set(TOLD_ODDS):
        raise PlayerError(
            f"told_model needs every player to be one of {', '.join(TOLD_ODDS)} (the kinds the "
            f"filter can be told), not {', '.join(kinds)}"
        )


def _told(observations: Observations, opponents: Sequence[str]) -> Observations:
    """``observations`` for the model ``"told"``: the filter told that the opponents (in turn
    order) are these player kinds (:data:`TOLD_KINDS` with :data:`TOLD_ODDS`)."""
    return replace(observations, kinds=TOLD_KINDS, odds=tuple(TOLD_ODDS[kind] for kind in opponents))


def _predict(
    view: PlayerView,
    opponents: Sequence[str],
    models: Sequence[OpponentModelName],
    samples: int,
    seed: int,
    *,
    table_model: bool = False,
    told_model: bool = False,
) -> dict[str, float]:
    """Each of the study's models' knock risk from ``view``: ``models``, then ``"table"``
    and ``"told"`` (the opponents being these player kinds, in turn order) when asked,
    every estimate with the same ``seed``."""
    knowledge = Knowledge.from_view(view)
    plain = Observations.from_view(view, knock_rules=False)  # the log read once
    observations = with_knock_rules(view, plain)
    chosen: dict[str, tuple[OpponentModelName, Observations]] = {model: (model, observations) for model in models}
    if table_model:
        chosen["table"] = ("adaptive", plain)
    if told_model:
        chosen["told"] = ("adaptive", _told(observations, opponents))
    return {
        name: float(knock_risk(knowledge, samples=samples, seed=seed, opponent_model=model, observations=seen).p_lose)
        for name, (model, seen) in chosen.items()
    }


def collect_knocks(
    kinds: Sequence[str],
    games: int,
    *,
    rules: str | RuleSet = "classic",
    seed: int = 0,
    samples: int = 2_000,
    models: Sequence[OpponentModelName] = ("uniform", "adaptive"),
    first_game: int = 0,
    given_hands: int = 0,
    table_model: bool = False,
    told_model: bool = False,
) -> list[Knock]:
    """Play games ``first_game .. first_game + games - 1`` of the tournament with these
    entrants and seed (:func:`scatlab.players.tournament.play_out`: the same games a
    tournament plays) and record every knock (see the module doc); with ``given_hands``
    (a number of stock orders, 0 for none) also the knocker's chance of losing given the
    real hands (:func:`expected_loss`, seeded per knock) and the knock risk with those hands
    shown (:attr:`Knock.shown`); with ``table_model`` also the
    adaptive model's prediction when the strong kind knocks by its measured chances rather
    than by the expert's rule at each opponent turn (``Observations.from_view(view,
    knock_rules=False)``: the model in play before the rule, and the expert's own picture of
    its opponents), as the model ``"table"``; with ``told_model`` also the model in play
    *told who each opponent is* (:data:`TOLD_KINDS`, the model ``"told"``: a ``tip`` entrant
    is pictured as exactly the tip player, :data:`~scatlab.analysis.model.hand_filter.TIP_PLAY`, an
    ``expert`` one as the strong kind), a control that measures how much of the error comes
    from not knowing the opponents' kinds (only for games of ``tip`` and ``expert`` players)."""
    ruleset = find_rules(rules)
    whole_number("given_hands", given_hands, 0, 100_000, error=PlayerError)
    _check_flags(kinds, table_model=table_model, told_model=told_model)
    players = [make_player(k) for k in kinds]
    out: list[Knock] = []

    for game in range(first_game, first_game + games):
        pending: list[tuple[int, int, Knock]] = []  # (hand number, knocker's seat, the knock so far)

        def observe(before: GameState, entrant: int, view: PlayerView, action: Action, after: GameState) -> None:
            if action.kind is ActionKind.KNOCK:
                knock_seed = len(out) + len(pending) + 1000 * game  # every estimate at this knock alike
                against = tuple(kinds[seat_entrant[p]] for p in view.opponents)
                predicted = _predict(
                    view, against, models, samples, knock_seed, table_model=table_model, told_model=told_model
                )
                turn = sum(1 for e in view.history if e.player == view.player and e.action.kind is ActionKind.DISCARD)
                expected = shown_risk = None
                if given_hands:
                    at_seat = [players[seat_entrant[s]] for s in range(after.num_players)]
                    expected = float(expected_loss(after, view.player, at_seat, given_hands, seed=knock_seed))
                    shown_risk = float(
                        risk_with_hands_shown(view, [before.hands[p] for p in view.opponents], samples, seed=knock_seed)
                    )
                pending.append(
                    (
                        len(before.results),
                        view.player,
                        Knock(kinds[entrant], len(against), turn, predicted, False, against, expected, shown_risk),
                    )
                )
            while pending and len(after.results) > pending[0][0]:
                number, seat, knock = pending.pop(0)
                out.append(replace(knock, lost=_lost(after.results[number], seat, ruleset)))

        seats, _ = seating(game, len(kinds))
        seat_entrant = {s: i for i, s in enumerate(seats)}
        play_out(players, kinds, ruleset, seed, game, observe)
    return out


@dataclass(frozen=True)
class PosteriorRisk:
    """The knock risk under the exact posterior of the opponents' hands, as
    :func:`posterior_risk` samples it: the mean over the kept deals of the knock risk with
    their hands shown (``risk``, None when no deal was kept), the spread of that risk over
    the kept deals (how far the real hands' risk may fall from ``risk``), the standard error
    of ``risk`` (the sample's: infinite with fewer than two deals kept), and how many deals
    were kept of how many tried."""

    risk: float | None
    spread: float
    std_error: float
    accepted: int
    tries: int


def posterior_risk(
    state: GameState, players: Sequence[Player], *, tries: int = 20_000, seed: int = 0, samples: int = 2_000
) -> PosteriorRisk:
    """The risk the player to move in ``state`` takes by knocking now, averaged over the
    opponents' hands **as they could really be**: rejection sampling from the real deal.

    The player's own dealt cards, the card turned up and every card it drew from the stock
    stay where they were in the deck; every other card is shuffled (``tries`` times,
    ``random.Random(seed)``); the hand is dealt again (:func:`~research.calibration.deals.redeal`) and
    replayed, the player's own actions as they were and every opponent's chosen afresh by
    the real ``players`` (one per seat); a deal is kept only when every opponent did
    exactly what was seen (its draws, takes, throws, and not knocking). The kept deals are
    draws from the exact posterior of the hidden cards given all the player knows, with no
    model of how opponents play but the players themselves, so their mean knock risk with
    the hands shown (:func:`risk_with_hands_shown`: the stated last-turn policy, the stock
    unknown) is what the adaptive model's knock risk should be if its picture of the hands
    is right. Its cost is ``tries`` replays of the hand so far, and each opponent turn seen
    keeps only a few deals in a hundred: practical while the opponents have played a turn
    or two, and with players that choose fast (``tip``; an ``expert`` opponent takes
    milliseconds a choice).

    >>> from scatlab.rules import deal_order
    >>> s = GameState.new("classic", 2).deal(deal_order(["AH KH 5C", "2S 3S 9H"], up="QH"))
    >>> s = s.apply("take").apply("discard 2S")      # seat 1, a tip, takes the QH for hearts
    >>> p = posterior_risk(s, [make_player("tip"), make_player("tip")], tries=20_000)
    >>> p.accepted, round(p.risk, 3), round(p.std_error, 3)
    (160, 0.359, 0.029)
    >>> view = s.view(0)                             # the model told it faces a tip agrees
    >>> told = _told(Observations.from_view(view), ["tip"])
    >>> round(float(knock_risk(Knowledge.from_view(view), observations=told).p_lose), 3)
    0.35
    """
    if not isinstance(state, GameState):
        raise PlayerError(f"posterior_risk needs a GameState at the start of a player's turn, not {shown(state)}")
    if state.to_move is None or state.phase.value != "turn":
        raise PlayerError(
            f"posterior_risk is for the start of a turn, where a knock is made instead of drawing (C6), "
            f"not the {state.phase.value!r} phase"
        )
    me = state.to_move
    view = state.view(me)
    if (
        not isinstance(players, (list, tuple))
        or len(players) != state.num_players
        or not all(isinstance(p, Player) for p in players)
    ):
        raise PlayerError(f"posterior_risk needs one player per seat ({state.num_players}), not {shown(players)}")
    whole_number("tries", tries, 1, 10_000_000, error=PlayerError)
    whole_number("samples", samples, 1, MAX_SAMPLES, error=PlayerError)
    whole_number("seed", seed, *SEED_RANGE, error=PlayerError)
    deck = state.decks[-1]
    events = state.events
    up = len(deck) - len(state.stock) - 1  # the card turned up; the stock follows it
    start = hand_start(state)  # every deck is dealt from here (deals.redeal)
    dealt = set(start.deal(deck).hands[me])  # the player's cards as the deal gave them
    fixed = {i for i in range(up) if deck[i] in dealt} | {up}
    draws = 0
    for e in events:
        if e.action.kind is ActionKind.DRAW:
            if e.player == me:
                fixed.add(up + 1 + draws)
            draws += 1
    free = [i for i in range(len(deck)) if i not in fixed]
    cards = [deck[i] for i in free]
    rng = random.Random(seed)
    risks: dict[tuple[tuple[int, ...], ...], float] = {}
    kept: list[float] = []
    for _ in range(tries):
        rng.shuffle(cards)
        order = list(deck)
        for i, c in zip(free, cards):
            order[i] = c
        s = start.deal(order)
        for e in events:
            if s.to_move != e.player:
                break
            action = e.action if e.player == me else players[e.player].choose(s.view(e.player), rng)
            if action != e.action:
                break
            s = s.apply(action)
        else:
            if s.to_move == me:
                hands = [s.hands[p] for p in view.opponents]
                key = tuple(tuple(sorted(c.index for c in h)) for h in hands)  # whose cards matters
                if key not in risks:
                    risks[key] = float(risk_with_hands_shown(view, hands, samples, seed))
                kept.append(risks[key])
    n = len(kept)
    if not n:
        return PosteriorRisk(None, 0.0, 0.0, 0, tries)
    mean = sum(kept) / n
    squares = sum((r - mean) ** 2 for r in kept)
    error = math.sqrt(squares / (n - 1) / n) if n > 1 else math.inf
    return PosteriorRisk(mean, math.sqrt(squares / n), error, n, tries)


@dataclass(frozen=True)
class PosteriorCheck:
    """One real knock checked against the exact posterior: the knocker's kind, its
    opponents' kinds, the most turns an opponent had played in the hand, each model's
    prediction, the knock risk under the exact posterior (:func:`posterior_risk`) and the
    knock risk with the real hands shown (:func:`risk_with_hands_shown`)."""

    kind: str
    against: tuple[str, ...]
    opponent_turns: int
    predicted: dict[str, float]
    posterior: PosteriorRisk
    shown: float


def posterior_checks(
    kinds: Sequence[str],
    games: int,
    *,
    rules: str | RuleSet = "classic",
    seed: int = 0,
    samples: int = 2_000,
    tries: int = 20_000,
    max_turns: int = 1,
    against: Sequence[str] = ("tip",),
    max_opponents: int = 1,
    min_predicted: float = 0.0,
    first_game: int = 0,
    told_model: bool = False,
) -> list[PosteriorCheck]:
    """At every real knock of the tournament's games (as :func:`collect_knocks` plays and
    predicts them) against at most ``max_opponents`` opponents (by default one: in a hand
    left to two, where every risk is exact and quick), all of the kinds ``against``, who
    have each played at most ``max_turns`` turns in the hand, the models' predictions beside the knock risk under
    the exact posterior of the hands (:func:`posterior_risk` with ``tries`` deals, the real
    players replaying the opponents' turns) and with the real hands shown. The model's
    prediction minus the posterior risk is its picture's error with no luck in it; the real
    hands' risk minus the posterior risk is luck alone, whose size the posterior's own spread
    tells (:func:`posterior_table`). Opponents are limited to fast players (``tip`` by
    default) because every deal tried replays their choices; ``min_predicted`` leaves out
    the knocks the model in play (``"adaptive"``) gave a smaller risk, to spend the samples
    on the risky ones.

    >>> checks = posterior_checks(["tip", "tip"], games=3, seed=1, tries=300, max_turns=2)
    >>> len(checks) > 0 and all(c.posterior.tries == 300 and 0 <= c.shown <= 1 and c.opponent_turns <= 2
    ...                         for c in checks)
    True
    """
    ruleset = find_rules(rules)
    whole_number("max_turns", max_turns, 0, 1_000, error=PlayerError)
    whole_number("max_opponents", max_opponents, 1, 8, error=PlayerError)
    if not isinstance(min_predicted, (int, float)) or isinstance(min_predicted, bool) or not 0 <= min_predicted <= 1:
        raise PlayerError(f"min_predicted={shown(min_predicted)} is not allowed: a chance from 0 to 1")
    _check_flags(kinds, told_model=told_model)
    players = [make_player(k) for k in kinds]
    out: list[PosteriorCheck] = []
    for game in range(first_game, first_game + games):
        counter = itertools.count()

        def observe(before: GameState, entrant: int, view: PlayerView, action: Action, after: GameState) -> None:
            if action.kind is not ActionKind.KNOCK:
                return
            foes = tuple(kinds[seat_entrant[p]] for p in view.opponents)
            turns = max(
                sum(1 for e in view.history if e.player == p and e.action.kind is ActionKind.DISCARD)
                for p in view.opponents
            )
            if len(foes) > max_opponents or not set(foes) <= set(against) or turns > max_turns:
                return
            knock_seed = next(counter) + 1000 * game  # every knock looked at, kept or not
            predicted = _predict(view, foes, ("uniform", "adaptive"), samples, knock_seed, told_model=told_model)
            if predicted["adaptive"] < min_predicted:
                return
            real = float(risk_with_hands_shown(view, [before.hands[p] for p in view.opponents], samples, knock_seed))
            fresh = [make_player(kinds[seat_entrant[s]]) for s in range(before.num_players)]
            posterior = posterior_risk(before, fresh, tries=tries, seed=knock_seed, samples=samples)
            out.append(PosteriorCheck(kinds[entrant], foes, turns, predicted, posterior, real))

        seats, _ = seating(game, len(kinds))
        seat_entrant = {s: i for i, s in enumerate(seats)}
        play_out(players, kinds, ruleset, seed, game, observe)
    return out


MIN_KEPT = 30
"""A posterior from fewer kept deals is too rough to trust its own standard error:
:func:`posterior_table` leaves such knocks out."""


@dataclass(frozen=True)
class PosteriorBin:
    """Checked knocks whose prediction fell in ``[low, high)``: how many had a posterior
    (at least one deal kept), the mean prediction, the mean posterior risk and its sampling
    standard error, the mean risk with the real hands shown, and the standard error that
    mean has if the real hands are draws from the posterior (the posteriors' spreads)."""

    low: float
    high: float
    knocks: int
    predicted: float
    posterior: float
    posterior_error: float
    shown: float
    luck_error: float


def posterior_table(
    checks: Sequence[PosteriorCheck], model: str, edges: Sequence[float] = DEFAULT_EDGES, min_kept: int = MIN_KEPT
) -> list[PosteriorBin]:
    """Bin the checks whose posterior kept at least ``min_kept`` deals by ``model``'s
    prediction (as :func:`reliability` bins knocks); empty bins are left out.

    >>> c = PosteriorCheck("expert", ("tip",), 1, {"m": 0.12}, PosteriorRisk(0.1, 0.2, 0.01, 400, 9000), 0.3)
    >>> # the luck error: 0.2 / 2 * 2 ** 0.5
    >>> [(b.knocks, b.predicted, b.posterior, b.shown, b.luck_error) for b in posterior_table([c, c], "m")]
    [(2, 0.12, 0.1, 0.3, 0.14142135623730953)]
    """
    kept = [c for c in checks if c.posterior.risk is not None and c.posterior.accepted >= min_kept]
    out = []
    for (low, high), idx in zip(zip(edges, edges[1:]), bin_indices([c.predicted[model] for c in kept], edges)):
        if not idx:
            continue
        group = [kept[i] for i in idx]
        n = len(group)
        out.append(
            PosteriorBin(
                low,
                high,
                n,
                sum(c.predicted[model] for c in group) / n,
                sum(c.posterior.risk or 0.0 for c in group) / n,
                math.sqrt(sum(c.posterior.std_error**2 for c in group)) / n,
                sum(c.shown for c in group) / n,
                math.sqrt(sum(c.posterior.spread**2 for c in group)) / n,
            )
        )
    return out


MAX_PLAYED = 7
""":func:`knock_chances` counts turns after this many turns played together with it."""
MAX_TOOK = 3
""":func:`knock_chances` counts turns after this many cards taken by the others together with it."""
KnockCell = tuple[int, int, int, int]
"""A cell of :func:`knock_chances`: opponents, whole value, turns played, cards the others took."""


def knock_chances(
    kinds: Sequence[str], games: int, *, rules: str | RuleSet = "classic", seed: int = 0, first_game: int = 0
) -> dict[str, dict[KnockCell, tuple[int, int]]]:
    """How often each player kind knocks by the value of its hand: over the tournament's
    games, at every start of a turn where a knock is allowed and the hand is worth 26 or
    more (below 31), ``{kind: {(opponents, whole value, played, took): (knocks, turns)}}``,
    opponents being those still in the game (1: a hand of two players), 30.5 counting as
    30, ``played`` the turns the player had played in the hand before this one (those
    after :data:`MAX_PLAYED` counted with it) and ``took`` the cards the other players had
    taken from the pile in the hand by then (those after :data:`MAX_TOOK` counted with it).
    The knock chances of the filter's strong kind (``hand_filter.STRONG_PLAY``, through
    :func:`knock_table`) and of the chain's ``STRONG_KNOCKS`` are measured with this; the
    split by cards taken shows how the expert holds back when its opponents have been taking
    (the strong kind does not use it: a shift of its chances by it was tried and not kept).

    >>> chances = knock_chances(["tip", "tip"], games=2, seed=1)
    >>> all(k == n for k, n in chances["tip"].values())   # tip always knocks at 26 or more
    True
    >>> {opponents for opponents, value, played, took in chances["tip"]}
    {1}
    """
    ruleset = find_rules(rules)
    players = [make_player(k) for k in kinds]
    counts: dict[str, dict[KnockCell, tuple[int, int]]] = {k: {} for k in kinds}

    def observe(before: GameState, entrant: int, view: PlayerView, action: Action, after: GameState) -> None:
        if len(view.hand) != 3 or not any(a.kind is ActionKind.KNOCK for a in view.legal_actions):
            return
        value = view.value  # a three-card hand always has one
        if value is None or not 26 <= value < 31:
            return
        played = sum(
            1 for e in view.history if e.player == view.player and e.action.kind in (ActionKind.DRAW, ActionKind.TAKE)
        )
        took = sum(1 for e in view.history if e.player != view.player and e.action.kind is ActionKind.TAKE)
        mine = counts[kinds[entrant]]
        key = (len(view.opponents), int(value), min(played, MAX_PLAYED), min(took, MAX_TOOK))
        knocks, turns = mine.get(key, (0, 0))
        mine[key] = (knocks + (action.kind is ActionKind.KNOCK), turns + 1)

    for game in range(first_game, first_game + games):
        play_out(players, kinds, ruleset, seed, game, observe)
    return counts


def knock_table(
    counts: dict[KnockCell, tuple[int, int]], opponents: int, prior: float = 20.0, top: float = 0.99
) -> tuple[tuple[int, tuple[float, ...]], ...]:
    """A filter kind's knock chances (``FilterKind.knocks``: per value 26-30, one chance per
    turn played, 0 to :data:`MAX_PLAYED`) from one kind's :func:`knock_chances` against
    ``opponents``, whatever the others took: each cell's share of knocks, shrunk toward the
    value's share over all turns as if ``prior`` more turns had been seen at that share
    (cells seen a few times stay near it), at most ``top`` (so that no hand is ruled out by
    not knocking), to two decimals.

    >>> counts = {(2, 26, 0, 0): (5, 6), (2, 26, 0, 3): (4, 4), (2, 26, 1, 0): (1, 10)}
    >>> knock_table(counts, 2, prior=10)[0]    # 10 of 20 over all turns: (9 + 5) / 20, (1 + 5) / 20
    (26, (0.7, 0.3, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5))
    """
    summed: dict[tuple[int, int, int], tuple[int, int]] = {}  # the cards taken summed over
    for (o, v, t, _), (k, n) in counts.items():
        k0, n0 = summed.get((o, v, t), (0, 0))
        summed[(o, v, t)] = (k0 + k, n0 + n)
    out = []
    for value in range(26, 31):
        cells = [summed.get((opponents, value, t), (0, 0)) for t in range(MAX_PLAYED + 1)]
        knocks, turns = sum(k for k, _ in cells), sum(n for _, n in cells)
        if not turns:
            continue
        share = knocks / turns
        out.append((value, tuple(round(min(top, (k + prior * share) / (n + prior)), 2) for k, n in cells)))
    return tuple(out)


@dataclass(frozen=True)
class Agreement:
    """How one player kind's choices agree with one kind of the filter
    (:data:`scatlab.analysis.model.hand_filter.LOG_KINDS`), over the turns of seeded games:
    ``takes``: of the discards the filter kind would take, how many the player took, and of
    the turns it would not (``(taken, offered)`` each); ``throws``: the turns where the
    player threw the card the filter kind's table gives, of all its throws (a hand kept at
    31, declared and out of the filter, not counted)."""

    player: str
    kind: str
    takes_worth: tuple[int, int]
    takes_other: tuple[int, int]
    throws: tuple[int, int]


def kind_agreement(
    kinds: Sequence[str], games: int, *, rules: str | RuleSet = "classic", seed: int = 0, first_game: int = 0
) -> list[Agreement]:
    """Each player kind's takes and throws against each filter kind's policy, at every turn
    of the tournament's games (the turn's top discard, hand, card added, the suits the next
    player had taken, whether someone had knocked: what the filter sees, plus the player's
    own hand). How the filter's kinds are checked against the players they stand for.

    >>> tip = {a.kind: a for a in kind_agreement(["tip", "tip"], games=2, seed=1)}["casual"]
    >>> tip.takes_worth[0] == tip.takes_worth[1] and tip.takes_other[0] == 0   # tip takes as the casual kind
    True
    """
    from scatlab.analysis.model.hand_filter import LOG_KINDS, LogFilter
    from scatlab.players.tip import collected_suits

    ruleset = find_rules(rules)
    players = [make_player(k) for k in kinds]
    filt = LogFilter.of(ruleset)
    tables = filt.tables
    counts = {(p, k): [0, 0, 0, 0, 0, 0] for p in dict.fromkeys(kinds) for k in range(len(LOG_KINDS))}
    turn: dict[int, tuple[int, set[int], bool]] = {}

    def observe(before: GameState, entrant: int, view: PlayerView, action: Action, after: GameState) -> None:
        kind, last = action.kind, view.knocker is not None
        if kind in (ActionKind.DRAW, ActionKind.TAKE) and len(view.hand) == 3:
            cards = sorted(c.index for c in view.hand)
            row = tables.row(cards)
            turn[view.player] = (row, set(cards), kind is ActionKind.TAKE)
            top = view.top_discard
            if top is not None:
                for k in range(len(LOG_KINDS)):
                    worth = bool(filt.take_mask(k, last)[top.index, row])
                    c = counts[(kinds[entrant], k)]
                    c[0 if worth else 2] += kind is ActionKind.TAKE
                    c[1 if worth else 3] += 1
        elif kind is ActionKind.DISCARD and view.player in turn and action.card is not None:
            row, held, taken = turn.pop(view.player)
            added = [c.index for c in view.hand if c.index not in held]
            kept = [c for c in view.hand if c != action.card]
            if len(added) != 1 or tables.value2_of_cards(sorted(c.index for c in kept)) >= 62:
                return
            avoid = frozenset(collected_suits(view, view.opponents[0])) if view.opponents else frozenset()
            for k in range(len(LOG_KINDS)):
                c = counts[(kinds[entrant], k)]
                c[4] += int(filt.throw_table(k, avoid, taken, last)[row, added[0]]) == action.card.index
                c[5] += 1

    for game in range(first_game, first_game + games):
        turn.clear()
        play_out(players, kinds, ruleset, seed, game, observe)
    return [Agreement(p, LOG_KINDS[k].name, (c[0], c[1]), (c[2], c[3]), (c[4], c[5])) for (p, k), c in counts.items()]


@dataclass(frozen=True)
class HandPicture:
    """One opponent's hand at a real knock, as the knocker's adaptive model pictured it and
    as it was: the opponent's entrant kind, the turns it had played in the hand, whether it
    had taken a card from the discard pile in the hand, the model's mean hand value and its
    chance of a hand worth at least ``high``, and the real hand's value."""

    kind: str
    turns: int
    took: bool
    model_mean: float
    model_high: float
    real: float
    high: float


def hand_fidelity(
    kinds: Sequence[str],
    games: int,
    *,
    rules: str | RuleSet = "classic",
    seed: int = 0,
    high: float = 20,
    first_game: int = 0,
    chain: bool = False,
    told_model: bool = False,
) -> list[HandPicture]:
    """At every real knock of the tournament's games (as :func:`collect_knocks` plays
    them), every opponent's hand as the knocker's adaptive model pictures it (the weights
    of :func:`scatlab.analysis.model.weights.row_weights`, from the knocker's view) beside the
    real hand: where the knock risk's error comes from when the calibration is off.
    ``chain``: picture the hands as the model does without the order of the turns (the
    prior chain and the rejected cards, as for typed-in observations) instead of following
    the log (the filter); ``told_model``: picture them as the study's model ``"told"`` does
    (the filter told who each opponent is, :data:`TOLD_KINDS`, as :func:`collect_knocks`
    with ``told_model``; only for games of ``tip`` and ``expert`` players). The games played
    are the same.

    >>> pictures = hand_fidelity(["tip", "tip"], games=2, seed=1)
    >>> all(0 <= p.model_high <= 1 and 0 < p.model_mean <= 31 for p in pictures)
    True
    >>> told = hand_fidelity(["tip", "tip"], games=2, seed=1, told_model=True)
    >>> [(p.turns, p.real) for p in told] == [(p.turns, p.real) for p in pictures]   # the same hands
    True
    """
    _check_flags(kinds, chain=chain, told_model=told_model)
    if chain and told_model:
        raise PlayerError("chain and told_model cannot go together: the model told follows the turns (the filter)")
    ruleset = find_rules(rules)
    tables = tables_for(ruleset)
    values = tables.value2 / 2
    is_high = tables.value2 >= 2 * high
    players = [make_player(k) for k in kinds]
    out: list[HandPicture] = []
    for game in range(first_game, first_game + games):

        def observe(before: GameState, entrant: int, view: PlayerView, action: Action, after: GameState) -> None:
            if action.kind is not ActionKind.KNOCK:
                return
            knowledge = Knowledge.from_view(view)
            observations = Observations.from_view(view)
            if chain:
                observations = replace(observations, log=None)
            if told_model:
                observations = _told(observations, [kinds[seat_entrant[p]] for p in view.opponents])
            for i, seat in enumerate(view.opponents):
                w = row_weights(knowledge, observations, i)
                w = w / w.sum()
                took = any(e.player == seat and e.action.kind is ActionKind.TAKE for e in view.history)
                real = float(tables.value2[tables.row(sorted(c.index for c in before.hands[seat]))]) / 2
                out.append(
                    HandPicture(
                        kinds[seat_entrant[seat]],
                        observations.turns[i],
                        took,
                        float((w * values).sum()),
                        float(w[is_high].sum()),
                        real,
                        high,
                    )
                )

        seats, _ = seating(game, len(kinds))
        seat_entrant = {s: i for i, s in enumerate(seats)}
        play_out(players, kinds, ruleset, seed, game, observe)
    return out


@dataclass(frozen=True)
class Fidelity:
    """A group of :class:`HandPicture` (one opponent kind, turns played, took or not): how
    many, the model's mean value and the real one, the model's mean chance of a hand worth
    at least ``high`` and the share of real hands that were."""

    kind: str
    turns: int
    took: bool
    hands: int
    model_mean: float
    real_mean: float
    model_high: float
    real_high: float

    @property
    def std_error(self) -> float:
        """The standard error of ``real_high`` if the model's chance were right."""
        return math.sqrt(max(self.model_high * (1 - self.model_high), 1e-12) / self.hands) if self.hands else 0.0


def fidelity(pictures: Sequence[HandPicture], max_turns: int = 6) -> list[Fidelity]:
    """Group the pictures by opponent kind, turns played (``max_turns`` or more together)
    and whether the opponent took a card, in that order.

    >>> p = [HandPicture("tip", 2, True, 18.0, 0.25, 21.0, 20), HandPicture("tip", 2, True, 16.0, 0.5, 19.0, 20)]
    >>> [(f.hands, f.model_mean, f.real_mean, f.model_high, f.real_high) for f in fidelity(p)]
    [(2, 17.0, 20.0, 0.375, 0.5)]
    """
    groups: dict[tuple[str, int, bool], list[HandPicture]] = {}
    for p in pictures:
        groups.setdefault((p.kind, min(p.turns, max_turns), p.took), []).append(p)
    out = []
    for (kind, turns, took), group in sorted(groups.items()):
        n = len(group)
        out.append(
            Fidelity(
                kind,
                turns,
                took,
                n,
                sum(p.model_mean for p in group) / n,
                sum(p.real for p in group) / n,
                sum(p.model_high for p in group) / n,
                sum(p.real >= p.high for p in group) / n,
            )
        )
    return out


@dataclass(frozen=True)
class Bin:
    """Knocks whose prediction fell in ``[low, high)``."""

    low: float
    high: float
    knocks: int
    predicted: float
    observed: float
    spread: float | None = None
    """The standard deviation of the outcomes in the bin when they are chances (``outcome=
    "expected"``); None for 0/1 outcomes."""

    @property
    def std_error(self) -> float:
        """The standard error of the observed rate (binomial for 0/1 outcomes)."""
        if self.knocks == 0:
            return 0.0
        if self.spread is not None:
            return self.spread / math.sqrt(self.knocks)
        return math.sqrt(self.observed * (1 - self.observed) / self.knocks)

    @property
    def gap(self) -> float:
        """Observed minus predicted."""
        return self.observed - self.predicted


@dataclass(frozen=True)
class Reliability:
    """Predicted against observed over a set of knocks, for one model."""

    model: str
    knocks: int
    predicted: float
    observed: float
    brier: float
    bins: tuple[Bin, ...]
    outcome: str = "lost"
    """What was observed: ``"lost"`` (0/1), ``"expected"`` (the chance given the real hands,
    whose squared gap ``brier`` is then the model's error alone, without the draw's luck) or
    ``"shown"`` (the knock risk with the real hands shown: the picture's error alone)."""

    @property
    def bias(self) -> float:
        """Observed minus mean predicted, as :attr:`Bin.gap` is: positive when the knockers
        lost more often than the risk they were given (the risk shown was too low, too
        rosy), negative when less often (too gloomy)."""
        return self.observed - self.predicted

    def table(self, min_bin: int = 200, tolerance: float = 0.02) -> str:
        """A text table; bins with at least ``min_bin`` knocks are marked ok when the observed
        rate is within ``tolerance`` of the mean prediction."""
        seen, score = {
            "lost": ("observed", "Brier"),
            "expected": ("expected given the real hands", "mean squared gap"),
            "shown": ("risk with the real hands shown", "mean squared gap"),
        }[self.outcome]
        lines = [
            f"model {self.model}: {self.knocks:,} knocks, predicted {self.predicted:.2%}, {seen} "
            f"{self.observed:.2%}, bias {self.bias * 100:+.2f} points, {score} {self.brier:.4f}",
            f"| predicted risk | knocks | mean predicted | {seen} (± s.e.) | gap (in s.e. of the "
            f"{dict(lost='prediction', expected='expected loss', shown='risk shown')[self.outcome]})"
            " | within ±2 points |",
            "|---|---:|---:|---:|---:|---|",
        ]
        for b in self.bins:
            if b.knocks == 0:
                continue
            check = ("yes" if abs(b.gap) <= tolerance else "NO") if b.knocks >= min_bin else f"(< {min_bin} knocks)"
            spread = math.sqrt(b.predicted * (1 - b.predicted) / b.knocks) if b.spread is None else b.std_error
            z = f" ({b.gap / spread:+.1f})" if spread > 0 else ""
            lines.append(
                f"| {b.low:.1%}-{b.high:.1%} | {b.knocks:,} | {b.predicted:.2%} | "
                f"{b.observed:.2%} ± {b.std_error:.2%} | {b.gap * 100:+.2f}{z} | {check} |"
            )
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "outcome": self.outcome,
            "knocks": self.knocks,
            "predicted": self.predicted,
            "observed": self.observed,
            "bias": self.bias,
            "brier": self.brier,
            "bins": [
                {"low": b.low, "high": b.high, "knocks": b.knocks, "predicted": b.predicted, "observed": b.observed}
                for b in self.bins
            ],
        }


def bin_indices(predictions: Sequence[float], edges: Sequence[float] = DEFAULT_EDGES) -> list[list[int]]:
    """For each bin ``[edges[j], edges[j+1])`` (the last one closed), the positions of the
    predictions that fall in it: how :func:`reliability` bins the knocks.

    >>> bin_indices([0.01, 0.3, 1.0, 0.12], (0.0, 0.1, 0.5, 1.0))
    [[0], [1, 3], [2]]
    """
    last = len(edges) - 2
    return [
        [i for i, p in enumerate(predictions) if lo <= p < hi or (j == last and p == hi)]
        for j, (lo, hi) in enumerate(zip(edges, edges[1:]))
    ]


def reliability(
    knocks: Sequence[Knock], model: str, edges: Sequence[float] = DEFAULT_EDGES, outcome: str = "lost"
) -> Reliability:
    """Bin the knocks by ``model``'s prediction (bins ``[edges[j], edges[j+1])``, the last
    one closed) against their outcomes: ``"lost"`` (1 or 0), ``"expected"`` (the chance of
    losing given the real hands, :attr:`Knock.expected`: the draw's luck taken out) or
    ``"shown"`` (the knock risk with the real hands shown, :attr:`Knock.shown`: the gap is
    then the picture of the hands alone).

    >>> r = reliability([Knock("tip", 2, 3, {"m": 0.1}, True), Knock("tip", 2, 3, {"m": 0.1}, False)], "m")
    >>> r.observed, round(r.brier, 2), [b.knocks for b in r.bins if b.knocks]
    (0.5, 0.41, [2])
    >>> e = reliability([Knock("tip", 2, 3, {"m": 0.1}, True, (), 0.2), Knock("tip", 2, 3, {"m": 0.1}, False, (), 0.1)],
    ...                 "m", outcome="expected")
    >>> round(e.observed, 2), round(e.bins[3].std_error, 3)
    (0.15, 0.035)
    """
    n = len(knocks)
    preds = [k.predicted[model] for k in knocks]
    if outcome == "lost":
        outcomes = [1.0 if k.lost else 0.0 for k in knocks]
    elif outcome in ("expected", "shown"):
        chances = [k.expected if outcome == "expected" else k.shown for k in knocks]
        missing = sum(c is None for c in chances)
        if missing:
            what = "expected loss" if outcome == "expected" else "risk with the hands shown"
            raise PlayerError(
                f"outcome={outcome!r} needs every knock's {what} (collect_knocks(..., "
                f"given_hands=...)); {missing} of {n} knocks have none"
            )
        outcomes = [c for c in chances if c is not None]
    else:
        raise PlayerError(f"outcome={outcome!r} is not allowed: 'lost', 'expected' or 'shown'")
    bins = []
    for (lo, hi), idx in zip(zip(edges, edges[1:]), bin_indices(preds, edges)):
        m = len(idx)
        mean = sum(outcomes[i] for i in idx) / m if m else 0.0
        spread = math.sqrt(sum((outcomes[i] - mean) ** 2 for i in idx) / m) if m and outcome != "lost" else None
        bins.append(Bin(lo, hi, m, sum(preds[i] for i in idx) / m if m else 0.0, mean, spread))
    return Reliability(
        model,
        n,
        sum(preds) / n if n else 0.0,
        sum(outcomes) / n if n else 0.0,
        sum((p - o) ** 2 for p, o in zip(preds, outcomes)) / n if n else 0.0,
        tuple(bins),
        outcome,
    )


def criterion_chance(
    groups: Sequence[Sequence[Knock]],
    model: str,
    *,
    min_bin: int = 200,
    tolerance: float = 0.02,
    runs: int = 2_000,
    seed: int = 0,
    edges: Sequence[float] = DEFAULT_EDGES,
) -> float:
    """How often the calibration criterion (in every group, every bin of :func:`reliability`
    holding ``min_bin`` knocks or more observed within ``tolerance`` of its mean prediction)
    would hold **if every prediction of** ``model`` **were exactly right**: the share of
    ``runs`` simulated studies with the same knocks whose outcomes are drawn as independent
    coin flips with the predicted chances (seeded). A criterion that a perfect model meets
    only now and then says more about the study's size than about the model.

    >>> sure = [Knock("tip", 1, 0, {"m": 0.0}, False)] * 300 + [Knock("tip", 1, 0, {"m": 1.0}, True)] * 300
    >>> criterion_chance([sure], "m", runs=50)
    1.0
    >>> coin = [Knock("tip", 1, 0, {"m": 0.5}, False)] * 250     # 250 flips: within 2 points about 1 time in 2
    >>> 0.3 < criterion_chance([coin], "m", runs=400) < 0.7
    True
    """

    rng = np.random.default_rng(seed)
    lows = np.asarray(edges[:-1])
    parts = []
    for group in groups:
        p = np.array([k.predicted[model] for k in group], dtype=np.float64)
        b = np.clip(np.searchsorted(lows, p, side="right") - 1, 0, len(lows) - 1)
        for j in range(len(lows)):
            mine = p[b == j]
            if len(mine) >= min_bin:
                parts.append(mine)
    passed = 0
    for _ in range(runs):
        passed += all(abs(float((rng.random(len(q)) < q).mean() - q.mean())) <= tolerance for q in parts)
    return passed / runs


def reliability_svg(
    curves: Sequence[tuple[str, Reliability]], title: str, size: int = 360, min_knocks: int = 20
) -> str:
    """A reliability diagram as a standalone SVG: the diagonal (perfect calibration) and,
    per curve, each bin's mean prediction against its observed rate, with ±2 standard
    errors; axes from 0 to the largest value shown. Bins of fewer than ``min_knocks``
    knocks are not drawn (a note under the legend says so): a bin of one knock would show
    0% or 100% with no bar at all.

    >>> one = reliability([Knock("tip", 2, 3, {"a": 0.1}, True)], "a")
    >>> svg = reliability_svg([("adaptive", one)], "t", min_knocks=1)
    >>> svg.startswith("<svg") and "adaptive" in svg, svg.count("<circle")
    (True, 1)
    >>> svg = reliability_svg([("adaptive", one)], "t")
    >>> svg.count("<circle"), "bins of fewer than 20 knocks are not drawn" in svg
    (0, True)
    """
    whole_number("min_knocks", min_knocks, 1, 10**9, error=PlayerError)
    colours = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd"]
    top = 0.1
    left_out = False
    for _, r in curves:
        for b in r.bins:
            if b.knocks >= min_knocks:
                top = max(top, b.predicted, b.observed + 2 * b.std_error)
            left_out = left_out or 0 < b.knocks < min_knocks
    top = min(1.0, math.ceil(top * 10) / 10)
    pad = 48
    plot = size - 2 * pad

    def x(p: float) -> float:
        return pad + plot * p / top

    def y(p: float) -> float:
        return size - pad - plot * p / top

    height = size + 20 * len(curves) + (14 if left_out else 0)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{height}" viewBox="0 0 {size} {height}" '
        f'font-family="sans-serif" font-size="11">',
        '<rect width="100%" height="100%" fill="white"/>',
        f'<text x="{size / 2}" y="18" text-anchor="middle" font-size="13">{_esc(title)}</text>',
        f'<line x1="{x(0)}" y1="{y(0)}" x2="{x(top)}" y2="{y(top)}" stroke="#999" stroke-dasharray="4 3"/>',
        f'<line x1="{x(0)}" y1="{y(0)}" x2="{x(top)}" y2="{y(0)}" stroke="black"/>',
        f'<line x1="{x(0)}" y1="{y(0)}" x2="{x(0)}" y2="{y(top)}" stroke="black"/>',
    ]
    steps = 5
    for s in range(steps + 1):
        v = top * s / steps
        parts.append(f'<text x="{x(v)}" y="{y(0) + 14}" text-anchor="middle">{v:.0%}</text>')
        parts.append(f'<text x="{x(0) - 4}" y="{y(v) + 4}" text-anchor="end">{v:.0%}</text>')
    parts.append(f'<text x="{size / 2}" y="{size - 8}" text-anchor="middle">predicted P(knocker loses)</text>')
    parts.append(
        f'<text x="12" y="{size / 2}" text-anchor="middle" transform="rotate(-90 12 {size / 2})">'
        "observed frequency</text>"
    )
    for k, (label, r) in enumerate(curves):
        colour = colours[k % len(colours)]
        pts = [b for b in r.bins if b.knocks >= min_knocks]
        path = " ".join(f"{x(b.predicted):.1f},{y(b.observed):.1f}" for b in pts)
        parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}"/>')
        for b in pts:
            lo, hi = max(0.0, b.observed - 2 * b.std_error), min(top, b.observed + 2 * b.std_error)
            parts.append(
                f'<line x1="{x(b.predicted):.1f}" y1="{y(lo):.1f}" x2="{x(b.predicted):.1f}" '
                f'y2="{y(hi):.1f}" stroke="{colour}"/>'
            )
            radius = 2 + min(4.0, math.log10(b.knocks + 1))
            parts.append(
                f'<circle cx="{x(b.predicted):.1f}" cy="{y(b.observed):.1f}" r="{radius:.1f}" fill="{colour}"/>'
            )
        parts.append(
            f'<text x="{pad}" y="{size + 14 * (k + 1) - 4}" fill="{colour}">{_esc(label)}: '
            f"{r.knocks:,} knocks, bias {round(r.bias * 100, 1) + 0.0:+.1f} points, Brier {r.brier:.3f}</text>"
        )
    if left_out:
        parts.append(
            f'<text x="{pad}" y="{size + 14 * (len(curves) + 1) - 4}" fill="#555">'
            f"bins of fewer than {min_knocks} knocks are not drawn</text>"
        )
    parts.append("</svg>")
    return "\n".join(parts)


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
