"""The course's Voilà server (``python -m scatlab.app.server LESSONS [options]``, started by
``scatlab serve``): Voilà's own application with what a classroom needs.

- ``/`` (and Voilà's file list, ``/voila/tree``) redirects to the course index
  (:data:`scatlab.app.launch.INDEX`): the address is the course.
- Pages use the ``scatlab`` template (``share/voila/templates/scatlab`` beside this module):
  Voilà's ``lab`` page without the Font Awesome style sheets it fetches from a CDN, so a page
  requests nothing from outside the server.
- Closing a page shuts its kernel down at once: Voilà's page sends that request
  (``navigator.sendBeacon``) without the XSRF token the server asks for
  (voila-dashboards/voila#1458), so it got a 403 and the kernel waited to be culled. That
  one endpoint checks the request's origin instead (another site's page is refused); every
  other request keeps Voilà's checks, and culling stays for pages that vanish silently.
- Pages get warm kernels (:mod:`scatlab.app.kernel_pool`): started and importing the
  lessons' modules before a page asks.
- Each page template is compiled once per server, not once per page load.
- A quiet log: at the default level only warnings an operator can act on; the lines every
  page load repeated ("Notebook ... is not trusted", "Kernel is running over TCP without
  encryption") are dropped. ``scatlab serve --debug`` shows everything.
- A request whose head (address and headers) is longer than Tornado reads (64 kB) is
  answered ``414 URI Too Long`` or ``431 Request Header Fields Too Large`` with one plain
  line (Tornado closed such a connection without a word); other requests are not affected.
- A page whose kernel cannot start (or whose rendering fails) ends with one line the learner
  can read, "The lesson could not start; reload the page.", instead of waiting forever:
  Voilà 0.5.8 lost the error and kept the page open with heartbeats.
- Ctrl+C stops it quietly: the kernels are stopped at once
  (:meth:`scatlab.app.kernel_pool.WarmKernelManager.shutdown_all`), a second signal while
  they stop is ignored, and kernels are interrupted by a message, not a SIGINT (the kernel
  spec in ``share/kernels/python3``: jupyter_client interrupts every kernel before shutting
  it down, and a SIGINT killed a kernel still starting with a KeyboardInterrupt traceback on
  the console). No page interrupts its kernel. The spec also gives each kernel its limits
  (memory, CPU time per request: :mod:`scatlab.app.limits`) and runs numpy's BLAS on one
  thread (``OPENBLAS_NUM_THREADS=1``): the lessons' products are small, and with OpenBLAS's
  threads a kernel's warm-up took 1.3-1.7 s of CPU instead of 0.85-1.05 s, taken from the
  cores a page loading meanwhile needs; the figures are the same, bit for bit.
- A kernel whose page is still being rendered is never culled (:func:`page_rendering`):
  culling takes busy kernels too (``cull_busy``), and no page is connected yet.

The last five are also a Jupyter server extension (this module), for a learner's server under
JupyterHub: ``--ServerApp.jpserver_extensions=scatlab.app.server=True``
(``scatlab.classroom.hub.singleuser_args`` passes it). There it also moves the kernels'
connection files to a private folder in the temporary folder when the learner's runtime
folder is too deep for a Unix socket's path (107 bytes): kernels listen on Unix sockets
(``KernelManager.transport=ipc``, :func:`scatlab.app.launch.voila_options`).

And there it makes the server answer what a lesson page asks for and nothing else. A
learner has a browser and the hub's cookie for their own server; a Jupyter server answers
that cookie with its whole REST API: kernels started at will (``POST /api/kernels``,
``/api/sessions``), its config written to the learner's home (``PATCH /api/config/...``), the
lessons' source read (``/files/...``, ``/api/contents/...?content=1``, ``/nbconvert``), and
JupyterLab's or the terminals' pages when they are installed.

- **Only a page's requests** (:data:`PAGE_ROUTES`, found with a real page in Chromium and
  from JupyterHub's own requests): the page (``voila/render/...``), Voilà's static files and
  the lessons' images, the page's kernel (``GET api/kernels/ID``, and its websocket
  ``api/kernels/ID/channels``, which passes widget messages only), the page's shutdown
  beacon (``POST voila/api/shutdown/ID``), and the hub's check that the server is up
  (``GET api``), its login callback and logout, and the server's address (a redirect to the
  course). Everything else is refused, 403 and one line (:data:`REFUSED`), by a rule placed
  before all of the server's own, whatever extensions it has (checked with JupyterLab and
  terminals left on). Applied wherever the extension is loaded: it is for a learner's
  server. ``scatlab serve`` is Voilà's own application, whose only routes are a page's
  already (no kernel creation, sessions, config, files or contents), and keeps them.
- **At most** :data:`KERNELS_PER_LEARNER` **(4) kernels at once**: each open lesson page
  holds one; a page opened past that gets ``429`` and one line (:data:`PAGE_TOO_MANY`)
  instead of a kernel, once it has waited 3 s for one to end (a page replacing another in
  its tab asks before the other's beacon has shut its kernel down). Starts under way count,
  so twenty tabs opened together get four kernels. ``SCATLAB_KERNELS_PER_LEARNER`` changes it.
- **A closed page's kernel stops at once**: the page's shutdown beacon is checked by origin
  here too (it got 403 and its kernel waited to be culled, taking one of the four places).
"""

