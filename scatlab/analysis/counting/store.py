"""Tables that take long to build, kept on disk between processes.

The analysis builds some exact tables once per scoring configuration: the horizon tables,
the ranking's path counts, the opponent model's prior chain, the filter's rankings of every
set of four cards and its last-turn takes, the knock risk's draw classes, the last turn's
values by hand, and the knock line's draw levels (once per line). Each takes 0.05 to 0.3 s,
and every new process (a ``scatlab analyze``, a lesson page's kernel, a test worker) pays
them again. :func:`cached` keeps them as ``.npz`` files in a cache folder, so a fresh process
reads them in milliseconds:

- the folder is ``$SCATLAB_CACHE`` when set (``off``: no files at all), else
  ``$XDG_CACHE_HOME/scatlab`` or ``~/.cache/scatlab``;
- a file's name carries a digest of what the table is for (the scoring rules, the
  parameters) and one of the source of the modules that build it, so a changed program never
  reads an old table; writing a table removes the files of the same table built by other
  sources (an older or newer program), so the folder holds one file per table, not one per
  version of scatlab that ever ran;
- a file is written whole and renamed into place (processes building the same table at
  once each write a complete file); one that cannot be read is built again; a folder that
  cannot be written only costs the time to build.

What is stored is exactly what would be built (tests compare them), so a cache changes
speed, never a number. Deleting the folder is always safe.

>>> import numpy as np
>>> out = cached("example", ("doc", 1), lambda: {"x": np.arange(3)}, sources=())
>>> out["x"].tolist()
[0, 1, 2]
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["cached", "cache_dir"]

Arrays = Mapping[str, npt.NDArray[Any]]


def cache_dir() -> Path | None:
    """The folder tables are kept in, or None when ``SCATLAB_CACHE=off``."""
    setting = os.environ.get("SCATLAB_CACHE")
    if setting == "off":
        return None
    if setting:
        return Path(setting)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "scatlab"


@lru_cache(maxsize=32)
def _source_digest(paths: tuple[str, ...]) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(Path(path).read_bytes())
    return digest.hexdigest()


def cached(name: str, key: object, build: Callable[[], Arrays], sources: Sequence[str] = ()) -> Arrays:
    """The arrays ``build()`` returns for ``key`` (its ``repr`` names it), read from the
    cache folder when a file for ``key`` and the files ``sources`` (the modules whose code
    builds it) is there, else built and written there."""
    folder = cache_dir()
    if folder is None:
        return build()
    here = str(Path(__file__).resolve())
    for_key = hashlib.sha256(f"{name}|{key!r}".encode()).hexdigest()[:16]
    source = _source_digest(tuple(sources) + (here,))[:12]
    path = folder / f"{name}-{for_key}-{source}.npz"
    try:
        with np.load(path, allow_pickle=False) as data:
            return {k: np.asarray(data[k]) for k in data.files}
    except (OSError, ValueError, EOFError, KeyError):
        pass  # missing or unreadable: build it
    arrays = build()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}-", suffix=".npz")
        try:
            with os.fdopen(fd, "wb") as f:
                np.savez(f, **arrays)  # type: ignore[arg-type]
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        _remove_stale(folder, name, for_key, path)
    except OSError:
        pass  # a folder that cannot be written costs only the time to build
    return arrays


def _remove_stale(folder: Path, name: str, for_key: str, kept: Path) -> None:
    """Remove the files of table ``name`` for the same key built by other sources, and the
    files of ``name`` named before keys and sources were digested apart (one 24-digit
    digest), which no program reads any more."""
    for old in folder.glob(f"{name}-*.npz"):
        parts = old.stem[len(name) + 1 :].split("-")
        stale = (len(parts) == 2 and parts[0] == for_key) or (len(parts) == 1 and len(parts[0]) == 24)
        if stale and old != kept:
            try:
                old.unlink()
            except OSError:
                pass  # another process removed it, or it cannot be: it is only a file of the cache
