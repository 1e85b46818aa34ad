"""The director's pages, the referee's table page and the public standings, through Django's test client."""

import io
import re

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse
from openpyxl import Workbook

from rules.simulate import simulate
from tests.accounts import signed_in_director  # noqa: F401 (the fixture director, signed in)
from tests.tournaments import make_tournament
from tournament.event import rounds
from tournament.games import recording
from tournament.models import Round, Tournament
from tournament.people.access import REFEREES_GROUP

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(director):
    names = [f"P{i}" for i in range(8)]
    return make_tournament(names, lambda i: f"c{i % 3}", name="Cup", rounds=2, game_rounds=1, seed=3)


def page(response):
    return response.content.decode()


def test_create_tournament_with_the_form(client, director):
    response = client.post(
        reverse("tournament_new"),
        {
            "name": "Mistrzostwa",
            "date": "2026-12-05",
            "variant": "tournament-pl",
            "board": "classic-pl",
            "game_rounds": "10",
            "time_limit_minutes": "120",
            "move_time_limit": "",
            "rounds": "5",
            "table_size": "4",
            "final_table_size": "",
            "placement_points": "4, 2, 1, 0",
            "tie_breaks": "points, total_score, best_score",
            "seed": "42",
        },
    )
    t = Tournament.objects.get()
    assert response.status_code == 302 and t.placement_points == [4, 2, 1, 0]
    assert t.game_options() == {"max_rounds": 10, "time_limit_minutes": 120}


def test_the_director_chooses_to_print_the_private_links_on_the_result_sheets(client, director, tournament):
    """Off unless he ticks it, the risk said beside the box; the edit form keeps and clears it."""
    form = page(client.get(reverse("tournament_new")))
    box = re.search(r'<input type="checkbox" name="links_on_sheets"[^>]*>', form)
    assert box and "checked" not in box.group(0)
    assert "Print each player&#x27;s private link (QR code) on the result sheets" in form
    assert "Anyone who sees the sheet can then open another player&#x27;s link and sign" in form
    data = {
        "name": "Mistrzostwa",
        "date": "2026-12-05",
        "variant": "tournament-pl",
        "board": "classic-pl",
        "rounds": "5",
        "table_size": "4",
        "placement_points": "4, 2, 1, 0",
        "tie_breaks": "points, total_score, best_score",
        "seed": "42",
    }
    assert client.post(reverse("tournament_new"), data).status_code == 302
    assert Tournament.objects.get(name="Mistrzostwa").links_on_sheets is False
    edit = reverse("tournament_edit", args=[tournament.pk])
    assert client.post(edit, {**data, "name": "Cup", "links_on_sheets": "on"}).status_code == 302
    tournament.refresh_from_db()
    assert tournament.links_on_sheets is True
    box = re.search(r'<input type="checkbox" name="links_on_sheets"[^>]*>', page(client.get(edit)))
    assert box and "checked" in box.group(0)
    assert client.post(edit, {**data, "name": "Cup"}).status_code == 302  # unticked: not sent
    tournament.refresh_from_db()
    assert tournament.links_on_sheets is False


#: A new tournament's form, filled in with what it takes.
A_SMALL_TOURNAMENT = {
    "name": "X",
    "date": "2026-12-05",
    "variant": "classic",
    "board": "classic-us",
    "rounds": "3",
    "table_size": "4",
    "placement_points": "4,2,1,0",
    "tie_breaks": "points",
    "seed": "1",
}


@pytest.mark.parametrize(
    ("field", "value"), [("placement_points", "4, two"), ("tie_breaks", "points, luck"), ("table_size", "9")]
)
def test_tournament_form_refuses_bad_values(client, director, field, value):
    data = {**A_SMALL_TOURNAMENT, field: value}
    response = client.post(reverse("tournament_new"), data)
    assert (
        response.status_code == 200 and 'class="error"' in page(response) and not Tournament.objects.exists()
    )


