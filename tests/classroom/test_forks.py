"""Lesson kernels forked from one warm parent (scatlab.classroom.forks; issue 52): a forked
kernel is a real kernel with the page's own folder, environment and streams, it answers an
interrupt and a shutdown, it ends when its stand-in is killed, and without a parent a
kernel starts the ordinary way."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scatlab.classroom.forks import KERNEL_SPECS, SOCKET_ENV, socket_path

jupyter_client = pytest.importorskip("jupyter_client")


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wait_gone(pid: int, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not _alive(pid):
            return True
        time.sleep(0.05)
    return False


@pytest.fixture(scope="module")
def parent(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """The warm parent, warmed with the course's own warm-up (as the hub starts it)."""
    folder = tmp_path_factory.mktemp("class")
    path = socket_path(folder)
    proc = subprocess.Popen([sys.executable, "-m", "scatlab.classroom.forks", path], stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not Path(path).exists():
        assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read() if proc.stderr else ""
        time.sleep(0.05)
    yield proc, path
    proc.terminate()
    proc.wait(10)


def _kernel(env: dict[str, str], cwd: Path) -> tuple[Any, Any]:
    km = jupyter_client.KernelManager(kernel_name="python3")
    km.kernel_spec_manager.kernel_dirs = [str(KERNEL_SPECS / "kernels")]
    km.start_kernel(cwd=str(cwd), env=env)
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=60)
    return km, kc


def _run(kc: Any, code: str) -> str:
    out: list[str] = []
    kc.execute_interactive(code, timeout=60, output_hook=lambda m: out.append(m["content"].get("text", "")))
    return "".join(out).strip()


def test_a_forked_kernel_is_a_page_s_own_kernel_and_answers_interrupt_and_shutdown(
    parent: tuple[subprocess.Popen[bytes], str], tmp_path: Path
) -> None:
    proc, path = parent
    env = {**os.environ, SOCKET_ENV: path, "QUERY_STRING": "game=3", "JUPYTERHUB_USER": "ada"}
    seen = []
    for _ in range(2):
        km, kc = _kernel(env, tmp_path)
        assert km.kernel_spec.argv[1:4] == ["-m", "scatlab.classroom.forks", "--kernel"]
        said = _run(
            kc,
            "import os, sys, random, comm; print(os.getcwd(), os.environ['QUERY_STRING'], os.getppid(), "
            "os.getpid(), 'scatlab.course.widgets.steps' in sys.modules, random.random())",
        )
        # the widgets answer: ipywidgets (imported by the parent) registered with this kernel
        targets = _run(kc, "import comm; print(sorted(comm.get_comm_manager().targets))")
        assert "jupyter.widget" in targets and "jupyter.widget.control" in targets, targets
        cwd, query, ppid, pid, warm, rand = said.split()
        assert (cwd, query, int(ppid), warm) == (str(tmp_path), "game=3", proc.pid, "True")  # forked, warm
        seen.append(rand)
        # stop_on_error=False: else ipykernel aborts a request that follows the interrupted one at once
        msg_id = kc.execute("import time; print('sleeping', flush=True); time.sleep(30)", stop_on_error=False)
        while True:  # interrupt once the sleep has begun (a busy machine may take a while)
            msg = kc.get_iopub_msg(timeout=30)
            if msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "stream":
                break
        time.sleep(0.2)
        km.interrupt_kernel()
        reply = kc.get_shell_msg(timeout=10)
        assert reply["content"]["status"] == "error" and reply["content"]["ename"] == "KeyboardInterrupt"
        assert _run(kc, "print(6 * 7)") == "42"
        standin = km.provisioner.pid
        km.shutdown_kernel()
        kc.stop_channels()
        assert _wait_gone(int(pid)) and _wait_gone(standin)
    assert seen[0] != seen[1]  # random is reseeded in every fork


def test_a_killed_stand_in_takes_its_kernel_with_it(
    parent: tuple[subprocess.Popen[bytes], str], tmp_path: Path
) -> None:
    _, path = parent
    km, kc = _kernel({**os.environ, SOCKET_ENV: path}, tmp_path)
    pid = int(_run(kc, "import os; print(os.getpid())"))
    os.kill(km.provisioner.pid, signal.SIGKILL)
    assert _wait_gone(pid), "the forked kernel outlived its killed stand-in"
    kc.stop_channels()
    km.cleanup_resources()


def test_without_a_parent_a_kernel_starts_the_ordinary_way(tmp_path: Path) -> None:
    km, kc = _kernel({**os.environ, SOCKET_ENV: str(tmp_path / "nobody.sock")}, tmp_path)
    ppid = int(_run(kc, "import os; print(os.getppid())"))
    assert _run(kc, "import os; print(os.getpid())") == str(km.provisioner.pid)  # the stand-in became the kernel
    assert ppid == os.getpid()
    km.shutdown_kernel()
    kc.stop_channels()


def test_a_bad_request_is_refused_and_the_parent_keeps_serving(
    parent: tuple[subprocess.Popen[bytes], str], tmp_path: Path
) -> None:
    import socket

    proc, path = parent
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.connect(path)
        conn.sendall(b'{"argv": "not a list"}\n')
    # this user only; as root any user may ask, each kernel taking the asker's user (below)
    assert oct(os.stat(path).st_mode & 0o777) == ("0o666" if os.geteuid() == 0 else "0o600")
    km, kc = _kernel({**os.environ, SOCKET_ENV: path}, tmp_path)
    assert _run(kc, "print('still here')") == "still here" and proc.poll() is None
    km.shutdown_kernel()
    kc.stop_channels()


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root can start kernels as another user"
)
def test_a_root_parent_forks_each_kernel_as_the_user_who_asked() -> None:
    """The learner's user, as the system tells it (SO_PEERCRED), not root and not what the
    request says: a kernel asked for by ``nobody`` runs as nobody."""
    import pwd
    import shutil
    import tempfile

    nobody = pwd.getpwnam("nobody")
    folder = Path(tempfile.mkdtemp(prefix="scatlab-forks-"))
    folder.chmod(0o777)
    path = socket_path(folder)
    parent = subprocess.Popen(
        [sys.executable, "-c", f"from scatlab.classroom.forks import serve; serve({path!r}, warm=False)"],
        stderr=subprocess.DEVNULL,
    )
    asker = None
    try:
        deadline = time.monotonic() + 30
        while not Path(path).exists():
            assert parent.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        ask = (
            "import os, sys, time\n"
            "from scatlab.classroom.forks import request_kernel\n"
            f"print(request_kernel({path!r}, ['-f', {str(folder / 'kernel.json')!r}, '--uid', '0']), flush=True)\n"
            "time.sleep(20)\n"
        )
        asker = subprocess.Popen(
            ["runuser", "-u", "nobody", "--", sys.executable, "-c", ask],
            cwd=folder,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert asker.stdout is not None
        line = asker.stdout.readline()
        assert line.strip().isdigit(), asker.stderr.read() if asker.stderr else line
        seen: set[int] = set()
        for _ in range(100):  # the fork takes the user first thing, a moment after the parent answers
            status = Path(f"/proc/{int(line)}/status").read_text()
            seen = set(map(int, next(row.split()[1:] for row in status.splitlines() if row.startswith("Uid:"))))
            if seen != {0}:
                break
            time.sleep(0.05)
        assert seen == {nobody.pw_uid}, status
    finally:
        if asker is not None:
            asker.kill()
            asker.wait(10)
        parent.terminate()
        parent.wait(10)
        shutil.rmtree(folder, ignore_errors=True)
