"""The course for a class on JupyterHub: what ``deploy/jupyterhub_config.py`` uses.

- :class:`ClassCodeAuthenticator`: a learner claims a name once with the class code the
  teacher set and a secret of their own, and logs in with that secret after that; the
  teacher (an admin user named in the config) with the teacher's code. Names are
  normalised (:func:`~scatlab.classroom.identity.normalize_name`), so "Ada Lovelace" and
  "ada-lovelace" are one learner, and a look-alike of a name in the class is refused.
  The teacher's pages for a learner (``scatlab.classroom.hub_pages``) give a new secret or
  remove the learner.
- :func:`singleuser_args`: the Voilà settings of :func:`scatlab.app.launch.voila_options`
  that apply to a learner's single-user server, where Voilà runs as a server extension, and
  the course's own server extension (:mod:`scatlab.app.server`).
- :class:`ReadOnlyContents`: the single-user server's files API cannot write, so a learner
  cannot change the lessons their pages run.
- :class:`LocalHub`: a class hub on this machine in a folder of its own, started and stopped
  from Python (the class's browser test and ``benchmarks/bench_class.py`` run it).

>>> normalize_name("Zoë_2")
'zoë_2'
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
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..app.launch import voila_options
from .identity import NAME_PATTERN, normalize_name

__all__ = [
    "NAME_PATTERN",
    "SERVER_EXTENSION",
    "normalize_name",
    "class_code",
    "singleuser_args",
    "ClassCodeAuthenticator",
    "ReadOnlyContents",
    "LocalHub",
]

# Voilà's own application flags with no meaning inside a Jupyter server, and scatlab serve's
# warm kernels and their quick client (in a class, thirty servers warming kernels kept both
# cores busy, and the quick client's polling of starting kernels made pages slower under that
# load: docs/deploying.md)
_NOT_IN_A_SERVER = (
    "--port",
    "--Voila.",
    "--no-browser",
    "--debug",
    "--VoilaConfiguration.multi_kernel_manager_class",
    "--ServerKernelManager.client_factory",
)


SERVER_EXTENSION = "--ServerApp.jpserver_extensions=scatlab.app.server=True"
"""What :mod:`scatlab.app.server` adds to Voilà, loaded into a learner's server as a server
extension: only what a lesson page asks for is answered (every other route 403), at most
four kernels at once, an over-long request is answered 414/431, a page whose kernel did not
start ends with one line."""


def singleuser_args() -> list[str]:
    """``voila_options`` without what only Voilà's own application understands, and the
    course's server extension (:data:`SERVER_EXTENSION`)."""
    return [*(a for a in voila_options(0, "127.0.0.1") if not a.startswith(_NOT_IN_A_SERVER)), SERVER_EXTENSION]


def class_code(folder: Path, env: str, filename: str) -> str:
    """A code of the class (``SCATLAB_CLASS_CODE``, ``SCATLAB_TEACHER_CODE``): the environment
    variable ``env`` when set, else the file ``folder/filename``, else a new code written
    there (mode 0600) and named in the hub's log. Never from a command line, which ``ps``
    shows to every user of the machine.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> made = class_code(folder, "SCATLAB_NO_SUCH_CODE", "class-code")
    >>> made == class_code(folder, "SCATLAB_NO_SUCH_CODE", "class-code")
    True
    >>> oct((folder / "class-code").stat().st_mode & 0o777)
    '0o600'
    """
    given = os.environ.get(env, "").strip()
    if given:
        return given
    file = Path(folder) / filename
    if file.is_file():
        code = file.read_text(encoding="utf-8").strip()
        if code:
            return code
    from .identity import new_secret

    code = new_secret()
    fd = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(code + "\n")
    print(f"scatlab class: a new {filename.replace('-', ' ')} is in {file}", file=sys.stderr)
    return code


def _authenticator_base() -> Any:
    from firstuseauthenticator import FirstUseAuthenticator

    return FirstUseAuthenticator


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


def _address(handler: Any, proxies: int = 0) -> str:
    """The address a login came from: the ``X-Forwarded-For`` entry that the hub's proxy
    appended, or with ``proxies`` trusted reverse proxies in front of it, the one the first
    of them appended (a learner can send their own header, and Tornado would believe its
    ``X-Real-Ip``); else the connection's own address.

    >>> from types import SimpleNamespace as NS
    >>> _address(NS(request=NS(headers={"X-Forwarded-For": "6.6.6.6, 10.0.0.7"}, remote_ip="1.1.1.1")))
    '10.0.0.7'
    >>> _address(NS(request=NS(headers={"X-Forwarded-For": "6.6.6.6, 10.0.0.7, 127.0.0.1"}, remote_ip="x")), 1)
    '10.0.0.7'
    """
    request = getattr(handler, "request", None)
    if request is None:
        return "?"
    forwarded = str(request.headers.get("X-Forwarded-For", ""))
    entries = [e.strip() for e in forwarded.split(",") if e.strip()]
    if entries:
        return entries[max(0, len(entries) - 1 - proxies)][:64]
    return str(request.remote_ip)


