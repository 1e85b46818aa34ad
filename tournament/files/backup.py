"""A tournament's backup: the whole tournament in one JSON file, and its restoration in another installation.

The file (``"format": "monopoly-tournament-backup/1"``) holds the settings, the participants, the rounds with
their tables, seats and referees, each table's game with its players and *every* event of its log (undone and
voided ones too, with who, when and why), and every result of each table (reopened ones too). People are named
by username; participants by their id in the exporting installation, which the import maps to the new ids.

The import checks the whole file before storing anything, stores it in one transaction, and replays every
game from its log (the stored state and ledger come from the replay, as after an undo): a file that is not a
backup, a tournament already present, a game whose record the rules refuse or a confirmed result the game does
not give is refused with a :class:`BackupError` naming what is wrong, and nothing is stored.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections import defaultdict
from contextlib import contextmanager
from datetime import date, datetime, timedelta
from string import Formatter

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DataError, IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _

from ledger.report import replay_ledger
from rules import RulesError, available_boards, available_variants, make_variant
from rules.snapshot import dump_state
from rules.standings import MAX_PLACEMENT_POINTS, TIE_BREAKS
from rules.variants import PREVIOUS_RULES, RULES_GENERATION, previous_rules
from tournament.boards.editions import board_misfit, hold_board, stored_board_version
from tournament.errors import RoundError
from tournament.event.interventions import hand_rows
from tournament.event.results import game_ranking
from tournament.games import recording
from tournament.games.messages import error_text
from tournament.models import (
    AuditEntry,
    Game,
    GameEvent,
    GamePlayer,
    Participant,
    Round,
    Seat,
    Table,
    TableResult,
    Tournament,
)
from tournament.models.bounds import INTEGER_MAX, SMALL_MAX, field_maximum
from tournament.server.uploads import NotJSON, load_json

FORMAT = "monopoly-tournament-backup/1"
#: The engine's rules the games of a backup were played by (``rules.variants.RULE_CHANGES``): 2 since rent
#: lapses at the next player's roll and the jail fine is settled before the token moves, 3 since
#: Anti-Monopoly's income tax is valued at the landing and a monopolist in Prison earns nothing at the end (a
#: backup of an older generation, or without it, replays with ``previous_rules`` of its generation).
RULES = RULES_GENERATION


#: The years a date of a backup may fall in (a tournament, a move, a confirmation).
YEARS = (1900, 2200)


def _years() -> dict:
    return {"first": YEARS[0], "last": YEARS[1]}


class BackupError(Exception):
    """A backup file that cannot be imported; the message says what is wrong and where."""


def _max_length(model, field: str) -> int:
    return model._meta.get_field(field).max_length


# -- export --------------------------------------------------------------------------------------------------


def _iso(value: date | datetime | None) -> str | None:
    return None if value is None else value.isoformat()


@contextmanager
def _consistent_read():
    """Read the whole tournament as of one moment, even while referees enter moves."""
    if connection.in_atomic_block:  # the caller's transaction decides what is seen
        yield
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield


def export_tournament(tournament: Tournament) -> dict:
    """The tournament as backup data (JSON-ready: ISO dates, usernames, the participants' ids of this
    installation as references)."""
    with _consistent_read():
        return _export(Tournament.objects.get(pk=tournament.pk))


def _export(t: Tournament) -> dict:
    user = dict(get_user_model().objects.values_list("pk", "username"))

    def name(user_id):
        return user.get(user_id)

    games = {g.table_id: g for g in Game.objects.filter(table__round__tournament=t)}
    players, events, game_referees = defaultdict(list), defaultdict(list), defaultdict(list)
    for p in GamePlayer.objects.filter(game__in=games.values()).order_by("game", "seat"):
        players[p.game_id].append(p)
    for e in GameEvent.objects.filter(game__in=games.values()).order_by("game", "seq"):
        events[e.game_id].append(e)
    for game_id, user_id in Game.referees.through.objects.filter(game__in=games.values()).values_list(
        "game_id", "user_id"
    ):
        game_referees[game_id].append(name(user_id))
    tables = Table.objects.filter(round__tournament=t).order_by("round__number", "number")
    seats, table_referees, table_results = defaultdict(list), defaultdict(list), defaultdict(list)
    roles = defaultdict(list)  # Anti-Monopoly: each seat's role, in the seats' order
    for s in Seat.objects.filter(table__in=tables).order_by("table", "order", "pk"):
        seats[s.table_id].append(s.participant_id)
        roles[s.table_id].append(s.role)
    for table_id, user_id in Table.referees.through.objects.filter(table__in=tables).values_list(
        "table_id", "user_id"
    ):
        table_referees[table_id].append(name(user_id))
    for r in TableResult.objects.filter(table__in=tables).order_by("table", "confirmed_at", "pk"):
        table_results[r.table_id].append(r)
    by_round = defaultdict(list)
    for table in tables:
        by_round[table.round_id].append(table)

    def game_data(g: Game) -> dict:
        return {
            "name": g.name,
            "variant": g.variant,
            "board": g.board,
            "options": g.options,
            "status": g.status,
            "created_by": name(g.created_by_id),
            "created_at": _iso(g.created_at),
            "started_at": _iso(g.started_at),
            "finished_at": _iso(g.finished_at),
            "version": g.version,
            "next_seq": g.next_seq,
            "referees": sorted(game_referees[g.pk]),
            "players": [
                {
                    "seat": p.seat,
                    "pid": p.pid,
                    "name": p.name,
                    "role": p.role,
                    "participant": p.participant_id,
                }
                for p in players[g.pk]
            ],
            "events": [
                {
                    "seq": e.seq,
                    "data": e.data,
                    "status": e.status,
                    "notes": e.notes,
                    "entered_by": name(e.entered_by_id),
                    "entered_at": _iso(e.entered_at),
                    "client_key": e.client_key,
                    "changed_by": name(e.changed_by_id),
                    "changed_at": _iso(e.changed_at),
                    "reason": e.reason,
                    "change_key": e.change_key,
                }
                for e in events[g.pk]
            ],
        }

    def result_data(r: TableResult) -> dict:
        return {
            "ranking": r.ranking,
            "status": r.status,
            "confirmed_by": name(r.confirmed_by_id),
            "confirmed_at": _iso(r.confirmed_at),
            "second_by": name(r.second_by_id),
            "second_at": _iso(r.second_at),
            "reopened_by": name(r.reopened_by_id),
            "reopened_at": _iso(r.reopened_at),
            "reason": r.reason,
            **({"by_hand": True, "hand_reason": r.hand_reason} if r.by_hand else {}),
        }

    return {
        "format": FORMAT,
        "rules": RULES,
        "exported_at": _iso(timezone.now()),
        "tournament": {
            "name": t.name,
            "date": _iso(t.date),
            "variant": t.variant,
            "board": t.board,
            "ending": t.ending,
            "game_rounds": t.game_rounds,
            "time_limit_minutes": t.time_limit_minutes,
            "move_time_limit": t.move_time_limit,
            "rounds": t.rounds,
            "table_size": t.table_size,
            "final_table_size": t.final_table_size,
            "placement_points": t.placement_points,
            "tie_breaks": t.tie_breaks,
            "second_confirmation": t.second_confirmation,
            "seed": t.seed,
            "created_by": name(t.created_by_id),
            "directors": sorted(t.directors.values_list("username", flat=True)),
            "created_at": _iso(t.created_at),
        },
        "participants": [
            {"id": p.pk, "name": p.name, "club": p.club, "seed": p.seed, "withdrawn_after": p.withdrawn_after}
            for p in t.participants.order_by("pk")
        ],
        "rounds": [
            {
                "number": r.number,
                "status": r.status,
                "seed": r.seed,
                "created_at": _iso(r.created_at),
                "started_at": _iso(r.started_at),
                "tables": [
                    {
                        "number": table.number,
                        "referees": sorted(table_referees[table.pk]),
                        "seats": seats[table.pk],
                        **({"roles": roles[table.pk]} if any(roles[table.pk]) else {}),
                        "game": game_data(games[table.pk]) if table.pk in games else None,
                        "results": [result_data(x) for x in table_results[table.pk]],
                    }
                    for table in by_round[r.pk]
                ],
            }
            for r in t.round_set.order_by("number")
        ],
        "audit": [
            {
                "round": a.round_number,
                "table": a.table_number,
                "participant": a.participant_id,
                "action": a.action,
                "reason": a.reason,
                "details": a.details,
                "user": name(a.user_id),
                "at": _iso(a.at),
            }
            for a in t.audit.order_by("at", "pk")
        ],
    }


def dumps(data: dict) -> str:
    """The backup as the text of its file."""
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def read_backup(raw: bytes | str) -> dict:
    """The data of a backup file's text; BackupError if it is not JSON (or JSON no database stores: nested
    too deeply, NaN, a number too long)."""
    try:
        if isinstance(raw, bytes):
            raw = raw.decode("utf-8-sig")
        data = load_json(raw)
    except UnicodeDecodeError:
        raise BackupError(_("The file is not a tournament backup: it is not text (UTF-8).")) from None
    except json.JSONDecodeError as e:
        raise BackupError(
            _(
                "The file is not a tournament backup: it is not valid JSON (line %(line)s, "
                "column %(column)s; is it cut short?)."
            )
            % {"line": e.lineno, "column": e.colno}
        ) from None
    except NotJSON as e:
        raise BackupError(_("The file is not a tournament backup: %(reason)s") % {"reason": e}) from None
    return data


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):g}"


def read_backup_file(f) -> dict:
    """The data of a backup read from a binary file (or standard input): refused above
    ``settings.BACKUP_MAX_BYTES`` before it is read (a regular file by its size, a stream once it passes the
    limit), and read into one copy at a time (bytes, then text, then data). OSError as ``f.read``."""
    limit = settings.BACKUP_MAX_BYTES
    too_large = BackupError(
        _("The file is larger than %(size)s MB, the most a backup may have (the setting BACKUP_MAX_BYTES).")
        % {"size": _megabytes(limit)}
    )
    try:
        info = os.fstat(f.fileno())
    except (AttributeError, OSError, ValueError):  # not a file with a descriptor (a test's stream)
        info = None
    if info is not None and stat.S_ISREG(info.st_mode) and info.st_size > limit:
        raise too_large
    raw = f.read(limit + 1)
    if len(raw) > limit:
        raise too_large
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BackupError(_("The file is not a tournament backup: it is not text (UTF-8).")) from None
    del raw
    return read_backup(text)


# -- reading and checking the file ---------------------------------------------------------------------------

#: What no database stores in a text: NUL (PostgreSQL) and lone surrogates (no encoding).
UNSTORABLE = re.compile(r"[\x00\ud800-\udfff]")


class _Node:
    """One JSON object of the file, with where it is (``rounds[0].tables[2].game``) for the messages."""

    def __init__(self, value, where: str):
        self.value = value
        self.where = where

    def path(self, key) -> str:
        if isinstance(key, int):
            return f"{self.where}[{key}]"
        return f"{self.where}.{key}" if self.where else key

    def raw(self, key):
        if isinstance(self.value, list):  # a list's items are read by index, in range
            return self.value[key]
        if key not in self.value:
            raise BackupError(
                _("%(where)s: the key “%(key)s” is missing.")
                % {"where": self.where or _("the file"), "key": key}
            )
        return self.value[key]

    def _wrong(self, key, kind: str, null: bool):
        template = _("%(where)s must be %(kind)s or null.") if null else _("%(where)s must be %(kind)s.")
        return BackupError(template % {"where": self.path(key), "kind": kind})

    def int(self, key, *, null=False, minimum=0, maximum=INTEGER_MAX) -> int | None:
        value = self.raw(key)
        if value is None and null:
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            raise self._wrong(key, _("a whole number"), null)
        if value < minimum:
            raise BackupError(
                _("%(where)s must be at least %(n)s.") % {"where": self.path(key), "n": minimum}
            )
        if value > maximum:
            raise BackupError(_("%(where)s must be at most %(n)s.") % {"where": self.path(key), "n": maximum})
        return value

    def text(self, key, *, max_length=None, blank=True, null=False) -> str | None:
        value = self.raw(key)
        if value is None and null:
            return None
        if not isinstance(value, str):
            raise self._wrong(key, _("text"), null)
        if not blank and not value.strip():
            raise BackupError(_("%(where)s must not be empty.") % {"where": self.path(key)})
        if max_length is not None and len(value) > max_length:
            raise BackupError(
                _("%(where)s must be at most %(n)s characters long.")
                % {"where": self.path(key), "n": max_length}
            )
        return value

    def choice(self, key, allowed) -> str:
        value = self.text(key)
        if value not in allowed:
            raise BackupError(
                _("%(where)s: “%(value)s” is not one of: %(allowed)s.")
                % {"where": self.path(key), "value": value[:60], "allowed": ", ".join(allowed)}
            )
        return value

    def bool(self, key) -> bool:
        value = self.raw(key)
        if not isinstance(value, bool):
            raise self._wrong(key, _("true or false"), False)
        return value

    def date(self, key) -> date:
        value = self.raw(key)
        try:
            parsed = parse_date(value) if isinstance(value, str) else None
        except ValueError:
            parsed = None
        if parsed is None:
            raise self._wrong(key, _("a date (YYYY-MM-DD)"), False)
        if not YEARS[0] <= parsed.year <= YEARS[1]:
            raise self._wrong(key, _("a date of the years %(first)s to %(last)s") % _years(), False)
        return parsed

    def datetime(self, key, *, null=False) -> datetime | None:
        value = self.raw(key)
        if value is None and null:
            return None
        try:
            parsed = parse_datetime(value) if isinstance(value, str) else None
        except ValueError:
            parsed = None
        if parsed is None:
            raise self._wrong(key, _("a date and time (ISO 8601)"), null)
        if not YEARS[0] <= parsed.year <= YEARS[1]:  # (nor a time that UTC would carry out of the calendar)
            raise self._wrong(key, _("a date and time of the years %(first)s to %(last)s") % _years(), null)
        return parsed if timezone.is_aware(parsed) else timezone.make_aware(parsed)

    def json_object(self, key) -> dict:
        value = self.raw(key)
        if not isinstance(value, dict):
            raise self._wrong(key, _("an object"), False)
        return value

    def json_list(self, key) -> list:
        value = self.raw(key)
        if not isinstance(value, list):
            raise self._wrong(key, _("a list"), False)
        return value

    def node(self, key, *, null=False) -> _Node | None:
        value = self.raw(key)
        if value is None and null:
            return None
        if not isinstance(value, dict):
            raise self._wrong(key, _("an object"), null)
        return _Node(value, self.path(key))

    def nodes(self, key) -> list[_Node]:
        items = self.json_list(key)
        where = _Node(items, self.path(key))
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                raise where._wrong(i, _("an object"), False)
        return [_Node(item, where.path(i)) for i, item in enumerate(items)]

    def username(self, key, *, null=True) -> str | None:
        return self.text(key, null=null, blank=False, max_length=_max_length(get_user_model(), "username"))

    def usernames(self, key) -> list[str]:
        items = _Node(self.json_list(key), self.path(key))
        return [items.username(i, null=False) for i in range(len(items.value))]


def _unique(where: str, values, key=None) -> None:
    seen = set()
    for value in values:
        k = value if key is None else key(value)
        if k in seen:
            raise BackupError(_("%(where)s: %(value)s appears twice.") % {"where": where, "value": value})
        seen.add(k)


def _check_storable(data) -> None:
    """No text of the file (a value or a key) holds what the databases cannot store. The file's text is
    searched first (fast); only when it may hold one is the data walked to name the place."""
    text = json.dumps(data, ensure_ascii=False)
    if "\\u0000" not in text and not UNSTORABLE.search(text):
        return
    del text
    stack = [("", data)]
    while stack:  # not recursive: the depth is bounded, but a stack of our own costs nothing
        where, value = stack.pop()
        if isinstance(value, str) and UNSTORABLE.search(value):
            raise BackupError(
                _("%(where)s holds a character no database stores (NUL or a lone surrogate).")
                % {"where": where or _("the file")}
            )
        items = (
            value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        )
        for key, item in items:
            if isinstance(key, str) and UNSTORABLE.search(key):
                raise BackupError(
                    _("%(where)s has a key with a character no database stores (NUL or a lone surrogate).")
                    % {"where": where or _("the file")}
                )
            stack.append((_Node(value, where).path(key), item))


def _check_format(data) -> _Node:
    if not isinstance(data, dict):
        raise BackupError(_("The file is not a tournament backup: a backup is one JSON object."))
    if "format" not in data:
        raise BackupError(_("The file is not a tournament backup: the “format” key is missing."))
    if data["format"] != FORMAT:
        raise BackupError(
            _(
                "The file is not a tournament backup of a known format: “%(format)s” "
                "(expected “%(expected)s”)."
            )
            % {"format": str(data["format"])[:60], "expected": FORMAT}
        )
    return _Node(data, "")


def _read_tournament(n: _Node) -> dict:
    points = _Node(n.json_list("placement_points"), n.path("placement_points"))
    tie_breaks = _Node(n.json_list("tie_breaks"), n.path("tie_breaks"))

    def number(key, **kwargs):
        return n.int(key, maximum=field_maximum(Tournament, key), **kwargs)

    settings_ = {
        "name": n.text("name", blank=False, max_length=_max_length(Tournament, "name")),
        "date": n.date("date"),
        "variant": n.choice("variant", available_variants()),
        "board": n.choice("board", available_boards()),
        "ending": n.choice("ending", [c for c, _label in Tournament._meta.get_field("ending").choices])
        if "ending" in n.value
        else "two_hour",  # a backup made before the setting existed
        "game_rounds": number("game_rounds", null=True),
        "time_limit_minutes": number("time_limit_minutes", null=True),
        "move_time_limit": number("move_time_limit", null=True),
        "rounds": number("rounds", minimum=1),
        "table_size": number("table_size", minimum=2),
        "final_table_size": number("final_table_size", null=True),
        "placement_points": [points.int(i, maximum=MAX_PLACEMENT_POINTS) for i in range(len(points.value))],
        "tie_breaks": [tie_breaks.choice(i, TIE_BREAKS) for i in range(len(tie_breaks.value))],
        "second_confirmation": n.bool("second_confirmation"),
        "seed": number("seed"),
        "created_by": n.username("created_by"),
        "created_at": n.datetime("created_at"),
        # a backup made before the co-directors: its creator directs it
        "directors": n.usernames("directors") if "directors" in n.value else [n.username("created_by")],
    }
    if not settings_["placement_points"]:
        raise BackupError(_("%(where)s must not be empty.") % {"where": n.path("placement_points")})
    _unique(n.path("tie_breaks"), settings_["tie_breaks"])
    return settings_


def _read_participants(nodes: list[_Node]) -> list[dict]:
    out = [
        {
            "id": n.int("id", minimum=-INTEGER_MAX, maximum=INTEGER_MAX),
            "name": n.text("name", blank=False, max_length=_max_length(Participant, "name")),
            "club": n.text("club", max_length=_max_length(Participant, "club")),
            "seed": n.int("seed", null=True, maximum=field_maximum(Participant, "seed")),
            "withdrawn_after": n.int(
                "withdrawn_after", null=True, maximum=field_maximum(Participant, "withdrawn_after")
            ),
            "where": n.where,
        }
        for n in nodes
    ]
    _unique("participants", (p["id"] for p in out))
    _unique("participants", (p["name"] for p in out), key=str.lower)  # as the database: in any case
    return out


class _Participants:
    """The backup's participant ids, checked where they are referred to."""

    def __init__(self, participants: list[dict]):
        self.ids = {p["id"] for p in participants}

    def ref(self, n: _Node, key, *, null=False) -> int | None:
        value = n.int(key, null=null, minimum=-INTEGER_MAX, maximum=INTEGER_MAX)
        if value is not None and value not in self.ids:
            raise BackupError(
                _("%(where)s: there is no participant %(id)s among the backup's participants.")
                % {"where": n.path(key), "id": value}
            )
        return value