@pytest.mark.parametrize(
    ("language", "said"), [("en", "Enter a date from 1935-01-01 to"), ("pl", "Podaj datę od 1935-01-01 do")]
)
@pytest.mark.parametrize("day", ["1900-12-05", "2206-12-05"])
def test_a_date_no_tournament_may_have_is_refused_saying_which(client, director, language, day, said):
    """A slip of the year (1900 or 2206 for 2026) would move the tournament in the league's history."""
    data = {**A_SMALL_TOURNAMENT, "date": day}
    response = client.post(reverse("tournament_new"), data, HTTP_ACCEPT_LANGUAGE=language)
    shown = page(response)
    assert response.status_code == 200 and said in shown
    assert f"({'nie' if language == 'pl' else 'not'} {day})" in shown
    assert not Tournament.objects.exists()
    form = page(client.get(reverse("tournament_new")))
    assert re.search(r'<input type="date" name="date"[^>]* min="1935-01-01" max="\d{4}-12-31"', form), form
    data["date"] = "2026-12-05"
    assert client.post(reverse("tournament_new"), data).status_code == 302  # a date of today's years: taken


def test_settings_locked_after_the_first_round_starts(client, tournament):
    client.post(reverse("round_seat", args=[tournament.pk]))
    assert client.get(reverse("tournament_edit", args=[tournament.pk])).status_code == 200
    client.post(reverse("round_start", args=[tournament.pk, 1]))
    edit = reverse("tournament_edit", args=[tournament.pk])
    response = client.get(edit)
    assert "settings are locked" in page(response)
    # only the settings that change no game are offered, and only they are taken
    assert 'name="live_boards"' in page(response) and 'name="rounds"' not in page(response)
    rounds = tournament.rounds
    answer = client.post(
        edit,
        {
            "rounds": rounds + 3,
            "trade_flag_cash": 500,
            "trade_flag_percent": 15,
            "trade_flag_moves": 8,
            "live_boards": "on",
        },
    )
    assert answer.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.rounds, tournament.trade_flag_cash, tournament.live_boards) == (rounds, 500, True)
    bad = client.post(edit, {"trade_flag_cash": 500, "trade_flag_percent": 101, "trade_flag_moves": 8})
    assert bad.status_code == 200 and tournament.trade_flag_percent == 15
    tournament.refresh_from_db()
    assert tournament.trade_flag_percent == 15 and tournament.live_boards


def test_add_and_import_participants(client, tournament):
    client.post(reverse("participant_add", args=[tournament.pk]), {"name": "Zoe", "club": "K", "seed": ""})
    response = client.post(reverse("participant_add", args=[tournament.pk]), {"name": "zoe"}, follow=True)
    assert "already registered" in page(response)
    wb = Workbook()
    wb.active.append(["name", "club"])
    wb.active.append(["Yann", "Q"])
    data = io.BytesIO()
    wb.save(data)
    upload = io.BytesIO(data.getvalue())
    upload.name = "list.xlsx"
    shown = client.post(reverse("participant_import", args=[tournament.pk]), {"file": upload})
    assert "Import this 1 participant" in page(shown) and "Yann" in page(shown)  # the names shown first
    token = re.search(r'name="rows" value="([^"]+)"', page(shown)).group(1)
    response = client.post(reverse("participant_import", args=[tournament.pk]), {"rows": token}, follow=True)
    assert "1 participants imported" in page(response)
    bad = io.BytesIO(b"name,seed\nA,x\n,\nB,1\n")
    bad.name = "bad.csv"
    response = client.post(reverse("participant_import", args=[tournament.pk]), {"file": bad}, follow=True)
    assert "Nothing was imported" in page(response) and "line 2" in page(response)
    assert tournament.participants.count() == 10


