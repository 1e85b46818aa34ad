"""Reading a list of participants from Excel (.xlsx) or CSV: name, club/school, optional seed.

Every bad row is reported with its line number and the reason; nothing is imported until the file is clean.
A first row of headers is recognised (name / imię, club / klub / szkoła, seed / rozstawienie) and skipped.

Bad input costs little: the file is refused above ``settings.UPLOAD_MAX_BYTES``, a workbook before it is
opened when its parts unpack to more than ``MAX_UNPACKED_BYTES``, and rows are read one at a time, stopping
after ``MAX_ROWS``. A page lists at most ``MAX_PROBLEMS_SHOWN`` problems (``problem_lines``).

The readers of rows (``rows_from_csv``, ``rows_from_xlsx``, ``numbered``) serve the past results' import too
(tournament/files/past_results/).
"""

from __future__ import annotations

import contextlib
import csv
import io
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.models.bounds import field_maximum
from tournament.models.games import NAME_LENGTH
from tournament.server.uploads import (
    MAX_UNPACKED_BYTES,
    NOT_ALLOWED,
    NotAWorkbook,
    WorkbookTooLarge,
    echo,
    megabytes,
    open_workbook,
    too_large_message,
)

MAX_ROWS = 5000  # rows read from a file, blank ones and the headers included; a longer file is refused
MAX_COLUMNS = 20  # cells read from each row of a workbook
MAX_PROBLEMS_SHOWN = 20
#: Control characters (NUL, which PostgreSQL cannot store, tab, line breaks, ...) and lone surrogates (which
#: no database encodes; a workbook can spell them ``_xD800_``).
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


def _file_problem(message: str) -> ParticipantFileError:
    return ParticipantFileError([(None, message)])


def problem_lines(problems: list[tuple[int | None, str]], limit: int = MAX_PROBLEMS_SHOWN) -> list[str]:
    """The first ``limit`` problems as lines of text, then one line saying how many more there are."""
    lines = [
        _("line %(line)s: %(problem)s") % {"line": line, "problem": problem} if line is not None else problem
        for line, problem in problems[:limit]
    ]
    more = len(problems) - limit
    if more > 0:
        lines.append(ngettext("… and %(n)s more problem.", "… and %(n)s more problems.", more) % {"n": more})
    return lines


#: A character written in UTF-8 in two to four bytes. A Windows-1250 file's letters seldom make one (an
#: all-capitals "GÓŹDŹ" does: Ó, Ź), and then beside as many bytes that are not UTF-8; a UTF-8 file with a
#: damaged byte has many more of them than damaged ones.
UTF8_CHARACTER = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")


def csv_text(data: bytes) -> str:
    """A CSV file's text: UTF-8 (with or without its byte order mark) first; Windows-1250 (Polish Windows
    exports) only for a file valid in it that is not UTF-8 with a damaged byte — read so, every Polish name of
    such a file would be stored garbled ("Ĺ»aneta"): it is refused, naming the line."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        bad_line = data.count(b"\n", 0, e.start) + 1
        damaged = data.decode("utf-8", errors="replace").count("\ufffd")
        damaged_utf8 = len(UTF8_CHARACTER.findall(data)) > damaged
    if damaged_utf8:
        raise _file_problem(
            _(
                "Line %(line)s is not UTF-8, though the file's other Polish letters are: a character there "
                "is damaged. Correct it, save the file as UTF-8 and import it again."
            )
            % {"line": bad_line}
        )
    try:
        return data.decode("cp1250")
    except UnicodeDecodeError:
        raise _file_problem(
            _("Line %(line)s is not text (UTF-8 or Windows-1250).") % {"line": bad_line}
        ) from None


def rows_from_csv(data: bytes) -> Iterator[Sequence[str]]:
    """A CSV file's rows (UTF-8, or Windows-1250: ``csv_text``; comma, semicolon or tab), one at a time."""
    text = csv_text(data)
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text, newline=""), dialect)  # newline="": CR-only line ends too
    while True:
        start = reader.line_num + 1  # where the next row begins (a quoted field may span lines)
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error:  # a field over csv.field_size_limit(), most often after an unclosed quotation mark
            raise _file_problem(
                _(
                    "The file cannot be read as CSV from line %(line)s: a field is too long "
                    "(is a quotation mark not closed?)."
                )
                % {"line": start}
            ) from None
        yield row


