"""The tournament director's pages (settings, participants, rounds, seating, referees) and the referee's
table page (opening-roll order, the game, the result). Participants and the public see standings only."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from rules import RulesError, available_boards
from tournament.boards.editions import board_misfit, hold_board
from tournament.director.forms import (
    AnyTimeSettingsForm,
    ImportForm,
    MoveForm,
    ParticipantForm,
    ReopenForm,
    RoundRefereesForm,
    SwapForm,
    TournamentForm,
)
from tournament.director.order_of_play import OrderOfPlayForm
from tournament.errors import SEATED_AGAIN, AlreadySeated, RoundError
from tournament.event import check_in as check_ins
from tournament.event import interventions, rating_seeds, results, round_overview, rounds, signatures
from tournament.files.participants_import import (
    ParticipantFileError,
    add_participants,
    csv_encoding,
    preview_token,
    problem_lines,
    read_participants,
    rows_of_preview,
)
from tournament.games.log import active_events
from tournament.games.messages import error_text
from tournament.games.record_import import RecordImportError, import_table_record
from tournament.models import Round, Table, Tournament
from tournament.people.access import (
    directed_tournaments,
    director_accounts,
    director_required,
    is_director,
    may_direct,
    referee_accounts,
    round_for,
    round_of,
    table_for,
)
from tournament.people.referee_tables import tables_now
from tournament.ratings import identities
from tournament.reports.rounds import table_report
from tournament.server.uploads import too_large_message, upload_refused


def _round_error(request, e: RoundError):
    messages.error(request, str(e))


def tournament_list(request):
    """A director's own tournaments link to their pages; the others show their public links only."""
    mine = directed_tournaments(request.user)
    return render(
        request,
        "director/tournament_list.html",
        {
            "mine": mine,
            "others": Tournament.objects.exclude(pk__in=mine.values("pk")),
            "director": is_director(request.user),
        },
    )


def _saved_on_its_board(form, **values) -> Tournament | None:
    """Save a tournament form with its board held (not deleted or replaced between the form's check and the
    save); None, with the form's error, if the board is gone meanwhile or no longer fits the variant."""
    with transaction.atomic():
        hold_board(form.cleaned_data["board"])
        if form.cleaned_data["board"] not in available_boards():
            form.add_error("board", _("This board was deleted meanwhile: choose another."))
            return None
        misfit = board_misfit(form.cleaned_data["variant"], form.cleaned_data["board"])  # replaced meanwhile
        if misfit is not None:
            form.add_error("board", misfit)
            return None
        tournament = form.save(commit=False)
        for name, value in values.items():
            setattr(tournament, name, value)
        tournament.save()
        form.save_m2m()
        return tournament


@director_required
def tournament_new(request):
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        tournament = _saved_on_its_board(form, created_by=request.user)
        if tournament is not None:
            return redirect("tournament", pk=tournament.pk)
    return render(request, "director/tournament_form.html", {"form": form})


