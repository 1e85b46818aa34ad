"""The words the console needs while the Wi-Fi is down, written into its page in the referee's language (the
phone then translates nothing itself but the engine's messages, with the catalogue ``engine_files`` serves):
the squares' and decks' names, each deck's cards as the online panel offers them (``card_panel``: listed
cards by their text, the others by what they do, one tap each, per role), and the offline panel's own
phrases. ``static/console/offline-panel.js`` reads them."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from rules.board import Board
from rules.board.registry import shipped_boards
from rules.state import GameState
from tournament.boards.editions import stored_board
from tournament.boards.words import WORDS, deck_name, square_name
from tournament.console.card_panel import card_panel
from tournament.labels import ROLES


def offline_words(state: GameState) -> dict:
    board = state.board
    return {
        "squares": [square_name(board, sq.index) for sq in board.squares],
        "board_words": {english: str(word) for english, word in WORDS.items()},
        "decks": {deck: deck_name(board, deck) for deck in board.decks},
        "cards": _cards(state, board),
        "roles": {role: str(word) for role, word in ROLES.items()},
        "board_data": _board_data(board),
        "ui": _phrases(),
    }


def _cards(state: GameState, board: Board) -> dict:
    """For each player (his role's decks differ in Anti-Monopoly) and deck: the one-tap offers of a draw."""
    names = {p.id: p.name for p in state.players}
    out = {}
    for p in state.players:
        out[p.id] = {}
        for deck in board.decks:
            offered = card_panel(state, {"player": p.id, "deck": deck, "cards": _listed(board, deck)}, names)
            if offered["cards"] is not None:
                out[p.id][deck] = [{"card": c["ref"], "label": c["text"]} for c in offered["cards"]]
            else:
                out[p.id][deck] = [
                    {"effect": e["value"], "label": str(e["label"])} for e in offered["one_tap"]
                ]
                for typed in offered["typed"]:
                    out[p.id][deck] += [
                        {"effect": e["value"], "label": f"{typed['label']}: {e['label']}"}
                        for e in typed["one_tap"]
                    ]
    return out


def _board_data(board: Board) -> dict | None:
    """An organiser's edition (not shipped with the phone's rules): its data, for the phone's engine."""
    if board.id in shipped_boards():
        return None
    stored = stored_board(board.id)
    return stored[1] if stored else None


def _listed(board: Board, deck: str) -> list[str] | None:
    """The ids of a deck whose texts the board lists (None: a deck drawn by what the card does)."""
    cards = board.decks[deck].cards
    return None if cards is None else [c.id for c in cards]


def _phrases() -> dict:
    return {
        "online": _("Online"),
        "offline": _("Offline: moves are kept on this phone"),
        "waiting": _("Moves waiting to be sent: %(n)s"),
        "sending": _("Sending the moves kept on this phone…"),
        "offline_panel": _(
            "No connection. Go on entering the moves: this phone checks them with the rules and sends them, "
            "in order, when the Wi-Fi is back."
        ),
        "engine_starting": _("Starting the rules on this phone…"),
        "uncertain": _(
            "The last move sent got no answer: the server may have it. If it has, the moves entered here are "
            "refused when sent, each listed: then enter again what still stands."
        ),
        "engine_failed": _(
            "The rules could not start on this phone: enter the moves on paper until the Wi-Fi is back."
        ),
        "round": _("Round %(n)s"),
        "turn": _("Turn: %(name)s"),
        "rolls": _("%(name)s rolls"),
        "rolls_again": _("%(name)s rolls again (double)"),
        "buy": _("%(name)s landed on %(square)s (price %(price)s)"),
        "buy_button": _("Buy"),
        "decline_button": _("Do not buy"),
        "auction": _("Auction of %(square)s"),
        "winner": _("Winner"),
        "nobody": _("Nobody bought it"),
        "price": _("Price"),
        "sold": _("Sold"),
        "card": _("%(name)s draws from %(deck)s"),
        "tax": _("%(name)s pays the income tax"),
        "tax_fixed": _("Pay %(amount)s"),
        "tax_percent": _("Pay %(percent)s%%"),
        "rent": _("%(payer)s pays %(owner)s %(amount)s (%(square)s)"),
        "rent_button": _("Rent claimed"),
        "debt": _("%(name)s owes %(amount)s: sell or mortgage below, or declare bankruptcy"),
        "bankrupt": _("Bankrupt"),
        "jail_fine": _("Pay the fine"),
        "jail_card": _("Use a 'Get out of jail' card"),
        "foundation": _("%(name)s throws one die at the Foundation"),
        "build": pgettext("button", "Build"),
        "sell_building": _("Sell a building"),
        "mortgage": _("Mortgage"),
        "unmortgage": _("Pay off the mortgage"),
        "square": _("Square"),
        "do": _("OK"),
        "undo": _("Undo the last move kept on this phone"),
        "not_offline": _("This needs the connection: it waits until the Wi-Fi is back."),
        "game_over": _("Game over"),
        "cash": _("cash"),
        "mortgaged": _("mortgaged"),
        "refused_title": _("Moves kept on this phone that the server refused"),
        "refused_after": _("Not sent: it followed a refused move."),
        "dismiss": _("Understood: forget them"),
        "and": pgettext("the dice: 3 and 4", "and"),
    }
