"""A variant is played only on a board that fits it (rules/fit.py): the rule itself, a record's header, the
tournament and new-game forms (the board select offers the fitting boards; the server refuses the others,
naming those that fit), a table's record import and a tournament's backup import — each refusal stores
nothing. Also the tournament form as a browser sends it: the date as a date input gives it in every language,
the tie-break criteria after the first not required; a stored board not replaced by one its tournaments do not
fit; `simulate` refusing such a pair."""

import html
import json
import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import translation

from rules import RecordError, get_board, make_variant, parse_record
from rules.board import BOARDS_DIR
from rules.fit import board_fits, fitting_boards, made_for_roles, why_board_does_not_fit
from rules.simulate import simulate
from tests.accounts import signed_in_director  # noqa: F401 (the fixture director, signed in)
from tournament.boards.editions import boards_by_variant, store_board
from tournament.boards.files.columns import BoardFileError
from tournament.director.forms import TournamentForm
from tournament.director.views import _saved_on_its_board
from tournament.event import rounds
from tournament.files import backup
from tournament.games import recording
from tournament.games.record_import import RecordImportError, import_table_record
from tournament.models import BoardEdition, Game, GameEvent, GamePlayer, Participant, Tournament
from tournament.models.boards import data_digest
from tournament.reports.games import game_report

CLASSIC_BOARDS = ["classic-pl", "classic-us"]
WITHOUT_ROLES = ["classic", "polish-table", "short", "timed", "tournament-pl"]


def header(variant, board, **extra):
    roles = ["competitor", "monopolist"] if make_variant(variant).roles else [None, None]
    return {
        "format": "monopoly-game-record/1",
        "variant": variant,
        "board": board,
        "players": [{"id": pid, **({"role": r} if r else {})} for pid, r in zip("AB", roles, strict=True)],
        "events": [],
        **extra,
    }


# -- the rule ------------------------------------------------------------------------------------------------


def test_an_anti_monopoly_board_is_the_one_made_for_roles():
    assert made_for_roles(get_board("anti-monopoly-us"))
    assert not any(made_for_roles(get_board(b)) for b in CLASSIC_BOARDS)


@pytest.mark.parametrize("variant", [*WITHOUT_ROLES, "anti-monopoly"])
def test_each_variant_fits_its_own_boards_only(variant):
    fitting = ["anti-monopoly-us"] if variant == "anti-monopoly" else CLASSIC_BOARDS
    assert fitting_boards(make_variant(variant)) == fitting
    for board in ["anti-monopoly-us", *CLASSIC_BOARDS]:
        assert board_fits(make_variant(variant), get_board(board)) == (board in fitting)


def test_the_refusal_says_why_and_names_the_boards_that_fit():
    why = why_board_does_not_fit(make_variant("anti-monopoly"), get_board("classic-pl"))
    assert why.code == "board.does_not_fit"
    assert why.message == (
        "The board “classic-pl” does not fit the variant “anti-monopoly”: this variant is played by "
        "competitors and monopolists, and the board prints nothing of theirs (their cards, their rents, the "
        "Foundation). Boards that fit: anti-monopoly-us."
    )
    why = why_board_does_not_fit(make_variant("classic"), get_board("anti-monopoly-us"))
    assert "made for a game of competitors and monopolists" in why.message
    assert why.message.endswith("Boards that fit: classic-pl, classic-us.")
    assert why_board_does_not_fit(make_variant("anti-monopoly"), get_board("anti-monopoly-us")) is None


def test_a_record_naming_a_variant_and_a_board_that_do_not_fit_is_refused():
    parse_record(header("anti-monopoly", "anti-monopoly-us"))
    for variant, board in [("anti-monopoly", "classic-pl"), ("tournament-pl", "anti-monopoly-us")]:
        with pytest.raises(RecordError) as e:
            parse_record(header(variant, board))
        assert e.value.code == "board.does_not_fit"
    with pytest.raises(RecordError) as e:  # roles switched on through the options: the same rule
        parse_record(
            {
                **header("classic", "classic-us", options={"roles": True}),
                "players": [{"id": "A", "role": "competitor"}, {"id": "B", "role": "monopolist"}],
            }
        )
    assert e.value.code == "board.does_not_fit"


