"""The tournament's Excel workbook (tournament.exports.workbook), read back with openpyxl: sheets, headers,
frozen panes, filters, numbers as numbers, the report's figures unchanged, and text from users that Excel
must never evaluate."""

import re
import tracemalloc
import zipfile
from collections import defaultdict
from io import BytesIO
from xml.etree import ElementTree

import pytest
from django.contrib.auth.models import User
from django.utils import translation
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter

from rules.valuation import NetWorth
from tournament.event import rounds
from tournament.exports.workbook import MAX_WIDTH, Text, safe_text, sheet_name, tournament_workbook
from tournament.models import Participant, Round, Table, Tournament
from tournament.reports.games import EventReport, GameReport, LedgerLine, PlayerReport
from tournament.reports.rounds import RoundReport, TournamentReport, tournament_report
from tournament.reports.standings import StandingsRow
from tournament.reports.tables import TableReport

from .tournaments import make_tournament, play_round

pytestmark = pytest.mark.django_db

#: Names Excel would evaluate if written as they come (a formula, or an error value).
DANGEROUS = ['=HYPERLINK("http://x","click")', "+48 123", "@sum", "-5", "\t=1+1", "#N/A"]
POLISH = "Zażółć Gęślą"
CONTROL = "Bad\x01Name"  # \x01 cannot be written in XML: dropped
REFEREE = "=cmd|' /C calc'!A0"
TOURNAMENT = "=1+1 Cup"

ENDS = {
    "rounds": "the last round of play is over",
    "bankruptcy": "a bankruptcy ended the game",
    "last_player": "only one player is left",
    "time": "the time limit was reached",
}
HEADERS = {
    "Standings": [
        "Rank",
        "Participant",
        "Club / school",
        "Points",
        "Total score",
        "Best score",
        "Games",
        "Round 1",
        "Round 2",
        "Round 3",
        "Withdrawn after round",
    ],
    "Results": [
        "Round",
        "Table",
        "Referees",
        "Participant",
        "Club / school",
        "Rank",
        "Score",
        "Net worth",
        "Cash",
        "Properties",
        "Mortgaged (at half)",
        "Buildings",
        "Bankrupt",
        "Absent",
        "Points",
        "Confirmed",
        "Counts in the standings",
        "Rounds played",
        "End of the game",
    ],
    "Ledgers": [
        "Participant",
        "Round",
        "Table",
        "Move",
        "Game round",
        "Operation",
        "Square",
        "Cash",
        "Income",
        "Cost",
        "Balance",
    ],
    "Events": [
        "Round",
        "Table",
        "Move",
        "Game round",
        "Player",
        "Event",
        "What happened",
        "Participant",
        "Cash received (+) / paid (−)",
    ],
    "Flagged trades": [
        "Round",
        "Table",
        "Move",
        "Flag",
        "Giver",
        "Receiver",
        "Value moved",
        "Why flagged",
        "Seen by",
        "Note",
        "Key",
    ],
    "Tournament": ["Setting", "Value"],
}


@pytest.fixture
def tournament():
    """Two rounds played and confirmed, the third seated but not started."""
    names = [*DANGEROUS, POLISH, CONTROL, "Anna", "Bartek", "Celina", "Darek"]
    t = make_tournament(
        names,
        lambda i: "\r@club" if i == 0 else f"club{i % 3}",
        name=TOURNAMENT,
        rounds=3,
        game_rounds=3,
        seed=5,
    )
    referee = User.objects.create_user("ref", password="pw", first_name=REFEREE)
    play_round(t, referee, seed=1)
    play_round(t, referee, seed=2)
    rounds.seat_next_round(t)
    for table in Table.objects.filter(round__tournament=t):
        table.referees.add(referee)
    return t


@pytest.fixture
def report(tournament):
    with translation.override("en"):  # the event texts and operations: in the language of the request
        return tournament_report(tournament)


@pytest.fixture
def data(report):
    with translation.override("en"):
        return tournament_workbook(report)


@pytest.fixture
def book(data):
    return load_workbook(BytesIO(data))


def rows_of(ws) -> list[tuple]:
    return list(ws.iter_rows(min_row=2, values_only=True))


