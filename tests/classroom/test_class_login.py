"""The class's login (:class:`scatlab.classroom.hub.ClassCodeAuthenticator`) and its rules
(:mod:`scatlab.classroom.identity`), tested as a public class: whatever a config makes
reachable, an empty code and the class code for the teacher's account never log in, a name
is claimed once, and wrong tries are locked."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scatlab.classroom.identity import Throttle, look_alike, normalize_name, skeleton

pytest.importorskip("jupyterhub")
pytest.importorskip("firstuseauthenticator")

from tornado.web import HTTPError

from scatlab.classroom.hub import ClassCodeAuthenticator


def _answer(auth: Any, data: dict[str, str], handler: Any = None) -> str | None:
    """The authenticator's answer, on an event loop of its own (a thread: the test's may
    already run one); an exception it raises is raised here."""
    out: list[Any] = []

    def run() -> None:
        try:
            out.append(asyncio.run(auth.authenticate(handler, data)))
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            out.append(exc)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(30)
    assert len(out) == 1, "the authenticator did not answer"
    if isinstance(out[0], BaseException):
        raise out[0]
    return out[0]  # type: ignore[no-any-return]


def _login(auth: Any, name: str, secret: str, class_code: str = "") -> str | None:
    return _answer(auth, {"username": name, "password": secret, "class_code": class_code})


def _authenticator(tmp_path: Path, class_code: str = "blue-cat", teacher_code: str = "t-7") -> Any:
    auth = ClassCodeAuthenticator(
        class_code=class_code,
        teacher_code=teacher_code,
        admin_users={"teacher"},
        dbm_path=str(tmp_path / "secrets"),
        learners_dir=str(tmp_path / "learners"),
        secret_rounds=4,
    )  # bcrypt's cheapest cost: the rules, not the hash, are tested
    auth.throttle.slow = 0.0  # the tests do not wait for the slowing
    return auth


@pytest.mark.parametrize(("class_code", "teacher_code"), [("", ""), ("blue-cat", ""), ("", "t-7"), ("blue-cat", "t-7")])
def test_an_empty_code_never_logs_in(tmp_path: Path, class_code: str, teacher_code: str) -> None:
    """An unset code is not a code: with it unset, or set, an empty code is refused for a
    learner's claim and for the teacher."""
    auth = _authenticator(tmp_path, class_code, teacher_code)
    assert _login(auth, "ada", "secret-1", "") is None
    assert _login(auth, "teacher", "") is None
    assert _login(auth, "teacher", "", "") is None


def test_the_class_code_never_logs_in_as_the_teacher_and_the_teachers_code_needs_the_teachers_name(
    tmp_path: Path,
) -> None:
    auth = _authenticator(tmp_path)
    assert _login(auth, "teacher", "blue-cat") is None
    assert _login(auth, "teacher", "blue-cat", "blue-cat") is None
    assert _login(auth, "Teacher", "blue-cat") is None  # the name is normalised before the check
    assert _login(auth, "teacher", "t-7") == "teacher"
    assert _login(auth, "ada", "t-7") is None  # the teacher's code claims nothing


def test_a_name_is_claimed_once_with_the_class_code_and_then_needs_its_own_secret(tmp_path: Path) -> None:
    auth = _authenticator(tmp_path)
    assert _login(auth, "ada", "ada-secret") is None  # a new name without the class code
    assert (
        _login(auth, "ada", "ada-secret", "BLUE-CAT") is None and _login(auth, "ada", "ada-secret", "blue-cat ") is None
    )
    assert _login(auth, "Ada", "ada-secret", "blue-cat") == "ada"  # claimed
    assert _login(auth, "ada", "blue-cat", "blue-cat") is None  # the class code alone is not ada
    assert _login(auth, "ada", "", "blue-cat") is None
    assert _login(auth, "ada", "other-secret", "blue-cat") is None
    assert _login(auth, "ADA", "ada-secret") == "ada"  # the secret is enough, the code not needed
    files = list(tmp_path.glob("secrets*"))  # dbm names its file(s) after the path
    assert files and all(oct(p.stat().st_mode & 0o777) == "0o600" for p in files)


