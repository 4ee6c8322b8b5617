"""The README's promise that the other players' cards are face down: nothing the table shows
the learner, and nothing it sends to the browser, names a card the learner cannot see.

Whole seeded games are played through :class:`~scatlab.session.TableSession` under
every preset, 2 to 4 players, against expert, tip, greedy and random opponents, the learner's
seat played by a tip or a random player through the table's own controls (the stock, the
discard pile, a hand card, Knock, the buttons, Next hand, Undo, and now and then a click while
waiting, which is refused). After every single move, computer or learner, every string of the
table model as JSON (:meth:`TableDisplay.to_json`: the status, the log, "Why?", the showdown
with its reasons, the seats, the messages) is searched for every card hidden from the learner
at that moment (:mod:`hidden_cards`: known from the learner's own view; where every card is,
from the game state). The one exception is the hints' list of outs: the unseen cards that
would make 31, named because they are unseen, whatever hand or stock they are in
(``analyze(view)`` of the learner's view, checked in test_widgets_table.py).

The computer players' own reasons (:attr:`Decision.reason`) name their hidden cards (the
expert's "throws the 2S, keeping 3C 7H 8H"): each game also counts how often they would have,
had the table shown them while the hand was live, so the check is seen to catch that leak.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from helpers.hidden_cards import cards_named, hidden_from, hidden_named, strings
from scatlab.players import make_player
from scatlab.players.base import Player
from scatlab.rules import PRESETS, Phase, RuleSet
from scatlab.rules.actions import ActionKind
from scatlab.session import TableSession
from scatlab.widgets.table import Table, enabled_controls

GAMES: dict[str, list[tuple[tuple[str, ...], str]]] = {
    # (opponents, learner) per game: the expert plays under every preset (heads-up where its
    # leak was first seen), every kind of player with 2, 3 and 4 players
    "classic": [(("expert",), "random"), (("tip", "greedy", "expert"), "tip")],
    "quick": [(("tip",), "random"), (("expert", "random"), "tip")],
    "cadillac": [(("greedy",), "tip"), (("tip", "expert"), "random")],
    "gin": [(("expert",), "tip"), (("random", "tip", "expert"), "random")],
    "ride-the-bus": [(("tip",), "tip"), (("expert", "greedy"), "random")],
    "french-canadian": [(("tip",), "tip"), (("greedy", "expert", "random"), "random")],
    "eenendertigen": [(("random",), "tip"), (("tip", "expert", "greedy"), "random")],
}

# French-Canadian games run to 31 points; a target of 8 keeps them short (V16, as in
# test_widgets_table.py)
RULES = {
    name: rules.replace(points_target=8) if rules.score_keeping == "points" else rules
    for name, rules in PRESETS.items()
}


@dataclass
class Tally:
    """What one preset's games covered."""

    games: int = 0
    moments: int = 0
    texts: int = 0
    live_whys: int = 0
    """Moments "Why?" told a computer move of a live hand (its public reason)."""
    told_after: int = 0
    """Own reasons told once a hand was over ("Why?" and the showdown's list)."""
    private_leaks: int = 0
    """Computer moves whose own reason names a card hidden from the learner at that moment:
    what the table showed before it told public reasons."""
    problems: list[str] = field(default_factory=list)


def check(s: TableSession, tally: Tally) -> None:
    """Search everything the table model holds now for a card hidden from the learner."""
    m = s.display()
    hidden = hidden_from(s.state, s.seat)
    texts = [(w, t) for w, t in strings(m.to_json()) if not w.startswith(".hints.outs")]
    tally.moments += 1
    tally.texts += len(texts)
    live = s.state.phase not in (Phase.DEAL, Phase.GAME_OVER)
    if m.why is not None and live:
        tally.live_whys += 1
    if not live:
        tally.told_after += (m.why is not None) + (len(m.showdown.reasons) if m.showdown is not None else 0)
    problems = hidden_named(texts, hidden)
    if problems:
        tally.problems += [f"hand {s.state.hand_number}, {len(s.state.events)} moves in: {p}" for p in problems]