def test_round_seat_swap_referees_start_and_play_a_table(client, director, tournament):
    client.post(reverse("round_seat", args=[tournament.pk]))
    round_ = Round.objects.get()
    t1, t2 = round_.tables.all()
    a, b = t1.seats.first().participant, t2.seats.first().participant
    response = client.post(
        reverse("round_swap", args=[tournament.pk, 1]), {"a": a.pk, "b": b.pk}, follow=True
    )
    assert "Repeat pairings left: 0" in page(response)
    referee = User.objects.create_user("ref", password="pw")
    outsider = User.objects.create_user("outsider", password="pw")
    response = client.post(
        reverse("round_referees", args=[tournament.pk, 1]),
        {"tables": ["1", "2"], "table_1": [referee.pk]},
        follow=True,
    )
    assert (
        "referee role" in page(response) and not t1.referees.exists()
    )  # only accounts with the referee role may be given a table
    referee.groups.add(Group.objects.get_or_create(name=REFEREES_GROUP)[0])
    client.post(
        reverse("round_referees", args=[tournament.pk, 1]),
        {"tables": ["1"], "table_1": [referee.pk, outsider.pk]},
    )
    assert list(t1.referees.all()) == []  # one account without the role: the form is refused whole
    referees_url = reverse("round_referees", args=[tournament.pk, 1])
    client.post(referees_url, {"tables": ["1"], "table_1": [referee.pk]})
    assert list(t1.referees.all()) == [referee]
    # a post that names no table (an empty post), or a page rendered before a table was added, changes nothing
    # of the tables it does not name
    response = client.post(referees_url, {}, follow=True)
    assert "no referee was changed" in page(response) and list(t1.referees.all()) == [referee]
    client.post(referees_url, {"tables": ["2"], "table_2": [referee.pk]})
    assert list(t1.referees.all()) == [referee] and list(t2.referees.all()) == [referee]
    client.post(referees_url, {"tables": ["2"]})  # every box unticked
    assert list(t1.referees.all()) == [referee] and not t2.referees.exists()
    client.post(reverse("round_start", args=[tournament.pk, 1]))

    client.force_login(referee)
    assert "round 1, table 1" in page(client.get(reverse("home")))
    assert client.get(reverse("table", args=[tournament.pk, 1, 2])).status_code == 403
    # the tournament's page shows a referee his tables there (and no settings), not a 403
    mine = page(client.get(reverse("tournament", args=[tournament.pk])))
    assert "Round 1, table 1" in mine and "Waiting: enter the order of play" in mine
    assert "Round 1, table 2" not in mine and reverse("participant_add", args=[tournament.pk]) not in mine
    seats = [s.participant for s in t1.seats.all()]
    url = reverse("table", args=[tournament.pk, 1, 1])
    bad = {"order": "1", **{f"place_{p.pk}": "1" for p in seats}}
    assert "one place" in page(client.post(url, bad, follow=True))
    order = {"order": "1", **{f"place_{p.pk}": str(i + 1) for i, p in enumerate(reversed(seats))}}
    response = client.post(url, order)
    t1.refresh_from_db()
    assert response.status_code == 302 and response["Location"] == reverse("console", args=[t1.game.pk])
    game = t1.game
    assert [p.participant for p in game.players.order_by("seat")] == list(reversed(seats))
    assert referee in game.referees.all()

    record = simulate(tournament.variant, tournament.board, len(seats), seed=1, rounds=1)
    for ev in record["events"]:
        game = recording.submit(game.pk, ev, version=game.version).game
    assert "Result from the game" in page(client.get(url))
    client.post(reverse("table_confirm", args=[tournament.pk, 1, 1]))
    standings = page(client.get(reverse("standings", args=[tournament.pk])))
    assert seats[0].name in standings
    assert (
        client.post(reverse("table_reopen", args=[tournament.pk, 1, 1]), {"reason": "x"}).status_code == 403
    )


