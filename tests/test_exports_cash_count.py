"""The table's result sheet shows each counted player's last cash count and its difference (issue 20)."""

from __future__ import annotations

import pytest
from django.utils import translation

from rules.banknotes import expected_banknotes
from tests.pdf_pages import assert_pages, nfc, pages_text, save
from tournament.exports.result_sheets import result_sheets_pdf
from tournament.games import recording
from tournament.reports.rounds import round_report

pytestmark = pytest.mark.django_db


def table_in_play(tournament):
    """Round 3's first table (a game of a few moves) and its report."""
    round_ = tournament.round_set.get(number=3)
    report = round_report(round_)
    return next(t for t in report.tables if t.game is not None)


def test_the_sheet_shows_the_last_count_of_each_counted_player(tournament):
    t = table_in_play(tournament)
    game = t.game.game
    state = recording.current_state(game)
    first, second = state.players[0], state.players[1]
    expected = expected_banknotes(state, first.id)
    for pid, counted in ((first.id, expected + 50), (first.id, expected - 10), (second.id, second.cash)):
        game = recording.submit(
            game.pk, {"type": "cash_count", "player": pid, "counted": counted}, version=game.version
        ).game
    seq = game.next_seq - 1
    t = table_in_play(tournament)
    reports = {p.id: p.cash_count for p in t.game.players}
    assert (reports[first.id].seq, reports[first.id].difference) == (seq - 1, -10)
    assert (reports[second.id].seq, reports[second.id].difference) == (seq, 0)
    assert all(reports[p.id] is None for p in state.players[2:])
    with translation.override("en"):
        pdf = result_sheets_pdf(tournament, [t])
    save(pdf, "result-sheet-cash-counts")
    (text,) = assert_pages(pdf, tournament.name, count=1)
    assert "Last cash counts" in text
    lines = text.splitlines()
    assert f"{nfc(first.name)} #{seq - 1} {expected - 10} {expected} −10" in lines
    assert f"{nfc(second.name)} #{seq} {second.cash} {second.cash} 0" in lines
    assert not any(nfc(p.name) + " #" in text for p in state.players[2:])


def test_a_sheet_without_counts_says_nothing_of_them(tournament):
    t = table_in_play(tournament)
    with translation.override("en"):
        (text,) = pages_text(result_sheets_pdf(tournament, [t]))
    assert "cash counts" not in text
