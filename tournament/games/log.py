"""A game's log as stored, read: its active events in order, the game as a GAME_RECORD file (``record_of``),
an event's stored form, the director's stop."""

from __future__ import annotations

from rules.record import FORMAT
from tournament.models import Game


def active_events(game: Game):
    return game.events.active().order_by("seq")


def is_directors_stop(data: dict) -> bool:
    """The director's stop (``interventions.stop_game``): a ``time_up`` with ``now``."""
    return data.get("type") == "time_up" and data.get("now") is True


def record_header(game: Game, players) -> dict:
    """A GAME_RECORD file but its events: format, variant, board, players in seat order, options."""
    return {
        "format": FORMAT,
        "variant": game.variant,
        "board": game.board,
        "players": [{"id": p.pid, "name": p.name, **({"role": p.role} if p.role else {})} for p in players],
        "options": game.options,
    }


def record_of(game: Game) -> dict:
    """The game as a GAME_RECORD file: what `replay` accepts and gives the same result as the console."""
    return {
        **record_header(game, game.players.order_by("seat")),
        "events": [e.data for e in active_events(game)],
    }


def event_data(event: dict) -> dict:
    """The normalised event as record data: lists for tuples, no empty optional fields."""
    out = {}
    for k, v in event.items():
        if v is None and k not in ("winner",):
            continue
        out[k] = list(v) if isinstance(v, tuple) else v
    return out
