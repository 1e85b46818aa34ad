"""Referee accounts managed in the app (tournament.people.referee_accounts, tournament.director.referees):
added with
a name, a login and a password or a one-time login link; a password reset or a new link; deactivated and
reactivated; every change in the admin's log. And a round's referees saved with the round: "Start the round"
sends the ticks too. Through Django's test client."""

import html
import io
import re
from datetime import timedelta

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from tests.tournaments import start_game
from tournament.event import interventions, rounds
from tournament.models import LoginLink, Participant, Round, Tournament
from tournament.people import referee_accounts as accounts
from tournament.people.access import DIRECTORS_GROUP, REFEREES_GROUP, referee_accounts
from tournament.people.referee_accounts import display_name

pytestmark = pytest.mark.django_db
LINK = re.compile(r'class="link-url">(https?://[^<]+/login/link/([A-Za-z0-9_-]+)/)<')


@pytest.fixture
def boss(client):
    """A director's account (the ``directors`` group, not staff): he manages the referees too."""
    user = User.objects.create_user("boss", password="pw")
    user.groups.add(Group.objects.get_or_create(name=DIRECTORS_GROUP)[0])
    client.force_login(user)
    return user


def page(response) -> str:
    return html.unescape(response.content.decode())


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def add(client, name="Jan Kowalski", username="jkowalski", how="password", one="secret-pass-1", two=None):
    data = {
        "name": name,
        "username": username,
        "how": how,
        "password1": one,
        "password2": one if two is None else two,
    }
    return client.post(reverse("referee_add"), data, follow=True)


def fresh_phone() -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE="en")


def logs_in(username: str, password: str, phone: Client | None = None) -> bool:
    """The login page, as a phone submits it (django-axes wants the request): does it let him in?"""
    phone = phone or fresh_phone()
    response = phone.post(reverse("login"), {"username": username, "password": password})
    return response.status_code == 302


def test_every_install_has_the_referees_group():
    """Made by a migration: a fresh install can give its tables referees without the demo."""
    assert Group.objects.filter(name=REFEREES_GROUP).exists()


def test_who_may_manage_the_referees(client, boss):
    assert client.get(reverse("referees")).status_code == 200  # a director (the directors group)
    staff = User.objects.create_user("staff", is_staff=True)
    client.force_login(staff)
    assert client.get(reverse("referee_add")).status_code == 200
    referee = User.objects.create_user("ref", password="pw")
    referee.groups.add(Group.objects.get(name=REFEREES_GROUP))
    client.force_login(referee)
    assert client.get(reverse("referees")).status_code == 403
    assert add(client).status_code == 403 and not User.objects.filter(username="jkowalski").exists()
    client.logout()
    response = client.get(reverse("referees"))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_a_referee_added_with_a_password(client, boss):
    response = add(client, one="short")
    assert (
        "at least 8 characters" in page(response) and not User.objects.filter(username="jkowalski").exists()
    )
    response = add(client, two="another-pass-1")
    assert (
        "The two passwords differ" in page(response)
        and not User.objects.filter(username="jkowalski").exists()
    )
    response = add(client, name="  ", one="secret-pass-1")
    assert "Give the referee's name" in page(response)
    response = add(client, username="jan kowalski")
    assert "Enter a valid username" in page(response) and User.objects.count() == 1

    response = add(client, name="  Jan   Maria  Kowalski ")
    assert response.redirect_chain[-1][0] == reverse("referees")
    referee = User.objects.get(username="jkowalski")
    assert (
        referee.get_full_name() == "Jan Maria Kowalski"
        and referee.groups.filter(name=REFEREES_GROUP).exists()
    )
    assert not referee.is_staff and list(referee_accounts()) == [referee]
    assert "Jan Maria Kowalski added" in " ".join(messages_of(response))
    listed = page(response)
    assert "Jan Maria Kowalski" in listed and "jkowalski" in listed
    assert logs_in("jkowalski", "secret-pass-1")
    entry = LogEntry.objects.get(object_id=str(referee.pk))
    assert entry.user == boss and entry.is_addition() and "account added" in listed  # in the log, on the page
    # the same login again, in other letters: refused
    assert "is taken" in page(add(client, username="JKowalski")) and User.objects.count() == 2


