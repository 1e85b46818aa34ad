"""A request's key: each move the phone sends carries one (its device's token, ".", a random part), so that a
request sent again (its answer lost on the way) is answered as done, never entered twice, and the moves of
this device are told from another's (``devices``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from tournament.games.batches import BATCH_KEY_ROOM, BATCH_MARK
from tournament.models.games import CLIENT_KEY_LENGTH

DAMAGED = _("This form is damaged: reload the page and enter the move again.")


class ActionError(ValueError):
    """A request the console never sends: its message says so to the referee."""


def client_key(data) -> str | None:
    """The request's key (``data``: a POST or a JSON body; a resent request carries the same one), or None;
    ActionError for one longer than a key leaves room for, or with a batch's mark (the marks are a batch's
    own: ``batches.batch_key``)."""
    key = (data.get("client_key") or "").strip()
    if len(key) > CLIENT_KEY_LENGTH - BATCH_KEY_ROOM or BATCH_MARK in key:
        raise ActionError(DAMAGED)
    return key or None
