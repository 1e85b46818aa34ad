"""Fixtures every test may ask for: fast password hashing, the stored boards kept apart, an English test
client, and the two accounts most tests act as (signed in on the client by tests/accounts.py where a module
wants)."""

import pytest

# the shared helpers assert as the tests do, with pytest's account of what differed (those below, plugins, are
# rewritten as such)
pytest.register_assert_rewrite(
    "tests.tournaments", "tests.support", "tests.processes", "tests.console_bot", "tests.pages"
)

#: The helper modules whose fixtures any test may ask for, without importing them: the browser tests'
#: Chromium and phones (``browser``, ``chromium_type``, ``game_and_referee``), the PDF tests' tournament.
pytest_plugins = ["tests.browser", "tests.pdf_pages"]


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _missing_template_variables_fail(settings):
    """The suite runs with --fail-on-template-vars (pyproject.toml): its marker in ``string_if_invalid`` is
    not a string, which Django's system check (run by a command such as ``replay``) would refuse."""
    settings.SILENCED_SYSTEM_CHECKS = [*settings.SILENCED_SYSTEM_CHECKS, "templates.E002"]


@pytest.fixture(autouse=True)
def _imports_beside_the_games(settings):
    """Tests import backups right after playing moves: the SQLite guard has its own test."""
    settings.SQLITE_IMPORT_QUIET_MINUTES = 0


@pytest.fixture(autouse=True)
def _english():
    """Every test starts in English (the site's default is Polish), whichever test ran before it in its
    process: a request leaves its language active in the thread, and under xdist the tests before are not
    the same from run to run. A test speaks Polish with ``translation.override("pl")`` or a Polish client."""
    from django.utils import translation

    with translation.override("en"):
        yield


@pytest.fixture
def client(client):
    """Django's test client speaking English unless a test chooses another language."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


@pytest.fixture
def quick_poll(settings):
    """The console asks for another device's moves every second instead of every 10 (CONSOLE_POLL_SECONDS),
    for a browser test that waits for the next poll. Not for every browser test: some keep a stale screen on
    purpose, and a poll would bring it up to date."""
    settings.CONSOLE_POLL_SECONDS = 1


@pytest.fixture
def quick_pages(settings):
    """The projector turns its page every 5 seconds instead of 12 (PROJECTOR_PAGE_SECONDS), for a browser
    test that waits for the page to turn."""
    settings.PROJECTOR_PAGE_SECONDS = 5
    return settings.PROJECTOR_PAGE_SECONDS


@pytest.fixture
def asgi_server():
    """The app served by uvicorn, as production serves the event streams (tournament/asgi.py), on a free port
    in a thread of this process (this test's database; static files from the finders, as the live server):
    ``(server, port)``. Its hub's database connection closed after it, and no other kept meanwhile
    (``without_kept_connections``)."""
    import socket
    import threading
    import time

    import uvicorn
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from django.db import connections

    kept = {alias: connections.settings[alias]["CONN_MAX_AGE"] for alias in connections.settings}
    from tournament.asgi import application, without_kept_connections  # (the first import: without them)
    from tournament.streams import hub

    without_kept_connections()  # the tests after this one keep theirs again
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    served = ASGIStaticFilesHandler(application)
    config = uvicorn.Config(served, log_level="warning", lifespan="off", timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    yield server, sock.getsockname()[1]
    server.should_exit = True
    thread.join(10)
    hub.close_all()
    for alias, age in kept.items():
        connections.settings[alias]["CONN_MAX_AGE"] = age


@pytest.fixture
def referee(db):
    """A referee's account, "ref" (password "pw"), in no group and not signed in."""
    from django.contrib.auth.models import User

    return User.objects.create_user("ref", password="pw")


@pytest.fixture
def director(db):
    """A director's account, "director" (password "pw"): staff, which lets it run any tournament; not signed
    in."""
    from django.contrib.auth.models import User

    return User.objects.create_user("director", password="pw", is_staff=True)


def _without_blocked_database(ask, nothing):
    """``ask`` (a query of the stored boards), answering ``nothing`` in a test that may not use the database
    (pytest-django refuses the query there)."""

    def call(*args):
        try:
            return ask(*args)
        except RuntimeError as e:
            if "Database access not allowed" not in str(e):
                raise
            return nothing

    return call


@pytest.fixture(autouse=True)
def _stored_boards():
    """The rules ask the stored board editions (tournament.boards.editions) for a board that is not shipped: a
    test
    without the database sees the shipped boards only, and no test sees a board registered by another."""
    from rules.board import set_board_loader
    from tournament.boards import editions

    previous = set_board_loader(
        _without_blocked_database(editions.stored_board, None),
        _without_blocked_database(editions.stored_board_ids, []),
        _without_blocked_database(editions.stored_board_version, None),
    )
    yield
    if previous is None:
        set_board_loader(None)
    else:
        set_board_loader(*previous)
