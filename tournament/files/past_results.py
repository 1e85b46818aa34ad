"""Past results imported to start the ratings: a workbook (or CSV) of past tournaments' table rankings.

One row is one player's place at one table of one round of one tournament. The first row (the first that is
not blank) names the columns, in any order, in English or Polish: Tournament/Turniej, Date/Data, Round/Runda,
Table/Stół, Place/Miejsce, Player/Gracz (or Name/Nazwisko) and optionally Club/Klub. A date is an Excel date
or text, YYYY-MM-DD or DD.MM.YYYY.

Everything is checked before anything is stored, and every problem is reported with its line: a value
missing or not allowed, a tournament with two dates, a player twice in one round or with two clubs in one
tournament, a table of one player or a place beyond its players, a tournament already imported. A clean file
is stored in one short transaction: the past tournaments (``PastEvent``), a ``PastEntrant`` per name and
tournament and a ``PastPlacement`` per row. No entrant is linked to a player: the director confirms who is
who next (tournament.ratings.identities), which rebuilds the ratings; the import asks for a rebuild too,
from its earliest tournament.

The rows are read by the participants' readers (tournament/files/participants_import.py): a file over
``settings.UPLOAD_MAX_BYTES`` or a workbook unpacking to more than ``MAX_UNPACKED_BYTES`` is refused before it
is read, and reading stops after ``MAX_ROWS`` rows.
"""

from __future__ import annotations

import contextlib
import datetime
import io
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from rules.seating import club_key
from tournament import collation
from tournament.files.participants_import import (
    ParticipantFileError,
    numbered,
    rows_from_csv,
    rows_from_xlsx,
)
from tournament.models import HeldFile, PastEntrant, PastEvent, PastPlacement
from tournament.models.bounds import EARLIEST_EVENT_DATE, SMALL_MAX
from tournament.models.bulk import Rows, insert
from tournament.models.games import NAME_LENGTH
from tournament.ratings import triggers
from tournament.ratings.rebuild import Point
from tournament.server.uploads import (
    MAX_UNPACKED_BYTES,
    NOT_ALLOWED,
    echo,
    megabytes,
    too_large_message,
)

MAX_ROWS = 100_000  # rows read from a file, blank ones and the headers included; a longer file is refused
EVENT_NAME_LENGTH = PastEvent._meta.get_field("name").max_length
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

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
#: The template's headers (and example rows), in English or Polish as the page is.
TEMPLATE_HEADERS = {
    "en": ["Tournament", "Date", "Round", "Table", "Place", "Player", "Club"],
    "pl": ["Turniej", "Data", "Runda", "Stolik", "Miejsce", "Gracz", "Klub"],
}

_WHOLE = re.compile(r"[0-9]{1,9}")
_ISO_DATE = re.compile(r"([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})")
_DOTTED_DATE = re.compile(r"([0-9]{1,2})\.([0-9]{1,2})\.([0-9]{4})")


def _key(text: str) -> str:
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


@dataclass
class PastEventRows:
    """One tournament of the file: its name and date as first spelt, its rows, each entrant's name (first
    spelling) and club by name key."""

    name: str
    date: datetime.date
    line: int  # its first row
    rows: list[PastRow] = field(default_factory=list)
    entrants: dict[str, tuple[str, str]] = field(default_factory=dict)

    @property
    def tables(self) -> int:
        return len({(r.round, r.table) for r in self.rows})


@dataclass
class Imported:
    events: list[PastEvent]
    tables: int
    placements: int


# -- reading ---------------------------------------------------------------------------------------------


def _too_large() -> str:
    return _(
        "The workbook unpacks to more than %(size)s MB: split the results into smaller workbooks, or save "
        "them as CSV."
    ) % {"size": megabytes(MAX_UNPACKED_BYTES)}


def _text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime.datetime) and value.time() == datetime.time():
        return value.date().isoformat()
    return str(value)


def read_past_results(filename: str, data: bytes) -> list[PastEventRows]:
    """The file's tournaments with their rows, or PastResultsError listing every problem by line (those of
    the database, a tournament already imported, are ``import_past_results``'s)."""
    if len(data) > settings.UPLOAD_MAX_BYTES:
        raise PastResultsError([(None, too_large_message())])
    lower = filename.lower()
    if lower.endswith(".xlsx"):
        raw = rows_from_xlsx(data, cell=None, too_large=_too_large)
    elif lower.endswith((".csv", ".txt")):
        raw = rows_from_csv(data)
    else:
        raise PastResultsError([(None, _("Upload an Excel (.xlsx) or CSV file."))])
    try:
        with contextlib.closing(raw):  # an unfinished workbook is closed
            return _events(numbered(raw, MAX_ROWS))
    except ParticipantFileError as e:  # the readers' problems: the file cannot be read, or is too long
        raise PastResultsError(e.problems) from None


