"""A tournament belongs to its directors: its creator and the co-directors he adds (accounts of the
``directors`` group); staff direct every tournament. Another organiser on the same installation sees it as
the public does: its director's pages and downloads are refused (403) and nothing changes."""

import pytest
from django.contrib.auth.models import Group, User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from rules.simulate import simulate
from tests.tournaments import make_tournament
from tournament.event import results, rounds
from tournament.games import recording
from tournament.models import (
    AuditEntry,
    Game,
    GameEvent,
    Participant,
    Round,
    Seat,
    Table,
    TableResult,
    Tournament,
)
from tournament.people.access import DIRECTORS_GROUP, REFEREES_GROUP, may_direct

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):  # the messages matched below are the English ones
        yield


def account(name, group=None, **flags):
    user = User.objects.create_user(name, password="pw", **flags)
    if group:
        user.groups.add(Group.objects.get_or_create(name=group)[0])
    return user


@pytest.fixture
def people():
    return {
        "owner": account("anna", DIRECTORS_GROUP),
        "co": account("bartek", DIRECTORS_GROUP),
        "other": account("celina", DIRECTORS_GROUP),
        "staff": account("admin", is_staff=True),
        "ref": account("ref", REFEREES_GROUP),
    }


def play(table, user, seed, upto=None):
    order = [s.participant_id for s in table.seats.order_by("order")]
    game = rounds.start_table_game(table, order, user=user)
    t = table.round.tournament
    events = simulate(t.variant, t.board, len(order), seed=seed, rounds=t.game_rounds)["events"]
    for ev in events[:upto]:
        game = recording.submit(game.pk, ev, version=game.version).game
    return game


@pytest.fixture
def tournament(people):
    """Round 1 running: table 1 played and confirmed, table 2's game under way (refereed by ``ref``)."""
    names = [f"P{i}" for i in range(8)]
    t = make_tournament(
        names, name="Anna's Cup", rounds=2, game_rounds=2, table_size=4, seed=5, created_by=people["owner"]
    )
    t.directors.add(people["co"])
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    first, second = round_.tables.order_by("number")
    second.referees.set([people["ref"]])
    play(first, people["owner"], seed=1)
    results.confirm(first, people["owner"])
    play(second, people["ref"], seed=2, upto=6)
    second.game.referees.set([people["ref"]])
    return t


def stored(t: Tournament) -> dict:
    """Everything a director's change could touch, to compare before and after."""
    models = (Participant, Round, Table, Seat, TableResult, Game, GameEvent, AuditEntry)
    return {
        "rows": {m.__name__: sorted(m.objects.values_list("pk", flat=True)) for m in models},
        "tournament": Tournament.objects.filter(pk=t.pk).values().get(),
        "directors": sorted(t.directors.values_list("username", flat=True)),
        "results": list(TableResult.objects.values("pk", "status")),
        "games": list(Game.objects.values("pk", "status", "version")),
        "rounds": list(Round.objects.values("pk", "status", "seed")),
        "participants": list(Participant.objects.values("pk", "name", "withdrawn_after")),
        "referees": sorted(Table.referees.through.objects.values_list("table_id", "user_id")),
    }