from __future__ import annotations

import asyncio
import atexit
import html
import logging
import os
import re
import shutil
import socket
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from tornado.httpserver import HTTPServer
from tornado.iostream import IOStream, UnsatisfiableReadError
from tornado.web import HTTPError

from ..course.lessons import INDEX

__all__ = [
    "SHARE",
    "QUIET",
    "HEAD_LIMIT",
    "PAGE_FAILED",
    "PAGE_BROKEN",
    "PAGE_TOO_MANY",
    "PAGE_ROUTES",
    "REFUSED",
    "KERNEL_ID",
    "KERNELS_PER_LEARNER",
    "KERNELS_ENV",
    "CourseHTTPServer",
    "KernelLimit",
    "kernel_limit_reached",
    "ipc_fits",
    "install",
    "page_request",
    "page_rendering",
    "skip_iri_checker",
    "main",
    "singleuser",
]

SHARE = Path(__file__).parent / "share"
"""The Jupyter data folder holding the ``scatlab`` Voilà template."""

QUIET = (
    "is not trusted",
    "running over TCP without encryption",
    "Voilà is running at",
    "Voila is running at",
    "Culling 'idle' kernel",
    "websocket_ping_timeout",
)
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


HEAD_LIMIT = 65536
"""The longest request head (request line and headers, in bytes) the server reads: Tornado's
``max_header_size`` default, kept."""

_LINGER_SECONDS = 2.0
_LINGER_BYTES = 1 << 26
_access_log = logging.getLogger("tornado.access")
_hang_ups: set[asyncio.Task[None]] = set()


def _refusal(status: int, line: str) -> bytes:
    """A complete HTTP/1.1 response that closes the connection, with ``line`` as its body.

    >>> _refusal(414, "Too long.").split(b"\\r\\n")[0]
    b'HTTP/1.1 414 URI Too Long'
    """
    reason = {414: "URI Too Long", 431: "Request Header Fields Too Large"}[status]
    body = (line + "\n").encode()
    return (
        f"HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\nCache-Control: no-store\r\n\r\n"
    ).encode() + body


async def _answer_and_hang_up(sock: socket.socket, response: bytes) -> None:
    """Send ``response`` on a connection Tornado gave up on, then read and drop what the client
    still sends (the rest of its request) for a moment before closing: closing a socket with
    unread data resets the connection, and a reset can destroy the answer before the client
    reads it."""
    loop = asyncio.get_running_loop()
    try:
        await asyncio.wait_for(loop.sock_sendall(sock, response), _LINGER_SECONDS)
        sock.shutdown(socket.SHUT_WR)
        deadline, drained = loop.time() + _LINGER_SECONDS, 0
        while drained < _LINGER_BYTES and loop.time() < deadline:
            data = await asyncio.wait_for(loop.sock_recv(sock, 65536), deadline - loop.time())
            if not data:
                break
            drained += len(data)
    except (OSError, TimeoutError):
        pass
    finally:
        sock.close()


