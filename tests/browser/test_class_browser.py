"""A class on JupyterHub, for real (issue 52): the hub of ``deploy/jupyterhub_config.py`` with
configurable-http-proxy from the npm registry (``deploy/node_modules``, installed here with
``npm ci`` when missing), the local spawner and the class's own PostgreSQL server (Debian's,
started by the config as ``make class`` starts it), in a temporary class folder.

Three learners log in in Chromium with the class code, each plays a different step to its
end; the teacher logs in and the dashboard shows each learner's own stars and nothing
mixed; a learner who opens the dashboard gets 403. Over plain HTTP: two more learners'
servers and homes are apart, one cannot open another's, and a server is Voilà only."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from scatlab.course.hub import LocalHub
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
        pytest.fail(f"the class hub needs {' and '.join(missing)} (configurable-http-proxy is a node "
                    "program from the npm registry): install Node.js 20 or newer")
    done = subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--prefix", str(DEPLOY)],
                          capture_output=True, text=True, timeout=300)
    if done.returncode or not CHP.is_file():
        pytest.fail(f"`npm ci --prefix deploy` did not install configurable-http-proxy:\n{done.stderr[-2000:]}")


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
    assert hub.login("Mallory", "not-the-code").login_status == 403
    assert hub.login("miss-t", CODE).login_status == 403

    ada = hub.login("  Ada Lovelace ", CODE)
    bob = hub.login("BOB", CODE)
    assert ada.login_status == 302 and bob.login_status == 302, hub.log_text()

    for session, name in ((ada, "ada-lovelace"), (bob, "bob")):
        r = hub.page(session, name)
        assert r.status_code == 200, f"{name}: {r.status_code} {r.url}\n{hub.log_text()}"
        assert "Learn 31" in r.text and "jp-OutputArea" in r.text, r.text[:2000]  # the course index, run

    # each page's kernel was forked from the class's one warm parent (scatlab.course.forks)
    log = hub.log.read_text(errors="replace")
    assert "scatlab kernels: forking warm kernels on" in log, hub.log_text()
    assert all(f" for {name}" in log for name in ("ada-lovelace", "bob")), hub.log_text()

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
    assert hub.login("Miss-T", TEACHER_CODE).login_status == 302
    assert "(idle-culler@127.0.0.1)" in hub.log.read_text(errors="replace")


def _log_in(page: Page, hub: Hub, name: str, code: str) -> None:
    """The hub's login page, as a learner sees it: "Your name" and "Class code"."""
    page.goto(f"{hub.url}/hub/login", wait_until="domcontentloaded")
    page.get_by_label("Your name").fill(name)
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
PLAYS = {"ada": ("01-the-game", "1.1", set(), "★★★"),
         "ben": ("02-draw-or-take", "2.1", {0}, "★★☆"),
         "cy": ("02-draw-or-take", "2.2", {0, 1}, "★☆☆")}


def test_three_learners_play_and_the_teacher_sees_each_ones_own_stars(hub: Hub, browser: Browser) -> None:
    learners = {}
    for name, (lesson, step, wrong, _stars) in PLAYS.items():
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        _log_in(page, hub, name.upper(), CODE)
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
    _log_in(landing, hub, "miss-t", TEACHER_CODE)
    # signed in: the hub sends the teacher on (to the spawn-pending page, or straight to the
    # teacher's own server when it is already up)
    landing.wait_for_url(lambda url: "/hub/login" not in url, timeout=30_000)
    # the landing page may still be waiting for the teacher's own server, and its script
    # navigates once the server is up: the dashboard gets a page of its own (same cookies)
    teacher = teacher_context.new_page()
    response = teacher.goto(f"{hub.url}/services/dashboard/", wait_until="domcontentloaded")
    assert response is not None and response.status == 200, hub.log_text()
    expect(teacher.get_by_role("heading", name="Class dashboard")).to_be_visible()
    for name, (lesson, step, _wrong, stars) in PLAYS.items():
        row = teacher.locator(f"tr.learner[data-learner='{name}']")
        expect(row).to_be_visible()
        expect(row.locator(".star")).to_have_text([f"{step} {stars}"])  # this learner's step only
    expect(teacher.locator("table.struggles")).to_contain_text("step 2.2")
    teacher.screenshot(path=str(ARTIFACTS / "class-dashboard.png"), full_page=True)
    csv_text = teacher.request.get(f"{hub.url}/services/dashboard/events.csv").text()
    assert csv_text.startswith("at,learner,kind") and {"ada", "ben", "cy"} <= {
        line.split(",")[1] for line in csv_text.splitlines()[1:]}


def test_the_z2jh_values_use_the_same_server_settings() -> None:
    """deploy/z2jh-values.yaml gives each learner's server the course's settings, as the tested config does."""
    import yaml  # type: ignore[import-untyped]

    from scatlab.course.hub import singleuser_args

    values = yaml.safe_load((DEPLOY / "z2jh-values.yaml").read_text())
    args = values["hub"]["config"]["KubeSpawner"]["args"]
    assert args[: len(singleuser_args())] == singleuser_args()
    assert "--ServerApp.contents_manager_class=scatlab.course.hub.ReadOnlyContents" in args
    assert values["singleuser"]["defaultUrl"] == "/voila/render/00-index.ipynb"
    assert values["singleuser"]["cmd"] == ["python", "-m", "scatlab.course.server", "--singleuser"]
    assert values["cull"]["enabled"] is True and "SCATLAB_HOME" in values["singleuser"]["extraEnv"]
