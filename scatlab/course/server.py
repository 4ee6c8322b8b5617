"""The course's Voilà server (``python -m scatlab.course.server LESSONS [options]``, started by
``scatlab serve``): Voilà's own application with what a classroom needs.

- ``/`` (and Voilà's file list, ``/voila/tree``) redirects to the course index
  (:data:`scatlab.course.app.INDEX`): the address is the course.
- Pages use the ``scatlab`` template (``share/voila/templates/scatlab`` beside this module):
  Voilà's ``lab`` page without the Font Awesome style sheets it fetches from a CDN, so a page
  requests nothing from outside the server.
- Closing a page shuts its kernel down at once: Voilà's page sends that request
  (``navigator.sendBeacon``) without the XSRF token the server asks for
  (voila-dashboards/voila#1458), so it got a 403 and the kernel waited to be culled. That
  one endpoint checks the request's origin instead (another site's page is refused); every
  other request keeps Voilà's checks, and culling stays for pages that vanish silently.
- Pages get warm kernels (:mod:`scatlab.course.kernels`): started and importing the
  lessons' modules before a page asks.
- Each page template is compiled once per server, not once per page load.
- A quiet log: at the default level only warnings an operator can act on; the lines every
  page load repeated ("Notebook ... is not trusted", "Kernel is running over TCP without
  encryption") are dropped. ``scatlab serve --debug`` shows everything.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path
from typing import Any

from .app import INDEX

__all__ = ["SHARE", "QUIET", "main"]

SHARE = Path(__file__).parent / "share"
"""The Jupyter data folder holding the ``scatlab`` Voilà template."""

QUIET = ("is not trusted", "running over TCP without encryption", "Voilà is running at", "Voila is running at",
         "Culling 'idle' kernel", "websocket_ping_timeout")
"""Log lines left out at the default level (each page load repeated them)."""


class _Quiet(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        return not any(q in message for q in QUIET)


def _compile_templates_once() -> None:
    """Voilà makes a new exporter, and with it a new Jinja environment, for every page, so
    the page's 14 templates were parsed and compiled again on each load (0.17 s). One
    in-memory bytecode cache shared by those environments compiles each template once per
    server (a changed template has a new checksum and is compiled again)."""
    import jinja2
    from voila.exporter import VoilaExporter

    if getattr(VoilaExporter, "_scatlab_cache", None) is not None:
        return

    class MemoryBytecodeCache(jinja2.BytecodeCache):
        def __init__(self) -> None:
            self.code: dict[str, bytes] = {}

        def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
            if bucket.key in self.code:
                bucket.bytecode_from_string(self.code[bucket.key])

        def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
            self.code[bucket.key] = bucket.bytecode_to_string()

    cache = MemoryBytecodeCache()
    built = VoilaExporter.environment

    def environment(self: Any) -> Any:
        env = built.fget(self)
        env.bytecode_cache = cache
        return env

    VoilaExporter.environment = property(environment)
    VoilaExporter._scatlab_cache = cache


def _course_app() -> Any:
    from tornado.web import HTTPError, RedirectHandler
    from voila.app import Voila
    from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler

    class ShutdownOnClose(VoilaShutdownKernelHandler):  # type: ignore[misc]
        """The page's own shutdown request, checked by origin (its beacon carries no token)."""

        def check_xsrf_cookie(self) -> None:
            if not self.check_origin():
                raise HTTPError(403, "shutdown from another origin")

    class Redirect(RedirectHandler):
        """A redirect that answers HEAD as GET (a link checker or a monitor asks with HEAD)."""

        def head(self, *args: Any) -> None:
            self.get(*args)

    class CourseVoila(Voila):  # type: ignore[misc]
        """Voilà, with ``/`` and ``/voila/tree`` sent to the course index."""

        def init_handlers(self) -> list[Any]:
            base = self.server_url.rstrip("/")
            index = f"{base}/voila/render/{INDEX}"
            redirects = [(f"{base}/?", Redirect, {"url": index}),
                         (f"{base}/voila/tree/?", Redirect, {"url": index})]
            handlers = [(h[0], ShutdownOnClose, *h[2:]) if h[1] is VoilaShutdownKernelHandler else h
                        for h in super().init_handlers()]
            prefill = getattr(self.kernel_manager, "prefill", None)
            if prefill is not None:  # warm kernels for the lessons' folder, once the loop runs
                from tornado.ioloop import IOLoop

                IOLoop.current().add_callback(prefill)
            return redirects + handlers

    return CourseVoila


def main(argv: list[str] | None = None) -> None:
    """Run the course server with Voilà's command-line options (``--debug`` for every log line)."""
    args = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args
    os.environ["JUPYTER_PATH"] = os.pathsep.join(p for p in (str(SHARE), os.environ.get("JUPYTER_PATH", "")) if p)
    _compile_templates_once()
    instance = _course_app().instance()
    instance.initialize(args)
    if not debug:  # on the app's logger, tornado's and every handler they write through
        quiet = _Quiet()
        loggers = [instance.log, *(logging.getLogger(n) for n in ("tornado.application", "tornado.general", ""))]
        for logger in loggers:
            logger.addFilter(quiet)
            for handler in logger.handlers:
                handler.addFilter(quiet)
    instance.start()


if __name__ == "__main__":
    main()