def cells_of(ws):
    return [c for row in ws.iter_rows(min_row=2) for c in row]


def shown(name: str) -> str:
    """The name as the workbook shows it: what XML cannot carry dropped."""
    return str(safe_text(name))


def test_sheets_headers_frozen_filtered_and_sized(book):
    assert book.sheetnames == list(HEADERS)
    for ws in book.worksheets:
        header = [c.value for c in ws[1]]
        assert header == HEADERS[ws.title]
        assert all(c.font.b for c in ws[1])
        assert ws.freeze_panes == "A2"
        last = f"{get_column_letter(len(header))}{ws.max_row}"
        assert ws.auto_filter.ref == (None if ws.title == "Tournament" else f"A1:{last}")
        widths = [ws.column_dimensions[get_column_letter(i)].width for i in range(1, len(header) + 1)]
        assert all(len(h) < w <= MAX_WIDTH for h, w in zip(header, widths, strict=True) if len(h) < MAX_WIDTH)
    assert book["Events"].column_dimensions["G"].width == MAX_WIDTH  # long texts: capped


def test_standings_are_the_reports(book, report):
    ws = book["Standings"]
    expected = [
        (
            row.rank,
            shown(row.participant.name),
            shown(row.participant.club),
            row.points,
            row.total_score,
            row.best_score,
            row.games,
            row.by_round.get(1),
            row.by_round.get(2),
            row.by_round.get(3),
            None,
        )
        for row in report.standings
    ]
    assert rows_of(ws) == expected
    numbers = [c for c in cells_of(ws) if c.column in (1, 4, 5, 6, 7) and c.value is not None]
    assert numbers and all(type(c.value) is int and c.data_type == "n" for c in numbers)


def test_results_are_the_reports(book, report):
    rows = rows_of(book["Results"])
    expected = []
    for r in report.rounds:
        for t in r.tables:
            if t.game is None:
                expected += [(r.round.number, t.table.number, shown(p.name), None) for p in t.seated]
                continue
            assert t.game.finished and t.result is not None
            for p in t.game.ranked:
                expected.append((r.round.number, t.table.number, shown(p.name), p.rank))
                row = next(
                    x
                    for x in rows
                    if x[:2] == (r.round.number, t.table.number) and x[5] == p.rank and x[3] == shown(p.name)
                )
                w = p.worth
                assert row[6:12] == (p.score, w.total, w.cash, w.properties, w.mortgaged, w.buildings)
                end = ENDS[t.game.end_reason]
                bankrupt = "Yes" if p.bankrupt else "No"
                assert row[12:] == (bankrupt, "No", p.points, "Yes", "Yes", t.game.round, end)
                assert row[2] == REFEREE
    assert [(x[0], x[1], x[3], x[5]) for x in rows] == expected
    not_started = [x for x in rows if x[0] == 3]
    assert not_started and all(x[5:16] == (None,) * 7 + ("No", "No", None, "No") for x in not_started)
    assert {x[18] for x in not_started} == {"not started"}


def test_every_ledger_adds_up_to_the_balance(book, report):
    rows = rows_of(book["Ledgers"])
    cards = defaultdict(list)
    for row in rows:
        cards[(row[0], row[1], row[2])].append(row)
    players = {
        (shown(p.name), r.round.number, t.table.number): p
        for r in report.rounds
        for t in r.tables
        if t.game is not None
        for p in t.game.players
    }
    assert set(cards) == set(players)
    for key, card in cards.items():
        p = players[key]
        assert len(card) == 1 + len(p.lines)
        start, *lines = card
        assert start[5] == "starting cash" and start[7] == start[10] == p.starting_cash
        income = sum(row[8] or 0 for row in card)
        cost = sum(row[9] or 0 for row in card)
        assert income - cost == card[-1][10] - p.starting_cash
        assert (income, cost) == (p.income, p.cost)
        assert [row[3] for row in lines] == [line.seq for line in p.lines]
        assert [row[10] for row in lines] == [line.balance for line in p.lines]
        if not p.bankrupt:
            assert card[-1][10] == p.worth.total
        assert all(type(v) is int for row in card for v in (row[7], row[10]))
    # participant after participant: a filter on the participant column shows one card after the other
    order = [row[0] for row in rows]
    assert order == sorted(order, key=str.casefold)


