"""The director's review of a flagged trade (issue 42): marked seen, with a note. A flag, never a verdict:
the review changes no game and no score."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.models import Tournament, TradeFlagReview
from tournament.models.games import REASON_LENGTH
from tournament.people.access import director_required
from tournament.reports.trade_flags import known_keys


@director_required
@require_POST
def trade_flag_seen(request, pk: int):
    """Mark the flag ``key`` seen with ``note`` (again: the note replaced); an unknown flag or a note too long
    is refused with a message, nothing saved. Back to the page the form was on (``back``)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    back = request.POST.get("back", "")
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        back = ""
    back_to = redirect(back) if back else redirect("tournament", pk=pk)
    key = request.POST.get("key", "").strip()
    note = request.POST.get("note", "").strip()
    if len(note) > REASON_LENGTH:
        messages.error(
            request,
            _("The note is too long: at most %(max)s characters, not %(n)s. Nothing was saved.")
            % {"max": REASON_LENGTH, "n": len(note)},
        )
        return back_to
    if not key or key not in known_keys(tournament):
        messages.error(request, _("There is no such flagged trade in this tournament. Nothing was saved."))
        return back_to
    TradeFlagReview.objects.update_or_create(
        tournament=tournament, key=key, defaults={"note": note, "seen_by": request.user, "at": timezone.now()}
    )
    messages.info(request, _("The flagged trade is marked seen."))
    return back_to
