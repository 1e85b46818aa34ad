"""What a move costs the server, held: the queries of a move the phone's outbox sends (the phone computes the
screen: the server applies, stores and acknowledges) and of the console's poll when nothing changed."""

import json
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rules.simulate import simulate
from tournament.console.devices import SESSION_KEY, key_start
from tournament.games import recording
from tournament.models import Game, Round, Table, Tournament

pytestmark = pytest.mark.django_db
#: A move's queries: the session and the user (Django's), the game read and locked (with whether this user
#: referees it: people.access.with_referee), the move stored, the game saved if its table is not closed (asked
#: in the UPDATE: recording._save_if_open), the phone's contact kept (one upsert: models/console_contacts.py);
#: on PostgreSQL also the announcement to the event streams (``SELECT pg_notify``: no table read, delivered
#: at the commit: models/announcements.py).
MOVE_QUERIES = 6
#: A poll when nothing changed: the session, the user, the game's version (with whether he referees it).
UNCHANGED_POLL_QUERIES = 3


def table_game(referee, record) -> Game:
    """The record's game at a tournament's table, entered by its referee (not a director)."""
    t = Tournament.objects.create(name="Cost", variant=record["variant"], board=record["board"])
    round_ = Round.objects.create(tournament=t, number=1, status=Round.Status.RUNNING)
    table = Table.objects.create(round=round_, number=1)
    table.referees.add(referee)
    return recording.create_game(
        variant=record["variant"],
        board=record["board"],
        table=table,
        referees=[referee],
        options=record["options"],
        players=[
            {"name": p["name"], **({"role": p["role"]} if p.get("role") else {})} for p in record["players"]
        ],
    )


def opened(client, referee, game) -> str:
    """The console opened on ``client`` as ``referee``; the start of its device's request keys."""
    client.force_login(referee)
    client.get(reverse("console", args=[game.pk]))
    return key_start(client.session[SESSION_KEY])


def version_of(game) -> int:
    return Game.objects.values_list("version", flat=True).get(pk=game.pk)


def move(client, game, device, event, version=None):
    version = version_of(game) if version is None else version
    body = {"version": version, "client_key": device + uuid.uuid4().hex, "events": [event], "waiting": 1}
    return client.post(
        reverse("console_sync", args=[game.pk]), json.dumps(body), content_type="application/json"
    )


def sql(queries) -> list[str]:
    """The queries but the transactions' own statements (which differ between SQLite and PostgreSQL)."""
    skip = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK")
    return [q["sql"] for q in queries if not q["sql"].upper().startswith(skip)]


@pytest.mark.postgres
def test_a_move_and_an_unchanged_poll_ask_the_database_little(client, referee):
    record = simulate("classic", "classic-us", 4, seed=3)
    game = table_game(referee, record)
    device = opened(client, referee, game)
    for event in record["events"][:10]:
        assert move(client, game, device, event).status_code == 200
    version = version_of(game)
    with CaptureQueriesContext(connection) as queries:
        response = move(client, game, device, record["events"][10], version)
    assert response.status_code == 200 and response.json()["ok"]
    announced = connection.vendor == "postgresql"
    assert len(sql(queries)) <= MOVE_QUERIES + announced, "\n".join(sql(queries))
    assert sum("pg_notify" in q for q in sql(queries)) == announced
    version = version_of(game)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("console_state", args=[game.pk]), {"version": version})
    assert response.status_code == 204
    assert len(sql(queries)) <= UNCHANGED_POLL_QUERIES, "\n".join(sql(queries))


def test_a_moves_answer_is_small(client, referee):
    """What a move costs on the wire besides its request: a few dozen bytes (the phone draws the screen)."""
    record = simulate("tournament-pl", "classic-pl", 4, seed=2)
    game = table_game(referee, record)
    device = opened(client, referee, game)
    sizes = [len(move(client, game, device, event).content) for event in record["events"][:40]]
    assert max(sizes) < 120, sizes
