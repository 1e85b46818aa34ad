"""A tournament's Excel workbook, laid out from a ``TournamentReport`` (tournament.reports): nothing is
computed here, every figure is the report's.

Sheets: Standings; Results (one row per player per table per round, the absent too: the table's final
figures, ``TableReport.final``); Ledgers (every participant's income/cost card on one long sheet, a
participant column to filter on); Events (every game's log with the cash each move moved); Flagged trades
(tournament.reports.trade_flags, with what each passed in words and the director's review); Tournament (the
settings).
Each sheet has its header row frozen, an autofilter over the rows written and column widths from the data.

Written in openpyxl's write-only mode: rows go to a temporary file as they are made, so memory does not grow
with the number of rows (the widths come from a first pass over the same rows, which keeps nothing).

Text from users (participant, club, referee and tournament names; event texts, which start with a player's
name) goes through ``safe_text``: characters XML cannot carry are dropped, and text Excel could take for a
formula (= + - @, a tab or a carriage return first) or an error value (#) is written as a string cell with
the quote prefix, as if typed after an apostrophe: Excel shows it as typed and never evaluates it, not even
when the cell is edited. (openpyxl itself would store any text starting with "=" as a formula.)
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from io import BytesIO
from itertools import islice

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from rules import make_variant
from tournament.boards.names import board_label
from tournament.collation import by_rank_then_name, name_key
from tournament.labels import EVENT_TYPES, role_label, tie_break_label, variant_label
from tournament.models import Participant, Round, Table, Tournament
from tournament.reports.games import PlayerReport
from tournament.reports.rounds import TournamentReport
from tournament.reports.tables import end_text, person_name
from tournament.reports.trade_flags import flags_of_tournament

SHEET_NAME_LENGTH = 31  # Excel's limit
CELL_TEXT_LENGTH = 32_767  # Excel's limit
MAX_WIDTH = 50  # column width cap, in characters
#: First characters that make Excel (or a spreadsheet it is pasted into) read text as a formula, or as an
#: error value (#N/A, #REF!…): such text is written quote-prefixed (a line feed: a carriage return made one).
FORMULA_START = frozenset("=+-@\t\r\n#")
_SHEET_FORBIDDEN = re.compile(r"[\[\]:*?/\\]")
_RESERVED_SHEET_NAMES = {"history"}  # Excel keeps "History" for itself


# -- text from users ---------------------------------------------------------------------------------------


class Text(str):
    """Text that must be written as a quote-prefixed string cell (it would otherwise be a formula)."""

    __slots__ = ()


def safe_text(value) -> str:
    """User text as a cell may hold it: what XML cannot carry dropped (control characters; a carriage return
    becomes a line feed, as any XML reader would make it), at most Excel's 32,767 characters; text Excel
    could evaluate is returned as ``Text``, which the sheets write quote-prefixed, never as a formula."""
    if value is None:
        return ""
    text = ILLEGAL_CHARACTERS_RE.sub("", str(value))
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = text[:CELL_TEXT_LENGTH]
    return Text(text) if text[:1] in FORMULA_START else text


def sheet_name(text: str, taken: set[str]) -> str:
    """A valid sheet name from ``text``, not in ``taken`` (compared ignoring case, as Excel does), added to
    it: at most 31 characters, none of []:*?/\\, no apostrophe first or last, not blank, not "History"."""
    name = _SHEET_FORBIDDEN.sub(" ", ILLEGAL_CHARACTERS_RE.sub("", str(text)))
    name = " ".join(name.split()).strip("'")[:SHEET_NAME_LENGTH].strip().strip("'") or "Sheet"
    used = {t.casefold() for t in taken} | _RESERVED_SHEET_NAMES
    candidate, n = name, 1
    while candidate.casefold() in used:
        n += 1
        suffix = f" ({n})"
        candidate = name[: SHEET_NAME_LENGTH - len(suffix)].rstrip().rstrip("'") + suffix
    taken.add(candidate)
    return candidate


# -- writing a sheet ---------------------------------------------------------------------------------------

TEXT, NUMBER, ANY = "text", "number", "any"


@dataclass(frozen=True)
class Column:
    header: str
    kind: str = TEXT


def _measure(columns: Sequence[Column], rows: Iterable[Sequence]) -> tuple[list[float], int]:
    """Column widths from the longest value of each column, and the number of rows (a first pass over the
    rows, a chunk at a time)."""
    widths = [len(c.header) + 4 for c in columns]  # bold, and the filter's button
    rows, count = iter(rows), 0
    while chunk := list(islice(rows, 2000)):
        count += len(chunk)
        for i, values in enumerate(zip(*chunk, strict=True)):
            kind = columns[i].kind
            if kind == TEXT:
                longest = max(map(_text_width, filter(None, values)), default=0)
            elif kind == NUMBER:
                numbers = [v for v in values if v is not None]
                longest = max(len(str(min(numbers))), len(str(max(numbers)))) if numbers else 0
            else:  # texts, numbers and dates mixed
                longest = max((len(str(v)) for v in values if v is not None), default=0)
            widths[i] = max(widths[i], longest + 2)
    return [min(w, MAX_WIDTH) for w in widths], count


def _text_width(text: str) -> int:
    return len(text) if "\n" not in text else max(map(len, text.split("\n")))


def _quoted(ws, text: str) -> WriteOnlyCell:
    cell = WriteOnlyCell(ws, value=text)
    cell.data_type = "s"  # never a formula nor an error value
    cell.quotePrefix = True  # shown as typed, and stays text when edited
    return cell


def _cells(ws, row: Sequence) -> list:
    """The row as openpyxl should write it: every text that Excel could evaluate as a quoted string cell
    (``safe_text`` marks user text; any other text is checked here all the same)."""
    return [
        _quoted(ws, v) if v.__class__ is Text or (v.__class__ is str and v[:1] in FORMULA_START) else v
        for v in row
    ]


def _write_sheet(
    wb: Workbook,
    title: str,
    columns: Sequence[Column],
    rows: Callable[[], Iterable[Sequence]],
    *,
    taken: set[str],
    autofilter: bool = True,
) -> None:
    """One sheet: bold frozen header, widths from the data, then the rows as they come, autofilter over them.
    ``rows`` is called twice (size and widths, then the rows themselves)."""
    ws = wb.create_sheet(sheet_name(title, taken))
    # write-only: the size, the widths and the frozen pane go out with the sheet's head, before any row
    widths, count = _measure(columns, rows())
    used = f"A1:{get_column_letter(len(columns))}{1 + count}"
    ws.calculate_dimension = lambda: used  # what openpyxl writes as the sheet's <dimension> when it has it
    for i, width in enumerate(widths, start=1):
        ws.column_dimensions[get_column_letter(i)].width = width
    ws.freeze_panes = "A2"
    bold = Font(bold=True)
    header = []
    for c in columns:
        cell = _quoted(ws, c.header) if c.header[:1] in FORMULA_START else WriteOnlyCell(ws, value=c.header)
        cell.font = bold
        header.append(cell)
    ws.append(header)
    written = 1
    for row in rows():
        ws.append(_cells(ws, row))
        written += 1
    if autofilter:  # over every row written: the tail of the sheet, written when the workbook is saved
        ws.auto_filter.ref = f"A1:{get_column_letter(len(columns))}{written}"


def _yes(value: bool) -> str:
    return _("Yes") if value else _("No")


def _label(model, name: str) -> str:
    """A model field's name as a header (its translation is already there)."""
    return capfirst(str(model._meta.get_field(name).verbose_name))


