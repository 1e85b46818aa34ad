"""The database settings read from the environment (tournament/database.py): what an acknowledged move is
worth on SQLite."""

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
