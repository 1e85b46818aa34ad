"""A past results' file read into its tournaments, checked as a whole (one date a tournament, one place a
player in a round, one club a player in a tournament, no table of one player), and what the director checks
before it is stored (``preview``)."""

from __future__ import annotations

import contextlib
import datetime
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.seating import club_key
from tournament import collation
from tournament.files.participants_import import ParticipantFileError, numbered, rows_from_csv, rows_from_xlsx
from tournament.files.past_results.rows import (
    PastResultsError,
    PastRow,
    cell_text,
    compared_name,
    header_columns,
    read_row,
)
from tournament.server.uploads import MAX_UNPACKED_BYTES, megabytes, too_large_message

MAX_ROWS = 100_000  # rows read from a file, blank ones and the headers included; a longer file is refused


XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


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


def _too_large() -> str:
    return _(
        "The workbook unpacks to more than %(size)s MB: split the results into smaller workbooks, or save "
        "them as CSV."
    ) % {"size": megabytes(MAX_UNPACKED_BYTES)}


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


def _events(lines: Iterator[tuple[int, Sequence]]) -> list[PastEventRows]:
    columns = None
    problems: list[tuple[int | None, str]] = []
    events: dict[str, PastEventRows] = {}  # by the tournament's name as compared
    in_round: dict[tuple[str, int, str], int] = {}  # (event, round, player) → line
    clubs: dict[tuple[str, str], tuple[str, int]] = {}  # (event, player) → (club, line), the first given
    for line, cells in lines:
        if not any(cell_text(c).strip() for c in cells):
            continue
        if columns is None:
            columns = header_columns(line, cells)
            continue
        try:
            row = read_row(line, cells, columns)
        except ValueError as e:
            problems.append((line, str(e)))
            continue
        event_key, player_key = compared_name(row.tournament), compared_name(row.player)
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
