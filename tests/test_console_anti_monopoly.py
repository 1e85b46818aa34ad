"""The referee's console in an Anti-Monopoly game (Django's test client): roles shown, the income tax choice,
the Foundation's die, a utility's rent as a fresh throw, and the two-hour game's final steps."""

import pytest
from django.urls import reverse

from tests.accounts import signed_in_referee  # noqa: F401 (the fixture referee, signed in)
from tournament.games import recording

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def start(referee, ending="game_a", players=(("Celina", "competitor"), ("Marek", "monopolist"))):
    return recording.create_game(
        variant="anti-monopoly",
        board="anti-monopoly-us",
        players=[{"name": n, "role": r} for n, r in players],
        options={"ending": ending},
        referees=[referee],
    )


def act(client, game, **fields):
    game.refresh_from_db()
    response = client.post(reverse("console_act", args=[game.pk]), {"version": game.version, **fields}, **HX)
    game.refresh_from_db()
    assert response.status_code == 200
    return response.content.decode()


def state(game):
    game.refresh_from_db()
    return recording.current_state(game)


def test_roles_shown_and_income_tax_choice(client, referee):
    game = start(referee)
    page = client.get(reverse("console", args=[game.pk])).content.decode()
    assert "competitor" in page and "monopolist" in page
    page = act(client, game, action="roll", player="A", d1=1, d2=3)  # 4: Income Tax
    assert "Income tax: Celina chooses" in page
    assert "Pay 200" in page and "Pay 150 (percentage)" in page  # 10 % of 1,500
    act(client, game, action="income_tax", player="A", choice="percent")
    assert state(game).player("A").cash == 1350


def test_foundation_die_for_a_competitor(client, referee):
    game = start(referee)
    s = state(game)
    s.player("A").position = 14
    game.state = recording.dump_state(s)
    game.save()
    page = act(client, game, action="roll", player="A", d1=2, d2=4)  # 20: the Foundation
    assert "Anti-Monopoly Foundation: Celina rolls one die" in page
    act(client, game, action="foundation", player="A", die=2)
    assert state(game).player("A").cash == 1550
    page = act(client, game, action="foundation", player="A", die=9)
    assert "A die shows 1 to 6." in page


def test_utility_rent_is_a_fresh_throw(client, referee):
    game = start(referee)
    act(client, game, action="roll", player="A", d1=6, d2=6)  # 12: U.S. Electric Company
    act(client, game, action="buy", player="A")
    act(client, game, action="roll", player="A", d1=1, d2=2)  # the extra roll: 15, U.S. Bus Company
    act(client, game, action="decline", player="A")
    page = act(client, game, action="roll", player="B", d1=6, d2=6)  # B to 12
    assert "Rent 4 × the dice: Marek → Celina" in page
    page = act(client, game, action="rent", player="B", square=12)
    assert "record the dice" in page  # no dice: refused, nothing changed
    act(client, game, action="rent", player="B", square=12, d1=3, d2=2)
    assert state(game).player("A").cash == 1500 - 150 + 20  # 4 × (3 + 2)


def test_two_hour_game_final_steps(client, referee):
    game = start(referee, ending="two_hour")
    act(client, game, action="roll", player="A", d1=1, d2=2)  # 3 French Quarter
    act(client, game, action="buy", player="A")
    act(client, game, action="time_up")
    page = act(client, game, action="roll", player="B", d1=2, d2=3)  # 5 U.S. Railroad: the round ends
    act(client, game, action="decline", player="B")
    page = act(client, game, action="roll", player="A", d1=1, d2=2)
    assert "Time is up: dealings with the bank only" in page and "deal only with the bank" in page
    assert "Each keeps his share of cash" in page
    page = act(client, game, action="final_keep")
    assert state(game).player("A").cash == (1500 - 60) * 10 // 100  # 144
    assert state(game).player("B").cash == 1500 * 20 // 100  # 300
    assert "The treasurer&#x27;s tour" in page or "The treasurer's tour" in page
    page = act(client, game, action="final_tour")
    s = state(game)
    assert s.finished and s.end_reason == "time"
    assert s.player("A").cash == 144 + 6  # French Quarter's single rent
    assert "Game over" in page and "cash" in page


def test_start_an_anti_monopoly_game_with_roles(client, referee):
    form = {"variant": "anti-monopoly", "board": "anti-monopoly-us", "max_rounds": "8"}
    page = client.post(reverse("game_new"), {**form, "players": "Anna\nBartek"}).content.decode()
    assert "Give each player his role" in page
    page = client.post(reverse("game_new"), {**form, "players": "Anna; M\nBartek; M\nCelina; m"})
    assert "the numbers must be equal or differ by one" in page.content.decode()
    page = client.post(reverse("game_new"), {**form, "players": "Anna; boss\nBartek; C"}).content.decode()
    assert "is not a role" in page
    response = client.post(
        reverse("game_new"),
        {**form, "ending": "two_hour", "players": "Anna; przedsiębiorca\nBartek; Monopolist"},
    )
    game = recording.Game.objects.get()
    assert response.status_code == 302
    assert game.options == {"max_rounds": 8, "ending": "two_hour"}
    assert [(p.name, p.role) for p in game.players.order_by("seat")] == [
        ("Anna", "competitor"),
        ("Bartek", "monopolist"),
    ]
    page = client.post(
        reverse("game_new"), {"variant": "classic", "board": "classic-us", "players": "A; C\nB; M"}
    ).content.decode()
    assert "Roles are for Anti-Monopoly only" in page
