"""An Anti-Monopoly tournament: roles given at seating (balanced tables, alternating across rounds), the games
played with them, scores by the ending, roles in the result sheets and the workbook."""

from collections import Counter
from io import BytesIO

import pytest
from django.utils import translation
from openpyxl import load_workbook

from rules.simulate import simulate
from tests.tournaments import make_tournament, play_anti_monopoly_table, start_game
from tournament.event import results, rounds
from tournament.event.roles import assign_roles
from tournament.exports.workbook import tournament_workbook
from tournament.games import recording
from tournament.models import Participant, Round, Seat, Tournament
from tournament.reports.rounds import tournament_report

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return make_tournament(
        10,
        lambda i: f"club{i % 3}",
        name="Anty-Cup",
        variant="anti-monopoly",
        board="anti-monopoly-us",
        rounds=3,
        game_rounds=3,
        table_size=5,
        seed=11,
    )


def test_every_table_is_balanced_and_roles_alternate(tournament, referee):
    played: dict[int, list[str]] = {}
    for n in range(1, 4):
        round_ = rounds.seat_next_round(tournament)
        rounds.start_round(round_)
        for table in round_.tables.all():
            roles = Counter(table.seats.values_list("role", flat=True))
            assert set(roles) <= {"competitor", "monopolist"}
            assert abs(roles["competitor"] - roles["monopolist"]) <= 1  # rule 4
            for s in table.seats.all():
                played.setdefault(s.participant_id, []).append(s.role)
            game = play_anti_monopoly_table(table, referee, seed=n)
            assert [p.role for p in game.players.order_by("seat")] == [s.role for s in table.seats.all()]
            results.confirm(table, referee)
        assert Round.objects.get(pk=round_.pk).status == Round.Status.FINISHED
    # alternating where possible: nobody plays the same role three times, nearly everyone both roles
    assert all(Counter(r).most_common(1)[0][1] <= 2 for r in played.values())
    assert sum(1 for r in played.values() if len(set(r)) == 2) >= 8


def test_assign_roles_balances_odd_tables_over_the_tournament():
    # 1 and 3 played competitor, 2 monopolist; the tournament has had fewer monopolists (1 against 2), so the
    # odd table's extra seat is a monopolist's: 1 and 3 become monopolists, 2 a competitor
    history = {1: Counter(competitor=1), 2: Counter(monopolist=1), 3: Counter(competitor=1)}
    assert assign_roles([[1, 2, 3]], history, seed=1) == {1: "monopolist", 2: "competitor", 3: "monopolist"}
    # round 1 (no history): two tables of 3, one of each role more, so the tournament stays even
    first = assign_roles([[1, 2, 3], [4, 5, 6]], {}, seed=2)
    assert Counter(first.values()) == Counter(competitor=3, monopolist=3)


def test_swap_keeps_the_tables_balanced(tournament):
    round_ = rounds.seat_next_round(tournament)
    t1, t2 = round_.tables.all()
    a = t1.seats.filter(role="competitor").first().participant
    b = t2.seats.filter(role="monopolist").first().participant
    rounds.swap(round_, a, b)
    for table in round_.tables.all():
        roles = Counter(table.seats.values_list("role", flat=True))
        assert abs(roles["competitor"] - roles["monopolist"]) <= 1
    assert Seat.objects.get(table__round=round_, participant=a).role == "monopolist"


def test_results_scores_and_the_workbook_show_roles(tournament, referee):
    round_ = rounds.seat_next_round(tournament)
    rounds.start_round(round_)
    for table in round_.tables.all():
        play_anti_monopoly_table(table, referee, seed=3)
        results.confirm(table, referee)
    table = round_.tables.first()
    confirmed = results.current_result(table).ranking
    assert all(r["role"] in ("competitor", "monopolist") for r in confirmed)
    report = tournament_report(tournament)
    players = [p for r in report.rounds for t in r.tables for p in t.game.players]
    assert {p.role for p in players} == {"competitor", "monopolist"}
    with translation.override("en"):
        book = load_workbook(BytesIO(tournament_workbook(report)))
    ws = book["Results"]
    header = [c.value for c in ws[1]]
    assert header[-1] == "Role"
    assert {row[-1].value for row in ws.iter_rows(min_row=2)} == {"competitor", "monopolist"}


def test_the_ending_reaches_the_games_and_the_backup_keeps_roles_and_ending(tournament, referee):
    from tournament.files import backup
    from tournament.models import Game

    tournament.ending = "game_b"
    tournament.save()
    round_ = rounds.seat_next_round(tournament)
    rounds.start_round(round_)
    table = round_.tables.first()
    seats = list(table.seats.all())
    game = rounds.start_table_game(table, [s.participant_id for s in seats], user=referee)
    assert game.options["ending"] == "game_b" and recording.current_state(game).variant.ending == "game_b"
    data = backup.export_tournament(tournament)
    assert data["tournament"]["ending"] == "game_b"
    assert data["rounds"][0]["tables"][0]["roles"] == [s.role for s in seats]
    Game.objects.all().delete()
    Tournament.objects.all().delete()
    imported = backup.import_tournament(data)
    assert imported.ending == "game_b"
    again = imported.round_set.get().tables.get(number=table.number)
    assert [s.role for s in again.seats.all()] == [s.role for s in seats]


def test_a_round_seated_before_the_tournament_became_anti_monopoly_gets_roles_at_its_tables(referee):
    t = Tournament.objects.create(
        name="Switch", variant="tournament-pl", board="classic-pl", rounds=2, seed=3
    )
    for i in range(6):
        Participant.objects.create(tournament=t, name=f"Q{i}")
    round_ = rounds.seat_next_round(t)
    assert set(Seat.objects.filter(table__round=round_).values_list("role", flat=True)) == {""}
    t.variant, t.board = "anti-monopoly", "anti-monopoly-us"
    t.save()
    rounds.start_round(round_)
    table = round_.tables.first()
    game = start_game(table, referee)
    roles = Counter(p.role for p in game.players.all())
    assert abs(roles["competitor"] - roles["monopolist"]) <= 1 and not roles[""]
    assert sorted(table.seats.values_list("role", flat=True)) == sorted(p.role for p in game.players.all())


def test_an_imported_record_keeps_the_roles_given_at_seating(tournament, referee):
    import json

    from tournament.games.record_import import RecordImportError, import_table_record

    round_ = rounds.seat_next_round(tournament)
    rounds.start_round(round_)
    table = round_.tables.first()
    seats = list(table.seats.select_related("participant"))
    flipped = {"competitor": "monopolist", "monopolist": "competitor"}
    record = simulate(
        tournament.variant,
        tournament.board,
        len(seats),
        seed=4,
        rounds=tournament.game_rounds,
        roles=[flipped[s.role] for s in seats],
        options={"ending": tournament.ending},
    )
    for player, seat in zip(record["players"], seats, strict=True):
        player["name"] = seat.participant.name
    with translation.override("en"), pytest.raises(RecordImportError, match="the seating, a"):
        import_table_record(table, json.dumps(record).encode(), referee)
    assert not recording.Game.objects.exists()
