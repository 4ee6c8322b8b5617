"""Who a learner is, in a class: names, look-alikes, secrets and wrong tries.

What the class's authenticator (:class:`scatlab.classroom.hub.ClassCodeAuthenticator`) decides
with, kept apart from JupyterHub so that each rule can be read and tested alone:

- :func:`normalize_name`: the one spelling of a name. Unicode NFKC, then case-folded, then
  runs of spaces made one ``-``: ``"Ada Lovelace"``, ``"ada-lovelace"`` and the full-width
  ``"ａｄａ-ｌｏｖｅｌａｃｅ"`` are one learner.
- :func:`skeleton` and :func:`look_alike`: two names that differ but look the same
  (``bеn`` with a Cyrillic ``е`` and ``ben``) are look-alikes; a new name that looks like one
  already in the class is refused. The table is Unicode's confusables (UTS #39), as the
  ``confusable_homoglyphs`` package keeps it: characters it lists as confusable are one
  class, and ``m`` reads as ``rn``.
- :class:`Throttle`: wrong tries are slowed, then locked, per name and per address.
- :func:`new_secret`: a secret the teacher can read out to a learner.

>>> normalize_name("  Ada Lovelace ")
'ada-lovelace'
>>> normalize_name("ＢＥＮ")
'ben'
>>> normalize_name("../root") is None
True
>>> look_alike("bеn", ["ada", "ben"])  # a Cyrillic е
'ben'
>>> look_alike("rnia", ["mia"])
'mia'
>>> look_alike("ben-2", ["ben"]) is None
True
"""

from __future__ import annotations

import functools
import json
import math
import re
import secrets
import time
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import resources

__all__ = ["NAME_PATTERN", "normalize_name", "skeleton", "look_alike", "Throttle", "new_secret"]

NAME_PATTERN = re.compile(r"^[^\W_][\w.-]{0,38}$")
"""A learner's name once normalised: a letter or digit first, then letters, digits, ``_``, ``.``
or ``-``; at most 39 characters (it is part of URLs and folder names)."""

MAX_NAME_INPUT = 200
"""Longer input is not a name (it is not even normalised)."""


def normalize_name(name: str) -> str | None:
    """A learner's name as the hub stores it, or ``None`` when it cannot be one: NFKC,
    case-folded, trimmed, runs of spaces made one ``-``."""
    if len(name) > MAX_NAME_INPUT:
        return None
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    cleaned = re.sub(r"\s+", "-", folded.strip())
    return cleaned if NAME_PATTERN.match(cleaned) and ".." not in cleaned else None


