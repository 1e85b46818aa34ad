"""Standings for everyone (read-only, no login): a sortable table and a self-refreshing projector view."""

import django_tables2 as tables
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext_lazy as _

from tournament.models import Tournament
from tournament.results import tournament_standings


class StandingsTable(tables.Table):
    rank = tables.Column(verbose_name="#")
    name = tables.Column(verbose_name=_("Participant"))
    club = tables.Column(verbose_name=_("Club / school"))
    points = tables.Column(verbose_name=_("Points"))
    total_score = tables.Column(verbose_name=_("Total score"))
    best_score = tables.Column(verbose_name=_("Best score"), default="—")
    games = tables.Column(verbose_name=_("Games"))

    class Meta:
        attrs = {"class": "standings"}
        order_by = "rank"


def standings_rows(tournament: Tournament) -> list[dict]:
    people = {p.pk: p for p in tournament.participants.all()}
    return [
        {
            "rank": r.rank,
            "name": people[r.participant].name,
            "club": people[r.participant].club,
            "points": r.points,
            "total_score": r.total_score,
            "best_score": r.best_score,
            "games": r.games,
            "withdrawn": not people[r.participant].active,
        }
        for r in tournament_standings(tournament)
    ]


def standings(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    table = StandingsTable(standings_rows(tournament))
    tables.RequestConfig(request, paginate=False).configure(table)
    return render(request, "public/standings.html", {"tournament": tournament, "table": table})


def projector(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    return render(
        request,
        "public/projector.html",
        {"tournament": tournament, "rows": standings_rows(tournament), "refresh": 20},
    )
