"""A class on JupyterHub, for real (issue 52): the hub of ``deploy/jupyterhub_config.py`` with
configurable-http-proxy from the npm registry (``deploy/node_modules``, installed here with
``npm ci`` when missing), the local spawner and the class's own PostgreSQL server (Debian's,
started by the config as ``make class`` starts it), in a temporary class folder.

Three learners claim their names in Chromium with the class code and a secret, each plays a
different step to its end; the teacher logs in and the dashboard shows each learner's own
stars and nothing mixed; a learner who opens the dashboard gets 403. A name then needs its
own secret: the class code alone, a look-alike name and repeated wrong secrets (429) are
refused, and the teacher gives a learner a new secret from the dashboard. Over plain HTTP: two more learners'
servers and homes are apart, one cannot open another's, and a server is Voilà only."""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from scatlab.classroom.classrun import MARKER, class_processes
from scatlab.classroom.forks import KERNEL_NAME, SERVER_NAME
from scatlab.classroom.hub import LocalHub
from scatlab.classroom.spawner import PREFIX, system_user
from scatlab.course.steps import STEPS

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
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
        pytest.fail(
            f"the class hub needs {' and '.join(missing)} (configurable-http-proxy is a node "
            "program from the npm registry): install Node.js 20 or newer"
        )
    done = subprocess.run(
        ["npm", "ci", "--no-audit", "--no-fund", "--prefix", str(DEPLOY)], capture_output=True, text=True, timeout=300
    )
    if done.returncode or not CHP.is_file():
        pytest.fail(f"`npm ci --prefix deploy` did not install configurable-http-proxy:\n{done.stderr[-2000:]}")


def _uid(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(row.split()[1] for row in status.splitlines() if row.startswith("Uid:")))


def _learner_processes(folder: Path) -> list[tuple[str, int]]:
    """(learner, user id) of every process of the class in ``folder`` with a learner's
    JUPYTERHUB_USER: their servers' and kernels' stand-ins, and the kernels started by a
    server itself."""
    found = []
    for pid, _what in class_processes(folder):
        try:
            env = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
            user = next(
                (e[len(b"JUPYTERHUB_USER=") :].decode() for e in env if e.startswith(b"JUPYTERHUB_USER=")), None
            )
            if user and user != "miss-t":
                found.append((user, _uid(pid)))
        except (OSError, ValueError):
            continue
    return found


def _forked(folder: Path) -> list[tuple[bytes, int]]:
    """(name, user id) of every process forked from the warm parent of the class in ``folder``."""
    found = []
    for pid, _what in class_processes(folder):
        try:
            name = Path(f"/proc/{pid}/comm").read_bytes().strip()
            if name in (KERNEL_NAME, SERVER_NAME):
                found.append((name, _uid(pid)))
        except OSError:
            continue
    return found


class Hub(LocalHub):
    def server_env(self, user: str) -> dict[str, str]:
        """The environment of USER's single-user server process."""
        raw = Path(f"/proc/{self.server_pid(user)}/environ").read_bytes()
        return dict(item.split("=", 1) for item in raw.decode().split("\0") if "=" in item)


@pytest.fixture(scope="module")
def hub() -> Iterator[Hub]:
    _ensure_proxy()
    folder = Path(tempfile.mkdtemp(prefix="scatlab-class-"))  # /tmp/pytest-of-root is closed to others
    the_hub = Hub(folder, _free_ports(5), class_code=CODE, teacher_code=TEACHER_CODE, teacher="miss-t")
    try:
        the_hub.start()
    except RuntimeError as exc:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.fail(str(exc))
    try:
        yield the_hub
    finally:
        the_hub.stop()
        shutil.rmtree(folder, ignore_errors=True)


