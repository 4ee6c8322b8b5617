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
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..analysis import GameReview, RankedMove, ReviewedDecision, costliest, rank
from ..checks import whole_number
from ..errors import AnalysisError
from ..rules.actions import ActionKind
from ..words import DOING, YOU, player_label, with_rule
from ..words import points as _pct
from .master import MasterPlayer, SearchResult, planned_deals, search

__all__ = ["DEEP_BUDGET", "DeepLook", "look_deeper", "look_deeper_at_costliest"]

DEEP_BUDGET = 2000
"""Rollouts a deeper look uses by default: about a second on one core (docs/guide/master.md),
more than a move at the table gets, since a learner asks for it once."""

LOOK_CONFIDENCE = 2.0
"""Standard errors a move must be better by for a deeper look to say it finds better, for
every move (the range it prints is this many either side, so a better move's range is above
zero)."""

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


@dataclass(frozen=True)
class DeepLook:
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
    def master_move(self) -> str:
        """The master's move, as the review writes moves (``"draw"``, ``"discard 4C"``)."""
        return str(self.found.moves[self.pick].action)

    @property
    def agrees(self) -> bool:
        """Whether the master plays the review's best move."""
        return self.pick == 0

    def gap(self, i: int, j: int) -> tuple[float, float, float]:
        """How much more often move ``i`` wins the game than move ``j`` (the mean of the
        same deals) and the range two standard errors either side."""
        mean, error = self.found.difference(i, j)
        spread = self.confidence * error
        return mean, mean - spread, mean + spread

    @property
    def review_cost(self) -> float:
        """The review's cost of the move played (0 for the best move and for a close call)."""
        return float(self.decision.cost)

    @property
    def cost_range(self) -> tuple[float, float]:
        """The look's own cost of the move played: how much less often it wins the game than
        the look's best move (:attr:`master_move`), two standard errors either side, never
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
        said = [_doing(m) for m in self.found.moves]
        who = (names or {}).get(self.decision.player, player_label(self.decision.player))
        whose = "your move" if who == YOU else f"the move of {who}"
        if self.found.deals == 0:
            return ("A deeper look found no deal that fits what was seen, so it has nothing to add.",)
        if self.agrees:
            first = f"A deeper look agrees that {said[0]} is the best move."
        else:
            _, low, high = self.gap(self.pick, 0)
            first = (
                f"A deeper look finds {said[self.pick]} better than {said[0]}, the review's best move: it wins "
                f"the game somewhere between {_pct(low)} and {_pct(high)} more often."
            )
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
            cost = (
                f"{whose[:1].upper()}{whose[1:]}, {said[self.played]}, is the move it plays: "
                "it puts its cost at nothing"
            )
        elif low > 0:
            cost = f"It puts {whose}'s cost at {_pct(low)} to {_pct(high)}"
        else:
            cost = (
                f"{whose[:1].upper()}{whose[1:]}, {said[self.played]}, is too close to {said[self.pick]} for the "
                f"look to tell them apart: it puts its cost at nothing to {_pct(high)}"
            )
        if self.cost_agrees:
            verdict = f" ({review}, within that range)." if high > 0 else f" ({review})."
        else:
            verdict = f" ({review}: the look puts it {'lower' if self.review_cost > high else 'higher'})."
        return first, cost + verdict

    def _how(self) -> str:
        if self.found.deals == 0:
            return ""
        said = [_doing(m) for m in self.found.moves]
        moves = ", ".join(said[:-1]) + " and " + said[-1] if len(said) > 1 else said[0]
        return (
            f"in {self.found.deals:,} deals that fit everything that had been seen, each of {moves} was "
            "played to the end of the hand, every player then playing the computer's way, and the chance of "
            "winning the game counted after the hand."
        )

    def how(self) -> str:
        """How the look was made, in the learner's words (empty when no deal could be drawn)."""
        how = self._how()
        return how[:1].upper() + how[1:]

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
            "moves": [
                {
                    "move": str(m.action),
                    "win_after_hand": round(mean, 6),
                    "margin_over_review_best": round(margin, 6),
                    "standard_error": None if math.isinf(err) else round(err, 6),
                }
                for m, mean, margin, err in zip(f.moves, f.means, f.margins, f.errors)
            ],
            "text": self.text(),
        }


def _candidates(decision: ReviewedDecision, master: MasterPlayer) -> tuple[tuple[RankedMove, ...], int]:
    """The moves to search (the master's candidates, at least two, and the move played) and
    the index of the move played among them."""
    ranking = rank(decision.view, master.style)
    moves = list(master.candidates_for(ranking))
    if len(moves) < 2 and len(ranking.moves) > 1:
        moves.append(ranking.moves[1])
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
