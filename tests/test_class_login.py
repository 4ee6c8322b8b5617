"""The class's login (:class:`scatlab.course.hub.ClassCodeAuthenticator`), tested as a
public class: whatever a config makes reachable, an empty code and the class code for the
teacher's account never log in."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

pytest.importorskip("jupyterhub")

from scatlab.course.hub import ClassCodeAuthenticator  # noqa: E402


def _login(auth: Any, name: str, code: str) -> str | None:
    """The authenticator's answer, on an event loop of its own (a thread: the test's may
    already run one)."""
    out: list[str | None] = []
    worker = threading.Thread(
        target=lambda: out.append(asyncio.run(auth.authenticate(None, {"username": name, "password": code}))))
    worker.start()
    worker.join(30)
    assert len(out) == 1, "the authenticator did not answer"
    return out[0]


def _authenticator(class_code: str, teacher_code: str) -> Any:
    return ClassCodeAuthenticator(class_code=class_code, teacher_code=teacher_code, admin_users={"teacher"})


@pytest.mark.parametrize(("class_code", "teacher_code"), [("", ""), ("blue-cat", ""), ("", "t-7"), ("blue-cat", "t-7")])
def test_an_empty_code_never_logs_in(class_code: str, teacher_code: str) -> None:
    """An unset code is not a code: with it unset, or set, an empty code is refused for a
    learner and for the teacher."""
    auth = _authenticator(class_code, teacher_code)
    assert _login(auth, "ada", "") is None
    assert _login(auth, "teacher", "") is None


def test_the_class_code_never_logs_in_as_the_teacher_and_the_teachers_code_needs_the_teachers_name() -> None:
    auth = _authenticator("blue-cat", "t-7")
    assert _login(auth, "teacher", "blue-cat") is None
    assert _login(auth, "Teacher", "blue-cat") is None  # the name is normalised before the check
    assert _login(auth, "teacher", "t-7") == "teacher"
    assert _login(auth, "ada", "blue-cat") == "ada"
    assert _login(auth, "ada", "blue-cat ") is None and _login(auth, "ada", "BLUE-CAT") is None
    same = _authenticator("same", "same")  # a teacher's code equal to the class code: still the teacher's name only
    assert _login(same, "teacher", "same") == "teacher" and _login(same, "ada", "same") == "ada"


def test_a_name_that_cannot_be_a_learners_is_refused_before_any_code_is_compared() -> None:
    auth = _authenticator("blue-cat", "t-7")
    for name in ("", "   ", "../ada", "a" * 500, "ada/../teacher"):
        assert _login(auth, name, "blue-cat") is None, name
