"""The participant's income/cost card (004's "individual card") as PDF.

One card per (game, player): every operation in order with the move's number, the round, what happened (and
on which square), the income, the cost and the running balance (the equity after it), from the starting cash
to the totals; then the net worth and its parts, and the identity of RULES.md §2 checked on the page:
starting cash + income − cost = the balance, which equals the net worth while the player is in the game.
After a bankruptcy the identity no longer applies (RULES.md §2, §3): the card says so.

An Anti-Monopoly player's role is marked by shape and colour next to his name (heading and every page's head).
A card may run over several pages (the column headers repeat); each card starts on a new page. Cards of a
game played outside a tournament carry the game's name in the page header.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, PageBreak, Spacer, Table, TableStyle

from tournament.exports.pdf.document import Document
from tournament.exports.pdf.styles import FONT, GRID, RULE, esc, markup, nfc, para, role_markup
from tournament.exports.pdf.tables import columns, data_table
from tournament.models import Tournament
from tournament.reports.games import GameReport, PlayerReport
from tournament.reports.rounds import RoundReport

OK = "✓"
NOT_OK = "✗"


def participant_entries(
    rounds: list[RoundReport], participant_id: int
) -> list[tuple[GameReport, PlayerReport]]:
    """A participant's games in these rounds (``reports.rounds.participant_rounds``, or a tournament
    report's), round by round: the entries of his cards."""
    entries = []
    for r in rounds:
        for t in r.tables:
            if t.game is None:
                continue
            entries += [(t.game, p) for p in t.game.players if p.participant_id == participant_id]
    return entries


def game_entries(game: GameReport) -> list[tuple[GameReport, PlayerReport]]:
    """Every player's card of one game, in seat order."""
    return [(game, p) for p in game.players]


def _place(game: GameReport) -> str:
    """Where the game was played: its round and table in the tournament, or its name."""
    g = game.game
    if g.table_id is None:
        return str(g)
    table = g.table
    return _("round %(r)s, table %(n)s") % {"r": table.round.number, "n": table.number}


def identity_text(p: PlayerReport) -> str:
    return _(
        "starting cash %(start)s + income %(income)s − cost %(cost)s = %(balance)s; net worth %(worth)s"
    ) % {
        "start": p.starting_cash,
        "income": p.income,
        "cost": p.cost,
        "balance": p.balance,
        "worth": p.worth.total,
    }


def identity_check(p: PlayerReport) -> str:
    """The mark after the identity: agrees, does not agree, or does not apply (bankrupt)."""
    if p.bankrupt:
        return _("bankrupt: the identity does not apply after a bankruptcy")
    if p.balance == p.worth.total:
        return f"{OK} " + _("the card agrees with the net worth")
    return f"{NOT_OK} " + _("the card does NOT agree with the net worth: check the entries")


def _card(doc: Document, game: GameReport, p: PlayerReport) -> list:
    width = doc.width
    role = " " + role_markup(p.role) if p.role else ""  # Anti-Monopoly: his role, marked
    title = markup(esc(p.name) + role, "title")
    heading = [
        title,
        para(_place(game), "body"),
        para(_("Income/cost card: every operation changes the equity by its income or cost."), "muted"),
        Spacer(1, 2 * mm),
    ]
    header = ["#", pgettext("game", "Round"), _("Operation"), _("Income"), _("Cost"), _("Balance")]
    rows = [["", "", _("starting cash"), "", "", p.starting_cash]]
    for line in p.lines:
        what = line.operation + (f" — {line.square}" if line.square else "")
        rows.append([line.seq, line.round, what, line.income or "", line.cost or "", line.balance])
    rows.append(["", "", _("Total"), p.income, p.cost, p.balance])
    widths = columns(width, [9, 10, 55, 15, 15, 16])
    # whose card this is, repeated over the column headers on every page the card runs onto
    whose = markup(f"<b>{esc(p.name)}</b>{role} · {esc(_place(game))}", "cell")
    table = data_table(
        header,
        rows,
        widths,
        numeric={0, 1, 3, 4, 5},
        bold_rows={len(rows) - 1},
        header_rows=[[whose, "", "", "", "", ""]],
        extra=[("SPAN", (0, 0), (-1, 0)), ("BACKGROUND", (0, 0), (-1, 0), colors.white)],
    )
    w = p.worth
    worth = _(
        "Net worth: cash %(cash)s + properties %(properties)s + mortgaged (half) %(mortgaged)s + "
        "buildings %(buildings)s = %(total)s"
    ) % {
        "cash": w.cash,
        "properties": w.properties,
        "mortgaged": w.mortgaged,
        "buildings": w.buildings,
        "total": w.total,
    }
    box = Table(
        [[para(worth)], [markup(f"<b>{esc(identity_text(p))}</b>")], [para(identity_check(p), "check")]],
        colWidths=[width],
        hAlign="LEFT",
        style=TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), FONT),
                ("BOX", (0, 0), (-1, -1), 0.8, RULE),
                ("LINEABOVE", (0, 2), (-1, 2), 0.4, GRID),
                ("TOPPADDING", (0, 0), (-1, -1), 3),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
                ("LEFTPADDING", (0, 0), (-1, -1), 5),
            ]
        ),
    )
    return [*heading, table, Spacer(1, 4 * mm), KeepTogether([box])]


def ledger_cards_pdf(
    tournament: Tournament | None, entries: list[tuple[GameReport, PlayerReport]], title: str
) -> bytes:
    """One card per entry, each from a new page; ``tournament`` None: a game of its own (its name heads)."""
    if tournament is not None:
        name = tournament.name
    else:
        name = ", ".join(dict.fromkeys(nfc(game.game) for game, _p in entries)) or title
    doc = Document(title, name)
    story: list = []
    for i, (game, p) in enumerate(entries):
        if i:
            story.append(PageBreak())
        story += _card(doc, game, p)
    if not entries:
        story.append(para(_("No games yet.")))
    return doc.build(story)