def _cell_text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _unreadable_workbook() -> ParticipantFileError:
    return _file_problem(_("The file cannot be read as an Excel workbook (.xlsx)."))


def _participants_too_large() -> str:
    return _(
        "The workbook unpacks to more than %(size)s MB: save only the list of participants in it, "
        "or save it as CSV."
    ) % {"size": megabytes(MAX_UNPACKED_BYTES)}


def rows_from_xlsx(
    data: bytes, *, cell: Callable | None = _cell_text, too_large: Callable[[], str] = _participants_too_large
) -> Iterator[Sequence]:
    """The first worksheet's rows, one at a time, each cell through ``cell`` (text by default; ``cell=None``
    for the values as openpyxl reads them: numbers, dates); ``too_large()`` says why a workbook that unpacks
    to more than ``MAX_UNPACKED_BYTES`` is refused."""
    try:
        workbook = open_workbook(data)
    except NotAWorkbook:
        raise _unreadable_workbook() from None
    except WorkbookTooLarge:
        raise _file_problem(too_large()) from None
    try:
        if not workbook.worksheets:
            raise _unreadable_workbook()
        sheet = workbook.worksheets[0]
        sheet.reset_dimensions()  # rows as they are in the file, not up to a declared last row
        rows = sheet.iter_rows(max_col=MAX_COLUMNS, values_only=True)
        while True:
            try:
                row = next(rows)  # parsed now, one row at a time: a broken part shows only here
            except StopIteration:
                return
            except Exception:
                raise _unreadable_workbook() from None
            yield list(row) if cell is None else [cell(v) for v in row]
    finally:
        workbook.close()


def numbered(rows: Iterator[Sequence], limit: int = MAX_ROWS) -> Iterator[tuple[int, Sequence]]:
    """Rows with their line numbers, refusing the file at row ``limit + 1`` (the rest is not read)."""
    for line, cells in enumerate(rows, start=1):
        if line > limit:
            raise _file_problem(_("The file has more than %(max)s rows: split it.") % {"max": limit})
        yield line, cells


def read_participants(filename: str, data: bytes) -> list[ParticipantRow]:
    """Rows of a participants file, or ParticipantFileError listing every problem by line."""
    if len(data) > settings.UPLOAD_MAX_BYTES:
        raise _file_problem(too_large_message())
    lower = filename.lower()
    if lower.endswith(".xlsx"):
        raw = rows_from_xlsx(data)
    elif lower.endswith((".csv", ".txt")):
        raw = rows_from_csv(data)
    else:
        raise _file_problem(_("Upload an Excel (.xlsx) or CSV file."))
    with contextlib.closing(raw):  # an unfinished workbook is closed
        return _participants(numbered(raw))