class _AnsweringStream(IOStream):
    """The stream of one server connection. When a request's head is longer than
    :data:`HEAD_LIMIT`, Tornado's stream closes the connection without a word (it cannot
    find the head's end within the bytes it may read); this one answers first, ``414`` when
    the request line alone is too long, ``431`` when the headers are."""

    def __init__(self, sock: socket.socket, address: Any, **kwargs: Any) -> None:
        super().__init__(sock, **kwargs)
        self._address = address
        self._reading_head = False

    def read_until_regex(self, regex: bytes, max_bytes: int | None = None) -> Any:
        self._reading_head = True  # on a server connection: only the request's head
        return super().read_until_regex(regex, max_bytes)

    def read_until(self, delimiter: bytes, max_bytes: int | None = None) -> Any:
        self._reading_head = False  # a chunk of a request's body
        return super().read_until(delimiter, max_bytes)

    def close_fd(self) -> None:
        if not (self._reading_head and isinstance(self.error, UnsatisfiableReadError)):
            super().close_fd()
            return
        head = bytes(getattr(self, "_read_buffer", b"")[:HEAD_LIMIT])
        line_too_long = b"\n" not in head
        status, what = (414, "line") if line_too_long else (431, "headers")
        text = (
            f"This page's address is too long (over {HEAD_LIMIT // 1024} kB); open the course from its first page."
            if line_too_long
            else f"This request's headers are too long (over {HEAD_LIMIT // 1024} kB); clear this site's cookies "
            "and reload the page."
        )
        start = "".join(chr(b) if 32 <= b < 127 else "?" for b in head.split(b"\n", 1)[0].rstrip(b"\r")[:80])
        client = self._address[0] if isinstance(self._address, tuple) and self._address else self._address
        _access_log.warning("%d %s... (%s): request %s longer than %d bytes", status, start, client, what, HEAD_LIMIT)
        sock, self.socket = self.socket, None  # type: ignore[assignment]  # handed over, not closed
        task = asyncio.ensure_future(_answer_and_hang_up(sock, _refusal(status, text)))
        _hang_ups.add(task)
        task.add_done_callback(_hang_ups.discard)


class CourseHTTPServer(HTTPServer):
    """Tornado's HTTP server, whose connections answer an over-long request head
    (:class:`_AnsweringStream`) instead of dropping it. Installed for the whole process with
    ``HTTPServer.configure`` (:func:`install`), so that Voilà's ``app.listen`` and Jupyter
    server's ``HTTPServer(...)`` both make one."""

    def handle_stream(self, stream: IOStream, address: tuple[Any, ...]) -> None:
        if type(stream) is IOStream:  # a plain connection (not TLS): nothing has been read yet
            stream = _AnsweringStream(
                stream.socket,
                address,
                max_buffer_size=stream.max_buffer_size,
                read_chunk_size=stream.read_chunk_size,
                max_write_buffer_size=stream.max_write_buffer_size,
            )
        super().handle_stream(stream, address)


_rendering: set[str] = set()
"""The kernels whose page is being rendered now (:func:`_end_failed_pages` keeps it)."""


def page_rendering(kernel_id: str) -> bool:
    """Whether ``kernel_id``'s page is still being rendered (its cells running): such a
    kernel is never culled, however long a cell takes, even though no page is connected to
    it yet (busy kernels are culled: ``MappingKernelManager.cull_busy``)."""
    return kernel_id in _rendering


PAGE_FAILED = "The lesson could not start; reload the page."
"""The line a page ends with when its kernel did not start."""

PAGE_BROKEN = "The lesson could not be shown in full; reload the page."
"""The line a page ends with when its rendering failed after its kernel started."""


