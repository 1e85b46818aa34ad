"""Every tap the console offers on a screen (``tournament.console.view_model.screen``), as the events it
enters: what the tests hold against the engine (each is accepted) and what a player-like bot taps.

The browser's console builds the same events from the same view model (static/console/); a browser test
holds the two to each other."""

from __future__ import annotations

from collections.abc import Iterator

from tournament.console.view_model.raising import RAISING_ORDER

#: A few throws of the dice pad's 36 (any throw is legal where the pad is offered): a double among them.
SOME_DICE = ([3, 4], [2, 2], [6, 5])


def offered(view: dict) -> Iterator[tuple[str, list[dict]]]:
    """``(what, events)`` for each tap offered now: one per button (a pad: a few of its keys; a form: its
    fields filled as its defaults fill them)."""
    now, players = view["now"], view["players"]
    active = [p["id"] for p in players if not p["bankrupt"]]
    roll = now["roll"]
    if roll:
        for dice in SOME_DICE:
            yield "roll", [{"type": "roll", "player": roll["player"], "dice": dice}]
        if roll["jail_fine"] is not None:
            yield "jail_fine", [{"type": "jail_fine", "player": roll["player"]}]
        if roll["jail_card"]:
            yield "jail_card", [{"type": "jail_card", "player": roll["player"]}]
    buy = now["buy"]
    if buy:
        if buy["can_pay"]:
            yield "buy", [{"type": "buy", "player": buy["player"]}]
        decline = {"type": "decline", "player": buy["player"]}
        if buy["auction"] is None:
            yield "decline", [decline]
        else:
            square, bid = buy["square"], buy["auction"]
            for winner in active:
                if _has(players, winner, bid):
                    yield "decline_sold", [decline, _sold(square, winner, bid)]
            yield (
                "decline_nobody",
                [decline, {"type": "auction", "square": square, "winner": None, "price": 0}],
            )
    for a in now["auctions"]:
        for winner in active:
            if _has(players, winner, a["opening_bid"]):
                yield "auction", [_sold(a["square"], winner, a["opening_bid"])]
        yield "auction_nobody", [{"type": "auction", "square": a["square"], "winner": None, "price": 0}]
    if now["card"]:
        yield from _cards(now["card"])
    if now["tax"]:
        for choice in ("fixed", "percent"):
            yield "income_tax", [{"type": "income_tax", "player": now["tax"]["player"], "choice": choice}]
    if now["foundation"]:
        for die in range(1, 7):
            yield "foundation", [{"type": "foundation", "player": now["foundation"]["player"], "die": die}]
    for r in now["rents"]:
        claim = {"type": "rent", "player": r["payer"], "square": r["square"]}
        if r["times"]:
            yield "rent_dice", [{**claim, "dice": SOME_DICE[0]}]
            continue
        yield "rent", [claim]
        short = r["short"]
        if short:
            for choice in short["choices"]:
                yield "rent_raise", [claim, *_ticked(short["choices"], choice)]
            if short["choices"]:
                yield "rent_raise_all", [claim, *_raise(short["choices"], short["choices"])]
            if short["can_go_bankrupt"]:
                yield "rent_bankrupt", [claim, {"type": "bankrupt", "player": r["payer"]}]
    for d in now["debts"]:
        for choice in d["choices"]:
            yield "raise", _ticked(d["choices"], choice)
        if d["choices"]:
            yield "raise_all", _raise(d["choices"], d["choices"])
        if d["can_go_bankrupt"]:
            yield "bankrupt", [{"type": "bankrupt", "player": d["player"]}]
    for d in now["deals"]:
        yield "deal", [{"type": "deal", "player": d["player"], "squares": now["free_deeds"][: d["count"]]}]
    final = now["final"]
    if final:
        if final["step"] == "dealings":
            yield "final_keep", [{"type": "final_keep"}]
        for r in final["rolls"]:
            yield (
                "final_roll",
                [{"type": "final_roll", "player": r["player"], "square": r["square"], "dice": [2, 5]}],
            )
        if final["step"] == "tour" and not final["rolls"]:
            yield "final_tour", [{"type": "final_tour"}]
    clocks = view["clocks"]
    if clocks["timeout"]:
        yield "timeout", [{"type": "timeout", "player": clocks["timeout"]}]
    if clocks["time_up"]:
        yield "time_up", [{"type": "time_up"}]
    for p in players:
        yield from _holdings(p)
    if view["trade"]:
        yield from _trades(view)


def _has(players: list[dict], pid: str, amount: int) -> bool:
    return next(p for p in players if p["id"] == pid)["cash"] >= amount


def _sold(square: int, winner: str, price: int) -> dict:
    return {"type": "auction", "square": square, "winner": winner, "price": price}


def _cards(card: dict) -> Iterator[tuple[str, list[dict]]]:
    draw = {"type": "card", "player": card["player"]}
    if card["cards"] is not None:
        for c in card["cards"]:
            yield "card", [{**draw, "card": f"{card['deck']}:{c['id']}", **_dice(c)}]
        return
    for e in card["effects"] + card["other"]:
        yield "card_effect", [{**draw, "effect": e["effect"], **_dice(e)}]
    for typed in card["typed"]:
        for e in typed["effects"]:
            yield "card_typed", [{**draw, "effect": e["effect"], **_dice(e)}]


def _dice(offer: dict) -> dict:
    return {"dice": [1, 2]} if offer["dice"] else {}


def _ticked(choices: list[dict], choice: dict) -> list[dict]:
    """A choice ticked alone, with the sale it waits for."""
    ticked = [choice]
    if choice["needs"] is not None:
        ticked.insert(0, choices[choice["needs"]])
    return _raise(choices, ticked)


def _raise(choices: list[dict], ticked: list[dict]) -> list[dict]:
    """The ticked choices' events as "Raise and pay" enters them: sales first, then mortgages."""
    events = [c["event"] for c in ticked]
    return sorted(events, key=lambda e: RAISING_ORDER.index(e["type"]))


def _holdings(p: dict) -> Iterator[tuple[str, list[dict]]]:
    may = p["may"]
    if not may:
        return
    pid = p["id"]
    for row in may["build"]:
        for c in row["counts"]:
            count = {"count": c["count"]} if c["count"] > 1 else {}
            yield "build", [{"type": "build", "player": pid, "square": row["square"], **count}]
    for batch in may["build_each"]:
        yield "build_each", [{"type": "build", "player": pid, "square": sq} for sq in batch["squares"]]
    for s in may["sell"]:
        yield (
            "sell_building",
            [{"type": "sell_building", "player": pid, "square": s["square"], "count": s["count"]}],
        )
    for m in may["mortgage"]:
        yield "mortgage", [{"type": "mortgage", "player": pid, "square": m["square"]}]
    for u in may["unmortgage"]:
        yield "unmortgage", [{"type": "unmortgage", "player": pid, "square": u["square"]}]


def _trades(view: dict) -> Iterator[tuple[str, list[dict]]]:
    """A tap on each tradable deed opens the trade between its owner and the pair's first player; the trade
    entered with a cash of 1 the other way (a deed for a banknote)."""
    first, second = view["trade"]
    for p in view["players"]:
        for deed in p["deeds"]:
            if not deed["trade"]:
                continue
            owner = p["id"]
            other = second if owner == first else first
            yield (
                "trade",
                [
                    {
                        "type": "trade",
                        "player": owner,
                        "with": other,
                        "give": {"squares": [deed["square"]]},
                        "get": {"cash": 1} if _has(view["players"], other, 1) else {},
                    }
                ],
            )
