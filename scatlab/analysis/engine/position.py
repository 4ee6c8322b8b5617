"""The engine's settings and the position it ranks: how it plays (:class:`Style`, the
``expert``'s :data:`EXPERT`), the exact tables it reads at its horizon
(:class:`!HorizonTables`), and a decision to rank (:class:`Position`: what the player knows,
the legal kinds of move, the turns played, the standings and what the opponents were seen
to do)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from ...cards import Suit
from ...checks import real_number, shown, whole_number
from ...errors import AnalysisError
from ...rules.actions import ActionKind
from ...rules.options import RuleSet, find_rules
from ...rules.state import Phase
from ...rules.values import blitz_of
from ...rules.view import PlayerView
from ..counting.horizon import horizon_table
from ..counting.knowledge import Knowledge, collected_suits, opponent_turns
from ..counting.tables import Tables, scoring_rules, tables_for
from ..model.valuation import KnockValuation, Standing, TurnOdds, turn_odds

if TYPE_CHECKING:  # the opponent model is imported when a knock is weighed
    from ..model.observations import Observations

__all__ = ["HORIZON", "FEED_MARGIN", "Style", "EXPERT", "HorizonTables", "horizon_tables", "prepare", "Position"]

HORIZON = 5
"""Own turns ahead a way of playing on is valued at."""
FEED_MARGIN = 2.0
"""Points of expected hand value (five turns ahead) the fast picture of a strong player's
throw gives up not to feed the next player (the opponent model's picture of an ``expert``,
the master's play-outs). The engine itself weighs feeding in the chance of winning."""


# -- the style: how the engine plays ---------------------------------------------------------


@dataclass(frozen=True)
class Style:
    """The engine's settings: ``horizon``, own turns ahead the value figures shown beside
    each way of playing on look (0 to 5; the chance of winning always reads five, the horizon
    the hand model was measured with); ``feed_margin``, the fast throw picture's margin
    (:data:`FEED_MARGIN`: the opponent model's picture of a strong player, the master's
    play-outs); ``valuation``, how ending the hand is valued (:class:`KnockValuation`). The
    defaults (:data:`EXPERT`) are the ``expert``'s.

    >>> Style(horizon=7)
    Traceback (most recent call last):
    ...
    scatlab.errors.AnalysisError: horizon=7 is not allowed: use a whole number from 0 to 5
    """

    horizon: int = HORIZON
    feed_margin: float = FEED_MARGIN
    valuation: KnockValuation = field(default_factory=KnockValuation)

    def __post_init__(self) -> None:
        whole_number("horizon", self.horizon, 0, 5, error=AnalysisError)
        real_number("feed_margin", self.feed_margin, 0, 31, error=AnalysisError)
        if not isinstance(self.valuation, KnockValuation):
            raise AnalysisError(f"valuation={shown(self.valuation)} is not allowed: a KnockValuation")


EXPERT = Style()
"""The engine's default style: the ``expert`` player's."""


@dataclass(frozen=True)
class HorizonTables:
    """The exact tables the engine reads for one scoring configuration and horizon: the
    tables of every hand, each hand's expected value ``horizon`` own turns ahead (scaled),
    its value now, and the one-turn odds."""

    tables: Tables
    future: list[int]  # E_horizon per row, scaled by ``scale``
    scale: int  # 2 * others**horizon
    value2: list[int]  # value2 per row
    odds: TurnOdds


@lru_cache(maxsize=16)
def _horizon_tables(scoring: RuleSet, horizon: int) -> HorizonTables:
    tables = tables_for(scoring)
    future = [int(x) for x in horizon_table(tables, horizon)]
    others = tables.deck_size - 3
    return HorizonTables(tables, future, 2 * others**horizon, [int(x) for x in tables.value2], turn_odds(scoring))


def horizon_tables(rules: RuleSet, horizon: int = HORIZON) -> HorizonTables:
    return _horizon_tables(scoring_rules(rules), horizon)


def prepare(rules: RuleSet | str) -> None:
    """Build the exact tables :func:`~scatlab.analysis.engine.ranking.rank` uses for ``rules`` now (about a second, once
    per scoring configuration and process), so the first ranking answers at once."""
    horizon_tables(find_rules(rules))


# -- the position ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """A decision to rank: what the player knows (:class:`Knowledge`), the kinds of move
    the rules allow now, how many turns each opponent has completed in this hand, whether
    this is a last turn (someone knocked or the bus was stopped: only the hand now counts),
    the standings (:class:`~scatlab.analysis.model.valuation.Standing`; None: a game's first hand),
    the suits the next player took from the pile this hand (``next_collects``), and what the
    opponents were seen to do (``observations``; None: read from the game's log for a
    position from a view, else the turns played and nothing rejected). Build it with
    :meth:`from_view` from a game, or :meth:`of` from a :class:`Knowledge` (the analyzer's
    input)."""

    knowledge: Knowledge
    kinds: frozenset[ActionKind]
    opponent_turns: tuple[int, ...]
    final: bool = False
    standing: Standing | None = None
    next_collects: frozenset[Suit] = frozenset()
    observations: Observations | None = None
    log: tuple[object, ...] = ()
    """The game's log the observations are read from, and who the table announced at each
    seat (a position from a view): part of the position's identity, so two positions with
    other histories or other opponents never share a ranking."""
    view: PlayerView | None = field(default=None, compare=False, repr=False)

    @classmethod
    def from_view(cls, view: PlayerView) -> Position:
        """The position of ``view``'s player, who must be to move with a hand to weigh
        (a turn, a discard, or a 31 to declare); the legal moves are the engine's."""
        if not isinstance(view, PlayerView):
            raise AnalysisError(f"Position.from_view needs a PlayerView, not {shown(view)}")
        if view.to_move != view.player:
            raise AnalysisError(f"player {view.player} is not to move in this view (player {view.to_move} is)")
        if view.phase is Phase.THROW_DOWN:
            raise AnalysisError(
                "the throw-down choice (V11) is made before looking at the cards: there is nothing to rank"
            )
        final = view.knocker is not None or (
            bool(view.history)
            and view.history[-1].player == view.player
            and view.history[-1].action.kind is ActionKind.STOP_BUS
        )
        k = Knowledge.from_view(view)
        nxt = view.opponents[0] if view.opponents else None
        collects = frozenset(collected_suits(view, nxt)) if nxt is not None else frozenset()
        return cls(
            k,
            frozenset(a.kind for a in view.legal_actions),
            tuple(opponent_turns(view)),
            final,
            Standing.from_view(view),
            collects,
            None,
            (view.history, view.past_hands, view.seats),
            view,
        )

    @classmethod
    def of(
        cls,
        knowledge: Knowledge,
        *,
        opponent_turns: Sequence[int] | None = None,
        final: bool = False,
        observations: Observations | None = None,
    ) -> Position:
        """The position of a :class:`Knowledge` (no game around it, a game's first hand): with
        three cards the player may draw (while the stock has cards), take the discard (when
        there is one), pass (C11, the stock gone) and knock (when the rules allow it now,
        :func:`~scatlab.analysis.model.knock.knock_refusal`, and it is not a last turn); a hand of
        three worth 31 is declared (C8, C9; not one already passed, C10); with four cards it
        discards (not the card just taken, C5). ``opponent_turns``: turns each opponent has
        completed in this hand (default: those of ``observations``, else none, as just dealt);
        ``observations``: what each opponent was seen to do
        (:class:`~scatlab.analysis.model.observations.Observations`)."""
        from ..model.knock import knock_refusal

        if not isinstance(knowledge, Knowledge):
            raise AnalysisError(f"Position.of needs a Knowledge (see Knowledge.of), not {shown(knowledge)}")
        if observations is not None:
            from ..model.observations import Observations as _Observations

            if not isinstance(observations, _Observations) or len(observations.turns) != knowledge.opponents:
                raise AnalysisError(
                    f"observations={shown(observations)} is not allowed: Observations of the "
                    f"{knowledge.opponents} opponents"
                )
            if opponent_turns is None:
                opponent_turns = observations.turns
        turns = tuple(opponent_turns) if opponent_turns is not None else (0,) * knowledge.opponents
        if len(turns) != knowledge.opponents or not all(type(t) is int and 0 <= t <= 999 for t in turns):
            raise AnalysisError(
                f"opponent_turns={shown(opponent_turns)} is not allowed: give one whole number "
                f"0 to 999 for each of the {knowledge.opponents} opponents"
            )
        if type(final) is not bool:
            raise AnalysisError(f"final={shown(final)} is not allowed: use True or False")
        k = knowledge
        kinds: set[ActionKind] = set()
        if len(k.hand) == 4:
            kinds.add(ActionKind.DISCARD)
        elif blitz_of(k.hand, k.rules) and not k.undeclared_31:
            kinds.add(ActionKind.DECLARE)
            if k.rules.declare == "manual":
                kinds.add(ActionKind.PASS)
        else:
            stock = k.stock_size is None or k.stock_size > 0
            if stock:
                kinds.add(ActionKind.DRAW)
            if k.top is not None:
                kinds.add(ActionKind.TAKE)
            if not stock:
                kinds.add(ActionKind.PASS)
            elif not final and knock_refusal(k) is None:
                kinds.add(ActionKind.KNOCK)
        return cls(k, frozenset(kinds), turns, final, None, frozenset(), observations)

    @property
    def seats(self) -> Standing:
        """The standings the valuation reads (:attr:`standing`, or a game's first hand)."""
        if self.standing is not None:
            return self.standing
        return Standing.fresh(self.knowledge.rules, self.knowledge.opponents)

    def strong(self) -> tuple[float, ...]:
        """Each opponent's chance of being a strong player (a position from a view): 0 or 1
        for a seat the table announced as a ``tip``, ``expert`` or ``master`` player
        (:data:`~scatlab.analysis.model.kinds.ANNOUNCED_KINDS`), else as the opponent
        model has learned it from the hands shown earlier in the game; even odds before any
        hand was shown, and for a position typed in."""
        memo = self.__dict__.get("_strong")
        if memo is not None:
            return memo  # type: ignore[no-any-return]
        out: tuple[float, ...] = (0.5,) * self.knowledge.opponents
        if self.view is not None and (self.view.past_hands or self.view.seats):
            from ..model.kinds import kind_odds

            odds = kind_odds(self.view)
            if odds is not None:
                out = tuple(o[1] for o in odds)
        object.__setattr__(self, "_strong", out)
        return out

    def observed(self) -> Observations:
        """What the opponents were seen to do, as the opponent model reads it."""
        from ..model.observations import Observations as _Observations

        if self.observations is not None:
            return self.observations
        if self.view is not None:
            memo = self.__dict__.get("_observed")
            if memo is None:
                memo = _Observations.from_view(self.view, knock_rules=False)
                object.__setattr__(self, "_observed", memo)
            return memo
        n = self.knowledge.opponents
        return _Observations(self.opponent_turns, ((),) * n)
