"""The teacher's dashboard: what the class did, from the class database, for the teacher only.

It runs as a JupyterHub service (``deploy/jupyterhub_config.py`` starts it with the hub) at
``/services/dashboard/``. The hub logs the visitor in (OAuth); a user without the hub's
``access:services`` permission, which only the admins (the teacher) have, gets 403 before
any figure is read, so a learner never sees another learner's progress. The page holds no
card of any hand and no learner's typed answer: the figures of :func:`~scatlab.classroom.classdb.class_report`
(lessons opened and finished, stars per step, answers right, the practice rating over
time, the steps the class finds hardest at the first try, the costly decisions of reviewed
games by theme) and a link to the CSV of every event (:func:`~scatlab.classroom.classdb.write_csv`).

:func:`dashboard_html` renders a :class:`~scatlab.classroom.classdb.ClassReport` (no hub, no
database: testable alone); :func:`main` serves it (``python -m scatlab.classroom.dashboard``,
with the environment JupyterHub gives a service, and ``SCATLAB_CLASS_DB``).

>>> from scatlab.classroom.classdb import ClassReport, LearnerReport
>>> page = dashboard_html(ClassReport(3, (LearnerReport("ada", ("01-the-game",), (), 2, 1, {"1.1": 3}),), ()))
>>> "ada" in page and "1.1 ★★★" in page and "1 of 2" in page
True
>>> report = ClassReport(1, (LearnerReport("zoë", (), (), 0, 0, {}),), ())
>>> "href='/hub/class/learners/zo%C3%AB'" in dashboard_html(report, learner_url="/hub/class/learners/")
True
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from html import escape
from typing import Any
from urllib.parse import quote

from ..course.lessons import LESSONS
from .classdb import ClassDatabaseError, ClassReport, LearnerReport, class_report, configured_url, write_csv

__all__ = ["dashboard_html", "problem_html", "rating_svg", "main"]

_TITLES = {lesson.id: f"{lesson.number}. {lesson.title}" for lesson in LESSONS}

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5rem auto; max-width: 72rem; padding: 0 1rem; color: #1f2328; }
a.manage { font-size: .8rem; font-weight: normal; margin-left: .4rem; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { font-size: 1.2rem; margin-top: 2rem; }
.sub { color: #57606a; margin-top: 0; }
table { border-collapse: collapse; width: 100%; font-size: .95rem; }
th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid #d0d7de; vertical-align: top; }
th { background: #f6f8fa; }
.scroll { overflow-x: auto; }
.star { white-space: nowrap; display: inline-block; margin: 0 .5rem .2rem 0; }
.bar { display: inline-block; height: .7rem; background: #cf222e; vertical-align: middle; margin-right: .4rem; }
.theme { margin: 1rem 0; } .theme h3 { font-size: 1.05rem; margin: .2rem 0; }
.none { color: #57606a; font-style: italic; }
a.button { display: inline-block; padding: .35rem .8rem; border: 1px solid #d0d7de; border-radius: 6px;
           text-decoration: none; color: #0969da; margin-right: .5rem; }
"""


def _lesson(lesson_id: str) -> str:
    return _TITLES.get(lesson_id, lesson_id)


def _stars(n: int) -> str:
    return "★" * n + "☆" * (3 - n)


def rating_svg(points: Sequence[int], width: int = 120, height: int = 28) -> str:
    """The practice rating over time as a small line (an inline SVG with a text title for
    screen readers); an empty string for no rating.

    >>> rating_svg([]) == ""
    True
    >>> "<polyline" in rating_svg([1000, 1016, 1005])
    True
    """
    if not points:
        return ""
    low, high = min(points), max(points)
    span = max(high - low, 1)
    step = (width - 4) / max(len(points) - 1, 1)
    xy = " ".join(f"{2 + i * step:.1f},{2 + (height - 4) * (high - p) / span:.1f}" for i, p in enumerate(points))
    title = f"practice rating from {points[0]} to {points[-1]} over {len(points)} answers"
    return (
        f'<svg role="img" aria-label="{title}" width="{width}" height="{height}" viewBox="0 0 {width} {height}">'
        f"<title>{title}</title>"
        f'<polyline fill="none" stroke="#0969da" stroke-width="2" points="{xy}"/></svg>'
    )


