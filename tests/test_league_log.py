"""The league's log (tournament.models.league_log): a player renamed, merged or split and a past tournament
deleted — any director may, the league being every organiser's — each leaves who, when, what and why, shown
on the player's page (to directors: it names who did it) and on the past tournaments' page."""

import html

import pytest
from django.test import Client
from django.urls import reverse

from tournament.files.past_results.storing import import_past_results
from tournament.models import LeagueChange, Player

CSV = (
    "Tournament;Date;Round;Table;Place;Player;Club\n"
    "Winter Cup;2025-01-18;1;1;1;Jan Kowalski;Łódź\n"
    "Winter Cup;2025-01-18;1;1;2;Ewa Lis;\n"
).encode()


@pytest.fixture
def staff(director):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(director)
    return client


def text(response) -> str:
    assert response.status_code == 200
    return html.unescape(response.content.decode())


@pytest.mark.django_db
def test_a_rename_is_logged_with_who_when_what_and_why_and_shown_on_his_page(staff, director):
    jan = Player.objects.create(name="Jan Kowalski", club="Łódź")
    url = reverse("league_player_rename", args=[jan.pk])
    staff.post(url, {"name": "Jan Kowalsky", "club": "Łódź", "reason": "spelt as on his licence"})
    (change,) = LeagueChange.objects.all()
    assert (change.action, change.user, change.player) == ("renamed", director, jan)
    assert (change.before, change.after) == (
        f"#{jan.pk} Jan Kowalski (Łódź)",
        f"#{jan.pk} Jan Kowalsky (Łódź)",
    )
    assert change.reason == "spelt as on his licence" and change.at is not None
    page = text(staff.get(reverse("league_player", args=[jan.pk])))
    assert "Changes in the league's log" in page and "spelt as on his licence" in page and "director" in page
    public = text(Client(HTTP_ACCEPT_LANGUAGE="en").get(reverse("league_player", args=[jan.pk])))
    assert "spelt as on his licence" not in public  # the log names who did it: directors only


@pytest.mark.django_db
def test_a_merge_and_a_split_are_logged(staff, director):
    import_past_results("results.csv", CSV, director)
    jan = Player.objects.create(name="Jan Kowalski")
    twin = Player.objects.create(name="Jan Kowalski", club="Łódź")
    staff.post(reverse("league_player_merge", args=[twin.pk]), {"other": jan.pk, "reason": "one person"})
    merged = LeagueChange.objects.get(action="merged")
    assert merged.player == jan and merged.before == f"#{twin.pk} Jan Kowalski (Łódź)"
    assert merged.reason == "one person"
    assert not Player.objects.filter(pk=twin.pk).exists()  # he is no more; his name stays in the log
    assert f"#{twin.pk} Jan Kowalski (Łódź)" in text(staff.get(reverse("league_player", args=[jan.pk])))


@pytest.mark.django_db
def test_a_past_tournament_deleted_is_logged_on_the_past_tournaments_page(staff, director):
    (event,) = import_past_results("results.csv", CSV, director).events
    staff.post(reverse("past_event_delete", args=[event.pk]), {"reason": "imported twice"})
    (change,) = LeagueChange.objects.all()
    assert change.action == "past_deleted" and change.user == director and change.reason == "imported twice"
    assert "Winter Cup" in change.before and "(2)" in change.before  # its two results
    page = text(staff.get(reverse("past_events")))
    assert (
        "The league's log" in page
        and "past tournament deleted: Winter Cup" in page
        and "imported twice" in page
    )
    polish = Client(HTTP_ACCEPT_LANGUAGE="pl")
    polish.force_login(director)
    assert "Dziennik ligi" in text(polish.get(reverse("past_events")))
