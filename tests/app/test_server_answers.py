"""What the course's server answers when a request or a kernel goes wrong (real servers, no
mocks): a request head longer than 64 kB gets 414/431 at once instead of a dropped
connection; kernels listen on Unix sockets in a private folder (with TCP, a port picked free
was taken by another kernel starting at the same moment, under load, and that kernel died);
a page whose kernel dies at start ends with one line instead of sending heartbeats forever.
The same in a learner's server under JupyterHub (a Jupyter server with
:func:`scatlab.classroom.hub.singleuser_args`)."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers.servers import free_port, stop, wait_ready
from scatlab.app.launch import INDEX, lessons_dir
from scatlab.app.server import PAGE_FAILED, SHARE
from scatlab.classroom.hub import singleuser_args

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the server's kernels from /proc")


class Served:
    def __init__(self, port: int, proc: subprocess.Popen[bytes], log: Path) -> None:
        self.port, self.proc, self.log = port, proc, log


def _serve(home: Path, **env: str) -> Served:
    """``scatlab serve`` on a free port; its console goes to ``home / "serve.log"``."""
    port = free_port()
    log = home / "serve.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "scatlab", "serve", "--no-browser", "--port", str(port)],
            env={**os.environ, "SCATLAB_HOME": str(home), **env},
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        wait_ready(f"http://127.0.0.1:{port}/voila/static/voila.js", proc, log)
    except BaseException:
        stop(proc)
        raise
    return Served(port, proc, log)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    server = _serve(tmp_path_factory.mktemp("scatlab-home"))
    try:
        yield server
    finally:
        stop(server.proc)


def _get(port: int, path: str, headers: dict[str, str] | None = None, timeout: float = 60) -> tuple[int, str, str]:
    """Status, content type and body of a GET, which must end within ``timeout`` seconds (a
    page that keeps sending heartbeats never times a plain read out)."""
    deadline = time.monotonic() + timeout
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path, headers=headers or {})
        r = conn.getresponse()
        body = b""
        while piece := r.read1(65536):
            body += piece
            assert time.monotonic() < deadline, f"{path[:60]}: the answer did not end in {timeout} s"
        return r.status, r.getheader("Content-Type") or "", body.decode("utf-8", "replace")
    finally:
        conn.close()


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        kids = children.get(todo.pop(), [])
        found += kids
        todo += kids
    return found


def _kernel_connection_files(pid: int) -> list[Path]:
    """The connection files (``-f FILE``) of the kernels started under process ``pid``."""
    files = []
    for child in _descendants(pid):
        try:
            args = Path(f"/proc/{child}/cmdline").read_bytes().decode().split("\0")
        except OSError:
            continue
        if "-f" in args and "ipykernel_launcher" in " ".join(args):
            files.append(Path(args[args.index("-f") + 1]))
    return files


def _assert_unix_sockets_in_a_private_folder(files: list[Path]) -> None:
    assert files, "no kernel found"
    for file in files:
        info = json.loads(file.read_text())
        assert info["transport"] == "ipc", info
        folder = file.parent
        assert stat.S_IMODE(folder.stat().st_mode) & 0o077 == 0, f"{folder} is open to others"
        assert Path(info["ip"]).parent == folder
        for channel in ("shell", "iopub", "stdin", "control", "hb"):
            path = Path(f"{info['ip']}-{info[channel + '_port']}")
            assert stat.S_ISSOCK(path.stat().st_mode), path
            assert len(os.fsencode(path)) <= 107


@pytest.mark.parametrize("size", [100_000, 4_000_000])
def test_an_address_or_headers_over_64_kB_get_414_or_431_at_once_and_the_server_keeps_serving(
    served: Served, size: int
) -> None:
    """Tornado closed such a connection without a word (its 64 kB header limit); now the
    client reads why before its 10 s timeout, and the next page loads as before."""
    status, kind, body = _get(served.port, f"/voila/render/{INDEX}?x=" + "a" * size, timeout=10)
    assert (status, kind) == (414, "text/plain; charset=utf-8")
    assert body.strip() == "This page's address is too long (over 64 kB); open the course from its first page."
    status, kind, body = _get(served.port, f"/voila/render/{INDEX}", {"X-Long": "b" * size}, timeout=10)
    assert status == 431 and kind.startswith("text/plain") and body.count("\n") == 1 and "headers" in body
    status, _, page = _get(served.port, f"/voila/render/{INDEX}?x=" + "a" * 30_000)  # long, but allowed
    assert status == 200 and page.rstrip().endswith("</html>")
    status, _, page = _get(served.port, f"/voila/render/{INDEX}")
    assert status == 200 and page.rstrip().endswith("</html>")
    assert "414 GET /voila/render/00-index.ipynb?x=aaa" in served.log.read_text()  # one line for the operator


def test_kernels_listen_on_unix_sockets_in_a_private_folder_and_a_page_renders(served: Served) -> None:
    status, _, page = _get(served.port, f"/voila/render/{INDEX}")
    assert status == 200 and page.rstrip().endswith("</html>") and PAGE_FAILED not in page
    # a warm kernel may still be starting (its sockets not made yet) or a culled one stopping:
    # check the kernels found, again for up to 20 s on a loaded machine
    deadline = time.monotonic() + 20
    while True:
        try:
            _assert_unix_sockets_in_a_private_folder(
                [f for f in _kernel_connection_files(served.proc.pid) if f.exists()]
            )
            break
        except (AssertionError, OSError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)
    assert "Address already in use" not in served.log.read_text()


def test_a_page_whose_kernel_dies_at_start_ends_with_one_line_at_once(tmp_path: Path) -> None:
    """Voilà 0.5.8 lost the error of a kernel that died before answering (a port taken by
    another kernel did that, under load) and kept the page open with a heartbeat every 10 s;
    the page now ends with one line the learner can read, and the server serves on."""
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    shutil.copy(lessons_dir() / INDEX, lessons / INDEX)
    (lessons / "dies.ipynb").write_text(
        json.dumps(
            {
                "cells": [
                    {
                        "cell_type": "code",
                        "execution_count": None,
                        "id": "c1",
                        "metadata": {},
                        "outputs": [],
                        "source": "print('never runs')",
                    }
                ],
                "metadata": {"kernelspec": {"name": "scatlab-test-dies", "display_name": "Dies", "language": "python"}},
                "nbformat": 4,
                "nbformat_minor": 5,
            }
        )
    )
    spec = tmp_path / "share" / "kernels" / "scatlab-test-dies"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(
        json.dumps(
            {
                "argv": [
                    sys.executable,
                    "-c",
                    "raise SystemExit('this kernel dies at start')",
                    "-f",
                    "{connection_file}",
                ],
                "display_name": "Dies",
                "language": "python",
            }
        )
    )
    server = _serve(tmp_path, SCATLAB_LESSONS=str(lessons), JUPYTER_PATH=str(tmp_path / "share"))
    try:
        start = time.monotonic()
        status, _, page = _get(server.port, "/voila/render/dies.ipynb", timeout=60)
        assert time.monotonic() - start < 30
        assert status == 200
        assert PAGE_FAILED in page and page.count(PAGE_FAILED) == 1
        assert "never runs" not in page
        status, _, page = _get(server.port, f"/voila/render/{INDEX}")
        assert status == 200 and page.rstrip().endswith("</html>") and PAGE_FAILED not in page
        assert "A page of dies.ipynb ended early: its kernel did not start" in server.log.read_text()
    finally:
        stop(server.proc)


def test_a_learners_server_under_a_deep_home_answers_long_requests_and_its_kernels_use_unix_sockets(
    tmp_path: Path,
) -> None:
    """A Jupyter server with the hub's single-user arguments (Voilà as a server extension, and
    the course's extension, scatlab.app.server): the same 414, kernels on Unix sockets; its
    runtime folder under a deep home is too long for a socket path (107 bytes), so the kernels'
    files go to a private folder of their own."""
    home = tmp_path / "learners" / ("a-learner-with-a-long-name-" + "x" * 12)
    home.mkdir(parents=True)
    port = free_port()
    log = tmp_path / "server.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER_", "XDG_"))}
    env.update(HOME=str(home), JUPYTER_PATH=str(SHARE), SCATLAB_HOME=str(home / "scatlab"))
    cmd = [
        sys.executable,
        "-m",
        "jupyter_server",
        "--no-browser",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        "--ServerApp.ip=127.0.0.1",
        "--IdentityProvider.token=",
        f"--ServerApp.root_dir={lessons_dir()}",
        *singleuser_args(),
        *(
            f"--ServerApp.jpserver_extensions={name}=False"
            for name in ("jupyterlab", "notebook_shim", "jupyter_lsp", "jupyter_server_terminals")
        ),
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, env=env, cwd=home, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_ready(f"http://127.0.0.1:{port}/api", proc, log)
        status, kind, body = _get(port, f"/voila/render/{INDEX}?x=" + "a" * 100_000, timeout=10)
        assert status == 414 and kind.startswith("text/plain") and "too long" in body
        status, _, page = _get(port, f"/voila/render/{INDEX}")
        assert status == 200 and page.rstrip().endswith("</html>") and PAGE_FAILED not in page
        files = _kernel_connection_files(proc.pid)
        _assert_unix_sockets_in_a_private_folder(files)
        assert all(not f.is_relative_to(home) for f in files)  # moved out of the too-deep runtime folder
        assert "scatlab: kernel connection files in" in log.read_text()
    finally:
        stop(proc)


def _alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie waiting to be reaped does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


@pytest.mark.parametrize("moment", ["just started", "loading a page", "pressed twice"])
def test_ctrl_c_stops_scatlab_serve_cleanly_without_a_traceback_or_a_kernel_left(tmp_path: Path, moment: str) -> None:
    """Ctrl+C in the terminal of ``make serve`` (SIGINT to the whole foreground process
    group): the server stops with exit status 0, says so, prints no
    traceback (not Voilà's, not a kernel's still warming up or running a page's cells) and
    leaves no kernel running; a second Ctrl+C while it stops changes nothing."""
    import threading

    server = _serve(tmp_path)
    try:
        if moment == "loading a page":  # a page's kernel runs the lesson's cells as Ctrl+C comes

            def load() -> None:
                try:
                    _get(server.port, f"/voila/render/{INDEX}", timeout=60)
                except (OSError, http.client.HTTPException, AssertionError):
                    pass  # the server stopped under it

            threading.Thread(target=load, daemon=True).start()
            time.sleep(1.5)
        started = _descendants(server.proc.pid)  # Voilà and its kernels (the pool's still warming up)
        os.killpg(server.proc.pid, signal.SIGINT)
        if moment == "pressed twice":
            time.sleep(0.3)
            os.killpg(server.proc.pid, signal.SIGINT)
        # a liveness bound, not a speed target: on a machine busy with the rest of the suite the
        # kernels still starting (each importing scatlab) can hold the stop for over a minute
        status = server.proc.wait(240)
    finally:
        stop(server.proc)
    said = server.log.read_text(encoding="utf-8", errors="replace")
    assert status == 0, said
    for trouble in ("Traceback", "KeyboardInterrupt", "ERROR", "Error"):
        assert trouble not in said, said
    assert said.rstrip().endswith("Stopping the course server…\nStopped."), said
    assert started, "no Voilà process was found under scatlab serve"
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in started) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [pid for pid in started if _alive(pid)], "a process of the server outlived it"