@director_required
def tournament_edit(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    if tournament.locked:  # the first round has started: only the settings that change no game
        form = AnyTimeSettingsForm(request.POST or None, instance=tournament)
        if request.method == "POST" and form.is_valid():
            form.save()
            return redirect("tournament", pk=pk)
        context = {"form": form, "tournament": tournament, "locked": True}
        return render(request, "director/tournament_form.html", context)
    form = TournamentForm(request.POST or None, instance=tournament)
    if request.method == "POST" and form.is_valid() and _saved_on_its_board(form) is not None:
        return redirect("tournament", pk=pk)
    return render(request, "director/tournament_form.html", {"form": form, "tournament": tournament})


@login_required
def tournament_detail(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    if not may_direct(request.user, tournament):  # a referee sees his tables there, and the public pages
        return render(
            request,
            "tournament_referee.html",
            {"tournament": tournament, "tables": tables_now(request.user, tournament)},
        )
    all_rounds = list(tournament.round_set.all())
    participants = list(tournament.participants.all())
    if not all_rounds:  # the seeds round 1 will be seated by: typed, or from the players' ratings
        round_one = rating_seeds.seeds(tournament, [p for p in participants if p.active])
        for p in participants:
            p.round_one_seed = round_one.get(p.pk)
    context = {
        "tournament": tournament,
        "participants": participants,
        "check_in": check_ins.attendance(tournament, participants),
        "rounds": all_rounds,
        "next_round": rounds.next_round_state(tournament, all_rounds[-1] if all_rounds else None),
        "participant_form": ParticipantForm(tournament=tournament),
        "import_form": ImportForm(),
        "directors": tournament.directors.order_by("username"),
        "director_choices": director_accounts().exclude(directed_tournaments=tournament),
        "audit": tournament.audit.filter(round_number=None).select_related("participant", "user"),
    }
    return render(request, "director/tournament.html", context)


@director_required
@require_POST
def participant_add(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=pk)  # the name check and the insert, one at a time
        form = ParticipantForm(request.POST, tournament=tournament)
        if form.is_valid():
            participant = form.save(commit=False)
            participant.tournament = tournament
            participant.save()
    if form.is_valid():
        messages.info(request, _("%(name)s added.") % {"name": participant})
    else:
        for errors in form.errors.values():
            for e in errors:
                messages.error(request, e)
    return redirect("tournament", pk=pk)


@director_required
@require_POST
def participant_import(request, pk: int):
    """A participants' file: its names shown first (every row, and how the file was read), stored only when
    the director confirms them (the names travel signed with his "Import": nothing is kept meanwhile)."""
    tournament = get_object_or_404(Tournament, pk=pk)

    def refuse(problems):
        messages.error(request, _("Nothing was imported. Correct the file and import it again:"))
        for text in problem_lines(problems):  # the first few problems and how many more
            messages.error(request, text)
        return redirect("tournament", pk=pk)

    if "rows" in request.POST:  # the names he was shown, confirmed
        try:
            added = add_participants(tournament, rows_of_preview(tournament.pk, request.POST["rows"]))
        except ParticipantFileError as e:
            return refuse(e.problems)
        return _participants_imported(request, tournament, added)
    if upload_refused(request):  # too large: the upload handler stopped at the file, which was not read
        return refuse([(None, too_large_message())])
    form = ImportForm(request.POST, request.FILES)
    if not form.is_valid():
        messages.error(request, _("Choose a file to import."))
        return redirect("tournament", pk=pk)
    upload = form.cleaned_data["file"]
    if upload.size > settings.UPLOAD_MAX_BYTES:  # before reading it into memory
        return refuse([(None, too_large_message())])
    data = upload.read()
    try:
        rows = read_participants(upload.name, data)
    except ParticipantFileError as e:
        return refuse(e.problems)
    encoding = csv_encoding(data) if not upload.name.lower().endswith(".xlsx") else None
    return render(
        request,
        "director/participants_preview.html",
        {
            "tournament": tournament,
            "rows": rows,
            "token": preview_token(tournament.pk, rows),
            "file_name": upload.name,
            "windows_1250": encoding == "Windows-1250",
        },
    )


def _participants_imported(request, tournament, added: list):
    pk = tournament.pk
    messages.info(request, _("%(n)s participants imported.") % {"n": len(added)})
    # "of them": of those imported, not of those entered before (their links the director may have left unset)
    known = sum(1 for m in identities.matches(added) if m.candidates)  # (new: linked to no player yet)
    if known:  # the director confirms who is who: nothing is linked without him
        messages.info(
            request,
            ngettext(
                "%(n)s of them has the name of a player of the league: confirm who is who on its page.",
                "%(n)s of them have the names of players of the league: confirm who is who on its page.",
                known,
            )
            % {"n": known},
        )
        return redirect("tournament_players", pk=pk)
    return redirect("tournament", pk=pk)


@director_required
@require_POST
def round_seat(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    # the round the page offered to seat; without it (a page of before the field), the next one
    number = request.POST.get("number", "")
    number = int(number) if number.isdecimal() and len(number) < 6 else None
    if number is not None and not 0 < number <= tournament.rounds:
        number = None
    try:
        round_ = rounds.seat_next_round(tournament, number)
    except AlreadySeated as e:  # another director (or a double tap) seated it a moment ago
        messages.info(request, str(e))
        return redirect("round", pk=pk, number=e.number)
    except RoundError as e:
        _round_error(request, e)
        return redirect("tournament", pk=pk)
    return redirect("round", pk=pk, number=round_.number)


@login_required
def round_detail(request, pk: int, number: int):
    round_ = round_for(request.user, pk, number)
    director = may_direct(request.user, round_.tournament)
    tables = round_overview.round_tables(round_, request.user, director)
    waiting = round_overview.summary(tables)
    tables.sort(key=lambda t: not t.mine)  # a referee sees his tables first (stable: in table order)
    return render(
        request,
        "director/round.html",
        {
            "round": round_,
            "tournament": round_.tournament,
            "tables": tables,
            "waiting": waiting,
            "not_seated": round_overview.not_seated(round_),
            "director": director,
            "repeats": rounds.repeat_pairs_named(round_),
            "club_pairs": rounds.club_pairs_named(round_),
            "swap_form": SwapForm(round_=round_),
            "move_form": MoveForm(round_=round_),
            "referees_form": director,
            "referee_accounts": referee_accounts() if director else [],
            "audit": round_.tournament.audit.filter(round_number=round_.number).select_related(
                "participant", "user"
            ),
            # a table one player is left at (the others absent or moved): he cannot play there alone
            "alone": [t for t in tables if t.waits == round_overview.WAITING and len(t.seats.all()) == 1],
        },
    )


@director_required
@require_POST
def round_swap(request, pk: int, number: int):
    round_ = round_of(pk, number)
    form = SwapForm(request.POST, round_=round_)
    if form.is_valid():
        try:
            left = rounds.swap(round_, form.cleaned_data["a"], form.cleaned_data["b"])
            messages.info(request, _("Swapped. Repeat pairings left: %(n)s.") % {"n": left})
        except RoundError as e:
            _round_error(request, e)
    else:
        messages.error(request, _("Choose two players."))
    return redirect("round", pk=pk, number=number)


def save_posted_referees(request, round_) -> bool | None:
    """The referees ticked on the round page, saved (tournament.event.interventions.set_referees) and said so:
    True.
    Only the tables the page showed are changed (each sends its number in ``tables``, ticked boxes or not): a
    post naming no table (an empty post, a page of before) changes nothing and says so (None), and the round's
    other tables keep theirs. A tick refused (an account without the referee role) changes nothing: False."""
    shown = set(request.POST.getlist("tables"))
    tables = [t for t in round_.tables.prefetch_related("referees") if str(t.number) in shown]
    if not tables:
        return None
    form = RoundRefereesForm(request.POST, tables=tables)
    if not form.is_valid():
        messages.error(request, _("Choose referees among the accounts with the referee role."))
        return False
    interventions.set_referees(round_, {t.number: form.cleaned_data[f"table_{t.number}"] for t in tables})
    messages.info(request, _("Referees saved."))
    return True


@director_required
@require_POST
def round_start(request, pk: int, number: int):
    """Start the round, with the referees ticked on its page (the Start button sends the referees' form):
    they are saved first, so the round starts with them; a tick refused starts nothing."""
    round_ = round_of(pk, number)
    with transaction.atomic():  # the round locked first: a page of before changes no running game's referees
        round_ = Round.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=round_.pk)
        if round_.status != Round.Status.SEATED:
            _round_error(request, RoundError(_("The round has already started.")))
        elif save_posted_referees(request, round_) is False:
            messages.error(request, _("The round was not started: correct the referees first."))
        else:
            rounds.start_round(round_)
            messages.info(request, _("Round %(n)s started.") % {"n": number})
    return redirect("round", pk=pk, number=number)


@login_required
def table_detail(request, pk: int, number: int, table: int):
    t = table_for(request.user, pk, number, table)
    seats = [s.participant for s in t.seats.select_related("participant")]
    try:
        report = table_report(t)  # the table's final figures, as every output shows them (report.final)
    except Table.DoesNotExist:  # the round was seated again since the table was read: its new table
        messages.error(request, SEATED_AGAIN)
        return redirect("table", pk=pk, number=number, table=table)
    starting = request.method == "POST" and "order" in request.POST
    order_form = OrderOfPlayForm(
        [(p.pk, p.shown_name, report.roles.get(p.pk, "")) for p in seats], request.POST if starting else None
    )
    if starting and order_form.is_valid():  # refused: the page again, the places as chosen and why
        try:
            game = rounds.start_table_game(t, order_form.order(), request.user)
        except RoundError as e:
            _round_error(request, e)
            return redirect("table", pk=pk, number=number, table=table)
        except RulesError as e:  # the tournament's settings do not make a legal game
            messages.error(request, error_text(e))
            return redirect("table", pk=pk, number=number, table=table)
        return redirect("console", pk=game.pk)
    return render(
        request,
        "director/table.html",
        {
            "table": t,
            "game": t.game_or_none,  # None before its start
            "round": t.round,
            "tournament": t.round.tournament,
            "seats": seats,
            "seat_roles": [(p, report.roles.get(p.pk, "")) for p in seats],
            "order_form": order_form,
            "report": report,
            "result": report.result,
            "history": t.results.select_related("confirmed_by", "second_by", "reopened_by"),
            "director": may_direct(request.user, t.round.tournament),
            **_signatures(t, report),
            "reopen_form": ReopenForm(),
            "audit": t.round.tournament.audit.filter(
                round_number=t.round.number, table_number=t.number
            ).select_related("participant", "user"),
        },
    )


def _signatures(table: Table, report) -> dict:
    """The players' signatures of the figures (once the game is over, until the result is confirmed), and
    what stops the confirmation without the director's ruling."""
    game = table.game_or_none
    if game is None or report.result is not None or not report.provisional:
        return {"signatures": None, "blocked": None}
    signed = signatures.current(table, game)
    names = signatures.players_of(game)
    return {
        "signatures": [(name, signed.get(pid)) for pid, name in names.items()],
        "blocked": signatures.why_blocked(table.round.tournament, names, signed),
    }


@login_required
@require_POST
def table_confirm(request, pk: int, number: int, table: int):
    t = table_for(request.user, pk, number, table)
    try:
        confirmation = results.confirm(
            t,
            request.user,
            ruling=request.POST.get("ruling", ""),
            directs=may_direct(request.user, t.round.tournament),
        )
    except RoundError as e:
        _round_error(request, e)
    else:
        if confirmation.result.counts():
            messages.info(request, _("Result confirmed."))
        else:
            messages.info(request, _("Result confirmed: it counts once another person confirms it too."))
    if request.POST.get("next") == "round":  # from the round page: back to its top (the message, the summary)
        return redirect("round", pk=pk, number=number)
    return redirect("table", pk=pk, number=number, table=table)


@director_required
@require_POST
def table_reopen(request, pk: int, number: int, table: int):
    t = table_for(request.user, pk, number, table)
    try:
        results.reopen(t, request.user, request.POST.get("reason", ""))
        messages.info(request, _("Result reopened: correct the game, then confirm again."))
    except RoundError as e:
        _round_error(request, e)
    return redirect("table", pk=pk, number=number, table=table)


@director_required
@require_POST
def table_record_import(request, pk: int, number: int, table: int):
    """A GAME_RECORD file becomes the table's game (replacing the moves entered so far), or is refused."""
    t = table_for(request.user, pk, number, table)

    def refuse(reason):
        messages.error(request, _("Game record not imported. %(reason)s") % {"reason": reason})
        return redirect("table", pk=pk, number=number, table=table)

    if upload_refused(request):  # too large: the upload handler stopped at the file, which was not read
        return refuse(too_large_message())
    upload = request.FILES.get("record")
    if upload is None:
        messages.error(request, _("Choose a file to import."))
        return redirect("table", pk=pk, number=number, table=table)
    if upload.size > settings.UPLOAD_MAX_BYTES:  # before reading it into memory
        return refuse(too_large_message())
    try:
        game = import_table_record(t, upload.read(), request.user)
    except RecordImportError as e:
        return refuse(e)
    n = active_events(game).count()
    messages.info(
        request,
        ngettext("Game record imported: %(n)s move.", "Game record imported: %(n)s moves.", n) % {"n": n},
    )
    return redirect("table", pk=pk, number=number, table=table)
