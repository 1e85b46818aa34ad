"""What people read for the ids the code keeps: a variant's, a board's and a tie-break's name, in the
language of the request. The ids themselves ("tournament-pl", "classic-pl", "total_score") stay what is stored
and sent; forms offer these names as their choices' labels, templates show them through the ``labels`` tag
library (tournament/templatetags/labels.py), the exports write them.

An id not known here is shown as it is: a variant or a board that came with a record or a backup is still
readable."""

from __future__ import annotations

from django.db import DatabaseError
from django.utils.translation import gettext_lazy as _

from rules import available_variants, get_board
from rules.board import shipped_boards
from rules.standings import TIE_BREAKS
from tournament.collation import name_key
from tournament.models import BoardEdition

VARIANTS = {  # rules/variants.py; RULES.md §1 tells what each one is
    "classic": _("Classic Monopoly"),
    "polish-table": _("Polish table rules (50 s a move)"),
    "short": _("Short game"),
    "timed": _("Game with a time limit"),
    "tournament-pl": _("Tournament rules (10 rounds of play)"),
    "anti-monopoly": _("Anti-Monopoly"),
}

SHIPPED_BOARDS = {  # rules/boards/*.json: their own names are in one language
    "classic-pl": _("Monopoly, Polish edition (Warsaw)"),
    "classic-us": _("Monopoly, US classic edition"),
    "anti-monopoly-us": _("Anti-Monopoly, US edition"),
}

TIE_BREAK_LABELS = {  # tournament/standings.py TIE_BREAKS
    "points": _("placement points"),
    "total_score": _("total score"),
    "best_score": _("best single score"),
    "games": _("games played"),
}
assert set(TIE_BREAK_LABELS) == set(TIE_BREAKS)


def variant_label(variant_id: str) -> str:
    return str(VARIANTS.get(variant_id, variant_id))


def _stored_board_names() -> dict[str, str]:
    try:
        return dict(BoardEdition.objects.values_list("pk", "name"))
    except DatabaseError:  # before `migrate`
        return {}


def board_label(board_id: str, stored: dict[str, str] | None = None) -> str:
    """A shipped board's translated name, an uploaded edition's own name (``stored``: names already read,
    else the database is asked), or the id."""
    if board_id in SHIPPED_BOARDS:
        return str(SHIPPED_BOARDS[board_id])
    if board_id in shipped_boards():  # a board file added without a name here: its own name
        return get_board(board_id).name
    if stored is None:
        stored = _stored_board_names() if board_id else {}
    return stored.get(board_id) or board_id


def tie_break_label(key: str) -> str:
    return str(TIE_BREAK_LABELS.get(key, key))


def variant_choices() -> list[tuple[str, str]]:
    """(id, name) of every variant, in the rules' order (asked at each request: the names are translated)."""
    return [(v, variant_label(v)) for v in available_variants()]


def board_choices() -> list[tuple[str, str]]:
    """(id, name) of every board a game or a tournament may be played on, by name; an uploaded edition's id
    is added to its name, since two uploads may share one."""
    shipped = [(b, board_label(b)) for b in shipped_boards()]
    stored = [(b, f"{name} ({b})") for b, name in _stored_board_names().items()]
    return sorted(shipped + stored, key=lambda c: name_key(c[1]))
