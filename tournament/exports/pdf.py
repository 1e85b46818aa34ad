"""The page set-up every PDF output shares: A4, the DejaVu fonts, the header and footer, styles and tables.

- Every page carries the tournament's name (or the game's, outside a tournament) and the document's title in
  its header, and "page X of Y" in its footer (a canvas that keeps its pages until it knows their number).
- Text is set in DejaVu Sans (shipped in ``fonts/``: reportlab's built-in fonts have no Polish letters) and
  normalised to NFC, so a name typed as "e" + combining ogonek prints, and extracts, as "ę".
- Table cells are paragraphs: a long name wraps inside its column instead of running over the next one;
  numbers are right-aligned.
- The words come from Django's gettext: a PDF is written in the active language.
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from xml.sax.saxutils import escape

from django.utils.translation import get_language
from django.utils.translation import gettext as _
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_RIGHT
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas as pdfcanvas
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate, Paragraph, Table, TableStyle

from rules.roles import COMPETITOR, MONOPOLIST
from tournament.labels import role_label

FONTS = Path(__file__).resolve().parent / "fonts"
FONT = "DejaVuSans"
FONT_BOLD = "DejaVuSans-Bold"

MARGIN = 15 * mm
HEADER_GAP = 4 * mm  # between the header's rule and the text
FOOTER_HEIGHT = 10 * mm

GRID = colors.HexColor("#9a9a9a")
SHADE = colors.HexColor("#e6e6e6")
STRIPE = colors.HexColor("#f5f5f5")
MUTED = colors.HexColor("#555555")
RULE = colors.HexColor("#333333")


@lru_cache(maxsize=1)
def register_fonts() -> str:
    """Register DejaVu Sans (regular and bold, as one family so that <b> works) once; return its name."""
    pdfmetrics.registerFont(TTFont(FONT, str(FONTS / "DejaVuSans.ttf")))
    pdfmetrics.registerFont(TTFont(FONT_BOLD, str(FONTS / "DejaVuSans-Bold.ttf")))
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=FONT_BOLD, italic=FONT, boldItalic=FONT_BOLD)
    return FONT


# -- text ---------------------------------------------------------------------------------------------------


def nfc(text) -> str:
    """Any value as text in Unicode's composed form (NFC)."""
    return unicodedata.normalize("NFC", "" if text is None else str(text))


def esc(text) -> str:
    """Text for a Paragraph: NFC, with &, < and > escaped (a Paragraph reads a little XML)."""
    return escape(nfc(text))


#: Anti-Monopoly's roles as printed: a shape and a colour each, so that they tell apart at a glance, even on a
#: black-and-white printout.
ROLE_MARKS = {COMPETITOR: ("▲", "#1d4f91"), MONOPOLIST: ("■", "#a3211b")}


def role_markup(role: str) -> str:
    """A player's role for a Paragraph: its mark and name, bold and coloured ("" for a game without roles)."""
    if role not in ROLE_MARKS:
        return ""
    mark, colour = ROLE_MARKS[role]
    return f'<font color="{colour}"><b>{mark} {esc(role_label(role))}</b></font>'


def number(value: int | None) -> str:
    """A figure as printed: the plain integer (as the console shows it); a dash for a missing one."""
    return "–" if value is None else str(value)


