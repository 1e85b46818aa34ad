"""A tournament's backup: export to one file, import into an empty installation with an identical result."""

import copy
import io
import json
from datetime import date, timedelta
from io import StringIO

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import CommandError, call_command
from django.db import connection
from django.urls import reverse
from django.utils import timezone, translation

from rules import replay
from rules.simulate import simulate
from rules.snapshot import dump_state
from tournament.errors import RoundError
from tournament.event import check_in, current_standings, interventions, results, rounds, signatures
from tournament.files import backup
from tournament.files.backup import reading
from tournament.games import recording
from tournament.games.messages import error_text
from tournament.models import (
    CheckIn,
    Game,
    GameEvent,
    GamePlayer,
    Participant,
    Round,
    Seat,
    Signature,
    Table,
    TableResult,
    Tournament,
)
from tournament.people.access import REFEREES_GROUP

pytestmark = pytest.mark.django_db

DAY = date(2026, 5, 9)


# -- a tournament with some history --------------------------------------------------------------------------


def make_people():
    director = User.objects.create_user("director", password="pw", is_staff=True)
    group, _ = Group.objects.get_or_create(name=REFEREES_GROUP)
    refs = [User.objects.create_user(f"ref{i}", password="pw") for i in (1, 2)]
    for r in refs:
        r.groups.add(group)
    return director, *refs


def enter(game, events, user, key=None):
    for i, ev in enumerate(events):
        client_key = f"{key}-{i}" if key else None
        game = recording.submit(game.pk, ev, version=game.version, user=user, client_key=client_key).game
    return game


def play_table(table, referee, director, seed, *, twists=False, upto=None):
    """The table's game in seat order, entered from a simulated record (to the end, or ``upto`` events).

    With ``twists`` a move is entered, undone and entered again; the next entered, voided, entered again.
    """
    order = [s.participant_id for s in table.seats.all()]
    game = rounds.start_table_game(table, order, user=referee)
    t = table.round.tournament
    events = simulate(t.variant, t.board, len(order), seed=seed, rounds=t.game_rounds)["events"]
    if upto is not None:
        return enter(game, events[:upto], referee)
    if twists:
        k = len(events) // 2
        game = enter(game, events[:k], referee, key=f"t{table.pk}")
        game = recording.submit(game.pk, events[k], version=game.version, user=referee).game
        game = recording.undo_last(
            game.pk, version=game.version, user=referee, reason="wrong dice", client_key="undo-1"
        )
        done = recording.submit(game.pk, events[k], version=game.version, user=referee)
        done = recording.submit(done.game.pk, events[k + 1], version=done.game.version, user=referee)
        game = recording.void(
            game.pk,
            done.event.seq,
            version=done.game.version,
            user=director,
            reason="entered at the wrong table",
        )
        events = events[k + 1 :]
    game = enter(game, events, referee)
    assert recording.current_state(game).finished
    return game


def confirm(table, *people):
    for user in people:
        results.confirm(table, user)


def run_tournament(people, *, played=2, running_round=True):
    """Rounds played (second confirmations; a reopened and reconfirmed result; an undone and a voided move), a
    withdrawn participant, and a third round running: one game in play, one table not started."""
    director, ref1, ref2 = people
    t = Tournament.objects.create(
        name="Backup Cup",
        date=DAY,
        rounds=3,
        game_rounds=2,
        seed=5,
        second_confirmation=True,
        placement_points=[5, 3, 1, 0],
        created_by=director,
    )
    for i in range(9):
        Participant.objects.create(tournament=t, name=f"Player {i:02}", club=f"club{i % 3}", seed=i or None)
    for number in range(1, played + 1):
        round_ = rounds.seat_next_round(t)
        for table in round_.tables.all():
            table.referees.set([ref1] if table.number == 1 else [ref1, ref2])
        rounds.start_round(round_)
        for table in round_.tables.all():
            play_table(table, ref1, director, seed=100 * number + table.number, twists=table.number == 1)
            confirm(table, ref1, ref2)
        if number == 1:
            first = round_.tables.get(number=1)
            results.reopen(first, director, "the rent on square 3 was wrong")
            confirm(first, ref2, ref1)
            interventions.withdraw(t.participants.get(name="Player 04"), None, "ill")
        round_.refresh_from_db()
        assert round_.status == Round.Status.FINISHED
    if running_round:
        round_ = rounds.seat_next_round(t)
        rounds.start_round(round_)
        play_table(round_.tables.get(number=1), ref2, director, seed=7, upto=12)
    return t


def wipe():
    """Empty the installation of tournaments, games and people."""
    Game.objects.all().delete()
    Tournament.objects.all().delete()
    User.objects.all().delete()


def nothing_stored():
    models = (Tournament, Participant, Round, Table, Seat, TableResult, Game, GamePlayer, GameEvent, User)
    models += (CheckIn, Signature)
    return {m.__name__: m.objects.count() for m in models if m.objects.exists()} == {}


def who(user):
    return user.username if user else None


