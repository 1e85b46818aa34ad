"""Database models: games at a table with their event logs; tournaments, rounds, tables and results; board
editions loaded from an organiser's file."""

from tournament.models.boards import BoardEdition
from tournament.models.games import Game, GameEvent, GamePlayer
from tournament.models.tournaments import Participant, Round, Seat, Table, TableResult, Tournament

__all__ = [
    "BoardEdition",
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
