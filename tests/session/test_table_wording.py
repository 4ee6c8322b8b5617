"""The table speaks to the learner: "you" for the learner's seat, the other seats by the names
they are shown under, cards in suit symbols, and the rule code still at the front.

Every refusal a table click can reach (each branch of ``GameState._why_illegal`` that a
click on the stock, the discard pile, a card, Knock or an action button can meet, under the
rules that make it reachable: C5, C6, C10, C11, C12, V4, V5, V6, V10, V11, V19, between
hands and after the game) is driven on a seeded session, for the learner in seat 0 and in
seat 1. The engine's own messages are unchanged (they are its tested contract): only what
the table shows is reworded (:func:`scatlab.words.learner_words`).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from scatlab.rules import PRESETS, Action, GameState, Phase, deal_order, find_rules
from scatlab.session import TableDisplay, TableSession
from scatlab.widgets.table import Table
from scatlab.words import learner_words

LETTER_CARD = re.compile(r"(?<![\w♣♦♥♠])(10|[2-9AKQJ])[HDCS](?![\w♣♦♥♠])")
LOW = "2C 3D 4H"  # worth 4: no knock, no 31 anywhere near
LOW_OTHER = "5S 6C 8D"


def seated(
    rules: Any,
    mine: str,
    others: list[str],
    seat: int,
    up: str = "9S",
    stock: str = "",
    opponents: tuple[str, ...] | None = None,
) -> TableSession:
    """A table where the learner at ``seat`` holds ``mine`` and plays first; ``others`` are
    the next seats' hands, clockwise."""
    n = len(others) + 1
    hands: list[str | None] = [None] * n
    hands[seat] = mine
    for k, hand in enumerate(others, start=1):
        hands[(seat + k) % n] = hand
    dealer = (seat - 1) % n
    order = deal_order(hands, up=up, stock=stock, dealer=dealer, rules=find_rules(rules))
    kinds = opponents or ("tip",) * len(others)
    return TableSession(rules, kinds, seat=seat, seed=3, hints=False, deal=order, dealer=dealer)


def learner_text_problems(text: str, seat: int) -> list[str]:
    """What in ``text`` is not in the learner's words: their seat by number (the table
    numbers seats from 1: seat 0 is player 1), "player 0", or a card in letters."""
    problems = []
    shown = seat + 1
    if re.search(rf"\bplayers? {shown}\b|\bplayers [\d, and]*\b{shown}\b", text):
        problems.append(f"names the learner's seat as player {shown}")
    if re.search(r"\bplayers? 0\b|\bplayers [\d, and]*\b0\b", text):
        problems.append("names a seat as player 0: the table numbers players from 1")
    letters = LETTER_CARD.search(text)
    if letters is not None:
        problems.append(f"shows a card in letters ({letters.group(0)})")
    return problems


def shown_texts(m: TableDisplay) -> list[str]:
    """Every running text the table shows: the refusal, the notice, the status, the log,
    the last computer move's why, the showdown's outcome, explanation and the computer
    players' reasons, the hints."""
    texts = [m.message, m.notice, m.status, *m.log, m.why or ""]
    if m.showdown is not None:
        texts += [*m.showdown.outcome, m.showdown.explain, *m.showdown.reasons]
    if m.hints is not None:
        texts += [m.hints.advice_reason, *(label for label, _, _ in m.hints.rows), *(v for _, _, v in m.hints.rows)]
    return texts


def refused(s: TableSession, click: Callable[[TableSession], TableDisplay]) -> str:
    """The message a refused click shows, checking that the click changed nothing."""
    before = s.state
    m = click(s)
    assert s.state is before, "a refused click changed the game"
    assert m.message, "the click was not refused"
    return m.message


def exhaust_stock(s: TableSession) -> None:
    """Play the engine on until the stock is empty and it is the learner's turn: every seat
    draws and throws back the card it drew (so no hand changes), and a seat facing the empty
    stock takes the discard and throws its lowest other card."""
    state = s.state
    while not (state.stock_size == 0 and state.to_move == s.seat and state.phase is Phase.TURN):
        assert state.phase in (Phase.TURN, Phase.DISCARD), state
        if state.phase is Phase.DISCARD:
            p = state.to_move
            assert p is not None
            card = state.drawn or min((c for c in state.hands[p] if c is not state.taken), key=lambda c: c.value)
            state = state.apply(f"discard {card}")
        elif state.stock_size:
            state = state.apply("draw")
        else:
            state = state.apply("take")
    s.state = state


def knock_after_my_turn(rules: Any, seat: int, players: int = 2) -> TableSession:
    """The learner draws and throws back; the next seat (a tip player holding 30) knocks."""
    others = ["AS KS 9S"] + [LOW_OTHER] * (players - 2)
    s = seated(rules, LOW, others, seat, up="7H")
    s.click_stock()
    drawn = s.display().drawn
    assert drawn is not None
    m = s.click_card(drawn)
    assert m.knocker == (seat + 1) % players and m.my_turn, m.status
    return s


