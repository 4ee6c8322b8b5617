"""The package's layers, as tests/test_layers.py enforces them and the docs draw them."""

from __future__ import annotations

__all__ = ["LAYERS"]

LAYERS = {
    "errors": 0,
    "checks": 0,
    "cards": 0,
    "words": 0,
    "rules": 1,
    "analysis": 2,
    "players": 3,
    "session": 4,
    "widgets": 5,
    "course": 6,
    "app": 7,
    "classroom": 8,
    "cli": 9,
    "__main__": 10,
}
"""One layer per folder, lowest first (the README's and the design notes' diagram): a module
may import its own layer and those below, never one above."""
