"""Each game's net worth per player, turn by turn, as a line chart: one drawing for the PDF and the web page.

``net_worth_chart`` draws a ``GameReport``'s series (``PlayerReport.series``, one point at the start and one
after every turn; ``GameReport.turn_rounds`` gives each point's round) as a reportlab Drawing, which the
result sheet places on its page; ``net_worth_svg`` renders the same drawing as SVG for the game's page.
The lines differ by colour (a palette safe for colour-blind readers) and by dash pattern, so that the
chart stays readable printed in black and white; the legend under the plot names each player (long names
wrap).
"""

from __future__ import annotations

import math
import re
from xml.sax.saxutils import escape

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from reportlab.graphics import renderSVG
from reportlab.graphics.shapes import Drawing, Line, PolyLine, Rect, String
from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth

from tournament.exports.pdf.styles import FONT, nfc, register_fonts
from tournament.reports.games import GameReport

# Okabe & Ito's palette (distinguishable with the common colour-vision deficiencies), then black
COLOURS = [
    colors.HexColor("#0072B2"),
    colors.HexColor("#D55E00"),
    colors.HexColor("#009E73"),
    colors.HexColor("#CC79A7"),
    colors.HexColor("#E69F00"),
    colors.HexColor("#000000"),
    colors.HexColor("#56B4E9"),
    colors.HexColor("#8C6D1F"),
]
DASHES = [None, [6, 2.5], [1.5, 2], [7, 2.5, 1.5, 2.5], [3, 3], [10, 2, 2, 2, 2, 2], [12, 4], [2, 4]]
WIDTHS = [1.8, 1.8, 2.0, 1.8, 1.8, 1.5, 1.8, 2.0]

FONT_SIZE = 7.5
GRID = colors.HexColor("#d0d0d0")
AXIS = colors.HexColor("#444444")
LEGEND_SAMPLE = 26  # the length of a line's sample in the legend
LEADING = FONT_SIZE * 1.25


def style_of(index: int) -> tuple[colors.Color, list | None, float]:
    """The colour, dash pattern and width of the player in seat ``index``."""
    n = index % len(COLOURS)
    return COLOURS[n], DASHES[n], WIDTHS[n]


def _nice_step(span: float, ticks: int = 5) -> int:
    rough = max(span / ticks, 1)
    magnitude = 10 ** math.floor(math.log10(rough))
    for factor in (1, 2, 2.5, 5, 10):
        step = factor * magnitude
        if step >= rough:
            return max(int(step), 1)
    return int(10 * magnitude)


def wrap(text: str, width: float, size: float = FONT_SIZE) -> list[str]:
    """``text`` in lines no wider than ``width``; a word too long for a line is split wherever it must be."""
    lines: list[str] = []
    line = ""
    for word in nfc(text).split():
        candidate = f"{line} {word}" if line else word
        if stringWidth(candidate, FONT, size) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = ""
        for char in word:
            if line and stringWidth(line + char, FONT, size) > width:
                lines.append(line)
                line = ""
            line += char
    return [*lines, line] if line or not lines else lines


