"""The debt card's way out in words: what a debtor may sell and mortgage now, each with the cash it raises
(the view model's ``tournament.console.view_model.raising``: the engine's own choices and amounts). The
card's one button enters the ticked choices together (``actions.raise_events``, all or nothing), buildings
sold before mortgages (``RAISING_ORDER``).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from rules.legal import PlayerOptions
from rules.state import GameState
from tournament.boards.words import square_name
from tournament.console.view_model import raising
from tournament.console.view_model.raising import RAISING_ORDER

__all__ = ["RAISING_ORDER", "raising_choices", "rent_way_out", "sale_label"]


def raising_choices(state: GameState, player_id: str, options: PlayerOptions | None) -> list[dict]:
    """The debtor's moves that raise cash now: ``value`` (what the checkbox posts: ``action:square[:count]``),
    ``label``, ``raises`` (the cash the engine pays for it) and ``needs`` (the value of the sale a mortgage
    waits for, or "")."""
    return _worded(state, raising.raising_choices(state, player_id, options))


def rent_way_out(state: GameState, rent: dict) -> dict | None:
    """A pending fixed rent its payer's cash does not cover: what the debt card would offer once it is
    claimed (the view model's ``raising.rent_way_out``, its choices in words)."""
    out = raising.rent_way_out(state, rent)
    if out is None:
        return None
    return {**out, "choices": _worded(state, out["choices"])}  # (a claim changes no building: the same words)


def _worded(state: GameState, choices: list[dict]) -> list[dict]:
    """``choices`` as the checkboxes post and say them."""
    values = [_value(c["event"]) for c in choices]
    out = []
    for c, value in zip(choices, values, strict=True):
        event = c["event"]
        needs = "" if c["needs"] is None else values[c["needs"]]
        name = square_name(state.board, event["square"])
        label = _label(state, event, name, needs)
        out.append({"value": value, "label": label, "raises": c["raises"], "needs": needs})
    return out


def _value(event: dict) -> str:
    if event["type"] == "sell_building":
        return f"sell_building:{event['square']}:{event['count']}"
    return f"mortgage:{event['square']}"


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
