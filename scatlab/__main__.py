"""``python -m scatlab`` runs the command line (see :mod:`scatlab.cli`)."""

from .cli import main

raise SystemExit(main())
