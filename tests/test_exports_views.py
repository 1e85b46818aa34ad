"""Every output is reachable from the pages a director and a referee use, for the right people, and comes
back as the file it claims to be (the figures themselves: test_exports_pdf, test_exports_workbook)."""

import io
import re
import subprocess

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from rules import replay
from tournament.event import interventions, results, rounds
from tournament.models import Participant, Tournament
from tournament.people import participant_links
from tournament.people.participant_links import link_path
from tournament.reports import games as reports

from .pdf_pages import save
from .tournaments import make_tournament, play_anti_monopoly_table, play_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup(client):
    t = Tournament.objects.create(name="Mistrzostwa Łodzi", rounds=2, game_rounds=2, seed=5)
    for i in range(8):
        Participant.objects.create(tournament=t, name=f"Gracz {i} Żółć", club=f"klub {i % 3}")
    referee = User.objects.create_user("ref", password="pw")
    director = User.objects.create_user("director", password="pw", is_staff=True)
    round_ = play_round(t, referee, seed=3)
    table = round_.tables.get(number=1)
    table.referees.add(referee)  # the referee of table 1 (and of its game), as the director assigns him
    table.game.referees.add(referee)
    return {"t": t, "round": round_, "table": round_.tables.get(number=1), "ref": referee, "dir": director}


def hrefs(client, url) -> set[str]:
    page = client.get(url)
    assert page.status_code == 200, url
    return set(re.findall(r'href="([^"]+)"', page.content.decode()))


def pdf_pages(response) -> list[str]:
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    return [p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages]


def test_the_director_reaches_every_output_from_his_pages(client, setup):
    t, round_, table = setup["t"], setup["round"], setup["table"]
    client.force_login(setup["dir"])
    tournament_page = hrefs(client, reverse("tournament", args=[t.pk]))
    round_page = hrefs(client, reverse("round", args=[t.pk, 1]))
    table_page = hrefs(client, reverse("table", args=[t.pk, 1, 1]))
    game_page = hrefs(client, reverse("game_cards", args=[table.game.pk]))
    expected = {
        reverse("tournament_workbook", args=[t.pk]): tournament_page,
        reverse("tournament_sheets_pdf", args=[t.pk]): tournament_page,
        reverse("standings_pdf", args=[t.pk]): tournament_page,
        reverse("tournament_blank_card_pdf", args=[t.pk]): tournament_page,
        reverse("participant_cards_pdf", args=[t.pk, t.participants.first().pk]): tournament_page,
        reverse("round_sheets_pdf", args=[t.pk, 1]): round_page,
        reverse("table_sheet_pdf", args=[t.pk, 1, 1]): table_page,
        reverse("table_blank_pdf", args=[t.pk, 1, 1]): table_page,
        reverse("game_cards_pdf", args=[table.game.pk]): game_page,
    }
    for url, page in expected.items():
        assert url in page, url
        response = client.get(url)
        assert response.status_code == 200, url
        if url.endswith(".pdf"):
            assert all(t.name in text for text in pdf_pages(response)), url
    tables = round_.tables.count()
    assert len(pdf_pages(client.get(reverse("round_sheets_pdf", args=[t.pk, 1])))) == tables
    workbook = client.get(reverse("tournament_workbook", args=[t.pk]))
    assert workbook["Content-Disposition"] == (
        "attachment; filename*=utf-8''mistrzostwa-%C5%82odzi.xlsx"  # the Polish letters kept (RFC 6266)
    )
    assert load_workbook(io.BytesIO(workbook.content)).sheetnames


def test_a_referee_prints_his_tables_and_the_round_but_not_the_tournament(client, setup):
    t, table = setup["t"], setup["table"]
    client.force_login(setup["ref"])
    for name, args in (
        ("table_sheet_pdf", [t.pk, 1, 1]),
        ("table_blank_pdf", [t.pk, 1, 1]),
        ("round_sheets_pdf", [t.pk, 1]),
        ("game_cards_pdf", [table.game.pk]),
    ):
        assert client.get(reverse(name, args=args)).status_code == 200, name
    for name, args in (
        ("tournament_sheets_pdf", [t.pk]),
        ("tournament_workbook", [t.pk]),
        ("participant_cards_pdf", [t.pk, t.participants.first().pk]),
    ):
        assert client.get(reverse(name, args=args)).status_code == 403, name
    stranger = User.objects.create_user("stranger", password="pw")
    client.force_login(stranger)
    assert client.get(reverse("table_sheet_pdf", args=[t.pk, 1, 1])).status_code == 403
    assert client.get(reverse("game_cards_pdf", args=[table.game.pk])).status_code == 403


def test_a_participants_cards_replay_his_games_only(client, setup, monkeypatch):
    """Not every game of the tournament: the cost of his cards grows with his games alone."""
    t = setup["t"]
    participant = t.participants.first()
    replayed = []

    def counted(record, **kwargs):
        replayed.append([p["name"] for p in record["players"]])
        return replay(record, **kwargs)

    monkeypatch.setattr(reports, "replay", counted)
    client.force_login(setup["dir"])
    pages = pdf_pages(client.get(reverse("participant_cards_pdf", args=[t.pk, participant.pk])))
    assert len(replayed) == 1 and participant.name in replayed[0]  # one round played: one game of two
    assert participant.name in pages[0]


def test_everyone_gets_the_standings_and_a_blank_card(client, setup):
    t = setup["t"]
    assert client.get(reverse("standings_pdf", args=[t.pk])).status_code == 200
    assert reverse("standings_pdf", args=[t.pk]) in hrefs(client, reverse("standings", args=[t.pk]))
    assert client.get(reverse("blank_card_pdf")).status_code == 200
    assert client.get(reverse("table_sheet_pdf", args=[t.pk, 1, 1])).status_code == 302  # log in first