def _columns(line: int, cells: Sequence) -> dict[str, int]:
    """The columns the header row names, or PastResultsError."""
    found: dict[str, int] = {}
    problems = []
    for i, value in enumerate(cells):
        header = " ".join(_text(value).split()).casefold()
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
    text = _text(value).strip()
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
        text = _text(value).strip()
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


def _row(line: int, cells: Sequence, columns: dict[str, int]) -> PastRow:
    """One row, or ValueError with its first problem."""

    def cell(key):
        index = columns.get(key)
        return cells[index] if index is not None and index < len(cells) else None

    texts = {}
    for key in (TOURNAMENT, PLAYER, CLUB):
        text = _text(cell(key))
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


def _events(lines: Iterator[tuple[int, Sequence]]) -> list[PastEventRows]:
    columns = None
    problems: list[tuple[int | None, str]] = []
    events: dict[str, PastEventRows] = {}  # by the tournament's name as compared
    in_round: dict[tuple[str, int, str], int] = {}  # (event, round, player) → line
    clubs: dict[tuple[str, str], tuple[str, int]] = {}  # (event, player) → (club, line), the first given
    for line, cells in lines:
        if not any(_text(c).strip() for c in cells):
            continue
        if columns is None:
            columns = _columns(line, cells)
            continue
        try:
            row = _row(line, cells, columns)
        except ValueError as e:
            problems.append((line, str(e)))
            continue
        event_key, player_key = _key(row.tournament), _key(row.player)
        event = events.setdefault(event_key, PastEventRows(row.tournament, row.date, line))
        if event.date != row.date:
            problems.append(
                (
                    line,
                    _(
                        "%(tournament)s is dated %(date)s on line %(line)s: one tournament has one date "
                        "(give two tournaments two names)"
                    )
                    % {"tournament": event.name, "date": event.date.isoformat(), "line": event.line},
                )
            )
            continue
        seen = in_round.get((event_key, row.round, player_key))
        if seen is not None:
            problems.append(
                (
                    line,
                    _("%(name)s already has a place in round %(round)s of %(tournament)s, on line %(line)s")
                    % {"name": row.player, "round": row.round, "tournament": event.name, "line": seen},
                )
            )
            continue
        if row.club:
            club, club_line = clubs.setdefault((event_key, player_key), (row.club, line))
            if club_key(club) != club_key(row.club):
                problems.append(
                    (
                        line,
                        _(
                            "%(name)s plays for %(club)s on line %(line)s: one club for a player in a "
                            "tournament"
                        )
                        % {"name": row.player, "club": club, "line": club_line},
                    )
                )
                continue
        in_round[(event_key, row.round, player_key)] = line
        event.rows.append(row)
        event.entrants.setdefault(player_key, (row.player, ""))
    if columns is None:
        raise PastResultsError([(None, _("The file lists no results."))])
    for (event_key, player_key), (club, _line) in clubs.items():
        event = events[event_key]
        if player_key in event.entrants:
            event.entrants[player_key] = (event.entrants[player_key][0], club)
    for event in events.values():
        problems += _table_problems(event)
    if not problems and not any(e.rows for e in events.values()):
        problems.append((None, _("The file lists no results.")))
    if problems:
        raise PastResultsError(sorted(problems, key=lambda p: p[0] or 0))
    return sorted(events.values(), key=lambda e: (e.date, e.line))


def _table_problems(event: PastEventRows) -> list[tuple[int, str]]:
    """A table of one player, and a place beyond a table's players."""
    tables: dict[tuple[int, int], list[PastRow]] = {}
    for row in event.rows:
        tables.setdefault((row.round, row.table), []).append(row)
    problems = []
    for (round_number, table), rows in tables.items():
        n = len(rows)
        if n < 2:
            problems.append(
                (
                    rows[0].line,
                    _("table %(table)s of round %(round)s of %(tournament)s has only one player")
                    % {"table": table, "round": round_number, "tournament": event.name},
                )
            )
            continue
        for row in rows:
            if row.place > n:
                problems.append(
                    (
                        row.line,
                        ngettext(
                            "place %(place)s at table %(table)s of round %(round)s, which has %(n)s player",
                            "place %(place)s at table %(table)s of round %(round)s, which has %(n)s players",
                            n,
                        )
                        % {"place": row.place, "table": table, "round": round_number, "n": n},
                    )
                )
    return problems


@dataclass(frozen=True)
class Preview:
    """What the director checks before a file is stored: its tournaments and every name in it (first
    spelling, with a club, and in how many of its tournaments), in the order of the names."""

    events: list[PastEventRows]
    names: list[tuple[str, str, int]]

    @property
    def rows(self) -> int:
        return sum(len(e.rows) for e in self.events)


