"""``scatlab analyze``: exact odds for one hand, every move ranked by the chance of winning
the game, and the advice (:mod:`!scatlab.analysis.explain.report`)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from ..checks import MAX_SAMPLES, SEED_RANGE
from ..errors import ScatlabError
from .parsing import bounded, whole_number

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
    analyze.add_argument("--seed", type=whole_number, default=0, help="seed of that Monte Carlo (default 0)")
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


def _cmd_analyze(args: argparse.Namespace) -> int:
    from ..analysis import analyze

    bounded("--samples", args.samples, 1, MAX_SAMPLES)
    bounded("--seed", args.seed, *SEED_RANGE)
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
    if args.json:
        sys.stdout.write(json.dumps(result.to_json(), ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(result.table() + "\n")
    return 0


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "analyze": _cmd_analyze,
}
