"""Words people read instead of ids (tournament/labels.py): variant, board and tie-break names on the pages,
in the forms and in the workbook; the tie-break field's words in the request's language; names in Polish
order on the director's page."""

import io
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from tests.accounts import signed_in_director  # noqa: F401 (the fixture director, signed in)
from tests.tournaments import make_tournament
from tournament import labels
from tournament.boards import names
from tournament.director.forms import TournamentForm
from tournament.games import recording
from tournament.models import BoardEdition, Seat

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def tournament(director):
    names = ["Żaneta", "Zenon", "Łukasz", "Lucyna", "Marek", "Anna"]
    return make_tournament(names, name="Cup", variant="tournament-pl", board="classic-pl", rounds=2, seed=3)


def text(response) -> str:
    return response.content.decode()


def test_every_variant_and_shipped_board_has_a_name():
    from rules import available_variants
    from rules.board import shipped_boards

    assert set(labels.VARIANTS) == set(available_variants())
    assert set(labels.SHIPPED_BOARDS) == set(shipped_boards())
    with translation.override("en"):
        assert labels.variant_label("anti-monopoly") == "Anti-Monopoly"
        assert names.board_label("classic-pl") == "Monopoly, Polish edition (Warsaw)"
        assert labels.variant_label("from-a-record") == "from-a-record"  # unknown: as it is
        assert labels.tie_break_label("total_score") == "total score"


def test_the_words_read_no_models():
    """labels is only words (the models may read it: no circle); a board's stored name is boards.names'."""
    code = "import sys, tournament.labels; print([m for m in sys.modules if m.startswith('tournament')])"
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert "tournament.labels" in run.stdout and "tournament.models" not in run.stdout


@pytest.mark.parametrize(
    ("language", "written"),
    [
        ("en", "1st 2nd 3rd 4th 10th 11th 12th 13th 21st 22nd 23rd 101st 111th"),
        ("pl", "1. 2. 3. 4. 10. 11. 12. 13. 21. 22. 23. 101. 111."),
    ],
)
def test_a_place_in_an_order_as_each_language_writes_it(language, written):
    numbers = (1, 2, 3, 4, 10, 11, 12, 13, 21, 22, 23, 101, 111)
    with translation.override(language):
        assert " ".join(labels.ordinal(n) for n in numbers) == written


def test_a_role_in_words_is_the_seats_choice():
    assert {role: str(words) for role, words in labels.ROLES.items()} == dict(Seat.Role.choices)
    with translation.override("pl"):
        assert labels.role_label("monopolist") == str(Seat.Role.MONOPOLIST.label)
        assert labels.role_letter("competitor") == str(Seat.Role.COMPETITOR.label)[0].upper()
    assert labels.role_label("") == "" and labels.role_letter("") == ""


def test_an_uploaded_edition_is_named_by_its_name(director):
    BoardEdition.objects.create(id="anty-pl", name="Anty-Monopol, wydanie polskie", data={})
    assert names.board_label("anty-pl") == "Anty-Monopol, wydanie polskie"
    assert names.board_label("no-such-board") == "no-such-board"
    assert labels.board_label("anty-pl", {}) == "anty-pl"  # the words alone: the database not asked
    assert ("anty-pl", "Anty-Monopol, wydanie polskie (anty-pl)") in names.board_choices()


def test_the_tournament_pages_name_the_variant_and_the_board(client, tournament):
    for url in (reverse("tournaments"), reverse("tournament", args=[tournament.pk]), reverse("home")):
        page = text(client.get(url))
        assert "Tournament rules (10 rounds of play)" in page and "tournament-pl" not in page
        assert "Monopoly, Polish edition (Warsaw)" in page
    form = text(client.get(reverse("tournament_edit", args=[tournament.pk])))
    assert '<option value="anti-monopoly">Anti-Monopoly</option>' in form
    assert '<option value="classic-pl" selected>Monopoly, Polish edition (Warsaw)</option>' in form


def test_the_game_list_and_the_new_game_form_name_the_variant_and_the_board(client, director):
    recording.create_game(
        name="", variant="anti-monopoly", board="anti-monopoly-us", referees=[director],
        players=[{"name": "Anna", "role": "competitor"}, {"name": "Bartek", "role": "monopolist"}],
    )  # fmt: skip
    page = text(client.get(reverse("games")))
    assert "Anti-Monopoly #" in page and "Anti-Monopoly, US edition" in page and "anti-monopoly" not in page
    form = text(client.get(reverse("game_new")))
    assert '<option value="short">Short game</option>' in form
    assert '<option value="classic-us">Monopoly, US classic edition</option>' in form


def test_the_workbook_names_the_variant_board_and_tie_breaks(client, tournament):
    data = client.get(reverse("tournament_workbook", args=[tournament.pk])).content
    sheet = load_workbook(io.BytesIO(data)).worksheets[-1]
    values = [row[1] for row in sheet.iter_rows(values_only=True)]
    assert "Tournament rules (10 rounds of play)" in values and "Monopoly, Polish edition (Warsaw)" in values
    assert "placement points, total score, best single score" in values


def test_tie_breaks_are_offered_by_name_in_the_request_language(client, tournament):
    form = text(client.get(reverse("tournament_edit", args=[tournament.pk])))
    assert '<option value="total_score" selected>total score</option>' in form
    assert "The standings order participants by the first criterion" in form
    assert "points, total_score" not in form
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "pl"
    form = text(client.get(reverse("tournament_edit", args=[tournament.pk])))
    assert "Kolejność kryteriów dodatkowych" in form  # the label, and the help text, in Polish: not frozen
    with translation.override("pl"):
        help_text = str(TournamentForm().fields["tie_breaks"].help_text)
        assert help_text == translation.gettext(
            "The standings order participants by the first criterion; those equal on it by the second, "
            "and so on."
        )
    with translation.override("en"):
        assert str(TournamentForm().fields["tie_breaks"].help_text).startswith("The standings order")
    refused = text(client.post(reverse("tournament_edit", args=[tournament.pk]), {"tie_breaks": "luck"}))
    assert "Wybierz spośród:" in refused and "total_score" not in refused.split("Wybierz spośród:")[1][:200]


def test_tie_breaks_posted_one_per_select(client, tournament):
    data = {
        "name": "Cup", "date": "2026-12-05", "variant": "classic", "board": "classic-us", "rounds": "3",
        "table_size": "4", "placement_points": "4,2,1,0", "seed": "1",
        "tie_breaks_0": "points", "tie_breaks_1": "best_score", "tie_breaks_2": "", "tie_breaks_3": "games",
    }  # fmt: skip
    response = client.post(reverse("tournament_edit", args=[tournament.pk]), data)
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.tie_breaks == ["points", "best_score", "games"]
    data.update(tie_breaks_1="points")  # twice: refused
    response = client.post(reverse("tournament_edit", args=[tournament.pk]), data)
    assert response.status_code == 200 and 'class="error"' in text(response)


def test_the_director_sees_participants_in_polish_order(client, tournament):
    page = text(client.get(reverse("tournament", args=[tournament.pk])))
    order = ["Anna", "Lucyna", "Łukasz", "Marek", "Zenon", "Żaneta"]
    positions = [page.index(f">{n} <a") for n in order]
    assert positions == sorted(positions)
