"""Benchmark of the referee's console (prints figures; not a test).

    python tests/bench_console.py

The game is a tournament table's, entered by its referee (each move with its request key, as the phone's
outbox sends it: tournament/console/sync.py). Prints, around event 10 and around event 1,000 of the same game
(the server must not replay the game, so the two should be about equal), for one move (the whole request:
permission, stored state, engine, save, the acknowledgement; the phone draws the screen): its wall time, its
CPU time (``process_time`` of the request through Django's test client, middleware and session included), its
queries and the bytes of its request and answer; the same for a move of a phone whose rules do not run yet
(the answer carries the game and its screen); and for the console's poll, when nothing changed (the version it
carries is current) and when another device moved meanwhile. Then the taps a turn takes on the console.
"""

from __future__ import annotations

import gzip
import json
import os
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
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
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402

from rules.board import EFFECT_FIELDS  # noqa: E402
from rules.cards import classic_effects  # noqa: E402
from rules.simulate import simulate  # noqa: E402
from tournament.console.devices import SESSION_KEY, key_start  # noqa: E402
from tournament.games import recording  # noqa: E402
from tournament.models import Game, Round, Table, Tournament  # noqa: E402

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


WINDOW = 50
POLLED_AT = (10 + WINDOW - 1, 1000 + WINDOW - 1)
POLLS = 20


@dataclass
class Cost:
    """One request's cost on the server's side."""

    wall_ms: float
    cpu_ms: float
    queries: int


def cost(request, *args) -> tuple[Cost, object]:
    """``request(*args)`` timed (wall and CPU of this process: it runs the view) and its queries counted."""
    queries = 0

    def count(execute, sql, params, many, context):
        nonlocal queries
        queries += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        wall, cpu = time.perf_counter(), time.process_time()
        response = request(*args)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return Cost(wall * 1000, cpu * 1000, queries), response


def median(costs: list[Cost]) -> str:
    wall = statistics.median(c.wall_ms for c in costs)
    cpu = statistics.median(c.cpu_ms for c in costs)
    queries = statistics.median(c.queries for c in costs)
    return f"{wall:.1f} ms wall, {cpu:.1f} ms CPU, {queries:g} queries"


def poll_costs(client: Client, pk: int, version: int, seen: str) -> dict[str, list[Cost]]:
    """The console's poll (every 10 s) of a phone showing ``version`` (current: nothing changed, 204) and of
    one showing the version before (another device's move: the game's position, told what changed)."""
    url = reverse("console_state", args=[pk])
    out: dict[str, list[Cost]] = {"nothing changed": [], "a move meanwhile": []}
    for _ in range(POLLS):
        for kind, shown in (("nothing changed", version), ("a move meanwhile", version - 1)):
            spent, response = cost(client.get, url, {"version": shown, "seen": seen})
            assert response.status_code == (204 if shown == version else 200), response.status_code
            out[kind].append(spent)
    return out


def table_game(referee: User, record: dict) -> Game:
    """The record's game started at a tournament's table whose referee is ``referee`` (a referee's account,
    not the director's): the console asks what it asks on an event day (is the table's result confirmed, does
    he direct the tournament)."""
    tournament = Tournament.objects.create(
        name="Bench", variant="classic", board="classic-us", game_rounds=record["options"]["max_rounds"]
    )
    round_ = Round.objects.create(tournament=tournament, number=1, status=Round.Status.RUNNING)
    table = Table.objects.create(round=round_, number=1)
    table.referees.add(referee)
    return recording.create_game(
        variant="classic",
        board="classic-us",
        table=table,
        referees=[referee],
        options=record["options"],
        players=[{"name": p["name"]} for p in record["players"]],
    )


def main() -> None:
    call_command("migrate", verbosity=0)
    user = User.objects.create_user("bench", password="x")
    record = simulate("classic", "classic-us", 8, seed=0, rounds=5000, max_events=1_100)
    events = record["events"]
    game = table_game(user, record)
    browser = {"HTTP_ACCEPT_LANGUAGE": "en", "HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}
    client = Client(HTTP_HOST="localhost", **browser)
    client.force_login(user)
    client.get(reverse("console", args=[game.pk]))  # the console opened: its device is known
    device = key_start(client.session[SESSION_KEY])
    url = reverse("console_sync", args=[game.pk])
    moves: dict[int, Cost] = {}
    sizes: dict[int, tuple[int, int]] = {}
    full = {10: None, 1000: None}
    polls: dict[int, dict[str, list[Cost]]] = {}
    for k, event in enumerate(events):
        version = Game.objects.values_list("version", flat=True).get(pk=game.pk)
        seen = f"{k + 1}.{int(time.time() * 1000)}"  # as the screen shown before this move carries it
        body = {"version": version, "client_key": device + uuid.uuid4().hex, "events": [event], "waiting": 1}
        if k in full:  # a phone whose rules do not run yet: the answer carries the game and its screen
            body["full"] = True
        sent = json.dumps(body)
        spent, response = cost(client.post, url, sent, "application/json")
        answer = response.content
        if response.get("Content-Encoding") == "gzip":
            answer = gzip.decompress(answer)
        assert response.status_code == 200 and json.loads(answer)["ok"], (k, event, answer[:300])
        if k in full:
            full[k] = (spent, len(sent), len(response.content))
        else:
            moves[k] = spent
            sizes[k] = (len(sent), len(response.content))
        if k in POLLED_AT:
            polls[k] = poll_costs(client, game.pk, version + 1, seen)
    game.refresh_from_db()
    assert game.version == len(events)

    print(
        f"game of {len(events)} events entered through the outbox (classic, 8 players, a tournament's table)"
    )
    for start in (10, 1000):
        window = [moves[k] for k in range(start + 1, start + WINDOW)]
        span = f"median over events {start + 1:,}–{start + WINDOW - 1:,}"
        sent = statistics.median(sizes[k][0] for k in range(start + 1, start + WINDOW))
        answered = statistics.median(sizes[k][1] for k in range(start + 1, start + WINDOW))
        print(
            f"one move at event {start:,} ({span}): {median(window)}; "
            f"{sent:g} B sent, {answered:g} B answered"
        )
        spent, sent, answered = full[start]
        print(
            f"  without the phone's rules (the answer carries the screen): {spent.cpu_ms:.1f} ms CPU, "
            f"{spent.queries} queries; {sent} B sent, {answered:,} B answered (gzip, as a browser accepts it)"
        )
        at = start + WINDOW - 1
        for kind, costs in polls[at].items():
            print(f"  the console's poll after event {at:,}, {kind}: {median(costs)}")

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
