"""The standings as PDF: what the projector shows, on A4 landscape pages with the header row repeated.

Rank, name, club, placement points, the total of the final scores, the best score, games played, and the
points won in each round; a withdrawn participant is marked with the round after which he withdrew.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.platypus import Spacer

from tournament.collation import by_rank_then_name
from tournament.exports.pdf.document import Document
from tournament.exports.pdf.styles import SHADE, esc, markup, number, para
from tournament.exports.pdf.tables import columns, data_table
from tournament.reports.rounds import TournamentReport
from tournament.reports.standings import StandingsReport


def standings_pdf(report: StandingsReport | TournamentReport) -> bytes:
    """From the standings alone (``reports.standings.standings_report``, what the public download reads), or
    from the whole tournament's report when the caller has one."""
    tournament = report.tournament
    doc = Document(_("Standings"), tournament.name, wide=True)
    rounds = report.round_numbers
    fixed = [
        _("Rank"),
        _("Participant"),
        _("Club / school"),
        _("Points"),
        _("Total score"),
        _("Best score"),
        _("Games"),
    ]
    header = fixed + [str(n) for n in rounds]
    parts = [7, 40, 26, 10, 13, 13, 9] + [7] * len(rounds)
    widths = columns(doc.width, parts)
    rows = []
    for row in by_rank_then_name(report.standings):
        p = row.participant
        name = esc(p.shown_name)
        if p.withdrawn_after is not None:
            name += " <font color='#555555'>(" + esc(
                _("withdrawn after round %(n)s") % {"n": p.withdrawn_after}
            )
            name += ")</font>"
        rows.append(
            [
                row.rank,
                markup(name, "cell"),
                p.club,
                row.points,
                row.total_score,
                number(row.best_score),
                row.games,
            ]
            + [number(row.by_round.get(n)) for n in rounds]
        )
    groups = []
    extra = []
    if rounds:
        groups = [[""] * len(fixed) + [_("Points per round")] + [""] * (len(rounds) - 1)]
        first = len(fixed)
        extra = [
            ("SPAN", (first, 0), (-1, 0)),
            ("SPAN", (0, 0), (first - 1, 0)),
            ("BACKGROUND", (0, 0), (-1, 0), SHADE),
            ("LINEBELOW", (0, 0), (first - 1, 0), 0, SHADE),
        ]
    numeric = {0, 3, 4, 5, 6} | set(range(len(fixed), len(header)))
    story = [para(_("Standings"), "title")]
    if report.standings:
        story.append(
            data_table(header, rows, widths, numeric=numeric, header_rows=groups, extra=extra, bold_rows=())
        )
        story.append(Spacer(1, 2 * mm))
        story.append(
            para(
                _("“–”: not played in that round."),
                "muted",
            )
        )
    else:
        story.append(para(_("No participants yet.")))
    return doc.build(story)
