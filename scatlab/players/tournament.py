"""Tournaments: many whole games between computer players, with fair seating and statistics.

Each entrant is a player kind (``"expert"``, ``"tip"``, ...); the same kind may enter
several times, and each entry is a separate entrant (labelled ``tip#1``, ``tip#2``). A game
is played from the first deal until one player remains (or a points target is reached),
every action chosen by the entrant's :class:`~scatlab.players.Player` from its
:class:`~scatlab.rules.PlayerView` and its own seeded ``random.Random``.

- Fair seating (:func:`seating`): in game ``g`` entrant ``i`` sits in seat ``(i + g) % n``
  and the first dealer is seat ``(g // n) % n``, so over ``n * n`` games every entrant has
  every seat under every first dealer.
- Reproducibility: a game's decks and every player's random generator are seeded from
  ``(seed, g)`` only, so the result is the same whatever ``jobs``, ``executor`` or
  ``chunk_size``.
- Parallelism: games are played in chunks by :func:`play_chunk`, a top-level function of
  plain data (picklable), submitted to any :class:`concurrent.futures.Executor`: a process
  pool, a thread pool, or a dask.distributed ``Client.get_executor()``.
- A player that returns an action outside ``legal_actions`` stops the tournament with an
  :class:`~scatlab.errors.IllegalActionError` naming the game, the seed and the entrant.

Players are made once per chunk and must decide from the view and the generator alone
(the :class:`~scatlab.players.Player` contract), which is what makes chunking invisible.

>>> result = run_tournament(["tip", "greedy", "random"], games=9, seed=1)
>>> [e.label for e in result.entrants], result.games, sum(e.wins for e in result.entrants)
(['tip', 'greedy', 'random'], 9, 9)
>>> seating(4, 3)   # game 4 of 3 entrants: seats of entrants 0, 1, 2, and the first dealer
((1, 2, 0), 1)
"""

from __future__ import annotations

import concurrent.futures
import math
import os
import random
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..checks import MAX_GAMES, MAX_JOBS, SEED_RANGE, flag, sequence, shown, whole_number
from ..errors import IllegalActionError, ScatlabError
from ..rules.actions import Action
from ..rules.options import PRESETS, RuleSet, find_rules
from ..rules.record import shuffled_deck
from ..rules.state import MAX_PLAYERS, MIN_PLAYERS, GameState, Phase
from ..rules.view import PlayerView
from .base import PLAYER_KINDS, Player, PlayerError, make_player

__all__ = [
    "run_tournament",
    "TournamentResult",
    "EntrantStats",
    "seating",
    "entrant_labels",
    "play_game",
    "play_out",
    "Observer",
    "play_chunk",
    "wilson_interval",
    "MAX_ACTIONS",
]

MAX_ACTIONS = 100_000
"""A game with more actions (and deals) than this is stopped with a RuntimeError: some
player never lets a hand end."""

_Z95 = 1.959963984540054  # the 97.5% quantile of the standard normal distribution

# Per-entrant counters of one game, in this order (plain ints, so chunks pickle cheaply).
_HANDS, _LIVES, _POINTS, _KNOCKS, _KNOCKS_LOST, _DECLARED = range(6)
_COUNTERS = 6