def test_public_standings_and_projector_need_no_login(client, tournament):
    client.logout()
    response = client.get(reverse("standings", args=[tournament.pk]), {"sort": "-points"})
    assert response.status_code == 200 and "P0" in page(response) and 'class="standings"' in page(response)
    response = client.get(reverse("projector", args=[tournament.pk]))
    assert response.status_code == 200 and 'http-equiv="refresh"' in page(response)
    assert client.get(reverse("tournament", args=[tournament.pk])).status_code == 302  # login first


def test_withdraw_between_rounds(client, tournament):
    p = tournament.participants.first()
    response = client.post(reverse("participant_withdraw", args=[tournament.pk, p.pk]), follow=True)
    p.refresh_from_db()
    assert p.active and "Say why." in [str(m) for m in response.context["messages"]]  # no reason: refused
    client.post(reverse("participant_withdraw", args=[tournament.pk, p.pk]), {"reason": "ill"})
    p.refresh_from_db()
    assert p.withdrawn_after == 0
    client.post(reverse("round_seat", args=[tournament.pk]))
    assert not Round.objects.get().tables.filter(seats__participant=p).exists()


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"a": "x", "b": "999"},
        {"referees": ["abc"]},
        {"order": "1", "place_1": "x"},
        {"reason": ""},
        {"file": "not a file"},
    ],
)
def test_garbage_posts_get_messages_not_errors(client, tournament, data):
    client.post(reverse("round_seat", args=[tournament.pk]))
    urls = [
        reverse("round_swap", args=[tournament.pk, 1]),
        reverse("round_referees", args=[tournament.pk, 1]),
        reverse("table", args=[tournament.pk, 1, 1]),
        reverse("table_reopen", args=[tournament.pk, 1, 1]),
        reverse("table_confirm", args=[tournament.pk, 1, 1]),
        reverse("participant_import", args=[tournament.pk]),
        reverse("participant_add", args=[tournament.pk]),
        reverse("round_start", args=[tournament.pk, 9]),
    ]
    for url in urls:
        assert client.post(url, data).status_code in (200, 302, 404), url


def test_a_referee_lands_on_his_tables_now(client, tournament):
    """After login: his tables of unfinished rounds, per tournament, one tap from where each game goes on."""
    referee = User.objects.create_user("ref", password="pw")
    referee.groups.add(Group.objects.get_or_create(name=REFEREES_GROUP)[0])
    round_ = rounds.seat_next_round(tournament)
    t1, t2 = round_.tables.all()[:2]
    t1.referees.add(referee)
    t2.referees.add(referee)
    rounds.start_round(round_)
    game = rounds.start_table_game(t2, [s.participant_id for s in t2.seats.all()], user=referee)
    client.logout()
    response = client.post(reverse("login"), {"username": "ref", "password": "pw"})
    assert response["Location"] == reverse("my_tables")
    mine = page(client.get(reverse("my_tables")))
    assert tournament.name in mine
    assert reverse("table", args=[tournament.pk, 1, t1.number]) in mine  # waiting: the table page
    assert reverse("console", args=[game.pk]) in mine  # in play: the console
    assert "Waiting: enter the order of play" in mine and "In play" in mine
    assert all(name in mine for name in t1.seats.values_list("participant__name", flat=True))


def test_the_tournament_page_offers_to_seat_a_round_only_when_it_can_be(client, tournament, director):
    """Seat the next round: offered before round 1 and once a round's results are all confirmed; while a
    round is played it says what it waits for; after the last round, that every round is played."""
    seat = reverse("round_seat", args=[tournament.pk])

    def shown():
        return page(client.get(reverse("tournament", args=[tournament.pk])))

    assert seat in shown()
    for number in (1, 2):
        client.post(seat, {"number": str(number)})
        round_ = tournament.round_set.get(number=number)
        assert seat not in shown() and reverse("round", args=[tournament.pk, number]) in shown()
        assert "every result of" in shown()
        Round.objects.filter(pk=round_.pk).update(status=Round.Status.FINISHED)  # its results confirmed
    assert seat not in shown() and "All the tournament" in shown()