def _participants(numbered: Iterator[tuple[int, Sequence[str]]]) -> list[ParticipantRow]:
    from tournament.models import Participant

    seed_field = Participant._meta.get_field("seed")
    seed_max = field_maximum(Participant, "seed")  # on every database (SQLite would take 64 bits)
    columns = {"name": 0, "club": 1, "seed": 2}
    first = next(numbered, None)
    if first is not None:
        header = [c.strip().casefold() for c in first[1]]
        found = {key: i for i, h in enumerate(header) for key, names in HEADERS.items() if h in names}
        if "name" in found:
            columns = {k: found.get(k) for k in HEADERS}
            first = None
    rows, problems, seen = [], [], {}
    for i, cells in _chain(first, numbered):
        if not any(c.strip() for c in cells):
            continue

        def cell(key, cells=cells):
            index = columns.get(key)
            return cells[index].strip() if index is not None and index < len(cells) else ""

        name, club, seed_text = cell("name"), cell("club"), cell("seed")
        if any(NOT_ALLOWED.search(text) for text in (name, club, seed_text)):
            problems.append(
                (
                    i,
                    _(
                        "a name, club or seed contains a character that is not allowed "
                        "(a control character such as NUL, a tab or a line break)"
                    ),
                )
            )
            continue
        if not name:
            problems.append((i, _("the name is missing")))
            continue
        if len(name) > NAME_LENGTH or len(club) > NAME_LENGTH:
            problems.append((i, _("a name or club is longer than %(max)s characters") % {"max": NAME_LENGTH}))
            continue
        seed = None
        if seed_text:
            try:
                seed = int(seed_text)
                if seed < 1:
                    raise ValueError
            except ValueError:
                problems.append(
                    (
                        i,
                        _("the seed must be a whole number from 1, not “%(value)s”")
                        % {"value": echo(seed_text)},
                    )
                )
                continue
            try:
                seed_field.run_validators(seed)
            except ValidationError:
                problems.append(
                    (
                        i,
                        _("the seed must be at most %(max)s, not “%(value)s”")
                        % {"max": seed_max, "value": echo(seed_text)},
                    )
                )
                continue
        key = (name.casefold(), club.casefold())  # namesakes of two clubs are two people
        earlier = seen.get(key) or (None if club else seen.get(name.casefold()))
        if earlier:  # the same name and club, or the same name with no club to tell him apart
            problems.append((i, _("%(name)s is already on line %(line)s") % {"name": name, "line": earlier}))
            continue
        seen[key] = i
        seen.setdefault(name.casefold(), i)
        rows.append(ParticipantRow(i, name, club, seed))
    if not rows and not problems:
        problems.append((None, _("The file lists no participants.")))
    if problems:
        raise ParticipantFileError(problems)
    return rows


def _chain(first, rest):
    if first is not None:
        yield first
    yield from rest


def csv_encoding(data: bytes) -> str:
    """How a CSV file that ``csv_text`` reads is written: "UTF-8" or "Windows-1250"."""
    try:
        data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return "Windows-1250"
    return "UTF-8"


#: How long the names shown before an import may be confirmed, and the signature's salt.
PREVIEW_SECONDS = 3600
PREVIEW_SALT = "tournament.files.participants_import.preview"


def preview_token(tournament_pk: int, rows: list[ParticipantRow]) -> str:
    """The rows shown to the director before they are stored, signed: what his "Import" sends back."""
    payload = {"t": tournament_pk, "rows": [[r.line, r.name, r.club, r.seed] for r in rows]}
    return signing.dumps(payload, salt=PREVIEW_SALT, compress=True)


def rows_of_preview(tournament_pk: int, token: str) -> list[ParticipantRow]:
    """The rows a preview showed, as shown (its signature checked, for this tournament, within the hour)."""
    try:
        payload = signing.loads(token, salt=PREVIEW_SALT, max_age=PREVIEW_SECONDS)
    except signing.BadSignature:  # (an expired one too)
        payload = None
    if not isinstance(payload, dict) or payload.get("t") != tournament_pk:
        raise _file_problem(_("The names shown are out of date: import the file again."))
    return [ParticipantRow(line, name, club, seed) for line, name, club, seed in payload["rows"]]


def import_participants(tournament, filename: str, data: bytes) -> int:
    """Add the file's participants to the tournament, all or none. Returns how many were added."""
    return len(add_participants(tournament, read_participants(filename, data)))


def add_participants(tournament, rows: list[ParticipantRow]) -> list:
    """Add ``rows`` to the tournament, all or none (none when one of them is registered already); the
    participants added."""
    from django.db import transaction

    from tournament.event import namesakes
    from tournament.event.namesakes import registered_already
    from tournament.models import Participant, Tournament
    from tournament.models.standings_changes import standings_changed

    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)  # one change of the list at a time
        existing = {
            (n.casefold(), c.casefold()) for n, c in tournament.participants.values_list("name", "club")
        }
        names = {n for n, _c in existing}
        problems = [
            (r.line, registered_already(r.name, r.club))
            for r in rows
            if (r.name.casefold(), r.club.casefold()) in existing
            or (not r.club and r.name.casefold() in names)
        ]
        if problems:
            raise ParticipantFileError(problems)
        added = Participant.objects.bulk_create(
            Participant(tournament=tournament, name=r.name, club=r.club, seed=r.seed) for r in rows
        )
        namesakes.mark(tournament.pk)  # added in bulk: no signal of each
        standings_changed(tournament.pk)
    return added
