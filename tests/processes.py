"""Servers in processes of their own, for the tests that serve the app for real (test_install, test_serve,
test_serve_https_browser, test_caddy_recipe): a free port, a server started in a session of its own and
killed with its workers, its first answer awaited, ``manage.py shell`` run in a served database's
environment."""

from __future__ import annotations

import os
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: A referee ("ref", password "pw") and a game of the tournament's rules at table 3, made in a served
#: database by ``shell``, which prints the game's id.
MAKE_GAME = """
from django.contrib.auth.models import User
from tournament.games import recording
ref = User.objects.create_user("ref", password="pw")
players = [{"name": "Anna"}, {"name": "Bartek"}, {"name": "Celina"}]
print(recording.create_game(name="Table 3", variant="tournament-pl", board="classic-pl", referees=[ref],
                            players=players).pk)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url: str, context: ssl.SSLContext | None = None) -> tuple[int, str, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10, context=context) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type", ""), e.read()


def shell(env: dict, code: str) -> str:
    """``code`` run by ``manage.py shell`` in ``env`` (a served database's), what it printed."""
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def started(argv: list, log: Path, **popen) -> subprocess.Popen:
    """A server started in a session (process group) of its own, its output in ``log``."""
    with open(log, "wb") as out:
        return subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, start_new_session=True, **popen)


def first_answer(
    server: subprocess.Popen, url: str, log: Path, within: float, context: ssl.SSLContext | None = None
) -> tuple[int, str, bytes]:
    """``url`` fetched as soon as ``server`` answers (over HTTPS, trusting what ``context`` trusts); its
    output is the failure's message if it stops first or has not answered ``within`` seconds."""
    deadline = time.monotonic() + within
    while True:
        assert server.poll() is None, log.read_text()
        try:
            return fetch(url, context)
        except (ConnectionError, urllib.error.URLError):
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)


def killed(server: subprocess.Popen) -> None:
    """A server still running at a test's end stopped, with its workers."""
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()
