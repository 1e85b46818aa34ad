"""The league's ratings as an Excel workbook: nothing is computed here, every figure is the one stored by the
last rebuild (``PlayerRating``, ``RatingStep``: tournament/ratings/rebuild.py), which the league page shows.

Sheets: Ratings (every rated player in the league page's order and with its places: ``ORDER``, ``places``)
and Rating history (each of them after every tournament or past tournament he played, in the same order of
players, his tournaments by date). Each sheet has its header row frozen, an autofilter and column widths from
the data. The figures are written whole (a rating is μ − 3σ to the last digit) and shown as the page shows
them: ratings and changes to one decimal, μ and σ to two.

Not "History": Excel keeps that sheet name for itself (``workbook.sheet_name`` refuses it). Names and clubs
are users' text: through ``safe_text``, as in the tournament's workbook (never a formula).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from io import BytesIO

from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from tournament.exports.workbook import FORMULA_START, MAX_WIDTH, safe_text, sheet_name
from tournament.models import PlayerRating, RatingStep

#: The league's order: the best rating first, equal ratings by player number (the page's and the workbook's).
ORDER = ("-ordinal", "player_id")
#: How the figures are shown (the page's too: ``tournament.league.views``).
RATING_FORMAT = "0.0"
CHANGE_FORMAT = "+0.0;-0.0;0.0"
SPREAD_FORMAT = "0.00"  # μ and σ
DATE_FORMAT = "yyyy-mm-dd"


def places(ordinals: Iterable[float]) -> Iterator[int]:
    """Each rating's place, the ratings given best first: one more than the number of better ratings (equal
    ratings share a place, the next place skipped: 1, 2, 2, 4)."""
    previous, place = None, 0
    for i, ordinal in enumerate(ordinals, start=1):
        if ordinal != previous:
            place, previous = i, ordinal
        yield place


@dataclass(frozen=True)
class Column:
    header: str
    number_format: str | None = None  # None: text, or a whole number
    width: int | None = None  # None: from the data


def _quoted(ws, text: str):
    cell = WriteOnlyCell(ws, value=text)
    cell.data_type = "s"  # never a formula nor an error value
    cell.quotePrefix = True  # shown as typed, and stays text when edited
    return cell


def _text_cell(ws, text: str):
    """Text as a cell: what Excel could evaluate (``safe_text`` marks a user's) quote-prefixed, never a
    formula; any other text as it is."""
    return _quoted(ws, text) if text[:1] in FORMULA_START else text


def _header_cell(ws, text: str):
    cell = _quoted(ws, text) if text[:1] in FORMULA_START else WriteOnlyCell(ws, value=text)
    cell.font = Font(bold=True)
    return cell


def _write_sheet(
    wb: Workbook, title: str, columns: Sequence[Column], rows: Callable[[], Iterable[Sequence]], taken: set
) -> None:
    """One sheet: a bold header row, frozen, widths from the data (a first pass over ``rows()``), then the
    rows (a second), each figure in its column's number format, an autofilter over them all."""
    widths = [max(len(c.header) + 4, c.width or 0) for c in columns]
    measured = [i for i, c in enumerate(columns) if c.width is None and c.number_format is None]
    count = 0
    for row in rows():
        count += 1
        for i in measured:
            if row[i] is not None:
                widths[i] = max(widths[i], len(str(row[i])) + 2)
    ws = wb.create_sheet(sheet_name(title, taken))
    last = get_column_letter(len(columns))
    used = f"A1:{last}{1 + count}"
    ws.calculate_dimension = lambda: used  # write-only: the sheet's size goes out with its head
    for i, width in enumerate(widths, start=1):
        ws.column_dimensions[get_column_letter(i)].width = min(width, MAX_WIDTH)
    ws.freeze_panes = "A2"
    ws.append([_header_cell(ws, c.header) for c in columns])
    # One cell for each formatted column, given each row's value in turn: openpyxl writes a row out as it is
    # appended, and a styled cell made for each figure would cost more than the rest of the sheet.
    formatted = {i: WriteOnlyCell(ws) for i, c in enumerate(columns) if c.number_format is not None}
    for i, cell in formatted.items():
        cell.number_format = columns[i].number_format
    texts = [i for i, c in enumerate(columns) if c.number_format is None]
    for row in rows():
        values = list(row)
        for i, cell in formatted.items():
            if values[i] is not None:
                cell.value = values[i]
                values[i] = cell
        for i in texts:
            if isinstance(values[i], str):
                values[i] = _text_cell(ws, values[i])
        ws.append(values)
    ws.auto_filter.ref = f"A1:{last}{1 + count}"


def _ratings_sheet():
    columns = [
        Column(_("Place")),
        Column(_("Player number")),
        Column(_("Player")),
        Column(_("Club / school")),
        Column(_("Rating"), RATING_FORMAT),
        Column("μ", SPREAD_FORMAT),
        Column("σ", SPREAD_FORMAT),
        Column(_("Games")),
        Column(_("Last change"), CHANGE_FORMAT),
        Column(_("Last played"), DATE_FORMAT, width=12),
    ]
    fields = ("player_id", "player__name", "player__club", "ordinal", "mu", "sigma", "games", "change")

    def rows() -> Iterator[list]:
        ratings = list(PlayerRating.objects.order_by(*ORDER).values_list(*fields, "last_played"))
        for place, (pk, name, club, *figures) in zip(places(r[3] for r in ratings), ratings, strict=True):
            yield [place, pk, safe_text(name), safe_text(club), *figures]

    return columns, rows


def _history_sheet():
    columns = [
        Column(_("Player number")),
        Column(_("Player")),
        Column(_("Date"), DATE_FORMAT, width=12),
        Column(_("Tournament")),
        Column(_("Games in it")),
        Column(_("Rating"), RATING_FORMAT),
        Column(pgettext("rating", "Change"), CHANGE_FORMAT),
        Column("μ", SPREAD_FORMAT),
        Column("σ", SPREAD_FORMAT),
    ]
    # the players as the Ratings sheet has them (``ORDER``), each one's tournaments by date
    order = ("-player__rating__ordinal", "player_id", "date", "source", "source_id")

    def rows() -> Iterator[list]:
        steps = RatingStep.objects.order_by(*order).values_list(
            "player_id",
            "player__name",
            "date",
            "tournament__name",
            "past_event__name",
            "played",
            "ordinal",
            "change",
            "mu",
            "sigma",
        )
        for pk, name, date, tournament, past, *figures in steps.iterator(chunk_size=2000):
            yield [pk, safe_text(name), date, safe_text(tournament or past), *figures]

    return columns, rows


def league_workbook() -> bytes:
    """The ratings' workbook (.xlsx) in the active language."""
    wb = Workbook(write_only=True)
    wb.properties.title = _("League ratings")
    taken: set[str] = set()
    for title, (columns, rows) in (
        (_("Ratings"), _ratings_sheet()),
        (_("Rating history"), _history_sheet()),
    ):
        _write_sheet(wb, title, columns, rows, taken)
    out = BytesIO()
    wb.save(out)
    return out.getvalue()
