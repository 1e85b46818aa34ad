"""The phone's outbox sending the moves it kept while the Wi-Fi was down (tournament/console/sync.py), through
Django's test client: a move applied once per request key and answered with the game's version and its
number, moves in order, a stale one and a refused one answered in JSON with why (in the user's language),
a closed game, hostile bodies refused with nothing stored, who may not enter moves refused, the phone's
contact kept one row a device, the same request from two phones at once stored once (real threads: SQLite
and PostgreSQL), and the director's round page naming the tables whose moves wait on a phone and the phones
gone silent."""

import gzip
import json
import re
from datetime import timedelta
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from rules import RulesError, apply
from rules.simulate import simulate
from tests.threads import at_once
from tests.tournaments import make_tournament, start_game
from tournament.console import sync
from tournament.console.devices import SESSION_KEY
from tournament.console.stale import seen_mark
from tournament.event import results, rounds
from tournament.games import recording
from tournament.games.messages import error_text
from tournament.models import ConsoleContact, Game, GameEvent

JSON = "application/json"
EVENTS = simulate("tournament-pl", "classic-pl", 4, seed=1, rounds=1)["events"]
ROLL_OUT_OF_TURN = {"type": "roll", "player": "B", "dice": [1, 2]}  # A plays first
STALE = "Another device changed the game meanwhile: this move was not applied."


def table_of(tournament, number=1):
    return tournament.round_set.get(number=1).tables.get(number=number)


def started(tournament, referee):
    """The tournament's first round seated and started, ``referee`` at every table."""
    round_ = rounds.seat_next_round(tournament)
    for table in round_.tables.all():
        table.referees.set([referee])
    rounds.start_round(round_)
    return round_


@pytest.fixture
def game(referee):
    """A table's game, not yet moved: its referee enters its moves."""
    t = make_tournament(4, name="Cup", rounds=2, game_rounds=1, seed=3)
    started(t, referee)
    return start_game(table_of(t), referee)


def phone(user, language="en") -> Client:
    c = Client(HTTP_ACCEPT_LANGUAGE=language)
    c.force_login(user)
    return c


def send(client, game, events, *, version, key="dev0.k1", waiting=1, **more):
    body = {"client_key": key, "version": version, "events": events, "waiting": waiting, **more}
    return client.post(reverse("console_sync", args=[game.pk]), json.dumps(body), content_type=JSON)


def stored(game):
    """What a refused request must leave as it was: the game's moves, its version, the phones' contacts."""
    game = Game.objects.get(pk=game.pk)
    moves = list(game.events.values_list("seq", "data", "client_key"))
    return moves, game.version, list(ConsoleContact.objects.values_list("device", "waiting", "seen_at"))


# -- moves applied ---------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_move_is_applied_and_answered_with_the_version_and_its_number(referee, game):
    response = send(phone(referee), game, [EVENTS[0]], version=game.version)
    assert response.status_code == 200
    assert response.json() == {"ok": True, "version": game.version + 1, "seq": 1, "duplicate": False}
    (row,) = game.events.all()
    assert (row.seq, row.data, row.client_key, row.entered_by) == (1, EVENTS[0], "dev0.k1", referee)


@pytest.mark.django_db
def test_the_same_request_again_is_a_duplicate_stored_once(referee, game):
    client = phone(referee)
    first = send(client, game, EVENTS[:2], version=game.version)  # one tap of two moves: seq 1 and 2
    assert first.json() == {"ok": True, "version": game.version + 1, "seq": 2, "duplicate": False}
    again = send(client, game, EVENTS[:2], version=game.version)  # its answer was lost: sent again
    assert again.status_code == 200
    assert again.json() == {"ok": True, "version": game.version + 1, "seq": 2, "duplicate": True}
    assert list(game.events.values_list("seq", "client_key")) == [(1, "dev0.k1"), (2, "dev0.k1+1")]


REUSED = {
    "en": "This request's key was already used for another move: this move was not applied.",
    "pl": "Klucz tego żądania był już użyty dla innego ruchu: ten ruch nie został wpisany.",
}


