"""The outputs of a few simulated tournaments, written to a folder to compare two versions of the code (a
tool, not a test): a change that only moves code must leave every file equal.

    python tests/outputs_snapshot.py DIR          # then, on the other version: diff -r DIR OTHER_DIR

Three tournaments (the Polish tournament rules, the classic rules, Anti-Monopoly's two-hour game) are played
to their end with the simulator's games entered move by move, as a referee would; then every page a
director, a referee and the public see is fetched in English and in Polish, and written as it reads: a
page's HTML (without the tokens that change each request), a PDF's text page by page, a workbook's cells,
the backup's JSON. Clock times and dates, which differ from run to run, are replaced by placeholders.
"""

from __future__ import annotations

import io
import json
import os
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "snapshot-only")
os.environ.setdefault("DJANGO_HTTPS", "0")
os.environ.setdefault("DJANGO_STATIC_MANIFEST", "0")
os.environ["DJANGO_SQLITE_PATH"] = os.path.join(tempfile.mkdtemp(), "snapshot.sqlite3")
os.environ.pop("DATABASE_URL", None)

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from openpyxl import load_workbook  # noqa: E402
from pypdf import PdfReader  # noqa: E402

from rules.simulate import simulate  # noqa: E402
from tournament.models import Game, Participant, Tournament  # noqa: E402

TOURNAMENTS = [
    # name, variant, board, options, players, rounds, game rounds
    ("Polish rules", "tournament-pl", "classic-pl", {}, 12, 3, 10),
    ("Classic", "classic", "classic-us", {}, 9, 2, 8),
    ("Anti-Monopoly", "anti-monopoly", "anti-monopoly-us", {"ending": "two_hour"}, 8, 2, None),
]

CLOCK = re.compile(r"\b\d{1,2}:\d{2}(:\d{2})?\b")
#: English 12-hour times ("10:15 p.m.", on the hour "10 a.m.", "noon"), whatever the hour of the run
TWELVE_HOURS = re.compile(r"\b(\d{1,2}(:\d{2}(:\d{2})?)? [ap]\.m\.|noon\b|midnight\b)")
DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}([T ][\d:.+Z-]+)?\b|\b\d{1,2}[./]\d{1,2}[./]\d{4}\b")
TOKEN = re.compile(
    r'(csrfmiddlewaretoken" value=|nonce=|"X-CSRFToken": |name="client_key" value=)"?[\w.-]+"?'
    r"|(seen=|name=\"seen\" value=\")\d+\.\d+"
)
LONG_DATE = re.compile(
    r"\b\d{1,2} (January|February|March|April|May|June|July|August|September|October|November|December"
    r"|stycznia|lutego|marca|kwietnia|maja|czerwca|lipca|sierpnia|września|października|listopada|grudnia)"
    r" \d{4}\b|\b(Jan|Feb|Mar|Apr|May|June|July|Aug|Sept|Oct|Nov|Dec)\.? \d{1,2}, \d{4}\b"
)


#: A participant's private link's key in the backup: drawn at random for each run (secrets)
LINK_KEY = re.compile(r'("link_key": )"[\w-]{24}"')


def normalised(text: str) -> str:
    text = TOKEN.sub(lambda m: (m.group(1) or m.group(2)) + "TOKEN", text)
    text = LINK_KEY.sub(r'\1"KEY"', text)
    text = DATE.sub("DATE", text)
    text = LONG_DATE.sub("DATE", text)
    return CLOCK.sub("CLOCK", TWELVE_HOURS.sub("CLOCK p.m.", text))