# -- the sheets --------------------------------------------------------------------------------------------


class _Names:
    """Each participant's name as a cell shows it (safe_text once per name), for the standings' people."""

    def __init__(self, report: TournamentReport):
        self.people = {row.participant.pk: row.participant for row in report.standings}
        self.name = {pk: safe_text(p.shown_name) for pk, p in self.people.items()}
        self.club = {pk: safe_text(p.club) for pk, p in self.people.items()}

    def of(self, player: PlayerReport) -> str:
        """A game's player by his participant's name (what the standings and filters show)."""
        name = self.name.get(player.participant_id)
        return name if name is not None else safe_text(player.name)


def _standings(report: TournamentReport, names: _Names):
    numbers = report.round_numbers
    columns = [
        Column(_("Rank"), NUMBER),
        Column(_("Participant")),
        Column(_("Club / school")),
        Column(_("Points"), NUMBER),
        Column(_("Total score"), NUMBER),
        Column(_("Best score"), NUMBER),
        Column(_("Games"), NUMBER),
        *(Column(_("Round %(n)s") % {"n": n}, NUMBER) for n in numbers),
        Column(_label(Participant, "withdrawn_after"), NUMBER),
    ]

    def rows() -> Iterator[list]:
        for row in by_rank_then_name(report.standings):
            pk = row.participant.pk
            yield [
                row.rank,
                names.name[pk],
                names.club[pk],
                row.points,
                row.total_score,
                row.best_score,
                row.games,
                *(row.by_round.get(n) for n in numbers),
                row.participant.withdrawn_after,
            ]

    return columns, rows


