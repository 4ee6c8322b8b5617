"""The ``scatlab`` command line.

- ``scatlab demo [--seed N] [--players N] [--rules PRESET]``: play a seeded game in the
  terminal, narrating every move and every outcome with its rule code.
- ``scatlab record [--seed N] [--players N] [--rules PRESET] [--policy greedy|random]
  [-o FILE]``: write the JSON record of a seeded game.
- ``scatlab replay FILE.json``: replay a record and print the JSON result.
- ``scatlab review FILE.json [--player P] [--json]``: the cost of every decision of a
  recorded game (or of one seat), with the move the analysis prefers.
- ``scatlab analyze HAND --discard CARD [--dead CARDS] [--opponent-holds CARDS]...
  [--opponents N] [--rules PRESET] [--horizon K] [--opponent-model adaptive|uniform] [--turns T...]
  [--rejected CARDS]... [--no-knock] [--json]``: exact odds, every move ranked by the chance of
  winning the game, and the advice (:mod:`!scatlab.analysis.explain.report`: each figure stated
  once, in percent; ``--no-knock`` leaves the knock out of the advice too).
- ``scatlab rules [PRESET] [--explain CODE]``: list the presets, or show one preset's options
  and the rules in force (code and title); ``--explain C7`` prints one rulebook entry.
- ``scatlab tournament --players expert,tip,tip [--games N] [--rules PRESET] [--seed N]
  [--jobs N] [--json] [--no-progress]``: many seeded games between computer players, with
  fair seating and win rates with confidence intervals (a progress bar on standard error).
- ``scatlab puzzles --theme THEME [--count N] [--seed S] [--level L] [--json]``: a
  reproducible set of practice puzzles from real games (:mod:`scatlab.course.puzzles`):
  the position, the choices, the answer and why; ``--json`` prints a JSON list.
- ``scatlab serve [--port P] [--host H] [--no-browser]``, ``scatlab lab``,
  ``scatlab progress [--reset] [--yes]``: the course (:mod:`scatlab.course.commands`).

Bad input never shows a traceback: the command prints one line to standard error and exits
with status 2; anything unexpected prints one line and exits with status 1. The line is one
line whatever the input holds: a newline, tab, escape or other unprintable character quoted
from the input is written as its escape (``\\n``, ``\\x1b``; :func:`scatlab.checks.one_line`),
for argparse's own errors too. An option that takes one value may be given once (``--discard
9S --discard 7S`` is refused, not read as the last). Whole numbers are ASCII digits once
normalised (:func:`scatlab.checks.notation`: ``３`` is 3, ``٣`` is refused). Output goes
through whatever encoding the terminal has: where the suit symbols cannot be written
(``PYTHONIOENCODING=ascii``), they become the letters H D C S.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import re
import sys
from collections.abc import Sequence
from typing import Any, NoReturn, TextIO

from .checks import MAX_GAMES, MAX_JOBS, MAX_SAMPLES, SEED_RANGE, notation, one_line, shown
from .errors import ScatlabError

__all__ = ["main"]


class _StoreOnce(argparse._StoreAction):
    """An option that takes one value (or one list): given twice, it is refused rather
    than read as the last one given."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        given: set[str] = vars(namespace).setdefault("_options_given", set())
        if self.dest in given:
            raise argparse.ArgumentError(
                self, f"given twice ({shown(getattr(namespace, self.dest, None))}, then {shown(values)}): give it once"
            )
        given.add(self.dest)
        super().__call__(parser, namespace, values, option_string)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (:func:`scatlab.checks.one_line`) and
    exit status 2, whose one-value options may be given once, and whose subcommands all
    have a description."""

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        if args and str(args[0]).startswith("-") and kwargs.get("action", "store") == "store":
            kwargs["action"] = _StoreOnce
        if kwargs.get("type") is int:  # every command's whole numbers, the course's too
            kwargs["type"] = _whole_number
        return super().add_argument(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')")

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            self._print_message(one_line(message) + "\n", sys.stderr)
        sys.exit(status)


def _whole_number(text: str) -> int:
    """A whole number on the command line: ASCII digits (with a sign) once normalised as
    notation (fullwidth ``１２`` is 12; other scripts' digits, ``1_000`` and ``1e3`` are
    refused)."""
    digits = notation(text).strip()
    if not _DIGITS.fullmatch(digits):
        raise ValueError(text)
    return int(digits)


_whole_number.__name__ = "whole number"  # argparse: "invalid whole number value: 'x'"
_DIGITS = re.compile(r"[+-]?[0-9]+", re.ASCII)


def _build_parser() -> _Parser:
    parser = _Parser(prog="scatlab", description="Teach and analyse the card game 31 (Scat, Blitz).")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    def game_options(p: argparse.ArgumentParser, seed: int) -> None:
        p.add_argument("--seed", type=_whole_number, default=seed, help=f"random seed (default {seed})")
        p.add_argument("--players", type=_whole_number, default=3, help="number of players, 2 to 9 (default 3)")
        p.add_argument("--rules", default="classic", help="rule preset (default classic; see 'scatlab rules')")
        p.add_argument("--dealer", type=_whole_number, default=0, help="seat of the first dealer (default 0)")
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

    review = sub.add_parser("review", help="review a JSON game record: the cost of every decision")
    review.add_argument("file", help="the record, a JSON file ('-' reads standard input)")
    review.add_argument("--player", type=_whole_number, default=None, help="review only this seat (default: every seat)")
    review.add_argument("--json", action="store_true", help="JSON instead of the readable report")
    review.add_argument("--deep", type=_whole_number, nargs="?", const=3, default=None, metavar="N",
                        help="a deeper look at the N costliest decisions (default 3): the master plays each choice "
                        "out in sampled deals and says which wins most often")
    review.add_argument("--budget", type=_whole_number, default=None,
                        help="rollouts of each deeper look (default 2000, about a second each)")
    review.add_argument("--seed", type=_whole_number, default=0, help="seed of the deeper looks (default 0)")
    review.add_argument("--no-progress", action="store_true", help="no progress bar on standard error")

    analyze = sub.add_parser(
        "analyze",
        help="exact odds and advice for a hand: take, draw or knock (or declare a 31)",
        description="Exact draw probabilities and expected values for one hand, every legal move ranked by your "
        "chance of winning the game (the engine's estimate; a knock's chances of losing one and two lives are "
        "counted exactly against one opponent), and the advice: the move ranked first. Model: every card you "
        "have not seen is equally likely to be the top of the stock.",
    )
    analyze.add_argument("hand", nargs="+", help="your three cards, e.g. AH KH 4C (or four, to choose a discard)")
    analyze.add_argument("--discard", help="the top card of the discard pile, e.g. 9S")
    analyze.add_argument("--dead", nargs="+", default=[], metavar="CARDS",
                         help="cards buried in the discard pile (out of play)")
    analyze.add_argument("--opponent-holds", nargs="+", action="append", default=[], metavar="CARDS",
                         help="cards one opponent is known to hold; repeat once per opponent, in turn order")
    analyze.add_argument("--opponents", type=_whole_number, help="number of opponents (default 1, or one per --opponent-holds)")
    analyze.add_argument("--rules", default="classic", help="rule preset or alias (default classic)")
    analyze.add_argument("--horizon", type=_whole_number, default=0, metavar="K",
                         help="also the expected value after 1..K more turns (K at most 8)")
    analyze.add_argument("--samples", type=_whole_number, default=10_000,
                         help="Monte Carlo deals for the risk of a knock the rules refuse now (V4, V5, V6), against "
                         "2+ opponents (default 10000); a knock the rules allow is priced by the engine, like every move")
    analyze.add_argument("--seed", type=_whole_number, default=0, help="seed of that Monte Carlo (default 0)")
    analyze.add_argument("--no-knock", action="store_true",
                         help="leave the knock out: no knock figures, and the moves ranked and the advice given "
                         "without it")
    analyze.add_argument("--opponent-model", choices=("adaptive", "uniform"), default="adaptive",
                         help="how opponents' hands are weighted: adaptive (by --turns and --rejected; the "
                         "default) or uniform (as if just dealt)")
    analyze.add_argument("--turns", nargs="+", type=_whole_number, default=[], metavar="T",
                         help="turns each opponent has played in this hand, in turn order (adaptive model)")
    analyze.add_argument("--rejected", nargs="+", action="append", default=[], metavar="CARDS",
                         help="cards one opponent threw or passed over for the stock, counted as rejected in "
                         "their last turn; repeat once per opponent, in turn order (adaptive model)")
    analyze.add_argument("--json", action="store_true", help="print one JSON object")

    rules = sub.add_parser("rules", help="list the rule presets, show one preset's options and rules in force, or explain a rule code")
    rules.add_argument("preset", nargs="?", help="a preset name or alias")
    rules.add_argument("--explain", metavar="CODE", help="explain one rule code (C1-C14, V1-V19), e.g. C7 or V7(d)")

    tournament = sub.add_parser(
        "tournament",
        help="play many seeded games between computer players and compare them",
        description="Whole games between computer players with fair seating (the seats rotate every game, "
        "the first dealer every N games); the same seed gives the same result for any --jobs.",
    )
    tournament.add_argument("--players", default="expert,tip,tip",
                            help="comma-separated player kinds, one per entrant (default expert,tip,tip)")
    tournament.add_argument("--games", type=_whole_number, default=1000, help="number of games (default 1000)")
    tournament.add_argument("--rules", default="classic", help="rule preset or alias (default classic)")
    tournament.add_argument("--seed", type=_whole_number, default=0, help="random seed (default 0)")
    tournament.add_argument("--jobs", type=_whole_number, default=1,
                            help="worker processes (default 1; 0 means one per core)")
    tournament.add_argument("--budget", type=_whole_number, default=None,
                            help="rollouts a decision of every master entrant (default 600, about half a second)")
    tournament.add_argument("--json", action="store_true", help="print one JSON object")
    tournament.add_argument("--no-progress", action="store_true", help="no progress bar on standard error")

    puzzles = sub.add_parser(
        "puzzles",
        help="practice puzzles from real games: the position, the choices, the answer and why",
        description="A reproducible set of practice puzzles from seeded games between computer players; each has "
        "one clearly best move by the analysis' ranking (the same seed, the same puzzles).",
    )
    puzzles.add_argument("--theme", required=True, help="take-or-draw, throw, knock or chase-31")
    puzzles.add_argument("--count", type=_whole_number, default=5, help="number of puzzles, 1 to 200 (default 5)")
    puzzles.add_argument("--seed", type=_whole_number, default=0, help="random seed (default 0)")
    puzzles.add_argument("--level", type=_whole_number, default=None,
                         help="only puzzles of this level: 1 easy, 2 medium, 3 hard (default any)")
    puzzles.add_argument("--json", action="store_true", help="print a JSON list")

    from .course.commands import add_commands

    add_commands(sub)  # serve, lab, progress
    helps = {action.dest: action.help for action in sub._choices_actions}
    for name, command in sub.choices.items():
        if command.description is None and helps.get(name):
            text = str(helps[name])
            command.description = text[:1].upper() + text[1:] + "."
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
        except (OSError, ValueError) as exc:  # ValueError: a NUL character in the name
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise ScatlabError(f"cannot write {args.output!r}: {reason}") from None
    else:
        sys.stdout.write(text + "\n")
    return 0


def _record(file: str) -> Any:
    """The record named on the command line (``-``: standard input), read with the bound
    of :func:`scatlab.rules.record.read_record` (replay and review alike)."""
    from .rules.record import read_record

    if file == "-":
        return read_record(sys.stdin, "standard input")
    _refuse_unless_regular_file(file)
    return read_record(file)


def _refuse_unless_regular_file(file: str) -> None:
    """A :class:`RecordError` for a path that names something other than a regular file
    (a named pipe, which would block forever with no writer; a device such as
    ``/dev/zero``; a folder), checked with ``os.stat`` before anything opens it. A missing
    or unreadable path is left to :func:`~scatlab.rules.record.read_record`."""
    import os
    import stat

    from .errors import RecordError

    try:
        mode = os.stat(file).st_mode
    except (OSError, ValueError):  # missing, no access, a NUL: read_record says so
        return
    if stat.S_ISREG(mode):
        return
    if stat.S_ISDIR(mode):
        what = "a folder"
    elif stat.S_ISFIFO(mode):
        what = "a named pipe (FIFO)"
    elif stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        what = "a device"
    elif stat.S_ISSOCK(mode):
        what = "a socket"
    else:  # pragma: no cover - door, whiteout, ...
        what = "not a regular file"
    raise RecordError(
        f"cannot read {shown(file, 300)}: it is {what}; give a record saved as a file (or '-' for standard input)"
    )


def _cmd_replay(args: argparse.Namespace) -> int:
    from .rules.record import replay, result_json

    result = result_json(replay(_record(args.file)))
    sys.stdout.write(json.dumps(result, indent=None if args.compact else 2, ensure_ascii=False) + "\n")
    return 0


def _cmd_review(args: argparse.Namespace) -> int:
    from .analysis import review_game

    if args.deep is None and (args.budget is not None or args.seed):
        raise ScatlabError("--budget and --seed set the deeper looks: give --deep as well")
    if args.deep is not None:
        from .players.deeper import DEEP_BUDGET, look_deeper_at_costliest

        args.budget = DEEP_BUDGET if args.budget is None else args.budget
        _bounded("--deep", args.deep, 1, 50)
        _bounded("--budget", args.budget, 1, 1_000_000)
        _bounded("--seed", args.seed, *SEED_RANGE)
    result = review_game(_record(args.file), args.player)
    looks: tuple[Any, ...] = ()
    if args.deep is not None:

        bar: Any = None
        if not args.no_progress and sys.stderr.isatty():
            from tqdm.auto import tqdm

            bar = tqdm(total=0, unit="deal", desc="looking deeper", file=sys.stderr, dynamic_ncols=True)

        def progress(done: int, planned: int) -> None:
            if bar is not None:
                bar.total = planned
                bar.n = done
                bar.refresh()

        try:
            looks = look_deeper_at_costliest(result, args.deep, args.player, args.budget, args.seed, progress)
        finally:
            if bar is not None:
                bar.close()
    if args.json:
        data = result.to_json()
        if args.deep is not None:
            data["deeper"] = [look.to_json() for look in looks]
        sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
    else:
        text = result.text()
        if args.deep is not None:
            names = {args.player: "you"} if args.player is not None else {}
            text += f"\nA deeper look at the {len(looks)} costliest decision{'s' if len(looks) != 1 else ''}:"
            if not looks:
                text += " none cost anything."
            for look in looks:
                d = look.decision
                text += f"\n  Hand {d.hand}, action {d.index}, player {d.player}: " + "\n    ".join(look.lines(names))
        sys.stdout.write(text + "\n")
    return 0


def _cmd_analyze(args: argparse.Namespace) -> int:
    from .analysis import analyze

    _bounded("--samples", args.samples, 1, MAX_SAMPLES)
    _bounded("--seed", args.seed, *SEED_RANGE)
    observations = None
    if (args.turns or args.rejected) and args.opponent_model == "uniform":
        given = [o for o, v in (("--turns", args.turns), ("--rejected", args.rejected)) if v]
        raise ScatlabError(f"{' and '.join(given)} {'are' if len(given) > 1 else 'is'} read only by the adaptive "
                           f"opponent model, not by --opponent-model uniform: leave out one or the other")
    if args.turns or args.rejected:
        from .analysis import Observations
        from .cards import parse_cards
        from .rules.options import find_rules

        n = args.opponents if args.opponents is not None else max(
            1, len(args.opponent_holds), len(args.turns), len(args.rejected))
        _bounded("--opponents", n, 1, 8, " (C2)")
        if len(args.turns) > n or len(args.rejected) > n:
            raise ScatlabError(f"--turns/--rejected are given for more opponents than the {n} there are")
        turns = tuple(args.turns) + (0,) * (n - len(args.turns))
        deck_size = find_rules(args.rules).deck_size
        rejected = tuple(parse_cards(" ".join(r), deck_size=deck_size, what="rejected cards")
                         for r in args.rejected) + ((),) * (n - len(args.rejected))
        for i, (t, cards) in enumerate(zip(turns, rejected), start=1):
            if len(cards) > 2 * max(t, 0):
                raise ScatlabError(
                    f"--rejected {shown(' '.join(args.rejected[i - 1]))}: opponent {i} rejected {len(cards)} "
                    f"card{'s' if len(cards) != 1 else ''} in {t} turn{'s' if t != 1 else ''} (--turns): an "
                    "opponent rejects at most 2 cards a turn (the discard passed over and the card thrown)"
                )
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
        rank_knock=not args.no_knock,
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
    from .rules.rulebook import rule_entry

    if args.explain is not None:
        if args.preset is not None:
            raise ScatlabError(
                f"give either a preset ({args.preset!r}) or --explain {args.explain!r}, not both"
            )
        sys.stdout.write(rule_entry(args.explain).describe() + "\n")
        return 0
    if args.preset is None:
        for rules in PRESETS.values():
            sys.stdout.write(rules.describe() + "\n")
        return 0
    rules = find_rules(args.preset)
    sys.stdout.write(rules.describe() + "\n")
    sys.stdout.write(json.dumps(rules.to_dict(), indent=2, ensure_ascii=False) + "\n")
    sys.stdout.write("rules in force:\n")
    for entry in rules.rules_in_force():
        sys.stdout.write(f"  {entry.code:<4} {entry.title}\n")
    return 0


def _cmd_tournament(args: argparse.Namespace) -> int:
    from .players.tournament import run_tournament

    _bounded("--games", args.games, 1, MAX_GAMES)
    _bounded("--jobs", args.jobs, 0, MAX_JOBS, " (0: one per core)")
    _bounded("--seed", args.seed, *SEED_RANGE)
    players = [p.strip() for p in args.players.split(",")]
    if args.budget is not None:
        _bounded("--budget", args.budget, 1, 1_000_000)
        if not any(p.lower() == "master" for p in players):
            raise ScatlabError(f"--budget {args.budget} is read only by master players, and --players "
                               f"{shown(args.players)} has none")
        players = [f"master:{args.budget}" if p.lower() == "master" else p for p in players]
    result = run_tournament(players, args.games, args.rules, args.seed, jobs=args.jobs,
                            progress=False if args.no_progress else None)
    if args.json:
        sys.stdout.write(json.dumps(result.to_json(), ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(result.table() + "\n")
    return 0


def _cmd_puzzles(args: argparse.Namespace) -> int:
    from .course.puzzles import LEVELS, MAX_COUNT, generate

    _bounded("--count", args.count, 1, MAX_COUNT)
    _bounded("--seed", args.seed, *SEED_RANGE)
    if args.level is not None:
        _bounded("--level", args.level, LEVELS[0], LEVELS[-1], " (1 easy, 3 hard)")
    found = generate(args.theme.strip(), args.count, args.seed, args.level)
    if args.json:
        sys.stdout.write(json.dumps([p.to_json() for p in found], ensure_ascii=False) + "\n")
        return 0
    for i, p in enumerate(found, start=1):
        sys.stdout.write(f"{i}. {p.theme}, level {p.level} ({p.id})\n{p.text()}\n\n")
    return 0


_COMMANDS = {
    "demo": _cmd_demo,
    "record": _cmd_record,
    "replay": _cmd_replay,
    "review": _cmd_review,
    "analyze": _cmd_analyze,
    "rules": _cmd_rules,
    "tournament": _cmd_tournament,
    "puzzles": _cmd_puzzles,
}


def _bounded(option: str, value: int, low: int, high: int, note: str = "") -> None:
    if not low <= value <= high:
        raise ScatlabError(f"{option} {value:,} is not allowed: use {low:,} to {high:,}{note}")


# Characters the output uses beyond ASCII, and what a terminal that cannot show them gets.
_ASCII = str.maketrans({"\u2665": "H", "\u2666": "D", "\u2663": "C", "\u2660": "S", "\u00b1": "+/-",
                        "\u00d7": "x", "\u2026": "...", "\u2014": "-", "\u2013": "-", "\u2248": "~",
                        "\u2264": "<=", "\u2265": ">="})


class _SafeText(io.TextIOBase):
    """Writes to a text stream whatever its encoding: characters it cannot encode are
    replaced (suit symbols by their letters first), so no output ends in a traceback."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.encoding_name = getattr(stream, "encoding", None) or "utf-8"

    def write(self, text: str) -> int:
        try:
            text.encode(self.encoding_name)
        except (UnicodeEncodeError, LookupError):
            text = text.translate(_ASCII)
            try:
                text = text.encode(self.encoding_name, "replace").decode(self.encoding_name)
            except LookupError:
                text = text.encode("ascii", "replace").decode("ascii")
        self.stream.write(text)
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return bool(getattr(self.stream, "isatty", lambda: False)())

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self.encoding_name


