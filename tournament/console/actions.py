"""From the console's form fields to a game-record event. Bad input raises ActionError with a message for
the referee; the rules themselves are checked by the engine."""

from __future__ import annotations

import json

from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.board import EFFECT_FIELDS
from rules.cards import NEAREST_MULTIPLIERS
from rules.record import EVENT_TYPES
from tournament.models.games import CLIENT_KEY_LENGTH

#: What the console can enter: the record's whole vocabulary.
ACTIONS = EVENT_TYPES
WITHOUT_PLAYER = ("time_up", "final_keep", "final_tour")


class ActionError(ValueError):
    pass


def client_key(post: QueryDict) -> str | None:
    """The key of the form the request came from (a resent request carries the same one), or None."""
    key = (post.get("client_key") or "").strip()
    if len(key) > CLIENT_KEY_LENGTH:
        raise ActionError(_("This form is damaged: reload the page and enter the move again."))
    return key or None


def _int(post: QueryDict, name: str, label: str, *, required: bool = True, minimum: int = 0) -> int | None:
    raw = (post.get(name) or "").strip()
    if not raw:
        if required:
            raise ActionError(_("Enter the %(field)s.") % {"field": label})
        return None
    try:
        value = int(raw)
    except ValueError:
        raise ActionError(_("The %(field)s must be a whole number.") % {"field": label}) from None
    if value < minimum:
        raise ActionError(_("The %(field)s must be at least %(min)s.") % {"field": label, "min": minimum})
    return value


def _dice(post: QueryDict, *, required: bool = True) -> list[int] | None:
    """The dice: one key of the pad (``dice=35``), or each die tapped on its own (``d1``, ``d2``)."""
    if "dice" in post:
        pair = post["dice"]
        if len(pair) != 2 or not all(c in "123456" for c in pair):
            raise ActionError(_("A die shows 1 to 6."))
        return [int(pair[0]), int(pair[1])]
    d1 = _int(post, "d1", _("first die"), required=required, minimum=1)
    d2 = _int(post, "d2", _("second die"), required=required, minimum=1)
    if d1 is None or d2 is None:
        if d1 is not None or d2 is not None:
            raise ActionError(_("Tap both dice."))
        return None
    if d1 > 6 or d2 > 6:
        raise ActionError(_("A die shows 1 to 6."))
    return [d1, d2]


def _player(post: QueryDict, name: str = "player") -> str:
    value = (post.get(name) or "").strip()
    if not value:
        raise ActionError(_("Choose the player."))
    return value


def _squares(post: QueryDict, name: str) -> list[int]:
    out = []
    for raw in post.getlist(name):
        try:
            out.append(int(raw))
        except ValueError:
            raise ActionError(_("Unknown square.")) from None
    return out


#: The integer fields of a card effect: the label in the console's messages and the least value allowed.
_EFFECT_NUMBERS = {
    "amount": (gettext_lazy("amount"), 0),
    "square": (gettext_lazy("square"), 0),
    "steps": (gettext_lazy("number of squares"), 1),
    "per_house": (gettext_lazy("amount per house"), 0),
    "per_hotel": (gettext_lazy("amount per hotel"), 0),
}


def _one_tap_effect(raw: str) -> dict:
    """A one-tap card button carries its whole effect as JSON ({"kind": "pay", "amount": 15}): read as the
    fields a referee would have typed, ``effect_kind`` and ``effect_<field>``, and checked the same way."""
    try:
        effect = json.loads(raw)
    except ValueError:
        effect = None
    if not isinstance(effect, dict):
        raise ActionError(_("Choose what the card does."))
    return {f"effect_{k}": str(v) for k, v in effect.items()}


