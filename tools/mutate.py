"""Hand-made mutation testing over rules, analysis and players (not run by the suite).

Each mutant is a realistic one-line bug (a comparison flipped between < and <=, an
off-by-one, tie branches swapped, a constant changed). The script copies the package and
the tests to a temporary directory once, applies one mutant at a time there (the working
tree is never touched), and runs the tests of the mutated layer with ``pytest -x``. A
mutant is *killed* when the tests fail. Equivalent mutants (no observable change) are
listed separately and left out of the score.

    .venv/bin/python tools/mutate.py [--only "REASON,REASON"]

It prints one line per mutant and then the score: killed / non-equivalent.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

RULES_TESTS = [
    "tests/rules/test_rules_core.py",
    "tests/rules/test_rules_variants.py",
    "tests/rules/test_values.py",
    "tests/rules/test_records.py",
    "tests/test_documented_promises.py",
    "tests/cards/test_errors.py",
]
ANALYSIS_TESTS = [
    "tests/analysis/test_analysis.py",
    "tests/analysis/test_knock_knowledge.py",
    "tests/test_documented_promises.py",
    "tests/analysis/test_tables.py",
]
PLAYER_TESTS = ["tests/players/test_tournament.py", "tests/test_documented_promises.py"]
ENGINE_TESTS = [
    "tests/analysis/test_ranking.py",
    "tests/test_documented_promises.py",
    "tests/players/test_expert.py",
    "tests/course/test_lesson_checks.py",
]


@dataclass(frozen=True)
class Mutant:
    path: str
    old: str
    new: str
    why: str
    equivalent: str = ""  # the reason, when the mutant cannot be observed

    @property
    def tests(self) -> list[str]:
        if "/rules/" in self.path or self.path.endswith(("cards.py", "checks.py")):
            return RULES_TESTS
        if "/analysis/engine/" in self.path or "/analysis/model/valuation.py" in self.path:
            return ENGINE_TESTS
        if "/analysis/" in self.path or self.path.endswith("words.py"):
            return ANALYSIS_TESTS
        return PLAYER_TESTS


MUTANTS = [
    # -- rules ---------------------------------------------------------------------------
    Mutant(
        "scatlab/rules/scoring.py",
        "    if keys[knocker] >= best:",
        "    if keys[knocker] > best:",
        "V14: tied highest knocker loses",
    ),
    Mutant(
        "scatlab/rules/scoring.py",
        "if knocker is not None and knocker in top and len(top) > 1:",
        "if knocker is not None and knocker in top and len(top) > 2:",
        "V16 tie goes to the knocker",
    ),
    Mutant(
        "scatlab/rules/scoring.py",
        "    if knocker not in lowest:",
        "    if knocker in lowest:",
        "C7: knocker branch swapped",
    ),
    Mutant(
        "scatlab/rules/scoring.py",
        "    elif len(lowest) == 1:",
        "    elif len(lowest) == 2:",
        "C7: strictly lowest off by one",
    ),
    Mutant(
        "scatlab/rules/scoring.py",
        'if rules.thirty_one_after_knock == "knocker_two" and rules.score_keeping != "gin":',
        'if rules.thirty_one_after_knock == "classic" and rules.score_keeping != "gin":',
        "V9 swapped with C8",
    ),
    Mutant(
        "scatlab/rules/scoring.py",
        "    low = min(keys[p] for p in players)",
        "    low = max(keys[p] for p in players)",
        "lowest becomes highest",
    ),
    Mutant("scatlab/rules/values.py", "    return value >= BLITZ", "    return value > BLITZ", "31 not a blitz"),
    Mutant(
        "scatlab/rules/values.py",
        "        if three_of_a_kind is not None and three_of_a_kind > value:",
        "        if three_of_a_kind is not None and three_of_a_kind >= value:",
        "V1 tie (30 vs 30)",
        equivalent="when three_of_a_kind equals the value, either branch gives the same value",
    ),
    Mutant(
        "scatlab/rules/values.py",
        "    if ranks[2] - ranks[0] == 2 and len(set(ranks)) == 3:",
        "    if ranks[2] - ranks[0] <= 2 and len(set(ranks)) == 3:",
        "V3 run check",
        equivalent="three distinct ranks spanning at most 2 always span exactly 2",
    ),
    Mutant(
        "scatlab/rules/values.py",
        "    return ranks == [2, 3, 14]  # A-2-3: the Ace plays low",
        "    return ranks == [2, 3, 13]",
        "V3 A-2-3",
    ),
    Mutant(
        "scatlab/rules/values.py",
        "        if sum(c.value for c in group) == value or len(group) == len(cards):",
        "        if sum(c.value for c in group) == value:",
        "V17 counted ranks",
        equivalent="the clause matters only for a flush with a special value (V3), and then the fallback "
        "(every card's rank) gives the same ranks",
    ),
    Mutant(
        "scatlab/rules/values.py",
        "            ranks = sorted((int(c.rank) for c in group), reverse=True)",
        "            ranks = sorted((int(c.rank) for c in group))",
        "V17 poker order reversed",
    ),
    Mutant(
        "scatlab/rules/state.py",
        "            if v < rules.min_knock:",
        "            if v <= rules.min_knock:",
        "V4 in the engine",
    ),
    Mutant(
        "scatlab/rules/options.py",
        "or not 1 <= self.lives <= 99:",
        "or not 1 <= self.lives <= 98:",
        "lives bound off by one",
    ),
    Mutant("scatlab/rules/state.py", "MAX_PLAYERS = 9", "MAX_PLAYERS = 8", "C2: 9 players"),
    Mutant("scatlab/rules/state.py", "MIN_PLAYERS = 2", "MIN_PLAYERS = 1", "C2: 2 players"),
    Mutant(
        "scatlab/rules/record.py",
        "        if depth > MAX_NESTING:",
        "        if depth >= MAX_NESTING:",
        "nesting bound",
    ),
    Mutant("scatlab/checks.py", "MAX_GAMES = 1_000_000", "MAX_GAMES = 100_000_000", "bound on games"),
    # -- analysis ------------------------------------------------------------------------
    Mutant(
        "scatlab/analysis/model/knock.py",
        "    if rules.min_knock is not None and knowledge.value < rules.min_knock:",
        "    if rules.min_knock is not None and knowledge.value <= rules.min_knock:",
        "V4 inclusive",
    ),
    Mutant(
        "scatlab/analysis/model/knock.py",
        "tables.triple[h1, h2, t])\n        takes = take_best > current",
        "tables.triple[h1, h2, t])\n        takes = take_best >= current",
        "opponent takes a discard that does not help",
    ),
    Mutant(
        "scatlab/analysis/model/knock.py",
        "            lost = 0 if result.points[0] else 1",
        "            lost = 1 if result.points[0] else 0",
        "V16 outcome flipped",
    ),
    Mutant(
        "scatlab/analysis/model/knock.py",
        "    return math.sqrt(x * (1 - x) / n)",
        "    return math.sqrt(x * (1 - x) / (n - 1))",
        "standard error",
    ),
    Mutant(
        "scatlab/analysis/model/knock.py",
        "    if knowledge.first_round and rules.no_knock_first_round:",
        "    if rules.no_knock_first_round:",
        "V6 refusal after the first round",
    ),
    Mutant("scatlab/analysis/counting/horizon.py", "MAX_HORIZON = 8", "MAX_HORIZON = 7", "horizon bound"),
    Mutant(
        "scatlab/analysis/counting/knowledge.py",
        "        if len(self.unseen) < hidden + stock:",
        "        if len(self.unseen) <= hidden + stock:",
        "one unseen card refused",
    ),
    Mutant(
        "scatlab/analysis/counting/knowledge.py",
        "not 1 <= self.opponents <= 8:",
        "not 1 <= self.opponents <= 9:",
        "C2: at most 8 opponents",
    ),
    Mutant(
        "scatlab/words.py",
        "    places = 3 if se >= 0.001 else 4",
        "    places = 3 if se > 0.001 else 4",
        "display places",
        equivalent="a standard error of exactly 0.001 is not a float sqrt produces here",
    ),
    # -- players -------------------------------------------------------------------------
    Mutant(
        "scatlab/players/tip.py",
        "        if ActionKind.KNOCK in kinds and value >= self.knock_at:",
        "        if ActionKind.KNOCK in kinds and value > self.knock_at:",
        "tip knocks above 26 only",
    ),
    Mutant(
        "scatlab/players/tip.py",
        "    def __init__(self, knock_at: int = 26) -> None:",
        "    def __init__(self, knock_at: int = 27) -> None:",
        "tip default threshold",
    ),
    Mutant(
        "scatlab/players/tip.py",
        "            if top.suit is suit and after > value:",
        "            if after > value:",
        "tip takes any helpful discard",
    ),
    Mutant(
        "scatlab/players/tip.py",
        "    return max(totals, key=lambda s: (totals[s][0], totals[s][1], -_SUIT_ORDER[s]))",
        "    return max(totals, key=lambda s: (totals[s][0], -_SUIT_ORDER[s]))",
        "target suit tie: card count",
    ),
    Mutant(
        "scatlab/players/tip.py",
        "    return max(totals, key=lambda s: (totals[s][0], totals[s][1], -_SUIT_ORDER[s]))",
        "    return max(totals, key=lambda s: (totals[s][0], totals[s][1], _SUIT_ORDER[s]))",
        "suit order reversed",
    ),
    Mutant(
        "scatlab/players/simple.py",
        '        self.knock_at = whole_number("knock_at", knock_at, 0, 31, error=PlayerError)',
        "        self.knock_at = knock_at + 1",
        "greedy knock_at off by one",
    ),
    # -- the engine (the expert plays its first move) --------------------------------------
    Mutant(
        "scatlab/analysis/engine/decision.py",
        "    return sorted(options, key=lambda o: (-o.win, order[o.action.kind], -(o.value or 0), str(o.action)))",
        "    return sorted(options, key=lambda o: (order[o.action.kind], -o.win, -(o.value or 0), str(o.action)))",
        "the tie order decides before the chance of winning",
    ),
    Mutant(
        "scatlab/analysis/engine/decision.py",
        "    if stock_gone(position):  # C11: a hand of takers ends\n        order[ActionKind.PASS] = 0",
        "    if False:  # C11: a hand of takers ends\n        order[ActionKind.PASS] = 0",
        "C11 pass first",
    ),
    Mutant(
        "scatlab/analysis/engine/ranking.py",
        "        close = o is not best and best_win - win < CLOSE_CALL",
        "        close = o is not best and best_win - win <= CLOSE_CALL",
        "close call width inclusive",
        equivalent="two chances rounded to a millionth exactly half a point apart do not occur in the tested positions",
    ),
    Mutant(
        "scatlab/analysis/engine/decision.py",
        "    if stock_gone(w.position):  # C11: only the hand now counts; passing ends the hand\n"
        "        win, q = w.last(",
        "    if False:  # C11: only the hand now counts; passing ends the hand\n        win, q = w.last(",
        "C11 take valued as playing on",
    ),
    Mutant(
        "scatlab/analysis/engine/scale.py",
        "CLOSE_CALL = Fraction(1, 200)",
        "CLOSE_CALL = Fraction(1, 20)",
        "close call ten times wider",
    ),
    Mutant(
        "scatlab/players/tournament.py",
        "    p = successes / trials",
        "    p = successes / (trials + 1)",
        "win rate in the interval",
    ),
    Mutant(
        "scatlab/players/tournament.py",
        "    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom",
        "    half = z * math.sqrt(p * (1 - p) / trials + z2 / (2 * trials * trials)) / denom",
        "Wilson half-width",
    ),
    Mutant(
        "scatlab/players/tournament.py",
        "            c[_LIVES] += r.lives_lost[seat]",
        "            c[_LIVES] += 1",
        "lives recount",
    ),
    Mutant(
        "scatlab/players/tournament.py",
        "                if r.lives_lost[seat] >= 1:",
        "                if r.lives_lost[seat] >= 2:",
        "knocks that lost a life",
    ),
    Mutant(
        "scatlab/players/tournament.py",
        '        "winner": entrant_at[state.winner],',
        '        "winner": state.winner,',
        "winner seat vs entrant",
    ),
]


def run(mutant: Mutant, work: Path) -> tuple[str, float]:
    target = work / mutant.path
    original = target.read_text(encoding="utf-8")
    if original.count(mutant.old) != 1:
        return "not-applicable", 0.0
    target.write_text(original.replace(mutant.old, mutant.new), encoding="utf-8")
    start = time.perf_counter()
    try:
        env = {**os.environ, "PYTHONPATH": str(work), "PYTHONDONTWRITEBYTECODE": "1"}
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-x",
                "-q",
                "-p",
                "no:cacheprovider",
                "--no-header",
                "-o",
                "addopts=--strict-markers",
                *mutant.tests,
            ],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        status = "survived" if proc.returncode == 0 else "killed"
    except subprocess.TimeoutExpired:
        status = "killed"  # a hang is observable
    finally:
        target.write_text(original, encoding="utf-8")
    return status, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--only", help="run only mutants whose file or reason contains one of these comma-separated texts"
    )
    args = parser.parse_args()
    wanted = [w for w in (args.only or "").split(",") if w]
    chosen = [m for m in MUTANTS if not wanted or any(w in m.path or w == m.why for w in wanted)]
    with tempfile.TemporaryDirectory(prefix="scatlab-mutants-") as tmp:
        work = Path(tmp)
        shutil.copytree(ROOT / "scatlab", work / "scatlab")
        shutil.copytree(ROOT / "tests", work / "tests")
        shutil.copy(ROOT / "pyproject.toml", work / "pyproject.toml")
        check = subprocess.run(
            [sys.executable, "-c", "import scatlab; print(scatlab.__file__)"],
            cwd=work,
            env={**os.environ, "PYTHONPATH": str(work)},
            capture_output=True,
            text=True,
        )
        assert check.stdout.startswith(str(work)), f"the copy is not the code tested: {check.stdout}"
        killed = survived = equivalent = skipped = 0
        survivors: list[Mutant] = []
        for m in chosen:
            if m.equivalent:
                equivalent += 1
                print(f"equivalent  {m.path}: {m.why} ({m.equivalent})", flush=True)
                continue
            status, seconds = run(m, work)
            if status == "killed":
                killed += 1
            elif status == "survived":
                survived += 1
                survivors.append(m)
            else:
                skipped += 1
            print(f"{status:<11} {m.path}: {m.why} ({seconds:.0f} s)", flush=True)
    total = killed + survived
    print(
        f"\nmutation score: {killed}/{total} non-equivalent mutants killed ({100 * killed / max(total, 1):.0f}%); "
        f"{equivalent} judged equivalent; {skipped} not applicable"
    )
    for m in survivors:
        print(f"  survived: {m.path}: {m.why}: {m.old.strip()!r} -> {m.new.strip()!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
