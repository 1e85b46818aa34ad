"""The director's download of a tournament's backup (the file ``import_tournament`` restores)."""

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_safe

from tournament.files.backup import dumps, export_tournament
from tournament.models import Tournament
from tournament.people.access import director_required


@director_required
@require_safe
def tournament_backup(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    response = HttpResponse(
        dumps(export_tournament(tournament)), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}-backup.json"'
    return response
