"""The progress file: one SQLite database, checked, locked and kept, whatever is found in
its place.

The database is ``progress.sqlite3`` in the user's data folder: ``$SCATLAB_HOME`` when set
(one folder per JupyterHub user comes for free), else ``$XDG_DATA_HOME/scatlab``, else
``~/.local/share/scatlab``. It uses the standard library's ``sqlite3`` in WAL mode.
Beside it lives ``progress.sqlite3.lock``, an empty file that scatlab processes lock with
``flock`` (it is never deleted; it holds nothing).

Promises, each tested:

- **Two writers lose nothing.** Every change is one short ``BEGIN IMMEDIATE`` transaction
  on a fresh connection with a generous busy timeout, so two pages (two kernels, two
  processes) writing at once both get their rows in.
- **Only a file that is provably not a scatlab database is set aside**, and it is never
  overwritten: a file that does not begin with SQLite's header, that SQLite itself calls
  "not a database" or "malformed", that fails SQLite's ``quick_check``, or that is a SQLite
  database of another program (its ``application_id`` is not scatlab's and it holds
  tables). Such a file (with its ``-wal`` and ``-shm``) is renamed aside with a UTC
  timestamp (``progress.sqlite3.damaged-20261130T002233Z``), a fresh database is made, and
  :attr:`ProgressFile.notice` says so in plain words (the CLI and the index page show it). A
  database marked as scatlab's is never set aside for holding more tables than this
  version knows (a newer scatlab may have made them).
- **Check, set aside and create happen under one exclusive lock** (``flock`` on the
  ``.lock`` file), and every read and write holds the same lock shared; so a file another
  process has just created, or is reading or writing, is never moved, and four processes
  opening one damaged file at once set it aside exactly once. Where the lock cannot be
  taken (no ``fcntl``, a lock file that cannot be made), a damaged file is refused with a
  :class:`ProgressError` instead of being moved.
- **A busy, locked or read-only file is never a damaged one.** "Database is locked" is
  waited for (with backoff) up to ``timeout`` seconds; a file whose writer does not let go
  is then refused with a one-line :class:`ProgressError` saying another program holds it
  (when it can still be read, it opens and only writes are refused, with the same words).
  A read-only file or a file in a read-only folder opens **read-only** (a read-only folder
  through SQLite's ``mode=ro``, then ``immutable=1`` URIs, since WAL cannot make its
  ``-shm`` there): reads work, :attr:`ProgressFile.read_only` is true, :attr:`ProgressFile.notice`
  says why, and every write raises a :class:`ProgressError` saying the file is read-only.
  Nothing is renamed and the file is not changed.
- **Only a regular file (or a symlink to one) is opened.** A folder, a named pipe (FIFO),
  a device (``/dev/null``), a socket in the progress file's place is refused with a
  :class:`ProgressError` naming what it is, checked with ``os.stat`` before anything opens
  it (so a FIFO cannot hang the page), and left where it is.
- **A symlink is followed only to a scatlab database.** A progress file that is a symbolic
  link works when its target is a scatlab progress database (marked with
  :data:`APPLICATION_ID`): it is read and written there, and its ``-wal``, ``-shm`` and
  ``.lock`` live beside the target. A link to anything else (a file that is not a
  database, an empty file, another program's database, a damaged database) or to a path
  that does not exist is refused with a :class:`ProgressError` naming the link and its
  target, checked before anything is locked, created, renamed or written: the link and
  its target are left exactly as they are (as root, a link to ``/etc/passwd`` must never
  rename it).
- **A missing folder is named as missing.** The reason given for a file that cannot be
  made says what is true: its folder does not exist, a file stands where a folder should,
  or the folder is read-only.
- **Every failure is a ProgressError** (a :class:`ValueError`) with a plain message quoting
  the path: no ``sqlite3`` error escapes. ``load_game`` takes a whole-number id only
  (``True``, ``1.5``, ``"3"``, ``None`` are refused, quoted) and an id outside SQLite's
  64-bit range is simply one no saved game has.

The records kept in it (answers, lessons, games, steps, practice) are
:class:`scatlab.course.progress.Progress`, a :class:`ProgressFile`.
"""

