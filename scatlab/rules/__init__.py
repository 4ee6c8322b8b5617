"""The rules engine: options and presets, hand values, the game state, records.

Layer 1 of scatlab: it imports only :mod:`scatlab.cards` and the standard library.

>>> from scatlab.rules import GameState, find_rules, hand_value
>>> hand_value("AH KH 4C")
Fraction(21, 1)
"""

from __future__ import annotations

from .actions import Action, ActionKind
from .governing import governing_rule
from .options import ALIASES, BUS_STEPS, PRESETS, VARIANT_CODES, VARIANT_PARTS, RuleSet, find_rules
from .record import (
    GameRecord,
    HandRecord,
    play_random_game,
    random_policy,
    replay,
    replay_file,
    result_json,
    shuffled_deck,
)
from .rulebook import RULEBOOK, RuleEntry, cited_codes, rule_entry
from .scoring import HandEnd, RuleNote, Settlement, settle
from .state import MAX_PLAYERS, MIN_PLAYERS, GameState, HandResult, Phase, deal_order
from .values import BLITZ, format_value, hand_value, is_blitz, is_flush, tiebreak_key, value_of, value_rule
from .view import Event, PastHand, PlayerView, player_label

__all__ = [
    "Action",
    "ActionKind",
    "ALIASES",
    "BUS_STEPS",
    "PRESETS",
    "VARIANT_CODES",
    "VARIANT_PARTS",
    "RuleSet",
    "find_rules",
    "GameRecord",
    "HandRecord",
    "play_random_game",
    "random_policy",
    "replay",
    "replay_file",
    "result_json",
    "shuffled_deck",
    "RULEBOOK",
    "RuleEntry",
    "cited_codes",
    "rule_entry",
    "governing_rule",
    "HandEnd",
    "RuleNote",
    "Settlement",
    "settle",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "GameState",
    "HandResult",
    "Phase",
    "deal_order",
    "BLITZ",
    "format_value",
    "hand_value",
    "is_blitz",
    "is_flush",
    "tiebreak_key",
    "value_of",
    "value_rule",
    "Event",
    "PastHand",
    "PlayerView",
    "player_label",
]