def _learner_row(one: LearnerReport, learner_url: str | None = None) -> str:
    opened = ", ".join(escape(_lesson(x)) for x in one.opened) or "<span class='none'>none</span>"
    finished = ", ".join(escape(_lesson(x)) for x in one.finished) or "<span class='none'>none</span>"
    stars = (
        " ".join(
            f"<span class='star' data-step='{escape(step)}'>{escape(step)} {_stars(n)}</span>"
            for step, n in sorted(one.stars.items())
        )
        or "<span class='none'>no step played to its end</span>"
    )
    answers = f"{one.right} of {one.answers}" if one.answers else "<span class='none'>none</span>"
    ratings = [r for _, r in one.rating]
    rating = (
        f"{rating_svg(ratings)} {ratings[-1]} after {len(ratings)} puzzle(s)"
        if ratings
        else "<span class='none'>no practice yet</span>"
    )
    manage = (
        f" <a class='manage' href='{escape(learner_url + quote(one.learner, safe=''))}' "
        f"title='A new secret for {escape(one.learner)}, or remove'>secret / remove</a>"
        if learner_url
        else ""
    )
    return (
        f"<tr class='learner' data-learner='{escape(one.learner)}'><th scope='row'>{escape(one.learner)}{manage}</th>"
        f"<td>{opened}</td><td>{finished}</td>"
        f"<td class='stars'>{stars}</td><td>{answers}</td><td>{rating}</td></tr>"
    )


def dashboard_html(
    report: ClassReport, *, csv_url: str = "events.csv", when: datetime | None = None, learner_url: str | None = None
) -> str:
    """The whole dashboard page for ``report``; with ``learner_url`` (the hub's
    ``/hub/class/learners/``), each learner links to the teacher's page for them (a new
    secret, or remove: ``scatlab.classroom.hub_pages``)."""
    when = when or datetime.now(UTC)
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>Class dashboard</title><style>{_STYLE}</style></head><body>",
        "<h1>Class dashboard</h1>",
        f"<p class='sub'>{len(report.learners)} learner(s), {report.events} event(s); "
        f"as of {when.astimezone(UTC):%Y-%m-%d %H:%M} UTC.</p>",
        f"<p><a class='button' href='.'>Refresh</a><a class='button' href='{escape(csv_url)}' download>"
        "Download every event (CSV)</a></p>",
        "<h2>Learners</h2>",
    ]
    if report.learners:
        parts.append(
            "<div class='scroll'><table class='learners'><thead><tr><th>Learner</th><th>Lessons opened</th>"
            "<th>Finished</th><th>Stars of each step (best play)</th><th>Exercise answers right</th>"
            "<th>Practice rating</th></tr></thead><tbody>"
        )
        parts.extend(_learner_row(one, learner_url) for one in report.learners)
        parts.append("</tbody></table></div>")
    else:
        parts.append("<p class='none'>Nobody has opened a lesson yet.</p>")
    parts.append("<h2>Where the class struggles</h2>")
    if report.struggles:
        parts.append(
            "<p class='sub'>Right at the first try, hardest first: an exercise's first answer, or a step's "
            "first play with two stars or more.</p><div class='scroll'><table class='struggles'><thead><tr>"
            "<th>Lesson</th><th>Step or exercise</th><th>Right at the first try</th></tr></thead><tbody>"
        )
        for s in report.struggles:
            wrong = 1 - s.rate
            parts.append(
                f"<tr><td>{escape(_lesson(s.lesson))}</td><td>{'step' if s.kind == 'step' else 'exercise'} "
                f"{escape(s.item)}</td><td><span class='bar' style='width:{round(60 * wrong)}px'></span>"
                f"{s.first_try} of {s.tried} learner(s) ({round(100 * s.rate)}%)</td></tr>"
            )
        parts.append("</tbody></table></div>")
    else:
        parts.append("<p class='none'>No step or exercise answered yet.</p>")
    parts.append("<h2>Costly decisions in reviewed games, by theme</h2>")
    if report.themes:
        parts.append(
            "<p class='sub'>From the games learners reviewed in lesson 8, the themes with most mistakes "
            "and blunders first; in each, the costliest decisions.</p>"
        )
        for t in report.themes:
            parts.append(
                f"<section class='theme' data-theme='{escape(t.theme)}'><h3>{escape(t.words)}</h3>"
                f"<p>{len(t.decisions)} costly decision(s), {t.serious} of them mistakes or blunders, "
                f"by {t.learners} learner(s).</p><ul>"
            )
            for d in t.decisions[:5]:
                parts.append(
                    f"<li>{escape(d.learner)}, {escape(d.where)}: a {escape(d.label)}, "
                    f"{escape(d.cost_text)} ({escape(d.played)}; better: {escape(d.better)})</li>"
                )
            parts.append("</ul></section>")
    else:
        parts.append("<p class='none'>No reviewed game yet.</p>")
    parts.append("</body></html>")
    return "".join(parts)