def snapshot(t: Tournament) -> dict:
    """What must survive a backup, with participants and people by name (their ids change)."""
    names = {p.pk: p.name for p in t.participants.all()}
    settings = {f.name: getattr(t, f.name) for f in Tournament._meta.concrete_fields if f.name != "id"}
    settings["created_by"] = who(t.created_by)
    settings["directors"] = sorted(who(u) for u in t.directors.all())
    tables = {}
    for table in Table.objects.filter(round__tournament=t).select_related("round"):
        game = table.game_or_none
        tables[(table.round.number, table.number)] = {
            "seats": [names[s.participant_id] for s in table.seats.all()],
            "referees": sorted(who(u) for u in table.referees.all()),
            "game": game
            and {
                **{k: getattr(game, k) for k in ("name", "variant", "board", "options", "status", "state")},
                **{k: getattr(game, k) for k in ("ledger", "version", "next_seq", "created_at")},
                **{k: getattr(game, k) for k in ("started_at", "finished_at")},
                "created_by": who(game.created_by),
                "referees": sorted(who(u) for u in game.referees.all()),
                "players": [
                    (p.seat, p.pid, p.name, p.role, names.get(p.participant_id)) for p in game.players.all()
                ],
                "log": [
                    (e.seq, e.data, e.status, e.notes, who(e.entered_by), e.entered_at, e.client_key)
                    + (who(e.changed_by), e.changed_at, e.reason, e.change_key)
                    for e in game.events.order_by("seq")
                ],
            },
            "results": [
                (
                    [{**row, "participant": names[row["participant"]]} for row in r.ranking],
                    r.status,
                    who(r.confirmed_by),
                    r.confirmed_at,
                    who(r.second_by),
                    r.second_at,
                    who(r.reopened_by),
                    r.reopened_at,
                    r.reason,
                )
                for r in table.results.order_by("confirmed_at")
            ],
        }
    return {
        "settings": settings,
        "participants": sorted((p.name, p.club, p.seed, p.withdrawn_after) for p in t.participants.all()),
        "rounds": [(r.number, r.status, r.seed, r.created_at, r.started_at) for r in t.round_set.all()],
        "standings": [
            (names[r.participant], r.rank, r.points, r.total_score, r.best_score, r.games)
            for r in current_standings.tournament_standings(t)
        ],
        "tables": tables,
    }


def by_name(data: dict) -> dict:
    """A backup with participant ids replaced by names and the export time left out (to compare two)."""
    data = copy.deepcopy(data)
    data.pop("exported_at")
    names = {p.pop("id"): p["name"] for p in data["participants"]}
    for r in data["rounds"]:
        for t in r["tables"]:
            t["seats"] = [names[pid] for pid in t["seats"]]
            for p in (t["game"] or {}).get("players", []):
                p["participant"] = names.get(p["participant"])
            for result in t["results"]:
                for row in result["ranking"]:
                    row["participant"] = names[row["participant"]]
            for signature in t.get("signatures", []):
                signature["participant"] = names[signature["participant"]]
    for entry in data.get("audit", []):
        entry["participant"] = names.get(entry["participant"])
    for entry in data.get("check_ins", []):
        entry["participant"] = names[entry["participant"]]
    return data


def replays_to_its_state(game: Game) -> bool:
    fresh = replay(recording.record_of(game))
    return fresh.ok and dump_state(fresh.state) == game.state


def run(*args):
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


_CACHE = {}


@pytest.fixture
def one_round_backup():
    """The backup of a tournament with one round played; the database is empty again (built once)."""
    if "data" not in _CACHE:
        t = run_tournament(make_people(), played=1, running_round=False)
        _CACHE["data"] = json.loads(backup.dumps(backup.export_tournament(t)))
        wipe()
    return copy.deepcopy(_CACHE["data"])


# -- export and import ---------------------------------------------------------------------------------------


@pytest.mark.postgres
def test_a_tournament_comes_back_identical_in_an_empty_installation():
    t = run_tournament(make_people())
    before = snapshot(t)
    log = list(GameEvent.objects.filter(game__table__round__tournament=t))
    assert {e.status for e in log} == {"active", "undone", "voided"}
    assert TableResult.objects.filter(status=TableResult.Status.REOPENED).count() == 1
    assert t.participants.filter(withdrawn_after=1).count() == 1
    data = json.loads(backup.dumps(backup.export_tournament(t)))  # through the file's text
    assert data["format"] == "monopoly-tournament-backup/1"

    wipe()
    assert nothing_stored()
    created = []
    imported = backup.import_tournament(data, created_users=created)

    after = snapshot(imported)
    assert after["standings"] == before["standings"]
    assert (
        after["tables"] == before["tables"]
    )  # states, ledgers, logs (undone, voided: who, when, why), results
    assert after == before
    games = Game.objects.filter(table__round__tournament=imported)
    assert games.count() == 5 and all(replays_to_its_state(g) for g in games)
    assert by_name(backup.export_tournament(imported)) == by_name(data)
    # the people of the history: accounts that cannot log in until someone gives them a password
    assert sorted(u.username for u in created) == ["director", "ref1", "ref2"]
    assert all(not u.is_active and not u.has_usable_password() for u in User.objects.all())
    # the running game goes on from where it was
    game = Game.objects.get(table__round__number=3, table__number=1)
    record = simulate(imported.variant, imported.board, game.players.count(), seed=7, rounds=2)
    after_move = recording.submit(game.pk, record["events"][12], version=game.version).game
    assert after_move.next_seq == game.next_seq + 1 and replays_to_its_state(after_move)


def test_people_already_here_are_linked_not_created():
    people = make_people()
    t = run_tournament(people, played=1, running_round=False)
    before = snapshot(t)
    data = backup.export_tournament(t)
    Game.objects.all().delete()
    Tournament.objects.all().delete()
    created = []
    imported = backup.import_tournament(data, created_users=created)
    assert created == [] and User.objects.count() == 3 and all(u.is_active for u in User.objects.all())
    assert snapshot(imported) == before
    assert imported.created_by == people[0]


def test_the_directors_come_back_by_name():
    """The co-directors are kept by username like the creator: unknown ones become inactive accounts."""
    director, ref1, _ref2 = make_people()
    deputy = User.objects.create_user("deputy", password="pw")
    t = Tournament.objects.create(name="Directed", date=DAY, created_by=director)
    t.directors.add(deputy)
    data = json.loads(backup.dumps(backup.export_tournament(t)))
    assert data["tournament"]["directors"] == ["deputy", "director"]
    wipe()
    User.objects.create_user("director", password="pw")
    created = []
    imported = backup.import_tournament(data, created_users=created)
    assert sorted(imported.directors.values_list("username", flat=True)) == ["deputy", "director"]
    assert [u.username for u in created] == ["deputy"] and not created[0].is_active
    # a backup made before the co-directors: its creator directs it
    data["tournament"].pop("directors")
    data["tournament"]["name"] = "Directed, older"
    older = backup.import_tournament(data)
    assert list(older.directors.values_list("username", flat=True)) == ["director"]
    for bad in ("deputy", ["deputy", None], [""], ["x" * 200]):
        data["tournament"]["directors"] = bad
        with pytest.raises(backup.BackupError, match="directors"):
            backup.import_tournament(data)