def _is_message(value, depth: int = 0) -> bool:
    """A note as the engine stores it (``rules.messages.to_data``): a template whose placeholders are plain
    names of its values, and values that are plain data or notes themselves."""
    if not (isinstance(value, dict) and set(value) == {"t", "p"} and depth < 10):
        return False
    template, params = value["t"], value["p"]
    if not isinstance(template, str) or not isinstance(params, dict):
        return False
    try:
        fields = [(name, spec, conversion) for _text, name, spec, conversion in Formatter().parse(template)]
    except ValueError:  # a lone brace
        return False
    if any(
        name is not None and (not name.isidentifier() or spec or conversion)
        for name, spec, conversion in fields
    ):
        return False  # "{x.attribute}", "{x:>999999999}": not what the engine writes
    return all(_is_message(v, depth + 1) if isinstance(v, dict) else _plain(v) for v in params.values())


def _plain(value) -> bool:
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    return value is None or isinstance(value, str | int | float | bool)


def _read_event(n: _Node) -> dict:
    notes = n.json_list("notes")
    for i, note in enumerate(notes):
        if not _is_message(note):
            raise BackupError(
                _("%(where)s is not a note of the rules engine (a template and its values).")
                % {"where": _Node(notes, n.path("notes")).path(i)}
            )
    event = {
        "seq": n.int("seq", minimum=1, maximum=field_maximum(GameEvent, "seq")),
        "data": n.json_object("data"),
        "status": n.choice("status", GameEvent.Status.values),
        "notes": notes,
        "entered_by": n.username("entered_by"),
        "entered_at": n.datetime("entered_at"),
        "client_key": n.text("client_key", null=True, max_length=_max_length(GameEvent, "client_key")),
        "changed_by": n.username("changed_by"),
        "changed_at": n.datetime("changed_at", null=True),
        "reason": n.text("reason", max_length=_max_length(GameEvent, "reason")),
        "change_key": n.text("change_key", null=True, max_length=_max_length(GameEvent, "change_key")),
    }
    if event["status"] != GameEvent.Status.ACTIVE and (event["changed_at"] is None or not event["reason"]):
        raise BackupError(
            _("%(where)s: an undone or voided move needs the time it was taken back and the reason.")
            % {"where": n.where}
        )
    return event


