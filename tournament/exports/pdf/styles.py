"""The fonts (DejaVu Sans), colours and paragraph styles every PDF shares, and text made safe for them: NFC,
escaped for reportlab's markup, a role's mark, a number."""

import unicodedata
from functools import lru_cache
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import Paragraph

from rules.roles import COMPETITOR, MONOPOLIST
from tournament.labels import role_label

FONTS = Path(__file__).resolve().parent.parent / "fonts"
FONT = "DejaVuSans"
FONT_BOLD = "DejaVuSans-Bold"


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
