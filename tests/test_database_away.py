"""The database away (tournament/server/database_away.py): SQLite's disk full, PostgreSQL restarting. A page
gets a 503 in the user's language saying nothing was changed and to tap again (not the generic 500); the
phone's outbox gets it in JSON (it keeps the move: static/console/outbox.js sends it again); nothing of the
write is stored; once the database is back, the same request goes through. Any other fault is still the 500
page."""

import json

import psycopg
import pytest
from django.contrib.auth.models import User
from django.db import OperationalError, connection
from django.test import Client
from django.urls import reverse

from tournament.games import recording
from tournament.models import GameEvent

PLAYERS = [{"name": "Anna"}, {"name": "Bartek"}]
ROLL = {"type": "roll", "player": "A", "dice": [1, 2]}
AWAY = {
    "en": "The database is not answering just now: nothing was changed. Tap again in a moment.",
    "pl": "Baza danych nie odpowiada w tej chwili: nic nie zostało zmienione. Stuknij ponownie za chwilę.",
}


@pytest.fixture
def referee(db):
    return User.objects.create_user("ref", password="pw")


@pytest.fixture
def game(referee):
    return recording.create_game(
        name="Table 1", variant="classic", board="classic-us", referees=[referee], players=PLAYERS
    )


def phone(user, language) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language, raise_request_exception=False)  # as a server answers
    client.force_login(user)
    return client


def sync(client, game, key="dev.k1"):
    body = {"client_key": key, "version": game.version, "events": [ROLL], "waiting": 1}
    return client.post(
        reverse("console_sync", args=[game.pk]), json.dumps(body), content_type="application/json"
    )


def disk_full_on_writes(execute, sql, params, many, context):
    if sql.lstrip().upper().startswith(("INSERT", "UPDATE")):
        raise OperationalError("database or disk is full")
    return execute(sql, params, many, context)


def nothing_answers(execute, sql, params, many, context):
    raise OperationalError("unable to open database file")


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "pl"])
def test_a_move_sent_while_the_disk_is_full_is_answered_503_kept_by_the_phone_and_taken_after(
    referee, game, language
):
    client = phone(referee, language)
    with connection.execute_wrapper(disk_full_on_writes):
        answer = sync(client, game)
    assert answer.status_code == 503 and answer["Retry-After"] == "5"
    assert answer.json() == {"ok": False, "why": "unavailable", "message": AWAY[language]}
    assert not GameEvent.objects.exists()  # nothing of the write stored
    again = sync(client, game)  # the outbox sends it again, the disk freed
    assert again.status_code == 200 and again.json()["ok"] and GameEvent.objects.count() == 1


@pytest.mark.django_db
def test_a_page_read_while_the_database_is_away_says_so_in_the_users_language(referee, game):
    client = phone(referee, "pl")
    with connection.execute_wrapper(nothing_answers):
        page = client.get(reverse("console", args=[game.pk]))
    assert page.status_code == 503 and page["Retry-After"] == "5"
    text = page.content.decode()
    assert "Baza danych nie odpowiada" in text and AWAY["pl"] in text and '<html lang="pl">' in text
    assert client.get(reverse("console", args=[game.pk])).status_code == 200  # back: as ever


@pytest.mark.django_db
def test_any_other_fault_is_still_the_500_page(referee, game, monkeypatch):
    from tournament.console import views

    def broken(*args, **kwargs):
        raise ValueError("a fault of the app")

    monkeypatch.setattr(views, "position", broken)
    page = phone(referee, "en").get(reverse("console_state", args=[game.pk]))
    assert page.status_code == 500 and "Something went wrong" in page.content.decode()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_postgresql_restarting_answers_503_then_the_next_request_reconnects(referee, game):
    """A restart ends every connection: the next query of each fails (OperationalError), and Django opens a
    new connection for the next request."""
    if connection.vendor != "postgresql":
        pytest.skip("a PostgreSQL server's restart (python -m pytest --postgres)")
    client = phone(referee, "en")
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    settings = connection.settings_dict
    other = psycopg.connect(
        dbname=settings["NAME"],
        user=settings["USER"],
        password=settings["PASSWORD"],
        host=settings["HOST"],
        port=settings["PORT"] or 5432,
        autocommit=True,
    )
    with other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    answer = sync(client, game)
    assert answer.status_code == 503 and answer.json()["why"] == "unavailable"
    connection.close()  # (the test client keeps the request's connection: a server closes an unusable one)
    assert not GameEvent.objects.exists()
    assert sync(client, game).json()["ok"] and GameEvent.objects.count() == 1
