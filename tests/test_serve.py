"""``serve``: the event served for real by one command (tournament/management/commands/serve.py), and what it
needs before Django starts (tournament/server/serving.py)."""

from __future__ import annotations

import http.client
import os
import re
import signal
import stat
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from tests.processes import first_answer, free_port, killed, shell, started
from tests.threads import at_once, writes_held_together
from tournament.server import serving
from tournament.server.database import sqlite_path

ROOT = Path(__file__).resolve().parents[1]


def test_serve_alone_is_prepared_as_on_the_day_whatever_the_shell_says():
    env = {"DJANGO_DEBUG": "1"}
    serving.prepare(["manage.py", "migrate"], env)
    assert env == {"DJANGO_DEBUG": "1"}
    serving.prepare(["manage.py", "serve", "--port", "8001"], env)
    assert env == {
        "DJANGO_DEBUG": "0",
        "DJANGO_SERVE_HOST": "0.0.0.0",
        "DJANGO_HTTPS": "0",
        "DJANGO_ALLOWED_HOSTS": "*",
        "DJANGO_SERVE": "1",
    }
    over_https = {"DJANGO_HTTPS": "0"}  # left in the shell: --https says otherwise
    serving.prepare(["manage.py", "serve", "--host=10.0.0.7", "--https"], over_https)
    assert (over_https["DJANGO_HTTPS"], over_https["DJANGO_HSTS_SECONDS"]) == ("1", "0")  # no HSTS pinned
    assert over_https["DJANGO_SERVE_HOST"] == "10.0.0.7"
    abbreviated = {}
    serving.prepare(["manage.py", "serve", "--http"], abbreviated)  # not --https: serve refuses it (below)
    assert abbreviated["DJANGO_HTTPS"] == "0"
    told = {"DJANGO_HTTPS": "1", "DJANGO_ALLOWED_HOSTS": "tournament.example.org"}
    serving.prepare(["monopoly-tournament", "serve"], told)
    assert (told["DJANGO_HTTPS"], told["DJANGO_ALLOWED_HOSTS"]) == ("1", "tournament.example.org")


def test_the_secret_key_is_made_once_kept_from_others_and_read_again(tmp_path):
    assert serving.kept_key(tmp_path, make=False) == "" and not (tmp_path / serving.KEY_FILE).exists()
    key = serving.kept_key(tmp_path, make=True)
    assert len(key) >= 50
    assert stat.S_IMODE((tmp_path / serving.KEY_FILE).stat().st_mode) == 0o600
    assert serving.kept_key(tmp_path, make=True) == key == serving.kept_key(tmp_path, make=False)
    # kept beside SQLite's file (settings.py), wherever DJANGO_SQLITE_PATH puts it
    kept = {"DJANGO_SQLITE_PATH": "/srv/event/db.sqlite3"}
    assert Path(sqlite_path(kept, tmp_path)).parent == Path("/srv/event")
    assert Path(sqlite_path({}, tmp_path)).parent == tmp_path


def test_two_processes_starting_at_once_make_one_key(tmp_path, monkeypatch):
    writes_held_together(monkeypatch, serving, 4)
    keys = at_once(*[lambda: serving.kept_key(tmp_path, make=True)] * 4)
    assert len(set(keys)) == 1 and keys[0]


def test_the_address_as_a_qr_code_in_the_terminal():
    lines = serving.terminal_qr("http://192.168.1.20:8000/").splitlines()
    # version 2 at level M: 25 modules and a quiet zone of 2 each side, two rows a line
    assert {len(line) for line in lines} == {29} and len(lines) == 15
    assert lines[0] == lines[-1] == "█" * 29  # the quiet zone: light
    assert lines[1].startswith("██ ▄▄▄▄▄ █") and lines[1].endswith("█ ▄▄▄▄▄ ██")  # the finder patterns


def get(host: str, port: int, path: str, *, timeout: float = 60) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    conn.request("GET", path, headers={"Accept-Language": "en"})
    return conn.getresponse()


