"""The documentation site (``docs/``, built by ``make docs``): it builds nitpicky (every
cross-reference resolves) with warnings as errors, every link lands on a page and an id that
exist, every page is reachable from the index, the API reference documents every public
name, the command-line and rules pages miss no command, option or rule, and the pages'
Python examples run.

The site is built once for the module (about 20 s), into a temporary folder.
"""

from __future__ import annotations

import contextlib
import doctest
import importlib
import io
import pkgutil
import posixpath
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from sphinx.util.inventory import InventoryFile

import scatlab
from helpers.layers import LAYERS
from scatlab.cli import main
from scatlab.rules import RULEBOOK

ROOT = Path(scatlab.__file__).parent.parent
DOCS = ROOT / "docs"
NOT_PAGES = {"calibration.md"}  # excluded in docs/conf.py (being retired)
PACKAGES = (
    "scatlab.cards",
    "scatlab.errors",
    "scatlab.checks",
    "scatlab.words",
    "scatlab.rules",
    "scatlab.analysis",
    "scatlab.players",
    "scatlab.session",
    "scatlab.widgets",
    "scatlab.course",
    "scatlab.app",
    "scatlab.classroom",
    "scatlab.cli",
)
"""Every public module of scatlab, each with its page of the API reference."""


def _pages() -> list[Path]:
    return sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.parts and p.name not in NOT_PAGES)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site as ``make docs`` builds it (``sphinx-build -n -W --keep-going``), quietly."""
    out = tmp_path_factory.mktemp("docs")
    html = out / "html"
    command = [
        sys.executable,
        "-m",
        "sphinx",
        "-n",
        "-W",
        "--keep-going",
        "-q",
        "-b",
        "html",
        "-d",
        str(out / "doctrees"),
        str(DOCS),
        str(html),
    ]
    run = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, f"sphinx-build failed:\n{run.stderr}"
    return html


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href")
        if tag == "a" and href:
            self.hrefs.append(href)


def _links(page: Path) -> list[str]:
    parser = _Links()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.hrefs


class _Targets(HTMLParser):
    """The ids a page defines and every link (``href``) it holds."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(str(found["id"]))
        if tag == "a" and found.get("name"):
            self.ids.add(str(found["name"]))
        if found.get("href"):
            self.hrefs.append(str(found["href"]))


def _inventory(site: Path) -> set[str]:
    with (site / "objects.inv").open("rb") as f:
        inventory = InventoryFile.load(f, "", posixpath.join)
    return {name for objects in inventory.values() for name in objects}


def test_the_site_builds_without_a_warning(site: Path) -> None:
    assert (site / "index.html").is_file() and (site / "objects.inv").is_file()


def test_every_link_lands_on_a_page_and_an_id_that_exist(site: Path) -> None:
    """Every link inside the site, ``#anchor`` and all, lands on a file that was built and on
    an id of that page: the API reference's cross-references, the [source] links and the
    [docs] links back from the highlighted code (viewcode builds those from the module that
    documents an object first, docs/conf.py points them at the object's own description)."""
    pages = {page.resolve(): _Targets() for page in site.rglob("*.html")}
    for page, targets in pages.items():
        targets.feed(page.read_text(encoding="utf-8"))
    broken = []
    for page, targets in pages.items():
        for href in targets.hrefs:
            link = urlsplit(href)
            if link.scheme or link.netloc:
                continue
            target = (page.parent / unquote(link.path)).resolve() if link.path else page
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file():
                broken.append(f"{page.relative_to(site)}: {href} (no such file)")
            elif link.fragment and (target not in pages or unquote(link.fragment) not in pages[target].ids):
                broken.append(f"{page.relative_to(site)}: {href} (no such id)")
    assert len(pages) > 50 and not broken, "\n".join(broken)


def test_every_page_is_reachable_from_the_index(site: Path) -> None:
    """Following the links from index.html reaches every page of docs/ (sphinx -W already
    refuses a page outside every toctree)."""
    seen: set[Path] = set()
    todo = [site / "index.html"]
    while todo:
        page = todo.pop().resolve()
        if page in seen or not page.is_file():
            continue
        seen.add(page)
        for href in _links(page):
            target = href.split("#")[0]
            if target.endswith(".html") and "://" not in target and not target.startswith("_modules"):
                todo.append(page.parent / target)
    for source in _pages():
        built = (site / source.relative_to(DOCS)).with_suffix(".html").resolve()
        assert built in seen, f"{source.relative_to(ROOT)} is not reachable from the index"