def test_a_referee_added_with_a_one_time_link(client, boss):
    response = add(client, name="Ewa Lis", username="ewa", how="link", one="")
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    url, secret = LINK.search(page(response)).groups()
    assert 'src="data:image/svg+xml;base64,' in page(response)  # the QR code
    referee = User.objects.get(username="ewa")
    assert not referee.has_usable_password()
    link = LoginLink.objects.get(user=referee)
    assert len(secret) == 43 and link.digest != secret  # 256 bits; only a digest is stored
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM tournament_loginlink")
        assert secret not in repr(cursor.fetchall())
    assert link.expires_at - link.created_at == timedelta(hours=24)

    phone = fresh_phone()
    opened = phone.get(url)  # a preview of the link (a messenger fetching it) does not use it up
    assert opened.status_code == 200 and "You log in as Ewa Lis" in page(opened)
    assert LoginLink.objects.get(pk=link.pk).used_at is None
    response = phone.post(url)
    assert response.status_code == 302 and response["Location"] == reverse("my_tables")
    tables = phone.get(reverse("my_tables"))
    assert tables.context["user"] == referee and "Log out (Ewa Lis)" in page(tables)  # his name, not login
    again = fresh_phone().post(url)
    assert again.status_code == 410 and "has been used already" in page(again)
    assert fresh_phone().get(url).status_code == 410
    unknown = fresh_phone().get(reverse("login_link", args=["x" * 43]))
    assert unknown.status_code == 410 and "is not valid" in page(unknown)


def test_a_link_expires(client, boss, settings):
    settings.LOGIN_LINK_HOURS = 2
    _url, secret = LINK.search(page(add(client, username="ewa", how="link", one=""))).groups()
    link = LoginLink.objects.get()
    assert link.expires_at - link.created_at == timedelta(hours=2)
    LoginLink.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    response = fresh_phone().post(reverse("login_link", args=[secret]))
    assert response.status_code == 410 and "has expired" in page(response)
    assert User.objects.get(username="ewa").last_login is None


def test_a_new_link_or_password_ends_the_old_ones(client, boss):
    _url, first = LINK.search(page(add(client, username="ewa", how="link", one=""))).groups()
    referee = User.objects.get(username="ewa")
    response = client.post(reverse("referee_link", args=[referee.pk]))
    _url, second = LINK.search(page(response)).groups()
    assert first != second
    assert "a newer one was given" in page(fresh_phone().post(reverse("login_link", args=[first])))
    response = client.post(
        reverse("referee_password", args=[referee.pk]),
        {"password1": "new-pass-12", "password2": "nope"},
        follow=True,
    )
    assert "The two passwords differ" in " ".join(messages_of(response))
    assert not User.objects.get(pk=referee.pk).has_usable_password()  # refused: nothing changed
    response = client.post(
        reverse("referee_password", args=[referee.pk]),
        {"password1": "new-pass-12", "password2": "new-pass-12"},
        follow=True,
    )
    assert "New password set" in " ".join(messages_of(response))
    assert logs_in("ewa", "new-pass-12")
    assert fresh_phone().post(reverse("login_link", args=[second])).status_code == 410
    # a new link instead of the password: the password no longer works, his phone is logged out
    phone = fresh_phone()
    assert logs_in("ewa", "new-pass-12", phone)
    client.post(reverse("referee_link", args=[referee.pk]))
    assert not logs_in("ewa", "new-pass-12")
    assert phone.get(reverse("my_tables")).status_code == 302  # to the login page
    changes = [c.what for c in accounts.history([referee])]
    assert changes == [
        "one-time login link given",
        "password set",
        "one-time login link given",
        "account added",
    ]


