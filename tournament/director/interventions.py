"""The director's pages for what cannot go as seated (tournament.event.interventions): a player absent,
withdrawn or
moved, a round seated again, a game stopped, a result entered by hand; the referees of a whole round; and the
tournament's co-directors (tournament.people.directors)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from rules import RulesError
from tournament.director.forms import (
    AbsentForm,
    DirectorForm,
    HandResultForm,
    MoveForm,
    ReasonForm,
)
from tournament.director.views import save_posted_referees
from tournament.errors import RoundError
from tournament.event import interventions
from tournament.games.messages import error_text
from tournament.games.refusals import LogError
from tournament.models import Participant, Tournament
from tournament.people import directors
from tournament.people.access import director_required, round_of, table_for


def change_by_form(request, form, change, back):
    """A director's change from a POST: the form checked, ``change(cleaned_data)`` applied and its message
    said, or what is wrong said instead (nothing changed); then back to ``back``."""
    if not form.is_valid():
        for errors in form.errors.values():
            for e in errors:
                messages.error(request, e)
        return back
    try:
        done = change(form.cleaned_data)
    except RoundError as e:
        messages.error(request, str(e))
    except RulesError as e:
        messages.error(request, error_text(e))
    except LogError as e:  # the table's result is confirmed: its game is read-only
        messages.error(request, str(e))
    else:
        messages.info(request, done)
    return back


@director_required
@require_POST
def participant_withdraw(request, pk: int, participant: int):
    p = get_object_or_404(Participant, pk=participant, tournament_id=pk)

    def withdraw(data):
        interventions.withdraw(p, request.user, data["reason"])
        return _("%(name)s withdrawn.") % {"name": p}

    return change_by_form(request, ReasonForm(request.POST), withdraw, redirect("tournament", pk=pk))


@director_required
@require_POST
def table_absent(request, pk: int, number: int, table: int):
    t = table_for(request.user, pk, number, table)

    def absent(data):
        interventions.mark_absent(t, data["participant"], request.user, data["reason"])
        return _("%(name)s does not play at this table.") % {"name": data["participant"]}

    back = redirect("table", pk=pk, number=number, table=table)
    return change_by_form(request, AbsentForm(request.POST, table=t), absent, back)


@director_required
@require_POST
def round_move(request, pk: int, number: int):
    round_ = round_of(pk, number)

    def move(data):
        p, to = data["participant"], data["to_table"]
        interventions.move(p, round_, to, request.user, data["reason"])
        return _("%(name)s moved to table %(n)s.") % {"name": p, "n": to}

    back = redirect("round", pk=pk, number=number)
    return change_by_form(request, MoveForm(request.POST, round_=round_), move, back)


@director_required
@require_POST
def round_reseat(request, pk: int, number: int):
    round_ = round_of(pk, number)

    def reseat(data):
        interventions.reseat(round_, request.user, data["reason"])
        return _("Round %(n)s seated again.") % {"n": number}

    return change_by_form(request, ReasonForm(request.POST), reseat, redirect("round", pk=pk, number=number))


@director_required
@require_POST
def round_referees(request, pk: int, number: int):
    if save_posted_referees(request, round_of(pk, number)) is None:
        messages.error(request, _("The form named no table: no referee was changed."))
    return redirect("round", pk=pk, number=number)


@director_required
@require_POST
def table_stop(request, pk: int, number: int, table: int):
    t = table_for(request.user, pk, number, table)

    def stop(data):
        interventions.stop_game(t, request.user, data["reason"])
        return _("The game is stopped.")

    return change_by_form(
        request, ReasonForm(request.POST), stop, redirect("table", pk=pk, number=number, table=table)
    )


@director_required
def table_hand_result(request, pk: int, number: int, table: int):
    """The result typed from the table's paper sheet, in two steps: the places and scores, checked
    (``interventions.hand_ranking``), then shown as they will be stored — places, scores, points — to
    confirm ("confirm" in the post) or change ("edit"). After a reopen the form starts from the reopened
    result's values."""
    t = table_for(request.user, pk, number, table)
    seats = interventions.table_players(t)
    players = [(pid, name) for pid, name, _role in seats]
    places = {}
    if request.method == "POST":
        form = HandResultForm(request.POST, players=players)
    else:
        places, reason = interventions.reopened_places(t)
        initial = {"reason": reason}
        for pid, _name in players:
            if pid in places:
                initial[f"place_{pid}"], initial[f"score_{pid}"] = places[pid]
        form = HandResultForm(initial=initial, players=players)
    review = None
    if request.method == "POST" and "edit" not in request.POST and form.is_valid():
        try:
            if "confirm" in request.POST:
                interventions.enter_result(t, form.places(), request.user, form.cleaned_data["reason"])
            else:
                review = interventions.hand_ranking(t, form.places())
        except RoundError as e:
            form.add_error(None, str(e))
        else:
            if review is None:
                messages.info(request, _("Result entered by hand and confirmed."))
                return redirect("table", pk=pk, number=number, table=table)
    return render(
        request,
        "director/hand_result.html",
        {
            "form": form,
            "entries": [(n, role, form[f"place_{pid}"], form[f"score_{pid}"]) for pid, n, role in seats],
            "review": review,
            "reopened": bool(places),
            "table": t,
            "round": t.round,
            "tournament": t.round.tournament,
        },
    )


@director_required
@require_POST
def director_add(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)

    def add(data):
        d = directors.add_director(tournament, data["username"], request.user, data["reason"])
        return _("%(name)s directs this tournament too.") % {"name": d.get_username()}

    return change_by_form(request, DirectorForm(request.POST), add, redirect("tournament", pk=pk))


@director_required
@require_POST
def director_remove(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)

    def remove(data):
        d = directors.remove_director(tournament, data["username"], request.user, data["reason"])
        return _("%(name)s no longer directs this tournament.") % {"name": d.get_username()}

    return change_by_form(request, DirectorForm(request.POST), remove, redirect("tournament", pk=pk))
