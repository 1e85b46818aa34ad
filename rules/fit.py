"""Which boards a variant is played on — the one rule the forms, the imports and ``replay`` all ask.

A board says what game it is made for by what it prints, not by a label: an Anti-Monopoly board prints things
for each role (a card square drawing from the competitors' or the monopolists' deck, the Anti-Monopoly
Foundation, a monopolist's rents or utility multipliers), a Monopoly board prints none. A variant played with
roles (Anti-Monopoly: competitors and monopolists) needs a board made for them; a variant without roles is
not played on such a board (its card squares, the Foundation and the monopolists' rents would mean nothing).
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.board import Board, available_boards, get_board
from rules.errors import BoardError, Refusal, gettext_noop, refusal
from rules.messages import msg
from rules.variants import Variant


def made_for_roles(board: Board) -> bool:
    """The board prints something for each role (Anti-Monopoly's competitors and monopolists)."""
    return any(
        sq.role_decks or sq.kind == "foundation" or sq.monopolist_rents or sq.monopolist_multipliers
        for sq in board.squares
    )


def board_fits(variant: Variant, board: Board) -> bool:
    """The game of ``variant`` can be played on ``board``."""
    return variant.roles == made_for_roles(board)


def fitting_boards(variant: Variant, board_ids: Iterable[str] | None = None) -> list[str]:
    """The ids among ``board_ids`` (default: every available board) of the boards ``variant`` is played on."""
    fitting = []
    for board_id in available_boards() if board_ids is None else board_ids:
        try:
            board = get_board(board_id)
        except BoardError:  # deleted meanwhile, or unreadable: not offered
            continue
        if board_fits(variant, board):
            fitting.append(board_id)
    return fitting


NEEDS_ROLES = gettext_noop(
    "this variant is played by competitors and monopolists, and the board prints nothing of theirs (their "
    "cards, their rents, the Foundation)."
)
MADE_FOR_ROLES = gettext_noop("the board is made for a game of competitors and monopolists (Anti-Monopoly).")
DOES_NOT_FIT = gettext_noop(
    "The board “{board}” does not fit the variant “{variant}”: {why} Boards that fit: {boards}."
)
NONE_FITS = gettext_noop(
    "The board “{board}” does not fit the variant “{variant}”: {why} No board here fits it."
)


def why_board_does_not_fit(variant: Variant, board: Board) -> Refusal | None:
    """None if ``variant`` is played on ``board``; otherwise why not, naming the boards that fit (``boards``:
    their ids, comma separated)."""
    if board_fits(variant, board):
        return None
    fitting = fitting_boards(variant)
    return refusal(
        "board.does_not_fit",
        DOES_NOT_FIT if fitting else NONE_FITS,
        board=board.id,
        variant=variant.id,
        why=msg(NEEDS_ROLES if variant.roles else MADE_FOR_ROLES),
        boards=", ".join(fitting),
    )
