"""The course for a class on JupyterHub: what ``deploy/jupyterhub_config.py`` uses.

- :class:`ClassCodeAuthenticator`: a learner logs in with any name and the class code the
  teacher set; the teacher (an admin user named in the config) with the teacher's code.
  Names are normalised (:func:`normalize_name`), so "Ada Lovelace" and "ada-lovelace" are
  one learner.
- :func:`singleuser_args`: the Voilà settings of :func:`scatlab.course.app.voila_options`
  that apply to a learner's single-user server, where Voilà runs as a server extension.
- :class:`ReadOnlyContents`: the single-user server's files API cannot write, so a learner
  cannot change the lessons their pages run.

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
"""

from __future__ import annotations

import hmac
import re
from typing import Any

from .app import voila_options

__all__ = ["NAME_PATTERN", "normalize_name", "singleuser_args", "ClassCodeAuthenticator", "ReadOnlyContents"]

NAME_PATTERN = re.compile(r"^[^\W_][\w.-]{0,38}$")
"""A learner's name once normalised: a letter or digit first, then letters, digits, ``_``, ``.``
or ``-``; at most 39 characters (it is part of URLs and folder names)."""

# Voilà's own application flags with no meaning inside a Jupyter server, and the options of
# scatlab serve's warm kernels (its own kernel manager, which the server extension does not use)
_NOT_IN_A_SERVER = ("--port", "--Voila.", "--no-browser", "--debug",
                    "--VoilaConfiguration.multi_kernel_manager_class", "--ServerKernelManager.client_factory")


def normalize_name(name: str) -> str | None:
    """A learner's name as the hub stores it, or ``None`` when it cannot be one: trimmed,
    lower case, runs of spaces made one ``-``."""
    cleaned = re.sub(r"\s+", "-", name.strip().lower())
    return cleaned if NAME_PATTERN.match(cleaned) and ".." not in cleaned else None


def singleuser_args() -> list[str]:
    """``voila_options`` without what only Voilà's own application understands."""
    return [a for a in voila_options(0, "127.0.0.1") if not a.startswith(_NOT_IN_A_SERVER)]


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
