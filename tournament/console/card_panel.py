"""What the console offers for a pending card: the deck's listed cards, or, for a deck whose texts are not
listed (the Polish Szansa / Kasa Społeczna, Anti-Monopoly's role decks), what a card does — one tap for a card
without an amount and for each effect the classic cards print, else the kind with its own field(s) only.
Anti-Monopoly's decks are one per role: only the drawing player's role's jail card is offered, and of the
classic cards' amounts those that are amounts only (not the classic board's squares or its repairs)."""

from __future__ import annotations

import json

from django.utils.translation import gettext_lazy

from rules.board import EFFECT_FIELDS
from rules.roles import COMPETITOR, MONOPOLIST
from rules.state import GameState
from tournament.boards.words import board_word, deck_name, square_name
from tournament.console.kept import NOTHING, Kept
from tournament.console.view_model.cards import card_offer

#: What the console calls each card effect of the engine's vocabulary (``rules.board.EFFECT_FIELDS``); a kind
#: missing here is offered by its name.
EFFECT_LABELS = {
    "collect": gettext_lazy("the bank pays the player"),
    "pay": gettext_lazy("the player pays the bank"),
    "move_to": gettext_lazy("advance to a square"),
    "move_back": gettext_lazy("go back"),
    "nearest": gettext_lazy("advance to the nearest railroad / utility"),
    "go_to_jail": gettext_lazy("go to jail"),
    "go_to_price_war": gettext_lazy("go to Price War"),
    "go_to_prison": gettext_lazy("go to Prison"),
    "jail_card": gettext_lazy("get out of jail free"),
    "repairs": gettext_lazy("repairs: pay per house and hotel"),
    "pay_each_player": gettext_lazy("pay each player"),
    "collect_from_each_player": gettext_lazy("collect from each player"),
}
#: In a game with roles: the jail card named after the drawing player's jail, repairs after the apartment.
ROLE_LABELS = {
    (COMPETITOR, "jail_card"): gettext_lazy("get out of Price War free"),
    (MONOPOLIST, "jail_card"): gettext_lazy("get out of Prison free"),
    (COMPETITOR, "repairs"): gettext_lazy("repairs: pay per house and apartment"),
    (MONOPOLIST, "repairs"): gettext_lazy("repairs: pay per house and apartment"),
}
NEAREST_LABELS = {
    "railroad": gettext_lazy("advance to the nearest railroad"),
    "utility": gettext_lazy("advance to the nearest utility"),
}
#: The label of each field a referee types (or chooses, for a square).
FIELD_LABELS = {
    "amount": gettext_lazy("Amount"),
    "square": gettext_lazy("Square"),
    "steps": gettext_lazy("Squares back"),
    "per_house": gettext_lazy("Per house"),
    "per_hotel": gettext_lazy("Per hotel"),
}


def card_panel(state: GameState, card: dict, names: dict, kept: Kept = NOTHING) -> dict:
    """``card``: the engine's pending draw (``rules.legal``'s ``card``); what it offers is the view model's
    (``tournament.console.view_model.cards``), said here; ``kept``: what was typed in a refused card form (no
    JavaScript), put back into its fields."""
    board = state.board
    offer = card_offer(state, card)
    deck = board.decks[offer["deck"]]
    out = {
        "player": card["player"],
        "player_name": names[card["player"]],
        "deck": deck.id,
        "deck_name": deck_name(board, deck.id),
        "cards": None
        if offer["cards"] is None
        else [{"ref": f"{deck.id}:{c['id']}", "text": deck.card(c["id"]).text} for c in offer["cards"]],
    }
    if offer["cards"] is None:
        out.update(_by_effect(state, card["player"], offer, kept))
    return out


def _by_effect(state: GameState, player: str, offer: dict, kept: Kept = NOTHING) -> dict:
    """One tap for a card without an amount (both "nearest" cards among them); for each kind with amounts, the
    classic cards' amounts one tap each, and its field(s) for any other."""
    one_tap = [_offer(e, _effect_label(state, player, e["effect"])) for e in offer["effects"]]
    typed = [
        {
            "kind": t["kind"],
            "label": _label(state, player, t["kind"]),
            "one_tap": [_offer(e, _values_label(state, e["effect"])) for e in t["effects"]],
            "fields": [
                _field(f, kept.value(f"effect_{f}", "", action="card", effect_kind=t["kind"]))
                for f in t["fields"]
            ],
        }
        for t in offer["typed"]
    ]
    return {
        "one_tap": one_tap,
        "typed": typed,
        "dice_for": [o["label"] for o in one_tap + [o for t in typed for o in t["one_tap"]] if o["dice"]],
        "squares": [{"index": s.index, "name": board_word(s.name)} for s in state.board.squares],
    }


def _effect_label(state: GameState, player: str, effect: dict):
    if effect["kind"] == "nearest":
        return NEAREST_LABELS[effect["square_kind"]]
    return _label(state, player, effect["kind"])


def _label(state: GameState, player: str, kind: str) -> str:
    role = state.by_id[player].role if state.variant.roles else None
    return ROLE_LABELS.get((role, kind)) or EFFECT_LABELS.get(kind, kind)


def _field(name: str, value: str) -> dict:
    """A field to type in, as wide as its label (the label is its placeholder); ``value``: as typed."""
    label = str(FIELD_LABELS.get(name, name))
    return {"name": name, "label": label, "size": max(5, len(label)), "value": value}


def _offer(offer: dict, label) -> dict:
    """A one-tap button: the effect as the record writes it; must the dice for a rent go with it?"""
    return {"value": json.dumps(offer["effect"]), "label": label, "dice": offer["dice"]}


def _values_label(state: GameState, effect: dict) -> str:
    """The button of a classic card within its kind's row: its values ("50", "Start", "25 / 100")."""
    if effect["kind"] == "move_to":
        return square_name(state.board, effect["square"])
    return " / ".join(str(effect[f]) for f in EFFECT_FIELDS[effect["kind"]])
