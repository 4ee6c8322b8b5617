"""The exceptions scatlab raises: every one is a :class:`ValueError` subclass.

Each kind of mistake has its own class so that callers (the CLI, the widgets) can tell
bad notation from an illegal move or a contradictory rule set, and every message quotes
the offending input and says what would have been accepted (STYLE habit 4).

>>> issubclass(CardError, ValueError) and issubclass(IllegalActionError, ValueError)
True
"""

from __future__ import annotations

__all__ = [
    "ScatlabError",
    "CardError",
    "RulesError",
    "IllegalActionError",
    "RecordError",
    "AnalysisError",
    "PlayerError",
    "ExerciseError",
    "ProgressError",
    "ServeError",
    "SkatError",
    "ClassDatabaseError",
    "BackupError",
]


class ScatlabError(ValueError):
    """Base class of every error scatlab raises on bad input."""


class CardError(ScatlabError):
    """Bad card notation: an unknown rank or suit, a duplicate, a card outside the deck
    in use, or the wrong number of cards."""


class RulesError(ScatlabError):
    """An unknown preset name, an unknown option, or a contradictory combination of
    options."""


class IllegalActionError(ScatlabError):
    """An action that the rules do not allow in the current state.

    The state the action was tried on is never changed (states are immutable)."""


class RecordError(ScatlabError):
    """A game record that cannot be read or replayed; the message names the hand, the
    action index and the reason."""


class AnalysisError(ScatlabError):
    """Inputs to an analysis that do not describe a possible situation: a discard that is
    also in the hand, a card known twice, more opponents than the unseen cards allow."""


class PlayerError(ScatlabError):
    """An unknown player kind, or a bad player parameter."""


class ExerciseError(ScatlabError):
    """An answer that cannot be read (e.g. a word where a number is asked) or an unknown
    exercise or choice."""


class ProgressError(ScatlabError):
    """The progress database cannot be used: its folder cannot be written, it is locked,
    read-only or not a file, or a saved game, lesson name or game id is not acceptable."""


class ServeError(ScatlabError):
    """The app cannot be served as asked: a port in use, a host that is not an address of
    this machine, no lessons folder, or Voilà / JupyterLab not installed."""


class SkatError(ScatlabError):
    """Bad input to the Skat calculator: an unknown contract, a card outside the 32-card
    Skat deck, an impossible number of matadors or an announcement the rules do not allow."""


class ClassDatabaseError(ScatlabError):
    """The class database cannot be used: no URL, a bad URL, psycopg missing, or the
    server cannot be reached (the message is one line and never shows a password)."""


class BackupError(ClassDatabaseError):
    """A class's backup or restore that cannot be done (``scatlab class backup`` and
    ``restore``, :mod:`scatlab.classroom.backup`): not a class folder, not a class backup, or a
    hub of the class still running; the message quotes the file or folder."""