def test_replay_refuses_such_a_record_with_a_clear_error(tmp_path, settings):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(header("anti-monopoly", "classic-pl")))
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("replay", str(path), "--language", "en", stdout=out)
    error = json.loads(out.getvalue())["error"]
    assert error["index"] is None and error["code"] == "board.does_not_fit"
    assert "Boards that fit: anti-monopoly-us." in error["message"]


def test_simulate_refuses_a_board_that_does_not_fit():
    out = StringIO()
    with pytest.raises(CommandError, match="board.does_not_fit"):
        call_command("simulate", "--variant", "anti-monopoly", "--board", "classic-pl", stdout=out)
    assert out.getvalue() == ""


# -- the tournament form -------------------------------------------------------------------------------------


def text(response) -> str:
    return html.unescape(response.content.decode())


def form_data(**changes):
    """The new tournament's form as a browser sends it, every default untouched (the fourth tie-break "—")."""
    data = {
        "name": "Puchar",
        "date": "2026-11-25",
        "variant": "tournament-pl",
        "board": "classic-pl",
        "ending": "two_hour",
        "rounds": "5",
        "table_size": "4",
        "placement_points": "4, 2, 1, 0",
        "tie_breaks_0": "points",
        "tie_breaks_1": "total_score",
        "tie_breaks_2": "best_score",
        "tie_breaks_3": "",
        "seed": "7",
    }
    return {**data, **changes}


@pytest.mark.django_db
def test_the_fourth_tie_break_is_not_required_only_the_first_is(client, director):
    page = text(client.get(reverse("tournament_new")))
    selects = re.findall(r"<select name=\"tie_breaks_\d\"[^>]*>", page)
    assert len(selects) == 4
    assert ["required" in s for s in selects] == [True, False, False, False]
    response = client.post(reverse("tournament_new"), form_data())
    assert response.status_code == 302
    assert Tournament.objects.get().tie_breaks == ["points", "total_score", "best_score"]


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["pl", "en"])
def test_the_date_input_gets_the_date_as_a_date_input_reads_it(client, director, language):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    t = Tournament.objects.create(name="Cup", date="2026-11-25", created_by=director)
    for url in (reverse("tournament_edit", args=[t.pk]), reverse("tournament_new")):
        date_input = re.search(r"<input type=\"date\"[^>]*>", text(client.get(url))).group(0)
        assert re.search(r'value="\d{4}-\d\d-\d\d"', date_input), date_input
    assert 'value="2026-11-25"' in text(client.get(reverse("tournament_edit", args=[t.pk])))


@pytest.mark.django_db
def test_the_board_select_knows_the_boards_of_each_variant(client, director):
    page = client.get(reverse("tournament_new")).content.decode()
    found = re.search(r"data-boards-by-variant=\"([^\"]*)\"", page)
    assert json.loads(html.unescape(found.group(1))) == boards_by_variant()
    assert boards_by_variant()["anti-monopoly"] == ["anti-monopoly-us"]
    assert "/static/site/board-filter.js" in page


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("variant", "board", "fitting"),
    [
        ("anti-monopoly", "classic-pl", "Anti-Monopoly, US edition."),
        (
            "tournament-pl",
            "anti-monopoly-us",
            "Monopoly, Polish edition (Warsaw); Monopoly, US classic edition.",
        ),
    ],
)
def test_a_board_that_does_not_fit_is_refused_naming_those_that_do(client, director, variant, board, fitting):
    response = client.post(reverse("tournament_new"), form_data(variant=variant, board=board))
    page = text(response)
    assert response.status_code == 200 and not Tournament.objects.exists()
    assert "does not fit the variant" in page and f"Boards that fit: {fitting}" in page


