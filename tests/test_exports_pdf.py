"""The PDF outputs (tournament.exports): the text extracted from each PDF carries the figures of the reports
(checked against the engine in tests/test_reports.py), the tournament's name and "page X of Y" on every page,
Polish letters intact (NFC), long names whole, the standings paginated; the chart's SVG is valid XML. The
pages read and saved, and the tournament they print: tests/pdf_pages.py.

The PDFs go to out/pdf/, with every page rendered to PNG when Debian's pdftoppm (poppler-utils) is there:
look at them.
"""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from tournament.event import rounds
from tournament.exports.blank_sheets import blank_card_pdf, blank_table_sheet_pdf
from tournament.exports.chart import net_worth_chart, net_worth_svg
from tournament.exports.ledger_cards import game_entries, ledger_cards_pdf, participant_entries
from tournament.exports.result_sheets import result_sheets_pdf
from tournament.exports.standings_pdf import standings_pdf
from tournament.models import Participant
from tournament.reports.games import game_report
from tournament.reports.rounds import round_report, tournament_report
from tournament.reports.tables import final_rows

from .pdf_pages import NAMES, assert_pages, flat, nfc, pages_text, save
from .tournaments import make_tournament, play_table

pytestmark = pytest.mark.django_db

POLISH = "ąćęłńóśźż"
LONG = " ".join(["Bartłomiej-Świętosław Żółkiewski-Łączyński"] * 5)[:200]


def numbers(line: str) -> list[int]:
    return [int(n) for n in re.findall(r"-?\d+", line)]


def test_result_sheets_show_the_reports_figures(tournament):
    with translation.override("en"):
        report = tournament_report(tournament)
        first = report.rounds[0]
        pdf = result_sheets_pdf(tournament, first.tables)
    save(pdf, "result-sheets-round-1")
    texts = assert_pages(pdf, tournament.name, count=len(first.tables))  # one page per table
    for t, text in zip(first.tables, texts, strict=True):
        assert f"Result sheet: round 1, table {t.table.number}" in text
        assert "result confirmed" in text and "finished: the last round of play is over" in text
        lines = text.splitlines()
        for p in t.game.players:
            w = p.worth
            parts = [p.rank, nfc(p.name), w.cash, w.properties, w.mortgaged, w.buildings, w.total, p.score]
            parts.append(p.points)
            assert " ".join(map(str, parts)) in lines
            assert text.count(nfc(p.name)) >= 3  # the row, the chart's legend, the signature line
        assert "referee" in text


def test_result_sheets_of_the_whole_tournament(tournament, django_assert_num_queries):
    report = tournament_report(tournament)
    tables = [t for r in report.rounds for t in r.tables]
    with translation.override("en"), django_assert_num_queries(0):  # laid out from the report alone
        pdf = result_sheets_pdf(tournament, tables)
    save(pdf, "result-sheets-tournament")
    texts = assert_pages(pdf, tournament.name, count=len(tables))
    in_play = next(i for i, t in enumerate(tables) if t.game is not None and not t.game.finished)
    assert "in play, round" in texts[in_play] and "not confirmed" in texts[in_play]
    for p in tables[in_play].game.players:
        assert str(p.worth.total) in texts[in_play]
    not_started = next(i for i, t in enumerate(tables) if t.game is None)
    assert "This table's game has not started." in texts[not_started]
    for p in tables[not_started].seated:
        assert nfc(p.name) in texts[not_started]


def test_ledger_cards_end_at_the_net_worth(tournament):
    with translation.override("en"):
        report = tournament_report(tournament)
        game = report.rounds[0].tables[0].game
        pdf = ledger_cards_pdf(tournament, game_entries(game), "Income and cost cards")
    save(pdf, "ledger-cards-game")
    texts = assert_pages(pdf, tournament.name)
    cards = "\n".join(texts)
    for p in game.players:
        identity = (
            f"starting cash {p.starting_cash} + income {p.income} − cost {p.cost} = {p.balance}; "
            f"net worth {p.worth.total}"
        )
        assert identity in cards
        if p.bankrupt:
            assert "the identity does not apply after a bankruptcy" in cards
        else:
            assert p.balance == p.worth.total
            last = p.lines[-1].balance if p.lines else p.starting_cash
            assert last == p.worth.total
            assert "✓ the card agrees with the net worth" in cards
    # each card on a page of its own, its lines in order with their figures
    assert len(texts) == len(game.players)
    for p, text in zip(game.players, texts, strict=True):
        assert nfc(p.name) in text and "round 1, table 1" in text
        lines = [line for line in text.splitlines() if line]
        at = lines.index(f"starting cash {p.starting_cash}")
        for line in p.lines:
            at += 1
            what = line.operation + (f" — {line.square}" if line.square else "")
            figures = [n for n in (line.income, line.cost) if n]  # a 0 is left blank
            assert lines[at] == " ".join(map(str, [line.seq, line.round, what, *figures, line.balance])), line
        assert lines[at + 1] == f"Total {p.income} {p.cost} {p.balance}"


