"""What a tournament's backup import costs the tables that play meanwhile (prints figures; not a test).

    python tests/bench_backup_import.py [--participants 200] [--rounds 5] [--game-rounds 10]

Builds a tournament of complete simulated games in a temporary SQLite database (as tests/bench_exports.py),
writes its backup, and imports it again under another name, timing each phase: reading the file, checking
it (every value, the rules of the app, every game replayed: no transaction, so no write lock), and storing
it (one transaction: on SQLite the only time the write lock is held). Meanwhile a thread stands for a table
in play: it writes a row every 50 ms and records how long each write waited; the longest wait is what a move
at another table would have waited during the import (SQLite's busy timeout is 30 s).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
os.environ.setdefault("DJANGO_DEBUG", "0")
os.environ.setdefault("DJANGO_SECRET_KEY", "benchmark-only")
os.environ["DJANGO_SQLITE_PATH"] = os.path.join(tempfile.mkdtemp(), "bench.sqlite3")

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.db import connection, transaction  # noqa: E402

from tests.bench_exports import build  # noqa: E402
from tournament.files import backup  # noqa: E402
from tournament.files.backup import check, reading, restore  # noqa: E402
from tournament.models import GameEvent, Tournament  # noqa: E402


class TableInPlay(threading.Thread):
    """A write every 50 ms (a user's name touched, in a transaction as a move is), each one's wait kept."""

    def __init__(self):
        super().__init__(daemon=True)
        self.waits: list[float] = []
        self.errors: list[str] = []
        self.stop = threading.Event()

    def run(self):
        try:
            while not self.stop.is_set():
                start = time.perf_counter()
                try:
                    with transaction.atomic():
                        User.objects.filter(username="referee").update(first_name=f"Anna {start:.3f}")
                except Exception as e:  # "database is locked" after the busy timeout
                    self.errors.append(str(e))
                self.waits.append(time.perf_counter() - start)
                time.sleep(0.05)
        finally:
            connection.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--participants", type=int, default=200)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--game-rounds", type=int, default=10)
    args = p.parse_args()
    t0 = time.perf_counter()
    tournament = Tournament.objects.get(pk=build(args.participants, args.rounds, args.game_rounds))
    built = time.perf_counter() - t0
    print(f"built in {built:.1f} s: {args.participants} participants × {args.rounds} rounds")
    text = backup.dumps(backup.export_tournament(tournament))
    events = GameEvent.objects.count()
    print(f"backup: {len(text.encode()) / 1e6:.1f} MB, {events} moves")
    table = TableInPlay()
    table.start()
    time.sleep(0.5)
    phases = {}
    start = time.perf_counter()
    data = backup.read_backup(text.replace('"name": "Bench Cup"', '"name": "Bench Cup (restored)"', 1))
    phases["read the file"] = time.perf_counter() - start
    start = time.perf_counter()
    checked = reading.read_values(data)
    check.Check(checked).run()
    phases["check it (every game replayed; no lock)"] = time.perf_counter() - start
    start = time.perf_counter()
    with transaction.atomic():
        restore._store(checked, [])
    phases["store it (one transaction: the write lock)"] = time.perf_counter() - start
    time.sleep(0.5)
    table.stop.set()
    table.join()
    for phase, seconds in phases.items():
        print(f"{phase:<48} {seconds:7.2f} s")
    waits = sorted(table.waits)
    print(
        f"a table's write meanwhile: {len(waits)} writes, median {statistics.median(waits) * 1000:.0f} ms, "
        f"longest {waits[-1] * 1000:.0f} ms, {len(table.errors)} failed"
    )


if __name__ == "__main__":
    main()
