"""The ``scatlab`` command line.

- ``scatlab demo [--seed N] [--players N] [--rules PRESET]``: play a seeded game in the
  terminal, narrating every move and every outcome with its rule code.
- ``scatlab record [--seed N] [--players N] [--rules PRESET] [--policy greedy|random]
  [-o FILE]``: write the JSON record of a seeded game.
- ``scatlab replay FILE.json``: replay a record and print the JSON result.
- ``scatlab analyze HAND --discard CARD [--dead CARDS] [--opponent-holds CARDS]...
  [--opponents N] [--rules PRESET] [--horizon K] [--opponent-model adaptive|uniform] [--turns T...]
  [--rejected CARDS]... [--json]``: exact odds and advice.
- ``scatlab rules [PRESET]``: list the presets, or show one preset's options.
- ``scatlab tournament --players expert,tip,tip [--games N] [--rules PRESET] [--seed N]
  [--jobs N] [--json] [--no-progress]``: many seeded games between computer players, with
  fair seating and win rates with confidence intervals (a progress bar on standard error).

Bad input never shows a traceback: the command prints one line to standard error and exits
with status 2.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from .errors import ScatlabError

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def _build_parser() -> _Parser:
    parser = _Parser(prog="scatlab", description="Teach and analyse the card game 31 (Scat, Blitz).")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    def game_options(p: argparse.ArgumentParser, seed: int) -> None:
        p.add_argument("--seed", type=int, default=seed, help=f"random seed (default {seed})")
        p.add_argument("--players", type=int, default=3, help="number of players, 2 to 9 (default 3)")
        p.add_argument("--rules", default="classic", help="rule preset (default classic; see 'scatlab rules')")
        p.add_argument("--dealer", type=int, default=0, help="seat of the first dealer (default 0)")
        p.add_argument("--policy", choices=("greedy", "random"), default="greedy",
                       help="how the computer players choose (default greedy)")

    demo = sub.add_parser("demo", help="play a seeded game in the terminal, explaining each outcome")
    game_options(demo, 7)
    demo.add_argument("--quiet", action="store_true", help="print only the hands' outcomes")

    record = sub.add_parser("record", help="write the JSON record of a seeded game")
    game_options(record, 0)
    record.add_argument("-o", "--output", help="file to write (default: standard output)")

    replay = sub.add_parser("replay", help="replay a JSON game record and print the JSON result")
    replay.add_argument("file", help="the record, a JSON file ('-' reads standard input)")
    replay.add_argument("--compact", action="store_true", help="one-line JSON")

    analyze = sub.add_parser(
        "analyze",
        help="exact odds and advice for a hand: take, draw or knock",
        description="Exact draw probabilities, expected values, knock risk and advice for one hand. "
        "Model: every card you have not seen is equally likely to be the top of the stock.",
    )
    analyze.add_argument("hand", nargs="+", help="your three cards, e.g. AH KH 4C (or four, to choose a discard)")
    analyze.add_argument("--discard", help="the top card of the discard pile, e.g. 9S")
    analyze.add_argument("--dead", nargs="+", default=[], metavar="CARDS",
                         help="cards buried in the discard pile (out of play)")
    analyze.add_argument("--opponent-holds", nargs="+", action="append", default=[], metavar="CARDS",
                         help="cards one opponent is known to hold; repeat once per opponent, in turn order")
    analyze.add_argument("--opponents", type=int, help="number of opponents (default 1, or one per --opponent-holds)")
    analyze.add_argument("--rules", default="classic", help="rule preset or alias (default classic)")
    analyze.add_argument("--horizon", type=int, default=0, metavar="K",
                         help="also the expected value after 1..K more turns (K at most 8)")
    analyze.add_argument("--samples", type=int, default=10_000,
                         help="Monte Carlo deals for the knock risk against 2+ opponents (default 10000)")
    analyze.add_argument("--seed", type=int, default=0, help="seed of that Monte Carlo (default 0)")
    analyze.add_argument("--no-knock", action="store_true", help="skip the knock risk")
    analyze.add_argument("--opponent-model", choices=("adaptive", "uniform"), default="adaptive",
                         help="how opponents' hands are weighted: adaptive (by --turns and --rejected; the "
                         "default) or uniform (as if just dealt)")
    analyze.add_argument("--turns", nargs="+", type=int, default=[], metavar="T",
                         help="turns each opponent has played in this hand, in turn order (adaptive model)")
    analyze.add_argument("--rejected", nargs="+", action="append", default=[], metavar="CARDS",
                         help="cards one opponent threw or passed over for the stock; repeat once per "
                         "opponent, in turn order (adaptive model)")
    analyze.add_argument("--json", action="store_true", help="print one JSON object")

    rules = sub.add_parser("rules", help="list the rule presets, or show one preset's options")
    rules.add_argument("preset", nargs="?", help="a preset name or alias")

    tournament = sub.add_parser(
        "tournament",
        help="play many seeded games between computer players and compare them",
        description="Whole games between computer players with fair seating (the seats rotate every game, "
        "the first dealer every N games); the same seed gives the same result for any --jobs.",
    )
    tournament.add_argument("--players", default="expert,tip,tip",
                            help="comma-separated player kinds, one per entrant (default expert,tip,tip)")
    tournament.add_argument("--games", type=int, default=1000, help="number of games (default 1000)")
    tournament.add_argument("--rules", default="classic", help="rule preset or alias (default classic)")
    tournament.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    tournament.add_argument("--jobs", type=int, default=1,
                            help="worker processes (default 1; 0 means one per core)")
    tournament.add_argument("--json", action="store_true", help="print one JSON object")
    tournament.add_argument("--no-progress", action="store_true", help="no progress bar on standard error")
    return parser


def _policy(name: str) -> Any:
    if name == "random":
        from .rules.record import random_policy

        return random_policy
    from .players.simple import greedy_policy

    return greedy_policy


def _play(args: argparse.Namespace) -> Any:
    from .rules.record import play_random_game

    return play_random_game(args.rules, args.players, args.seed, dealer=args.dealer, policy=_policy(args.policy))


def _cmd_demo(args: argparse.Namespace) -> int:
    from .cards import format_cards
    from .rules.options import find_rules
    from .rules.record import shuffled_deck
    from .rules.state import GameState, Phase

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
            values = ", ".join(f"p{p} {format_cards(h, pretty=True)} = {v}"
                               for p, (h, v) in enumerate(zip(r.final, r.values)) if v is not None)
            out.write(f"Hand {r.number} ended by {r.ended}: {values}\n")
            for note in r.notes:
                out.write(f"  {note}\n")
            out.write("  now: " + ", ".join(f"p{p} {state.standing(p)}" for p in range(state.num_players)) + "\n")
    out.write(f"\nPlayer {state.winner} wins after {len(state.results)} hands.\n")
    return 0


def _cmd_record(args: argparse.Namespace) -> int:
    from .rules.record import GameRecord

    text = json.dumps(GameRecord.from_state(_play(args)).to_json(), ensure_ascii=False)
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as fh:
                fh.write(text + "\n")
        except OSError as exc:
            raise ScatlabError(f"cannot write {args.output!r}: {exc.strerror}") from None
    else:
        sys.stdout.write(text + "\n")
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from .rules.record import GameRecord, replay, replay_file, result_json

    if args.file == "-":
        result = result_json(replay(GameRecord.loads(sys.stdin.read())))
    else:
        result = replay_file(args.file)
    sys.stdout.write(json.dumps(result, indent=None if args.compact else 2, ensure_ascii=False) + "\n")
    return 0


def _cmd_analyze(args: argparse.Namespace) -> int:
    from .analysis.report import analyze

    if args.samples < 1:
        raise ScatlabError(f"--samples {args.samples} is not allowed: use at least 1")
    observations = None
    if args.turns or args.rejected:
        from .analysis.opponents import Observations
        from .cards import parse_cards

        n = args.opponents or max(1, len(args.opponent_holds), len(args.turns), len(args.rejected))
        if len(args.turns) > n or len(args.rejected) > n:
            raise ScatlabError(f"--turns/--rejected are given for more opponents than the {n} there are")
        turns = tuple(args.turns) + (0,) * (n - len(args.turns))
        rejected = tuple(parse_cards(" ".join(r)) for r in args.rejected) + ((),) * (n - len(args.rejected))
        observations = Observations(turns, rejected)
        args.opponents = n
    result = analyze(
        " ".join(args.hand),
        args.discard,
        dead=" ".join(args.dead),
        opponent_holds=[" ".join(h) for h in args.opponent_holds],
        opponents=args.opponents,
        rules=args.rules,
        horizon=args.horizon,
        knock=not args.no_knock,
        samples=args.samples,
        seed=args.seed,
        opponent_model=args.opponent_model,
        observations=observations,
    )
    if args.json:
        sys.stdout.write(json.dumps(result.to_json(), ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(result.table() + "\n")
    return 0


def _cmd_rules(args: argparse.Namespace) -> int:
    from .rules.options import PRESETS, find_rules

    if args.preset is None:
        for rules in PRESETS.values():
            sys.stdout.write(rules.describe() + "\n")
        return 0
    rules = find_rules(args.preset)
    sys.stdout.write(rules.describe() + "\n")
    sys.stdout.write(json.dumps(rules.to_dict(), indent=2, ensure_ascii=False) + "\n")
    return 0


def _cmd_tournament(args: argparse.Namespace) -> int:
    from .players.tournament import run_tournament

    if args.games < 1:
        raise ScatlabError(f"--games {args.games} is not allowed: use at least 1")
    if args.jobs < 0:
        raise ScatlabError(f"--jobs {args.jobs} is not allowed: use 0 (one per core) or more")
    players = [p.strip() for p in args.players.split(",")]
    result = run_tournament(players, args.games, args.rules, args.seed, jobs=args.jobs,
                            progress=False if args.no_progress else None)
    if args.json:
        sys.stdout.write(json.dumps(result.to_json(), ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(result.table() + "\n")
    return 0


_COMMANDS = {
    "demo": _cmd_demo,
    "record": _cmd_record,
    "replay": _cmd_replay,
    "analyze": _cmd_analyze,
    "rules": _cmd_rules,
    "tournament": _cmd_tournament,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad input)."""
    parser = _build_parser()
    args = parser.parse_args(argv)
    try:
        return _COMMANDS[args.command](args)
    except ScatlabError as exc:
        sys.stderr.write(f"scatlab {args.command}: error: {exc}\n")
        return 2
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