@pytest.mark.django_db
@pytest.mark.postgres  # (the unique key refused in a transaction: PostgreSQL aborts it, SQLite does not)
@pytest.mark.parametrize("language", ["en", "pl"])
def test_a_key_used_again_for_another_move_at_the_current_version_is_refused_not_failed(
    referee, game, language
):
    client = phone(referee, language)
    assert send(client, game, EVENTS[:1], version=game.version, key="dev0.same").status_code == 200
    game.refresh_from_db()
    before = stored(game)
    answer = send(client, game, EVENTS[1:2], version=game.version, key="dev0.same")  # the next move, old key
    assert answer.status_code == 409
    assert answer.json() == {"ok": False, "why": "reused", "message": REUSED[language]}
    assert stored(game)[:2] == before[:2]  # nothing stored: never claimed taken


@pytest.mark.django_db
def test_a_key_used_again_for_another_move_at_an_older_version_is_not_answered_as_taken(referee, game):
    client = phone(referee)
    version = game.version
    assert send(client, game, EVENTS[:2], version=version, key="dev0.same").status_code == 200
    before = stored(game)
    for other in (EVENTS[:1], [EVENTS[0], {**EVENTS[1], "player": "C"}], EVENTS[:3]):
        answer = send(client, game, other, version=version, key="dev0.same")  # not what that key entered
        assert answer.status_code == 409 and answer.json()["why"] == "reused", other
    assert stored(game)[:2] == before[:2]
    again = send(client, game, EVENTS[:2], version=version, key="dev0.same")  # the same request: a resend
    assert again.json()["ok"] and again.json()["duplicate"]


@pytest.mark.django_db
def test_moves_in_order_each_on_the_version_the_last_made(referee, game):
    client = phone(referee)
    v = game.version
    answers = [
        send(client, game, [event], version=v + i, key=f"dev0.k{i}", waiting=3 - i).json()
        for i, event in enumerate(EVENTS[:3])
    ]
    assert answers == [{"ok": True, "version": v + i + 1, "seq": i + 1, "duplicate": False} for i in range(3)]
    assert [e.data for e in game.events.order_by("seq")] == EVENTS[:3]
    game.refresh_from_db()
    assert recording.current_state(game).events == 3


# -- moves refused ---------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_stale_move_is_refused_saying_what_the_other_device_did(referee, game):
    seen = seen_mark(game)  # the phone's panel, before it went offline
    version = game.version
    recording.submit(game.pk, EVENTS[0], version=version, user=referee)  # the other device, meanwhile
    game.refresh_from_db()
    before = stored(game)
    response = send(phone(referee), game, [EVENTS[0]], version=version, key="dev0.late", seen=seen)
    assert response.status_code == 409
    answer = response.json()
    assert answer["ok"] is False and answer["why"] == "stale" and answer["version"] == game.version
    assert answer["message"].startswith(STALE)
    assert "The other device entered: #1" in answer["message"]  # the roll, told as in the log
    assert game.players.get(pid="A").name in answer["message"]
    assert stored(game)[:2] == before[:2]  # no move stored
    # without the mark of what the phone had seen, it is said plainly
    plain = send(phone(referee), game, [EVENTS[0]], version=version, key="dev0.late2").json()
    assert plain["message"] == STALE


@pytest.mark.django_db
def test_a_move_the_rules_refuse_is_answered_in_the_users_language(referee, game):
    state = recording.current_state(game)
    with pytest.raises(RulesError) as refusal:
        apply(state, ROLL_OUT_OF_TURN)
    before = stored(game)
    said = {}
    for language in ("en", "pl"):
        response = send(phone(referee, language), game, [ROLL_OUT_OF_TURN], version=game.version)
        assert response.status_code == 422
        with translation.override(language):
            expected = error_text(refusal.value)
        assert response.json() == {"ok": False, "why": "refused", "message": expected}
        said[language] = response.json()["message"]
    a, b = (game.players.get(pid=pid).name for pid in ("A", "B"))
    assert said["pl"] == f"Teraz rzuca {a}, a nie {b}."  # the Polish catalogue's words, not the English
    assert said["en"] != said["pl"]
    assert stored(game)[:2] == before[:2]


@pytest.mark.django_db
def test_events_the_rules_do_not_know_are_refused_not_failed(referee, game):
    client = phone(referee)
    for events in (
        [{"type": 5}],
        [{"type": "roll", "player": "A", "dice": "xx"}],
        [{"type": "roll", "player": "A", "dice": [1, 10**30]}],
        [{"type": "roll", "player": ["A"], "dice": [1, 2]}],
        [{"type": "buy"}],
        [{}],
    ):
        response = send(client, game, events, version=game.version)
        assert response.status_code == 422, events
        assert response.json()["why"] == "refused"
    assert not game.events.exists()


