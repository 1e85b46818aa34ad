"""Running a tournament: seat, swap, start, play the tables, confirm, reopen, withdraw, standings."""

import pytest
from django.contrib.auth.models import User

from tournament.event import current_standings, interventions, results, rounds
from tournament.games import recording
from tournament.models import Round, TableResult

from .tournaments import make_tournament, play_round, play_table, start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return make_tournament(13, lambda i: f"club{i % 4}", name="Cup", rounds=3, game_rounds=2, seed=5)


def test_a_whole_tournament(tournament, referee):
    for n in range(1, 4):
        round_ = play_round(tournament, referee, seed=n)
        assert round_.status == Round.Status.FINISHED and round_.number == n
        seated = sorted(s.participant_id for t in round_.tables.all() for s in t.seats.all())
        assert seated == sorted(tournament.participants.values_list("pk", flat=True))
        assert [t.seats.count() for t in round_.tables.all()] == [5, 4, 4]
    with pytest.raises(rounds.RoundError):
        rounds.seat_next_round(tournament)
    rows = current_standings.tournament_standings(tournament)
    assert len(rows) == 13 and all(r.games == 3 for r in rows)
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)
    assert sum(r.points for r in rows) >= 3 * 3 * (4 + 2 + 1)  # per table at least 4 + 2 + 1 (ties share)
    assert tournament.locked


def test_table_result_comes_from_the_engine(tournament, referee):
    round_ = rounds.seat_next_round(tournament)
    rounds.start_round(round_)
    table = round_.tables.first()
    game = play_table(table, referee)
    ranking = results.table_ranking(table)
    state = recording.current_state(game)
    from rules.scoring import ranking as engine_ranking

    ranks = engine_ranking(state)
    assert [r["rank"] for r in ranking] == sorted(ranks.values())
    assert {r["points"] for r in ranking if r["rank"] == 1} == {4}


def test_seating_editable_until_the_round_starts(tournament, referee):
    round_ = rounds.seat_next_round(tournament)
    t1, t2 = round_.tables.all()[:2]
    a, b = t1.seats.first().participant, t2.seats.first().participant
    assert rounds.swap(round_, a, b) == 0
    assert t2.seats.filter(participant=a).exists() and t1.seats.filter(participant=b).exists()
    with pytest.raises(rounds.RoundError):
        rounds.swap(round_, a, t2.seats.exclude(participant=a).first().participant)
    rounds.start_round(round_)
    with pytest.raises(rounds.RoundError):
        rounds.swap(round_, a, b)


def test_next_round_waits_for_confirmed_results(tournament, referee):
    round_ = rounds.seat_next_round(tournament)
    rounds.start_round(round_)
    with pytest.raises(rounds.RoundError):
        rounds.seat_next_round(tournament)
    table = round_.tables.first()
    with pytest.raises(rounds.RoundError):
        results.confirm(table, referee)  # no game yet
    start_game(table, referee)
    with pytest.raises(rounds.RoundError):
        results.confirm(table, referee)  # the game is not over


def test_opening_roll_order_must_name_each_player_once(tournament, referee):
    round_ = rounds.seat_next_round(tournament)
    rounds.start_round(round_)
    table = round_.tables.first()
    ids = [s.participant_id for s in table.seats.all()]
    with pytest.raises(rounds.RoundError):
        rounds.start_table_game(table, ids[:-1] + [ids[0]], referee)
    game = rounds.start_table_game(table, list(reversed(ids)), referee)
    assert [p.participant_id for p in game.players.order_by("seat")] == list(reversed(ids))
    assert game.options == {"max_rounds": 2}


def test_second_confirmation_and_reopening_keep_history(tournament, referee):
    tournament.second_confirmation = True
    tournament.save()
    round_ = rounds.seat_next_round(tournament)
    rounds.start_round(round_)
    table = round_.tables.first()
    play_table(table, referee)
    results.confirm(table, referee)
    assert current_standings.game_scores(tournament) == []  # not counted until confirmed twice
    again = results.confirm(table, referee)  # the same person again (a double tap): answered, not a second
    assert again.repeated and again.result.second_by is None
    assert current_standings.game_scores(tournament) == []
    second = User.objects.create_user("second", password="pw")
    results.confirm(table, second)
    assert len(current_standings.game_scores(tournament)) == table.seats.count()
    director = User.objects.create_user("dir", password="pw", is_staff=True)
    results.reopen(table, director, "wrong dice entered")
    assert current_standings.game_scores(tournament) == []
    old = TableResult.objects.get(table=table)
    assert old.status == TableResult.Status.REOPENED and old.reason == "wrong dice entered"


def test_withdrawn_participant_is_not_seated_again(tournament, referee):
    play_round(tournament, referee)
    p = tournament.participants.first()
    interventions.withdraw(p, None, "ill")
    assert p.withdrawn_after == 1
    round2 = rounds.seat_next_round(tournament)
    assert not round2.tables.filter(seats__participant=p).exists()
    assert any(r.participant == p.pk for r in current_standings.tournament_standings(tournament))


def test_final_round_seats_top_n_together(tournament, referee):
    tournament.final_table_size = 4
    tournament.save()
    play_round(tournament, referee, seed=1)
    play_round(tournament, referee, seed=2)
    top = [r.participant for r in current_standings.tournament_standings(tournament)][:4]
    final = rounds.seat_next_round(tournament)
    assert sorted(s.participant_id for s in final.tables.get(number=1).seats.all()) == sorted(top)


def test_the_standings_read_every_players_score_row_in_a_few_queries(
    tournament, referee, django_assert_max_num_queries
):
    play_round(tournament, referee, seed=1)
    play_round(tournament, referee, seed=2)
    with django_assert_max_num_queries(
        3
    ):  # the results with their rounds, their score rows, the participants
        rows = current_standings.tournament_standings(tournament)
    assert sum(r.games for r in rows) == 2 * 13
    stored = TableResult.objects.with_scores().confirmed().order_by("pk").first()
    assert [s.position for s in stored.scores.all()] == list(range(stored.table.seats.count()))
    assert stored.ranking == [s.as_dict() for s in stored.scores.all()]  # the list the backup writes