def game_over(seat: int, learner_wins: bool) -> TableSession:
    rules = {"lives": 1, "county": False}
    if learner_wins:
        s = seated(rules, "AH KH 4C", [LOW_OTHER], seat, up="QH")
        s.click_discard()
        s.click_card("4C")  # A♥ K♥ Q♥: 31 (C8)
    else:
        s = seated(rules, LOW, ["AS KS QS"], seat)  # dealt 31 (C9): the game is over at once
    assert s.state.is_over
    return s


def between_hands(seat: int) -> TableSession:
    s = seated("classic", LOW, [LOW_OTHER, "7C 8H 9D"], seat)
    assert s.knock().phase == "deal"
    return s


def drawn(rules: Any, seat: int) -> TableSession:
    s = seated(rules, LOW, [LOW_OTHER], seat)
    s.click_stock()
    return s


def taken(seat: int) -> TableSession:
    s = seated("classic", LOW, [LOW_OTHER], seat)
    s.click_discard()
    return s


def later_turn(rules: Any, seat: int) -> TableSession:
    """The learner's second turn (the first was draw and throw back)."""
    s = seated(rules, LOW, [LOW_OTHER], seat)
    s.click_stock()
    drawn_card = s.display().drawn
    assert drawn_card is not None
    s.click_card(drawn_card)
    assert s.display().my_turn
    return s


def empty_stock(seat: int) -> TableSession:
    s = seated("classic", LOW, [LOW_OTHER], seat)
    exhaust_stock(s)
    return s


def knock(s: TableSession) -> TableDisplay:
    return s.knock()


def draw(s: TableSession) -> TableDisplay:
    return s.click_stock()


def take(s: TableSession) -> TableDisplay:
    return s.click_discard()


def action(name: str) -> Callable[[TableSession], TableDisplay]:
    return lambda s: s.play(name)


def card(code: str | None = None, *, taken_card: bool = False) -> Callable[[TableSession], TableDisplay]:
    def click(s: TableSession) -> TableDisplay:
        chosen = s.display().taken if taken_card else code
        assert chosen is not None
        return s.click_card(chosen)

    return click


