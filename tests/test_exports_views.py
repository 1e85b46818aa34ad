"""Every output is reachable from the pages a director and a referee use, for the right people, and comes
back as the file it claims to be (the figures themselves: test_exports_pdf, test_exports_workbook)."""

import io
import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from rules import replay
from tournament import reports
from tournament.models import Participant, Tournament

from .tournaments import play_round

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


def links(client, url) -> set[str]:
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
    tournament_page = links(client, reverse("tournament", args=[t.pk]))
    round_page = links(client, reverse("round", args=[t.pk, 1]))
    table_page = links(client, reverse("table", args=[t.pk, 1, 1]))
    game_page = links(client, reverse("game_cards", args=[table.game.pk]))
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
    assert reverse("standings_pdf", args=[t.pk]) in links(client, reverse("standings", args=[t.pk]))
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
