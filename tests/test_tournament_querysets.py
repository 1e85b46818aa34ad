"""The models' named filters (``TableResult.objects.confirmed()``, ``GameEvent.objects.active()``,
``at(table)`` …) pick the rows the copies they replaced picked."""

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from tournament.event import rounds
from tournament.models import Game, GameEvent, Participant, Round, Table, TableResult, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def tables():
    t = Tournament.objects.create(name="Cup", rounds=2, seed=5)
    for i in range(8):
        Participant.objects.create(tournament=t, name=f"P{i}")
    round_ = rounds.seat_next_round(t)
    return list(round_.tables.order_by("number"))


def result(table, status=TableResult.Status.CONFIRMED):
    reopened = {} if status == "confirmed" else {"reopened_at": timezone.now(), "reason": "x"}
    return TableResult.objects.create(table=table, ranking=[], status=status, **reopened)


def test_confirmed_results_are_those_that_stand(tables):
    one, two = tables
    old, standing, other = result(one, "reopened"), result(one), result(two, "reopened")
    assert list(TableResult.objects.confirmed()) == [standing]
    assert list(TableResult.objects.reopened().order_by("pk")) == [old, other]
    assert list(one.results.confirmed()) == [standing]
    assert set(TableResult.objects.at(one)) == {old, standing}
    assert set(TableResult.objects.at_tables([two])) == {other}
    tournament = one.round.tournament
    assert TableResult.objects.of_tournament(tournament).count() == 3
    assert not TableResult.objects.of_tournament(Tournament.objects.create(name="Other")).exists()


def test_a_table_is_closed_once_its_result_stands_or_its_round_is_over(tables):
    one, two = tables
    result(two, "reopened")
    assert not Table.objects.closed().exists()
    result(one)
    assert list(Table.objects.closed()) == [one]
    Round.objects.update(status=Round.Status.FINISHED)
    assert set(Table.objects.closed()) == {one, two}


def test_active_moves_and_the_game_at_a_table(tables):
    one, two = tables
    game = Game.objects.create(table=one, variant="classic", board="classic-us")
    Game.objects.create(variant="classic", board="classic-us")  # a game of no table
    by = User.objects.create(username="r")
    taken_back = {"changed_at": timezone.now(), "reason": "wrong", "changed_by": by}
    GameEvent.objects.create(game=game, seq=1, data={}, status=GameEvent.Status.UNDONE, **taken_back)
    kept = GameEvent.objects.create(game=game, seq=2, data={})
    GameEvent.objects.create(game=game, seq=3, data={}, status=GameEvent.Status.VOIDED, **taken_back)
    assert list(game.events.active()) == [kept] == list(GameEvent.objects.active())
    assert list(Game.objects.at(one)) == [game] and not Game.objects.at(two).exists()
    assert list(Game.objects.at_tables(tables)) == [game]


@pytest.mark.postgres  # (SQL written by hand: both databases read it)
def test_the_move_s_conditions_in_sql_say_what_the_orm_says(tables):
    """``game_conditions`` (written in SQL once, for the move's speed) against the ORM's own words: a game on
    a closed table, and who referees a game, through a table's states and a game of no table."""
    from django.db.models import Exists, OuterRef

    from tournament.models.game_conditions import refereed_by, table_open

    one, two = tables
    games = [Game.objects.create(table=t, variant="classic", board="classic-us") for t in (one, two)]
    games.append(Game.objects.create(variant="classic", board="classic-us"))  # no table: always open
    anna, bob = User.objects.create(username="anna"), User.objects.create(username="bob")
    games[0].referees.add(anna)
    games[2].referees.add(anna, bob)

    def agree():
        closed = Table.objects.closed().filter(pk=OuterRef("table_id"))
        assert set(Game.objects.filter(table_open())) == set(Game.objects.exclude(Exists(closed)))
        for user in (anna, bob):
            link = Game.referees.through.objects.filter(game_id=OuterRef("pk"), user_id=user.pk)
            ours = dict(Game.objects.annotate(r=refereed_by(user.pk)).values_list("pk", "r"))
            orms = dict(Game.objects.annotate(r=Exists(link)).values_list("pk", "r"))
            assert {pk: bool(r) for pk, r in ours.items()} == orms
        return {g.pk for g in Game.objects.filter(table_open())}

    assert agree() == {g.pk for g in games}
    result(two, "reopened")
    assert agree() == {g.pk for g in games}
    result(one)
    assert agree() == {games[1].pk, games[2].pk}
    Round.objects.update(status=Round.Status.FINISHED)
    assert agree() == {games[2].pk}