def test_every_setting_of_the_tournament_is_in_the_backup():
    t = Tournament.objects.create(
        name="Settings", final_table_size=4, time_limit_minutes=90, move_time_limit=50
    )
    data = backup.export_tournament(t)
    fields = [*Tournament._meta.concrete_fields, *Tournament._meta.many_to_many]
    assert set(data["tournament"]) == {f.name for f in fields} - {"id"}
    assert data["tournament"]["date"] == t.date.isoformat()


def test_printing_the_links_on_the_result_sheets_survives_a_backup_and_an_older_one_has_it_off():
    director, _ref1, _ref2 = make_people()
    t = Tournament.objects.create(name="Linked", date=DAY, links_on_sheets=True, created_by=director)
    data = json.loads(backup.dumps(backup.export_tournament(t)))
    assert data["tournament"]["links_on_sheets"] is True
    wipe()
    assert backup.import_tournament(copy.deepcopy(data)).links_on_sheets is True
    older = copy.deepcopy(data)
    older["tournament"].pop("links_on_sheets")  # a backup made before the setting
    older["tournament"]["name"] = "Linked, older"
    assert backup.import_tournament(older).links_on_sheets is False
    data["tournament"].update(name="Linked, forged", links_on_sheets="yes")
    with pytest.raises(backup.BackupError, match="tournament.links_on_sheets must be true or false"):
        backup.import_tournament(data)
    assert not Tournament.objects.filter(name="Linked, forged").exists()


def test_a_tournament_already_here_is_refused(one_round_backup):
    first = backup.import_tournament(one_round_backup)
    counts = (
        Tournament.objects.count(),
        Game.objects.count(),
        GameEvent.objects.count(),
        User.objects.count(),
    )
    with translation.override("en"), pytest.raises(backup.BackupError, match="already here"):
        backup.import_tournament(copy.deepcopy(one_round_backup))
    assert counts == (Tournament.objects.count(), Game.objects.count(), GameEvent.objects.count(), 3)
    assert list(Tournament.objects.all()) == [first]


# -- the management commands ---------------------------------------------------------------------------------


def test_the_commands_round_trip_through_a_file(tmp_path):
    t = run_tournament(make_people(), played=1)
    before = snapshot(t)
    path = tmp_path / "cup.json"
    assert "written to" in run("export_tournament", str(t.pk), "-o", str(path))
    wipe()
    out = run("import_tournament", str(path))
    imported = Tournament.objects.get()
    assert f"as tournament {imported.pk}: 9 participants, 2 rounds, 3 games" in out
    assert "inactive, without a password): director, ref1, ref2" in out
    assert snapshot(imported) == before


def test_on_sqlite_a_backup_is_imported_only_while_no_table_plays(one_round_backup, settings, tmp_path):
    """Storing a backup holds SQLite's only write lock for seconds (tests/bench_backup_import.py): refused
    while moves are being entered, said why; PostgreSQL imports beside the games."""
    settings.SQLITE_IMPORT_QUIET_MINUTES = 15
    game = recording.create_game(
        variant="classic", board="classic-us", players=[{"name": "A"}, {"name": "B"}]
    )
    recording.submit(game.pk, {"type": "roll", "player": "A", "dice": [1, 2]}, version=0)
    path = tmp_path / "cup.json"
    path.write_text(json.dumps(one_round_backup), encoding="utf-8")
    if connection.vendor == "sqlite":
        with translation.override("en"), pytest.raises(CommandError) as refused:
            run("import_tournament", str(path), "--language", "en")
        assert "Moves were entered at the tables in the last 15 minutes" in str(refused.value)
        assert not Tournament.objects.exists()
        GameEvent.objects.update(entered_at=timezone.now() - timedelta(minutes=16))  # the tables rest
    assert "Imported" in run("import_tournament", str(path))
    assert Tournament.objects.count() == 1


def test_export_of_an_unknown_tournament_fails():
    with pytest.raises(CommandError, match="no tournament 999") as e:
        run("export_tournament", "999")
    assert e.value.returncode == 1


def _first_game(data):
    return data["rounds"][0]["tables"][0]["game"]


def _truncate(data):
    game = _first_game(data)
    game["events"] = game["events"][:10]


def _illegal_first_move(data):
    game = _first_game(data)
    first = next(e for e in game["events"] if e["status"] == "active")
    first["data"] = {"type": "roll", "player": game["players"][1]["pid"], "dice": [1, 2]}  # not his turn


def _wrong_type(data):
    _first_game(data)["events"][3]["seq"] = "4"


def _unknown_participant(data):
    data["rounds"][0]["tables"][0]["results"][0]["ranking"][0]["participant"] = 999_999


BAD_FILES = {
    "not JSON": ('{"format": "monopoly-tournament-backup/1", "tournament": {"name": "Cu', "not valid JSON"),
    "not an object": ("[1, 2]", "one JSON object"),
    "no format": (lambda d: d.pop("format"), "the “format” key is missing"),
    "wrong format": (
        lambda d: d.update(format="monopoly-game-record/1"),
        "not a tournament backup of a known format: “monopoly-game-record/1”",
    ),
    "truncated game record": (
        _truncate,
        "rounds[0].tables[0].results[1]: the result is confirmed but the game record does",
    ),
    "a game without its events": (
        lambda d: _first_game(d).pop("events"),
        "rounds[0].tables[0].game: the key “events” is missing",
    ),
    "missing settings": (lambda d: d["tournament"].pop("date"), "tournament: the key “date” is missing"),
    "illegal event": (
        _illegal_first_move,
        "rounds[0].tables[0].game.events[0]: move #1 of the game of round 1, table 1 is illegal: ",
    ),
    "wrong type": (_wrong_type, "rounds[0].tables[0].game.events[3].seq must be a whole number"),
    "unknown participant": (_unknown_participant, "there is no participant 999999"),
}