def _page_end(line: str) -> str:
    """The HTML a failed page ends with: ``line``, where Voilà's spinner was."""
    return (
        f'<p class="scatlab-page-failed" role="alert" style="font: 1.25em sans-serif; '
        f'text-align: center; margin: 4em 1em">{html.escape(line)}</p>\n'
        "<script>(function () {\n"
        '  var note = document.querySelector(".scatlab-page-failed"), spinner = document.getElementById("loading");\n'
        "  if (spinner) { spinner.replaceWith(note); } else { document.body.prepend(note); }\n"
        "})();</script>\n"
    )


def _end_failed_pages() -> None:
    """Make a page whose rendering raises end with one line instead of hanging.

    Voilà 0.5.8 renders a page in a background task (``VoilaHandler.get_generator``'s
    ``put_html``) that hands each piece of HTML to the request through a queue and a last
    ``None`` when done. An error there (a kernel that died before answering ``kernel_info``:
    "Kernel died before replying to kernel_info") ended the task without that ``None``, and the
    request sent a heartbeat every 10 s forever. The renderer's pieces now end, on an error,
    with :data:`PAGE_FAILED` (or :data:`PAGE_BROKEN`), and a kernel that never started is
    shut down."""
    from jupyter_server.utils import ensure_async
    from voila.notebook_renderer import NotebookRenderer

    if getattr(NotebookRenderer, "_scatlab_ends_failed_pages", False):
        return
    generate = NotebookRenderer.generate_content_generator

    async def ending(renderer: Any, pieces: AsyncIterator[Any], kernel_id: str | None) -> AsyncIterator[Any]:
        if kernel_id is not None:
            _rendering.add(kernel_id)
        try:
            async for piece in pieces:
                yield piece
        except Exception as exc:  # noqa: BLE001 - the request must end, whatever went wrong
            started = bool(getattr(renderer, "kernel_started", False))
            renderer.log.warning(
                "A page of %s ended early: %s (%s)",
                getattr(renderer, "notebook_path", "?"),
                "its kernel did not start" if not started else "its rendering failed",
                exc,
            )
            if not started and kernel_id is not None:
                try:
                    manager = renderer.request_handler.kernel_manager
                    if kernel_id in manager:
                        await ensure_async(manager.shutdown_kernel(kernel_id, now=True))
                except Exception as shutdown_error:  # noqa: BLE001 - already gone: nothing to free
                    renderer.log.debug("kernel %s not shut down: %s", kernel_id, shutdown_error)
            yield (_page_end(PAGE_BROKEN if started else PAGE_FAILED), None)
        finally:
            if kernel_id is not None:
                _rendering.discard(kernel_id)

    def generate_content_generator(self: Any, kernel_id: str | None = None, kernel_future: Any = None) -> Any:
        return ending(self, generate(self, kernel_id, kernel_future), kernel_id)

    NotebookRenderer.generate_content_generator = generate_content_generator
    NotebookRenderer._scatlab_ends_failed_pages = True


_KERNEL_SOCKET = "kernel-00000000-0000-0000-0000-000000000000-ipc-99"
"""The longest name of a kernel's Unix socket (``KernelManager.transport=ipc``): the
connection file's name, ``-ipc-`` and the channel's number."""


def ipc_fits(folder: str) -> bool:
    """Whether a kernel's Unix sockets in ``folder`` have paths ZeroMQ can bind (107 bytes
    on Linux): a learner's runtime folder under a deep home does not.

    >>> ipc_fits("/tmp/voila_abcdefgh"), ipc_fits("/srv/class/learners/" + "a" * 39 + "/.local/share/jupyter/runtime")
    (True, False)
    """
    import zmq

    limit = getattr(zmq, "IPC_PATH_MAX_LEN", 0) or 103
    return len(os.fsencode(os.path.join(folder, _KERNEL_SOCKET))) <= limit


def _short_root() -> str:
    """A folder to make a private folder in whose kernel sockets fit: the temporary folder,
    or ``/tmp`` when ``$TMPDIR`` is too deep."""
    root = tempfile.gettempdir()
    return root if ipc_fits(os.path.join(root, "scatlab-kernels-abcdefgh")) or not os.path.isdir("/tmp") else "/tmp"