def director_urls(t: Tournament) -> list[tuple[str, dict]]:
    """Every page of a tournament's director (and of its games' console), with a POST that would change
    something if it were let through."""
    pk = t.pk
    p = t.participants.order_by("pk").first()
    table1 = Table.objects.get(round__tournament=t, number=1)
    game = Game.objects.get(table__round__tournament=t, table__number=2)
    seat = table1.seats.order_by("order").first().participant
    places = {f"place_{s.participant_id}": str(i + 1) for i, s in enumerate(table1.seats.order_by("order"))}
    scores = {f"score_{s.participant_id}": "100" for s in table1.seats.all()}
    why = {"reason": "because"}
    return [
        (reverse("tournament_edit", args=[pk]), {"name": "Taken", "rounds": "3", "table_size": "4"}),
        (reverse("tournament_backup", args=[pk]), {}),
        (reverse("participant_add", args=[pk]), {"name": "Intruder"}),
        (
            reverse("participant_import", args=[pk]),
            {"file": SimpleUploadedFile("people.csv", b"name\nIntruder\n")},
        ),
        (reverse("participant_withdraw", args=[pk, p.pk]), why),
        (reverse("round_seat", args=[pk]), {}),
        (reverse("round", args=[pk, 1]), {}),
        (reverse("round_swap", args=[pk, 1]), {"a": seat.pk, "b": p.pk}),
        (reverse("round_start", args=[pk, 1]), {}),
        (reverse("round_move", args=[pk, 1]), {"participant": seat.pk, "to_table": "2", **why}),
        (reverse("round_reseat", args=[pk, 1]), why),
        (reverse("round_referees", args=[pk, 1]), {"table_1": [], "table_2": []}),
        (reverse("table", args=[pk, 1, 1]), {"order": "1"}),
        (reverse("table_confirm", args=[pk, 1, 2]), {}),
        (reverse("table_absent", args=[pk, 1, 2]), {"participant": seat.pk, **why}),
        (reverse("table_stop", args=[pk, 1, 2]), why),
        (reverse("table_hand_result", args=[pk, 1, 1]), {**places, **scores, **why}),
        (reverse("table_reopen", args=[pk, 1, 1]), why),
        (
            reverse("table_record_import", args=[pk, 1, 2]),
            {"record": SimpleUploadedFile("game.json", b'{"events": []}')},
        ),
        (reverse("tournament_sheets_pdf", args=[pk]), {}),
        (reverse("tournament_workbook", args=[pk]), {}),
        (reverse("participant_cards_pdf", args=[pk, p.pk]), {}),
        (reverse("round_sheets_pdf", args=[pk, 1]), {}),
        (reverse("table_sheet_pdf", args=[pk, 1, 2]), {}),
        (reverse("table_blank_pdf", args=[pk, 1, 2]), {}),
        (reverse("console", args=[game.pk]), {}),
        (reverse("console_state", args=[game.pk]), {}),
        (reverse("console_moves", args=[game.pk]), {}),
        (reverse("console_void", args=[game.pk, 1]), {"reason": "x", "version": str(game.version)}),
        (reverse("game_record", args=[game.pk]), {}),
        (reverse("game_cards", args=[game.pk]), {}),
        (reverse("game_cards_pdf", args=[game.pk]), {}),
    ]


def fresh(data: dict) -> dict:
    """The POST data again (an uploaded file is read once)."""
    out = {}
    for k, v in data.items():
        if isinstance(v, SimpleUploadedFile):
            v.seek(0)
            v = SimpleUploadedFile(v.name, v.read())
        out[k] = v
    return out


def test_another_director_may_neither_see_nor_change_a_tournament_he_does_not_direct(
    client, people, tournament
):
    client.force_login(people["other"])
    before = stored(tournament)
    for url, data in director_urls(tournament):
        got = client.get(url).status_code
        sent = client.post(url, fresh(data)).status_code
        assert got in (403, 405) and sent in (403, 405) and 403 in (got, sent), (url, got, sent)
    assert stored(tournament) == before
    # the tournament's page shows him what the public sees, without the director's controls
    page = client.get(reverse("tournament", args=[tournament.pk])).content.decode()
    assert reverse("standings", args=[tournament.pk]) in page
    for control in ("tournament_backup", "round_seat", "tournament_workbook", "directors_add"):
        assert reverse(control, args=[tournament.pk]) not in page
    # the public pages stay public
    for name in ("standings", "projector", "seating", "standings_pdf", "tournament_blank_card_pdf"):
        assert client.get(reverse(name, args=[tournament.pk])).status_code == 200


@pytest.mark.parametrize("who", ["owner", "co", "staff"])
def test_its_directors_and_staff_direct_it(client, people, tournament, who):
    user = people[who]
    assert may_direct(user, tournament)
    client.force_login(user)
    pk = tournament.pk
    page = client.get(reverse("tournament", args=[pk])).content.decode()
    assert reverse("tournament_backup", args=[pk]) in page and reverse("round", args=[pk, 1]) in page
    assert reverse("round_seat", args=[pk]) not in page  # round 1 is played: nothing to seat yet
    game = Game.objects.get(table__round__tournament=tournament, table__number=2)
    for url in (
        reverse("tournament_backup", args=[pk]),
        reverse("tournament_workbook", args=[pk]),
        reverse("tournament_sheets_pdf", args=[pk]),
        reverse("round", args=[pk, 1]),
        reverse("table", args=[pk, 1, 2]),
        reverse("table_hand_result", args=[pk, 1, 2]),
        reverse("console", args=[game.pk]),  # not his table's referee: the director all the same
    ):
        assert client.get(url).status_code == 200, url
    assert 'name="table_1"' in client.get(reverse("round", args=[pk, 1])).content.decode()  # referees form
    client.post(reverse("table_reopen", args=[pk, 1, 1]), {"reason": "a wrong rent"})
    assert results.current_result(Table.objects.get(round__tournament=tournament, number=1)) is None
    client.post(reverse("table_stop", args=[pk, 1, 2]), {"reason": "the schedule"})
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    client.post(reverse("participant_add", args=[pk]), {"name": "Late Comer"})
    assert tournament.participants.filter(name="Late Comer").exists()


