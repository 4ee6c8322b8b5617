"""Sphinx configuration of scatlab's documentation site (``make docs``).

The pages are Markdown (MyST); the API reference under ``api/`` is generated from the
docstrings by autodoc. ``make docs`` and ``tests/test_docs.py`` build with ``-n -W``:
nitpicky, so every cross-reference must resolve, and every warning is an error.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import pprint
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # document this checkout's scatlab, whatever is installed

from docutils import nodes  # noqa: E402
from sphinx import addnodes  # noqa: E402
from sphinx.pycode import ModuleAnalyzer  # noqa: E402

import scatlab  # noqa: E402

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

# -- nitpicky: every reference must resolve ---------------------------------------------
# ``make docs`` and tests/test_docs.py build with -n (nitpicky). The exceptions, one by
# one: types of the standard library and of third-party packages that signatures name.
# They have no page here, and intersphinx cannot fetch Python's or ipywidgets' inventory
# when the site is built offline (as the test builds it), so they stay plain text.
# Everything public of scatlab's must resolve: no pattern for it here, and no entry but
# the two private classes at the end.
nitpick_ignore = [
    # the standard library, as autodoc writes the annotations
    ("py:class", "argparse.Namespace"),
    ("py:class", "collections.abc.Callable"),
    ("py:class", "collections.abc.Iterable"),
    ("py:class", "collections.abc.Iterator"),  # a deeper look's verdicts (scatlab.players.deeper)
    ("py:class", "collections.abc.Mapping"),
    ("py:class", "collections.abc.Sequence"),
    ("py:class", "concurrent.futures.Executor"),
    ("py:class", "concurrent.futures._base.Executor"),  # where Executor is defined
    ("py:class", "datetime.datetime"),  # the class database's report (scatlab.classroom.classdb)
    ("py:class", "enum.Enum"),  # the base of Suit, ActionKind, Phase
    ("py:class", "enum.IntEnum"),  # the base of Rank
    ("py:class", "fractions.Fraction"),
    ("py:class", "Fraction"),  # an annotation autodoc could not evaluate keeps its bare name
    ("py:class", "os.PathLike"),
    ("py:class", "sqlite3.Connection"),  # classdb.queue writes in the caller's transaction
    ("py:class", "pathlib.Path"),
    ("py:class", "random.Random"),
    # third-party bases of the widgets and of the course app's kernel classes
    ("py:class", "ipywidgets.widgets.widget_box.VBox"),
    ("py:class", "anywidget.widget.AnyWidget"),  # the Look deeper panel (scatlab.widgets.deeper)
    ("py:class", "jupyter_client.asynchronous.client.AsyncKernelClient"),
    ("py:class", "jupyter_server.services.kernels.kernelmanager.AsyncMappingKernelManager"),
    ("py:class", "tornado.web.HTTPError"),
    # the class hub's bases (scatlab.classroom.hub, scatlab.classroom.spawner) and LocalHub's process
    ("py:class", "firstuseauthenticator.firstuseauthenticator.FirstUseAuthenticator"),
    ("py:class", "jupyter_server.services.contents.largefilemanager.AsyncLargeFileManager"),
    ("py:class", "jupyterhub.spawner.SimpleLocalProcessSpawner"),
    ("py:class", "subprocess.Popen"),
    ("py:class", "t.Any"),
    (
        "py:class",
        "numpy.random._generator.Generator",
    ),  # the master's sampler draws from numpy's generator
    # traitlets' HasTraits.__init__(*args: t.Any, **kwargs: t.Any)
    # scatlab's two private classes that public API names: the base of Lesson and Appendix
    # (shown by show-inheritance) and the type of the GameState.log field (an internal cons
    # list; GameState.events is its public form). Private, so deliberately undocumented.
    ("py:class", "scatlab.course.lessons._Page"),
    ("py:class", "scatlab.rules.state._Log"),
]

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


# -- viewcode's [docs] back-links ------------------------------------------------------
# viewcode gives each documented object a [source] link to the page of the module that
# defines it (its __module__, following re-exports), and that page a [docs] link back. It
# builds the back-link's anchor from one documenting module per source page, the first it
# meets, plus the object's name (sphinx-doc/sphinx#6651). So when a source module's objects
# are documented under more than one module (scatlab.errors' classes under scatlab.errors,
# and ServeError also under scatlab.app.launch; widgets/table.py's Table under
# scatlab.widgets and try_table under scatlab.widgets.review), the back-links of all but
# one point at ids that do not exist, e.g. errors.html#scatlab.app.launch.ScatlabError.
# Point each back-link at the description of that very object instead: the one under its
# defining module when there is one, else the first by name.


def _split(path: str) -> tuple[str, str] | None:
    """A dotted path as (module, qualified name in it): its longest importable prefix (one of
    scatlab's modules, or one already imported) and the rest. None when none imports."""
    parts = path.split(".")
    for i in range(len(parts), 0, -1):
        module = ".".join(parts[:i])
        if module not in sys.modules and parts[0] != "scatlab":
            continue
        try:
            importlib.import_module(module)
        except ImportError:
            continue
        return module, ".".join(parts[i:])
    return None


def _find(path: str) -> object | None:
    """The object at a dotted path (None when there is none)."""
    split = _split(path)
    if split is None:
        return None
    value: object = sys.modules[split[0]]
    try:
        for part in filter(None, split[1].split(".")):
            value = getattr(value, part)
    except AttributeError:
        return None
    return value


def _descriptions(env: Any) -> dict[tuple[str, str], list[tuple[str, str]]]:
    """Where each documented object is described: (defining module, qualified name) to
    (docname, anchor) pairs, the description under the defining module first."""
    domain = env.get_domain("py")
    found: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for fullname, entry in domain.objects.items():
        split = _split(fullname)
        if entry.aliased or split is None:  # an alias (:canonical:) is the same description
            continue
        qualname = split[1]
        defined = getattr(_find(fullname), "__module__", None)  # what viewcode follows
        if defined is not None:
            found.setdefault((defined, qualname), []).append((entry.docname, entry.node_id))
    for (defined, qualname), places in found.items():
        places.sort(key=lambda place: (place[1] != f"{defined}.{qualname}", place[1]))
    return found


_BACK_LINK = re.compile(r'(<div class="viewcode-block" id="([^"]+)">\s*<a class="viewcode-back" href=")([^"]*)(")')


def _fix_back_links(app: Any, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    if not pagename.startswith("_modules/") or "body" not in context:
        return
    if getattr(app, "_scatlab_descriptions", None) is None:  # once a build, once all is read
        app._scatlab_descriptions = _descriptions(app.env)
    descriptions = app._scatlab_descriptions
    module = pagename.removeprefix("_modules/").replace("/", ".")

    def relink(match: re.Match[str]) -> str:
        places = descriptions.get((module, match[2]))
        if not places:
            return match[0]
        docname, anchor = places[0]
        return f"{match[1]}{app.builder.get_relative_uri(pagename, docname)}#{anchor}{match[4]}"

    context["body"] = _BACK_LINK.sub(relink, context["body"])


# -- references read in the module that defines the docstring --------------------------
# A package documents the names it re-exports (automodule with :imported-members:), so
# scatlab.analysis.engine.ranking.rank is described as scatlab.analysis.rank, and the
# Python domain looks the references in its docstring up from scatlab.analysis. But the
# docstring is written in ranking.py: ``:data:`HORIZON``` there means ranking.HORIZON,
# ``:class:`RecordError``` in rules/record.py the class that module imports, and a full
# path names a defining module (autodoc gives a class a :canonical: alias for its defining
# path, but not a function, a method or a constant). When the domain finds no target, read
# the reference as Python would in the module that defines the documented object (with a
# leading dot, also in that module's packages) or as a full path, and link to the
# description of the very object it names (same object under the same name). A reference
# to something described nowhere stays a warning.


def _namespaces(node: Any) -> list[str]:
    """Where the docstring holding a reference was written, innermost first: the class of a
    method, then the module that defines the documented object (its ``__module__``). The
    documented object is the description the reference is in, or for a summary line the
    object its autosummary row names."""
    owner = node.parent
    while owner is not None and not isinstance(owner, (addnodes.desc_signature, addnodes.desc_content, nodes.row)):
        owner = owner.parent
    if isinstance(owner, addnodes.desc_content):
        owner = owner.parent[0]
    if isinstance(owner, addnodes.desc_signature):
        module = owner.get("module")
        path = ".".join(filter(None, [module, owner.get("fullname")]))
    elif isinstance(owner, nodes.row):  # the row's first cell names the object, by now resolved
        module = None
        first = next(owner.findall(lambda n: isinstance(n, (addnodes.pending_xref, nodes.reference))), None)
        path = "" if first is None else first.get("reftarget") or first.get("reftitle", "")
    else:
        module = node.get("py:module")
        path = ""
    parts = path.split(".")
    for i in range(len(parts), 0, -1):
        value = _find(".".join(parts[:i]))
        if callable(value):
            value = inspect.unwrap(value)
        for accessor in ("fget", "func"):  # a property's, a cached_property's function
            value = getattr(value, accessor, value)
        if (inspect.isclass(value) or inspect.isroutine(value)) and hasattr(value, "__qualname__"):
            module, qualname = value.__module__, value.__qualname__.split(".")
            return [".".join([module, *qualname[:j]]) for j in range(len(qualname) - 1, -1, -1)]
    return [module] if module else []


def _identity(value: object) -> int:
    """id() of an object, a method read from its class or instance counting as its function."""
    return id(getattr(value, "__func__", value))


def _described(env: Any) -> dict[tuple[str, int], list[str]]:
    """Every described object, by its name and identity, to the full names describing it."""
    domain = env.get_domain("py")
    found: dict[tuple[str, int], list[str]] = {}
    for fullname in [*domain.modules, *(n for n, e in domain.objects.items() if not e.aliased)]:
        value = _find(fullname)
        if value is not None:
            found.setdefault((fullname.rpartition(".")[2], _identity(value)), []).append(fullname)
    return found


def _resolve_in_source(app: Any, env: Any, node: Any, contnode: Any) -> Any:
    if node.get("refdomain") != "py":
        return None
    domain = env.get_domain("py")
    target = node["reftarget"]
    places = [target] if "." in target else []
    for namespace in _namespaces(node):
        places.append(f"{namespace}.{target}")
        if node.hasattr("refspecific"):
            places += [f"{namespace.rsplit('.', n)[0]}.{target}" for n in range(1, namespace.count(".") + 1)]
    if getattr(app, "_scatlab_described", None) is None:  # once a build, once all is read
        app._scatlab_described = _described(env)
    for place in places:
        parts = place.split(".")
        # the longest part of the path that is a described object, then the rest by name (an
        # attribute without a class value, such as a dataclass field, is found by its name)
        for i in range(len(parts), 0, -1):
            value = _find(".".join(parts[:i]))
            if value is None:
                continue
            names = app._scatlab_described.get((parts[i - 1], _identity(value)), [])
            # a method is described in each class that documents it: its own class first
            qualname = getattr(value, "__qualname__", parts[i - 1])
            for name in sorted(names, key=lambda name: (not name.endswith(f".{qualname}"), len(name), name)):
                fullname = ".".join([name, *parts[i:]])
                if fullname in domain.objects or fullname in domain.modules:
                    plain = node.deepcopy()
                    plain.attributes.pop("refspecific", None)
                    return domain.resolve_xref(
                        env, node["refdoc"], app.builder, node["reftype"], fullname, plain, contnode
                    )
    return None


def setup(app: Any) -> None:
    app.connect("autodoc-process-docstring", _constant_docs)
    app.connect("html-page-context", _fix_back_links)
    app.connect("missing-reference", _resolve_in_source)