def install() -> None:
    """Install the answers above in this process, before its HTTP server is made: over-long
    request heads get 414/431, failed pages end with a line."""
    HTTPServer.configure(CourseHTTPServer)
    _end_failed_pages()


# -- a learner's server: what a page needs, and no more ---------------------------------------

KERNEL_ID = r"\w+-\w+-\w+-\w+-\w+"
"""A kernel's id in an address (Jupyter server's own pattern)."""

_READ = frozenset({"GET", "HEAD"})

PAGE_ROUTES: tuple[tuple[frozenset[str], str], ...] = (
    (_READ, r""),  # the server's address: a redirect to the course index (the hub's default URL)
    (_READ, r"api"),  # the server's version: the hub asks it to know the server has started
    (_READ, r"oauth_callback|logout"),  # logging in through the hub, and out
    (_READ, r"voila/render/.*"),  # a lesson page
    (_READ, r"voila/(static|templates|labextensions|api/themes)/.*"),  # its scripts, styles and fonts
    (_READ, r"voila/files/.*"),  # the lessons' images (Voilà serves images only: file_allowlist)
    (_READ, rf"api/kernels/{KERNEL_ID}"),  # the page's kernel, as the page's script reads it once
    (_READ, rf"api/kernels/{KERNEL_ID}/channels"),  # the page's kernel websocket (widget messages only)
    (frozenset({"POST"}), rf"voila/api/shutdown/{KERNEL_ID}"),  # a closed page's beacon: shut its kernel down
)
"""Every request a lesson page makes, as (methods, path after the server's base URL), found
with a real page in Chromium (the page, its static files, its kernel's model and websocket,
the shutdown beacon) and from JupyterHub (its check that the server is up, the login's
callback). A learner's server answers these and refuses every other request (403)."""

REFUSED = "This server only serves the course's pages."
"""The one line a refused request gets (403)."""

KERNELS_PER_LEARNER = 4
"""How many kernels a learner's server runs at once: each open lesson page holds one (a
closed page's kernel is shut down by the page's beacon, else culled within a minute)."""

KERNELS_ENV = "SCATLAB_KERNELS_PER_LEARNER"
"""Changes :data:`KERNELS_PER_LEARNER` for a server (``0``: no limit)."""

PAGE_TOO_MANY = "Too many lessons are open at once; close one, then reload this page."
"""The line a page ends with when the server already runs :data:`KERNELS_PER_LEARNER` kernels."""


def page_request(method: str, path: str, base_url: str = "/") -> bool:
    """Whether a request (``method``, ``path`` as requested, without the query) is one a
    lesson page makes (:data:`PAGE_ROUTES`), under the server's ``base_url``.

    >>> page_request("GET", "/user/ada/voila/render/01-the-game.ipynb", "/user/ada/")
    True
    >>> page_request("POST", "/user/ada/api/kernels", "/user/ada/")
    False
    >>> page_request("GET", "/user/ada/files/x", "/user/ada/")
    False
    >>> page_request("GET", "/user/bob/api", "/user/ada/"), page_request("GET", "/user/ada", "/user/ada/")
    (False, True)

    A page never asks for an empty, ``.`` or ``..`` part of a path, nor a dot, slash or
    backslash written as ``%XX``; such an address is refused whatever it names:

    >>> page_request("GET", "/voila/render/../api/sessions"), page_request("GET", "/voila/files/%2E%2E%2Fx.png")
    (False, False)
    """
    if path == base_url.rstrip("/"):
        rest = ""
    elif path.startswith(base_url):
        rest = path[len(base_url) :]
    else:
        return False
    if rest and ({"", ".", ".."} & set(rest.split("/")) or re.search(r"%(2e|2f|5c)", rest, re.IGNORECASE)):
        return False
    return any(method in methods and re.fullmatch(pattern, rest) for methods, pattern in PAGE_ROUTES)


