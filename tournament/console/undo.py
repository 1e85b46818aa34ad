"""Undoing the move just made, where it is seen: the last move entered on this device is taken back with a
reason chosen in one tap (the reason's words are stored, in the referee's language, so that the director's
log reads as if typed); another device's move, or an older one (voided from the log), needs a typed reason.

A throw of the dice entered on this device (the roll, a utility's rent, the final steps' valuation: a key
of the dice pad) is also corrected in one tap: its undo offers the pad, whose key undoes the throw ("wrong
dice") and enters the same player's throw with the right dice (``dice_correction.correct_dice``)."""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext_lazy

from tournament.console.devices import entered_on
from tournament.games.dice_correction import dice_to_correct
from tournament.games.log import is_directors_stop
from tournament.models import GameEvent

#: The one-tap reasons: what the form sends, the words stored and shown.
QUICK_REASONS = {
    "tap": gettext_lazy("wrong tap"),
    "dice": gettext_lazy("wrong dice"),
    "amount": gettext_lazy("wrong amount"),
}


def undo_offer(batch: list[GameEvent], device: str, *, directs: Callable[[], bool]) -> dict | None:
    """The last move — or the moves one tap entered together (``batch``: ``batches.last_batch``) — to be
    undone beside the panel: its number (``first``: the batch's first), and whether this device entered it
    (then the one-tap reasons are offered); None when there is nothing to undo, or the last move is the
    director's stop and ``directs()`` is False (the referee does not take back the director's decision).
    ``directs`` is asked only then: a panel after a plain move asks nobody's role."""
    if not batch:
        return None
    if any(is_directors_stop(r.data) for r in batch) and not directs():
        return None
    mine = entered_on(batch[-1].client_key, device)
    return {
        "seq": batch[-1].seq,
        "first": batch[0].seq,
        "mine": mine,
        "reasons": list(QUICK_REASONS.items()) if mine else [],
        # a throw of this device's: the right dice's pad beside the reasons
        "dice": mine and dice_to_correct(batch) is not None,
    }


def quick_reason(code: str) -> str:
    """The words of a one-tap reason; ValueError for a code the form never sends."""
    if code not in QUICK_REASONS:
        raise ValueError(code)
    return str(QUICK_REASONS[code])
