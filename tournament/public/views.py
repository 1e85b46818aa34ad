"""For everyone (read-only, no login): the standings — a sortable table and a self-refreshing projector view —
and who sits at which table in a round."""

import django_tables2 as tables
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext_lazy as _

from tournament.collation import name_key
from tournament.current_standings import tournament_standings
from tournament.models import Tournament
from tournament.roles import role_label


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


def seating(request, pk: int, number: int | None = None):
    """Who sits at which table in a round (the latest, unless one is named): by table, and by name so that a
    player finds his table at a glance — on a phone, and on a projector (``?refresh=30``)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    rounds = tournament.round_set.order_by("number")
    round_ = get_object_or_404(rounds, number=number) if number is not None else rounds.last()
    tables, people = [], []
    if round_ is not None:
        for table in round_.tables.prefetch_related("seats__participant").order_by("number"):
            seated = [
                {"name": s.participant.name, "club": s.participant.club, "role": role_label(s.role)}
                for s in table.seats.all()
            ]
            tables.append({"number": table.number, "seated": seated})
            people += [{**p, "table": table.number} for p in seated]
    people.sort(key=lambda p: name_key(p["name"]))
    try:
        refresh = min(max(int(request.GET.get("refresh", "")), 10), 600)
    except ValueError:
        refresh = None
    return render(
        request,
        "public/seating.html",
        {
            "tournament": tournament,
            "round": round_,
            "rounds": list(rounds),
            "tables": tables,
            "people": people,
            "refresh": refresh,
        },
    )
