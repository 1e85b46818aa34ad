"""The players sign their table's figures from their private links: once the game is over and before its
result is confirmed, each says "I agree" or "I dispute" (saying why). A signature is on the game's version
whose figures he read: a change of the game since (a move undone or voided) voids it, and he signs again.

A dispute stops the confirmation; so does a missing signature when the tournament requires them
(``Tournament.signatures_required``). The director then rules: he corrects the game (the players sign its
new figures), or confirms with his ruling written in the director's log (``results.confirm``'s ``ruling``)."""

from __future__ import annotations

import hashlib
from collections import defaultdict

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.errors import RoundError
from tournament.event.table_locks import current_result, lock_table
from tournament.games import recording
from tournament.models import Game, Participant, Signature, Table, Tournament
from tournament.reasons import clean_reason


def players_of(game: Game) -> dict[int, str]:
    """The participants who play the game: id → name, in seat order."""
    rows = game.players.filter(participant__isnull=False).order_by("seat")
    return dict(rows.values_list("participant_id", "name"))  # as the game names him (a namesake: his club)


def current(table: Table, game: Game) -> dict[int, Signature]:
    """Each player's latest signature on the game as it is now (its version): participant id → signature."""
    rows = Signature.objects.filter(table=table, game_version=game.version).order_by("at", "pk")
    return {s.participant_id: s for s in rows}


def current_at(tables) -> dict[int, dict[int, Signature]]:
    """``current`` for every one of ``tables`` (a query or a list of tables), in one query: table id →
    participant id → signature."""
    rows = Signature.objects.filter(table__in=tables, game_version=F("table__game__version"))
    out: dict[int, dict[int, Signature]] = defaultdict(dict)
    for s in rows.order_by("at", "pk"):
        out[s.table_id][s.participant_id] = s
    return out


def sign(
    participant: Participant,
    table: Table,
    *,
    agrees: bool,
    reason: str,
    version: int,
    disputed_move: str | int | None = None,
) -> Signature:
    """His word on the table's figures as he read them (``version``: the game's version his page showed);
    disputing, the move he names (``disputed_move``: its number in the game's log, 1..the last, as typed;
    empty: none), which the director's replay opens at.
    With the round, the table and the game locked, as a confirmation takes them: the figures cannot change,
    nor the result be confirmed, in between. RoundError when he may not sign now, saying why."""
    with transaction.atomic():
        _round, table, game = lock_table(table)
        if game is None or participant.pk not in players_of(game):
            raise RoundError(_("You do not play at this table."))
        if current_result(table) is not None:
            raise RoundError(_("This table's result is confirmed already."))
        if not recording.current_state(game).finished:
            raise RoundError(_("The game is not over yet."))
        if version != game.version:
            raise RoundError(_("The game changed since your page showed its figures: read them again."))
        if not agrees:
            reason = clean_reason(reason, missing=_("Say why you dispute the figures."), error=RoundError)
        move = None if agrees else _disputed_move(game, disputed_move)
        return Signature.objects.create(
            table=table,
            participant=participant,
            game_version=game.version,
            agrees=agrees,
            reason="" if agrees else reason,
            disputed_move=move,
            link_key=link_mark(participant.link_key),
        )


def _disputed_move(game: Game, raw: str | int | None) -> int | None:
    """The move a dispute names, as typed (None: none named); RoundError unless a number from 1 to the
    game's last move."""
    text = str(raw if raw is not None else "").strip().lstrip("#")
    if not text:
        return None
    last = game.last_move
    if not (text.isascii() and text.isdigit() and len(text) < 10 and 1 <= int(text) <= last):
        raise RoundError(
            _("The move you name must be a number from 1 to %(last)s (the numbers of the game's log).")
            % {"last": last}
        )
    return int(text)


def link_mark(key: str | None) -> str:
    """Which link a signature came from, without the key itself (a copy of the database opens no page): the
    first 16 hexadecimal digits of its SHA-256."""
    return hashlib.sha256((key or "").encode()).hexdigest()[:16]


def blocking(tournament: Tournament, table: Table, game: Game | None) -> str | None:
    """Why the result may not be confirmed without the director's ruling (None: nothing stops it): a dispute,
    or, where the tournament requires signatures, the players who have not agreed yet."""
    if game is None:
        return None
    return why_blocked(tournament, players_of(game), current(table, game))


def why_blocked(tournament: Tournament, players: dict[int, str], signed: dict[int, Signature]) -> str | None:
    """``blocking``, from the game's players (``players_of``) and signatures (``current``) read already."""
    disputed = disputes(signed)
    if disputed:
        said = "; ".join(f"{players.get(s.participant_id, '?')}: {s.reason}" for s in disputed)
        return ngettext(
            "A player disputes the figures (%(said)s): the director rules.",
            "%(n)s players dispute the figures (%(said)s): the director rules.",
            len(disputed),
        ) % {"n": len(disputed), "said": said}
    missing = unsigned(tournament, players, signed)
    if missing:
        return ngettext(
            "Waiting for a player's signature: %(names)s.",
            "Waiting for the players' signatures: %(names)s.",
            len(missing),
        ) % {"names": ", ".join(missing)}
    return None


def disputes(signed: dict[int, Signature]) -> list[Signature]:
    """The signatures that dispute the figures."""
    return [s for s in signed.values() if not s.agrees]


def unsigned(tournament: Tournament, players: dict[int, str], signed: dict[int, Signature]) -> list[str]:
    """The names of the players whose signature the tournament waits for (none where it requires none)."""
    if not tournament.signatures_required:
        return []
    return [name for pid, name in players.items() if pid not in signed]
