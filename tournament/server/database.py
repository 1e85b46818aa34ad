"""The database, chosen from the environment: PostgreSQL for an event day, SQLite as the zero-setup default.

- ``DATABASE_URL=postgres://user:password@host:5432/name`` (any URL ``dj-database-url`` reads), or
- ``DB=postgres`` with ``DB_NAME``, ``DB_USER``, ``DB_PASSWORD``, ``DB_HOST`` (default 127.0.0.1), ``DB_PORT``
  (default 5432); a ``DB_*`` part without ``DB=postgres``, or another ``DB``, is refused (not taken for
  SQLite), or
- SQLite (the default) in ``DJANGO_SQLITE_PATH`` or ``db.sqlite3`` in the directory the settings give (the
  checkout; for an installed copy, the directory it is run from).

SQLite is set up for several writers at once: write-ahead logging (readers never wait for a writer), every
transaction ``BEGIN IMMEDIATE`` (a writer takes the write lock when its transaction starts, so two
transactions cannot both read and then fail to upgrade: "database is locked"), and a busy timeout (a writer
waits its turn instead of failing). A move the referee saw accepted is on the disk: every commit is synced
(``synchronous=FULL``); ``DJANGO_SQLITE_SYNCHRONOUS=NORMAL`` trades that for a little speed (in WAL mode the
last commits before a power cut may then be lost, never the database).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

SQLITE_BUSY_TIMEOUT_S = 30
SQLITE_SYNCHRONOUS = ("FULL", "NORMAL")  # the first is the default: what is acknowledged is durable
CONN_MAX_AGE_S = 60
POSTGRES_NAMES = ("postgres", "postgresql")  # the values of DB
# A PostgreSQL database given part by part (with DB=postgres); DB_TEST_NAME is the tests' SQLite file.
POSTGRES_PARTS = ("DB_NAME", "DB_USER", "DB_PASSWORD", "DB_HOST", "DB_PORT", "DB_CONN_MAX_AGE")


def database_from_env(env: Mapping[str, str], base_dir: Path) -> dict:
    url = env.get("DATABASE_URL", "").strip()
    if url:
        import dj_database_url

        config = dj_database_url.parse(url, conn_max_age=CONN_MAX_AGE_S, conn_health_checks=True)
        if config["ENGINE"] == "django.db.backends.sqlite3":
            return sqlite(config["NAME"], env)
        return config
    if env.get("DB", "").strip().lower() in POSTGRES_NAMES:
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": env.get("DB_NAME", "monopoly"),
            "USER": env.get("DB_USER", ""),
            "PASSWORD": env.get("DB_PASSWORD", ""),
            "HOST": env.get("DB_HOST", "127.0.0.1"),
            "PORT": env.get("DB_PORT", "5432"),
            "CONN_MAX_AGE": int(env.get("DB_CONN_MAX_AGE", CONN_MAX_AGE_S)),
            "CONN_HEALTH_CHECKS": True,
        }
    refuse_stray_postgres_parts(env)
    return sqlite(sqlite_path(env, base_dir), env)


def sqlite_path(env: Mapping[str, str], base_dir: Path) -> str | Path:
    """SQLite's file when no other database is set: ``DJANGO_SQLITE_PATH`` as given, else ``db.sqlite3`` in
    ``base_dir`` (the app's data folder)."""
    return env.get("DJANGO_SQLITE_PATH") or base_dir / "db.sqlite3"


def refuse_stray_postgres_parts(env: Mapping[str, str]) -> None:
    """``DB`` other than postgres, or a ``DB_*`` part without ``DB=postgres``: a server meant for PostgreSQL
    would otherwise quietly keep its tournament in an SQLite file."""
    db = env.get("DB", "").strip()
    if db:
        raise ImproperlyConfigured(
            f"DB is {db!r}: the one value is postgres (with DB_NAME, DB_USER, ...); "
            "leave DB unset for SQLite, or set DATABASE_URL instead."
        )
    stray = [name for name in POSTGRES_PARTS if env.get(name, "").strip()]
    if stray:
        raise ImproperlyConfigured(
            f"{', '.join(stray)} set without DB=postgres: set DB=postgres to use PostgreSQL with them "
            "(or DATABASE_URL instead), or unset them for SQLite (DJANGO_SQLITE_PATH names its file)."
        )


def sqlite(name, env: Mapping[str, str]) -> dict:
    synchronous = env.get("DJANGO_SQLITE_SYNCHRONOUS", "").strip().upper() or SQLITE_SYNCHRONOUS[0]
    if synchronous not in SQLITE_SYNCHRONOUS:
        raise ImproperlyConfigured(
            f"DJANGO_SQLITE_SYNCHRONOUS is {synchronous!r}: it is one of {', '.join(SQLITE_SYNCHRONOUS)}."
        )
    config = {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": name,
        # each thread keeps its connection between requests: opening one and closing it (the last one of a
        # process checkpoints the WAL) cost more than a move itself (tests/bench_console.py)
        "CONN_MAX_AGE": CONN_MAX_AGE_S,
        "CONN_HEALTH_CHECKS": True,
        "OPTIONS": {
            "transaction_mode": "IMMEDIATE",
            "timeout": SQLITE_BUSY_TIMEOUT_S,
            "init_command": f"PRAGMA journal_mode=WAL; PRAGMA synchronous={synchronous}",
        },
    }
    if env.get("DB_TEST_NAME"):  # a file, not shared memory, for the tests: threads then wait like servers do
        config["TEST"] = {"NAME": env["DB_TEST_NAME"]}
    return config
