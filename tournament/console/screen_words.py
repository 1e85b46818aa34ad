"""The names the console's screen shows of the game's board, in the referee's language, written into its page
once (the screen itself is codes and numbers: ``view_model``): each square's and deck's name, the text of each
listed card, each square's colour group (its look), the English board words the engine's messages name
(translated on the phone as on the server: ``tournament.boards.words``), and an organiser's edition's own data
(the phone's rules register it: it is not shipped with them)."""

from __future__ import annotations

from rules.board.registry import shipped_boards
from rules.state import GameState
from tournament.boards.editions import stored_board
from tournament.boards.words import WORDS, deck_name, square_name
from tournament.labels import board_label, variant_label


def screen_words(state: GameState) -> dict:
    board = state.board
    return {
        "squares": [square_name(board, sq.index) for sq in board.squares],
        "groups": [sq.group or sq.kind for sq in board.squares],
        "decks": {deck: deck_name(board, deck) for deck in board.decks},
        "cards": {
            deck.id: {c.id: c.text for c in deck.cards}
            for deck in board.decks.values()
            if deck.cards is not None
        },
        "board_words": {english: str(word) for english, word in WORDS.items()},
        # the ids the engine's messages name (tournament.games.messages.ID_PARAMS), by their names
        "ids": {
            "variant": {state.variant.id: variant_label(state.variant.id)},
            "board": {board.id: board_label(board.id, stored={})},
        },
        "board_data": _board_data(board),
    }


def _board_data(board) -> dict | None:
    """An organiser's edition (not shipped with the phone's rules): its data, for the phone's engine."""
    if board.id in shipped_boards():
        return None
    stored = stored_board(board.id)
    return stored[1] if stored else None
