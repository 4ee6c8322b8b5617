"""A class on JupyterHub, for real: the hub of ``deploy/jupyterhub_config.py`` with
configurable-http-proxy from the npm registry (``deploy/node_modules``, installed here with
``npm ci`` when missing) and the local spawner, in a temporary class folder; learners log in
over HTTP with the class code, as a browser does."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
CHP = DEPLOY / "node_modules" / ".bin" / "configurable-http-proxy"
CODE = "blue-cat-31"
TEACHER_CODE = "teacher-secret-7"


def _free_ports(n: int) -> int:
    """A port p with p .. p+n-1 all free on 127.0.0.1."""
    for _ in range(50):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            base = int(s.getsockname()[1])
        if base + n > 65535:
            continue
        ok = True
        for p in range(base, base + n):
            with socket.socket() as s:
                try:
                    s.bind(("127.0.0.1", p))
                except OSError:
                    ok = False
                    break
        if ok:
            return base
    raise RuntimeError("no free ports")


def _ensure_proxy() -> None:
    """configurable-http-proxy in deploy/node_modules, as `make class` installs it."""
    if CHP.is_file():
        return
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if missing:
        pytest.fail(f"the class hub needs {' and '.join(missing)} (configurable-http-proxy is a node "
                    "program from the npm registry): install Node.js 20 or newer")
    done = subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--prefix", str(DEPLOY)],
                          capture_output=True, text=True, timeout=300)
    if done.returncode or not CHP.is_file():
        pytest.fail(f"`npm ci --prefix deploy` did not install configurable-http-proxy:\n{done.stderr[-2000:]}")


class Hub:
    def __init__(self, url: str, folder: Path, log: Path) -> None:
        self.url, self.folder, self.log = url, folder, log

    def login(self, name: str, code: str) -> requests.Session:
        """Log in through the hub's login form, as a browser does."""
        s = requests.Session()
        s.get(f"{self.url}/hub/login", timeout=10)
        xsrf = s.cookies.get("_xsrf", path="/hub/")
        r = s.post(f"{self.url}/hub/login?next=", data={"username": name, "password": code, "_xsrf": xsrf},
                   allow_redirects=False, timeout=30)
        s.login_status = r.status_code  # type: ignore[attr-defined]
        return s

    def page(self, s: requests.Session, user: str, path: str = "voila/render/00-index.ipynb",
             wait: float = 40) -> requests.Response:
        """GET /user/USER/PATH, starting the server (the hub's spawn page) if it is not running."""
        s.get(f"{self.url}/hub/spawn/{user}", timeout=60)
        deadline = time.monotonic() + wait
        while True:
            r = s.get(f"{self.url}/user/{user}/{path}", timeout=60)
            if r.status_code != 424 and "/hub/spawn-pending/" not in r.url or time.monotonic() > deadline:
                return r
            time.sleep(0.3)

    def server_env(self, user: str) -> dict[str, str]:
        """The environment of USER's single-user server process (its pid is in the hub's database)."""
        with sqlite3.connect(self.folder / "jupyterhub.sqlite") as db:
            rows = db.execute("SELECT spawners.state FROM spawners JOIN users ON spawners.user_id = users.id "
                              "WHERE users.name = ?", (user,)).fetchall()
        pid = json.loads(rows[0][0])["pid"]
        raw = Path(f"/proc/{pid}/environ").read_bytes()
        return dict(item.split("=", 1) for item in raw.decode().split("\0") if "=" in item)

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hub]:
    _ensure_proxy()
    folder = tmp_path_factory.mktemp("class")
    port = _free_ports(3)
    env = {**os.environ, "SCATLAB_CLASS_DIR": str(folder), "SCATLAB_HUB_PORT": str(port),
           "SCATLAB_CLASS_CODE": CODE, "SCATLAB_TEACHER_CODE": TEACHER_CODE, "SCATLAB_TEACHER": "miss-t"}
    log = folder / "hub.log"
    bindir = str(Path(sys.executable).parent)
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    with log.open("w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", str(DEPLOY / "jupyterhub_config.py")],
                                cwd=folder, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    the_hub = Hub(url, folder, log)
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                pytest.fail(f"the hub exited ({proc.returncode}):\n{the_hub.log_text()}")
            try:
                if requests.get(f"{url}/hub/api", timeout=2).status_code == 200:
                    break
            except requests.ConnectionError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"the hub did not answer within 30 s:\n{the_hub.log_text()}")
            time.sleep(0.2)
        yield the_hub
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)  # the hub stops the learners' servers and the proxy
            proc.wait(20)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(proc.pid, signal.SIGKILL)
        proxy_pid = folder / "jupyterhub-proxy.pid"  # the proxy runs in its own session
        if proxy_pid.is_file():
            try:
                os.kill(int(proxy_pid.read_text()), signal.SIGTERM)
            except (ProcessLookupError, ValueError):
                pass


