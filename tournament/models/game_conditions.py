"""Two conditions on a game's row that every move asks, written in SQL once.

The ORM says them too (``Table.objects.closed()``, ``Exists`` of the referees' link), and that is what the
rest of the app asks; but the ORM compiles a subquery anew at every request, and for a move that costs more
than the move itself (tests/bench_console.py: about 1.3 ms each, where the whole move is a few ms). Written
here once, with the tables' and columns' names the models give, for SQLite and PostgreSQL alike; a test holds
each against the ORM's (tests/test_game_conditions.py).

Each is an expression on the outer query's game row (``Game``'s own table, not an alias: a query of games with
no join of the game table to itself)."""

from __future__ import annotations

from functools import cache

from django.db import connection
from django.db.models import BooleanField
from django.db.models.expressions import RawSQL

from tournament.models.games import Game
from tournament.models.results import TableResult
from tournament.models.rounds import Round, Table
from tournament.models.statuses import ResultStatus, RoundStatus


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _column(model, field: str) -> str:
    return _q(model._meta.get_field(field).column)


def table_open() -> RawSQL:
    """The game is not on a closed table (``TableQuerySet.closed``: its round over, or its result
    confirmed); a game without a table is open."""
    closed = [RoundStatus.FINISHED.value, ResultStatus.CONFIRMED.value]
    return RawSQL(_table_open_sql(), closed, output_field=BooleanField())


@cache
def _table_open_sql() -> str:
    game, table, round_, result = (_q(m._meta.db_table) for m in (Game, Table, Round, TableResult))
    return (
        f"NOT EXISTS (SELECT 1 FROM {table} t JOIN {round_} r ON r.{_q('id')} = t.{_column(Table, 'round')} "
        f"WHERE t.{_q('id')} = {game}.{_column(Game, 'table')} AND (r.{_column(Round, 'status')} = %s "
        f"OR EXISTS (SELECT 1 FROM {result} x WHERE x.{_column(TableResult, 'table')} = t.{_q('id')} "
        f"AND x.{_column(TableResult, 'status')} = %s)))"
    )


def refereed_by(user_id: int) -> RawSQL:
    """``user_id`` is one of the game's referees."""
    return RawSQL(_refereed_sql(), [user_id], output_field=BooleanField())


@cache
def _refereed_sql() -> str:
    link = Game.referees.through
    game, table = _q(Game._meta.db_table), _q(link._meta.db_table)
    return (
        f"EXISTS (SELECT 1 FROM {table} l WHERE l.{_column(link, 'game')} = {game}.{_q('id')} "
        f"AND l.{_column(link, 'user')} = %s)"
    )
