"""The rule set: one immutable, validated options object, and the named presets.

Every variant of RULES.md is a field of :class:`RuleSet` (or a value of one), so a rule set
is data and the engine never branches on a preset's name (STYLE habit 6). A contradictory
combination is refused in ``__post_init__`` with a message that says which options clash.

>>> classic = find_rules("Scat")          # aliases: scat, blitz, 31, thirty-one
>>> classic.name, classic.lives, classic.county
('classic', 3, True)
>>> find_rules("quick").codes()
('V1', 'V6', 'V12')
>>> RuleSet.from_codes("V8", "V4", min_knock=21).knocker_lowest_loses
1
>>> RuleSet.from_codes("V1", "V2")
Traceback (most recent call last):
...
scatlab.errors.RulesError: V1 and V2 contradict each other: V1 sets three_of_a_kind to 30, V2 sets it to 61/2

The option names, their meaning and the rule codes they implement:

=========================  ==================================================  ========
option                     meaning                                             rules
=========================  ==================================================  ========
``deck_size``              52 cards, or 32 (7 and higher)                      C1, V18
``three_of_a_kind``        ``None``, ``30`` or ``61/2`` (30.5)                 V1, V2
``straight_flush``         a suited run counts 30, A-K-Q 31                    V3
``grand_cadillac``         three Aces are worth 33, declared like 31           V13
``min_knock``              lowest hand value that may knock (``None``: any)    V4
``knock_needs_flush``      knock only with three cards of one suit             V5, V17
``no_knock_first_round``   nobody knocks during the first round                V6
``knocker_tie``            ``classic`` / ``knocker_two`` / ``knocker_only`` /  C7, V7
                           ``cadillac``: who loses when the knocker ties
``knocker_lowest_loses``   lives a strictly lowest knocker loses (2 or 1)      C7, V8
``thirty_one_after_knock`` ``classic`` (knocker loses one like everyone) or    C8, V9
                           ``knocker_two`` (knocker loses two)
``hammer``                 the first player may call an immediate showdown     V10
``throw_down``             the first player may throw down before looking      V11
``lives``                  lives at the start (pennies, nickels, letters)      C13, V13
``county``                 a player with no lives left plays on "on the        C13, V12
                           county"; without it, no lives left means out
``score_keeping``          ``lives``, ``gin`` (letters), ``bus`` (Ride the     V14-V16
                           Bus positions) or ``points`` (French-Canadian)
``bus_steps``              the named positions of Ride the Bus                 V15
``bus_stop``               stop the bus after drawing (not on a first turn)    V19
``points_target``          points that win the French-Canadian game            V16
``rank_tiebreak``          equal values are broken by card ranks, as in poker  V17
``take_back``              two players left, opponent knocked: you may take    C12
                           back your own discard
``declare``                ``auto`` (software declares 31 at once) or          C10
                           ``manual`` (a learner may forget to declare)
=========================  ==================================================  ========
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal, get_args

from ..checks import notation, shown
from ..errors import RulesError
from .rulebook import RULEBOOK, RuleEntry

__all__ = [
    "RuleSet",
    "KnockerTie",
    "ScoreKeeping",
    "PRESETS",
    "ALIASES",
    "BUS_STEPS",
    "find_rules",
    "VARIANT_CODES",
    "VARIANT_PARTS",
]

KnockerTie = Literal["classic", "knocker_two", "knocker_only", "cadillac"]
ScoreKeeping = Literal["lives", "gin", "bus", "points"]
ThirtyOneAfterKnock = Literal["classic", "knocker_two"]
Declare = Literal["auto", "manual"]

BUS_STEPS: tuple[str, ...] = (
    "seated at the back",
    "standing at the back",
    "in the middle",
    "at the front",
    "on the stairs",
)
"""Ride the Bus positions (V15), from the start of the game to the last before "off the
bus"; a lost life moves a player one step forward."""

_THREE_OF_A_KIND_VALUES = (None, Fraction(30), Fraction(61, 2))


