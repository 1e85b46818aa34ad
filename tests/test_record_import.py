"""Importing a table's game from a GAME_RECORD file: replayed, checked against the table, all or nothing."""

import html
import io
import json
import unicodedata

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse
from django.utils import translation

from rules import replay
from rules.simulate import simulate
from rules.snapshot import dump_state
from tests.tournaments import make_tournament
from tournament.event import results, rounds
from tournament.games import recording
from tournament.games.messages import error_text
from tournament.games.record_import import RecordImportError, import_table_record
from tournament.models import Game, GameEvent, GamePlayer, Participant, TableResult
from tournament.people.access import REFEREES_GROUP
from tournament.server.uploads import FORM_OVERHEAD_BYTES

pytestmark = pytest.mark.django_db

NAMES = ["Anna Nowak", "Bartek Kos", "Celina Wróbel", "Żaneta Łęcka"]


@pytest.fixture(autouse=True)
def english():
    """The messages are compared in English (the site's default language is Polish) unless a test says."""
    with translation.override("en"):
        yield


@pytest.fixture
def referee(referee):
    """conftest's referee, in the referees' group as the accounts a director adds are
    (tournament.people.referee_accounts)."""
    referee.groups.add(Group.objects.get_or_create(name=REFEREES_GROUP)[0])
    return referee


@pytest.fixture
def tournament():
    return make_tournament(NAMES, name="Cup", rounds=2, game_rounds=2, table_size=4, seed=7)


@pytest.fixture
def table(tournament, referee):
    round_ = rounds.seat_next_round(tournament)
    rounds.start_round(round_)
    table = round_.tables.get()
    table.referees.set([referee])
    return table


def seated(table):
    return [s.participant for s in table.seats.order_by("order")]


def record_for(table, order=None, seed=1):
    """A simulated game of the tournament's rules, its players named after the participants at the table in
    ``order`` (default: the seat order reversed, so the record's order is not the seating's)."""
    t = table.round.tournament
    order = order or seated(table)[::-1]
    record = simulate(t.variant, t.board, len(order), seed=seed, rounds=t.game_rounds)
    for player, participant in zip(record["players"], order, strict=True):
        player["name"] = participant.name
    assert replay(record).state.finished
    return record


def encode(record) -> bytes:
    return json.dumps(record, ensure_ascii=False).encode()


def nothing_stored():
    return not Game.objects.exists() and not GameEvent.objects.exists() and not GamePlayer.objects.exists()


def refusal(table, data, user) -> str:
    with pytest.raises(RecordImportError) as e:
        import_table_record(table, data, user)
    return str(e.value)


def post(client, table, data, follow=True):
    upload = io.BytesIO(data)
    upload.name = "game.json"
    r = table.round
    url = reverse("table_record_import", args=[r.tournament_id, r.number, table.number])
    return client.post(url, {"record": upload}, follow=follow)


def page(response) -> str:
    assert response.status_code == 200
    return html.unescape(response.content.decode())


# -- a record of the table -----------------------------------------------------------------------------------


def test_a_record_imports_replays_to_the_same_state_and_can_be_confirmed(table, director):
    record = record_for(table)
    game = import_table_record(table, encode(record), director)
    expected = replay(record)
    assert dump_state(recording.current_state(game)) == dump_state(expected.state)
    assert game.table == table and game.status == Game.Status.FINISHED
    assert [(p.pid, p.name, p.participant.name) for p in game.players.order_by("seat")] == [
        (p["id"], p["name"], p["name"]) for p in record["players"]
    ]  # the record's order is the order of play
    assert list(game.referees.all()) == list(table.referees.all())
    rows = list(game.events.order_by("seq"))
    assert [e.seq for e in rows] == list(range(1, len(record["events"]) + 1))
    assert all(e.status == GameEvent.Status.ACTIVE and e.entered_by == director and e.notes for e in rows)
    assert game.version == len(record["events"]) and game.next_seq == len(record["events"]) + 1
    exported = recording.record_of(game)  # the download replays to the same state too
    assert exported["events"] == record["events"] and exported["options"] == record["options"]
    assert dump_state(replay(exported).state) == dump_state(expected.state)
    confirmation = results.confirm(table, director)
    assert confirmation.result.status == TableResult.Status.CONFIRMED
    ranks = {row["participant"]: row["rank"] for row in confirmation.result.ranking}
    assert set(ranks) == {p.pk for p in seated(table)}


