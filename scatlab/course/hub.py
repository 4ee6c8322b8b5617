"""The course for a class on JupyterHub: what ``deploy/jupyterhub_config.py`` uses.

- :class:`ClassCodeAuthenticator`: a learner logs in with any name and the class code the
  teacher set; the teacher (an admin user named in the config) with the teacher's code.
  Names are normalised (:func:`normalize_name`), so "Ada Lovelace" and "ada-lovelace" are
  one learner.
- :func:`singleuser_args`: the Voilà settings of :func:`scatlab.course.app.voila_options`
  that apply to a learner's single-user server, where Voilà runs as a server extension, and
  the course's own server extension (:mod:`scatlab.course.server`).
- :class:`ReadOnlyContents`: the single-user server's files API cannot write, so a learner
  cannot change the lessons their pages run.
- :class:`LocalHub`: a class hub on this machine in a folder of its own, started and stopped
  from Python (the class's browser test and ``benchmarks/bench_class.py`` run it).

>>> normalize_name("  Ada Lovelace ")
'ada-lovelace'
>>> normalize_name("Zoë_2")
'zoë_2'
>>> normalize_name("../root") is None
True
>>> "--VoilaConfiguration.strip_sources=True" in singleuser_args()
True
>>> any(a.startswith(("--port", "--Voila.", "--no-browser")) for a in singleuser_args())
False
>>> "--KernelManager.transport=ipc" in singleuser_args() and singleuser_args()[-1] == SERVER_EXTENSION
True
"""

from __future__ import annotations

import hmac
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .app import voila_options

__all__ = ["NAME_PATTERN", "SERVER_EXTENSION", "normalize_name", "singleuser_args", "ClassCodeAuthenticator", "ReadOnlyContents", "LocalHub"]

NAME_PATTERN = re.compile(r"^[^\W_][\w.-]{0,38}$")
"""A learner's name once normalised: a letter or digit first, then letters, digits, ``_``, ``.``
or ``-``; at most 39 characters (it is part of URLs and folder names)."""

# Voilà's own application flags with no meaning inside a Jupyter server, and scatlab serve's
# warm kernels and their quick client (in a class, thirty servers warming kernels kept both
# cores busy, and the quick client's polling of starting kernels made pages slower under that
# load: docs/deploying.md)
_NOT_IN_A_SERVER = ("--port", "--Voila.", "--no-browser", "--debug",
                    "--VoilaConfiguration.multi_kernel_manager_class", "--ServerKernelManager.client_factory")


def normalize_name(name: str) -> str | None:
    """A learner's name as the hub stores it, or ``None`` when it cannot be one: trimmed,
    lower case, runs of spaces made one ``-``."""
    cleaned = re.sub(r"\s+", "-", name.strip().lower())
    return cleaned if NAME_PATTERN.match(cleaned) and ".." not in cleaned else None


SERVER_EXTENSION = "--ServerApp.jpserver_extensions=scatlab.course.server=True"
"""What :mod:`scatlab.course.server` adds to Voilà, loaded into a learner's server as a server
extension: an over-long request is answered 414/431, a page whose kernel did not start ends
with one line."""


def singleuser_args() -> list[str]:
    """``voila_options`` without what only Voilà's own application understands, and the
    course's server extension (:data:`SERVER_EXTENSION`)."""
    return [*(a for a in voila_options(0, "127.0.0.1") if not a.startswith(_NOT_IN_A_SERVER)), SERVER_EXTENSION]


def _authenticator_base() -> Any:
    from jupyterhub.auth import Authenticator

    return Authenticator


def _contents_base() -> Any:
    from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager

    return AsyncLargeFileManager


try:
    _Authenticator = _authenticator_base()
except ImportError:  # the hub's extra is not installed: the module still imports (docs, doctests)
    _Authenticator = object
try:
    _Contents = _contents_base()
except ImportError:
    _Contents = object


def _same(given: str, expected: str) -> bool:
    return bool(expected) and hmac.compare_digest(given.encode(), expected.encode())


