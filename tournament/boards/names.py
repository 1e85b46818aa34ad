"""A board's name as people read it, wherever the board is kept: a shipped board's translated name
(``tournament.labels``), an uploaded edition's own name (``BoardEdition``, read from the database), or the
id. The pages, the forms, the exports and the record import name a board through here; the template filter
``board_label`` (tournament/templatetags/labels.py) too."""

from __future__ import annotations

from django.db import DatabaseError

from rules.board import shipped_boards
from tournament import labels
from tournament.collation import name_key
from tournament.models import BoardEdition


def stored_board_names() -> dict[str, str]:
    """The uploaded editions' names by id ({} before ``migrate``)."""
    try:
        return dict(BoardEdition.objects.values_list("pk", "name"))
    except DatabaseError:  # before `migrate`
        return {}


def board_label(board_id: str, stored: dict[str, str] | None = None) -> str:
    """A shipped board's translated name, an uploaded edition's own name (``stored``: names already read,
    else the database is asked), or the id."""
    shipped = labels.shipped_board_label(board_id)
    if shipped is not None:
        return shipped
    if stored is None:
        stored = stored_board_names() if board_id else {}
    return labels.board_label(board_id, stored)


def board_choices() -> list[tuple[str, str]]:
    """(id, name) of every board a game or a tournament may be played on, by name; an uploaded edition's id
    is added to its name, since two uploads may share one."""
    shipped = [(b, board_label(b)) for b in shipped_boards()]
    stored = [(b, f"{name} ({b})") for b, name in stored_board_names().items()]
    return sorted(shipped + stored, key=lambda c: name_key(c[1]))
