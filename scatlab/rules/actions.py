"""Actions a player can take, as small immutable values.

>>> Action.parse("discard 4c"), str(Action.DRAW)
(Action(kind=<ActionKind.DISCARD: 'discard'>, card=Card('4C')), 'draw')
>>> Action.discard("10H").to_json()
{'action': 'discard', 'card': '10H'}
>>> Action("draw") == Action.DRAW, Action("discard", "4c") == Action.discard("4C")
(True, True)
>>> Action("shuffle")
Traceback (most recent call last):
...
scatlab.errors.IllegalActionError: 'shuffle' is not an action: use one of draw, take, discard, knock, pass, hammer,
throw_down, stop_bus, declare (discard needs a card)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, ClassVar

from ..cards import ALL_CARDS, Card, parse_card
from ..checks import notation, shown
from ..errors import IllegalActionError, ScatlabError

__all__ = ["ActionKind", "Action"]


class ActionKind(str, enum.Enum):
    """The kinds of action, with the names used in game records."""

    DRAW = "draw"
    """Draw the top card of the stock (C5)."""
    TAKE = "take"
    """Take the top card of the discard pile (C5; C12 for one's own discard)."""
    DISCARD = "discard"
    """Discard a card face up (C5); needs ``card``."""
    KNOCK = "knock"
    """Knock at the start of a turn instead of drawing (C6, V4-V6)."""
    PASS = "pass"
    """Decline: not taking the discard when the stock is out (C11), not throwing down
    (V11), or not declaring a 31 (C10, manual declaring only)."""
    HAMMER = "hammer"
    """Call an immediate showdown on the very first turn (V10)."""
    THROW_DOWN = "throw_down"
    """Call an immediate showdown before looking at the cards (V11)."""
    STOP_BUS = "stop_bus"
    """After drawing, stop the bus: the hand ends after this discard (V19)."""
    DECLARE = "declare"
    """Declare a 31 (C8, C9; a separate action only with ``declare='manual'``, C10)."""


@dataclass(frozen=True, slots=True)
class Action:
    """One action: its kind and, for a discard, the card.

    The common actions are shared constants (``Action.DRAW``…); discards are interned, so
    building legal-action lists costs no allocation.
    """

    kind: ActionKind
    card: Card | None = None

    DRAW: ClassVar[Action]
    TAKE: ClassVar[Action]
    KNOCK: ClassVar[Action]
    PASS: ClassVar[Action]
    HAMMER: ClassVar[Action]
    THROW_DOWN: ClassVar[Action]
    STOP_BUS: ClassVar[Action]
    DECLARE: ClassVar[Action]

    def __post_init__(self) -> None:
        # ``Action("draw")`` or ``Action("discard", "4C")`` is read like Action.make: the
        # kind becomes an ActionKind and the card a Card, or the action is refused.
        kind = self.kind
        if type(kind) is not ActionKind:
            try:
                kind = _kind(kind)
            except (ValueError, TypeError):
                raise IllegalActionError(f"{shown(kind)} is not an action: {_KINDS_HELP}") from None
            object.__setattr__(self, "kind", kind)
        card = self.card
        if card is not None and type(card) is not Card:
            object.__setattr__(self, "card", parse_card(card))
        if kind is ActionKind.DISCARD and self.card is None:
            raise IllegalActionError("'discard' needs a card, e.g. discard 4C")
        if kind is not ActionKind.DISCARD and self.card is not None:
            raise IllegalActionError(f"{kind.value!r} takes no card, but {shown(card)} was given")

    def __str__(self) -> str:
        if self.card is None:
            return self.kind.value
        return f"{self.kind.value} {self.card}"

    @staticmethod
    def discard(card: Card | str) -> Action:
        """The interned action that discards ``card``."""
        return _DISCARDS[parse_card(card).index]

    def to_json(self) -> dict[str, Any]:
        """The action as in a game record (without the player)."""
        if self.card is None:
            return {"action": self.kind.value}
        return {"action": self.kind.value, "card": str(self.card)}

    @classmethod
    def from_json(cls, data: Any) -> Action:
        """Read ``{"action": "discard", "card": "4C"}`` (a ``player`` key is ignored here).

        >>> Action.from_json({"action": "knock"}) is Action.KNOCK
        True
        """
        if not isinstance(data, dict) or "action" not in data:
            raise IllegalActionError(f"{shown(data)} is not an action: expected an object with an 'action' key")
        return cls.make(data["action"], data.get("card"))

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read ``"draw"``, ``"discard 4C"``… (the kind is read as notation: case and
        width do not matter, see :func:`scatlab.checks.notation`).

        >>> Action.parse("knock 4C")
        Traceback (most recent call last):
        ...
        scatlab.errors.IllegalActionError: 'knock 4C' is not an action: 'knock' takes no card, but '4C' was given
        """
        if not isinstance(text, str):
            raise IllegalActionError(
                f"{shown(text)} is not an action: give an Action or a text such as 'draw' or 'discard 4C'"
            )
        parts = text.split()
        if not parts or len(parts) > 2:
            raise IllegalActionError(f"{shown(text)} is not an action: {_KINDS_HELP}")
        try:
            return cls.make(parts[0], parts[1] if len(parts) == 2 else None)
        except ScatlabError as exc:
            if len(parts) == 1:
                raise
            raise type(exc)(f"{shown(text)} is not an action: {exc}") from None

    @classmethod
    def make(cls, kind: str | ActionKind, card: Card | str | None = None) -> Action:
        """The action of this kind (and card), validated."""
        try:
            kind = _kind(kind)
        except (ValueError, TypeError):
            raise IllegalActionError(f"{shown(kind)} is not an action: {_KINDS_HELP}") from None
        if kind is ActionKind.DISCARD:
            if card is None:
                raise IllegalActionError("'discard' needs a card, e.g. discard 4C")
            return cls.discard(card)
        if card is not None:
            raise IllegalActionError(f"{kind.value!r} takes no card, but {shown(card)} was given")
        return _SIMPLE[kind]


def _kind(kind: object) -> ActionKind:
    """The kind named by ``kind`` (an ActionKind, or its name as notation); ValueError or
    TypeError if none."""
    if isinstance(kind, ActionKind):
        return kind
    if not isinstance(kind, str):
        raise TypeError(kind)
    return ActionKind(notation(kind).strip())


_KINDS_HELP = "use one of " + ", ".join(k.value for k in ActionKind) + " (discard needs a card)"
_SIMPLE = {k: Action(k) for k in ActionKind if k is not ActionKind.DISCARD}
_DISCARDS = tuple(Action(ActionKind.DISCARD, c) for c in ALL_CARDS)
Action.DRAW = _SIMPLE[ActionKind.DRAW]
Action.TAKE = _SIMPLE[ActionKind.TAKE]
Action.KNOCK = _SIMPLE[ActionKind.KNOCK]
Action.PASS = _SIMPLE[ActionKind.PASS]
Action.HAMMER = _SIMPLE[ActionKind.HAMMER]
Action.THROW_DOWN = _SIMPLE[ActionKind.THROW_DOWN]
Action.STOP_BUS = _SIMPLE[ActionKind.STOP_BUS]
Action.DECLARE = _SIMPLE[ActionKind.DECLARE]
