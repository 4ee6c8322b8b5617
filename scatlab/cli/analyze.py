"""``scatlab analyze``: exact odds for one hand, every move ranked by the chance of winning
the game, and the advice (:mod:`!scatlab.analysis.explain.report`); with ``--deep``, then the
master's deeper look at the engine's best moves (:mod:`scatlab.players.deeper`), played in a
hand staged to reach the position (:mod:`scatlab.players.staged`): the analysis is below the
players, so this command composes the two."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from ..checks import MAX_SAMPLES, SEED_RANGE
from ..errors import ScatlabError
from .output import deal_bar
from .parsing import bounded, bounded_seconds, decimal_number, whole_number

__all__ = ["add_commands", "COMMANDS"]


def add_commands(sub: Any) -> None:
    """Add ``analyze`` to an argparse sub-parser set."""
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
    analyze.add_argument(
        "--dead", nargs="+", default=[], metavar="CARDS", help="cards buried in the discard pile (out of play)"
    )
    analyze.add_argument(
        "--opponent-holds",
        nargs="+",
        action="append",
        default=[],
        metavar="CARDS",
        help="cards one opponent is known to hold; repeat once per opponent, in turn order",
    )
    analyze.add_argument(
        "--opponents", type=whole_number, help="number of opponents (default 1, or one per --opponent-holds)"
    )
    analyze.add_argument("--rules", default="classic", help="rule preset or alias (default classic)")
    analyze.add_argument(
        "--horizon",
        type=whole_number,
        default=0,
        metavar="K",
        help="also the expected value after 1..K more turns (K at most 8)",
    )
    analyze.add_argument(
        "--samples",
        type=whole_number,
        default=10_000,
        help="Monte Carlo deals for the risk of a knock the rules refuse now (V4, V5, V6), against "
        "2+ opponents (default 10000); a knock the rules allow is priced by the engine, like every move",
    )
    analyze.add_argument(
        "--seed", type=whole_number, default=0, help="seed of that Monte Carlo and of the deeper look (default 0)"
    )
    analyze.add_argument(
        "--no-knock",
        action="store_true",
        help="leave the knock out: no knock figures, and the moves ranked and the advice given without it",
    )
    analyze.add_argument(
        "--opponent-model",
        choices=("adaptive", "uniform"),
        default="adaptive",
        help="how opponents' hands are weighted: adaptive (by --turns and --rejected; the "
        "default) or uniform (as if just dealt)",
    )
    analyze.add_argument(
        "--turns",
        nargs="+",
        type=whole_number,
        default=[],
        metavar="T",
        help="turns each opponent has played in this hand, in turn order (adaptive model)",
    )
    analyze.add_argument(
        "--rejected",
        nargs="+",
        action="append",
        default=[],
        metavar="CARDS",
        help="cards one opponent threw or passed over for the stock, counted as rejected in "
        "their last turn; repeat once per opponent, in turn order (adaptive model)",
    )
    analyze.add_argument("--json", action="store_true", help="print one JSON object")
    _add_deep(analyze)


DEEP_HELP = (
    "after the ranking, the master's deeper look: the engine's best moves are each played to the end of the "
    "hand in the same deals and compared by how often they win the game, with the range of the margin (two "
    "standard errors either side) and the deals played; it stops once the margin is clear, or when --budget "
    "or --seconds is up. The deals are drawn by the master's model: the opponents' hands as the adaptive "
    "model pictures them, everyone then playing the engine's way. They are drawn in a hand staged to reach "
    "this position: you are to move in the first hand of a fresh game; the opponents have played the --turns "
    "given (else as many turns as the pile shows: one card a turn), each took the cards it holds from the pile "
    "at its last turns and otherwise drew and threw a card, the cards seen being thrown in the order given "
    "(a --rejected card by its opponent), and pile cards the turns threw but you did not list are drawn at "
    "random from the cards nobody named"
)
"""What ``--deep`` does and assumes (the help; docs/guide/cli.md says the same)."""


def _add_deep(analyze: Any) -> None:
    """``--deep`` and its ``--budget`` and ``--seconds`` (given without ``--deep``: refused).
    Their defaults are the look's own (:data:`~scatlab.players.deeper.DEEP_BUDGET`,
    :data:`~scatlab.players.deeper.LOOK_SECONDS`), written out here so that building the
    parser does not import the players."""
    analyze.add_argument("--deep", action="store_true", help=DEEP_HELP)
    analyze.add_argument(
        "--budget",
        type=whole_number,
        default=None,
        help="rollouts of the deeper look, 1 to 1,000,000 (default 8,000); needs --deep",
    )
    analyze.add_argument(
        "--seconds",
        type=decimal_number,
        default=None,
        help="how long the deeper look may go on sharpening, in seconds from its start: more than 0, "
        "up to 3600 (default 1); needs --deep",
    )


def _cmd_analyze(args: argparse.Namespace) -> int:
    from ..analysis import analyze

    bounded("--samples", args.samples, 1, MAX_SAMPLES)
    bounded("--seed", args.seed, *SEED_RANGE)
    _check_deep(args)
    observations = None
    if (args.turns or args.rejected) and args.opponent_model == "uniform":
        given = [o for o, v in (("--turns", args.turns), ("--rejected", args.rejected)) if v]
        raise ScatlabError(
            f"{' and '.join(given)} {'are' if len(given) > 1 else 'is'} read only by the adaptive "
            f"opponent model, not by --opponent-model uniform: leave out one or the other"
        )
    if args.turns or args.rejected:
        from ..analysis import Observations, check_rejected
        from ..cards import parse_cards
        from ..rules.options import find_rules

        n = (
            args.opponents
            if args.opponents is not None
            else max(1, len(args.opponent_holds), len(args.turns), len(args.rejected))
        )
        bounded("--opponents", n, 1, 8, " (C2)")
        if len(args.turns) > n or len(args.rejected) > n:
            raise ScatlabError(f"--turns/--rejected are given for more opponents than the {n} there are")
        turns = tuple(args.turns) + (0,) * (n - len(args.turns))
        deck_size = find_rules(args.rules).deck_size
        rejected = tuple(
            parse_cards(" ".join(r), deck_size=deck_size, what="rejected cards") for r in args.rejected
        ) + ((),) * (n - len(args.rejected))
        for i, (t, cards, given) in enumerate(zip(turns, rejected, args.rejected), start=1):
            check_rejected(t, cards, " ".join(given), f"--rejected for opponent {i} (--turns {t}): ")
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
    look, refused = _deep_look(args, result, observations) if args.deep else (None, "")
    if args.json:
        data = result.to_json()
        if args.deep:
            data["deeper"] = look.to_json() if look is not None else {"refused": refused}
        sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
    else:
        text = result.table()
        if args.deep:
            text += "\n" + _deep_text(look, refused)
        sys.stdout.write(text + "\n")
    return 0


def _check_deep(args: argparse.Namespace) -> None:
    """Refuse ``--budget`` or ``--seconds`` without ``--deep``, or out of bounds."""
    given = [o for o, v in (("--budget", args.budget), ("--seconds", args.seconds)) if v is not None]
    if not args.deep:
        if given:
            verb = "sets" if len(given) == 1 else "set"
            raise ScatlabError(f"{' and '.join(given)} {verb} the deeper look: give --deep as well")
        return
    from ..players.deeper import DEEP_BUDGET, LOOK_SECONDS, MAX_SECONDS

    args.budget = DEEP_BUDGET if args.budget is None else args.budget
    args.seconds = LOOK_SECONDS if args.seconds is None else args.seconds
    bounded("--budget", args.budget, 1, 1_000_000)
    bounded_seconds("--seconds", args.seconds, MAX_SECONDS)


def _deep_look(args: argparse.Namespace, result: Any, observations: Any) -> tuple[Any, str]:
    """The master's deeper look at the analysed position (in a staged hand), or why there is none."""
    from ..players.deeper import look_at_view
    from ..players.staged import staged_view

    seed = args.seed % 2**63  # the analysis's seeds may be negative; a look's are not
    try:
        view = staged_view(result.knowledge, observations, seed)
    except ScatlabError as exc:
        return None, str(exc)
    ranking = result.ranking
    if ranking is not None and any(m.action not in view.legal_actions for m in ranking.moves):
        ranking = None  # a move the staged hand does not allow (a first-round knock, V6): rank the hand itself
    try:
        with deal_bar(True, "looking deeper") as progress:
            look = look_at_view(
                view, ranking=ranking, budget=args.budget, seconds=args.seconds, seed=seed, progress=progress
            )
    except ScatlabError as exc:  # nothing to weigh: a single move
        return None, str(exc)
    return look, ""


def _deep_text(look: Any, refused: str) -> str:
    """The deeper look as the report's last section."""
    if look is None:
        return f"A deeper look (the master): none here: {refused}"
    return "A deeper look (the master):\n" + "\n".join(f"  {line}" for line in look.lines())


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "analyze": _cmd_analyze,
}
