"""The director's page of the past results imported to start the ratings: the past tournaments there are
(each deleted with its results, which rebuilds the ratings), a workbook of them imported
(tournament.files.past_results: read and checked, held while the director checks its names, then stored) and
the template to fill in. Any account with the director's role: the league
is every organiser's."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import messages
from django.db import transaction
from django.db.models import Count, F, Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from tournament.files.participants_import import csv_encoding, problem_lines
from tournament.files.past_results.reading import XLSX, preview
from tournament.files.past_results.rows import PastResultsError
from tournament.files.past_results.storing import check_past_results, import_past_results
from tournament.files.past_results.template import template_workbook
from tournament.league.forms import DeletePastForm
from tournament.models import HeldFile, LeagueChange, PastEvent, PastPlacement
from tournament.models.bounds import SMALL_MAX
from tournament.people.access import director_required
from tournament.server.uploads import too_large_message, upload_refused


class PastResultsForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Excel (.xlsx) or CSV file of past results"),
        widget=forms.ClearableFileInput(attrs={"accept": ".xlsx,.csv"}),
    )


def _events():
    """The past tournaments, each with its players, tables and players linked counted."""
    table = F("entrants__placements__round_number") * (SMALL_MAX + 1) + F(
        "entrants__placements__table_number"
    )
    return (
        PastEvent.objects.select_related("imported_by")
        .annotate(
            players=Count("entrants", distinct=True),
            linked=Count("entrants", filter=Q(entrants__player__isnull=False), distinct=True),
            tables=Count(table, distinct=True),
        )
        .order_by("-date", "name", "pk")
    )


#: The league's log on the past tournaments' page: its latest changes.
CHANGES_SHOWN = 50


def _page(request, form=None, problems=(), status=200):
    return render(
        request,
        "league/past_events.html",
        {
            "events": _events(),
            "changes": LeagueChange.objects.select_related("user")[:CHANGES_SHOWN],
            "form": form or PastResultsForm(),
            "problems": problem_lines(list(problems)),
            "max_mb": settings.UPLOAD_MAX_BYTES // (1024 * 1024),
        },
        status=status,
    )


def _linking_page(event: PastEvent) -> str:
    try:
        return reverse("past_event_players", kwargs={"pk": event.pk})
    except NoReverseMatch:  # the page of who is who is not there: back to the list
        return reverse("past_events")


@director_required
@require_http_methods(["GET", "HEAD", "POST"])
def past_events(request):
    """GET: the past tournaments and the form; POST: a file of past results read and checked, then held for
    the director to check its names (``past_results_check``), or the page again, 400, with the problems by
    line."""
    if request.method != "POST":
        return _page(request)
    if upload_refused(request):  # too large: the upload handler stopped at the file, which was not read
        return _page(request, problems=[(None, too_large_message())], status=400)
    form = PastResultsForm(request.POST, request.FILES)
    if not form.is_valid():  # no file, or an empty one (the form says so)
        errors = form.errors.get("file") if "file" in request.FILES else None
        problems = [(None, str(e)) for e in errors] if errors else [(None, _("Choose a file to import."))]
        return _page(request, form=form, problems=problems, status=400)
    upload = form.cleaned_data["file"]
    if upload.size > settings.UPLOAD_MAX_BYTES:  # before reading it into memory
        return _page(request, problems=[(None, too_large_message())], status=400)
    data = upload.read()
    try:
        check_past_results(upload.name, data)
    except PastResultsError as e:
        return _page(request, problems=e.problems, status=400)
    held = HeldFile.hold(request.user, HeldFile.Purpose.PAST_RESULTS, upload.name, data)
    return redirect("past_results_check", key=held.key)


#: The names a file's check lists at most (a file of 100,000 rows holds a few thousand).
NAMES_SHOWN = 5000


@director_required
@require_http_methods(["GET", "HEAD", "POST"])
def past_results_check(request, key: str):
    """GET: a file held (``past_events``) as it would be imported: its tournaments and every name, read as
    the file is written (a CSV not in UTF-8 said so), for the director to check; POST: imported ("import") or
    let go ("cancel")."""
    held = HeldFile.of(request.user, HeldFile.Purpose.PAST_RESULTS, key)
    if held is None:
        if request.method == "POST":  # "Import" tapped twice: the first imported it
            messages.info(request, _("That file is imported already, or was let go: see the list."))
        else:
            messages.error(request, _("That file is no longer waiting to be imported: choose it again."))
        return redirect("past_events")
    data = bytes(held.data)
    if request.method == "POST" and "cancel" in request.POST:
        held.delete()
        messages.info(request, _("Nothing was imported."))
        return redirect("past_events")
    try:
        if request.method == "POST":
            imported = import_past_results(held.name, data, request.user, held=held)
        else:
            events = check_past_results(held.name, data)
    except PastResultsError as e:  # imported meanwhile (by another director, or this page twice)
        if request.method == "POST" and not HeldFile.objects.filter(pk=held.pk).exists():
            messages.info(request, _("That file is imported already, or was let go: see the list."))
            return redirect("past_events")  # the same tap twice at once: the other one imported it
        HeldFile.objects.filter(pk=held.pk).delete()
        return _page(request, problems=e.problems, status=400)
    if request.method == "POST":
        return _imported(request, imported)
    shown = preview(events)
    return render(
        request,
        "league/past_results_check.html",
        {
            "held": held,
            "preview": shown,
            "names": shown.names[:NAMES_SHOWN],
            "more_names": max(0, len(shown.names) - NAMES_SHOWN),
            "windows_1250": not held.name.lower().endswith(".xlsx") and csv_encoding(data) == "Windows-1250",
        },
    )


def _imported(request, imported):
    n, m = len(imported.events), imported.tables
    messages.success(
        request,
        _("Imported %(tournaments)s, %(tables)s: confirm who is who.")
        % {
            "tournaments": ngettext("%(n)s tournament", "%(n)s tournaments", n) % {"n": n},
            "tables": ngettext("%(n)s table", "%(n)s tables", m) % {"n": m},
        },
    )
    return redirect(_linking_page(imported.events[0]))


@director_required
@require_safe
def past_results_template(request):
    """The workbook to fill in: the columns' headers and two example rows."""
    response = HttpResponse(template_workbook(), content_type=XLSX)
    response["Content-Disposition"] = content_disposition_header(True, "past-results.xlsx")
    return response


@director_required
@require_POST
def past_event_delete(request, event: int):
    """A past tournament deleted with its results; the ratings are rebuilt without it (the model's signal,
    tournament.ratings.triggers)."""
    past = get_object_or_404(PastEvent, pk=event)
    name = str(past)
    form = DeletePastForm(request.POST)
    reason = form.cleaned_data["reason"].strip() if form.is_valid() else ""
    results = PastPlacement.objects.filter(entrant__event=past).count()
    with transaction.atomic():
        past.delete()
        LeagueChange.objects.create(
            action=LeagueChange.Action.PAST_DELETED,
            user=request.user,
            before=f"{name} ({results})",
            reason=reason,
        )
    messages.success(
        request, _("%(tournament)s deleted: the ratings are rebuilt without it.") % {"tournament": name}
    )
    return redirect("past_events")
