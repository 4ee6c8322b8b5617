"""The architecture (STYLE.md): lower layers never import higher ones, and ``import
scatlab`` stays light (no ipywidgets, sympy, numpy or Jupyter)."""

from __future__ import annotations

import ast
import doctest
import subprocess
import sys
from pathlib import Path

import scatlab

PACKAGE = Path(scatlab.__file__).parent
ROOT = PACKAGE.parent
LAYERS = {"errors": 0, "checks": 0, "cards": 0, "rules": 1, "analysis": 2, "players": 3, "widgets": 4, "cli": 4, "course": 4, "skat": 0, "__main__": 5}


def _layer(module: str) -> int:
    top = module.split(".")[0]
    return LAYERS.get(top, 0 if top == "__init__" else 99)


def _imports(path: Path) -> set[str]:
    rel = path.relative_to(PACKAGE).with_suffix("")
    package = list(rel.parts[:-1])
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
            target = ".".join(base + ([node.module] if node.module else []))
            found.add(target or "__init__")
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("scatlab."):
            found.add(node.module.removeprefix("scatlab."))
    return found


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
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
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
    nested.write_text("class A:\n    def f(self):\n        import research.calibration.study\n"
                      "        from research import review\n"
                      "        return importlib.import_module('research.review.run')\n", encoding="utf-8")
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
        "'scatlab.analysis.opponents', 'scatlab.analysis.hand_filter', 'scatlab.analysis.review') "
        "if m in sys.modules]; print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


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
        "import scatlab.widgets, scatlab.widgets.session, scatlab.widgets.svg, scatlab.widgets.chart; "
        "b = [m for m in ('ipywidgets', 'anywidget', 'traitlets') if m in sys.modules]; "
        "scatlab.widgets.Table; c = [m for m in ('ipywidgets', 'anywidget') if m in sys.modules]; print(a, b, c)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[] [] ['ipywidgets', 'anywidget']"