@pytest.mark.parametrize("secret", ["", "12345", "blue-cat"])
def test_a_claims_secret_has_six_characters_and_is_not_the_class_code(tmp_path: Path, secret: str) -> None:
    auth = _authenticator(tmp_path)
    handler = SimpleNamespace(request=None)
    assert _answer(auth, {"username": "ben", "password": secret, "class_code": "blue-cat"}, handler) is None
    assert "at least 6 characters" in handler.custom_login_error
    assert _login(auth, "ben", "123456", "blue-cat") == "ben"  # six is enough: the boundary


def test_a_name_that_cannot_be_a_learners_is_refused_before_any_code_is_compared(tmp_path: Path) -> None:
    auth = _authenticator(tmp_path)
    for name in ("", "   ", "../ada", "a" * 500, "ada/../teacher", "a" * 40):
        assert _login(auth, name, "secret-1", "blue-cat") is None, name
    assert _login(auth, "a" * 39, "secret-1", "blue-cat") == "a" * 39  # 39 characters: the longest name


def test_names_are_normalised_by_nfkc_and_case_folding() -> None:
    assert normalize_name("ＡＤＡ") == "ada"  # full-width letters are the same name
    assert normalize_name("  Ada   Lovelace ") == "ada-lovelace"
    assert normalize_name("STRASSE") == normalize_name("Straße") == "strasse"
    assert normalize_name("ﬁona") == "fiona"  # the ligature ﬁ
    assert normalize_name("a" * 201) is None


@pytest.mark.parametrize(
    ("new", "existing"),
    [
        ("bеn", "ben"),
        ("teаcher", "teacher"),
        ("ada", "аdа"),
        ("rnia", "mia"),
        ("1ena", "lena"),
        ("nοah", "noah"),
        ("ԁan", "dan"),
    ],
)
def test_a_look_alike_of_a_name_in_the_class_is_refused(tmp_path: Path, new: str, existing: str) -> None:
    assert look_alike(new, [existing]) == existing
    auth = _authenticator(tmp_path)
    if existing != "teacher":
        assert _login(auth, existing, "first-secret", "blue-cat") == existing
    handler = SimpleNamespace(request=None)
    assert _answer(auth, {"username": new, "password": "second-secret", "class_code": "blue-cat"}, handler) is None
    assert "looks too much like" in handler.custom_login_error


@pytest.mark.parametrize(("one", "two"), [("ben", "ben-2"), ("ann", "anne"), ("zoë", "zoe"), ("mia", "nia")])
def test_different_names_are_not_look_alikes(one: str, two: str) -> None:
    assert look_alike(two, [one]) is None and skeleton(one) != skeleton(two)


@given(st.text(min_size=1, max_size=12))
def test_a_name_is_never_its_own_look_alike_and_normalising_is_stable(text: str) -> None:
    name = normalize_name(text)
    if name is not None:
        assert normalize_name(name) == name
        assert look_alike(name, [name]) is None


def test_wrong_tries_for_a_name_are_locked_with_429_and_retry_after(tmp_path: Path) -> None:
    """Five wrong tries lock the name for 60 s (the boundary: the fifth try locks, the
    fourth does not); while locked even the right secret gets 429; then it works again."""
    auth = _authenticator(tmp_path)
    now = [1000.0]
    auth.throttle.clock = lambda: now[0]
    assert _login(auth, "ada", "ada-secret", "blue-cat") == "ada"
    for _ in range(4):
        assert _login(auth, "ada", "wrong-one") is None
    assert _login(auth, "ada", "ada-secret") == "ada"  # four wrong tries, then right: clears the count
    for _ in range(5):
        assert _login(auth, "ada", "wrong-one") is None
    with pytest.raises(HTTPError) as refused:
        _login(auth, "ada", "ada-secret")
    assert refused.value.status_code == 429 and refused.value.headers == {"Retry-After": "60"}  # type: ignore[attr-defined]
    now[0] += 59.5
    with pytest.raises(HTTPError):
        _login(auth, "ada", "ada-secret")
    now[0] += 0.5
    assert _login(auth, "ada", "ada-secret") == "ada"
    for _ in range(5):
        assert _login(auth, "ada", "wrong-one") is None
    assert auth.throttle.wait("ada", "?") == 60  # a success forgets the earlier locks