@pytest.mark.django_db
def test_a_closed_game_is_refused_as_closed(referee):
    t = make_tournament(4, name="Cup", rounds=2, game_rounds=1, seed=3)
    started(t, referee)
    table = table_of(t)
    game = start_game(table, referee)
    for event in simulate("tournament-pl", "classic-pl", 4, seed=7, rounds=1)["events"]:
        game = recording.submit(game.pk, event, version=game.version).game
    results.confirm(table, referee)
    before = stored(game)
    response = send(phone(referee), game, [{"type": "time_up"}], version=game.version)
    assert response.status_code == 409
    answer = response.json()
    assert (answer["ok"], answer["why"]) == (False, "closed")
    assert "This table's result is confirmed" in answer["message"]
    assert stored(game)[:2] == before[:2]


#: Bodies the outbox never sends (an object's fields: see ``body``).
HOSTILE = {
    "not JSON": b"not json",
    "a list": b"[1]",
    "a string": b'"text"',
    "empty": b"",
    "not UTF-8": b"\xff\xfe",
    "NaN": b'{"client_key": "dev0.k", "version": NaN, "events": [{"type": "time_up"}], "waiting": 1}',
    "1e400": b'{"client_key": "dev0.k", "version": 1e400, "events": [{"type": "time_up"}], "waiting": 1}',
    "nested": b'{"events": ' + b"[" * 5000 + b"]" * 5000 + b"}",
    "1 MB": json.dumps({"client_key": "dev0.k", "padding": "x" * 1_000_000}).encode(),
}
SPOILED = {
    "version as text": {"version": "7"},
    "version true": {"version": True},
    "version negative": {"version": -1},
    "version a float": {"version": 1.0},
    "version too large": {"version": 2**40},
    "no version": {"version": None},
    "events an object": {"events": {}},
    "no events": {"events": []},
    "events of numbers": {"events": [1]},
    "events of lists": {"events": [[]]},
    "10,000 events": {"events": [{"type": "roll"}] * 10_000},
    "one event too many": {"events": [{}] * (sync.MAX_EVENTS + 1)},
    "the director's stop": {"events": [{"type": "time_up", "now": True}]},
    "client key of 500": {"client_key": "k" * 500},
    "client key with a batch's mark": {"client_key": "dev0.k+1"},
    "client key empty": {"client_key": "  "},
    "client key a number": {"client_key": 5},
    "no client key": {"client_key": None},
    "a NUL": {"client_key": "dev0.\x00"},
    "a NUL in an event": {"events": [{"type": "roll", "player": "A\x00", "dice": [1, 2]}]},
    "waiting -1": {"waiting": -1},
    "waiting as text": {"waiting": "1"},
    "no waiting": {"waiting": None},
    "seen a number": {"seen": 5},
}


def body(spoil: dict, game) -> bytes:
    fields = {"client_key": "dev0.k", "version": game.version, "events": [EVENTS[0]], "waiting": 1}
    fields.update(spoil)
    return json.dumps({k: v for k, v in fields.items() if v is not None}).encode()


@pytest.mark.postgres
@pytest.mark.django_db
@pytest.mark.parametrize("name", [*HOSTILE, *SPOILED])
def test_a_hostile_body_is_refused_as_malformed_and_nothing_is_stored(referee, game, name):
    before = stored(game)
    raw = HOSTILE[name] if name in HOSTILE else body(SPOILED[name], game)
    response = phone(referee).post(reverse("console_sync", args=[game.pk]), raw, content_type=JSON)
    assert response.status_code == 400, response.content
    answer = response.json()
    assert (answer["ok"], answer["why"]) == (False, "malformed")
    assert answer["message"].startswith("The phone's request was damaged and not applied: ")
    assert stored(game) == before


