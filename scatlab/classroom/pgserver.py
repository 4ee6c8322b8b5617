"""A PostgreSQL server of the class's own, in the class folder: what ``make class`` starts
when no class database is given (``SCATLAB_CLASS_DB``), and what the tests start.

It runs Debian's (or any) PostgreSQL binaries found in ``/usr/lib/postgresql/*/bin`` (the
newest) or on ``PATH``: ``initdb`` once, then ``pg_ctl start``, listening on 127.0.0.1 and on
a socket in the folder. As root, where PostgreSQL refuses to run, it runs as the
``postgres`` system user (else ``nobody``) and the folder is given to that user.

**Every connection needs a password** (SCRAM-SHA-256): ``pg_hba.conf`` has two lines, the
socket and 127.0.0.1, both ``scram-sha-256``, and nothing is trusted; passwords are stored
as SCRAM verifiers (``password_encryption=scram-sha-256``). The superuser, ``postgres``, has
a random password kept in ``FOLDER/superuser-password`` (mode 0600, the hub's user's), and
is used to set the class database up only (:meth:`LocalPostgres.setup_roles`, which
:func:`scatlab.classroom.classdb.prepare_class_database` does): its URL is never given to the
dashboard nor to a learner. The set-up makes the dashboard's role and the registrar's (the
hub's, which makes each learner's own role), each with its random password in
``FOLDER/dashboard-password`` and ``FOLDER/registrar-password`` (0600 too); what each role
may do is in :mod:`scatlab.classroom.classdb`'s notes.

A cluster made before this (``initdb -A trust``, a superuser with no password, whom any
user of the machine could use, and so run programs as the server's user with ``COPY ...
TO PROGRAM``) is upgraded when it is started: the server is stopped if it runs, the
superuser is given a password in single-user mode (no connection is accepted meanwhile),
and ``pg_hba.conf`` is rewritten. Its data is kept. The same happens when the superuser's
password file is lost.

>>> db = LocalPostgres(Path("/tmp/class/postgres"), 5433)
>>> db.address
'127.0.0.1:5433'
>>> db.url_for("scatlab_dashboard", "pw")
'postgresql://scatlab_dashboard:pw@127.0.0.1:5433/postgres'
"""

from __future__ import annotations

import glob
import os
import shutil
import stat
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from ..errors import ClassDatabaseError

__all__ = ["find_binaries", "LocalPostgres", "ClassUrls", "SUPERUSER", "HBA"]

SUPERUSER = "postgres"
"""The cluster's superuser (``initdb -U``)."""
DATABASE = "postgres"
"""The database the class's events are in."""
HBA = """\
# scatlab's class database (scatlab.classroom.pgserver): a password (SCRAM-SHA-256) for every
# connection, on the socket and on 127.0.0.1; nothing is trusted. Rewritten at every start.
# TYPE  DATABASE  USER  ADDRESS       METHOD
local   all       all                 scram-sha-256
host    all       all   127.0.0.1/32  scram-sha-256
"""
"""The cluster's ``pg_hba.conf``."""


def find_binaries() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``: the newest ``/usr/lib/postgresql/N/bin``, else
    the one on ``PATH``; None when PostgreSQL is not installed."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(p.split("/")[4] or 0) if p.split("/")[4].isdigit() else 0,
    )
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    return Path(on_path).parent if on_path else None


