"""Blank backup sheets for a table that keeps paper as a fallback, and a blank participant's card.

- The table's sheet: round, table and the seated players filled in (with their Anti-Monopoly roles, marked
  by shape and colour); ruled rows for the operations (move,
  round, player, operation, income, cost); then, per player, a row for the final cash, the parts of the net
  worth and the rank, and a signature line for every player and the referee.
- The participant's card: blanks for the name, round, table and game; the starting cash (the tournament's
  variant's); ruled rows for the operations (operation, income, cost, balance); the totals and the identity of
  RULES.md §2 to fill in, and the signatures.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, PageBreak, Spacer

from rules.variants import make_variant
from tournament.exports.pdf.document import Document
from tournament.exports.pdf.handwriting import fields, signatures
from tournament.exports.pdf.styles import esc, markup, para, role_markup
from tournament.exports.pdf.tables import columns, data_table
from tournament.exports.result_sheets import net_worth_note
from tournament.models import Tournament
from tournament.reports.tables import TableReport

ROW = 7.5 * mm  # the height of a ruled row: room to write by hand
HEAD_ROW = 7 * mm  # about the height of a ruled table's header row


def _ruled(header: list[str], widths: list[float], rows: int, *, numeric=(), first: list | None = None):
    body = ([first] if first else []) + [[""] * len(header) for _i in range(rows)]
    return data_table(header, body, widths, numeric=numeric, stripes=False, row_heights=ROW)


def _rows_in(height: float) -> int:
    """How many ruled rows (under a header row) fit in ``height``."""
    return max(int((height - HEAD_ROW) // ROW) - 1, 3)


def _height(flowables: list, width: float, room: float) -> float:
    return sum(f.wrap(width, room)[1] + f.getSpaceBefore() + f.getSpaceAfter() for f in flowables)


def _role(table: TableReport, participant: int) -> str:
    role = table.roles.get(participant, "")
    return " " + role_markup(role) if role else ""


def blank_table_sheet_pdf(tournament: Tournament, table: TableReport, *, pages: int = 2) -> bytes:
    """The table's paper record: ``pages`` pages of ruled operation rows, then the final figures to sign."""
    doc = Document(_("Backup sheet of a table"), tournament.name)
    width = doc.width
    names = [p.shown_name for p in table.seated]
    named = [esc(p.shown_name) + _role(table, p.pk) for p in table.seated]  # with the role (Anti-Monopoly)
    head = [
        para(
            _("Backup sheet: round %(round)s, table %(table)s")
            % {"round": table.table.round.number, "table": table.table.number},
            "title",
        ),
        markup(esc(_("Players in seat order: %(names)s")) % {"names": ", ".join(named) or "—"}),
        para(_("Referees") + ": " + (", ".join(table.referees) or "—")),
        Spacer(1, 3 * mm),
    ]
    header = [_("Move"), pgettext("game", "Round"), _("Player"), _("Operation"), _("Income"), _("Cost")]
    widths = columns(width, [10, 10, 26, 36, 14, 14])
    story = list(head)
    for page in range(pages):
        if page:
            story.append(PageBreak())
        room = doc.height - (0 if page else _height(head, width, doc.height))
        story.append(_ruled(header, widths, _rows_in(room), numeric={4, 5}))

    final_header = [
        _("Player"),
        _("Cash"),
        _("Properties"),
        _("Mortgaged (at half)"),
        _("Buildings"),
        _("Net worth"),
        _("Rank"),
        _("Points"),
    ]
    final_widths = columns(width, [32, 13, 14, 14, 13, 13, 9, 9])
    final_rows = [[markup(n, "cell"), "", "", "", "", "", "", ""] for n in named] or [
        [""] * 8 for _i in range(4)
    ]
    signers = [(n, _("player")) for n in names] or [("", _("player"))] * 4
    signers += [(r, _("referee")) for r in table.referees] or [("", _("referee"))]
    story += [
        PageBreak(),
        para(
            _("Final figures: round %(round)s, table %(table)s")
            % {"round": table.table.round.number, "table": table.table.number},
            "title",
        ),
        data_table(
            final_header,
            final_rows,
            final_widths,
            numeric=set(range(1, 8)),
            stripes=False,
            row_heights=10 * mm,
        ),
        para(net_worth_note(), "muted"),
        Spacer(1, 4 * mm),
        fields([(_("End of the game"), ""), (_("at (time)"), "")], width),
        para(_("Signatures"), "h2"),
        signatures(signers, width),
    ]
    return doc.build(story)


def blank_card_pdf(tournament: Tournament | None, *, rows: int | None = None) -> bytes:
    """A participant's blank income/cost card: one page, or ``rows`` ruled rows over as many pages."""
    name = tournament.name if tournament is not None else _("Monopoly tournament")
    doc = Document(_("Income/cost card"), name)
    width = doc.width
    start = ""
    if tournament is not None:
        start = str(make_variant(tournament.variant, tournament.game_options()).starting_cash)
    head = [
        para(_("Income/cost card"), "title"),
        fields([(_("Name"), "")], width),
        fields([(pgettext("tournament", "Round"), ""), (_("Table"), ""), (_("Game"), "")], width),
        Spacer(1, 3 * mm),
    ]
    header = [_("Operation"), _("Income"), _("Cost"), _("Balance")]
    widths = columns(width, [52, 16, 16, 16])
    closing = [
        Spacer(1, 3 * mm),
        fields([(_("Total income"), ""), (_("Total cost"), "")], width),
        fields([(_("starting cash + income − cost ="), ""), (_("Net worth"), "")], width),
        Spacer(1, 2 * mm),
        signatures([("", _("player")), ("", _("referee"))], width),
    ]
    if rows is None:
        rows = _rows_in(doc.height - _height(head + closing, width, doc.height))
    first = [_("starting cash"), "", "", start]
    story = [*head, _ruled(header, widths, rows, numeric={1, 2, 3}, first=first), KeepTogether(closing)]
    return doc.build(story)