def test_every_public_module_has_its_api_page() -> None:
    public = {f"scatlab.{m.name}" for m in pkgutil.iter_modules(scatlab.__path__) if not m.name.startswith("_")}
    assert public == set(PACKAGES)
    pages = {p.stem for p in (DOCS / "api").glob("*.md")}
    assert {name.removeprefix("scatlab.") for name in PACKAGES} | {"scatlab", "index"} == pages


def test_the_api_reference_documents_every_public_name(site: Path) -> None:
    """Each name in a package's ``__all__`` is documented as ``package.name``; the names
    ``import scatlab`` gives are documented in their layer's package, and the ``scatlab``
    page links to each of them."""
    documented = _inventory(site)
    missing = [f"{p}.{n}" for p in PACKAGES for n in importlib.import_module(p).__all__ if f"{p}.{n}" not in documented]
    assert not missing, f"not in the API reference: {missing}"
    anchors = {href.split("#")[1] for href in _links(site / "api" / "scatlab.html") if "#" in href}
    for name in scatlab.__all__:
        if f"scatlab.{name}" in documented:
            continue
        homes = [
            p
            for p in PACKAGES
            if name in importlib.import_module(p).__all__
            and getattr(importlib.import_module(p), name) is getattr(scatlab, name)
        ]
        assert homes, f"scatlab.{name} is documented nowhere"
        assert any(f"{home}.{name}" in anchors for home in homes), f"the scatlab page does not link to {name}"


def test_the_cli_page_has_every_command_and_option() -> None:
    page = (DOCS / "guide" / "cli.md").read_text(encoding="utf-8")
    sections = dict(re.findall(r"^## scatlab (\w+)\n(.*?)(?=^## |\Z)", page, flags=re.M | re.S))
    top = io.StringIO()
    with contextlib.redirect_stdout(top):
        assert main(["--help"]) == 0
    commands = re.findall(r"^    (\w+)", top.getvalue(), flags=re.M)
    assert len(commands) >= 10 and set(commands) == set(sections), "one section per command"
    for command in commands:
        text = io.StringIO()
        with contextlib.redirect_stdout(text):
            assert main([command, "--help"]) == 0
        options = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]+|-o)\b", text.getvalue())) - {"--help"}
        missing = sorted(o for o in options if f"`{o}" not in sections[command])
        assert not missing, f"scatlab {command}: {missing} not on the CLI page"


def test_the_rules_page_explains_every_rule_code() -> None:
    page = (DOCS / "guide" / "rules.md").read_text(encoding="utf-8")
    for code, entry in RULEBOOK.items():
        assert f"**{code} {entry.title}.**" in page


def test_the_layer_diagrams_follow_the_layers_tests_check() -> None:
    """The design notes' diagram (top layer first) and the README's list (lowest first) name
    the layers in the order tests/test_layers.py enforces."""
    beside = {"errors", "checks", "words", "skat", "__main__"}  # drawn beside cards, or no layer of their own
    layers = sorted((n for n in LAYERS if n not in beside), key=LAYERS.__getitem__)
    page = (DOCS / "design" / "architecture.md").read_text(encoding="utf-8")
    diagram = re.findall(r"^  (\w+) +scatlab\.(\w+) ", page, flags=re.M)
    assert [layer for layer, module in diagram if layer == module][::-1] == layers
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    listed = [n for n in re.findall(r"`(\w+)`", readme.split("## Where the code is")[1]) if n in LAYERS]
    assert [n for n in listed if n in layers] == layers
    assert [LAYERS[n] for n in listed] == sorted(LAYERS[n] for n in listed)


def test_the_pages_examples_run() -> None:
    """The ``>>>`` examples of every page pass, as the README's do."""
    attempted = {}
    for page in _pages():
        if ">>>" not in page.read_text(encoding="utf-8"):
            continue
        result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
        assert result.failed == 0, f"{page.relative_to(ROOT)}: {result.failed} example(s) failed"
        attempted[page.relative_to(DOCS).as_posix()] = result.attempted
    assert attempted.get("guide/analyzer.md", 0) >= 20, attempted