def _effect(post: QueryDict) -> dict:
    """A card written out by its effect: the engine's required fields of the chosen kind (``EFFECT_FIELDS``);
    the nearest railroad / utility with the multipliers the classic cards print (``NEAREST_MULTIPLIERS``)."""
    if post.get("effect"):
        post = _one_tap_effect(post["effect"])
    kind = post.get("effect_kind") or ""
    if kind not in EFFECT_FIELDS:
        raise ActionError(_("Choose what the card does."))
    effect: dict = {"kind": kind}
    for name in EFFECT_FIELDS[kind]:
        if name == "square_kind":
            square_kind = post.get("effect_square_kind") or "railroad"
            if square_kind not in NEAREST_MULTIPLIERS:
                raise ActionError(_("Choose what the card does."))
            effect[name] = square_kind
            effect.update(NEAREST_MULTIPLIERS[square_kind])
        else:
            label, minimum = _EFFECT_NUMBERS.get(name, (name, 0))
            effect[name] = _int(post, f"effect_{name}", label, minimum=minimum)
    return effect


def _split_do(post: QueryDict) -> QueryDict:
    """A button of the per-player form says ``do=action:square[:count]``."""
    action, _sep, rest = (post.get("do") or "").partition(":")
    square, _sep, count = rest.partition(":")
    post = post.copy()
    post["action"], post["square"] = action, square
    if count:
        post["count"] = count
    return post


def _auction(post: QueryDict) -> dict:
    square = _int(post, "square", _("square"))
    if post.get("nobody"):
        return {"type": "auction", "square": square, "winner": None, "price": 0}
    return {
        "type": "auction",
        "square": square,
        "winner": _player(post, "winner"),
        "price": _int(post, "price", _("price")),
    }


def events_from_post(post: QueryDict) -> list[dict]:
    """The events one tap enters: one, or a decline and the auction's result that follows it (the buy
    panel's "Sold to" buttons)."""
    event = event_from_post(post)
    if event["type"] == "decline" and ("winner" in post or "nobody" in post):
        return [event, _auction(post)]
    return [event]


def event_from_post(post: QueryDict) -> dict:
    if post.get("do"):
        post = _split_do(post)
    action = post.get("action")
    if action not in ACTIONS:
        raise ActionError(_("Unknown action."))
    if action in WITHOUT_PLAYER:
        return {"type": action}
    if action == "auction":
        return _auction(post)
    ev = {"type": action, "player": _player(post)}
    if action == "roll":
        ev["dice"] = _dice(post)
    elif action == "card":
        if post.get("card"):
            ev["card"] = post["card"]
        else:
            ev["effect"] = _effect(post)
        dice = _dice(post, required=False)
        if dice:
            ev["dice"] = dice
    elif action in ("build", "sell_building"):
        ev["square"] = _int(post, "square", _("square"))
        ev["count"] = _int(post, "count", _("number of levels"), required=False, minimum=1) or 1
    elif action in ("mortgage", "unmortgage"):
        ev["square"] = _int(post, "square", _("square"))
    elif action == "rent":
        square = _int(post, "square", _("square"), required=False)
        if square is not None:
            ev["square"] = square
        dice = _dice(post, required=False)  # a utility's rent as a fresh throw (Anti-Monopoly)
        if dice:
            ev["dice"] = dice
    elif action == "income_tax":
        choice = post.get("choice")
        if choice not in ("fixed", "percent"):
            raise ActionError(_("Choose how the income tax is paid."))
        ev["choice"] = choice
    elif action == "foundation":
        die = _int(post, "die", _("die"), minimum=1)
        if die > 6:
            raise ActionError(_("A die shows 1 to 6."))
        ev["die"] = die
    elif action == "final_roll":
        ev["square"] = _int(post, "square", _("square"))
        ev["dice"] = _dice(post)
    elif action == "deal":
        ev["squares"] = _squares(post, "squares")
        if not ev["squares"]:
            raise ActionError(_("Choose the title deeds dealt."))
    elif action == "trade":
        ev["with"] = _player(post, "with")
        for side in ("give", "get"):
            ev[side] = {
                "squares": _squares(post, f"{side}_squares"),
                "cash": _int(post, f"{side}_cash", _("cash"), required=False) or 0,
                "jail_cards": _int(post, f"{side}_jail_cards", _("jail cards"), required=False) or 0,
            }
    return ev
