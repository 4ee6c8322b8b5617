"""Lesson 4, the showdown: a deal for every showdown case and every 31 case, played out on the
card table, and the rule that settles it once the hand has ended (:mod:`!scatlab.course.scenarios`)."""

from __future__ import annotations

from html import escape

import ipywidgets as widgets

__all__ = ["ScenarioTable"]


class ScenarioTable(widgets.VBox):  # type: ignore[misc]
    """Lesson 4: pick a deal (every showdown case and every 31 case), read what to do, and
    play it out on the card table (:mod:`scatlab.course.scenarios`)."""

    def __init__(self, key: str = "lowest", pace: float = 0.4) -> None:
        from ..scenarios import SCENARIOS

        self.pace = pace
        self.picker = widgets.Dropdown(
            options=[(f"{s.code}: {s.title}", s.key) for s in SCENARIOS],
            value=key,
            description="Deal",
            layout=widgets.Layout(width="32em"),
        )
        self.instructions = widgets.HTML()
        self.explanation = widgets.HTML()
        self.table_box = widgets.VBox()
        self.picker.observe(lambda _c: self._deal(), "value")
        self.again = widgets.Button(description="Deal it again", layout=widgets.Layout(width="auto"))
        self.again.on_click(lambda _b: self._deal())
        super().__init__([widgets.HBox([self.picker, self.again]), self.instructions, self.table_box, self.explanation])
        self.add_class("scatlab-scenarios")
        self._deal()

    def _deal(self) -> None:
        from ...widgets.table import Table
        from ..scenarios import scenario
        from .course import rule_link

        s = scenario(str(self.picker.value))
        self.scenario = s
        table = self.table = Table(
            s.rules,
            opponents=("tip", "tip"),
            seed=4,
            deal=s.deck(),
            dealer=2,
            pace=self.pace,
            hints=False,
            controls="beginner",
        )
        table.on_new = lambda: table.session.new_game(4, deal=s.deck())  # New game: this deal again, same table
        self.table_box.children = (self.table,)
        self.instructions.value = f"<p class='scatlab-instructions'><b>Your move:</b> {escape(s.instructions)}</p>"
        self._rule_html = (
            f"<p class='scatlab-explanation'><b>What the rules say</b> ({rule_link(s.code)}): "
            f"{escape(s.explanation)}</p>"
        )
        self.table.surface.observe(lambda _c: self._explain(), "state")
        self._explain()

    def _explain(self) -> None:
        """The rule that settles the deal shows once its hand has ended (a showdown or a 31),
        never before: it names who loses. A hand that went another way (the learner played
        other moves than the deal's) is not explained by the deal's rule: the page says so
        and offers the deal again; the table's own result line still says what happened."""
        from ..scenarios import first_hand_losses, followed

        ended = bool(self.table.surface.state.get("showdown"))
        if not ended:
            self.explanation.value = (
                "<p class='scatlab-explanation'><i>The rule that settles this deal shows "
                "here when the hand ends.</i></p>"
            )
        elif (
            followed(self.scenario, self.table.session.record())
            and first_hand_losses(self.table.session.state) == self.scenario.expect
        ):
            self.explanation.value = self._rule_html
        else:
            self.explanation.value = (
                "<p class='scatlab-explanation scatlab-strayed'><b>This hand went another way</b> than the deal "
                "was set for: the result above says who lost and why. To see what this deal shows, press "
                f"<b>Deal it again</b> and follow its instruction: <i>{escape(self.scenario.instructions)}</i></p>"
            )
