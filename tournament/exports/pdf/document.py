"""A PDF document: A4 (or landscape), every page with the tournament's (or the game's) name and the
document's title in its header, and "page X of Y" in its footer."""

import io

from django.utils.translation import get_language
from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas as pdfcanvas
from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate, Paragraph

from tournament.exports.pdf.styles import FONT, MUTED, RULE, esc, nfc, register_fonts, style

MARGIN = 15 * mm
HEADER_GAP = 4 * mm  # between the header's rule and the text
FOOTER_HEIGHT = 10 * mm


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