@pytest.fixture
def served(tmp_path):
    """``manage.py serve`` with two workers on a free port, its database and static files in ``tmp_path``,
    started as from a shell where DJANGO_DEBUG=1 was left set (the README's development line)."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "DB"))}
    env |= {
        "DJANGO_DEBUG": "1",
        "DJANGO_SQLITE_PATH": str(tmp_path / "db.sqlite3"),
        "DJANGO_STATIC_ROOT": str(tmp_path / "static"),
        "PYTHONUNBUFFERED": "1",
    }
    log = tmp_path / "serve.log"
    proc = started(
        [sys.executable, "manage.py", "serve", "--port", str(port), "--workers", "2"], log, cwd=ROOT, env=env
    )
    try:
        yield proc, port, env, log
    finally:
        killed(proc)


def test_an_abbreviated_option_is_refused_rather_than_read_differently_by_settings_and_serve(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "DB"))}
    env["DJANGO_SQLITE_PATH"] = str(tmp_path / "db.sqlite3")
    argv = [sys.executable, "manage.py", "serve", "--http", "--port", str(free_port())]
    out = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode != 0 and "unrecognized arguments: --http" in out.stderr, out.stderr


def test_serve_serves_pages_static_files_and_streams_to_the_network_then_stops_on_ctrl_c(served):
    proc, port, env, log = served
    first_answer(proc, f"http://127.0.0.1:{port}/login/", log, within=120)
    printed = log.read_text()
    addresses = serving.lan_addresses()
    for a in addresses:
        assert f"http://{a}:{port}/" in printed
    host = addresses[0] if addresses else "127.0.0.1"  # as a phone on the venue's network reaches it
    page = get(host, port, "/login/")
    body = page.read().decode()
    assert page.status == 200 and page.getheader("Server") is None
    css = re.search(r'href="(/static/[^"]+\.css)"', body).group(1)
    assert re.search(r"\.[0-9a-f]{12}\.css$", css), css  # collected, with hashed names: cached for good
    style = get(host, port, css)
    assert style.status == 200 and "immutable" in style.getheader("Cache-Control") and style.read()
    missing = get(host, port, "/no-such-page/")
    assert missing.status == 404 and "Technical" not in missing.read().decode()  # DEBUG off

    # Another command reads the key serve made (nothing to set), and makes a tournament whose stream is held.
    code = "from tournament.models import Tournament; print(Tournament.objects.create(name='T').pk)"
    made = shell({k: v for k, v in env.items() if k != "DJANGO_DEBUG"}, code)
    stream = get(host, port, f"/tournaments/{made}/events/?follow=standings")
    assert stream.status == 200 and stream.getheader("Content-Type").startswith("text/event-stream")
    assert stream.readline()  # its first event's first line: the stream is open

    os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C in its terminal
    assert proc.wait(timeout=120) == 0, log.read_text()
    said = log.read_text()
    assert "GET /login/" not in said and "Traceback" not in said  # no access log: a private link has a key
    # uvicorn's lines as the app's: each with its time, in the app's time zone (Warsaw), not the machine's
    started = re.search(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),\d+ INFO uvicorn.error: Started", said, re.M)
    assert started, said
    at = datetime.strptime(started.group(1), "%Y-%m-%d %H:%M:%S").replace(tzinfo=ZoneInfo("Europe/Warsaw"))
    assert abs(datetime.now(UTC) - at) < timedelta(minutes=10), (started.group(1), datetime.now(UTC))


def test_the_readmes_first_command_serves_the_demo_tournament(tmp_path):
    """``serve --demo`` (the README's first command): the demo tournament loaded before serving, its director
    and referees able to log in with the password the README gives, the page answering; Ctrl-C stops it."""
    from tournament.management.commands.demo import NAME

    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "DB"))}
    env |= {
        "DJANGO_SQLITE_PATH": str(tmp_path / "db.sqlite3"),
        "DJANGO_STATIC_ROOT": str(tmp_path / "static"),
        "PYTHONUNBUFFERED": "1",
    }
    log = tmp_path / "serve.log"
    argv = [sys.executable, "manage.py", "serve", "--demo", "--port", str(port), "--workers", "1"]
    proc = started(argv, log, cwd=ROOT, env=env)
    try:
        first_answer(proc, f"http://127.0.0.1:{port}/login/", log, within=120)
        home = get("127.0.0.1", port, "/")
        assert home.status == 200 and NAME in home.read().decode()
        code = (
            "from django.contrib.auth.models import User; "
            "print(all(User.objects.get(username=u).check_password('demo') "
            "for u in ('director', 'referee1', 'referee2')))"
        )
        assert shell(env, code) == "True"
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C in its terminal
        assert proc.wait(timeout=120) == 0, log.read_text()
    finally:
        killed(proc)