def test_a_class_on_jupyterhub(hub: Hub) -> None:
    started = time.monotonic()
    # a wrong class code is refused; so is the teacher's name with the class code
    assert hub.login("Mallory", "not-the-code").login_status == 403  # type: ignore[attr-defined]
    assert hub.login("miss-t", CODE).login_status == 403  # type: ignore[attr-defined]

    ada = hub.login("  Ada Lovelace ", CODE)
    bob = hub.login("BOB", CODE)
    assert ada.login_status == 302 and bob.login_status == 302, hub.log_text()  # type: ignore[attr-defined]

    for session, name in ((ada, "ada-lovelace"), (bob, "bob")):
        r = hub.page(session, name)
        assert r.status_code == 200, f"{name}: {r.status_code} {r.url}\n{hub.log_text()}"
        assert "Learn 31" in r.text and "jp-OutputArea" in r.text, r.text[:2000]  # the course index, run

    homes = {name: hub.server_env(name)["SCATLAB_HOME"] for name in ("ada-lovelace", "bob")}
    assert homes["ada-lovelace"] != homes["bob"]
    assert all(Path(h).parent == hub.folder / "learners" / n for n, h in homes.items()), homes

    # Bob cannot open Ada's server
    r = bob.get(f"{hub.url}/user/ada-lovelace/voila/render/00-index.ipynb", timeout=30)
    assert r.status_code == 403 and "jp-OutputArea" not in r.text, (r.status_code, r.url)

    # the server is Voilà only: no JupyterLab, no terminals, no writing the lessons
    assert ada.get(f"{hub.url}/user/ada-lovelace/lab", timeout=30).status_code == 404
    xsrf = ada.cookies.get("_xsrf", path="/user/ada-lovelace/") or ""
    put = ada.put(f"{hub.url}/user/ada-lovelace/api/contents/evil.ipynb", headers={"X-XSRFToken": xsrf},
                  cookies={"_xsrf": xsrf}, json={"type": "notebook", "content": {}}, timeout=30)
    assert put.status_code in (403, 404), put.status_code

    # the teacher logs in with the teacher's code; the idle culler asks the hub about servers
    assert hub.login("Miss-T", TEACHER_CODE).login_status == 302  # type: ignore[attr-defined]
    assert "(idle-culler@127.0.0.1)" in hub.log.read_text(errors="replace")
    assert time.monotonic() - started < 60


def test_the_z2jh_values_use_the_same_server_settings() -> None:
    """deploy/z2jh-values.yaml gives each learner's server the course's settings, as the tested config does."""
    import yaml  # type: ignore[import-untyped]

    from scatlab.course.hub import singleuser_args

    values = yaml.safe_load((DEPLOY / "z2jh-values.yaml").read_text())
    args = values["hub"]["config"]["KubeSpawner"]["args"]
    assert args[: len(singleuser_args())] == singleuser_args()
    assert "--ServerApp.contents_manager_class=scatlab.course.hub.ReadOnlyContents" in args
    assert values["singleuser"]["defaultUrl"] == "/voila/render/00-index.ipynb"
    assert values["cull"]["enabled"] is True and "SCATLAB_HOME" in values["singleuser"]["extraEnv"]
