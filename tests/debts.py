"""A game of the console with a player about to fall into debt: the debt card's tests (the view's and the
browser's) start from it."""

from __future__ import annotations

from rules.state import Holding
from tournament.games import recording


def own(state, player: str, squares, level: int = 0, mortgaged: bool = False) -> None:
    """``player`` owns ``squares`` with ``level`` building levels each (the bank's stock lent to him)."""
    hotel = state.hotel_level(player)
    for sq in squares:
        state.holdings[sq] = Holding(player, level, mortgaged)
        if level >= hotel:
            state.hotels -= 1
        else:
            state.houses -= level


def about_to_owe(game, *, cash: int = 150, holdings=None, creditor=None, at: int = 6) -> None:
    """Anna (A, whose turn it is) with ``cash``, standing on square ``at``; ``holdings``: {player: [(squares,
    level, mortgaged)]}; by default Anna owns the orange streets with a house each, the Western Station and
    the brown streets, Bartek the light blue ones with 3 houses on Ulica Targowa (rent 300: a roll of 1 and 2
    from square 6 lands there)."""
    state = recording.current_state(game)
    holdings = holdings or {
        "A": [((16, 18, 19), 1, False), ((5, 1, 3), 0, False)],
        creditor or "B": [((6, 8), 0, False), ((9,), 3, False)],
    }
    for player, lots in holdings.items():
        for squares, level, mortgaged in lots:
            own(state, player, squares, level, mortgaged)
    state.player("A").cash = cash
    state.player("A").position = at
    game.state = recording.dump_state(state)
    game.save()
