"""A deeper look at a reviewed decision: the master's search on demand.

The review (:func:`scatlab.analysis.review_game`) prices every decision by the one engine's
ranking. Where that ranking's answer is close, or a learner wants a second opinion on a
costly decision, :func:`look_deeper` asks the :class:`~scatlab.players.master.MasterPlayer`'s
search: the engine's first moves (as the master picks them) and the move played are each
played to the end of the hand in the same deals sampled from the player's own view
(:class:`~scatlab.players.master.WorldSampler`: never the hidden cards), every seat then
playing the engine's way (:class:`~scatlab.players.master.RolloutPolicy`), and compared by
the chance of winning the game after the hand.

**What it assumes** (the master's model, docs/guide/master.md): the other players' hands
are as likely as the adaptive opponent model says; after the move compared, every seat plays
by the engine's tables and knock line; a hand's outcome is worth what the standing model
says. The figures are estimates from a sample of deals, so each comes with the range two
standard errors either side, and the master's move is the review's best move unless another
is better by more than that: two standard errors for every move, knocks too (at the table the
master trusts a knock from one, ``knock_confidence``; a review that says "finds better" shows
a range wholly above zero).

**Two judgements, apart.** A look says first which move it finds best (it agrees with the
review's best move, or finds another better), then what it puts the move played's cost at: a
range (two standard errors either side) set beside the review's own cost ("it puts your
move's cost at 9.0% to 9.6% (the review said about 11.2%)"). Agreeing on the best move is
never said as agreeing with the review's cost: where the range leaves the review's cost out,
it says the look puts the cost lower or higher (:attr:`DeepLook.cost_agrees`).

>>> from scatlab.rules import GameRecord, deal_order
>>> deck = deal_order(["2S 3S 9D", "AH KH 4C", "5D 6D 8C"], up="QH", stock="9C 9H 2D")
>>> record = GameRecord.from_json({"rules": "classic", "players": 3, "dealer": 0, "hands": [
...     {"deck": [str(c) for c in deck],
...      "actions": [{"player": 1, "action": "take"}, {"player": 1, "action": "discard", "card": "AH"}]}]})
>>> from scatlab.analysis import review_game
>>> look = look_deeper(review_game(record, player=1).decisions[1], budget=60)
>>> look.master_move, look.agrees, look.cost_range[0] > 0
('discard 4C', True, True)

**A deeper look at a view** (:func:`deeper_looks`, :func:`look_at_view`): wherever a best move
is shown (the analyzer, the table's hints, ``scatlab analyze --deep``), the same search at a
:class:`~scatlab.rules.PlayerView` whose seat is to move, the engine's first moves
(:meth:`MasterPlayer.candidates_for <scatlab.players.master.MasterPlayer.candidates_for>`,
at least two) compared with the engine's best. It **refines while the learner looks**: a
first verdict after a small batch of deals (:data:`FIRST_DEALS`), then sharper ones as deals
accumulate, each a :class:`ViewLook`, until the margin is clear (:func:`margin_clear`), the
time (``seconds`` from its start, :data:`LOOK_SECONDS` by default) or the budget is
up. The same seed, view
and budget give the same looks when the budget, not the time, ends it.

>>> from scatlab.rules import GameState
>>> view = GameState.new("classic", 2).deal(deal_order(["9C 10D 2H", "KH QH 5S"], up="4D")).view(1)
>>> looks = list(deeper_looks(view, budget=120, seconds=None))
>>> [look.deals for look in looks], looks[-1].final, looks[-1].stopped
([10, 20, 40], True, 'budget')
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..analysis import CLOSE_CALL, GameReview, RankedMove, Ranking, ReviewedDecision, costliest, rank
from ..checks import real_number, whole_number
from ..errors import AnalysisError
from ..rules.actions import ActionKind
from ..rules.state import Phase
from ..rules.view import PlayerView
from ..words import DOING, YOU, player_label, with_rule
from ..words import points as _pct
from .base import PlayerError
from .master import MasterPlayer, SearchResult, planned_deals, search

__all__ = [
    "DEEP_BUDGET",
    "FIRST_DEALS",
    "LOOK_SECONDS",
    "MIN_CLEAR_DEALS",
    "DeepLook",
    "Judged",
    "ViewLook",
    "deeper_looks",
    "deeper_refusal",
    "look_at_view",
    "look_deeper",
    "look_deeper_at_costliest",
    "margin_clear",
]

DEEP_BUDGET = 8000
"""Rollouts a deeper look uses by default: eight times a move at the table (the master's
:data:`~scatlab.players.master.DEFAULT_BUDGET`), since a learner asks for it once; about half a
second on one core (docs/guide/master.md).

