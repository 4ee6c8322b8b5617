"""The hub's pages of :class:`scatlab.classroom.hub.ClassCodeAuthenticator` (JupyterHub handlers;
imported by the hub only):

- ``/hub/login``: the hub's login page, saying why a login was refused ("That is not ada's
  secret", "type the class code to claim it", a look-alike) instead of one line for every
  case;
- ``/hub/auth/change-password``: a logged-in learner chooses a new secret
  (FirstUseAuthenticator's page);
- ``/hub/class/learners/NAME``: the teacher's page for one learner (admins only; the
  dashboard links each learner to it): a new secret, shown once, or remove the learner
  (their server stopped, the hub's record deleted, then
  :meth:`~scatlab.classroom.hub.ClassCodeAuthenticator.delete_user`). Its forms carry the
  hub's XSRF token, as every hub form does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firstuseauthenticator.firstuseauthenticator import ResetPasswordHandler
from jinja2 import ChoiceLoader, FileSystemLoader
from jupyterhub.handlers import BaseHandler
from jupyterhub.handlers.login import LoginHandler
from tornado import web

from .identity import new_secret, normalize_name

__all__ = ["TEMPLATES", "ClassLoginHandler", "LearnerPage", "handlers"]

TEMPLATES = Path(__file__).parent / "share" / "hub"
"""The templates of these pages (extending the hub's own ``page.html``)."""


class ClassLoginHandler(LoginHandler):  # type: ignore[misc]
    """The login page, with the authenticator's reason for a refusal."""

    custom_login_error = ""

    def _render(self, login_error: str | None = None, username: str | None = None, **kwargs: Any) -> Any:
        return super()._render(self.custom_login_error or login_error, username, **kwargs)


class LearnerPage(BaseHandler):  # type: ignore[misc]
    """The teacher's page for one learner: GET shows it, POST ``action=reset`` gives a new
    secret, POST ``action=remove`` (with ``sure=yes``) removes the learner."""

    def _templates(self) -> None:
        env = self.settings["jinja2_env"]
        if not getattr(env, "_scatlab_hub_pages", False):
            env.loader = ChoiceLoader([env.loader, FileSystemLoader([str(TEMPLATES)])])
            env._scatlab_hub_pages = True

    def _teacher(self) -> Any:
        user = self.current_user
        if user is None:
            raise web.HTTPError(403)
        if not user.admin:
            raise web.HTTPError(403, "only the teacher sees a learner's page")
        return user

    def _learner(self, name: str) -> tuple[str, Any]:
        wanted = normalize_name(name)
        if wanted is None:
            raise web.HTTPError(404, "not a learner's name")
        return wanted, self.find_user(wanted)

    async def _page(self, name: str, user: Any, **extra: Any) -> None:
        self._templates()
        self.finish(
            await self.render_template(
                "class-learner.html",
                learner=name,
                known=user is not None and not user.admin,
                dashboard_url=f"{self.base_url}services/dashboard/",
                **extra,
            )
        )

    @web.authenticated
    async def get(self, name: str) -> None:
        self._teacher()
        wanted, user = self._learner(name)
        await self._page(wanted, user)

    @web.authenticated
    async def post(self, name: str) -> None:
        teacher = self._teacher()
        wanted, user = self._learner(name)
        if user is None or user.admin:
            raise web.HTTPError(404, f"nobody in the class is called {wanted}")
        action = self.get_body_argument("action", "")
        if action == "reset":
            secret = new_secret()
            self.authenticator.set_secret(user.name, secret)
            self.log.warning("%s gave %s a new secret", teacher.name, user.name)
            await self._page(wanted, user, new_secret=secret)
        elif action == "remove" and self.get_body_argument("sure", "") == "yes":
            if user.running:
                await self.stop_single_user(user)
            self.authenticator.delete_user(user)
            await user.delete_spawners()
            self.users.delete(user)
            self.log.warning("%s removed %s from the class", teacher.name, wanted)
            await self._page(wanted, None, removed=True)
        else:
            raise web.HTTPError(400, "the form asks for action=reset, or action=remove with sure=yes")


def handlers() -> list[tuple[str, Any]]:
    """The authenticator's routes (under the hub's prefix, ``/hub``)."""
    return [
        (r"/login", ClassLoginHandler),
        (r"/auth/change-password", ResetPasswordHandler),
        (r"/class/learners/([^/]+)", LearnerPage),
    ]
