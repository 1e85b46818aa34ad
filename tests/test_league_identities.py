"""Who is who across tournaments (tournament/ratings/identities.py) and the director's pages for it: the
players proposed by name and club, the links confirmed, merges and splits; hostile posts change nothing."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse

from tests.league import make_players, results_tournament
from tests.tournaments import make_tournament
from tournament.errors import RoundError
from tournament.models import Participant, PastEntrant, PastEvent, Player, PlayerRating
from tournament.ratings import identities
from tournament.ratings.identities import NEW, NONE
from tournament.ratings.rebuild import rebuild

pytestmark = pytest.mark.django_db
D1, D2 = datetime.date(2026, 1, 10), datetime.date(2026, 2, 14)


def signed_in(user) -> Client:
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    c.force_login(user)
    return c


def test_a_match_is_proposed_by_name_and_club():
    anna_a = Player.objects.create(name="Anna Nowak", club="SP 1")
    Player.objects.create(name="Anna Nowak", club="SP 2")
    solo = Player.objects.create(name="Jan Kos", club="")
    t = make_tournament(["anna  NOWAK", "Jan Kos", "Ewa Lis", "Łucja Żak"], clubs=["sp 1", "KS", "", ""])
    Player.objects.create(name="ŁUCJA ŻAK")
    found = {m.entry.name: m for m in identities.matches(list(t.participants.all()))}
    assert found["anna  NOWAK"].proposed == str(anna_a.pk)  # same name (spaces, case) and club
    assert [p.club for p in found["anna  NOWAK"].candidates] == ["SP 1", "SP 2"]
    assert found["Jan Kos"].proposed == str(solo.pk)  # the one of the name, with no club
    assert found["Ewa Lis"].proposed == NEW and not found["Ewa Lis"].candidates
    assert found["Łucja Żak"].proposed != NEW  # casefolded in Python: SQLite's lower() knows only ASCII


def test_a_name_with_two_clubs_is_left_to_the_director():
    Player.objects.create(name="Anna Nowak", club="SP 1")
    t = make_tournament(["Anna Nowak"], clubs=["SP 9"])
    (m,) = identities.matches(list(t.participants.all()))
    assert m.proposed == NEW and len(m.candidates) == 1


def test_link_new_existing_and_none():
    ada = Player.objects.create(name="Ada")
    t = make_tournament(["Ada", "Bob", "Cyd"])
    ps = {p.name: p for p in t.participants.all()}
    changed = identities.link(
        list(ps.values()), {ps["Ada"].pk: str(ada.pk), ps["Bob"].pk: NEW, ps["Cyd"].pk: NONE}
    )
    assert [p.name for p in changed] == ["Ada", "Bob"]  # Cyd had no player and has none
    got = {p.name: p.player for p in t.participants.select_related("player")}
    assert got["Ada"] == ada and got["Bob"].name == "Bob" and got["Cyd"] is None


@pytest.mark.postgres
def test_one_player_twice_in_a_tournament_is_refused_and_nothing_changes():
    ada = Player.objects.create(name="Ada")
    t = make_tournament(["Ada", "Ada B"])
    ps = list(t.participants.order_by("name"))
    with pytest.raises(RoundError, match="one person plays once"):
        identities.link(ps, {ps[0].pk: str(ada.pk), ps[1].pk: str(ada.pk)})
    assert not Participant.objects.filter(player__isnull=False).exists()
    identities.link(ps, {ps[0].pk: str(ada.pk)})
    with pytest.raises(RoundError):  # the other one, later: the link stored counts too
        identities.link(ps, {ps[1].pk: str(ada.pk)})


def test_merge_and_split(django_capture_on_commit_callbacks):
    a1, a2, b, c, d = make_players(["Ada", "Ada", "Bob", "Cyd", "Dan"])
    results_tournament("Winter", D1, [[[(a1, 1), (b, 2), (c, 3)]]])
    results_tournament("Spring", D2, [[[(a2, 1), (d, 2), (c, 3)]]])
    with django_capture_on_commit_callbacks(execute=True):
        identities.merge(a2, a1)
    assert not Player.objects.filter(pk=a2.pk).exists()
    assert PlayerRating.objects.get(player=a1).games == 2
    fresh = list(PlayerRating.objects.order_by("player").values_list("mu", "sigma", "games"))
    rebuild()
    assert list(PlayerRating.objects.order_by("player").values_list("mu", "sigma", "games")) == fresh
    spring = Participant.objects.get(player=a1, tournament__name="Spring")
    with django_capture_on_commit_callbacks(execute=True):
        other = identities.split(a1, [spring.pk], [], "Ada Other", "KS")
    assert PlayerRating.objects.get(player=a1).games == 1
    assert PlayerRating.objects.get(player=other).games == 1
    with pytest.raises(RoundError, match="both played in Winter"):
        identities.merge(b, c)
    with pytest.raises(RoundError, match="at least one"):
        identities.split(other, [spring.pk], [], "X", "")


def test_a_past_entrant_links_like_a_participant():
    event = PastEvent.objects.create(name="Old", date=D1)
    e = PastEntrant.objects.create(event=event, name="Ada", club="KS")
    ada = Player.objects.create(name="Ada", club="ks")
    (m,) = identities.matches([e])
    assert m.proposed == str(ada.pk)
    identities.link([e], {e.pk: m.proposed})
    e.refresh_from_db()
    assert e.player == ada


# --- the pages --------------------------------------------------------------------------------------


def test_the_director_confirms_who_is_who(director, django_capture_on_commit_callbacks):
    ada = Player.objects.create(name="Ada", club="KS")
    t = make_tournament(["Ada", "Bob"], clubs=["KS", ""])
    c = signed_in(director)
    page = c.get(reverse("tournament_players", args=[t.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert f'<option value="{ada.pk}" selected>' in html
    ps = {p.name: p for p in t.participants.all()}
    with django_capture_on_commit_callbacks(execute=True):
        r = c.post(
            reverse("tournament_players", args=[t.pk]),
            {f"player_{ps['Ada'].pk}": str(ada.pk), f"player_{ps['Bob'].pk}": NEW},
        )
    assert r.status_code == 302
    assert {p.name: p.player.name for p in t.participants.select_related("player")} == {
        "Ada": "Ada",
        "Bob": "Bob",
    }


@pytest.mark.parametrize("value", ["999999", "-1", "1e3", "x" * 300, "\x00"])
def test_a_forged_choice_changes_nothing(director, value):
    t = make_tournament(["Ada"])
    p = t.participants.get()
    r = signed_in(director).post(reverse("tournament_players", args=[t.pk]), {f"player_{p.pk}": value})
    assert r.status_code == 400
    p.refresh_from_db()
    assert p.player is None


def test_who_may_see_the_pages(director, referee):
    t = make_tournament(["Ada"])
    url = reverse("tournament_players", args=[t.pk])
    assert Client().get(url).status_code == 302  # to the login
    assert signed_in(referee).get(url).status_code == 403
    other = User.objects.create_user("other", password="pw")
    other.groups.add(Group.objects.get_or_create(name="directors")[0])
    assert signed_in(other).get(url).status_code == 403  # a director, not of this tournament
    event = PastEvent.objects.create(name="Old", date=D1)
    assert signed_in(other).get(reverse("past_event_players", args=[event.pk])).status_code == 200
    assert signed_in(referee).get(reverse("past_event_players", args=[event.pk])).status_code == 403
    player = Player.objects.create(name="Ada")
    assert signed_in(other).get(reverse("league_player_manage", args=[player.pk])).status_code == 200
    assert (
        signed_in(referee).post(reverse("league_player_merge", args=[player.pk]), {"other": 1}).status_code
        == 403
    )


def test_merge_and_split_pages(director, django_capture_on_commit_callbacks):
    a1, a2, b, c = make_players(["Ada", "Ada", "Bob", "Cyd"])
    results_tournament("Winter", D1, [[[(a1, 1), (b, 2), (c, 3)]]])
    results_tournament("Spring", D2, [[[(a2, 1), (b, 2)]]])
    cl = signed_in(director)
    page = cl.get(reverse("league_player_manage", args=[a2.pk]))
    assert f"#{a1.pk}" in page.content.decode()  # the other Ada is listed
    bad = cl.post(reverse("league_player_merge", args=[a2.pk]), {"other": "999999"})
    assert bad.status_code == 400 and "no player with this number" in bad.content.decode()
    refused = cl.post(reverse("league_player_merge", args=[b.pk]), {"other": c.pk}, follow=True)
    assert "both played in Winter" in refused.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        r = cl.post(reverse("league_player_merge", args=[a2.pk]), {"other": a1.pk})
    assert r.status_code == 302 and not Player.objects.filter(pk=a2.pk).exists()
    assert PlayerRating.objects.get(player=a1).games == 2
    spring = Participant.objects.get(player=a1, tournament__name="Spring")
    with django_capture_on_commit_callbacks(execute=True):
        r = cl.post(
            reverse("league_player_split", args=[a1.pk]),
            {"participants": [spring.pk], "name": "Ada Two", "club": ""},
        )
    assert r.status_code == 302
    assert Participant.objects.get(pk=spring.pk).player.name == "Ada Two"
    forged = cl.post(reverse("league_player_split", args=[a1.pk]), {"participants": ["abc"], "name": "X"})
    assert forged.status_code == 400
    renamed = cl.post(
        reverse("league_player_rename", args=[a1.pk]), {"name": "  Ada   Lovelace ", "club": "KS"}
    )
    assert renamed.status_code == 302
    a1.refresh_from_db()
    assert (a1.name, a1.name_key, a1.club) == ("Ada Lovelace", "ada lovelace", "KS")


@pytest.mark.postgres
def test_two_entries_exchange_their_players_in_one_form():
    x, y = make_players(["Jan Kowalski", "Jan Kowalski"])
    t = make_tournament(["Jan Kowalski", "Jan  Kowalski"])
    a, b = t.participants.order_by("pk")
    identities.link([a, b], {a.pk: str(x.pk), b.pk: str(y.pk)})
    a.refresh_from_db(), b.refresh_from_db()
    identities.link([a, b], {a.pk: str(y.pk), b.pk: str(x.pk)})  # one update at a time would clash
    assert {p.pk: p.player_id for p in t.participants.all()} == {a.pk: y.pk, b.pk: x.pk}


def test_a_new_player_frees_the_old_one_in_the_same_form():
    x = Player.objects.create(name="Ada")
    t = make_tournament(["Ada", "Ada B"])
    a, b = t.participants.order_by("name")
    identities.link([a, b], {a.pk: str(x.pk)})
    a.refresh_from_db()
    identities.link([a, b], {a.pk: NEW, b.pk: str(x.pk)})
    assert Participant.objects.get(pk=b.pk).player == x and Participant.objects.get(pk=a.pk).player != x


@pytest.mark.postgres
def test_a_merge_into_a_player_merged_meanwhile_is_refused():
    a, b, c = make_players(["Ada", "Ada", "Ada"])
    stale_b = Player.objects.get(pk=b.pk)
    identities.merge(b, c)
    with pytest.raises(RoundError, match="no longer there"):
        identities.merge(a, stale_b)
    assert Player.objects.filter(pk=a.pk).exists()


def test_only_the_directors_of_his_tournaments_change_a_player(director):
    group = Group.objects.get_or_create(name="directors")[0]
    mine, other = (
        User.objects.create_user("mine", password="pw"),
        User.objects.create_user("other", password="pw"),
    )
    for u in (mine, other):
        u.groups.add(group)
    a, b = make_players(["Ada", "Bob"])
    t = results_tournament("Winter", D1, [[[(a, 1), (b, 2)]]], created_by=mine)
    t.directors.add(mine)
    assert signed_in(other).get(reverse("league_player_manage", args=[a.pk])).status_code == 403
    assert (
        signed_in(other).post(reverse("league_player_rename", args=[a.pk]), {"name": "X"}).status_code == 403
    )
    assert signed_in(mine).get(reverse("league_player_manage", args=[a.pk])).status_code == 200
    a.refresh_from_db()
    assert a.name == "Ada"


@pytest.mark.parametrize("name", ["a\x01b", "tab\there"])
def test_a_name_with_control_characters_is_refused(director, name):
    (a,) = make_players(["Ada"])
    r = signed_in(director).post(reverse("league_player_rename", args=[a.pk]), {"name": name})
    assert r.status_code == 400
    a.refresh_from_db()
    assert a.name == "Ada"
