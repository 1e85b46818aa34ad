"""What comes after the last move (the console's "Game over" panel): check the figures with the players,
confirm the table's result, print its sheet — each a tap away, offered as this user may do it (a table's
referees and its tournament's directors confirm: tournament.director.views.table_confirm)."""

from __future__ import annotations

from django.urls import reverse

from tournament.event.table_locks import current_result
from tournament.models import Game
from tournament.people.access import may_direct


def next_steps(game: Game, user) -> dict:
    """The steps after a finished game; a game outside a tournament has no result to confirm."""
    table = game.table
    if table is None:
        return {"table": False}
    tournament = table.round.tournament
    here = (tournament.pk, table.round.number, table.number)
    result = current_result(table)
    may_confirm = may_direct(user, tournament) or table.referees.filter(pk=user.pk).exists()
    return {
        "table": True,
        "may_confirm": may_confirm,
        "confirmed": result is not None and result.counts(tournament),  # it counts in the standings
        "second": result is not None and not result.counts(tournament),  # one more person confirms it
        "confirmed_by_me": result is not None and user.pk in (result.confirmed_by_id, result.second_by_id),
        "table_url": reverse("table", args=here),
        "sheet_url": reverse("table_sheet_pdf", args=here) if may_confirm else "",
    }