@pytest.mark.django_db
def test_the_refusals_of_a_hostile_body_say_what_is_wrong(referee, game):
    def said(raw):
        response = phone(referee).post(reverse("console_sync", args=[game.pk]), raw, content_type=JSON)
        return response.json()["message"].removeprefix("The phone's request was damaged and not applied: ")

    assert said(HOSTILE["1 MB"]) == "it is larger than 64 KB."
    assert said(HOSTILE["a list"]) == "it is not a JSON object."
    assert said(body(SPOILED["version as text"], game)) == "“version” is missing or is not a whole number."
    assert said(body(SPOILED["one event too many"], game)) == "“events” is not a list of 1 to 82 moves."
    assert said(body(SPOILED["client key of 500"], game)) == "“client_key” is missing or is not valid."
    # a form's body, not JSON
    response = phone(referee).post(reverse("console_sync", args=[game.pk]), {"client_key": "dev0.k"})
    assert response.status_code == 400 and response.json()["message"].endswith("it is not a JSON object.")


@pytest.mark.django_db
def test_who_may_not_enter_the_games_moves_is_refused_and_nothing_is_stored(referee, game):
    stranger = User.objects.create_user("stranger", password="pw")
    before = stored(game)
    response = send(phone(stranger), game, [EVENTS[0]], version=game.version)
    assert response.status_code == 403
    assert response.json() == {
        "ok": False,
        "why": "forbidden",
        "message": "Only the referees of this table and the tournament director may enter moves.",
    }
    response = send(Client(), game, [EVENTS[0]], version=game.version)  # logged out: no redirect to log in
    assert response.status_code == 403 and response.json()["why"] == "login"
    response = phone(stranger).post(reverse("console_contact", args=[game.pk]), '{"waiting": 1}', JSON)
    assert response.status_code == 403 and response.json()["why"] == "forbidden"
    missing = phone(referee).post(reverse("console_sync", args=[game.pk + 1000]), body({}, game), JSON)
    assert missing.status_code == 404 and missing.json()["why"] == "not_found"
    asked = phone(referee).get(reverse("console_sync", args=[game.pk]))
    assert asked.status_code == 405 and asked.json()["ok"] is False
    assert stored(game) == before


@pytest.mark.django_db
def test_the_move_needs_the_pages_csrf_token(referee, game):
    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(referee)
    client.get(reverse("console", args=[game.pk]))  # the console page: its token in the cookie
    url = reverse("console_sync", args=[game.pk])
    refused = client.post(url, body({}, game), content_type=JSON)
    assert refused.status_code == 403 and not game.events.exists()
    token = client.cookies["csrftoken"].value
    taken = client.post(url, body({}, game), content_type=JSON, HTTP_X_CSRFTOKEN=token)
    assert taken.status_code == 200 and game.events.count() == 1
    contact = reverse("console_contact", args=[game.pk])
    assert client.post(contact, '{"waiting": 0}', content_type=JSON).status_code == 403
    taken = client.post(contact, '{"waiting": 0}', content_type=JSON, HTTP_X_CSRFTOKEN=token)
    assert taken.status_code == 204


# -- the phone's contact ---------------------------------------------------------------------------------


def contacts(game):
    return dict(ConsoleContact.objects.filter(game=game).values_list("device", "waiting"))


@pytest.mark.django_db
def test_a_phone_heard_again_soon_saying_the_same_is_not_written_again(
    referee, game, monkeypatch, django_capture_on_commit_callbacks
):
    """A referee flat out sends a move a second: his phone's contact is written when what it says changes
    (the moves waiting) or once ``FRESH`` has passed, not at every move (what was written is remembered once
    its transaction commits)."""
    from tournament.models import console_contacts

    a = phone(referee)
    url = reverse("console_contact", args=[game.pk])

    def heard(waiting):
        with django_capture_on_commit_callbacks(execute=True):
            assert a.post(url, json.dumps({"waiting": waiting}), content_type=JSON).status_code == 204
        return ConsoleContact.objects.get().seen_at

    first = heard(0)
    assert heard(0) == first  # the same, said again at once: not written
    changed = heard(2)
    assert changed > first and contacts(game) == {a.session[SESSION_KEY]: 2}  # what it says changed
    monkeypatch.setattr(console_contacts, "FRESH", timedelta(0))
    assert heard(2) > changed  # the same once FRESH has passed: written


