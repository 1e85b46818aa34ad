"""A debtor's way out: what he may sell and mortgage now, each with the cash it raises.

The choices are the engine's own (``rules.legal.player_options``: the very checks the events run), and the
cash each raises is what the engine pays when the move is applied to a copy of the state, so the console
never offers a move the engine refuses nor says an amount the engine does not pay. The choices ticked are
entered together, sales before mortgages (``RAISING_ORDER``), all or nothing.

A fixed rent its payer cannot pay offers the same way out on its own card before it is claimed
(``rent_way_out``): the choices and amounts of the state after the claim, the rent applied to a copy.
"""

from __future__ import annotations

from rules import RulesError, apply
from rules.legal import PlayerOptions, mortgageable, player_options
from rules.state import GameState

#: The order a batch is entered in: buildings are sold before any mortgage (a street is mortgaged only once
#: its colour group stands empty).
RAISING_ORDER = ("sell_building", "mortgage")


def raising_choices(state: GameState, player_id: str, options: PlayerOptions | None) -> list[dict]:
    """The debtor's moves that raise cash now, each ``{"event", "raises", "needs"}``: the event as the record
    writes it, the cash the engine pays for it, and (a mortgage that waits for a sale of the same street's
    buildings) the index of that sale in the list, else None. Each sale of buildings comes first, followed
    by the street's mortgage where that sale leaves it mortgageable; then the mortgages possible now."""
    if options is None:
        return []
    choices: list[dict] = []
    for sq, n in options.sell_building.items():
        sale = {"type": "sell_building", "player": player_id, "square": sq, "count": n}
        after = _choice(state, sale, choices)
        if (
            after is not None
            and not after.holdings[sq].level
            and sq in mortgageable(after, after.by_id[player_id])
        ):
            _choice(
                after,
                {"type": "mortgage", "player": player_id, "square": sq},
                choices,
                needs=len(choices) - 1,
            )
    for sq in options.mortgage:
        _choice(state, {"type": "mortgage", "player": player_id, "square": sq}, choices)
    return choices


def rent_way_out(state: GameState, rent: dict) -> dict | None:
    """A pending fixed rent (``rules.legal``'s) its payer's cash does not cover: what the debt card would
    offer once it is claimed, worked out on a copy of the state with the rent applied: ``cash`` (the payer's
    now), ``owed`` (what the claim leaves him owing), ``choices`` (``raising_choices`` then) and
    ``can_go_bankrupt`` (the rules then let him go bankrupt). None where his cash covers it, where he is in
    debt already (the debt card is up: claimed alone, the rent adds to it), where the game is over, or where
    the rent is a throw of the dice (a utility's: known once thrown; the debt card follows its claim)."""
    payer = rent["payer"]
    cash = state.player(payer).cash
    if rent.get("times") or state.player(payer).bankrupt or cash < 0 or rent["amount"] <= cash:
        return None
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


def _choice(state: GameState, event: dict, choices: list, needs: int | None = None) -> GameState | None:
    """Add the choice of ``event`` with the cash the engine pays for it; the state after it, or None where the
    engine refuses it (not offered)."""
    player_id = event["player"]
    try:
        after = apply(state, event, narrate=False).state
    except RulesError:
        return None
    raises = after.player(player_id).cash - state.player(player_id).cash
    choices.append({"event": event, "raises": raises, "needs": needs})
    return after
