"""``scatlab demo`` and ``scatlab record``: play a seeded game between computer players,
narrated in the terminal (every move and outcome with its rule code) or written as its JSON
record."""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable
from typing import Any

from ..errors import ScatlabError
from .parsing import whole_number

__all__ = ["add_commands", "COMMANDS"]


def add_commands(sub: Any) -> None:
    """Add ``demo`` and ``record`` to an argparse sub-parser set."""
    demo = sub.add_parser("demo", help="play a seeded game in the terminal, explaining each outcome")
    _game_options(demo, 7)
    demo.add_argument("--quiet", action="store_true", help="print only the hands' outcomes")

    record = sub.add_parser("record", help="write the JSON record of a seeded game")
    _game_options(record, 0)
    record.add_argument("-o", "--output", help="file to write (default: standard output)")


def _game_options(p: argparse.ArgumentParser, seed: int) -> None:
    """The options of a seeded game (``demo`` and ``record``), ``seed`` its default seed."""
    p.add_argument("--seed", type=whole_number, default=seed, help=f"random seed (default {seed})")
    p.add_argument("--players", type=whole_number, default=3, help="number of players, 2 to 9 (default 3)")
    p.add_argument("--rules", default="classic", help="rule preset (default classic; see 'scatlab rules')")
    p.add_argument("--dealer", type=whole_number, default=0, help="seat of the first dealer (default 0)")
    p.add_argument(
        "--policy",
        choices=("greedy", "random"),
        default="greedy",
        help="how the computer players choose (default greedy)",
    )


def _policy(name: str) -> Any:
    if name == "random":
        from ..rules.record import random_policy

        return random_policy
    from ..players.simple import greedy_policy

    return greedy_policy


def _play(args: argparse.Namespace) -> Any:
    from ..rules.record import play_random_game

    return play_random_game(args.rules, args.players, args.seed, dealer=args.dealer, policy=_policy(args.policy))


def _cmd_demo(args: argparse.Namespace) -> int:
    from ..cards import format_cards
    from ..rules.options import find_rules
    from ..rules.record import shuffled_deck
    from ..rules.state import GameState, Phase

    rules = find_rules(args.rules)
    policy = _policy(args.policy)
    rng = random.Random(args.seed)
    state = GameState.new(rules, args.players, args.dealer)
    out = sys.stdout
    out.write(f"{rules.describe()}; {args.players} players; seed {args.seed}; {args.policy} play\n")
    shown = 0
    while not state.is_over:
        if state.phase is Phase.DEAL:
            state = state.deal(shuffled_deck(rules, rng))
            if not args.quiet:
                up = state.decks[-1][3 * len(state.active)]
                out.write(f"\nHand {state.hand_number}: player {state.dealer} deals; up card {up.pretty}\n")
                for p in state.active:
                    out.write(f"  player {p}: {format_cards(state.hands[p], pretty=True)}\n")
        else:
            state = state.apply(policy(state, rng))
            if not args.quiet:
                out.write(f"    {state.hand_actions()[-1][-1].describe(pretty=True)}\n")
        if len(state.results) > shown:
            shown = len(state.results)
            r = state.results[-1]
            values = ", ".join(
                f"p{p} {format_cards(h, pretty=True)} = {v}"
                for p, (h, v) in enumerate(zip(r.final, r.values))
                if v is not None
            )
            out.write(f"Hand {r.number} ended by {r.ended}: {values}\n")
            for note in r.notes:
                out.write(f"  {note}\n")
            out.write("  now: " + ", ".join(f"p{p} {state.standing(p)}" for p in range(state.num_players)) + "\n")
    out.write(f"\nPlayer {state.winner} wins after {len(state.results)} hands.\n")
    return 0


def _cmd_record(args: argparse.Namespace) -> int:
    from ..rules.record import GameRecord

    text = json.dumps(GameRecord.from_state(_play(args)).to_json(), ensure_ascii=False)
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as fh:
                fh.write(text + "\n")
        except (OSError, ValueError) as exc:  # ValueError: a NUL character in the name
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise ScatlabError(f"cannot write {args.output!r}: {reason}") from None
    else:
        sys.stdout.write(text + "\n")
    return 0


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "demo": _cmd_demo,
    "record": _cmd_record,
}
