"""Reading a backup file: its text made data (``read_backup``, ``read_backup_file``: refused if not JSON or
too large), then each value checked where it is (``read_values``: type, bounds, lengths, references to the
file's own participants), a refusal naming the place in the file (``rounds[0].tables[2].game``)."""

from __future__ import annotations

import json
import os
import re
import stat
from datetime import date, datetime
from string import Formatter

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _

from rules import available_boards, available_variants
from rules.standings import MAX_PLACEMENT_POINTS, TIE_BREAKS
from rules.variants import previous_rules
from tournament.files.backup.format import FORMAT, BackupError
from tournament.models import (
    AuditEntry,
    CheckIn,
    Game,
    GameEvent,
    GamePlayer,
    Participant,
    Player,
    Round,
    Seat,
    Signature,
    Table,
    TableResult,
    Tournament,
)
from tournament.models.bounds import INTEGER_MAX, SMALL_MAX, field_maximum
from tournament.models.tournaments import LINK_KEY_LENGTH, new_link_key
from tournament.people.participant_links import KEY_SHAPE
from tournament.server.uploads import NotJSON, load_json


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


#: What no database stores in a text: NUL (PostgreSQL) and lone surrogates (no encoding).
UNSTORABLE = re.compile(r"[\x00\ud800-\udfff]")


#: The years a date of a backup may fall in (a tournament, a move, a confirmation).
YEARS = (1900, 2200)


def _years() -> dict:
    return {"first": YEARS[0], "last": YEARS[1]}


def _max_length(model, field: str) -> int:
    return model._meta.get_field(field).max_length


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
        "check_in": n.bool("check_in") if "check_in" in n.value else False,  # made before check-in existed
        "signatures_required": n.bool("signatures_required") if "signatures_required" in n.value else False,
        "links_on_sheets": n.bool("links_on_sheets") if "links_on_sheets" in n.value else False,
        # a backup made before the ratings: its round 1 was seated without them
        "seed_by_rating": n.bool("seed_by_rating") if "seed_by_rating" in n.value else False,
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


def _link_key(n: _Node) -> str | None:
    """His private link's key, kept so that his printed slip still opens his page (null: revoked); a backup
    made before the links gives him a new one."""
    if "link_key" not in n.value:
        return new_link_key()
    key = n.text("link_key", null=True)
    if key is not None and not KEY_SHAPE.match(key):
        raise BackupError(
            _("%(where)s must be a private link's key (%(n)s letters, digits, - or _) or null.")
            % {"where": n.path("link_key"), "n": LINK_KEY_LENGTH}
        )
    return key


def _player(n: _Node) -> dict | None:
    """The league's player a participant was (a backup made before the league has none)."""
    p = n.node("player", null=True) if "player" in n.value else None
    if p is None:
        return None
    return {
        "id": p.int("id", minimum=1, maximum=INTEGER_MAX),
        "name": p.text("name", blank=False, max_length=_max_length(Player, "name")),
        "club": p.text("club", max_length=_max_length(Player, "club")),
    }


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
            "link_key": _link_key(n),
            "player": _player(n),
            "where": n.where,
        }
        for n in nodes
    ]
    _unique("participants", (p["id"] for p in out))
    _unique("participants' players", (p["player"]["id"] for p in out if p["player"]))
    _unique("participants", (p["link_key"] for p in out if p["link_key"]))
    # as the database: in any case; namesakes are told apart by their clubs
    shown = (f"{p['name']} ({p['club']})" if p["club"] else p["name"] for p in out)
    _unique("participants", shown, key=str.lower)
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


#: A signature's word, as the file says it (and the participant's page posts it).
VERDICTS = ("agree", "dispute")


def _read_signature(n: _Node, participants: _Participants) -> dict:
    """A player's signature of his table's figures, kept as it was made (``signatures.sign``): a dispute says
    why; the link it came from only as its mark (``signatures.link_mark``)."""
    participant = participants.ref(n, "participant")
    verdict = n.choice("verdict", VERDICTS)
    return {
        "participant": participant,
        "agrees": verdict == "agree",
        "reason": n.text("reason", max_length=_max_length(Signature, "reason"), blank=verdict == "agree"),
        "game_version": n.int("game_version", maximum=field_maximum(Signature, "game_version")),
        "at": n.datetime("at"),
        "link_key": n.text("link_mark", max_length=_max_length(Signature, "link_key")),
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
        "signatures": (  # a backup made before the signatures has none
            [_read_signature(s, participants) for s in n.nodes("signatures")]
            if "signatures" in n.value
            else []
        ),
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


def _read_check_in(n: _Node, participants: _Participants) -> dict:
    return {
        "participant": participants.ref(n, "participant"),
        "round_number": n.int("round", minimum=1, maximum=field_maximum(CheckIn, "round_number")),
        "via": n.choice("via", CheckIn.Via.values),
        "by": n.username("by"),
        "at": n.datetime("at"),
        "where": n.where,
    }


def _read_check_ins(root: _Node, participants: _Participants) -> list[dict]:
    """Who checked in for which round (a backup made before the check-in has none): once a round, as the
    database holds them."""
    if "check_ins" not in root.value:
        return []
    check_ins = [_read_check_in(c, participants) for c in root.nodes("check_ins")]
    seen = set()
    for c in check_ins:
        key = (c["participant"], c["round_number"])
        if key in seen:
            value = json.dumps({"participant": c["participant"], "round": c["round_number"]})
            twice = _("%(where)s: %(value)s appears twice.")
            raise BackupError(twice % {"where": c["where"], "value": value})
        seen.add(key)
    return check_ins


def read_values(data) -> dict:
    """The file's data read, each value checked where it is: what ``_store`` stores once ``Check`` passed,
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
        "check_ins": _read_check_ins(root, refs),
    }
    _unique("rounds", (r["number"] for r in backup["rounds"]))
    older = previous_rules(data.get("rules"))  # made before the engine's newer decisions: its games keep
    if older:  # their rules
        for r in backup["rounds"]:
            for t in r["tables"]:
                if t["game"] is not None:
                    t["game"]["options"] = {**older, **t["game"]["options"]}
    return backup
