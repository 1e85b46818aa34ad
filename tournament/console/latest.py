"""The latest moves of a game as the console's panel shows them, read in one query: the last few rows (any
status: the log shows the undone and voided ones too) and, asked over the whole game with them, whether one
of its active moves is a cash count (only then does the panel replay the game for the counts:
``cash_line.last_counts``). How many moves the game has is its ``next_seq`` less one: each move entered takes
the next number (recording.store_moves, record_import), so the rows need not be counted."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists

from tournament.console.cash_line import cash_count_moves
from tournament.models import Game, GameEvent

#: What the log, the undo and the "just now" line read of a move (its who-changed-it-and-why is not shown):
#: fewer columns to read and fewer to compile (the query costs about half as much as with all of them).
SHOWN = (
    *("game_id", "seq", "data", "status", "notes", "reason", "client_key", "entered_at"),
    "entered_by__username",
)


@dataclass
class Latest:
    rows: list[GameEvent]  # the latest moves, newest first, with who entered them
    total: int  # every move of the game, whatever its status
    counted: bool  # an active move of the game is a cash count

    @property
    def whole(self) -> bool:
        """Whether the rows are all the game's moves."""
        return len(self.rows) == self.total


def latest_moves(game: Game, length: int) -> Latest:
    """The game's ``length`` latest moves, with whether the game has a cash count (``Latest``): a subquery
    the database answers once."""
    rows = list(
        GameEvent.objects.filter(game_id=game.pk)
        .select_related("entered_by")
        .only(*SHOWN)
        .annotate(counted=Exists(cash_count_moves(game).order_by()))
        .order_by("-seq")[:length]
    )
    total = len(rows) if len(rows) < length else game.next_seq - 1
    return Latest(rows, total, bool(rows and rows[0].counted))
