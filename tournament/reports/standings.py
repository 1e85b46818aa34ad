"""The standings alone (the public pages' and the standings PDF's), read from the counted results' stored
scores: no game is replayed, so that their cost does not grow with the moves played."""

from __future__ import annotations

from dataclasses import dataclass

from tournament.event.current_standings import tournament_standings
from tournament.models import Participant, Tournament


@dataclass
class StandingsRow:
    rank: int
    participant: Participant
    points: int
    total_score: int
    best_score: int | None
    games: int
    by_round: dict[int, int]  # round -> points won there


@dataclass
class StandingsReport:
    """The standings alone (the public pages' and the standings PDF's), read from the stored results: no
    game is replayed, so that its cost does not grow with the moves played."""

    tournament: Tournament
    round_numbers: list[int]  # every round seated so far, in order (the PDF's "points per round")
    standings: list[StandingsRow]


def standings_report(tournament: Tournament) -> StandingsReport:
    """The standings and the rounds' numbers, in a few queries whatever the number of moves played."""
    numbers = list(tournament.round_set.order_by("number").values_list("number", flat=True))
    return StandingsReport(tournament, numbers, standings_rows(tournament))


def standings_rows(tournament: Tournament) -> list[StandingsRow]:
    """The standings now (``current_standings``: the counted results' stored scores), best first."""
    people = {p.pk: p for p in tournament.participants.all()}
    return [
        StandingsRow(
            rank=row.rank,
            participant=people[row.participant],
            points=row.points,
            total_score=row.total_score,
            best_score=row.best_score,
            games=row.games,
            by_round={n: s.points for n, s in row.by_round.items()},
        )
        for row in tournament_standings(tournament)
    ]
