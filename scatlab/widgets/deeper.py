"""The master's deeper look on a page: what every **Look deeper** button shares (the review's,
the table's hints' and the hand analyzer's), and the analyzer's panel.

- :class:`LookRunner` runs one look at a time for a widget: a message while one runs is
  refused harmlessly (nothing happens), and while it runs a progress bar says what it is
  doing (:func:`progress_messages`: ``{"done", "total", "what"}``, "Looking deeper: the master
  plays each move out in deal 120 of 500 …", sent every 5%, not every deal).
- :class:`DeeperPanel` (the anywidget of ``deeper.js`` and ``deeper.css`` beside this file)
  draws a :class:`~scatlab.session.DeeperDisplay` as the hand analyzer shows it: the button,
  the progress bar, the verdict as it sharpens and how it was made. The page only sends
  ``{"type": "deep"}``; the kernel decides whether a look can be made, and what it found.

>>> shown = []
>>> progress = progress_messages(shown.append, "that fit what you can see")
>>> for done in range(1, 101):
...     progress(done, 100)
>>> len(shown), shown[-1]["what"]
(21, 'Looking deeper: the master plays each move out in deal 100 of 100 that fit what you can see')
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anywidget
import traitlets

__all__ = ["DeeperPanel", "LookRunner", "progress_messages", "SEEN_HERE", "EVERY_SECONDS"]

_HERE = Path(__file__).parent

EVERY_SECONDS = 0.25
"""The longest a look's progress bar waits for its next message."""

SEEN_HERE = "that fit what you can see"
"""What the deals of a look at the learner's own moment fit, as its progress bar says it."""


def progress_messages(show: Callable[[dict[str, Any]], object], fit: str) -> Callable[[int, int], None]:
    """A look's progress callback ``(deals played, deals planned)`` that shows a progress
    message (``show({"done", "total", "what"})``) every 5% of the deals, at the last, and at
    least every :data:`EVERY_SECONDS` between (a large budget's 5% may take a while);
    ``fit`` says what the deals fit (``"that fit what was seen"``)."""
    shown = [-1]
    last = [time.perf_counter()]

    def progress(done: int, total: int) -> None:
        percent = 100 * done // max(total, 1)
        now = time.perf_counter()
        if percent >= shown[0] + 5 or done == total or now - last[0] >= EVERY_SECONDS:  # not every deal
            shown[0], last[0] = percent, now
            show(
                {
                    "done": done,
                    "total": total,
                    "what": f"Looking deeper: the master plays each move out in deal {done:,} of {total:,} {fit}",
                }
            )

    return progress


class LookRunner:
    """Runs a widget's deeper looks one at a time, with a progress bar (see the module doc)."""

    def __init__(self, show: Callable[[dict[str, Any]], object], fit: str = SEEN_HERE) -> None:
        self.show = show
        """Shows a progress message (``{}``: none, the look is over)."""
        self.fit = fit
        self.busy = False
        """A look is under way."""

    def run(self, look: Callable[[Callable[[int, int], None]], Any]) -> Any:
        """``look(progress)`` with the progress bar shown while it runs; None, doing nothing,
        while another look runs."""
        if self.busy:
            return None
        self.busy = True
        self.show({"done": 0, "total": 1, "what": f"Looking deeper: drawing deals {self.fit}"})
        try:
            return look(progress_messages(self.show, self.fit))
        finally:
            self.busy = False
            self.show({})


class DeeperPanel(anywidget.AnyWidget):
    """The hand analyzer's **Look deeper** panel: draws ``state`` (a
    :class:`~scatlab.session.DeeperDisplay` as JSON; empty: nothing to show) and ``progress``
    (a look under way: ``{"done", "total", "what"}``; empty: none), and sends ``{"type":
    "deep"}`` when the button is clicked (:meth:`on_deep` registers the handler)."""

    _esm = (_HERE / "deeper.js").read_text(encoding="utf-8")
    _css = (_HERE / "deeper.css").read_text(encoding="utf-8")
    state = traitlets.Dict().tag(sync=True)
    progress = traitlets.Dict().tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._handlers: list[Callable[[], object]] = []
        self.on_msg(self._on_message)

    def on_deep(self, handler: Callable[[], object]) -> None:
        """Call ``handler()`` when the page asks for a deeper look."""
        self._handlers.append(handler)

    def _on_message(self, _widget: object, content: Any, _buffers: object) -> None:
        if isinstance(content, dict) and content.get("type") == "deep":
            for handler in self._handlers:
                handler()
