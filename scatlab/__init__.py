"""scatlab: teach and analyse the card game 31 (Scat, Blitz).

``import scatlab`` is light: it loads the cards and the rules engine (pure Python, no
ipywidgets, sympy or Jupyter). The rule catalogue's codes (C1-C14, V1-V19) are cited
throughout.

>>> import scatlab
>>> scatlab.hand_value("A♥ K♥ 4♣")
Fraction(21, 1)
>>> game = scatlab.play_random_game("classic", players=3, seed=7)
>>> game.winner in (0, 1, 2)
True
"""

from __future__ import annotations

from .cards import ALL_CARDS, Card, Rank, Suit, deck, format_cards, parse_card, parse_cards
from .errors import CardError, IllegalActionError, RecordError, RulesError, ScatlabError
from .rules import (
    PRESETS,
    Action,
    ActionKind,
    GameRecord,
    GameState,
    HandResult,
    Phase,
    PlayerView,
    RuleSet,
    find_rules,
    hand_value,
    play_random_game,
    replay,
    result_json,
)

__version__ = "0.1.0"

__all__ = [
    "ALL_CARDS",
    "Card",
    "Rank",
    "Suit",
    "deck",
    "format_cards",
    "parse_card",
    "parse_cards",
    "CardError",
    "IllegalActionError",
    "RecordError",
    "RulesError",
    "ScatlabError",
    "PRESETS",
    "Action",
    "ActionKind",
    "GameRecord",
    "GameState",
    "HandResult",
    "Phase",
    "PlayerView",
    "RuleSet",
    "find_rules",
    "hand_value",
    "play_random_game",
    "replay",
    "result_json",
    "__version__",
]
