"""Benchmark of the tournament's exports (prints figures; not a test).

    python tests/bench_exports.py [--participants 200] [--rounds 5] [--game-rounds 10] [--runs 3]
    BENCH_EXPORTS_DB=PATH python tests/bench_exports.py --tournament ID    # measure an existing one again

Builds, in a temporary SQLite database, a tournament of 200 participants × 5 rounds of complete simulated
games (tournament-pl, classic-pl, 10 rounds per game): each round seated (tournament.event.rounds), each
table's
game started, its simulated record stored in bulk and the game rebuilt, each result confirmed. Then measures,
each in a fresh Python process (so one measurement's memory does not carry into the next):

- gathering ``tournament_report`` (one replay per game);
- writing the workbook (``tournament_workbook``) from a report gathered beforehand;
- writing every table's result sheet as one PDF (``result_sheets_pdf``), if tournament.exports.result_sheets
  exists.

For each: the wall time and the process's CPU time (best of a few runs, without tracing; on a loaded machine
the CPU time is the steadier figure); the peak of the Python memory allocated by that step alone
(tracemalloc, in a separate traced run: tracing slows Python down; it does not see C allocations, so lxml's
are not counted); and the process's peak resident memory (``resource.getrusage(RUSAGE_SELF).ru_maxrss``:
Django, the report and the step together), with the same process's peak before the step for comparison.
The game records are stored as the simulator wrote them, without the per-move notes the console keeps (the
exports do not read them: the report replays each game).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import resource
import secrets
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
os.environ.setdefault("DJANGO_DEBUG", "0")  # as deployed
os.environ.setdefault("DJANGO_SECRET_KEY", secrets.token_urlsafe(50))
os.environ["DJANGO_SQLITE_PATH"] = os.environ.get("BENCH_EXPORTS_DB") or os.path.join(
    tempfile.mkdtemp(), "bench.sqlite3"
)

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402

from rules.simulate import simulate  # noqa: E402
from tournament.event import results, rounds  # noqa: E402
from tournament.games import recording  # noqa: E402
from tournament.models import GameEvent, Participant, Table, Tournament  # noqa: E402
from tournament.reports.rounds import tournament_report  # noqa: E402

MB = 1024 * 1024


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: kilobytes


# -- building the tournament -------------------------------------------------------------------------------


def build(participants: int, tournament_rounds: int, game_rounds: int) -> int:
    call_command("migrate", verbosity=0)
    referee = User.objects.create_user("referee", password="x", first_name="Anna", last_name="Sędzia")
    t = Tournament.objects.create(
        name="Bench Cup", rounds=tournament_rounds, game_rounds=game_rounds, seed=11, table_size=4
    )
    rng = random.Random(1)
    Participant.objects.bulk_create(
        Participant(tournament=t, name=f"Uczestnik {i:03} Żółć", club=f"Klub {rng.randrange(30):02}")
        for i in range(participants)
    )
    for _ in range(tournament_rounds):
        round_ = rounds.seat_next_round(t)
        rounds.start_round(round_)
        tables = list(round_.tables.prefetch_related("seats"))
        Table.referees.through.objects.bulk_create(  # (a new round keeps the last round's referees)
            (Table.referees.through(table_id=table.pk, user_id=referee.pk) for table in tables),
            ignore_conflicts=True,
        )
        for table in tables:
            order = [s.participant_id for s in table.seats.all()]
            with transaction.atomic():
                game = rounds.start_table_game(table, order, user=referee)
                record = simulate(t.variant, t.board, len(order), seed=table.pk, rounds=game_rounds)
                events = record["events"]
                GameEvent.objects.bulk_create(
                    GameEvent(game=game, seq=i, data=ev, entered_by=referee) for i, ev in enumerate(events, 1)
                )
                game.next_seq = len(events) + 1
                game.version = len(events)
                recording.rebuild(game)
                game.save()
            results.confirm(table, referee)
    return t.pk


# -- one measurement, in its own process -------------------------------------------------------------------


def timed_and_traced(step, runs: int) -> dict:
    """Wall time (best of ``runs``, untraced), then the step's peak Python allocation (one traced run)."""
    before = rss_mb()
    times, cpu = [], []
    for _ in range(runs):
        gc.collect()
        t0, c0 = time.perf_counter(), time.process_time()
        out = step()
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        del out
    after = rss_mb()
    gc.collect()
    tracemalloc.start()
    out = step()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "seconds": min(times),
        "all_seconds": times,
        "cpu_seconds": min(cpu),
        "traced_peak_mb": peak / MB,
        "rss_before_mb": before,
        "rss_peak_mb": after,
        "out": out,
    }