def play(director, referee, name, variant, board, options, players, rounds_, game_rounds) -> Tournament:
    from tournament.event import results, rounds
    from tournament.games import recording

    t = Tournament.objects.create(
        name=name,
        variant=variant,
        board=board,
        rounds=rounds_,
        table_size=4,
        final_table_size=4,
        game_rounds=game_rounds,
        seed=7,
        created_by=director,
        **options,
    )
    Participant.objects.bulk_create(
        Participant(tournament=t, name=f"Gracz {i:02d}", club=f"Klub {i % 3}") for i in range(players)
    )
    for number in range(1, rounds_ + 1):
        round_ = rounds.seat_next_round(t)
        for table in round_.tables.all():
            table.referees.set([referee])
        rounds.start_round(round_)
        for i, table in enumerate(round_.tables.all()):
            game = rounds.start_table_game(table, [s.participant_id for s in table.seats.all()], referee)
            seed = 1000 * number + i
            roles = [p.role for p in game.players.order_by("seat")] if options else None
            record = simulate(
                variant,
                board,
                table.seats.count(),
                seed=seed,
                rounds=game_rounds,
                options=options or None,
                roles=roles,
            )
            last = rounds_ == number and i == 0
            for ev in record["events"][: 40 if last else None]:
                game = recording.submit(game.pk, ev, version=game.version, user=referee).game
            if recording.current_state(game).finished:
                results.confirm(table, referee)
    return t


def write(out: Path, name: str, response) -> None:
    kind = response.get("Content-Type", "")
    body = response.content
    if response.status_code != 200:
        text = f"status {response.status_code}\n"
    elif "pdf" in kind:
        text = "\n--- page ---\n".join(p.extract_text() for p in PdfReader(io.BytesIO(body)).pages)
    elif "spreadsheet" in kind:
        wb = load_workbook(io.BytesIO(body))
        text = json.dumps(
            {ws.title: [[c for c in row] for row in ws.iter_rows(values_only=True)] for ws in wb.worksheets},
            default=str,
            ensure_ascii=False,
            indent=0,
        )
    else:
        text = body.decode()
    (out / name).write_text(normalised(text))


def main(out: Path) -> None:
    setup_test_environment()
    settings.ALLOWED_HOSTS = ["*"]
    call_command("migrate", verbosity=0)
    director = User.objects.create_superuser("director", password="x")
    referee = User.objects.create_user("referee", password="x", first_name="Zofia", last_name="Kamińska")
    out.mkdir(parents=True, exist_ok=True)
    tournaments = [play(director, referee, *spec) for spec in TOURNAMENTS]
    for language in ("en", "pl"):
        for who, user in (("director", director), ("referee", referee), ("public", None)):
            client = Client(HTTP_ACCEPT_LANGUAGE=language)
            if user:
                client.force_login(user)
            client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
            pages = ["/", "/my-tables/", "/games/", "/tournaments/", "/blank-card.pdf"]
            for t in tournaments:
                base = f"/tournaments/{t.pk}"
                pages += [
                    f"{base}/",
                    f"{base}/standings/",
                    f"{base}/projector/",
                    f"{base}/seating/",
                    f"{base}/standings.pdf",
                    f"{base}/sheets.pdf",
                    f"{base}/workbook.xlsx",
                    f"{base}/backup.json",
                    f"{base}/blank-card.pdf",
                ]
                for r in t.round_set.all():
                    pages += [
                        f"{base}/rounds/{r.number}/",
                        f"{base}/rounds/{r.number}/sheets.pdf",
                        f"{base}/rounds/{r.number}/seating/",
                    ]
                    for table in r.tables.all():
                        pages += [f"{base}/rounds/{r.number}/tables/{table.number}/"]
                for p in t.participants.all()[:2]:
                    pages += [f"{base}/participants/{p.pk}/cards.pdf"]
            for g in Game.objects.order_by("pk"):
                pages += [
                    f"/games/{g.pk}/",
                    f"/games/{g.pk}/moves/",
                    f"/games/{g.pk}/record.json",
                    f"/games/{g.pk}/cards.pdf",
                    f"/games/{g.pk}/cards/",
                ]
            for page in pages:
                name = f"{language}-{who}-" + (page.strip("/").replace("/", "_") or "home")
                response = client.get(page)
                if response.status_code in (301, 302):
                    response = client.get(page, follow=True)
                write(out, name, response)
    print(f"{len(list(out.iterdir()))} files in {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
