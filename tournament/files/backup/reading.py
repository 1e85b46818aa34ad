"""Reading a backup file: its text made data (``read_backup``, ``read_backup_file``: refused if not JSON or
too large), then each value checked where it is (``read_values``: type, bounds, lengths, references to the
file's own participants), a refusal naming the place in the file (``rounds[0].tables[2].game``). The
tournament's settings are read as ``tournament.models.tournaments.SETTINGS`` and their fields say; a table,
its game and results in ``reading_tables``; the checks every value goes through in ``values``."""

from __future__ import annotations

import json
import os
import re
import stat

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext as _

from rules import available_boards
from rules.standings import MAX_PLACEMENT_POINTS, TIE_BREAKS
from rules.trade_flags import KEY_PATTERN
from rules.variants import previous_rules
from tournament.files.backup.format import BackupError
from tournament.files.backup.reading_tables import read_table
from tournament.files.backup.values import (
    Node,
    Participants,
    check_format,
    check_storable,
    max_length,
    unique,
)
from tournament.models import (
    AuditEntry,
    CheckIn,
    Participant,
    Player,
    Round,
    Tournament,
    TradeFlagReview,
)
from tournament.models.bounds import INTEGER_MAX, field_maximum
from tournament.models.tournaments import ALWAYS, LINK_KEY_LENGTH, SETTINGS, new_link_key
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


def _setting(n: Node, key: str):
    """One of the tournament's settings (``SETTINGS``), read as its field says: a setting the file does not
    have takes what tournaments had before it existed."""
    if key not in n.value and SETTINGS[key] is not ALWAYS:
        return SETTINGS[key]
    if key in _READ_AS:
        return _READ_AS[key](n)
    field = Tournament._meta.get_field(key)
    if isinstance(field, models.BooleanField):
        return n.bool(key)
    if isinstance(field, models.DateField):
        return n.date(key)
    if isinstance(field, models.IntegerField):
        minimum = max([0, *(v.limit_value for v in field.validators if isinstance(v, MinValueValidator))])
        return n.int(key, null=field.null, minimum=minimum, maximum=field_maximum(Tournament, key))
    if field.choices:
        return n.choice(key, [c for c, _label in field.choices])
    if isinstance(field, models.CharField):
        return n.text(key, blank=field.blank, max_length=field.max_length)
    raise TypeError(f"the setting {key}: a field without a reader (_READ_AS)")


def _placement_points(n: Node) -> list[int]:
    points = Node(n.json_list("placement_points"), n.path("placement_points"))
    return [points.int(i, maximum=MAX_PLACEMENT_POINTS) for i in range(len(points.value))]


def _tie_breaks(n: Node) -> list[str]:
    tie_breaks = Node(n.json_list("tie_breaks"), n.path("tie_breaks"))
    return [tie_breaks.choice(i, TIE_BREAKS) for i in range(len(tie_breaks.value))]


#: The settings read otherwise than their field says: a board is a shipped one (an uploaded edition comes
#: with the file's games, as a shipped board's name), a table seats 2 or more (``Check`` holds the rest), the
#: lists item by item.
_READ_AS = {
    "board": lambda n: n.choice("board", available_boards()),
    "table_size": lambda n: n.int("table_size", minimum=2, maximum=field_maximum(Tournament, "table_size")),
    "placement_points": _placement_points,
    "tie_breaks": _tie_breaks,
}


def _read_tournament(n: Node) -> dict:
    settings_ = {
        **{key: _setting(n, key) for key in SETTINGS},
        "created_by": n.username("created_by"),
        "created_at": n.datetime("created_at"),
        # a backup made before the co-directors: its creator directs it
        "directors": n.usernames("directors") if "directors" in n.value else [n.username("created_by")],
    }
    if not settings_["placement_points"]:
        raise BackupError(_("%(where)s must not be empty.") % {"where": n.path("placement_points")})
    unique(n.path("tie_breaks"), settings_["tie_breaks"])
    return settings_


def _link_key(n: Node) -> str | None:
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


def _player(n: Node) -> dict | None:
    """The league's player a participant was (a backup made before the league has none)."""
    p = n.node("player", null=True) if "player" in n.value else None
    if p is None:
        return None
    return {
        "id": p.int("id", minimum=1, maximum=INTEGER_MAX),
        "name": p.text("name", blank=False, max_length=max_length(Player, "name")),
        "club": p.text("club", max_length=max_length(Player, "club")),
    }


