"""JupyterHub for a class on one machine: ``make class`` (docs/deploying.md, "A class: JupyterHub").

Every setting a teacher may change is an environment variable:

- ``SCATLAB_CLASS_CODE`` (required): the code learners log in with, with any name.
- ``SCATLAB_TEACHER``: the teacher's user name, an admin (default ``teacher``), who logs in
  with ``SCATLAB_TEACHER_CODE`` (required).
- ``SCATLAB_CLASS_DIR``: the class folder (default ``class/`` beside this file): the hub's
  database and secrets, and ``learners/NAME``, each learner's home; their progress is in
  ``learners/NAME/scatlab`` (``SCATLAB_HOME``).
- ``SCATLAB_HUB_IP`` (default 127.0.0.1; 0.0.0.0 for a classroom network) and
  ``SCATLAB_HUB_PORT`` (default 8000); the hub also uses the next two ports on 127.0.0.1
  (the proxy's API and the hub's own), or ``SCATLAB_PROXY_API_PORT`` and ``SCATLAB_HUB_API_PORT``.
- ``SCATLAB_CULL_IDLE`` (default 3600): a learner's server unused this many seconds is stopped.
- ``SCATLAB_CLASS_DB``: the class database's ``postgresql://`` URL, where every learner's
  events go and the teacher's dashboard reads. Unset, the hub starts a PostgreSQL server of
  its own in ``CLASS_DIR/postgres`` on 127.0.0.1 (the next free port after the hub's;
  ``SCATLAB_CLASS_DB_PORT``) and stops it when the hub stops; ``SCATLAB_CLASS_DB=none``
  keeps each learner's progress local only (no dashboard figures).
- ``SCATLAB_DASHBOARD_PORT`` (default: the hub's port + 3): where the teacher's dashboard
  service listens on 127.0.0.1; the hub serves it at ``/services/dashboard/``.
- ``SCATLAB_KERNEL_FORKS`` (default on): ``off`` starts every lesson kernel the ordinary way
  instead of forking it from one warm parent (:mod:`scatlab.course.forks`, the ``kernels``
  service).

Run: ``jupyterhub -f deploy/jupyterhub_config.py`` (``make class`` installs and runs it).
"""

import atexit
import os
import sys
from pathlib import Path

from scatlab.course.app import INDEX, lessons_dir
from scatlab.course.forks import KERNEL_SPECS, SOCKET_ENV, socket_path
from scatlab.course.server import SHARE
from scatlab.course.hub import singleuser_args

c = get_config()  # type: ignore[name-defined]  # noqa: F821  (given by JupyterHub)

HERE = Path(__file__).resolve().parent
CLASS = Path(os.environ.get("SCATLAB_CLASS_DIR") or HERE.parent / "class").resolve()
LEARNERS = CLASS / "learners"
LEARNERS.mkdir(parents=True, exist_ok=True)


def _need(name: str) -> str:
    value = os.environ.get(name, "")
    if not value:
        sys.exit(f"scatlab class: set {name} (see deploy/jupyterhub_config.py); nobody can log in without it")
    return value


# --- where it listens --------------------------------------------------------------------
PORT = int(os.environ.get("SCATLAB_HUB_PORT", "8000"))
c.JupyterHub.ip = os.environ.get("SCATLAB_HUB_IP", "127.0.0.1")
c.JupyterHub.port = PORT
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
    sys.exit(f"scatlab class: configurable-http-proxy is not installed at {CHP}; "
             "run `make class` (or `npm ci --prefix deploy`; it needs node and npm)")
c.ConfigurableHTTPProxy.command = [str(CHP)]
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{int(os.environ.get('SCATLAB_PROXY_API_PORT', PORT + 1))}"

# --- who logs in: any name with the class code; the teacher with the teacher's code ---------
c.JupyterHub.authenticator_class = "scatlab.course.hub.ClassCodeAuthenticator"
c.ClassCodeAuthenticator.class_code = _need("SCATLAB_CLASS_CODE")
c.ClassCodeAuthenticator.teacher_code = _need("SCATLAB_TEACHER_CODE")
c.Authenticator.admin_users = {os.environ.get("SCATLAB_TEACHER", "teacher")}

# --- the login page says "Your name" and "Class code" ----------------------------------------
c.JupyterHub.template_paths = [str(HERE / "templates")]

# --- the class database: given, or a PostgreSQL server of the class's own -------------------
CLASS_DB = os.environ.get("SCATLAB_CLASS_DB", "").strip()
if not CLASS_DB:
    from scatlab.course.pgserver import LocalPostgres

    _db = LocalPostgres(CLASS / "postgres", int(os.environ.get("SCATLAB_CLASS_DB_PORT", PORT + 4)))
    CLASS_DB = _db.start()
    atexit.register(_db.stop)
elif CLASS_DB.lower() == "none":
    CLASS_DB = ""

# --- lesson kernels forked from one warm parent (scatlab.course.forks), unless turned off ----
FORKS = "" if os.environ.get("SCATLAB_KERNEL_FORKS", "").strip().lower() == "off" else socket_path(CLASS)
KERNELS = [str(KERNEL_SPECS)] if FORKS else []  # its python3 kernel spec asks the parent for a fork

# --- each learner's server: a process of this user, with its own home in the class folder ---
c.JupyterHub.spawner_class = "simple"  # jupyterhub.spawner.SimpleLocalProcessSpawner
c.SimpleLocalProcessSpawner.home_dir_template = str(LEARNERS / "{username}")
# jupyterhub-singleuser, started ~0.9 s of CPU sooner (scatlab.course.server.singleuser)
c.Spawner.cmd = [sys.executable, "-m", "scatlab.course.server", "--singleuser"]
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
    *singleuser_args(),  # the course's Voilà settings (scatlab.course.app.voila_options)
    "--ServerApp.contents_manager_class=scatlab.course.hub.ReadOnlyContents",
    "--ServerApp.terminals_enabled=False",
    # Voilà only: no JupyterLab, notebook or language servers in a learner's server
    *(f"--ServerApp.jpserver_extensions={name}=False"
      for name in ("jupyterlab", "notebook_shim", "jupyter_lsp", "jupyter_server_terminals")),
]
if hasattr(os, "geteuid") and os.geteuid() == 0:  # a CI machine or a container runs as root
    c.Spawner.args.append("--ServerApp.allow_root=True")
c.Spawner.start_timeout = 60
c.Spawner.http_timeout = 60

# --- idle learners' servers stopped: jupyterhub-idle-culler as a hub service -----------------
c.JupyterHub.load_roles = [{
    "name": "idle-culler",
    "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
    "services": ["idle-culler"],
}]
c.JupyterHub.services = [{
    "name": "idle-culler",
    "command": [sys.executable, "-m", "jupyterhub_idle_culler",
                f"--timeout={int(os.environ.get('SCATLAB_CULL_IDLE', '3600'))}"],
}, {
    # the teacher's dashboard (scatlab.course.dashboard): only users with access:services,
    # which the admin role has and the learners' role has not, get past the hub's OAuth
    "name": "dashboard",
    "display": True,
    "oauth_no_confirm": True,
    "url": f"http://127.0.0.1:{int(os.environ.get('SCATLAB_DASHBOARD_PORT', PORT + 3))}",
    "command": [sys.executable, "-m", "scatlab.course.dashboard"],
    "environment": {"SCATLAB_CLASS_DB": CLASS_DB},
}]
if FORKS:  # the warm parent every lesson kernel is forked from (its socket: this user only)
    c.JupyterHub.services.append({"name": "kernels", "command": [sys.executable, "-m", "scatlab.course.forks", FORKS]})