def _results(report: TournamentReport, names: _Names):
    """One row per person of each table (``TableReport.final``: the figures the standings count, or the
    finished game's until confirmed); the net worth's parts from the game where there is one."""
    columns = [
        Column(_label(Round, "number"), NUMBER),
        Column(_label(Table, "number"), NUMBER),
        Column(_("Referees")),
        Column(_("Participant")),
        Column(_("Club / school")),
        Column(_("Rank"), NUMBER),
        Column(_("Score"), NUMBER),
        Column(_("Net worth"), NUMBER),
        Column(_("Cash"), NUMBER),
        Column(_("Properties"), NUMBER),
        Column(_("Mortgaged (at half)"), NUMBER),
        Column(_("Buildings"), NUMBER),
        Column(_("Bankrupt")),
        Column(_("Absent")),
        Column(_("Points"), NUMBER),
        Column(_("Confirmed")),
        Column(_("Counts in the standings")),
        Column(_("Rounds played"), NUMBER),
        Column(_("End of the game")),
    ]
    roles = make_variant(report.tournament.variant).roles  # Anti-Monopoly: each one's role at the table
    if roles:
        columns.append(Column(_("Role")))

    def rows() -> Iterator[list]:
        for r in report.rounds:
            number = r.round.number
            for t in r.tables:
                referees = safe_text(", ".join(t.referees))
                confirmed, end = _yes(t.result is not None), safe_text(end_text(t))
                played = t.game.round if t.game is not None and t.game.players else None
                for f in t.final:
                    w = f.player.worth if f.player is not None else None
                    parts = [w.total, w.cash, w.properties, w.mortgaged, w.buildings] if w else [None] * 5
                    yield [
                        number,
                        t.table.number,
                        referees,
                        names.name.get(f.participant) or safe_text(f.name),
                        names.club.get(f.participant, ""),
                        f.rank,
                        f.score,
                        *parts,
                        _yes(f.bankrupt),
                        _yes(f.absent),
                        f.points,
                        confirmed,
                        _yes(t.counted and not f.absent),
                        None if f.absent else played,
                        end,
                    ] + ([role_label(f.role)] if roles else [])

    return columns, rows


def _ledgers(report: TournamentReport, names: _Names):
    """Every participant's card, participant after participant (by name), each game in round order: the
    starting cash, then one row per operation with the running balance (the console's card, row for row)."""
    columns = [
        Column(_("Participant")),
        Column(_label(Round, "number"), NUMBER),
        Column(_label(Table, "number"), NUMBER),
        Column(_("Move"), NUMBER),
        Column(_("Game round"), NUMBER),
        Column(_("Operation")),
        Column(_("Square")),
        Column(_("Cash"), NUMBER),
        Column(_("Income"), NUMBER),
        Column(_("Cost"), NUMBER),
        Column(_("Balance"), NUMBER),
    ]
    games = defaultdict(list)  # participant (or, outside the list, the player's name) -> his games
    for r in report.rounds:
        for t in r.tables:
            if t.game is not None:
                for p in t.game.players:
                    games[p.participant_id if p.participant_id in names.name else p.name].append((r, t, p))
    order = sorted(games, key=lambda k: (name_key(str(names.name.get(k, k))), str(k)))
    start = _("starting cash")

    def rows() -> Iterator[list]:
        for key in order:
            for r, t, p in games[key]:
                name, number, table = names.of(p), r.round.number, t.table.number
                yield [
                    name,
                    number,
                    table,
                    None,
                    None,
                    start,
                    None,
                    p.starting_cash,
                    None,
                    None,
                    p.starting_cash,
                ]
                for line in p.lines:  # no income or cost: blank, as on the console's card
                    yield [
                        name,
                        number,
                        table,
                        line.seq,
                        line.round,
                        line.operation,
                        line.square or None,
                        line.cash,
                        line.income or None,
                        line.cost or None,
                        line.balance,
                    ]

    return columns, rows