def test_the_event_log_with_the_cash_each_move_moved(book, report):
    rows = rows_of(book["Events"])
    expected = []
    for r in report.rounds:
        for t in r.tables:
            if t.game is None:
                continue
            names = {p.id: shown(p.name) for p in t.game.players}
            for e in t.game.events:
                head = (r.round.number, t.table.number, e.seq, e.round, shown(e.player) or None)
                if not e.cash:
                    expected.append((*head, shown(e.text), None, None))
                for pid, cash in e.cash.items():
                    expected.append((*head, shown(e.text), names[pid], cash))
    assert [(*x[:5], *x[6:]) for x in rows] == expected
    assert {x[5] for x in rows} >= {"roll", "purchase"}
    assert all(type(x[8]) is int for x in rows if x[8] is not None)


def test_text_from_users_is_never_a_formula(book, data):
    names = [row[1] for row in rows_of(book["Standings"])]
    assert sorted(names) == sorted([*DANGEROUS, POLISH, "BadName", "Anna", "Bartek", "Celina", "Darek"])
    dangerous = 0
    for ws in book.worksheets:
        for cell in cells_of(ws):
            if cell.data_type == "f":
                pytest.fail(f"{ws.title}!{cell.coordinate} is a formula: {cell.value!r}")
            if isinstance(cell.value, str) and cell.value[:1] in "=+-@\t\n#":
                assert cell.data_type == "s" and cell.quotePrefix, (ws.title, cell.coordinate, cell.value)
                dangerous += 1
    assert dangerous > 100  # names in every sheet, and event texts starting with them
    texts = {c.value for c in cells_of(book["Events"]) if c.column == 7}
    assert any(t.startswith(DANGEROUS[0] + " ") for t in texts)
    assert book["Results"]["C2"].value == REFEREE
    assert book["Standings"].cell(names.index('=HYPERLINK("http://x","click")') + 2, 3).value == "\n@club"
    settings = dict(rows_of(book["Tournament"]))
    assert settings["Name"] == TOURNAMENT
    # and in the file itself: not one formula element, the names as inline strings
    with zipfile.ZipFile(BytesIO(data)) as z:
        sheets = [n for n in z.namelist() if re.fullmatch(r"xl/worksheets/sheet\d+\.xml", n)]
        assert len(sheets) == len(HEADERS)
        for name in sheets:
            root = ElementTree.fromstring(z.read(name))
            assert not [el for el in root.iter() if el.tag.rsplit("}", 1)[-1] == "f"], name
        xml = z.read(sheets[0]).decode()
        assert "<f>" not in xml
        assert '<t>=HYPERLINK("http://x","click")</t>' in xml


def test_numbers_are_numbers_and_the_date_a_date(book, report):
    for ws in book.worksheets:
        for cell in cells_of(ws):
            if isinstance(cell.value, str):
                assert not re.fullmatch(r"-?\d+", cell.value) or cell.value == "-5", (ws.title, cell.value)
    settings = {row[0].value: row[1] for row in book["Tournament"].iter_rows(min_row=2)}
    assert settings["Date"].is_date and settings["Date"].value.date() == report.tournament.date
    assert settings["Tournament rounds"].value == 3 and settings["Tournament rounds"].data_type == "n"


def test_sheet_names_follow_the_language(report):
    with translation.override("pl"):
        book = load_workbook(BytesIO(tournament_workbook(report)))
    assert book.sheetnames[0] == "Klasyfikacja" and book.sheetnames[-1] == "Turniej"
    assert [c.value for c in book["Klasyfikacja"][1]][1:4] == ["Uczestnik", "Klub / szkoła", "Punkty"]
    results = book.worksheets[1]
    assert [c.value for c in results[1]][:3] == ["Runda", "Stolik", "Sędziowie"]
    assert results.cell(2, 16).value == "Tak"  # confirmed


