"""One change of a game at a time: its row locked until the transaction ends, and whether its table is
closed (its result confirmed, or its round over) when the lock is held."""

from __future__ import annotations

from tournament.models import Game, Table


def is_closed(game: Game) -> bool:
    """A tournament game whose result is confirmed, or whose round is over, is read-only. Asked once per
    game read (kept on it: the move's check and the panel after it agree).

    Asked by its own query after the game's row is locked, never read with the row: on PostgreSQL a
    ``SELECT … FOR UPDATE`` that waited for the lock answers its subqueries from the snapshot it began with,
    so a confirmation committed while a move waited would not be seen, and the move would reopen a confirmed
    game (tests/test_event_day_races.py, confirm and undo at once)."""
    if "closed" not in game.__dict__:
        game.closed = game.table_id is not None and Table.objects.filter(pk=game.table_id).closed().exists()
    return game.closed


def locking(games=None):
    """``games`` (by default all) read with their row locked until the transaction ends: one change of a game
    at a time. Whoever also locks the game's round or table locks them first (round, table, game): no two
    changes wait on each other. The game's row alone: what a change needs (its title's table, round and
    tournament are read when asked)."""
    games = Game.objects.all() if games is None else games
    return games.select_for_update(of=("self",))


def locked(game_id: int) -> Game:
    """The game, its row locked until the transaction ends (``locking``)."""
    return locking().get(pk=game_id)
