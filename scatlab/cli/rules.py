"""``scatlab rules``: list the rule presets, show one preset's options and the rules in force,
or explain one rule code of the rulebook."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from ..errors import ScatlabError

__all__ = ["add_commands", "COMMANDS"]


def add_commands(sub: Any) -> None:
    """Add ``rules`` to an argparse sub-parser set."""
    rules = sub.add_parser(
        "rules", help="list the rule presets, show one preset's options and rules in force, or explain a rule code"
    )
    rules.add_argument("preset", nargs="?", help="a preset name or alias")
    rules.add_argument("--explain", metavar="CODE", help="explain one rule code (C1-C14, V1-V19), e.g. C7 or V7(d)")


def _cmd_rules(args: argparse.Namespace) -> int:
    from ..rules.options import PRESETS, find_rules
    from ..rules.rulebook import rule_entry

    if args.explain is not None:
        if args.preset is not None:
            raise ScatlabError(f"give either a preset ({args.preset!r}) or --explain {args.explain!r}, not both")
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


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "rules": _cmd_rules,
}