@pytest.mark.django_db
def test_an_edit_to_a_board_that_does_not_fit_changes_nothing(client, director):
    t = Tournament.objects.create(
        name="Cup", variant="tournament-pl", board="classic-pl", created_by=director
    )
    response = client.post(reverse("tournament_edit", args=[t.pk]), form_data(variant="anti-monopoly"))
    assert response.status_code == 200 and "does not fit the variant" in text(response)
    t.refresh_from_db()
    assert (t.variant, t.board, t.name) == ("tournament-pl", "classic-pl", "Cup")


@pytest.mark.django_db
def test_the_refusal_is_in_polish_for_a_polish_director(client, director):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "pl"
    with translation.override("pl"):
        response = client.post(reverse("tournament_new"), form_data(variant="anti-monopoly"))
    assert response.status_code == 200 and not Tournament.objects.exists()
    assert "Warszawa" in text(response)  # the board named as the Polish director reads it


# -- a game started on its own -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_new_game_on_a_board_that_does_not_fit_is_refused(client, director):
    page = text(client.get(reverse("game_new")))
    assert "data-boards-by-variant" in page and "/static/site/board-filter.js" in page
    response = client.post(
        reverse("game_new"),
        {
            "variant": "anti-monopoly",
            "board": "classic-pl",
            "players": "Anna; C\nBartek; M",
            "ending": "game_a",
        },
    )
    assert response.status_code == 200 and not Game.objects.exists()
    assert "Boards that fit: Anti-Monopoly, US edition." in text(response)


