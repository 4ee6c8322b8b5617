"""The app: the course served to one learner, as a Voilà web app (``scatlab serve``) or in
JupyterLab (``scatlab lab``).

Layer 7, above the course (:mod:`scatlab.course`), whose lessons it serves, and below the
classroom (:mod:`scatlab.classroom`), which runs one app per learner behind JupyterHub:

- :mod:`scatlab.app.launch`: ``scatlab serve`` and ``scatlab lab``, and every Voilà setting;
- :mod:`scatlab.app.server`: the Voilà server itself (only a page's routes answer; each
  learner's kernels are counted), also as a JupyterHub single-user server;
- :mod:`scatlab.app.kernel_pool`: warm kernels, started and warmed before a page asks;
- :mod:`scatlab.app.warmup`: what a warm kernel imports and computes ahead;
- :mod:`scatlab.app.limits`: each kernel's memory and CPU-time limits;
- :mod:`scatlab.app.commands`: the ``serve`` and ``lab`` commands;
- ``share/``: the page template and the lessons' kernel spec.

``import scatlab.app`` is light: Voilà and Jupyter are imported only when a server starts.
"""

from __future__ import annotations

__all__: list[str] = []  # its modules are imported by name (each page of the API reference)