def test_a_participants_cards_for_the_whole_tournament(tournament, django_assert_num_queries):
    report = tournament_report(tournament)
    participant = report.standings[0].participant
    with translation.override("en"), django_assert_num_queries(0):
        entries = participant_entries(report.rounds, participant.pk)
        pdf = ledger_cards_pdf(tournament, entries, f"Income/cost cards: {participant.name}")
    assert len(entries) >= 2 and all(p.participant_id == participant.pk for _g, p in entries)
    save(pdf, "ledger-cards-participant")
    text = "\n".join(assert_pages(pdf, tournament.name))
    for game, p in entries:
        table = game.game.table
        assert f"round {table.round.number}, table {table.number}" in text
        assert f"= {p.balance}; net worth {p.worth.total}" in text


def test_a_card_outside_a_tournament_and_over_several_pages(tournament):
    game = tournament.round_set.get(number=1).tables.first().game
    report = game_report(game)
    p = max(report.players, key=lambda p: len(p.lines))
    many = dataclasses.replace(
        p, name=LONG, lines=p.lines * (90 // len(p.lines) + 1)
    )  # a long card, long name
    with translation.override("en"):
        pdf = ledger_cards_pdf(None, [(report, many)], "Income and cost cards")
        title = str(game)  # a table's game is named in the reader's language
    save(pdf, "ledger-card-long")
    texts = assert_pages(pdf, title)
    assert len(texts) >= 2
    for text in texts:  # the column headers on every page
        assert "# Round Operation Income Cost Balance" in text
    assert flat(LONG) in flat(texts[0])


def test_a_bankrupt_players_card_and_sheet(tournament):
    """After a bankruptcy the identity no longer holds: the card says so instead of checking it."""
    with translation.override("en"):
        t = round_report(tournament.round_set.get(number=1)).tables[0]
        p = dataclasses.replace(
            t.game.players[0], bankrupt=True
        )  # a layout test: the flag as a report has it
        game = dataclasses.replace(t.game, players=[p, *t.game.players[1:]])
        card = "\n".join(pages_text(ledger_cards_pdf(tournament, [(game, p)], "Cards")))
        final, source = final_rows(t.result, game, t.seated, t.roles, t.absent)
        t = dataclasses.replace(t, game=game, final=final, source=source)
        sheet = "\n".join(pages_text(result_sheets_pdf(tournament, [t])))
    assert "bankrupt: the identity does not apply after a bankruptcy" in card
    assert "agrees with the net worth" not in card
    assert f"{nfc(p.name)} (bankrupt)" in sheet


def test_polish(tournament):
    report = tournament_report(tournament)
    first = report.rounds[0]
    game = first.tables[0].game
    with translation.override("pl"):
        sheets = result_sheets_pdf(tournament, first.tables)
        cards = ledger_cards_pdf(tournament, game_entries(game), "Karty przychodów i kosztów")
        table = standings_pdf(report)
    save(sheets, "pl-result-sheets")
    save(cards, "pl-ledger-cards")
    text = "\n".join(pages_text(sheets) + pages_text(cards) + pages_text(table))
    for name in NAMES:
        assert nfc(name) in text
    assert "Zofia Gęś" in text and "e\u0328" not in text and "a\u0328" not in text
    assert POLISH in text
    # headings whose Polish is in the catalogue already
    for word in [
        "Gotówka",
        "Punkty",
        "Gracz",
        "Sędziowie",
        "Operacja",
        "Przychód",
        "Koszt",
        "Saldo",
        "Klasyfikacja",
    ]:
        assert word in text, word


def test_long_names_wrap(tournament):
    report = round_report(tournament.round_set.get(number=1))
    t = report.tables[0]
    game = dataclasses.replace(
        t.game, players=[dataclasses.replace(t.game.players[0], name=LONG), *t.game.players[1:]]
    )
    tournament.name = ("Ogólnopolski Turniej Świętokrzyski " * 6)[:200]  # the longest a name may be
    assert len(tournament.name) == 200
    wide = dataclasses.replace(t, game=game)
    with translation.override("en"):
        pdf = result_sheets_pdf(tournament, [wide])
    save(pdf, "result-sheet-long-names")
    (text,) = assert_pages(pdf, tournament.name, count=1)
    assert flat(LONG) in flat(text)
    assert text.count("Bartłomiej") >= 5  # wrapped, not cut: every repetition is there


def test_standings_paginate(tournament):
    for i in range(111):
        Participant.objects.create(tournament=tournament, name=f"Uczestnik {i:03} Żółć", club="Klub")
    Participant.objects.filter(tournament=tournament, name="Jan Kowalski").update(withdrawn_after=2)
    report = tournament_report(tournament)
    assert len(report.standings) == 120
    with translation.override("en"):
        pdf = standings_pdf(report)
    save(pdf, "standings")
    texts = assert_pages(pdf, tournament.name)
    assert len(texts) >= 3
    for text in texts:  # the header row on every page
        assert "Rank Participant Club / school Points Total score Best score Games" in text
    whole = "\n".join(texts)
    assert "Jan Kowalski (withdrawn after round 2)" in whole
    lines = whole.splitlines()
    for row in report.standings:
        p = row.participant
        name = nfc(p.name) + (f" (withdrawn after round {p.withdrawn_after})" if p.withdrawn_after else "")
        by_round = [
            str(row.by_round[r.round.number]) if r.round.number in row.by_round else "–"
            for r in report.rounds
        ]
        best = "–" if row.best_score is None else row.best_score
        parts = [row.rank, name, nfc(p.club), row.points, row.total_score, best, row.games, *by_round]
        assert " ".join(map(str, parts)) in lines


def test_blank_sheets(tournament):
    report = round_report(tournament.round_set.get(number=3))
    table = report.tables[-1]
    with translation.override("en"):
        sheet = blank_table_sheet_pdf(tournament, table)
        card = blank_card_pdf(tournament)
        card_alone = blank_card_pdf(None)
    save(sheet, "blank-table-sheet")
    save(card, "blank-card")
    texts = assert_pages(sheet, tournament.name, count=3)
    assert f"Backup sheet: round 3, table {table.table.number}" in texts[0]
    for p in table.seated:
        assert nfc(p.name) in texts[0] and nfc(p.name) in texts[-1]
    assert "Move Round Player Operation Income Cost" in texts[1]
    (text,) = assert_pages(card, tournament.name, count=1)
    assert "Operation Income Cost Balance" in text and "starting cash 1500" in text
    assert len(pages_text(card_alone)) == 1


def test_the_chart(tournament):
    game = tournament_report(tournament).rounds[0].tables[0].game
    hostile = dataclasses.replace(game.players[0], name="<script>alert(1)</script> & Żółć")
    game = dataclasses.replace(game, players=[hostile, *game.players[1:]])
    svg = str(net_worth_svg(game))
    root = ET.fromstring(svg)  # valid XML
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{ns}svg" and "<script" not in svg
    # no style attribute (the pages' Content-Security-Policy blocks them): presentation attributes instead
    assert not [e.tag for e in root.iter() if "style" in e.attrib]
    lines = root.findall(f".//{ns}polyline")
    assert all(e.get("stroke", "").startswith("rgb(") and e.get("fill") == "none" for e in lines)
    assert {e.get("font-family") for e in root.iter(f"{ns}text")} == {"'DejaVu Sans', Verdana, sans-serif"}
    assert len(root.findall(f".//{ns}polyline")) == len(game.players)
    legend = flat("".join(t.text for t in root.iter(f"{ns}text")))
    for p in game.players:
        assert flat(nfc(p.name)) in legend  # a long name takes several lines
    drawing = net_worth_chart(game, 500, 250)
    assert drawing.width == 500 and drawing.height == 250


def a_table_over():
    """A tournament of four at one table, its game over and not confirmed, directed by Anna Dyrektorska
    (staff): (tournament, director, round, table, game)."""
    t = make_tournament(NAMES[:4], lambda i: "", name="Puchar", rounds=1, game_rounds=3, seed=5)
    director = User.objects.create_user("boss", is_staff=True, first_name="Anna", last_name="Dyrektorska")
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    table = round_.tables.get()
    return t, director, round_, table, play_table(table, director)


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "en",
            {
                "signed": "Signed {agrees}: agrees; {disputes}: disputes: “my hotel was not counted”",
                "ruling": "Director's ruling “the hotel was mortgaged” (Anna Dyrektorska)",
                "by": "Confirmed by Anna Dyrektorska",
                "debt": "Cash below zero is a payment owed and not yet raised when the game ended ({name})",
            },
        ),
        (
            "pl",
            {
                "signed": "Podpisy {agrees}: zgadza się; {disputes}: kwestionuje: „my hotel was not counted”",
                "ruling": "Decyzja dyrektora „the hotel was mortgaged” (Anna Dyrektorska)",
                "by": "Zatwierdzone przez Anna Dyrektorska",
                "debt": "Gotówka poniżej zera oznacza płatność, na którą do końca gry nie zebrano "
                "pieniędzy ({name})",
            },
        ),
    ],
)
def test_a_sheet_says_the_dispute_the_ruling_and_what_a_cash_below_zero_is(language, said):
    """The result sheet of a table confirmed over a dispute: each player's word as signed in the app, the
    director's ruling and his name; a cash below zero (a payment not raised when the director stopped the
    game) is said to be a debt, which the net worth counts."""
    from tournament.event import results, signatures

    t, director, round_, table, game = a_table_over()
    (agrees, a), (disputes, d) = list(signatures.players_of(game).items())[:2]
    signatures.sign(Participant.objects.get(pk=agrees), table, agrees=True, reason="", version=game.version)
    words = "my hotel was not counted"
    signatures.sign(
        Participant.objects.get(pk=disputes), table, agrees=False, reason=words, version=game.version
    )
    results.confirm(table, director, ruling="the hotel was mortgaged", directs=True)
    with translation.override(language):
        report = round_report(round_).tables[0]
        first = report.game.players[0]
        owing = dataclasses.replace(first, worth=first.worth._replace(cash=-2))
        game_report = dataclasses.replace(report.game, players=[owing, *report.game.players[1:]])
        final, source = final_rows(report.result, game_report, report.seated, report.roles, report.absent)
        pdf = result_sheets_pdf(t, [dataclasses.replace(report, game=game_report, final=final)])
    save(pdf, f"result-sheet-ruling-{language}")
    sheet = "\n".join(pages_text(pdf))
    text = " ".join(sheet.split())
    assert nfc(said["signed"].format(agrees=a, disputes=d)) in text
    assert nfc(said["ruling"]) in text and nfc(said["by"]) in text
    assert nfc(said["debt"].format(name=owing.name)) in text


def test_a_ruling_is_not_printed_for_a_result_confirmed_again_without_one():
    """Confirmed over a dispute with a ruling, reopened, then confirmed again once every player agrees: the
    sheet's result is that of the second confirmation, which no ruling decided."""
    from tournament.event import results, signatures

    t, director, round_, table, game = a_table_over()
    players = [Participant.objects.get(pk=pk) for pk in signatures.players_of(game)]
    signatures.sign(players[0], table, agrees=False, reason="wrong rent", version=game.version)
    results.confirm(table, director, ruling="the rent was right", directs=True)
    assert round_report(round_).tables[0].ruling.reason == "the rent was right"
    results.reopen(table, director, "to confirm once all agree")
    for p in players:
        signatures.sign(p, table, agrees=True, reason="", version=game.version)
    results.confirm(table, director, directs=True)
    report = round_report(round_).tables[0]
    assert report.result is not None and report.ruling is None
    with translation.override("en"):
        text = " ".join("\n".join(pages_text(result_sheets_pdf(t, [report]))).split())
    assert "Director's ruling" not in text and "the rent was right" not in text
