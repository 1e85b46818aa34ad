"""The table's result sheet: one A4 page per table, for the players and the referee to sign.

Tournament, round, table, referees; how the game ended (a game the director stopped says so, with his
reason), when it started and ended and how long it took; whether the result is confirmed, by whom, and
whether it was entered by hand; each player's rank, final score and placement points from the table's one
source of final figures (``TableReport.final``: the confirmed result the standings count, else the finished
game's ranking, marked provisional), with the parts of the net worth (RULES.md §3) where the table has a
game; a player marked absent, not ranked; the net worth turn by turn as a chart; a box for remarks and
protests; a signature line for every player and referee. Anti-Monopoly roles are marked by shape and colour.
A tournament that prints the players' private links on its sheets (``Tournament.links_on_sheets``) has each
player's link beside his signature line, as a QR code and written out: the links are the caller's to give (the
addresses are the request's), none for a revoked link or a withdrawn player, never a referee's.

Pass one table's report for one sheet, a round's tables for the round, every round's tables for the whole
tournament: each sheet is shrunk to fit its page if it must (a very long name), never cut or split.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from reportlab.lib.units import mm
from reportlab.platypus import KeepInFrame, PageBreak, Spacer, Table, TableStyle

from rules.banknotes import signed
from tournament.exports.chart import legend_height, net_worth_chart
from tournament.exports.pdf.document import Document
from tournament.exports.pdf.handwriting import signatures
from tournament.exports.pdf.styles import FONT, RULE, esc, markup, number, para, role_markup
from tournament.exports.pdf.tables import columns, data_table
from tournament.models import Tournament
from tournament.reports.games import duration_text
from tournament.reports.tables import FinalRow, Signed, TableReport, end_text

CHART_HEIGHT = 60 * mm  # the plot and its axes; the legend's height comes on top
REMARK_LINES = 3  # ruled lines in the remarks and protests box


def net_worth_note() -> str:
    """What the net worth adds up (RULES.md §3), under the figures."""
    return _(
        "Net worth = cash + unmortgaged properties at the printed price + mortgaged ones at half "
        "the price + buildings at their purchase price."
    )


def game_status(t: TableReport) -> str:
    game = t.game
    if game is None and not (t.result is not None and t.result.by_hand):
        return _("This table's game has not started.")
    if game is not None and game.finished and game.error is None:
        return _("finished: %(reason)s") % {"reason": end_text(t)}
    return end_text(t)


def result_status(table: TableReport) -> str:
    if table.result is None:
        if table.provisional:
            return _("not confirmed: the figures below are the game's, provisional until confirmed")
        return _("not confirmed")
    status = _("awaiting second confirmation") if not table.counted else _("result confirmed")
    if table.result.by_hand:
        status += " — " + _("entered by hand: “%(reason)s”") % {"reason": table.result.hand_reason}
    return status


def signed_text(s: Signed) -> str:
    """A player's word on the figures, as the sheet prints it."""
    if s.agrees:
        return _("%(name)s: agrees") % {"name": s.name}
    return _("%(name)s: disputes: “%(reason)s”") % {"name": s.name, "reason": s.reason}


def debts_note(t: TableReport) -> str | None:
    """Cash below zero explained: a payment the rules imposed, not yet raised when the director stopped the
    game (RULES.md §2: it may take cash below zero), which his net worth counts (§3)."""
    owing = [r.name for r in t.final if r.player is not None and r.player.worth and r.player.worth.cash < 0]
    if not owing:
        return None
    return _(
        "Cash below zero is a payment owed and not yet raised when the game ended (%(names)s): the net "
        "worth counts it as a debt."
    ) % {"names": ", ".join(owing)}


def _clock(moment) -> str:
    return time_format(timezone.localtime(moment), "H:i") if moment is not None else "—"


def time_text(t: TableReport) -> str:
    """Started at, ended at, and how long it took."""
    game = t.game
    if game is None:
        return "—"
    text = _("%(start)s – %(end)s") % {"start": _clock(game.started_at), "end": _clock(game.ended_at)}
    if game.duration is not None:
        text += " (" + duration_text(game.duration) + ")"
    return text


def _info(tournament: Tournament, t: TableReport, width: float) -> Table:
    rows = [
        (_("Tournament"), esc(tournament.name)),
        (pgettext("tournament", "Round"), str(t.table.round.number)),
        (_("Table"), str(t.table.number)),
        (_("Referees"), esc(", ".join(t.referees) or "—")),
        (_("Game"), esc(game_status(t))),
        (_("Start – end"), esc(time_text(t))),
        (_("Result"), esc(result_status(t))),
    ]
    if t.result is not None:
        rows.append((_("Confirmed by"), esc(t.confirmed_by or "—")))
    if t.signed:
        rows.append((_("Signed"), esc("; ".join(signed_text(s) for s in t.signed))))
    if t.ruling is not None:
        rows.append(
            (
                _("Director's ruling"),
                esc(_("“%(ruling)s” (%(by)s)") % {"ruling": t.ruling.reason, "by": t.ruling.by}),
            )
        )
    if t.absent:
        rows.append(
            (
                _("Absent"),
                esc("; ".join(f"{a.participant.shown_name} (“{a.reason}”)" for a in t.absent)),
            )
        )
    label_w = 40 * mm  # "Zatwierdzone przez" on one line
    table = Table(
        [[para(label, "bold"), markup(value)] for label, value in rows],
        colWidths=[label_w, width - label_w],
        hAlign="LEFT",
    )
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), FONT),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 1),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
            ]
        )
    )
    return table