@dataclass(frozen=True)
class RuleSet:
    """All the options of a game of 31; the defaults are the classic rules C1-C14.

    Instances are immutable and hashable; derive a variant with :meth:`replace` (which
    validates again) or :meth:`from_codes`. Build one from JSON with :meth:`from_dict`.
    """

    name: str = "custom"
    deck_size: int = 52
    three_of_a_kind: Fraction | None = None
    straight_flush: bool = False
    grand_cadillac: bool = False
    min_knock: int | None = None
    knock_needs_flush: bool = False
    no_knock_first_round: bool = False
    knocker_tie: KnockerTie = "classic"
    knocker_lowest_loses: int = 2
    thirty_one_after_knock: ThirtyOneAfterKnock = "classic"
    hammer: bool = False
    throw_down: bool = False
    lives: int = 3
    county: bool = True
    score_keeping: ScoreKeeping = "lives"
    bus_steps: tuple[str, ...] = ()
    bus_stop: bool = False
    points_target: int = 31
    rank_tiebreak: bool = False
    take_back: bool = True
    declare: Declare = "auto"
    hand_scoring: tuple[Fraction | None, bool, bool] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "three_of_a_kind", _three_of_a_kind(self.three_of_a_kind))
        steps: object = self.bus_steps
        if type(steps) is list:
            object.__setattr__(self, "bus_steps", tuple(steps))
        if type(self.bus_steps) is not tuple:
            raise RulesError(f"bus_steps={shown(self.bus_steps)} is not allowed: use a list of non-empty names")
        self._validate()
        object.__setattr__(self, "hand_scoring", (self.three_of_a_kind, self.straight_flush, self.grand_cadillac))

    # -- validation -------------------------------------------------------------------

    def _validate(self) -> None:
        """Refuse an option of the wrong type or range, then options that contradict each
        other (a :class:`RulesError` saying which and why)."""
        self._validate_each()
        self._validate_together()

    def _validate_each(self) -> None:
        """Each option alone: its type and its range."""

        def choice(name: str, allowed: tuple[Any, ...]) -> None:
            value = getattr(self, name)
            # Each option has one type: 52.0, True (== 1) or a str subclass is not a choice.
            if type(value) is not type(allowed[0]) or value not in allowed:
                listed = ", ".join(str(a) for a in allowed)
                what = "a whole number" if type(allowed[0]) is int else "a text"
                raise RulesError(f"{name}={shown(value)} is not allowed: choose one of {listed} ({what})")

        for name in (
            "straight_flush",
            "grand_cadillac",
            "knock_needs_flush",
            "no_knock_first_round",
            "hammer",
            "throw_down",
            "county",
            "bus_stop",
            "rank_tiebreak",
            "take_back",
        ):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"{name}={shown(getattr(self, name))} is not allowed: use true or false")
        choice("deck_size", (52, 32))
        choice("knocker_tie", get_args(KnockerTie))
        choice("knocker_lowest_loses", (1, 2))
        choice("thirty_one_after_knock", get_args(ThirtyOneAfterKnock))
        choice("score_keeping", get_args(ScoreKeeping))
        choice("declare", get_args(Declare))
        if self.min_knock is not None and (type(self.min_knock) is not int or not 0 <= self.min_knock <= 31):
            raise RulesError(
                f"min_knock={shown(self.min_knock)} is not allowed: use None or a whole number 0 to 31 (V4)"
            )
        if type(self.lives) is not int or not 1 <= self.lives <= 99:
            raise RulesError(f"lives={shown(self.lives)} is not allowed: use a whole number 1 to 99 (C13)")
        if type(self.points_target) is not int or not 1 <= self.points_target <= 999:
            raise RulesError(
                f"points_target={shown(self.points_target)} is not allowed: use a whole number 1 to 999 (V16)"
            )
        if type(self.name) is not str or not self.name or not self.name.isprintable():
            raise RulesError(
                f"name={shown(self.name)} is not allowed: use a non-empty text on one line, without control characters"
            )

    def _validate_together(self) -> None:
        """Contradictions between options."""
        if self.hammer and self.no_knock_first_round:
            raise RulesError(
                "hammer (V10) contradicts no_knock_first_round (V6): a hammer is a knock on the very "
                "first turn, which V6 forbids"
            )
        if self.score_keeping in ("gin", "points"):
            code = "V14" if self.score_keeping == "gin" else "V16"
            clashing = [
                f"{name}={shown(getattr(self, name))}"
                for name, default in (
                    ("knocker_tie", "classic"),
                    ("knocker_lowest_loses", 2),
                    ("thirty_one_after_knock", "classic"),
                )
                if getattr(self, name) != default
            ]
            if clashing:
                raise RulesError(
                    f"score_keeping={self.score_keeping!r} ({code}) decides knocks by its own rule, which "
                    f"contradicts {', '.join(clashing)}: leave the knocker rules at their classic values"
                )
        if self.score_keeping in ("gin", "bus") and self.county:
            what = "three letters (V14)" if self.score_keeping == "gin" else "off the bus (V15)"
            raise RulesError(
                f"score_keeping={self.score_keeping!r} contradicts county=True: {what} means out, "
                "there is no county; set county=False"
            )
        if self.score_keeping == "bus":
            if not self.bus_steps:
                raise RulesError(
                    "score_keeping='bus' (V15) needs bus_steps, the named positions (e.g. BUS_STEPS), "
                    "but bus_steps=() names none"
                )
            if self.lives != len(self.bus_steps):
                raise RulesError(
                    f"lives={self.lives} contradicts bus_steps={shown(self.bus_steps)} ({len(self.bus_steps)} "
                    "positions): in Ride the "
                    "Bus (V15) each position is one life; make lives equal to the number of bus_steps"
                )
        elif self.bus_steps:
            raise RulesError(
                f"bus_steps={shown(self.bus_steps)} contradicts score_keeping={self.score_keeping!r}: "
                "bus positions belong to Ride the Bus (V15); set score_keeping='bus'"
            )
        if len(self.bus_steps) > 99 or not all(type(s) is str and s and s.isprintable() for s in self.bus_steps):
            raise RulesError(
                f"bus_steps={shown(self.bus_steps)} is not allowed: use a list of at most 99 "
                "non-empty names, each on one line without control characters"
            )

    # -- derived views ---------------------------------------------------------------

    @property
    def deck_label(self) -> str:
        """``"52 cards"`` or ``"32 cards (7 and higher)"``."""
        return "52 cards" if self.deck_size == 52 else "32 cards (7 and higher)"

    def codes(self) -> tuple[str, ...]:
        """The variant codes (V1…V19) this rule set uses beyond the classic rules.

        >>> find_rules("cadillac").codes()
        ('V7', 'V13')
        """
        found = [
            code
            for code, changes in VARIANT_CODES.items()
            if all(getattr(self, name) == value for name, value in changes.items())
        ]
        # A variant that is part of a larger one found is not listed twice.
        for larger, part in VARIANT_PARTS:
            if larger in found and part in found:
                found.remove(part)
        if self.min_knock is not None:
            found.append("V4")
        if self.knocker_tie != "classic":
            found.append("V7")
        return tuple(sorted(found, key=lambda c: int(c[1:])))

    def plays(self, code: str) -> bool:
        """Whether this rule set plays variant ``code``, on its own or as part of a larger
        one (:data:`scatlab.rules.VARIANT_PARTS`: GIN's three of a kind at 30½ is V2's value).

        >>> gin = find_rules("gin")
        >>> gin.codes(), gin.plays("V2"), gin.plays("V14"), gin.plays("V1")
        (('V14',), True, True, False)
        """
        if code in self.codes():
            return True
        changes = VARIANT_CODES.get(code)
        return (
            changes is not None
            and all(getattr(self, name) == value for name, value in changes.items())
            and any(part == code and larger in self.codes() for larger, part in VARIANT_PARTS)
        )

    def rules_in_force(self) -> tuple[RuleEntry, ...]:
        """The rulebook entries that apply under this rule set: the core rules that are not
        replaced, then every variant of :meth:`codes`, in catalogue order.

        Choices (a core rule stays listed when a variant only tunes it, and is dropped when a
        variant replaces it):

        - C1 (card values) always applies; a 32-card deck adds V18.
        - C7 (who loses a life at a showdown) applies while lives are lost (``score_keeping``
          ``lives`` or ``bus``); GIN letters (V14) and French-Canadian points (V16) decide a
          showdown by their own rule and replace it. V7 and V8 tune C7 and are listed beside it.
        - C8 and C9 (a declared or dealt 31 ends the hand) always apply; V9, V14 and V16 only
          change what the 31 costs the others.
        - C12 applies only when ``take_back`` is on.
        - C13 (three lives, the county) and C14 (the draw game on the county) apply only when
          lives are kept (``score_keeping='lives'``) with ``county`` on; without the county
          V12 replaces them, and V14, V15 and V16 replace them with letters, bus positions and
          points. Under V13 (four nickels, county on) C13 applies with four lives.
        - A variant that is part of a larger one is not listed twice (see :meth:`codes`).

        >>> [e.code for e in find_rules("gin").rules_in_force()][-3:]
        ['C11', 'C12', 'V14']
        >>> "C13" in [e.code for e in find_rules("quick").rules_in_force()]
        False
        """
        lives_kept = self.score_keeping in ("lives", "bus")
        county_rules = self.score_keeping == "lives" and self.county
        dropped: set[str] = set()
        if not lives_kept:
            dropped.add("C7")
        if not self.take_back:
            dropped.add("C12")
        if not county_rules:
            dropped.update(("C13", "C14"))
        codes = [code for code in RULEBOOK if code.startswith("C") and code not in dropped]
        codes.extend(self.codes())
        return tuple(RULEBOOK[code] for code in codes)

    def replace(self, **changes: Any) -> RuleSet:
        """A copy with some options changed (validated again); the name becomes
        ``custom`` unless given.

        >>> find_rules("classic").replace(min_knock=21).name
        'custom'
        """
        unknown = sorted(set(changes) - set(option_names()) - {"name"})
        if unknown:
            raise RulesError(_unknown_options_message(unknown))
        changes.setdefault("name", "custom")
        return dataclasses.replace(self, **changes)

    # -- construction from codes and JSON ---------------------------------------------

    @classmethod
    def from_codes(cls, *codes: str, base: RuleSet | str | None = None, **options: Any) -> RuleSet:
        """Classic rules (or ``base``) with the named variants switched on, then
        ``options`` applied. Two codes that set one option differently are refused.

        >>> RuleSet.from_codes("V18", "V6").codes()
        ('V6', 'V18')
        """
        start = CLASSIC if base is None else find_rules(base)
        merged: dict[str, Any] = {}
        origin: dict[str, str] = {}
        for raw in codes:
            if not isinstance(raw, str):
                raise RulesError(f"{shown(raw)} is not a variant code: known codes are {', '.join(VARIANT_CODES)}")
            code = notation(raw).strip().upper()
            if code in _VALUED_CODES:
                option = _VALUED_CODES[code]
                if option not in options:
                    raise RulesError(f"{code} needs a value: give {option}=… too (see RuleSet's options)")
                continue
            if code not in VARIANT_CODES:
                raise RulesError(
                    f"{shown(raw)} is not a variant code: known codes are {', '.join(VARIANT_CODES)} "
                    "(V4 and V7 need options: min_knock=…, knocker_tie=…)"
                )
            for name, value in VARIANT_CODES[code].items():
                if name in merged and merged[name] != value:
                    raise RulesError(
                        f"{origin[name]} and {code} contradict each other: {origin[name]} sets {name} to "
                        f"{_show(merged[name])}, {code} sets it to {_show(value)}"
                    )
                merged[name] = value
                origin[name] = code
        merged.update(options)
        return start.replace(**merged)

    def to_dict(self) -> dict[str, Any]:
        """The options as JSON-ready data (Fractions as strings such as ``"61/2"``).

        >>> RuleSet.from_dict(find_rules("gin").to_dict()) == find_rules("gin")
        True
        """
        data: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if not f.init:
                continue
            value = getattr(self, f.name)
            if isinstance(value, Fraction):
                value = str(value)
            elif isinstance(value, tuple):
                value = list(value)
            data[f.name] = value
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        """Options from JSON data. ``"preset"`` (or ``"base"``) names the preset to start
        from (classic by default); every other key is an option of :class:`RuleSet`.

        >>> RuleSet.from_dict({"preset": "classic", "min_knock": 21}).min_knock
        21
        """
        if not isinstance(data, Mapping):
            raise RulesError(f"rules {shown(data)} are not allowed: give a preset name or an object of options")
        options = dict(data)
        strange = [k for k in options if type(k) is not str]
        if strange:
            raise RulesError(_unknown_options_message(strange))
        if "preset" in options and "base" in options:
            raise RulesError(
                f"preset={shown(options['preset'])} and base={shown(options['base'])} are both "
                "given: name the preset to start from once"
            )
        has_base = "preset" in options or "base" in options
        key = "preset" if "preset" in options else "base"
        base_name = options.pop(key, None)
        if has_base and not isinstance(base_name, (str, RuleSet)):
            raise RulesError(
                f"{key}={shown(base_name)} is not allowed: give the name of a preset ({', '.join(PRESETS)})"
            )
        base = find_rules(base_name) if has_base else CLASSIC
        has_name = "name" in options
        name = options.pop("name", None)
        result = base.replace(**options)
        if has_name:
            result = dataclasses.replace(result, name=name)
        elif not options and has_base:
            result = base
        return result

    def describe(self) -> str:
        """One line naming the rule set and its variants.

        >>> find_rules("gin").describe()
        'gin: classic rules with V14'
        """
        codes = self.codes()
        return f"{self.name}: classic rules" + (f" with {' '.join(codes)}" if codes else "")


