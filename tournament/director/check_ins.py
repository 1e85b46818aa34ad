"""The director's side of check-in (tournament.event.check_in): a participant ticked or unticked, everyone
still in ticked at once; each back to the tournament's page, where the list shows who is here."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.errors import RoundError
from tournament.event import check_in as check_ins
from tournament.models import Participant, Tournament
from tournament.people.access import director_required


def _back(pk: int):
    return redirect(f"{redirect('tournament', pk=pk).url}#check-in")


@require_POST
@director_required
def participant_check_in(request, pk: int, participant: int):
    """``do=in``: he is here; ``do=out``: he is not (a tick taken back)."""
    p = get_object_or_404(Participant.objects.select_related("tournament"), pk=participant, tournament_id=pk)
    do = request.POST.get("do")
    try:
        if do == "in":
            check_ins.check_in(p, by=request.user)
        elif do == "out":
            check_ins.cancel(p)
        else:
            messages.error(request, _("This form is damaged: reload the page and try again."))
    except RoundError as e:
        messages.error(request, str(e))
    return _back(pk)


@require_POST
@director_required
def check_in_everyone(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    try:
        added = check_ins.check_in_everyone(tournament, request.user)
    except RoundError as e:
        messages.error(request, str(e))
    else:
        messages.info(request, _("%(n)s more participants checked in.") % {"n": added})
    return _back(pk)
