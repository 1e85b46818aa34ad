"""A participant's page, opened from his private link (``people.participant_links``) without logging in: where
he sits now (his table, seat, role and referee), his results and points round by round, his income/cost
cards, and the standings with his row marked. In the language he chooses, as every page.

Every figure is read where the other pages read it: the tables and their final rows from
``reports.rounds.participant_rounds`` (the director's sheets' source, his games alone replayed), the standings
from ``reports.standings.standings_rows`` (the public standings'), his cards as the director's PDF of them."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from tournament.errors import RoundError
from tournament.event import check_in as check_ins
from tournament.event import signatures
from tournament.exports.downloads import file_name, file_response
from tournament.exports.ledger_cards import ledger_cards_pdf, participant_entries
from tournament.labels import ordinal
from tournament.models import Participant, Table
from tournament.participants.changes import fingerprint
from tournament.people.participant_links import participant_by_link
from tournament.reports.rounds import RoundReport, participant_rounds
from tournament.reports.standings import standings_rows
from tournament.reports.tables import TableReport

#: htmx stops polling on this status (a link revoked while its page was open: no 404 every 20 s).
STOP_POLLING = 286


def _private(response):
    """His page is his alone: kept by no shared cache, never indexed."""
    response["Cache-Control"] = "private, no-store"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@require_safe
def page(request, pk: int, key: str):
    """His page; asked again by itself every PARTICIPANT_POLL_SECONDS with what it shows (``since``): 204
    while nothing of it changed, else the page anew (the browser swaps in its content)."""
    try:
        participant = participant_by_link(pk, key)
    except Http404:
        if "since" in request.GET and request.htmx:  # his page's poll, the link revoked since: stop asking
            return HttpResponse(status=STOP_POLLING)
        raise
    seen = fingerprint(participant)
    if request.GET.get("since") == seen:
        return _private(HttpResponse(status=204))
    rounds = participant_rounds(participant)
    now = _now(participant, rounds)
    context = {
        "participant": participant,
        "tournament": participant.tournament,
        "now": now,
        "results": _results(participant, rounds),
        "cards": participant_entries(rounds, participant.pk),  # (his game, his card in it)
        "standings": standings_rows(participant.tournament),
        "check_in": _check_in(participant),
        "to_sign": _to_sign(participant, rounds),
        "seen": seen,
        "live": _stream(pk, now),
        "poll_seconds": settings.PARTICIPANT_POLL_SECONDS,
        "spread_seconds": settings.PARTICIPANT_SPREAD_SECONDS,
    }
    return _private(render(request, "participants/page.html", context))


@require_POST
def check_in(request, pk: int, key: str):
    """He is here for the next round (a tournament that asks for it): once, however often he taps."""
    participant = participant_by_link(pk, key)
    try:
        done, new = check_ins.check_in(participant)
    except RoundError as e:
        messages.error(request, str(e))
    else:
        if new:
            messages.info(request, _("You are checked in for round %(n)s.") % {"n": done.round_number})
    return redirect("participant_page", pk=pk, key=key)


@require_safe
def cards(request, pk: int, key: str):
    """His income/cost cards, as the director prints them."""
    participant = participant_by_link(pk, key)
    entries = participant_entries(participant_rounds(participant), participant.pk)
    data = ledger_cards_pdf(participant.tournament, entries, participant.shown_name)
    return _private(file_response(data, file_name(participant.tournament, participant.shown_name) + ".pdf"))


@require_POST
def sign(request, pk: int, key: str):
    """His word on his table's figures: "agree", or "dispute" with why (``version``: the game's version his
    page showed)."""
    participant = participant_by_link(pk, key)
    verdict, version = request.POST.get("verdict"), _number(request.POST.get("version", ""))
    table = Table.objects.filter(pk=_number(request.POST.get("table", "")), round__tournament_id=pk).first()
    if verdict not in ("agree", "dispute") or table is None or version is None:
        messages.error(request, _("This form is damaged: reload the page and try again."))
        return redirect("participant_page", pk=pk, key=key)
    try:
        signatures.sign(
            participant,
            table,
            agrees=verdict == "agree",
            reason=request.POST.get("reason", ""),
            version=version,
            disputed_move=request.POST.get("move", ""),
        )
    except RoundError as e:
        messages.error(request, str(e))
    else:
        messages.info(request, _("Your signature is kept: the referee and the director see it."))
    return redirect(f"{redirect('participant_page', pk=pk, key=key).url}#me-sign-{table.pk}")


def _number(raw: str) -> int | None:
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else None


def _to_sign(participant: Participant, rounds: list[RoundReport]) -> list[dict]:
    """His tables whose game is over and whose result is not confirmed yet: their figures as every output
    shows them (``TableReport.final``), the game's version they are of, and his signature of them."""
    out = []
    for report in rounds:
        for t in report.tables:
            if not (t.provisional and t.game is not None and _row(t, participant)):
                continue
            game = t.game.game
            out.append(
                {
                    "table": t,
                    "version": game.version,
                    "mine": signatures.current(t.table, game).get(participant.pk),
                    "last_move": game.last_move,  # (the moves' numbers his dispute may name)
                }
            )
    return out