def _show(value: object) -> str:
    return str(value)


def _three_of_a_kind(value: object) -> Fraction | None:
    """The value of three of a kind (V1, V2) as given in Python or JSON: None, a number
    that is exactly 30 or 61/2 (an int, a Fraction or a float such as 30.5; not a bool), or
    the text ``"30"``, ``"61/2"`` or ``"30.5"`` (what :meth:`RuleSet.to_dict` writes)."""
    if value is None:
        return None
    number: Fraction | None = None
    if isinstance(value, (int, Fraction)) and type(value) in (int, Fraction):
        number = Fraction(value)
    elif type(value) is float and math.isfinite(value):
        number = Fraction(value)
    elif type(value) is str and value in ("30", "61/2", "30.5"):
        number = Fraction(value)
    if number is None or number not in _THREE_OF_A_KIND_VALUES:
        raise RulesError(
            f"three_of_a_kind={shown(value)} is not allowed: choose one of None, 30, 61/2 "
            "(a number, or the text '30' or '61/2')"
        )
    return number


def option_names() -> tuple[str, ...]:
    """The names of every option of :class:`RuleSet` (besides ``name``)."""
    return tuple(f.name for f in dataclasses.fields(RuleSet) if f.init and f.name != "name")


def _guard_init() -> None:
    """Make ``RuleSet(...)`` refuse an unknown option or too many positional arguments with
    a :class:`RulesError` (the generated dataclass ``__init__`` raises TypeError)."""
    generated = RuleSet.__init__
    names = ("name", *option_names())

    def __init__(self: RuleSet, *args: Any, **options: Any) -> None:
        if len(args) > len(names):
            raise RulesError(
                f"RuleSet takes at most {len(names)} options ({', '.join(names)}), "
                f"but {len(args)} were given by position"
            )
        unknown = sorted(set(options) - set(names), key=str)
        if unknown:
            raise RulesError(_unknown_options_message(unknown))
        doubled = sorted(set(names[: len(args)]) & set(options))
        if doubled:
            raise RulesError(f"option {doubled[0]!r} is given twice, by position and by name")
        generated(self, *args, **options)

    __init__.__doc__ = generated.__doc__
    RuleSet.__init__ = __init__  # type: ignore[method-assign]


