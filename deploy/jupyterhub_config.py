"""JupyterHub for a class on one machine: ``make class`` (docs/deploying.md, "A class: JupyterHub").

Every setting a teacher may change is an environment variable:

- The class code, which a learner types once to claim a name (then they log in with a
  secret of their own), and the teacher's code: ``SCATLAB_CLASS_CODE`` and
  ``SCATLAB_TEACHER_CODE`` when set, else the files ``CLASS_DIR/class-code`` and
  ``CLASS_DIR/teacher-code`` (mode 0600), which the first start fills with new codes and
  names in its log. Never on a command line, where ``ps`` shows it to every user.
- ``SCATLAB_TEACHER``: the teacher's user name, an admin (default ``teacher``).
- ``SCATLAB_CLASS_DIR``: the class folder (default ``class/`` beside this file): the hub's
  database and secrets, and ``learners/NAME``, each learner's home; their progress is in
  ``learners/NAME/scatlab`` (``SCATLAB_HOME``).
- ``SCATLAB_HUB_IP`` (default 127.0.0.1; 0.0.0.0 for a classroom network) and
  ``SCATLAB_HUB_PORT`` (default 8000); the hub also uses the next two ports on 127.0.0.1
  (the proxy's API and the hub's own), or ``SCATLAB_PROXY_API_PORT`` and ``SCATLAB_HUB_API_PORT``.
- ``SCATLAB_SSL_CERT`` and ``SCATLAB_SSL_KEY``: a certificate and its key (PEM files), for
  HTTPS on the hub's port; or ``SCATLAB_TRUSTED_PROXIES=1`` behind a reverse proxy of yours
  that holds the certificate (wrong logins are then counted by the address it forwards).
- ``SCATLAB_CULL_IDLE`` (default 3600): a learner's server unused this many seconds is stopped.
- ``SCATLAB_CLASS_DB``: the class database's ``postgresql://`` URL, where every learner's
  events go and the teacher's dashboard reads (given to every learner's server as it is:
  make it a role that is not a superuser). Unset, the hub starts a PostgreSQL server of
  its own in ``CLASS_DIR/postgres`` on 127.0.0.1 (the next free port after the hub's;
  ``SCATLAB_CLASS_DB_PORT``), with a password for every connection and a role for each
  learner (docs/deploying.md), and stops it when the hub stops; ``SCATLAB_CLASS_DB=none``
  keeps each learner's progress local only (no dashboard figures).
- ``SCATLAB_DASHBOARD_PORT`` (default: the hub's port + 3): where the teacher's dashboard
  service listens on 127.0.0.1; the hub serves it at ``/services/dashboard/``.
- ``SCATLAB_KERNEL_FORKS`` (default on): ``off`` starts every lesson kernel the ordinary way
  instead of forking it from one warm parent (:mod:`scatlab.classroom.forks`, the ``kernels``
  service).

Run: ``jupyterhub -f deploy/jupyterhub_config.py`` (``make class`` installs and runs it).
"""

import atexit
import os
import sys
from pathlib import Path

from scatlab.app.launch import INDEX, lessons_dir
from scatlab.app.server import SHARE
from scatlab.classroom.classrun import end_orphans, hub_running, service_command
from scatlab.classroom.forks import KERNEL_SPECS, SOCKET_ENV, socket_path
from scatlab.classroom.hub import class_code, singleuser_args
from scatlab.classroom.spawner import check_reachable

c = get_config()  # type: ignore[name-defined]  # noqa: F821  (given by JupyterHub)

HERE = Path(__file__).resolve().parent
CLASS = Path(os.environ.get("SCATLAB_CLASS_DIR") or HERE.parent / "class").resolve()
LEARNERS = CLASS / "learners"
os.umask(0o077)  # what the hub writes (its database, secrets, logs) is its own

# --- after a crash: one hub a class; the services a killed hub left running are ended --------
# (their pid files in CLASS/run; scatlab.classroom.classrun). Learners' servers are kept: the hub
# finds them again by the pids in its database.
_running = hub_running(CLASS)
if _running:
    sys.exit(
        f"scatlab class: a hub of this class already runs (pid {_running}); stop it first "
        f"(Ctrl+C where it runs, or kill {_running})"
    )
end_orphans(CLASS)
os.environ["SCATLAB_CLASS_DIR"] = str(CLASS)  # every process the hub starts names its class
LEARNERS.mkdir(parents=True, exist_ok=True)
for _folder in (CLASS, LEARNERS):  # others may pass through to their own home, not list the class
    _folder.chmod(0o711)