@pytest.mark.django_db
def test_the_contact_is_kept_one_row_a_device(referee, game):
    a, b = phone(referee), phone(referee)
    url = reverse("console_contact", args=[game.pk])
    assert a.post(url, '{"waiting": 3}', content_type=JSON).status_code == 204
    device_a = a.session[SESSION_KEY]
    first = ConsoleContact.objects.get().seen_at
    assert contacts(game) == {device_a: 3}
    assert a.post(url, '{"waiting": 0}', content_type=JSON).status_code == 204
    assert contacts(game) == {device_a: 0} and ConsoleContact.objects.get().seen_at >= first
    assert b.post(url, '{"waiting": 2}', content_type=JSON).status_code == 204
    assert contacts(game) == {device_a: 0, b.session[SESSION_KEY]: 2}
    for hostile in ('{"waiting": -1}', '{"waiting": "2"}', "{}", "[]", "x"):
        response = a.post(url, hostile, content_type=JSON)
        assert response.status_code == 400 and response.json()["why"] == "malformed"
    assert contacts(game) == {device_a: 0, b.session[SESSION_KEY]: 2}
    game.delete()
    assert not ConsoleContact.objects.exists()  # removed with its game


@pytest.mark.django_db
def test_a_sync_keeps_the_contact_one_move_fewer_when_taken(referee, game):
    client = phone(referee)
    send(client, game, [EVENTS[0]], version=game.version, waiting=4)
    device = client.session[SESSION_KEY]
    assert contacts(game) == {device: 3}
    send(client, game, [ROLL_OUT_OF_TURN], version=game.version + 1, key="dev0.k2", waiting=3)
    assert contacts(game) == {device: 3}  # refused: still on the phone
    send(client, game, [EVENTS[1]], version=game.version + 1, key="dev0.k3", waiting=1)
    assert contacts(game) == {device: 0}
    send(client, game, [EVENTS[1]], version=game.version + 1, key="dev0.k3", waiting=0)  # never below 0
    assert contacts(game) == {device: 0}


# -- two phones at once ----------------------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_same_request_from_two_threads_at_once_is_stored_once(referee, game):
    a, b = phone(referee), phone(referee)
    version = game.version
    answers = at_once(*(lambda c=c: send(c, game, EVENTS[:2], version=version, waiting=2) for c in (a, b)))
    assert [r.status_code for r in answers] == [200, 200]
    bodies = sorted((r.json() for r in answers), key=lambda j: j["duplicate"])
    assert bodies == [
        {"ok": True, "version": version + 1, "seq": 2, "duplicate": False},
        {"ok": True, "version": version + 1, "seq": 2, "duplicate": True},
    ]
    assert list(game.events.values_list("seq", flat=True)) == [1, 2]
    assert sorted(contacts(game).values()) == [1, 1]  # each phone's contact, one row each


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_moves_on_one_version_at_once_apply_one_and_refuse_the_other_as_stale(referee, game):
    version = game.version
    moves = [(EVENTS[0], "dev0.a"), ({**EVENTS[0], "dice": [1, 2]}, "dev1.b")]
    answers = at_once(
        *(lambda m=m, k=k: send(phone(referee), game, [m], version=version, key=k) for m, k in moves)
    )
    assert sorted(r.status_code for r in answers) == [200, 409]
    assert game.events.count() == 1


# -- the director's round page ---------------------------------------------------------------------------


def summary(response) -> str:
    """The round page's "who waits for what", as read."""
    html = response.content.decode().split('id="waiting-live"')[1].split("</section>")[0]
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