@pytest.mark.postgres
@pytest.mark.parametrize("case", list(BAD_FILES))
def test_a_bad_file_is_refused_and_nothing_is_stored(case, one_round_backup, tmp_path):
    change, expected = BAD_FILES[case]
    if isinstance(change, str):
        text = change
    else:
        change(one_round_backup)
        text = json.dumps(one_round_backup)
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CommandError) as e:
        run("import_tournament", str(path))
    assert e.value.returncode == 1
    assert str(e.value).startswith("Nothing was imported.") and expected in str(e.value), str(e.value)
    assert nothing_stored()


def test_an_illegal_event_is_reported_with_the_rules_message(one_round_backup):
    _illegal_first_move(one_round_backup)
    game = _first_game(one_round_backup)
    record = {
        "format": "monopoly-game-record/1",
        "variant": game["variant"],
        "board": game["board"],
        "options": game["options"],
        "players": [{"id": p["pid"], "name": p["name"]} for p in game["players"]],
        "events": [e["data"] for e in game["events"] if e["status"] == "active"],
    }
    expected = replay(record)
    assert expected.error["index"] == 0
    with pytest.raises(backup.BackupError) as e:
        backup.import_tournament(one_round_backup)
    assert str(e.value).endswith(error_text(expected.exception))
    assert nothing_stored()


def test_the_good_file_imports(one_round_backup):
    """The bad files above are refused for what is wrong with them, not for the rest."""
    imported = backup.import_tournament(one_round_backup)
    assert imported.round_set.count() == 1 and Game.objects.filter(status="finished").count() == 2


# -- the director's download ---------------------------------------------------------------------------------


def test_the_director_downloads_the_backup_and_it_imports(client):
    director, ref1, _ref2 = make_people()
    t = Tournament.objects.create(name="Download Cup", date=DAY, created_by=director)
    for i in range(5):
        Participant.objects.create(tournament=t, name=f"P{i}")
    client.force_login(director)
    page = client.get(reverse("tournament", args=[t.pk])).content.decode()
    url = reverse("tournament_backup", args=[t.pk])
    assert url == f"/tournaments/{t.pk}/backup.json"
    assert f'href="{url}"' in page and "Download a backup (JSON)" in page
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"] == f'attachment; filename="tournament-{t.pk}-backup.json"'
    data = backup.read_backup(response.content)
    assert data["format"] == backup.FORMAT and len(data["participants"]) == 5
    wipe()
    imported = backup.import_tournament(data)
    assert sorted(imported.participants.values_list("name", flat=True)) == [f"P{i}" for i in range(5)]


def test_only_the_director_downloads_a_backup(client):
    _director, ref1, _ref2 = make_people()
    t = Tournament.objects.create(name="Cup")
    url = reverse("tournament_backup", args=[t.pk])
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(ref1)
    assert client.get(url).status_code == 403


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_export_reads_in_a_transaction_of_its_own(client):
    """Outside a transaction (a request, the command) the export reads everything as of one moment."""
    director, _ref1, _ref2 = make_people()
    t = Tournament.objects.create(name="Snapshot Cup", date=DAY)
    Participant.objects.create(tournament=t, name="P0")
    client.force_login(director)
    data = backup.read_backup(client.get(reverse("tournament_backup", args=[t.pk])).content)
    assert [p["name"] for p in data["participants"]] == ["P0"]
    assert json.loads(run("export_tournament", str(t.pk)))["tournament"]["name"] == "Snapshot Cup"


def test_participant_names_and_clubs_must_differ_in_more_than_case(one_round_backup):
    first, second = one_round_backup["participants"][:2]
    second["name"], second["club"] = first["name"].upper(), first["club"].upper()
    with pytest.raises(backup.BackupError, match=r"participants: PLAYER 00( \(.*\))? appears twice"):
        backup.import_tournament(one_round_backup)
    assert nothing_stored()


def test_namesakes_of_two_clubs_are_restored_told_apart(one_round_backup):
    first, second = one_round_backup["participants"][:2]
    first["club"], second["name"], second["club"] = "SP 1", first["name"].upper(), "SP 2"
    t = backup.import_tournament(one_round_backup)
    shown = {p.shown_name for p in t.participants.filter(namesake=True)}
    assert shown == {f"{first['name']} (SP 1)", f"{second['name']} (SP 2)"}


def test_a_backup_made_before_the_newer_rules_keeps_the_rules_its_games_were_played_by(one_round_backup):
    assert one_round_backup["rules"] == backup.RULES
    read = reading.read_values(one_round_backup)
    games = [t["game"] for r in read["rounds"] for t in r["tables"] if t["game"]]
    assert games and all("rent_lapses_at" not in g["options"] for g in games)
    old = copy.deepcopy(one_round_backup)
    del old["rules"]  # written before the marker: rent lapsed at any roll, the token left jail at once
    games = [t["game"] for r in reading.read_values(old)["rounds"] for t in r["tables"] if t["game"]]
    assert all(g["options"]["rent_lapses_at"] == "next_roll" for g in games)
    assert all(g["options"]["jail_fine_before_move"] is False for g in games)
    assert all(g["options"]["income_tax_valued_at"] == "choice" for g in games)


def test_a_backup_of_the_second_rules_keeps_only_the_rules_changed_since(one_round_backup):
    old = copy.deepcopy(one_round_backup)
    old["rules"] = 2  # written before Anti-Monopoly's income tax was valued at the landing (migration 0015)
    games = [t["game"] for r in reading.read_values(old)["rounds"] for t in r["tables"] if t["game"]]
    assert games and all(g["options"]["income_tax_valued_at"] == "choice" for g in games)
    assert all(g["options"]["prison_rule_in_final_count"] is False for g in games)
    assert all("rent_lapses_at" not in g["options"] for g in games)  # already the rules of generation 2


# -- forged and damaged files: the file is checked as a whole before anything is stored ---------------------


def _tables(data):
    return data["rounds"][0]["tables"]


def _confirmed(table):
    return next(x for x in table["results"] if x["status"] == "confirmed")


def _by_hand(result):
    result["by_hand"], result["hand_reason"] = True, "played on paper"
    return result


