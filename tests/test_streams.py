"""The event streams (tournament/streams): what each topic's token follows; the stream's answer under WSGI
(once, then the browser asks again); and under ASGI, served by uvicorn as in production, a move reaching an
open stream, the stream resumed from its Last-Event-ID, and its subscription gone with the browser. On
PostgreSQL the move reaches the stream by the writer's announcement (NOTIFY), the periodic read set too slow
to carry it."""

from __future__ import annotations

import asyncio
import http.client
import json
import time

import pytest
from django.contrib.auth.models import User
from django.db import connection

from rules.simulate import simulate
from tests.tournaments import make_tournament, play_table
from tournament.event import check_in, results, rounds, signatures
from tournament.games import recording
from tournament.models import Seat
from tournament.streams import hub, topics

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]  # on PostgreSQL too


def started_round(n=4, **fields):
    t = make_tournament(n, rounds=2, table_size=4, **fields)
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    return t, round_, round_.tables.order_by("number").first()


def started_game(table, user):
    order = [s.participant_id for s in table.seats.all()]
    return rounds.start_table_game(table, order, user=user)


def token(topic):
    return topics.read([topic])[topic]["token"]


def a_move(game):
    """The game's next move of a simulated record of it, stored as the console stores it."""
    t = game.table.round.tournament
    record = simulate(t.variant, t.board, game.players.count(), seed=game.pk, rounds=t.game_rounds)
    done = game.next_seq - 1
    return recording.submit(game.pk, record["events"][done], version=game.version).game


# --- what a token follows ---


def test_a_tables_token_moves_with_each_move_and_tells_the_version_and_sequence_number():
    t, _, table = started_round()
    game = started_game(table, User.objects.create_user("ref"))
    before = topics.read([("table", table.pk)])[("table", table.pk)]
    assert token(("table", table.pk)) == before["token"]  # read again, nothing changed: the same
    game = a_move(game)
    after = topics.read([("table", table.pk)])[("table", table.pk)]
    assert after["token"] != before["token"]
    assert (after["game"], after["version"], after["seq"]) == (game.pk, game.version, game.next_seq - 1)
    assert token(("tournament", t.pk)) == token(("tournament", t.pk))


def test_a_tables_token_moves_with_a_signature_and_a_result():
    t, _, table = started_round(signatures_required=False)
    referee = User.objects.create_user("ref")
    game = play_table(table, referee)
    before = token(("table", table.pk))
    player = table.seats.first().participant
    signatures.sign(player, table, agrees=True, reason="", version=game.version)
    signed = token(("table", table.pk))
    assert signed != before
    results.confirm(table, referee)
    assert token(("table", table.pk)) != signed


def test_a_tournaments_token_moves_with_the_seating_a_seat_moved_a_check_in_and_the_standings():
    t = make_tournament(8, rounds=2, table_size=4, check_in=True)
    topic = ("tournament", t.pk)
    seen = [token(topic)]
    check_in.check_in(t.participants.first())
    seen.append(token(topic))
    check_in.check_in_everyone(t, User.objects.create_user("director"))
    seen.append(token(topic))
    round_ = rounds.seat_next_round(t)
    seen.append(token(topic))
    seat = Seat.objects.filter(table__round=round_).order_by("pk").first()
    Seat.objects.filter(pk=seat.pk).update(order=seat.order + 10)  # an update, no signal: read all the same
    seen.append(token(topic))
    p = t.participants.last()
    p.name = "Renamed"
    p.save()
    seen.append(token(topic))
    assert len(set(seen)) == len(seen), seen


def test_the_round_pages_topic_sums_the_moves_of_every_table():
    t, round_, table = started_round(8)
    referee = User.objects.create_user("ref")
    before = token(("play", t.pk))
    other = round_.tables.exclude(pk=table.pk).get()
    a_move(started_game(other, referee))
    assert token(("play", t.pk)) != before


