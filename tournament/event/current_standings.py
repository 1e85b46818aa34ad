"""The tournament's standings now: the confirmed (and, where asked, twice confirmed) table results, ranked by
RULES.md §5 (``tournament.event.standings``). Data flows one way: results → standings → seating."""

from __future__ import annotations

from tournament.collation import name_key
from tournament.event.results import counts
from tournament.event.standings import GameScore, Row, standings
from tournament.models import TableResult, Tournament


def game_scores(tournament: Tournament) -> list[GameScore]:
    scores = []
    results = TableResult.objects.of_tournament(tournament).confirmed().with_scores()
    for result in results.select_related("table__round"):
        if not counts(result, tournament):
            continue
        round_ = result.table.round.number
        scores.extend(
            GameScore(s.participant_id, round_, s.rank, s.score, s.points) for s in result.scores.all()
        )
    return scores


def tournament_standings(tournament: Tournament) -> list[Row]:
    """Best first; participants equal on every tie-break in Polish alphabetical order."""
    people = sorted(tournament.participants.values_list("pk", "name"), key=lambda p: name_key(p[1]))
    return standings([pk for pk, _name in people], game_scores(tournament), tournament.tie_breaks)