@pytest.mark.django_db
@pytest.mark.parametrize("variant", ["polish-table", "timed"])
def test_a_variant_played_against_a_clock_asks_for_its_minutes(client, director, variant):
    """RULES.md turn 4: without its minutes such a game has no clock and could not end on time."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    refused = client.post(reverse("tournament_new"), form_data(variant=variant, board="classic-pl"))
    assert refused.status_code == 200 and not Tournament.objects.exists()
    assert "is played against a clock: give its time limit in minutes." in text(refused)
    taken = client.post(
        reverse("tournament_new"), form_data(variant=variant, board="classic-pl", time_limit_minutes="90")
    )
    assert taken.status_code == 302 and Tournament.objects.get().time_limit_minutes == 90
    game = {"variant": variant, "board": "classic-pl", "players": "Anna\nBartek", "name": "G"}
    refused = client.post(reverse("game_new"), game)
    assert refused.status_code == 200 and not Game.objects.exists()
    assert "is played against a clock: give its time limit in minutes." in text(refused)
    assert client.post(reverse("game_new"), {**game, "time_limit_minutes": "60"}).status_code == 302
    assert Game.objects.get().options["time_limit_minutes"] == 60


# -- imports -------------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_record_for_a_tournament_stored_on_a_board_that_does_not_fit_is_refused(director):
    """A tournament stored before its board was checked (Anti-Monopoly on the Warsaw board): its record is
    refused, saying why, and nothing is stored."""
    t = Tournament.objects.create(
        name="Old", variant="anti-monopoly", board="classic-pl", table_size=4, seed=3
    )
    for name in ("Anna", "Bartek", "Celina", "Darek"):
        Participant.objects.create(tournament=t, name=name)
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    table = round_.tables.get()
    seats = list(table.seats.select_related("participant").order_by("order"))
    record = header("anti-monopoly", "classic-pl")
    record["players"] = [
        {"id": chr(65 + i), "name": s.participant.name, "role": s.role} for i, s in enumerate(seats)
    ]
    with translation.override("en"), pytest.raises(RecordImportError) as e:
        import_table_record(table, json.dumps(record).encode(), director)
    assert "does not fit the variant" in str(
        e.value
    ) and "Boards that fit: Anti-Monopoly, US edition." in str(e.value)
    assert not Game.objects.exists() and not GameEvent.objects.exists() and not GamePlayer.objects.exists()


@pytest.mark.django_db
def test_a_backup_of_a_tournament_on_a_board_that_does_not_fit_is_refused(director):
    t = Tournament.objects.create(name="Cup", created_by=director, seed=3, rounds=1, game_rounds=1)
    for name in ("Anna", "Bartek", "Celina"):
        Participant.objects.create(tournament=t, name=name)
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    table = round_.tables.get()
    record = simulate(t.variant, t.board, 3, seed=1, rounds=1)
    for player, seat in zip(record["players"], table.seats.order_by("order"), strict=True):
        player["name"] = seat.participant.name
    import_table_record(table, json.dumps(record).encode(), director)
    data = json.loads(backup.dumps(backup.export_tournament(t)))
    Game.objects.all().delete()
    Tournament.objects.all().delete()
    data["tournament"]["board"] = "anti-monopoly-us"  # the tournament and its game, on the wrong board
    for r in data["rounds"]:
        for tb in r["tables"]:
            if tb.get("game"):
                tb["game"]["board"] = "anti-monopoly-us"
    with translation.override("en"), pytest.raises(backup.BackupError) as e:
        backup.import_tournament(data)
    assert str(e.value).startswith("tournament.board: The board “Anti-Monopoly, US edition” does not fit")
    assert not Tournament.objects.exists() and not Game.objects.exists()


# -- a stored board replaced ---------------------------------------------------------------------------------


def shipped_data(board_id: str, new_id: str) -> dict:
    data = json.loads((BOARDS_DIR / f"{board_id}.json").read_text(encoding="utf-8"))
    return {**data, "id": new_id, "name": f"Club {new_id}"}


@pytest.mark.django_db
def test_a_stored_board_is_not_replaced_by_one_that_no_longer_fits_its_tournaments(director):
    store_board(shipped_data("classic-pl", "club-board"), director)
    Tournament.objects.create(name="Cup", variant="tournament-pl", board="club-board", created_by=director)
    with translation.override("en"), pytest.raises(BoardFileError) as e:
        store_board(shipped_data("anti-monopoly-us", "club-board"), director, replace=True)
    assert "the tournament Cup plays Tournament rules (10 rounds of play) on it" in str(e.value)
    assert made_for_roles(get_board("club-board")) is False  # still the one stored first
    store_board(shipped_data("classic-us", "club-board"), director, replace=True)  # one that fits: replaced


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_tournament_is_not_saved_on_a_board_replaced_meanwhile_by_one_that_does_not_fit(director):
    """The form checked the board; before the save holds it another process stored an Anti-Monopoly board
    under its id (no tournament was on it yet): the save, under the board's lock, refuses."""
    store_board(shipped_data("classic-pl", "club-board"), director)
    form = TournamentForm(form_data(board="club-board"))
    assert form.is_valid(), form.errors
    data = shipped_data("anti-monopoly-us", "club-board")
    BoardEdition.objects.filter(pk="club-board").update(data=data, digest=data_digest(data))
    with translation.override("en"):
        assert _saved_on_its_board(form, created_by=director) is None
    assert "does not fit the variant" in form.errors["board"][0] and not Tournament.objects.exists()


@pytest.mark.django_db
def test_a_game_stored_before_the_fit_check_still_replays():
    """A game stored on a board that does not fit its variant (possible before this check) keeps its figures,
    its undo and its sheets: only what is made anew is checked."""
    game = recording.create_game(
        variant="classic", board="classic-us", players=[{"name": "A"}, {"name": "B"}]
    )
    recording.submit(game.pk, {"type": "roll", "player": "A", "dice": [3, 4]}, version=None)
    Game.objects.filter(pk=game.pk).update(board="anti-monopoly-us")  # as an older version let it be stored
    game.refresh_from_db()
    assert why_board_does_not_fit(make_variant("classic"), get_board("anti-monopoly-us")) is not None
    report = game_report(game)
    assert report.error is None and len(report.events) == 1
    recording.rebuild(game)  # what an undo does: no LogError