def test_a_lock_doubles_each_time_up_to_fifteen_minutes() -> None:
    now = [0.0]
    t = Throttle(name_tries=1, lock=60, clock=lambda: now[0])
    waits = []
    for _ in range(6):
        t.fail("ada", "a")
        waits.append(t.wait("ada", "b"))
        now[0] += waits[-1]
    assert waits == [60, 120, 240, 480, 900, 900]


def test_wrong_tries_from_one_address_are_locked_across_names(tmp_path: Path) -> None:
    auth = _authenticator(tmp_path)
    auth.throttle.address_tries = 3
    handler = SimpleNamespace(
        request=SimpleNamespace(headers={"X-Forwarded-For": "6.6.6.6, 10.1.2.3"}, remote_ip="127.0.0.1")
    )
    for name in ("x1", "x2", "x3"):  # guessing the class code with new names
        assert _answer(auth, {"username": name, "password": "secret-1", "class_code": "guess"}, handler) is None
    with pytest.raises(HTTPError) as refused:
        _answer(auth, {"username": "x4", "password": "secret-1", "class_code": "blue-cat"}, handler)
    assert refused.value.status_code == 429
    other = SimpleNamespace(request=SimpleNamespace(headers={"X-Forwarded-For": "10.1.2.4"}, remote_ip="127.0.0.1"))
    assert _answer(auth, {"username": "x4", "password": "secret-1", "class_code": "blue-cat"}, other) == "x4"


def test_the_address_is_the_one_the_proxy_added_not_a_header_the_learner_sent(tmp_path: Path) -> None:
    """A learner who sends X-Real-Ip or their own X-Forwarded-For entries stays at the
    address the hub's proxy appended last."""
    auth = _authenticator(tmp_path)
    auth.throttle.address_tries = 2
    for forged in ("1.1.1.1", "2.2.2.2"):
        handler = SimpleNamespace(
            request=SimpleNamespace(
                headers={"X-Forwarded-For": f"{forged}, 10.9.9.9", "X-Real-Ip": forged}, remote_ip=forged
            )
        )
        assert _answer(auth, {"username": f"y{forged[0]}", "password": "s-123456", "class_code": "no"}, handler) is None
    assert auth.throttle.wait("anyone", "10.9.9.9") > 0


def test_the_teachers_new_secret_replaces_the_old_and_removing_frees_the_name(tmp_path: Path) -> None:
    auth = _authenticator(tmp_path)
    assert _login(auth, "ada", "ada-secret", "blue-cat") == "ada"
    home = tmp_path / "learners" / "ada"
    (home / "scatlab").mkdir(parents=True)
    (home / "scatlab" / "progress.sqlite").write_text("saved")
    auth.set_secret("ada", "tiger-lemon-42")
    assert _login(auth, "ada", "ada-secret") is None
    assert _login(auth, "ada", "tiger-lemon-42") == "ada"
    auth.delete_user(SimpleNamespace(name="ada"))
    assert not home.exists()
    kept = list((tmp_path / "learners" / ".removed").glob("ada-*/scatlab/progress.sqlite"))
    assert [p.read_text() for p in kept] == ["saved"]  # nothing the learner saved is deleted
    assert _login(auth, "ada", "tiger-lemon-42") is None  # a removed name has no secret
    assert _login(auth, "ada", "new-ada-1", "blue-cat") == "ada"  # and can be claimed afresh


def test_a_learners_own_change_of_secret_follows_the_claims_rules(tmp_path: Path) -> None:
    auth = _authenticator(tmp_path)
    assert _login(auth, "ada", "ada-secret", "blue-cat") == "ada"
    assert "at least 6" in auth.reset_password("ada", "short")
    assert "class code" in auth.reset_password("ada", "blue-cat")
    assert "success" in auth.reset_password("ada", "longer-one")
    assert _login(auth, "ada", "longer-one") == "ada"