def _seated_twice(d):
    _tables(d)[1]["seats"].append(_tables(d)[0]["seats"][0])


def _scores_twice(d):
    rows = _by_hand(_confirmed(_tables(d)[1]))["ranking"]
    rows.append(dict(rows[0]))  # double points for the winner


def _player_not_seated(d):
    first, second = _tables(d)[0], _tables(d)[1]
    stranger = first["seats"][0]
    player = second["game"]["players"][0]
    for row in _confirmed(second)["ranking"]:  # the result follows, as a forger would make it
        if row["participant"] == player["participant"]:
            row["participant"] = stranger
    player["participant"] = stranger


def _hand_points(d):
    for row in _by_hand(_confirmed(_tables(d)[1]))["ranking"]:
        row["points"] = 5  # every player a winner


def _hand_places(d):
    rows = _by_hand(_confirmed(_tables(d)[1]))["ranking"]
    for row, rank in zip(rows, (1, 3, 3, 4), strict=True):
        row["rank"] = rank


def _hand_stranger(d):
    _by_hand(_confirmed(_tables(d)[1]))["ranking"][0]["participant"] = _tables(d)[0]["seats"][0]


def _note(d):
    _first_game(d)["events"][0]["notes"] = [{"t": "{player.missing}", "p": {"player": "A"}}]


def _not_playing(table):
    last = table["game"]["players"][-1]["participant"]
    return (
        f"rounds[0].tables[1].seats[{table['seats'].index(last)}]: participant {last} is seated at this "
        "table but does not play in its game."
    )


def _seat_of(d, pid):
    """Where the participant sits in the file (the ids are the exporting database's)."""
    return next(
        f"rounds[0].tables[{i}].seats[{t['seats'].index(pid)}]"
        for i, t in enumerate(_tables(d))
        if pid in t["seats"]
    )


def _reopened_everywhere(d):
    result = _confirmed(_tables(d)[1])
    result.update(status="reopened", reopened_at=result["confirmed_at"], reason="dice misread")


FORGED = {
    "a participant at two tables": (
        _seated_twice,
        lambda d: (
            f"rounds[0].tables[1].seats[{len(_tables(d)[1]['seats'])}]: participant "
            f"{_tables(d)[0]['seats'][0]} is already seated at table 1 of this round."
        ),
    ),
    "scores listed twice": (
        _scores_twice,
        lambda d: (
            f"rounds[0].tables[1].results[0].ranking: "
            f"{_confirmed(_tables(d)[1])['ranking'][0]['participant']} appears twice."
        ),
    ),
    "a game player who is not seated": (
        _player_not_seated,
        lambda d: (
            f"rounds[0].tables[1].game.players[0].participant: participant {_tables(d)[0]['seats'][0]} "
            "plays in the game but is not seated "
            "at this table."
        ),
    ),
    "a seated participant who does not play": (
        lambda d: _tables(d)[1]["game"]["players"].pop(),
        lambda d: _not_playing(_tables(d)[1]),
    ),
    "points of a result by hand that its places do not give": (
        _hand_points,
        "rounds[0].tables[1].results[0].ranking: the points of a result entered by hand are not those of its "
        "places.",
    ),
    "places of a result by hand": (
        _hand_places,
        "rounds[0].tables[1].results[0].ranking: Places must be 1, 2, 3",
    ),
    "a result by hand naming another table's participant": (
        _hand_stranger,
        lambda d: (
            f"rounds[0].tables[1].results[0].ranking[0].participant: participant "
            f"{_tables(d)[0]['seats'][0]} does not play at this table."
        ),
    ),
    "rounds out of order": (
        lambda d: d["rounds"][0].update(number=2),
        "rounds[0]: the rounds are numbered 1, 2, 3 … in order; this one is 2, not 1.",
    ),
    "a finished round without a table's result": (
        _reopened_everywhere,
        "rounds[0].tables[1]: round 1 is finished, but this table has no result that counts",
    ),
    "a result without the second confirmation the tournament asks for": (
        lambda d: _confirmed(_tables(d)[1]).update(second_by=None, second_at=None),
        "rounds[0].tables[1]: round 1 is finished, but this table has no result that counts",
    ),
    "games in a round not started": (
        lambda d: d["rounds"][0].update(status="seated"),
        "rounds[0].tables[0]: round 1 has not started, yet this table has a game or a result.",
    ),
    "a participant seated after he withdrew": (
        lambda d: d["participants"][4].update(withdrawn_after=0),
        lambda d: (
            f"{_seat_of(d, d['participants'][4]['id'])}: participant {d['participants'][4]['id']} withdrew "
            "after round 0."
        ),
    ),
    "a game under other rules than the tournament's": (
        lambda d: _first_game(d)["options"].update(move_time_limit=60),
        "rounds[0].tables[0].game.options: the game's option move_time_limit is 60; the tournament's is "
        "null.",
    ),
    "a game on another board": (
        lambda d: _first_game(d).update(board="classic-us"),
        "rounds[0].tables[0].game.board: the game is played with “classic-us”, the tournament with "
        "“classic-pl”.",
    ),
    "a finished game said to be running": (
        lambda d: _first_game(d).update(status="running"),
        "rounds[0].tables[0].game.status: the game is “running”, but its moves replay to a game that is "
        "“finished”.",
    ),
    "a note that is no note of the engine": (
        _note,
        "rounds[0].tables[0].game.events[0].notes[0] is not a note of the rules engine",
    ),
    "NUL in a name": (
        lambda d: d["participants"][0].update(name="Player\x0000"),
        "participants[0].name holds a character no database stores (NUL or a lone surrogate).",
    ),
    "a lone surrogate in an event": (
        lambda d: _first_game(d)["events"][2]["data"].update(comment="\ud800"),
        "rounds[0].tables[0].game.events[2].data.comment holds a character no database stores",
    ),
    "a director's change in a round that is not there": (
        lambda d: d["audit"][0].update(round=3),
        "audit[0]: there is no round 3 in the backup.",
    ),
    "a seed beyond the column": (
        lambda d: d["tournament"].update(seed=3 * 10**10),
        "tournament.seed must be at most 2000000.",
    ),
    "a participant's seed beyond the column": (
        lambda d: d["participants"][1].update(seed=3 * 10**10),
        "participants[1].seed must be at most 2147483647.",
    ),
    "placement points beyond bounds": (
        lambda d: d["tournament"].update(placement_points=[10**40, 0]),
        "tournament.placement_points[0] must be at most 1000.",
    ),
    "a time that UTC carries out of the calendar": (
        lambda d: _first_game(d)["events"][0].update(entered_at="0001-01-01T00:00:00+14:00"),
        "rounds[0].tables[0].game.events[0].entered_at must be a date and time of the years 1900 to 2200.",
    ),
    "a date of year 9999": (
        lambda d: d["tournament"].update(date="9999-12-31"),
        "tournament.date must be a date of the years 1900 to 2200.",
    ),
}


