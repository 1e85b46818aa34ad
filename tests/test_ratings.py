"""The ratings (rules/ratings.py, tournament/ratings/rebuild.py): the figures openskill gives when called
directly on the same results in the same order; a rebuild from a point equals a rebuild from the beginning
(after a result confirmed, reopened, corrected, a tournament's date changed or a tournament deleted); two
confirmations at once, on both databases, end in a fresh rebuild's figures."""

from __future__ import annotations

import datetime
import random
import threading

import pytest
from django.db import connection
from openskill.models import PlackettLuce

from rules.ratings import League, Rating, Table, rate
from tests.league import league_of_three_tournaments, make_players, results_tournament, snapshot
from tests.tournaments import make_tournament, play_round
from tournament.event import results, rounds
from tournament.models import (
    PastEntrant,
    PastEvent,
    PastPlacement,
    Player,
    PlayerRating,
    RatingStep,
    TableResult,
    Tournament,
)
from tournament.models import (
    Table as TournamentTable,
)
from tournament.ratings.rebuild import Point, rebuild

D1, D2, D3 = datetime.date(2026, 1, 10), datetime.date(2026, 2, 14), datetime.date(2026, 3, 21)


def direct(tables, start=None):
    """openskill itself, table after table: {player: (mu, sigma, games)}."""
    model = PlackettLuce()
    now = {p: (model.rating(mu=r[0], sigma=r[1]), r[2]) for p, r in (start or {}).items()}
    for places in tables:
        players = [p for p, _r in places]
        teams = [[now.get(p, (model.rating(), 0))[0]] for p in players]
        out = model.rate(teams, ranks=[r for _p, r in places])
        for p, (new,) in zip(players, out, strict=True):
            now[p] = (new, now.get(p, (None, 0))[1] + 1)
    return {p: (r.mu, r.sigma, g) for p, (r, g) in now.items()}


def stored() -> dict[str, tuple[float, float, int]]:
    return {r.player.name: (r.mu, r.sigma, r.games) for r in PlayerRating.objects.select_related("player")}


def assert_close(got, want):
    assert set(got) == set(want)
    for name, (mu, sigma, games) in want.items():
        assert got[name][0] == pytest.approx(mu, abs=1e-9), name
        assert got[name][1] == pytest.approx(sigma, abs=1e-9), name
        assert got[name][2] == games, name


# --- rules/ratings.py -------------------------------------------------------------------------------


def test_league_equals_openskill_on_random_tables_with_ties():
    rng = random.Random(7)
    players = [f"p{i}" for i in range(30)]
    tables = []
    for _ in range(300):
        at = rng.sample(players, rng.choice([3, 4, 5]))
        tables.append([(p, rng.randint(1, len(at))) for p in at])  # ties and gaps as they come
    got = rate([Table(t) for t in tables])
    want = direct(tables)
    assert_close({p: (r.mu, r.sigma, r.games) for p, r in got.items()}, want)


def test_a_tie_is_a_tie_and_the_winner_gains():
    after = rate([Table([("a", 1), ("b", 2), ("c", 2), ("d", 4)])])
    assert after["b"].mu == pytest.approx(after["c"].mu)
    assert after["a"].mu > after["b"].mu > after["d"].mu
    assert after["a"].ordinal == pytest.approx(after["a"].mu - 3 * after["a"].sigma)
    assert Rating().ordinal == pytest.approx(0.0)


def test_players_without_identity_are_left_out_and_small_tables_change_nothing():
    league = League()
    assert league.play(Table([("a", 2), (None, 1), ("b", 3)]))
    assert_close(
        {p: (r.mu, r.sigma, r.games) for p, r in league.ratings.items()}, direct([[("a", 2), ("b", 3)]])
    )
    assert not league.play(Table([("a", 1), (None, 2)]))
    assert league.ratings["a"].games == 1


@pytest.mark.parametrize("places", [[("a", 1), ("a", 2)], [("a", 0), ("b", 1)], [("a", 1.5), ("b", 1)]])
def test_a_malformed_table_is_refused(places):
    with pytest.raises(ValueError):
        League().play(Table(places))