def test_safe_text():
    for text in DANGEROUS:
        assert safe_text(text) == text and isinstance(safe_text(text), Text)
    assert safe_text("\r=1") == "\n=1" and isinstance(safe_text("\r=1"), Text)
    assert safe_text("a\r\nb") == "a\nb"
    assert safe_text(CONTROL) == "BadName" and type(safe_text(CONTROL)) is str
    assert type(safe_text(POLISH)) is str and safe_text(POLISH) == POLISH
    assert safe_text("\x01=1") == "=1" and isinstance(safe_text("\x01=1"), Text)
    assert safe_text(None) == "" and len(safe_text("x" * 40_000)) == 32_767


def test_sheet_name_is_valid_and_unique():
    taken: set[str] = set()
    texts = [
        "A" * 40,
        "A" * 40,
        "a" * 40,
        "Round [1]: a*b?c/d\\e",
        "Round [1]: a*b?c/d\\e",
        "'quoted'",
        "History",
        "",
        "   ",
        "Results",
        "results",
        "tab\there\x01",
    ]
    names = [sheet_name(t, taken) for t in texts]
    assert all(0 < len(n) <= 31 for n in names)
    assert not any(re.search(r"[\[\]:*?/\\]", n) for n in names)
    assert not any(n.startswith("'") or n.endswith("'") for n in names)
    assert len({n.casefold() for n in names}) == len(names)
    assert taken == set(names)
    assert names[:3] == ["A" * 31, "A" * 27 + " (2)", "a" * 27 + " (3)"]
    assert names[3] == "Round 1 a b c d e"
    assert names[5:8] == ["quoted", "History (2)", "Sheet"]
    assert names[9:] == ["Results", "results (2)", "tab here"]


def _big_report(lines: int) -> TournamentReport:
    """A report built by hand (no database): one game, ``lines`` ledger lines and events."""
    t = Tournament(name="Big", rounds=1)
    people = [Participant(pk=i + 1, tournament=t, name=f"P{i}", club="c") for i in range(4)]
    round_ = Round(pk=1, tournament=t, number=1)
    table = Table(pk=1, round=round_, number=1)
    players = []
    for i, person in enumerate(people):
        ledger = [
            LedgerLine(
                seq=n,
                round=n // 40,
                operation="rent",
                square="Ulica",
                cash=-10,
                income=0,
                cost=10,
                balance=1500 - 10 * n,
            )
            for n in range(1, lines // 4 + 1)
        ]
        players.append(
            PlayerReport(
                id="ABCD"[i],
                name=person.name,
                participant_id=person.pk,
                worth=NetWorth(1000, 200, 0, 0),
                bankrupt=False,
                starting_cash=1500,
                income=0,
                cost=10 * len(ledger),
                lines=ledger,
                series=[1500],
                rank=i + 1,
                points=0,
            )
        )
    events = [
        EventReport(
            seq=n,
            round=n // 40,
            player=players[n % 4].name,
            type="rent",
            text=f"{players[n % 4].name} pays rent.",
            cash={"ABCD"[n % 4]: -10, "ABCD"[(n + 1) % 4]: 10},
        )
        for n in range(1, lines + 1)
    ]
    game = GameReport(
        game=None,
        players=players,
        events=events,
        turn_rounds=[0],
        finished=True,
        end_reason="rounds",
        round=1,
    )
    tables = [TableReport(table=table, seated=people, referees=["R"], game=game, result=None, counted=False)]
    standings = [StandingsRow(i + 1, p, 0, 0, None, 1, {1: 0}) for i, p in enumerate(people)]
    return TournamentReport(t, [RoundReport(round_, tables)], standings)


def _writing_peak(report) -> tuple[int, int]:
    tracemalloc.start()
    data = tournament_workbook(report)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak, len(data)


def test_memory_stays_flat_in_the_number_of_rows():
    """Write-only: 4 times the rows take about the same memory, bar the finished file (compressed). Kept in
    memory, 9,000 more rows of about 10 cells would take some 10 MB more."""
    small, big = _big_report(1_000), _big_report(4_000)
    (small_peak, small_size), (big_peak, big_size) = _writing_peak(small), _writing_peak(big)
    with translation.override("en"):
        book = load_workbook(BytesIO(tournament_workbook(small)), read_only=True)
    assert book["Ledgers"].max_row == 1 + 4 + 1_000 and book["Events"].max_row == 1 + 2 * 1_000
    assert big_peak - small_peak < 2 * (big_size - small_size) + 500_000
