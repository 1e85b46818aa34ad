"""The environment the suite runs in: a pytest plugin loaded before Django (``-p tests.environment``).

- a secret key for the tests (the settings refuse to start without one when DEBUG is off), and static files
  under their plain names (the live server of the browser tests finds them by name; test_deployment checks
  the hashed names WhiteNoise serves when deployed);
- SQLite's test database in a file rather than shared memory, so that threads wait for its lock the way
  server processes do (the race tests); the file on a memory-backed file system where there is one
  (``/dev/shm``): nothing of a test's database is kept, so its commits need not wait for the disk;
- ``python -m pytest --postgres``: the tests marked ``postgres`` against a throw-away PostgreSQL server
  started here and stopped at the end (tests/pgserver.py), or against the server of ``DATABASE_URL`` when it
  is set: those that exercise what PostgreSQL changes — transactions and locks, races with real threads,
  constraints and bounds (a column's length, an integer's range), the order of a JSON object's keys,
  migrations, ``LISTEN``/``NOTIFY``, queries with engine-specific SQL. A test that only uses the ORM, a
  browser test that is not about PostgreSQL, a pure function run the same on both and run once, on SQLite;
  the summary at the end says how many were left to it. The SQLite run leaves out none, so every test runs
  in one of the two at least;
- ``python -m pytest --slow``: with the tests marked ``slow`` (skipped by default), e.g. a real run of the
  event-day load test;
- the tests that drive chromium are marked ``browser`` (those using the ``browser`` fixture):
  ``-m "not browser"`` leaves them out;
- the engine a browser test's phone kept, served to the process's next phones (tests/browser.py's
  ``Phones``), from a static folder of its own;
- Hypothesis's profiles (tests/fuzzing.py): ``--hypothesis-profile=quick`` or ``HYPOTHESIS_PROFILE=quick``.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import time

import pytest

import tests.fuzzing  # noqa: F401 (Hypothesis's profiles, registered before Hypothesis reads its options)

_server_key = pytest.StashKey[object]()
_tmp_key = pytest.StashKey[str]()
_left_to_sqlite_key = pytest.StashKey[int]()
_started_key = pytest.StashKey[float]()

#: Where the test databases' files are kept when it exists with room enough: in memory (Linux's tmpfs), not
#: on the disk. A container's may be as small as 64 MiB (then the disk, as everywhere else).
MEMORY = "/dev/shm"
MEMORY_ROOM = 1 << 30


def _roomy(path: str) -> bool:
    try:
        stat = os.statvfs(path)
    except OSError:
        return False
    return stat.f_bavail * stat.f_frsize >= MEMORY_ROOM and os.access(path, os.W_OK)


#: The environment variable naming this process's folder of the engine a browser test's phone keeps (served
#: at ``/static/tests-kept-engine/``).
KEPT_ENGINE = "TESTS_KEPT_ENGINE"

#: The fixtures through which pytest-django lets a test use the database (each of the first ones asks for
#: ``_django_db_helper``; ``live_server`` gets ``transactional_db`` by an autouse fixture of pytest-django).
DATABASE_FIXTURES = frozenset(
    {"_django_db_helper", "db", "transactional_db", "django_db_reset_sequences", "live_server"}
)


def pytest_addoption(parser):
    parser.addoption(
        "--postgres",
        action="store_true",
        help="run against a throw-away PostgreSQL server on 127.0.0.1 (or DATABASE_URL's server if set)",
    )
    parser.addoption(
        "--slow", action="store_true", help="also run the tests marked slow (a real load-test run, …)"
    )


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: a test of a minute or so: run with --slow only")
    config.addinivalue_line("markers", "browser: drives chromium (marked by itself: the browser fixture)")
    config.addinivalue_line(
        "markers",
        "postgres: exercises what PostgreSQL changes (locks, races, bounds, JSON order, migrations, NOTIFY):"
        " run by --postgres too",
    )


def uses_database(item) -> bool:
    """Whether pytest-django lets the test touch the database: a ``django_db`` marker, a fixture of
    :data:`DATABASE_FIXTURES` (the ones it is asked for through, however indirectly), or Django's own test
    case. Any other test that queries fails on SQLite already ("Database access not allowed")."""
    from django.test import TransactionTestCase

    cls = getattr(item, "cls", None)
    if cls is not None and issubclass(cls, TransactionTestCase):
        return True
    return item.get_closest_marker("django_db") is not None or not DATABASE_FIXTURES.isdisjoint(
        item.fixturenames
    )


def about_postgres(item) -> bool:
    """Whether the test exercises what PostgreSQL changes (marked ``postgres``); such a test uses the
    database (pytest-django lets it: :func:`uses_database`), else the mark is a mistake."""
    if item.get_closest_marker("postgres") is None:
        return False
    if not uses_database(item):
        raise pytest.UsageError(f"{item.nodeid} is marked postgres but uses no database")
    return True


@pytest.hookimpl(tryfirst=True)  # marked before ``-m`` selects by the marks
def pytest_collection_modifyitems(config, items):
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
    if config.getoption("--postgres"):
        kept, left = [], []
        for item in items:
            (kept if about_postgres(item) else left).append(item)
        if left:
            config.hook.pytest_deselected(items=left)
            items[:] = kept
            config.stash[_left_to_sqlite_key] = len(left)
            if hasattr(config, "workeroutput"):  # an xdist worker: the count goes to the controller
                config.workeroutput["left_to_sqlite"] = len(left)
    if not config.getoption("--slow"):
        skip = pytest.mark.skip(reason="slow: run with --slow")
        for item in items:
            if "slow" in item.keywords:
                item.add_marker(skip)


#: ``-n auto``'s workers a core: a worker waits for chromium, the live server and the database about as long
#: as it computes (with one a core the cores stood idle half the run: 10 min of CPU in 10 min on 2 cores), so
#: two a core keep them busy (on 2 cores the SQLite run took 7:33–9:09 with 4 workers, 10:03–11:04 with 2).
WORKERS_A_CORE = 2


@pytest.hookimpl(optionalhook=True, tryfirst=True)  # before xdist's own (a worker a core)
def pytest_xdist_auto_num_workers(config):
    """``-n auto`` (the suite's default): ``WORKERS_A_CORE`` workers for each core this process may use, or
    PYTEST_XDIST_AUTO_NUM_WORKERS when set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return int(os.environ["PYTEST_XDIST_AUTO_NUM_WORKERS"])
    return WORKERS_A_CORE * len(os.sched_getaffinity(0))


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """xdist's controller collects nothing: each worker says how many it left to the SQLite run."""
    left = getattr(node, "workeroutput", {}).get("left_to_sqlite", 0)
    node.config.stash[_left_to_sqlite_key] = max(left, node.config.stash.get(_left_to_sqlite_key, 0))


def pytest_terminal_summary(terminalreporter, config):
    left = config.stash.get(_left_to_sqlite_key, 0)
    if left and not hasattr(config, "workeroutput"):
        terminalreporter.write_line(
            f"{left} tests that exercise nothing PostgreSQL changes were left to the SQLite run"
            " (python -m pytest)"
        )


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args):
    os.environ.setdefault("DJANGO_SECRET_KEY", "tests-only-not-a-secret")
    os.environ.setdefault("DJANGO_HTTPS", "0")  # the test client speaks plain HTTP
    # Under pytest-xdist each worker runs this too: its own folder, so its own SQLite file; the PostgreSQL
    # server is started once, by the controller, whose DATABASE_URL the workers inherit (pytest-django gives
    # each worker a database of its own there).
    tmp = tempfile.mkdtemp(prefix="monopoly-tests-", dir=MEMORY if _roomy(MEMORY) else None)
    early_config.stash[_tmp_key] = tmp
    atexit.register(shutil.rmtree, tmp, ignore_errors=True)  # (pytest_unconfigure's, unless it never ran)
    os.environ["DB_TEST_NAME"] = os.path.join(tmp, "test.sqlite3")
    os.environ["DJANGO_STATIC_MANIFEST"] = "0"
    os.environ["DJANGO_STATIC_ROOT"] = os.path.join(tmp, "static")  # nothing collected there: found by name
    os.mkdir(os.environ["DJANGO_STATIC_ROOT"])
    os.environ[KEPT_ENGINE] = os.path.join(tmp, "kept-engine")  # served: pytest_sessionstart
    os.mkdir(os.environ[KEPT_ENGINE])
    if early_config.known_args_namespace.postgres and not os.environ.get("DATABASE_URL"):
        from tests.pgserver import Server

        server = Server().start()
        early_config.stash[_server_key] = server
        atexit.register(server.stop)  # also when pytest ends before pytest_unconfigure (a usage error)
        os.environ["DATABASE_URL"] = server.url()


def pytest_sessionstart(session):
    """The folder of the engine a phone keeps (tests/browser.py's Phones) among the static files,
    under ``tests-kept-engine/``: in the base settings, under any a test overrides."""
    from django.conf import settings

    session.config.stash[_started_key] = time.time()

    settings.STATICFILES_DIRS = [*settings.STATICFILES_DIRS, ("tests-kept-engine", os.environ[KEPT_ENGINE])]


def pytest_report_header(config):
    from django.conf import settings

    return f"database: {settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]}"


def pytest_sessionfinish(session):
    """The guides' screenshots made again by this run copied into docs/screens/ (by the run, not a worker),
    when every test passed: a test that failed after its screenshot may have shown a broken page."""
    if hasattr(session.config, "workerinput") or session.exitstatus != 0:
        return
    from tests import doc_screens

    doc_screens.refresh(session.config.stash.get(_started_key, time.time()))


def pytest_unconfigure(config):
    server = config.stash.get(_server_key, None)
    if server is not None:
        server.stop()
    tmp = config.stash.get(_tmp_key, None)
    if tmp:
        shutil.rmtree(tmp, ignore_errors=True)