def _read_participants(nodes: list[Node]) -> list[dict]:
    out = [
        {
            "id": n.int("id", minimum=-INTEGER_MAX, maximum=INTEGER_MAX),
            "name": n.text("name", blank=False, max_length=max_length(Participant, "name")),
            "club": n.text("club", max_length=max_length(Participant, "club")),
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
    unique("participants", (p["id"] for p in out))
    unique("participants' players", (p["player"]["id"] for p in out if p["player"]))
    unique("participants", (p["link_key"] for p in out if p["link_key"]))
    # as the database: in any case; namesakes are told apart by their clubs
    shown = (f"{p['name']} ({p['club']})" if p["club"] else p["name"] for p in out)
    unique("participants", shown, key=str.lower)
    return out


def _read_audit(n: Node, participants: Participants) -> dict:
    return {
        "round_number": n.int(
            "round", null=True, minimum=1, maximum=field_maximum(AuditEntry, "round_number")
        ),
        "table_number": n.int(
            "table", null=True, minimum=1, maximum=field_maximum(AuditEntry, "table_number")
        ),
        "participant": participants.ref(n, "participant", null=True),
        "action": n.choice("action", AuditEntry.Action.values),
        "reason": n.text("reason", max_length=max_length(AuditEntry, "reason"), blank=False),
        "details": n.json_object("details"),
        "user": n.username("user"),
        "at": n.datetime("at"),
        "where": n.where,
    }


def _read_round(n: Node, participants: Participants) -> dict:
    tables = [read_table(t, participants) for t in n.nodes("tables")]
    unique(n.path("tables"), (t["number"] for t in tables))
    return {
        "number": n.int("number", minimum=1, maximum=field_maximum(Round, "number")),
        "status": n.choice("status", Round.Status.values),
        "seed": n.int("seed", maximum=field_maximum(Round, "seed")),
        "created_at": n.datetime("created_at"),
        "started_at": n.datetime("started_at", null=True),
        "tables": tables,
        "where": n.where,
    }


def _read_check_in(n: Node, participants: Participants) -> dict:
    return {
        "participant": participants.ref(n, "participant"),
        "round_number": n.int("round", minimum=1, maximum=field_maximum(CheckIn, "round_number")),
        "via": n.choice("via", CheckIn.Via.values),
        "by": n.username("by"),
        "at": n.datetime("at"),
        "where": n.where,
    }


def _read_check_ins(root: Node, participants: Participants) -> list[dict]:
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


def _read_trade_flag_review(n: Node, participants: Participants) -> dict:
    """A flagged trade's review: its key as the flags make it (a pair's participants among the backup's)."""
    key = n.text("key", max_length=max_length(TradeFlagReview, "key"), blank=False)
    found = re.fullmatch(KEY_PATTERN, key)
    if found is None:
        raise BackupError(
            _("%(where)s: %(value)s is no flagged trade's key.") % {"where": n.path("key"), "value": key}
        )
    for ref in found.groups()[1:]:
        if ref is not None and int(ref) not in participants.ids:
            raise BackupError(
                _("%(where)s: there is no participant %(id)s among the backup's participants.")
                % {"where": n.path("key"), "id": ref}
            )
    return {
        "key": key,
        "note": n.text("note", max_length=max_length(TradeFlagReview, "note")),
        "seen_by": n.username("seen_by"),
        "at": n.datetime("at"),
        "where": n.where,
    }


def _read_trade_flag_reviews(root: Node, participants: Participants) -> list[dict]:
    """The director's reviews of flagged trades (a backup made before them has none), once a key."""
    if "trade_flag_reviews" not in root.value:
        return []
    reviews = [_read_trade_flag_review(r, participants) for r in root.nodes("trade_flag_reviews")]
    unique("trade_flag_reviews", (r["key"] for r in reviews))
    return reviews


def read_values(data) -> dict:
    """The file's data read, each value checked where it is: what ``_store`` stores once ``Check`` passed,
    or BackupError naming the first place in the file that is wrong."""
    root = check_format(data)
    check_storable(data)
    participants = _read_participants(root.nodes("participants"))
    refs = Participants(participants)
    backup = {
        "tournament": _read_tournament(root.node("tournament")),
        "participants": participants,
        "rounds": [_read_round(r, refs) for r in root.nodes("rounds")],
        "audit": [_read_audit(a, refs) for a in root.nodes("audit")] if "audit" in root.value else [],
        "check_ins": _read_check_ins(root, refs),
        "trade_flag_reviews": _read_trade_flag_reviews(root, refs),
    }
    unique("rounds", (r["number"] for r in backup["rounds"]))
    older = previous_rules(data.get("rules"))  # made before the engine's newer decisions: its games keep
    if older:  # their rules
        for r in backup["rounds"]:
            for t in r["tables"]:
                if t["game"] is not None:
                    t["game"]["options"] = {**older, **t["game"]["options"]}
    return backup