def test_deactivated_he_cannot_log_in_and_his_tables_keep_his_name(client, boss):
    add(client, name="Jan Kowalski", username="jan")
    referee = User.objects.get(username="jan")
    t = Tournament.objects.create(name="Cup", rounds=2, game_rounds=1, seed=3, created_by=boss)
    t.directors.add(boss)
    for i in range(8):
        Participant.objects.create(tournament=t, name=f"P{i}")
    round_ = rounds.seat_next_round(t)
    interventions.set_referees(round_, {1: [referee], 2: [referee]})
    rounds.start_round(round_)
    table2 = round_.tables.get(number=2)
    game2 = rounds.start_table_game(table2, [s.participant_id for s in table2.seats.order_by("order")])
    phone = fresh_phone()
    assert logs_in("jan", "secret-pass-1", phone)

    response = client.post(reverse("referee_active", args=[referee.pk]), {"active": "0"}, follow=True)
    assert "Jan Kowalski can no longer log in" in " ".join(messages_of(response))
    assert not logs_in("jan", "secret-pass-1")
    assert phone.get(reverse("my_tables")).status_code == 302  # his phone is logged out too
    assert "deactivated" in page(client.get(reverse("referees")))
    assert referee not in referee_accounts()  # not offered to a table any more...
    client.post(reverse("round_referees", args=[t.pk, 1]), {"tables": ["1", "2"]})
    assert list(table2.referees.all()) == [referee] == list(game2.referees.all())  # ...his game keeps him
    assert not round_.tables.get(number=1).referees.exists()  # a table still to play: he can't come
    assert rounds.referees_by_number(round_) == {}  # nor does he go on to the next round
    # a link for a deactivated account is refused; a link given before is refused too
    response = client.post(reverse("referee_link", args=[referee.pk]), follow=True)
    assert "reactivate it first" in " ".join(messages_of(response)) and not LoginLink.objects.exists()
    response = client.post(reverse("referee_active", args=[referee.pk]), {"active": "0"}, follow=True)
    assert "deactivated already" in " ".join(messages_of(response))
    assert client.post(reverse("referee_active", args=[referee.pk]), {"active": "x"}).status_code == 302

    client.post(reverse("referee_active", args=[referee.pk]), {"active": "1"})
    assert logs_in("jan", "secret-pass-1")
    _url, secret = LINK.search(page(client.post(reverse("referee_link", args=[referee.pk])))).groups()
    client.post(reverse("referee_active", args=[referee.pk]), {"active": "0"})
    assert fresh_phone().post(reverse("login_link", args=[secret])).status_code == 410


def test_a_directors_or_staff_account_is_the_administrators(client, boss):
    """A director cannot take over another director's or staff account by resetting its password."""
    referees = Group.objects.get(name=REFEREES_GROUP)
    other = User.objects.create_user("other", password="pw", first_name="Ola")
    other.groups.add(referees, Group.objects.get(name=DIRECTORS_GROUP))
    staff = User.objects.create_user("admin", password="pw", is_staff=True)
    staff.groups.add(referees)
    listed = page(client.get(reverse("referees")))
    assert "Ola" in listed and "managed in the Django admin" in listed
    for account in (other, staff, boss):
        assert client.get(reverse("referee", args=[account.pk])).status_code == 404
        for name, data in [
            ("referee_password", {"password1": "taken-over-1", "password2": "taken-over-1"}),
            ("referee_link", {}),
            ("referee_active", {"active": "0"}),
            ("referee_rename", {"name": "X"}),
        ]:
            assert client.post(reverse(name, args=[account.pk]), data).status_code == 404
    assert User.objects.get(pk=other.pk).check_password("pw") and User.objects.get(pk=staff.pk).is_active
    assert not LoginLink.objects.exists()


