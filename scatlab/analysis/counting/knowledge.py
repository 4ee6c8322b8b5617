"""What one player knows: the input of every analysis.

A :class:`Knowledge` holds only what the player may know: their own hand, the top discard,
the cards buried in the discard pile (out of play), the cards each opponent is known to hold
(taken from the discard pile and not thrown since), the number of opponents and the rule
set. Every other card of the deck is **unseen**.

**The model.** An unseen card is equally likely to be anywhere unseen: the top of the stock
is equally likely to be any unseen card, and an opponent's unknown cards are a uniformly
random set of unseen cards. (The analysis does not read anything into what opponents chose
to draw or throw, beyond the cards it saw them take.)

>>> k = Knowledge.of("AH KH 4C", discard="9S")
>>> len(k.unseen), k.opponents
(48, 1)
>>> Knowledge.of("AH KH 4C", discard="AH")
Traceback (most recent call last):
...
scatlab.errors.AnalysisError: the discard AH is also in the hand AH KH 4C: a card exists once
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ...cards import Card, CardsLike, Suit, deck, format_cards, parse_card, parse_cards
from ...checks import flag, sequence, shown, whole_number
from ...errors import AnalysisError, CardError
from ...rules.actions import ActionKind
from ...rules.options import CLASSIC, RuleSet, find_rules
from ...rules.state import Phase
from ...rules.values import blitz_of, value_of
from ...rules.view import PlayerView

__all__ = ["Knowledge", "opponent_turns", "collected_suits"]


@dataclass(frozen=True)
class Knowledge:
    """One player's knowledge at the start of a turn (or with four cards, before the
    discard). Build with :meth:`of` from plain arguments or :meth:`from_view` from a game."""

    hand: tuple[Card, ...]
    top: Card | None
    dead: tuple[Card, ...] = ()
    opponent_holds: tuple[tuple[Card, ...], ...] = ()
    opponents: int = 1
    rules: RuleSet = CLASSIC
    taken: Card | None = None
    first_round: bool = False
    stock_size: int | None = None
    """The number of cards in the stock when known (from a game view); None: at least one."""
    undeclared_31: bool = False
    """The hand is a 31 that was not declared at once (C10, rules with manual declaring: the
    player passed): it counts as 30 and can no longer be declared. Set by :meth:`from_view`
    for a 31 held at the start of a turn, the only way a game reaches one."""
    unseen: tuple[Card, ...] = field(init=False, repr=False)
    unseen_index: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._normalise()
        self._validate()
        known = set(self.hand) | set(self.dead) | {c for h in self.opponent_holds for c in h}
        if self.top is not None:
            known.add(self.top)
        object.__setattr__(self, "unseen", tuple(c for c in deck(self.rules.deck_size) if c not in known))
        object.__setattr__(self, "unseen_index", tuple(c.index for c in self.unseen))
        hidden = sum(3 - len(h) for h in self._holds_padded())
        stock = 1 if self.stock_size is None else self.stock_size
        if len(self.unseen) < hidden + stock:
            what = "one for the stock" if self.stock_size is None else f"{stock} in the stock"
            raise AnalysisError(
                f"{self.opponents} opponent{'s' if self.opponents != 1 else ''} need {hidden} unseen cards "
                f"for their hands and {what}, but only {len(self.unseen)} cards are unseen"
            )

    def _normalise(self) -> None:
        """Read cards-like fields into cards and a rule set given by name into a RuleSet, so
        that junk passed to the constructor is refused with a ScatlabError."""
        put = object.__setattr__
        rules = self.rules if isinstance(self.rules, RuleSet) else find_rules(self.rules)
        put(self, "rules", rules)
        size = rules.deck_size

        def cards(value: object, what: str) -> tuple[Card, ...]:
            if isinstance(value, tuple) and all(type(c) is Card for c in value):
                return value
            return parse_cards(value, deck_size=size, what=what)  # type: ignore[arg-type]

        put(self, "hand", cards(self.hand, "cards in the hand"))
        put(self, "dead", cards(self.dead, "dead cards"))
        if self.top is not None and type(self.top) is not Card:
            put(self, "top", parse_card(self.top))
        if self.taken is not None and type(self.taken) is not Card:
            put(self, "taken", parse_card(self.taken))
        holds = sequence(
            "opponent_holds", self.opponent_holds, "cards-like entries, one per opponent", error=AnalysisError, most=8
        )
        put(self, "opponent_holds", tuple(cards(h, f"cards of opponent {i}") for i, h in enumerate(holds, start=1)))
        flag("first_round", self.first_round, error=AnalysisError)
        flag("undeclared_31", self.undeclared_31, error=AnalysisError)
        if self.stock_size is not None:
            whole_number("stock_size", self.stock_size, 0, size, error=AnalysisError)

    def _validate(self) -> None:
        rules = self.rules
        if len(self.hand) not in (3, 4):
            raise AnalysisError(
                f"a hand has 3 cards (4 just after drawing), not {len(self.hand)}: {format_cards(self.hand)!r}"
            )
        if not isinstance(self.opponents, int) or isinstance(self.opponents, bool) or not 1 <= self.opponents <= 8:
            raise AnalysisError(f"opponents={shown(self.opponents)} is not allowed: 31 has 1 to 8 opponents (C2)")
        if len(self.opponent_holds) > self.opponents:
            raise AnalysisError(
                f"cards are known for {len(self.opponent_holds)} opponents, but there are only {self.opponents}"
            )
        for i, held in enumerate(self.opponent_holds):
            if len(held) > 3:
                raise AnalysisError(
                    f"opponent {i + 1} is said to hold {len(held)} cards ({format_cards(held)}): a hand has 3"
                )
        seen: dict[Card, str] = {}

        def claim(card: Card, where: str) -> None:
            if card in seen:
                raise AnalysisError(
                    f"{card} is given twice, in the {seen[card]} and in the {where}: a card exists once"
                )
            if rules.deck_size == 32 and card not in deck(32):
                raise CardError(f"{str(card)!r} is not in the 32-card deck (V18): it holds only 7 8 9 10 J Q K A")
            seen[card] = where

        for c in self.hand:
            claim(c, "hand")
        if self.top is not None:
            if self.top in seen:
                raise AnalysisError(
                    f"the discard {self.top} is also in the hand {format_cards(self.hand)}: a card exists once"
                )
            claim(self.top, "discard")
        for c in self.dead:
            claim(c, "dead cards")
        for i, held in enumerate(self.opponent_holds):
            for c in held:
                claim(c, f"cards of opponent {i + 1}")
        if self.undeclared_31 and not (len(self.hand) == 3 and blitz_of(self.hand, rules)):
            raise AnalysisError(
                f"undeclared_31=True, but the hand {format_cards(self.hand)} is not a 31 "
                "(an undeclared 31 is a hand of 3 cards worth 31, C10)"
            )
        if self.taken is not None and self.taken not in self.hand:
            raise AnalysisError(f"the taken card {self.taken} is not in the hand {format_cards(self.hand)}")

    def _holds_padded(self) -> tuple[tuple[Card, ...], ...]:
        return self.opponent_holds + ((),) * (self.opponents - len(self.opponent_holds))

    # -- construction -------------------------------------------------------------------

    @classmethod
    def of(
        cls,
        hand: CardsLike,
        discard: CardsLike | None = None,
        *,
        dead: CardsLike = (),
        opponent_holds: Sequence[CardsLike] = (),
        opponents: int | None = None,
        rules: RuleSet | str | dict[str, Any] = "classic",
    ) -> Knowledge:
        """Knowledge from plain arguments (cards-like inputs are parsed).

        ``opponent_holds`` lists, per opponent in turn order after the player, the cards
        that opponent is known to hold. ``opponents`` defaults to one, or to the number of
        ``opponent_holds`` given.

        >>> k = Knowledge.of("ah kh 4c", "9s", dead="2d 3d", opponent_holds=["QH"], opponents=2)
        >>> len(k.unseen)
        45
        """
        ruleset = find_rules(rules)
        cards = parse_cards(hand, deck_size=ruleset.deck_size, what="cards in the hand")
        top = None
        if discard is not None:
            tops = parse_cards(discard, deck_size=ruleset.deck_size)
            if len(tops) != 1:
                raise AnalysisError(f"the discard is one card, not {len(tops)}: {format_cards(tops)!r}")
            top = tops[0]
        sequence(
            "opponent_holds",
            opponent_holds,
            "cards-like entries, one per opponent (e.g. ['2H 10S'])",
            error=AnalysisError,
            most=8,
        )
        holds = tuple(
            parse_cards(h, deck_size=ruleset.deck_size, what=f"cards of opponent {i}")
            for i, h in enumerate(opponent_holds, start=1)
        )
        n = opponents if opponents is not None else max(1, len(holds))
        return cls(
            hand=cards,
            top=top,
            dead=parse_cards(dead, deck_size=ruleset.deck_size),
            opponent_holds=holds,
            opponents=n,
            rules=ruleset,
        )

    @classmethod
    def from_view(cls, view: PlayerView) -> Knowledge:
        """Track the cards a player has seen in the current hand (card tracking).

        The top discard is the last card of the pile and the rest of the pile is dead; an
        opponent who took a card from the discard pile is known to hold it until they
        discard it again. Opponents are the players still in, in turn order.
        """
        if not isinstance(view, PlayerView):
            raise AnalysisError(f"from_view needs a PlayerView (GameState.view(player)), not {shown(view)}")
        if view.phase not in (Phase.TURN, Phase.DISCARD, Phase.DECLARE, Phase.THROW_DOWN) or len(view.hand) not in (
            3,
            4,
        ):
            raise AnalysisError(f"player {view.player} has no hand to analyse now (phase {view.phase.value!r})")
        order = view.opponents
        holds: dict[int, list[Card]] = {p: [] for p in order}
        for event in view.history:
            if event.player == view.player or event.player not in holds or event.card is None:
                continue
            if event.action.kind is ActionKind.TAKE:
                holds[event.player].append(event.card)
            elif event.action.kind is ActionKind.DISCARD and event.card in holds[event.player]:
                holds[event.player].remove(event.card)
        pile = view.discard_pile
        top = pile[-1] if pile and len(view.hand) == 3 else None
        dead = pile[:-1] if top is not None else pile
        known = tuple(tuple(holds[p]) for p in order)
        while known and not known[-1]:
            known = known[:-1]
        me = view.player
        first_round = view.rules.no_knock_first_round and not any(
            e.player == me and e.action.kind in (ActionKind.DISCARD, ActionKind.KNOCK) for e in view.history
        )
        return cls(
            hand=view.hand,
            top=top,
            dead=tuple(dead),
            opponent_holds=known,
            opponents=len(order),
            rules=view.rules,
            taken=view.taken if view.to_move == view.player else None,  # another seat's take is not ours
            first_round=first_round,
            stock_size=view.stock_size,
            # a 31 at the start of a turn was passed when it could be declared (C10)
            undeclared_31=view.phase is Phase.TURN and len(view.hand) == 3 and blitz_of(view.hand, view.rules),
        )

    # -- derived facts ------------------------------------------------------------------

    @property
    def value(self) -> Fraction:
        """The exact value of the hand (of its best three cards when holding four)."""
        if len(self.hand) == 3:
            return value_of(self.hand, self.rules)
        return max(value_of([c for c in self.hand if c is not d], self.rules) for d in self.hand if d is not self.taken)

    def holds_of(self, opponent: int) -> tuple[Card, ...]:
        """The cards opponent ``opponent`` (0-based, in turn order) is known to hold."""
        return self._holds_padded()[opponent]

    def describe(self, pretty: bool = False) -> str:
        """One line: hand, discard, and what else is known (``pretty``: suit symbols, as
        the table shows cards).

        >>> Knowledge.of("AH KH 4C", "9S").describe(pretty=True)
        'hand A♥ K♥ 4♣; discard 9♠; 1 opponent; 48 unseen'
        """
        parts = [f"hand {format_cards(self.hand, pretty=pretty)}"]
        if self.top is not None:
            parts.append(f"discard {self.top.pretty if pretty else self.top}")
        if self.dead:
            parts.append(f"dead {format_cards(self.dead, pretty=pretty)}")
        for i, held in enumerate(self.opponent_holds):
            if held:
                parts.append(f"opponent {i + 1} holds {format_cards(held, pretty=pretty)}")
        parts.append(f"{self.opponents} opponent{'s' if self.opponents != 1 else ''}")
        parts.append(f"{len(self.unseen)} unseen")
        return "; ".join(parts)


def opponent_turns(view: PlayerView) -> list[int]:
    """How many turns each of ``view``'s opponents has completed in this hand (their
    discards), in the order of :attr:`PlayerView.opponents`."""
    turns = dict.fromkeys(view.opponents, 0)
    for e in view.history:
        if e.player in turns and e.action.kind is ActionKind.DISCARD:
            turns[e.player] += 1
    return list(turns.values())


def collected_suits(view: PlayerView, player: int) -> set[Suit]:
    """Suits ``player`` took from the discard pile this hand (public knowledge)."""
    return {
        e.card.suit
        for e in view.history
        if e.player == player and e.action.kind is ActionKind.TAKE and e.card is not None
    }
