"""Sphinx configuration of scatlab's documentation site (``make docs``).

The pages are Markdown (MyST); the API reference under ``api/`` is generated from the
docstrings by autodoc. ``make docs`` and ``tests/test_docs.py`` build with ``-W``: every
warning is an error.
"""

from __future__ import annotations

import importlib
import pkgutil
import pprint
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # document this checkout's scatlab, whatever is installed

import scatlab  # noqa: E402
from sphinx.pycode import ModuleAnalyzer  # noqa: E402

project = "scatlab"
author = "the scatlab authors"
copyright = "the scatlab authors"
version = release = scatlab.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.viewcode",
]
source_suffix = {".md": "markdown"}
root_doc = "index"
# calibration.md is being retired (the study moves to research/calibration/)
exclude_patterns = ["_build", "calibration.md"]

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

autodoc_member_order = "bysource"
autodoc_default_options = {
    "show-inheritance": True,
    "undoc-members": True,
    "no-value": True,  # _constant_docs below shows the values worth showing
}
autosummary_generate = False

html_theme = "furo"
html_title = f"scatlab {release}"


# -- constants re-exported by a package ------------------------------------------------
# autodoc reads a constant's docstring (the string after it) from the source of the module
# being documented, so a constant that a package re-exports from a submodule shows either
# nothing or the docstring of its type (dict's, tuple's). Take it from the submodule that
# defines that very object instead, and show the value where it says something: inline when
# short, as a block when there is no docstring, and never a repr with memory addresses.

_SHORT_VALUE = 70
_LONG_VALUE = 1500


def _defining_docstring(package: str, name: str, obj: object) -> list[str]:
    module = importlib.import_module(package)
    candidates = [package]
    paths = getattr(module, "__path__", None)
    if paths is not None:
        candidates += [f"{package}.{info.name}" for info in pkgutil.iter_modules(paths)]
    for candidate in candidates:
        try:
            sub = importlib.import_module(candidate)
        except ImportError:
            continue
        if getattr(sub, name, None) is not obj:
            continue
        docs = ModuleAnalyzer.for_module(candidate).find_attr_docs()
        if ("", name) in docs:
            return list(docs[("", name)])
    return []


def _words(lines: list[str]) -> list[str]:
    return [line.strip() for line in lines if line.strip()]


def _constant_docs(app: Any, what: str, name: str, obj: object, options: Any, lines: list[str]) -> None:
    if what != "data":
        return
    package, _, short = name.rpartition(".")
    if not lines or _words(lines) == _words((type(obj).__doc__ or "").splitlines()):
        lines[:] = _defining_docstring(package, short, obj)
    text = repr(obj)
    if len(text) <= _SHORT_VALUE and "\n" not in text:
        lines.extend(["", f"Value: ``{text}``"])
    elif not lines and " at 0x" in text and isinstance(obj, dict):  # a registry: its names
        lines.append("Keys: " + ", ".join(f"``{key!r}``" for key in obj))
    elif not lines and len(text) <= _LONG_VALUE:
        if isinstance(obj, str):
            lines.extend(["The text::", ""])
        else:
            size = f" of {len(obj)} items" if isinstance(obj, (tuple, list, dict, frozenset, set)) else ""
            lines.extend([f"A {type(obj).__name__}{size}::", ""])
        lines.extend("   " + line for line in pprint.pformat(obj, width=88, compact=True).splitlines())


def setup(app: Any) -> None:
    app.connect("autodoc-process-docstring", _constant_docs)