@pytest.mark.postgres
@pytest.mark.parametrize("case", list(FORGED))
def test_a_forged_or_damaged_backup_is_refused_naming_the_place_and_nothing_is_stored(case, one_round_backup):
    change, expected = FORGED[case]
    if callable(expected):  # ids as the file has them (a database's sequences decide them)
        expected = expected(one_round_backup)
    change(one_round_backup)
    with translation.override("en"), pytest.raises(backup.BackupError) as e:
        backup.import_tournament(one_round_backup)
    assert expected in str(e.value), str(e.value)
    assert nothing_stored()


def test_a_result_by_hand_over_a_finished_game_is_checked_as_the_director_enters_it(one_round_backup):
    """The director may enter a table's result by hand while its game is over (the paper sheet disagrees):
    the file may hold one, with a place and score per player of the game and the points of the places."""
    result = _by_hand(_confirmed(_tables(one_round_backup)[1]))
    for row in result["ranking"]:
        row["score"] += 7
    imported = backup.import_tournament(one_round_backup)
    stored = results.current_result(imported.round_set.get().tables.get(number=2))
    assert stored.by_hand and sorted(r["score"] for r in stored.ranking) == sorted(
        r["score"] for r in result["ranking"]
    )


HOSTILE_TEXTS = {
    "deep": ("[" * 100_000 + "]" * 100_000, "The file is not a tournament backup: it is nested too deeply."),
    "deep object": ('{"a": ' * 5000 + "1" + "}" * 5000, "it is nested too deeply."),
    "a number too long": (
        '{"format": "monopoly-tournament-backup/1", "seed": 1' + "0" * 5000 + "}",
        "it holds a number that is not valid JSON or is too long.",
    ),
    "NaN": ('{"format": "monopoly-tournament-backup/1", "x": NaN}', "not valid JSON or is too long"),
    "Infinity": (
        '{"format": "monopoly-tournament-backup/1", "x": -Infinity}',
        "not valid JSON or is too long",
    ),
    "1e400": ('{"format": "monopoly-tournament-backup/1", "x": 1e400}', "not valid JSON or is too long"),
}


@pytest.mark.postgres
@pytest.mark.parametrize("case", list(HOSTILE_TEXTS))
def test_hostile_json_is_a_message_not_a_traceback(case, tmp_path):
    text, expected = HOSTILE_TEXTS[case]
    with translation.override("en"), pytest.raises(backup.BackupError, match=expected):
        backup.read_backup(text.encode())
    path = tmp_path / "hostile.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CommandError) as e:
        run("import_tournament", str(path))
    assert e.value.returncode == 1 and str(e.value).startswith("Nothing was imported.")
    assert expected in str(e.value)
    assert nothing_stored()


def test_a_backup_file_over_the_limit_is_refused_before_it_is_read(settings, tmp_path, monkeypatch):
    settings.BACKUP_MAX_BYTES = 1024 * 1024
    path = tmp_path / "big.json"
    path.write_text('{"format": "monopoly-tournament-backup/1", "x": "' + "x" * 1024 * 1024 + '"}')
    read = []
    real_read = reading.read_backup  # what read_backup_file calls once the file is read
    monkeypatch.setattr(reading, "read_backup", lambda raw: read.append(raw) or real_read(raw))
    expected = "The file is larger than 1 MB, the most a backup may have (the setting BACKUP_MAX_BYTES)."
    with pytest.raises(CommandError, match="larger than") as e:
        run("import_tournament", str(path))
    assert expected in str(e.value) and read == []
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(path.read_bytes())))
    with pytest.raises(CommandError, match="larger than"):
        run("import_tournament", "-")
    assert read == [] and nothing_stored()


# -- check-ins and the players' signatures -------------------------------------------------------------------


def play_in_batches(table, referee, seed):
    """The table's game to its end from a simulated record, its first moves entered with one tap (the game's
    version counts one change for the batch; a restore counts one a move)."""
    order = [s.participant_id for s in table.seats.all()]
    game = rounds.start_table_game(table, order, user=referee)
    t = table.round.tournament
    events = simulate(t.variant, t.board, len(order), seed=seed, rounds=t.game_rounds)["events"]
    game = recording.submit_all(game.pk, events[:3], version=game.version, user=referee).game
    game = enter(game, events[3:], referee)
    assert recording.current_state(game).finished
    return game