def test_a_class_on_jupyterhub_over_http(hub: Hub) -> None:
    # a wrong class code is refused; so is the teacher's name with the class code
    assert hub.login("Mallory", "mallory-1", "not-the-code").login_status == 403
    assert hub.login("miss-t", CODE).login_status == 403
    assert hub.login("miss-t", CODE, CODE).login_status == 403

    ada = hub.login("  Ada Lovelace ", "ada-secret-1", CODE)
    bob = hub.login("BOB", "bob-secret-1", CODE)
    assert ada.login_status == 302 and bob.login_status == 302, hub.log_text()

    for session, name in ((ada, "ada-lovelace"), (bob, "bob")):
        r = hub.page(session, name)
        assert r.status_code == 200, f"{name}: {r.status_code} {r.url}\n{hub.log_text()}"
        assert "Learn 31" in r.text and "jp-OutputArea" in r.text, r.text[:2000]  # the course index, run
        # the course's own template (Voilà's server extension reads it from the server's
        # settings): nothing fetched from a CDN, the phone's layout in the page
        assert "cdn.jsdelivr.net" not in r.text and "A phone (390 px wide)" in r.text

    # each page's kernel was forked from the class's one warm parent (scatlab.classroom.forks)
    log = hub.log.read_text(errors="replace")
    assert "scatlab kernels: forking warm kernels on" in log, hub.log_text()
    assert all(f" for {name}" in log for name in ("ada-lovelace", "bob")), hub.log_text()

    homes = {name: hub.server_env(name)["SCATLAB_HOME"] for name in ("ada-lovelace", "bob")}
    assert homes["ada-lovelace"] != homes["bob"]
    assert all(Path(h).parent == hub.folder / "learners" / n for n, h in homes.items()), homes

    # no learner's process runs as root: as root, the hub runs each learner as a user of their
    # own (scatlab.classroom.spawner), servers and kernels alike; each home is theirs alone
    learner_uids = set()
    for name in ("ada-lovelace", "bob"):
        uid = _uid(hub.server_pid(name) or 0)
        assert uid != 0 and (os.geteuid() != 0 or uid == pwd.getpwnam(system_user(name)).pw_uid), (name, uid)
        home = hub.folder / "learners" / name
        assert oct(home.stat().st_mode & 0o777) == "0o700" and home.stat().st_uid == uid
        learner_uids.add(uid)
    processes = _learner_processes(hub.folder)
    assert {"ada-lovelace", "bob"} <= {user for user, _uid_ in processes}, processes
    assert all(uid != 0 for _user, uid in processes), processes
    forked = _forked(hub.folder)  # servers and kernels forked from the warm parent (they show its environment)
    assert {SERVER_NAME, KERNEL_NAME} <= {name for name, _uid_ in forked}, forked
    assert all(
        uid != 0 and (os.geteuid() != 0 or pwd.getpwuid(uid).pw_name.startswith(PREFIX)) for _name, uid in forked
    ), forked
    if os.geteuid() == 0:
        assert len(learner_uids) == 2  # one user each

    # Bob cannot open Ada's server
    r = bob.get(f"{hub.url}/user/ada-lovelace/voila/render/00-index.ipynb", timeout=30)
    assert r.status_code == 403 and "jp-OutputArea" not in r.text, (r.status_code, r.url)

    # the server is Voilà only: no JupyterLab, no terminals, no writing the lessons
    assert ada.get(f"{hub.url}/user/ada-lovelace/lab", timeout=30).status_code in (403, 404)
    xsrf = ada.cookies.get("_xsrf", path="/user/ada-lovelace/") or ""
    put = ada.put(
        f"{hub.url}/user/ada-lovelace/api/contents/evil.ipynb",
        headers={"X-XSRFToken": xsrf},
        cookies={"_xsrf": xsrf},
        json={"type": "notebook", "content": {}},
        timeout=30,
    )
    assert put.status_code in (403, 404), put.status_code

    # the teacher logs in with the teacher's code; the idle culler asks the hub about servers
    assert hub.login("Miss-T", TEACHER_CODE).login_status == 302
    assert "(idle-culler@127.0.0.1)" in hub.log.read_text(errors="replace")


def _log_in(page: Page, hub: Hub, name: str, secret: str, code: str = "") -> None:
    """The hub's login page, as a learner sees it: "Your name", "Your secret" and, the
    first time, "Class code"."""
    page.goto(f"{hub.url}/hub/login", wait_until="domcontentloaded")
    page.get_by_label("Your name").fill(name)
    page.get_by_label("Your secret").fill(secret)
    page.get_by_label("Class code").fill(code)
    page.get_by_role("button", name="Sign in").click()


def _wrong(solution: str) -> str:
    """A plausible wrong answer to a typed puzzle: one more (outs, 3/48 for 2/48)."""
    top, _, bottom = solution.partition("/")
    return f"{int(top) + 1}/{bottom}" if bottom else str(int(float(top)) + 1)


def _play_step(page: Page, step_id: str, wrong: set[int]) -> None:
    """Play a step of typed answers to its end, the puzzles in ``wrong`` answered wrong."""
    step = STEPS[step_id]
    box = page.locator(".scatlab-step").filter(has_text=f"Step {step_id}")
    box.scroll_into_view_if_needed()
    questions = step.questions(0)
    for i, q in enumerate(questions):
        expect(box.locator(".widget-label", has_text=f"Puzzle {i + 1} of {step.puzzles}")).to_be_visible()
        box.locator("input").fill(q.solution if i not in wrong else _wrong(q.solution))
        box.get_by_role("button", name="Check").click()
        expect(box.locator(".scatlab-wrong" if i in wrong else ".scatlab-right")).to_be_visible()
        if i < len(questions) - 1:
            box.get_by_role("button", name="Next puzzle").click()
    expect(box.locator(".widget-label", has_text="Step done")).to_be_visible()


