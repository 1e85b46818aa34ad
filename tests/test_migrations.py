"""Data migrations do what they say (run from the migration before them, on a database with data)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from rules import replay
from rules.scoring import score
from rules.snapshot import dump_state, load_state
from rules.variants import RULE_CHANGES

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]  # on PostgreSQL too


def migrate(target):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([target])
    return executor.loader.project_state([target]).apps


def test_games_stored_before_the_newer_rules_keep_the_rules_they_were_played_by():
    apps = migrate(("tournament", "0006_tournament_ending"))
    Game = apps.get_model("tournament", "Game")
    old = Game.objects.create(
        name="old",
        variant="classic",
        board="classic-us",
        options={"max_rounds": 8},
        state={"variant": {"id": "classic", "rent_lapses_at": "next_roll"}},
    )
    chosen = Game.objects.create(
        name="chose", variant="classic", board="classic-us", options={"rent_lapses_at": "next_player_roll"}
    )
    apps = migrate(("tournament", "0007_games_keep_their_rules"))
    Game = apps.get_model("tournament", "Game")
    old, chosen = Game.objects.get(pk=old.pk), Game.objects.get(pk=chosen.pk)
    assert old.options == {"max_rounds": 8, **RULE_CHANGES[2]}
    assert old.state["variant"]["jail_fine_before_move"] is False
    assert chosen.options["rent_lapses_at"] == "next_player_roll"  # an option the game set stays
    migrate_to_latest()  # for the next tests


def migrate_to_latest():
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_each_tournament_is_directed_by_its_creator():
    apps = migrate(("tournament", "0009_board_edition_digest"))
    User = apps.get_model("auth", "User")
    Tournament = apps.get_model("tournament", "Tournament")
    anna = User.objects.create(username="anna")
    created = Tournament.objects.create(name="Anna's Cup", created_by=anna)
    orphan = Tournament.objects.create(name="Imported long ago")
    apps = migrate(("tournament", "0010_tournament_directors"))
    Tournament = apps.get_model("tournament", "Tournament")
    assert [u.username for u in Tournament.objects.get(pk=created.pk).directors.all()] == ["anna"]
    assert not Tournament.objects.get(pk=orphan.pk).directors.exists()
    migrate_to_latest()


#: An Anti-Monopoly Game B of two rounds whose figures depend on the rules before migration 0015: C mortgages
#: French Quarter before choosing the income tax's percentage (valued at the choice then: 147, at the landing
#: 150), and M ends in Prison (counted then with his U.S. Railroad's fare 40, nothing now).
AM_GAME_B = {
    "variant": "anti-monopoly",
    "board": "anti-monopoly-us",
    "options": {"ending": "game_b", "max_rounds": 2},
    "players": [
        {"id": "C", "name": "Celina", "role": "competitor"},
        {"id": "M", "name": "Marek", "role": "monopolist"},
    ],
    "events": [
        {"type": "roll", "player": "C", "dice": [1, 2]},  # 3 French Quarter
        {"type": "buy", "player": "C"},  # C 1440
        {"type": "roll", "player": "M", "dice": [2, 3]},  # 5 U.S. Railroad
        {"type": "buy", "player": "M"},  # M 1300
        {"type": "roll", "player": "C", "dice": [2, 2]},  # 7, a card square: back 3 to Income Tax
        {"type": "card", "player": "C", "effect": {"kind": "move_back", "steps": 3}},
        {"type": "mortgage", "player": "C", "square": 3},  # C 1470
        {"type": "income_tax", "player": "C", "choice": "percent"},
        {"type": "roll", "player": "C", "dice": [2, 3]},  # the double's extra roll: 9 Hollywood Blvd.
        {"type": "decline", "player": "C"},
        {"type": "roll", "player": "M", "dice": [1, 1]},  # 7, a card square: to Prison; the game is over
        {"type": "card", "player": "M", "effect": {"kind": "go_to_prison"}},
    ],
}


def scores(state):
    return {p.id: score(state, p.id) for p in state.players}


def test_anti_monopoly_games_stored_before_0015_keep_the_rules_they_were_played_by():
    record = {"format": "monopoly-game-record/1", **AM_GAME_B}
    played = replay({**record, "options": {**record["options"], **RULE_CHANGES[3]}})
    assert played.ok and played.state.finished and scores(played.state) == {"C": 1323, "M": 1340}
    assert scores(replay(record).state) == {"C": 1320, "M": 1300}  # the rules of a new game differ
    stored = dump_state(played.state)  # as the engine before 0015 stored it: without the newer options
    for option in RULE_CHANGES[3]:
        del stored["variant"][option]

    apps = migrate(("tournament", "0014_referee_accounts"))
    Game, GamePlayer, GameEvent = (
        apps.get_model("tournament", m) for m in ("Game", "GamePlayer", "GameEvent")
    )
    old = Game.objects.create(
        name="old", variant=record["variant"], board=record["board"], options=record["options"], state=stored
    )
    for seat, p in enumerate(record["players"]):
        GamePlayer.objects.create(game=old, seat=seat, pid=p["id"], name=p["name"], role=p["role"])
    for seq, event in enumerate(record["events"], start=1):
        GameEvent.objects.create(game=old, seq=seq, data=event)
    chosen = Game.objects.create(
        name="chose",
        variant="anti-monopoly",
        board="anti-monopoly-us",
        options={"income_tax_valued_at": "landing"},
    )
    migrate(("tournament", "0015_games_keep_their_anti_monopoly_rules"))
    migrate_to_latest()

    from tournament.games import recording
    from tournament.models import Game

    old = Game.objects.get(pk=old.pk)
    assert old.options == {**record["options"], **RULE_CHANGES[3]}
    assert scores(load_state(old.state)) == {"C": 1323, "M": 1340}  # the state the console keeps
    recording.rebuild(old)  # as an undo, a report or a backup replays it
    assert scores(load_state(old.state)) == {"C": 1323, "M": 1340}
    chosen = Game.objects.get(pk=chosen.pk)
    assert chosen.options["income_tax_valued_at"] == "landing"  # an option the game set stays


def test_a_results_stored_ranking_becomes_a_row_per_player_and_comes_back_going_back():
    apps = migrate(("tournament", "0015_games_keep_their_anti_monopoly_rules"))
    Tournament, Participant, Round, Table, TableResult = (
        apps.get_model("tournament", m)
        for m in ("Tournament", "Participant", "Round", "Table", "TableResult")
    )
    cup = Tournament.objects.create(name="Cup")
    anna, bolek, gone = (
        Participant.objects.create(tournament=cup, name=n) for n in ("Anna", "Bolek", "Gone")
    )
    table = Table.objects.create(round=Round.objects.create(tournament=cup, number=1), number=1)
    ranking = [
        {
            "participant": bolek.pk,
            "name": "Bolek",
            "rank": 1,
            "score": 2100,
            "points": 4,
            "role": "monopolist",
        },
        {"participant": anna.pk, "name": "Anna", "rank": 2, "score": 900, "points": 2},
        {"participant": None, "name": "Guest", "rank": 2, "score": 900, "points": 2},
        {"participant": gone.pk, "name": "Gone", "rank": 4, "score": 0, "points": 0},
    ]
    result = TableResult.objects.create(table=table, ranking=ranking)
    empty = TableResult.objects.create(
        table=table, ranking=[], status="reopened", reopened_at="2025-01-01T10:00Z", reason="typo"
    )
    gone_id = gone.pk
    gone.delete()  # a participant deleted since: the list kept his id
    migrate(("tournament", "0016_table_scores"))
    migrate_to_latest()

    from tournament.models import TableResult, TableScore

    stored = TableResult.objects.with_scores().get(pk=result.pk)
    rows = [
        (s.position, s.participant_id, s.name, s.role, s.rank, s.score, s.points) for s in stored.scores.all()
    ]
    assert rows == [
        (0, bolek.pk, "Bolek", "monopolist", 1, 2100, 4),
        (1, anna.pk, "Anna", "", 2, 900, 2),
        (2, None, "Guest", "", 2, 900, 2),
        (3, None, "Gone", "", 4, 0, 0),
    ]
    assert stored.ranking == [ranking[0], ranking[1], ranking[2], {**ranking[3], "participant": None}]
    assert not TableScore.objects.filter(result=empty.pk).exists()

    apps = migrate(("tournament", "0015_games_keep_their_anti_monopoly_rules"))
    TableResult = apps.get_model("tournament", "TableResult")
    assert TableResult.objects.get(pk=result.pk).ranking == stored.ranking
    assert TableResult.objects.get(pk=empty.pk).ranking == []
    assert gone_id not in [r["participant"] for r in stored.ranking]
    migrate_to_latest()
