"""The tournament's standings now: the confirmed (and, where asked, twice confirmed) table results, ranked by
RULES.md §5 (``rules.standings``). Data flows one way: results → standings → seating."""

from __future__ import annotations

from rules.standings import GameScore, Row, standings
from tournament.collation import name_key
from tournament.models import TableResult, TableScore, Tournament


def game_scores(tournament: Tournament) -> list[GameScore]:
    """Every counted result's score rows (by table, in each result's order), read as plain values."""
    results = TableResult.objects.of_tournament(tournament).counted()
    round_of = dict(results.values_list("pk", "table__round__number"))
    rows = TableScore.objects.filter(result__in=results).order_by("result__table", "position")
    return [
        GameScore(participant, round_of[result], rank, score, points)
        for result, participant, rank, score, points in rows.values_list(
            "result", "participant", "rank", "score", "points"
        )
        if result in round_of
    ]


def tournament_standings(tournament: Tournament) -> list[Row]:
    """Best first; participants equal on every tie-break in Polish alphabetical order."""
    people = sorted(tournament.participants.values_list("pk", "name"), key=lambda p: name_key(p[1]))
    return standings([pk for pk, _name in people], game_scores(tournament), tournament.tie_breaks)
