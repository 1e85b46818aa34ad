"""After a round everyone reloads: the projector and the seating page, like the standings
(tests/test_public_standings_kept.py), answer a browser that has the page with a 304 and keep the page
rendered until what it shows changes. Each change the day brings gives another ETag and the new page, served
as rendered afresh (never an older one kept); another language, page or round another ETag; and the 304 asks
the database a few short questions, whatever the size of the tournament."""

import gzip
import os
from unittest import mock

import pytest
from django.core.cache import cache
from django.urls import reverse
from playwright.sync_api import expect

from tests.tournaments import make_tournament, play_table, start_game
from tournament.event import interventions, results, rounds
from tournament.models import Participant, Round, Seat, Tournament
from tournament.public import views
from tournament.reports import standings as reports

pytestmark = pytest.mark.django_db

#: The queries of a 304: the tournament and the standings' version (the projector); the tournament, its
#: rounds and the round's seats (the seating).
PROJECTOR_304_QUERIES = 2
SEATING_304_QUERIES = 3


def content(response) -> str:
    page = response.content.decode()
    return page[page.index("<h1>") : page.rindex("</main>")]


def changed_and_fresh(client, url: str, before, **headers) -> str:
    """The page after a change, asked with the ETag of ``before``: not a 304, another ETag, and what is served
    (kept, if it is) is what is rendered with nothing kept; returns it."""
    after = client.get(url, HTTP_IF_NONE_MATCH=before["ETag"], **headers)
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    cache.clear()
    fresh = client.get(url, **headers)
    assert content(after) == content(fresh) and after["ETag"] == fresh["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=after["ETag"], **headers).status_code == 304
    return content(after)


# The projector


def test_the_projector_answers_304_until_a_result_is_confirmed(
    client, referee, django_assert_max_num_queries
):
    cache.clear()
    t = make_tournament(8, "Klub", name="Cup", rounds=3, game_rounds=1, seed=5, table_size=4)
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    one = round_.tables.order_by("number").first()
    play_table(one, referee)
    url = reverse("projector", args=[t.pk])
    first = client.get(url)
    etag = first["ETag"]
    assert first.status_code == 200 and etag and first["Cache-Control"] == "private, no-cache"
    with mock.patch.object(reports, "standings_rows", side_effect=AssertionError("read")):
        with django_assert_max_num_queries(PROJECTOR_304_QUERIES):
            unchanged = client.get(url, HTTP_IF_NONE_MATCH=etag)
        assert unchanged.status_code == 304 and unchanged["ETag"] == etag and not unchanged.content
        kept = client.get(url)  # a browser without it: the page kept, the standings not read
        assert kept.status_code == 200 and content(kept) == content(first) and kept["ETag"] == etag
    results.confirm(one, referee)
    after = changed_and_fresh(client, url, first)
    assert after != content(first)


def test_another_page_rows_or_language_of_the_projector_is_another_etag(client):
    cache.clear()
    t = make_tournament(70, name="Cup")  # three pages
    url = reverse("projector", args=[t.pk])
    first = client.get(url)
    etags = {first["ETag"]}
    for params, headers in [
        ({"page": "2"}, {}),
        ({"page": "3"}, {}),
        ({"rows": "10"}, {}),
        ({"rows": "10", "page": "2"}, {}),
        ({}, {"HTTP_ACCEPT_LANGUAGE": "pl"}),
    ]:
        other = client.get(url, params, HTTP_IF_NONE_MATCH=first["ETag"], **headers)
        assert other.status_code == 200 and other["ETag"] not in etags, params or headers
        assert content(other) != content(first)  # its own page, not the first one kept
        etags.add(other["ETag"])
        assert client.get(url, params, HTTP_IF_NONE_MATCH=other["ETag"], **headers).status_code == 304
    assert "strona 1 z 3" in client.get(url, HTTP_ACCEPT_LANGUAGE="pl").content.decode()


def test_a_renamed_participant_is_shown_on_the_projector_at_once(client):
    cache.clear()
    t = make_tournament(["Anna", "Basia", "Celina"], name="Cup")
    url = reverse("projector", args=[t.pk])
    first = client.get(url)
    anna = Participant.objects.get(tournament=t, name="Anna")
    anna.name = "Anna Maria"
    anna.save()  # as the director's form saves it
    assert "Anna Maria" in changed_and_fresh(client, url, first)


# The seating


@pytest.fixture
def seated():
    """Twelve participants of three clubs, round 1 seated at three tables of four (not started)."""
    t = make_tournament(
        12, lambda i: f"Klub {i % 3}", name="Cup", rounds=3, game_rounds=1, seed=7, table_size=4
    )
    rounds.seat_next_round(t)
    return t


def play_seated(round_: Round, referee) -> None:
    """Start the round and play and confirm each of its tables (one left with nobody deleted)."""
    rounds.start_round(round_)
    for table in round_.tables.all():
        if table.seats.exists():
            play_table(table, referee)
            results.confirm(table, referee)
        else:
            table.delete()


def latest(t: Tournament) -> Round:
    return t.round_set.order_by("number").last()


def seats_of(t: Tournament, number: int) -> list[Seat]:
    return list(
        Seat.objects.filter(table__round__tournament=t, table__number=number, table__round=latest(t))
        .select_related("participant")
        .order_by("order")
    )


def test_the_seating_answers_304_and_is_kept_until_it_changes(client, seated, django_assert_max_num_queries):
    cache.clear()
    url = reverse("seating", args=[seated.pk])
    first = client.get(url)
    etag = first["ETag"]
    assert first.status_code == 200 and etag and first["Cache-Control"] == "private, no-cache"
    with mock.patch.object(views, "name_key", side_effect=AssertionError("sorted")):
        with django_assert_max_num_queries(SEATING_304_QUERIES):
            unchanged = client.get(url, HTTP_IF_NONE_MATCH=etag)
        assert unchanged.status_code == 304 and unchanged["ETag"] == etag and not unchanged.content
        kept = client.get(url)  # a browser without it: the page kept, its names not sorted again
        assert kept.status_code == 200 and content(kept) == content(first)


def test_a_logged_in_browser_gets_its_304_as_cheaply(client, seated, director, django_assert_max_num_queries):
    client.force_login(director)
    projector, url = reverse("projector", args=[seated.pk]), reverse("seating", args=[seated.pk])
    etag = client.get(projector)["ETag"]
    with django_assert_max_num_queries(PROJECTOR_304_QUERIES):
        assert client.get(projector, HTTP_IF_NONE_MATCH=etag).status_code == 304
    page = client.get(url)
    assert "director" in page.content.decode()  # the top bar says who is logged in
    with django_assert_max_num_queries(SEATING_304_QUERIES):
        assert client.get(url, HTTP_IF_NONE_MATCH=page["ETag"]).status_code == 304
    client.logout()  # another browser's page (nobody logged in, another CSRF cookie): not this one
    other = client.get(url, HTTP_IF_NONE_MATCH=page["ETag"])
    assert other.status_code == 200 and "director" not in other.content.decode()


def names_at_tables(page: str) -> list[list[str]]:
    cards = page.split('class="seating-tables"')[1].split('<article class="card">')[1:]
    return [
        [li.split(" ")[0] for li in card.split("<ol>")[1].split("</ol>")[0].split("<li>")[1:]]
        for card in cards
    ]


def test_every_change_of_the_seating_gives_another_etag_and_the_new_page(client, seated, director, referee):
    url = reverse("seating", args=[seated.pk])
    first_round = reverse("round_seating", args=[seated.pk, 1])
    pages = {url: [content(client.get(url))], first_round: [content(client.get(first_round))]}

    def step(change, *, at=(url,)):
        before = {u: client.get(u) for u in at}  # the page before the change kept, and the browser's ETag
        change()
        for u in at:
            pages[u].append(changed_and_fresh(client, u, before[u]))
            assert pages[u][-1] != pages[u][-2], change.__name__

    round_ = latest(seated)
    one, two, three = (seats_of(seated, n) for n in (1, 2, 3))
    step(lambda: rounds.swap(round_, one[0].participant, two[0].participant))
    assert names_at_tables(pages[url][-1])[0][0] == two[0].participant.name
    step(lambda: interventions.move(one[1].participant, round_, 3, director, "his friend's table"))
    assert len(names_at_tables(pages[url][-1])[2]) == 5
    step(lambda: interventions.mark_absent(three[0].table, three[0].participant, director, "not here"))
    step(lambda: interventions.move(two[1].participant, round_, 4, director, "a table of his own"))
    assert names_at_tables(pages[url][-1])[3] == [two[1].participant.name]
    step(lambda: interventions.mark_absent(round_.tables.get(number=4), two[1].participant, director, "gone"))
    assert names_at_tables(pages[url][-1])[3] == []  # the table stays, with nobody
    step(lambda: interventions.reseat(round_, director, "the late arrivals"))

    def renamed():
        p = Participant.objects.get(tournament=seated, name="P00")
        p.name = "Anna Maria"
        p.save()

    step(renamed, at=(url, first_round))
    assert "Anna Maria" in pages[url][-1]

    def club_changed():
        p = Participant.objects.get(tournament=seated, name="P01")
        p.club = "Szkoła nr 5"
        p.save()

    step(club_changed)

    def exchanged_in_place():  # the seats keep their ids and their count: only who sits in them changes
        a, b = seats_of(seated, 1)[0], seats_of(seated, 2)[0]
        Seat.objects.filter(pk=a.pk).update(participant=b.participant)
        Seat.objects.filter(pk=b.pk).update(participant=a.participant)

    step(exchanged_in_place)

    def retitled():
        seated.name = "Cup of Cups"
        seated.save()

    step(retitled, at=(url, first_round))
    play_seated(round_, referee)
    step(lambda: rounds.seat_next_round(seated), at=(url, first_round))
    assert "Seating, tournament round 2" in pages[url][-1]
    assert f'href="{reverse("round_seating", args=[seated.pk, 2])}"' in pages[first_round][-1]
    step(lambda: latest(seated).delete(), at=(url, first_round))  # round 2 deleted: round 1 the latest again
    assert pages[url][-1] == pages[first_round][-1]


def test_a_role_given_at_the_start_of_a_game_is_shown(client, director, referee):
    """A round seated before the tournament became Anti-Monopoly: its roles are given when a table's game
    starts (``bulk_update``, no model's signal): the page shows them at once."""
    t = make_tournament(8, name="Cup", rounds=2, game_rounds=1, seed=3, table_size=4)
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    url = reverse("seating", args=[t.pk])
    before = client.get(url)
    assert "role-badge" not in before.content.decode()
    Tournament.objects.filter(pk=t.pk).update(variant="anti-monopoly", board="anti-monopoly-us")
    table = round_.tables.order_by("number").first()
    start_game(table, referee)
    assert set(table.seats.values_list("role", flat=True)) != {""}
    after = changed_and_fresh(client, url, before)
    assert "role-badge" in after


def test_another_language_round_or_projector_mode_of_the_seating_is_another_etag(client, seated, referee):
    play_seated(latest(seated), referee)
    rounds.seat_next_round(seated)
    url = reverse("seating", args=[seated.pk])
    first = client.get(url)
    etags = {first["ETag"]}
    for other_url, params, headers in [
        (url, {}, {"HTTP_ACCEPT_LANGUAGE": "pl"}),
        (url, {"refresh": "30"}, {}),
        (url, {"refresh": "60"}, {}),
        (reverse("round_seating", args=[seated.pk, 1]), {}, {}),
    ]:
        other = client.get(other_url, params, HTTP_IF_NONE_MATCH=first["ETag"], **headers)
        assert other.status_code == 200 and other["ETag"] not in etags, (other_url, params, headers)
        assert content(other) != content(first)
        etags.add(other["ETag"])
    same = client.get(reverse("round_seating", args=[seated.pk, 2]))  # the latest by its number
    assert content(same) == content(first)


def test_a_phone_that_takes_gzip_gets_the_seating_compressed_and_its_304_all_the_same(client):
    t = make_tournament([f"Gracz {i:03}" for i in range(200)], "Klub", name="Cup", table_size=4)
    rounds.seat_next_round(t)
    url = reverse("seating", args=[t.pk])
    plain = client.get(url)
    packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    assert len(packed.content) * 5 < len(plain.content)
    assert content(plain) in gzip.decompress(packed.content).decode()
    again = client.get(url, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=packed["ETag"])  # a weak ETag
    assert again.status_code == 304


def test_the_seating_304_asks_as_often_for_a_large_tournament(client, django_assert_max_num_queries):
    t = make_tournament(400, lambda i: f"Klub {i % 40}", name="Cup", table_size=4)
    rounds.seat_next_round(t)
    url = reverse("seating", args=[t.pk])
    etag = client.get(url)["ETag"]
    with django_assert_max_num_queries(SEATING_304_QUERIES):
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304


# A projector in a real browser (Playwright driving Debian's chromium, as tests/test_projector_browser.py)

in_a_browser = pytest.mark.skipif(os.environ.get("SKIP_BROWSER_TESTS") == "1", reason="SKIP_BROWSER_TESTS=1")


@pytest.fixture
def answers(monkeypatch):
    """What the public pages were asked, as the server saw it: (address, If-None-Match, status)."""
    seen = []
    original = views.get_conditional_response

    def recorded(request, etag=None, **kwargs):
        response = original(request, etag=etag, **kwargs)
        status = 200 if response is None else response.status_code
        seen.append((request.get_full_path(), request.META.get("HTTP_IF_NONE_MATCH"), status))
        return response

    monkeypatch.setattr(views, "get_conditional_response", recorded)
    return seen


def wait_for(page, condition, seconds=15):
    for _tick in range(seconds * 10):
        if condition():
            return
        page.wait_for_timeout(100)
    raise AssertionError("waited in vain")


@in_a_browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("javascript", [True, False])
@pytest.mark.parametrize("players", [8, 40])  # one page, read anew at its own address; two pages, turning
def test_a_projector_that_reloads_itself_asks_with_its_etag_and_shows_the_new_page(
    browser,
    live_server,
    answers,
    settings,
    monkeypatch,
    javascript,
    players,
):
    """projector.js (or, without JavaScript, the meta refresh) navigates: the browser asks with the ETag it
    has, shows the page it keeps on a 304 and goes on reloading; after a change it shows the new page."""
    cache.clear()
    settings.PROJECTOR_PAGE_SECONDS = 1
    monkeypatch.setattr(views, "REFRESH_SECONDS", 1)
    t = make_tournament(players, name="Cup")
    url = reverse("projector", args=[t.pk])
    context = browser.new_context(java_script_enabled=javascript)
    page = context.new_page()
    page.goto(f"{live_server.url}{url}")
    addresses = 1 if players <= views.ROWS_PER_PAGE else 3  # /projector/, ?page=2, ?page=1
    wait_for(page, lambda: len(answers) >= addresses + 2)
    first = answers[:addresses]
    assert [(etag, status) for _url, etag, status in first] == [(None, 200)] * addresses
    again = answers[addresses : addresses + 2]
    assert [status for _url, _etag, status in again] == [304, 304] and all(etag for _url, etag, _s in again)
    page.wait_for_selector("td.name >> text=P00")  # the page kept, shown
    if javascript:
        expect(page.locator("[data-pause]")).to_be_visible()  # projector.js ran on the page the 304 kept
    p = Participant.objects.get(tournament=t, name="P00")
    p.name = "Anna Nowa"
    p.save()
    seen = len(answers)
    page.wait_for_selector("td.name >> text=Anna Nowa")
    assert any(etag and status == 200 for _url, etag, status in answers[seen:])  # asked with the old ETag
    wait_for(page, lambda: answers[-1][2] == 304)  # and then kept again
    context.close()


@in_a_browser
@pytest.mark.django_db(transaction=True)
def test_the_seating_on_a_projector_reloads_with_its_etag_and_shows_a_reseat(
    browser,
    live_server,
    answers,
    director,
):
    """The seating's projector mode (``?refresh=``; its page compressed: a weak ETag) reloads itself at its
    own address: a 304 while nothing changed, the new seating after a reseat. Its timer alone: a browser
    without EventSource here, so that the stream cannot reload the page at a moment of its own
    (test_streams_browser has the reload the stream brings; a route would turn the browser's cache off)."""
    cache.clear()
    t = make_tournament(12, lambda i: f"Klub {i % 3}", name="Cup", rounds=3, seed=7, table_size=4)
    round_ = rounds.seat_next_round(t)
    context = browser.new_context(extra_http_headers={"Accept-Encoding": "gzip"})
    page = context.new_page()
    page.add_init_script("delete window.EventSource")
    page.clock.install()
    page.goto(f"{live_server.url}{reverse('seating', args=[t.pk])}?refresh=10")

    def reloaded() -> tuple:
        with page.expect_navigation():
            page.clock.run_for(10_000)  # projector.js's timer
        return answers[-1]

    def first_table() -> list[str]:
        return [s.participant.name for s in seats_of(t, 1)]

    assert answers == [(answers[0][0], None, 200)]
    shown = first_table()
    _url, etag, status = reloaded()
    assert etag.startswith('W/"') and status == 304
    assert page.locator("[data-pause]").is_visible()  # projector.js ran on the page the 304 kept
    assert all(name in page.locator(".table-cards article").first.inner_text() for name in shown)
    interventions.reseat(round_, director, "the late arrivals")
    assert first_table() != shown
    assert reloaded()[1:] == (etag, 200)  # the page it kept was asked for anew
    card = page.locator(".table-cards article").first.inner_text()
    assert all(name in card for name in first_table())
    assert reloaded()[2] == 304
    context.close()