def _unknown_options_message(unknown: list[Any]) -> str:
    return (
        f"unknown rule option{'s' if len(unknown) > 1 else ''} {', '.join(shown(u) for u in unknown)}: "
        f"known options are {', '.join(option_names())}"
    )


_guard_init()

VARIANT_CODES: dict[str, dict[str, Any]] = {
    "V1": {"three_of_a_kind": Fraction(30)},
    "V2": {"three_of_a_kind": Fraction(61, 2)},
    "V3": {"straight_flush": True},
    "V5": {"knock_needs_flush": True},
    "V6": {"no_knock_first_round": True},
    "V8": {"knocker_lowest_loses": 1},
    "V9": {"thirty_one_after_knock": "knocker_two"},
    "V10": {"hammer": True},
    "V11": {"throw_down": True},
    "V12": {"county": False},
    "V13": {"grand_cadillac": True, "three_of_a_kind": Fraction(30), "knocker_tie": "cadillac", "lives": 4},
    "V14": {"score_keeping": "gin", "three_of_a_kind": Fraction(61, 2), "county": False},
    "V15": {"score_keeping": "bus", "bus_steps": BUS_STEPS, "lives": len(BUS_STEPS), "county": False},
    "V16": {"score_keeping": "points"},
    "V17": {"knock_needs_flush": True, "rank_tiebreak": True},
    "V18": {"deck_size": 32},
    "V19": {"bus_stop": True},
}
"""What each variant code switches on (V4 and V7 take a value: ``min_knock`` and
``knocker_tie``)."""