def seating(game: int, entrants: int) -> tuple[tuple[int, ...], int]:
    """The seat of each entrant in game ``game`` and the first dealer's seat.

    Entrant ``i`` sits in seat ``(i + game) % entrants`` and the first dealer is seat
    ``(game // entrants) % entrants``: over any ``entrants ** 2`` consecutive games from a
    multiple of ``entrants ** 2`` every entrant has every seat, and every seat relative to
    the first dealer, exactly once.

    >>> [seating(g, 2) for g in range(4)]
    [((0, 1), 0), ((1, 0), 0), ((0, 1), 1), ((1, 0), 1)]
    """
    if entrants < 1 or game < 0:
        raise ValueError(f"seating({game!r}, {entrants!r}): need game >= 0 and entrants >= 1")
    return tuple((i + game) % entrants for i in range(entrants)), (game // entrants) % entrants


def entrant_labels(kinds: Sequence[str]) -> tuple[str, ...]:
    """Labels for the entrants: the kind, numbered ``kind#1``, ``kind#2`` when repeated.

    >>> entrant_labels(["expert", "tip", "tip"])
    ('expert', 'tip#1', 'tip#2')
    """
    counts: dict[str, int] = {}
    for k in kinds:
        counts[k] = counts.get(k, 0) + 1
    seen: dict[str, int] = {}
    labels = []
    for k in kinds:
        if counts[k] == 1:
            labels.append(k)
        else:
            seen[k] = seen.get(k, 0) + 1
            labels.append(f"{k}#{seen[k]}")
    return tuple(labels)


def wilson_interval(successes: int, trials: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default); (0, 1) with no trials.

    >>> lo, hi = wilson_interval(50, 100)
    >>> round(lo, 4), round(hi, 4)
    (0.4038, 0.5962)
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    # exact ends at 0 and n successes (rounding would leave e.g. 1.4e-17 above a rate of 0)
    low = 0.0 if successes == 0 else max(0.0, min(p, centre - half))
    high = 1.0 if successes == trials else min(1.0, max(p, centre + half))
    return low, high


# -- one game, one chunk (plain data in, plain data out: picklable for any executor) ----


def _rules_payload(rules: RuleSet) -> str | dict[str, Any]:
    """A preset's name, or the options as a dict: what a worker process receives."""
    preset = PRESETS.get(rules.name)
    return rules.name if preset == rules else rules.to_dict()


def _make_players(kinds: Sequence[str]) -> list[Player]:
    return [make_player(k) for k in kinds]


Observer = Callable[[GameState, int, PlayerView, Action, GameState], None]
"""Called after every action of a game: ``(state before, entrant, the mover's view, action,
state after)``."""


def play_out(
    players: Sequence[Player],
    kinds: Sequence[str],
    rules: RuleSet,
    seed: int,
    game: int,
    observer: Observer | None = None,
    announce: bool = False,
) -> tuple[GameState, tuple[int, ...], int]:
    """Play game ``game`` of a tournament with seed ``seed`` to its end: the seating of
    :func:`seating`, the deck and each entrant's choices drawn from ``(seed, game)``. Every
    action is checked to be legal and passed to ``observer``. Returns the final state, the
    entrant in each seat and the number of actions played. With ``announce`` every seat is
    told who sits where (each entrant's kind, :attr:`GameState.seats`), as at the table;
    without, the entrants play as strangers (a tournament's way).

    >>> from scatlab.players import make_player
    >>> state, entrant_at, actions = play_out([make_player("tip"), make_player("random")], ["tip", "random"],
    ...                                       find_rules("classic"), 1, 0)
    >>> state.phase is Phase.GAME_OVER, entrant_at
    (True, (0, 1))
    """
    n = len(players)
    seats, dealer = seating(game, n)
    entrant_at = [0] * n
    for i, s in enumerate(seats):
        entrant_at[s] = i
    deck_rng = random.Random(f"scatlab-tournament:{seed}:{game}:deck")
    rngs = [random.Random(f"scatlab-tournament:{seed}:{game}:entrant:{i}") for i in range(n)]
    state = GameState.new(rules, n, dealer, tuple(str(kinds[entrant_at[s]]) for s in range(n)) if announce else ())
    steps = 0
    while state.phase is not Phase.GAME_OVER:
        steps += 1
        if steps > MAX_ACTIONS:
            raise RuntimeError(
                f"game {game} (tournament seed {seed}, {rules.name} rules, entrants {', '.join(kinds)}) "
                f"did not end within {MAX_ACTIONS:,} actions"
            )
        if state.phase is Phase.DEAL:
            state = state.deal(shuffled_deck(rules, deck_rng))
            continue
        seat = state.to_move
        assert seat is not None
        i = entrant_at[seat]
        view = state.view(seat)
        action = players[i].choose(view, rngs[i])
        if not isinstance(action, Action) or action not in view.legal_actions:
            legal = ", ".join(str(a) for a in view.legal_actions)
            raise IllegalActionError(
                f"game {game} (tournament seed {seed}, {rules.name} rules): entrant {i} ({kinds[i]}) in seat "
                f"{seat} chose {action!r}, which is not legal now (legal: {legal})"
            )
        after = state.apply(action)
        if observer is not None:
            observer(state, i, view, action, after)
        state = after
    return state, tuple(entrant_at), steps - len(state.results)


def _play(
    players: Sequence[Player], kinds: Sequence[str], rules: RuleSet, seed: int, game: int, announce: bool = False
) -> dict[str, Any]:
    state, entrant_at, actions = play_out(players, kinds, rules, seed, game, announce=announce)
    n = len(players)
    counters = [[0] * _COUNTERS for _ in range(n)]
    for r in state.results:
        for seat in range(n):
            if r.values[seat] is None:
                continue  # already out
            c = counters[entrant_at[seat]]
            c[_HANDS] += 1
            c[_LIVES] += r.lives_lost[seat]
            c[_POINTS] += r.points_won[seat]
            if r.knocker == seat:
                c[_KNOCKS] += 1
                if r.lives_lost[seat] >= 1:
                    c[_KNOCKS_LOST] += 1
            if r.ended in ("31", "dealt_31") and seat in r.declarers:
                c[_DECLARED] += 1
    assert state.winner is not None
    return {
        "game": game,
        "winner": entrant_at[state.winner],
        "hands": len(state.results),
        "actions": actions,
        "entrants": counters,
    }


def play_game(kinds: Sequence[str], rules: str | Mapping[str, Any] | RuleSet, seed: int, game: int) -> dict[str, Any]:
    """Play game ``game`` of a tournament and return its plain statistics:
    ``{"game", "winner" (an entrant index), "hands", "actions", "entrants"}``, where
    ``entrants[i]`` is entrant ``i``'s ``[hands played, lives lost, points won, knocks,
    knocks that lost a life, hands ended by their 31]``."""
    return _play(_make_players(kinds), tuple(kinds), find_rules(rules), seed, game)


def play_chunk(
    kinds: Sequence[str], rules: str | Mapping[str, Any], seed: int, games: Sequence[int], announce: bool = False
) -> list[dict[str, Any]]:
    """Play the games numbered ``games`` (see :func:`play_game`); the unit of work sent to an
    executor. Everything in and out is plain data, so it pickles for any process pool or
    cluster."""
    ruleset = find_rules(rules)
    players = _make_players(kinds)
    names = tuple(kinds)
    return [_play(players, names, ruleset, seed, g, announce) for g in games]


# -- results ----------------------------------------------------------------------------


@dataclass(frozen=True)
class EntrantStats:
    """One entrant's statistics over a tournament.

    ``knocks`` counts the hands this entrant ended by knocking (or by a hammer, throw-down
    or bus stop, which are scored like a knock); ``knocks_lost`` those in which it lost at
    least one life; ``declared_31`` the hands it ended by declaring 31 (dealt or made).
    """

    label: str
    kind: str
    games: int
    wins: int
    win_rate: float
    win_low: float
    """The 95% Wilson confidence interval of the win rate: lower end."""
    win_high: float
    """... upper end."""
    hands: int
    lives_lost: int
    lives_per_hand: float
    points_won: int
    knocks: int
    knocks_lost: int
    declared_31: int

    def to_json(self) -> dict[str, Any]:
        """The statistics as JSON-ready data."""
        return {
            "label": self.label,
            "kind": self.kind,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "win_rate_ci95": [self.win_low, self.win_high],
            "hands": self.hands,
            "lives_lost": self.lives_lost,
            "lives_lost_per_hand": self.lives_per_hand,
            "points_won": self.points_won,
            "knocks": self.knocks,
            "knocks_lost_life": self.knocks_lost,
            "declared_31": self.declared_31,
        }


@dataclass(frozen=True)
class TournamentResult:
    """The outcome of :func:`run_tournament`: per-entrant statistics and the totals.

    ``winners`` lists the winning entrant of every game, in game order.
    """

    players: tuple[str, ...]
    rules: str
    seed: int
    games: int
    hands: int
    actions: int
    entrants: tuple[EntrantStats, ...]
    winners: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """The result as JSON-ready data (without the per-game winners)."""
        return {
            "rules": self.rules,
            "seed": self.seed,
            "players": list(self.players),
            "games": self.games,
            "hands": self.hands,
            "actions": self.actions,
            "seating": "game g: entrant i in seat (i + g) % n, first dealer (g // n) % n",
            "entrants": [e.to_json() for e in self.entrants],
        }

    def table(self) -> str:
        """A fixed-width text table, one row per entrant, with 95% confidence intervals."""
        points = any(e.points_won for e in self.entrants)
        head = [
            f"{'entrant':<12}",
            f"{'wins':>7}",
            f"{'win rate':>8}",
            f"{'95% CI':>15}",
            f"{'hands':>8}",
            f"{'lives lost':>10}",
            f"{'per hand':>8}",
            f"{'knocks':>7}",
            f"{'lost a life':>11}",
            f"{'31s':>6}",
        ]
        if points:
            head.append(f"{'points':>7}")
        title = (
            f"{self.games:,} games of {self.rules} ({self.hands:,} hands), seed {self.seed}; "
            f"seats rotate every game, the first dealer every {len(self.players)} games"
        )
        lines = [title, "  ".join(head)]
        for e in self.entrants:
            ci = f"{100 * e.win_low:.1f}-{100 * e.win_high:.1f}%"
            knock_loss = f"{e.knocks_lost:,}" + (f" ({100 * e.knocks_lost / e.knocks:.0f}%)" if e.knocks else "")
            row = [
                f"{e.label:<12}",
                f"{e.wins:>7,}",
                f"{100 * e.win_rate:>7.1f}%",
                f"{ci:>15}",
                f"{e.hands:>8,}",
                f"{e.lives_lost:>10,}",
                f"{e.lives_per_hand:>8.3f}",
                f"{e.knocks:>7,}",
                f"{knock_loss:>11}",
                f"{e.declared_31:>6,}",
            ]
            if points:
                row.append(f"{e.points_won:>7,}")
            lines.append("  ".join(row))
        return "\n".join(lines)


def _aggregate(kinds: tuple[str, ...], rules: RuleSet, seed: int, per_game: list[dict[str, Any]]) -> TournamentResult:
    n = len(kinds)
    totals = [[0] * _COUNTERS for _ in range(n)]
    wins = [0] * n
    winners = []
    hands = actions = 0
    for g in per_game:
        winners.append(g["winner"])
        wins[g["winner"]] += 1
        hands += g["hands"]
        actions += g["actions"]
        for i in range(n):
            for k in range(_COUNTERS):
                totals[i][k] += g["entrants"][i][k]
    games = len(per_game)
    entrants = []
    for i, (label, kind) in enumerate(zip(entrant_labels(kinds), kinds)):
        t = totals[i]
        low, high = wilson_interval(wins[i], games)
        entrants.append(
            EntrantStats(
                label=label,
                kind=kind,
                games=games,
                wins=wins[i],
                win_rate=wins[i] / games if games else 0.0,
                win_low=low,
                win_high=high,
                hands=t[_HANDS],
                lives_lost=t[_LIVES],
                lives_per_hand=t[_LIVES] / t[_HANDS] if t[_HANDS] else 0.0,
                points_won=t[_POINTS],
                knocks=t[_KNOCKS],
                knocks_lost=t[_KNOCKS_LOST],
                declared_31=t[_DECLARED],
            )
        )
    return TournamentResult(kinds, rules.name, seed, games, hands, actions, tuple(entrants), tuple(winners))


# -- the runner ---------------------------------------------------------------------------


def _check_kinds(players: Sequence[str]) -> tuple[str, ...]:
    if isinstance(players, str):
        players = players.split(",")
    sequence("players", players, f"player kinds ({', '.join(PLAYER_KINDS)})", error=PlayerError, most=MAX_PLAYERS)
    kinds = []
    for p in players:
        if not isinstance(p, str) or not p.strip():
            raise PlayerError(f"player kind {shown(p)} is not allowed: choose among {', '.join(PLAYER_KINDS)}")
        kind = p.strip().lower()
        try:
            make_player(kind)
        except ImportError as exc:
            raise PlayerError(f"the {kind} player is not available: {exc}") from None
        kinds.append(kind)
    if not MIN_PLAYERS <= len(kinds) <= MAX_PLAYERS:
        raise PlayerError(
            f"{len(kinds)} entrant{'s' if len(kinds) != 1 else ''} given: a tournament needs "
            f"{MIN_PLAYERS} to {MAX_PLAYERS}, the players of one game of 31 (C2)"
        )
    return tuple(kinds)


def run_tournament(
    players: Sequence[str],
    games: int,
    rules: RuleSet | str | Mapping[str, Any] = "classic",
    seed: int = 0,
    *,
    executor: concurrent.futures.Executor | None = None,
    jobs: int = 1,
    progress: bool | None = None,
    chunk_size: int | None = None,
    announce: bool = False,
) -> TournamentResult:
    """Play ``games`` whole games between ``players`` (player kinds, one per entrant).

    Game ``g`` seats the entrants by :func:`seating` and draws all its randomness from
    ``(seed, g)``, so the result never depends on ``executor``, ``jobs`` or ``chunk_size``.
    Chunks of games go to ``executor`` (any :class:`concurrent.futures.Executor`, e.g. a
    dask.distributed ``client.get_executor()``); without one they are played in this
    process when ``jobs`` is 1, else by a process pool of ``jobs`` workers (0: one per
    core). ``progress`` shows a tqdm bar on standard error (default: when it is a
    terminal), advanced as chunks finish. With ``announce`` every seat is told each
    entrant's kind, as at the table (:func:`play_out`); by default they play as strangers.

    At most :data:`~scatlab.checks.MAX_GAMES` games and
    :data:`~scatlab.checks.MAX_JOBS` workers. Bad arguments raise :class:`~scatlab.errors.ScatlabError` (an unknown
    player kind:
    :class:`~scatlab.players.PlayerError`; unknown rules:
    :class:`~scatlab.errors.RulesError`).
    """
    kinds = _check_kinds(players)
    ruleset = find_rules(rules)
    _check_tournament(games, seed, executor, jobs, progress, chunk_size, announce)
    workers = jobs or os.cpu_count() or 1
    if chunk_size is None:
        # Small enough for a smooth progress bar and balanced workers, big enough that
        # sending a chunk costs little beside playing it.
        chunk_size = max(1, min(100, math.ceil(games / (8 * workers))))
    chunks = [list(range(start, min(start + chunk_size, games))) for start in range(0, games, chunk_size)]
    show = sys.stderr.isatty() if progress is None else progress
    results = _play_chunks(kinds, _rules_payload(ruleset), seed, chunks, announce, executor, workers, show)
    per_game = [g for chunk_result in results if chunk_result is not None for g in chunk_result]
    if [g["game"] for g in per_game] != list(range(games)):  # pragma: no cover - a broken executor
        raise RuntimeError("the executor did not return every game of the tournament exactly once")
    return _aggregate(kinds, ruleset, seed, per_game)


def _check_tournament(
    games: int,
    seed: int,
    executor: concurrent.futures.Executor | None,
    jobs: int,
    progress: bool | None,
    chunk_size: int | None,
    announce: bool,
) -> None:
    """:func:`run_tournament`'s arguments checked (the players and rules apart)."""
    whole_number("games", games, 1, MAX_GAMES)
    whole_number("seed", seed, *SEED_RANGE)
    whole_number("jobs", jobs, 0, MAX_JOBS)
    if chunk_size is not None:
        whole_number("chunk_size", chunk_size, 1, MAX_GAMES)
    if progress is not None:
        flag("progress", progress)
    flag("announce", announce)
    if executor is not None and not isinstance(executor, concurrent.futures.Executor):
        raise ScatlabError(f"executor={shown(executor)} is not allowed: give a concurrent.futures.Executor or None")


def _play_chunks(
    kinds: tuple[str, ...],
    payload: str | dict[str, Any],
    seed: int,
    chunks: list[list[int]],
    announce: bool,
    executor: concurrent.futures.Executor | None,
    workers: int,
    show: bool,
) -> list[list[dict[str, Any]] | None]:
    """Each chunk of games of :func:`run_tournament` played (:func:`play_chunk`): in this
    process, by ``executor``, or by a process pool of ``workers`` (closed after); a tqdm bar
    on standard error with ``show``. The results in the order of ``chunks``."""
    games = sum(len(chunk) for chunk in chunks)
    bar: Any = None
    if show:
        from tqdm.auto import tqdm

        bar = tqdm(total=games, unit="game", desc="tournament", file=sys.stderr, dynamic_ncols=True)
    results: list[list[dict[str, Any]] | None] = [None] * len(chunks)
    own: concurrent.futures.Executor | None = None
    try:
        if executor is None and workers > 1:
            own = executor = concurrent.futures.ProcessPoolExecutor(max_workers=workers)
        if executor is None:
            for k, chunk in enumerate(chunks):
                results[k] = play_chunk(kinds, payload, seed, chunk, announce)
                if bar is not None:
                    bar.update(len(chunk))
        else:
            futures = {
                executor.submit(play_chunk, list(kinds), payload, seed, chunk, announce): k
                for k, chunk in enumerate(chunks)
            }
            try:
                for future in concurrent.futures.as_completed(futures):
                    k = futures[future]
                    results[k] = future.result()
                    if bar is not None:
                        bar.update(len(chunks[k]))
            except BaseException:
                for future in futures:
                    future.cancel()
                raise
    finally:
        if own is not None:
            own.shutdown(wait=True, cancel_futures=True)
        if bar is not None:
            bar.close()
    return results
