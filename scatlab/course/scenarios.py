"""Lesson 4's deals: every showdown case (C7) and every 31 case (C8, C9, C10, V9), each from
an explicit deck, to be played out on the card table.

Each :class:`Scenario` deals three players from :func:`scatlab.rules.deal_order`: the
learner in seat 0 plays first (seat 2 deals), two ``tip`` players sit in seats 1 and 2. The
texts name the seats as the table shows them: "you", "player 2" and "player 3"
(:func:`scatlab.rules.player_label`).
``moves`` is what the learner is asked to do (``"knock"``, ``"stock"``, ``"discard"`` or
``"card XX"``); the rest follows from the deck (the stock's top cards are fixed) and the
tip players' choices. :func:`play_out` plays a scenario through
:class:`~scatlab.session.TableSession`, the table's own engine, and the tests check
that every scenario ends as its ``expect`` says (lives lost per seat).

>>> s = SCENARIOS[0]
>>> s.code, s.expect
('C7', (0, 1, 0))
>>> play_out(s)
(0, 1, 0)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..cards import Card
from ..rules.state import deal_order

__all__ = ["Scenario", "SCENARIOS", "first_hand_losses", "followed", "play_out", "scenario"]


@dataclass(frozen=True)
class Scenario:
    """One deal of lesson 4. Its ``title`` names the situation ("Knock with 19"), never the
    result: the learner predicts who pays before the hand ends."""

    key: str
    code: str
    title: str
    hands: tuple[str, str, str]
    up: str
    stock: str
    moves: tuple[str, ...]
    instructions: str
    expect: tuple[int, int, int]
    explanation: str
    rules: str | dict[str, Any] = "classic"
    extra_codes: tuple[str, ...] = field(default=())

    def deck(self) -> tuple[Card, ...]:
        """The whole deck order (seat 2 deals, so seat 0 gets the first card)."""
        return deal_order(list(self.hands), up=self.up, stock=self.stock, dealer=2, rules=_rules(self.rules))


def _rules(rules: str | dict[str, Any]) -> Any:
    from ..rules.options import find_rules

    return find_rules(rules)


SCENARIOS: tuple[Scenario, ...] = (
    Scenario(
        "lowest",
        "C7",
        "Knock with 30",
        ("AH KH 9H", "2C 3C 5D", "QS JS 4D"),
        "2D",
        "3D 4H 5H",
        ("knock",),
        "You hold 30. Knock (K) and watch the others take their last turn. Who will lose a life?",
        (0, 1, 0),
        "Player 2 is lowest on their own and loses one life; the knocker is safe (C7).",
    ),
    Scenario(
        "knocker-tied",
        "C7",
        "Knock with 20",
        ("KS QS 3C", "KC QC 2H", "AD KD 9D"),
        "2S",
        "3S 4S 5S",
        ("knock",),
        "You hold 20. Knock (K). If another player ends level with you, who pays?",
        (0, 1, 0),
        "You and player 2 tie for lowest at 20: the other tied player loses a life and the knocker is safe (C7).",
    ),
    Scenario(
        "knocker-lowest",
        "C7",
        "Knock with 19",
        ("KS 9S 2C", "AC KC 3H", "AD KD 4H"),
        "2D",
        "3D 5C 6C",
        ("knock",),
        "You hold 19. Knock (K) anyway: what does a knock cost when the knocker ends lowest?",
        (2, 0, 0),
        "You are lowest on your own: the knocker loses two lives (C7; V8 makes it one).",
    ),
    Scenario(
        "others-tied",
        "C7",
        "Knock with 21",
        ("AH KH QS", "KC 7C 2S", "KD 7D 3S"),
        "2H",
        "3H 4H 5H",
        ("knock",),
        "You hold 21. Knock (K). What if two other players end level at the bottom?",
        (0, 1, 1),
        "Players 2 and 3 tie for lowest: both lose a life (C7).",
    ),
    Scenario(
        "declare",
        "C8",
        "Drawing to 31",
        ("AH KH 4C", "2S 5S 8D", "3D 6D 9C"),
        "7C",
        "QH 2C 3C",
        ("stock", "card 4C"),
        "Draw from the stock (D), then throw the 4♣.",
        (0, 1, 1),
        "A♥ K♥ Q♥ is 31: it is shown at once, the hand ends and every other player loses a life (C8).",
    ),
    Scenario(
        "after-knock",
        "C8",
        "Knock with 29",
        ("KS QS 9S", "AC KC 2D", "5H 6H 8D"),
        "2H",
        "QC 3D 4D",
        ("knock",),
        "You hold 29. Knock (K) and watch player 2's last turn. What if someone makes 31 after your knock?",
        (1, 0, 1),
        "Player 2 makes 31 after your knock: everyone else loses a life, the knocker too, like everyone else (C8).",
    ),
    Scenario(
        "after-knock-v9",
        "V9",
        "Knock with 29, under V9",
        ("KS QS 9S", "AC KC 2D", "5H 6H 8D"),
        "2H",
        "QC 3D 4D",
        ("knock",),
        "The same deal under V9: knock (K) again. Who pays this time?",
        (2, 0, 1),
        "Under V9 the 31 holder is safe, the knocker loses two lives and the others one.",
        {"preset": "classic", "thirty_one_after_knock": "knocker_two"},
    ),
    Scenario(
        "dealt",
        "C9",
        "Dealt 31",
        ("AH KH QH", "2S 5S 8D", "3D 6D 9C"),
        "7C",
        "2C 3C 4C",
        (),
        "You were dealt A♥ K♥ Q♥: nothing to do.",
        (0, 1, 1),
        "A player dealt 31 declares it before any play; all others lose a life (C9).",
    ),
    Scenario(
        "dealt-two",
        "C9",
        "Two players dealt 31",
        ("AH KH QH", "AS KS QS", "3D 6D 9C"),
        "7C",
        "2C 3C 4C",
        (),
        "You and player 2 were both dealt 31.",
        (0, 0, 1),
        "With two players dealt 31, everyone else loses a life (C9).",
    ),
    Scenario(
        "undeclared",
        "C10",
        "A 31 not declared",
        ("AH KH 4C", "2S 5S 8D", "3D 6D 9C"),
        "7C",
        "QH 2C 3C",
        ("stock", "card 4C", "action pass", "knock"),
        "With manual declaring: draw (D), throw the 4♣, press Pass instead of Declare 31, and knock (K) "
        "on your next turn.",
        (0, 1, 0),
        "The 31 not declared at once did not end the hand and cannot be claimed later: at the "
        "showdown it counts as 30 (C10). Player 2 is lowest and loses a life (C7).",
        {"preset": "classic", "declare": "manual"},
    ),
)
"""Every deal of lesson 4, in the order the lesson shows them."""


def scenario(key: str) -> Scenario:
    """A scenario by its key ("lowest", "declare", ...)."""
    from ..errors import ScatlabError

    for s in SCENARIOS:
        if s.key == key:
            return s
    raise ScatlabError(f"{key!r} is not a lesson 4 deal; known: {', '.join(s.key for s in SCENARIOS)}")


def play_out(s: Scenario, seed: int = 4) -> tuple[int, int, int]:
    """Play ``s`` on the table's engine with the learner's moves; the lives lost per seat
    in the first hand (``(0, 0, 0)`` if it has not ended)."""
    from ..session import TableSession

    session = TableSession(s.rules, ("tip", "tip"), seat=0, seed=seed, deal=s.deck(), dealer=2)
    for move in s.moves:
        if move == "knock":
            session.knock()
        elif move == "stock":
            session.click_stock()
        elif move == "discard":
            session.click_discard()
        elif move.startswith("card "):
            session.click_card(move.split()[1])
        elif move.startswith("action "):
            session.play(move.split()[1])
        session.run_opponents()
    return first_hand_losses(session.state)


_MOVE_ACTIONS = {"stock": "draw", "discard": "take", "knock": "knock"}


def followed(s: Scenario, record: Any) -> bool:
    """Whether the learner (seat 0) played exactly ``s``'s moves in the first hand of
    ``record`` (a :class:`~scatlab.rules.GameRecord`): only then does the deal's
    explanation describe what happened.

    >>> from scatlab.session import TableSession
    >>> t = TableSession("classic", ("tip", "tip"), seed=4, deal=scenario("lowest").deck(), dealer=2)
    >>> _ = t.knock(); followed(scenario("lowest"), t.record())
    True
    """
    wanted = [
        _MOVE_ACTIONS.get(m) or (f"discard {m.split()[1]}" if m.startswith("card ") else m.split()[-1]) for m in s.moves
    ]
    hands = record.hands
    played = [str(action) for player, action in hands[0].actions if player == 0] if hands else []
    return played == wanted


def first_hand_losses(state: Any) -> tuple[int, int, int]:
    """The lives lost per seat in the first hand of ``state`` (a
    :class:`~scatlab.rules.GameState` of a deal of three), ``(0, 0, 0)`` before it ends."""
    results = state.results
    if not results:
        return (0, 0, 0)
    lost = results[0].lives_lost
    return (int(lost[0]), int(lost[1]), int(lost[2]))