def test_the_name_changed_is_what_the_sheets_print(client, boss):
    add(client, name="Jan Kowalski", username="jan")
    referee = User.objects.get(username="jan")
    response = client.post(reverse("referee_rename", args=[referee.pk]), {"name": ""}, follow=True)
    assert "Give the referee's name" in " ".join(messages_of(response)) and display_name(
        User.objects.get(pk=referee.pk)
    ) == ("Jan Kowalski")
    client.post(reverse("referee_rename", args=[referee.pk]), {"name": "Jan Kowalski-Nowak"})
    assert display_name(User.objects.get(pk=referee.pk)) == "Jan Kowalski-Nowak"

    t = Tournament.objects.create(name="Cup", rounds=2, game_rounds=1, seed=3, created_by=boss)
    t.directors.add(boss)
    for i in range(8):
        Participant.objects.create(tournament=t, name=f"P{i}")
    rounds.seat_next_round(t)
    round_page = page(client.get(reverse("round", args=[t.pk, 1])))
    assert "Jan Kowalski-Nowak</label>" in round_page  # the chip of the referees' form
    client.post(reverse("round_referees", args=[t.pk, 1]), {"tables": ["1"], "table_1": [referee.pk]})
    sheet = client.get(reverse("table_sheet_pdf", args=[t.pk, 1, 1]))
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(sheet.content)).pages)
    assert "Jan Kowalski-Nowak" in text and "jan " not in text


# -- a round's referees, saved with the round ----------------------------------------------------------------


@pytest.fixture
def seated(boss):
    t = Tournament.objects.create(name="Cup", rounds=2, game_rounds=1, seed=3, created_by=boss)
    t.directors.add(boss)
    for i in range(8):
        Participant.objects.create(tournament=t, name=f"P{i}")
    rounds.seat_next_round(t)
    group = Group.objects.get(name=REFEREES_GROUP)
    for name in ("ania", "bartek"):
        User.objects.create_user(name).groups.add(group)
    return Round.objects.get(tournament=t)


def test_start_saves_the_referees_ticked(client, seated):
    """The Start button sends the referees' form: the round starts with the referees ticked."""
    t, ania, bartek = (
        seated.tournament,
        User.objects.get(username="ania"),
        User.objects.get(username="bartek"),
    )
    round_page = page(client.get(reverse("round", args=[t.pk, 1])))
    start = re.search(r"<button[^>]*>Start the round</button>", round_page).group(0)
    assert 'form="referees"' in start and f'formaction="{reverse("round_start", args=[t.pk, 1])}"' in start
    response = client.post(
        reverse("round_start", args=[t.pk, 1]),
        {"tables": ["1", "2"], "table_1": [ania.pk], "table_2": [bartek.pk, ania.pk]},
        follow=True,
    )
    seated.refresh_from_db()
    assert seated.status == Round.Status.RUNNING
    assert list(seated.tables.get(number=1).referees.all()) == [ania]
    assert set(seated.tables.get(number=2).referees.all()) == {ania, bartek}
    assert messages_of(response) == ["Referees saved.", "Round 1 started."]


def test_a_start_from_a_page_of_before_changes_no_running_games_referees(client, seated):
    """A co-director's open tab, or a page reloaded: Start pressed again once the round runs changes nothing
    (before, its ticks were saved first — a running game lost its referee — and only then refused)."""
    t, ania = seated.tournament, User.objects.get(username="ania")
    client.post(reverse("round_start", args=[t.pk, 1]), {"tables": ["1"], "table_1": [ania.pk]}, follow=True)
    table = seated.tables.get(number=1)
    game = rounds.start_table_game(table, [s.participant_id for s in table.seats.order_by("order")])
    response = client.post(reverse("round_start", args=[t.pk, 1]), {"tables": ["1", "2"]}, follow=True)
    assert messages_of(response) == ["The round has already started."]
    assert list(table.referees.all()) == [ania] == list(game.referees.all())


def test_start_with_a_tick_refused_starts_nothing(client, seated):
    t = seated.tournament
    outsider = User.objects.create_user("outsider")
    response = client.post(
        reverse("round_start", args=[t.pk, 1]), {"tables": ["1"], "table_1": [outsider.pk]}, follow=True
    )
    seated.refresh_from_db()
    assert seated.status == Round.Status.SEATED and not seated.tables.filter(referees__isnull=False).exists()
    assert "The round was not started" in " ".join(messages_of(response))


