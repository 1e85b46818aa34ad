"""Why a change of a game's log is refused: made against an older version (``StaleVersion``), of a closed
game (``GameClosed``), an undo or void that cannot be done (``LogError``), a request's key used for another
move (``KeyReused``, said by ``key_checked``)."""

from __future__ import annotations

from contextlib import contextmanager

from django.db import IntegrityError
from django.utils.translation import gettext_lazy as _

from rules import RulesError
from tournament.games.batches import same_request
from tournament.models import GameEvent


class StaleVersion(Exception):
    """The move was made against an older state: another device entered a move meanwhile."""


class LogError(Exception):
    """An undo or void that cannot be done (nothing to undo, a void that breaks a later move, …)."""

    def __init__(self, message, rules_error: RulesError | None = None, seq: int | None = None):
        super().__init__(str(message))
        self.rules_error = rules_error
        self.seq = seq


class GameClosed(LogError):
    """The table's result is confirmed (or its round is over): the game is read-only until the director
    reopens the result."""

    def __init__(self):
        super().__init__(
            _(
                "This table's result is confirmed: the game can no longer be changed. "
                "The tournament director can reopen the result if it must be corrected."
            )
        )


class KeyReused(LogError):
    """A request whose key is stored with another move (or change): this request was not applied, and is
    never answered as done. A phone makes a new key for each request; a key met again with other moves is a
    fault or a hand-made request."""

    def __init__(self):
        super().__init__(
            _("This request's key was already used for another move: this move was not applied.")
        )


@contextmanager
def key_checked(game_id: int, client_key: str | None):
    """Around the transaction that stores a request's moves: the unique (game, client_key) refusing a key
    already stored (at the game's current version a request cannot be a resend: its key's change made the
    version newer, ``enter``) is said as :class:`KeyReused`, not as a server's fault. The key is looked for
    only then, after the transaction is gone: the usual move pays nothing for it."""
    try:
        yield
    except IntegrityError:
        if client_key and GameEvent.objects.filter(game_id=game_id).filter(same_request(client_key)).exists():
            raise KeyReused() from None
        raise