# (name, the table at the moment, the click, what the shown message starts with, a phrase it holds)
REFUSALS: list[tuple[str, Callable[[int], TableSession], Callable[[TableSession], TableDisplay], str, str]] = [
    (
        "game over, the learner won",
        lambda seat: game_over(seat, True),
        draw,
        "you cannot act: the game is over",
        "(you won)",
    ),
    (
        "game over, a computer won",
        lambda seat: game_over(seat, False),
        take,
        "you cannot act: the game is over",
        "(tip) won)",
    ),
    ("between hands", between_hands, knock, "you cannot act: the next hand has not been dealt yet", "deal"),
    ("C5 the taken card", taken, card(taken_card=True), "C5: a card taken from the discard pile", "discard one of"),
    ("C5 a card not held", lambda seat: drawn("classic", seat), card("AS"), "C5: you do not hold A♠", "discard one of"),
    (
        "C5 drawn, draw again",
        lambda seat: drawn("classic", seat),
        draw,
        "C5: you have drawn and must now discard",
        "(discard",
    ),
    (
        "C5 drawn, knock",
        lambda seat: drawn("classic", seat),
        knock,
        "C5: you have drawn and must now discard",
        "(discard",
    ),
    (
        "V19 no bus stop",
        lambda seat: drawn("classic", seat),
        action("stop_bus"),
        "V19: these rules have no bus stop",
        "",
    ),
    (
        "V19 first turn",
        lambda seat: drawn("ride-the-bus", seat),
        action("stop_bus"),
        "V19: the bus cannot be stopped in your first turn",
        "",
    ),
    (
        "V19 a knock is on",
        lambda seat: draw_after(knock_after_my_turn("ride-the-bus", seat)),
        action("stop_bus"),
        "V19: the hand is already ending",
        "",
    ),
    (
        "C10 declare or pass",
        lambda seat: seated({"declare": "manual"}, "AH KH QH", [LOW_OTHER], seat),
        draw,
        "C10: you hold 31 and must declare it or pass",
        "(declare, pass)",
    ),
    (
        "V11 throw down first",
        lambda seat: seated({"throw_down": True}, LOW, [LOW_OTHER], seat),
        draw,
        "V11: you first decide whether to throw down",
        "(throw_down, pass)",
    ),
    (
        "C5 discard before drawing",
        lambda seat: seated("classic", LOW, [LOW_OTHER], seat),
        card("2C"),
        "C5: you must draw or take a card before discarding",
        "",
    ),
    ("C11 draw from the empty stock", empty_stock, draw, "C11: the stock is exhausted", ""),
    ("C11 knock with the stock empty", empty_stock, knock, "C11: the stock is exhausted", ""),
    (
        "C12 no taking back",
        lambda seat: knock_after_my_turn({"take_back": False}, seat),
        take,
        "C12: these rules do not let you take back your own discard",
        "",
    ),
    (
        "C6 one knock a hand",
        lambda seat: knock_after_my_turn("classic", seat, players=3),
        knock,
        "C6: player",
        "(tip) has already knocked",
    ),
    (
        "V6 first round",
        lambda seat: seated("quick", LOW, [LOW_OTHER], seat),
        knock,
        "V6: no knocking in the first round",
        "",
    ),
    (
        "V4 minimum knock",
        lambda seat: seated({"min_knock": 21}, LOW, [LOW_OTHER], seat),
        knock,
        "V4: a knock needs at least 21; 2♣ 3♦ 4♥ is worth 4",
        "",
    ),
    (
        "V5 flush to knock",
        lambda seat: seated({"knock_needs_flush": True}, LOW, [LOW_OTHER], seat),
        knock,
        "V5: a knock needs three cards of one suit; 2♣ 3♦ 4♥ is not",
        "",
    ),
    (
        "V10 no hammer",
        lambda seat: seated("classic", LOW, [LOW_OTHER], seat),
        action("hammer"),
        "V10: these rules have no hammer",
        "",
    ),
    (
        "V10 hammer too late",
        lambda seat: later_turn({"hammer": True}, seat),
        action("hammer"),
        "V10: only the first player",
        "",
    ),
    (
        "C11 pass with a stock",
        lambda seat: seated("classic", LOW, [LOW_OTHER], seat),
        action("pass"),
        "C11: passing ends the hand only when the stock is exhausted",
        "(draw, take, knock)",
    ),
    (
        "V11 throw down too late",
        lambda seat: seated("classic", LOW, [LOW_OTHER], seat),
        action("throw_down"),
        "V11: a throw-down is called before the first turn",
        "",
    ),
    (
        "V19 stop the bus before drawing",
        lambda seat: later_turn("ride-the-bus", seat),
        action("stop_bus"),
        "V19: the bus is stopped after drawing",
        "",
    ),
    (
        "declare without 31",
        lambda seat: seated("classic", LOW, [LOW_OTHER], seat),
        action("declare"),
        "declare is not possible now",
        "(draw, take, knock)",
    ),
]


