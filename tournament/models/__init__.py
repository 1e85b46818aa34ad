"""Database models: games at a table and their event logs (tournaments, rounds and seating come next)."""

from tournament.models.games import Game, GameEvent, GamePlayer

__all__ = ["Game", "GameEvent", "GamePlayer"]