def test_through_the_page(client, table, director):
    client.force_login(director)
    text = page(client.get(reverse("table", args=[table.round.tournament_id, 1, table.number])))
    assert "Import a game record (JSON)" in text and 'name="record"' in text
    record = record_for(table)
    response = post(client, table, encode(record), follow=False)
    assert response.status_code == 302
    assert response.url == reverse("table", args=[table.round.tournament_id, 1, table.number])
    text = page(client.get(response.url))
    assert f"Game record imported: {len(record['events'])} moves." in text
    assert Game.objects.get().events.count() == len(record["events"])


def test_names_match_in_any_case_and_unicode_form(table, director):
    record = record_for(table)
    for p in record["players"]:
        p["name"] = unicodedata.normalize("NFD", p["name"].upper()) + " "
    game = import_table_record(table, encode(record), director)
    names = [p.name for p in game.players.order_by("seat")]
    assert names == [p.name for p in seated(table)[::-1]]  # the participants' names as registered
    assert recording.current_state(game).players[0].name == names[0]


def test_an_option_written_out_at_its_value_is_no_difference(table, director):
    record = record_for(table)
    record["options"] = {"max_rounds": 2, "starting_cash": 1500}
    game = import_table_record(table, encode(record), director)
    assert game.options == {"max_rounds": 2}  # the tournament's
    assert recording.current_state(game).finished


def test_a_record_without_moves_starts_the_game(table, director):
    record = record_for(table)
    record["events"] = []
    game = import_table_record(table, encode(record), director)
    assert game.status == Game.Status.RUNNING and not game.events.exists() and game.players.count() == 4


# -- refused, nothing stored ---------------------------------------------------------------------------------


def changed(record, **kwargs):
    return {**record, **kwargs}


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda r: b"{not json", "The file is not a game record: it is not JSON (line 1, column 2)."),
        (lambda r: b'{"a": "\xff"}', "The file is not a game record: it is not text (UTF-8)."),
        (lambda r: b"[1, 2]", "The file is not a game record: it is not a JSON object."),
        (lambda r: b'"text"', "The file is not a game record: it is not a JSON object."),
        (lambda r: b'{"x": NaN}', "it holds a number that is not valid JSON or is too long."),
        (lambda r: b"[" * 100_000, "The file is not a game record: it is nested too deeply."),
        (
            lambda r: encode(changed(r, variant="classic")),
            "The record is for the variant “Classic Monopoly”; this tournament plays"
            " “Tournament rules (10 rounds of play)”.",
        ),
        (
            lambda r: encode(changed(r, board="classic-us")),
            "The record is for the board “Monopoly, US classic edition”; this tournament plays on"
            " “Monopoly, Polish edition (Warsaw)”.",
        ),
        (
            lambda r: encode(changed(r, options={"max_rounds": 3})),
            "The record's option max_rounds is 3; this tournament's is 2.",
        ),
        (
            lambda r: encode(changed(r, options={})),
            "The record's option max_rounds is 10; this tournament's is 2.",  # the variant's own
        ),
        (
            lambda r: encode(changed(r, options={"salary": 400, "max_rounds": 2})),
            "The record's option salary is 400; this tournament's is 200.",
        ),
        (
            lambda r: encode(changed(r, options={"max_rounds": 2, "luck": True})),
            "The file is not a game record: Unknown option luck.",
        ),
        (
            lambda r: encode(changed(r, players="A")),
            "The file is not a game record: A game has 2 to 8 players.",
        ),
        (lambda r: encode(changed(r, events={})), "The file is not a game record: The record's events must"),
    ],
    ids=[
        "not json",
        "not utf-8",
        "a list",
        "a string",
        "NaN",
        "nested",
        "variant",
        "board",
        "option",
        "option left out",
        "another option",
        "unknown option",
        "players",
        "events",
    ],
)
def test_files_that_are_not_this_tables_record(table, director, make, message):
    assert message in refusal(table, make(record_for(table)), director)
    assert nothing_stored()


def test_players_must_be_those_seated_at_the_table(table, director, tournament):
    record = record_for(table)
    names = [p["name"] for p in record["players"]]
    other = Participant.objects.create(tournament=tournament, name="Ola Nieobecna")

    def with_names(*new):
        return encode(
            {**record, "players": [{**p, "name": n} for p, n in zip(record["players"], new, strict=True)]}
        )

    text = refusal(table, with_names(names[0], names[1], names[2], other.name), director)
    assert text == (
        "The record's player “Ola Nieobecna” is not seated at this table "
        "(seated: Anna Nowak, Bartek Kos, Celina Wróbel, Żaneta Łęcka)."
    )
    text = refusal(table, with_names(names[0], names[1], names[2], names[1].lower()), director)
    assert text == f"The record names “{names[1]}” twice."
    three = {**record, "players": record["players"][:3], "events": []}
    assert refusal(table, encode(three), director) == (
        f"The record does not name {names[3]}, seated at this table."
    )
    nameless = {**record, "players": [{"id": p["id"]} for p in record["players"]]}
    assert refusal(table, encode(nameless), director) == "The record's player 1 has no name."
    long_id = {**record, "players": [{**record["players"][0], "id": "X" * 17}, *record["players"][1:]]}
    assert "is longer than 16 characters" in refusal(table, encode(long_id), director)
    assert nothing_stored()


