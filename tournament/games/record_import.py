"""Importing a table's game from a GAME_RECORD file (a game played on another device, or entered from paper).

The file must be a record of *this* table: the tournament's variant, board and options, and as players exactly
the participants seated at the table (matched by name, in any case; the record's order is the order of play).
It is replayed before anything is stored: an event the rules forbid refuses the file, naming the event's index
(0-based, as GAME_RECORD.md counts) and the rules' reason. Any refusal is a :class:`RecordImportError` and
stores nothing.

A table has one game (``Game.table`` is unique). Without one, the import creates it. With one (a device that
died mid-game, a console game started by mistake), the import replaces its moves in the same game: the moves
entered so far stay in its log as voided, with who, when and "replaced by an imported game record", and the
imported events follow them. The game keeps its id (the console's address), referees and history; its players
become the record's. A table whose result is confirmed is not changed: the director reopens the result first.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import fields

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from rules import RulesError, make_variant, parse_record, replay
from rules.messages import to_data
from rules.record import FORMAT
from tournament.boards.editions import board_misfit, hold_board, stored_board_version
from tournament.boards.names import board_label
from tournament.event.table_locks import lock_table
from tournament.games import recording
from tournament.games.log import active_events, event_data
from tournament.games.messages import error_text
from tournament.games.refusals import LogError
from tournament.labels import role_label, variant_label
from tournament.models import Game, GameEvent, GamePlayer, Round, Table, TableResult
from tournament.server.uploads import NotJSON, check_characters, echo, json_object, too_large_message


class RecordImportError(Exception):
    """A game record that cannot be imported for this table; the message says why. Nothing was stored."""


def _not_a_record(reason: str) -> RecordImportError:
    return RecordImportError(_("The file is not a game record: %(reason)s") % {"reason": reason})


class _NotJsonNumber(ValueError):
    pass


def read_record(data: bytes) -> dict:
    """The JSON object of a record file, or RecordImportError: too large, not text, not JSON, not an object, a
    control character in a text."""
    if len(data) > settings.UPLOAD_MAX_BYTES:
        raise RecordImportError(too_large_message())
    try:
        record = json_object(data)
        check_characters(record)
    except NotJSON as e:
        raise _not_a_record(str(e)) from None
    return record


def _key(name: str) -> str:
    """A name as it is compared: Unicode NFC, any case, without surrounding spaces."""
    return unicodedata.normalize("NFC", name).strip().casefold()


def _show(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def _check_game(table: Table, record: dict) -> None:
    """The tournament's variant, board and options (the effective rules: an option written out at its
    default value is no difference), the variant played on a board that fits it."""
    t = table.round.tournament
    variant, board = record.get("variant"), record.get("board")
    if isinstance(variant, str) and variant != t.variant:  # not text: the record's check below says so
        raise RecordImportError(
            _("The record is for the variant “%(record)s”; this tournament plays “%(tournament)s”.")
            % {"record": echo(variant_label(variant)), "tournament": variant_label(t.variant)}
        )
    if isinstance(board, str) and board != t.board:
        raise RecordImportError(
            _("The record is for the board “%(record)s”; this tournament plays on “%(tournament)s”.")
            % {"record": echo(board_label(board)), "tournament": board_label(t.board)}
        )
    if isinstance(variant, str) and isinstance(board, str):
        misfit = board_misfit(variant, board)  # a tournament stored before its board was checked
        if misfit is not None:
            raise RecordImportError(misfit)
    try:
        parsed = parse_record(record)
    except RulesError as e:
        raise _not_a_record(error_text(e)) from None
    ours = make_variant(t.variant, t.game_options())
    for f in fields(ours):
        mine, theirs = getattr(ours, f.name), getattr(parsed.variant, f.name)
        if mine != theirs:
            raise RecordImportError(
                _("The record's option %(option)s is %(record)s; this tournament's is %(tournament)s.")
                % {"option": f.name, "record": _show(theirs), "tournament": _show(mine)}
            )


def _players(table: Table, record: dict) -> list[dict]:
    """The record's players matched to the participants seated at the table, in the record's order (the order
    of play): [{"id", "name" (the participant's), "role"?, "participant"}]."""
    seats = list(table.seats.select_related("participant"))
    # by the name as printed (a namesake's with his club: "Jan Kowalski (SP 12)"), which the games' records
    # carry, and by the bare name where it names one person at the table
    seated = {_key(s.participant.shown_name): s.participant for s in seats}
    bare: dict[str, list] = {}
    for s in seats:
        bare.setdefault(_key(s.participant.name), []).append(s.participant)
    by_name = {key: people[0] for key, people in bare.items() if len(people) == 1}
    seat_role = {s.participant_id: s.role for s in seats}  # Anti-Monopoly: given at seating
    pid_length = GamePlayer._meta.get_field("pid").max_length
    out, seen = [], set()
    for i, p in enumerate(record["players"]):
        if len(p["id"]) > pid_length:
            raise RecordImportError(
                _("The record's player id “%(id)s” is longer than %(max)s characters.")
                % {"id": echo(p["id"], pid_length + 1), "max": pid_length}
            )
        name = p.get("name")
        if not isinstance(name, str) or not name.strip():
            raise RecordImportError(_("The record's player %(n)s has no name.") % {"n": i + 1})
        participant = seated.get(_key(name)) or by_name.get(_key(name))
        key = _key(participant.shown_name) if participant is not None else _key(name)
        if participant is None:
            raise RecordImportError(
                _("The record's player “%(name)s” is not seated at this table (seated: %(seated)s).")
                % {
                    "name": echo(name),
                    "seated": ", ".join(sorted((x.shown_name for x in seated.values()), key=_key)),
                }
            )
        if key in seen:
            twice = _("The record names “%(name)s” twice.")
            raise RecordImportError(twice % {"name": participant.shown_name})
        seen.add(key)
        role = seat_role[participant.pk] or p.get("role")
        if p.get("role") and seat_role[participant.pk] and p["role"] != seat_role[participant.pk]:
            raise RecordImportError(
                _("The record makes %(name)s a %(role)s; the seating, a %(seated)s.")
                % {
                    "name": participant.shown_name,
                    "role": role_label(p["role"]) or echo(str(p["role"])),
                    "seated": role_label(seat_role[participant.pk]),
                }
            )
        out.append(
            {
                "id": p["id"],
                "name": participant.shown_name,
                **({"role": role} if role else {}),
                "participant": participant,
            }
        )
    missing = [x.shown_name for k, x in seated.items() if k not in seen]
    if missing:
        raise RecordImportError(
            _("The record does not name %(names)s, seated at this table.")
            % {"names": ", ".join(sorted(missing, key=_key))}
        )
    return out


def _replayed(table: Table, record: dict, players: list[dict]) -> list[tuple[dict, list]]:
    """The events as the console stores them (the engine's normalised event, its notes), or the index and
    reason of the first one the rules forbid."""
    t = table.round.tournament
    stored: list[tuple[dict, list]] = []
    result = replay(
        {
            "format": FORMAT,
            "variant": t.variant,
            "board": t.board,
            "players": [{k: v for k, v in p.items() if k != "participant"} for p in players],
            "options": t.game_options(),
            "events": record.get("events", []),
        },
        on_outcome=lambda _i, out: stored.append((event_data(out.event), [to_data(n) for n in out.notes])),
    )
    if result.error is not None:
        message = error_text(result.exception)
        if result.error["index"] is None:
            raise _not_a_record(message)
        raise RecordImportError(
            _("Event %(index)s (counting from 0) is illegal: %(message)s")
            % {"index": result.error["index"], "message": message}
        )
    return stored


def _same(game: Game, players: list[dict], events: list[tuple[dict, list]]) -> bool:
    """The table's game is already this record (the import sent twice)."""
    have = [(p.pid, p.name, p.role, p.participant_id) for p in game.players.order_by("seat")]
    want = [(p["id"], p["name"], p.get("role", ""), p["participant"].pk) for p in players]
    return have == want and list(active_events(game).values_list("data", flat=True)) == [
        data for data, _notes in events
    ]


def import_table_record(table: Table, data: bytes, user) -> Game:
    """Make the record the table's game (created, or its moves replaced); RecordImportError if the file is not
    a legal record of this table or the table cannot take it. All or nothing."""
    record = read_record(data)
    table = Table.objects.select_related("round__tournament").get(pk=table.pk)
    _check_game(table, record)
    players = _players(table, record)
    board = stored_board_version(table.round.tournament.board)  # (None: a shipped board, never replaced)
    events = _replayed(table, record, players)  # before the locks: a long record does not hold them
    author = recording.author(user)
    with transaction.atomic():
        round_, table, game = lock_table(table)
        if hold_board(table.round.tournament.board) != board:  # held: not replaced until the game is stored
            raise RecordImportError(
                _("The tournament's board was replaced meanwhile: import the record again.")
            )
        if table.results.filter(status=TableResult.Status.CONFIRMED).exists():
            raise RecordImportError(
                _("This table's result is confirmed: reopen the result before importing a game record.")
            )
        if round_.status != Round.Status.RUNNING:
            raise RecordImportError(_("Start the round first."))
        if _players(table, record) != players:  # the seating as it is now (read again, under the lock)
            raise RecordImportError(_("The table's seating changed meanwhile: import the record again."))
        if game is not None and _same(game, players, events):
            return game
        return _store(table, game, players, events, author)


def _store(table: Table, game: Game | None, players: list[dict], events, author) -> Game:
    t = table.round.tournament
    now = timezone.now()
    changes = len(events)
    if game is None:
        game = Game.objects.create(
            table=table,
            name=(
                _("%(tournament)s · round %(round)s · table %(table)s")
                % {"tournament": t.name, "round": table.round.number, "table": table.number}
            )[: Game._meta.get_field("name").max_length],
            variant=t.variant,
            board=t.board,
            options=t.game_options(),
            created_by=author,
        )
        game.referees.set(table.referees.all())
    else:
        changes += active_events(game).update(
            status=GameEvent.Status.VOIDED,
            changed_by=author,
            changed_at=now,
            reason=_("replaced by an imported game record"),
        )
        changes = max(changes, 1)  # the players may change even when no move does
        game.players.all().delete()
        game.variant, game.board, game.options = t.variant, t.board, t.game_options()
    GamePlayer.objects.bulk_create(
        GamePlayer(
            game=game,
            seat=i,
            pid=p["id"],
            name=p["name"],
            role=p.get("role", ""),
            participant=p["participant"],
        )
        for i, p in enumerate(players)
    )
    GameEvent.objects.bulk_create(
        GameEvent(game=game, seq=game.next_seq + i, data=data, notes=notes, entered_by=author)
        for i, (data, notes) in enumerate(events)
    )
    game.next_seq += len(events)
    game.version += changes  # +1 for every event voided and every event added (as when entered one by one)
    if events:
        game.started_at = game.started_at or now
    try:
        recording.rebuild(game)  # the snapshot, the ledger totals and the status, from the stored log
    except LogError as e:  # the stored events replay as the file did: not expected, but never half-stored
        raise RecordImportError(str(e)) from None
    game.save()
    return game
