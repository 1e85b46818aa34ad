"""Every number the app stores is bounded as its column is on both databases (SQLite takes 64 bits where
PostgreSQL's integer holds 32 and its smallint 16), in the forms, the participants import, the backup import
and the board files: a seed of 3·10¹⁰ typed on SQLite would make a backup PostgreSQL cannot restore."""

import html
import io
import json

import pytest
from django.contrib.auth.models import User
from django.core.validators import MaxValueValidator
from django.db import models
from django.urls import reverse
from django.utils import translation

from rules import BoardError
from rules.board import BOARDS_DIR, MAX_BOARD_NUMBER, parse_board
from tournament.boards import editions
from tournament.boards.files.columns import BoardFileError
from tournament.boards.files.reading import read_board_file
from tournament.director.forms import ParticipantForm, TournamentForm
from tournament.event import interventions, rounds
from tournament.files.participants_import import ParticipantFileError, read_participants
from tournament.models import BoardEdition, Participant, Round, Tournament
from tournament.models.bounds import INTEGER_MAX, SMALL_MAX, TOURNAMENT_SEED_MAX, field_maximum

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]  # on PostgreSQL too

SEED = 3 * 10**10  # fits SQLite's 64 bits, not PostgreSQL's integer


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def test_every_integer_column_has_the_bound_of_both_databases():
    from django.apps import apps

    postgres = {
        models.PositiveSmallIntegerField: SMALL_MAX,
        models.PositiveIntegerField: INTEGER_MAX,
        models.SmallIntegerField: SMALL_MAX,
        models.IntegerField: INTEGER_MAX,
    }
    for model in apps.get_app_config("tournament").get_models():
        for field in model._meta.concrete_fields:
            kind = next((k for k in postgres if type(field) is k), None)
            if kind is None or model.__name__ == "BoardEdition":  # its version: one more per replacement
                continue
            limits = [v.limit_value for v in field.validators if isinstance(v, MaxValueValidator)]
            assert limits and min(limits) <= postgres[kind], f"{model.__name__}.{field.name}"


def tournament_form(**fields):
    data = {
        "name": "Cup",
        "date": "2026-12-05",
        "variant": "tournament-pl",
        "board": "classic-pl",
        "rounds": "5",
        "table_size": "4",
        "placement_points": "4, 2, 1, 0",
        "tie_breaks": "points, total_score",
        "seed": "42",
        **fields,
    }
    return TournamentForm(data)


def test_the_tournament_form_refuses_numbers_beyond_the_columns():
    assert tournament_form().is_valid()
    form = tournament_form(seed=str(SEED), game_rounds="40000", move_time_limit="32768")
    assert not form.is_valid()
    assert form.errors["seed"] == [f"Ensure this value is less than or equal to {TOURNAMENT_SEED_MAX}."]
    assert form.errors["game_rounds"] == ["Ensure this value is less than or equal to 32767."]
    assert form.errors["move_time_limit"] == ["Ensure this value is less than or equal to 32767."]
    assert form.fields["seed"].widget.attrs["max"] == TOURNAMENT_SEED_MAX  # the browser is told too
    form = tournament_form(placement_points="5000, 3, 1, 0")
    assert not form.is_valid() and form.errors["placement_points"] == ["A place gets at most 1000 points."]


def test_the_largest_tournament_seed_seats_its_rounds_within_the_round_column(settings):
    t = tournament_form(seed=str(TOURNAMENT_SEED_MAX), rounds=str(SMALL_MAX)).save()
    for i in range(4):
        Participant.objects.create(tournament=t, name=f"P{i}")
    round_ = rounds.seat_next_round(t)
    assert round_.seed <= field_maximum(Round, "seed")
    round_.seed = INTEGER_MAX
    round_.save()
    round_ = interventions.reseat(round_, None, "late arrivals")  # another draw: within the column still
    assert 1 <= Round.objects.get(pk=round_.pk).seed <= INTEGER_MAX


def test_the_participant_form_and_import_refuse_a_seed_beyond_the_column():
    t = Tournament.objects.create(name="Cup")
    form = ParticipantForm({"name": "Anna", "seed": str(SEED)}, tournament=t)
    assert not form.is_valid()
    assert form.errors["seed"] == ["Ensure this value is less than or equal to 2147483647."]
    assert ParticipantForm({"name": "Anna", "seed": str(INTEGER_MAX)}, tournament=t).is_valid()
    with pytest.raises(ParticipantFileError) as e:
        read_participants("p.csv", f"Anna,X,{SEED}\nBartek,Y,{INTEGER_MAX}\n".encode())
    assert e.value.problems == [(1, "the seed must be at most 2147483647, not “30000000000”")]


def test_the_participant_import_page_refuses_a_seed_beyond_the_column(client):
    client.force_login(User.objects.create_user("director", password="pw", is_staff=True))
    t = Tournament.objects.create(name="Cup")
    upload = io.BytesIO(f"Anna,X,{SEED}\n".encode())
    upload.name = "p.csv"
    response = client.post(reverse("participant_import", args=[t.pk]), {"file": upload}, follow=True)
    assert response.status_code == 200
    assert "the seed must be at most 2147483647" in response.content.decode()
    assert not Participant.objects.exists()


def board(**square_3):
    data = json.loads((BOARDS_DIR / "classic-us.json").read_text(encoding="utf-8"))
    data["id"] = "big-board"
    data["squares"][3].update(square_3)
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"price": 10**40},
            "field 'price': must be at most 1000000, got 1000000000000000000000000",
        ),
        ({"rents": [4, 20, 60, 180, 320, 10**40]}, "field 'rents': must be at most 1000000, got 1000000000"),
        ({"house_cost": MAX_BOARD_NUMBER + 1}, "field 'house_cost': must be at most 1000000, got 1000001."),
    ],
    ids=["price", "rent", "house"],
)
def test_a_board_with_a_number_beyond_bounds_is_refused(client, change, message):
    data = board(**change)
    with pytest.raises(BoardError):
        parse_board(data)
    with pytest.raises(BoardFileError) as e:
        editions.check_board(data)
    assert any(message in p for p in e.value.problems), e.value.problems
    client.force_login(User.objects.create_user("director", password="pw", is_staff=True))
    f = io.BytesIO(json.dumps(data).encode())
    f.name = "big.json"
    response = client.post(reverse("board_upload"), {"file": f}, follow=True)
    assert response.status_code == 200 and message in html.unescape(response.content.decode())
    assert not BoardEdition.objects.exists()


def test_a_board_at_the_bounds_is_stored():
    data = board(price=MAX_BOARD_NUMBER, mortgage=MAX_BOARD_NUMBER)
    assert editions.store_board(data, None).pk == "big-board"


def test_a_board_file_with_a_float_too_large_for_json_is_refused(client):
    """1e400 is infinity to Python's reader: stored as a board's data, PostgreSQL refused it (a 500)."""
    text = json.dumps(board(source="@")).replace('"@"', "1e400").encode()
    message = "The file is not a board in JSON: it holds a number that is not valid JSON or is too long."
    with pytest.raises(BoardFileError) as e:
        read_board_file("b.json", text)
    assert e.value.problems == [message]
    client.force_login(User.objects.create_user("director", password="pw", is_staff=True))
    f = io.BytesIO(text)
    f.name = "big.json"
    response = client.post(reverse("board_upload"), {"file": f}, follow=True)
    assert response.status_code == 200 and message in html.unescape(response.content.decode())
    assert not BoardEdition.objects.exists()