def _read_game(n: _Node, participants: _Participants) -> dict:
    players = [
        {
            "seat": p.int("seat", maximum=field_maximum(GamePlayer, "seat")),
            "pid": p.text("pid", blank=False, max_length=_max_length(GamePlayer, "pid")),
            "name": p.text("name", blank=False, max_length=_max_length(GamePlayer, "name")),
            "role": p.text("role", max_length=_max_length(GamePlayer, "role")),
            "participant": participants.ref(p, "participant", null=True),
            "where": p.where,
        }
        for p in n.nodes("players")
    ]
    _unique(n.path("players"), (p["seat"] for p in players))
    _unique(n.path("players"), (p["pid"] for p in players))
    events = [_read_event(e) for e in n.nodes("events")]
    _unique(n.path("events"), (e["seq"] for e in events))
    _unique(n.path("events"), (e["client_key"] for e in events if e["client_key"]))
    _unique(n.path("events"), (e["change_key"] for e in events if e["change_key"]))
    return {
        "name": n.text("name", max_length=_max_length(Game, "name")),
        "variant": n.choice("variant", available_variants()),
        "board": n.choice("board", available_boards()),
        "options": n.json_object("options"),
        "status": n.choice("status", Game.Status.values),
        "created_by": n.username("created_by"),
        "created_at": n.datetime("created_at"),
        "started_at": n.datetime("started_at", null=True),
        "finished_at": n.datetime("finished_at", null=True),
        "version": n.int("version", maximum=field_maximum(Game, "version")),
        "next_seq": n.int("next_seq", minimum=1, maximum=field_maximum(Game, "next_seq")),
        "referees": n.usernames("referees"),
        "players": players,
        "events": events,
        "where": n.where,
    }