def problem_html(message: str) -> str:
    """A page that says, in one line, why there are no figures."""
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Class dashboard</title>"
        f"<style>{_STYLE}</style></head><body><h1>Class dashboard</h1>"
        f"<p class='problem'>{escape(message)}</p></body></html>"
    )


def _app() -> Any:  # pragma: no cover - exercised by tests/browser/test_class_browser.py through a real hub
    from jupyterhub.services.auth import HubOAuthCallbackHandler, HubOAuthenticated
    from jupyterhub.utils import url_path_join
    from tornado import web

    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/services/dashboard/")

    class Page(HubOAuthenticated, web.RequestHandler):  # type: ignore[misc]
        def _url(self) -> str | None:
            url = configured_url()
            if url is None:
                self.set_status(503)
                self.finish(
                    problem_html(
                        "No class database is set: start the hub with SCATLAB_CLASS_DB "
                        "(make class starts one; docs/deploying.md)."
                    )
                )
            return url

        @web.authenticated
        def get(self) -> None:
            url = self._url()
            if url is None:
                return
            self.set_header("Cache-Control", "no-store")
            try:
                hub = os.environ.get("JUPYTERHUB_BASE_URL", "/").rstrip("/") + "/hub/class/learners/"
                page = dashboard_html(class_report(url), learner_url=hub)
            except ClassDatabaseError as exc:
                self.set_status(503)
                page = problem_html(f"The class database cannot be read now: {exc}")
            self.finish(page)

    class Csv(Page):
        @web.authenticated
        def get(self) -> None:
            url = self._url()
            if url is None:
                return
            out = io.StringIO()
            try:
                write_csv(url, out)
            except ClassDatabaseError as exc:
                self.set_status(503)
                self.finish(problem_html(f"The class database cannot be read now: {exc}"))
                return
            self.set_header("Content-Type", "text/csv; charset=utf-8")
            self.set_header("Content-Disposition", 'attachment; filename="class-events.csv"')
            self.set_header("Cache-Control", "no-store")
            self.finish(out.getvalue())

    return web.Application(
        [
            (prefix, Page),
            (url_path_join(prefix, "events.csv"), Csv),
            (url_path_join(prefix, "oauth_callback"), HubOAuthCallbackHandler),
        ],
        cookie_secret=os.urandom(32),
    )


def main(argv: Sequence[str] | None = None) -> int:  # pragma: no cover - a service process
    """Serve the dashboard on the address JupyterHub gave the service (``JUPYTERHUB_SERVICE_URL``)."""
    import asyncio
    from urllib.parse import urlsplit

    url = os.environ.get("JUPYTERHUB_SERVICE_URL")
    if not url:
        print(
            "scatlab dashboard: run it as a JupyterHub service (deploy/jupyterhub_config.py starts it)", file=sys.stderr
        )
        return 2
    where = urlsplit(url)

    async def serve() -> None:
        _app().listen(where.port or 80, where.hostname or "127.0.0.1")
        await asyncio.Event().wait()

    try:
        asyncio.run(serve())
    except KeyboardInterrupt:  # the hub stops its services with SIGINT: a stop, not a crash
        pass
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main(sys.argv[1:]))