class ClassCodeAuthenticator(_Authenticator):  # type: ignore[misc, valid-type]
    """A learner claims a name once with the class code, and logs in with their own secret
    after that; an admin name (the teacher) logs in with the teacher's code.

    JupyterHub's FirstUseAuthenticator underneath: the first login of a name sets its
    secret (a bcrypt hash in the ``dbm_path`` file, mode 0600), and later logins check it.
    On top of it:

    - **A new name needs the class code** (the form's ``class_code``) and a secret of at
      least ``min_password_length`` characters that is not the class code. With no class
      code set nobody claims a name.
    - **Names are normalised** (:func:`scatlab.classroom.identity.normalize_name`: NFKC,
      case-folded) and a new name that looks like one already in the class
      (:func:`~scatlab.classroom.identity.look_alike`, Unicode's confusables) is refused.
    - **Wrong tries are slowed, then locked**, per name and per address
      (:class:`~scatlab.classroom.identity.Throttle`): a locked try is answered 429 with
      ``Retry-After`` before any secret is compared, and every refusal is logged.
    - **Secrets are hashed in a thread**, so thirty learners logging in at once do not
      queue behind each other's bcrypt on the hub's event loop.
    - The teacher gives a learner a new secret, or removes the learner, on the hub's page
      ``/hub/class/learners/NAME`` (admins only; the dashboard links to it). Removing a
      learner forgets their secret and moves their folder (``learners_dir``/NAME) aside into
      ``learners_dir``/.removed, so that whoever claims the name next starts afresh and
      nothing the learner saved is deleted.

    Configured as ``c.ClassCodeAuthenticator.class_code``, ``.teacher_code``, ``.dbm_path``
    and ``.learners_dir`` (deploy/jupyterhub_config.py), and the teacher's name in
    ``c.Authenticator.admin_users``.
    """

    from traitlets import Bool, Integer, Unicode

    class_code = Unicode("", config=True, help="The code a learner types once, to claim a name.")
    teacher_code = Unicode("", config=True, help="The code an admin user (the teacher) logs in with.")
    learners_dir = Unicode(
        "", config=True, help="The folder of the learners' homes (a removed learner's is moved aside)."
    )
    allow_all = Bool(True, config=True, help="Anyone with the class code may claim a name (that is the point).")
    min_password_length = Integer(6, config=True, help="The shortest secret a learner may choose.")
    name_tries = Integer(5, config=True, help="Wrong tries for one name before it is locked.")
    address_tries = Integer(30, config=True, help="Wrong tries from one address before it is locked.")
    lock_seconds = Integer(60, config=True, help="The first lock's length; each further lock is twice as long.")
    secret_rounds = Integer(12, config=True, help="bcrypt's cost (2**rounds; 12 takes about 0.2 s a hash here).")
    trusted_proxies = Integer(
        0, config=True, help="Reverse proxies in front of the hub's own (each appends to X-Forwarded-For)."
    )
    del Bool, Integer, Unicode

    login_service = ""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        import threading

        from .identity import Throttle

        self.throttle = Throttle(name_tries=self.name_tries, address_tries=self.address_tries, lock=self.lock_seconds)
        self._secrets_lock = threading.Lock()

    def normalize_username(self, username: str) -> str:
        """:func:`~scatlab.classroom.identity.normalize_name`, or ``""`` for what cannot be a name."""
        return normalize_name(username) or ""

    def validate_username(self, username: str) -> bool:
        """Only a name already in its normalised form."""
        return normalize_name(username) == username

    # --- the secrets: FirstUseAuthenticator's dbm file, one thread at a time ------------------
    def _stored(self, name: str) -> bytes | None:
        import dbm

        with self._secrets_lock, dbm.open(self.dbm_path, "c", 0o600) as db:
            value = db.get(name.encode("utf8"))
        return bytes(value) if value is not None else None

    def _store(self, name: str, secret: str) -> None:
        import dbm

        import bcrypt

        hashed = bcrypt.hashpw(secret.encode("utf8"), bcrypt.gensalt(self.secret_rounds))
        with self._secrets_lock, dbm.open(self.dbm_path, "c", 0o600) as db:
            db[name.encode("utf8")] = hashed

    def _claimed(self) -> list[str]:
        """Every name with a secret, every learner with a folder, and the admins."""
        import dbm

        with self._secrets_lock, dbm.open(self.dbm_path, "c", 0o600) as db:
            names = {(k if isinstance(k, bytes) else k.encode()).decode("utf8", "replace") for k in db.keys()}
        if self.learners_dir and os.path.isdir(self.learners_dir):  # whoever has had a server
            names.update(entry for entry in os.listdir(self.learners_dir) if not entry.startswith("."))
        return sorted(names | set(self.admin_users))

    @staticmethod
    def _checks(secret: str, stored: bytes) -> bool:
        import bcrypt

        try:
            return bool(bcrypt.checkpw(secret.encode("utf8"), stored))
        except ValueError:  # a damaged hash is a wrong secret, not a crash
            return False

    def set_secret(self, name: str, secret: str) -> None:
        """Store ``secret`` as ``name``'s (the teacher's reset): it also lifts a lock on the
        name, since the teacher vouches for the learner."""
        self._store(name, secret)
        self.throttle.succeed(name)

    def reset_password(self, username: str, new_password: str) -> str:
        """A learner's own change of secret (FirstUseAuthenticator's page ``/hub/auth/change-password``)."""
        if len(new_password) < self.min_password_length:
            return f"Choose a secret of at least {self.min_password_length} characters."
        if _same(new_password, self.class_code):
            return "Choose a secret of your own, not the class code."
        self._store(username, new_password)
        return "Your secret has been changed successfully!"

    def delete_user(self, user: Any) -> None:
        """The teacher removed a learner: their secret is forgotten and their folder moved aside."""
        import dbm

        with self._secrets_lock, dbm.open(self.dbm_path, "c", 0o600) as db:
            if user.name.encode("utf8") in db:
                del db[user.name.encode("utf8")]
        if self.learners_dir and NAME_PATTERN.match(user.name):
            home = Path(self.learners_dir) / user.name
            if home.is_dir() and not home.is_symlink():
                aside = Path(self.learners_dir) / ".removed"
                aside.mkdir(mode=0o700, exist_ok=True)
                home.rename(aside / f"{user.name}-{time.strftime('%Y%m%d-%H%M%S')}")
        self.log.warning("Removed the learner %s (secret forgotten, folder moved aside)", user.name)

    # --- a login ------------------------------------------------------------------------------
    def _refuse(self, handler: Any, name: str, address: str, why: str, shown: str) -> float:
        self.log.warning("Refused a login as %s from %s: %s", name, address, why)
        if handler is not None:
            handler.custom_login_error = shown
        return self.throttle.fail(name, address)

    async def authenticate(self, handler: Any, data: dict[str, str]) -> str | None:
        """The learner's name for the login form's ``data`` (``username``, ``password``: the
        learner's secret or the teacher's code, ``class_code``: for a new name), or None;
        HTTP 429 with ``Retry-After`` while the name or the address is locked. The reason for
        a refusal goes to the login page (``handler.custom_login_error``) and to the log."""
        import asyncio

        raw = data.get("username", "")
        name = normalize_name(raw)
        address = _address(handler, self.trusted_proxies)
        if name is None:
            self.log.warning("Refused a login from %s: %r is not a name a learner can have", address, raw[:40])
            if handler is not None:
                handler.custom_login_error = (
                    "A name is letters, digits, '.', '_' or '-' (at most 39), starting with a letter or digit."
                )
            return None
        wait = self.throttle.wait(name, address)
        if wait:
            from tornado.web import HTTPError

            self.log.warning("Refused a login as %s from %s: locked for %d s after wrong tries", name, address, wait)
            error = HTTPError(429, f"Too many wrong tries: wait {wait} seconds, then try again.")
            error.headers = {"Retry-After": str(wait)}  # type: ignore[attr-defined]  # JupyterHub's write_error sends these
            raise error
        secret, code = data.get("password", ""), data.get("class_code", "")
        if name in self.admin_users:
            ok = _same(secret, self.teacher_code)
            delay = (
                0.0
                if ok
                else self._refuse(handler, name, address, "wrong teacher's code", "That is not the teacher's code.")
            )
        else:
            stored = await asyncio.to_thread(self._stored, name)
            if stored is not None:
                ok = bool(secret) and await asyncio.to_thread(self._checks, secret, stored)
                delay = (
                    0.0
                    if ok
                    else self._refuse(
                        handler,
                        name,
                        address,
                        "wrong secret",
                        f"That is not {name}'s secret. New here? Choose another name. Forgot it? Ask your teacher.",
                    )
                )
            else:
                ok, delay = await self._claim(handler, name, address, secret, code)
        if not ok:
            await asyncio.sleep(delay)
            return None
        self.throttle.succeed(name)
        return name

    async def _claim(self, handler: Any, name: str, address: str, secret: str, code: str) -> tuple[bool, float]:
        """A new name: the class code, a secret of one's own, and no look-alike."""
        import asyncio

        from .identity import look_alike

        if not _same(code, self.class_code):
            why = "no class code" if not code else "wrong class code"
            return False, self._refuse(
                handler,
                name,
                address,
                f"{why} for a new name",
                f"{name} is a new name here: type the class code to claim it.",
            )
        if len(secret) < self.min_password_length or _same(secret, self.class_code):
            self.log.warning("Refused a claim of %s from %s: a secret too short or the class code", name, address)
            if handler is not None:
                handler.custom_login_error = (
                    f"Choose your own secret for {name}: at least "
                    f"{self.min_password_length} characters, not the class code."
                )
            return False, 0.0
        other = look_alike(name, await asyncio.to_thread(self._claimed))
        if other is not None:
            self.log.warning("Refused a claim of %s from %s: it looks like %s", name, address, other)
            if handler is not None:
                handler.custom_login_error = (
                    f"That name looks too much like {other}, who is in the class: choose another name."
                )
            return False, 0.0
        await asyncio.to_thread(self._store, name, secret)
        self.log.info("%s claimed their name (from %s)", name, address)
        return True, 0.0

    def get_handlers(self, app: Any) -> list[tuple[str, Any]]:
        """The login page, the learner's change of secret and the teacher's page for a learner
        (``scatlab.classroom.hub_pages``)."""
        from .hub_pages import handlers

        return handlers()


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

    def __init__(
        self,
        folder: Path,
        port: int,
        *,
        class_code: str,
        teacher_code: str,
        teacher: str = "teacher",
        env: Mapping[str, str] | None = None,
    ) -> None:
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
        """Start the hub and wait until its API answers and its warm parent listens; a
        RuntimeError with the log's end if it exits or is not ready within ``timeout`` seconds."""
        import urllib.error
        import urllib.request

        self.folder.mkdir(parents=True, exist_ok=True)
        self.folder.chmod(0o755)  # as root, the class's PostgreSQL runs as postgres, who must reach its folder
        bindir = str(Path(sys.executable).parent)
        env = {
            **os.environ,
            "SCATLAB_CLASS_DIR": str(self.folder),
            "SCATLAB_HUB_PORT": str(self.port),
            "SCATLAB_CLASS_CODE": self.class_code,
            "SCATLAB_TEACHER_CODE": self.teacher_code,
            "SCATLAB_TEACHER": self.teacher,
            **self.extra_env,
        }
        env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
        with self.log.open("w") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "jupyterhub", "-f", str(self.config())],
                cwd=self.folder,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"the hub exited ({self.process.returncode}):\n{self.log_text()}")
            try:
                with urllib.request.urlopen(f"{self.url}/hub/api", timeout=2) as answer:
                    if answer.status == 200 and self._parent_ready():
                        return self
            except (OSError, urllib.error.URLError):
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the hub did not answer within {timeout:g} s:\n{self.log_text()}")
            time.sleep(0.2)

    def _parent_ready(self) -> bool:
        """The warm parent listens (or forks are off): learners' servers and kernels are forked."""
        if self.extra_env.get("SCATLAB_KERNEL_FORKS", os.environ.get("SCATLAB_KERNEL_FORKS", "")).lower() == "off":
            return True
        import socket

        from .forks import socket_path

        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:  # a socket left by a killed parent refuses
            try:
                probe.connect(socket_path(self.folder))
            except OSError:
                return False
        return True

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

    def login(self, name: str, secret: str, class_code: str = "") -> Any:
        """A ``requests.Session`` logged in through the hub's login form, as a browser does:
        ``secret`` is the learner's own (the teacher's code for the teacher), and a new name
        needs ``class_code`` too. Its ``login_status`` is the form's answer (302 logged in,
        403 refused, 429 locked after wrong tries)."""
        import requests

        s = requests.Session()
        s.get(f"{self.url}/hub/login", timeout=10)
        xsrf = s.cookies.get("_xsrf", path="/hub/")
        r = s.post(
            f"{self.url}/hub/login?next=",
            data={"username": name, "password": secret, "class_code": class_code, "_xsrf": xsrf},
            allow_redirects=False,
            timeout=30,
        )
        s.login_status = r.status_code  # type: ignore[attr-defined]
        s.login_answer = r  # type: ignore[attr-defined]
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
            rows = db.execute(
                "SELECT spawners.state FROM spawners JOIN users ON spawners.user_id = users.id WHERE users.name = ?",
                (user,),
            ).fetchall()
        state = json.loads(rows[0][0]) if rows and rows[0][0] else {}
        pid = state.get("pid")
        return int(pid) if pid else None