# --- the rebuild from the database ------------------------------------------------------------------


@pytest.mark.django_db
def test_rebuild_equals_openskill_in_date_order_past_results_first_on_a_day():
    a, b, c, d, e = make_players(["Ada", "Bob", "Cyd", "Dan", "Eve"])
    # stored out of date order: the rebuild orders them
    results_tournament("Spring", D2, [[[(a, 1), (b, 2), (c, 2), (d, 4)]], [[(a, 3), (e, 1), (c, 2)]]])
    results_tournament("Winter", D1, [[[(e, 1), (d, 2), (b, 3), ("Nobody", 1)]]])
    past = PastEvent.objects.create(name="Old cup", date=D2)
    for who, rank in [(b, 1), (a, 2), (d, 3)]:
        entrant = PastEntrant.objects.create(event=past, name=who.name, player=who)
        PastPlacement.objects.create(entrant=entrant, round_number=1, table_number=1, rank=rank)
    assert rebuild() == 4
    want = direct(
        [
            [
                ("Eve", 1),
                ("Dan", 2),
                ("Bob", 3),
            ],  # Winter, the unlinked "Nobody" left out (tied 1st with Eve)
            [("Bob", 1), ("Ada", 2), ("Dan", 3)],  # the past cup, same day as Spring: before it
            [("Ada", 1), ("Bob", 2), ("Cyd", 2), ("Dan", 4)],
            [("Ada", 3), ("Eve", 1), ("Cyd", 2)],
        ]
    )
    assert_close(stored(), want)
    # the history: one step per player and event, the last one his rating now
    ada = RatingStep.objects.filter(player=a).order_by("date", "source")
    assert [(s.source, s.played, s.games) for s in ada] == [(0, 1, 1), (1, 2, 3)]
    assert ada.last().ordinal == pytest.approx(PlayerRating.objects.get(player=a).ordinal)
    assert ada.last().change == pytest.approx(ada.last().ordinal - ada.first().ordinal)


@pytest.mark.django_db
def test_a_result_waiting_for_its_second_confirmation_does_not_count(director):
    a, b, c = make_players(["Ada", "Bob", "Cyd"])
    t = results_tournament("Cup", D1, [[[(a, 1), (b, 2), (c, 3)]]], second_confirmation=True)
    rebuild()
    assert PlayerRating.objects.count() == 0
    TableResult.objects.filter(table__round__tournament=t).update(second_by=director)
    rebuild()
    assert_close(stored(), direct([[("Ada", 1), ("Bob", 2), ("Cyd", 3)]]))


@pytest.mark.django_db
def test_the_ranks_are_the_standings_places_of_played_games(referee, django_capture_on_commit_callbacks):
    """Games played to the end: the rating reads each table's result rows (bankrupt below the rest)."""
    t = make_tournament(8, rounds=2, game_rounds=2, seed=5)
    for p in t.participants.all():
        p.player = Player.objects.create(name=p.name)
        p.save()
    with django_capture_on_commit_callbacks(execute=True):
        play_round(t, referee)
    tables = [
        [(s.participant.player.name, s.rank) for s in r.scores.select_related("participant__player")]
        for r in TableResult.objects.confirmed().order_by("table__number")
    ]
    assert_close(stored(), direct(tables))


@pytest.mark.django_db
def test_a_rebuild_after_a_reopened_result_equals_a_fresh_rebuild(
    director, django_capture_on_commit_callbacks
):
    a, b, c = league_of_three_tournaments()
    rebuild()
    table = TournamentTable.objects.filter(round__tournament=b, round__number=2).first()
    with django_capture_on_commit_callbacks(execute=True) as done:
        results.reopen(table, director, "a wrong place")
    assert done, "reopening asks for a rebuild"
    after_reopen = snapshot()
    rebuild()
    assert snapshot() == after_reopen
    # and the reopened table no longer counts
    counted = RatingStep.objects.filter(tournament=b).values_list("played", flat=True)
    assert sum(counted) == 3 * 12 - 4