def kernel_limit_reached(limit: int) -> HTTPError:
    """A kernel start refused (429): the server already runs its :data:`KERNELS_PER_LEARNER`
    kernels. The error's ``kernel_limit`` is ``limit``."""
    error = HTTPError(429, "%d kernels are running, the most a learner's server runs at once", limit)
    error.kernel_limit = limit  # type: ignore[attr-defined]
    return error


class KernelLimit:
    """Stands in for a kernel manager's ``start_kernel``: refuses a start
    (:func:`kernel_limit_reached`) while ``limit`` kernels run or are starting, after waiting
    ``wait`` seconds for one to end (a page that replaces another in its tab asks for its
    kernel before the other page's beacon has shut the old one down). Counts the starts
    under way, so that twenty pages opened at once get ``limit`` kernels."""

    def __init__(self, manager: Any, limit: int, wait: float = 3.0) -> None:
        self.manager, self.limit, self.wait = manager, limit, wait
        self.start = manager.start_kernel
        self.starting = 0

    async def __call__(self, *args: Any, **kwargs: Any) -> Any:
        deadline = time.monotonic() + self.wait
        while len(self.manager.list_kernel_ids()) + self.starting >= self.limit:
            if time.monotonic() >= deadline:
                raise kernel_limit_reached(self.limit)
            await asyncio.sleep(0.1)
        self.starting += 1  # at once after the count: no other start can come in between
        try:
            return await self.start(*args, **kwargs)
        finally:
            self.starting -= 1


def _refusal_page(line: str) -> str:
    """A whole page that is only ``line`` (for a page that cannot start)."""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>scatlab</title></head><body>\n'
        f"{_page_end(line)}</body></html>\n"
    )


def _answer_kernel_limit() -> None:
    """A page the kernel limit refuses gets 429 and one line (:data:`PAGE_TOO_MANY`): Voilà
    starts the page's kernel before it writes anything, so the error would have been a 500."""
    from voila.handler import VoilaHandler

    if getattr(VoilaHandler, "_scatlab_kernel_limit", False):
        return
    generator = VoilaHandler.get_generator

    async def get_generator(self: Any, path: str | None = None) -> AsyncIterator[str]:
        try:
            async for piece in generator(self, path=path):
                yield piece
        except HTTPError as exc:
            limit = getattr(exc, "kernel_limit", None)
            if limit is None:
                raise
            self.log.warning(
                "A page of %s refused: %d kernels are running, the most a learner's server runs at once", path, limit
            )
            if not self._headers_written:
                self.set_status(429)
            yield _refusal_page(PAGE_TOO_MANY)

    VoilaHandler.get_generator = get_generator
    VoilaHandler._scatlab_kernel_limit = True


def _shutdown_by_origin(handler: Any) -> None:
    """The check a page's shutdown beacon gets instead of the XSRF token it cannot carry
    (voila-dashboards/voila#1458): the request's origin is this server's. Tornado's own
    early call, before the user is known, is skipped: Jupyter server checks again once it is."""
    if not hasattr(handler, "_jupyter_current_user"):
        return
    if not handler.check_origin():
        raise HTTPError(403, "shutdown from another origin")


def _page_routes_only(serverapp: Any) -> None:
    """Refuse (403, :data:`REFUSED`) every request that is not a page's
    (:func:`page_request`): a rule before all of the server's own."""
    from tornado.routing import Matcher, Rule
    from tornado.web import RequestHandler

    web_app = serverapp.web_app
    base_url = web_app.settings.get("base_url", "/")

    class NotAPage(Matcher):
        def match(self, request: Any) -> dict[str, Any] | None:
            return None if page_request(request.method or "", request.path, base_url) else {}

    class Refuse(RequestHandler):
        SUPPORTED_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")

        def check_xsrf_cookie(self) -> None:  # refused whatever it carries
            pass

        def prepare(self) -> None:
            self.write_error(403)

        def write_error(self, status_code: int, **kwargs: Any) -> None:
            self.set_status(status_code)
            self.set_header("Content-Type", "text/plain; charset=utf-8")
            self.set_header("Cache-Control", "no-store")
            self.set_header("X-Content-Type-Options", "nosniff")
            self.finish(REFUSED + "\n")

    router = web_app.default_router
    router.rules.insert(0, router.process_rule(Rule(NotAPage(), Refuse)))


