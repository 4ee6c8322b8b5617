"""The hand in play dealt again (``redeal``) and its stock reordered (``restock``), as the
calibration study asks them of a game (research/calibration/deals.py), built from the
game's record: checked against the deal (C3), the standings (C13) and the record's
replay."""

from __future__ import annotations

import pytest

from research.calibration.deals import hand_start, redeal, restock
from scatlab.cards import format_cards
from scatlab.errors import CardError, IllegalActionError, RulesError
from scatlab.players import make_player
from scatlab.players.tournament import play_out
from scatlab.rules import GameRecord, GameState, deal_order, find_rules, play_random_game, replay
from scatlab.rules.state import Phase


def test_C3_redeal_deals_the_hand_in_play_again_from_another_deck() -> None:
    """The same deck gives the same moment just after the deal; another deck is dealt one
    card at a time from the dealer's left (C3); the standings stay as they are."""
    deck = deal_order(["AH KH 5C", "2S 3S 9H", "QD JD 4C"], up="7S", stock="8H")
    s = GameState.new("classic", 3).deal(deck)
    later = s.apply("draw").apply("discard 2S")
    again = redeal(later, deck)
    assert (again.hands, again.discards, again.stock, again.to_move) == (s.hands, s.discards, s.stock, s.to_move)
    assert again.events == () and again.hand_number == 1 and again.lives == s.lives
    other = redeal(later, tuple(reversed(deck)))
    top = tuple(reversed(deck))
    assert other.hands[1] == (top[0], top[3], top[6]) and other.discards == (top[9],)


def test_C13_redeal_keeps_the_standings_and_deals_only_to_the_players_still_in() -> None:
    """In a hand left to two of a 3-player game the hand dealt again goes to those two, with
    the lives, the dealer and the finished hands as they were."""
    seen: list[GameState] = []

    def observe(before: GameState, entrant: int, view: object, action: object, after: GameState) -> None:
        if len(before.active) == 2 and not seen:
            seen.append(before)

    play_out([make_player("tip")] * 3, ["tip"] * 3, find_rules("classic"), 5, 0, observe)
    state = seen[0]
    again = redeal(state, state.decks[-1])
    out = [p for p in range(3) if state.out[p]]
    assert len(out) == 1 and again.hands[out[0]] == ()
    assert again.lives == state.lives and again.dealer == state.dealer and again.results == state.results
    assert again.hand_number == state.hand_number and again.past == state.past
    dealt = [len(h) for h in again.hands]
    assert sorted(dealt) == [0, 3, 3]


def test_redeal_is_refused_between_hands_and_after_the_game() -> None:
    s = GameState.new("classic", 2)
    with pytest.raises(IllegalActionError, match="cannot deal the hand again now: the game is in the 'deal' phase"):
        redeal(s, deal_order(["AH KH 5C", "2S 3S 9H"], up="QH"))
    assert s.phase is Phase.DEAL and s.hand_number == 0  # untouched


def test_restock_reorders_the_undrawn_stock_and_the_record_replays_the_new_order() -> None:
    """``restock`` (C3: after the deal the rest of the deck is the stock, top
    first): the cards not yet drawn in a new order, the cards drawn kept; the saved deck
    changes to match, so the record replays to the same moment; anything but a reordering of
    the undrawn cards is refused with a RulesError quoting it (a card twice: CardError), and
    the state is untouched; between hands and after the game there is nothing to reorder."""
    s = GameState.new("classic", 2).deal(deal_order(["AH KH 4C", "2S 3S 9H"], up="QS", stock="5D 6D 7D"))
    s = s.apply("draw").apply("discard 2S")  # player 1 draws the 5D; player 0 is to move
    left = list(s.stock[s.stock_pos :])
    assert format_cards(left[:2]) == "6D 7D"
    r = restock(s, [left[1], left[0], *left[2:]])
    assert format_cards(r.stock[r.stock_pos : r.stock_pos + 2]) == "7D 6D" and r.stock[: r.stock_pos] == s.stock[:1]
    assert r.hands == s.hands and r.discards == s.discards and r.to_move == s.to_move
    after = r.apply("draw")
    assert format_cards(after.hands[0])[-2:] == "7D"
    record = GameRecord.from_state(after)
    assert format_cards(record.to_json()["hands"][0]["deck"][8:10]) == "7D 6D"
    again = replay(GameRecord.loads(record.dumps()))
    assert again.hands == after.hands and again.stock == after.stock
    with pytest.raises(RulesError, match="restock needs the 44 cards still in the stock in a new order, not 43 cards"):
        restock(s, left[:-1])
    with pytest.raises(
        RulesError, match="restock needs the 44 cards still in the stock in a new order, 5D is not in it"
    ):
        restock(s, [*left[1:], s.stock[0]])
    with pytest.raises(CardError, match="'6D' appears twice"):
        restock(s, [*left[:-1], left[0]])
    assert s.stock[s.stock_pos :] == tuple(left)
    for idle in (GameState.new("classic", 2), play_random_game("classic", players=2, seed=1)):
        with pytest.raises(IllegalActionError, match="restock needs a hand in play: the game is in the"):
            restock(idle, [])


def test_hand_start_is_the_moment_the_hand_in_play_was_dealt_from() -> None:
    """At every moment of a seeded 3-player game (random actions, three lives each) the game
    replayed without the hand in play is the state that hand was dealt from: its standings,
    dealer, finished hands and record; between hands there is no hand to go back to."""
    import random

    from scatlab.rules import shuffled_deck

    rng = random.Random(7)
    s = GameState.new("classic", 3)
    before_deal = s
    checked = 0
    while not s.is_over:
        if s.phase is Phase.DEAL:
            with pytest.raises(IllegalActionError, match="cannot deal the hand again now"):
                hand_start(s)
            before_deal = s
            s = s.deal(shuffled_deck(s.rules, rng))
            continue
        start = hand_start(s)
        assert start.phase is Phase.DEAL and start.hand_number == s.hand_number - 1
        assert (start.lives, start.out, start.dealer, start.results, start.past) == (
            before_deal.lives,
            before_deal.out,
            before_deal.dealer,
            before_deal.results,
            before_deal.past,
        )
        assert GameRecord.from_state(start) == GameRecord.from_state(before_deal)
        checked += 1
        s = s.apply(rng.choice(s.legal_actions()))
    assert checked > 20 and len(s.results) > 2
