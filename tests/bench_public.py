"""Benchmark of the pages and downloads anyone may open without logging in (prints figures; not a test).

    python tests/bench_public.py [--participants 20] [--rounds 3] [--runs 7]
    BENCH_PUBLIC_DB=PATH python tests/bench_public.py --tournament ID --page standings.pdf --repeat 20

Whether a public page's cost grows with the moves played: in a temporary SQLite database, two tournaments
alike in all but the length of their games — one of games of about ten moves, one of about ten thousand
moves in all — each round seated and started, each table's simulated game entered as the console enters it
(``recording.submit_all``: every move stored with its notes, the game's state snapshot and ledger totals
saved), its result confirmed; the last round left in play, its games half entered. Then every public page
and download (the home page, the standings, the projector, the seatings, the standings PDF, the blank
cards), and for comparison the director's sheets and workbook (they show every move, by design), are
requested through Django's test client: the server time (median of ``--runs``, after one request not
counted) and the number of database queries, at both sizes side by side. The standings page keeps its
rendered table for the same figures: "standings, new figures" is its time with the cache emptied before each
request.

The second form serves one page ``--repeat`` times in an existing database (the path and the tournament the
first form prints): a whole process to time two versions of the code against each other from outside.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
os.environ.setdefault("DJANGO_DEBUG", "0")  # as deployed
os.environ.setdefault("DJANGO_SECRET_KEY", secrets.token_urlsafe(50))
os.environ.setdefault("DJANGO_HTTPS", "0")
os.environ.setdefault("DJANGO_STATIC_MANIFEST", "0")
os.environ.pop("DATABASE_URL", None)
os.environ["DJANGO_SQLITE_PATH"] = os.environ.get("BENCH_PUBLIC_DB") or os.path.join(
    tempfile.mkdtemp(), "bench.sqlite3"
)

import django  # noqa: E402

warnings.filterwarnings("ignore", "No directory at", UserWarning)  # whitenoise: no collected static here

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from rules.simulate import simulate  # noqa: E402
from tournament.event import results, rounds  # noqa: E402
from tournament.games import recording  # noqa: E402
from tournament.models import GameEvent, Participant, Tournament  # noqa: E402

#: The public pages and downloads of a tournament (``{t}``: its id), and the one outside any tournament.
PUBLIC = {
    "home": "/",
    "blank-card.pdf": "/blank-card.pdf",
    "standings": "/tournaments/{t}/standings/",
    "projector": "/tournaments/{t}/projector/",
    "seating": "/tournaments/{t}/seating/",
    "round 1 seating": "/tournaments/{t}/rounds/1/seating/",
    "standings.pdf": "/tournaments/{t}/standings.pdf",
    "tournament blank-card.pdf": "/tournaments/{t}/blank-card.pdf",
}
#: The director's, for comparison: a result sheet draws its game's net worth turn by turn, the workbook lists
#: every move; these read every move of the games they show.
DIRECTOR = {
    "director: round 1 sheets.pdf": "/tournaments/{t}/rounds/1/sheets.pdf",
    "director: sheets.pdf": "/tournaments/{t}/sheets.pdf",
    "director: workbook.xlsx": "/tournaments/{t}/workbook.xlsx",
}


# -- building the tournaments ------------------------------------------------------------------------------


def build(name: str, participants: int, tournament_rounds: int, game_rounds: int, referee) -> Tournament:
    """The tournament played as on the day, the last round left in play with each game half entered."""
    t = Tournament.objects.create(
        name=name, rounds=tournament_rounds, game_rounds=game_rounds, seed=11, table_size=4
    )
    Participant.objects.bulk_create(
        Participant(tournament=t, name=f"Uczestnik {i:03} Żółć", club=f"Klub {i % 5}")
        for i in range(participants)
    )
    for number in range(1, tournament_rounds + 1):
        round_ = rounds.seat_next_round(t)
        rounds.start_round(round_)
        last = number == tournament_rounds
        for table in round_.tables.prefetch_related("seats"):
            table.referees.set([referee])
            order = [s.participant_id for s in table.seats.all()]
            game = rounds.start_table_game(table, order, user=referee)
            record = simulate(t.variant, t.board, len(order), seed=table.pk, rounds=game_rounds)
            events = record["events"]
            recording.submit_all(
                game.pk, events[: len(events) // 2] if last else events, version=game.version, user=referee
            )
            if not last:
                results.confirm(table, referee)
    return t


# -- measuring ---------------------------------------------------------------------------------------------


def served(client: Client, url: str, runs: int, cold: bool = False) -> tuple[float, int]:
    """The median server time of ``runs`` requests (after one not counted), and the queries of one;
    ``cold``: the cache emptied before each (the standings table rendered every time, as for new figures)."""
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    times = []
    for _ in range(runs):
        if cold:
            cache.clear()
        t0 = time.perf_counter()
        client.get(url)
        times.append(time.perf_counter() - t0)
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    return statistics.median(times), len(queries)


def measure(pages: dict, tournaments: list[Tournament], client: Client, runs: int, cold=False) -> None:
    for label, url in pages.items():
        figures = []
        for t in tournaments:
            seconds, queries = served(client, url.format(t=t.pk), runs, cold)
            figures.append(f"{seconds * 1000:9.1f} ms {queries:3} queries")
        print(f"{label:30} " + "   ".join(figures))


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} (1, 5, 15 min)"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--participants", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--many", type=int, default=200, help="rounds of play in each game of the long one")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--no-director", action="store_true", help="the public pages only")
    parser.add_argument("--tournament", type=int)
    parser.add_argument("--page", choices=[*PUBLIC, *DIRECTOR])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    settings.ALLOWED_HOSTS = ["*"]  # the test client's; no test environment: templates render as deployed
    client = Client()

    if args.page:  # serve one page again and again, in the database built before
        if not os.environ.get("BENCH_PUBLIC_DB") or not args.tournament:
            raise SystemExit("--page needs BENCH_PUBLIC_DB=PATH and --tournament ID")
        if args.page in DIRECTOR:
            client.force_login(User.objects.get(username="director"))
        url = {**PUBLIC, **DIRECTOR}[args.page].format(t=args.tournament)
        for _ in range(args.repeat):
            assert client.get(url).status_code == 200
        return

    call_command("migrate", verbosity=0)
    director = User.objects.create_superuser("director", password="x")
    referee = User.objects.create_user("referee", password="x", first_name="Anna", last_name="Sędzia")
    t0 = time.perf_counter()
    few = build("Few moves", args.participants, args.rounds, 1, referee)
    many = build("Many moves", args.participants, args.rounds, args.many, referee)
    moves = [GameEvent.objects.filter(game__table__round__tournament=t).count() for t in (few, many)]
    print(
        f"built in {time.perf_counter() - t0:.0f} s: {args.participants} participants, {args.rounds} rounds "
        f"(the last in play), {moves[0]} and {moves[1]} moves in all "
        f"({os.environ['DJANGO_SQLITE_PATH']}, tournaments {few.pk} and {many.pk})"
    )
    print(load())
    heading = f"{moves[0]} moves".rjust(22) + f"{moves[1]} moves".rjust(25)
    print(f"{'public, median of ' + str(args.runs):30} {heading}")
    measure(PUBLIC, [few, many], client, args.runs)
    measure({"standings, new figures": PUBLIC["standings"]}, [few, many], client, args.runs, cold=True)
    if not args.no_director:
        client.force_login(director)
        measure(DIRECTOR, [few, many], client, max(1, args.runs // 2))
    print(load())


if __name__ == "__main__":
    main()
