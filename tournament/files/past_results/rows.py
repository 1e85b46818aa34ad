"""One row of a past results' file read: the columns its header row names (in English or Polish), each cell
checked (a name, a whole number, a date), and the error that lists every problem by line."""

from __future__ import annotations

import contextlib
import datetime
import re
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.models import PastEvent
from tournament.models.bounds import EARLIEST_EVENT_DATE, SMALL_MAX
from tournament.models.games import NAME_LENGTH
from tournament.server.uploads import NOT_ALLOWED, echo

EVENT_NAME_LENGTH = PastEvent._meta.get_field("name").max_length


TOURNAMENT, DATE, ROUND, TABLE, PLACE, PLAYER, CLUB = (
    "tournament",
    "date",
    "round",
    "table",
    "place",
    "player",
    "club",
)
REQUIRED = (TOURNAMENT, DATE, ROUND, TABLE, PLACE, PLAYER)
#: The names a column may have in the first row (compared casefolded, spaces trimmed).
HEADERS = {
    TOURNAMENT: {"tournament", "event", "tournament name", "turniej", "nazwa turnieju", "zawody"},
    DATE: {"date", "data", "data turnieju"},
    ROUND: {"round", "runda"},
    TABLE: {"table", "stół", "stol", "stolik"},
    PLACE: {"place", "rank", "position", "miejsce", "lokata"},
    PLAYER: {
        "player",
        "name",
        "participant",
        "gracz",
        "nazwisko",
        "imię i nazwisko",
        "imie i nazwisko",
        "zawodnik",
        "uczestnik",
    },
    CLUB: {"club", "school", "club/school", "club / school", "klub", "szkoła", "szkola", "klub/szkoła"},
}


_WHOLE = re.compile(r"[0-9]{1,9}")
_ISO_DATE = re.compile(r"([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})")
_DOTTED_DATE = re.compile(r"([0-9]{1,2})\.([0-9]{1,2})\.([0-9]{4})")


def compared_name(text: str) -> str:
    """A name as compared (a tournament's, a player's): "Anna  Nowak " and "anna nowak" are one."""
    return " ".join(text.split()).casefold()


def _label(column: str) -> str:
    """A column's name as the messages say it, in the user's language."""
    return {
        TOURNAMENT: _("Tournament"),
        DATE: _("Date"),
        ROUND: _("Round"),
        TABLE: _("Table"),
        PLACE: _("Place"),
        PLAYER: _("Player"),
        CLUB: _("Club"),
    }[column]


class PastResultsError(Exception):
    def __init__(self, problems: list[tuple[int | None, str]]):
        super().__init__("; ".join(f"{line}: {msg}" for line, msg in problems))
        self.problems = problems  # (line number or None for the whole file, reason), as problem_lines lists


@dataclass(frozen=True)
class PastRow:
    """One player's place at one table of one round, as the file gives it."""

    line: int
    tournament: str
    date: datetime.date
    round: int
    table: int
    place: int
    player: str
    club: str = ""


def cell_text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime.datetime) and value.time() == datetime.time():
        return value.date().isoformat()
    return str(value)


def header_columns(line: int, cells: Sequence) -> dict[str, int]:
    """The columns the header row names, or PastResultsError."""
    found: dict[str, int] = {}
    problems = []
    for i, value in enumerate(cells):
        header = " ".join(cell_text(value).split()).casefold()
        for key, names in HEADERS.items():
            if header in names:
                if key in found:
                    problems.append(
                        (
                            line,
                            _("Columns %(a)s and %(b)s are both the column %(column)s: keep one.")
                            % {"a": found[key] + 1, "b": i + 1, "column": _label(key)},
                        )
                    )
                else:
                    found[key] = i
    missing = [k for k in REQUIRED if k not in found]
    if missing:
        problems.append(
            (
                line,
                _(
                    "The first row must name the columns %(columns)s and, if you like, %(club)s, in any "
                    "order: %(missing)s not found."
                )
                % {
                    "columns": ", ".join(_label(k) for k in REQUIRED),
                    "club": _label(CLUB),
                    "missing": ", ".join(_label(k) for k in missing),
                },
            )
        )
    if problems:
        raise PastResultsError(problems)
    return found


