"""Namesakes (issue 38): a second "Jan Kowalski" of another club plays in the tournament; the two are told
apart by their clubs wherever a name is printed (tournament/event/namesakes.py,
``Participant.shown_name``); the same name and club is one person, refused in the user's language. Two
namesakes added at once, in threads on SQLite and PostgreSQL, both end marked."""

from __future__ import annotations

import html
import os

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse

from tests.threads import at_once
from tests.tournaments import make_tournament, start_game
from tournament.event import rounds
from tournament.games import recording
from tournament.models import Participant
from tournament.people.access import DIRECTORS_GROUP

pytestmark = pytest.mark.django_db


def page_text(response) -> str:
    return html.unescape(response.content.decode())


def add(client, t, **fields):
    return client.post(
        reverse("participant_add", args=[t.pk]), fields, HTTP_ACCEPT_LANGUAGE="en", follow=True
    )


@pytest.fixture
def director_client(director):
    c = Client()
    c.force_login(director)
    return c


def test_the_directors_form_takes_a_namesake_of_another_club_and_refuses_the_same_person(director_client):
    t = make_tournament(["Jan Kowalski", "Anna Nowak", "Ewa Lis"], clubs=["SP 12", "SP 12", ""])
    assert "Jan Kowalski (LO 3) added." in page_text(
        add(director_client, t, name="Jan Kowalski", club="LO 3")
    )
    refused = page_text(add(director_client, t, name="jan kowalski", club="sp 12"))
    assert "jan kowalski of sp 12 is already registered." in refused
    no_club = page_text(add(director_client, t, name="Ewa Lis"))
    assert "give their club or school (or a note in its place) to tell them apart" in no_club
    polish = page_text(
        director_client.post(reverse("participant_add", args=[t.pk]), {"name": "Ewa Lis"}, follow=True)
    )
    assert "Osoba Ewa Lis jest już zapisana." in polish
    assert sorted(p.shown_name for p in t.participants.all()) == [
        "Anna Nowak",
        "Ewa Lis",
        "Jan Kowalski (LO 3)",
        "Jan Kowalski (SP 12)",
    ]


def test_a_namesake_is_printed_with_his_club_at_the_table_in_the_game_and_on_the_public_pages(
    director_client, referee
):
    t = make_tournament(
        ["Jan Kowalski", "Jan Kowalski", "Anna Nowak", "Ewa Lis"], clubs=["SP 12", "LO 3", "", ""], rounds=1
    )
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    (table,) = round_.tables.all()
    game = start_game(table, referee)
    names = sorted(p.name for p in game.players.all())
    assert names == ["Anna Nowak", "Ewa Lis", "Jan Kowalski (LO 3)", "Jan Kowalski (SP 12)"]
    assert sorted(p["name"] for p in recording.record_of(game)["players"]) == names  # the game's record
    public = Client()
    seating = page_text(public.get(reverse("seating", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="en"))
    assert "Jan Kowalski (SP 12)" in seating and "Jan Kowalski (LO 3)" in seating
    standings = page_text(public.get(reverse("standings", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="en"))
    assert "Jan Kowalski (SP 12)" in standings and "Jan Kowalski (LO 3)" in standings
    console = page_text(director_client.get(reverse("console", args=[game.pk])))
    assert "Jan Kowalski (SP 12)" in console and "Jan Kowalski (LO 3)" in console


def test_a_rename_that_makes_or_ends_a_namesake_marks_them():
    t = make_tournament(["Jan Kowalski", "Jan Nowak"], clubs=["SP 12", "LO 3"])
    nowak = t.participants.get(name="Jan Nowak")
    nowak.name = "JAN KOWALSKI"
    nowak.save()
    assert sorted(p.shown_name for p in t.participants.all()) == [
        "JAN KOWALSKI (LO 3)",
        "Jan Kowalski (SP 12)",
    ]
    nowak.name = "Jan Nowak"
    nowak.save()
    assert sorted(p.shown_name for p in t.participants.all()) == ["Jan Kowalski", "Jan Nowak"]


def test_a_namesakes_printed_name_fits_a_games_players_name_and_a_tournament_deleted_marks_nothing():
    from tournament.models.games import NAME_LENGTH

    long = "Aleksandra " + "Wielkopolska-" * 8 + "Nowak"
    t = make_tournament([long[:NAME_LENGTH], long[:NAME_LENGTH]], clubs=["Klub " + "x" * 100, "SP 1"])
    shown = {p.club[:4]: p.shown_name for p in t.participants.all()}
    assert all(len(n) <= NAME_LENGTH for n in shown.values()) and shown["SP 1"].endswith(" (SP 1)")
    assert shown["Klub"].endswith(" (Klub " + "x" * 35 + ")")
    t.delete()
    assert not Participant.objects.exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_namesakes_added_at_once_are_both_marked(director):
    t = make_tournament(["Anna Nowak"])
    url = reverse("participant_add", args=[t.pk])

    def adding(club):
        def post():
            c = Client()
            c.force_login(director)
            return c.post(url, {"name": "Jan Kowalski", "club": club}).status_code

        return post

    assert at_once(adding("SP 12"), adding("LO 3")) == [302, 302]
    jans = Participant.objects.filter(tournament=t, name="Jan Kowalski")
    assert sorted(p.shown_name for p in jans) == ["Jan Kowalski (LO 3)", "Jan Kowalski (SP 12)"]


# -- in a real browser --------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(os.environ.get("SKIP_BROWSER_TESTS") == "1", reason="SKIP_BROWSER_TESTS=1")
def test_a_director_adds_a_namesake_on_his_phone_and_the_seating_tells_them_apart(live_server, browser):
    from playwright.sync_api import expect

    from tests.browser import PHONE, Referee

    boss = User.objects.create_user("boss", password="pw")
    boss.groups.add(Group.objects.create(name=DIRECTORS_GROUP))
    t = make_tournament(["Jan Kowalski", "Anna Nowak", "Ewa Lis"], clubs=["SP 12", "", ""], rounds=1)
    t.directors.add(boss)
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="pl-PL", has_touch=True)
    page = context.new_page()
    director = Referee(page, live_server.url)
    director.login("boss", "pw", f"/tournaments/{t.pk}/")
    form = page.locator(f"form[action='/tournaments/{t.pk}/participants/add/']")
    adding = page.locator("summary", has_text="Dodaj uczestnika")
    adding.click()
    form.locator("input[name=name]").fill("Jan Kowalski")
    form.get_by_role("button").click()  # no club to tell him apart: taken for the same person
    expect(page.locator(".messages")).to_contain_text("Osoba Jan Kowalski jest już zapisana.")
    adding.click()
    form.locator("input[name=name]").fill("Jan Kowalski")
    form.locator("input[name=club]").fill("LO 3")
    form.get_by_role("button").click()
    expect(page.locator(".messages")).to_contain_text("Jan Kowalski (LO 3)")
    page.get_by_role("button", name="Rozsadź następną rundę").click()
    page.goto(f"{live_server.url}/tournaments/{t.pk}/seating/")
    who = page.locator("ol.who-sits")
    expect(who).to_contain_text("Jan Kowalski (SP 12)")
    expect(who).to_contain_text("Jan Kowalski (LO 3)")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    director.shot("namesakes-seating-phone")
    context.close()