_ROW_KEYS = ("participant", "name", "rank", "score", "points", "role")


def _read_result(n: _Node, participants: _Participants) -> dict:
    ranking = []
    for row in n.nodes("ranking"):
        unknown = sorted(set(row.value) - set(_ROW_KEYS))
        if unknown:
            raise BackupError(
                _("%(where)s: unknown key “%(key)s”.") % {"where": row.where, "key": str(unknown[0])[:40]}
            )
        ranking.append(
            {
                "participant": participants.ref(row, "participant", null=True),
                "name": row.text("name", max_length=_max_length(GamePlayer, "name")),
                "rank": row.int("rank", minimum=1, maximum=SMALL_MAX),
                "score": row.int("score", minimum=-INTEGER_MAX, maximum=INTEGER_MAX),
                "points": row.int("points", maximum=MAX_PLACEMENT_POINTS),
                **({"role": row.choice("role", Seat.Role.values)} if "role" in row.value else {}),
            }
        )
    _unique(n.path("ranking"), (r["participant"] for r in ranking if r["participant"] is not None))
    result = {
        "ranking": ranking,
        "status": n.choice("status", TableResult.Status.values),
        "confirmed_by": n.username("confirmed_by"),
        "confirmed_at": n.datetime("confirmed_at"),
        "second_by": n.username("second_by"),
        "second_at": n.datetime("second_at", null=True),
        "reopened_by": n.username("reopened_by"),
        "reopened_at": n.datetime("reopened_at", null=True),
        "reason": n.text("reason", max_length=_max_length(TableResult, "reason")),
        "by_hand": n.bool("by_hand") if "by_hand" in n.value else False,  # both keys: files since 0008
        "hand_reason": (
            n.text("hand_reason", max_length=_max_length(TableResult, "hand_reason"))
            if "hand_reason" in n.value
            else ""
        ),
        "where": n.where,
    }
    if result["by_hand"] and not result["hand_reason"].strip():
        raise BackupError(_("%(where)s: a result entered by hand needs the reason.") % {"where": n.where})
    if result["status"] != TableResult.Status.CONFIRMED and (
        result["reopened_at"] is None or not result["reason"]
    ):
        raise BackupError(
            _("%(where)s: a reopened result needs the time it was reopened and the reason.")
            % {"where": n.where}
        )
    return result


