"""The suite's own rules: tests mirror the package, no test file imports another (what
tests share is in tests/helpers/), and every test checks something: it asserts, or expects
a raise, or calls a helper that does."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import scatlab
from helpers.layers import LAYERS

TESTS = Path(__file__).parent
PACKAGE = Path(scatlab.__file__).parent
CHECKS = {"raises", "warns", "fail", "deprecated_call", "expect", "approx"}
"""Calls that check: ``pytest.raises``/``warns``/``fail``/``deprecated_call`` and
Playwright's ``expect`` (an assertion that waits)."""


def _test_files() -> list[Path]:
    return sorted(p for p in TESTS.rglob("test_*.py") if "artifacts" not in p.parts)


def _helper_files() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*.py") if "artifacts" not in p.parts and not p.name.startswith("test_"))


def _called(node: ast.AST) -> set[str]:
    """The names of the functions and methods ``node`` calls."""
    names = set()
    for call in ast.walk(node):
        if isinstance(call, ast.Call):
            f = call.func
            if isinstance(f, ast.Name):
                names.add(f.id)
            elif isinstance(f, ast.Attribute):
                names.add(f.attr)
    return names


def _checks_itself(node: ast.AST) -> bool:
    return any(
        isinstance(n, ast.Assert)
        or (isinstance(n, ast.Raise) and n.exc is not None and "AssertionError" in ast.unparse(n.exc))
        for n in ast.walk(node)
    ) or bool(_called(node) & CHECKS)


def _functions(path: Path) -> list[ast.FunctionDef]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]


def checking_functions() -> set[str]:
    """Every function of the tests that checks something, itself or through another."""
    functions = [f for path in _test_files() + _helper_files() for f in _functions(path)]
    checking = {f.name for f in functions if _checks_itself(f)}
    while True:
        more = {f.name for f in functions if f.name not in checking and _called(f) & checking}
        if not more:
            return checking
        checking |= more


def test_every_test_asserts_or_expects_a_raise() -> None:
    checking = checking_functions()
    idle = [
        f"{path.relative_to(TESTS)}::{f.name}"
        for path in _test_files()
        for f in _functions(path)
        if f.name.startswith("test_") and not (_checks_itself(f) or _called(f) & checking)
    ]
    assert not idle, f"tests that check nothing: {idle}"


def test_the_check_finds_a_test_that_checks_nothing() -> None:
    tree = ast.parse("def test_x():\n    y = 1 + 1\n")
    assert not _checks_itself(tree)
    assert _checks_itself(ast.parse("def test_x():\n    with pytest.raises(ValueError):\n        int('x')\n"))


def test_no_test_file_imports_another() -> None:
    tests = {p.stem for p in _test_files()} | {"conftest"}
    found = []
    for path in _test_files() + _helper_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            found += [f"{path.relative_to(TESTS)} imports {n}" for n in names if n.split(".")[-1] in tests]
    assert not found


def test_the_tests_mirror_the_package() -> None:
    """One folder of tests per layer of scatlab (and browser/ and helpers/); only the
    checks of the whole house (layers, docs, documented promises, this file) at the top."""
    folders = {p.name for p in TESTS.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert folders == (set(LAYERS) - {"errors", "checks", "words", "__main__"}) | {"browser", "helpers"}
    top = {p.stem for p in TESTS.glob("test_*.py")}
    assert top == {"test_layers", "test_docs", "test_documented_promises", "test_suite"}


def test_every_mutant_of_tools_mutate_finds_its_line_and_its_tests() -> None:
    """tools/mutate.py is not run by the suite, but each of its mutants must still find the
    text it changes, exactly once, and the tests it runs must exist (a move or a reformat
    of the package would otherwise leave the tool broken unnoticed)."""
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("mutate", TESTS.parent / "tools" / "mutate.py")
    assert spec is not None and spec.loader is not None
    mutate = importlib.util.module_from_spec(spec)
    sys.modules["mutate"] = mutate  # its dataclass looks its module up
    try:
        spec.loader.exec_module(mutate)
    finally:
        del sys.modules["mutate"]
    stale = []
    for m in mutate.MUTANTS:
        text = (TESTS.parent / m.path).read_text(encoding="utf-8") if (TESTS.parent / m.path).exists() else ""
        if text.count(m.old) != 1:
            stale.append(f"{m.path}: {m.why} ({text.count(m.old)} matches)")
        stale += [f"{m.why}: no {t}" for t in m.tests if not (TESTS.parent / t).exists()]
    assert not stale


def test_the_pre_commit_hooks_run_the_ruff_that_make_test_runs() -> None:
    """One ruff version everywhere: the test extra's pin is the pre-commit hooks'."""
    root = TESTS.parent
    pinned = set(re.findall(r"ruff==([\d.]+)", (root / "pyproject.toml").read_text(encoding="utf-8")))
    hooks = re.findall(r"ruff==([\d.]+)", (root / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    assert len(pinned) == 1 and hooks and set(hooks) == pinned
