"""Database models: games at a table with their event logs; tournaments, rounds, tables and results."""

from tournament.models.games import Game, GameEvent, GamePlayer
from tournament.models.tournaments import Participant, Round, Seat, Table, TableResult, Tournament

__all__ = [
    "Game",
    "GameEvent",
    "GamePlayer",
    "Participant",
    "Round",
    "Seat",
    "Table",
    "TableResult",
    "Tournament",
]