def _read_audit(n: _Node, participants: _Participants) -> dict:
    return {
        "round_number": n.int(
            "round", null=True, minimum=1, maximum=field_maximum(AuditEntry, "round_number")
        ),
        "table_number": n.int(
            "table", null=True, minimum=1, maximum=field_maximum(AuditEntry, "table_number")
        ),
        "participant": participants.ref(n, "participant", null=True),
        "action": n.choice("action", AuditEntry.Action.values),
        "reason": n.text("reason", max_length=_max_length(AuditEntry, "reason"), blank=False),
        "details": n.json_object("details"),
        "user": n.username("user"),
        "at": n.datetime("at"),
        "where": n.where,
    }


def _read_table(n: _Node, participants: _Participants) -> dict:
    seats = _Node(n.json_list("seats"), n.path("seats"))
    if len(seats.value) > SMALL_MAX:  # Seat.order
        raise BackupError(_("%(where)s: too many seats.") % {"where": seats.where})
    table = {
        "number": n.int("number", minimum=1, maximum=field_maximum(Table, "number")),
        "referees": n.usernames("referees"),
        "seats": [participants.ref(seats, i) for i in range(len(seats.value))],
        "roles": [""] * len(seats.value),
        "game": None,
        "results": [_read_result(r, participants) for r in n.nodes("results")],
        "where": n.where,
    }
    if "roles" in n.value:
        roles = _Node(n.json_list("roles"), n.path("roles"))
        if len(roles.value) != len(seats.value):
            raise BackupError(_("%(where)s: one role per seat.") % {"where": n.path("roles")})
        table["roles"] = [roles.choice(i, ("", *Seat.Role.values)) for i in range(len(roles.value))]
    game = n.node("game", null=True)
    if game is not None:
        table["game"] = _read_game(game, participants)
    _unique(n.path("seats"), table["seats"])
    confirmed = [r for r in table["results"] if r["status"] == TableResult.Status.CONFIRMED]
    if len(confirmed) > 1:
        raise BackupError(_("%(where)s: more than one confirmed result.") % {"where": n.path("results")})
    return table


def _read_round(n: _Node, participants: _Participants) -> dict:
    tables = [_read_table(t, participants) for t in n.nodes("tables")]
    _unique(n.path("tables"), (t["number"] for t in tables))
    return {
        "number": n.int("number", minimum=1, maximum=field_maximum(Round, "number")),
        "status": n.choice("status", Round.Status.values),
        "seed": n.int("seed", maximum=field_maximum(Round, "seed")),
        "created_at": n.datetime("created_at"),
        "started_at": n.datetime("started_at", null=True),
        "tables": tables,
        "where": n.where,
    }


def _read(data) -> dict:
    """The file's data read, each value checked where it is: what ``_store`` stores once ``_Check`` passed,
    or BackupError naming the first place in the file that is wrong."""
    root = _check_format(data)
    _check_storable(data)
    participants = _read_participants(root.nodes("participants"))
    refs = _Participants(participants)
    backup = {
        "tournament": _read_tournament(root.node("tournament")),
        "participants": participants,
        "rounds": [_read_round(r, refs) for r in root.nodes("rounds")],
        "audit": [_read_audit(a, refs) for a in root.nodes("audit")] if "audit" in root.value else [],
    }
    _unique("rounds", (r["number"] for r in backup["rounds"]))
    older = previous_rules(data.get("rules"))  # made before the engine's newer decisions: its games keep
    if older:  # their rules
        for r in backup["rounds"]:
            for t in r["tables"]:
                if t["game"] is not None:
                    t["game"]["options"] = {**older, **t["game"]["options"]}
    return backup


# -- the file as a whole: the rules of the app its parts keep together ---------------------------------------


def _refuse(template: str, **values) -> BackupError:
    return BackupError(template % values)


