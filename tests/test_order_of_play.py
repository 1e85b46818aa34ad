"""The order of play at a table (tournament.director.order_of_play.OrderOfPlayForm on the table's page):
places given twice are refused with the places kept as chosen (not reset), a garbled place is told, a good
order starts the game in that order."""

import re

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse

from tournament.director.order_of_play import OrderOfPlayForm
from tournament.event import rounds
from tournament.models import Participant, Tournament
from tournament.people.access import REFEREES_GROUP

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(client):
    referee = User.objects.create_user("ref", password="pw")
    referee.groups.add(Group.objects.get_or_create(name=REFEREES_GROUP)[0])
    t = Tournament.objects.create(name="Cup", rounds=1, seed=5, table_size=4)
    for name in ("Anna", "Bartek", "Celina", "Darek"):
        Participant.objects.create(tournament=t, name=name)
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    table = round_.tables.get()
    table.referees.add(referee)
    client.force_login(referee)
    return table


def seated(table):
    return [s.participant for s in table.seats.order_by("order")]


def url(table):
    return reverse("table", args=[table.round.tournament.pk, table.round.number, table.number])


def chosen(html, pk):
    return re.search(rf'name="place_{pk}"[^>]*>.*?<option value="(\d)" selected', html, re.S).group(1)


def test_places_given_twice_are_refused_and_kept_as_chosen(client, table):
    people = seated(table)
    places = {f"place_{p.pk}": str(n) for p, n in zip(people, (2, 1, 1, 4), strict=True)}
    response = client.post(url(table), {"order": "1", **places})
    html = response.content.decode()
    assert response.status_code == 200 and "Give each player one place, 1 to 4." in html
    assert [chosen(html, p.pk) for p in people] == ["2", "1", "1", "4"]  # not reset to the seat order
    table.refresh_from_db()
    assert not hasattr(table, "game") or table.game is None


def test_a_garbled_place_is_told_and_changes_nothing(client, table):
    people = seated(table)
    response = client.post(url(table), {"order": "1", f"place_{people[0].pk}": "x"})
    assert response.status_code == 200 and "Select a valid choice" in response.content.decode()
    table.refresh_from_db()
    assert not hasattr(table, "game") or table.game is None


def test_the_order_tapped_starts_the_game_in_that_order(client, table):
    people = seated(table)
    order = [people[2], people[0], people[3], people[1]]
    places = {f"place_{p.pk}": str(order.index(p) + 1) for p in people}
    response = client.post(url(table), {"order": "1", **places})
    table.refresh_from_db()
    assert response.status_code == 302 and response["Location"] == reverse("console", args=[table.game.pk])
    assert [p.participant for p in table.game.players.order_by("seat")] == order


def test_the_form_offers_the_seat_order_at_first():
    form = OrderOfPlayForm([(7, "Anna", ""), (3, "Bartek", "")])
    assert [(f.html_name, f.initial) for f, _role in form.entries()] == [("place_7", 1), ("place_3", 2)]
    bound = OrderOfPlayForm([(7, "Anna", ""), (3, "Bartek", "")], {"place_7": "2", "place_3": "1"})
    assert bound.is_valid() and bound.order() == [3, 7]


def test_places_for_players_no_longer_at_the_table_say_the_round_was_seated_again(client, table):
    """The round seated again while the referee's page was open: his places name other players. He is told
    so (not that each place is missing), and nothing starts."""
    people = seated(table)
    places = {f"place_{p.pk + 1000}": str(i + 1) for i, p in enumerate(people)}
    response = client.post(url(table), {"order": "1", **places})
    page = response.content.decode()
    assert response.status_code == 200 and "seated again meanwhile" in page
    assert "This field is required" not in page
    table.refresh_from_db()
    assert not hasattr(table, "game") or table.game is None
