"""The last throw of the dice, entered with a wrong key of the dice pad, corrected in one tap: undone and
entered again with the right dice, both or neither."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from rules.snapshot import load_state
from tournament.games.batches import last_batch
from tournament.games.locks import is_closed, locked
from tournament.games.recording import mark_taken, rebuild, require_own_move, require_version, store_moves
from tournament.games.refusals import GameClosed, KeyReused, LogError, StaleVersion
from tournament.models import Game, GameEvent
from tournament.reasons import clean_reason

#: The moves entered with a key of the dice pad: the turn's roll, the dice thrown for a utility's rent, the
#: final steps' valuation of a square. One entered with a wrong key is corrected in one tap: undone and
#: entered again, the same player's for the same square, with the right dice (``correct_dice``).
DICE_PAD_MOVES = ("roll", "rent", "final_roll")


def dice_to_correct(batch: list[GameEvent]) -> GameEvent | None:
    """The move a correction of the dice would take back: the last request's one move, if it is a throw of
    the dice (``DICE_PAD_MOVES``, with its dice); else None."""
    if len(batch) != 1:
        return None
    row = batch[0]
    return row if row.data.get("type") in DICE_PAD_MOVES and "dice" in row.data else None


@dataclass
class Corrected:
    game: Game
    wrong: GameEvent  # the throw undone
    right: GameEvent  # the throw entered in its place
    duplicate: bool = False  # the same request had already been applied


def correct_dice(
    game_id: int,
    dice: list[int],
    *,
    version: int | None,
    user=None,
    reason: str,
    client_key: str,
    entered_with: str,
) -> Corrected:
    """The last move, a throw of the dice entered on this device (its request key starts with
    ``entered_with``), undone with ``reason`` and entered again with ``dice`` — the same player's throw, for
    the same square — both or neither, in one transaction. Raises StaleVersion, GameClosed, LogError (no
    throw to correct, another device's, the same dice) or the engine's RulesError: nothing changes.

    The request's key is kept twice, as the undone throw's ``change_key`` and as the new throw's
    ``client_key`` (each unique in a game, and the new throw is this device's own move: undone in one tap). A
    resent request finds both and is answered with what the first one did: the game's row locked, of two
    identical requests at once the second finds the first's. A key found only once was used by another form
    of the same screen, whose move changed the game: the request is refused as stale."""
    if not client_key or not entered_with:  # what tells a resend, and this device's throw
        raise ValueError("a correction of the dice needs its request's key and the device's")
    reason = clean_reason(reason, missing=_("Say why (a reason is kept in the log)."), error=LogError)
    with transaction.atomic():
        game = locked(game_id)
        wrong = game.events.filter(change_key=client_key).first()
        right = game.events.filter(client_key=client_key).first()
        if wrong is not None and right is not None:
            if sorted(right.data.get("dice", ())) != sorted(dice):  # the key of another correction
                raise KeyReused()
            return Corrected(game, wrong, right, duplicate=True)
        if wrong is not None or right is not None:  # the key another form of the same screen used
            raise StaleVersion(game)
        if is_closed(game):
            raise GameClosed()
        require_version(game, version)
        wrong = dice_to_correct(last_batch(game))
        if wrong is None:
            raise LogError(_("The last move is not a throw of the dice: there are no dice to correct."))
        require_own_move(wrong, entered_with)
        if sorted(wrong.data["dice"]) == sorted(dice):
            raise LogError(
                _("Move #%(seq)s was entered with these dice: nothing to correct.") % {"seq": wrong.seq}
            )
        mark_taken([wrong], GameEvent.Status.UNDONE, user=user, reason=reason, client_key=client_key)
        rebuild(game)  # the game as it was before the wrong throw
        event = {**wrong.data, "dice": list(dice)}
        (right,) = store_moves(game, load_state(game.state), [event], user=user, client_key=client_key)
        return Corrected(game, wrong, right)
