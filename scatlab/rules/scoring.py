"""Who loses what when a hand ends: showdowns, 31s and the score keeping of every variant.

These are pure functions of the facts at the end of a hand (how it ended, the showdown
keys, the knocker, the declarers); the game state calls them and attaches the result, with
the rule codes that decided it, to its :class:`HandResult`.

>>> from fractions import Fraction as F
>>> from scatlab.rules.options import find_rules
>>> o = settle(find_rules("classic"), "knock", players=(0, 1, 2),
...            keys={0: (F(20),), 1: (F(20),), 2: (F(25),)}, knocker=0, declarers=())
>>> o.losses, [n.code for n in o.notes]
({0: 0, 1: 1, 2: 0}, ['C7'])
>>> print(o.notes[0].text)
the knocker (player 0) tied for lowest at 20: the other tied players lose a life and the knocker is safe
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from .options import RuleSet

__all__ = ["HandEnd", "RuleNote", "Settlement", "settle", "SHOWDOWN_ENDS"]

HandEnd = Literal["knock", "31", "dealt_31", "stock_exhausted", "hammer", "throw_down", "bus_stop"]
"""How a hand ended: a knock (C6), a declared 31 (C8), a dealt 31 (C9), the stock ran out
(C11), a hammer (V10), a throw-down (V11) or a stopped bus (V19)."""

SHOWDOWN_ENDS = ("knock", "stock_exhausted", "hammer", "throw_down", "bus_stop")

Key = tuple[Fraction | int, ...]


@dataclass(frozen=True, slots=True)
class RuleNote:
    """One rule that decided part of an outcome: its code (C7, V9…) and a plain sentence."""

    code: str
    text: str

    def __str__(self) -> str:
        return f"{self.code}: {self.text}"


@dataclass(frozen=True, slots=True)
class Settlement:
    """What a hand's end costs each player: lives lost (or letters, or bus steps) and
    points won (V16), with the rules that decided it."""

    losses: dict[int, int]
    points: dict[int, int]
    notes: tuple[RuleNote, ...]


def _v(key: Key) -> str:
    return str(key[0])


def settle(
    rules: RuleSet,
    ended: HandEnd,
    *,
    players: Sequence[int],
    keys: Mapping[int, Key],
    knocker: int | None,
    declarers: Sequence[int],
) -> Settlement:
    """Settle a finished hand.

    ``players`` are those dealt in, ``keys`` their showdown keys (value first, see
    :func:`~scatlab.rules.values.tiebreak_key`; an undeclared 31 already counts as 30 under
    C10), ``knocker`` whoever knocked, hammered, threw down or stopped the bus, and
    ``declarers`` those who declared 31 (or a Grand Cadillac).
    """
    losses = dict.fromkeys(players, 0)
    points = dict.fromkeys(players, 0)
    notes: list[RuleNote] = []
    if ended in ("31", "dealt_31"):
        _settle_blitz(rules, ended, players, knocker, declarers, losses, points, notes)
    elif rules.score_keeping == "points":
        _settle_points(players, keys, knocker, points, notes)
    elif rules.score_keeping == "gin" and knocker is not None:
        _settle_gin(players, keys, knocker, losses, notes)
    else:
        _settle_lowest(rules, ended, players, keys, knocker, losses, notes)
    return Settlement(losses, points, tuple(notes))


def _settle_blitz(
    rules: RuleSet,
    ended: HandEnd,
    players: Sequence[int],
    knocker: int | None,
    declarers: Sequence[int],
    losses: dict[int, int],
    points: dict[int, int],
    notes: list[RuleNote],
) -> None:
    names = [f"player {d}" for d in declarers]
    who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    if rules.score_keeping == "points":
        for d in declarers:
            points[d] = 1
        code = "C9" if ended == "dealt_31" else "C8"
        notes.append(
            RuleNote(
                "V16", f"{who} declared 31 ({code}) and {'scores' if len(names) == 1 else 'score'} a point at once"
            )
        )
        return
    for p in players:
        if p not in declarers:
            losses[p] = 1
    if ended == "dealt_31":
        notes.append(
            RuleNote("C9", f"{who} {'was' if len(names) == 1 else 'were'} dealt 31: every other player loses a life")
        )
    else:
        notes.append(RuleNote("C8", f"{who} declared 31: every other player loses a life"))
    if knocker is not None and knocker not in declarers:
        if rules.thirty_one_after_knock == "knocker_two" and rules.score_keeping != "gin":
            losses[knocker] = 2
            notes.append(RuleNote("V9", f"31 after a knock: the knocker (player {knocker}) loses two lives"))
        else:
            notes.append(
                RuleNote("C8", f"31 after a knock: the knocker (player {knocker}) loses one life like everyone else")
            )
    if rules.score_keeping == "gin":
        notes.append(RuleNote("V14", "in GIN every other player gets a letter"))


def _settle_points(
    players: Sequence[int],
    keys: Mapping[int, Key],
    knocker: int | None,
    points: dict[int, int],
    notes: list[RuleNote],
) -> None:
    best = max(keys[p] for p in players)
    top = [p for p in players if keys[p] == best]
    if knocker is not None and knocker in top and len(top) > 1:
        winners = [p for p in top if p != knocker]
        notes.append(
            RuleNote("V16", f"the knocker tied for highest at {_v(best)}: the tied non-knockers score a point")
        )
    else:
        winners = top
        many = "each score" if len(top) > 1 else "scores"
        notes.append(RuleNote("V16", f"highest hand {_v(best)}: {_players(winners)} {many} a point"))
    for p in winners:
        points[p] = 1


def _settle_gin(
    players: Sequence[int],
    keys: Mapping[int, Key],
    knocker: int,
    losses: dict[int, int],
    notes: list[RuleNote],
) -> None:
    best = max(keys[p] for p in players)
    if keys[knocker] >= best:
        for p in players:
            if p != knocker:
                losses[p] = 1
        notes.append(
            RuleNote(
                "V14",
                f"the knocker (player {knocker}) is highest or tied highest at {_v(keys[knocker])}: "
                "everyone else gets a letter",
            )
        )
    else:
        losses[knocker] = 1
        notes.append(
            RuleNote(
                "V14",
                f"the knocker (player {knocker}, {_v(keys[knocker])}) was beaten ({_v(best)}): "
                "the knocker gets a letter",
            )
        )


def _settle_lowest(
    rules: RuleSet,
    ended: HandEnd,
    players: Sequence[int],
    keys: Mapping[int, Key],
    knocker: int | None,
    losses: dict[int, int],
    notes: list[RuleNote],
) -> None:
    low = min(keys[p] for p in players)
    lowest = [p for p in players if keys[p] == low]
    if knocker is None:
        for p in lowest:
            losses[p] = 1
        code = "C11" if ended == "stock_exhausted" else "C7"
        tied = "all tied lowest lose" if len(lowest) > 1 else "loses"
        notes.append(RuleNote(code, f"no knock; lowest hand {_v(low)}: {_players(lowest)} {tied} a life"))
        return
    caller = {
        "knock": "knocker",
        "hammer": "hammer caller",
        "throw_down": "thrower-down",
        "bus_stop": "bus stopper",
        "stock_exhausted": "knocker",
    }[ended]
    if knocker not in lowest:
        for p in lowest:
            losses[p] = 1
        tied = "all tied lowest lose" if len(lowest) > 1 else "loses"
        notes.append(RuleNote("C7", f"lowest hand {_v(low)}: {_players(lowest)} {tied} a life"))
    elif len(lowest) == 1:
        losses[knocker] = rules.knocker_lowest_loses
        if rules.knocker_lowest_loses == 2:
            notes.append(
                RuleNote("C7", f"the {caller} (player {knocker}) is lowest on their own at {_v(low)}: two lives")
            )
        else:
            notes.append(
                RuleNote("V8", f"the {caller} (player {knocker}) is lowest on their own at {_v(low)}: only one life")
            )
    else:
        _settle_knocker_tied(rules, caller, knocker, lowest, low, losses, notes)
    if ended == "stock_exhausted":
        notes.append(RuleNote("C11", "the stock ran out and the player to move would not take the discard"))


def _settle_knocker_tied(
    rules: RuleSet,
    caller: str,
    knocker: int,
    lowest: Sequence[int],
    low: Key,
    losses: dict[int, int],
    notes: list[RuleNote],
) -> None:
    """The knocker tied for lowest with others: the rule set's tie rule (C7, V7b, V7c, V7d) decides."""
    others = [p for p in lowest if p != knocker]
    tie = rules.knocker_tie
    if tie == "classic":
        for p in others:
            losses[p] = 1
        notes.append(
            RuleNote(
                "C7",
                f"the {caller} (player {knocker}) tied for lowest at {_v(low)}: "
                "the other tied players lose a life and the knocker is safe",
            )
        )
    elif tie == "knocker_two":
        losses[knocker] = 2
        for p in others:
            losses[p] = 1
        notes.append(
            RuleNote(
                "V7",
                f"the {caller} (player {knocker}) tied for lowest at {_v(low)}: "
                "the knocker loses two lives, the other tied players one (V7b)",
            )
        )
    elif tie == "knocker_only":
        losses[knocker] = 1
        notes.append(
            RuleNote(
                "V7",
                f"the {caller} (player {knocker}) tied for lowest at {_v(low)}: only the knocker loses a life (V7c)",
            )
        )
    else:
        losses[knocker] = 2
        notes.append(
            RuleNote(
                "V7",
                f"the {caller} (player {knocker}) tied for lowest at {_v(low)}: "
                "the knocker loses two lives, the others nothing (V7d, Cadillac)",
            )
        )


def _players(ps: Sequence[int]) -> str:
    if len(ps) == 1:
        return f"player {ps[0]}"
    return "players " + ", ".join(str(p) for p in ps)