def _run_as() -> tuple[list[str], str | None]:
    """The command prefix and the user to run PostgreSQL as (none unless we are root)."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return [], None
    import pwd

    for user in ("postgres", "nobody"):
        try:
            pwd.getpwnam(user)
        except KeyError:
            continue
        return ["runuser", "-u", user, "--"], user
    raise ClassDatabaseError("PostgreSQL cannot run as root and this machine has no postgres or nobody user")


def _trusts(hba: str) -> bool:
    """Whether a ``pg_hba.conf`` text may let someone in without the superuser's SCRAM
    password: a line whose method is not ``scram-sha-256`` (``trust``, ``peer``, ``md5``...),
    or no line at all.

    >>> _trusts(HBA), _trusts("local all all trust"), _trusts("host all all 127.0.0.1/32 md5")
    (False, True, True)
    """
    methods = [[w for w in line.split("#", 1)[0].split() if "=" not in w][-1:] for line in hba.splitlines()]
    methods = [m for m in methods if m]
    return not methods or any(m != ["scram-sha-256"] for m in methods)


@dataclass(frozen=True)
class ClassUrls:
    """The URLs :meth:`LocalPostgres.setup_roles` gives the hub: the dashboard's (read
    only) and the registrar's (the hub's own, to make each learner's role). Shown without
    their passwords."""

    dashboard: str = field(repr=False)
    registrar: str = field(repr=False)


@dataclass(frozen=True)
class LocalPostgres:
    """A PostgreSQL cluster in ``folder`` (its data in ``folder/data``, its socket, log and
    password files beside), listening on 127.0.0.1:``port``."""

    folder: Path
    port: int

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def url_for(self, role: str, password: str) -> str:
        """The URL of ``role`` with ``password`` on this server's class database."""
        return f"postgresql://{quote(role, safe='')}:{quote(password, safe='')}@{self.address}/{DATABASE}"

    @property
    def superuser_url(self) -> str:
        """The superuser's URL, for setting up only (never give it to a learner or a service)."""
        return self.url_for(SUPERUSER, self._password("superuser", make=False))

    @property
    def dashboard_url(self) -> str:
        """The dashboard's URL (read only), once :meth:`setup_roles` has run: for
        ``scatlab class report --db``."""
        from .classdb import DASHBOARD_ROLE

        return self.url_for(DASHBOARD_ROLE, self._password("dashboard", make=False))

    @property
    def data(self) -> Path:
        return self.folder / "data"

    @property
    def log(self) -> Path:
        return self.folder / "server.log"

    def password_file(self, which: str) -> Path:
        """The file of a password: ``superuser``, ``dashboard`` or ``registrar``."""
        if which not in ("superuser", "dashboard", "registrar"):
            raise ClassDatabaseError(
                f"{which!r} is not one of the class database's passwords: superuser, dashboard or registrar"
            )
        return self.folder / f"{which}-password"

    def _password(self, which: str, *, make: bool = True, new: bool = False) -> str:
        """The password kept in :meth:`password_file` (``make``: a new one when there is none;
        ``new``: a new one in any case). The file is 0600, never followed through a link."""
        from .classdb import new_password

        path = self.password_file(which)
        if not new:
            try:
                fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
            except FileNotFoundError:
                if not make:
                    raise ClassDatabaseError(
                        f"the class database's {which} password file {str(path)!r} is missing: "
                        "start the class database (it makes it)"
                    ) from None
            except OSError as exc:
                raise ClassDatabaseError(f"cannot read the password file {str(path)!r}: {exc.strerror}") from None
            else:
                with os.fdopen(fd, encoding="ascii", errors="replace") as file:
                    info = os.fstat(file.fileno())
                    if not stat.S_ISREG(info.st_mode):
                        raise ClassDatabaseError(f"the password file {str(path)!r} is not a regular file")
                    if info.st_mode & 0o077:
                        os.fchmod(file.fileno(), 0o600)
                    text = file.read().strip()
                if text and len(text) <= 200 and all(" " < ch < "\x7f" for ch in text):
                    return text
                raise ClassDatabaseError(
                    f"the password file {str(path)!r} holds no password: delete it and start "
                    "the class database again (a new password is made)"
                )
        password = new_password()
        self.folder.mkdir(parents=True, exist_ok=True)
        _write_private(path, password + "\n")
        return password

    def _bin(self) -> Path:
        found = find_binaries()
        if found is None:
            raise ClassDatabaseError(
                "PostgreSQL is not installed (initdb not found): install it "
                "(Debian: apt-get install postgresql) or set SCATLAB_CLASS_DB to a server's URL"
            )
        return found

    def _run(self, *args: str, timeout: float = 120, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        prefix, _user = _run_as()
        return subprocess.run([*prefix, *args], capture_output=True, text=True, timeout=timeout, cwd="/", input=stdin)

    def initialise(self) -> None:
        """``initdb`` unless the folder already holds a cluster: the superuser with a new
        password (its file made first), SCRAM for every connection."""
        if (self.data / "PG_VERSION").is_file():
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        _prefix, user = _run_as()
        if user is not None:
            shutil.chown(self.folder, user=user)
        password = self._password("superuser", new=True)
        pwfile = self.folder / ".initdb-password"  # initdb's copy, readable by the server's user, deleted after
        _write_private(pwfile, password + "\n", owner=user)
        try:
            done = self._run(
                str(self._bin() / "initdb"),
                "-D",
                str(self.data),
                "--auth=scram-sha-256",
                f"--pwfile={pwfile}",
                "-U",
                SUPERUSER,
                "--no-sync",
                "-E",
                "UTF8",
            )
        finally:
            pwfile.unlink(missing_ok=True)
        if done.returncode:
            why = " ".join((done.stderr or done.stdout).split())[-300:]
            hint = (
                f" (PostgreSQL runs as the {user} user here, who must be able to reach {self.folder}: "
                "every folder above it must be readable by others)"
                if user and "ermission denied" in why
                else ""
            )
            raise ClassDatabaseError(f"initdb failed in {self.data}: {why}{hint}")
        self._write_hba()

    def _write_hba(self) -> None:
        """Write :data:`HBA` over ``pg_hba.conf`` (in place: its owner and mode are kept)."""
        with open(self.data / "pg_hba.conf", "w", encoding="utf-8") as file:
            file.write(HBA)

    def secure(self) -> bool:
        """Upgrade a cluster that trusts its users (``initdb -A trust``, before scatlab asked
        for passwords) or whose superuser's password file is lost: stop it if it runs,
        give the superuser a (new) password in single-user mode, rewrite ``pg_hba.conf``.
        Its data is kept. Any other ``pg_hba.conf`` than :data:`HBA` is rewritten too (and
        a running server reloads it). Returns whether the superuser was given a password."""
        hba = self.data / "pg_hba.conf"
        try:
            text = hba.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            text = ""
        if not _trusts(text) and self.password_file("superuser").exists():
            if text != HBA:
                self._write_hba()
                if self.running():
                    self._run(str(self._bin() / "pg_ctl"), "-D", str(self.data), "reload", timeout=30)
            return False
        if self.running():
            self.stop("fast")
        from .classdb import scram_verifier

        password = self._password("superuser")
        done = self._run(
            str(self._bin() / "postgres"),
            "--single",
            "-D",
            str(self.data),
            "-c",
            "fsync=off",
            "-c",
            "password_encryption=scram-sha-256",
            DATABASE,
            stdin=f"ALTER ROLE {SUPERUSER} PASSWORD '{scram_verifier(password)}';\n",
            timeout=120,
        )
        output = f"{done.stdout}\n{done.stderr}"
        if done.returncode or "ERROR:" in output or "FATAL:" in output:
            why = " ".join(output.split())[-300:]
            raise ClassDatabaseError(
                f"cannot give the superuser of the class database in {self.data} a password: {why}"
            )
        self._write_hba()
        return True

    def running(self) -> bool:
        return self._run(str(self._bin() / "pg_ctl"), "-D", str(self.data), "status", timeout=30).returncode == 0

    def start(self, *, fast: bool = False) -> None:
        """Initialise if needed, upgrade a cluster that trusts its users (:meth:`secure`), and
        start the server (nothing if it runs). ``fast`` turns fsync off (the tests: a crash
        may lose the database)."""
        self.initialise()
        self.secure()
        if not self.running():
            options = (
                f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
                "-c password_encryption=scram-sha-256" + (" -c fsync=off" if fast else "")
            )
            done = self._run(
                str(self._bin() / "pg_ctl"), "-D", str(self.data), "start", "-w", "-l", str(self.log), "-o", options
            )
            if done.returncode:
                tail = self.log.read_text(errors="replace")[-400:] if self.log.is_file() else done.stderr
                raise ClassDatabaseError(f"the class database did not start in {self.data}: {tail.strip()}")

    def setup_roles(self) -> ClassUrls:
        """Set the running server's class database up as its superuser
        (:func:`scatlab.classroom.classdb.prepare_class_database`: the events table, the roles,
        row-level security) with the dashboard's and the registrar's passwords (made once,
        kept in their files), and close the ``template1`` database to PUBLIC too. Returns
        the dashboard's and the registrar's URLs."""
        from .classdb import DASHBOARD_ROLE, REGISTRAR_ROLE, _psycopg, prepare_class_database

        dashboard, registrar = self._password("dashboard"), self._password("registrar")
        superuser = self.superuser_url
        prepare_class_database(superuser, dashboard_password=dashboard, registrar_password=registrar)
        psycopg = _psycopg()
        try:
            with psycopg.connect(superuser, connect_timeout=5, autocommit=True) as pg:
                pg.execute("REVOKE ALL ON DATABASE template1 FROM PUBLIC")
        except psycopg.Error as exc:
            raise ClassDatabaseError(f"cannot close template1 of the class database at {self.address}: {exc}") from None
        return ClassUrls(self.url_for(DASHBOARD_ROLE, dashboard), self.url_for(REGISTRAR_ROLE, registrar))

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``mode``: ``smart``, ``fast`` or ``immediate``); nothing if it is stopped."""
        if self.data.is_dir():
            self._run(str(self._bin() / "pg_ctl"), "-D", str(self.data), "stop", "-w", "-m", mode, timeout=60)


def _write_private(path: Path, text: str, *, owner: str | None = None) -> None:
    """Write ``text`` to ``path``, mode 0600 (given to ``owner`` when named), replacing any
    file or link there without following it."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.unlink(missing_ok=True)
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        if owner is not None:
            shutil.chown(temporary, user=owner)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
