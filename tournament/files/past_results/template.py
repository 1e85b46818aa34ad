"""The workbook a director fills in with past results: the headers in the page's language, two example
rows."""

from __future__ import annotations

import datetime
import io

from django.utils.translation import get_language

#: The template's headers (and example rows), in English or Polish as the page is.
TEMPLATE_HEADERS = {
    "en": ["Tournament", "Date", "Round", "Table", "Place", "Player", "Club"],
    "pl": ["Turniej", "Data", "Runda", "Stolik", "Miejsce", "Gracz", "Klub"],
}


def template_workbook() -> bytes:
    """The workbook to fill in: the headers (in the page's language, English otherwise) and two example rows,
    one table of two players."""
    from openpyxl import Workbook

    headers = TEMPLATE_HEADERS["pl" if (get_language() or "").startswith("pl") else "en"]
    day = datetime.date(2025, 1, 18)
    wb = Workbook()
    sheet = wb.active
    sheet.title = "results" if headers is TEMPLATE_HEADERS["en"] else "wyniki"
    sheet.append(headers)
    sheet.append(["Winter Cup 2025", day, 1, 1, 1, "Anna Nowak", "SP 12"])
    sheet.append(["Winter Cup 2025", day, 1, 1, 2, "Jan Kowalski", ""])
    for row in sheet.iter_rows(min_row=2, min_col=2, max_col=2):
        for c in row:
            c.number_format = "yyyy-mm-dd"
    for letter, width in zip("ABCDEFG", (24, 12, 8, 8, 8, 24, 16), strict=True):
        sheet.column_dimensions[letter].width = width
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()
