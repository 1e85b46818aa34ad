"""The participants' slips (PDF): one slip per participant with his private link as a QR code, ten to an A4
page in a grid to cut along its dashed lines.

Each slip: his name (and club), the tournament, what the code opens (his table, his results, his cards, the
standings), the code, and the link written out for a phone that cannot scan. A participant without a link (the
director revoked it and gave none since) gets no slip.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, Table, TableStyle

from tournament.exports.pdf.document import Document
from tournament.exports.pdf.handwriting import qr_drawing
from tournament.exports.pdf.styles import GRID, esc, para, style

COLUMNS = 2
ROWS = 5  # slips a column on an A4 page
QR_SIZE = 32 * mm  # about 1.3 in: a phone reads it from a hand's length
QUIET = 2 * mm  # the white around the code


def _name_style() -> ParagraphStyle:
    return ParagraphStyle("slip_name", style("bold"), fontSize=12, leading=15)


def slips_pdf(tournament, people: list[tuple[object, str]]) -> bytes:
    """``people``: (participant, his link's full URL), in the order to print them."""
    doc = Document(_("Participants' private links"), tournament.name)
    cell_w = doc.width / COLUMNS
    cell_h = doc.height / ROWS
    text_w = cell_w - QR_SIZE - 3 * QUIET
    cells = [_slip(tournament, p, url, text_w) for p, url in people]
    if not cells:
        return doc.build([para(_("No participant has a private link."))])
    cells += [""] * (-len(cells) % COLUMNS)
    rows = [cells[i : i + COLUMNS] for i in range(0, len(cells), COLUMNS)]
    grid = Table(rows, colWidths=[cell_w] * COLUMNS, rowHeights=[cell_h] * len(rows))
    grid.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.5, GRID, None, (3, 3)),  # dashed: where to cut
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("LEFTPADDING", (0, 0), (-1, -1), QUIET),
                ("RIGHTPADDING", (0, 0), (-1, -1), QUIET),
            ]
        )
    )
    return doc.build([grid])


def _slip(tournament, participant, url: str, text_w: float) -> Table:
    text = [
        Paragraph(esc(participant.shown_name), _name_style()),
        *([para(participant.club)] if participant.club else []),
        para(tournament.name, "muted"),
        para(_("Scan: your table, your results, your cards and the standings."), "small"),
        para(url, "muted"),
    ]
    slip = Table([[qr_drawing(url, QR_SIZE), text]], colWidths=[QR_SIZE + QUIET, text_w])
    slip.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("BACKGROUND", (0, 0), (0, 0), colors.white),
            ]
        )
    )
    return slip