from __future__ import annotations

import errno
import math
import os
import sqlite3
import stat
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from ..errors import ProgressError

if sys.platform != "win32":
    import fcntl

__all__ = [
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "DEFAULT_TIMEOUT",
    "FILE_MODE",
    "FOLDER_MODE",
    "data_home",
    "default_path",
    "ProgressFile",
]

APPLICATION_ID = 0x53434154  # "SCAT"
"""SQLite ``PRAGMA application_id`` that marks a scatlab progress database."""
FILE_MODE = 0o600
"""A progress file (and its lock, -wal and -shm files) is the learner's alone."""
FOLDER_MODE = 0o700
"""A progress folder scatlab creates is the learner's alone."""


def _keep_private(file: Path) -> None:
    """Make a progress file this user owns, and its -wal, -shm and lock files, readable by
    this user only (files written by older versions were 0644). Best effort, and only where
    the progress may be written at all: a read-only file or folder (opened read-only, where
    nothing changes), a file of another user, or one that cannot be changed is left as it is."""
    effective = os.access in os.supports_effective_ids  # the user this process acts as
    if not (
        os.access(file, os.W_OK, effective_ids=effective) and os.access(file.parent, os.W_OK, effective_ids=effective)
    ):
        return
    for path in (file, *(file.with_name(file.name + suffix) for suffix in ("-wal", "-shm", ".lock"))):
        try:
            st = os.lstat(path)
            if stat.S_ISREG(st.st_mode) and st.st_uid == os.geteuid() and st.st_mode & 0o077:
                os.chmod(path, FILE_MODE)
        except OSError:
            continue


SCHEMA_VERSION = 1
"""SQLite ``PRAGMA user_version`` of the schema this module writes."""
DEFAULT_TIMEOUT = 30.0
"""Seconds :class:`ProgressFile` waits for a file another process holds, when not told."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS answers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    lesson TEXT NOT NULL,
    exercise TEXT NOT NULL,
    question TEXT NOT NULL,
    answer TEXT NOT NULL,
    correct INTEGER NOT NULL,
    at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS lessons (
    lesson TEXT PRIMARY KEY,
    finished_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    record TEXT NOT NULL,
    at REAL NOT NULL
);
"""
_NEEDED_TABLES = {"answers", "lessons", "games"}
_SQLITE_HEADER = b"SQLite format 3\x00"

# SQLite result codes (https://sqlite.org/rescode.html): primary codes, and the extended
# SQLITE_READONLY_RECOVERY (another connection is recovering the WAL: wait, as for busy).
_BUSY, _LOCKED, _READONLY, _CORRUPT, _CANTOPEN, _PERM, _AUTH, _NOTADB = 5, 6, 8, 11, 14, 3, 23, 26
_READONLY_RECOVERY = _READONLY | (1 << 8)

_T = TypeVar("_T")


def data_home() -> Path:
    """The folder that holds scatlab's data (see the module docstring).

    >>> import os
    >>> os.environ["SCATLAB_HOME"] = "/tmp/somewhere"
    >>> str(data_home())
    '/tmp/somewhere'
    >>> del os.environ["SCATLAB_HOME"]
    """
    home = os.environ.get("SCATLAB_HOME")
    if home:
        return Path(home).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg).expanduser() if xdg and Path(xdg).is_absolute() else Path.home() / ".local" / "share"
    return base / "scatlab"


def default_path() -> Path:
    """``data_home() / "progress.sqlite3"``."""
    return data_home() / "progress.sqlite3"


@dataclass(frozen=True)
class _Facts:
    """What a look into an existing SQLite file found."""

    application_id: int
    tables: frozenset[str]
    journal_mode: str
    quick_check: str


def _timestamp() -> str:
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())


