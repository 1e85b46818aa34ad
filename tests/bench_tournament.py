"""Benchmark of tournament running (prints figures; not a test).

    python tests/bench_tournament.py

Prints the time to seat a round of 1,000 participants (the seating alone, and with the database), and to
compute the standings of 1,000 participants after 5 rounds (the ranking alone, and from the stored results).
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "benchmark-only")  # served as deployed, on this machine only
os.environ.setdefault("DJANGO_HTTPS", "0")
os.environ.setdefault("DJANGO_STATIC_MANIFEST", "0")
os.environ["DJANGO_SQLITE_PATH"] = os.path.join(tempfile.mkdtemp(), "bench.sqlite3")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

from rules.seating import Entrant, pairs_of, seat_round  # noqa: E402
from rules.standings import placement_points, standings  # noqa: E402
from tournament.event import current_standings, rounds  # noqa: E402
from tournament.models import Participant, Round, TableResult, Tournament  # noqa: E402

N = 1000


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def main() -> None:
    rng = random.Random(1)
    entrants = [Entrant(i, club=f"club{i % 40}") for i in range(N)]
    met: set = set()
    seat_times = []
    for r in range(1, 6):
        order = None if r == 1 else rng.sample(range(N), N)
        seating, dt = timed(
            lambda order=order, r=r, met=met: seat_round(entrants, seed=r, standings=order, met=met)
        )
        seat_times.append(dt)
        met |= pairs_of(seating.tables)
    print(
        f"seat a round of {N} participants (seating alone): round 1 {seat_times[0] * 1000:.0f} ms, "
        f"rounds 2–5 {min(seat_times[1:]) * 1000:.0f}–{max(seat_times[1:]) * 1000:.0f} ms"
    )

    call_command("migrate", verbosity=0)
    t = Tournament.objects.create(name="Bench", rounds=5, seed=7)
    Participant.objects.bulk_create(
        Participant(tournament=t, name=f"P{i:04}", club=f"club{i % 40}") for i in range(N)
    )
    db_seat = []
    for _ in range(5):
        round_, dt = timed(lambda: rounds.seat_next_round(t))
        db_seat.append(dt)
        rounds.start_round(round_)
        rows = []
        for table in round_.tables.prefetch_related("seats"):
            ids = [s.participant_id for s in table.seats.all()]
            rng.shuffle(ids)
            ranking = [
                {
                    "participant": pid,
                    "rank": i + 1,
                    "score": rng.randint(0, 4000),
                    "points": placement_points(i + 1),
                }
                for i, pid in enumerate(ids)
            ]
            rows.append(TableResult(table=table, ranking=ranking))
        TableResult.objects.bulk_create(rows)
        round_.status = Round.Status.FINISHED
        round_.save()
    print(
        f"seat a round of {N} participants with the database: round 1 {db_seat[0] * 1000:.0f} ms, "
        f"round 5 {db_seat[-1] * 1000:.0f} ms"
    )

    scores = current_standings.game_scores(t)
    _, pure = timed(lambda: standings(range(N), scores))
    table, stored = timed(lambda: current_standings.tournament_standings(t))
    assert len(table) == N and all(row.games == 5 for row in table)
    print(
        f"standings of {N} participants after 5 rounds: {pure * 1000:.1f} ms (ranking alone), "
        f"{stored * 1000:.0f} ms (from the stored results)"
    )


if __name__ == "__main__":
    main()
