"""The latest moves of a game as the console's panel shows them, read in one query: the last few rows (any
status: the log shows the undone and voided ones too) and, counted over the whole game with them, how many
moves it has and whether one of its active moves is a cash count (only then does the panel replay the game
for the counts: ``cash_line.last_counts``)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Exists, Subquery

from tournament.console.cash_line import cash_count_moves
from tournament.models import Game, GameEvent


@dataclass
class Latest:
    rows: list[GameEvent]  # the latest moves, newest first, with who entered them
    total: int  # every move of the game, whatever its status
    counted: bool  # an active move of the game is a cash count


def latest_moves(game: Game, length: int) -> Latest:
    """The game's ``length`` latest moves, with the whole game's figures (``Latest``), each a subquery the
    database answers once (a window function would sort every move of the game)."""
    moves = game.events.order_by()
    total = Subquery(moves.values("game").annotate(n=Count("pk")).values("n"))
    counted = Exists(cash_count_moves(game).order_by())
    rows = list(
        game.events.select_related("entered_by")
        .annotate(total=total, counted=counted)
        .order_by("-seq")[:length]
    )
    return Latest(rows, rows[0].total if rows else 0, bool(rows and rows[0].counted))