def _say(line: str) -> None:
    """Write one line to standard error (escaped by :func:`scatlab.checks.one_line`)."""
    sys.stderr.write(one_line(line) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status: 0, 2 for bad input (one line on
    standard error), 1 for anything unexpected (one line, never a traceback)."""
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _SafeText(out), _SafeText(err)
    command = "?"
    try:
        parser = _build_parser()
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # --help, or a usage error already printed (one line)
            return exc.code if isinstance(exc.code, int) else 2
        command = args.command
        from .course.commands import COMMANDS as course_commands

        return {**_COMMANDS, **course_commands}[command](args)
    except ScatlabError as exc:
        _say(f"scatlab {command}: error: {one_line(exc)}")
        return 2
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return 0
    except KeyboardInterrupt:  # pragma: no cover - interactive
        _say(f"scatlab {command}: interrupted")
        return 130
    except RecursionError:
        _say(f"scatlab {command}: error: the input is nested too deeply to read")
        return 2
    except MemoryError:
        _say(f"scatlab {command}: error: out of memory; use smaller inputs")
        return 1
    except Exception as exc:  # noqa: BLE001 - the contract: one line, never a traceback
        _say(f"scatlab {command}: internal error: {type(exc).__name__}: {one_line(exc)[:300]} (please report this)")
        return 1
    finally:
        try:
            sys.stdout.flush()
        except Exception:  # noqa: BLE001, S110 - e.g. a closed pipe; nothing left to tell
            pass
        sys.stdout, sys.stderr = out, err


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
