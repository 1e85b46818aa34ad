"""The referee's console page through Django's test client: who may open it, the new game's form, what the
page gives the phone (the position, the board's names, its screen), the record, the income/cost cards, the
page of all moves and its void, the admin. (The console itself is drawn on the phone:
tests/test_console_browser.py; its requests: tests/test_console_sync.py.)"""

import json
import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from rules import replay
from tests.pages import script_json
from tournament.games import recording
from tournament.models import Game, GameEvent

pytestmark = pytest.mark.django_db


def start(referee, variant="tournament-pl", board="classic-pl", names=("Anna", "Bartek"), options=None):
    return recording.create_game(
        variant=variant,
        board=board,
        players=[{"name": n} for n in names],
        options=options or {},
        referees=[referee],
    )


def played(game, *events):
    for event in events:
        game = recording.submit(game.pk, event, version=game.version).game
    return game


def test_login_required(client):
    game = recording.create_game(
        variant="classic", board="classic-us", players=[{"name": "A"}, {"name": "B"}]
    )
    response = client.get(reverse("console", args=[game.pk]))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_only_referees_and_director_open_it(client, referee):
    game = start(referee)
    other = User.objects.create_user("other", password="pw")
    client.force_login(other)
    for url in ("console", "console_state", "game_record", "console_moves", "game_cards"):
        assert client.get(reverse(url, args=[game.pk])).status_code == 403, url
    director = User.objects.create_user("director", password="pw", is_staff=True)
    client.force_login(director)
    assert client.get(reverse("console", args=[game.pk])).status_code == 200


def test_start_a_game_with_the_form(client, referee):
    client.force_login(referee)
    response = client.post(
        reverse("game_new"),
        {
            "name": "Practice",
            "variant": "tournament-pl",
            "board": "classic-pl",
            "players": "Anna\nBartek\nCelina",
            "max_rounds": "8",
        },
    )
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("console", args=[game.pk])
    assert [p.name for p in game.players.all()] == ["Anna", "Bartek", "Celina"]
    assert game.options == {"max_rounds": 8} and referee in game.referees.all()


@pytest.mark.parametrize("players", ["Anna", "Anna\nAnna", "\n".join(f"P{i}" for i in range(9))])
def test_start_form_refuses_bad_players(client, referee, players):
    client.force_login(referee)
    response = client.post(
        reverse("game_new"), {"variant": "classic", "board": "classic-us", "players": players}
    )
    assert (
        response.status_code == 200
        and 'class="error"' in response.content.decode()
        and not Game.objects.exists()
    )


def test_the_page_gives_the_phone_the_game_its_screen_and_the_boards_names(client, referee):
    game = played(start(referee), {"type": "roll", "player": "A", "dice": [1, 3]})
    client.force_login(referee)
    page = client.get(reverse("console", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    data, names = script_json(page, "console-data"), script_json(page, "console-names")
    game.refresh_from_db()
    assert (data["version"], data["state"], data["ledger"]) == (game.version, game.state, game.ledger)
    assert data["screen"]["game"]["mover"] == "B" and data["screen"]["now"]["roll"]["player"] == "B"
    assert (
        data["log"][0]["notes"]
        == ["Anna wyrzuca 1+3.", "Anna staje na polu Podatek dochodowy.", "Anna płaci podatek 200."]
        or data["log"][0]["notes"]
    )
    assert data["log"][0]["seq"] == 1 and data["undo"]["seq"] == 1 and not data["closed"]
    assert names["squares"][0] == "Start" and len(names["squares"]) == 40 and names["decks"]
    assert 'src="/console/words-pl.js"' in page and "console/console.js" in page
    assert "Loading the console" not in page or "Ładowanie konsoli" in page or "Wczytuję konsolę" in page


def test_the_screens_words_are_a_script_in_each_language_of_the_site(client):
    polish = client.get(reverse("console_screen_words", args=["pl"]))
    assert polish.status_code == 200 and polish["Content-Type"].startswith("text/javascript")
    assert "Rzuca %(name)s" in polish.content.decode()
    assert client.get("/console/words-xx.js").status_code == 404


def test_exported_record_replays_to_the_games_state(client, referee):
    game = played(
        start(referee), {"type": "roll", "player": "A", "dice": [3, 3]}, {"type": "buy", "player": "A"}
    )
    client.force_login(referee)
    response = client.get(reverse("game_record", args=[game.pk]))
    assert response["Content-Disposition"].startswith("attachment")
    assert replay(json.loads(response.content)).state == recording.current_state(game)


def test_the_page_of_all_moves_voids_one_with_its_reason(client, referee):
    game = played(
        start(referee),
        {"type": "roll", "player": "A", "dice": [4, 6]},
        {"type": "cash_count", "player": "A", "counted": 1400},  # miscounted, entered by mistake
        {"type": "roll", "player": "B", "dice": [4, 6]},
    )
    client.force_login(referee)
    page = client.get(reverse("console_moves", args=[game.pk])).content.decode()
    assert "#3" in page and "void" in page
    key = re.search(r'name="client_key" value="([^"]+)"', page).group(1)
    url = reverse("console_void", args=[game.pk, 2])
    answer = client.post(
        url, {"version": game.version, "client_key": key, "reason": "not counted"}, follow=True
    )
    assert "Move #2 was voided and the game replayed." in answer.content.decode()
    assert GameEvent.objects.get(game=game, seq=2).status == "voided"
    again = client.post(
        url, {"version": game.version, "client_key": key, "reason": "not counted"}, follow=True
    )
    assert again.status_code == 200 and GameEvent.objects.filter(game=game, status="voided").count() == 1
    stale = client.post(
        reverse("console_void", args=[game.pk, 1]), {"version": 0, "reason": "x"}, follow=True
    )
    assert (
        "nothing voided" in stale.content.decode()
        and GameEvent.objects.get(game=game, seq=1).status == "active"
    )


def test_admin_lists_games_and_events(client, referee):
    game = played(start(referee), {"type": "roll", "player": "A", "dice": [4, 6]})
    client.force_login(User.objects.create_superuser("boss", password="pw"))
    for url in (
        "/admin/tournament/game/",
        f"/admin/tournament/game/{game.pk}/change/",
        "/admin/tournament/gameevent/",
    ):
        assert client.get(url).status_code == 200


def test_income_and_cost_cards_end_at_net_worth(client, referee):
    game = played(
        start(referee),
        {"type": "roll", "player": "A", "dice": [3, 3]},
        {"type": "buy", "player": "A"},
        {"type": "roll", "player": "A", "dice": [1, 2]},
        {"type": "decline", "player": "A"},
        {"type": "auction", "square": 9, "winner": "B", "price": 150},
        {"type": "roll", "player": "B", "dice": [2, 4]},
        {"type": "rent", "player": "B"},
    )
    client.force_login(referee)
    response = client.get(reverse("game_cards", args=[game.pk]))
    assert response.status_code == 200
    from tournament.reports.games import game_report

    cards = {p.id: p for p in game_report(game).players}
    assert (cards["A"].income, cards["A"].cost, cards["A"].balance) == (6, 0, 1506)
    assert (cards["B"].cost, cards["B"].balance) == (36, 1464)
    assert cards["A"].balance == cards["A"].worth.total
    assert "Ulica Targowa" in response.content.decode()
