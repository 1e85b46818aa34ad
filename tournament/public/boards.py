"""A table's board live, for spectators (a tournament's setting ``live_boards``): the page holds no figure of
its own; static/board/board.js draws it from the table's JSON (``api.table``) and reads it anew at each change
the table's event stream tells. With the setting off: a page that says so, answered 404."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from tournament.models import Table
from tournament.public.api import REFUSALS, live_table


@require_safe
def board(request, pk: int):
    table, refused = live_table(pk)
    if table is None:
        raise Http404(REFUSALS[refused])
    if refused:
        return render(
            request, "public/board.html", {"off": True, "tournament": table.round.tournament}, status=404
        )
    return render(
        request,
        "public/board.html",
        {
            "off": False,
            "table": table,
            "tournament": table.round.tournament,
            "api": reverse("api_table", args=[table.pk]),
            "live": reverse("table_events", args=[table.pk]),
            "words": words(),
        },
    )


@require_safe
def round_table_board(request, pk: int, number: int, table: int):
    """The board of table ``table`` of round ``number`` (the seating page's link, by the numbers it shows)."""
    found = get_object_or_404(Table, round__tournament=pk, round__number=number, number=table)
    return redirect("live_board", found.pk)


def words() -> dict[str, str]:
    """The words board.js writes, in the page's language (its figures come from the table's JSON)."""
    return {
        "cash": _("Cash"),
        "net_worth": _("Net worth"),
        "turn": _("to play"),
        "in_jail": _("in jail"),
        "bankrupt": _("bankrupt"),
        "mortgaged": _("mortgaged"),
        "hotel": _("hotel"),
        "round": _("Game round %(n)s"),
        "not_started": _("The game has not started yet."),
        "finished": _("Game over"),
        "unreachable": _("The board cannot be read now; it is asked again at the next change."),
    }