def run_signed_tournament(people):
    """A tournament asking for check-in: round 1 seats those who checked in (four from their links, four
    ticked by the director; one stays away). At table 1 a player agreed, the game was corrected (his signature
    voided), every player agreed to its new figures and the result is confirmed; at table 2 a player disputes
    the figures and the result waits for the director's ruling. Two participants checked in for round 2."""
    director, ref1, ref2 = people
    t = Tournament.objects.create(
        name="Signed Cup",
        date=DAY,
        rounds=3,
        game_rounds=2,
        seed=5,
        placement_points=[5, 3, 1, 0],
        check_in=True,
        created_by=director,
    )
    everyone = [
        Participant.objects.create(tournament=t, name=f"Player {i:02}", club=f"club{i % 3}") for i in range(9)
    ]
    for p in everyone[:4]:
        check_in.check_in(p)
    for p in everyone[4:8]:
        check_in.check_in(p, by=director)
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    first, second = round_.tables.order_by("number")
    first.referees.set([ref1])
    second.referees.set([ref2])

    game = play_in_batches(first, ref1, seed=101)
    players = [p.participant for p in game.players.order_by("seat")]
    signatures.sign(players[0], first, agrees=True, reason="", version=game.version)
    last = game.events.filter(status=GameEvent.Status.ACTIVE).order_by("-seq").first().data
    game = recording.undo_last(
        game.pk, version=game.version, user=ref1, reason="the dice were misread", client_key="undo-s"
    )
    game = recording.submit(game.pk, last, version=game.version, user=ref1).game
    for p in players:
        signatures.sign(p, first, agrees=True, reason="", version=game.version)
    results.confirm(first, ref1)

    game = play_in_batches(second, ref2, seed=102)
    players = [p.participant for p in game.players.order_by("seat")]
    signatures.sign(players[0], second, agrees=True, reason="", version=game.version)
    dispute = "The rent on square 39 was 50, not 200."
    signatures.sign(players[1], second, agrees=False, reason=dispute, version=game.version)
    with pytest.raises(RoundError, match="disputes the figures"):
        results.confirm(second, ref2)

    for p in everyone[:2]:  # round 1 under way: check-in is for round 2
        assert check_in.check_in(p)[0].round_number == 2
    return t


def signed(t: Tournament) -> dict:
    """The check-ins and signatures by name; a signature on the game's version as it is now said so (the
    restore may raise the version), one on an older version by its number; what stops each confirmation."""
    check_ins = CheckIn.objects.filter(participant__tournament=t).select_related("participant", "by")
    out = {
        "check_ins": sorted((c.participant.name, c.round_number, c.via, who(c.by), c.at) for c in check_ins),
        "signatures": {},
        "blocking": {},
    }
    for table in Table.objects.filter(round__tournament=t).select_related("round"):
        key, game = (table.round.number, table.number), table.game_or_none
        out["signatures"][key] = [
            (s.participant.name, s.agrees, s.reason, s.at, s.link_key)
            + ("current" if s.game_version == game.version else s.game_version,)
            for s in table.signatures.select_related("participant").order_by("at", "pk")
        ]
        out["blocking"][key] = signatures.blocking(t, table, game)
    return out


@pytest.fixture
def signed_backup():
    """The backup of ``run_signed_tournament``; the database is empty again (built once)."""
    if "signed" not in _CACHE:
        t = run_signed_tournament(make_people())
        _CACHE["signed"] = json.loads(backup.dumps(backup.export_tournament(t)))
        wipe()
    return copy.deepcopy(_CACHE["signed"])


@pytest.mark.postgres
def test_check_ins_and_signatures_come_back_and_a_dispute_still_stops_the_confirmation():
    t = run_signed_tournament(make_people())
    with translation.override("en"):
        before = signed(t)
    assert len(before["check_ins"]) == 10 and {c[2] for c in before["check_ins"]} == {"link", "director"}
    assert [len(x) for x in before["signatures"].values()] == [5, 2]
    assert sum(1 for x in before["signatures"][(1, 1)] if x[-1] != "current") == 1  # voided by the undo
    assert before["blocking"][(1, 1)] is None and "disputes the figures" in before["blocking"][(1, 2)]
    data = json.loads(backup.dumps(backup.export_tournament(t)))
    exported = {x["number"]: x["game"]["version"] for x in data["rounds"][0]["tables"]}

    wipe()
    imported = backup.import_tournament(data)
    with translation.override("en"):
        assert signed(imported) == before
    # the restore counts a change a move (a batch of moves was one): the signatures follow the game's version
    restored = Game.objects.filter(table__round__tournament=imported)
    assert all(g.version > exported[g.table.number] for g in restored)
    again = by_name(backup.export_tournament(imported))
    assert again["check_ins"] == by_name(data)["check_ins"]

    # the confirmation, as the console asks for it, still waits for the director's ruling
    second = Table.objects.get(round__tournament=imported, number=2)
    with translation.override("en"), pytest.raises(RoundError) as stopped:
        results.confirm(second, User.objects.get(username="ref2"))
    assert "A player disputes the figures (" in str(stopped.value)
    assert "The rent on square 39 was 50, not 200." in str(stopped.value)
    assert results.current_result(second) is None
    director = User.objects.get(username="director")
    results.confirm(second, director, ruling="The board's card says 200.", directs=True)
    assert results.current_result(second) is not None
    # round 2 seats those who checked in for it before the backup
    round_ = rounds.seat_next_round(imported)
    seated = Seat.objects.filter(table__round=round_).values_list("participant__name", flat=True)
    assert sorted(seated) == ["Player 00", "Player 01"]


def test_a_backup_made_before_check_ins_and_signatures_imports_without_them(signed_backup):
    del signed_backup["check_ins"]
    for table in signed_backup["rounds"][0]["tables"]:
        del table["signatures"]
    imported = backup.import_tournament(signed_backup)
    assert imported.round_set.count() == 1 and Game.objects.count() == 2
    assert not CheckIn.objects.exists() and not Signature.objects.exists()
    second = Table.objects.get(round__tournament=imported, number=2)
    results.confirm(second, User.objects.get(username="ref2"))  # no dispute came with the file
    assert results.current_result(second) is not None


def test_the_signed_backup_imports(signed_backup):
    """The hostile variants below are refused for what is wrong with them, not for the rest."""
    backup.import_tournament(signed_backup)
    assert CheckIn.objects.count() == 10 and Signature.objects.count() == 7


def _signatures(d):
    return _tables(d)[1]["signatures"]  # table 2's: an agreement, then the dispute


def _dispute(d):
    return _signatures(d)[1]


DISPUTE = "rounds[0].tables[1].signatures[1]"


def _twice(d):
    d["check_ins"].append(dict(d["check_ins"][0]))