@pytest.mark.parametrize(
    ("field", "where"),
    [("\u0000", "players[1].name"), ("\t", "players[1].name"), ("\ud800", "players[1].name")],
    ids=["NUL", "tab", "lone surrogate"],
)
def test_control_characters_in_names_are_refused(table, director, field, where):
    record = record_for(table)
    record["players"][1]["name"] = "Bar" + field + "tek"
    data = json.dumps(record).encode()  # \u0000, \t, \ud800 as JSON escapes
    text = refusal(table, data, director)
    assert text == (
        f"The file is not a game record: {where} contains a character that is not allowed "
        "(a control character such as NUL, a tab or a line break)."
    )
    assert nothing_stored()


def test_control_characters_anywhere_are_refused(table, director):
    record = record_for(table)
    record["events"][3] = {**record["events"][3], "note": "a\u0000b"}
    assert "events[3].note contains a character that is not allowed" in refusal(
        table, json.dumps(record).encode(), director
    )
    raw = encode(record_for(table)).replace(b'"Anna Nowak"', b'"Anna\x00Nowak"')  # not escaped: not JSON
    assert "it is not JSON (line 1, column" in refusal(table, raw, director)
    assert nothing_stored()


def illegal(table):
    """A record whose event 4 is a roll out of turn, and the rules' error for it."""
    record = record_for(table)
    wrong = next(p["id"] for p in record["players"] if p["id"] != record["events"][4].get("player"))
    record["events"][4] = {"type": "roll", "player": wrong, "dice": [1, 2]}
    result = replay(record)
    assert result.error["index"] == 4
    return record, result.exception


@pytest.mark.parametrize("language", ["en", "pl"])
def test_an_illegal_event_is_refused_with_its_index_and_the_rules_reason(table, director, language):
    record, error = illegal(table)
    with translation.override(language):
        reason = error_text(error)
        text = refusal(table, encode(record), director)
    if language == "en":
        assert reason == error.message  # the rules' own English
        assert text == f"Event 4 (counting from 0) is illegal: {reason}"
    else:
        assert reason != error.message and reason in text and "4" in text
    assert nothing_stored()


@pytest.mark.parametrize("language", ["en", "pl"])
def test_an_illegal_event_through_the_page(client, table, director, language):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    client.force_login(director)
    record, error = illegal(table)
    with translation.override(language):
        reason = error_text(error)
    text = page(post(client, table, encode(record)))
    assert reason in text and "4" in text
    if language == "en":
        assert f"Game record not imported. Event 4 (counting from 0) is illegal: {reason}" in text
    assert nothing_stored()


def test_a_file_over_the_limit(client, table, director, settings, monkeypatch):
    """The service refuses the bytes; the upload handler stops a larger request at the file; a file just over
    the limit is refused by its size before it is read."""
    big = b" " * (settings.UPLOAD_MAX_BYTES + 1)
    assert refusal(table, big, director) == "The file is larger than 5 MB."
    client.force_login(director)
    from tournament.director import views

    def read(*args):
        raise AssertionError("read")

    monkeypatch.setattr(views, "import_table_record", read)
    assert settings.UPLOAD_MAX_BYTES < len(big) < settings.UPLOAD_MAX_BYTES + FORM_OVERHEAD_BYTES // 2
    text = page(post(client, table, big))
    assert "Game record not imported. The file is larger than 5 MB." in text
    settings.UPLOAD_MAX_BYTES = 1024 * 1024
    huge = b" " * (settings.UPLOAD_MAX_BYTES + FORM_OVERHEAD_BYTES + 1)
    response = post(client, table, huge, follow=False)
    assert response.status_code == 302
    assert len(response.wsgi_request.environ["wsgi.input"]) > len(huge) - 2 * FORM_OVERHEAD_BYTES  # unread
    assert "The file is larger than 1 MB." in page(client.get(response.url))
    assert nothing_stored()


def test_no_file_chosen(client, table, director):
    client.force_login(director)
    r = table.round
    url = reverse("table_record_import", args=[r.tournament_id, r.number, table.number])
    assert "Choose a file to import." in page(client.post(url, {}, follow=True))
    assert nothing_stored()