def test_a_stream_id_names_each_topic_and_tells_which_changed():
    t, _, table = started_round()
    followed = [("tournament", t.pk), ("table", table.pk)]
    shown = topics.read(followed)
    last = topics.stream_id(shown, followed)
    assert last.startswith(f"table{table.pk}=") and f",tournament{t.pk}=" in last
    assert topics.changed_since(last, shown, followed) == []
    assert topics.changed_since("", shown, followed) == sorted(followed)
    game = a_move(started_game(table, User.objects.create_user("ref")))
    assert game.version
    assert topics.changed_since(last, topics.read(followed), followed) == [("table", table.pk)]
    assert topics.changed_since("garbage,=,x=y", shown, followed) == sorted(followed)


# --- under WSGI: once, then the browser asks again ---


def events_of(text: str) -> list[dict]:
    found = []
    for block in text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and line[0] != ":")
        if "data" in fields:
            found.append({"id": fields.get("id"), "event": fields.get("event"), **json.loads(fields["data"])})
    return found


def test_under_wsgi_the_stream_answers_once_what_changed_since_its_last_event(client, settings):
    settings.PARTICIPANT_POLL_SECONDS = 7
    t, _, table = started_round()
    address = f"/tournaments/{t.pk}/events/?table={table.pk}"
    answer = client.get(address)
    assert answer.status_code == 200 and answer["Content-Type"] == "text/event-stream"
    assert answer["Cache-Control"] == "no-cache"
    text = b"".join(answer.streaming_content).decode()
    assert text.startswith("retry: 7000\n\n")
    [first] = events_of(text)
    assert first["event"] == "change" and set(first["changed"]) == {f"table{table.pk}", f"tournament{t.pk}"}
    again = b"".join(client.get(address, headers={"Last-Event-ID": first["id"]}).streaming_content).decode()
    assert events_of(again) == []  # nothing changed since
    game = a_move(started_game(table, User.objects.create_user("ref")))
    after = events_of(
        b"".join(client.get(address, headers={"Last-Event-ID": first["id"]}).streaming_content).decode()
    )
    assert [(e["changed"], e["version"], e["seq"]) for e in after] == [
        ([f"table{table.pk}"], game.version, 1)
    ]


@pytest.mark.parametrize(
    "address",
    [
        "/tables/999999/events/",
        "/tournaments/999999/events/",
        "/tournaments/{t}/events/?table={other}",
        "/tournaments/{t}/events/?table=x",
        "/tournaments/{t}/events/?table=-1",
        "/tournaments/{t}/events/?table=²",
        "/tournaments/{t}/events/?table=" + "9" * 5000,
    ],
)
def test_a_stream_of_nothing_or_of_another_tournaments_table_is_a_404(client, address):
    t, _, _ = started_round()
    _, _, other = started_round()
    assert client.get(address.format(t=t.pk, other=other.pk)).status_code == 404


# --- under ASGI: uvicorn, as in production ---


class Stream:
    """An open event stream read line by line, as a browser's EventSource reads it."""

    def __init__(self, port: int, path: str, last: str | None = None):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
        self.connection.request("GET", path, headers={"Last-Event-ID": last} if last else {})
        self.response = self.connection.getresponse()
        assert self.response.status == 200

    def next_event(self) -> dict:
        block = []
        while True:
            line = self.response.fp.readline().decode()
            if line == "":
                raise EOFError
            if line == "\n":
                found = events_of("\n".join(block))
                if found:
                    return found[0]
                block = []
            else:
                block.append(line.rstrip("\n"))

    def close(self):
        self.connection.close()


def hubs_topics() -> set:
    return {topic for h in list(hub._hubs.values()) for topic in h.by_topic}


def test_under_asgi_a_move_reaches_the_open_stream_and_a_dropped_stream_resumes(asgi_server, settings):
    settings.STREAM_CHECK_SECONDS = (
        30 if settings.DATABASES["default"]["ENGINE"].endswith("postgresql") else 0.2
    )
    _, port = asgi_server
    t, _, table = started_round()
    game = started_game(table, User.objects.create_user("ref"))
    path = f"/tournaments/{t.pk}/events/?table={table.pk}"
    stream = Stream(port, path)
    first = stream.next_event()  # no Last-Event-ID: all it follows
    assert first["version"] == game.version
    [one] = [h for h in hub._hubs.values() if ("table", table.pk) in h.by_topic]
    periodic = one.periodic_reads
    game = a_move(game)
    moved = stream.next_event()
    assert (moved["changed"], moved["version"], moved["seq"]) == ([f"table{table.pk}"], game.version, 1)
    if connection.vendor == "postgresql":  # announced: no periodic read (30 s apart) brought it
        assert one.periodic_reads == periodic
    stream.close()
    deadline = time.monotonic() + 5
    while ("table", table.pk) in hubs_topics() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert ("table", table.pk) not in hubs_topics()  # the browser gone, its subscription too
    game = a_move(game)  # while no stream is open
    resumed = Stream(port, path, last=moved["id"])
    missed = resumed.next_event()
    assert (missed["changed"], missed["version"], missed["seq"]) == ([f"table{table.pk}"], game.version, 2)
    resumed.close()


