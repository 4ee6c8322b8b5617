"""Every front-end is a file beside its widget (issue 37): each anywidget's ES module is the
``.js`` file named after its Python module (``table.py`` and ``table.js``), its style the
``.css`` file of the same name; no Python source holds JavaScript in a string; and the wheel's
package data takes every ``.js`` and ``.css`` file, so an installed scatlab has them all."""

from __future__ import annotations

import ast
import fnmatch
import importlib
import inspect
import tomllib
from pathlib import Path
from typing import Any

import anywidget
import traitlets

import scatlab

PACKAGE = Path(scatlab.__file__).parent
WIDGETS = PACKAGE / "widgets"


def _value(cls: type, name: str) -> Any:
    """A class attribute as the browser gets it (a traitlet's default, or the plain string)."""
    value = inspect.getattr_static(cls, name, None)
    return value.default_value if isinstance(value, traitlets.TraitType) else value


def _anywidgets() -> list[tuple[str, type]]:
    found = []
    for path in sorted(WIDGETS.glob("*.py")):
        module = importlib.import_module(f"scatlab.widgets.{path.stem}")
        found += [
            (path.stem, cls)
            for _, cls in inspect.getmembers(module, inspect.isclass)
            if issubclass(cls, anywidget.AnyWidget) and cls.__module__ == module.__name__
        ]
    return found


def test_every_anywidget_front_end_is_the_js_and_css_file_beside_its_module() -> None:
    widgets = _anywidgets()
    assert {stem for stem, _ in widgets} >= {"table", "analyzer", "review_steps"}
    for stem, cls in widgets:
        js = WIDGETS / f"{stem}.js"
        assert js.is_file() and js.stat().st_size > 0, f"{cls.__name__}: no {js.name}"
        assert _value(cls, "_esm") == js.read_text(encoding="utf-8"), f"{cls.__name__}._esm is not {js.name}"
        css = _value(cls, "_css")
        if css is not None:
            assert css and css == (WIDGETS / f"{stem}.css").read_text(encoding="utf-8"), cls.__name__


def test_every_front_end_file_is_read_by_a_module() -> None:
    sources = "\n".join(p.read_text(encoding="utf-8") for p in PACKAGE.rglob("*.py"))
    files = sorted(WIDGETS.glob("*.js")) + sorted(WIDGETS.glob("*.css"))
    assert len(files) >= 6
    for path in files:
        assert path.stat().st_size > 0 and f'"{path.name}"' in sources, path.name


def test_no_python_source_holds_javascript_in_a_string() -> None:
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                assert not any(sign in node.value for sign in ("export default", "addEventListener(")), (
                    f"{path.relative_to(PACKAGE)} line {node.lineno} holds JavaScript"
                )


def test_the_wheel_ships_every_js_and_css_file() -> None:
    config = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["scatlab"]
    assert "widgets/*.js" in patterns and "widgets/*.css" in patterns
    for path in list(PACKAGE.rglob("*.js")) + list(PACKAGE.rglob("*.css")):
        rel = path.relative_to(PACKAGE).as_posix()
        assert any(fnmatch.fnmatchcase(rel, pattern) for pattern in patterns), f"{rel} is not package data"
