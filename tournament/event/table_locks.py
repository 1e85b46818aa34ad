"""A table's rows locked in the order every change that locks several of them takes (round, table, game),
and its confirmed result: what a confirmation, a signature, a player moved or a record imported read first."""

from __future__ import annotations

from tournament.errors import SEATED_AGAIN, RoundError
from tournament.models import Game, Round, Table, TableResult


def current_result(table: Table) -> TableResult | None:
    """The table's confirmed result (at most one), or None."""
    return table.results.confirmed().first()


def lock_table(table: Table) -> tuple[Round, Table, Game | None]:
    """Round, table and game locked in that order (the order every change that locks several of them uses;
    each lock on its own row only — ``of`` — so that reading the tournament along locks nothing more)."""
    round_ = Round.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=table.round_id)
    table = Table.objects.select_for_update(of=("self",)).filter(pk=table.pk).first()
    if table is None:  # the director seated the round again meanwhile: this table is gone
        raise RoundError(SEATED_AGAIN)
    table.round = round_
    game = Game.objects.select_for_update().at(table).first()
    return round_, table, game
