"""Safe defaults when the app is served: DEBUG off, a secret key required, `check --deploy` clean with the
README's production environment, yes/no settings that refuse a typo, static files served by WhiteNoise without
DEBUG, login throttling, and the error pages in the site's layout."""

import os
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ImproperlyConfigured
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation

from tournament.console import pyodide
from tournament.server.environment import env_bool, setting

ROOT = Path(__file__).resolve().parents[1]
# The README's production environment (section "Serving it on an event day").
PRODUCTION = {
    "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
    "DJANGO_ALLOWED_HOSTS": "monopoly.example.org",
    "DATABASE_URL": "postgres://monopoly:secret@127.0.0.1:5432/monopoly",
}


def django_process(code: str, env: dict, *args) -> subprocess.CompletedProcess:
    """Run Python with Django set up under the given environment (nothing inherited from the tests')."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "DB_"))}
    return subprocess.run(
        [sys.executable, *(["-c", code] if code else []), *args],
        cwd=ROOT,
        env={**base, "DJANGO_SETTINGS_MODULE": "tournament.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_without_a_secret_key_the_app_refuses_to_start(tmp_path):
    beside = {"DJANGO_SQLITE_PATH": str(tmp_path / "db.sqlite3")}  # (not the checkout's key: serve makes one)
    out = django_process("import django; django.setup()", beside)
    assert out.returncode != 0 and "DJANGO_SECRET_KEY is not set" in out.stderr and "serve" in out.stderr
    # the key serve made and kept beside the database is read (serve alone makes one)
    (tmp_path / "secret_key").write_text("k" * 60 + "\n")
    show = "import django; django.setup(); from django.conf import settings; print(settings.SECRET_KEY)"
    assert django_process(show, beside).stdout.strip() == "k" * 60


def test_debug_is_off_unless_asked_for():
    show = "import django; django.setup(); from django.conf import settings; print(settings.DEBUG)"
    assert django_process(show, {"DJANGO_SECRET_KEY": "x" * 50}).stdout.strip() == "False"
    assert django_process(show, {"DJANGO_DEBUG": "1"}).stdout.strip() == "True"  # development: no key needed


@pytest.mark.parametrize(
    ("value", "meant"),
    [("1", True), ("TRUE", True), ("Yes", True), (" on ", True)]
    + [("0", False), ("false", False), ("NO", False), ("off", False)],
)
def test_a_yes_no_setting_takes_the_usual_words_in_any_case(value, meant):
    assert env_bool("DJANGO_HTTPS", not meant, {"DJANGO_HTTPS": value}) is meant


def test_a_yes_no_setting_unset_or_empty_is_its_default():
    assert env_bool("DJANGO_HTTPS", True, {}) is True
    assert env_bool("DJANGO_HTTPS", False, {"DJANGO_HTTPS": ""}) is False


@pytest.mark.parametrize("value", ["ture", "2", "y", "enabled"])
def test_a_yes_no_setting_with_a_typo_is_refused_naming_the_variable_and_the_value(value):
    with pytest.raises(ImproperlyConfigured, match=f"DJANGO_HTTPS is '{value}'"):
        env_bool("DJANGO_HTTPS", True, {"DJANGO_HTTPS": value})


def test_the_app_refuses_to_start_with_a_typo_in_a_yes_no_setting():
    """DJANGO_HTTPS=ture once meant plain HTTP: secure cookies, HSTS and the redirect quietly off."""
    out = django_process("import django; django.setup()", {**PRODUCTION, "DJANGO_HTTPS": "ture"})
    assert out.returncode != 0 and "DJANGO_HTTPS is 'ture'" in out.stderr
    out = django_process("import django; django.setup()", {"DJANGO_DEBUG": "yes please"})
    assert out.returncode != 0 and "DJANGO_DEBUG is 'yes please'" in out.stderr


def test_a_number_setting_is_a_whole_number_of_one_or_more_unset_or_empty_its_default():
    assert setting("DJANGO_CONSOLE_POLL_SECONDS", env={"DJANGO_CONSOLE_POLL_SECONDS": " 3 "}) == 3
    assert setting("DJANGO_CONSOLE_POLL_SECONDS", env={}) == 10
    assert setting("DJANGO_CONSOLE_POLL_SECONDS", env={"DJANGO_CONSOLE_POLL_SECONDS": ""}) == 10


@pytest.mark.parametrize("value", ["0", "-1", "1.5", "10s", "1e3", "1_0", "²", "ten"])
def test_a_number_setting_otherwise_is_refused_naming_the_variable_and_the_value(value):
    with pytest.raises(ImproperlyConfigured, match=f"DJANGO_CONSOLE_POLL_SECONDS is '{value}'"):
        setting("DJANGO_CONSOLE_POLL_SECONDS", env={"DJANGO_CONSOLE_POLL_SECONDS": value})


def test_the_login_links_hours_are_read_as_the_other_numbers():
    out = django_process("import django; django.setup()", {**PRODUCTION, "LOGIN_LINK_HOURS": "1.5"})
    assert out.returncode != 0 and "LOGIN_LINK_HOURS is '1.5': it is a whole number, 1 or more." in out.stderr
    out = django_process("import django; django.setup()", {**PRODUCTION, "LOGIN_LINK_HOURS": "0"})
    assert out.returncode != 0 and "LOGIN_LINK_HOURS is '0'" in out.stderr


def test_a_db_part_without_db_postgres_stops_the_app():
    out = django_process("import django; django.setup()", {"DJANGO_SECRET_KEY": "x" * 50, "DB_NAME": "cup"})
    assert out.returncode != 0 and "DB_NAME set without DB=postgres" in out.stderr


def test_check_deploy_is_clean_with_the_production_environment(tmp_path):
    engine = Path(__file__).resolve().parents[1] / "static" / pyodide.folder_name()
    shutil.copytree(engine, tmp_path / pyodide.folder_name())  # the phones' engine, as collected
    env = {**PRODUCTION, "DJANGO_STATIC_ROOT": str(tmp_path)}
    out = django_process("", env, "manage.py", "check", "--deploy", "--fail-level", "WARNING")
    assert out.returncode == 0, out.stderr
    assert "no issues" in out.stdout


def test_the_database_comes_from_the_environment():
    show = (
        "import django; django.setup(); from django.conf import settings; d = settings.DATABASES['default']; "
        "print(d['ENGINE'], d['NAME'], d.get('HOST', ''), d.get('OPTIONS', {}).get('transaction_mode'))"
    )
    key = {"DJANGO_SECRET_KEY": "x" * 50}
    assert django_process(show, {**key, **PRODUCTION}).stdout.split() == [
        "django.db.backends.postgresql",
        "monopoly",
        "127.0.0.1",
        "None",
    ]
    pg = {**key, "DB": "postgres", "DB_NAME": "cup", "DB_HOST": "db.local"}
    assert django_process(show, pg).stdout.split()[:3] == ["django.db.backends.postgresql", "cup", "db.local"]
    engine, name, *rest = django_process(show, key).stdout.split()
    assert engine == "django.db.backends.sqlite3" and name.endswith("db.sqlite3") and rest == ["IMMEDIATE"]


def test_sqlite_is_set_up_for_many_writers(db):
    from django.db import connection

    if connection.vendor != "sqlite":
        pytest.skip("SQLite only")
    with connection.cursor() as c:
        c.execute("PRAGMA journal_mode")
        assert c.fetchone()[0] == "wal"
        c.execute("PRAGMA busy_timeout")
        assert c.fetchone()[0] >= 10_000


def test_static_files_are_served_without_debug(tmp_path):
    """collectstatic, then the app itself (WhiteNoise) serves the hashed, compressed files: no web server
    needs to be configured for them."""
    env = {**PRODUCTION, "DJANGO_STATIC_ROOT": str(tmp_path), "DJANGO_HTTPS": "0"}
    env["DJANGO_ALLOWED_HOSTS"] = "testserver"
    collect = django_process("", env, "manage.py", "collectstatic", "--noinput", "-v", "0")
    assert collect.returncode == 0, collect.stderr
    code = (
        "import django; django.setup()\n"
        "from django.templatetags.static import static\n"
        "from django.test import Client\n"
        "url = static('console/clocks.js')\n"
        "r = Client().get(url, HTTP_ACCEPT_ENCODING='gzip')\n"
        "h = r.headers\n"
        "print(url, r.status_code, h.get('Cache-Control'), h.get('Content-Encoding'), sep='|')\n"
    )
    out = django_process(code, env)
    url, status, cache, encoding = out.stdout.strip().split("|")
    assert url.startswith("/static/console/clocks.") and url != "/static/console/clocks.js"  # hashed
    assert status == "200" and "max-age=315360000" in cache and encoding == "gzip"


@pytest.mark.django_db
def test_wrong_passwords_lock_out_that_account_from_that_address_only(client, settings):
    User.objects.create_user("ref1", password="right-password")
    User.objects.create_user("ref2", password="right-password")
    url = reverse("login")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert client.post(url, {"username": "ref1", "password": "wrong"}).status_code == 200
    assert client.post(url, {"username": "ref1", "password": "wrong"}).status_code == 429  # the 5th
    locked = client.post(url, {"username": "ref1", "password": "right-password"})
    assert locked.status_code == 429 and "Too many wrong passwords" in locked.content.decode()
    assert "10 minutes" in locked.content.decode()
    # another referee at the same venue (same address) is not locked out
    assert client.post(url, {"username": "ref2", "password": "right-password"}).status_code == 302


@pytest.mark.django_db
def test_error_pages_have_the_site_layout_and_a_way_back(client):
    missing = client.get("/no-such-page/")
    assert missing.status_code == 404
    for text in ("Page not found", 'class="topbar"', reverse("home")):
        assert text in missing.content.decode()
    client.force_login(User.objects.create_user("ref", password="pw"))
    forbidden = client.get(reverse("tournament_new"))
    assert forbidden.status_code == 403
    assert "Only the tournament director may do this." in forbidden.content.decode()
    assert 'class="topbar"' in forbidden.content.decode()
    strict = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="en")
    expired = strict.post(reverse("login"), {"username": "x", "password": "y"})
    assert expired.status_code == 403 and "The form has expired" in expired.content.decode()


def test_the_server_error_page_needs_nothing_from_the_request():
    from django.views.defaults import server_error

    with translation.override("en"):  # the site's default language is Polish
        page = server_error(RequestFactory().get("/")).content.decode()
    assert "Something went wrong" in page and "Moves already confirmed" in page


@pytest.mark.django_db
def test_error_pages_speak_polish(client):
    page = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert "Nie znaleziono strony" in page


def test_cross_origin_opener_policy_only_where_a_browser_reads_it():
    """A browser ignores the header from an address on plain HTTP, logging an error on every page: not sent
    there (a venue network served with DJANGO_HTTPS=0); behind HTTPS it is."""
    show = "import django; django.setup(); from django.conf import settings;"
    show += " print(settings.SECURE_CROSS_ORIGIN_OPENER_POLICY)"
    key = {"DJANGO_SECRET_KEY": "x" * 50}
    assert django_process(show, key).stdout.strip() == "same-origin"
    assert django_process(show, {**key, "DJANGO_HTTPS": "0"}).stdout.strip() == "None"


@pytest.mark.parametrize(
    ("name", "value", "minimum"),
    [
        ("LOGIN_FAILURE_LIMIT", "5x", 1),
        ("LOGIN_COOLOFF_MINUTES", "0", 1),
        ("BACKUP_MAX_BYTES", "64MB", 1),
        ("SQLITE_IMPORT_QUIET_MINUTES", "-1", 0),
        ("DJANGO_HSTS_SECONDS", "1y", 0),
    ],
)
def test_every_number_setting_refuses_a_typo_naming_the_variable(name, value, minimum):
    """The number settings serving.md lists stop the app naming the variable and the value (they were read
    with a bare int(): a traceback naming neither)."""
    out = django_process("import django; django.setup()", {**PRODUCTION, name: value})
    said = f"{name} is '{value}': it is a whole number, {minimum} or more."
    assert out.returncode != 0 and said in out.stderr, out.stderr[-500:]


def test_a_setting_that_may_be_zero_takes_zero():
    assert setting("SQLITE_IMPORT_QUIET_MINUTES", env={"SQLITE_IMPORT_QUIET_MINUTES": "0"}) == 0
    assert setting("DJANGO_HSTS_SECONDS", env={}) == 31536000
