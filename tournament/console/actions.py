"""From a POST of the referee's console to the game-record events it enters: the form of its ``action``
(``action_forms.ACTION_FORMS``; the per-player form's buttons say ``do=action:square[:count]``), a
decline with the result of its auction in one tap, the debt card's "Raise and pay": the choices ticked
(``raise=action:square[:count]``, each as its button would post it), buildings sold before mortgages, a
rent its payer cannot pay claimed with his way out (``action=rent`` with ``then=raise`` and the choices
ticked, or ``then=bankrupt``), and the build section's "A house on each" (``build_each=square,square,…``, in
the order entered).
Bad input raises ActionError with one message for the referee; the rules themselves are checked by the
engine."""

from __future__ import annotations

from django.http import QueryDict
from django.utils.translation import gettext as _

from tournament.console.action_forms import ACTION_FORMS, DAMAGED, ActionForm, AuctionForm
from tournament.console.building import MAX_BATCH
from tournament.console.raising import RAISING_ORDER
from tournament.games.recording import BATCH_KEY_ROOM, BATCH_MARK
from tournament.models.games import CLIENT_KEY_LENGTH


class ActionError(ValueError):
    pass


def client_key(post: QueryDict) -> str | None:
    """The key of the form the request came from (a resent request carries the same one), or None."""
    key = (post.get("client_key") or "").strip()
    if len(key) > CLIENT_KEY_LENGTH - BATCH_KEY_ROOM or BATCH_MARK in key:  # the marks are a batch's own
        raise ActionError(DAMAGED)
    return key or None


def events_from_post(post: QueryDict) -> list[dict]:
    """The events one tap enters: one, a decline and the auction's result that follows it (the buy
    panel's "Sold to" buttons), the debt card's choices, a rent with its payer's way out, or a house on
    each street of a group."""
    if "build_each" in post:
        return build_each_events(post)
    if post.get("action") == "raise":
        return raise_events(post)
    if "then" in post:
        return rent_then_events(post)
    event = event_from_post(post)
    if event["type"] == "decline" and ("winner" in post or "nobody" in post):
        return [event, _event(AuctionForm(post, "auction"))]
    return [event]


def event_from_post(post: QueryDict) -> dict:
    if len(post.getlist("action")) > 1 or len(post.getlist("do")) > 1:
        raise ActionError(DAMAGED)
    if post.get("do"):
        post = _split_do(post)
    action = post.get("action")
    form = ACTION_FORMS.get(action)
    if form is None:
        raise ActionError(_("Unknown action."))
    return _event(form(post, action))


def raise_events(post: QueryDict) -> list[dict]:
    """The debt card's ticked choices for its player, sales of buildings first, then mortgages (each in the
    order ticked); each checked as its own button's form would be. Nothing ticked, or a choice that is no
    sale or mortgage, is refused."""
    if len(post.getlist("action")) > 1:
        raise ActionError(DAMAGED)
    ticked = post.getlist("raise")
    if not ticked:
        raise ActionError(_("Tick what the player sells or mortgages."))
    events = []
    for do in ticked:
        event = _as_button(post, "raise", do)
        if event["type"] not in RAISING_ORDER:
            raise ActionError(DAMAGED)
        events.append(event)
    return sorted(events, key=lambda e: RAISING_ORDER.index(e["type"]))


#: What the rent card enters with a rent its payer cannot pay (``then``).
RENT_THEN = ("raise", "bankrupt")


def rent_then_events(post: QueryDict) -> list[dict]:
    """A rent card's way out: the rent claimed, then the payer's choices ticked as the debt card's "Raise
    and pay" enters them (``then=raise``), or his bankruptcy (``then=bankrupt``); each checked as its own
    form would be. The engine takes them all or none (``moves.submit_all``)."""
    then = post.getlist("then")
    if len(then) != 1 or then[0] not in RENT_THEN or post.get("action") != "rent" or post.getlist("do"):
        raise ActionError(DAMAGED)
    one = post.copy()
    one.setlist("then", [])
    one.setlist("raise", [])
    claim = event_from_post(one)
    if then[0] == "raise":
        return [claim, *raise_events(post)]
    if post.getlist("raise"):
        raise ActionError(DAMAGED)
    one["action"] = "bankrupt"
    return [claim, event_from_post(one)]


def build_each_events(post: QueryDict) -> list[dict]:
    """The build section's "A house on each": a ``build`` of one level on each square named, in that order,
    each checked as its own button's form would be."""
    squares = post.getlist("build_each")
    if len(squares) > 1 or post.getlist("do") or post.getlist("action"):
        raise ActionError(DAMAGED)
    squares = squares[0].split(",")
    if not 0 < len(squares) <= MAX_BATCH or not all(sq.isascii() and sq.isdigit() for sq in squares):
        raise ActionError(DAMAGED)
    return [_as_button(post, "build_each", f"build:{square}") for square in squares]


def _as_button(post: QueryDict, batch_field: str, do: str) -> dict:
    """One move of a batch, read as the per-player form's button ``do=action:square[:count]`` would post it
    (the same checks), the batch's own field left out."""
    one = post.copy()
    one.setlist(batch_field, [])
    one["do"] = do
    return event_from_post(one)


def _split_do(post: QueryDict) -> QueryDict:
    """A button of the per-player form says ``do=action:square[:count]``."""
    action, _sep, rest = post["do"].partition(":")
    square, _sep, count = rest.partition(":")
    post = post.copy()
    post["action"], post["square"] = action, square
    if count:
        post["count"] = count
    return post


def _event(form: ActionForm) -> dict:
    if not form.is_valid():
        raise ActionError(form.first_error())
    return form.event()
