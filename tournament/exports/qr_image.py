"""A QR code for a page: an SVG (reportlab's QR widget) in a data: URI, for an <img> (an SVG inline in the
page would need inline styles, which the Content-Security-Policy forbids). The PDFs draw theirs
(pdf.qr_drawing)."""

import base64

from reportlab.graphics import renderSVG
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing


def qr_code_data_uri(text: str) -> str:
    widget = QrCodeWidget(text, barLevel="M")
    x0, y0, x1, y1 = widget.getBounds()
    drawing = Drawing(x1 - x0, y1 - y0)
    drawing.add(widget)
    svg = renderSVG.drawToString(drawing)
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode("ascii")