@lru_cache(maxsize=1)
def _styles() -> dict[str, ParagraphStyle]:
    register_fonts()
    base = ParagraphStyle("body", fontName=FONT, fontSize=9, leading=11.5)
    s = {
        "body": base,
        "bold": ParagraphStyle("bold", base, fontName=FONT_BOLD),
        "small": ParagraphStyle("small", base, fontSize=7.5, leading=9.5),
        "muted": ParagraphStyle("muted", base, fontSize=7.5, leading=9.5, textColor=MUTED),
        "title": ParagraphStyle(
            "title", base, fontName=FONT_BOLD, fontSize=15, leading=18, spaceAfter=3 * mm
        ),
        "h2": ParagraphStyle(
            "h2", base, fontName=FONT_BOLD, fontSize=11, leading=13.5, spaceBefore=3 * mm, spaceAfter=1.5 * mm
        ),
        "cell": ParagraphStyle("cell", base, fontSize=8.5, leading=10.5),
        "cell_bold": ParagraphStyle("cell_bold", base, fontName=FONT_BOLD, fontSize=8.5, leading=10.5),
        "num": ParagraphStyle("num", base, fontSize=8.5, leading=10.5, alignment=TA_RIGHT),
        "num_bold": ParagraphStyle(
            "num_bold", base, fontName=FONT_BOLD, fontSize=8.5, leading=10.5, alignment=TA_RIGHT
        ),
        "head": ParagraphStyle("head", base, fontName=FONT_BOLD, fontSize=8, leading=10),
        "head_num": ParagraphStyle(
            "head_num", base, fontName=FONT_BOLD, fontSize=8, leading=10, alignment=TA_RIGHT
        ),
        "head_centre": ParagraphStyle(
            "head_centre", base, fontName=FONT_BOLD, fontSize=8, leading=10, alignment=TA_CENTER
        ),
        "check": ParagraphStyle("check", base, fontName=FONT_BOLD, fontSize=10, leading=13),
        "page_name": ParagraphStyle("page_name", base, fontName=FONT_BOLD, fontSize=10, leading=12.5),
        "page_title": ParagraphStyle("page_title", base, fontSize=8.5, leading=10.5, textColor=MUTED),
    }
    # a word longer than its column (a name without spaces) is split rather than run over the edge
    for each in s.values():
        each.splitLongWords = 1
    return s


def style(name: str) -> ParagraphStyle:
    return _styles()[name]


def para(text, name: str = "body") -> Paragraph:
    """Plain text (escaped) as a paragraph in one of the styles above."""
    return Paragraph(esc(text), style(name))


def markup(xml: str, name: str = "body") -> Paragraph:
    """A paragraph of reportlab markup whose variable parts went through ``esc``."""
    return Paragraph(nfc(xml), style(name))


# -- tables -------------------------------------------------------------------------------------------------


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


#: The space to sign in, above a signature's line.
SIGN_HEIGHT = 11 * mm
#: A signer's link as a QR code beside his line (``signatures``): two modules of its quiet zone inside the
#: drawing, the rest the white around it (the gap before it, the box's edge, the padding between rows). A
#: module is about 0.55 mm (a link of 60 to 80 characters), some 0.43 mm where a crowded sheet (six players)
#: is shrunk to fit its page: a phone held over the sheet reads it, and so do the tests at 150 dpi.
LINK_CODE_SIZE = 22 * mm
LINK_CODE_BORDER = 2
LINK_CODE_GAP = 3 * mm  # between the line and the code


def qr_drawing(text: str, size: float, border: int = 4) -> Drawing:
    """``text`` as a QR code (reportlab's widget, error correction M) drawn ``size`` wide and high, its quiet
    zone (``border`` modules of white) inside."""
    widget = QrCodeWidget(text, barLevel="M", barBorder=border)
    x0, y0, x1, y1 = widget.getBounds()
    drawing = Drawing(size, size, transform=[size / (x1 - x0), 0, 0, size / (y1 - y0), 0, 0])
    drawing.add(widget)
    return drawing


