"""How long the league's big writes keep a move waiting on SQLite (prints figures; not a test).

    python tests/bench_long_writes.py [--rows 99996] [--players 2000] [--postgres]

Builds a past-results CSV of ``--rows`` rows (tournaments of 5 rounds of 200 tables of 4, players drawn from
``--players`` names with Polish letters) and, in a temporary SQLite database (``--postgres``: a throw-away
PostgreSQL server), while a second thread writes one small row after another as a referee's moves do (each in
its own transaction, as the sync endpoint's), times:

- the import (``import_past_results``: the file read, checked and stored), then every entrant linked to a
  player (as the director's "who is who" does, one past tournament after another) and the ratings rebuilt
  from them all (``rebuild_asked``);
- for each, the whole call and the longest wait of one of the second thread's writes meanwhile (the figure
  the issue names: a move kept waiting), with the median wait beside it.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
ARGS = argparse.ArgumentParser()
ARGS.add_argument(
    "--rows", type=int, default=99_996
)  # whole tables, the header besides: under the most a file may have
ARGS.add_argument("--players", type=int, default=2_000)
ARGS.add_argument("--postgres", action="store_true")
args = ARGS.parse_args()
SERVER = contextlib.ExitStack()
if args.postgres:
    from tests.pgserver import throwaway_postgres

    os.environ["DATABASE_URL"] = SERVER.enter_context(throwaway_postgres()).url()
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
os.environ.setdefault("DJANGO_DEBUG", "0")
os.environ.setdefault("DJANGO_SECRET_KEY", "benchmark-only")
if not os.environ.get("DATABASE_URL"):
    os.environ["DJANGO_SQLITE_PATH"] = os.path.join(tempfile.mkdtemp(), "bench.sqlite3")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402

from tournament.files.past_results.storing import import_past_results  # noqa: E402
from tournament.models import LeagueChange, PastEntrant, PastEvent, Player  # noqa: E402
from tournament.models.players import name_key  # noqa: E402
from tournament.ratings.rebuild import Point, ask, rebuild_asked  # noqa: E402

LAST = ["Wiśniewska", "Szczepański", "Kowalczyk", "Źdźbło", "Nowak", "Wójcik", "Kołodziej", "Żak"]
ROUNDS, TABLES, SIZE = 5, 200, 4


def past_results_csv(rows: int, players: int, seed: int = 1) -> bytes:
    rng = random.Random(seed)
    names = [f"{rng.choice(LAST)} {i}" for i in range(players)]  # short: 100,000 rows under 5 MB
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["Turniej", "Data", "Runda", "Stolik", "Miejsce", "Gracz"])
    written, event = 0, 0
    while written < rows:
        field = rng.sample(names, TABLES * SIZE)
        day = f"2020-{1 + event // 28 % 12:02}-{1 + event % 28:02}"
        for r in range(1, ROUNDS + 1):
            rng.shuffle(field)
            for t in range(TABLES):
                for place, name in enumerate(field[t * SIZE : (t + 1) * SIZE], start=1):
                    w.writerow([f"Puchar {event}", day, r, t + 1, place, name])
                    written += 1
                if written >= rows:
                    return out.getvalue().encode()
        event += 1
    return out.getvalue().encode()


class Mover(threading.Thread):
    """Small writes one after another, each its own transaction, each's start and end kept."""

    def __init__(self, user):
        super().__init__(daemon=True)
        self.user, self.stop, self.writes = user, threading.Event(), []

    def run(self):
        try:
            while not self.stop.is_set():
                start = time.perf_counter()
                with transaction.atomic():
                    LeagueChange.objects.create(
                        action=LeagueChange.Action.RENAMED, user=self.user, before="x"
                    )
                self.writes.append((start, time.perf_counter()))
        finally:
            connection.close()

    def measured(self, call):
        """The call's result, how long it took, and the longest and median waits of the writes begun while
        it ran (a write waiting when it began too: from then on), each until it ended, and how many."""
        start = time.perf_counter()
        result = call()
        end = time.perf_counter()
        while not any(begun > end for begun, _ended in self.writes[-2:]):  # every write begun during it ended
            time.sleep(0.01)
        waits = [ended - max(begun, start) for begun, ended in self.writes if begun <= end and ended >= start]
        waits = waits or [0.0]
        return result, end - start, max(waits), statistics.median(waits), len(waits)


def link_all() -> None:
    """Every entrant linked to a player of his name (made once), one past tournament at a time."""
    for event in PastEvent.objects.order_by("date", "pk"):
        with transaction.atomic():
            entrants = list(PastEntrant.objects.filter(event=event))
            keys = {name_key(e.name) for e in entrants}
            known = dict(Player.objects.filter(name_key__in=keys).values_list("name_key", "pk"))
            new = [
                Player(name=e.name, name_key=name_key(e.name))
                for e in entrants
                if name_key(e.name) not in known
            ]
            for p in Player.objects.bulk_create(new):
                known[p.name_key] = p.pk
            for e in entrants:
                e.player_id = known[name_key(e.name)]
            PastEntrant.objects.bulk_update(entrants, ["player"], batch_size=2000)
            ask(Point.of_past_event(event))


def main() -> None:
    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("bench")
    data = past_results_csv(args.rows, args.players)
    mover = Mover(user)
    mover.start()
    while not mover.writes:
        time.sleep(0.01)
    print(f"{args.rows} rows ({len(data) / 1e6:.1f} MB), {connection.vendor}; load {os.getloadavg()}")
    print(f"{'step':<34}{'whole call':>12}{'longest wait':>14}{'median wait':>13}{'writes':>8}")
    imported, took, longest, median, n = mover.measured(lambda: import_past_results("past.csv", data, user))
    print(f"{'import (read, check, store)':<34}{took:>11.2f}s{longest:>13.3f}s{median:>12.4f}s{n:>8}")
    link_all()
    rated, took, longest, median, n = mover.measured(rebuild_asked)
    step = f"ratings rebuilt ({rated} tables)"
    print(f"{step:<34}{took:>11.2f}s{longest:>13.3f}s{median:>12.4f}s{n:>8}")
    mover.stop.set()
    mover.join()


if __name__ == "__main__":
    try:
        main()
    finally:
        SERVER.close()
