"""The league's big writes keep the referees' moves waiting only briefly (issue 38; the figures:
tests/bench_long_writes.py): the ratings are computed outside the write lock and written only if nothing they
were computed from changed meanwhile (tournament/ratings/rebuild.py); a past-results file is read and checked
before its short transaction, which writes its rows hundreds at a time (tournament/files/past_results.py).
Real threads, on SQLite (one write lock for the whole database) and PostgreSQL."""

from __future__ import annotations

import csv
import io

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from tests.league import league_of_three_tournaments, snapshot
from tests.threads import at_once
from tournament.event import results
from tournament.files.past_results.rows import PastResultsError
from tournament.files.past_results.storing import import_past_results
from tournament.models import LeagueChange, PastPlacement, RatingsPending, RatingStep, TableScore
from tournament.models import Table as TournamentTable
from tournament.ratings import rebuild as rebuilding
from tournament.ratings.rebuild import ask, rebuild

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def a_move(user):
    """A small write in its own transaction, as a referee's move is."""
    with transaction.atomic():
        LeagueChange.objects.create(action=LeagueChange.Action.RENAMED, user=user, before="a move")
    return True


def while_computing(monkeypatch, *calls):
    """Run the calls in other threads (together, each to its end) once, while the next rebuild computes: after
    it has read what it is made of, before it writes."""
    real, done = rebuilding.events, []

    def events(since=None):
        out = real(since)
        if not done:
            done.append(at_once(*calls))
        return out

    monkeypatch.setattr(rebuilding, "events", events)
    return done


def test_a_move_is_written_while_the_ratings_are_computed(director, monkeypatch):
    league_of_three_tournaments()
    done = while_computing(monkeypatch, lambda: a_move(director))
    rebuild()
    # the move's thread did not wait for the rebuild (on SQLite it would have waited for its whole
    # transaction, and the rebuild for the move: neither would end)
    assert done == [[True]]
    assert LeagueChange.objects.filter(before="a move").count() == 1


def test_a_result_reopened_while_the_ratings_are_computed_is_not_written_over(director, monkeypatch):
    a, b, c = league_of_three_tournaments()
    rebuild()
    ask(None)  # a rebuild asked for, and done below
    table = TournamentTable.objects.filter(round__tournament=b, round__number=2).first()
    # reopened (its own rebuild runs after its commit, in its thread) while the rebuild computes from before
    done = while_computing(monkeypatch, lambda: results.reopen(table, director, "a wrong place"))
    rebuilding.rebuild_asked()
    assert done, "the rebuild computed"
    assert not RatingsPending.objects.exists()
    after = snapshot()
    monkeypatch.undo()
    rebuild()
    assert snapshot() == after  # a fresh rebuild's figures: the reopened table is not counted
    assert sum(RatingStep.objects.filter(tournament=b).values_list("played", flat=True)) == 3 * 12 - 4


def test_a_change_asked_for_and_done_while_a_rebuild_computes_is_not_written_over(director, monkeypatch):
    """Nothing asked for before, nothing after (the change's own rebuild did its request): the count of
    rebuilds written tells the first one that what it read is stale."""
    a, b, c = league_of_three_tournaments()
    rebuild()
    table = TournamentTable.objects.filter(round__tournament=a, round__number=1).first()
    while_computing(monkeypatch, lambda: results.reopen(table, director, "a wrong place"))
    rebuild()
    assert not RatingsPending.objects.exists()
    after = snapshot()
    monkeypatch.undo()
    rebuild()
    assert snapshot() == after
    assert sum(RatingStep.objects.filter(tournament=a).values_list("played", flat=True)) == 3 * 12 - 4


def test_a_change_meanwhile_has_the_rebuild_read_again(director, monkeypatch):
    a, b, c = league_of_three_tournaments()
    rebuild()
    fresh = snapshot()
    table = TournamentTable.objects.filter(round__tournament=c, round__number=1).first()
    plans = []
    real_plan = rebuilding._plan
    monkeypatch.setattr(rebuilding, "_plan", lambda since: plans.append(since) or real_plan(since))

    def change():  # a table's places corrected and the rebuild asked for, committed (that rebuild not run)
        with transaction.atomic():
            TableScore.objects.filter(result__table=table).update(rank=1)  # a tie of four
            ask(rebuilding.Point.of_tournament(c))
        return True

    while_computing(monkeypatch, change)
    rebuild()
    assert len(plans) == 2, "read again once the change was seen"
    assert not RatingsPending.objects.exists()  # the change's request done by it
    after = snapshot()
    assert after != fresh
    monkeypatch.undo()
    rebuild()
    assert snapshot() == after


def past_results_csv(tables: int) -> bytes:
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["Tournament", "Date", "Round", "Table", "Place", "Player"])
    for t in range(tables):
        for place in range(1, 5):
            w.writerow(["Cup", "2025-03-01", 1 + t % 5, 1 + t // 5, place, f"Gracz {(t // 5 * 4 + place)}"])
    return out.getvalue().encode()


def test_an_import_writes_its_rows_hundreds_a_statement(director):
    data = past_results_csv(500)  # 2,000 rows
    with CaptureQueriesContext(connection) as queries:
        imported = import_past_results("past.csv", data, director)
    assert imported.placements == 2000 == PastPlacement.objects.count()
    inserts = [q for q in queries.captured_queries if q["sql"].startswith("INSERT")]
    assert len(inserts) < 30, len(inserts)  # not one a row (2,400 rows in all)


def test_a_move_is_written_while_a_file_is_imported_and_one_file_imported_twice_at_once_is_stored_once(
    director, monkeypatch
):
    from tournament.files.past_results import storing as past_results

    data = past_results_csv(100)
    real, moves = past_results._store, []

    def store(events, user, held=None):  # once the file is read and checked, before its transaction
        moves.append(at_once(lambda: a_move(director)))
        return real(events, user, held)

    monkeypatch.setattr(past_results, "_store", store)

    def attempt():
        try:
            with translation.override("en"):
                return import_past_results("past.csv", data, director).placements
        except PastResultsError as e:
            return e.problems

    outcomes = at_once(attempt, attempt)
    assert moves and all(m == [True] for m in moves)  # each move written while its file was checked
    assert sorted(outcomes, key=str)[0] == 400 and PastPlacement.objects.count() == 400  # stored once
    refused = sorted(outcomes, key=str)[1]
    assert refused in (
        [(2, "Cup of 2025-03-01 is already imported: delete it first to import it again")],
        [(None, "The file was imported meanwhile: see the list.")],
    ), refused


def test_one_file_chosen_twice_at_once_is_held_once(director):
    from django.test import Client
    from django.urls import reverse

    from tournament.models import HeldFile

    data = past_results_csv(10)

    def upload():
        c = Client()
        c.force_login(director)
        f = io.BytesIO(data)
        f.name = "past.csv"
        return c.post(reverse("past_events"), {"file": f}).status_code

    assert at_once(upload, upload) == [302, 302]
    assert HeldFile.objects.filter(user=director).count() == 1
