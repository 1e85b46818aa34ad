"""The page of all moves of a game: the latest first, a hundred a page, each active one voidable but the last
(undone from the console), the undone and voided ones with who and why; and how a move is told in words,
there and in the console's log (``tournament.games.messages.narration``)."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.db.models import Max

from tournament.games.batches import batch_start
from tournament.games.locks import is_closed
from tournament.games.messages import narration
from tournament.models import Game, GameEvent

MOVES_PER_PAGE = 100  # a game of 10⁶ voided moves is still a page of a hundred


def moves_page(game: Game, page=None) -> dict:
    """The game's moves, the latest first, ``MOVES_PER_PAGE`` a page (``page``: its number as asked for; a
    number below 1 or not a number gives the first page, one past the end the last)."""
    try:
        number = max(int(page), 1)
    except (TypeError, ValueError):
        number = 1
    moves = Paginator(game.events.select_related("entered_by").order_by("-seq"), MOVES_PER_PAGE)
    shown = moves.get_page(number)
    last_active = game.events.active().aggregate(seq=Max("seq"))["seq"]
    return {
        "game": game,
        "version": game.version,
        "log": rows(shown.object_list, last_active),
        "page": shown,
        "closed": is_closed(game),
    }


def rows(moves, last_active: int | None) -> list[dict]:
    return [
        {
            "seq": r.seq,
            "type": r.data.get("type"),
            "notes": narration(r),
            "status": r.status,
            "status_label": GameEvent.Status(r.status).label,
            "active": r.status == GameEvent.Status.ACTIVE,
            "last": r.seq == last_active,
            "reason": r.reason,
            "batch": batch_start(r.client_key),
            "by": r.entered_by.get_username() if r.entered_by else "",
            "at": r.entered_at,
        }
        for r in moves
    ]
