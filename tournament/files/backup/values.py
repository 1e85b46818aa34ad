"""The values of a backup file, each read where it is and checked (``Node``: type, bounds, lengths, a refusal
naming the place in the file, ``rounds[0].tables[2].game``), what no database stores, a value given twice,
references to the file's own participants, the engine's notes: what the readers of the file's parts
(``reading``, ``reading_tables``) are made of."""

from __future__ import annotations

import json
import re
from datetime import date, datetime
from string import Formatter

from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _

from tournament.files.backup.format import FORMAT, BackupError
from tournament.models.bounds import INTEGER_MAX

#: What no database stores in a text: NUL (PostgreSQL) and lone surrogates (no encoding).
UNSTORABLE = re.compile(r"[\x00\ud800-\udfff]")


#: The years a date of a backup may fall in (a tournament, a move, a confirmation).
YEARS = (1900, 2200)


def _years() -> dict:
    return {"first": YEARS[0], "last": YEARS[1]}


def max_length(model, field: str) -> int:
    return model._meta.get_field(field).max_length


class Node:
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

    def node(self, key, *, null=False) -> Node | None:
        value = self.raw(key)
        if value is None and null:
            return None
        if not isinstance(value, dict):
            raise self._wrong(key, _("an object"), null)
        return Node(value, self.path(key))

    def nodes(self, key) -> list[Node]:
        items = self.json_list(key)
        where = Node(items, self.path(key))
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                raise where._wrong(i, _("an object"), False)
        return [Node(item, where.path(i)) for i, item in enumerate(items)]

    def username(self, key, *, null=True) -> str | None:
        return self.text(key, null=null, blank=False, max_length=max_length(get_user_model(), "username"))

    def usernames(self, key) -> list[str]:
        items = Node(self.json_list(key), self.path(key))
        return [items.username(i, null=False) for i in range(len(items.value))]


def unique(where: str, values, key=None) -> None:
    seen = set()
    for value in values:
        k = value if key is None else key(value)
        if k in seen:
            raise BackupError(_("%(where)s: %(value)s appears twice.") % {"where": where, "value": value})
        seen.add(k)


def check_storable(data) -> None:
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
            stack.append((Node(value, where).path(key), item))


def check_format(data) -> Node:
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
    return Node(data, "")


class Participants:
    """The backup's participant ids, checked where they are referred to."""

    def __init__(self, participants: list[dict]):
        self.ids = {p["id"] for p in participants}

    def ref(self, n: Node, key, *, null=False) -> int | None:
        value = n.int(key, null=null, minimum=-INTEGER_MAX, maximum=INTEGER_MAX)
        if value is not None and value not in self.ids:
            raise BackupError(
                _("%(where)s: there is no participant %(id)s among the backup's participants.")
                % {"where": n.path(key), "id": value}
            )
        return value


def is_message(value, depth: int = 0) -> bool:
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
    return all(is_message(v, depth + 1) if isinstance(v, dict) else _plain(v) for v in params.values())


def _plain(value) -> bool:
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    return value is None or isinstance(value, str | int | float | bool)
