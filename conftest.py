"""Keep every test's course progress out of the user's data folder: the session (and the
notebook kernels nbval starts, which inherit the environment) writes to a temporary
SCATLAB_HOME."""

from __future__ import annotations

import os
import tempfile

if "SCATLAB_TEST_KEEP_HOME" not in os.environ:
    os.environ["SCATLAB_HOME"] = tempfile.mkdtemp(prefix="scatlab-test-home-")
