"""Which rule of RULES.md governs a player's moment: the one rule code the card table shows
beside the hand (:mod:`scatlab.session`), from the player's view alone.

It knows the rules, not the analysis: whether the advice is to knock (which makes the knock
rule C6 the one to read) is passed in as a plain value.

>>> from scatlab.rules import GameState, deal_order, find_rules
>>> rules = find_rules("classic")
>>> state = GameState.new(rules, 2, dealer=1).deal(deal_order(["AH KH 4C", "2S 3S 5D"], up="QH", dealer=1))
>>> governing_rule(state.view(0), rules, state.declare_context)
'C5'
>>> governing_rule(state.view(0), rules, state.declare_context, advice_knocks=True)
'C6'
"""

from __future__ import annotations

from .actions import ActionKind
from .options import RuleSet
from .state import Phase
from .values import blitz_of, value_of
from .view import PlayerView

__all__ = ["governing_rule"]


def governing_rule(view: PlayerView, rules: RuleSet, declare_context: str = "", advice_knocks: bool = False) -> str:
    """The code of the rule that governs the moment of ``view``'s player: the turn (C5), a
    knock in progress (C6), the empty stock (C11), a possible 31 (C8), a 31 passed (C10), the
    first-round knock ban (V6), a hammer (V10), a throw-down (V11), declaring (C9, C10), the
    bus stop (V19); after a hand, the rule that decided it; after the game, how it is kept.

    ``declare_context`` is the game state's (``"dealt"``: a 31 dealt is declared under C9,
    else under C10); ``advice_knocks`` says the advice for this moment is to knock (C6)."""
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
        return "C9" if declare_context == "dealt" else "C10"
    if not view.is_my_turn:
        return "C6" if view.knocker is not None else "C5"
    kinds = {a.kind for a in view.legal_actions}
    if phase is Phase.DISCARD:
        if any(
            value_of(tuple(c for c in view.hand if c is not d), rules) >= 31 for d in view.hand if d is not view.taken
        ):
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
    if advice_knocks:
        return "C6"
    if ActionKind.KNOCK not in kinds and rules.no_knock_first_round:
        return "V6"
    return "C5"