@pytest.mark.django_db
def test_the_round_page_names_the_tables_whose_moves_wait_on_a_phone_and_the_silent_phones(
    client, director, referee
):
    t = make_tournament(16, name="Cup", rounds=2, game_rounds=3, table_size=4, seed=5, created_by=director)
    started(t, referee)
    games = {n: start_game(table_of(t, n), referee) for n in (1, 2, 3, 4)}
    for g in games.values():
        recording.submit(g.pk, EVENTS[0], version=g.version, user=referee)
    now = timezone.now()
    long_ago = now - timedelta(minutes=10)
    at = timezone.localtime(now - timedelta(seconds=30))

    def contact(number, waiting, seen_at, device="d1"):
        ConsoleContact.objects.create(game=games[number], device=device, waiting=waiting, seen_at=seen_at)

    GameEvent.objects.filter(game__in=[games[1], games[2]]).update(entered_at=long_ago)
    contact(1, 3, now - timedelta(seconds=30))  # table 1: moves waiting on two phones
    contact(1, 1, now - timedelta(minutes=5), device="d2")
    contact(2, 0, long_ago)  # table 2: silent, its last move long ago too
    contact(3, 0, long_ago)  # table 3: its phone reported long ago, but a move came in just now
    contact(4, 0, now)  # table 4: heard of just now
    client.force_login(director)
    said = summary(client.get(reverse("round", args=[t.pk, 1])))
    assert f"Table 1: 4 moves waiting on the referee's phone (last contact {at:%H:%M})" in said
    assert f"Table 2: no contact from the referee's phone since {timezone.localtime(long_ago):%H:%M}" in said
    assert "Table 3:" not in said and "Table 4:" not in said
    ConsoleContact.objects.filter(game=games[1], device="d2").update(waiting=0)
    ConsoleContact.objects.filter(game=games[1], device="d1").update(waiting=1)
    said = summary(client.get(reverse("round", args=[t.pk, 1])))
    assert f"Table 1: 1 move waiting on the referee's phone (last contact {at:%H:%M})" in said
    # a phone given up half an hour ago (its session ended): its moves no longer counted; the table silent
    ConsoleContact.objects.filter(game=games[1]).update(seen_at=now - timedelta(minutes=40), waiting=2)
    GameEvent.objects.filter(game=games[1]).update(entered_at=now - timedelta(minutes=40))
    said = summary(client.get(reverse("round", args=[t.pk, 1])))
    assert "Table 1: 2 moves waiting" not in said
    assert "Table 1: no contact from the referee's phone since" in said


# -- the undo of the last move, the dice corrected, the position for a phone without its rules ---------------


def take_back(client, game, *, version, key="dev0.u1", **how):
    body = {"client_key": key, "version": version, "waiting": 1, **how}
    return client.post(reverse("console_sync", args=[game.pk]), json.dumps(body), content_type=JSON)


def device_key(client, n="k") -> str:
    """A request key of ``client``'s device (its console page made the device's token)."""
    return f"{client.session[SESSION_KEY]}.{n}"


@pytest.mark.django_db
def test_this_devices_move_is_undone_in_one_tap_and_another_devices_with_a_reason_typed(referee, game):
    mine, other = phone(referee), phone(referee)
    for c in (mine, other):
        c.get(reverse("console", args=[game.pk]))
    roll = next(e for e in EVENTS if e["type"] == "roll")
    assert send(mine, game, [roll], version=game.version, key=device_key(mine, "m1")).status_code == 200
    refused = take_back(
        other, game, version=game.version + 1, kind="undo", quick="tap", key=device_key(other)
    )
    assert refused.status_code == 422 and "entered on another device" in refused.json()["message"]
    done = take_back(
        mine, game, version=game.version + 1, kind="undo", quick="tap", key=device_key(mine, "u")
    )
    assert done.json() == {"ok": True, "version": game.version + 2}
    again = take_back(
        mine, game, version=game.version + 1, kind="undo", quick="tap", key=device_key(mine, "u")
    )
    assert again.json()["ok"] and GameEvent.objects.get(game=game).status == "undone"  # resent: once
    assert GameEvent.objects.get(game=game).reason == "wrong tap"
    send(mine, game, [roll], version=game.version + 2, key=device_key(mine, "m2"))
    typed = take_back(
        other, game, version=game.version + 3, kind="undo", reason="misread", key=device_key(other, "t")
    )
    assert typed.json()["ok"] and game.events.get(seq=2).reason == "misread"
    # the key of that undo again, on the game as it is now: another undo, not a resend of that one
    send(mine, game, [roll], version=game.version + 4, key=device_key(mine, "m3"))
    reused = take_back(
        other, game, version=game.version + 5, kind="undo", reason="misread", key=device_key(other, "t")
    )
    assert reused.status_code == 409 and reused.json()["why"] == "reused"
    assert game.events.get(seq=3).status == "active"