class _Check:
    """What the live app never lets happen, checked over the whole file before anything is stored: the rounds
    numbered in order and seated one after the other, a participant seated once per round and not after he
    withdrew, a game played by the table's seated participants under the tournament's rules, every game
    replayed by the rules engine, the confirmed result what the game gives (a result entered by hand: one
    place and score per player, its points those of the places), a finished round with every table's result
    in. Each refusal names the place in the file."""

    def __init__(self, backup: dict):
        self.backup = backup
        self.settings = backup["tournament"]
        self.participants = {p["id"]: p for p in backup["participants"]}
        self.points = self.settings["placement_points"]

    def run(self) -> None:
        rounds = self.backup["rounds"]
        for i, r in enumerate(rounds, start=1):
            if r["number"] != i:
                raise _refuse(
                    _("%(where)s: the rounds are numbered 1, 2, 3 … in order; this one is %(n)s, not %(i)s."),
                    where=r["where"],
                    n=r["number"],
                    i=i,
                )
        if len(rounds) > self.settings["rounds"]:
            raise _refuse(
                _("%(where)s: the tournament has %(n)s rounds."),
                where=rounds[self.settings["rounds"]]["where"],
                n=self.settings["rounds"],
            )
        for r in rounds[:-1]:
            if r["status"] == Round.Status.SEATED:
                raise _refuse(
                    _("%(where)s: round %(n)s has not started, yet a round after it has been seated."),
                    where=r["where"],
                    n=r["number"],
                )
        for p in self.participants.values():
            if p["withdrawn_after"] is not None and p["withdrawn_after"] > len(rounds):
                raise _refuse(
                    _("%(where)s: withdrawn after round %(n)s, but the backup has %(rounds)s rounds."),
                    where=p["where"],
                    n=p["withdrawn_after"],
                    rounds=len(rounds),
                )
        self.variant = self._tournament_variant()
        for r in rounds:
            self._round(r)
        numbers = {r["number"] for r in rounds}
        for a in self.backup["audit"]:
            if a["round_number"] is not None and a["round_number"] not in numbers:
                raise _refuse(
                    _("%(where)s: there is no round %(n)s in the backup."),
                    where=a["where"],
                    n=a["round_number"],
                )

    def _tournament_variant(self):
        keys = ("variant", "ending", "game_rounds", "time_limit_minutes", "move_time_limit")
        options = Tournament(**{k: self.settings[k] for k in keys}).game_options()  # as its games get them
        try:
            variant = make_variant(self.settings["variant"], options)
        except RulesError as e:
            raise _refuse(_("%(where)s: %(message)s"), where="tournament", message=error_text(e)) from None
        misfit = board_misfit(variant, self.settings["board"])  # its games are played on its board
        if misfit is not None:
            raise _refuse(_("%(where)s: %(message)s"), where="tournament.board", message=misfit)
        return variant

    def _round(self, r: dict) -> None:
        seated_at: dict[int, int] = {}
        for table in r["tables"]:
            for k, pid in enumerate(table["seats"]):
                where = f"{table['where']}.seats[{k}]"
                if pid in seated_at:
                    raise _refuse(
                        _(
                            "%(where)s: participant %(id)s is already seated at table %(table)s of this "
                            "round."
                        ),
                        where=where,
                        id=pid,
                        table=seated_at[pid],
                    )
                seated_at[pid] = table["number"]
                withdrawn = self.participants[pid]["withdrawn_after"]
                if withdrawn is not None and r["number"] > withdrawn:
                    raise _refuse(
                        _("%(where)s: participant %(id)s withdrew after round %(n)s."),
                        where=where,
                        id=pid,
                        n=withdrawn,
                    )
            self._table(r, table)
        if r["status"] == Round.Status.FINISHED:
            for table in r["tables"]:
                if (table["seats"] or table["game"]) and not self._counts(table):
                    raise _refuse(
                        _(
                            "%(where)s: round %(n)s is finished, but this table has no result that counts "
                            "(confirmed, and by a second person where the tournament asks for it)."
                        ),
                        where=table["where"],
                        n=r["number"],
                    )

    def _counts(self, table: dict) -> bool:
        return any(
            x["status"] == TableResult.Status.CONFIRMED
            and (not self.settings["second_confirmation"] or x["second_by"] is not None)
            for x in table["results"]
        )

    def _table(self, r: dict, table: dict) -> None:
        game = table["game"]
        if r["status"] == Round.Status.SEATED and (game is not None or table["results"]):
            raise _refuse(
                _("%(where)s: round %(n)s has not started, yet this table has a game or a result."),
                where=table["where"],
                n=r["number"],
            )
        state = self._game(r, table, game) if game is not None else None
        confirmed = next((x for x in table["results"] if x["status"] == TableResult.Status.CONFIRMED), None)
        if confirmed is not None:
            if confirmed["by_hand"]:
                self._hand_result(table, confirmed)
            else:
                self._game_result(table, confirmed, state)
        if state is not None and game["status"] != self._status(state):
            raise _refuse(
                _(
                    "%(where)s: the game is “%(status)s”, but its moves replay to a game that is "
                    "“%(replayed)s”."
                ),
                where=f"{game['where']}.status",
                status=game["status"],
                replayed=self._status(state),
            )

    @staticmethod
    def _status(state) -> str:
        return Game.Status.FINISHED if state.finished else Game.Status.RUNNING

    def _game(self, r: dict, table: dict, g: dict):
        """The game's players and rules checked, its moves replayed: the final state (stored in ``g``)."""
        where = g["where"]
        for key in ("variant", "board"):
            if g[key] != self.settings[key]:
                raise _refuse(
                    _("%(where)s: the game is played with “%(game)s”, the tournament with “%(tournament)s”."),
                    where=f"{where}.{key}",
                    game=g[key],
                    tournament=self.settings[key],
                )
        try:
            theirs = make_variant(g["variant"], g["options"])
        except RulesError as e:
            raise _refuse(
                _("%(where)s: %(message)s"), where=f"{where}.options", message=error_text(e)
            ) from None
        # The options the game names (a game started before a setting existed, as the Anti-Monopoly ending,
        # names none and plays by the engine's default); a game played before the engine's newer decisions
        # keeps its rules.
        for option in g["options"]:
            if option in PREVIOUS_RULES:
                continue
            mine, game_value = getattr(self.variant, option), getattr(theirs, option)
            if mine != game_value:
                raise _refuse(
                    _(
                        "%(where)s: the game's option %(option)s is %(game)s; the tournament's is "
                        "%(tournament)s."
                    ),
                    where=f"{where}.options",
                    option=option,
                    game=json.dumps(game_value),
                    tournament=json.dumps(mine),
                )
        self._players(table, g)
        players = sorted(g["players"], key=lambda p: p["seat"])
        events = g["events"]
        active = sorted((e for e in events if e["status"] == GameEvent.Status.ACTIVE), key=lambda e: e["seq"])
        record = {
            **recording.record_header(
                Game(variant=g["variant"], board=g["board"], options=g["options"]),
                [GamePlayer(seat=p["seat"], pid=p["pid"], name=p["name"], role=p["role"]) for p in players],
            ),
            "events": [e["data"] for e in active],
        }
        result, ledger = replay_ledger(record)
        if result.error is not None:
            message = error_text(result.exception)
            if result.error["index"] is None:
                raise _refuse(
                    _(
                        "%(where)s: the game of round %(round)s, table %(table)s is not a valid game record: "
                        "%(message)s"
                    ),
                    where=where,
                    round=r["number"],
                    table=table["number"],
                    message=message,
                )
            event = active[result.error["index"]]
            index = next(i for i, e in enumerate(events) if e is event)
            raise _refuse(
                _(
                    "%(where)s: move #%(seq)s of the game of round %(round)s, table %(table)s is illegal: "
                    "%(message)s"
                ),
                where=f"{where}.events[{index}]",
                seq=event["seq"],
                round=r["number"],
                table=table["number"],
                message=message,
            )
        state = result.state
        g["replayed"] = {
            "state": dump_state(state),
            "ledger": {pid: [ledger.income(pid), ledger.cost(pid)] for pid in ledger.players},
            "status": self._status(state),
        }
        return state

    def _players(self, table: dict, g: dict) -> None:
        """A table's game is played by the participants seated there, each once (``start_table_game``; a
        record imported at the table names them too, and after a game starts its seats are fixed)."""
        seated = set(table["seats"])
        playing = set()
        for p in g["players"]:
            if p["participant"] is None:
                raise _refuse(
                    _(
                        "%(where)s: a player of a tournament game is one of the participants seated at the "
                        "table."
                    ),
                    where=f"{p['where']}.participant",
                )
            if p["participant"] not in seated:
                raise _refuse(
                    _("%(where)s: participant %(id)s plays in the game but is not seated at this table."),
                    where=f"{p['where']}.participant",
                    id=p["participant"],
                )
            if p["participant"] in playing:
                raise _refuse(
                    _("%(where)s: participant %(id)s plays in the game twice."),
                    where=f"{p['where']}.participant",
                    id=p["participant"],
                )
            playing.add(p["participant"])
        for k, pid in enumerate(table["seats"]):
            if pid not in playing:
                raise _refuse(
                    _("%(where)s: participant %(id)s is seated at this table but does not play in its game."),
                    where=f"{table['where']}.seats[{k}]",
                    id=pid,
                )

    def _hand_result(self, table: dict, result: dict) -> None:
        """As ``interventions.enter_result`` makes it: one place and score per player of the table (the
        game's players once it started, else the seated participants), the points those of the places."""
        game = table["game"]
        if game is not None:
            players = [(p["participant"], p["name"], p["role"]) for p in sorted(game["players"], key=_seat)]
        else:
            players = [
                (pid, self.participants[pid]["name"], role)
                for pid, role in zip(table["seats"], table["roles"], strict=True)
            ]
        self._same_players(result, {pid for pid, _name, _role in players})
        places = {row["participant"]: (row["rank"], row["score"]) for row in result["ranking"]}
        try:
            expected = hand_rows(players, places, self.points)
        except RoundError as e:
            raise _refuse(
                _("%(where)s: %(message)s"), where=f"{result['where']}.ranking", message=e
            ) from None
        if _key(expected) != _key(result["ranking"]):
            raise _refuse(
                _("%(where)s: the points of a result entered by hand are not those of its places."),
                where=f"{result['where']}.ranking",
            )

    def _same_players(self, result: dict, players: set) -> None:
        listed = set()
        for i, row in enumerate(result["ranking"]):
            if row["participant"] not in players:
                raise _refuse(
                    _("%(where)s: participant %(id)s does not play at this table."),
                    where=f"{result['where']}.ranking[{i}].participant",
                    id="null" if row["participant"] is None else row["participant"],
                )
            listed.add(row["participant"])
        missing = sorted(players - listed)
        if missing:
            raise _refuse(
                _("%(where)s: participant %(id)s plays at this table but has no place in the result."),
                where=f"{result['where']}.ranking",
                id=missing[0],
            )

    def _game_result(self, table: dict, result: dict, state) -> None:
        """The confirmed result is what the game's record gives (``results.table_ranking``): the standings
        are those of the games."""
        if state is None:
            raise _refuse(
                _("%(where)s: the result is confirmed but the table has no game."), where=result["where"]
            )
        self._same_players(result, {p["participant"] for p in table["game"]["players"]})
        by_pid = {p["pid"]: p["participant"] for p in table["game"]["players"]}
        try:
            expected = game_ranking(state, by_pid, self.points)
        except RoundError:
            raise _refuse(
                _(
                    "%(where)s: the result is confirmed but the game record does not reach the end of the "
                    "game (is it cut short?)."
                ),
                where=result["where"],
            ) from None
        if _key(expected) != _key(result["ranking"]):
            raise _refuse(
                _("%(where)s: the confirmed result is not what the game record gives."),
                where=f"{result['where']}.ranking",
            )