def _code(exc: sqlite3.Error) -> int:
    """The SQLite result code of an error (from its message before Python 3.11)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code
    text = str(exc).lower()  # pragma: no cover - Python 3.10 only
    for words, found in (
        ("locked", _BUSY),
        ("busy", _BUSY),
        ("readonly", _READONLY),
        ("malformed", _CORRUPT),
        ("not a database", _NOTADB),
        ("unable to open", _CANTOPEN),
    ):
        if words in text:
            return found
    return 1


def _busy(exc: sqlite3.Error) -> bool:
    """Another connection holds the file: wait, never a reason to set it aside."""
    code = _code(exc)
    return code & 0xFF in (_BUSY, _LOCKED) or code == _READONLY_RECOVERY


def _damaged(exc: sqlite3.Error) -> bool:
    """SQLite itself says the file is not a database or is malformed."""
    return _code(exc) & 0xFF in (_CORRUPT, _NOTADB)


def _cannot_write(exc: sqlite3.Error) -> bool:
    """The file or its folder does not let this process write (or open) it."""
    return _code(exc) & 0xFF in (_READONLY, _CANTOPEN, _PERM, _AUTH) and not _busy(exc)


def _what_it_is(mode: int) -> str | None:
    """Plain words for a file that is not a regular file, else None."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"  # pragma: no cover - door, whiteout, ...


def _missing_folder_why(folder: Path) -> str:
    """Plain words when ``folder`` is not a folder: it does not exist, or a file (or a
    dangling link) stands where it or one of its parents should be; else ``""``."""
    if os.path.isdir(folder):
        return ""
    if os.path.lexists(folder):
        return f"its folder {str(folder)!r} is not a folder but a file or a broken link"
    parent = folder.parent
    while parent != parent.parent and not os.path.lexists(parent):
        parent = parent.parent
    if os.path.lexists(parent) and not os.path.isdir(parent):
        return f"its folder {str(folder)!r} cannot exist: {str(parent)!r} is a file, not a folder"
    return f"its folder {str(folder)!r} does not exist"


