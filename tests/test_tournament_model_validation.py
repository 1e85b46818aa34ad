"""A tournament's own settings are checked by the model (``Tournament.full_clean``), so the director's form,
the admin and a script refuse the same values with the same words, each on its field: a table of 3 to 6,
placement points from 0 to MAX_PLACEMENT_POINTS, known tie-break criteria each once. The director's form
only turns its typed text into lists (tests/test_tournament_views.py, tests/test_integer_bounds.py)."""

import json

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils import translation

from rules.standings import MAX_PLACEMENT_POINTS
from tournament.director.forms import TournamentForm
from tournament.models import Tournament

pytestmark = pytest.mark.django_db

TABLE = "A table seats 3 to 6 players."
NUMBERS = "Whole numbers separated by commas, e.g. 4, 2, 1, 0."
AT_MOST = f"A place gets at most {MAX_PLACEMENT_POINTS} points."
CHOOSE = "Choose from: placement points, total score, best single score, games played."

ONE_ROUND = "Ensure this value is greater than or equal to 1."

REFUSED = [  # (field, value, message)
    ("rounds", 0, ONE_ROUND),
    ("table_size", 2, TABLE),
    ("table_size", 7, TABLE),
    ("placement_points", [], NUMBERS),
    ("placement_points", [4, -1, 0], NUMBERS),
    ("placement_points", [4, "2", 0], NUMBERS),
    ("placement_points", [4, 2.5], NUMBERS),
    ("placement_points", [True, 0], NUMBERS),
    ("placement_points", "4, 2, 1, 0", NUMBERS),
    ("placement_points", [4, -1, MAX_PLACEMENT_POINTS + 1], NUMBERS),
    ("placement_points", [MAX_PLACEMENT_POINTS + 1, 0], AT_MOST),
    ("tie_breaks", ["points", "bogus"], CHOOSE),
    ("tie_breaks", ["points", "points"], CHOOSE),
    ("tie_breaks", [["points"]], CHOOSE),
    ("tie_breaks", "points", CHOOSE),
]


def errors_of(tournament) -> dict:
    with pytest.raises(ValidationError) as refused:
        tournament.full_clean()
    return refused.value.message_dict


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.mark.parametrize(("field", "value", "message"), REFUSED)
def test_full_clean_refuses_a_setting_with_its_message_on_its_field(field, value, message):
    t = Tournament(name="Cup", **{field: value})
    assert errors_of(t) == {field: [message]}


def test_full_clean_takes_the_settings_within_the_rules():
    for size in (3, 4, 6):
        Tournament(name="Cup", table_size=size).full_clean()
    Tournament(name="Cup", placement_points=[MAX_PLACEMENT_POINTS, 0], tie_breaks=["games"]).full_clean()
    Tournament(name="Cup", tie_breaks=["games", "best_score", "total_score", "points"]).full_clean()


def test_the_messages_are_in_polish_too():
    with translation.override("pl"):
        errors = errors_of(Tournament(name="Cup", table_size=7, placement_points=[2000], tie_breaks=["x"]))
    assert errors == {
        "table_size": ["Przy stoliku siedzi od 3 do 6 graczy."],
        "placement_points": ["Za miejsce można przyznać najwyżej 1000 punktów."],
        "tie_breaks": [errors["tie_breaks"][0]],
    }
    assert errors["tie_breaks"][0].startswith("Wybierz spośród: ")
    assert "placement points" not in errors["tie_breaks"][0]  # the criteria named in Polish


# The director's form: the same words for the typed text, as before the rules moved to the model.


def director_form(**fields) -> TournamentForm:
    data = {
        "name": "Cup",
        "date": "2026-11-25",
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


@pytest.mark.parametrize(
    ("field", "text", "message"),
    [
        ("rounds", "0", ONE_ROUND),
        ("table_size", "2", TABLE),
        ("table_size", "7", TABLE),
        ("placement_points", "4, two, 1", NUMBERS),
        ("placement_points", ", ;", NUMBERS),
        ("placement_points", "4, -2, 1", NUMBERS),
        ("placement_points", "4; 2; 1001", AT_MOST),
        ("tie_breaks", ",", CHOOSE),
        ("tie_breaks", "points, bogus", CHOOSE),
        ("tie_breaks", "points, points", CHOOSE),
    ],
)
def test_the_directors_form_says_the_same(field, text, message):
    form = director_form(**{field: text})
    assert not form.is_valid()
    assert form.errors == {field: [message]}


def test_the_directors_form_asks_the_browser_for_a_round_at_least():
    assert 'min="1"' in str(director_form()["rounds"])


def test_the_directors_form_reads_its_lists():
    form = director_form(placement_points="5;3, 1,,0", tie_breaks=" games , points ")
    assert form.is_valid(), form.errors
    t = form.save()
    assert (t.placement_points, t.tie_breaks) == ([5, 3, 1, 0], ["games", "points"])


# The admin's change form (a tournament not started) goes through full_clean too.


@pytest.fixture
def admin(client):
    client.force_login(User.objects.create_superuser("root", password="pw"))
    return client


def admin_post(admin, t, **fields):
    data = {
        "name": t.name,
        "date": t.date.isoformat(),
        "variant": t.variant,
        "board": t.board,
        "ending": t.ending,
        "game_rounds": "",
        "time_limit_minutes": "",
        "move_time_limit": "",
        "rounds": t.rounds,
        "table_size": t.table_size,
        "final_table_size": "",
        "placement_points": json.dumps(t.placement_points),
        "tie_breaks": json.dumps(t.tie_breaks),
        "seed": t.seed,
        "trade_flag_cash": t.trade_flag_cash,  # (the admin's page shows them filled: a browser posts them)
        "trade_flag_percent": t.trade_flag_percent,
        "trade_flag_moves": t.trade_flag_moves,
        "created_by": "",
        "participants-TOTAL_FORMS": 0,
        "participants-INITIAL_FORMS": 0,
        "participants-MIN_NUM_FORMS": 0,
        "participants-MAX_NUM_FORMS": 1000,
        **fields,
    }
    return admin.post(f"/admin/tournament/tournament/{t.pk}/change/", data)


def test_the_admin_saves_settings_within_the_rules(admin):
    t = Tournament.objects.create(name="Cup", seed=5)
    response = admin_post(admin, t, table_size=5, placement_points="[3, 1, 0]", tie_breaks='["games"]')
    assert response.status_code == 302
    t.refresh_from_db()
    assert (t.table_size, t.placement_points, t.tie_breaks) == (5, [3, 1, 0], ["games"])


@pytest.mark.parametrize(
    ("field", "posted", "message"),
    [
        ("table_size", 7, TABLE),
        ("table_size", 2, TABLE),
        ("placement_points", "[4, -1]", NUMBERS),
        ("placement_points", '["4", 2]', NUMBERS),
        ("placement_points", f"[{MAX_PLACEMENT_POINTS + 1}]", AT_MOST),
        ("tie_breaks", '["points", "points"]', CHOOSE),
        ("tie_breaks", '["bogus"]', CHOOSE),
    ],
)
def test_the_admin_refuses_a_setting_with_its_message(admin, field, posted, message):
    t = Tournament.objects.create(name="Cup", seed=5)
    response = admin_post(admin, t, **{field: posted})
    assert response.status_code == 200
    assert response.context["adminform"].form.errors == {field: [message]}
    t.refresh_from_db()
    assert (t.table_size, t.placement_points, t.tie_breaks) == (
        4,
        [4, 2, 1, 0],
        ["points", "total_score", "best_score"],
    )
