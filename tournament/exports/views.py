"""What leaves the screen: score sheets, income/cost cards, blank paper sheets and standings as PDF, the
tournament as an Excel workbook. Each view gathers its report once (``tournament.reports``) and hands it to
the output that lays it out.

Who may print what follows the pages: a table's sheets for its referees and the tournament's directors; a
round's for its referees and the directors; the whole tournament's, the workbook and a participant's cards for
the directors (``tournament.people.access.may_direct``); a game's cards for whoever enters its moves; the
standings and the blank participant card for everyone.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from tournament.errors import SEATED_AGAIN
from tournament.exports.blank_sheets import blank_card_pdf, blank_table_sheet_pdf
from tournament.exports.downloads import file_name, file_response
from tournament.exports.ledger_cards import game_entries, ledger_cards_pdf, participant_entries
from tournament.exports.result_sheets import result_sheets_pdf
from tournament.exports.standings_pdf import standings_pdf
from tournament.exports.workbook import tournament_workbook
from tournament.models import Participant, Table, Tournament
from tournament.people.access import director_required, game_for, round_for, table_for
from tournament.people.participant_links import link_path
from tournament.reports.games import game_report
from tournament.reports.rounds import participant_rounds, round_report, table_report, tournament_report
from tournament.reports.standings import standings_report
from tournament.reports.tables import TableReport
from tournament.server.public_url import absolute

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


# -- a table ----------------------------------------------------------------------------------------------


def _table_report(t: Table):
    """The table's report, or 404 when its round was seated again since the table was read."""
    try:
        return table_report(t)
    except Table.DoesNotExist:
        raise Http404(SEATED_AGAIN) from None


def sheet_links(request, tables: list[TableReport]) -> dict[int, str]:
    """The players' private links for their result sheets (participant pk → full address; the sheets print
    them where the tournament says so): none for a revoked link or a withdrawn player."""
    return {
        p.pk: absolute(request, path)
        for t in tables
        for p in t.seated
        if p.active and (path := link_path(p)) is not None
    }


@require_safe
@login_required
def table_sheet(request, pk: int, number: int, table: int):
    t = table_for(request.user, pk, number, table)
    tournament = t.round.tournament
    tables = [_table_report(t)]
    data = result_sheets_pdf(tournament, tables, sheet_links(request, tables))
    return file_response(data, file_name(tournament, _("round"), number, _("table"), table) + ".pdf")


@require_safe
@login_required
def table_blank_sheet(request, pk: int, number: int, table: int):
    t = table_for(request.user, pk, number, table)
    tournament = t.round.tournament
    data = blank_table_sheet_pdf(tournament, _table_report(t))
    name = file_name(tournament, _("round"), number, _("table"), table, _("blank"))
    return file_response(data, name + ".pdf")


# -- a round, the tournament -------------------------------------------------------------------------------


@require_safe
@login_required
def round_sheets(request, pk: int, number: int):
    round_ = round_for(request.user, pk, number)
    report = round_report(round_)
    data = result_sheets_pdf(round_.tournament, report.tables, sheet_links(request, report.tables))
    return file_response(data, file_name(round_.tournament, _("round"), number) + ".pdf")


@require_safe
@director_required
def tournament_sheets(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    report = tournament_report(tournament)
    tables = [t for r in report.rounds for t in r.tables]
    data = result_sheets_pdf(tournament, tables, sheet_links(request, tables))
    return file_response(data, file_name(tournament, _("result sheets")) + ".pdf")


@require_safe
@director_required
def workbook(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    data = tournament_workbook(tournament_report(tournament))
    return file_response(data, tournament.name + ".xlsx", XLSX, inline=False)


@require_safe
def standings(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    data = standings_pdf(standings_report(tournament))
    return file_response(data, file_name(tournament, _("standings")) + ".pdf")


# -- income/cost cards -------------------------------------------------------------------------------------


@require_safe
@director_required
def participant_cards(request, pk: int, participant: int):
    p = get_object_or_404(Participant.objects.select_related("tournament"), pk=participant, tournament_id=pk)
    entries = participant_entries(participant_rounds(p), p.pk)  # his games replayed, no other
    data = ledger_cards_pdf(p.tournament, entries, p.shown_name)
    return file_response(data, file_name(p.tournament, p.shown_name) + ".pdf")


@require_safe
@login_required
def game_cards(request, pk: int):
    game = game_for(request.user, pk)
    tournament = game.table.round.tournament if game.table_id else None
    points = tournament.placement_points if tournament else None
    data = ledger_cards_pdf(tournament, game_entries(game_report(game, points=points)), str(game))
    return file_response(data, str(game) + ".pdf")


@require_safe
def blank_card(request, pk: int | None = None):
    tournament = get_object_or_404(Tournament, pk=pk) if pk is not None else None
    return file_response(blank_card_pdf(tournament), _("blank card") + ".pdf")