@functools.cache
def _table() -> tuple[dict[str, str], dict[str, str]]:
    """(each character's class representative, multi-character readings such as m → rn)."""
    data = json.loads((resources.files("confusable_homoglyphs") / "confusables.json").read_text("utf-8"))
    parent: dict[str, str] = {}

    def find(ch: str) -> str:
        root = ch
        while parent.get(root, root) != root:
            root = parent[root]
        while parent.get(ch, ch) != root:  # path compression
            parent[ch], ch = root, parent[ch]
        return root

    readings: dict[str, str] = {}
    for key, entries in data.items():
        for entry in entries:
            other = entry["c"].replace("\u200e", "").replace("\u200f", "")
            if len(key) == 1 and len(other) == 1:
                a, b = find(key), find(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
            elif len(key) == 1 and len(other) > 1:
                readings.setdefault(key, other)
    return {ch: find(ch) for ch in parent}, readings


def skeleton(name: str) -> str:
    """What ``name`` looks like: each character replaced by its confusable class's
    representative, after NFD (so an accent stays an accent)."""
    classes, readings = _table()
    text = unicodedata.normalize("NFD", name)
    text = "".join(readings.get(ch, ch) for ch in text)
    return "".join(classes.get(ch, ch) for ch in text)


def look_alike(name: str, existing: Iterable[str]) -> str | None:
    """The first name of ``existing`` that differs from ``name`` but looks the same, or None."""
    mine = skeleton(name)
    for other in existing:
        if other != name and skeleton(other) == mine:
            return other
    return None


@dataclass
class _Tries:
    count: int = 0
    since: float = 0.0
    locked_until: float = 0.0
    locks: int = 0


@dataclass
class Throttle:
    """Wrong tries counted per name and per address, within ``window`` seconds.

    - Each wrong try is answered ``slow`` seconds later per wrong try so far (at most
      ``slowest``): guessing is slowed.
    - After ``name_tries`` wrong tries for one name, or ``address_tries`` from one address
      (a classroom's learners may share one), that name or address is locked for
      ``lock`` seconds, twice as long at each further lock (at most ``longest``). A locked
      name or address is refused before its secret is checked.
    - A right try clears its name's count (not its address's).

    ``clock`` gives the time in seconds (the tests pass their own).

    >>> now = [0.0]
    >>> t = Throttle(name_tries=2, lock=60, clock=lambda: now[0])
    >>> t.fail("ada", "10.0.0.7"), t.fail("ada", "10.0.0.7")
    (0.25, 0.5)
    >>> t.wait("ada", "10.0.0.8")
    60
    >>> now[0] = 60.0
    >>> t.wait("ada", "10.0.0.8")
    0
    """

    name_tries: int = 5
    address_tries: int = 30
    window: float = 600.0
    lock: float = 60.0
    longest: float = 900.0
    slow: float = 0.25
    slowest: float = 2.0
    clock: Callable[..., float] = field(default_factory=lambda: time.monotonic, repr=False)
    _names: dict[str, _Tries] = field(default_factory=dict, repr=False, init=False)
    _addresses: dict[str, _Tries] = field(default_factory=dict, repr=False, init=False)

    def wait(self, name: str, address: str) -> int:
        """Whole seconds until ``name`` from ``address`` may try again (0: now)."""
        now = self.clock()
        until = max(self._until(self._names.get(name), now), self._until(self._addresses.get(address), now))
        return math.ceil(until - now) if until > now else 0

    @staticmethod
    def _until(tries: _Tries | None, now: float) -> float:
        return tries.locked_until if tries is not None else 0.0

    def fail(self, name: str, address: str) -> float:
        """Count a wrong try; the seconds to wait before answering it."""
        now = self.clock()
        count = 0
        for book, key, limit in ((self._names, name, self.name_tries), (self._addresses, address, self.address_tries)):
            tries = book.setdefault(key, _Tries(since=now))
            if now - tries.since > self.window and tries.locked_until <= now:
                tries.count, tries.since = 0, now
            tries.count += 1
            if tries.count >= limit:
                tries.locked_until = now + min(self.longest, self.lock * 2**tries.locks)
                tries.locks += 1
                tries.count, tries.since = 0, now
            if key == name and book is self._names:
                count = tries.count or limit
        if len(self._names) > 10_000 or len(self._addresses) > 10_000:  # bounded memory under a flood
            self._forget(now)
        return min(self.slowest, self.slow * count)

    def succeed(self, name: str) -> None:
        """A right try for ``name``: its count and locks are cleared."""
        self._names.pop(name, None)

    def _forget(self, now: float) -> None:
        for book in (self._names, self._addresses):
            for key in [k for k, t in book.items() if t.locked_until <= now and now - t.since > self.window]:
                del book[key]


_WORDS = (
    "acorn",
    "amber",
    "anchor",
    "apple",
    "arrow",
    "badger",
    "banjo",
    "beacon",
    "birch",
    "bison",
    "bramble",
    "breeze",
    "cactus",
    "canyon",
    "cedar",
    "cherry",
    "clover",
    "comet",
    "copper",
    "coral",
    "cricket",
    "daisy",
    "delta",
    "ember",
    "falcon",
    "fern",
    "fjord",
    "forest",
    "garnet",
    "glacier",
    "harbor",
    "hazel",
    "heron",
    "indigo",
    "island",
    "jasper",
    "juniper",
    "kestrel",
    "lagoon",
    "lantern",
    "lemon",
    "lilac",
    "lotus",
    "maple",
    "meadow",
    "meteor",
    "mint",
    "nebula",
    "nutmeg",
    "oak",
    "ocean",
    "olive",
    "orbit",
    "otter",
    "pebble",
    "pepper",
    "pine",
    "planet",
    "plum",
    "quartz",
    "raven",
    "reef",
    "river",
    "robin",
    "saffron",
    "sage",
    "salmon",
    "sparrow",
    "spruce",
    "summit",
    "thistle",
    "thunder",
    "tulip",
    "velvet",
    "violet",
    "walnut",
    "willow",
    "winter",
    "zephyr",
)


def new_secret() -> str:
    """A fresh secret to read out: two words and two digits (about 19 bits from
    ``secrets``; wrong tries are locked by :class:`Throttle`, and the learner can change it).

    >>> len(new_secret().split("-"))
    3
    """
    return f"{secrets.choice(_WORDS)}-{secrets.choice(_WORDS)}-{secrets.randbelow(90) + 10}"