def signatures(names: Sequence[tuple[str, str] | tuple[str, str, str | None]], width: float) -> Table:
    """Signature boxes, two a row: a line to sign on, the name (blank: to write in) and the role under it.

    A signer given an address too (``(name, role, url)``: a player's private link) has it as a QR code at his
    box's right, beside the line, and written out in small type under his name; a None address, none.
    """
    if any(len(n) > 2 and n[2] for n in names):
        return _signatures_with_links(names, width)
    gap = 10 * mm
    box = (width - gap) / 2
    data: list[list] = []
    commands = [
        ("FONTNAME", (0, 0), (-1, -1), FONT),  # for empty cells too
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 0),
        ("RIGHTPADDING", (0, 0), (-1, -1), 0),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
    ]
    for i in range(0, len(names), 2):
        pair = names[i : i + 2]
        row = len(data)
        data.append(["", "", ""])  # the space to sign in
        cells = [_signer(name, role) for name, role, *_url in pair]
        data.append([cells[0], "", cells[1] if len(cells) > 1 else ""])
        commands.append(("LINEABOVE", (0, row + 1), (0, row + 1), 0.6, RULE))
        if len(cells) > 1:
            commands.append(("LINEABOVE", (2, row + 1), (2, row + 1), 0.6, RULE))
    heights = [SIGN_HEIGHT if r % 2 == 0 else None for r in range(len(data))]
    table = Table(data, colWidths=[box, gap, box], rowHeights=heights, hAlign="LEFT")
    table.setStyle(TableStyle(commands))
    return table


def _signer(name: str, role: str) -> Paragraph:
    """Under a signature's line: the name and the role (the role alone: a name to write in)."""
    text = f"{esc(name)} <font color='#555555'>· {esc(role)}</font>" if name else esc(role)
    return Paragraph(text, style("small"))


def _signatures_with_links(names: Sequence[tuple], width: float) -> Table:
    """``signatures`` where some signers have a link: each box a table of its own (the code spans its line,
    name and address), the boxes of a row side by side, their lines level."""
    gap = 10 * mm
    box = (width - gap) / 2
    rows = []
    for i in range(0, len(names), 2):
        boxes = [_signature_box(*signer, width=box) for signer in names[i : i + 2]]
        rows.append([boxes[0], "", boxes[1] if len(boxes) > 1 else ""])
    table = Table(rows, colWidths=[box, gap, box], hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), FONT),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5 * mm),
            ]
        )
    )
    return table


def _signature_box(name: str, role: str, url: str | None = None, *, width: float) -> Table:
    commands = [
        ("FONTNAME", (0, 0), (-1, -1), FONT),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 0),
        ("RIGHTPADDING", (0, 0), (-1, -1), 0),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
        ("LINEABOVE", (0, 1), (0, 1), 0.6, RULE),
    ]
    if not url:
        return Table(
            [[""], [_signer(name, role)]], colWidths=[width], rowHeights=[SIGN_HEIGHT, None], style=commands
        )
    text_w = width - LINK_CODE_GAP - LINK_CODE_SIZE
    code = qr_drawing(url, LINK_CODE_SIZE, LINK_CODE_BORDER)
    data = [["", code], [_signer(name, role), ""], [para(url, "muted"), ""]]
    commands += [
        ("SPAN", (1, 0), (1, -1)),
        ("ALIGN", (1, 0), (1, -1), "RIGHT"),
        ("TOPPADDING", (1, 0), (1, -1), 0),
    ]
    return Table(
        data,
        colWidths=[text_w, LINK_CODE_GAP + LINK_CODE_SIZE],
        rowHeights=[SIGN_HEIGHT, None, None],
        style=commands,
    )


def fields(pairs: Sequence[tuple[str, str]], width: float) -> Table:
    """Labelled fields side by side, each value on a rule (blank: to fill in by hand); room to write above."""
    cells: list = []
    widths: list[float] = []
    commands = [
        ("FONTNAME", (0, 0), (-1, -1), FONT),
        ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
        ("LEFTPADDING", (0, 0), (-1, -1), 2),
        ("RIGHTPADDING", (0, 0), (-1, -1), 6),
        ("TOPPADDING", (0, 0), (-1, -1), 9),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ]
    share = width / len(pairs)
    label_style = style("bold")
    for i, (label, value) in enumerate(pairs):
        text = nfc(label)
        label_w = min(
            pdfmetrics.stringWidth(text, label_style.fontName, label_style.fontSize) + 9, share * 0.6
        )
        cells += [Paragraph(esc(text), label_style), Paragraph(esc(value), style("body"))]
        widths += [label_w, share - label_w]
        commands.append(("LINEBELOW", (2 * i + 1, 0), (2 * i + 1, 0), 0.5, RULE))
    table = Table([cells], colWidths=widths, hAlign="LEFT")
    table.setStyle(TableStyle(commands))
    return table


