"""Check-in before a round is seated: from a participant's private link or ticked by the director, once a
round; a tournament that asks for it seats those who checked in (seated again: with the late arrivals); the
director's tick is the override. Double taps and the link and the director at once: real threads."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse
from django.utils import translation

from tests.threads import at_once
from tests.tournaments import make_tournament
from tournament.errors import RoundError
from tournament.event import check_in as check_ins
from tournament.event import interventions, rounds
from tournament.models import CheckIn, Participant, Seat
from tournament.people.participant_links import link_path


@pytest.fixture
def cup():
    return make_tournament(6, name="Cup", rounds=2, table_size=4, check_in=True)


def seated(round_) -> set[str]:
    return set(Seat.objects.filter(table__round=round_).values_list("participant__name", flat=True))


def person(t, name) -> Participant:
    return Participant.objects.select_related("tournament").get(tournament=t, name=name)


@pytest.mark.django_db
def test_the_round_seats_those_who_checked_in(cup, director):
    with pytest.raises(RoundError, match="0 participants have checked in for round 1"):
        rounds.seat_next_round(cup)
    check_ins.check_in(person(cup, "P00"))
    check_ins.check_in(person(cup, "P01"))
    check_ins.check_in(person(cup, "P04"), by=director)  # the director's tick: he has no phone
    round_1 = rounds.seat_next_round(cup)
    assert seated(round_1) == {"P00", "P01", "P04"}
    # a late arrival, ticked before the games start: the round seated again takes him
    assert check_ins.check_in_round(cup) == 1
    check_ins.check_in(person(cup, "P05"), by=director)
    interventions.reseat(round_1, director, "a late arrival")
    assert seated(round_1) == {"P00", "P01", "P04", "P05"}
    rounds.start_round(round_1)
    assert check_ins.check_in_round(cup) == 2  # once the round is under way: the next one
    vias = dict(CheckIn.objects.values_list("participant__name", "via"))
    assert vias == {"P00": "link", "P01": "link", "P04": "director", "P05": "director"}


@pytest.mark.django_db
def test_once_a_round_and_only_when_it_can_count(cup, director):
    p = person(cup, "P00")
    first, new = check_ins.check_in(p)
    again, new_again = check_ins.check_in(p, by=director)
    assert (new, new_again) == (1, 0) and again.pk == first.pk and again.via == "link"
    assert check_ins.cancel(p) and not check_ins.cancel(p)
    gone = person(cup, "P01")
    gone.withdrawn_after = 0
    gone.save()
    with pytest.raises(RoundError, match="withdrew"):
        check_ins.check_in(gone)
    plain = make_tournament(["Anna", "Bartek"], name="Plain")
    with pytest.raises(RoundError, match="does not ask"):
        check_ins.check_in(person(plain, "Anna"))
    assert seated(rounds.seat_next_round(plain)) == {"Anna", "Bartek"}  # without check-in: everyone


@pytest.mark.django_db
def test_checking_in_from_his_link(client, cup):
    p = person(cup, "P02")
    page = client.get(link_path(p)).content.decode()
    assert "Check-in for round 1" in page and "I am here: check me in" in page
    url = reverse("participant_own_check_in", args=[cup.pk, p.link_key])
    assert client.get(url).status_code == 405
    response = client.post(url, follow=True)
    assert "You are checked in for round 1" in response.content.decode()
    client.post(url)  # a double tap
    assert CheckIn.objects.filter(participant=p).count() == 1
    forged = url.replace(p.link_key, ("A" if p.link_key[0] != "A" else "B") + p.link_key[1:])
    assert client.post(forged).status_code == 404
    assert CheckIn.objects.count() == 1


@pytest.mark.django_db
def test_the_director_ticks_unticks_and_checks_everyone_in(client, cup, director, referee):
    p = person(cup, "P03")
    tick = reverse("participant_check_in", args=[cup.pk, p.pk])
    client.force_login(referee)  # not a director of the tournament
    assert client.post(tick, {"do": "in"}).status_code == 403
    client.force_login(director)
    client.post(tick, {"do": "in"})
    page = client.get(reverse("tournament", args=[cup.pk])).content.decode()
    assert "Check-in for round 1: 1 of 6 here" in page
    client.post(tick, {"do": "sideways"})  # a damaged form: nothing changes
    assert CheckIn.objects.filter(participant=p).exists()
    client.post(tick, {"do": "out"})
    assert not CheckIn.objects.exists()
    response = client.post(reverse("check_in_everyone", args=[cup.pk]), follow=True)
    assert "6 more participants checked in." in response.content.decode()
    assert "Check-in for round 1: 6 of 6 here" in response.content.decode()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_double_tap_and_the_directors_tick_at_once_check_him_in_once(cup, director):
    pk = person(cup, "P00").pk

    def from_the_link():
        return check_ins.check_in(Participant.objects.select_related("tournament").get(pk=pk))[1]

    def from_the_director():
        return check_ins.check_in(Participant.objects.select_related("tournament").get(pk=pk), by=director)[1]

    for calls in ((from_the_link, from_the_link), (from_the_link, from_the_director)):
        CheckIn.objects.all().delete()
        assert sorted(at_once(*calls)) == [0, 1]
        assert CheckIn.objects.filter(participant_id=pk).count() == 1


@pytest.mark.django_db
def test_the_doors_scan_checks_in_the_participant_of_the_slip(client, cup, director, referee):
    url = reverse("check_in_scan", args=[cup.pk])
    client.force_login(referee)
    assert client.get(url).status_code == 403
    client.force_login(director)
    assert client.get(url).status_code == 200
    p, q = person(cup, "P01"), person(cup, "P02")
    other = make_tournament(["Zed"], name="Other", check_in=True)
    zed = person(other, "Zed")
    for link, said in [
        (f"http://testserver{link_path(zed)}", "no participant's of this tournament"),  # another tournament's
        (link_path(zed).replace(f"/{other.pk}/", f"/{cup.pk}/"), "no participant's"),  # his key, our number
        (f"/tournaments/{cup.pk}/me/{'x' * 24}/", "no participant's"),  # forged
        ("http://example.org/", "not a participant's link"),
        ("", "not a participant's link"),
    ]:
        assert said in html.unescape(client.post(url, {"link": link}, follow=True).content.decode()), link
    assert not CheckIn.objects.exists()
    page = client.post(url, {"link": f"http://testserver{link_path(p)}"}, follow=True).content.decode()
    assert "P01 is checked in for round 1." in page
    page = client.post(url, {"link": f"http://testserver{link_path(p)}"}, follow=True).content.decode()
    assert "P01 was checked in for round 1 already." in page
    client.post(url, {"link": q.link_key})  # the key alone, pasted
    by = dict(CheckIn.objects.values_list("participant__name", "via"))
    assert by == {"P01": "director", "P02": "director"}
    # the door's page says how many are here, as the tournament's page does, in the director's language
    of = cup.participants.filter(withdrawn_after=None).count()
    for language, said in (
        ("en", f"Check-in for round 1: 2 of {of} here"),
        ("pl", f"Obecność na rundę 1: 2 z {of}"),
    ):
        assert said in client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert (
            said
            in client.get(
                reverse("tournament", args=[cup.pk]), HTTP_ACCEPT_LANGUAGE=language
            ).content.decode()
        )


@pytest.mark.django_db
def test_checked_in_after_the_round_was_seated_he_is_told_to_see_the_director(client, cup, director):
    for name in ("P00", "P01"):
        check_ins.check_in(person(cup, name))
    round_1 = rounds.seat_next_round(cup)
    late = person(cup, "P05")
    check_ins.check_in(late)  # the round is seated, not started: his check-in is for it
    page = html.unescape(client.get(link_path(late)).content.decode())
    assert "The round was seated before you checked in" in page and "Round 1: you have no table." in page
    interventions.reseat(round_1, director, "a late arrival")
    page = html.unescape(client.get(link_path(late)).content.decode())
    assert "The round was seated before you checked in" not in page and "Round 1: table" in page


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "more", "said"),
    [
        ("en", 1, "1 more participant checked in."),
        ("en", 2, "2 more participants checked in."),
        ("pl", 1, "Potwierdzono obecność jeszcze 1 uczestnika."),
        ("pl", 2, "Potwierdzono obecność jeszcze 2 uczestników."),
        ("pl", 5, "Potwierdzono obecność jeszcze 5 uczestników."),
    ],
)
def test_everyone_checked_in_says_how_many_more_in_its_plural_form(
    client, cup, director, language, more, said
):
    for p in cup.participants.order_by("name")[: 6 - more]:
        check_ins.check_in(p)
    client.force_login(director)
    url = reverse("check_in_everyone", args=[cup.pk])
    page = client.post(url, follow=True, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert said in html.unescape(page)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "here", "said"),
    [
        ("en", 1, "1 participant has checked in for round 1: a round needs at least 2."),
        ("en", 0, "0 participants have checked in for round 1: a round needs at least 2."),
        ("pl", 1, "Liczba uczestników z potwierdzoną obecnością na rundę 1: 1; runda wymaga co najmniej 2."),
        ("pl", 0, "Liczba uczestników z potwierdzoną obecnością na rundę 1: 0; runda wymaga co najmniej 2."),
    ],
)
def test_too_few_checked_in_is_said_in_its_plural_form(cup, language, here, said):
    for p in cup.participants.order_by("name")[:here]:
        check_ins.check_in(p)
    with translation.override(language), pytest.raises(RoundError) as refused:
        rounds.seat_next_round(cup)
    assert said in str(refused.value)