# who plays which step, how many wrong, and the stars that earns (the star rule: all right 3,
# one miss 2, at least half right 1)
PLAYS = {
    "ada": ("01-the-game", "1.1", set(), "★★★"),
    "ben": ("02-draw-or-take", "2.1", {0}, "★★☆"),
    "cy": ("02-draw-or-take", "2.2", {0, 1}, "★☆☆"),
}


def test_three_learners_play_and_the_teacher_sees_each_ones_own_stars(hub: Hub, browser: Browser) -> None:
    learners = {}
    for name, (lesson, step, wrong, _stars) in PLAYS.items():
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        _log_in(page, hub, name.upper(), f"{name}-secret", CODE)  # claims the name
        expect(page.locator(".scatlab-course-index")).to_be_visible(timeout=60_000)  # spawned, the course index
        assert page.url.endswith(f"/user/{name}/voila/render/00-index.ipynb"), page.url
        page.goto(f"{hub.url}/user/{name}/voila/render/{lesson}.ipynb", wait_until="domcontentloaded")
        expect(page.locator(".scatlab-step").first).to_be_visible(timeout=60_000)
        _play_step(page, step, wrong)
        learners[name] = page
    ARTIFACTS.mkdir(exist_ok=True)
    learners["cy"].screenshot(path=str(ARTIFACTS / "class-learner-step.png"))

    # a learner cannot open the dashboard: the hub refuses them (403), no figure shown
    ada = learners["ada"]
    response = ada.goto(f"{hub.url}/services/dashboard/", wait_until="domcontentloaded")
    assert response is not None and response.status == 403, (response and response.status, ada.url)
    assert "Class dashboard" not in ada.locator("body").inner_text()

    teacher_context = browser.new_context(viewport={"width": 1280, "height": 900})
    landing = teacher_context.new_page()
    _log_in(landing, hub, "miss-t", TEACHER_CODE)  # the teacher: the teacher's code as the secret
    # signed in: the hub sends the teacher on (to the spawn-pending page, or straight to the
    # teacher's own server when it is already up)
    landing.wait_for_url(lambda url: "/hub/login" not in url, timeout=30_000)
    # the landing page may still be waiting for the teacher's own server, and its script
    # navigates once the server is up: the dashboard gets a page of its own (same cookies)
    teacher = teacher_context.new_page()
    response = teacher.goto(f"{hub.url}/services/dashboard/", wait_until="domcontentloaded")
    assert response is not None and response.status == 200, hub.log_text()
    expect(teacher.get_by_role("heading", name="Class dashboard")).to_be_visible()
    for name, (_lesson, step, _wrong, stars) in PLAYS.items():
        row = teacher.locator(f"tr.learner[data-learner='{name}']")
        expect(row).to_be_visible()
        expect(row.locator(".star")).to_have_text([f"{step} {stars}"])  # this learner's step only
    expect(teacher.locator("table.struggles")).to_contain_text("step 2.2")
    teacher.screenshot(path=str(ARTIFACTS / "class-dashboard.png"), full_page=True)
    csv_text = teacher.request.get(f"{hub.url}/services/dashboard/events.csv").text()
    assert csv_text.startswith("at,learner,kind") and {"ada", "ben", "cy"} <= {
        line.split(",")[1] for line in csv_text.splitlines()[1:]
    }