VARIANT_PARTS: tuple[tuple[str, str], ...] = (
    ("V13", "V1"),
    ("V14", "V2"),
    ("V14", "V12"),
    ("V15", "V12"),
    ("V17", "V5"),
)
"""(larger, part): a variant that includes another's options (GIN, V14, counts three of a
kind 30½ as V2 does). :meth:`RuleSet.codes` lists only the larger one; the 30½ rule itself
is still V2 (:meth:`RuleSet.plays`)."""

_VALUED_CODES = {"V4": "min_knock", "V7": "knocker_tie"}

CLASSIC = RuleSet(name="classic")

PRESETS: dict[str, RuleSet] = {
    "classic": CLASSIC,
    "quick": RuleSet.from_codes("V1", "V6", "V12", name="quick"),
    "cadillac": RuleSet.from_codes("V13", name="cadillac"),
    "gin": RuleSet.from_codes("V14", name="gin"),
    "ride-the-bus": RuleSet.from_codes("V15", "V19", name="ride-the-bus"),
    "french-canadian": RuleSet.from_codes("V16", "V17", name="french-canadian"),
    "eenendertigen": RuleSet.from_codes("V18", name="eenendertigen"),
}
"""The named rule sets: ``classic`` (C1-C14), ``quick`` (as popular online versions play: V6, V12,
three of a kind 30), ``cadillac`` (V13), ``gin`` (V14), ``ride-the-bus`` (V15, V19),
``french-canadian`` (V16, V17) and ``eenendertigen`` (V18)."""

