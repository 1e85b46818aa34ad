"""Benchmark of the replay for disputes and of the public API (prints figures; not a test).

    python tests/bench_replay_api.py [game rounds]

One tournament table whose game is a long simulated one (100 game rounds by default), entered move by move;
then, through Django's test client (middleware and session included), the medians of several requests:
- the replay's JSON (``game_replay_data``: the console's screen after the first N moves) at the start, the
  middle and the end of the game, and its page;
- the API's table answer (``api_table``) made, and answered 304 (the ETag the client has), and the live board
  page; the API's standings and tables.
Each with its queries and bytes.
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
os.environ.setdefault("DJANGO_SECRET_KEY", "benchmark-only")
os.environ.setdefault("DJANGO_HTTPS", "0")
os.environ.setdefault("DJANGO_STATIC_MANIFEST", "0")
os.environ["DJANGO_SQLITE_PATH"] = os.path.join(tempfile.mkdtemp(), "bench.sqlite3")

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402

from tests.tournaments import make_tournament, play_table  # noqa: E402
from tournament.event import rounds  # noqa: E402

RUNS = 7


def timed(client: Client, url: str, **headers) -> tuple[float, int, int, int]:
    """The median wall time (ms) of RUNS requests, with the last one's status, queries and bytes."""
    times = []
    for _ in range(RUNS):
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            response = client.get(url, **headers)
            times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), response.status_code, len(queries), len(response.content)


def main(game_rounds: int) -> None:
    call_command("migrate", verbosity=0)
    boss = User.objects.create_superuser("boss", password="pw")
    t = make_tournament(4, name="Bench", rounds=1, table_size=4, game_rounds=game_rounds, created_by=boss)
    t.live_boards = True
    t.save()
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    table = round_.tables.get()
    game = play_table(table, boss)
    moves = game.events.filter(status="active").count()
    client = Client(HTTP_HOST="localhost")
    client.force_login(boss)
    print(f"one table, a game of {game_rounds} rounds: {moves} moves; medians of {RUNS} requests (SQLite)")
    rows = []
    for at in (1, moves // 2, moves):
        rows.append(
            (
                f"replay JSON at move {at}",
                timed(client, f"{reverse('game_replay_data', args=[game.pk])}?at={at}"),
            )
        )
    rows.append(("replay page (at the end)", timed(client, reverse("game_replay", args=[game.pk]))))
    public = Client(HTTP_HOST="localhost")
    api = reverse("api_table", args=[table.pk])
    rows.append(("API table: made", timed(public, api)))
    etag = public.get(api)["ETag"]
    rows.append(("API table: 304 (unchanged)", timed(public, api, HTTP_IF_NONE_MATCH=etag)))
    rows.append(("API tables of the round", timed(public, reverse("api_tables", args=[t.pk]))))
    rows.append(("API standings", timed(public, reverse("api_standings", args=[t.pk]))))
    rows.append(("live board page", timed(public, reverse("live_board", args=[table.pk]))))
    for name, (ms, status, queries, size) in rows:
        print(f"  {name:28} {ms:7.1f} ms  {status}  {queries:3} queries  {size / 1024:6.1f} KB")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
