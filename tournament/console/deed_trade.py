"""A trade begun from a title deed: tapping a deed in its owner's card opens the trade form filled in.

The player whose turn it is (until the next player rolls; before the first roll, the first to roll) gets
the deed from its owner — he is the one who asks for it, nearly always; a deed of his own he gives to the
next player in seat order. The referee then types the cash and records
the trade; another pair of players is one choice in the form away. The same fields fill the form with
JavaScript (the deed's ``data-trade-*``, ``static/console/console-forms.js``) and without it (the console
page asked for with ``?trade=SQUARE``: a ``Kept`` form, as a refused form's typing comes back).
"""

from __future__ import annotations

from django.http import QueryDict

from rules.legal import Legal
from rules.state import GameState
from tournament.console.kept import NOTHING, Kept
from tournament.console.view_model.screen import trade_pair


def default_pair(state: GameState, roller: str | None) -> tuple[str, str] | None:
    """The two players the trade form starts with (the view model's ``trade_pair``): the player whose turn
    it is (else ``roller``, the next to roll, else the first still in) and the next one after him in seat
    order; None when fewer than two are still in."""
    pair = trade_pair(state, roller)
    return None if pair is None else (pair[0], pair[1])


def deed_trade(owner: str, square: int, pair: tuple[str, str]) -> dict:
    """The trade a tap on ``square``'s deed, ``owner``'s, opens when the trade form starts with ``pair``
    (``default_pair``): ``player`` (the first, who gives his side), ``with``, ``side`` ("get": the deed is
    the other's, "give": it is the first player's own) and ``cash`` (the field to type next: what the first
    player gives or gets). Asked only for a deed the engine lets its owner trade now (``rules.legal``'s
    ``tradable``: the trade form's own list)."""
    first, after = pair
    if owner != first:
        return {"player": first, "with": owner, "side": "get", "cash": "give_cash", "square": square}
    return {"player": first, "with": after, "side": "give", "cash": "get_cash", "square": square}


def deed_trade_form(state: GameState, asked: str | None, pair: tuple[str, str], legal: Legal) -> Kept:
    """The trade form filled in for the deed asked for by ``?trade=SQUARE`` (a console without JavaScript);
    the forms' defaults (``NOTHING``) for anything else, a garbled square or one its owner may not trade now
    included."""
    if not asked or not asked.isascii() or not asked.isdigit() or len(asked) > 2:
        return NOTHING
    square = int(asked)
    holding = state.holdings.get(square)
    options = legal.players.get(holding.owner) if holding is not None else None
    if options is None or square not in options.tradable:
        return NOTHING
    trade = deed_trade(holding.owner, square, pair)
    form = QueryDict(mutable=True)
    form.update({"action": "trade", "player": trade["player"], "with": trade["with"]})
    form.setlist(f"{trade['side']}_squares", [str(square)])
    return Kept(form)