ALIASES: dict[str, str] = {
    "scat": "classic",
    "blitz": "classic",
    "31": "classic",
    "thirty-one": "classic",
    "browser": "quick",
    "bus": "ride-the-bus",
    "ride-bus": "ride-the-bus",
    "french": "french-canadian",
    "dutch": "eenendertigen",
}


def find_rules(name: str | RuleSet | Mapping[str, Any]) -> RuleSet:
    """The preset with this name or alias (case, spaces and underscores do not matter);
    a :class:`RuleSet` is returned as it is and a mapping goes to :meth:`RuleSet.from_dict`.

    >>> find_rules("Ride the Bus").name
    'ride-the-bus'
    >>> find_rules("poker")
    Traceback (most recent call last):
    ...
    scatlab.errors.RulesError: unknown rule set 'poker': known presets are classic, quick, cadillac, gin,
    ride-the-bus, french-canadian, eenendertigen (aliases: scat, blitz, 31, thirty-one, browser, bus, ride-bus,
    french, dutch)
    """
    if isinstance(name, RuleSet):
        return name
    if isinstance(name, Mapping):
        return RuleSet.from_dict(name)
    if not isinstance(name, str):
        raise RulesError(f"rules {shown(name)} are not allowed: give a preset name or an object of options")
    key = "-".join(notation(name).replace("_", " ").split())
    key = ALIASES.get(key, key)
    try:
        return PRESETS[key]
    except KeyError:
        raise RulesError(
            f"unknown rule set {shown(name)}: known presets are {', '.join(PRESETS)} (aliases: {', '.join(ALIASES)})"
        ) from None
