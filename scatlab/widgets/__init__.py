"""The generic widgets for notebooks: the card table, the hand analyzer and the game review
(layer 5: above :mod:`scatlab.session`, below :mod:`scatlab.course`).

``import scatlab`` never imports this package; ``import scatlab.widgets`` may load
ipywidgets and anywidget (install them with ``pip install 'scatlab[notebook]'``).
The pure-Python parts (:mod:`!svg`, :mod:`!chart`) import no widget library and are tested
without a browser; the table's game is :class:`scatlab.session.TableSession`.

``Table`` and ``Analyzer`` are loaded on first use, so ``from scatlab.widgets import
card_svg`` works even where ipywidgets is not installed.
"""

from __future__ import annotations

import importlib
from typing import Any

from .chart import distribution_svg
from .svg import card_label, card_svg

__all__ = ["Table", "Analyzer", "card_svg", "card_label", "distribution_svg"]


def __getattr__(name: str) -> Any:
    modules = {"Table": ".table", "Analyzer": ".analyzer"}
    if name in modules:
        return getattr(importlib.import_module(modules[name], __name__), name)
    raise AttributeError(f"module 'scatlab.widgets' has no attribute {name!r}")