def test_nobody_else_directs_it(people, tournament):
    assert not may_direct(people["other"], tournament)
    assert not may_direct(people["ref"], tournament)
    people["co"].groups.clear()  # a co-director whose account lost the director's role
    co = User.objects.get(pk=people["co"].pk)
    assert not may_direct(co, tournament)


def test_the_creator_directs_a_new_tournament(client, people):
    client.force_login(people["other"])
    response = client.post(
        reverse("tournament_new"),
        {
            "name": "Celina's Open",
            "date": "2026-12-05",
            "variant": "tournament-pl",
            "board": "classic-pl",
            "rounds": "3",
            "table_size": "4",
            "placement_points": "4, 2, 1, 0",
            "tie_breaks": "points, total_score",
            "seed": "1",
        },
    )
    t = Tournament.objects.get(name="Celina's Open")
    assert response.status_code == 302 and list(t.directors.all()) == [people["other"]]
    assert client.get(reverse("tournament_edit", args=[t.pk])).status_code == 200
    client.force_login(people["owner"])
    assert client.get(reverse("tournament_edit", args=[t.pk])).status_code == 403


def test_the_tournament_list_links_his_own_and_shows_the_others_public_links(client, people, tournament):
    mine = Tournament.objects.create(name="Celina's Open", created_by=people["other"])
    client.force_login(people["other"])
    page = client.get(reverse("tournaments")).content.decode()
    assert f'href="{reverse("tournament", args=[mine.pk])}"' in page
    assert f'href="{reverse("tournament", args=[tournament.pk])}"' not in page
    assert reverse("standings", args=[tournament.pk]) in page and "Anna&#x27;s Cup" in page
    client.force_login(people["staff"])
    page = client.get(reverse("tournaments")).content.decode()
    for t in (mine, tournament):
        assert f'href="{reverse("tournament", args=[t.pk])}"' in page


def test_a_referee_keeps_his_tables_in_a_tournament_he_does_not_direct(client, people, tournament):
    """A director who referees a table of another's tournament enters its moves, but does not direct it."""
    table = Table.objects.get(round__tournament=tournament, number=2)
    table.referees.add(people["other"])
    table.game.referees.add(people["other"])
    for who in ("ref", "other"):
        client.force_login(people[who])
        assert client.get(reverse("console", args=[table.game.pk])).status_code == 200
        page = client.get(reverse("table", args=[tournament.pk, 1, 2])).content.decode()
        assert "Stop the game now" not in page
        assert (
            client.post(reverse("table_stop", args=[tournament.pk, 1, 2]), {"reason": "x"}).status_code == 403
        )
        assert reverse("table_stop", args=[tournament.pk, 1, 2]) not in page
    table.game.refresh_from_db()
    assert table.game.status == Game.Status.RUNNING


def test_a_game_outside_a_tournament_is_its_creators_and_staffs(client, people, tournament):
    game = recording.create_game(
        user=people["owner"],
        referees=[people["owner"]],
        name="Practice",
        variant="tournament-pl",
        board="classic-pl",
        players=[{"name": "A"}, {"name": "B"}],
    )
    played = Game.objects.get(table__round__tournament=tournament, table__number=2)
    client.force_login(people["other"])
    assert client.get(reverse("console", args=[game.pk])).status_code == 403
    listed = client.get(reverse("games")).content.decode()
    assert reverse("console", args=[game.pk]) not in listed
    assert reverse("console", args=[played.pk]) not in listed
    for who in ("owner", "staff"):
        client.force_login(people[who])
        assert client.get(reverse("console", args=[game.pk])).status_code == 200
        listed = client.get(reverse("games")).content.decode()
        assert reverse("console", args=[game.pk]) in listed and reverse("console", args=[played.pk]) in listed


# -- co-directors ----------------------------------------------------------------------------------------


def messages_of(response) -> str:
    return response.content.decode()


