"""The director's side of check-in (tournament.event.check_in): a participant ticked or unticked, everyone
still in ticked at once (each back to the tournament's page, where the list shows who is here), and the
door's scan page: a participant's slip photographed with the phone's camera, its QR code read in the page
(static/director/check-in-scan.js, with jsQR) and his link sent here — or the link pasted, without scripts."""

from __future__ import annotations

import re

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from tournament.errors import RoundError
from tournament.event import check_in as check_ins
from tournament.models import Participant, Tournament
from tournament.people.access import director_required
from tournament.people.participant_links import participant_by_link

#: A participant's link as the slip's QR code holds it (or the key alone): the tournament and the key.
SCANNED = re.compile(r"(?:/tournaments/(\d{1,18})/me/)?([A-Za-z0-9_-]{24})/?\s*$")


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
        said = ngettext("%(n)s more participant checked in.", "%(n)s more participants checked in.", added)
        messages.info(request, said % {"n": added})
    return _back(pk)


@require_http_methods(["GET", "POST"])
@director_required
def scan(request, pk: int):
    """The door: a slip's link (read off its QR code by the page's script, or pasted) checks its participant
    in; a link of another tournament, or no link at all, is refused and checks nobody in."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if request.method == "POST":
        _scanned(request, tournament, request.POST.get("link", "")[:500])
        return redirect("check_in_scan", pk=pk)
    return render(
        request,
        "director/check_in_scan.html",
        {"tournament": tournament, "check_in": check_ins.attendance(tournament)},  # how many are here
    )


def _scanned(request, tournament: Tournament, link: str) -> None:
    found = SCANNED.search(link.strip())
    if found is None:
        messages.error(request, _("This is not a participant's link."))
        return
    number, key = found.groups()
    try:
        if number is not None and int(number) != tournament.pk:
            raise Http404
        participant = participant_by_link(tournament.pk, key)
        done, new = check_ins.check_in(participant, by=request.user)
    except Http404:
        messages.error(request, _("This link is no participant's of this tournament (or it was revoked)."))
    except RoundError as e:
        messages.error(request, str(e))
    else:
        said = {"name": participant.shown_name, "n": done.round_number}
        if new:
            messages.info(request, _("%(name)s is checked in for round %(n)s.") % said)
        else:
            messages.info(request, _("%(name)s was checked in for round %(n)s already.") % said)