class ClassCodeAuthenticator(_Authenticator):  # type: ignore[misc, valid-type]
    """Any name with the class code logs in as a learner; an admin name needs the teacher's
    code. With no class code set nobody logs in (not even with an empty code).

    Configured as ``c.ClassCodeAuthenticator.class_code`` and ``.teacher_code`` (the config
    reads them from ``SCATLAB_CLASS_CODE`` and ``SCATLAB_TEACHER_CODE``), and the teacher's
    name in ``c.Authenticator.admin_users``.
    """

    from traitlets import Bool, Unicode

    class_code = Unicode("", config=True, help="The code every learner types to log in.")
    teacher_code = Unicode("", config=True, help="The code an admin user (the teacher) logs in with.")
    allow_all = Bool(True, config=True, help="Anyone with the class code may log in (that is the point).")
    del Bool, Unicode

    login_service = ""

    def normalize_username(self, username: str) -> str:
        return normalize_name(username) or ""

    def validate_username(self, username: str) -> bool:
        return normalize_name(username) == username

    async def authenticate(self, handler: Any, data: dict[str, str]) -> str | None:
        name = normalize_name(data.get("username", ""))
        code = data.get("password", "")
        if name is None:
            self.log.warning("Refused a login: %r is not a name a learner can have", data.get("username", "")[:40])
            return None
        expected = self.teacher_code if name in self.admin_users else self.class_code
        if not _same(code, expected):
            self.log.warning("Refused a login as %s: wrong %s code", name,
                             "teacher's" if name in self.admin_users else "class")
            return None
        return name


class ReadOnlyContents(_Contents):  # type: ignore[misc, valid-type]
    """The server's files API, reading only: saving, renaming, deleting, creating, and
    checkpoints are refused (403)."""

    def _refuse(self, *_args: Any, **_kwargs: Any) -> Any:
        from tornado.web import HTTPError

        raise HTTPError(403, "the course's files are read-only")

    async def save(self, model: dict[str, Any], path: str = "") -> Any:
        return self._refuse()

    async def delete_file(self, path: str) -> Any:
        return self._refuse()

    async def rename_file(self, old_path: str, new_path: str) -> Any:
        return self._refuse()

    async def new(self, model: dict[str, Any] | None = None, path: str = "") -> Any:
        return self._refuse()

    async def new_untitled(self, path: str = "", type: str = "", ext: str = "") -> Any:
        return self._refuse()

    async def copy(self, from_path: str, to_path: str | None = None) -> Any:
        return self._refuse()

    async def create_checkpoint(self, path: str) -> Any:
        return self._refuse()

    async def restore_checkpoint(self, checkpoint_id: str, path: str) -> Any:
        return self._refuse()


