"""Benchmark of the referee's console (prints figures; not a test).

    python tests/bench_console.py

Prints the server time of one move submission (the whole view: permission, stored state, engine, save,
refreshed panel) around event 10 and around event 1,000 of the same game — the console must not replay the
game, so the two should be about equal — and the taps a turn takes on the console.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
os.environ.setdefault("DJANGO_DEBUG", "0")  # as deployed: templates parsed once
os.environ.setdefault("DJANGO_SECRET_KEY", "benchmark-only")  # served as deployed, on this machine only
os.environ.setdefault("DJANGO_HTTPS", "0")
os.environ.setdefault("DJANGO_STATIC_MANIFEST", "0")
os.environ["DJANGO_SQLITE_PATH"] = os.path.join(tempfile.mkdtemp(), "bench.sqlite3")

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402

from rules.simulate import simulate  # noqa: E402
from tests.console_posts import post_form  # noqa: E402
from tournament import moves  # noqa: E402
from tournament.models import Game  # noqa: E402

# Taps on the console for each kind of event (see templates/console/panel.html).
TAPS = {
    "roll": 2,
    "buy": 1,
    "decline": 1,
    "rent": 1,
    "jail_fine": 1,
    "jail_card": 1,
    "timeout": 1,
    "time_up": 1,
    "bankrupt": 1,
    "auction": 3,
    "build": 2,
    "sell_building": 2,
    "mortgage": 2,
    "unmortgage": 2,
    "trade": 6,
    "deal": 3,
}


def card_taps(event) -> int:
    return 1 if "card" in event else 2  # a listed card: its button; by effect: choose, then apply


def main() -> None:
    call_command("migrate", verbosity=0)
    user = User.objects.create_user("bench", password="x")
    record = simulate("classic", "classic-us", 8, seed=0, rounds=5000, max_events=1_100)
    events = record["events"]
    game = moves.create_game(
        variant="classic",
        board="classic-us",
        referees=[user],
        options=record["options"],
        players=[{"name": p["name"]} for p in record["players"]],
    )
    client = Client(HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en", HTTP_HOST="localhost")
    client.force_login(user)
    url = reverse("console_act", args=[game.pk])
    timings: dict[int, float] = {}
    for k, event in enumerate(events):
        version = Game.objects.values_list("version", flat=True).get(pk=game.pk)
        t0 = time.perf_counter()
        response = client.post(url, {"version": version, **post_form(event)})
        timings[k] = time.perf_counter() - t0
        assert response.status_code == 200, response.status_code
        if b'class="error"' in response.content:
            raise SystemExit(f"event {k} refused: {event}")
    game.refresh_from_db()
    assert game.version == len(events)

    def window(start):
        return statistics.median(timings[k] for k in range(start, start + 50)) * 1000

    print(f"game of {len(events)} events submitted through the console view (classic, 8 players)")
    print(f"server time of one move at event 10:    {window(10):.1f} ms (median over events 10–59)")
    print(f"server time of one move at event 1,000: {window(1000):.1f} ms (median over events 1,000–1,049)")

    turns = sum(1 for e in events if e["type"] == "roll")  # every roll begins a turn or an extra roll
    taps = sum(card_taps(e) if e["type"] == "card" else TAPS.get(e["type"], 1) for e in events)
    print("taps for a typical turn (two dice, then buy / decline / rent claimed): 3")
    print(f"taps per roll over this simulated game, everything included: {taps / turns:.1f}")


if __name__ == "__main__":
    main()
