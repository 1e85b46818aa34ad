"""The figures every output shows, gathered once (tournament.reports): checked against the engine, the ledger
identity and the confirmed results."""

import itertools

import pytest
from django.contrib.auth.models import User

from rules import replay
from rules.valuation import net_worth
from tournament.event import current_standings, results, rounds
from tournament.games import recording
from tournament.reports.games import game_report
from tournament.reports.rounds import round_report, table_report, tournament_report

from .tournaments import make_tournament, play_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    t = make_tournament(10, lambda i: f"club{i % 4}", name="Cup", rounds=3, game_rounds=3, seed=5)
    referee = User.objects.create_user("ref", password="pw")
    play_round(t, referee, seed=1)
    play_round(t, referee, seed=2)
    return t


def test_a_game_report_agrees_with_the_engine_and_the_ledger(tournament):
    for table in tournament.round_set.get(number=1).tables.all():
        game = table.game
        report = game_report(game, points=tournament.placement_points)
        state = replay(recording.record_of(game)).state
        assert report.finished and report.end_reason == state.end_reason
        for p in report.players:
            assert p.worth.total == net_worth(state, p.id)
            if not p.bankrupt:
                assert p.balance == p.worth.total  # RULES.md §2: start + income − cost = net worth
                assert p.lines[-1].balance == p.balance if p.lines else p.balance == p.starting_cash
            assert p.series[0] == 1500 and p.series[-1] == p.score
            assert len(p.series) == len(report.turn_rounds)
        assert [e.seq for e in report.events] == list(
            recording.active_events(game).values_list("seq", flat=True)
        )
        confirmed = results.current_result(table).ranking
        assert [(r["name"], r["rank"], r["score"], r["points"]) for r in confirmed] == [
            (p.name, p.rank, p.score, p.points) for p in report.ranked
        ]


def test_the_turn_by_turn_series_has_a_point_per_turn(tournament):
    game = tournament.round_set.get(number=1).tables.first().game
    report = game_report(game)
    players = len(report.players)
    # one point at the start, then one per turn: at most rounds × players (bankrupt players drop out)
    assert 1 < len(report.turn_rounds) <= 1 + report.round * players
    assert report.turn_rounds == sorted(report.turn_rounds)


def test_tournament_round_and_table_reports_agree(tournament, django_assert_max_num_queries):
    with django_assert_max_num_queries(20):  # whatever the number of tables and moves
        report = tournament_report(tournament)
    assert [r.round.number for r in report.rounds] == [1, 2]
    assert [(row.participant.pk, row.points) for row in report.standings] == [
        (row.participant, row.points) for row in current_standings.tournament_standings(tournament)
    ]
    first = report.rounds[0]
    again = round_report(first.round)
    assert [t.table.number for t in again.tables] == [t.table.number for t in first.tables]
    one = table_report(first.tables[0].table)
    assert one.game.players == first.tables[0].game.players
    assert all(t.counted and t.result is not None for t in first.tables)
    assert len(report.games) == sum(len(r.tables) for r in report.rounds)


def test_a_table_not_started_has_no_game(tournament):
    round_ = rounds.seat_next_round(tournament)
    report = round_report(round_)
    assert report.tables and all(t.game is None and not t.counted for t in report.tables)
    assert all(len(t.seated) >= 3 for t in report.tables)


def test_the_series_is_each_players_net_worth_at_the_end_of_each_turn(tournament):
    """Checked against states kept event by event (the report itself replays in place)."""
    for table in tournament.round_set.get(number=2).tables.all():
        report = game_report(table.game)
        states = [out.state for out in replay(recording.record_of(table.game), keep=True).outcomes]
        ends = [
            s for s, after in itertools.pairwise(states) if (s.round, s.turn) != (after.round, after.turn)
        ]
        ends.append(states[-1])
        assert report.turn_rounds == [0] + [s.round for s in ends]
        for p in report.players:
            expected = [0 if s.player(p.id).bankrupt else net_worth(s, p.id) for s in ends]
            assert p.series == [1500, *expected], p.name
