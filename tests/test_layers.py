"""The architecture (STYLE.md): lower layers never import higher ones, and ``import
scatlab`` stays light (no ipywidgets, sympy, numpy or Jupyter)."""

from __future__ import annotations

import ast
import doctest
import importlib
import pkgutil
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import scatlab
from helpers.layers import LAYERS

PACKAGE = Path(scatlab.__file__).parent
ROOT = PACKAGE.parent


def _layer(module: str) -> int:
    top = module.split(".")[0]
    return LAYERS.get(top, 0 if top == "__init__" else 99)


def _type_checking_only(tree: ast.AST) -> set[int]:
    """The nodes under ``if TYPE_CHECKING:`` (imports for annotations only, never run)."""
    return {
        id(n)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for n in ast.walk(node)
    }


def _imports(path: Path, *, names: bool = False) -> set[str]:
    """Every module of the package that ``path`` imports, at any depth (inside functions
    too), leaving out imports for type checking only. With ``names``, ``from .x import y``
    also gives ``x.y`` (y may be a submodule)."""
    rel = path.relative_to(PACKAGE).with_suffix("")
    package = list(rel.parts[:-1])
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_checking_only(tree)
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        target = None
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
            target = ".".join(base + ([node.module] if node.module else [])) or "__init__"
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("scatlab."):
            target = node.module.removeprefix("scatlab.")
        elif isinstance(node, ast.Import):
            found.update(a.name.removeprefix("scatlab.") for a in node.names if a.name.startswith("scatlab."))
        if target is not None and isinstance(node, ast.ImportFrom):
            found.add(target)
            if names:
                found.update(f"{target}.{a.name}" if target != "__init__" else a.name for a in node.names)
    return found


def _module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts) or "__init__"


