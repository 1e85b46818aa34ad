"""What the console offers for a pending card: the deck's listed cards, or, for a deck whose texts are not
listed (the Polish Szansa / Kasa Społeczna, Anti-Monopoly's role decks), what a card does: one tap each for
what a deck of this kind prints (the classic Chance's effects for Szansa, on this board's squares) or, for a
role deck, for a card without an amount; behind one more tap the other cards without an amount and each kind
with its own field(s), the classic cards' values of it one tap each.
Anti-Monopoly's decks are one per role: only the drawing player's role's jail card is offered, and of the
classic cards' amounts those that are amounts only (not the classic board's squares or its repairs).

Each offer says whether the dice thrown for a utility's rent go with it (``dice``: the card sends the token
to another player's utility), so that the console asks for them where the card is tapped."""

from __future__ import annotations

from rules.board import EFFECT_FIELDS
from rules.cards import (
    NEAREST_MULTIPLIERS,
    ROLE_EFFECTS,
    classic_effects,
    deck_effects,
    effect_kinds,
    needs_dice_for,
)
from rules.roles import COMPETITOR, MONOPOLIST
from rules.state import GameState

#: The jail card of each Anti-Monopoly role's deck (``rules.cards.ROLE_EFFECTS``).
ROLE_JAIL = {COMPETITOR: "go_to_price_war", MONOPOLIST: "go_to_prison"}
assert set(ROLE_JAIL.values()) == set(ROLE_EFFECTS)

#: The effect kinds whose classic amounts a game with roles is offered one tap each: amounts only (the
#: classic cards' squares are the classic board's, its repairs count a classic hotel).
ROLE_QUICK_KINDS = ("collect", "pay", "move_back", "pay_each_player", "collect_from_each_player")


def card_offer(state: GameState, card: dict) -> dict:
    """``card``: the engine's pending draw (``rules.legal``'s ``card``: ``player``, ``deck``, ``cards``).
    ``cards``: the listed cards still in the deck, each ``{"id", "dice"}``, or None for a deck drawn by
    what the card does, then ``effects`` (one tap each), ``other`` (the cards without an amount not among
    them, one tap each behind one more) and ``typed`` (a kind with fields to fill in, the classic cards'
    values of it one tap each): ``{"kind", "fields", "effects"}``; each effect offered
    ``{"effect", "dice"}``."""
    player, deck = card["player"], state.board.decks[card["deck"]]
    out = {"player": player, "deck": deck.id, "cards": None, "effects": [], "other": [], "typed": []}
    if card["cards"] is not None:
        out["cards"] = [
            {"id": cid, "dice": needs_dice_for(state, player, deck.card(cid).effect)} for cid in card["cards"]
        ]
        return out
    held = deck.id in state.held_jail_cards()

    def in_deck(effects: list[dict]) -> list[dict]:  # this deck's "Get out of jail free" is held: not drawn
        return [e for e in effects if not (e["kind"] == "jail_card" and held)]

    kinds = _kinds(state, player)
    unvalued = in_deck(_unvalued(kinds))
    printed = None if state.variant.roles else deck_effects(state.board, deck.id)
    top = unvalued if printed is None else in_deck(printed)
    out["effects"] = [_offer(state, player, e) for e in top]
    out["other"] = [_offer(state, player, e) for e in unvalued if e not in top]
    classic = _classic(state)
    out["typed"] = [
        {
            "kind": kind,
            "fields": list(EFFECT_FIELDS[kind]),
            "effects": [_offer(state, player, e) for e in classic if e["kind"] == kind],
        }
        for kind in kinds
        if kind != "nearest" and EFFECT_FIELDS[kind]
    ]
    return out


def _unvalued(kinds: list[str]) -> list[dict]:
    """The cards without an amount of these kinds: the nearest railroad and utility, go to jail, …"""
    out = []
    for kind in kinds:
        if kind == "nearest":
            out += [{"kind": kind, "square_kind": k, **m} for k, m in NEAREST_MULTIPLIERS.items()]
        elif not EFFECT_FIELDS[kind]:
            out.append({"kind": kind})
    return out


def _kinds(state: GameState, player: str) -> list[str]:
    """The effects a card of this draw may have: in a game with roles, the one jail card of the player's role
    (a competitor goes to Price War, a monopolist to Prison), not the classic "go to jail"."""
    kinds = effect_kinds(state.variant.roles)
    role = state.by_id[player].role
    if not state.variant.roles or role not in ROLE_JAIL:
        return kinds
    return [k for k in kinds if k == ROLE_JAIL[role] or k not in (*ROLE_EFFECTS, "go_to_jail")]


def _classic(state: GameState) -> list[dict]:
    """The classic cards' effects offered one tap each."""
    effects = classic_effects()
    return [e for e in effects if e["kind"] in ROLE_QUICK_KINDS] if state.variant.roles else effects


def _offer(state: GameState, player: str, effect: dict) -> dict:
    return {"effect": effect, "dice": needs_dice_for(state, player, effect)}
