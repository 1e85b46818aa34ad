"""What a durable commit costs on SQLite (prints figures; not a test).

    python tests/bench_sqlite_sync.py [--moves 300] [--rounds 3]

Enters the same simulated game's moves through ``tournament.games.recording.submit`` (one transaction each, as
the
console does) into two fresh SQLite files in turn, one with ``synchronous=FULL`` (the default: every commit is
synced to the disk) and one with ``synchronous=NORMAL`` (WAL's faster mode, which may lose the last commits on
a power cut), and prints the wall time and this process's CPU time a move for each, medians over the rounds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
os.environ.setdefault("DJANGO_DEBUG", "0")
os.environ.setdefault("DJANGO_SECRET_KEY", "benchmark-only")
os.environ.setdefault("DJANGO_HTTPS", "0")
TMP = Path(tempfile.mkdtemp())
os.environ["DJANGO_SQLITE_PATH"] = str(TMP / "full.sqlite3")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connections  # noqa: E402

from rules.simulate import simulate  # noqa: E402
from tournament.games import recording  # noqa: E402
from tournament.server.database import sqlite  # noqa: E402

MODES = ("FULL", "NORMAL")


def use(mode: str) -> None:
    """Point the default connection at this mode's own file (migrated on first use)."""
    connections["default"].close()
    settings.DATABASES["default"] = {
        **sqlite(str(TMP / f"{mode.lower()}.sqlite3"), {"DJANGO_SQLITE_SYNCHRONOUS": mode}),
        "TIME_ZONE": None,
        "CONN_MAX_AGE": 0,
        "CONN_HEALTH_CHECKS": False,
        "AUTOCOMMIT": True,
        "ATOMIC_REQUESTS": False,
        "TEST": {},
        "USER": "",
        "PASSWORD": "",
        "HOST": "",
        "PORT": "",
    }
    connections["default"].settings_dict = settings.DATABASES["default"]
    with connections["default"].cursor() as c:
        c.execute("PRAGMA synchronous")
        assert c.fetchone()[0] == {"FULL": 2, "NORMAL": 1}[mode]


def one_game(events: list[dict]) -> tuple[float, float]:
    game = recording.create_game(variant="classic", board="classic-us", players=[{"name": n} for n in "ABCD"])
    wall, cpu = time.perf_counter(), time.process_time()
    for ev in events:
        game = recording.submit(game.pk, ev, version=game.version).game
    n = len(events)
    return (time.perf_counter() - wall) * 1000 / n, (time.process_time() - cpu) * 1000 / n


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--moves", type=int, default=300)
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args()
    events = simulate("classic", "classic-us", 4, seed=3)["events"][: args.moves]
    for mode in MODES:
        use(mode)
        call_command("migrate", verbosity=0)
    figures: dict[str, list[tuple[float, float]]] = {m: [] for m in MODES}
    for _round in range(args.rounds):
        for mode in MODES:  # in turn, so that a drift of the machine's speed touches both alike
            use(mode)
            figures[mode].append(one_game(events))
    print(f"{len(events)} moves a game, {args.rounds} games a mode, in turn; medians; load {os.getloadavg()}")
    for mode in MODES:
        wall = statistics.median(w for w, _c in figures[mode])
        cpu = statistics.median(c for _w, c in figures[mode])
        print(f"synchronous={mode:<6}  {wall:6.2f} ms a move (wall)   {cpu:6.2f} ms of CPU a move")


if __name__ == "__main__":
    main()
