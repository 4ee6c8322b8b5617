"""What a lesson page loads when it opens (issue 67): what it shows then, and nothing it shows
only once it is used."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_the_lessons_widgets_load_neither_sympy_nor_a_computer_player_until_one_is_chosen(tmp_path: Path) -> None:
    """Every module the lessons' cells import (the warm kernels import them all ahead) loads
    neither sympy (the analyzer's derivation in full view: no lesson shows it) nor the expert
    or the master; lesson 8's "Against" loads the master when a learner chooses masters."""
    code = (
        "import importlib, sys\n"
        "from scatlab.app.warmup import WARM_MODULES\n"
        "for name in WARM_MODULES:\n"
        "    importlib.import_module(name)\n"
        "from scatlab.course.progress import Progress\n"
        "from scatlab.course.widgets.game_with_hints import GameWithHints\n"
        f"g = GameWithHints(progress=Progress({str(tmp_path / 'p.sqlite3')!r}), hints=False, pace=0)\n"
        "heavy = ('sympy', 'scatlab.analysis.explain.display', 'scatlab.players.expert', 'scatlab.players.master')\n"
        "print([m for m in heavy if m in sys.modules])\n"
        "g.choose.value = 'master'\n"
        "print([m for m in heavy if m in sys.modules], g.opponents)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["[]", "['scatlab.players.expert', 'scatlab.players.master'] master"]