def learner_moves(s: TableSession, player: Player, rng: random.Random) -> None:
    """The learner's move, through the control a click or key would use."""
    action = player.decide(s.view(), rng).action
    kind = action.kind
    if kind is ActionKind.DRAW:
        m = s.click_stock()
    elif kind is ActionKind.TAKE:
        m = s.click_discard()
    elif kind is ActionKind.DISCARD:
        assert action.card is not None
        m = s.click_card(action.card)
    elif kind is ActionKind.KNOCK:
        m = s.knock()
    else:
        m = s.play(str(action))
    assert not m.message, m.message


def play_game(rules: RuleSet, opponents: tuple[str, ...], learner: str, seed: int, tally: Tally) -> None:
    s = TableSession(rules, opponents=opponents, seed=seed, hints=False, auto_play=False)
    me = make_player(learner)
    rng = random.Random(seed)
    mine = 0
    loops = 0
    while True:
        check(s, tally)
        if s.state.is_over:
            break
        loops += 1
        if s.waiting:
            if loops % 29 == 0:  # a click while the computer players move: refused, in the learner's words
                assert s.click_stock().message
                check(s, tally)
            s.step()
            mover, decision = s.moves[-1].seat, s.moves[-1].decision
            if s.state.phase not in (Phase.DEAL, Phase.GAME_OVER):
                own = cards_named(s.words(decision.reason)) & hidden_from(s.state, s.seat)
                tally.private_leaks += bool(own)
            assert mover != s.seat
        elif s.state.phase is Phase.DEAL:
            s.next_hand()
        else:
            learner_moves(s, me, rng)
            mine += 1
            if mine % 17 == 0:  # take it back (the opponents' replies too), then play on
                check(s, tally)
                assert s.undo().notice
    tally.games += 1


@pytest.mark.parametrize("preset", list(PRESETS))
def test_nothing_shown_to_the_learner_names_a_hidden_card_under_every_preset(preset: str) -> None:
    tally = Tally()
    base = 40 + 10 * list(PRESETS).index(preset)
    for k, (opponents, learner) in enumerate(GAMES[preset]):
        play_game(RULES[preset], opponents, learner, base + k, tally)
    assert tally.problems == [], "\n".join(tally.problems[:10])
    # the games did reach what is checked: live "Why?"s, reasons told after a hand, and own
    # reasons that would have leaked had they been shown live
    assert tally.games == len(GAMES[preset]) and tally.live_whys > 50 and tally.told_after > 10, tally
    assert tally.private_leaks > 0, tally


def test_nothing_the_table_widget_syncs_to_the_browser_names_a_hidden_card() -> None:
    """The widget's synced ``state`` (the model as JSON plus its own keys), with the hints on,
    over a short game driven by clicking enabled controls; the card pictures (the shared
    ``CardFaces`` of ``deck_faces``) are the whole deck's, the same in every game, and say
    nothing of where a card is. (The
    ``download`` trait is filled only when the learner clicks Save: it is the game record,
    every hand's deck order included, so that Load can continue the hand.)"""
    rules = {"lives": 1, "county": False}
    for seed, opponents in ((11, ("expert", "tip")), (12, ("tip",))):
        t = Table(rules, opponents=opponents, seed=seed, pace=0)
        rng = random.Random(seed)
        checked = 0
        while True:
            state = t.surface.state
            texts = [(w, s) for w, s in strings(state) if not w.startswith(".hints.outs")]
            assert hidden_named(texts, hidden_from(t.session.state, t.session.seat)) == []
            checked += 1
            controls = enabled_controls(state)
            if t.session.state.is_over or not controls:
                break
            t.handle(rng.choice(controls))
        assert t.session.state.is_over and checked > 3