def test_a_post_naming_no_table_changes_no_referee(client, seated):
    """An empty post (to the referees' form or to Start) leaves every table's referees, running games too."""
    t, ania = seated.tournament, User.objects.get(username="ania")
    interventions.set_referees(seated, {1: [ania], 2: [ania]})
    response = client.post(reverse("round_referees", args=[t.pk, 1]), {}, follow=True)
    assert "no referee was changed" in " ".join(messages_of(response))
    client.post(reverse("round_start", args=[t.pk, 1]), {})  # a Start without the form: starts, changes none
    seated.refresh_from_db()
    assert seated.status == Round.Status.RUNNING
    table = seated.tables.get(number=1)
    game = start_game(table, ania)
    client.post(reverse("round_referees", args=[t.pk, 1]), {"table_1": []})  # no markers: nothing
    assert [list(x.referees.all()) for x in seated.tables.all()] == [[ania], [ania]]
    assert list(game.referees.all()) == [ania]


def test_the_demo_referees_have_names_the_sheets_print():
    call_command("demo", stdout=io.StringIO())
    names = {u.username: display_name(u) for u in referee_accounts()}
    assert names == {"referee1": "Zofia Kamińska", "referee2": "Tomasz Wiśniewski"}


def test_a_director_manages_the_referees_he_added_only(client, boss):
    """Another director's referee (he could act at that director's tables with a new password or link) is
    not his to manage: listed, but no page, no new password, no link; staff manage every referee."""
    add(client, name="Ewa Lis", username="ewa", how="password")
    ewa = User.objects.get(username="ewa")
    rival = User.objects.create_user("rival", password="pw")
    rival.groups.add(Group.objects.get(name=DIRECTORS_GROUP))
    client.force_login(rival)
    assert "Ewa Lis" in page(client.get(reverse("referees")))
    assert client.get(reverse("referee", args=[ewa.pk])).status_code == 404
    for action in ("referee_link", "referee_password", "referee_active", "referee_rename"):
        assert (
            client.post(
                reverse(action, args=[ewa.pk]), {"password1": "x-pass-word-9", "active": "0"}
            ).status_code
            == 404
        )
    assert (
        not LoginLink.objects.exists()
        and logs_in("ewa", "secret-pass-1")
        and User.objects.get(pk=ewa.pk).is_active
    )
    with pytest.raises(accounts.AccountError):
        accounts.give_link(ewa, rival)
    staff = User.objects.create_user("staff", is_staff=True)
    client.force_login(staff)
    assert client.get(reverse("referee", args=[ewa.pk])).status_code == 200


def test_a_link_given_before_the_account_became_staff_does_not_open_it(boss):
    ewa, secret, _link = accounts.add_referee("Ewa Lis", "ewa", None, boss)
    User.objects.filter(pk=ewa.pk).update(is_staff=True)
    with pytest.raises(accounts.LinkRefused):
        accounts.use_link(secret)
    assert fresh_phone().post(reverse("login_link", args=[secret])).status_code == 410


def test_ones_own_name_is_logged_and_not_another_accounts():
    """my-name/: a referee may not take a name another account prints (the sheets would show one name for
    two people); a name given is kept in the admin's history, as a director's rename of a referee is."""
    User.objects.create_user("boss", is_staff=True, first_name="Anna", last_name="Dyrektorska")
    referee = User.objects.create_user("ref", password="pw")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(referee)
    url = reverse("own_name")
    page = client.post(url, {"name": "Anna Dyrektorska"}).content.decode()
    assert "Another account has that name already" in html.unescape(page)
    referee.refresh_from_db()
    assert referee.get_full_name() == "" and not LogEntry.objects.exists()
    response = client.post(url, {"name": "Zofia Kamińska"})
    assert response.status_code == 302
    referee.refresh_from_db()
    assert referee.get_full_name() == "Zofia Kamińska"
    entry = LogEntry.objects.get()
    assert (entry.user, entry.object_id) == (referee, str(referee.pk))
    assert client.get(url).status_code == 200

    assert Client().get(url).status_code == 302