def _whole(key: str, value) -> int:
    """A round, table or place: a whole number from 1 to SMALL_MAX, or ValueError with the message."""
    text = cell_text(value).strip()
    if not text:
        raise ValueError(_("%(column)s is missing") % {"column": _label(key)})
    if isinstance(value, bool) or not _WHOLE.fullmatch(text) or not 1 <= int(text) <= SMALL_MAX:
        raise ValueError(
            _("%(column)s must be a whole number from 1 to %(max)s, not “%(value)s”")
            % {"column": _label(key), "max": SMALL_MAX, "value": echo(text)}
        )
    return int(text)


def _date(value) -> datetime.date:
    """A date: an Excel date, or text YYYY-MM-DD or DD.MM.YYYY; ValueError with the message."""
    if isinstance(value, datetime.datetime):
        day = value.date()
    elif isinstance(value, datetime.date):
        day = value
    else:
        text = cell_text(value).strip()
        if not text:
            raise ValueError(_("%(column)s is missing") % {"column": _label(DATE)})
        day = None
        iso, dotted = _ISO_DATE.fullmatch(text), _DOTTED_DATE.fullmatch(text)
        with contextlib.suppress(ValueError):
            if iso:
                day = datetime.date(int(iso[1]), int(iso[2]), int(iso[3]))
            elif dotted:
                day = datetime.date(int(dotted[3]), int(dotted[2]), int(dotted[1]))
        if day is None:
            raise ValueError(
                _("the date must be YYYY-MM-DD or DD.MM.YYYY (or an Excel date), not “%(value)s”")
                % {"value": echo(text)}
            )
    if day > timezone.localdate():
        raise ValueError(
            _("the date %(date)s is in the future: only past results are imported")
            % {"date": day.isoformat()}
        )
    if day < EARLIEST_EVENT_DATE:
        raise ValueError(
            _("the date %(date)s is before %(first)s, Monopoly's first edition")
            % {"date": day.isoformat(), "first": EARLIEST_EVENT_DATE.isoformat()}
        )
    return day


def read_row(line: int, cells: Sequence, columns: dict[str, int]) -> PastRow:
    """One row, or ValueError with its first problem."""

    def cell(key):
        index = columns.get(key)
        return cells[index] if index is not None and index < len(cells) else None

    texts = {}
    for key in (TOURNAMENT, PLAYER, CLUB):
        text = cell_text(cell(key))
        if NOT_ALLOWED.search(text):
            raise ValueError(
                _(
                    "%(column)s contains a character that is not allowed "
                    "(a control character such as NUL, a tab or a line break)"
                )
                % {"column": _label(key)}
            )
        texts[key] = " ".join(text.split())
    for key in (TOURNAMENT, PLAYER):
        if not texts[key]:
            raise ValueError(_("%(column)s is missing") % {"column": _label(key)})
    if len(texts[TOURNAMENT]) > EVENT_NAME_LENGTH:
        raise ValueError(
            _("the tournament's name is longer than %(max)s characters") % {"max": EVENT_NAME_LENGTH}
        )
    if len(texts[PLAYER]) > NAME_LENGTH or len(texts[CLUB]) > NAME_LENGTH:
        raise ValueError(_("a name or club is longer than %(max)s characters") % {"max": NAME_LENGTH})
    return PastRow(
        line=line,
        tournament=texts[TOURNAMENT],
        date=_date(cell(DATE)),
        round=_whole(ROUND, cell(ROUND)),
        table=_whole(TABLE, cell(TABLE)),
        place=_whole(PLACE, cell(PLACE)),
        player=texts[PLAYER],
        club=texts[CLUB],
    )
