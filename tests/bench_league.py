"""What the league's public pages cost (prints figures; not a test).

    python tests/bench_league.py [--players 2000] [--events 10] [--runs 9]

Builds a league in a temporary SQLite database (or the database DATABASE_URL names): ``--players`` players
(names with Polish letters, a club each) who played ``--events`` past tournaments (random tables of four),
the ratings rebuilt from them (``PlayerRating``, and ``RatingStep``: what his page and the workbook's history
read). Then serves, through Django's test client, each page ``--runs`` times after one
request not counted, and prints the median server time (min and max beside) and the queries of one request:

- the league's first page (a hundred players), its last page, a search matching many names (a page of
  them), a search matching one;
- a player's page (his history and his chart);
- the ratings' workbook (every player, every step), for scale.

The issue's figure: the league page for 2,000 players in at most 200 ms.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
os.environ.setdefault("DJANGO_DEBUG", "0")  # as deployed
os.environ.setdefault("DJANGO_SECRET_KEY", secrets.token_urlsafe(50))
os.environ.setdefault("DJANGO_HTTPS", "0")
os.environ.setdefault("DJANGO_STATIC_MANIFEST", "0")
if not os.environ.get("DATABASE_URL"):
    os.environ["DJANGO_SQLITE_PATH"] = os.path.join(tempfile.mkdtemp(), "bench.sqlite3")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from tournament.models import PastEntrant, PastEvent, PastPlacement, Player, PlayerRating, RatingStep  # noqa: E402
from tournament.models.players import name_key  # noqa: E402
from tournament.ratings.rebuild import rebuild  # noqa: E402

FIRST = ["Katarzyna", "Łukasz", "Małgorzata", "Zbigniew", "Żaneta", "Grzegorz", "Agnieszka", "Przemysław"]
LAST = ["Wiśniewska", "Szczepański", "Brzęczyszczykiewicz", "Kowalczyk", "Źdźbło", "Nowak", "Wójcik"]
CLUBS = ["Szkoła Podstawowa nr 12 w Łodzi", "Klub Planszówkowy „Hotel na Woli”", "", "LO im. Kopernika"]


def build(players: int, events: int, seed: int = 1) -> Player:
    """The league: its players, past tournaments of random tables of four (each name linked to its player),
    the ratings rebuilt from them as the app rebuilds them. Returns the busiest player."""
    rng = random.Random(seed)
    names = [f"{FIRST[i % len(FIRST)]} {LAST[i // len(FIRST) % len(LAST)]} {i + 1}" for i in range(players)]
    with transaction.atomic():
        people = Player.objects.bulk_create(
            (Player(name=n, name_key=name_key(n), club=CLUBS[i % len(CLUBS)]) for i, n in enumerate(names)),
            batch_size=2000,
        )
        start = datetime.date(2024, 1, 6)
        for n in range(events):
            event = PastEvent.objects.create(
                name=f"Turniej ligowy {n + 1}", date=start + datetime.timedelta(weeks=4 * n)
            )
            field = rng.sample(people, k=len(people) * 3 // 4 // 4 * 4)
            entrants = PastEntrant.objects.bulk_create(
                (PastEntrant(event=event, name=p.name, club=p.club, player=p) for p in field), batch_size=2000
            )
            PastPlacement.objects.bulk_create(
                (
                    PastPlacement(entrant=e, round_number=1, table_number=1 + i // 4, rank=rank)
                    for i, (e, rank) in enumerate(
                        zip(
                            entrants,
                            [r for _t in range(0, len(field), 4) for r in rng.sample(range(1, 5), 4)],
                            strict=True,
                        )
                    )
                ),
                batch_size=2000,
            )
    rebuild()
    busiest = PlayerRating.objects.order_by("-games", "player_id").first()
    return Player.objects.get(pk=busiest.player_id)


def served(client: Client, url: str, runs: int, anew: bool = False) -> tuple[list[float], int, int]:
    """The server times of ``runs`` requests (after one not counted), the queries and bytes of one;
    ``anew``: the process's cache emptied before each (the workbook written again)."""
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    times = []
    for _ in range(runs):
        if anew:
            cache.clear()
        t0 = time.perf_counter()
        client.get(url)
        times.append(time.perf_counter() - t0)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    return times, len(queries), len(response.content)


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} (1, 5, 15 min)"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--events", type=int, default=10)
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    settings.ALLOWED_HOSTS = ["*"]  # the test client's; no test environment: templates render as deployed
    call_command("migrate", verbosity=0)
    t0 = time.perf_counter()
    busiest = build(args.players, args.events)
    print(
        f"built in {time.perf_counter() - t0:.1f} s: {PlayerRating.objects.count()} players rated, "
        f"{RatingStep.objects.count()} ratings after a tournament ({connection.vendor})"
    )
    print(load())
    client = Client(HTTP_ACCEPT_LANGUAGE="pl")
    last_page = -(-PlayerRating.objects.count() // 100)
    pages = {
        "league, first page": "/league/",
        f"league, page {last_page} (the last)": f"/league/?page={last_page}",
        "league, search 'nowak' (a page)": "/league/?q=nowak",
        "league, search a full name": "/league/?" + urlencode({"q": busiest.name}),
        f"player's page ({busiest.rating.games} events)": f"/league/players/{busiest.pk}/",
        "ratings.xlsx (kept: as written once)": "/league/ratings.xlsx",
        "ratings.xlsx written anew (each run)": "/league/ratings.xlsx?anew",
    }
    print(f"{'median of ' + str(args.runs):38} {'median':>9} {'min':>9} {'max':>9}  queries   bytes")
    for label, url in pages.items():
        runs = args.runs if ".xlsx" not in url else max(3, args.runs // 3)
        times, queries, size = served(client, url, runs, anew=url.endswith("?anew"))
        ms = [t * 1000 for t in times]
        print(
            f"{label:38} {statistics.median(ms):6.1f} ms {min(ms):6.1f} ms {max(ms):6.1f} ms"
            f"  {queries:7} {size:7}"
        )
    print(load())


if __name__ == "__main__":
    main()