def _events(report: TournamentReport, names: _Names):
    """One row per event and participant whose cash it changed (an event that moved no cash: one row, no
    participant), so that filtering on a participant shows every payment he made or received, and the cash
    column adds up."""
    columns = [
        Column(_label(Round, "number"), NUMBER),
        Column(_label(Table, "number"), NUMBER),
        Column(_("Move"), NUMBER),
        Column(_("Game round"), NUMBER),
        Column(_("Player")),
        Column(_("Event")),
        Column(_("What happened")),
        Column(_("Participant")),
        Column(_("Cash received (+) / paid (−)"), NUMBER),
    ]
    types = {k: str(v) for k, v in EVENT_TYPES.items()}

    def rows() -> Iterator[list]:
        for r in report.rounds:
            number = r.round.number
            for t in r.tables:
                game = t.game
                if game is None:
                    continue
                by_id = {p.id: names.of(p) for p in game.players}
                by_name = {p.name: by_id[p.id] for p in game.players}
                for e in game.events:
                    actor = by_name.get(e.player) or safe_text(e.player)
                    head = [
                        number,
                        t.table.number,
                        e.seq,
                        e.round,
                        actor,
                        types.get(e.type, e.type),
                        safe_text(e.text),
                    ]
                    if not e.cash:
                        yield [*head, None, None]
                    for pid, amount in e.cash.items():
                        yield [*head, by_id.get(pid) or safe_text(pid), amount]

    return columns, rows


def _settings(report: TournamentReport):
    t = report.tournament
    columns = [Column(_("Setting")), Column(_("Value"), ANY)]
    items = [
        ("name", safe_text(t.name)),
        ("date", t.date),
        ("variant", variant_label(t.variant)),
        ("board", safe_text(board_label(t.board))),  # an uploaded edition's name is a user's text
        ("rounds", t.rounds),
        ("game_rounds", t.game_rounds),
        ("time_limit_minutes", t.time_limit_minutes),
        ("move_time_limit", t.move_time_limit),
        ("table_size", t.table_size),
        ("final_table_size", t.final_table_size),
        ("placement_points", ", ".join(str(p) for p in t.placement_points)),
        ("tie_breaks", ", ".join(tie_break_label(k) for k in t.tie_breaks)),
        ("second_confirmation", _yes(t.second_confirmation)),
    ]

    def rows() -> Iterator[list]:
        for name, value in items:
            yield [_label(Tournament, name), value]

    return columns, rows


def _flagged_trades(report: TournamentReport):
    """The trades flagged for the director's review (a flag, never a verdict), with his review."""
    columns = [
        Column(_label(Round, "number"), NUMBER),
        Column(_label(Table, "number"), NUMBER),
        Column(_("Move"), NUMBER),
        Column(_("Flag")),
        Column(_("Giver")),
        Column(_("Receiver")),
        Column(_("Value moved"), NUMBER),
        Column(_("Why flagged")),
        Column(_("Seen by")),
        Column(_("Note")),
        Column(_("Key")),
    ]
    tables = [t for r in report.rounds for t in r.tables]
    flags = flags_of_tournament(report.tournament, tables)

    def rows() -> Iterator[list]:
        for f in flags:
            review = f.review
            yield [
                f.round,
                f.table,
                f.flag.seq,
                f.kind,
                safe_text(f.giver),
                safe_text(f.receiver),
                f.flag.value,
                f.passed,
                safe_text(person_name(review.seen_by)) if review and review.seen_by else None,
                safe_text(review.note) if review else None,
                f.key,
            ]

    return columns, rows


def tournament_workbook(report: TournamentReport) -> bytes:
    """The tournament's workbook (.xlsx) in the active language."""
    wb = Workbook(write_only=True)
    wb.properties.title = safe_text(report.tournament.name)[:255]
    taken: set[str] = set()
    names = _Names(report)
    for title, (columns, rows), autofilter in (
        (_("Standings"), _standings(report, names), True),
        (_("Results"), _results(report, names), True),
        (_("Ledgers"), _ledgers(report, names), True),
        (_("Events"), _events(report, names), True),
        (_("Flagged trades"), _flagged_trades(report), True),
        (_("Tournament"), _settings(report), False),
    ):
        _write_sheet(wb, title, columns, rows, taken=taken, autofilter=autofilter)
    out = BytesIO()
    wb.save(out)
    return out.getvalue()
