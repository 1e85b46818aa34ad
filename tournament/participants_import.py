"""Reading a list of participants from Excel (.xlsx) or CSV: name, club/school, optional seed.

Every bad row is reported with its line number and the reason; nothing is imported until the file is clean.
A first row of headers is recognised (name / imię, club / klub / szkoła, seed / rozstawienie) and skipped.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from django.utils.translation import gettext as _

MAX_ROWS = 5000
MAX_BYTES = 5 * 1024 * 1024
HEADERS = {
    "name": {
        "name",
        "participant",
        "player",
        "imię",
        "imie",
        "imię i nazwisko",
        "nazwisko",
        "uczestnik",
        "gracz",
    },
    "club": {"club", "school", "club/school", "klub", "szkoła", "szkola", "klub/szkoła"},
    "seed": {"seed", "rozstawienie", "ranking"},
}


@dataclass(frozen=True)
class ParticipantRow:
    line: int
    name: str
    club: str = ""
    seed: int | None = None


class ParticipantFileError(Exception):
    def __init__(self, problems: list[tuple[int | None, str]]):
        super().__init__("; ".join(f"{line}: {msg}" for line, msg in problems))
        self.problems = problems  # (line number or None for the whole file, reason)


def _rows_from_csv(data: bytes) -> list[list[str]]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1250")  # Polish Windows exports
        except UnicodeDecodeError:
            raise ParticipantFileError([(None, _("The file is not text (UTF-8 or Windows-1250)."))]) from None
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    return [row for row in csv.reader(io.StringIO(text), dialect)]


def _rows_from_xlsx(data: bytes) -> list[list[str]]:
    from openpyxl import load_workbook

    try:
        sheet = load_workbook(io.BytesIO(data), read_only=True, data_only=True).worksheets[0]
    except Exception:  # openpyxl raises many kinds for a file that is not a workbook
        raise ParticipantFileError(
            [(None, _("The file cannot be read as an Excel workbook (.xlsx)."))]
        ) from None
    rows = []
    for row in sheet.iter_rows(values_only=True):
        cells = []
        for v in row:
            if v is None:
                cells.append("")
            elif isinstance(v, float) and v.is_integer():
                cells.append(str(int(v)))
            else:
                cells.append(str(v))
        rows.append(cells)
    return rows


def read_participants(filename: str, data: bytes) -> list[ParticipantRow]:
    """Rows of a participants file, or ParticipantFileError listing every problem by line."""
    if len(data) > MAX_BYTES:
        raise ParticipantFileError([(None, _("The file is larger than 5 MB."))])
    lower = filename.lower()
    if lower.endswith(".xlsx"):
        raw = _rows_from_xlsx(data)
    elif lower.endswith((".csv", ".txt")):
        raw = _rows_from_csv(data)
    else:
        raise ParticipantFileError([(None, _("Upload an Excel (.xlsx) or CSV file."))])
    columns = {"name": 0, "club": 1, "seed": 2}
    start = 0
    if raw:
        header = [c.strip().casefold() for c in raw[0]]
        found = {key: i for i, h in enumerate(header) for key, names in HEADERS.items() if h in names}
        if "name" in found:
            columns = {k: found.get(k) for k in HEADERS}
            start = 1
    rows, problems, seen = [], [], {}
    for i, cells in enumerate(raw[start:], start=start + 1):
        if not any(c.strip() for c in cells):
            continue

        def cell(key, cells=cells):
            index = columns.get(key)
            return cells[index].strip() if index is not None and index < len(cells) else ""

        name, club, seed_text = cell("name"), cell("club"), cell("seed")
        if not name:
            problems.append((i, _("the name is missing")))
            continue
        if len(name) > 120 or len(club) > 120:
            problems.append((i, _("a name or club is longer than 120 characters")))
            continue
        seed = None
        if seed_text:
            try:
                seed = int(seed_text)
                if seed < 1:
                    raise ValueError
            except ValueError:
                problems.append(
                    (i, _("the seed must be a whole number from 1, not “%(value)s”") % {"value": seed_text})
                )
                continue
        key = name.casefold()
        if key in seen:
            problems.append(
                (i, _("%(name)s is already on line %(line)s") % {"name": name, "line": seen[key]})
            )
            continue
        seen[key] = i
        rows.append(ParticipantRow(i, name, club, seed))
    if len(rows) > MAX_ROWS:
        problems.append((None, _("More than %(max)s participants.") % {"max": MAX_ROWS}))
    if not rows and not problems:
        problems.append((None, _("The file lists no participants.")))
    if problems:
        raise ParticipantFileError(problems)
    return rows


def import_participants(tournament, filename: str, data: bytes) -> int:
    """Add the file's participants to the tournament, all or none. Returns how many were added."""
    from django.db import transaction

    from tournament.models import Participant

    rows = read_participants(filename, data)
    existing = {n.casefold() for n in tournament.participants.values_list("name", flat=True)}
    problems = [
        (r.line, _("%(name)s is already registered") % {"name": r.name})
        for r in rows
        if r.name.casefold() in existing
    ]
    if problems:
        raise ParticipantFileError(problems)
    with transaction.atomic():
        Participant.objects.bulk_create(
            Participant(tournament=tournament, name=r.name, club=r.club, seed=r.seed) for r in rows
        )
    return len(rows)
