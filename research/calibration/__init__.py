"""The calibration study of the knock risk (README.md): ``study`` collects and scores the
knocks, ``deals`` deals a hand again or reorders its stock, ``run`` is the command
(``python -m research.calibration.run`` from the repository's root)."""
