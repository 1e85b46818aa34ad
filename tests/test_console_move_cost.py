"""What a move costs the server, held: its queries and the panel's poll's, and the answer a move gets (built
from the state it just stored, not read back) equal to the panel read afresh from the database."""

import re
import uuid

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rules.simulate import simulate
from tests.console_posts import post_form
from tournament.console.devices import SESSION_KEY, key_start
from tournament.console.fragments import HIDDEN
from tournament.games import recording
from tournament.models import Game, Round, Table, Tournament

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
#: What differs from one answer to the next whatever the game: the CSRF token, the forms' request key, the
#: time the panel was made (in the forms, and in the state the panel gives the phone for an outage).
TOKENS = re.compile(
    r'(name="csrfmiddlewaretoken" value="|name="client_key" value="|seen=|name="seen" value="|"seen": "'
    r"|&quot;seen&quot;:&quot;)"
    r'[^"&]*'
)
#: A move's queries: the session and the user (Django's), the game read and locked (with whether this user
#: referees it: people.access.with_referee), the move stored, the game saved if its table is not closed (asked
#: in the UPDATE: recording._save_if_open), the panel's log; on PostgreSQL also the announcement to the event
#: streams (``SELECT pg_notify``: no table read, delivered at the commit: models/announcements.py).
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
    form = {"version": version, "client_key": device + uuid.uuid4().hex, **post_form(event)}
    return client.post(reverse("console_act", args=[game.pk]), form, **HX)


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
    assert response.status_code == 200 and b'class="error"' not in response.content
    announced = connection.vendor == "postgresql"
    assert len(sql(queries)) <= MOVE_QUERIES + announced, "\n".join(sql(queries))
    assert sum("pg_notify" in q for q in sql(queries)) == announced
    version = version_of(game)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("console_panel", args=[game.pk]), {"version": version}, **HX)
    assert response.status_code == 204
    assert len(sql(queries)) <= UNCHANGED_POLL_QUERIES, "\n".join(sql(queries))


@pytest.mark.parametrize(
    ("variant", "board", "players", "seed"),
    [
        ("classic", "classic-us", 6, 1),
        ("tournament-pl", "classic-pl", 4, 2),
        ("anti-monopoly", "anti-monopoly-us", 4, 3),
    ],
)
def test_a_moves_answer_is_the_panel_read_afresh(client, referee, variant, board, players, seed):
    """The answer shows the state the move stored, kept in memory, with the parts of the panel kept from the
    answers before (console/fragments.py): it must read as the state read back and rendered whole."""
    record = simulate(variant, board, players, seed=seed)
    game = table_game(referee, record)
    device = opened(client, referee, game)
    for event in record["events"][:80]:
        answer = move(client, game, device, event)
        assert answer.status_code == 200 and b'class="error"' not in answer.content, event
        version = version_of(game)
        cache.clear()  # nothing kept: every part rendered from the state read back
        afresh = client.get(reverse("console_panel", args=[game.pk]), {"version": version - 1}, **HX)
        assert HIDDEN not in answer.content.decode() and b'name="csrfmiddlewaretoken"' in answer.content
        assert TOKENS.sub(r"\1", answer.content.decode()) == TOKENS.sub(r"\1", afresh.content.decode()), event
