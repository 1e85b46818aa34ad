"""Tables of figures: cells as paragraphs (a long name wraps in its column, numbers right-aligned), headers
fitted to their columns, a width split in proportion."""

from collections.abc import Iterable, Sequence

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Flowable, Paragraph, Table, TableStyle

from tournament.exports.pdf.styles import FONT, GRID, SHADE, STRIPE, esc, nfc, number, style


def _cell(value, numeric: bool, bold: bool = False):
    if isinstance(value, Flowable):
        return value
    if value is None or value == "":
        return ""
    if isinstance(value, int) and not isinstance(value, bool):
        return Paragraph(esc(number(value)), style("num_bold" if bold else "num"))
    return Paragraph(esc(value), style(("num" if numeric else "cell") + ("_bold" if bold else "")))


def data_table(
    header: Sequence | None,
    rows: Iterable[Sequence],
    widths: Sequence[float],
    *,
    numeric: Iterable[int] = (),
    bold_rows: Iterable[int] = (),
    bold_columns: Iterable[int] = (),
    header_rows: Sequence[Sequence] = (),
    extra: Sequence[tuple] = (),
    stripes: bool = True,
    row_heights: float | None = None,
) -> Table:
    """A table of paragraphs: text wraps within its column, numbers (ints) are right-aligned.

    ``widths`` are absolute, widened where a word of the header would not fit (in any language), the
    widest column giving up the room; ``numeric`` columns have their header and text right-aligned; the
    header row (after any ``header_rows``, e.g. a row of spanning group titles) repeats at the top of every
    page the table runs onto. ``bold_rows`` counts the body rows from 0, ``bold_columns`` from 0 too;
    ``row_heights`` sets the body rows' height (ruled rows to write in by hand).
    """
    if header is not None:
        widths = fit_header(header, widths)
    numeric = set(numeric)
    bold = set(bold_rows)
    bold_cols = set(bold_columns)
    data = []
    for row in header_rows:
        data.append([_head(v, "head_centre", _spanned(row, i, widths)) for i, v in enumerate(row)])
    if header is not None:
        data.append(
            [_head(v, "head_num" if i in numeric else "head", widths[i]) for i, v in enumerate(header)]
        )
    top = len(data)
    for r, row in enumerate(rows):
        data.append([_cell(v, i in numeric, r in bold or i in bold_cols) for i, v in enumerate(row)])
    commands = [
        ("FONTNAME", (0, 0), (-1, -1), FONT),  # for empty cells too
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3),
        ("TOPPADDING", (0, 0), (-1, -1), 2.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
        ("GRID", (0, 0), (-1, -1), 0.4, GRID),
    ]
    if top:
        commands += [
            ("BACKGROUND", (0, 0), (-1, top - 1), SHADE),
            ("VALIGN", (0, 0), (-1, top - 1), "BOTTOM"),
        ]
    if stripes and len(data) > top:
        commands.append(("ROWBACKGROUNDS", (0, top), (-1, -1), [colors.white, STRIPE]))
    commands += list(extra)
    heights = None if row_heights is None else [None] * top + [row_heights] * (len(data) - top)
    return Table(
        data,
        colWidths=list(widths),
        rowHeights=heights,
        repeatRows=top,
        style=TableStyle(commands),
        hAlign="LEFT",
    )


def fit_header(header: Sequence, widths: Sequence[float]) -> list[float]:
    """Widen the columns whose header has a word wider than the column, at the widest column's expense."""
    widths = list(widths)
    head = style("head")
    for i, value in enumerate(header):
        if isinstance(value, Flowable) or not value:
            continue
        words = nfc(value).split() or [""]
        need = max(pdfmetrics.stringWidth(w, head.fontName, head.fontSize) for w in words) + CELL_PADDING
        if widths[i] < need:
            widest = max(range(len(widths)), key=lambda k: widths[k])
            if widest != i:
                widths[widest] -= need - widths[i]
                widths[i] = need
    return widths


#: The padding of a table's cell on either side (``data_table``'s LEFTPADDING, RIGHTPADDING) and a hair.
CELL_PADDING = 6.5
#: The smallest type a header's word shrinks to rather than break.
HEAD_MIN_SIZE = 5


def _spanned(row: Sequence, i: int, widths: Sequence[float]) -> float:
    """The width a group title of a header row spans: its column and the empty ones after it."""
    end = i + 1
    while end < len(row) and row[end] in (None, ""):
        end += 1
    return sum(widths[i:end])


def _head(value, name: str, width: float):
    """A header's cell: it wraps at spaces only ("Punkty w rundach", never "rund ach"), its type made smaller
    where a word would not fit ``width``."""
    if isinstance(value, Flowable):
        return value
    if value in (None, ""):
        return ""
    return Paragraph(esc(value), _head_style(name, nfc(value), width))


def _head_style(name: str, text: str, width: float) -> ParagraphStyle:
    head = style(name)
    word = max(pdfmetrics.stringWidth(w, head.fontName, head.fontSize) for w in text.split() or [""])
    size = head.fontSize
    if word + CELL_PADDING > width:
        size = max(HEAD_MIN_SIZE, head.fontSize * (width - CELL_PADDING) / word)
    leading = size * head.leading / head.fontSize
    return ParagraphStyle(f"{name}-{size:.2f}", head, fontSize=size, leading=leading, splitLongWords=0)


def columns(total: float, parts: Sequence[float]) -> list[float]:
    """Split a width in proportion to ``parts``."""
    whole = sum(parts)
    return [total * p / whole for p in parts]
