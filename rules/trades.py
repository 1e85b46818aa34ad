"""Trades between two players: squares, cash and 'get out of jail' cards, both sides in one event."""

from __future__ import annotations

from rules.errors import RuleError, gettext_noop
from rules.messages import msg
from rules.movements import Leg
from rules.ownership import owned_property, require_no_buildings, transfer_fee
from rules.state import GameState, PlayerState
from rules.transaction import Tx
from rules.valuation import property_value


def check_trade_side(s: GameState, p: PlayerState, side: dict) -> None:
    for m in side["squares"]:
        owned_property(s, p, m)
        require_no_buildings(
            s,
            m,
            s.variant.trade_needs_no_buildings_on,
            "trade.buildings",
            msg(gettext_noop("To trade a square")),
        )
    if side["cash"] and side["cash"] > p.cash:
        raise RuleError(
            "trade.cash",
            gettext_noop("{player} has only {cash} in cash, not {amount}."),
            player=p.name,
            cash=p.cash,
            amount=side["cash"],
        )
    if side["jail_cards"] > len(p.jail_cards):
        raise RuleError(
            "trade.jail_cards",
            gettext_noop("{player} has {n} 'Get out of jail free' cards."),
            player=p.name,
            n=len(p.jail_cards),
        )


def trade(tx: Tx, ev: dict) -> None:
    s = tx.s
    a, b = s.player(ev["player"]), s.player(ev["with"])
    if a.id == b.id:
        raise RuleError("trade.self", gettext_noop("A player cannot trade with himself."))
    if b.bankrupt:
        raise RuleError("player.bankrupt", gettext_noop("{player} is bankrupt."), player=b.name)
    give, get = ev["give"], ev["get"]
    if not any(
        (give["squares"], give["cash"], give["jail_cards"], get["squares"], get["cash"], get["jail_cards"])
    ):
        raise RuleError("trade.empty", gettext_noop("A trade must exchange something."))
    for p, side in ((a, give), (b, get)):
        check_trade_side(s, p, side)

    def value(side):
        return sum(property_value(s, m, s.holdings[m].mortgaged) for m in side["squares"])

    va, vb = value(give), value(get)
    mortgaged_to_b = [m for m in give["squares"] if s.holdings[m].mortgaged]
    mortgaged_to_a = [m for m in get["squares"] if s.holdings[m].mortgaged]
    for m in give["squares"]:
        s.holdings[m] = s.holdings[m].but(owner=b.id)
    for m in get["squares"]:
        s.holdings[m] = s.holdings[m].but(owner=a.id)
    for giver, receiver, n in ((a, b, give["jail_cards"]), (b, a, get["jail_cards"])):
        moved, giver.jail_cards[:n] = giver.jail_cards[:n], []
        receiver.jail_cards.extend(moved)
    cash = get["cash"] - give["cash"]
    tx.record("trade", [Leg(a.id, cash, vb - va), Leg(b.id, -cash, va - vb)], detail=f"{a.id}-{b.id}")
    tx.note(gettext_noop("{a} and {b} trade."), a=a.name, b=b.name)
    for m in mortgaged_to_b:
        transfer_fee(tx, b.id, m)
    for m in mortgaged_to_a:
        transfer_fee(tx, a.id, m)
