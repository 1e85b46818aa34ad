"""The admin shows, and does not change, what has its own audited path: a game's variant, board and options
(its log replays by them), a player's id in a game, a round's status, anything of a started tournament."""

import pytest
from django.contrib.auth.models import User

from tournament.event import rounds
from tournament.models import Game, GamePlayer, Participant, Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin(client):
    client.force_login(User.objects.create_superuser("root", password="pw"))
    return client


def page(admin, url):
    response = admin.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_a_games_rules_and_a_players_id_are_shown_not_edited(admin):
    game = Game.objects.create(variant="classic", board="classic-us", options={"max_rounds": 8})
    player = GamePlayer.objects.create(game=game, seat=0, pid="A", name="Anna")
    html = page(admin, f"/admin/tournament/game/{game.pk}/change/")
    for field in ("variant", "board", "options", "players-0-pid"):
        assert f'name="{field}"' not in html
    assert "classic-us" in html and 'name="players-0-name"' in html  # the rest stays editable
    html = page(admin, f"/admin/tournament/gameplayer/{player.pk}/change/")
    assert 'name="pid"' not in html and 'name="name"' in html
    admin.post(
        f"/admin/tournament/gameplayer/{player.pk}/change/",
        {"game": game.pk, "seat": 0, "pid": "Z", "name": "Anna N.", "role": ""},
    )
    player.refresh_from_db()
    assert (player.pid, player.name) == ("A", "Anna N.")  # the id posted is ignored


def test_a_rounds_status_is_shown_not_edited(admin):
    t = Tournament.objects.create(name="Cup")
    round_ = Round.objects.create(tournament=t, number=1)
    html = page(admin, f"/admin/tournament/round/{round_.pk}/change/")
    assert 'name="status"' not in html and 'name="number"' in html


def test_a_started_tournament_is_shown_not_edited(admin):
    t = Tournament.objects.create(name="Cup", seed=5)
    anna = Participant.objects.create(tournament=t, name="Anna")
    for i in range(7):
        Participant.objects.create(tournament=t, name=f"P{i}")
    url = f"/admin/tournament/tournament/{t.pk}/change/"
    assert 'name="name"' in page(admin, url) and 'name="participants-0-name"' in page(admin, url)
    rounds.start_round(rounds.seat_next_round(t))
    assert t.locked
    html = page(admin, url)
    assert 'name="name"' not in html and 'name="participants-0-name"' not in html and "Cup" in html
    admin.post(
        url,
        {
            "name": "Renamed",
            "participants-TOTAL_FORMS": 0,
            "participants-INITIAL_FORMS": 0,
            "participants-MIN_NUM_FORMS": 0,
            "participants-MAX_NUM_FORMS": 1000,
        },
    )
    t.refresh_from_db()
    assert t.name == "Cup"
    html = page(admin, f"/admin/tournament/participant/{anna.pk}/change/")
    assert 'name="name"' not in html and "Anna" in html
    assert admin.post(f"/admin/tournament/participant/{anna.pk}/delete/", {"post": "yes"}).status_code == 403
    assert admin.post(f"/admin/tournament/tournament/{t.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Participant.objects.filter(pk=anna.pk).exists() and Tournament.objects.filter(pk=t.pk).exists()