def test_under_asgi_many_streams_of_one_table_are_read_once_a_change(asgi_server, settings):
    settings.STREAM_CHECK_SECONDS = 0.2
    _, port = asgi_server
    t, _, table = started_round()
    game = started_game(table, User.objects.create_user("ref"))
    streams = [Stream(port, f"/tables/{table.pk}/events/") for _ in range(20)]
    assert {s.next_event()["version"] for s in streams} == {game.version}
    [one] = [h for h in hub._hubs.values() if ("table", table.pk) in h.by_topic]
    assert len(one.by_topic[("table", table.pk)]) == 20  # twenty streams, one topic
    reads, periodic = one.reads, one.periodic_reads
    game = a_move(game)
    assert {s.next_event()["version"] for s in streams} == {game.version}
    # the move read once for the twenty, never once a stream: at its announcement (PostgreSQL), by the
    # period's read, which reads every topic once however many streams hold it, or (a loaded machine) by the
    # read the twenty subscriptions left due, which may run after the move; several periods may pass too
    assert (one.reads - one.periodic_reads) - (reads - periodic) <= 1
    for s in streams:
        s.close()


# --- the hub's reads ---


def test_a_hub_kept_awake_by_announcements_still_reads_every_topic_once_a_period(monkeypatch, settings):
    """A busy server's moves announce all the time: the topics whose writes announce nothing (a seat moved,
    a referee changed) are read all the same, once every STREAM_CHECK_SECONDS."""
    settings.STREAM_CHECK_SECONDS = 0.3
    read = []

    def counted(wanted):
        read.append(set(wanted))
        return {topic: {"token": "same"} for topic in wanted}

    monkeypatch.setattr(hub, "_read", counted)

    async def busy():
        here = hub.Hub()
        here.subscribe(frozenset({("tournament", 1), ("table", 2)}))
        for _ in range(40):  # a move at table 2 every 50 ms for 2 s
            here.announced("table:2")
            await asyncio.sleep(0.05)
        for task in here._tasks:
            task.cancel()

    asyncio.run(busy())
    whole = [r for r in read if ("tournament", 1) in r]
    assert len(whole) >= 4, read  # 2 s at 0.3 s: some 6 whole reads, not one
    assert any(r == {("table", 2)} for r in read)  # the announcements read their table alone


def test_a_stream_cancelled_as_an_event_comes_ends_and_lets_its_topic_go(monkeypatch):
    """The browser gone (Django cancels the response) in the very step an event for it is ready: the stream
    ends and unsubscribes (asyncio.wait_for on Python 3.11 could lose that cancel: the stream ran on for ever,
    its topics read for nobody)."""
    topic = ("table", 12)
    monkeypatch.setattr(hub, "_read", lambda wanted: {t: {"token": "1", "version": 1} for t in wanted})

    async def gone():
        sent = []

        async def response():  # what Django's ASGI handler does with a streaming response
            async for part in hub.stream(frozenset({topic}), ""):
                sent.append(part)

        task = asyncio.create_task(response())
        await asyncio.sleep(0.3)  # its retry and its first event
        here = hub.hub()
        for subscription in here.by_topic[topic]:
            subscription.changed.set()  # an event for it ...
        await asyncio.sleep(0)
        task.cancel()  # ... as the phone goes
        await asyncio.sleep(0.2)
        for each in here._tasks:
            each.cancel()
        return task.done(), topic in here.by_topic, sent

    done, still, sent = asyncio.run(gone())
    assert len(sent) == 2 and done and not still
