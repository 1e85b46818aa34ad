"""Trades between two players: squares, cash and 'get out of jail' cards, both sides in one event."""

from __future__ import annotations

from rules.errors import Refusal, gettext_noop, refusal
from rules.messages import Message, msg
from rules.movements import Leg
from rules.ownership import buildings_refusal, monopoly_buildings_refusal, ownership_refusal, transfer_fee
from rules.state import GameState, PlayerState
from rules.transaction import Tx, cash_refusal
from rules.valuation import property_value

_TO_TRADE = msg(gettext_noop("To trade a square"))


def square_trade_refusal(s: GameState, p: PlayerState, square: int) -> Refusal | None:
    """``p`` may hand ``square`` over in a trade (RULES.md §1 'trading a street', per variant)."""
    h = s.holdings.get(square)
    if h is None or h.owner != p.id:  # ownership_refusal's own test, first: asked of every square probed
        return ownership_refusal(s, p, square)
    r = buildings_refusal(s, square, s.variant.trade_needs_no_buildings_on, "trade.buildings", _TO_TRADE)
    if r is None and s.variant.roles:  # (Anti-Monopoly alone: not asked without roles)
        r = monopoly_buildings_refusal(s, p, square, "trade.monopoly_buildings")
    return r


def trade_side_refusal(s: GameState, p: PlayerState, side: dict) -> Refusal | None:
    for m in side["squares"]:
        r = square_trade_refusal(s, p, m)
        if r is not None:
            return r
    if side["cash"] and side["cash"] > p.cash:  # a voluntary spend: covered by cash (RULES.md §1)
        return refusal(
            "trade.cash",
            gettext_noop("{player} has only {cash} in cash, not {amount}."),
            player=p.name,
            cash=p.cash,
            amount=side["cash"],
        )
    if side["cash"]:  # covered by cash, but not by the banknotes in his hand (what he is owed is not)
        r = cash_refusal(s, p.id, side["cash"], msg(gettext_noop("the trade")))
        if r is not None:
            return r
    if side["jail_cards"] > len(p.jail_cards):
        return refusal(
            "trade.jail_cards",
            gettext_noop("{player} has {n} 'Get out of jail free' cards."),
            player=p.name,
            n=len(p.jail_cards),
        )
    return None


def trade_refusal(s: GameState, a: PlayerState, b: PlayerState, give: dict, get: dict) -> Refusal | None:
    if a.id == b.id:
        return refusal("trade.self", gettext_noop("A trade needs two different players."))
    if b.bankrupt:
        return refusal("player.bankrupt", gettext_noop("{player} is bankrupt."), player=b.name)
    if not any(
        (give["squares"], give["cash"], give["jail_cards"], get["squares"], get["cash"], get["jail_cards"])
    ):
        return refusal("trade.empty", gettext_noop("A trade must exchange something."))
    return trade_side_refusal(s, a, give) or trade_side_refusal(s, b, get)


def _listed(parts: list) -> Message | str | int:
    """'X', 'X and Y', 'X, Y and Z': each part a square's name, a sum of cash or a message."""
    if len(parts) == 1:
        return parts[0]
    if len(parts) == 2:
        return msg(gettext_noop("{first} and {last}"), first=parts[0], last=parts[1])
    return msg(gettext_noop("{first}, {rest}"), first=parts[0], rest=_listed(parts[1:]))


def _side_parts(s: GameState, side: dict) -> list:
    """What one side hands over, as the log names it: its squares, its cash, its jail cards."""
    parts: list = [s.board.squares[m].name for m in side["squares"]]
    if side["cash"]:
        parts.append(side["cash"])
    n = side["jail_cards"]
    if n == 1:
        parts.append(msg(gettext_noop("1 'Get out of jail free' card")))
    elif n:
        parts.append(msg(gettext_noop("{n} 'Get out of jail free' cards"), n=n))
    return parts


def trade_note(s: GameState, a: PlayerState, b: PlayerState, give: dict, get: dict) -> tuple[str, dict]:
    """The log line of a trade: what changed hands ("Anna gives X and 200 to Bartek for Y and 1 'Get out of
    jail free' card"); a one-sided trade (a gift) is told from the side that gives."""
    given, taken = _side_parts(s, give), _side_parts(s, get)
    if not given:
        a, b, given, taken = b, a, taken, given
    if not taken:
        return gettext_noop("{a} gives {given} to {b}."), {"a": a.name, "b": b.name, "given": _listed(given)}
    return gettext_noop("{a} gives {given} to {b} for {taken}."), {
        "a": a.name,
        "b": b.name,
        "given": _listed(given),
        "taken": _listed(taken),
    }


def trade(tx: Tx, ev: dict) -> None:
    s = tx.s
    a, b = s.by_id[ev["player"]], s.by_id[ev["with"]]
    give, get = ev["give"], ev["get"]
    r = trade_refusal(s, a, b, give, get)
    if r is not None:
        raise r.error()

    def value(side):
        return sum(property_value(s, m, s.holdings[m].mortgaged) for m in side["squares"])

    va, vb = value(give), value(get)
    mortgaged_to_b = [m for m in give["squares"] if s.holdings[m].mortgaged]
    mortgaged_to_a = [m for m in get["squares"] if s.holdings[m].mortgaged]
    for m in give["squares"]:
        s.holdings[m] = s.holdings[m].but(owner=b.id)
        s.acquire(m)
    for m in get["squares"]:
        s.holdings[m] = s.holdings[m].but(owner=a.id)
        s.acquire(m)
    for giver, receiver, n in ((a, b, give["jail_cards"]), (b, a, get["jail_cards"])):
        moved, giver.jail_cards[:n] = giver.jail_cards[:n], []
        receiver.jail_cards.extend(moved)
    cash = get["cash"] - give["cash"]
    tx.record("trade", [Leg(a.id, cash, vb - va), Leg(b.id, -cash, va - vb)], detail=f"{a.id}-{b.id}")
    if tx.narrate:
        template, params = trade_note(s, a, b, give, get)
        tx.note(template, **params)
    for m in mortgaged_to_b:
        transfer_fee(tx, b.id, m)
    for m in mortgaged_to_a:
        transfer_fee(tx, a.id, m)