def measure(what: str, tournament_id: int, runs: int) -> dict:
    t = Tournament.objects.get(pk=tournament_id)
    if what == "report":
        figures = timed_and_traced(lambda: tournament_report(t), runs)
        report = figures.pop("out")
        games = report.games
        figures.update(
            games=len(games),
            events=sum(len(g.events) for g in games),
            ledger_lines=sum(len(p.lines) for g in games for p in g.players),
        )
        return figures
    report = tournament_report(t)
    if what == "workbook":
        import openpyxl

        from tournament.exports.workbook import tournament_workbook

        figures = timed_and_traced(lambda: tournament_workbook(report), runs)
        data = figures.pop("out")
        figures["lxml"] = openpyxl.LXML  # openpyxl writes through lxml when it is installed (faster)
        games = report.games
        figures.update(
            bytes=len(data),
            rows={
                "Standings": len(report.standings),
                "Results": sum(
                    len(t.game.players) if t.game and t.game.players else len(t.seated)
                    for r in report.rounds
                    for t in r.tables
                ),
                "Ledgers": sum(1 + len(p.lines) for g in games for p in g.players),
                "Events": sum(max(1, len(e.cash)) for g in games for e in g.events),
            },
        )
        return figures
    if what == "pdf":
        try:
            from tournament.exports.result_sheets import result_sheets_pdf
        except ImportError as e:
            return {"skipped": f"tournament.exports.result_sheets: {e}"}
        tables = [tr for r in report.rounds for tr in r.tables]
        figures = timed_and_traced(lambda: result_sheets_pdf(t, tables), runs)
        data = figures.pop("out")
        figures.update(bytes=len(data), tables=len(tables))
        return figures
    raise SystemExit(f"unknown measurement {what}")


def run_child(what: str, db: str, tournament_id: int, runs: int) -> dict:
    env = {**os.environ, "BENCH_EXPORTS_DB": db}
    out = subprocess.run(
        [
            sys.executable,
            __file__,
            "--measure",
            what,
            "--tournament",
            str(tournament_id),
            "--runs",
            str(runs),
        ],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if out.returncode != 0:
        return {"error": out.stderr.strip().splitlines()[-1] if out.stderr.strip() else out.returncode}
    return json.loads(out.stdout.strip().splitlines()[-1])


def show(label: str, f: dict) -> None:
    if "skipped" in f or "error" in f:
        print(f"{label}: {f.get('skipped') or f.get('error')}")
        return
    runs = ", ".join(f"{s:.2f}" for s in f["all_seconds"])
    print(
        f"{label}: {f['seconds']:.2f} s wall (runs: {runs}), {f['cpu_seconds']:.2f} s CPU; Python memory "
        f"of the step (tracemalloc peak) {f['traced_peak_mb']:.0f} MB; process peak RSS "
        f"{f['rss_peak_mb']:.0f} MB (before the step {f['rss_before_mb']:.0f} MB)"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--participants", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--game-rounds", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--measure", choices=["report", "workbook", "pdf"])
    parser.add_argument("--tournament", type=int)
    args = parser.parse_args()
    if args.measure:
        figures = measure(args.measure, args.tournament, args.runs)
        print(json.dumps(figures))
        return

    if args.tournament:  # measure again: BENCH_EXPORTS_DB=the database printed before, --tournament ID
        tournament_id = args.tournament
    else:
        t0 = time.perf_counter()
        tournament_id = build(args.participants, args.rounds, args.game_rounds)
        print(
            f"built {args.participants} participants × {args.rounds} rounds, {args.game_rounds} rounds per "
            f"game, in {time.perf_counter() - t0:.0f} s ({os.environ['DJANGO_SQLITE_PATH']}, tournament "
            f"{tournament_id})"
        )
    db = os.environ["DJANGO_SQLITE_PATH"]
    report = run_child("report", db, tournament_id, args.runs)
    if "games" in report:
        print(f"games {report['games']}, events {report['events']}, ledger lines {report['ledger_lines']}")
    show("gathering tournament_report", report)
    workbook = run_child("workbook", db, tournament_id, args.runs)
    if "rows" in workbook:
        rows = ", ".join(f"{k} {v}" for k, v in workbook["rows"].items())
        lxml = "with lxml" if workbook["lxml"] else "without lxml"
        print(f"workbook rows: {rows}; {workbook['bytes'] / MB:.1f} MB; openpyxl {lxml}")
    show("writing the workbook", workbook)
    pdf = run_child("pdf", db, tournament_id, args.runs)
    if "tables" in pdf:
        print(f"result sheets: {pdf['tables']} tables, {pdf['bytes'] / MB:.1f} MB")
    show("writing the result sheets (PDF)", pdf)
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} (1, 5, 15 min)")


if __name__ == "__main__":
    main()