# -- the document -------------------------------------------------------------------------------------------


def _numbered_canvas(label: str, font: str):
    """A canvas class that draws "page X of Y" on every page once the number of pages is known."""

    class NumberedCanvas(pdfcanvas.Canvas):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._saved_pages: list[dict] = []

        def showPage(self):  # noqa: N802 (reportlab's name)
            self._saved_pages.append(dict(self.__dict__))
            self._startPage()

        def save(self):
            total = len(self._saved_pages)
            for state in self._saved_pages:
                self.__dict__.update(state)
                width, _height = self._pagesize
                self.saveState()
                self.setFont(font, 8)
                self.setFillColor(MUTED)
                text = nfc(label % {"page": self._pageNumber, "pages": total})
                self.drawRightString(width - MARGIN, MARGIN - 5 * mm, text)
                self.restoreState()
                super().showPage()
            super().save()

    return NumberedCanvas


class Document:
    """An A4 document whose pages carry ``name`` (the tournament's) and ``title`` in the header.

    ``width`` and ``height`` are those of the text frame, known before the story is built (the header's
    height depends on how many lines the name takes at this width).
    """

    def __init__(self, title: str, name: str, *, wide: bool = False):
        register_fonts()
        self.title = nfc(title)
        self.name = nfc(name)
        self.pagesize = landscape(A4) if wide else A4
        page_w, page_h = self.pagesize
        self.width = page_w - 2 * MARGIN
        self._name = Paragraph(esc(self.name), style("page_name"))
        self._title = Paragraph(esc(self.title), style("page_title"))
        self._name_h = self._name.wrap(self.width, page_h)[1]
        self._title_h = self._title.wrap(self.width, page_h)[1]
        self.header_height = self._name_h + self._title_h + 1.5 * mm
        self.top = MARGIN + self.header_height + HEADER_GAP
        self.bottom = MARGIN + FOOTER_HEIGHT - 5 * mm
        self.height = page_h - self.top - self.bottom

    def _header(self, canvas, doc) -> None:
        page_w, page_h = self.pagesize
        canvas.saveState()
        y = page_h - MARGIN
        self._name.drawOn(canvas, MARGIN, y - self._name_h)
        y -= self._name_h
        self._title.drawOn(canvas, MARGIN, y - self._title_h)
        y -= self._title_h + 1.5 * mm
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.6)
        canvas.line(MARGIN, y, page_w - MARGIN, y)
        canvas.restoreState()

    def build(self, story: list) -> bytes:
        out = io.BytesIO()
        template = BaseDocTemplate(
            out,
            pagesize=self.pagesize,
            leftMargin=MARGIN,
            rightMargin=MARGIN,
            topMargin=self.top,
            bottomMargin=self.bottom,
            title=f"{self.name} — {self.title}",
            author=self.name,
            creator="monopoly-tournament",
            initialFontName=FONT,  # not Helvetica, which has no Polish letters
            initialFontSize=9,
            lang=get_language(),
        )
        frame = Frame(MARGIN, self.bottom, self.width, self.height, 0, 0, 0, 0, id="body")
        template.addPageTemplates([PageTemplate(id="page", frames=[frame], onPage=self._header)])
        template.build(story, canvasmaker=_numbered_canvas(_("page %(page)s of %(pages)s"), FONT))
        return out.getvalue()
