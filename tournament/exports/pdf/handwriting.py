"""What is filled in by hand on a printed sheet: signature boxes (each signer's private link as a QR code
beside his line) and labelled fields; a QR code drawn."""

from collections.abc import Sequence

from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Paragraph, Table, TableStyle

from tournament.exports.pdf.styles import FONT, RULE, esc, nfc, para, style

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
