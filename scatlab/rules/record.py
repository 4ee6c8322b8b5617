"""Game records: the project's save format, and seeded random games.

A record is JSON::

    {"rules": "classic" or {options…}, "players": 3, "dealer": 0,
     "hands": [{"deck": ["AH", "KH", …], "actions": [{"player": 1, "action": "draw"},
                                                      {"player": 1, "action": "discard", "card": "4C"}, …]}, …]}

Each hand's ``deck`` is the full deck order, top first (see :meth:`GameState.deal`); the
dealer of later hands rotates clockwise over the players still in. :func:`replay` rebuilds
the exact game state; :func:`result_json` reports what happened, the shape ``scatlab
replay`` prints.

>>> state = play_random_game("classic", players=3, seed=1)
>>> rec = GameRecord.from_state(state)
>>> replay(GameRecord.from_json(rec.to_json())).results == state.results
True
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from ..cards import Card, deck, parse_cards
from ..checks import MAX_NESTING, MAX_RECORD_CHARS, shown
from ..errors import RecordError, ScatlabError
from .actions import Action
from .options import RuleSet, find_rules
from .state import MAX_PLAYERS, MIN_PLAYERS, GameState, HandResult, Phase, check_seats
from .values import format_value

__all__ = [
    "HandRecord",
    "GameRecord",
    "replay",
    "replay_file",
    "read_record",
    "result_json",
    "shuffled_deck",
    "play_random_game",
    "random_policy",
]


@dataclass(frozen=True)
class HandRecord:
    """One hand of a record: the deck order and the actions, each with its player."""

    deck: tuple[Card, ...]
    actions: tuple[tuple[int, Action], ...]


@dataclass(frozen=True)
class GameRecord:
    """A whole game as data: rules, players, first dealer, every hand, and who sat at each
    seat when the table announced it (``seats``; optional in JSON)."""

    rules: RuleSet
    players: int
    dealer: int
    hands: tuple[HandRecord, ...]
    seats: tuple[str, ...] = ()

    @classmethod
    def from_state(cls, state: GameState) -> GameRecord:
        """The record of everything that happened up to ``state``."""
        hands = tuple(
            HandRecord(d, tuple((e.player, e.action) for e in events))
            for d, events in zip(state.decks, state.hand_actions())
        )
        return cls(state.rules, state.num_players, state.first_dealer, hands, state.seats)

    def to_json(self) -> dict[str, Any]:
        """The record as JSON-ready data (a preset's name, or its options)."""
        rules: Any = self.rules.name if find_rules_safe(self.rules.name) == self.rules else self.rules.to_dict()
        seats: dict[str, Any] = {"seats": list(self.seats)} if self.seats else {}
        return {
            "rules": rules,
            "players": self.players,
            "dealer": self.dealer,
            **seats,
            "hands": [
                {
                    "deck": [str(c) for c in h.deck],
                    "actions": [{"player": p, **a.to_json()} for p, a in h.actions],
                }
                for h in self.hands
            ],
        }

    def dumps(self) -> str:
        """The record as JSON text."""
        return json.dumps(self.to_json(), ensure_ascii=False)

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Read a record from JSON data; bad data raises :class:`RecordError` naming the
        field (and the hand and action, counted from 1) and quoting the bad value.

        Records are read strictly: an object has only the keys of the format (``dealer`` may
        be left out: 0; ``seats``, who sat where: nobody announced; a hand's ``actions``:
        none yet), ``rules`` is a preset name or an object of options, seats and counts are
        whole numbers (not true/false), ``seats`` names every seat or none, ``deck`` is a
        list of card texts, and an action has ``player``, ``action`` and, for a discard
        only, ``card``.

        >>> GameRecord.from_json({"rules": "classic", "players": 2, "hands": [], "comment": "x"})
        Traceback (most recent call last):
        ...
        scatlab.errors.RecordError: unknown key 'comment' in the record: a record has rules, players, dealer, seats
        and hands
        """
        _object(
            data,
            "the record",
            _RECORD_KEYS,
            ("rules", "players", "hands"),
            "a record has rules, players, dealer, seats and hands",
        )
        rules = _read_rules(data["rules"])
        players = _whole(data["players"], "'players'", "the number of players")
        dealer = _whole(data.get("dealer", 0), "'dealer'", "the first dealer's seat")
        try:
            seats = check_seats(data.get("seats", []), players) if MIN_PLAYERS <= players <= MAX_PLAYERS else ()
        except ScatlabError as exc:
            raise RecordError(f"seats: {exc}") from None
        if not isinstance(data["hands"], list):
            raise RecordError(f"'hands' must be a list of hands, not {_short(data['hands'])}")
        hands = tuple(_read_hand(hand, h, rules) for h, hand in enumerate(data["hands"], start=1))
        return cls(rules, players, dealer, hands, seats)

    @classmethod
    def loads(cls, text: str | bytes) -> GameRecord:
        """Read a record from JSON text (or UTF-8 bytes).

        Bounds: at most :data:`~scatlab.checks.MAX_RECORD_CHARS` characters and
        :data:`~scatlab.checks.MAX_NESTING` levels of nested arrays and objects; ``NaN`` and
        ``Infinity`` are not JSON numbers here.

        >>> GameRecord.loads("[" * 40 + "]" * 40)
        Traceback (most recent call last):
        ...
        scatlab.errors.RecordError: the record nests arrays and objects 40 levels deep: at most 32 are accepted
        """
        if isinstance(text, (bytes, bytearray)):
            try:
                text = bytes(text).decode("utf-8")
            except UnicodeDecodeError as exc:
                raise RecordError(
                    f"the record is not UTF-8 text: byte {exc.object[exc.start]:#04x} at offset "
                    f"{exc.start} cannot be decoded"
                ) from None
        if not isinstance(text, str):
            raise RecordError(f"a record is JSON text, not {shown(text)}")
        if len(text) > MAX_RECORD_CHARS:
            raise RecordError(f"the record has {len(text):,} characters: at most {MAX_RECORD_CHARS:,} are accepted")
        depth = _nesting(text)
        if depth > MAX_NESTING:
            raise RecordError(
                f"the record nests arrays and objects {depth} levels deep: at most {MAX_NESTING} are accepted"
            )
        try:
            data = json.loads(text, parse_constant=_no_constant)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
        except (ValueError, RecursionError) as exc:  # e.g. an integer of more than 4300 digits
            if isinstance(exc, RecordError):
                raise
            raise RecordError(f"not a readable record: {str(exc).splitlines()[0][:100]}") from None
        return cls.from_json(data)


_RECORD_KEYS = ("rules", "players", "dealer", "seats", "hands")
_HAND_KEYS = ("deck", "actions")
_ACTION_KEYS = ("player", "action", "card")


def _read_rules(data: Any) -> RuleSet:
    """A record's ``rules``: a preset's name or an object of options."""
    if not isinstance(data, (str, dict)):
        raise RecordError(f"'rules' must be a preset name or an object of options, not {_short(data)}")
    try:
        return find_rules(data)
    except ScatlabError as exc:
        raise RecordError(f"rules: {exc}") from None


def _read_hand(hand: Any, h: int, rules: RuleSet) -> HandRecord:
    """Hand ``h`` of a record (counted from 1): its deck, then its actions."""
    _object(hand, f"hand {h}", _HAND_KEYS, ("deck",), "a hand has 'deck' and 'actions'")
    cards = _read_deck(hand["deck"], h, rules)
    raw_actions = hand.get("actions", [])
    if not isinstance(raw_actions, list):
        raise RecordError(f"hand {h}: 'actions' must be a list, not {_short(raw_actions)}")
    actions = tuple(_read_action(raw, f"hand {h}, action {i}") for i, raw in enumerate(raw_actions, start=1))
    return HandRecord(cards, actions)


def _read_deck(deck_cards: Any, h: int, rules: RuleSet) -> tuple[Card, ...]:
    """Hand ``h``'s ``deck``: a list of card texts, a whole deck of the rules' size."""
    if not isinstance(deck_cards, list):
        raise RecordError(
            f"hand {h}, deck: {_short(deck_cards)} is not allowed: give a list of cards as "
            'texts, e.g. ["AH", "KH", ...]'
        )
    for k, card in enumerate(deck_cards, start=1):
        if not isinstance(card, str):
            raise RecordError(
                f'hand {h}, deck: card {k} is {_short(card)}, not a text: give each card as text such as "AH"'
            )
    try:
        return parse_cards(deck_cards, deck_size=rules.deck_size, what="cards in the deck")
    except ScatlabError as exc:
        raise RecordError(f"hand {h}, deck: {exc}") from None


def _read_action(raw: Any, where: str) -> tuple[int, Action]:
    """One action of a hand, with its player; an error names ``where`` it is."""
    try:
        _object(
            raw,
            "the action",
            _ACTION_KEYS,
            ("player", "action"),
            "an action has player, action and, for a discard, card",
        )
        player = _whole(raw["player"], "'player'", "a seat")
        if not isinstance(raw["action"], str):
            raise RecordError(f"'action' must be a text such as \"draw\", not {_short(raw['action'])}")
        if "card" in raw and not isinstance(raw["card"], str):
            raise RecordError(f"'card' must be a card as text such as \"4C\", not {_short(raw['card'])}")
        act = Action.from_json(raw)
    except ScatlabError as exc:
        raise RecordError(f"{where}: {exc}") from None
    return player, act


def _object(data: Any, what: str, keys: tuple[str, ...], needed: tuple[str, ...], shape: str) -> None:
    """Refuse ``data`` unless it is a JSON object with only ``keys``, ``needed`` among them."""
    if not isinstance(data, dict):
        raise RecordError(f"{what} must be a JSON object, not {_short(data)}: {shape}")
    for key in data:
        if key not in keys:
            raise RecordError(f"unknown key {_short(key)} in {what}: {shape}")
    for key in needed:
        if key not in data:
            raise RecordError(f"{what} has no {key!r}: {shape}")


def _whole(value: Any, name: str, what: str) -> int:
    if type(value) is not int:
        raise RecordError(f"{name} must be a whole number ({what}), not {_short(value)}")
    return value


def _no_constant(name: str) -> Any:
    raise RecordError(f"{name} is not a number a record may hold: use whole numbers")


def _nesting(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON text (strings skipped)."""
    brackets = _BRACKETS.sub("", _STRINGS.sub("", text))
    depth = deepest = 0
    for ch in brackets:
        if ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        else:
            depth -= 1
    return deepest


_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKETS = re.compile(r"[^\[\]{}]+")


def find_rules_safe(name: str) -> RuleSet | None:
    """The preset called ``name``, or None."""
    try:
        return find_rules(name)
    except ScatlabError:
        return None


def _short(value: Any) -> str:
    return shown(value, 40)


def replay(record: GameRecord) -> GameState:
    """Play a record through and return the state reached. Any error names the hand and
    the action within it (both counted from 1: "hand 2, action 5") and the reason, as a
    :class:`RecordError`."""
    if not isinstance(record, GameRecord):
        raise RecordError(f"replay needs a GameRecord (see GameRecord.loads), not {shown(record)}")
    try:
        state = GameState.new(record.rules, record.players, record.dealer, record.seats)
    except ScatlabError as exc:
        raise RecordError(str(exc)) from None
    for h, hand in enumerate(record.hands, start=1):
        if state.phase is not Phase.DEAL:
            raise RecordError(f"hand {h}: hand {h - 1} has not finished, so hand {h} cannot be dealt")
        try:
            state = state.deal(hand.deck)
        except ScatlabError as exc:
            raise RecordError(f"hand {h}, deck: {exc}") from None
        for i, (player, action) in enumerate(hand.actions, start=1):
            try:
                state = state.apply_for(player, action)
            except ScatlabError as exc:
                raise RecordError(f"hand {h}, action {i} ({player}: {action}): {exc}") from None
    return state


def read_record(source: str | Path | IO[Any] | None, name: str | None = None) -> GameRecord:
    """Read a record from a file path or an open file (binary or text, e.g. standard input),
    reading no more than the bound (:data:`~scatlab.checks.MAX_RECORD_CHARS` characters, at
    most four bytes each): an endless file such as ``/dev/zero`` is refused once past it.
    A file that cannot be read (missing, a directory, closed, not UTF-8) raises
    :class:`RecordError`, as does a bad record. ``name`` names the source in messages.

    >>> import io
    >>> read_record(io.BytesIO(b"\\xff\\xfe{"), "standard input")
    Traceback (most recent call last):
    ...
    scatlab.errors.RecordError: the record is not UTF-8 text: byte 0xff at offset 0 cannot be decoded
    """
    if source is None or getattr(source, "closed", False):
        raise RecordError(f"cannot read the record from {name or 'the file'}: it is closed")
    data: str | bytes
    if isinstance(source, (str, Path)):
        shown_name = name or shown(str(source))
        try:
            with open(source, "rb") as fh:
                data = fh.read(_MAX_RECORD_BYTES + 1)
        except (OSError, ValueError) as exc:  # ValueError: a path with a NUL character
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise RecordError(f"cannot read {shown_name}: {reason}") from None
    else:
        shown_name = name or "the file"
        stream = getattr(source, "buffer", source)  # the bytes under a text stream: decoded by loads
        read = getattr(stream, "read", None)
        if not callable(read):
            raise RecordError(f"a record source is a path or an open file, not {shown(source)}")
        try:
            data = read(_MAX_RECORD_BYTES + 1)
        except UnicodeDecodeError:
            raise RecordError(f"cannot read the record from {shown_name}: it is not UTF-8 text") from None
        except (OSError, ValueError) as exc:  # ValueError: a closed file
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise RecordError(f"cannot read the record from {shown_name}: {reason}") from None
        if not isinstance(data, (str, bytes)):
            raise RecordError(f"cannot read the record from {shown_name}: it gave {shown(data)}, not text")
    if len(data) > (_MAX_RECORD_BYTES if isinstance(data, bytes) else MAX_RECORD_CHARS):
        raise RecordError(f"{shown_name} is too big for a record: at most {MAX_RECORD_CHARS:,} characters")
    return GameRecord.loads(data)


_MAX_RECORD_BYTES = MAX_RECORD_CHARS * 4
"""The most bytes read for a record (UTF-8 takes at most four bytes a character)."""


def replay_file(path: str | Path) -> dict[str, Any]:
    """Read a JSON record file (:func:`read_record`), replay it and return
    :func:`result_json` of the end."""
    if not isinstance(path, (str, Path)):
        raise RecordError(f"a record file is a path, not {shown(path)}")
    return result_json(replay(read_record(path)))


def _hand_json(state: GameState, r: HandResult) -> dict[str, Any]:
    rules = state.rules
    data: dict[str, Any] = {
        "hand": r.number,
        "dealer": r.dealer,
        "ended": r.ended,
        "knocker": r.knocker,
        "declarers": list(r.declarers),
        "final": [[str(c) for c in h] for h in r.final],
        "values": [None if v is None else format_value(v) for v in r.values],
        "lives_lost": list(r.lives_lost),
    }
    if rules.score_keeping == "points":
        data["points_won"] = list(r.points_won)
    if r.newly_out:
        data["out"] = list(r.newly_out)
    if r.tie_break:
        data["tie_break"] = True
    data["rules"] = list(r.codes)
    data["explanation"] = [str(n) for n in r.notes]
    return data


def _standing_fields(state: GameState, lives: Sequence[int]) -> dict[str, Any]:
    rules = state.rules
    if rules.score_keeping == "gin":
        return {"letters": ["GIN"[: rules.lives - n] for n in lives]}
    if rules.score_keeping == "bus":
        steps = rules.bus_steps
        return {"positions": [steps[len(steps) - n] if n > 0 else "off the bus" for n in lives]}
    if rules.score_keeping == "points":
        return {"points": list(state.points), "target": rules.points_target}
    return {}


def result_json(state: GameState) -> dict[str, Any]:
    """What happened in a game, as JSON-ready data: every finished hand (how it ended,
    the final hands, exact values as strings, lives lost, the rule codes and sentences that
    decided it), the lives now, who is out (in order) and the winner. Letters (V14), bus
    positions (V15) and points (V16) are added for the presets that keep them. A game that
    stopped mid-hand also reports ``in_progress``: the state reached."""
    data: dict[str, Any] = {
        "rules": state.rules.name,
        "players": state.num_players,
        "hands": [_hand_json(state, r) for r in state.results],
        "lives": list(state.lives),
        "out": list(state.out_order),
        "winner": state.winner,
    }
    data.update(_standing_fields(state, state.lives))
    if state.phase is not Phase.GAME_OVER and state.phase is not Phase.DEAL:
        data["in_progress"] = {
            "hand": state.hand_number,
            "dealer": state.dealer,
            "phase": state.phase.value,
            "to_move": state.to_move,
            "hands": [[str(c) for c in h] for h in state.hands],
            "values": [None if not h else format_value(state.value(p)) for p, h in enumerate(state.hands)],
            "discard_pile": [str(c) for c in state.discards],
            "stock": state.stock_size,
            "knocker": state.knocker,
            "legal_actions": [str(a) for a in state.legal_actions()],
        }
    elif state.phase is Phase.DEAL:
        data["next"] = {"hand": state.hand_number + 1, "dealer": state.dealer}
    return data


# -- seeded random games ------------------------------------------------------------------

Policy = Callable[[GameState, random.Random], Action]


def random_policy(state: GameState, rng: random.Random) -> Action:
    """Any legal action, uniformly at random."""
    actions = state.legal_actions()
    return actions[rng.randrange(len(actions))]


def shuffled_deck(rules: RuleSet | str | Mapping[str, Any], rng: random.Random) -> tuple[Card, ...]:
    """A uniformly shuffled deck for ``rules`` (52 or 32 cards)."""
    cards = list(deck(find_rules(rules).deck_size))
    rng.shuffle(cards)
    return tuple(cards)


def play_random_game(
    rules: RuleSet | str | Mapping[str, Any] = "classic",
    players: int = 3,
    seed: int | None = 0,
    *,
    dealer: int = 0,
    policy: Policy = random_policy,
    max_actions: int = 1_000_000,
) -> GameState:
    """Play a whole game from a seed: shuffled decks and ``policy`` (uniformly random legal
    actions by default) drawing on one ``random.Random(seed)``. The same seed gives the
    same game. Raises RuntimeError if the game needs more than ``max_actions`` actions.

    >>> s = play_random_game("quick", players=4, seed=3)
    >>> s.is_over, s.winner is not None
    (True, True)
    """
    rng = random.Random(seed)
    state = GameState.new(rules, players, dealer)
    count = 0
    while state.phase is not Phase.GAME_OVER:
        if state.phase is Phase.DEAL:
            state = state.deal(shuffled_deck(state.rules, rng))
            continue
        state = state.apply(policy(state, rng))
        count += 1
        if count > max_actions:
            raise RuntimeError(f"game did not end within {max_actions} actions")
    return state