def test_a_director_adds_and_removes_a_co_director(client, people, tournament):
    pk = tournament.pk
    client.force_login(people["owner"])
    page = client.get(reverse("tournament", args=[pk])).content.decode()
    assert reverse("directors_add", args=[pk]) in page
    assert '<option value="celina">celina</option>' in page  # an account of the directors group
    assert '<option value="ref">' not in page and '<option value="bartek">' not in page  # not, and already
    response = client.post(
        reverse("directors_add", args=[pk]),
        {"username": "celina", "reason": "runs the afternoon"},
        follow=True,
    )
    assert "celina directs this tournament too." in messages_of(response)
    assert may_direct(User.objects.get(username="celina"), tournament)
    entry = AuditEntry.objects.get(action="director_add")
    assert (entry.user, entry.details, entry.reason, entry.round_number) == (
        people["owner"],
        {"director": "celina"},
        "runs the afternoon",
        None,
    )
    assert "runs the afternoon" in messages_of(response)  # the director's log on the tournament's page

    client.force_login(people["other"])  # now he directs it
    assert client.get(reverse("tournament_backup", args=[pk])).status_code == 200
    response = client.post(
        reverse("directors_remove", args=[pk]), {"username": "bartek", "reason": "went home"}, follow=True
    )
    assert "bartek no longer directs this tournament." in messages_of(response)
    assert sorted(tournament.directors.values_list("username", flat=True)) == ["anna", "celina"]
    assert AuditEntry.objects.filter(action="director_del", details={"director": "bartek"}).count() == 1
    client.force_login(people["co"])
    assert client.get(reverse("tournament_backup", args=[pk])).status_code == 403


@pytest.mark.parametrize(
    "data, message",
    [
        ({"username": "ghost", "reason": "x"}, "There is no account ghost."),
        ({"username": "ref", "reason": "x"}, "ref is not a director&#x27;s account"),
        ({"username": "admin", "reason": "x"}, "admin is not a director&#x27;s account"),
        ({"username": "bartek", "reason": "x"}, "bartek already directs this tournament."),
        ({"username": "celina"}, "Say why."),
        ({"username": "celina", "reason": "   "}, "Say why."),
        ({"username": "celina", "reason": "x" * 500}, "at most 200 characters"),
        ({"reason": "x"}, "Choose an account."),
        ({"username": "c" * 5000, "reason": "x"}, "There is no account"),
        ({"username": "celina\u200b", "reason": "x"}, "There is no account"),
        ({"username": ["celina", "x"], "reason": "x"}, ""),
    ],
)
def test_adding_a_co_director_refuses_bad_input(client, people, tournament, data, message):
    client.force_login(people["owner"])
    before = stored(tournament)
    response = client.post(reverse("directors_add", args=[tournament.pk]), data, follow=True)
    assert response.status_code == 200 and message in messages_of(response)
    assert stored(tournament) == before


def test_an_inactive_account_is_not_added(client, people, tournament):
    people["other"].is_active = False
    people["other"].save()
    client.force_login(people["owner"])
    response = client.post(
        reverse("directors_add", args=[tournament.pk]), {"username": "celina", "reason": "x"}, follow=True
    )
    assert "The account celina is not active." in messages_of(response)
    assert not tournament.directors.filter(username="celina").exists()


@pytest.mark.parametrize(
    "data, message",
    [
        ({"username": "celina", "reason": "x"}, "celina does not direct this tournament."),
        ({"username": "ghost", "reason": "x"}, "ghost does not direct this tournament."),
        ({"username": "bartek"}, "Say why."),
        ({"reason": "x"}, "Choose an account."),
    ],
)
def test_removing_a_co_director_refuses_bad_input(client, people, tournament, data, message):
    client.force_login(people["owner"])
    before = stored(tournament)
    response = client.post(reverse("directors_remove", args=[tournament.pk]), data, follow=True)
    assert response.status_code == 200 and message in messages_of(response)
    assert stored(tournament) == before


def test_the_last_director_is_not_removed(client, people, tournament):
    client.force_login(people["owner"])
    url = reverse("directors_remove", args=[tournament.pk])
    client.post(url, {"username": "bartek", "reason": "x"})
    response = client.post(url, {"username": "anna", "reason": "x"}, follow=True)
    assert "anna is this tournament&#x27;s only director" in messages_of(response)
    assert list(tournament.directors.values_list("username", flat=True)) == ["anna"]


def test_another_director_cannot_make_himself_a_co_director(client, people, tournament):
    client.force_login(people["other"])
    before = stored(tournament)
    for name in ("directors_add", "directors_remove"):
        for username in ("celina", "anna"):
            url = reverse(name, args=[tournament.pk])
            assert client.post(url, {"username": username, "reason": "x"}).status_code == 403
    assert stored(tournament) == before


def test_a_page_asks_once_whether_its_user_directs_the_tournament(client, people, tournament):
    """The round page asks ``may_direct`` twice (to let him in, then to show the director's forms): the
    database is asked once, the answer kept on the request's user."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(people["co"])
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("round", args=[tournament.pk, 1])).status_code == 200
    asked = [q["sql"] for q in queries if "tournament_tournament_directors" in q["sql"]]
    assert len(asked) == 1, asked
