"""Write the practice page's pools (``scatlab/course/data/practice-pools.json``) from the
games, so the page opens without playing them again (about 3 s per kernel).

Run after changing how puzzles are made (``scatlab/course/puzzles.py``) or the players whose
games they come from; ``tests/course/test_puzzles.py`` fails while the file is out of date.

    python tools/practice_pools.py
"""

from __future__ import annotations

import json

from scatlab.course.puzzles import POOLS_FILE, pools_json


def main() -> None:
    POOLS_FILE.parent.mkdir(parents=True, exist_ok=True)
    POOLS_FILE.write_text(json.dumps(pools_json(), ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {POOLS_FILE}")


if __name__ == "__main__":
    main()
