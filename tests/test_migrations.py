"""Data migrations do what they say (run from the migration before them, on a database with data)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from rules.variants import RULE_CHANGES

pytestmark = pytest.mark.django_db(transaction=True)


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