def _legend(game: GameReport, width: float) -> tuple[int, list[list[str]], float]:
    """The legend's columns (as many as fit with each name on at most two lines), names and height."""
    register_fonts()
    most = max(1, min(len(game.players), int(width // 150)))
    for columns in range(most, 0, -1):
        text_w = width / columns - LEGEND_SAMPLE - 12
        names = [wrap(p.name, text_w) for p in game.players]
        if columns == 1 or max(len(n) for n in names) <= 2:
            break
    rows = [names[i : i + columns] for i in range(0, len(names), columns)]
    height = sum(max(len(n) for n in row) * LEADING + 3 for row in rows) + 4
    return columns, names, height


def legend_height(game: GameReport, width: float) -> float:
    """The height the legend takes under the plot: add it to the plot's height for a chart's whole height."""
    return _legend(game, width)[2] if game.players else 0


def net_worth_chart(game: GameReport, width: float, height: float) -> Drawing:
    """The net worth of each player after every turn (x: turns, labelled by round; y: net worth).

    ``height`` is the whole drawing's, legend included (``legend_height`` tells how much the legend takes).
    """
    register_fonts()
    d = Drawing(width, height, initialFontName=FONT, initialFontSize=FONT_SIZE)  # never Helvetica
    players = game.players
    points = len(game.turn_rounds)
    if not players or not points:
        message = nfc(_("No moves yet."))
        d.add(String(width / 2, height / 2, message, fontName=FONT, fontSize=9, textAnchor="middle"))
        return d
    columns, names, legend_h = _legend(game, width)

    # the y axis: from a round figure under the lowest value to one over the highest
    values = [v for p in players for v in p.series]
    low, high = min(values), max(values)
    step = _nice_step(high - low if high > low else max(abs(high) / 5, 100))
    y_min = math.floor(low / step) * step
    y_max = max(math.ceil(high / step) * step, y_min + step)
    ticks = list(range(y_min, y_max + 1, step))
    label_w = max(stringWidth(str(t), FONT, FONT_SIZE) for t in ticks)

    left = label_w + 8
    right = 8
    top = FONT_SIZE + 12  # the y axis's title
    bottom = legend_h + 2 * FONT_SIZE + 12  # round numbers, the x axis's title, the legend
    plot_w = max(width - left - right, 10)
    plot_h = max(height - top - bottom, 10)
    x0, y0 = left, bottom

    def x(i: int) -> float:
        return x0 + (plot_w * i / (points - 1) if points > 1 else plot_w / 2)

    def y(v: float) -> float:
        return y0 + plot_h * (v - y_min) / (y_max - y_min)

    d.add(Rect(x0, y0, plot_w, plot_h, strokeColor=AXIS, strokeWidth=0.6, fillColor=None))
    for t in ticks:
        if y_min < t < y_max:
            d.add(Line(x0, y(t), x0 + plot_w, y(t), strokeColor=GRID, strokeWidth=0.4))
        label = String(x0 - 4, y(t) - FONT_SIZE / 3, str(t), fontName=FONT, fontSize=FONT_SIZE)
        label.textAnchor = "end"
        d.add(label)
    if y_min < 0 < y_max:  # the zero line
        d.add(Line(x0, y(0), x0 + plot_w, y(0), strokeColor=AXIS, strokeWidth=0.6))

    # rounds: a light line where each one ends, its number under its span (thinned out when crowded)
    spans: dict[int, list[int]] = {}
    for i, r in enumerate(game.turn_rounds):
        if r > 0:
            spans.setdefault(r, [i, i])[1] = i
    every = 1
    if spans:
        widest = max(stringWidth(str(r), FONT, FONT_SIZE) for r in spans) + 6
        while plot_w / len(spans) * every < widest:
            every += 1
    for n, (r, (first, last)) in enumerate(sorted(spans.items())):
        start = max(first - 1, 0)
        if start > 0:
            d.add(Line(x(start), y0, x(start), y0 + plot_h, strokeColor=GRID, strokeWidth=0.4))
        if n % every == 0:
            label = String(
                (x(start) + x(last)) / 2, y0 - FONT_SIZE - 3, str(r), fontName=FONT, fontSize=FONT_SIZE
            )
            label.textAnchor = "middle"
            d.add(label)
    title = String(
        x0 + plot_w / 2,
        y0 - 2 * FONT_SIZE - 7,
        nfc(pgettext("game", "round")),
        fontName=FONT,
        fontSize=FONT_SIZE,
    )
    title.textAnchor = "middle"
    title.fillColor = AXIS
    d.add(title)
    d.add(String(2, y0 + plot_h + 9, nfc(_("net worth")), fontName=FONT, fontSize=FONT_SIZE, fillColor=AXIS))

    # one line per player (a single point is drawn as a short flat line)
    for index, p in enumerate(players):
        colour, dash, line_w = style_of(index)
        if len(p.series) > 1:
            coords = [c for i, v in enumerate(p.series) for c in (x(i), y(v))]
        else:
            coords = [x0, y(p.series[0]), x0 + plot_w, y(p.series[0])]
        d.add(
            PolyLine(coords, strokeColor=colour, strokeWidth=line_w, strokeDashArray=dash, strokeLineJoin=1)
        )

    # the legend: a sample of each line and the player's name, in seat order
    col_w = width / columns
    top_y = y0 - 2 * FONT_SIZE - 14
    for start in range(0, len(names), columns):
        row = names[start : start + columns]
        for c, lines in enumerate(row):
            colour, dash, line_w = style_of(start + c)
            lx = c * col_w + 4
            mid = top_y - FONT_SIZE * 0.35
            d.add(
                Line(
                    lx,
                    mid,
                    lx + LEGEND_SAMPLE,
                    mid,
                    strokeColor=colour,
                    strokeWidth=line_w,
                    strokeDashArray=dash,
                )
            )
            for k, text in enumerate(lines):
                y_text = top_y - FONT_SIZE * 0.7 - k * LEADING
                d.add(String(lx + LEGEND_SAMPLE + 5, y_text, text, fontName=FONT, fontSize=FONT_SIZE))
        top_y -= max(len(n) for n in row) * LEADING + 3
    return d


_XML_PROLOGUE = re.compile(r"^\s*<\?xml[^>]*\?>\s*(<!DOCTYPE[^>]*>\s*)?", re.S)
_STYLE_ATTRIBUTE = re.compile(r'\sstyle="([^"]*)"')


def _presentation_attributes(style: re.Match) -> str:
    """A ``style`` attribute written by reportlab (``stroke: rgb(…); stroke-width: 0.4; fill: None``) as SVG
    presentation attributes (``stroke="rgb(…)" stroke-width="0.4" fill="none"``): the same drawing, which the
    pages' Content-Security-Policy (``style-src 'self'``) lets through where it blocks style attributes."""
    attributes = []
    for declaration in style.group(1).split(";"):
        name, colon, value = declaration.partition(":")
        if colon and name.strip():
            value = value.strip()
            attributes.append(f' {name.strip()}="{"none" if value.lower() == "none" else value}"')
    return "".join(attributes)


def net_worth_svg(game: GameReport, width: float = 640, height: float = 300) -> SafeString:
    """The same chart as SVG markup, ready to place in a page (the names are escaped by the XML writer).

    The ``<svg>`` element scales to its container (``viewBox``, ``width="100%"``), carries no ``id`` (several
    charts may share a page), asks for DejaVu Sans or the browser's sans-serif, and has no style attribute
    (the Content-Security-Policy would block it): presentation attributes instead.
    """
    drawing = net_worth_chart(game, width, height)
    svg = renderSVG.drawToString(drawing, useClip=True)
    svg = _XML_PROLOGUE.sub("", svg, count=1)
    svg = re.sub(r'<svg width="[^"]*" height="[^"]*"', '<svg width="100%"', svg, count=1)
    svg = svg.replace('<g id="group" ', "<g ", 1)
    svg = svg.replace("<title>...</title>", f"<title>{escape(nfc(_('Net worth turn by turn')))}</title>", 1)
    svg = svg.replace("<desc>...</desc>", "", 1)
    svg = svg.replace(f"font-family: {FONT};", "font-family: 'DejaVu Sans', Verdana, sans-serif;")
    svg = _STYLE_ATTRIBUTE.sub(_presentation_attributes, svg)
    return mark_safe(svg.strip())  # the XML writer escaped every name