@pytest.mark.django_db
def test_a_rebuild_from_a_point_equals_a_fresh_rebuild():
    a, b, c = league_of_three_tournaments()
    rebuild()
    fresh = snapshot()
    for since in [Point.of_tournament(c), Point.of_tournament(b), Point(D1, 0, 0), Point(D3, 9, 0)]:
        rebuild(since)
        assert snapshot() == fresh, since


@pytest.mark.django_db
def test_a_date_changed_or_a_tournament_deleted_rebuilds(django_capture_on_commit_callbacks):
    a, b, c = league_of_three_tournaments()
    rebuild()
    with django_capture_on_commit_callbacks(execute=True):
        c.date = datetime.date(2025, 12, 1)  # C was played first after all
        c.save()
    moved = snapshot()
    rebuild()
    assert snapshot() == moved
    assert RatingStep.objects.filter(tournament=c).first().date == datetime.date(2025, 12, 1)
    with django_capture_on_commit_callbacks(execute=True):
        Tournament.objects.get(pk=b.pk).delete()
    deleted = snapshot()
    rebuild()
    assert snapshot() == deleted
    assert not RatingStep.objects.filter(source=1, source_id=b.pk).exists()


@pytest.mark.django_db
def test_a_confirmation_in_a_tournament_rebuilds_from_it(referee, django_capture_on_commit_callbacks):
    t = make_tournament(4, rounds=1, game_rounds=1, seed=2)
    for p in t.participants.all():
        p.player = Player.objects.create(name=p.name)
        p.save()
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    from tests.tournaments import play_table

    table = round_.tables.get()
    play_table(table, referee)
    assert PlayerRating.objects.count() == 0
    with django_capture_on_commit_callbacks(execute=True):
        results.confirm(table, referee)
    assert PlayerRating.objects.count() == 4
    assert set(PlayerRating.objects.values_list("games", flat=True)) == {1}


# --- races, on both databases ------------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_confirmations_at_once_end_in_a_fresh_rebuilds_figures(referee):
    t = make_tournament(8, rounds=1, game_rounds=1, seed=4)
    for p in t.participants.all():
        p.player = Player.objects.create(name=p.name)
        p.save()
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    tables = list(round_.tables.all())
    from tests.tournaments import play_table

    for table in tables:
        play_table(table, referee)
    barrier = threading.Barrier(len(tables))
    errors = []

    def confirm(table):
        try:
            barrier.wait(timeout=10)
            results.confirm(table, referee)  # its rebuild runs after its commit, in this thread
        except Exception as e:  # reported below
            errors.append(e)
        finally:
            connection.close()

    threads = [threading.Thread(target=confirm, args=(table,)) for table in tables]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=60)
    assert not errors
    raced = snapshot()
    assert len(raced[1]) == 8
    rebuild()
    assert snapshot() == raced


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_rebuild_that_fails_leaves_its_request_for_the_next(
    director, monkeypatch, django_capture_on_commit_callbacks
):
    from tournament.models import RatingsPending
    from tournament.ratings import rebuild as rebuilding

    a, b, c = league_of_three_tournaments()
    rebuild()
    fresh = snapshot()
    real = rebuilding._write

    def broken(plan, done):
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(rebuilding, "_write", broken)
    table = TournamentTable.objects.filter(round__tournament=a, round__number=1).first()
    with django_capture_on_commit_callbacks(execute=True):
        results.reopen(table, director, "a wrong place")  # the change and its request, in one transaction
    assert RatingsPending.objects.count() == 1  # asked, not done
    assert snapshot() == fresh
    monkeypatch.setattr(rebuilding, "_write", real)
    with django_capture_on_commit_callbacks(execute=True):
        c.name = "C renamed"
        c.save()  # a later change asks for nothing: the next rebuild asked for does the earlier one too
        from tournament.ratings.triggers import after_commit

        after_commit(Point.of_tournament(c))
    assert not RatingsPending.objects.exists()
    done = snapshot()
    rebuild()
    assert snapshot() == done != fresh
