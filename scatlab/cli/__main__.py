"""``python -m scatlab.cli`` runs the command line, as ``python -m scatlab`` does."""

from . import main

raise SystemExit(main())
