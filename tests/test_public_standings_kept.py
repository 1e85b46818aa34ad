"""The public standings page is kept rendered under the standings' version (``standings_changes``) and answers
a browser that has it with a 304: a thousand phones reload it when a round ends. What is kept must never be
older than what the standings are: through a tournament's day, changed by the app's own paths (a result
confirmed, confirmed again, reopened, entered by hand; a participant added, renamed, withdrawn, imported; the
tournament's settings; a backup restored), the page as served equals the page rendered afresh. Its rows,
written straight from their values, are the rows django-tables2 writes."""

import gzip
import re
from unittest import mock

import django_tables2 as tables
import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation

from tests.tournaments import make_tournament, play_table
from tournament.collation import name_key
from tournament.event import interventions, results, rounds
from tournament.files import backup
from tournament.files.participants_import import import_participants
from tournament.models import Participant, StandingsChange, Tournament, standings_changes
from tournament.public.views import StandingsTable
from tournament.reports import standings as reports

pytestmark = pytest.mark.django_db


def table_html(response) -> str:
    page = response.content.decode()
    return page[page.index("<h1>") : page.index("</table>")]


def served_is_fresh(client, tournament: Tournament) -> str:
    """The page as served (kept, if it is) equals the page rendered with nothing kept; returns it."""
    url = reverse("standings", args=[tournament.pk])
    served = table_html(client.get(url))
    cache.clear()
    fresh = table_html(client.get(url))
    assert served == fresh
    return served


def test_the_kept_page_is_never_older_than_the_standings(client):
    referee = User.objects.create_user("ref")
    second = User.objects.create_user("second")
    t = make_tournament(
        8, name="Cup", rounds=3, game_rounds=2, seed=5, table_size=4, second_confirmation=True
    )
    url = reverse("standings", args=[t.pk])
    pages = [served_is_fresh(client, t)]

    def step(change, shows=True):
        client.get(url)  # the page before the change is kept
        change()
        pages.append(served_is_fresh(client, t))
        assert (pages[-1] != pages[-2]) == shows, change.__name__

    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    one, two = round_.tables.order_by("number")
    play_table(one, referee)

    def confirmed():
        results.confirm(one, referee)
        results.confirm(one, second)  # the second confirmation: now it counts

    step(confirmed)
    step(lambda: results.reopen(one, referee, "a wrong deed"))
    step(confirmed)  # again, after the reopening
    places = {s.participant_id: (i + 1, 1000 - 100 * i) for i, s in enumerate(two.seats.order_by("order"))}

    def by_hand():
        interventions.enter_result(two, places, referee, "the tablet died")
        results.confirm(two, second)

    step(by_hand)

    def renamed():
        p = Participant.objects.get(tournament=t, name="P00")
        p.name = "Anna Maria"
        p.save()

    step(renamed)
    step(lambda: Participant.objects.create(tournament=t, name="Zenon", club="Klub"))
    step(lambda: interventions.withdraw(Participant.objects.get(name="Zenon"), referee, "ill"), shows=False)
    step(lambda: import_participants(t, "p.csv", "name,club\nŻaneta,Klub\n".encode()))
    step(lambda: Participant.objects.get(name="Żaneta").delete())

    def retitled():
        t.name = "Cup of Cups"
        t.save()

    step(retitled)
    data = backup.export_tournament(t)
    t.name = "Old"
    t.save()
    restored = backup.import_tournament(backup.read_backup(backup.dumps(data)))
    table = served_is_fresh(client, restored)
    assert table[table.index("<table") :] == pages[-1][pages[-1].index("<table") :]  # the same standings