class LocalHub:
    """A class hub on this machine, as ``make class`` runs it (``deploy/jupyterhub_config.py``
    with ``configurable-http-proxy`` from ``deploy/node_modules``), in a class folder of its
    own: what the class's browser test and ``benchmarks/bench_class.py`` start, and a
    teacher's trial run.

    ``folder`` is the class folder (``SCATLAB_CLASS_DIR``); the hub listens on 127.0.0.1:``port``
    and uses the next four ports (the proxy's API, the hub's API, the dashboard, the class's
    PostgreSQL). ``env`` adds settings (``SCATLAB_CULL_IDLE``...). Use it as a context
    manager: the hub is up inside, and afterwards it, the learners' servers, the proxy and the
    class's PostgreSQL are stopped.

    >>> hub = LocalHub(Path("/tmp/class"), 8000, class_code="blue-cat", teacher_code="t-7")
    >>> hub.url
    'http://127.0.0.1:8000'
    """

    def __init__(self, folder: Path, port: int, *, class_code: str, teacher_code: str,
                 teacher: str = "teacher", env: Mapping[str, str] | None = None) -> None:
        self.folder, self.port = Path(folder), port
        self.class_code, self.teacher_code, self.teacher = class_code, teacher_code, teacher
        self.url = f"http://127.0.0.1:{port}"
        self.log = self.folder / "hub.log"
        self.extra_env = dict(env or {})
        self.process: subprocess.Popen[bytes] | None = None

    @staticmethod
    def config() -> Path:
        """``deploy/jupyterhub_config.py`` of this checkout."""
        return Path(__file__).resolve().parents[2] / "deploy" / "jupyterhub_config.py"

    def log_text(self, tail: int = 4000) -> str:
        """The end of the hub's log (its learners' servers log there too)."""
        return self.log.read_text(errors="replace")[-tail:] if self.log.is_file() else ""

    def start(self, timeout: float = 30) -> LocalHub:
        """Start the hub and wait until its API answers; a RuntimeError with the log's end if
        it exits or does not answer within ``timeout`` seconds."""
        import urllib.error
        import urllib.request

        self.folder.mkdir(parents=True, exist_ok=True)
        self.folder.chmod(0o755)  # as root, the class's PostgreSQL runs as postgres, who must reach its folder
        bindir = str(Path(sys.executable).parent)
        env = {**os.environ, "SCATLAB_CLASS_DIR": str(self.folder), "SCATLAB_HUB_PORT": str(self.port),
               "SCATLAB_CLASS_CODE": self.class_code, "SCATLAB_TEACHER_CODE": self.teacher_code,
               "SCATLAB_TEACHER": self.teacher, **self.extra_env}
        env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
        with self.log.open("w") as out:
            self.process = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", str(self.config())],
                                            cwd=self.folder, env=env, stdout=out, stderr=subprocess.STDOUT,
                                            start_new_session=True)
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"the hub exited ({self.process.returncode}):\n{self.log_text()}")
            try:
                with urllib.request.urlopen(f"{self.url}/hub/api", timeout=2) as answer:
                    if answer.status == 200:
                        return self
            except (OSError, urllib.error.URLError):
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the hub did not answer within {timeout:g} s:\n{self.log_text()}")
            time.sleep(0.2)

    def stop(self) -> None:
        """Stop the hub (it stops the learners' servers), the proxy and the class's PostgreSQL."""
        proc = self.process
        if proc is not None:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass  # the hub had exited
        from .pgserver import LocalPostgres

        LocalPostgres(self.folder / "postgres", self.port + 4).stop("immediate")  # if the hub could not
        proxy_pid = self.folder / "jupyterhub-proxy.pid"  # the proxy runs in its own session
        if proxy_pid.is_file():
            try:
                os.kill(int(proxy_pid.read_text()), signal.SIGTERM)
            except (ProcessLookupError, ValueError):
                pass

    def __enter__(self) -> LocalHub:
        return self if self.process is not None else self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    def login(self, name: str, code: str) -> Any:
        """A ``requests.Session`` logged in through the hub's login form, as a browser does;
        its ``login_status`` is the form's answer (302 logged in, 403 refused)."""
        import requests

        s = requests.Session()
        s.get(f"{self.url}/hub/login", timeout=10)
        xsrf = s.cookies.get("_xsrf", path="/hub/")
        r = s.post(f"{self.url}/hub/login?next=", data={"username": name, "password": code, "_xsrf": xsrf},
                   allow_redirects=False, timeout=30)
        s.login_status = r.status_code  # type: ignore[attr-defined]
        return s

    def page(self, session: Any, user: str, path: str = "voila/render/00-index.ipynb", wait: float = 40) -> Any:
        """GET /user/USER/PATH with a logged-in session, starting USER's server (the hub's
        spawn page) first if it is not running; the ``requests.Response``."""
        session.get(f"{self.url}/hub/spawn/{user}", timeout=60)
        deadline = time.monotonic() + wait
        while True:
            r = session.get(f"{self.url}/user/{user}/{path}", timeout=60)
            if r.status_code != 424 and "/hub/spawn-pending/" not in r.url or time.monotonic() > deadline:
                return r
            time.sleep(0.3)

    def server_pid(self, user: str) -> int | None:
        """The process id of ``user``'s single-user server (from the hub's database), or None."""
        import json
        import sqlite3

        with sqlite3.connect(self.folder / "jupyterhub.sqlite") as db:
            rows = db.execute("SELECT spawners.state FROM spawners JOIN users ON spawners.user_id = users.id "
                              "WHERE users.name = ?", (user,)).fetchall()
        state = json.loads(rows[0][0]) if rows and rows[0][0] else {}
        pid = state.get("pid")
        return int(pid) if pid else None