def test_a_confirmed_table_is_not_changed(table, director):
    game = import_table_record(table, encode(record_for(table)), director)
    results.confirm(table, director)
    before = (game.version, list(game.events.values_list("pk", "status")))
    text = refusal(table, encode(record_for(table, seed=2)), director)
    assert text == "This table's result is confirmed: reopen the result before importing a game record."
    game.refresh_from_db()
    assert (game.version, list(game.events.values_list("pk", "status"))) == before


def test_a_round_not_started(tournament, director):
    round_ = rounds.seat_next_round(tournament)
    table = round_.tables.get()
    assert refusal(table, encode(record_for(table)), director) == "Start the round first."
    assert nothing_stored()


# -- replacing the moves entered at the table ----------------------------------------------------------------


def test_the_moves_entered_so_far_stay_in_the_log_as_voided(table, director, referee):
    game = rounds.start_table_game(table, [p.pk for p in seated(table)], user=referee)
    console = simulate(table.round.tournament.variant, "classic-pl", 4, seed=9, rounds=2)
    for ev in console["events"][:6]:
        game = recording.submit(game.pk, ev, version=game.version, user=referee).game
    game = recording.undo_last(game.pk, version=game.version, user=referee, reason="typo")
    version = game.version
    record = record_for(table)  # another order of play than the console's
    imported = import_table_record(table, encode(record), director)
    assert imported.pk == game.pk and Game.objects.count() == 1
    rows = list(imported.events.order_by("seq"))
    old, new = rows[:6], rows[6:]
    assert [e.status for e in old] == [GameEvent.Status.VOIDED] * 5 + [GameEvent.Status.UNDONE]
    for e in old[:5]:
        assert e.reason == "replaced by an imported game record" and e.changed_by == director
        assert e.changed_at is not None and e.entered_by == referee
    assert old[5].reason == "typo" and old[5].changed_by == referee  # taken back before: left as it was
    assert [e.seq for e in new] == list(range(7, 7 + len(record["events"])))
    assert all(e.status == GameEvent.Status.ACTIVE and e.entered_by == director for e in new)
    assert imported.next_seq == 7 + len(record["events"]) and imported.version == version + 5 + len(new)
    assert [p.participant.name for p in imported.players.order_by("seat")] == [
        p.name for p in seated(table)[::-1]
    ]
    assert recording.record_of(imported)["events"] == record["events"]
    assert dump_state(recording.current_state(imported)) == dump_state(replay(record).state)
    with pytest.raises(recording.StaleVersion):  # a console still showing the old game cannot move
        recording.submit(game.pk, console["events"][6], version=version, user=referee)
    results.confirm(table, director)


def test_the_same_file_twice_changes_nothing(table, director):
    data = encode(record_for(table))
    game = import_table_record(table, data, director)
    again = import_table_record(table, data, director)
    assert again.pk == game.pk and again.version == game.version
    assert not GameEvent.objects.exclude(status=GameEvent.Status.ACTIVE).exists()


def test_an_illegal_record_leaves_the_tables_game_as_it_was(table, director, referee):
    game = rounds.start_table_game(table, [p.pk for p in seated(table)], user=referee)
    ev = simulate("tournament-pl", "classic-pl", 4, seed=9, rounds=2)["events"][0]
    game = recording.submit(game.pk, ev, version=game.version, user=referee).game
    record, _error = illegal(table)
    assert "Event 4" in refusal(table, encode(record), director)
    game.refresh_from_db()
    assert game.version == 1 and list(game.events.values_list("status", flat=True)) == ["active"]


# -- who may -------------------------------------------------------------------------------------------------


def test_only_the_director_imports_and_sees_the_form(client, table, referee):
    client.force_login(referee)
    text = page(client.get(reverse("table", args=[table.round.tournament_id, 1, table.number])))
    assert "Import a game record" not in text and "table_record_import" not in text
    assert "record/import" not in text
    assert post(client, table, encode(record_for(table)), follow=False).status_code == 403
    assert nothing_stored()


def test_a_field_no_form_sends_refuses_the_file_naming_the_event(table, director):
    """GAME_RECORD.md (turn 4): an event carries only the fields its type names; a record bringing in a sum
    the rules compute otherwise stores nothing (tests/test_record_refusals.py: the engine and the phone)."""
    record = record_for(table)
    record["events"][0]["salary"] = 5000
    said = refusal(table, encode(record), director)
    assert said.startswith("Event 0 ") and 'no field "salary"' in said, said
    assert nothing_stored()
