"""The console's panel computes its figures in the view model (it runs in the phone too, where there is no
``tournament/reports/``), the pages and sheets read them from the reports: both ask the same functions of the
engine and the ledger, and say the same at a finished table — each player's net worth, income and cost, and
the final rank and score that the result sheet, the workbook and the standings print."""

import pytest

from tests.tournaments import make_tournament, play_table
from tournament.console.view_model import screen
from tournament.event import rounds
from tournament.games import recording
from tournament.reports.games import game_report
from tournament.reports.rounds import table_report

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("variant", "board"), [("tournament-pl", "classic-pl"), ("classic", "classic-us")])
def test_the_console_and_the_reports_say_the_same_figures(referee, variant, board):
    tournament = make_tournament(
        4, name="Cup", rounds=1, seed=3, table_size=4, variant=variant, board=board, game_rounds=12
    )
    round_ = rounds.seat_next_round(tournament)
    rounds.start_round(round_)
    table = round_.tables.get()
    play_table(table, referee, seed=2)
    game = table.game_or_none
    shown = {p["id"]: p for p in screen(recording.current_state(game), game.ledger)["players"]}
    report = table_report(table)
    cards = {p.id: p for p in game_report(game).players}
    assert set(shown) == set(cards)
    for pid, p in shown.items():
        assert p["net_worth"] == cards[pid].worth.total
        assert [p["income"], p["cost"]] == [cards[pid].income, cards[pid].cost]
    by_name = {p["name"]: p for p in shown.values()}
    final = [(r.name, r.rank, r.score) for r in report.final]
    assert final == [(name, by_name[name]["rank"], by_name[name]["score"]) for name, _rank, _score in final]