def _look(conn: sqlite3.Connection) -> _Facts:
    app_id = int(conn.execute("PRAGMA application_id").fetchone()[0])
    tables = frozenset(r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'"))
    journal = str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower()
    check = str(conn.execute("PRAGMA quick_check").fetchone()[0])
    return _Facts(app_id, tables, journal, check)


def _make_schema(conn: sqlite3.Connection) -> None:
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("BEGIN IMMEDIATE")
    for statement in _SCHEMA.split(";"):
        if statement.strip():
            conn.execute(statement)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    conn.execute("COMMIT")


class ProgressFile:
    """The progress database at ``path`` (default :func:`default_path`).

    Opening checks the file once, under the exclusive lock: a file that is provably not a
    scatlab database is moved aside and replaced (see :attr:`notice`); a locked one is
    waited for up to ``timeout`` seconds (default :data:`DEFAULT_TIMEOUT`); a read-only one
    opens read-only (:attr:`read_only`). Every method opens its own short connection, so
    one object can be shared by widget callbacks and several objects (processes) by one
    file. Every failure is a :class:`ProgressError`.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, *, timeout: float | None = None) -> None:
        if timeout is None:
            timeout = DEFAULT_TIMEOUT
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 <= timeout < math.inf:
            raise ProgressError(f"timeout={timeout!r} is not accepted: give a number of seconds, 0 or more")
        self.path = Path(path) if path is not None else default_path()
        self.timeout = float(timeout)
        self.notice: str | None = None
        """A plain-words report when the file found was set aside or is read-only, else ``None``."""
        self.moved_to: Path | None = None
        """Where a file that could not be used was kept, else ``None``."""
        self.read_only = False
        """True when the file can be read but not written (see :attr:`notice`)."""
        self._read_only_reason = ""
        try:
            self.path.parent.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
        except OSError as exc:
            why = exc.strerror
            if isinstance(exc, (FileExistsError, NotADirectoryError)):  # a file in the way of a folder
                why = _missing_folder_why(self.path.parent).removeprefix(f"its folder {str(self.path.parent)!r} ")
            raise ProgressError(
                f"cannot create the progress folder {str(self.path.parent)!r}: {why}; "
                "set SCATLAB_HOME to a folder you can write"
            ) from None
        self._file = Path(os.path.realpath(self.path))  # a symlink: its target, with -wal, -shm beside it
        self._link_target: Path | None = self._file if os.path.islink(self.path) else None
        if self._link_target is None:
            _keep_private(self._file)
        self._uri_rw = self._uri("rw")
        self._uri_read = self._uri_rw
        deadline = time.monotonic() + self.timeout
        self._refuse_odd_file()  # before the lock: a FIFO must not be waited on, a folder not locked beside
        self._refuse_link_unless_ours(deadline)  # before the lock: no .lock file beside a foreign target
        with self._flock(exclusive=True, deadline=deadline) as locked:
            state, problem = self._inspect(deadline)
            if self._link_target is not None or os.path.islink(self.path):
                if state == "damaged":  # a link's target is never moved aside, even a damaged one
                    raise self._link_refused(problem)
                if state == "new":  # the target went away or was emptied since: nothing is made through a link
                    self._refuse_link_unless_ours(deadline)
            if state == "damaged":
                if not locked:  # never moved without the lock (a read-only folder could not take it anyway)
                    why = self._why_read_only() or f"its lock file {str(self._lock_path)!r} cannot be locked"
                    raise ProgressError(
                        f"the progress file {self._where()} cannot be used ({problem}) and cannot be set aside: "
                        f"{why}; move it yourself or set SCATLAB_HOME"
                    )
                self._move_aside(problem)
                state = "new"
            if state in ("new", "setup"):
                self._create(deadline)

    # -- the file, its lock, its URIs ------------------------------------------------------

    @property
    def _lock_path(self) -> Path:
        return self._file.with_name(self._file.name + ".lock")

    def _uri(self, mode: str, *, immutable: bool = False) -> str:
        return self._file.as_uri() + f"?mode={mode}" + ("&immutable=1" if immutable else "")

    def _where(self) -> str:
        return repr(str(self.path))

    def _refuse_odd_file(self) -> None:
        """A ProgressError unless the path is missing or (a symlink to) a regular file."""
        try:
            mode = os.stat(self.path).st_mode
        except FileNotFoundError:
            return
        except NotADirectoryError:
            if os.path.islink(self.path):  # a link into a path a file stands in: the link check says so
                return
            raise ProgressError(
                f"the progress file {self._where()} cannot be looked at: "
                f"{_missing_folder_why(self.path.parent) or 'a file stands where a folder should'}; "
                "set SCATLAB_HOME to a folder you can use"
            ) from None
        except OSError as exc:
            raise ProgressError(
                f"the progress file {self._where()} cannot be looked at: {exc.strerror}; "
                "set SCATLAB_HOME to a folder you can use"
            ) from None
        what = _what_it_is(mode)
        if what is not None:
            raise ProgressError(
                f"the progress file {self._where()} is {what}, not a file: scatlab leaves it as it is; "
                "remove it or set SCATLAB_HOME to another folder"
            )

    def _link_refused(self, problem: str) -> ProgressError:
        target = self._link_target if self._link_target is not None else Path(os.path.realpath(self.path))
        return ProgressError(
            f"the progress file {self._where()} is a symbolic link to {str(target)!r}, which is not a scatlab "
            f"progress database ({problem}): scatlab leaves the link and its target as they are; remove the "
            "link or set SCATLAB_HOME to another folder"
        )

    def _refuse_link_unless_ours(self, deadline: float) -> None:
        """A ProgressError when the path is a symbolic link whose target does not exist or
        is not a scatlab database; only reads the target (its header, then SQLite read-only)."""
        if not os.path.islink(self.path):
            return
        target = Path(os.path.realpath(self.path))
        self._link_target = target
        if not os.path.lexists(target):
            folder_why = _missing_folder_why(target.parent)
            raise ProgressError(
                f"the progress file {self._where()} is a symbolic link to {str(target)!r}, a path that does not "
                f"exist{f' ({folder_why})' if folder_why else ''}: scatlab makes no file through a link; remove the "
                "link, point it at your progress file, or set SCATLAB_HOME to another folder"
            )
        try:
            fd = os.open(target, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
            try:
                if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped since _refuse_odd_file looked
                    raise self._link_refused("it is not a regular file")
                header = os.read(fd, 100)
            finally:
                os.close(fd)
        except OSError as exc:
            raise ProgressError(
                f"the progress file {self._where()} is a symbolic link to {str(target)!r}, which cannot be "
                f"read: {exc.strerror}; remove the link or set SCATLAB_HOME to another folder"
            ) from None
        if not header:
            raise self._link_refused("it is empty")
        if not header.startswith(_SQLITE_HEADER) or len(header) < 72:
            raise self._link_refused("it does not begin with SQLite's header")
        if int.from_bytes(header[68:72], "big") == APPLICATION_ID:
            return
        try:  # the mark may still be in the -wal only: ask SQLite, read-only
            app_id = self._attempt(
                self._uri("ro"), lambda c: int(c.execute("PRAGMA application_id").fetchone()[0]), deadline
            )
        except sqlite3.Error as exc:
            raise self._link_refused(f"SQLite cannot read it: {exc}") from None
        if app_id != APPLICATION_ID:
            raise self._link_refused("it is a SQLite database of another program, or not marked as scatlab's")

    def _open_lock_file(self) -> int | None:
        """The lock file's descriptor, or None where there is none and none can be made
        (a read-only folder: there nothing can be moved or created either)."""
        flags = os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
        for mode in (os.O_RDWR | os.O_CREAT, os.O_RDONLY):
            try:
                fd = os.open(self._lock_path, mode | flags, FILE_MODE)
            except OSError as exc:
                if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOENT):
                    continue
                raise ProgressError(
                    f"the lock file {str(self._lock_path)!r} of the progress file cannot be opened: {exc.strerror}"
                ) from None
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                os.close(fd)
                raise ProgressError(
                    f"the lock file {str(self._lock_path)!r} of the progress file is not a file: remove it "
                    "or set SCATLAB_HOME to another folder"
                )
            return fd
        return None

    @contextmanager
    def _flock(self, *, exclusive: bool, deadline: float) -> Iterator[bool]:
        """Hold the lock file (exclusive to check, set aside and create; shared to read and
        write) until the block ends; yields whether a lock is held."""
        if sys.platform == "win32":  # pragma: no cover - no flock: damaged files are refused, not moved
            yield False
            return
        fd = self._open_lock_file()
        if fd is None:
            yield False
            return
        try:
            held = False
            delay = 0.001
            while True:
                try:
                    fcntl.flock(fd, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
                    held = True
                    break
                except BlockingIOError:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise ProgressError(
                            f"the progress file {self._where()} is held by another scatlab process (it kept "
                            f"{str(self._lock_path)!r} locked for longer than {self.timeout:g} s); try again"
                        ) from None
                    time.sleep(min(delay, left))
                    delay = min(delay * 2, 0.05)
                except OSError:  # a file system without flock: go on unlocked (nothing is moved)
                    break
            yield held
        finally:
            os.close(fd)

    def _attempt(self, uri: str, work: Callable[[sqlite3.Connection], _T], deadline: float) -> _T:
        """``work`` on a fresh connection to ``uri``, tried again with backoff while the file
        is busy, until ``deadline``; sqlite3 errors are raised as they are."""
        delay = 0.005
        while True:
            try:
                conn = sqlite3.connect(
                    uri, uri=True, timeout=max(deadline - time.monotonic(), 0.0), isolation_level=None
                )
                try:
                    return work(conn)
                finally:
                    conn.close()
            except sqlite3.Error as exc:
                left = deadline - time.monotonic()
                if not _busy(exc) or left <= 0:
                    raise
                time.sleep(min(delay, left))
                delay = min(delay * 2, 0.25)

    # -- checking, setting aside, creating -------------------------------------------------

    def _locked(self, outcome: str) -> ProgressError:
        return ProgressError(
            f"the progress file {self._where()} is locked by another program (or another scatlab page) that "
            f"held it for longer than {self.timeout:g} s, so {outcome}; close the other program or try again"
        )

    def _why_read_only(self) -> str:
        folder = self._file.parent
        missing = _missing_folder_why(folder)
        if missing:
            return missing
        if not os.access(folder, os.W_OK):
            return f"its folder {str(folder)!r} is read-only"
        if self._file.exists() and not os.access(self._file, os.W_OK):
            return "the file is read-only"
        return ""

    @staticmethod
    def _judge(facts: _Facts) -> tuple[str, str]:
        if facts.quick_check != "ok":
            return "damaged", f"SQLite's integrity check failed ({facts.quick_check})"
        if facts.application_id != APPLICATION_ID and facts.tables:
            return "damaged", f"it is a SQLite database of another program (tables: {', '.join(sorted(facts.tables))})"
        if facts.application_id == APPLICATION_ID and _NEEDED_TABLES <= facts.tables and facts.journal_mode == "wal":
            return "ready", ""
        return "setup", ""

    def _inspect(self, deadline: float) -> tuple[str, str]:
        """What the file is: ``new`` (none, or empty), ``setup`` (an empty or unfinished
        database), ``ready``, ``read-only`` (opened so) or ``damaged`` with the reason."""
        self._refuse_odd_file()
        try:
            size = os.stat(self._file).st_size
        except FileNotFoundError:
            return "new", ""
        except OSError as exc:
            raise ProgressError(f"the progress file {self._where()} cannot be looked at: {exc.strerror}") from None
        if size == 0:
            return "new", ""
        try:
            fd = os.open(self._file, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
            try:
                header = os.read(fd, len(_SQLITE_HEADER))
            finally:
                os.close(fd)
        except OSError as exc:
            raise ProgressError(
                f"the progress file {self._where()} cannot be read: {exc.strerror}; "
                "give yourself read access or set SCATLAB_HOME"
            ) from None
        if header != _SQLITE_HEADER:
            return "damaged", "it is not a readable SQLite database (it does not begin with SQLite's header)"
        try:
            facts = self._attempt(self._uri_rw, _look, deadline)
        except sqlite3.Error as exc:
            if _damaged(exc):
                return "damaged", f"it is not a readable SQLite database ({exc})"
            if _busy(exc):
                raise self._locked("it could not be opened") from None
            if _cannot_write(exc):
                return self._open_read_only(exc, deadline)
            raise ProgressError(f"the progress file {self._where()} could not be opened ({exc})") from None
        state, problem = self._judge(facts)
        if state == "ready" and self._why_read_only():
            return self._open_read_only(None, deadline)
        return state, problem

    def _open_read_only(self, first: sqlite3.Error | None, deadline: float) -> tuple[str, str]:
        """Open for reading only: ``mode=ro``, then (a read-only folder, where WAL cannot
        make its ``-shm``) ``immutable=1``. Refuses what is damaged or holds no progress."""
        reason = self._why_read_only() or f"SQLite cannot open it for writing: {first}"
        uris = [self._uri("ro")]
        if not os.access(self._file.parent, os.W_OK):
            uris.append(self._uri("ro", immutable=True))
        last = first
        for uri in uris:
            try:
                facts = self._attempt(uri, _look, deadline)
            except sqlite3.Error as exc:
                if _busy(exc):
                    raise self._locked("it could not be opened") from None
                if not _damaged(exc):
                    last = exc
                    continue
                state, problem = "damaged", f"it is not a readable SQLite database ({exc})"
            else:
                state, problem = self._judge(facts)
            if state == "damaged":
                raise ProgressError(
                    f"the progress file {self._where()} cannot be used ({problem}) and cannot be set aside: "
                    f"{reason}; move it yourself or set SCATLAB_HOME"
                )
            if not _NEEDED_TABLES <= facts.tables:
                raise ProgressError(
                    f"the progress file {self._where()} holds no scatlab progress yet and cannot be written: "
                    f"{reason}; set SCATLAB_HOME to a folder you can write"
                )
            self.read_only, self._read_only_reason, self._uri_read = True, reason, uri
            self.notice = (
                f"The progress file {self._where()} is read-only ({reason}): your progress is shown, but new "
                "answers, finished lessons and saved games cannot be kept."
            )
            return "read-only", reason
        raise ProgressError(f"the progress file {self._where()} cannot be opened: {reason} ({last})")

    def _move_aside(self, problem: str) -> None:
        """Rename the file (and its -wal, -shm) aside; only ever called under the exclusive lock."""
        target = self._file.with_name(f"{self._file.name}.damaged-{_timestamp()}")
        n = 1
        while any(os.path.lexists(str(target) + s) for s in ("", "-wal", "-shm")):
            n += 1
            target = self._file.with_name(f"{self._file.name}.damaged-{_timestamp()}-{n}")
        moved: list[tuple[Path, Path]] = []
        try:
            for suffix in ("", "-wal", "-shm"):
                source = self._file.with_name(self._file.name + suffix)
                kept = target.with_name(target.name + suffix)
                try:
                    os.rename(source, kept)
                except FileNotFoundError:
                    continue
                moved.append((source, kept))
        except OSError as exc:
            for source, kept in reversed(moved):  # put back what moved: never a main file without its WAL
                try:
                    os.rename(kept, source)
                except OSError:  # pragma: no cover - the folder changed under us
                    pass
            raise ProgressError(
                f"the progress file {self._where()} cannot be used ({problem}) and cannot be moved "
                f"aside: {exc.strerror}; move it yourself or set SCATLAB_HOME"
            ) from None
        if not moved or moved[0][0] != self._file:  # someone else removed it: nothing of ours to report
            return
        self.moved_to = target
        self.notice = (
            f"The progress file {self._where()} could not be used: {problem}. It was kept as "
            f"{str(target)!r} and a new, empty progress file was started."
        )

    def _create(self, deadline: float) -> None:
        try:  # the learner's own: 0600 (SQLite gives its -wal and -shm files the same mode)
            os.close(os.open(self._file, os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), FILE_MODE))
        except OSError:
            pass  # SQLite says why below (a read-only folder, a file in the way)
        try:
            self._attempt(self._uri("rwc"), _make_schema, deadline)
        except sqlite3.Error as exc:
            if _busy(exc):
                raise self._locked("it could not be set up") from None
            if _cannot_write(exc):
                reason = self._why_read_only() or str(exc)
                raise ProgressError(
                    f"cannot create the progress file {self._where()}: {reason}; "
                    "set SCATLAB_HOME to a folder you can write"
                ) from None
            raise ProgressError(f"the progress file {self._where()} could not be set up ({exc})") from None

    # -- reading and writing ---------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self._uri_read, uri=True, timeout=self.timeout, isolation_level=None)

    def _failed(self, exc: sqlite3.Error, outcome: str) -> ProgressError:
        """A sqlite3 error as the learner reads it."""
        if _busy(exc):
            return self._locked(outcome)
        if _damaged(exc):
            return ProgressError(
                f"the progress file {self._where()} is damaged ({exc}), so {outcome}; open the course again "
                "to have it checked and set aside"
            )
        if _cannot_write(exc) and not self._file.exists():
            return ProgressError(
                f"the progress file {self._where()} is gone (moved or deleted since it was opened), so "
                f"{outcome}; reload the page to start a new one"
            )
        if _code(exc) & 0xFF == _READONLY:
            return ProgressError(
                f"the progress file {self._where()} is read-only ({self._why_read_only() or exc}), so {outcome}; "
                "make it writable or set SCATLAB_HOME to a folder you can write"
            )
        return ProgressError(f"the progress file {self._where()} could not be used ({exc}), so {outcome}")

    @contextmanager
    def _write(self, outcome: str = "nothing was saved") -> Iterator[sqlite3.Connection]:
        if self.read_only:
            raise ProgressError(
                f"the progress file {self._where()} is read-only ({self._read_only_reason}), so {outcome}; "
                "make it writable or set SCATLAB_HOME to a folder you can write"
            )
        with self._flock(exclusive=False, deadline=time.monotonic() + self.timeout):
            try:
                conn = self._connect()
                try:
                    conn.execute("BEGIN IMMEDIATE")
                    try:
                        yield conn
                    except BaseException:
                        conn.execute("ROLLBACK")
                        raise
                    conn.execute("COMMIT")
                finally:
                    conn.close()
            except sqlite3.Error as exc:
                raise self._failed(exc, outcome) from None

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        with self._flock(exclusive=False, deadline=time.monotonic() + self.timeout):
            try:
                conn = self._connect()
                try:
                    yield conn
                finally:
                    conn.close()
            except sqlite3.Error as exc:
                raise self._failed(exc, "it could not be read") from None
