"""Boards as data: squares, colour groups and card decks, loaded from JSON files and validated.

A board file lists 40 squares (index 0 is Start, counted in the direction of play) and the card decks.
A deck whose ``cards`` is ``null`` is known by name only (e.g. the Polish edition, whose card texts are not
public): its cards are recorded by their effect. The shipped files are data, in ``rules/boards/``.

Boards that are not shipped as files (an edition an organiser filled in from the physical title cards) are
found through a small registry: ``register_board`` / ``forget_board`` in this process, and a loader the
application sets (``set_board_loader``) that is asked for an id that is neither shipped nor registered.
``get_board`` and ``available_boards`` consult the shipped files first: a shipped id cannot be replaced.

Three modules, one job each; the names other code uses are imported from here (``from rules.board import
get_board``):

- :mod:`rules.board.types`: what a board is made of (``Board``, ``Square``, ``Card``, ``Deck``) and the
  vocabularies of its file (``SQUARE_KINDS``, ``EFFECT_FIELDS``);
- :mod:`rules.board.parse`: a board from its JSON data, validated (``parse_board``, ``load_board_file``,
  ``validate_effect``);
- :mod:`rules.board.registry`: where boards are found (``get_board``, ``available_boards``,
  ``shipped_boards``, ``register_board``, ``forget_board``, ``set_board_loader``).
"""

from rules.board.parse import MAX_BOARD_NUMBER, load_board_file, parse_board, validate_effect
from rules.board.registry import (
    BOARDS_DIR,
    available_boards,
    forget_board,
    get_board,
    register_board,
    set_board_loader,
    shipped_boards,
)
from rules.board.types import BOARD_SIZE, EFFECT_FIELDS, SQUARE_KINDS, Board, Card, Deck, Square

__all__ = [
    "BOARDS_DIR",
    "BOARD_SIZE",
    "EFFECT_FIELDS",
    "MAX_BOARD_NUMBER",
    "SQUARE_KINDS",
    "Board",
    "Card",
    "Deck",
    "Square",
    "available_boards",
    "forget_board",
    "get_board",
    "load_board_file",
    "parse_board",
    "register_board",
    "set_board_loader",
    "shipped_boards",
    "validate_effect",
]
