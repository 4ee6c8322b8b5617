"""The numbers behind the lessons' charts and tables, as plain Python (tested without a browser).

- :func:`knock_risk_by_value`: the knock risk of a representative hand of each value.
- :func:`preset_rows`: the presets' options side by side.
- :func:`tournament_in_steps`: a small tournament played chunk by chunk (for a progress
  bar), with win rates and their 95% Wilson intervals, its entrants named in a learner's
  words (:func:`learner_entrant_labels`) and each range said in words (:func:`likely_range`).

>>> rows = knock_risk_by_value(opponents=1, values=range(20, 23))
>>> [(r.value, r.hand) for r in rows]
[(20, 'AH 9H 2S'), (21, 'AH KH 2S'), (22, 'AH 9H 2H')]
>>> rows[1].expected_loss
Fraction(8911, 38916)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..cards import Card, format_cards, parse_cards
from ..errors import ScatlabError
from ..rules.options import PRESETS, find_rules
from ..rules.values import hand_value

__all__ = [
    "KnockRow",
    "knock_risk_by_value",
    "representative_hand",
    "preset_rows",
    "PRESET_FIELDS",
    "TournamentStep",
    "tournament_in_steps",
    "learner_entrant_labels",
    "likely_range",
]

_DISCARD = "3C"


def representative_hand(value: int) -> tuple[Card, ...]:
    """The hand the knock chart uses for ``value`` (12 to 31): the first 3-card hand, in
    the order hearts high to low then spades, worth exactly ``value`` under classic rules,
    never holding the 3♣ (the chart's top discard).

    >>> format_cards(representative_hand(31))
    'AH KH QH'
    """
    if not 12 <= value <= 31:
        raise ScatlabError(f"value {value!r} is not charted: use 12 to 31")
    order = parse_cards("AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H 2S 4S")
    for hand in itertools.combinations(order, 3):
        if hand_value(hand) == value:
            return hand
    raise ScatlabError(f"no representative hand of value {value}")  # pragma: no cover


@dataclass(frozen=True)
class KnockRow:
    """One bar of the knock chart: a hand of ``value`` knocking now."""

    value: int
    hand: str
    p_lose_one: Fraction
    p_lose_two: Fraction
    exact: bool

    @property
    def expected_loss(self) -> Fraction:
        """Expected lives lost by knocking."""
        return self.p_lose_one + 2 * self.p_lose_two


def knock_risk_by_value(
    opponents: int = 1, values: Iterable[int] = range(14, 31), *, samples: int = 2000, seed: int = 0
) -> list[KnockRow]:
    """The knock risk of :func:`representative_hand` of each value, with the 3♣ on the
    discard pile and nothing else known, at the start of a hand (the analysis's model:
    each opponent holds a random hand and gets one last turn; exact against one
    opponent, a seeded Monte Carlo estimate of ``samples`` deals against more). Later in
    a hand opponents hold better hands than random ones, so there the risk is higher."""
    from ..analysis import Knowledge, knock_risk

    rows = []
    for v in values:
        hand = representative_hand(v)
        risk = knock_risk(Knowledge.of(hand, _DISCARD, opponents=opponents), samples=samples, seed=seed)
        rows.append(KnockRow(v, format_cards(hand), risk.p_lose_one, risk.p_lose_two, risk.exact))
    return rows


PRESET_FIELDS: tuple[tuple[str, str], ...] = (
    ("deck_size", "cards"),
    ("three_of_a_kind", "three of a kind"),
    ("grand_cadillac", "three Aces 33"),
    ("no_knock_first_round", "no knock in round 1"),
    ("knocker_tie", "knocker tie"),
    ("lives", "lives"),
    ("county", "on the county"),
    ("score_keeping", "score kept as"),
    ("bus_stop", "bus stop"),
    ("rank_tiebreak", "poker tie-break"),
)
"""The options the house-rules table compares, with their column names."""


def preset_rows() -> list[tuple[str, str, list[str]]]:
    """Each preset: its name, its variant codes and its values of :data:`PRESET_FIELDS`.

    >>> rows = preset_rows()
    >>> rows[0][:2], rows[0][2][:3]
    (('classic', 'C1-C14'), ['52', '-', 'no'])
    """
    out = []
    for name, rules in PRESETS.items():
        data = rules.to_dict()
        cells = []
        for key, _label in PRESET_FIELDS:
            value = data[key]
            if isinstance(value, bool):
                cells.append("yes" if value else "no")
            elif value is None:
                cells.append("-")
            else:
                cells.append(str(value).replace("61/2", "30½"))
        codes = rules.describe().split(" with ")[1] if " with " in rules.describe() else "C1-C14"
        out.append((name, codes, cells))
    return out


def learner_entrant_labels(kinds: Sequence[str]) -> tuple[str, ...]:
    """The entrants of a tournament as a learner reads them: a kind that plays once by its
    name, a kind that plays several times numbered (``tip player 1``), never the analyst's
    ``tip#1`` (:func:`scatlab.players.tournament.entrant_labels`).

    >>> learner_entrant_labels(["expert", "tip", "tip"])
    ('expert', 'tip player 1', 'tip player 2')
    """
    counts = {k: list(kinds).count(k) for k in kinds}
    seen: dict[str, int] = {}
    labels = []
    for k in kinds:
        seen[k] = seen.get(k, 0) + 1
        labels.append(k if counts[k] == 1 else f"{k} player {seen[k]}")
    return tuple(labels)


def likely_range(low: float, high: float) -> str:
    """A win rate's 95% interval as a learner reads it, whole percentages in words (no
    "95% interval", no "±").

    >>> likely_range(0.3412, 0.6588)
    'likely between 34% and 66%'
    """
    return f"likely between {low:.0%} and {high:.0%}"


@dataclass(frozen=True)
class TournamentStep:
    """A tournament's standing after ``done`` of ``games`` games; ``labels`` name the
    entrants in a learner's words (:func:`learner_entrant_labels`)."""

    done: int
    games: int
    labels: tuple[str, ...]
    wins: tuple[int, ...]

    def intervals(self) -> list[tuple[float, float, float]]:
        """Each entrant's (win rate, 95% Wilson low, high); floats for display."""
        from ..players.tournament import wilson_interval

        return [(w / self.done if self.done else 0.0, *wilson_interval(w, self.done)) for w in self.wins]


def tournament_in_steps(
    players: Sequence[str], games: int, rules: str = "classic", seed: int = 0, step: int | None = None
) -> Iterator[TournamentStep]:
    """Play a tournament of ``games`` games in steps of ``step`` (default: one round of
    seats, ``n * n`` games), yielding the standing after each. The games are exactly
    those of :func:`scatlab.players.run_tournament` with the same seed.

    >>> last = list(tournament_in_steps(["tip", "random"], 8, seed=1))[-1]
    >>> last.done, sum(last.wins)
    (8, 8)
    """
    from ..players.tournament import play_chunk

    kinds = tuple(players)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ScatlabError(f"games={games!r} is not allowed: play at least 1 game")
    find_rules(rules)
    size = step or len(kinds) * len(kinds)
    wins = [0] * len(kinds)
    labels = learner_entrant_labels(kinds)
    for start in range(0, games, size):
        for g in play_chunk(kinds, rules, seed, range(start, min(games, start + size))):
            wins[g["winner"]] += 1
        yield TournamentStep(min(games, start + size), games, labels, tuple(wins))