def _seat(player: dict) -> int:
    return player["seat"]


def _key(rows: list[dict]) -> list[tuple]:
    return sorted((r["participant"], r["rank"], r["score"], r["points"]) for r in rows)


# -- storing -------------------------------------------------------------------------------------------------


def import_tournament(data: dict, *, created_users: list | None = None) -> Tournament:
    """Store a backup as a new tournament; all or nothing. Raises BackupError (nothing is stored).

    The whole file is checked first (``_read``: every value, the rules of the app over its parts, every game
    replayed); a refusal names the place in the file. Usernames that are not here become inactive accounts
    without a password (listed in ``created_users`` when a list is given), so that the history keeps its
    names.
    """
    backup = _read(data)
    board = stored_board_version(backup["tournament"]["board"])  # (None: a shipped board, never replaced)
    _Check(backup).run()  # the file as a whole, every game replayed
    _refuse_while_games_are_played()
    new_users: list = []
    try:
        with transaction.atomic():
            if hold_board(backup["tournament"]["board"]) != board:  # (held until stored: no replacement)
                raise BackupError(
                    _("The tournament's board was replaced meanwhile: import the backup again.")
                )
            tournament = _store(backup, new_users)
    except (IntegrityError, DataError) as e:  # not expected after the checks: a rule they do not know yet
        raise BackupError(_("The database refused the backup: %(error)s") % {"error": e}) from e
    if created_users is not None:
        created_users.extend(new_users)
    return tournament