def test_a_name_needs_its_own_secret_and_the_teacher_can_give_a_new_one(hub: Hub, browser: Browser) -> None:
    """ada claimed her name above. The class code alone is not ada; a look-alike of ada is
    refused; repeated wrong secrets get 429 with Retry-After; the teacher gives ada a new
    secret from the dashboard, and ada logs in with it (the old one no longer works)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    _log_in(page, hub, "ada", CODE, CODE)  # someone who knows only the class code
    expect(page.locator(".login_error")).to_contain_text("not ada's secret")
    assert "/hub/login" in page.url
    _log_in(page, hub, "аda", "mallory-1", CODE)  # a Cyrillic а
    expect(page.locator(".login_error")).to_contain_text("looks too much like ada")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "class-login-look-alike.png"))

    answers = [hub.login("ben", f"guess-{i}").login_status for i in range(6)]
    assert answers == [403] * 5 + [429], answers
    locked = hub.login("ben", "ben-secret")  # even the right secret waits out the lock
    assert locked.login_status == 429 and 0 < int(locked.login_answer.headers["Retry-After"]) <= 60
    assert "Refused a login as ben" in hub.log.read_text(errors="replace")
    _log_in(page, hub, "ben", "ben-secret")
    expect(page.locator("body")).to_contain_text("Too many wrong tries: wait")  # what the learner reads

    teacher_context = browser.new_context(viewport={"width": 1280, "height": 900})
    teacher = teacher_context.new_page()
    _log_in(teacher, hub, "miss-t", TEACHER_CODE)
    teacher.wait_for_url(lambda url: "/hub/login" not in url, timeout=30_000)
    board = teacher_context.new_page()
    board.goto(f"{hub.url}/services/dashboard/", wait_until="domcontentloaded")
    board.locator("tr.learner[data-learner='ada'] a.manage").click()
    expect(board.get_by_role("heading", name="ada")).to_be_visible()
    board.get_by_role("button", name="Give ada a new secret").click()
    secret = board.locator("#the-secret").inner_text().strip()
    assert len(secret.split("-")) == 3, secret
    board.screenshot(path=str(ARTIFACTS / "class-new-secret.png"))
    # a learner cannot open that page
    assert hub.login("cy", "cy-secret").get(f"{hub.url}/hub/class/learners/ada", timeout=30).status_code == 403

    assert hub.login("ada", "ada-secret").login_status == 403  # the old secret stopped working
    _log_in(page, hub, "ada", secret)
    expect(page.locator(".scatlab-course-index")).to_be_visible(timeout=60_000)


def _services(folder: Path) -> dict[str, int]:
    """How many of each class service run: processes marked NAME@folder, but for the kernels
    forked from the parent (they carry its environment; their name tells them apart)."""
    counts: dict[str, int] = {}
    for pid, _what in class_processes(folder):
        env = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        mark = next((e.decode() for e in env if e.startswith(MARKER.encode() + b"=")), None)
        if mark is not None and Path(f"/proc/{pid}/comm").read_bytes().strip() not in (KERNEL_NAME, SERVER_NAME):
            name = mark.split("=", 1)[1].split("@", 1)[0]
            counts[name] = counts.get(name, 0) + 1
    return counts


def test_a_killed_hub_comes_back_whole_and_ctrl_c_stops_everything(hub: Hub) -> None:
    """After SIGKILL of the hub, starting it again (what `make class` runs) ends the services
    the killed hub left, runs one of each, and the teacher's dashboard answers with every
    learner's stars; Ctrl+C then leaves no process of the class."""
    assert _services(hub.folder) == {"dashboard": 1, "idle-culler": 1, "kernels": 1}
    assert hub.process is not None
    os.kill(hub.process.pid, signal.SIGKILL)
    hub.process.wait(10)
    assert _services(hub.folder) == {"dashboard": 1, "idle-culler": 1, "kernels": 1}  # orphans, for now
    hub.process = None
    hub.start(timeout=60)
    assert _services(hub.folder) == {"dashboard": 1, "idle-culler": 1, "kernels": 1}, class_processes(hub.folder)
    assert "a previous hub left running" in hub.log.read_text(errors="replace")

    teacher = hub.login("miss-t", TEACHER_CODE)
    board = teacher.get(f"{hub.url}/services/dashboard/", timeout=60)
    assert board.status_code == 200, (board.status_code, hub.log_text())
    for name, (_lesson, step, _wrong, stars) in PLAYS.items():
        assert f"data-learner='{name}'" in board.text and f"{step} {stars}" in board.text, name

    restarted = hub.process
    assert restarted is not None
    os.kill(restarted.pid, signal.SIGINT)  # Ctrl+C
    restarted.wait(60)
    deadline = time.monotonic() + 20
    while class_processes(hub.folder) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert class_processes(hub.folder) == [], hub.log_text()


def test_the_z2jh_values_use_the_same_server_settings() -> None:
    """deploy/z2jh-values.yaml gives each learner's server the course's settings, as the tested config does."""
    import yaml  # type: ignore[import-untyped]

    from scatlab.classroom.hub import singleuser_args

    values = yaml.safe_load((DEPLOY / "z2jh-values.yaml").read_text())
    args = values["hub"]["config"]["KubeSpawner"]["args"]
    assert args[: len(singleuser_args())] == singleuser_args()
    assert "--ServerApp.contents_manager_class=scatlab.classroom.hub.ReadOnlyContents" in args
    assert values["singleuser"]["defaultUrl"] == "/voila/render/00-index.ipynb"
    assert values["singleuser"]["cmd"] == ["python", "-m", "scatlab.app.server", "--singleuser"]
    assert values["cull"]["enabled"] is True and "SCATLAB_HOME" in values["singleuser"]["extraEnv"]
