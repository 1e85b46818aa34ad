"""Ratings across tournaments (plain Python, no Django): openskill's Plackett–Luce model over each table's
finishing places, in date order.

A table is a free-for-all of 2–6 players, each his own team. Its places are the result's ranks as the
standings have them (RULES.md §4: the bankrupt below everyone still in, the later bankrupt first), ties as
ties: openskill takes the ranks as given (1 the best; equal ranks a tie). A player's public rating is the
cautious one, ``ordinal`` = μ − 3σ: a newcomer starts at 0 (25 − 3 · 25/3) and climbs as he plays and σ
shrinks. The figures are derived: the Django side rebuilds them from the confirmed results
(tournament/ratings/rebuild.py), never the other way round.

Decisions (docs/decisions.md), each a named parameter: openskill's own defaults for the model (μ 25, σ 25/3,
β 25/6, τ 25/300, κ 0.0001); a table's players without an identity (no player linked) are left out and the
others keep their order among themselves; a table with fewer than 2 rated players changes nothing.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

#: The model's parameters: openskill's defaults, named so that a league can tune them in one place.
MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
TAU = 25.0 / 300.0
KAPPA = 0.0001
#: How many σ below μ the public (cautious) rating is: openskill's ``ordinal``.
CAUTION = 3.0
#: The fewest rated players a table must have to change a rating.
MIN_TABLE = 2


@dataclass(frozen=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0  # tables played that counted

    @property
    def ordinal(self) -> float:
        """The public rating: μ − 3σ (openskill's ``ordinal``)."""
        return self.mu - CAUTION * self.sigma


@dataclass(frozen=True)
class Table:
    """One table's finishing places: (player, rank) pairs, rank 1 the best, equal ranks a tie."""

    places: Sequence[tuple[Hashable, int]]


def model() -> PlackettLuce:
    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU, kappa=KAPPA)


class League:
    """Ratings as tables are played, one after the other (``play``), from ``start`` (each player's rating so
    far; a player not in it starts at μ, σ)."""

    def __init__(self, start: Mapping[Hashable, Rating] | None = None):
        self._model = model()
        self.ratings: dict[Hashable, Rating] = dict(start or {})

    def rating(self, player: Hashable) -> Rating:
        return self.ratings.get(player) or Rating()

    def play(self, table: Table) -> bool:
        """Rate one table; False when it changes nothing (fewer than ``MIN_TABLE`` players). ValueError when a
        player is listed twice or a rank is not a whole number from 1."""
        places = [(p, r) for p, r in table.places if p is not None]
        if len(places) < MIN_TABLE:
            return False
        players = [p for p, _r in places]
        if len(set(players)) != len(players):
            raise ValueError("a player twice at one table")
        ranks = [r for _p, r in places]
        if any(type(r) is not int or r < 1 for r in ranks):
            raise ValueError("a table's ranks are whole numbers from 1")
        before = [self.rating(p) for p in players]
        teams = [[self._model.rating(mu=b.mu, sigma=b.sigma)] for b in before]
        after = self._model.rate(teams, ranks=ranks)
        for player, old, (new,) in zip(players, before, after, strict=True):
            self.ratings[player] = Rating(new.mu, new.sigma, old.games + 1)
        return True


def rate(tables: Iterable[Table], start: Mapping[Hashable, Rating] | None = None) -> dict[Hashable, Rating]:
    """Each player's rating after these tables, played in this order."""
    league = League(start)
    for table in tables:
        league.play(table)
    return league.ratings
