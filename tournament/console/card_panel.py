"""What the console offers for a pending card: the deck's listed cards, or, for a deck whose texts are not
listed (the Polish Szansa / Kasa Społeczna, Anti-Monopoly's role decks), what a card does — one tap for a card
without an amount and for each effect the classic cards print, else the kind with its own field(s) only.
Anti-Monopoly's decks are one per role: only the drawing player's role's jail card is offered, and of the
classic cards' amounts those that are amounts only (not the classic board's squares or its repairs)."""

from __future__ import annotations

import json

from django.utils.translation import gettext_lazy

from rules.board import EFFECT_FIELDS
from rules.cards import NEAREST_MULTIPLIERS, ROLE_EFFECTS, classic_effects, effect_kinds, needs_dice_for
from rules.roles import COMPETITOR, MONOPOLIST
from rules.state import GameState
from tournament.boards.words import board_word, deck_name, square_name
from tournament.console.kept import NOTHING, Kept

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
    """``card``: the engine's pending draw (``rules.legal``'s ``card``); ``kept``: what was typed in a refused
    card form (no JavaScript), put back into its fields."""
    board = state.board
    deck = board.decks[card["deck"]]
    out = {
        "player": card["player"],
        "player_name": names[card["player"]],
        "deck": deck.id,
        "deck_name": deck_name(board, deck.id),
        "cards": None
        if card["cards"] is None
        else [{"ref": f"{deck.id}:{cid}", "text": deck.card(cid).text} for cid in card["cards"]],
    }
    if card["cards"] is None:
        out.update(_by_effect(state, card["player"], deck.id, kept))
    return out


def _by_effect(state: GameState, player: str, deck: str, kept: Kept = NOTHING) -> dict:
    """One tap for a card without an amount (both "nearest" cards among them); for each kind with amounts, the
    classic cards' amounts one tap each, and its field(s) for any other."""
    kinds = _kinds(state, player)
    held = deck in state.held_jail_cards()  # this deck's "Get out of jail free" card is not in the deck now
    one_tap = []
    for kind in kinds:
        if kind == "nearest":
            one_tap += [
                _offer(state, player, {"kind": kind, "square_kind": k, **m}, NEAREST_LABELS[k])
                for k, m in NEAREST_MULTIPLIERS.items()
            ]
        elif not EFFECT_FIELDS[kind] and not (kind == "jail_card" and held):
            one_tap.append(_offer(state, player, {"kind": kind}, _label(state, player, kind)))
    classic = _classic(state)
    typed = [
        {
            "kind": kind,
            "label": _label(state, player, kind),
            "one_tap": [
                _offer(state, player, e, _values_label(state, e)) for e in classic if e["kind"] == kind
            ],
            "fields": [
                _field(f, kept.value(f"effect_{f}", "", action="card", effect_kind=kind))
                for f in EFFECT_FIELDS[kind]
            ],
        }
        for kind in kinds
        if kind != "nearest" and EFFECT_FIELDS[kind]
    ]
    return {
        "one_tap": one_tap,
        "typed": typed,
        "dice_for": [o["label"] for o in one_tap + [o for t in typed for o in t["one_tap"]] if o["dice"]],
        "squares": [{"index": s.index, "name": board_word(s.name)} for s in state.board.squares],
    }


def _label(state: GameState, player: str, kind: str) -> str:
    role = state.by_id[player].role if state.variant.roles else None
    return ROLE_LABELS.get((role, kind)) or EFFECT_LABELS.get(kind, kind)


#: The jail card of each Anti-Monopoly role's deck (``rules.cards.ROLE_EFFECTS``).
ROLE_JAIL = {COMPETITOR: "go_to_price_war", MONOPOLIST: "go_to_prison"}
assert set(ROLE_JAIL.values()) == set(ROLE_EFFECTS)


def _kinds(state: GameState, player: str) -> list[str]:
    """The effects a card of this draw may have: in a game with roles, the one jail card of the player's role
    (a competitor goes to Price War, a monopolist to Prison), not the classic "go to jail"."""
    kinds = effect_kinds(state.variant.roles)
    role = state.by_id[player].role
    if not state.variant.roles or role not in ROLE_JAIL:
        return kinds
    return [k for k in kinds if k == ROLE_JAIL[role] or k not in (*ROLE_EFFECTS, "go_to_jail")]


#: The effect kinds whose classic amounts a game with roles is offered one tap each: amounts only (the
#: classic cards' squares are the classic board's, its repairs count a classic hotel).
ROLE_QUICK_KINDS = ("collect", "pay", "move_back", "pay_each_player", "collect_from_each_player")


def _classic(state: GameState) -> list[dict]:
    """The classic cards' effects offered one tap each."""
    effects = classic_effects()
    return [e for e in effects if e["kind"] in ROLE_QUICK_KINDS] if state.variant.roles else effects


def _field(name: str, value: str) -> dict:
    """A field to type in, as wide as its label (the label is its placeholder); ``value``: as typed."""
    label = str(FIELD_LABELS.get(name, name))
    return {"name": name, "label": label, "size": max(5, len(label)), "value": value}


def _offer(state: GameState, player: str, effect: dict, label) -> dict:
    """A one-tap button: the effect as the record writes it; must the dice for a rent go with it?"""
    return {"value": json.dumps(effect), "label": label, "dice": needs_dice_for(state, player, effect)}


def _values_label(state: GameState, effect: dict) -> str:
    """The button of a classic card within its kind's row: its values ("50", "Start", "25 / 100")."""
    if effect["kind"] == "move_to":
        return square_name(state.board, effect["square"])
    return " / ".join(str(effect[f]) for f in EFFECT_FIELDS[effect["kind"]])
