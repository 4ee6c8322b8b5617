"""The review study (README.md): ``run`` is the study and its command
(``python -m research.review.run`` from the repository's root)."""