"""
LOOK_CONFIDENCE = 2.0
"""Standard errors a move must be better by for a deeper look to say it finds better, for
every move (the range it prints is this many either side, so a better move's range is above
zero)."""

LOOK_SECONDS = 1.0
"""How long a deeper look at a view may go on sharpening by default, in seconds from its
start (its first batch of :data:`FIRST_DEALS` deals is always played: a few hundredths of a
second once the master's tables are built)."""

FIRST_DEALS = 10
"""Deals in a look's first batch: its first verdict comes after these (a few hundredths of a
second); every later batch plays as many deals as have been played so far."""

MIN_CLEAR_DEALS = 100
"""Deals a look plays at least before it stops because the margin is clear: fewer would let
the spread of a small first batch, itself poorly known, end a look early."""

MAX_SECONDS = 3600.0
"""The longest time limit a look may be given."""

Progress = Callable[[int, int], None]
"""Called with (deals played, deals planned) as a look goes on."""


def _doing(move: RankedMove) -> str:
    """A move as the look says it: ``"drawing"``, ``"taking the A♥ (then throwing the 8♥)"``."""
    kind = move.action.kind
    if kind is ActionKind.TAKE:
        taken = f" the {move.taken.pretty}" if move.taken is not None else ""
        return f"taking{taken}" + (f" (then throwing the {move.then.pretty})" if move.then is not None else "")
    if kind is ActionKind.DISCARD and move.action.card is not None:
        return DOING["discard"].format(move.action.card.pretty)
    if kind is ActionKind.DISCARD or kind.value not in DOING:
        return str(kind.value)
    return with_rule(kind.value, DOING[kind.value])


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _between(low: float, high: float) -> str:
    """A range of margins in words, either side of zero: ``"somewhere between 1.2% and 3.4%
    more often"``, ``"... 0.5% less and 2.0% more often"``."""
    if low >= 0:
        return f"somewhere between {_pct(low)} and {_pct(high)} more often"
    if high <= 0:
        return f"somewhere between {_pct(high)} and {_pct(low)} less often"
    return f"somewhere between {_pct(low)} less and {_pct(high)} more often"


class Judged:
    """What the two kinds of deeper look (:class:`DeepLook`, :class:`ViewLook`) share: a
    search (``found``: the moves searched, the reference's best first), which move the
    master plays (``pick``, an index of ``found.moves``, as :meth:`MasterPlayer.pick`
    decides with ``confidence`` standard errors for every move) and the words that say it."""

    found: SearchResult
    pick: int
    confidence: float

    @property
    def master_move(self) -> str:
        """The master's move, as moves are written (``"draw"``, ``"discard 4C"``)."""
        return str(self.found.moves[self.pick].action)

    @property
    def agrees(self) -> bool:
        """Whether the master plays the reference's best move (the first searched)."""
        return self.pick == 0

    def gap(self, i: int, j: int) -> tuple[float, float, float]:
        """How much more often move ``i`` wins the game than move ``j`` (the mean of the
        same deals) and the range two standard errors either side."""
        mean, error = self.found.difference(i, j)
        spread = self.confidence * error
        return mean, mean - spread, mean + spread

    def said(self) -> list[str]:
        """The moves searched, as the look says them (``"drawing"``)."""
        return [_doing(m) for m in self.found.moves]

    def best_line(self, reference: str, seen: str) -> str:
        """The first judgement, which move is best: the master agrees with ``reference``'s
        best move (the first searched) or finds another better, with its range."""
        said = self.said()
        if self.found.deals == 0:
            return f"A deeper look found no deal that fits {seen}, so it has nothing to add."
        if self.agrees:
            return f"A deeper look agrees that {said[0]} is the best move."
        _, low, high = self.gap(self.pick, 0)
        return (
            f"A deeper look finds {said[self.pick]} better than {said[0]}, {reference}'s best move: it wins "
            f"the game somewhere between {_pct(low)} and {_pct(high)} more often."
        )

    def how_made(self, seen: str) -> str:
        """How the look was made, uncapitalised (empty when no deal could be drawn)."""
        if self.found.deals == 0:
            return ""
        said = self.said()
        moves = ", ".join(said[:-1]) + " and " + said[-1] if len(said) > 1 else said[0]
        return (
            f"in {self.found.deals:,} deals that fit {seen}, each of {moves} was "
            "played to the end of the hand, every player then playing the computer's way, and the chance of "
            "winning the game counted after the hand."
        )

    def moves_json(self, reference: str) -> list[dict[str, Any]]:
        """Each move searched: its mean chance of winning after the hand, its margin over
        the first (``margin_over_<reference>_best``) and that margin's standard error."""
        f = self.found
        return [
            {
                "move": str(m.action),
                "win_after_hand": round(mean, 6),
                f"margin_over_{reference}_best": round(margin, 6),
                "standard_error": None if math.isinf(err) else round(err, 6),
            }
            for m, mean, margin, err in zip(f.moves, f.means, f.margins, f.errors)
        ]


@dataclass(frozen=True)
class DeepLook(Judged):
    """What a deeper look found at one reviewed decision: the moves searched (the review's
    best first, the move played among them), the search (:class:`SearchResult`), which
    move the master plays (``pick``) and which one was played (``played``), as indices of
    ``found.moves``."""

    decision: ReviewedDecision
    found: SearchResult
    pick: int
    played: int
    confidence: float

    @property
    def review_cost(self) -> float:
        """The review's cost of the move played (0 for the best move and for a close call)."""
        return float(self.decision.cost)

    @property
    def cost_range(self) -> tuple[float, float]:
        """The look's own cost of the move played: how much less often it wins the game than
        the look's best move (:attr:`~Judged.master_move`), two standard errors either side, never
        below 0; (0, 0) when the move played is the look's move."""
        if self.played == self.pick:
            return 0.0, 0.0
        _, low, high = self.gap(self.pick, self.played)
        return max(low, 0.0), max(high, 0.0)

    @property
    def cost_agrees(self) -> bool:
        """Whether the review's cost of the move played lies in the look's range."""
        low, high = self.cost_range
        return low <= self.review_cost <= high

    def findings(self, names: Mapping[int, str] | None = None) -> tuple[str, ...]:
        """What the look found, in the learner's words (``names`` as the review names the
        seats), its two judgements apart: which move is best, then what it puts the move
        played's cost at, beside the review's cost."""
        said = self.said()
        who = (names or {}).get(self.decision.player, player_label(self.decision.player))
        whose = "your move" if who == YOU else f"the move of {who}"
        first = self.best_line("the review", "what was seen")
        if self.found.deals == 0:
            return (first,)
        a = self.decision.assessment
        review = (
            "the review called it a close call, at no cost"
            if a.close
            else "the review found no cost"
            if self.review_cost == 0
            else f"the review said about {_pct(self.review_cost)}"
        )
        low, high = self.cost_range
        if self.played == self.pick:
            cost = f"{_capital(whose)}, {said[self.played]}, is the move it plays: it puts its cost at nothing"
        elif low > 0:
            cost = f"It puts {whose}'s cost at {_pct(low)} to {_pct(high)}"
        else:
            cost = (
                f"{_capital(whose)}, {said[self.played]}, is too close to {said[self.pick]} for the "
                f"look to tell them apart: it puts its cost at nothing to {_pct(high)}"
            )
        if self.cost_agrees:
            verdict = f" ({review}, within that range)." if high > 0 else f" ({review})."
        else:
            verdict = f" ({review}: the look puts it {'lower' if self.review_cost > high else 'higher'})."
        return first, cost + verdict

    def _how(self) -> str:
        return self.how_made("everything that had been seen")

    def how(self) -> str:
        """How the look was made, in the learner's words (empty when no deal could be drawn)."""
        return _capital(self._how())

    def lines(self, names: Mapping[int, str] | None = None) -> tuple[str, ...]:
        """:meth:`findings`, then how the look was made (``"How: in 500 deals ..."``)."""
        how = self._how()
        return self.findings(names) + ((f"How: {how}",) if how else ())

    def text(self, names: Mapping[int, str] | None = None) -> str:
        return " ".join(self.lines(names))

    def to_json(self) -> dict[str, Any]:
        f = self.found
        return {
            "hand": self.decision.hand,
            "index": self.decision.index,
            "player": self.decision.player,
            "played": str(f.moves[self.played].action),
            "review_best": str(f.moves[0].action),
            "master": self.master_move,
            "agrees": self.agrees,
            "deals": f.deals,
            "cost_range": [round(x, 6) for x in self.cost_range],
            "review_cost": round(self.review_cost, 6),
            "cost_agrees": self.cost_agrees,
            "moves": self.moves_json("review"),
            "text": self.text(),
        }


def _searched(ranking: Ranking, master: MasterPlayer) -> list[RankedMove]:
    """The master's candidates of ``ranking`` (the engine's best first), at least two where
    the ranking has two moves."""
    moves = list(master.candidates_for(ranking))
    if len(moves) < 2 and len(ranking.moves) > 1:
        moves.append(ranking.moves[1])
    return moves


def _candidates(decision: ReviewedDecision, master: MasterPlayer) -> tuple[tuple[RankedMove, ...], int]:
    """The moves to search (the master's candidates, at least two, and the move played) and
    the index of the move played among them."""
    ranking = rank(decision.view, master.style)
    moves = _searched(ranking, master)
    played = ranking.move(decision.assessment.played)
    if played not in moves:
        moves.append(played)
    return tuple(moves), moves.index(played)


def _master(budget: int, seed: int) -> MasterPlayer:
    """The master that looks (``budget`` rollouts a look), once ``budget`` and ``seed`` are checked."""
    whole_number("budget", budget, 1, 1_000_000, error=AnalysisError)
    whole_number("seed", seed, 0, 2**63 - 1, error=AnalysisError)
    return MasterPlayer(budget=budget, confidence=LOOK_CONFIDENCE, knock_confidence=LOOK_CONFIDENCE)


def _look(
    decision: ReviewedDecision,
    master: MasterPlayer,
    searched: tuple[tuple[RankedMove, ...], int],
    seed: int,
    progress: Progress | None,
) -> DeepLook:
    moves, played = searched
    rng = random.Random(f"deeper:{seed}:{decision.hand}:{decision.index}:{decision.player}")
    found = search(decision.view, moves, master.budget, rng, progress=progress)
    return DeepLook(decision, found, master.pick(found), played, master.confidence)


def look_deeper(
    decision: ReviewedDecision, budget: int = DEEP_BUDGET, seed: int = 0, progress: Progress | None = None
) -> DeepLook:
    """Ask the master about one reviewed ``decision`` (see the module doc): about ``budget``
    rollouts, seeded by ``seed`` and the decision's place in the game, so the same look gives
    the same answer. ``progress`` is called as deals are played."""
    master = _master(budget, seed)
    return _look(decision, master, _candidates(decision, master), seed, progress)


def look_deeper_at_costliest(
    review: GameReview,
    n: int = 3,
    player: int | None = None,
    budget: int = DEEP_BUDGET,
    seed: int = 0,
    progress: Progress | None = None,
) -> tuple[DeepLook, ...]:
    """:func:`look_deeper` at the ``n`` costliest decisions of ``review``
    (:func:`scatlab.analysis.explain.review.costliest`, worst first); ``progress`` counts
    deals over all of them."""
    master = _master(budget, seed)
    chosen: Sequence[ReviewedDecision] = costliest(review, n, player)
    plans = [_candidates(d, master) for d in chosen]
    planned = [planned_deals(budget, len(moves)) for moves, _ in plans]
    total = sum(planned)
    looks = []
    for k, (d, plan) in enumerate(zip(chosen, plans)):
        before = sum(planned[:k])

        def step(done: int, _planned: int, before: int = before) -> None:
            if progress is not None:
                progress(before + done, total)

        looks.append(_look(d, master, plan, seed, step))
    return tuple(looks)


# -- a deeper look at a view ---------------------------------------------------------------------

SEEN = "everything you can see"
"""What the deals of a look at a view fit, in its words."""

STOPPED = ("clear", "budget", "time", "deals")
"""Why a look at a view ended: the margin was clear (:func:`margin_clear`), the budget or
the time was up, or no more deals that fit the view could be drawn."""


def margin_clear(found: SearchResult, confidence: float = LOOK_CONFIDENCE) -> bool:
    """Whether a search's answer is clear: the best move's margin over every other move
    (by its mean, in the same deals) has its range (``confidence`` standard errors either
    side) wholly above zero, or the engine's move (the first) is clearly not beaten: no other
    move's range over it reaches :data:`~scatlab.analysis.CLOSE_CALL` (half a point), so at
    worst it is a close call.

    >>> r = SearchResult((), 4, (0.5, 0.4), (0.0, -0.1), (0.0, 0.0), ((0.5, 0.6, 0.5, 0.6), (0.4, 0.5, 0.4, 0.5)))
    >>> margin_clear(r), _clearly(r, 2.0)
    (True, 'best')
    """
    return bool(_clearly(found, confidence))


def _clearly(found: SearchResult, confidence: float) -> str:
    """How a search's answer is clear (:func:`margin_clear`): ``"best"`` (the best move's
    range above every other's), ``"not beaten"`` (the engine's move at worst a close call),
    or not at all (empty)."""
    n = len(found.scores)
    if found.deals < 2 or n < 2:
        return ""

    def upper(i: int, j: int) -> float:  # the top of the range of move i's margin over move j
        mean, error = found.difference(i, j)
        return mean + confidence * error

    best = max(range(n), key=lambda i: found.means[i])
    if all(-upper(j, best) > 0 for j in range(n) if j != best):  # the best's lower bound above zero
        return "best"
    return "not beaten" if all(upper(i, 0) < float(CLOSE_CALL) for i in range(1, n)) else ""


@dataclass(frozen=True)
class ViewLook(Judged):
    """One verdict of a deeper look at a view (:func:`deeper_looks`): the search so far
    (``found``: the engine's best first, every deal played yet), the master's move
    (``pick``), the deals ``planned`` (the budget's) and why it ``stopped`` (one of
    :data:`STOPPED`; empty while it is still looking)."""

    found: SearchResult
    pick: int
    confidence: float
    planned: int
    stopped: str = ""

    @property
    def deals(self) -> int:
        return self.found.deals

    @property
    def final(self) -> bool:
        """Whether this is the look's last verdict."""
        return bool(self.stopped)

    @property
    def engine_move(self) -> str:
        """The engine's best move, as moves are written."""
        return str(self.found.moves[0].action)

    @property
    def clear(self) -> bool:
        """Whether the answer is clear (:func:`margin_clear`)."""
        return margin_clear(self.found, self.confidence)

    def rival(self) -> int | None:
        """The move the margin line sets against the master's: the best of the others, not
        the engine's when the first line already compares them (None: nothing more to say)."""
        others = [i for i in range(len(self.found.moves)) if i != self.pick and (self.pick == 0 or i != 0)]
        return max(others, key=lambda i: self.found.means[i]) if others and self.found.deals else None

    def margin_line(self) -> str:
        """The master's move's margin over the best of the others, with its range."""
        other = self.rival()
        if other is None:
            return ""
        said = self.said()
        _, low, high = self.gap(self.pick, other)
        if math.isinf(high - low):
            return f"After one deal it cannot yet tell {said[self.pick]} from {said[other]}."
        close = ""
        if low < 0 < high:
            close = ": at worst a close call" if -low < float(CLOSE_CALL) else " (too close to tell apart)"
        return (
            f"{_capital(said[self.pick])} wins the game {_between(low, high)} than {said[other]}, the next best{close}."
        )

    def status(self) -> str:
        """Where the look is: still looking (deals so far), or final and why."""
        n = self.deals
        deals = f"{n:,} deal{'s' if n != 1 else ''}"
        if not self.final:
            return f"Still looking: {n:,} of {self.planned:,} deals so far."
        if self.stopped == "clear":
            if _clearly(self.found, self.confidence) == "not beaten":
                return f"Final, after {deals}: the answer is clear, no other move can be more than a close call better."
            return f"Final, after {deals}: the answer is clear."
        if self.stopped == "deals":
            return f"Final, after {deals}: no more deals that fit could be found."
        end = ", when its time was up." if self.stopped == "time" else "."
        return f"Final, after {deals}{end}" + ("" if self.clear else " The moves are close: the margin is not clear.")

    def how(self) -> str:
        """How the look was made, in the learner's words (empty when no deal could be drawn)."""
        return _capital(self.how_made(SEEN))

    def findings(self) -> tuple[str, ...]:
        """The verdict (the first judgement, as the review's look says it), the margin over
        the next best and where the look is."""
        parts = (self.best_line("the engine", SEEN), self.margin_line(), self.status())
        return tuple(p for p in parts if p)

    def lines(self) -> tuple[str, ...]:
        """:meth:`findings`, then how (``"How: in 500 deals ..."``)."""
        how = self.how_made(SEEN)
        return self.findings() + ((f"How: {how}",) if how else ())

    def text(self) -> str:
        return " ".join(self.lines())

    def to_json(self) -> dict[str, Any]:
        """The look as JSON-ready data: every move's mean, its margin over the engine's best
        with that margin's standard error and range, the deals, the verdict in words."""
        moves = self.moves_json("engine")
        for i, data in enumerate(moves):
            _, low, high = self.gap(i, 0)
            data["margin_range"] = None if i == 0 or math.isinf(high - low) else [round(low, 6), round(high, 6)]
        return {
            "engine_best": self.engine_move,
            "master": self.master_move,
            "agrees": self.agrees,
            "deals": self.deals,
            "planned": self.planned,
            "final": self.final,
            "stopped": self.stopped,
            "clear": self.clear,
            "confidence": self.confidence,
            "moves": moves,
            "verdict": list(self.findings()),
            "how": self.how(),
            "text": self.text(),
        }


def deeper_refusal(view: PlayerView, ranking: Ranking | None = None) -> str | None:
    """Why no deeper look can be taken at ``view`` (None: one can): the seat must be to move
    at a turn or a discard (not when a 31 is declared or a throw-down weighed) with at least
    two moves to weigh.

    >>> from scatlab.rules import GameState, deal_order
    >>> s = GameState.new("classic", 2).deal(deal_order(["9C 10D 2H", "KH QH 5S"], up="4D"))
    >>> deeper_refusal(s.view(0))
    'it is not your turn: a deeper look weighs your own moves'
    >>> deeper_refusal(s.view(1)) is None
    True
    """
    if not isinstance(view, PlayerView):
        raise PlayerError(f"a deeper look needs a PlayerView, not {type(view).__name__}")
    if view.to_move != view.player:
        return "it is not your turn: a deeper look weighs your own moves"
    if view.phase not in (Phase.TURN, Phase.DISCARD):
        return f"there is no turn or discard to weigh now (the {view.phase.value.replace('_', ' ')} phase)"
    moves = (ranking if ranking is not None else rank(view)).moves
    if len(moves) < 2:
        return f"{_doing(moves[0])} is the only move: there is nothing to weigh"
    return None


def _checked(budget: int, seconds: float | None, seed: int) -> None:
    """Refuse a bad ``budget``, ``seconds`` or ``seed`` (an :class:`AnalysisError` quoting it)."""
    whole_number("budget", budget, 1, 1_000_000, error=AnalysisError)
    if seconds is not None and real_number("seconds", seconds, 0, MAX_SECONDS, error=AnalysisError) <= 0:
        raise AnalysisError(f"seconds={seconds!r} is not allowed: use a number more than 0, up to {MAX_SECONDS:g}")
    whole_number("seed", seed, 0, 2**63 - 1, error=AnalysisError)


def _merged(moves: tuple[RankedMove, ...], scores: list[list[float]]) -> SearchResult:
    """One search result of every deal played so far (the batches' scores, side by side)."""
    n = len(scores[0])
    found = SearchResult(moves, n, tuple(sum(s) / n if n else 0.0 for s in scores), (), (), tuple(map(tuple, scores)))
    margins = [found.difference(i, 0) for i in range(len(moves))]
    return dataclasses.replace(found, margins=tuple(m for m, _ in margins), errors=tuple(e for _, e in margins))


def deeper_looks(
    view: PlayerView,
    *,
    ranking: Ranking | None = None,
    budget: int = DEEP_BUDGET,
    seconds: float | None = LOOK_SECONDS,
    seed: int = 0,
    progress: Progress | None = None,
) -> Iterator[ViewLook]:
    """The master's deeper look at ``view`` (its seat to move: :func:`deeper_refusal`), one
    :class:`ViewLook` after each batch of deals, the last one ``final`` (see the module doc).

    ``ranking``: the engine's ranking of the view (default :func:`scatlab.analysis.rank` of
    it, the master's style); its moves must be legal in the view. ``budget``: rollouts in
    all (1 to 1,000,000); ``seconds``: how long it may go on from its start (more than 0, up
    to an hour; None: no limit; the first batch of :data:`FIRST_DEALS` deals is always
    played); ``seed``: with the view's place in the game, the look's random generator.
    ``progress`` is called with (deals played, deals planned). Bad arguments raise
    :class:`~scatlab.errors.AnalysisError` at once; a view with nothing to weigh, a
    :class:`~scatlab.errors.PlayerError`. Only the view is read: it holds no hidden card.
    """
    _checked(budget, seconds, seed)
    if ranking is not None and not isinstance(ranking, Ranking):
        raise AnalysisError(f"ranking={type(ranking).__name__} is not allowed: give the engine's Ranking of the view")
    refusal = deeper_refusal(view, ranking)
    if refusal is not None:
        raise PlayerError(f"no deeper look: {refusal}")
    ranking = ranking if ranking is not None else rank(view)  # remembered: deeper_refusal ranked it
    master = _master(budget, seed)
    moves = tuple(_searched(ranking, master))
    illegal = [str(m.action) for m in moves if m.action not in view.legal_actions]
    if illegal:
        raise AnalysisError(
            f"the ranking's {', '.join(illegal)} is not a legal move in this view: rank the view itself"
        )
    rng = random.Random(f"deeper-view:{seed}:{view.hand_number}:{len(view.history)}:{view.player}")
    return _refine(view, moves, master, rng, seconds, progress)


def _refine(
    view: PlayerView,
    moves: tuple[RankedMove, ...],
    master: MasterPlayer,
    rng: random.Random,
    seconds: float | None,
    progress: Progress | None,
) -> Iterator[ViewLook]:
    """The batches of :func:`deeper_looks`: each searched in new deals, merged with the
    deals before, judged, and yielded."""
    planned = planned_deals(master.budget, len(moves))
    scores: list[list[float]] = [[] for _ in moves]
    start = time.perf_counter()
    while True:
        done = len(scores[0])
        batch = min(max(FIRST_DEALS, done), planned - done)
        left = None if seconds is None or not done else seconds - (time.perf_counter() - start)

        def step(k: int, _batch: int, done: int = done) -> None:
            if progress is not None:
                progress(done + k, planned)

        found = search(view, moves, batch * len(moves), rng, seconds=left, progress=step)
        for out, more in zip(scores, found.scores):
            out.extend(more)
        merged = _merged(moves, scores)
        stopped = ""
        if merged.deals >= planned:
            stopped = "budget"
        elif merged.deals >= MIN_CLEAR_DEALS and margin_clear(merged, master.confidence):
            stopped = "clear"
        elif seconds is not None and time.perf_counter() - start >= seconds:
            stopped = "time"
        elif found.deals < batch:
            stopped = "deals"
        yield ViewLook(merged, master.pick(merged), master.confidence, planned, stopped)
        if stopped:
            return


def look_at_view(
    view: PlayerView,
    *,
    ranking: Ranking | None = None,
    budget: int = DEEP_BUDGET,
    seconds: float | None = LOOK_SECONDS,
    seed: int = 0,
    progress: Progress | None = None,
    on_verdict: Callable[[ViewLook], object] | None = None,
) -> ViewLook:
    """:func:`deeper_looks` to its end: ``on_verdict`` is called with every verdict as it
    sharpens (the last one final), and the final one is returned."""
    look: ViewLook | None = None
    for look in deeper_looks(view, ranking=ranking, budget=budget, seconds=seconds, seed=seed, progress=progress):
        if on_verdict is not None:
            on_verdict(look)
    assert look is not None  # the generator yields at least one verdict
    return look
