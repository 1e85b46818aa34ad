"""A referee's tables now: where he is to start a game, play it or have its result confirmed, per tournament
and round — his landing page after login, and what a tournament's page shows him."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from tournament.models import Game, Round, Seat, Table, TableResult, Tournament


@dataclass
class TableNow:
    table: Table
    seated: list[Seat]  # in seat order, each with its participant (and its Anti-Monopoly role)
    status: str  # "waiting", "running", "finished", "confirmed"
    status_text: str
    game: Game | None


def tables_now(user, tournament: Tournament | None = None) -> list[TableNow]:
    """The tables ``user`` referees in rounds not finished (of one tournament, or of all), in order."""
    tables = (
        Table.objects.filter(referees=user)
        .exclude(round__status=Round.Status.FINISHED)
        .select_related("round__tournament", "game")
        .prefetch_related("seats__participant", "results")
        .order_by("round__tournament__date", "round__tournament_id", "round__number", "number")
    )
    if tournament is not None:
        tables = tables.filter(round__tournament=tournament)
    out = []
    for t in tables:
        game = t.game_or_none
        confirmed = any(r.status == TableResult.Status.CONFIRMED for r in t.results.all())
        if game is None:
            status, text = "waiting", _("Waiting: enter the order of play to start the game")
        elif confirmed:
            status, text = "confirmed", _("Result confirmed")
        elif game.status == Game.Status.FINISHED:
            status, text = "finished", _("Game over: the result is to be confirmed")
        else:
            status, text = "running", _("In play")
        out.append(TableNow(t, list(t.seats.all()), status, text, game))
    return out


def games_now(user) -> list[Game]:
    """His games outside tournaments that are not over."""
    return list(
        Game.objects.filter(referees=user, table__isnull=True)
        .exclude(status=Game.Status.FINISHED)
        .order_by("-created_at")[:20]
    )
