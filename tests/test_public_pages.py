"""The public standings and projector through Django's test client: the projector pages through long
standings, participants sharing a rank are listed in Polish order, the phone's columns are marked."""

import re
from unittest import mock

import pytest
from django.conf import settings
from django.core.cache import cache
from django.urls import reverse

from tournament.models import Participant, Tournament
from tournament.public.views import REFRESH_SECONDS, ROWS_PER_COLUMN, ROWS_PER_PAGE, StandingsTable

pytestmark = pytest.mark.django_db

NAMES = ["Żaneta", "Zenon", "Łukasz", "Lucyna", "Marek", "Anna"]


def make_tournament(n: int) -> Tournament:
    t = Tournament.objects.create(name="Puchar", rounds=2, seed=7)
    for i in range(n):
        Participant.objects.create(tournament=t, name=NAMES[i] if i < len(NAMES) else f"Gracz {i:02}")
    return t


def names_on(page: str) -> list[str]:
    return re.findall(r'<td class="name">([^<]+?)(?: <small>|</td>)', page)


def test_the_projector_pages_through_long_standings(client):
    t = make_tournament(70)  # more than a page of ROWS_PER_PAGE: three pages of 24, 24 and 22
    url = reverse("projector", args=[t.pk])
    first = client.get(url).content.decode()
    assert len(names_on(first)) == 24 and "page 1 of 3" in first
    seconds = settings.PROJECTOR_PAGE_SECONDS
    assert f'content="{seconds}; url={url}?page=2"' in first  # without JavaScript
    assert f'data-refresh="{seconds}" data-next="{url}?page=2"' in first  # projector.js
    third = client.get(url, {"page": "3"}).content.decode()
    assert len(names_on(third)) == 22 and "page 3 of 3" in third
    assert f'url={url}?page=1"' in third  # from the last page back to the first
    shown = names_on(first) + names_on(client.get(url, {"page": "2"}).content.decode()) + names_on(third)
    assert sorted(shown) == sorted(t.participants.values_list("name", flat=True))
    assert "page 3 of 3" in client.get(url, {"page": "99"}).content.decode()  # bounded
    assert "page 1 of 3" in client.get(url, {"page": "x"}).content.decode()
    ten = client.get(url, {"rows": "10", "page": "7"}).content.decode()
    assert "page 7 of 7" in ten and "?page=1&amp;rows=10" in ten
    assert "page 1 of 3" in client.get(url, {"rows": "500"}).content.decode()  # at most a page's rows


@pytest.mark.parametrize(
    ("count", "columns"), [(ROWS_PER_COLUMN, [16]), (17, [9, 8]), (ROWS_PER_PAGE, [16, 16])]
)
def test_standings_that_fit_on_one_screen_are_not_paged(client, count, columns):
    """Up to ROWS_PER_COLUMN rows in one column; up to ROWS_PER_PAGE in two columns shared evenly."""
    t = make_tournament(count)
    page = client.get(reverse("projector", args=[t.pk])).content.decode()
    assert f'content="{REFRESH_SECONDS}"' in page and "page 1 of" not in page
    assert len(names_on(page)) == count
    tables = page.split("<table>")[1:]
    assert [len(names_on(table)) for table in tables] == columns
    assert f'class="columns columns-{len(columns)}"' in page


def test_participants_sharing_a_rank_in_polish_order(client):
    t = make_tournament(len(NAMES))  # no game yet: all share the first place
    expected = ["Anna", "Lucyna", "Łukasz", "Marek", "Zenon", "Żaneta"]
    assert names_on(client.get(reverse("projector", args=[t.pk])).content.decode()) == expected
    standings = client.get(reverse("standings", args=[t.pk])).content.decode()
    positions = [standings.index(f"<td >{n}</td>") for n in expected]
    assert positions == sorted(positions)
    by_name = client.get(reverse("standings", args=[t.pk]), {"sort": "-name"}).content.decode()
    positions = [by_name.index(f"<td >{n}</td>") for n in expected]
    assert positions == sorted(positions, reverse=True)  # sorting by name: Polish order too


def test_the_standings_mark_the_columns_a_phone_leaves_out(client):
    t = make_tournament(3)
    page = client.get(reverse("standings", args=[t.pk])).content.decode()
    assert page.count('orderable wide-only">') == 3 and page.count('<td class="wide-only">') == 9
    assert '<div class="scroll">' in page


@pytest.mark.parametrize(("language", "title"), [("en", "Monopoly tournament"), ("pl", "Turniej Monopoly")])
def test_the_home_page_has_one_main_heading(client, language, title):
    page = client.get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert re.findall(r"<h1>([^<]*)</h1>", page) == [title]


def table_rendered(response) -> bool:
    return "django_tables2/table.html" in [t.name for t in response.templates]


def table_of(response) -> str:
    page = response.content.decode()
    return page[page.index('<div class="scroll">') : page.index("</table>")]


def test_the_standings_table_is_rendered_once_for_the_same_figures(client):
    """A thousand phones reload the standings when a round ends: the table is rendered for the first and kept;
    a change of what it shows (a name, the sorting, the language) renders it anew, never an old one."""
    cache.clear()  # a table kept by an earlier test of the same figures would be served
    t = make_tournament(len(NAMES))
    url = reverse("standings", args=[t.pk])
    first = client.get(url)
    assert table_rendered(first)
    built = []
    with mock.patch.object(StandingsTable, "__init__", side_effect=built.append, autospec=True):
        again = client.get(url)
    assert not table_rendered(again) and table_of(again) == table_of(first)
    assert built == []  # nor the table made (sorting its rows costs a thousand phones' reloads too)
    assert table_rendered(client.get(url, {"sort": "-name"}))
    assert table_rendered(client.get(url, HTTP_ACCEPT_LANGUAGE="pl"))
    anna = Participant.objects.get(tournament=t, name="Anna")
    anna.name = "Anna Maria"
    anna.save()  # as the director's form saves it
    renamed = client.get(url)
    assert table_rendered(renamed) and "<td >Anna Maria</td>" in renamed.content.decode()
    marek = Participant.objects.get(tournament=t, name="Marek")
    marek.withdrawn_after = 1
    marek.save()  # no column shows it: rendered anew all the same
    assert table_rendered(client.get(url))
