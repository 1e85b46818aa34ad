"""The director's side of the participants' private links (tournament.people.participant_links): each one's
link, to copy or to open, a link revoked or given anew (with the reason, kept in the director's log), and the
slips to print (exports.participant_slips)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from tournament.collation import name_key
from tournament.director.forms import ReasonForm
from tournament.director.interventions import change_by_form
from tournament.exports.downloads import file_name, file_response
from tournament.exports.participant_slips import slips_pdf
from tournament.models import Participant, Tournament
from tournament.people import participant_links as links
from tournament.people.access import director_required
from tournament.server.public_url import absolute


def _people(request, tournament: Tournament) -> list[tuple[Participant, str | None]]:
    """Each participant in alphabetical order (Polish), with his link's full URL (None: revoked)."""
    people = sorted(tournament.participants.all(), key=lambda p: name_key(p.name))
    return [(p, absolute(request, path) if (path := links.link_path(p)) else None) for p in people]


@require_safe
@director_required
def link_list(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    response = render(
        request,
        "director/participant_links.html",
        {"tournament": tournament, "people": _people(request, tournament)},
    )
    response["Cache-Control"] = "private, no-store"  # the links are the participants' keys
    return response


@require_safe
@director_required
def slips(request, pk: int):
    """A slip for every participant still in the tournament who has a link."""
    tournament = get_object_or_404(Tournament, pk=pk)
    people = [(p, url) for p, url in _people(request, tournament) if url and p.active]
    response = file_response(slips_pdf(tournament, people), file_name(tournament, _("slips")) + ".pdf")
    response["Cache-Control"] = "private, no-store"
    return response


@require_POST
@director_required
def link_change(request, pk: int, participant: int):
    """``do=new``: a new link (the old one stops working); ``do=revoke``: none until a new one is given."""
    p = get_object_or_404(Participant, pk=participant, tournament_id=pk)
    back = redirect("participant_links", pk=pk)
    do = request.POST.get("do", "")
    if do not in ("new", "revoke"):
        messages.error(request, _("This form is damaged: reload the page and try again."))
        return back

    def change(data) -> str:
        if do == "new":
            links.reissue(p, request.user, data["reason"])
            return _("%(name)s has a new link; the old one no longer opens anything.") % {
                "name": p.shown_name
            }
        links.revoke(p, request.user, data["reason"])
        return _("%(name)s's link is revoked: it no longer opens anything.") % {"name": p.shown_name}

    return change_by_form(request, ReasonForm(request.POST), change, back)
