"""What rebuilding the ratings costs (prints figures; not a test).

    python tests/bench_ratings.py [--tables 10000] [--players 2000] [--runs 5] [--postgres]
                                  [--tables-a-round 20]

Builds a league in a temporary SQLite database (``--postgres``: a throw-away PostgreSQL server,
tests/pgserver.py): ``--tables`` tables of 4
in tournaments of 5 rounds of 20 tables (80 of the players each; ``--tables-a-round 250``: an event day's
1,250 tables, and the rebuild a confirmation in it asks for), each table's result stored confirmed with
its score rows, every participant linked to one of ``--players`` players. Then times, over several runs
(medians printed):

- the full rebuild (``rebuild()``: every table read, rated, every history row and rating written);
- the rebuild a confirmation in the latest tournament asks for (``rebuild(Point.of_tournament(last))``);
- openskill alone on the same tables (no database), for scale.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
ARGS = argparse.ArgumentParser()
ARGS.add_argument("--tables", type=int, default=10_000)
ARGS.add_argument("--players", type=int, default=2_000)
ARGS.add_argument("--runs", type=int, default=5)
ARGS.add_argument("--postgres", action="store_true")
ARGS.add_argument("--tables-a-round", type=int, default=20, help="each tournament's tables a round")
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

from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402

from rules.ratings import Table, rate  # noqa: E402
from tournament.models import (  # noqa: E402
    Participant,
    Player,
    PlayerRating,
    RatingStep,
    Round,
    TableResult,
    TableScore,
    Tournament,
)
from tournament.models import Table as TournamentTable  # noqa: E402
from tournament.models.players import name_key  # noqa: E402
from tournament.ratings.rebuild import Point, rebuild  # noqa: E402

TABLES_A_ROUND, ROUNDS, SIZE = args.tables_a_round, 5, 4


def build(tables: int, players: int, seed: int = 1) -> tuple[Tournament, list[list[tuple[str, int]]]]:
    """The league; returns the last tournament and every table's places by player id, in order."""
    rng = random.Random(seed)
    people = Player.objects.bulk_create(
        Player(name=f"Player {i:05}", name_key=name_key(f"Player {i:05}")) for i in range(players)
    )
    per_tournament = TABLES_A_ROUND * ROUNDS
    day = datetime.date(2020, 1, 1)
    played: list[list[tuple[int, int]]] = []
    last = None
    with transaction.atomic():
        for n in range(-(-tables // per_tournament)):
            t = Tournament.objects.create(
                name=f"Cup {n}", date=day + datetime.timedelta(days=7 * n), rounds=ROUNDS
            )
            field = rng.sample(people, TABLES_A_ROUND * SIZE)
            parts = Participant.objects.bulk_create(
                Participant(tournament=t, name=p.name, player=p, link_key=None) for p in field
            )
            left = min(per_tournament, tables - n * per_tournament)
            for r in range(1, ROUNDS + 1):
                if left <= 0:
                    break
                round_ = Round.objects.create(tournament=t, number=r, status=Round.Status.FINISHED)
                count = min(TABLES_A_ROUND, left)
                left -= count
                tabs = TournamentTable.objects.bulk_create(
                    TournamentTable(round=round_, number=i + 1) for i in range(count)
                )
                order = rng.sample(parts, len(parts))
                res = TableResult.objects.bulk_create(TableResult(table=tab) for tab in tabs)
                rows = []
                for i, result in enumerate(res):
                    at = order[i * SIZE : (i + 1) * SIZE]
                    ranks = sorted(rng.randint(1, SIZE) for _ in at)
                    played.append([(p.player_id, rank) for p, rank in zip(at, ranks, strict=True)])
                    rows += [
                        TableScore(
                            result=result,
                            position=k,
                            participant=p,
                            name=p.name,
                            rank=rank,
                            score=0,
                            points=0,
                        )
                        for k, (p, rank) in enumerate(zip(at, ranks, strict=True))
                    ]
                TableScore.objects.bulk_create(rows, batch_size=2000)
            last = t
    return last, played


def timed(call, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        out.append(time.perf_counter() - start)
    return out


def main() -> None:
    call_command("migrate", verbosity=0)
    start = time.perf_counter()
    last, played = build(args.tables, args.players)
    print(
        f"built {len(played)} tables ({sum(map(len, played))} player-games) "
        f"in {time.perf_counter() - start:.1f} s"
    )
    full = timed(rebuild, args.runs)
    print(
        f"full rebuild: median {statistics.median(full):.2f} s (min {min(full):.2f}, max {max(full):.2f}) "
        f"over {args.runs} runs; {RatingStep.objects.count()} history rows, "
        f"{PlayerRating.objects.count()} ratings"
    )
    point = Point.of_tournament(last)
    latest = timed(lambda: rebuild(point), args.runs)
    print(
        "rebuild from the latest tournament (a confirmation): "
        f"median {statistics.median(latest) * 1000:.0f} ms "
        f"(min {min(latest) * 1000:.0f}, max {max(latest) * 1000:.0f})"
    )
    alone = timed(lambda: rate(Table(t) for t in played), args.runs)
    print(f"openskill alone on the same tables: median {statistics.median(alone):.2f} s")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    with SERVER:
        main()
