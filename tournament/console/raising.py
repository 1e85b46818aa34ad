"""The debt card's way out: what a debtor may sell and mortgage now, each with the cash it raises.

The choices are the engine's own (``rules.legal.player_options``: the very checks the events run), and the
cash each raises is what the engine pays when the move is applied to a copy of the state, so the card never
offers a move the engine refuses nor says an amount the engine does not pay. The card's one button enters
the ticked choices together (``actions.raise_events``, all or nothing: ``moves.submit_all``).

A fixed rent its payer cannot pay offers the same way out on its own card before it is claimed
(``rent_way_out``): the choices and amounts of the state after the claim, the rent applied to a copy.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from rules import RulesError, apply
from rules.legal import PlayerOptions, mortgageable, player_options
from rules.state import GameState
from tournament.boards.words import square_name

#: The order a batch is entered in: buildings are sold before any mortgage (a street is mortgaged only once
#: its colour group stands empty).
RAISING_ORDER = ("sell_building", "mortgage")


def raising_choices(state: GameState, player_id: str, options: PlayerOptions | None) -> list[dict]:
    """The debtor's moves that raise cash now: ``value`` (what the checkbox posts: ``action:square[:count]``),
    ``label``, ``raises`` (the cash the engine pays for it) and ``needs`` (the value of the sale a mortgage
    waits for, or ""): each sale of buildings, followed by the street's mortgage where that sale leaves it
    mortgageable; then the mortgages possible now."""
    if options is None:
        return []
    choices = []
    for sq, n in options.sell_building.items():
        sale = {"type": "sell_building", "player": player_id, "square": sq, "count": n}
        after = _choice(state, sale, f"sell_building:{sq}:{n}", choices)
        if (
            after is not None
            and not after.holdings[sq].level
            and sq in mortgageable(after, after.by_id[player_id])
        ):
            mortgage = {"type": "mortgage", "player": player_id, "square": sq}
            _choice(after, mortgage, f"mortgage:{sq}", choices, needs=f"sell_building:{sq}:{n}")
    for sq in options.mortgage:
        _choice(state, {"type": "mortgage", "player": player_id, "square": sq}, f"mortgage:{sq}", choices)
    return choices


def rent_way_out(state: GameState, rent: dict) -> dict | None:
    """A pending fixed rent (``rules.legal``'s) its payer's cash does not cover: what the debt card would
    offer once it is claimed, worked out on a copy of the state with the rent applied: ``cash`` (the
    payer's now), ``owed`` (what the claim leaves him owing), ``choices`` (``raising_choices`` then) and
    ``can_go_bankrupt`` (the rules then let him go bankrupt). None where his cash covers it, where he is in
    debt already (the debt card is up: claimed alone, the rent adds to it), where the game is over, or where
    the rent is a throw of the dice (a utility's: known once thrown; the debt card follows its claim as any
    debt)."""
    payer = rent["payer"]
    cash = state.player(payer).cash
    if rent.get("times") or state.player(payer).bankrupt or cash < 0 or rent["amount"] <= cash:
        return None  # the cash covers it, or a debt's card is up (no copy of the state made for each rent)
    try:
        after = apply(state, {"type": "rent", "player": payer, "square": rent["square"]}, narrate=False).state
    except RulesError:
        return None
    owed = -after.player(payer).cash
    if owed <= 0 or after.finished:  # a rent claimed once the game is over: nothing more to raise
        return None
    options = player_options(after, payer)
    return {
        "cash": cash,
        "owed": owed,
        "choices": raising_choices(after, payer, options),
        "can_go_bankrupt": options.bankrupt,
    }


def _choice(state: GameState, event: dict, value: str, choices: list, needs: str = "") -> GameState | None:
    """Add the choice of ``event`` with the cash the engine pays for it; the state after it, or None where the
    engine refuses it (not offered)."""
    player_id = event["player"]
    try:
        after = apply(state, event, narrate=False).state
    except RulesError:
        return None
    name = square_name(state.board, event["square"])
    choices.append(
        {
            "value": value,
            "label": _label(state, event, name, needs),
            "raises": after.player(player_id).cash - state.player(player_id).cash,
            "needs": needs,
        }
    )
    return after


def _label(state: GameState, event: dict, name: str, needs: str) -> str:
    if event["type"] == "mortgage" and needs:
        return _("Then mortgage %(square)s") % {"square": name}
    if event["type"] == "mortgage":
        return _("Mortgage %(square)s") % {"square": name}
    return sale_label(state, event["square"], event["count"], name)


def sale_label(state: GameState, square: int, count: int, name: str) -> str:
    """What selling ``count`` levels on ``square`` is called, wherever it is offered (the debt card, a
    player's holdings): a house, the hotel (whole, when the bank has too few houses), the apartment."""
    h = state.holdings[square]
    if h.level < state.hotel_level(h.owner):
        return _("Sell a house on %(square)s") % {"square": name}
    if state.variant.roles:
        return _("Sell the apartment on %(square)s") % {"square": name}
    if count > 1:  # the bank has too few houses to change it back: sold whole
        return _("Sell the whole hotel on %(square)s") % {"square": name}
    return _("Sell the hotel on %(square)s") % {"square": name}
