"""The database settings read from the environment (tournament/server/database.py): what an acknowledged move
is worth on SQLite, and which variables choose the database."""

from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from tournament.server.database import database_from_env


def test_a_commit_on_sqlite_is_synced_to_the_disk_by_default(db):
    """WAL with synchronous=FULL: a move the referee saw accepted survives a power cut (NORMAL could lose
    the last commits)."""
    from django.db import connection

    if connection.vendor != "sqlite":
        pytest.skip("SQLite only")
    with connection.cursor() as c:
        c.execute("PRAGMA synchronous")
        assert c.fetchone()[0] == 2  # FULL


def test_the_trade_for_speed_is_asked_for_by_name():
    config = database_from_env({"DJANGO_SQLITE_SYNCHRONOUS": "normal"}, Path("/tmp"))
    assert "PRAGMA synchronous=NORMAL" in config["OPTIONS"]["init_command"]
    assert "PRAGMA synchronous=FULL" in database_from_env({}, Path("/tmp"))["OPTIONS"]["init_command"]
    with pytest.raises(ImproperlyConfigured, match="DJANGO_SQLITE_SYNCHRONOUS"):
        database_from_env({"DJANGO_SQLITE_SYNCHRONOUS": "OFF"}, Path("/tmp"))


@pytest.mark.parametrize(
    "env",
    [
        {"DB_NAME": "cup"},
        {"DB_HOST": "db.local", "DB_USER": "monopoly"},
        {"DB_PORT": "5433"},
        {"DB_CONN_MAX_AGE": "0"},
    ],
)
def test_a_postgres_part_without_db_postgres_is_refused_not_taken_for_sqlite(env):
    """DB_NAME alone once named SQLite's file: a server meant for PostgreSQL kept its tournament beside it."""
    with pytest.raises(ImproperlyConfigured, match=f"{next(iter(env))}.*without DB=postgres"):
        database_from_env(env, Path("/tmp"))


@pytest.mark.parametrize("db", ["postgress", "sqlite", "pg"])
def test_db_other_than_postgres_is_refused(db):
    with pytest.raises(ImproperlyConfigured, match=f"DB is '{db}'"):
        database_from_env({"DB": db, "DB_NAME": "cup"}, Path("/tmp"))


def test_the_postgres_parts_with_db_postgres_or_a_url_are_taken():
    config = database_from_env({"DB": "PostgreSQL", "DB_NAME": "cup", "DB_PORT": "5433"}, Path("/tmp"))
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["NAME"], config["PORT"]) == ("cup", "5433")
    url = {"DATABASE_URL": "postgres://u:p@h:5432/monopoly", "DB_NAME": "ignored"}
    assert database_from_env(url, Path("/tmp"))["NAME"] == "monopoly"


def test_sqlite_file_is_named_by_its_own_variable_only():
    assert database_from_env({}, Path("/srv/cup"))["NAME"] == Path("/srv/cup/db.sqlite3")
    named = database_from_env({"DJANGO_SQLITE_PATH": "/srv/x.sqlite3"}, Path("/tmp"))
    assert named["NAME"] == "/srv/x.sqlite3"
    with_tests_file = database_from_env({"DB_TEST_NAME": "/tmp/t.sqlite3"}, Path("/tmp"))  # the tests' own
    assert with_tests_file["TEST"] == {"NAME": "/tmp/t.sqlite3"}
