"""The position the hand analyzer is given, as plain Python (no ipywidgets): what the
:class:`~scatlab.widgets.analyzer.Analyzer` shows and what its clicks and typed text change.

A position has **zones**: the ``hand`` (3 cards, or 4 just after drawing), the top
``discard`` (at most one card), the ``dead`` cards (buried in the discard pile, out of
play) and, per opponent, the cards that ``opponent N`` is known to hold (at most 3). The
number of opponents, the rule set (a preset name or a :class:`~scatlab.rules.RuleSet`; its
deck has 52 cards, or 32 under V18) and the horizon complete it.

Every check and every number comes from :mod:`scatlab.analysis`: an impossible position is
refused with the engine's own :class:`~scatlab.errors.AnalysisError` or
:class:`~scatlab.errors.CardError` message, and :meth:`AnalyzerState.analysis` is
:func:`scatlab.analysis.analyze` of the position. A refused click or setting changes
nothing; a refused piece of typed text is kept (with its error) for the learner to fix.

>>> m = AnalyzerState()
>>> m.set_text("hand", "ah kh 4c")
>>> m.toggle("9S", "discard")
>>> m.analysis().turn.draw.p_31
Fraction(1, 16)
>>> m.set_text("dead", "AH 7X")
>>> m.texts["dead"], m.errors["dead"].split(":")[0]
('AH 7X', "'7X' is not a card")
>>> m.toggle("AH", "dead")
Traceback (most recent call last):
...
scatlab.errors.AnalysisError: the cards seen field holds 'AH 7X', which is not valid yet: correct or clear it first
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..analysis import (
    MAX_HORIZON,
    Analysis,
    DrawAnalysis,
    Knowledge,
    Observations,
    RankedMove,
    Ranking,
    analyze,
    win_level,
)
from ..cards import Card, CardsLike, deck, format_cards, parse_card, parse_cards
from ..errors import AnalysisError, CardError
from ..rules.options import PRESETS, RuleSet, find_rules
from ..rules.view import PlayerView

if TYPE_CHECKING:  # the master's search is imported only when a deeper look is asked for
    from ..players.deeper import ViewLook

__all__ = [
    "AnalyzerState",
    "NumberRow",
    "number_rows",
    "learner_rows",
    "learner_working",
    "outs_of",
    "zone_title",
    "MAX_OPPONENTS",
]

MAX_OPPONENTS = 8
"""31 has 1 to 8 opponents (C2), as :class:`~scatlab.analysis.Knowledge` allows."""

_CACHED = 32
MAX_SAMPLES = 1_000_000
"""The most Monte Carlo deals a knock-risk estimate may use here (10,000 is the default)."""


def zone_title(zone: str) -> str:
    """How a zone is named in messages: ``the hand``, ``the cards seen`` (the ``dead`` zone: a
    learner reads "cards seen", never "dead"), ``opponent 2``.

    >>> zone_title("discard"), zone_title("opponent 2")
    ('the discard', 'opponent 2')
    """
    return {"hand": "the hand", "discard": "the discard", "dead": "the cards seen"}.get(zone, zone)


def _field_title(zone: str) -> str:
    return {"hand": "the hand", "discard": "the discard", "dead": "the cards seen"}.get(zone, f"the {zone}")


@dataclass(frozen=True)
class NumberRow:
    """One line of the analyzer's table of numbers: the exact ``value`` (a Fraction, or
    None where the number is not exact) and the ``text`` shown for it."""

    key: str
    label: str
    value: Fraction | None
    text: str


def _exact(p: Fraction) -> str:
    """An exact number: the fraction, with its decimal beside it."""
    return str(p) if p.denominator == 1 else f"{p} ≈ {float(p):.4f}"


def learner_rows(a: Analysis) -> list[NumberRow]:
    """The analyzer's numbers for a learner of lesson 2 (``Analyzer(..., beginner=True)``):
    only what lesson 2 teaches, in its words (docs/design/voice.md): worth now, a draw's
    worth on average, taking, the chance of 31 and of a better hand counted over the unseen
    cards. No notation, no knock and no look ahead (lessons 3 and 6 teach them).

    >>> rows = learner_rows(analyze("AH KH 4C", discard="9S", knock=False))
    >>> [(r.label, r.text) for r in rows][:4]  # doctest: +NORMALIZE_WHITESPACE
    [('Your hand is worth now', '21'),
     ('Drawing: worth on average (over the 48 unseen cards)', 'about 22.5 (exactly 541/24)'),
     ('Taking the 9♠ (throw the 4♣): worth', '21'),
     ('Chance of 31 on the draw', '3 in 48 (about 6%)')]
    """
    from ..words import counted_chance

    rows = [NumberRow("value", "Your hand is worth now", a.value, _whole_or_tenths(a.value))]
    t = a.turn
    draw = t.draw
    if draw is not None:
        rows.append(
            NumberRow(
                "draw_ev",
                f"Drawing: worth on average (over the {draw.unseen} unseen cards)",
                draw.expected_value,
                _whole_or_tenths(draw.expected_value),
            )
        )
    if t.take is not None:
        best = t.take.best
        rows.append(
            NumberRow(
                "take_value",
                f"Taking the {t.take.card.pretty} (throw the {best.discard.pretty}): worth",
                best.value,
                _whole_or_tenths(best.value),
            )
        )
    if draw is not None:
        outs = outs_of(a)
        rows.append(NumberRow("p_31", "Chance of 31 on the draw", draw.p_31, counted_chance(len(outs), draw.unseen)))
        listed = format_cards(outs, pretty=True) if len(outs) <= 12 else "too many to list"
        rows.append(NumberRow("outs_31", "Cards that make 31", Fraction(len(outs)), listed or "none"))
        rows.append(
            NumberRow(
                "p_improve",
                "Chance of a better hand on the draw",
                draw.p_improve,
                counted_chance(draw.count_improve, draw.unseen),
            )
        )
    return rows


def learner_working(a: Analysis) -> list[str]:
    """Where lesson 2's numbers come from, as lesson 2 writes them (docs/design/voice.md):
    the outs, the chance of 31 as outs over unseen cards, the draw's average as the sum of
    each value times the cards that give it, and the chance of a better hand. Plain words
    and numbers, no notation (P, E[...] and sets of cards wait for lesson 3 or stay in the
    analyst's view); a long sum wraps on a phone. Empty when nothing can be drawn.

    >>> for line in learner_working(analyze("AH KH 4C", discard="9S", knock=False)):
    ...     print(line)
    Cards that make 31 (the outs): 10♥ J♥ Q♥.
    Chance of 31 = outs / unseen cards = 3/48 = 3 in 48 (about 6%).
    On average = (3 × 31 + 30 + 29 + 28 + 27 + 26 + 25 + 24 + 23 + 37 × 21) / 48 = 1082/48, about 22.5 (exactly 541/24).
    Cards that make a better hand: 11 of the 48 unseen, a chance of 11 in 48 (about 23%).
    """
    from ..rules.values import pretty_value
    from ..words import counted_chance

    draw = a.turn.draw
    if draw is None:
        return []
    u = draw.unseen
    outs = outs_of(a)
    lines = []
    if a.value < 31:
        listed = (
            format_cards(outs, pretty=True) if 0 < len(outs) <= 12 else ("none" if not outs else f"{len(outs)} cards")
        )
        lines.append(f"Cards that make 31 (the outs): {listed}.")
        lines.append(f"Chance of 31 = outs / unseen cards = {len(outs)}/{u} = {counted_chance(len(outs), u)}.")
    counts = sorted(((v, int(p * u)) for v, p in draw.distribution.items()), key=lambda vc: -vc[0])
    terms = [pretty_value(v) if n == 1 else f"{n} × {pretty_value(v)}" for v, n in counts]
    total = sum((v * n for v, n in counts), Fraction(0))
    ev = draw.expected_value
    summed = pretty_value(total) if total.denominator in (1, 2) else str(total)
    exact = f", about {float(ev):.1f} (exactly {ev})" if ev.denominator not in (1, 2) else f" = {pretty_value(ev)}"
    lines.append(f"On average = ({' + '.join(terms)}) / {u} = {summed}/{u}{exact}.")
    lines.append(
        f"Cards that make a better hand: {draw.count_improve} of the {u} unseen, a chance of "
        f"{counted_chance(draw.count_improve, u)}."
    )
    return lines


def _whole_or_tenths(x: Fraction) -> str:
    """A value as a learner reads it: ``21``, ``30.5``, or ``about 22.5 (exactly 541/24)``."""
    if x.denominator in (1, 2):
        return str(x.numerator) if x.denominator == 1 else f"{float(x):.1f}"
    return f"about {float(x):.1f} (exactly {x})"


def learner_advice(a: Analysis) -> str:
    """The advice's move with lesson 2's reason: the sure take against the draw's average.
    When the one-draw rule and the advice differ, it says the advice looks further. Lesson 2
    weighs drawing against taking only: where the advice would end the hand (a knock,
    taught in lesson 3), it gives the better of the two and says so.

    >>> learner_advice(analyze("AH KH 4C", discard="9S", knock=False))  # doctest: +ELLIPSIS
    'draw: drawing is worth about 22.5 on average, taking the 9♠ 21...'
    """
    adv = a.advice
    what = adv.action.replace("_", " ") + (f" (throw the {adv.discard.pretty})" if adv.discard is not None else "")
    t = a.turn
    if t.draw is None or t.take is None:
        return f"{what}."
    action: str = adv.action
    later = ""
    on = a.ranking.play_on if a.ranking is not None else None
    if action not in ("take", "draw") and on is not None and on.action.kind.value in ("take", "draw"):
        action = on.action.kind.value  # the best way of playing on: lesson 2's choice
        what = action + (f" (throw the {on.then.pretty})" if action == "take" and on.then is not None else "")
        later = " The advice would end the hand here instead (lesson 3 shows when a knock pays)."
    ev, tv = t.draw.expected_value, t.take.best.value
    shown = _whole_or_tenths(ev).split(" (")[0]
    reason = (
        f"drawing is worth {shown} on average, taking the {t.take.card.pretty} {_whole_or_tenths(tv).split(' (')[0]}."
    )
    one_draw = "take" if tv >= ev else "draw"
    if action in ("take", "draw") and action != one_draw:
        reason += (
            " The advice also counts the turns after this one, so here it differs from the one-draw rule "
            "(lesson 6 shows how)."
        )
    return f"{what}: {reason}{later}"


def number_rows(a: Analysis) -> list[NumberRow]:
    """The table of numbers the analyzer shows for an analysis, in reading order.

    Exact numbers show as fractions with a decimal beside; a Monte Carlo estimate (the
    knock risk against two or more opponents, :mod:`scatlab.analysis.model.knock`) shows as a
    decimal ± its standard error, and keeps the estimate's fraction as ``value``.

    >>> rows = number_rows(analyze("AH KH 4C", discard="9S", knock=False))
    >>> [(r.key, r.text) for r in rows][:3]
    [('value', '21'), ('draw_ev', '541/24 ≈ 22.5417'), ('take_value', '21')]
    """
    rows = [NumberRow("value", "Hand value now", a.value, _exact(a.value))]
    t = a.turn
    for option in t.discards:
        rows.append(
            NumberRow(
                f"discard_{option.discard}",
                f"Value after throwing the {option.discard.pretty}",
                option.value,
                _exact(option.value),
            )
        )
    draw = t.draw
    if draw is not None:
        rows.append(
            NumberRow(
                "draw_ev",
                f"Expected value after this draw (over the {draw.unseen} unseen cards)",
                draw.expected_value,
                _exact(draw.expected_value),
            )
        )
    if t.take is not None:
        best = t.take.best
        rows.append(
            NumberRow(
                "take_value",
                f"Value of taking the {t.take.card.pretty} (throw the {best.discard.pretty})",
                best.value,
                _exact(best.value),
            )
        )
    if draw is not None:
        rows += _draw_rows(a, draw)
    ranking = a.ranking
    if ranking is not None and len(ranking.moves) > 1:
        rows += _ranking_rows(ranking)
    rows += _knock_rows(a)
    rows += _horizon_rows(a)
    return rows


def _draw_rows(a: Analysis, draw: DrawAnalysis) -> list[NumberRow]:
    """The draw's chances: of 31 and of a better hand, each with its outs."""
    rows = [NumberRow("p_31", "P(31) on the draw", draw.p_31, _exact(draw.p_31))]
    outs = outs_of(a)
    if a.value >= 31:
        text = "none needed: the hand is 31 already (C8)"
    else:
        listed = format_cards(outs, pretty=True) if len(outs) <= 12 else "too many to list"
        text = f"{len(outs)} of {draw.unseen} unseen: {listed or 'none'}"
    rows.append(NumberRow("outs_31", "Outs to 31", Fraction(len(outs)), text))
    rows.append(NumberRow("p_improve", "P(improve) on the draw", draw.p_improve, _exact(draw.p_improve)))
    rows.append(
        NumberRow(
            "outs_improve",
            "Outs that improve",
            Fraction(draw.count_improve),
            f"{draw.count_improve} of {draw.unseen} unseen",
        )
    )
    return rows


def _ranking_rows(ranking: Ranking) -> list[NumberRow]:
    """The advice's ranking on the one scale it decides by, the chance of winning the game, as levels."""
    rows = [
        NumberRow("win_now", "Chance of winning the game before this hand (estimated)", None, win_level(ranking.now))
    ]
    ahead = "the hand now" if ranking.horizon == 0 else ranking.ahead
    for i, move in enumerate(ranking.moves, start=1):
        rows += _move_rows(i, move, ahead, ranking.unit)
    on = ranking.play_on_lives
    if on is not None:
        rows.append(
            NumberRow("play_on_loss", "Playing on: chance of losing a life this hand (estimated)", on, _exact(on))
        )
    return rows


def _move_rows(i: int, move: RankedMove, ahead: str, unit: str) -> list[NumberRow]:
    """Move ``i`` of the ranking: its chance of winning the game, its value, the lives lost if it ends the hand."""
    close = " (a close call with move 1)" if move.close else ""
    rows = [
        NumberRow(
            f"rank_{i}_win",
            f"Move {i} of the advice's ranking: {move.label()}, chance of winning the game (estimated)",
            None,
            win_level(move.win) + close,
        )
    ]
    if move.value is not None:
        rows.append(
            NumberRow(
                f"rank_{i}",
                f"Move {i} of the advice's ranking: {move.label()}, worth {ahead}",
                move.value,
                _exact(move.value),
            )
        )
    if move.lives is not None and move.ends_hand:
        rows.append(
            NumberRow(
                f"rank_{i}_lives",
                f"Move {i} of the advice's ranking: {move.label()}, expected {unit} lost",
                move.lives,
                _exact(move.lives),
            )
        )
    return rows


def _horizon_rows(a: Analysis) -> list[NumberRow]:
    """The hand's expected value after each further turn of the look ahead (none at horizon 0)."""
    return [
        NumberRow(
            f"horizon_{k}",
            f"Expected value after {k} more turn{'s' if k != 1 else ''} "
            "(each draw from every card not in the hand: the discard pile is forgotten)",
            value,
            _exact(value),
        )
        for k, value in enumerate(a.horizon)
        if k
    ]


def _knock_rows(a: Analysis) -> list[NumberRow]:
    """The knock's risk (C6, C7) under the opponent model the analysis used: exact, the
    engine's estimate or a Monte Carlo estimate with its standard error; and why the rules
    refuse a knock now, if they do."""
    risk = a.knock
    rows: list[NumberRow] = []
    if risk is None:
        return rows
    model = "what the opponents were seen to do" if risk.model == "adaptive" else "opponents as just dealt"
    for key, label, p, se in (
        ("p_lose_one", f"Knock risk ({model}): P(lose one life)", risk.p_lose_one, risk.std_error_one),
        ("p_lose_two", f"Knock risk ({model}): P(lose two lives)", risk.p_lose_two, risk.std_error_two),
    ):
        if risk.exact:
            text = _exact(p)
        elif risk.samples is None:  # the ranking's own knock figure, the engine's estimate
            text = f"{float(p) * 100:.1f}% (the engine's estimate)"
        else:
            text = f"{float(p):.4f} ± {se or 0.0:.4f} (Monte Carlo, {risk.samples:,} deals)"
        rows.append(NumberRow(key, label, p, text))
    loss = risk.expected_loss
    if risk.exact:
        text = _exact(loss)
    elif risk.samples is None:  # the engine's estimates are kept to a millionth: all its digits
        text = f"{float(loss):.6f}".rstrip("0").rstrip(".") + " (the engine's estimate)"
    else:
        text = f"{float(loss):.4f} (Monte Carlo)"
    rows.append(NumberRow("expected_loss", f"Knock risk ({model}): expected lives lost", loss, text))
    if not risk.allowed:
        rows.append(NumberRow("knock_refusal", "Knock allowed now?", None, f"no: {risk.refusal}"))
    return rows


def outs_of(a: Analysis) -> tuple[Card, ...]:
    """The outs to 31: the unseen cards that turn the hand into 31 when drawn
    (``outs_31`` of the draw analysis). A hand worth 31 already needs none, and a hand of
    four cards or an empty stock draws nothing: no outs.

    >>> [str(c) for c in outs_of(analyze("AH KH 4C", discard="9S", knock=False))]
    ['10H', 'JH', 'QH']
    >>> outs_of(analyze("AH KH QH", knock=False))
    ()
    """
    draw = a.turn.draw
    if draw is None or a.value >= 31:
        return ()
    return draw.outs_31


class AnalyzerState:
    """The position being entered, with the typed text and its errors per zone.

    ``knock=False`` leaves out the knock risk (as in :func:`~scatlab.analysis.analyze`).
    ``cards`` maps each zone (``hand``, ``discard``, ``dead``, ``opponent 1`` …) to its
    cards; ``texts`` holds what each notation field shows, ``errors`` the parse or position
    error of that field (None when the text is valid). ``zone`` is the zone a picked card
    goes to.

    A position from a game (:meth:`from_view`) also carries what the game knows beyond the
    cards: the stock's size, the card just taken (it may not be thrown back, C5), the
    first round (V6) and what each opponent was seen to do (the observations of the
    adaptive opponent model, :mod:`scatlab.analysis.model.weights`), so its analysis is
    exactly ``analyze(view)``. Editing the cards turns it into a position of one's own and
    drops them.
    """

    def __init__(
        self,
        hand: CardsLike = (),
        discard: CardsLike = (),
        *,
        dead: CardsLike = (),
        opponent_holds: Sequence[CardsLike] = (),
        opponents: int | None = None,
        rules: RuleSet | str = "classic",
        horizon: int = 0,
        knock: bool = True,
        samples: int = 10_000,
        seed: int = 0,
    ) -> None:
        self.rules: RuleSet = find_rules(rules)
        if not isinstance(samples, int) or isinstance(samples, bool) or not 1 <= samples <= MAX_SAMPLES:
            raise AnalysisError(
                f"samples={samples!r} is not allowed: give a whole number of Monte Carlo deals "
                f"from 1 to {MAX_SAMPLES:,}"
            )
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise AnalysisError(f"seed={seed!r} is not allowed: give a whole number")
        self.knock = bool(knock)
        self.opponents = 1
        self.horizon = 0
        self.samples = samples
        self.seed = seed
        self.zone = "hand"
        self.cards: dict[str, tuple[Card, ...]] = {"hand": (), "discard": (), "dead": ()}
        self.texts: dict[str, str] = {}
        self.errors: dict[str, str | None] = {}
        self.context: dict[str, Any] = {}
        """What a game adds to the cards (stock_size, taken, first_round, observations); see
        :meth:`from_view`."""
        self._cache: OrderedDict[object, Analysis] = OrderedDict()
        """The last analyses by position: clicking a card in and out again is instant."""
        self._deeper: OrderedDict[object, ViewLook] = OrderedDict()
        """The deeper looks asked for, by position (:meth:`look_deeper`)."""
        holds = [parse_cards(h, deck_size=self.rules.deck_size) for h in opponent_holds]
        self.set_opponents(opponents if opponents is not None else max(1, len(holds)))
        if len(holds) > self.opponents:
            raise AnalysisError(f"cards are known for {len(holds)} opponents, but there are only {self.opponents}")
        cards = {
            "hand": parse_cards(hand, deck_size=self.rules.deck_size),
            "discard": parse_cards(discard, deck_size=self.rules.deck_size),
            "dead": parse_cards(dead, deck_size=self.rules.deck_size),
        }
        for i, held in enumerate(holds):
            cards[f"opponent {i + 1}"] = held
        self._commit({**self.cards, **cards})
        self.set_horizon(horizon)

    # -- zones ----------------------------------------------------------------------------

    @property
    def zones(self) -> tuple[str, ...]:
        """The zones in order: hand, discard, dead, then one per opponent."""
        return ("hand", "discard", "dead", *(f"opponent {i + 1}" for i in range(self.opponents)))

    @property
    def deck(self) -> tuple[Card, ...]:
        """The cards of the rule set's deck (52, or 32 under V18), as the picker shows them."""
        return deck(self.rules.deck_size)

    def where(self, card: Card | str) -> str | None:
        """The zone holding ``card``, or None."""
        c = parse_card(card)
        for zone, cards in self.cards.items():
            if c in cards:
                return zone
        return None

    def _check_zone(self, zone: str) -> None:
        if zone not in self.zones:
            raise AnalysisError(f"no zone {zone!r}: the zones are {', '.join(self.zones)}")

    def select(self, zone: str) -> None:
        """Choose the zone that a picked card goes to."""
        self._check_zone(zone)
        self.zone = zone

    def toggle(self, card: Card | str, zone: str | None = None) -> None:
        """Put ``card`` into ``zone`` (the selected zone by default), or take it out when
        it is there already; a new top discard replaces the old one. A card in another zone,
        a zone that is full (a hand of four, three cards of an opponent) or a position with
        too few unseen cards is refused with the engine's message, and nothing changes.

        >>> m = AnalyzerState("AH KH 4C")
        >>> m.toggle("AH", "dead")
        Traceback (most recent call last):
        ...
        scatlab.errors.AnalysisError: AH is given twice, in the hand and in the cards seen: a card exists once
        (pick it in the hand to take it out)
        >>> m.toggle("4C"); m.cards["hand"]
        (Card('AH'), Card('KH'))
        """
        zone = self.zone if zone is None else zone
        self._check_zone(zone)
        c = parse_card(card)
        if c not in self.deck:
            parse_cards([c], deck_size=self.rules.deck_size)  # raises the V18 CardError
        if self.errors.get(zone):
            raise AnalysisError(
                f"{_field_title(zone)} field holds {self.texts[zone]!r}, which is not valid yet: "
                "correct or clear it first"
            )
        current = self.cards.get(zone, ())
        if c in current:
            new = tuple(x for x in current if x is not c)
        else:
            other = self.where(c)
            if other is not None:
                raise AnalysisError(
                    f"{c} is given twice, in {self._claim(other)} and in {self._claim(zone)}: "
                    "a card exists once (pick it in "
                    f"{zone_title(other)} to take it out)"
                )
            new = (c,) if zone == "discard" else current + (c,)  # a new top discard replaces the old
        self._commit({**self.cards, zone: new})
        self._revalidate()

    @staticmethod
    def _claim(zone: str) -> str:
        """A zone as the analyzer's messages name it (the ``dead`` zone is "the cards seen")."""
        return {"hand": "the hand", "discard": "the discard", "dead": "the cards seen"}.get(
            zone, f"the cards of {zone}"
        )

    def set_text(self, zone: str, text: str) -> None:
        """Set a zone from typed notation (any notation :func:`~scatlab.cards.parse_cards`
        reads). A parse error or an impossible position is stored in ``errors[zone]`` and
        the zone keeps its last valid cards; the typed text is kept either way."""
        self._check_zone(zone)
        if not isinstance(text, str):
            raise CardError(f"{text!r} is not text: type cards such as 'AH KH 10C'")
        self.texts[zone] = text
        try:
            cards = parse_cards(text, deck_size=self.rules.deck_size, what=f"cards in {zone_title(zone)}")
            self._commit({**self.cards, zone: cards}, keep_text=zone)
        except (CardError, AnalysisError) as err:
            self.errors[zone] = str(err)
            return
        self.errors[zone] = None
        self._revalidate()

    def _revalidate(self) -> None:
        """Read every field still in error again against the position as it is now: a
        change elsewhere (the discard that clashed with the hand, fewer opponents, another
        deck) may have made its text valid, or changed what is wrong with it. Repeated
        until nothing changes, since one field's fix may fix another."""
        changed = True
        while changed:
            changed = False
            for zone in self.zones:
                if not self.errors.get(zone):
                    continue
                text = self.texts.get(zone, "")
                try:
                    cards = parse_cards(text, deck_size=self.rules.deck_size, what=f"cards in {zone_title(zone)}")
                    self._commit({**self.cards, zone: cards}, keep_text=zone)
                except (CardError, AnalysisError) as err:
                    self.errors[zone] = str(err)
                else:
                    self.errors[zone] = None
                    changed = True

    def clear(self, zone: str | None = None) -> None:
        """Empty one zone (its text too), or every zone."""
        zones = self.zones if zone is None else (zone,)
        for z in zones:
            self._check_zone(z)
            self.errors[z] = None
        self._commit({**self.cards, **dict.fromkeys(zones, ())})
        for z in zones:
            self.texts[z] = ""
        self._revalidate()

    # -- settings -------------------------------------------------------------------------

    def set_opponents(self, n: int) -> None:
        """Set the number of opponents (1 to 8, C2). Fewer opponents than those with known
        cards is refused (the engine's message)."""
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_OPPONENTS:
            raise AnalysisError(f"opponents={n!r} is not allowed: 31 has 1 to {MAX_OPPONENTS} opponents (C2)")
        known = [z for z, cs in self.cards.items() if z.startswith("opponent ") and cs and int(z.split()[1]) > n]
        if known:
            last = max(int(z.split()[1]) for z in known)
            raise AnalysisError(
                f"cards are known for {last} opponents, but there would be only {n}: clear opponent {last} first"
            )
        old = self.opponents
        self.opponents = n
        cards = {z: cs for z, cs in self.cards.items() if not z.startswith("opponent ") or int(z.split()[1]) <= n}
        for i in range(n):
            cards.setdefault(f"opponent {i + 1}", ())
        try:
            self._commit(cards)
        except (AnalysisError, CardError):
            self.opponents = old
            raise
        for z in list(self.texts):
            if z.startswith("opponent ") and int(z.split()[1]) > n:
                del self.texts[z]
                self.errors.pop(z, None)
        if self.zone not in self.zones:
            self.zone = "hand"
        self._revalidate()

    def set_rules(self, rules: RuleSet | str) -> None:
        """Set the rule set (a preset name, an alias or a :class:`RuleSet`). A position
        holding cards outside the new deck (V18: 7 and higher) is refused, unchanged."""
        ruleset = find_rules(rules)
        for zone, cards in self.cards.items():
            try:
                parse_cards(cards, deck_size=ruleset.deck_size)
            except CardError as err:
                raise CardError(
                    f"{err} ({zone_title(zone)} holds it: take it out before choosing {ruleset.name})"
                ) from None
        old = self.rules
        self.rules = ruleset
        try:
            self._commit(dict(self.cards))
        except (AnalysisError, CardError):
            self.rules = old
            raise
        self._revalidate()

    def set_horizon(self, k: int) -> None:
        """Set the horizon: the expected value after 0 to 8 more own turns."""
        if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= MAX_HORIZON:
            raise AnalysisError(f"horizon={k!r} is not allowed: use 0 to {MAX_HORIZON} turns")
        self.horizon = k

    @staticmethod
    def presets() -> tuple[str, ...]:
        """The preset names a rule-set control offers."""
        return tuple(PRESETS)

    # -- the position ---------------------------------------------------------------------

    def _validate(self, cards: dict[str, tuple[Card, ...]]) -> None:
        """Refuse a position no game can reach, with the engine's messages. A hand of fewer
        than three cards is still being entered: the other checks apply to it already."""
        for zone, limit in (("discard", 1), ("hand", 4)):
            if len(cards.get(zone, ())) > limit:
                if zone == "hand":
                    raise AnalysisError(
                        f"a hand has 3 cards (4 just after drawing), not {len(cards[zone])}: "
                        f"{format_cards(cards[zone])!r}"
                    )
                raise AnalysisError(f"the discard is one card, not {len(cards[zone])}: {format_cards(cards[zone])!r}")
        seen: dict[Card, str] = {}
        for zone, cs in cards.items():
            for c in cs:
                if c in seen:
                    raise AnalysisError(
                        f"{c} is given twice, in {self._claim(seen[c])} and in {self._claim(zone)}: a card exists once"
                    )
                seen[c] = zone
        hand = cards.get("hand", ())
        if len(hand) < 3:  # fill the hand with cards nobody named, so the engine checks the rest
            spare = [c for c in self.deck if c not in seen]
            hand = hand + tuple(spare[: 3 - len(hand)])
        self._knowledge(cards, hand)

    def _knowledge(self, cards: dict[str, tuple[Card, ...]], hand: tuple[Card, ...]) -> Knowledge:
        holds = [cards.get(f"opponent {i + 1}", ()) for i in range(self.opponents)]
        while holds and not holds[-1]:
            holds.pop()
        discard = cards.get("discard", ())
        ctx = self.context
        return Knowledge(
            hand=hand,
            top=discard[0] if discard else None,
            dead=cards.get("dead", ()),
            opponent_holds=tuple(holds),
            opponents=self.opponents,
            rules=self.rules,
            taken=ctx.get("taken"),
            first_round=bool(ctx.get("first_round", False)),
            stock_size=ctx.get("stock_size"),
            undeclared_31=bool(ctx.get("undeclared_31", False)),
        )

    def _commit(
        self, cards: dict[str, tuple[Card, ...]], keep_text: str | None = None, keep_context: bool = False
    ) -> None:
        if cards != self.cards and self.context and not keep_context:
            saved = self.context
            self.context = {}
            try:
                self._validate(cards)
            except (AnalysisError, CardError):
                self.context = saved
                raise
        else:
            self._validate(cards)
        old, self.cards = self.cards, cards
        for zone, cs in cards.items():
            if self.errors.get(zone) and old.get(zone) == cs:
                continue  # a field in error keeps what was typed until the learner fixes it
            if zone != keep_text:
                self.texts[zone] = format_cards(cs)
                self.errors[zone] = None

    @property
    def ready(self) -> bool:
        """Whether the position can be analysed: a hand of 3 or 4 cards and no field in error."""
        return len(self.cards["hand"]) in (3, 4) and not any(self.errors.values())

    def problem(self) -> str | None:
        """Why the position cannot be analysed yet (None when it can)."""
        for zone in self.zones:
            if self.errors.get(zone):
                return f"{_field_title(zone).capitalize()} field: {self.errors[zone]}"
        n = len(self.cards["hand"])
        if n not in (3, 4):
            return f"Pick {3 - n} more card{'s' if 3 - n != 1 else ''} for the hand (a hand has 3 cards, C3)."
        return None

    def knowledge(self) -> Knowledge:
        """The position as the analysis takes it."""
        if not self.ready:
            raise AnalysisError(self.problem() or "the position is not complete")
        return self._knowledge(self.cards, self.cards["hand"])

    def _inputs(self) -> tuple[Knowledge, Observations | None, PlayerView | None]:
        """The position as the analysis reads it: its knowledge, what was seen of the
        opponents (from a game), and the game's view while the cards are unedited."""
        knowledge = self.knowledge()
        observations = self.context.get("observations")
        if not isinstance(observations, Observations) or len(observations.turns) != knowledge.opponents:
            observations = None
        view = self.context.get("view")  # a game's position, unedited: the engine reads its whole log
        game = view if isinstance(view, PlayerView) and view.to_move == view.player else None
        return knowledge, observations, game

    def analysis(self) -> Analysis:
        """:func:`scatlab.analysis.analyze` of the position (cached until it changes)."""
        knowledge, observations, game = self._inputs()
        key = (knowledge, self.horizon, self.knock, self.samples, self.seed, observations, game is not None)
        found = self._cache.get(key)
        if found is None:
            found = analyze(
                game if game is not None else knowledge,
                horizon=self.horizon,
                knock=self.knock,
                samples=self.samples,
                seed=self.seed,
                observations=observations,
            )
            self._cache[key] = found
            while len(self._cache) > _CACHED:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(key)
        return found

    # -- a deeper look ---------------------------------------------------------------------

    def deeper_view(self) -> PlayerView:
        """The view the master's deeper look searches from: the game's own (a position from
        a game, unedited), else a hand staged to reach the position
        (:func:`scatlab.players.staged.staged_view`: its assumptions are in its module doc).
        A position that cannot be staged raises :class:`~scatlab.errors.AnalysisError`."""
        from ..players.staged import staged_view

        knowledge, observations, game = self._inputs()
        return game if game is not None else staged_view(knowledge, observations, self.seed % 2**63)

    def _deeper_key(self) -> tuple[object, ...]:
        knowledge, observations, game = self._inputs()
        return knowledge, observations, game, self.seed

    def deeper(self) -> ViewLook | None:
        """The deeper look asked for at this position, as far as it has gone (None: none yet)."""
        return self._deeper.get(self._deeper_key()) if self.ready else None

    def deeper_refusal(self) -> str | None:
        """Why no deeper look can be asked for at this position (None: one can): it is not
        complete, it cannot be staged, or it has one move only."""
        if not self.ready:
            return self.problem() or "the position is not complete"
        from ..players.deeper import deeper_refusal

        try:
            return deeper_refusal(self.deeper_view(), self.analysis().ranking)
        except (AnalysisError, CardError) as err:
            return str(err)

    def look_deeper(
        self,
        budget: int | None = None,
        seconds: float | None = None,
        progress: Callable[[int, int], None] | None = None,
        on_verdict: Callable[[ViewLook], object] | None = None,
    ) -> ViewLook | None:
        """Ask the master for a deeper look at the position
        (:func:`scatlab.players.deeper.deeper_looks` from :meth:`deeper_view`, seeded by
        ``seed``), each verdict kept as it sharpens (:meth:`deeper`) before ``on_verdict``
        is called with it; the final one is returned (and kept: asking again costs nothing).
        None, changing nothing, where none can be asked for (:meth:`deeper_refusal`).
        ``budget`` and ``seconds`` default to the look's own (8,000 rollouts, a second)."""
        from ..players.deeper import DEEP_BUDGET, LOOK_SECONDS, look_at_view

        kept = self.deeper()
        if kept is not None and kept.final:
            return kept
        if self.deeper_refusal() is not None:
            return None
        view = self.deeper_view()
        ranking = self.analysis().ranking
        if ranking is not None and any(m.action not in view.legal_actions for m in ranking.moves):
            ranking = None  # a move the staged hand does not allow (a first-round knock, V6): rank the hand itself
        key = self._deeper_key()

        def verdict(look: ViewLook) -> None:
            self._deeper[key] = look
            if on_verdict is not None:
                on_verdict(look)

        look = look_at_view(
            view,
            ranking=ranking,
            budget=DEEP_BUDGET if budget is None else budget,
            seconds=LOOK_SECONDS if seconds is None else seconds,
            seed=self.seed % 2**63,
            progress=progress,
            on_verdict=verdict,
        )
        while len(self._deeper) > _CACHED:
            self._deeper.popitem(last=False)
        return look

    def outs(self) -> tuple[Card, ...]:
        """The outs the picker marks (see :func:`outs_of`); empty when there is nothing to
        analyse yet."""
        return outs_of(self.analysis()) if self.ready else ()

    def describe(self) -> str:
        """The position in one line of notation."""
        parts = [f"hand {self.texts.get('hand', '') or '-'}"]
        for zone in self.zones[1:]:
            if self.cards.get(zone):
                parts.append(f"{zone} {format_cards(self.cards[zone])}")
        parts.append(f"{self.opponents} opponent{'s' if self.opponents != 1 else ''}; {self.rules.name} rules")
        return "; ".join(parts)

    # -- from a game ----------------------------------------------------------------------

    @classmethod
    def from_view(
        cls, view: PlayerView, *, horizon: int = 0, knock: bool = True, samples: int = 10_000, seed: int = 0
    ) -> AnalyzerState:
        """The position a player sees in a game: card tracking by
        :meth:`scatlab.analysis.Knowledge.from_view` (the top discard, the dead pile, what
        each opponent took and still holds). Only the view is read, so no hidden card can
        reach the analyzer. The view (what that player sees, nothing more) is kept while the
        cards are unedited, so the engine reads the game's whole log, as ``analyze(view)`` does."""
        k = Knowledge.from_view(view)
        model = cls(rules=k.rules, opponents=k.opponents, horizon=horizon, knock=knock, samples=samples, seed=seed)
        model.context = {
            "taken": k.taken,
            "first_round": k.first_round,
            "stock_size": k.stock_size,
            "undeclared_31": k.undeclared_31,
            "observations": Observations.from_view(view),
            "view": view,
        }
        cards: dict[str, tuple[Card, ...]] = dict(model.cards)
        cards.update(hand=k.hand, discard=(k.top,) if k.top is not None else (), dead=k.dead)
        for i, held in enumerate(k.opponent_holds):
            cards[f"opponent {i + 1}"] = held
        model._commit(cards, keep_context=True)
        return model
