"""What counts is one rule (``tournament.models.result_counts``), asked three ways: of one result
(``TableResult.counts``), of the database (``TableResult.objects.counted``, ``counting`` from a score) and of
a backup's rows. All three answer alike at every step of a result's life, with and without a second
confirmation; and the round finishes exactly when every table's result counts."""

import pytest
from django.contrib.auth.models import User

from tests.tournaments import make_tournament
from tournament.event import interventions, results, rounds
from tournament.models import Round, TableResult, TableScore, counting, result_counts

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("second_confirmation", [False, True])
def test_a_result_counts_alike_however_it_is_asked(second_confirmation):
    tournament = make_tournament(4, name="Cup", rounds=2, seed=5, table_size=4)
    tournament.second_confirmation = second_confirmation
    tournament.save()
    round_ = rounds.seat_next_round(tournament)
    rounds.start_round(round_)
    table = round_.tables.get()
    director, other = User.objects.create_user("director"), User.objects.create_user("other")
    seats = [s.participant_id for s in table.seats.order_by("order")]
    result = interventions.enter_result(
        table, {p: (i + 1, 1000 - 100 * i) for i, p in enumerate(seats)}, director, "the tablet died"
    )

    def counts_everywhere(expected: bool) -> None:
        result.refresh_from_db()
        tournament.refresh_from_db()
        assert result.counts() is expected
        assert TableResult.objects.counted().filter(pk=result.pk).exists() is expected
        scores = TableScore.objects.filter(counting("result__"), result=result)
        assert scores.count() == (4 if expected else 0)
        row = {"status": result.status, "second_by": result.second_by_id}  # as a backup holds it
        assert result_counts(**row, second_confirmation=second_confirmation) is expected
        round_.refresh_from_db()
        assert (round_.status == Round.Status.FINISHED) is expected

    counts_everywhere(not second_confirmation)
    if second_confirmation:
        results.confirm(table, other)
        counts_everywhere(True)
    results.reopen(table, director, "a wrong score")
    counts_everywhere(False)
