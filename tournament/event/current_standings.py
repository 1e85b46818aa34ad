"""The tournament's standings now: the confirmed (and, where asked, twice confirmed) table results, ranked by
RULES.md §5 (``rules.standings``). Data flows one way: results → standings → seating."""

from __future__ import annotations

from rules.standings import GameScore, Row, standings
from tournament.collation import name_key
from tournament.models import TableScore, Tournament, counting


def game_scores(tournament: Tournament) -> list[GameScore]:
    """Every counted result's score rows (by table, in each result's order), read as plain values."""
    rows = TableScore.objects.filter(counting("result__"), result__table__round__tournament=tournament)
    return [
        GameScore(*row)
        for row in rows.order_by("result__table", "position").values_list(
            "participant", "result__table__round__number", "rank", "score", "points"
        )
    ]


def tournament_standings(tournament: Tournament) -> list[Row]:
    """Best first; participants equal on every tie-break in Polish alphabetical order."""
    people = sorted(tournament.participants.values_list("pk", "name"), key=lambda p: name_key(p[1]))
    return standings([pk for pk, _name in people], game_scores(tournament), tournament.tie_breaks)