def _refuse_while_games_are_played() -> None:
    """On SQLite, refuse while the tables enter moves: storing a big tournament holds the database's only
    write lock for seconds, and every move at the tables would wait for it (past the busy timeout: fail)."""
    minutes = settings.SQLITE_IMPORT_QUIET_MINUTES
    if connection.vendor != "sqlite" or minutes <= 0:
        return
    now = timezone.now()  # (a move "entered" in the future, by an earlier import, does not count)
    if GameEvent.objects.filter(entered_at__range=(now - timedelta(minutes=minutes), now)).exists():
        raise BackupError(
            _(
                "Moves were entered at the tables in the last %(n)s minutes. On SQLite, storing a backup "
                "holds the database while it lasts and the tables' moves would wait: import it when no game "
                "is being played (or serve the event with PostgreSQL, which imports beside the games)."
            )
            % {"n": minutes}
        )


class _Users:
    def __init__(self, created: list):
        self.model = get_user_model()
        self.cache: dict = {}
        self.created = created

    def __call__(self, username: str | None):
        if username is None:
            return None
        if username not in self.cache:
            user = self.model.objects.filter(username=username).first()
            if user is None:
                user = self.model.objects.create_user(username=username, password=None, is_active=False)
                self.created.append(user)
            self.cache[username] = user
        return self.cache[username]


def _store(backup: dict, created: list) -> Tournament:
    settings = backup["tournament"]
    if Tournament.objects.filter(name=settings["name"], date=settings["date"]).exists():
        raise BackupError(
            _("A tournament “%(name)s” of %(date)s is already here.")
            % {"name": settings["name"], "date": settings["date"].isoformat()}
        )
    user = _Users(created)
    directors = settings.pop("directors")
    tournament = Tournament(**{**settings, "created_by": user(settings["created_by"])})
    Tournament.objects.bulk_create([tournament])
    tournament.directors.set([user(name) for name in directors if name is not None])
    participant = {}
    for p in backup["participants"]:
        participant[p["id"]] = Participant(
            tournament=tournament, **{k: v for k, v in p.items() if k not in ("id", "where")}
        )
    Participant.objects.bulk_create(participant.values())

    def new_id(old: int | None) -> int | None:
        return None if old is None else participant[old].pk

    rounds = [
        Round(tournament=tournament, **{k: v for k, v in r.items() if k not in ("tables", "where")})
        for r in backup["rounds"]
    ]
    Round.objects.bulk_create(rounds)
    for round_, r in zip(rounds, backup["rounds"], strict=True):
        for t in r["tables"]:
            table = Table.objects.create(round=round_, number=t["number"])
            table.referees.set([user(name) for name in t["referees"]])
            Seat.objects.bulk_create(
                Seat(table=table, participant_id=new_id(pid), order=i, role=role)
                for i, (pid, role) in enumerate(zip(t["seats"], t["roles"], strict=True))
            )
            if t["game"] is not None:
                _store_game(table, t["game"], user, new_id)
            TableResult.objects.bulk_create(
                [
                    TableResult(
                        table=table,
                        ranking=[{**row, "participant": new_id(row["participant"])} for row in x["ranking"]],
                        status=x["status"],
                        confirmed_by=user(x["confirmed_by"]),
                        confirmed_at=x["confirmed_at"],
                        second_by=user(x["second_by"]),
                        second_at=x["second_at"],
                        reopened_by=user(x["reopened_by"]),
                        reopened_at=x["reopened_at"],
                        reason=x["reason"],
                        by_hand=x["by_hand"],
                        hand_reason=x["hand_reason"],
                    )
                    for x in t["results"]
                ]
            )
    AuditEntry.objects.bulk_create(
        [
            AuditEntry(
                tournament=tournament,
                **{k: v for k, v in a.items() if k not in ("participant", "user", "where")},
                participant_id=new_id(a["participant"]),
                user=user(a["user"]),
            )
            for a in backup["audit"]
        ]
    )
    return tournament


_GAME_FIELDS = (
    "name",
    "variant",
    "board",
    "options",
    "status",
    "created_at",
    "started_at",
    "finished_at",
    "version",
    "next_seq",
)
_EVENT_FIELDS = (
    "seq",
    "data",
    "status",
    "notes",
    "entered_at",
    "client_key",
    "changed_at",
    "reason",
    "change_key",
)


def _store_game(table: Table, g: dict, user, new_id) -> Game:
    game = Game(
        table=table,
        **{k: g[k] for k in _GAME_FIELDS},
        created_by=user(g["created_by"]),
    )
    Game.objects.bulk_create([game])
    game.referees.set([user(name) for name in g["referees"]])
    GamePlayer.objects.bulk_create(
        GamePlayer(
            game=game,
            seat=p["seat"],
            pid=p["pid"],
            name=p["name"],
            role=p["role"],
            participant_id=new_id(p["participant"]),
        )
        for p in g["players"]
    )
    GameEvent.objects.bulk_create(
        [
            GameEvent(
                game=game,
                **{k: e[k] for k in _EVENT_FIELDS},
                entered_by=user(e["entered_by"]),
                changed_by=user(e["changed_by"]),
            )
            for e in g["events"]
        ]
    )
    game.state, game.ledger = g["replayed"]["state"], g["replayed"]["ledger"]  # the replay of ``_Check``
    changes = len(g["events"]) + sum(1 for e in g["events"] if e["status"] != GameEvent.Status.ACTIVE)
    game.version = max(game.version, changes)
    game.next_seq = max([game.next_seq] + [e["seq"] + 1 for e in g["events"]])
    game.save(update_fields=["state", "ledger", "version", "next_seq"])
    return game
