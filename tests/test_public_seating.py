"""Who sits where, for everyone: the public seating page of a round, and names in Polish order."""

import pytest
from django.urls import reverse

from tests.tournaments import make_tournament
from tournament.collation import name_key
from tournament.event import rounds

pytestmark = pytest.mark.django_db


def test_names_sort_in_polish_order():
    names = ["Żaneta", "Zenon", "Łukasz", "Lucyna", "Marek", "anna", "Ćwik", "Cezary", "Anna Maria", "Ania"]
    assert sorted(names, key=name_key) == [
        "Ania",
        "anna",
        "Anna Maria",
        "Cezary",
        "Ćwik",
        "Lucyna",
        "Łukasz",
        "Marek",
        "Zenon",
        "Żaneta",
    ]


@pytest.fixture
def tournament():
    names = ["Żaneta", "Zenon", "Łukasz", "Lucyna", "Marek", "Anna", "Ćwik", "Cezary"]
    return make_tournament(names, "Klub", name="Puchar", rounds=2, table_size=4, seed=7)


def test_the_seating_of_the_latest_round_for_everyone(client, tournament):
    page = client.get(reverse("seating", args=[tournament.pk])).content.decode()
    assert "No round has been seated yet." in page
    round_ = rounds.seat_next_round(tournament)
    page = client.get(reverse("seating", args=[tournament.pk])).content.decode()  # no login
    index = page.split('class="who-sits"')[1].split("</ol>")[0]
    order = ["Anna", "Cezary", "Ćwik", "Lucyna", "Łukasz", "Marek", "Zenon", "Żaneta"]
    positions = [index.index(f'<span class="name">{n}</span>') for n in order]
    assert positions == sorted(positions)  # Ł between L and M, Ż last
    for table in round_.tables.all():
        for seat in table.seats.all():
            entry = index.split(f'<span class="name">{seat.participant.name}</span>')[1].split("</li>")[0]
            assert f"table {table.number}" in entry
    assert client.get(reverse("round_seating", args=[tournament.pk, 1])).status_code == 200
    assert client.get(reverse("round_seating", args=[tournament.pk, 9])).status_code == 404
    projector = client.get(reverse("seating", args=[tournament.pk]), {"refresh": "3"}).content.decode()
    assert 'http-equiv="refresh" content="10"' in projector  # bounded
    bad = client.get(reverse("seating", args=[tournament.pk]), {"refresh": "x"})
    assert bad.status_code == 200 and 'http-equiv="refresh"' not in bad.content.decode()