# --- where it listens --------------------------------------------------------------------
PORT = int(os.environ.get("SCATLAB_HUB_PORT", "8000"))
c.JupyterHub.ip = os.environ.get("SCATLAB_HUB_IP", "127.0.0.1")
c.JupyterHub.port = PORT
# HTTPS on a classroom network: the hub's own certificate (or a reverse proxy: docs/deploying.md)
if os.environ.get("SCATLAB_SSL_CERT") and os.environ.get("SCATLAB_SSL_KEY"):
    c.JupyterHub.ssl_cert = os.environ["SCATLAB_SSL_CERT"]
    c.JupyterHub.ssl_key = os.environ["SCATLAB_SSL_KEY"]
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = int(os.environ.get("SCATLAB_HUB_API_PORT", PORT + 2))

# --- the hub's own state, in the class folder ---------------------------------------------
c.JupyterHub.db_url = f"sqlite:///{CLASS / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(CLASS / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(CLASS / "jupyterhub.pid")
c.ConfigurableHTTPProxy.pid_file = str(CLASS / "jupyterhub-proxy.pid")

# --- the proxy: configurable-http-proxy from the npm registry, in deploy/node_modules ------
CHP = HERE / "node_modules" / ".bin" / "configurable-http-proxy"
if not CHP.is_file():
    sys.exit(
        f"scatlab class: configurable-http-proxy is not installed at {CHP}; "
        "run `make class` (or `npm ci --prefix deploy`; it needs node and npm)"
    )
c.ConfigurableHTTPProxy.command = [str(CHP)]
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{int(os.environ.get('SCATLAB_PROXY_API_PORT', PORT + 1))}"

# --- who logs in: a learner claims a name with the class code and a secret of their own, -----
# then logs in with that secret; the teacher with the teacher's code (scatlab.classroom.hub)
c.JupyterHub.authenticator_class = "scatlab.classroom.hub.ClassCodeAuthenticator"
c.ClassCodeAuthenticator.class_code = class_code(CLASS, "SCATLAB_CLASS_CODE", "class-code")
c.ClassCodeAuthenticator.teacher_code = class_code(CLASS, "SCATLAB_TEACHER_CODE", "teacher-code")
c.ClassCodeAuthenticator.dbm_path = str(CLASS / "learner-secrets")  # bcrypt hashes, mode 0600
c.ClassCodeAuthenticator.learners_dir = str(LEARNERS)
c.ClassCodeAuthenticator.trusted_proxies = int(
    os.environ.get("SCATLAB_TRUSTED_PROXIES", "0")
)  # a TLS proxy in front: 1
c.Authenticator.admin_users = {os.environ.get("SCATLAB_TEACHER", "teacher")}
c.JupyterHub.concurrent_spawn_limit = 30  # a class logging in at once (the rest: 429 and Retry-After)

# --- the login page says "Your name" and "Class code" ----------------------------------------
c.JupyterHub.template_paths = [str(HERE / "templates")]

# --- the class database: given, or a PostgreSQL server of the class's own -------------------
CLASS_DB = os.environ.get("SCATLAB_CLASS_DB", "").strip()  # every learner's server's URL, when given
DASHBOARD_DB = CLASS_DB  # the dashboard's
if not CLASS_DB:
    # The class's own server: a SCRAM password for every connection (scatlab.classroom.pgserver).
    # Its superuser's (CLASS/postgres/superuser-password) sets the roles up here and goes no
    # further; the dashboard reads with a read-only role; each learner's server gets a role
    # of its own, which may only add that learner's events, made before it starts by the
    # registrar, the hub's role (scatlab.classroom.hubdb.ClassDbEnv, run after any other
    # pre_spawn_hook set above: set another one before this section, not after it).
    from scatlab.classroom.hubdb import ClassDbEnv, chain_hooks
    from scatlab.classroom.pgserver import LocalPostgres

    _db = LocalPostgres(CLASS / "postgres", int(os.environ.get("SCATLAB_CLASS_DB_PORT", PORT + 4)))
    _db.start()
    atexit.register(_db.stop)
    _roles = _db.setup_roles()
    DASHBOARD_DB = _roles.dashboard
    c.Spawner.pre_spawn_hook = chain_hooks(c.Spawner.get("pre_spawn_hook"), ClassDbEnv(_roles.registrar))
elif CLASS_DB.lower() == "none":
    CLASS_DB = DASHBOARD_DB = ""