def _limit_kernels(serverapp: Any) -> None:
    """At most :data:`KERNELS_PER_LEARNER` kernels (or ``$SCATLAB_KERNELS_PER_LEARNER``); a
    page being rendered is never culled (:func:`page_rendering`)."""
    manager = serverapp.kernel_manager
    try:
        limit = int(os.environ.get(KERNELS_ENV) or KERNELS_PER_LEARNER)
    except ValueError:
        limit = KERNELS_PER_LEARNER
    if limit > 0:
        manager.start_kernel = KernelLimit(manager, limit)
    cull = manager.cull_kernel_if_idle

    async def cull_kernel_if_idle(kernel_id: str) -> None:
        if not page_rendering(kernel_id):
            await cull(kernel_id)

    manager.cull_kernel_if_idle = cull_kernel_if_idle


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    """This module as a Jupyter server extension (a learner's server under JupyterHub)."""
    return [{"module": "scatlab.app.server"}]


def _voila_reads_the_command_line(serverapp: Any) -> None:
    """Voilà's server extension reads its ``VoilaConfiguration`` from ``voila.json`` files
    only (``voila.server_extension.load_config_file``), not from the server's command line,
    so a learner's server ran Voilà's ``lab`` template, with its links to a CDN, whatever
    ``--VoilaConfiguration.template`` said. The server's own ``VoilaConfiguration`` settings
    are merged over the files' here (the command line wins, as everywhere else); this
    extension loads before Voilà's."""
    import voila.server_extension as extension
    from traitlets.config import Config

    if getattr(extension.load_config_file, "_scatlab", False):
        return
    files = extension.load_config_file
    given = serverapp.config.get("VoilaConfiguration")

    def load_config_file() -> Config:
        config: Config = files()
        if given:
            config.merge(Config({"VoilaConfiguration": given}))
        return config

    load_config_file._scatlab = True  # type: ignore[attr-defined]
    extension.load_config_file = load_config_file


def _load_jupyter_server_extension(serverapp: Any) -> None:
    """Loaded before the server makes its HTTP server (jupyter_server 2: ``load_server_extensions``
    runs before ``init_httpserver``), so the server is a :class:`CourseHTTPServer`; after it
    made its web application and kernel manager, which are changed here."""
    from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler

    install()
    _compile_templates_once()
    _voila_reads_the_command_line(serverapp)
    _page_routes_only(serverapp)
    _limit_kernels(serverapp)
    _answer_kernel_limit()
    VoilaShutdownKernelHandler.check_xsrf_cookie = _shutdown_by_origin
    serverapp.log.info(
        "scatlab: over-long requests are answered; failed pages end with a line; page templates "
        "compiled once; only a page's requests are answered; at most %s kernels",
        os.environ.get(KERNELS_ENV) or KERNELS_PER_LEARNER,
    )
    kernels = getattr(serverapp, "kernel_manager", None)
    if kernels is not None and not ipc_fits(kernels.connection_dir):
        # the server's runtime folder (under the learner's home) is too deep for the kernels'
        # Unix sockets: a private folder of its own (mode 700), removed when the server exits
        folder = tempfile.mkdtemp(prefix="scatlab-kernels-", dir=_short_root())
        atexit.register(shutil.rmtree, folder, True)
        serverapp.log.info(
            "scatlab: kernel connection files in %s (%s is too deep for Unix sockets)", folder, kernels.connection_dir
        )
        kernels.connection_dir = folder