def _check_in(participant: Participant) -> dict | None:
    """The round he may check in for and his check-in for it (None: the tournament does not ask for it,
    he withdrew, or every round is under way or played)."""
    tournament = participant.tournament
    if not tournament.check_in or not participant.active:
        return None
    number = check_ins.check_in_round(tournament)
    if number is None:
        return None
    done = participant.check_ins.filter(round_number=number).first()
    # checked in for a round seated before he came: the director seats it again (or not) — he is told so
    late = bool(
        done
        and tournament.round_set.filter(number=number).exists()
        and not participant.seats.filter(table__round__number=number).exists()
    )
    return {"round": number, "done": done, "late": late}


def _stream(pk: int, now: dict | None) -> str:
    """His page's event stream: the tournament's, with his table now (its moves, its signatures)."""
    address = reverse("tournament_events", args=[pk])
    return f"{address}?table={now['table'].pk}" if now and now["table"] else address


def _table_of(participant: Participant, report: RoundReport) -> TableReport | None:
    return next((t for t in report.tables if participant in t.seated), None)


def _now(participant: Participant, rounds: list[RoundReport]) -> dict | None:
    """Where he sits in the latest round (None before the first is seated): his table, his place in the
    order of play of its game ("2nd"; None before the game starts: the seating's order is none), his role and
    the table's referees; or no table (absent, withdrawn)."""
    if not rounds:
        return None
    latest = rounds[-1]
    table = _table_of(participant, latest)
    if table is None:
        return {"round": latest.round, "table": None}
    place = table.place(participant)
    return {
        "round": latest.round,
        "table": table.table,
        "started": table.game is not None,
        "place": None if place is None else ordinal(place),
        "role": table.roles.get(participant.pk, ""),
        "referees": table.referees,
        "others": [p for p in table.seated if p != participant],
    }


def _results(participant: Participant, rounds: list[RoundReport]) -> list[dict]:
    """Round by round: his table and his row of its final figures (rank, score, points), and whether they
    count (confirmed) or are provisional (the game over, the result not yet confirmed)."""
    out = []
    for report in rounds:
        table, row = next(((t, r) for t in report.tables if (r := _row(t, participant))), (None, None))
        if table is None:
            out.append({"round": report.round, "table": None, "row": None})
            continue
        out.append(
            {
                "round": report.round,
                "table": table.table,
                "row": row,
                "counted": table.counted,
                "provisional": table.provisional,
            }
        )
    return out


def _row(table: TableReport, participant: Participant):
    """His row of the table's final figures (None: he is not at this table)."""
    return next((r for r in table.final if r.participant == participant.pk), None)