HOSTILE_SIGNED = {
    "a check-in of a participant not in the backup": (
        lambda d: d["check_ins"][0].update(participant=999_999),
        "check_ins[0].participant: there is no participant 999999 among the backup's participants.",
    ),
    "a check-in for a round after the next": (
        lambda d: d["check_ins"][0].update(round=3),
        "check_ins[0]: there is no round 3 in the backup.",
    ),
    "a check-in for round 0": (
        lambda d: d["check_ins"][0].update(round=0),
        "check_ins[0].round must be at least 1.",
    ),
    "a check-in's round as text": (
        lambda d: d["check_ins"][0].update(round="1"),
        "check_ins[0].round must be a whole number.",
    ),
    "a check-in by an unknown way": (
        lambda d: d["check_ins"][0].update(via="phone"),
        "check_ins[0].via: “phone” is not one of: link, director.",
    ),
    "a check-in without its time": (
        lambda d: d["check_ins"][0].update(at="yesterday"),
        "check_ins[0].at must be a date and time (ISO 8601).",
    ),
    "a participant checked in twice for a round": (
        _twice,
        lambda d: (
            f'check_ins[10]: {{"participant": {d["check_ins"][0]["participant"]}, "round": 1}} appears twice.'
        ),
    ),
    "check-ins that are not a list": (
        lambda d: d.update(check_ins={"participant": 1}),
        "check_ins must be a list.",
    ),
    "a signature of a participant not in the backup": (
        lambda d: _dispute(d).update(participant=999_999),
        f"{DISPUTE}.participant: there is no participant 999999 among the backup's participants.",
    ),
    "a signature of the current figures by one who does not play at the table": (
        lambda d: _dispute(d).update(participant=_tables(d)[0]["seats"][0]),
        lambda d: (
            f"{DISPUTE}.participant: participant {_tables(d)[0]['seats'][0]} does not play at this table."
        ),
    ),
    "a signature at a table whose game has not started": (
        lambda d: _tables(d)[1].update(game=None),
        lambda d: (
            f"rounds[0].tables[1].signatures[0].participant: participant "
            f"{_signatures(d)[0]['participant']} does not play at this table."
        ),
    ),
    "a signature of a version the game never had": (
        lambda d: _dispute(d).update(game_version=_dispute(d)["game_version"] + 1),
        lambda d: f"{DISPUTE}.game_version must be at most {_tables(d)[1]['game']['version']}.",
    ),
    "a signature's version as text": (
        lambda d: _dispute(d).update(game_version="3"),
        f"{DISPUTE}.game_version must be a whole number.",
    ),
    "a verdict neither agree nor dispute": (
        lambda d: _dispute(d).update(verdict="maybe"),
        f"{DISPUTE}.verdict: “maybe” is not one of: agree, dispute.",
    ),
    "a verdict as true or false": (
        lambda d: _dispute(d).update(verdict=False),
        f"{DISPUTE}.verdict must be text.",
    ),
    "a dispute without its reason": (
        lambda d: _dispute(d).update(reason="  "),
        f"{DISPUTE}.reason must not be empty.",
    ),
    "a reason too long": (
        lambda d: _dispute(d).update(reason="x" * 201),
        f"{DISPUTE}.reason must be at most 200 characters long.",
    ),
    "a link's mark too long": (
        lambda d: _dispute(d).update(link_mark="f" * 25),
        f"{DISPUTE}.link_mark must be at most 24 characters long.",
    ),
    "a signature without its verdict": (
        lambda d: _dispute(d).pop("verdict"),
        f"{DISPUTE}: the key “verdict” is missing.",
    ),
    "a signature that is not an object": (
        lambda d: _signatures(d).append("agree"),
        "rounds[0].tables[1].signatures[2] must be an object.",
    ),
    "signatures that are not a list": (
        lambda d: _tables(d)[1].update(signatures="agree"),
        "rounds[0].tables[1].signatures must be a list.",
    ),
}


@pytest.mark.postgres
@pytest.mark.parametrize("case", list(HOSTILE_SIGNED))
def test_a_hostile_check_in_or_signature_is_refused_and_nothing_is_stored(case, signed_backup):
    change, expected = HOSTILE_SIGNED[case]
    if callable(expected):  # ids as the file has them
        expected = expected(signed_backup)
    change(signed_backup)
    with translation.override("en"), pytest.raises(backup.BackupError) as e:
        backup.import_tournament(signed_backup)
    assert expected in str(e.value), str(e.value)
    assert nothing_stored()


def test_who_is_who_survives_a_backup_where_the_players_are_still_there(django_capture_on_commit_callbacks):
    from tests.league import make_players, results_tournament
    from tournament.models import Player, PlayerRating
    from tournament.ratings.rebuild import rebuild

    ada, bob, cyd = make_players(["Ada", "Bob", "Cyd"])
    t = results_tournament("League cup", DAY, [[[(ada, 1), (bob, 2), (cyd, 3)]]])
    data = json.loads(backup.dumps(backup.export_tournament(t)))
    assert {p["name"]: p["player"]["id"] for p in data["participants"]} == {
        "Ada": ada.pk,
        "Bob": bob.pk,
        "Cyd": cyd.pk,
    }
    t.delete()
    rebuild()
    assert not PlayerRating.objects.exists()
    Player.objects.filter(pk=cyd.pk).update(name="Somebody else", name_key="somebody else")
    with django_capture_on_commit_callbacks(execute=True):
        restored = backup.import_tournament(copy.deepcopy(data))
    links = dict(restored.participants.values_list("name", "player_id"))
    assert links == {"Ada": ada.pk, "Bob": bob.pk, "Cyd": None}  # Cyd's player is another person now
    assert PlayerRating.objects.filter(player__in=[ada, bob]).count() == 2  # the results count again
    forged = copy.deepcopy(data)
    forged["tournament"]["name"] = "Forged"
    forged["participants"][1]["player"] = forged["participants"][0]["player"]
    with pytest.raises(backup.BackupError, match="appears twice"):
        backup.import_tournament(forged)
    older = copy.deepcopy(data)
    older["tournament"]["name"] = "Older"
    for p in older["participants"]:
        p.pop("player")  # a backup made before the league
    assert not backup.import_tournament(older).participants.filter(player__isnull=False).exists()