def preview(events: list[PastEventRows]) -> Preview:
    seen: dict[str, list] = {}
    for e in events:
        for key, (name, club) in e.entrants.items():
            entry = seen.setdefault(key, [name, club, 0])
            entry[1] = entry[1] or club
            entry[2] += 1
    names = sorted(((n, c, k) for n, c, k in seen.values()), key=lambda entry: collation.name_key(entry[0]))
    return Preview(events, names)


# -- storing ---------------------------------------------------------------------------------------------


def _already_imported(events: list[PastEventRows]) -> list[tuple[int | None, str]]:
    """The file's tournaments imported before (the same name, as compared, and date)."""
    stored = {
        (_key(name), date)
        for name, date in PastEvent.objects.filter(date__in={e.date for e in events}).values_list(
            "name", "date"
        )
    }
    return [
        (
            e.line,
            _("%(tournament)s of %(date)s is already imported: delete it first to import it again")
            % {"tournament": e.name, "date": e.date.isoformat()},
        )
        for e in events
        if (_key(e.name), e.date) in stored
    ]


def check_past_results(filename: str, data: bytes) -> list[PastEventRows]:
    """The file's tournaments, read and checked as they would be imported (none imported before), or
    PastResultsError listing every problem by line."""
    events = read_past_results(filename, data)
    problems = _already_imported(events)
    if problems:
        raise PastResultsError(problems)
    return events


def import_past_results(filename: str, data: bytes, user, held: HeldFile | None = None) -> Imported:
    """Store the file's past tournaments, all or none (PastResultsError says why none), imported by
    ``user``; no entrant is linked to a player yet. ``held``: the file as it was held for the director to
    confirm, let go in the same transaction (a second confirmation of it imports nothing)."""
    events = check_past_results(filename, data)
    try:
        return _store(events, user, held)
    except IntegrityError:  # the same tournament imported meanwhile, in another request
        raise PastResultsError(
            _already_imported(events) or [(None, _("The file was imported meanwhile: see the list."))]
        ) from None


def _store(events: list[PastEventRows], user, held: HeldFile | None = None) -> Imported:
    """The file's tournaments written (in the caller's transaction: on SQLite, the write lock held meanwhile).
    What can be made before is made before; the rows are written many at a time (tournament.models.bulk),
    the placements in the order of their indexes: 100,000 rows in about a second on SQLite."""
    entrants = [list(e.entrants.values()) for e in events]  # (name as stored, club)
    places = [[(e.entrants[_key(r.player)][0], r.round, r.table, r.place) for r in e.rows] for e in events]
    now = timezone.now()
    with transaction.atomic():
        if held is not None and not HeldFile.objects.filter(pk=held.pk).delete()[0]:
            raise IntegrityError("the file held was imported (or let go) meanwhile")
        stored = [
            PastEvent.objects.create(name=e.name, date=e.date, imported_by=user, imported_at=now)
            for e in events
        ]
        insert(
            Rows.of(
                PastEntrant,
                ("event", "name", "club"),
                (
                    (event.pk, name, club)
                    for event, rows in zip(stored, entrants, strict=True)
                    for name, club in rows
                ),
            )
        )
        ids = PastEntrant.objects.filter(event__in=stored).values_list("event_id", "name", "pk")
        by_name = {(event, name): pk for event, name, pk in ids}
        placements = sorted(
            (by_name[(event.pk, name)], round_number, table, place)
            for event, rows in zip(stored, places, strict=True)
            for name, round_number, table, place in rows
        )
        insert(Rows.of(PastPlacement, ("entrant", "round_number", "table_number", "rank"), placements))
        triggers.after_commit(min(Point.of_past_event(event) for event in stored))
    return Imported(stored, sum(e.tables for e in events), len(placements))


# -- the template ----------------------------------------------------------------------------------------


def template_workbook() -> bytes:
    """The workbook to fill in: the headers (in the page's language, English otherwise) and two example rows,
    one table of two players."""
    from openpyxl import Workbook

    headers = TEMPLATE_HEADERS["pl" if (get_language() or "").startswith("pl") else "en"]
    day = datetime.date(2025, 1, 18)
    wb = Workbook()
    sheet = wb.active
    sheet.title = "results" if headers is TEMPLATE_HEADERS["en"] else "wyniki"
    sheet.append(headers)
    sheet.append(["Winter Cup 2025", day, 1, 1, 1, "Anna Nowak", "SP 12"])
    sheet.append(["Winter Cup 2025", day, 1, 1, 2, "Jan Kowalski", ""])
    for row in sheet.iter_rows(min_row=2, min_col=2, max_col=2):
        for c in row:
            c.number_format = "yyyy-mm-dd"
    for letter, width in zip("ABCDEFG", (24, 12, 8, 8, 8, 24, 16), strict=True):
        sheet.column_dimensions[letter].width = width
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()