def draw_after(s: TableSession) -> TableSession:
    s.click_stock()
    return s


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("case", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_C5_every_refusal_a_click_can_meet_is_in_the_learners_words(
    case: tuple[str, Callable[[int], TableSession], Callable[[TableSession], TableDisplay], str, str], seat: int
) -> None:
    """The refusal names the learner "you" (never "player N" for their seat), the other
    seats as the table shows them, cards in suit symbols, with the rule code in front."""
    _, make, click, start, phrase = case
    s = make(seat)
    message = refused(s, click)
    assert message.startswith(start), message
    assert phrase in message, message
    assert learner_text_problems(message, seat) == [], message


def test_C5_the_engine_keeps_its_own_words_and_the_table_rewords_them() -> None:
    """The engine's message (its contract) still says "player 0" and "6H"; the table shows
    the same message reworded, rule code first."""
    s = drawn("classic", 0)
    from scatlab.errors import IllegalActionError

    with pytest.raises(IllegalActionError) as exc:
        s.state.apply_for(0, Action.DRAW)  # as the table passes it (an action given as text is also quoted)
    engine = str(exc.value)
    assert engine.startswith("C5: player 0 has drawn") and LETTER_CARD.search(engine)
    assert s.click_stock().message == learner_words(engine, 0, {1: "player 2 (tip)"})


def test_a_computer_seat_is_named_as_the_table_shows_it() -> None:
    """Seats are numbered from 1, as the table labels them: the learner in seat 0 is
    "player 1 (you)", seat 1 "player 2 (tip)", and the texts say the same."""
    s = TableSession("classic", opponents=("tip", "tip"), seed=4, auto_play=False)
    assert [seat.name for seat in s.display().seats] == ["player 1 (you)", "player 2 (tip)", "player 3 (tip)"]
    s.click_stock()
    s.click_card(s.display().discardable[0])
    m = s.click_stock()  # the learner clicks while a computer player is to move
    assert m.message.startswith("it is player 2 (tip)'s turn"), m.message
    assert m.status.startswith("Player 2 (tip) is playing")


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("name", list(PRESETS))
def test_everything_the_table_shows_is_in_the_learners_words(name: str, seat: int) -> None:
    """Random clicks, legal or not, through seeded games under every preset: no text the
    table shows (refusal, status, log, why, showdown, hints) names the learner's seat by
    number or shows a card in letters."""
    rules = find_rules(name)
    if rules.score_keeping == "points":
        rules = rules.replace(points_target=3)
    table = Table(rules, opponents=("tip", "random"), seat=seat, seed=17, hints=True, pace=0)
    rng = random.Random(f"words-{name}-{seat}")
    codes = ["AS", "KH", "10D", "7C", "2S"]
    seen = 0
    for _ in range(120):
        if table.session.state.is_over:
            table.handle({"type": "new"})
        msg = rng.choice(
            [
                {"type": "stock"},
                {"type": "discard"},
                {"type": "knock"},
                {"type": "next"},
                {"type": "card", "card": rng.choice(codes + list(table.surface.state["hand"]))},
                {"type": "action", "action": rng.choice(["pass", "hammer", "throw_down", "stop_bus", "declare"])},
            ]
        )
        table.handle(msg)
        for text in shown_texts(table.session.display()):
            assert learner_text_problems(text, seat) == [], text
            seen += bool(text)
    assert seen > 200


def test_C7_C13_the_showdown_says_you_and_names_the_others() -> None:
    order = deal_order(["AH KH 4C", "2S 3S 5D", "9C 8D 7S"], up="QS", dealer=2)
    s = TableSession("classic", opponents=("tip", "tip"), seed=1, deal=order, dealer=2)
    m = s.knock()
    assert m.log[0] == "you knock"
    assert m.showdown is not None
    assert m.showdown.explain == "C7: lowest hand 11: player 3 (tip) loses a life"
    assert m.showdown.outcome == ("player 3 (tip) loses 1 penny (2 left)",)


def test_GameState_messages_are_unchanged_by_the_table() -> None:
    """The rewording lives in the widget layer: a state refused directly still speaks of
    seats by number (the engine's tested contract)."""
    s = GameState.new("classic", 2, 1).deal(deal_order(["2C 3D 4H", "5S 6C 8D"], up="9S", dealer=1))
    s = s.apply("draw")
    with pytest.raises(ValueError, match=r"^C5: player 0 has drawn and must now discard \(discard 2C"):
        s.apply("draw")


def test_chances_are_worded_for_a_learner_at_each_boundary() -> None:
    """Hints give a whole percentage, "1 in n" below one in five (exact for 1/n, "about"
    when rounded), "under 1%" and "over 99%" at the ends, and refuse what is not a chance."""
    from fractions import Fraction

    import pytest

    from scatlab.session import chance_words

    assert chance_words(Fraction(1, 5)) == "20%"  # one in five: a percentage only
    assert chance_words(Fraction(1, 6)) == "17% (1 in 6)"
    assert chance_words(Fraction(1, 100)) == "1% (1 in 100)"  # one percent is not "under 1%"
    assert chance_words(Fraction(99, 10000)) == "under 1% (about 1 in 101)"
    assert chance_words(Fraction(99, 100)) == "99%" and chance_words(Fraction(991, 1000)) == "over 99%"
    assert chance_words(Fraction(1, 2)) == "50%" and chance_words(Fraction(0)) == "0% (never)"
    from scatlab.errors import AnalysisError

    for bad in (Fraction(3, 2), -1, 0.5, "1/2", True):
        with pytest.raises(AnalysisError, match="is not a probability"):
            chance_words(bad)  # type: ignore[arg-type]


def test_C5_after_a_draw_the_status_names_the_number_keys_that_throw_a_card() -> None:
    s = drawn("classic", 0)
    m = s.display()
    assert m.status == "Your turn: click a card of your hand to discard it, or press its number (1-4).", m.status


def test_C6_after_a_knock_the_status_says_it_is_your_last_turn_and_who_knocked() -> None:
    """Following the advice at seed 0 against two experts, hand after hand, until an
    opponent knocks; on the learner's next turn the status line says that turn is the last
    and who knocked (C6)."""
    from scatlab.session import TableSession

    s = TableSession("classic", opponents=("expert", "expert"), seed=0)
    m = s.display()
    for _ in range(400):
        if m.phase == "deal":  # the hand ended first (the learner's knock or a 31): the next one
            m = s.next_hand()
            continue
        assert m.hints is not None and m.hints.analysis.ranking is not None
        if s.state.knocker is not None and s.state.knocker != s.seat:
            break
        assert "last turn" not in m.status
        s.play(m.hints.analysis.ranking.best.action)
        m = s.display()
    knocker = s.state.knocker
    assert m.status.startswith("Your turn: ") and knocker is not None
    assert m.status.endswith(f" This is your last turn: player {knocker + 1} (expert) knocked."), m.status  # from 1