@pytest.mark.django_db
def test_the_dice_of_this_devices_roll_are_corrected_in_one_request(referee, game):
    client = phone(referee)
    client.get(reverse("console", args=[game.pk]))
    roll = next(e for e in EVENTS if e["type"] == "roll")
    send(client, game, [{**roll, "dice": [1, 2]}], version=game.version, key=device_key(client, "r"))
    done = take_back(
        client, game, version=game.version + 1, kind="dice", dice=[3, 4], key=device_key(client, "d")
    )
    assert done.json() == {"ok": True, "version": game.version + 2, "seq": 2, "wrong": 1, "duplicate": False}
    assert [(e.status, e.data["dice"]) for e in game.events.order_by("seq")] == [
        ("undone", [1, 2]),
        ("active", [3, 4]),
    ]
    again = take_back(
        client, game, version=game.version + 1, kind="dice", dice=[3, 4], key=device_key(client, "d")
    )
    assert again.json()["duplicate"]  # the same correction resent
    other = take_back(
        client, game, version=game.version + 1, kind="dice", dice=[5, 6], key=device_key(client, "d")
    )
    assert other.status_code == 409 and other.json()["why"] == "reused"  # not taken for the 3-4 one


@pytest.mark.parametrize(
    "how",
    [
        {"kind": "undo"},
        {"kind": "undo", "quick": "nonsense"},
        {"kind": "undo", "quick": "tap", "reason": "both"},
        {"kind": "undo", "reason": 7},
        {"kind": "dice", "dice": [0, 7]},
        {"kind": "dice", "dice": [1]},
        {"kind": "void"},
        {"kind": "move", "full": "yes", "events": [EVENTS[0]]},
    ],
)
@pytest.mark.django_db
def test_a_request_of_no_kind_the_outbox_sends_is_refused_and_changes_nothing(referee, game, how):
    client = phone(referee)
    send(client, game, [EVENTS[0]], version=game.version)
    before = stored(game)
    answer = take_back(client, game, version=game.version + 1, **how)
    assert answer.status_code in (400, 422), answer.content
    assert stored(game)[:2] == before[:2]


@pytest.mark.django_db
def test_a_phone_without_its_rules_gets_the_position_and_screen_after_its_move(referee, game):
    client = phone(referee)
    client.get(reverse("console", args=[game.pk]))
    answer = send(client, game, [EVENTS[0]], version=game.version, full=True).json()
    game.refresh_from_db()
    position = answer["position"]
    assert position["version"] == game.version and position["state"] == game.state
    assert position["screen"]["players"][0]["position"] == game.state["players"][0]["position"]
    assert [row["seq"] for row in position["log"]] == [1] and position["log"][0]["notes"]
    assert position["undo"] == {
        "seq": 1,
        "first": 1,
        "mine": False,
        "dice": False,
    }  # (dev0.k1: not this device's)


@pytest.mark.django_db
def test_the_position_and_screen_go_compressed_to_a_browser_that_accepts_it(referee, game):
    """What a phone is sent with the game's position (a move's answer with ``full``, a poll that finds a
    change) goes gzipped, as a browser asks; the same answer, a fraction of its bytes."""
    client = phone(referee)
    client.get(reverse("console", args=[game.pk]))
    url = reverse("console_sync", args=[game.pk])
    body = {"client_key": "dev0.k1", "version": 0, "events": [EVENTS[0]], "waiting": 1, "full": True}
    zipped = client.post(url, json.dumps(body), content_type=JSON, HTTP_ACCEPT_ENCODING="gzip, deflate")
    assert zipped["Content-Encoding"] == "gzip" and "Accept-Encoding" in zipped["Vary"]
    answer = gzip.decompress(zipped.content)
    game.refresh_from_db()
    assert json.loads(answer)["position"]["state"] == game.state and len(zipped.content) < len(answer) / 3
    state = reverse("console_state", args=[game.pk])
    polled = client.get(state, {"version": 0, "screen": "1"}, HTTP_ACCEPT_ENCODING="gzip")
    assert polled["Content-Encoding"] == "gzip" and json.loads(gzip.decompress(polled.content))["screen"]
    plain = client.get(state, {"version": 0, "screen": "1"})  # a client that does not ask for it: plain JSON
    assert "Content-Encoding" not in plain and plain.json()["screen"]


@pytest.mark.django_db
def test_the_state_is_asked_for_in_vain_while_nothing_changed(referee, game):
    client = phone(referee)
    url = reverse("console_state", args=[game.pk])
    assert client.get(url, {"version": game.version}).status_code == 204
    send(client, game, [EVENTS[0]], version=game.version)
    changed = client.get(url, {"version": game.version, "screen": "1"}).json()
    assert changed["version"] == game.version + 1 and "screen" in changed and changed["csrf"]
    assert "screen" not in client.get(url, {"version": game.version}).json()