def player_cell(row: FinalRow):
    """The player's name, his role's mark, and whether he went bankrupt or was absent."""
    text = esc(row.name)
    if row.role:
        text += " " + role_markup(row.role)
    notes = []
    if row.bankrupt:
        notes.append(_("bankrupt"))
    if row.absent:
        notes.append(_("absent: not ranked, 0 points"))
    if notes:
        text += f' <font color="#555555">({esc(", ".join(notes))})</font>'
    return markup(text, "cell")


def _figures(t: TableReport, width: float) -> Table:
    """Every person of the table with his final figures; the net worth's parts where there is a game."""
    parts = t.game is not None and bool(t.game.players)
    header = [_("Rank"), _("Player")]
    if parts:
        header += [_("Cash"), _("Properties"), _("Mortgaged (at half)"), _("Buildings"), _("Net worth")]
    header += [_("Score"), _("Points")]
    rows = []
    for r in t.final:
        row = [number(r.rank), player_cell(r)]
        if parts:
            w = r.player.worth if r.player is not None else None
            row += [w.cash, w.properties, w.mortgaged, w.buildings, w.total] if w else [""] * 5
        row += [number(r.score) if not r.absent else "–", number(r.points)]
        rows.append(row)
    if parts:
        widths, numeric, bold = (
            columns(width, [7, 42, 12, 13, 14, 13, 13, 12, 9]),
            {0, 2, 3, 4, 5, 6, 7, 8},
            {7},
        )
    else:
        widths, numeric, bold = columns(width, [10, 60, 16, 14]), {0, 2, 3}, {2}
    return data_table(header, rows, widths, numeric=numeric, bold_columns=bold)


def cash_counts(t: TableReport, width: float) -> list:
    """Each counted player's last cash count and its difference (none: nothing)."""
    counted = [p for p in t.game.players if p.cash_count is not None] if t.game is not None else []
    if not counted:
        return []
    header = [_("Player"), _("Move"), _("Counted"), _("Expected"), _("Difference")]
    rows = [
        [p.name, f"#{c.seq}", c.counted, c.expected, signed(c.difference)]
        for p in counted
        for c in [p.cash_count]
    ]
    table = data_table(
        header, rows, columns(width, [40, 12, 16, 16, 16]), numeric={1, 2, 3, 4}, bold_columns={4}
    )
    return [para(_("Last cash counts"), "h2"), table]


def remarks_box(width: float) -> Table:
    """A ruled box for remarks and protests, written by hand at the table."""
    table = Table(
        [[para(_("Remarks and protests"), "bold")]] + [[""] for _i in range(REMARK_LINES)],
        colWidths=[width],
        rowHeights=[None] + [8 * mm] * REMARK_LINES,
        hAlign="LEFT",
    )
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), FONT),
                ("BOX", (0, 0), (-1, -1), 0.6, RULE),
                ("LINEBELOW", (0, 1), (-1, -2), 0.3, RULE),
                ("LEFTPADDING", (0, 0), (-1, -1), 4),
                ("TOPPADDING", (0, 0), (-1, -1), 2),
            ]
        )
    )
    return table


def _sheet(doc: Document, tournament: Tournament, t: TableReport, links: Mapping[int, str]) -> list:
    width = doc.width
    story = [
        para(
            _("Result sheet: round %(round)s, table %(table)s")
            % {"round": t.table.round.number, "table": t.table.number},
            "title",
        ),
        _info(tournament, t, width),
        Spacer(1, 3 * mm),
    ]
    if t.final:
        story.append(_figures(t, width))
        if debts_note(t):
            story.append(para(debts_note(t), "muted"))
    if t.source is None and t.game is not None and t.game.players:
        story.append(para(_("No result yet: the net worth is that of now."), "muted"))
    elif t.result is not None and t.result.by_hand and t.game is not None and t.game.players:
        note = _("The result was entered by hand: the net worth's parts are the game's in the app.")
        story.append(para(note, "muted"))
    game = t.game
    if game is not None and game.players:
        story += [
            Spacer(1, 1 * mm),
            para(net_worth_note(), "muted"),
            *cash_counts(t, width),
            para(_("Net worth turn by turn"), "h2"),
            net_worth_chart(game, width, CHART_HEIGHT + legend_height(game, width)),
        ]
    story += [Spacer(1, 3 * mm), remarks_box(width)]
    signers: list[tuple] = [(r.name, _("player"), links.get(r.participant)) for r in t.players]
    signers += [(name, _("referee")) for name in t.referees] or [("", _("referee"))]
    story += [para(_("Signatures"), "h2"), signatures(signers, width)]
    return story


def result_sheets_pdf(
    tournament: Tournament, tables: list[TableReport], links: Mapping[int, str] | None = None
) -> bytes:
    """One page per table (in the order given): a table's, a round's or the whole tournament's sheets.

    ``links``: participant's pk → his private link's full address, printed by his signature line where the
    tournament's setting says so (``links_on_sheets``); a player missing from it gets none."""
    doc = Document(_("Result sheet"), tournament.name)
    links = links if links and tournament.links_on_sheets else {}
    story: list = []
    for i, t in enumerate(tables):
        if i:
            story.append(PageBreak())
        story.append(KeepInFrame(doc.width, doc.height - 1, _sheet(doc, tournament, t, links), mode="shrink"))
    if not tables:
        story.append(para(_("No tables.")))
    return doc.build(story)