def _course_app() -> Any:
    from tornado.web import RedirectHandler
    from voila.app import Voila
    from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler

    class ShutdownOnClose(VoilaShutdownKernelHandler):  # type: ignore[misc]
        """The page's own shutdown request, checked by origin (its beacon carries no token)."""

        def check_xsrf_cookie(self) -> None:
            _shutdown_by_origin(self)

    class Redirect(RedirectHandler):
        """A redirect that answers HEAD as GET (a link checker or a monitor asks with HEAD)."""

        def head(self, *args: Any) -> None:
            self.get(*args)

    class CourseVoila(Voila):  # type: ignore[misc]
        """Voilà, with ``/`` and ``/voila/tree`` sent to the course index, that stops without
        a traceback."""

        def stop(self) -> None:
            """Shut the kernels down; a second Ctrl+C or ``kill`` meanwhile is ignored (it
            interrupted the shut-down with a KeyboardInterrupt traceback and left kernels)."""
            import signal

            for signum in (signal.SIGINT, signal.SIGTERM):
                signal.signal(signum, signal.SIG_IGN)
            super().stop()

        def init_handlers(self) -> list[Any]:
            base = self.server_url.rstrip("/")
            index = f"{base}/voila/render/{INDEX}"
            redirects = [(f"{base}/?", Redirect, {"url": index}), (f"{base}/voila/tree/?", Redirect, {"url": index})]
            handlers = [
                (h[0], ShutdownOnClose, *h[2:]) if h[1] is VoilaShutdownKernelHandler else h
                for h in super().init_handlers()
            ]
            prefill = getattr(self.kernel_manager, "prefill", None)
            if prefill is not None:  # warm kernels for the lessons' folder, once the loop runs
                from tornado.ioloop import IOLoop

                IOLoop.current().add_callback(prefill)
            return redirects + handlers

    return CourseVoila


def skip_iri_checker() -> None:
    """Start a server about 0.9 s of CPU sooner: keep ``jsonschema`` from importing
    ``rfc3987_syntax``, which compiles some 35 Lark parsers for the ``iri`` format at import
    (jupyter-server/jupyter_server#1559, python-jsonschema/jsonschema#1428). No schema a
    Jupyter server or Voilà validates uses that format, and ``jsonschema`` leaves it unchecked
    when the module is missing. Call it before anything imports ``jsonschema``; without
    effect once something has.

    >>> import subprocess, sys
    >>> code = ("from scatlab.app.server import skip_iri_checker; skip_iri_checker(); "
    ...         "import jsonschema._format as f; print('iri' in f.draft7_format_checker.checkers)")
    >>> subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip()
    'False'
    """
    sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[arg-type]  # import then raises ImportError


def singleuser() -> None:
    """A learner's server under JupyterHub (``python -m scatlab.app.server --singleuser ...``,
    the hub config's ``Spawner.cmd``): ``jupyterhub-singleuser`` with :func:`skip_iri_checker`,
    so that a class logging in at once starts its servers sooner."""
    skip_iri_checker()
    from jupyterhub.singleuser import main as singleuser_main

    singleuser_main()


def main(argv: list[str] | None = None) -> None:
    """Run the course server with Voilà's command-line options (``--debug`` for every log line)."""
    skip_iri_checker()
    args = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args
    os.environ["JUPYTER_PATH"] = os.pathsep.join(p for p in (str(SHARE), os.environ.get("JUPYTER_PATH", "")) if p)
    _compile_templates_once()
    install()
    instance = _course_app().instance()
    instance.initialize(args)
    if not ipc_fits(os.path.join(instance.connection_dir_root, "voila_abcdefgh")):  # Voilà's private folder in it
        instance.connection_dir_root = _short_root()
    if not debug:  # on the app's logger, tornado's and every handler they write through
        quiet = _Quiet()
        loggers = [instance.log, *(logging.getLogger(n) for n in ("tornado.application", "tornado.general", ""))]
        for logger in loggers:
            logger.addFilter(quiet)
            for handler in logger.handlers:
                handler.addFilter(quiet)
    try:
        instance.start()
    except KeyboardInterrupt:  # Ctrl+C before Voilà's loop ran (it catches its own once it runs)
        pass


if __name__ == "__main__":
    if sys.argv[1:2] == ["--singleuser"]:
        del sys.argv[1]
        singleuser()
    else:
        main()