# --- lesson kernels forked from one warm parent (scatlab.classroom.forks), unless turned off ----
FORKS = "" if os.environ.get("SCATLAB_KERNEL_FORKS", "").strip().lower() == "off" else socket_path(CLASS)
KERNELS = [str(KERNEL_SPECS)] if FORKS else []  # its python3 kernel spec asks the parent for a fork

# --- each learner's server: a process of the learner's own system user when the hub is root --
# (scatlab.classroom.spawner: made by the hub, home 0700), else of this user; home in the class folder
c.JupyterHub.spawner_class = "scatlab.classroom.spawner.ClassSpawner"
c.ClassSpawner.home_dir_template = str(LEARNERS / "{username}")
check_reachable(lessons_dir(), SHARE, KERNEL_SPECS)  # as root: the learners' users must reach them
# jupyterhub-singleuser, started ~0.9 s of CPU sooner (scatlab.app.server.singleuser), and
# with forks on, forked from the warm parent, which has imported it all (scatlab.classroom.forks)
c.Spawner.cmd = (
    [sys.executable, "-m", "scatlab.classroom.forks", "--server"]
    if FORKS
    else [sys.executable, "-m", "scatlab.app.server", "--singleuser"]
)
c.Spawner.notebook_dir = str(lessons_dir())  # Voilà's root: the lessons, nothing else
c.Spawner.default_url = f"/voila/render/{INDEX}"
c.Spawner.environment = {
    "SCATLAB_HOME": lambda spawner: str(LEARNERS / spawner.user.name / "scatlab"),
    "SCATLAB_LESSONS": str(lessons_dir()),
    "JUPYTER_PATH": os.pathsep.join(p for p in (*KERNELS, str(SHARE), os.environ.get("JUPYTER_PATH", "")) if p),
    "PYTHONUNBUFFERED": "1",
    "SCATLAB_CLASS_DB": CLASS_DB,
    SOCKET_ENV: FORKS,
}
c.Spawner.args = [
    *singleuser_args(),  # the course's Voilà settings (scatlab.app.launch.voila_options)
    "--ServerApp.contents_manager_class=scatlab.classroom.hub.ReadOnlyContents",
    "--ServerApp.terminals_enabled=False",
    # Voilà only: no JupyterLab, notebook or language servers in a learner's server
    *(
        f"--ServerApp.jpserver_extensions={name}=False"
        for name in ("jupyterlab", "notebook_shim", "jupyter_lsp", "jupyter_server_terminals")
    ),
]
# a learner's kernels: at most 4 at once, each with 1.5 GiB of data and 30 s of CPU time per
# request (scatlab.app.server, scatlab.app.limits); these variables, set for the hub,
# change them for every learner's server
c.Spawner.environment.update(
    {
        name: os.environ[name]
        for name in ("SCATLAB_KERNELS_PER_LEARNER", "SCATLAB_KERNEL_MEMORY_MB", "SCATLAB_KERNEL_CPU_SECONDS")
        if os.environ.get(name)
    }
)
c.Spawner.disable_user_config = True  # no config of the learner's own from their home
c.Spawner.start_timeout = 60
c.Spawner.http_timeout = 60

# --- idle learners' servers stopped: jupyterhub-idle-culler as a hub service -----------------
c.JupyterHub.load_roles = [
    {
        "name": "idle-culler",
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
        "services": ["idle-culler"],
    }
]
c.JupyterHub.services = [
    {
        "name": "idle-culler",
        "command": service_command(
            CLASS,
            "idle-culler",
            [
                sys.executable,
                "-m",
                "jupyterhub_idle_culler",
                f"--timeout={int(os.environ.get('SCATLAB_CULL_IDLE', '3600'))}",
            ],
        ),
    },
    {
        # the teacher's dashboard (scatlab.classroom.dashboard): only users with access:services,
        # which the admin role has and the learners' role has not, get past the hub's OAuth
        "name": "dashboard",
        "display": True,
        "oauth_no_confirm": True,
        "url": f"http://127.0.0.1:{int(os.environ.get('SCATLAB_DASHBOARD_PORT', PORT + 3))}",
        "command": service_command(CLASS, "dashboard", [sys.executable, "-m", "scatlab.classroom.dashboard"]),
        "environment": {"SCATLAB_CLASS_DB": DASHBOARD_DB},
    },
]
if FORKS:  # the warm parent every lesson kernel is forked from (scatlab.classroom.forks)
    c.JupyterHub.services.append(
        {
            "name": "kernels",
            "command": service_command(
                CLASS, "kernels", [sys.executable, "-m", "scatlab.classroom.forks", "--servers", FORKS]
            ),
        }
    )
