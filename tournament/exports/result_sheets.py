"""The table's result sheet: one A4 page per table, for the players and the referee to sign.

Tournament, round, table, referees; the game's state (finished and why, or still in play) and whether the
result is confirmed; each player's final cash, the parts of the net worth (RULES.md §3: cash, unmortgaged
properties at the printed price, mortgaged ones at half, buildings at purchase price), the net worth, rank
and placement points; the net worth turn by turn as a chart; a signature line for every player and referee.

Pass one table's report for one sheet, a round's tables for the round, every round's tables for the whole
tournament: each sheet is shrunk to fit its page if it must (a very long name), never cut or split.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from reportlab.lib.units import mm
from reportlab.platypus import KeepInFrame, PageBreak, Spacer, Table, TableStyle

from tournament.exports.chart import legend_height, net_worth_chart
from tournament.exports.pdf import FONT, Document, columns, data_table, esc, markup, number, para, signatures
from tournament.models import Tournament
from tournament.reports import GameReport, TableReport, end_reason_text
from tournament.roles import role_label

CHART_HEIGHT = 60 * mm  # the plot and its axes; the legend's height comes on top


def net_worth_note() -> str:
    """What the net worth adds up (RULES.md §3), under the figures."""
    return _(
        "Net worth = cash + unmortgaged properties at the printed price + mortgaged ones at half "
        "the price + buildings at their purchase price."
    )


def game_status(game: GameReport | None) -> str:
    if game is None:
        return _("This table's game has not started.")
    if game.error:
        return _("The game record does not replay: %(error)s") % {"error": game.error}
    if game.finished:
        return _("finished: %(reason)s") % {"reason": end_reason_text(game.end_reason)}
    return _("in play, round %(n)s: the figures are those of now") % {"n": game.round}


def result_status(table: TableReport) -> str:
    if table.result is None:
        return _("not confirmed")
    if not table.counted:
        return _("awaiting second confirmation")
    return _("result confirmed")


def _info(tournament: Tournament, t: TableReport, width: float) -> Table:
    rows = [
        (_("Tournament"), tournament.name),
        (pgettext("tournament", "Round"), str(t.table.round.number)),
        (_("Table"), str(t.table.number)),
        (_("Referees"), ", ".join(t.referees) or "—"),
        (_("Game"), game_status(t.game)),
        (_("Result"), result_status(t)),
    ]
    label_w = 32 * mm
    table = Table(
        [[para(label, "bold"), para(value)] for label, value in rows],
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


def _players(game: GameReport, width: float) -> Table:
    header = [
        _("Rank"),
        _("Player"),
        _("Cash"),
        _("Properties"),
        _("Mortgaged (at half)"),
        _("Buildings"),
        _("Net worth"),
        _("Points"),
    ]
    players = game.ranked if game.finished else game.players
    rows = []
    for p in players:
        notes = [role_label(p.role)] if p.role else []
        if p.bankrupt:
            notes.append(_("bankrupt"))
        name = markup(
            esc(p.name) + (f' <font color="#555555">({esc(", ".join(notes))})</font>' if notes else ""),
            "cell",
        )
        w = p.worth
        rows.append(
            [number(p.rank), name, w.cash, w.properties, w.mortgaged, w.buildings, w.total, number(p.points)]
        )
    widths = columns(width, [9, 40, 14, 17, 16, 15, 15, 11])
    return data_table(
        header,
        rows,
        widths,
        numeric={0, 2, 3, 4, 5, 6, 7},
        bold_columns={6},
    )


def _sheet(doc: Document, tournament: Tournament, t: TableReport) -> list:
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
    game = t.game
    if game is not None and game.players:
        story += [
            _players(game, width),
            Spacer(1, 1 * mm),
            para(net_worth_note(), "muted"),
            para(_("Net worth turn by turn"), "h2"),
            net_worth_chart(game, width, CHART_HEIGHT + legend_height(game, width)),
        ]
        signers = [(p.name, _("player")) for p in game.players]
    else:
        if t.seated:
            story.append(para(_("Seated: %(names)s") % {"names": ", ".join(p.name for p in t.seated)}))
        signers = [(p.name, _("player")) for p in t.seated]
    signers += [(name, _("referee")) for name in t.referees] or [("", _("referee"))]
    story += [para(_("Signatures"), "h2"), signatures(signers, width)]
    return story


def result_sheets_pdf(tournament: Tournament, tables: list[TableReport]) -> bytes:
    """One page per table (in the order given): a table's, a round's or the whole tournament's sheets."""
    doc = Document(_("Result sheet"), tournament.name)
    story: list = []
    for i, t in enumerate(tables):
        if i:
            story.append(PageBreak())
        story.append(KeepInFrame(doc.width, doc.height - 1, _sheet(doc, tournament, t), mode="shrink"))
    if not tables:
        story.append(para(_("No tables.")))
    return doc.build(story)