def test_a_kept_page_reads_no_standings_and_a_browser_that_has_it_gets_a_304(client):
    cache.clear()
    t = make_tournament(["Anna", "Łukasz", "Zenon"], name="Cup")
    url = reverse("standings", args=[t.pk])
    first = client.get(url)
    etag = first["ETag"]
    assert first.status_code == 200 and etag and "private" in first["Cache-Control"]
    with mock.patch.object(reports, "standings_rows", side_effect=AssertionError("read")):
        again = client.get(url)  # kept: not read again
        assert table_html(again) == table_html(first) and again["ETag"] == etag
        unchanged = client.get(url, HTTP_IF_NONE_MATCH=etag)
        assert unchanged.status_code == 304 and unchanged["ETag"] == etag and not unchanged.content
    assert client.get(url, {"sort": "-name"}, HTTP_IF_NONE_MATCH=etag).status_code == 200  # another page
    assert client.get(url, HTTP_IF_NONE_MATCH=etag, HTTP_ACCEPT_LANGUAGE="pl").status_code == 200
    client.cookies["sessionid"] = "another-browser"  # its top bar may say another name
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200
    del client.cookies["sessionid"]
    Participant.objects.create(tournament=t, name="Basia")
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and "Basia" in changed.content.decode() and changed["ETag"] != etag


@pytest.mark.postgres
def test_the_version_counts_committed_changes_once_each_and_forgets_a_deleted_tournament():
    t = make_tournament(2, name="Cup")
    before = standings_changes.version(t)
    Participant.objects.create(tournament=t, name="Basia")
    after = standings_changes.version(t)
    assert after != before and after.startswith(f"{t.pk}.")
    t.delete()  # its participants go with it: no change row names a tournament gone
    assert not StandingsChange.objects.filter(tournament=t.pk).exists()
    other = make_tournament(2, name="Other")
    Tournament.objects.filter(pk=other.pk).delete()  # a query's delete too
    assert not StandingsChange.objects.exists()


def squeezed(html: str) -> str:
    return re.sub(r">\s+<", "><", html).strip()


STANDINGS = [
    {
        "rank": 1,
        "name": "Żaneta <b>&</b>",
        "club": "",
        "points": 8,
        "total_score": 5724,
        "best_score": None,
        "games": 3,
        "withdrawn": False,
    },
    {
        "rank": 2,
        "name": 'Łukasz "Ł"',
        "club": "Klub 'A'",
        "points": 0,
        "total_score": 0,
        "best_score": 0,
        "games": 0,
        "withdrawn": True,
    },
    {
        "rank": 2,
        "name": "Anna",
        "club": "Klub B",
        "points": 0,
        "total_score": -15,
        "best_score": 2228,
        "games": 1,
        "withdrawn": False,
    },
    {
        "rank": 4,
        "name": "Lucyna",
        "club": "Ósemka",
        "points": 12345,
        "total_score": 1000000,
        "best_score": 99,
        "games": 10,
        "withdrawn": False,
    },
]


@pytest.mark.parametrize("language", ["en", "pl"])
@pytest.mark.parametrize(
    "sort", ["", "rank", "-rank", "name", "-name", "club", "-points", "total_score", "-best_score", "games"]
)
def test_the_rows_written_straight_are_the_rows_django_tables2_writes(rf, language, sort):
    request = rf.get("/tournaments/1/standings/", {"sort": sort} if sort else {})
    with translation.override(language):
        for row in STANDINGS:
            row["name_key"] = name_key(row["name"])
        ours = StandingsTable([dict(r) for r in STANDINGS])
        theirs = StandingsTable([dict(r) for r in STANDINGS], template_name="django_tables2/table.html")
        for table in (ours, theirs):
            tables.RequestConfig(request, paginate=False).configure(table)
        assert squeezed(ours.as_html(request)) == squeezed(theirs.as_html(request))


def test_a_phone_that_takes_gzip_gets_the_page_compressed_and_its_304_all_the_same(client):
    t = make_tournament([f"Gracz {i:03}" for i in range(200)], name="Cup")
    url = reverse("standings", args=[t.pk])
    plain = client.get(url)
    packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    assert len(packed.content) * 5 < len(plain.content)
    assert table_html(plain) in gzip.decompress(packed.content).decode()
    again = client.get(url, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=packed["ETag"])  # a weak ETag
    assert again.status_code == 304
