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

from rules.board import EFFECT_FIELDS  # noqa: E402
from rules.cards import classic_effects  # noqa: E402
from rules.simulate import simulate  # noqa: E402
from tests.console_posts import post_form  # noqa: E402
from tournament.games import recording  # noqa: E402
from tournament.models import Game  # noqa: E402

# Taps on the console for each kind of event, as tests/test_console_browser_cards.py counts them on a phone
# (a field typed in: one tap; a list: two; the keyboard's keys are not counted).
TAPS = {
    "roll": 1,  # one key of the dice pad
    "buy": 1,
    "decline": 1,
    "jail_fine": 1,
    "jail_card": 1,
    "timeout": 1,
    "time_up": 1,
    "bankrupt": 1,
    "build": 2,  # the player's "Build, sell, mortgage", then the button
    "sell_building": 2,
    "mortgage": 2,
    "unmortgage": 2,
    "deal": 3,
}


def game_taps(events: list[dict]) -> int:
    """A decline followed by its auction is entered with the auction (the buy panel's "Sold to" buttons)."""
    following = [e["type"] for e in events[1:]] + [None]
    return sum(
        0 if e["type"] == "decline" and then == "auction" else taps(e)
        for e, then in zip(events, following, strict=True)
    )


def taps(event) -> int:
    kind = event["type"]
    if kind == "card":
        return card_taps(event) + 2 * ("dice" in event)  # the card's dice, each die on its own
    if kind == "rent":
        return 1  # "Rent claimed", or the key of the dice thrown for it
    if kind == "auction":  # the price typed, then the winner's button (one tap at the opening bid); or nobody
        return 1 if event["winner"] is None else 2
    if kind == "trade":  # open the form, choose both players, each deed, each amount, then send
        sides = [event.get("give", {}), event.get("get", {})]
        return 6 + sum(
            len(s.get("squares", [])) + bool(s.get("cash")) + bool(s.get("jail_cards")) for s in sides
        )
    return TAPS.get(kind, 1)


def card_taps(event) -> int:
    """A listed card: its button. By effect: one tap for a card without an amount and for each effect the
    classic cards print (rules.cards.classic_effects); else each field (a square: a list) and "OK"."""
    effect = event.get("effect")
    if effect is None or effect["kind"] == "nearest" or not EFFECT_FIELDS[effect["kind"]]:
        return 1
    if effect in classic_effects():
        return 1
    return 1 + sum(2 if f == "square" else 1 for f in EFFECT_FIELDS[effect["kind"]])


def main() -> None:
    call_command("migrate", verbosity=0)
    user = User.objects.create_user("bench", password="x")
    record = simulate("classic", "classic-us", 8, seed=0, rounds=5000, max_events=1_100)
    events = record["events"]
    game = recording.create_game(
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
    total = game_taps(events)
    print("taps for a typical turn (a key of the dice pad, then buy / rent claimed): 2")
    print(f"taps per roll over this simulated game, everything included: {total / turns:.1f}")
    for board in ("classic-pl", "classic-us"):  # as the browser test plays them (tournament-pl, 4 players)
        game_events = simulate("tournament-pl", board, 4, seed=0)["events"]
        rolls = sum(1 for e in game_events if e["type"] == "roll")
        print(f"estimated taps per roll, tournament-pl on {board}: {game_taps(game_events) / rolls:.2f}")


if __name__ == "__main__":
    main()