def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports (at any depth, type checking aside)."""
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    return {
        name: {t for t in _imports(path, names=True) if t in modules and t != name} for name, path in modules.items()
    }


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    circles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                circles.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return circles


def test_import_circles_finds_a_circle_through_a_function_level_import() -> None:
    assert import_circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert import_circles({"a": {"b"}, "b": set()}) == []


ANALYSIS_PARTS = ("counting", "model", "engine", "explain")
"""The sub-packages of :mod:`scatlab.analysis`, lowest first: exact counting, the opponent
model, the decision engine, the explanations (docs/design/engine.md argues the split)."""


def test_analysis_parts_import_only_the_parts_below_them() -> None:
    """Counting imports no other part; the opponent model only counting; the engine only
    those two; the explanations any (imports inside functions counted too)."""
    graph = import_graph()
    folders = {p.name for p in (PACKAGE / "analysis").iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert folders == set(ANALYSIS_PARTS)
    assert {p.stem for p in (PACKAGE / "analysis").glob("*.py")} == {"__init__"}  # every module is in a part
    for module, targets in graph.items():
        parts = module.split(".")
        if parts[0] != "analysis" or len(parts) < 3:
            continue
        mine = ANALYSIS_PARTS.index(parts[1])
        for target in targets:
            bits = target.split(".")
            if bits[0] == "analysis" and len(bits) >= 2 and bits[1] in ANALYSIS_PARTS:
                assert ANALYSIS_PARTS.index(bits[1]) <= mine, f"{module} imports {target}"


def test_no_import_circle_counting_imports_inside_functions() -> None:
    """No module reaches itself through the package's imports, including those inside
    functions (a registry finds its subclasses by name with importlib, not by import)."""
    assert import_circles(import_graph()) == []


def test_lower_layers_never_import_higher_layers() -> None:
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE)
        own = "__init__" if rel == Path("__init__.py") else ".".join(rel.with_suffix("").parts)
        if own == "__init__":
            continue
        for target in _imports(path):
            assert _layer(target) <= _layer(own), f"{rel} (layer {_layer(own)}) imports {target}"


def _absolute_imports(path: Path) -> set[str]:
    """Every module an absolute import in ``path`` names, at any depth (inside functions and
    classes too), with the modules given by name to ``importlib.import_module`` or
    ``__import__``."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module)
        elif (
            isinstance(node, ast.Call)
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in ("import_module", "__import__"):
                found.add(node.args[0].value)
    return found


def test_the_package_never_imports_research(tmp_path: Path) -> None:
    """``research/`` (the studies) sits outside the package and imports scatlab as a user
    does; nothing under ``scatlab/`` imports it, at any depth (the check itself finds an
    import inside a method or by name)."""
    assert (ROOT / "research").is_dir() and not (PACKAGE / "research").exists()
    nested = tmp_path / "nested.py"
    nested.write_text(
        "class A:\n    def f(self):\n        import research.calibration.study\n"
        "        from research import review\n"
        "        return importlib.import_module('research.review.run')\n",
        encoding="utf-8",
    )
    assert _absolute_imports(nested) == {"research.calibration.study", "research", "research.review.run"}
    checked = 0
    for path in PACKAGE.rglob("*.py"):
        for module in _absolute_imports(path):
            assert module.split(".")[0] != "research", f"{path.relative_to(ROOT)} imports {module}"
        checked += 1
    assert checked > 50


def test_import_scatlab_is_light() -> None:
    code = (
        "import sys, scatlab, scatlab.rules, scatlab.cli; "
        "heavy = [m for m in ('ipywidgets', 'sympy', 'numpy', 'IPython', 'jupyter_core', 'scatlab.players', "
        "'scatlab.analysis.model.observations', 'scatlab.analysis.model.kinds', 'scatlab.analysis.model.weights', "
        "'scatlab.analysis.model.last_turn', 'scatlab.analysis.model.hand_log', 'scatlab.analysis.model.hand_filter', "
        "'scatlab.analysis.explain.review') "
        "if m in sys.modules]; print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_scatlab_analyze_imports_the_engine_but_not_the_review() -> None:
    """Issue 35, as the one engine (issue 50) left it: ``scatlab analyze`` loads the decision
    engine it advises by (its standing model and the adaptive opponent model, even under
    ``--opponent-model uniform``, which picks the knock risk's model only) but not the game
    review, which is imported on first use."""
    engine = (
        "scatlab.analysis.model.observations",
        "scatlab.analysis.model.kinds",
        "scatlab.analysis.model.weights",
        "scatlab.analysis.model.last_turn",
        "scatlab.analysis.model.valuation",
    )
    code = (
        "import sys, contextlib, io; from scatlab.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['analyze', 'AH', 'KH', '4C', '--discard', '9S', '--opponent-model', 'uniform'])\n"
        f"print([m for m in {engine!r} if m in sys.modules], 'scatlab.analysis.explain.review' in sys.modules)\n"
        "from scatlab.analysis import review_game\n"
        "print('scatlab.analysis.explain.review' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0] == f"{list(engine)!r} False"
    assert out[1] == "True"


def test_analysis_core_and_cli_path_never_import_sympy() -> None:
    """sympy is for display only: analysing a hand (what scatlab analyze does) must not
    load it; asking for the derivation does."""
    code = (
        "import sys; from scatlab.analysis import analyze; a = analyze('AH KH 4C', discard='9S', horizon=2); "
        "a.to_json(); a.table(); before = 'sympy' in sys.modules; a._repr_latex_(); "
        "print(before, 'sympy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True"]


def test_readme_examples_run() -> None:
    """The README's Python examples are doctested, like python-chess does."""
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 5 and result.failed == 0


def test_import_scatlab_never_loads_the_widgets_and_the_session_loads_no_widget_library() -> None:
    """``import scatlab`` stays light; the table's session, cards and chart are plain Python
    (tested without a browser); only ``scatlab.widgets.Table`` loads ipywidgets/anywidget."""
    code = (
        "import sys, scatlab; a = [m for m in ('scatlab.widgets', 'ipywidgets', 'anywidget') if m in sys.modules]; "
        "import scatlab.widgets, scatlab.session.table, scatlab.widgets.svg, scatlab.widgets.chart; "
        "b = [m for m in ('ipywidgets', 'anywidget', 'traitlets') if m in sys.modules]; "
        "scatlab.widgets.Table; c = [m for m in ('ipywidgets', 'anywidget') if m in sys.modules]; print(a, b, c)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[] [] ['ipywidgets', 'anywidget']"


def test_no_package_name_hides_one_of_its_modules() -> None:
    """Issue 37: ``scatlab.analysis`` exported the function ``review``, so ``import
    scatlab.analysis.explain.review as r`` gave the function, not the module. For every package of
    scatlab and every module in it, the package's attribute of that name is the module
    (nothing in an ``__init__`` rebinds it) and no ``__all__`` lists the name."""
    packages = ["scatlab"] + [m.name for m in pkgutil.walk_packages(scatlab.__path__, "scatlab.") if m.ispkg]
    checked = 0
    for name in packages:
        package = importlib.import_module(name)
        for sub in pkgutil.iter_modules(package.__path__):
            if sub.name == "__main__":  # running it is the CLI
                continue
            module = importlib.import_module(f"{name}.{sub.name}")
            assert isinstance(module, ModuleType)
            assert getattr(package, sub.name) is module, f"{name}.{sub.name} is rebound in {name}/__init__.py"
            assert sub.name not in getattr(package, "__all__", ()), f"{name}.__all__ lists its module {sub.name}"
            checked += 1
    assert checked > 50 and "scatlab.analysis" in packages and "scatlab.widgets" in packages


def test_the_widgets_import_no_circle() -> None:
    """Issue 37: the table and the review widget imported each other (inside functions).
    Counting imports inside functions too, no widgets module reaches itself again: the
    review widget is handed the table (``table_at``), :mod:`scatlab.widgets.review` wires
    the two together."""
    graph: dict[str, set[str]] = {}
    for path in (PACKAGE / "widgets").glob("*.py"):
        own = f"widgets.{path.stem}"
        graph[own] = {t for t in _imports(path) if t.startswith("widgets.") and t != own}
    assert {"widgets.table", "widgets.review", "widgets.review_steps"} <= set(graph)

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph.get(start, set()) - seen:
            seen.add(nxt)
            if nxt == goal or reaches(nxt, goal, seen):
                return True
        return False

    assert [m for m in sorted(graph) if reaches(m, m, set())] == []


def test_only_scatlab_analysis_is_the_way_into_the_analysis() -> None:
    """Issue 66: outside :mod:`scatlab.analysis`, the package imports the analysis only as
    ``scatlab.analysis`` (its ``__init__`` exports what the players, the session, the
    widgets, the course and the CLI need), never one of its parts
    (``scatlab.analysis.engine.ranking``, ...): at any depth (inside functions too), for type
    checking too. Tests, studies and benchmarks may read the parts."""
    checked = 0
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] == "analysis":
            continue
        package = list(rel.with_suffix("").parts[:-1])
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.level:
                base = package[: len(package) - (node.level - 1)]
                targets.append(".".join(base + ([node.module] if node.module else [])))
            elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("scatlab."):
                targets.append(node.module.removeprefix("scatlab."))
            elif isinstance(node, ast.Import):
                targets += [a.name.removeprefix("scatlab.") for a in node.names if a.name.startswith("scatlab.")]
            if isinstance(node, ast.ImportFrom) and targets == ["analysis"]:  # from ..analysis import engine
                targets += [f"analysis.{a.name}" for a in node.names if a.name in ANALYSIS_PARTS]
            for target in targets:
                assert not target.startswith("analysis."), f"{rel} imports scatlab.{target}: import scatlab.analysis"
        checked += 1
    assert checked > 50


ARCHITECTURE = ROOT / "docs" / "design" / "architecture.md"


def test_the_map_names_every_module_once() -> None:
    """docs/design/architecture.md's "Every module" tables name each module of the package
    (its path under ``scatlab/``, ``__init__.py`` aside), once, and nothing else."""
    page = ARCHITECTURE.read_text(encoding="utf-8")
    tables = page.split("## Every module", 1)[1].split("\n## ", 1)[0]
    named = re.findall(r"^\| `([\w/]+\.py)` \|", tables, flags=re.M)
    modules = sorted(str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py") if p.name != "__init__.py")
    assert sorted(named) == modules
    assert len(named) == len(set(named))


def test_every_layer_number_a_docstring_gives_is_its_layer() -> None:
    """ "layer N" in a module's docs is the layer tests/helpers/layers.py gives its package."""
    wrong = []
    for path in PACKAGE.rglob("*.py"):
        top = path.relative_to(PACKAGE).parts[0].removesuffix(".py")
        for number in re.findall(r"\b[Ll]ayer (\d+)\b", path.read_text(encoding="utf-8")):
            if top in LAYERS and int(number) != LAYERS[top]:
                wrong.append(f"{path.relative_to(PACKAGE)} says layer {number}, its layer is {LAYERS[top]}")
    assert not wrong


LONGEST_FUNCTION = 80
"""The most lines a function of the package may take, its docstring included (issue 66)."""


def test_no_function_is_longer_than_80_lines() -> None:
    long = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno is not None:
                lines = node.end_lineno - node.lineno + 1
                if lines > LONGEST_FUNCTION:
                    long.append(f"{path.relative_to(PACKAGE)}: {node.name} ({lines} lines)")
    assert not long
