"""What the referee's console posts for an event of a game record (its form fields): the benchmarks, the load
test and the race tests enter moves the way the console's forms do."""

from __future__ import annotations


def post_form(event: dict) -> dict:
    """The console's form fields for an event."""
    f = {"action": event["type"]}
    if event["type"] in ("build", "sell_building", "mortgage", "unmortgage"):  # the per-player form's buttons
        f = {"do": f"{event['type']}:{event['square']}:{event.get('count', 1)}"}
    for k in ("player", "square", "count", "card", "winner", "price", "choice", "die", "counted"):
        if event.get(k) is not None:
            f[k] = event[k]
    if event["type"] == "auction" and event.get("winner") is None:
        f["nobody"] = "1"
    if "dice" in event and event["type"] == "card":  # a card's dice: each die on its own
        f["d1"], f["d2"] = event["dice"]
    elif "dice" in event:  # a key of the dice pad
        f["dice"] = "".join(map(str, event["dice"]))
    if "effect" in event:
        e = event["effect"]
        f["effect_kind"] = e["kind"]
        for k in ("amount", "square", "steps", "square_kind", "per_house", "per_hotel"):
            if k in e:
                f[f"effect_{k}"] = e[k]
    if event["type"] == "trade":
        f["with"] = event["with"]
        for side in ("give", "get"):
            s = event.get(side, {})
            f[f"{side}_squares"] = [str(x) for x in s.get("squares", [])]
            f[f"{side}_cash"] = s.get("cash", 0)
            f[f"{side}_jail_cards"] = s.get("jail_cards", 0)
    if event["type"] == "deal":
        f["squares"] = [str(x) for x in event["squares"]]
    return f