def test_outputs_in_polish(client, setup):
    t = setup["t"]
    client.force_login(setup["dir"])
    pages = pdf_pages(client.get(reverse("table_sheet_pdf", args=[t.pk, 1, 1]), HTTP_ACCEPT_LANGUAGE="pl"))
    assert "Mistrzostwa Łodzi" in pages[0] and "Żółć" in pages[0]
    assert "strona 1 z 1" in pages[0].lower()


def test_the_game_page_shows_the_chart(client, setup):
    client.force_login(setup["ref"])
    page = client.get(reverse("game_cards", args=[setup["table"].game.pk])).content.decode()
    assert "<svg" in page and "Net worth turn by turn" in page


# -- the players' private links on the result sheets ---------------------------------------------------------


def codes(pdf: bytes, tmp_path) -> list[set[str]]:
    """Every QR code of each page, read as a phone's camera reads them off the printed sheet: poppler's
    pdftoppm renders the pages at 150 dpi, zbar's zbarimg reads every code on each (tests/setup.sh installs
    both); zbarimg says 4 for a page without any."""
    (tmp_path / "sheets.pdf").write_bytes(pdf)
    for old in tmp_path.glob("page*.png"):
        old.unlink()
    subprocess.run(["pdftoppm", "-png", "-r", "150", tmp_path / "sheets.pdf", tmp_path / "page"], check=True)
    pages = []
    for png in sorted(tmp_path.glob("page*.png")):
        read = subprocess.run(["zbarimg", "--quiet", "--raw", png], capture_output=True, text=True)
        assert read.returncode in (0, 4), read.stderr
        pages.append(set(read.stdout.split()))
    return pages


def flat_pages(response) -> list[str]:
    """Each page's text without its white space: an address wrapped over two lines reads whole."""
    return ["".join(text.split()) for text in pdf_pages(response)]


@pytest.fixture
def anti_monopoly(referee, director):
    """Ten participants at two Anti-Monopoly tables of five, round 1 played and confirmed; then one revoked
    link (Anna, who lost her phone) and one participant withdrawn (Bartek)."""
    t = make_tournament(
        ["Anna", "Bartek", "Celina Żółć", "Dawid", "Ewa", "Filip", "Gosia", "Henryk", "Iga", "Jacek"],
        name="Anty-Puchar",
        variant="anti-monopoly",
        board="anti-monopoly-us",
        rounds=3,
        game_rounds=3,
        table_size=5,
        seed=11,
    )
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    for table in round_.tables.all():
        table.referees.add(referee)
        play_anti_monopoly_table(table, referee, seed=1)
        results.confirm(table, referee)
    participant_links.revoke(t.participants.get(name="Anna"), director, "lost her phone")
    interventions.withdraw(t.participants.get(name="Bartek"), director, "ill")
    return t


def sheet_links(t: Tournament, base: str) -> list[set[str]]:
    """Each table's players' links in table order, as their sheets must carry them: none for a revoked link
    or a withdrawn participant."""
    return [
        {
            base + link_path(s.participant)
            for s in table.seats.select_related("participant")
            if s.participant.active and s.participant.link_key
        }
        for table in t.round_set.get(number=1).tables.order_by("number")
    ]


def test_the_result_sheets_carry_no_private_link_unless_the_tournament_says_so(
    client, director, anti_monopoly, tmp_path
):
    t = anti_monopoly
    assert Tournament._meta.get_field("links_on_sheets").default is False and not t.links_on_sheets
    client.force_login(director)
    for url in (
        reverse("table_sheet_pdf", args=[t.pk, 1, 1]),
        reverse("round_sheets_pdf", args=[t.pk, 1]),
        reverse("tournament_sheets_pdf", args=[t.pk]),
    ):
        response = client.get(url)
        assert all("/me/" not in text for text in flat_pages(response)), url
        assert all(found == set() for found in codes(response.content, tmp_path)), url


@pytest.mark.parametrize("public", ["", "https://monopoly.example.org"])
def test_each_players_code_on_his_tables_sheet_reads_as_his_link(
    client, director, referee, anti_monopoly, tmp_path, settings, public
):
    """A tournament that prints them: each player's signature box carries his link as a QR code and written
    out, on the table's sheet (printed by its referee too), the round's and the whole tournament's; none for
    Anna's revoked link, none for Bartek, withdrawn since, none in the referee's box; one A4 page a table."""
    settings.PUBLIC_URL = public
    t = anti_monopoly
    Tournament.objects.filter(pk=t.pk).update(links_on_sheets=True)
    base = public or "http://testserver"
    expected = sheet_links(t, base)
    assert sum(len(x) for x in expected) == 8 and all(len(x) >= 3 for x in expected)
    everyone = {base + link_path(p) for p in t.participants.exclude(link_key=None)}  # Bartek's too

    client.force_login(referee)
    table_1 = client.get(reverse("table_sheet_pdf", args=[t.pk, 1, 1]))
    assert codes(table_1.content, tmp_path) == expected[:1]
    [text] = flat_pages(table_1)
    assert all(url in text for url in expected[0]) and text.count("/me/") == len(expected[0])
    save(table_1.content, "result-sheet-with-links")  # out/pdf/: look at it

    client.force_login(director)
    for url in (reverse("round_sheets_pdf", args=[t.pk, 1]), reverse("tournament_sheets_pdf", args=[t.pk])):
        response = client.get(url)
        assert codes(response.content, tmp_path) == expected, url
        for text, links in zip(flat_pages(response), expected, strict=True):
            assert {u for u in everyone if u in text} == links, url
