"""Games stored before the engine followed RULES.md's newer decisions keep the rules they were played by.

A pending rent now lapses at the next player's roll (it lapsed at any next roll) and the fine of a failed last
jail try is paid before the token moves (the token moved at once). A game already stored gets the options
under which its log replays as it was played (``rules.variants.PREVIOUS_RULES``), in its options and in its
stored state, so that an undo, a report or a backup replays it the same.
"""

from django.db import migrations

PREVIOUS_RULES = {"rent_lapses_at": "next_roll", "jail_fine_before_move": False}  # as of this migration


def keep_their_rules(apps, schema_editor):
    Game = apps.get_model("tournament", "Game")
    for game in Game.objects.all().iterator():
        game.options = {**PREVIOUS_RULES, **(game.options or {})}
        if game.state and "variant" in game.state:
            game.state["variant"] = {**game.state["variant"], **{k: game.options[k] for k in PREVIOUS_RULES}}
        game.save(update_fields=["options", "state"])


class Migration(migrations.Migration):
    dependencies = [("tournament", "0006_tournament_ending")]

    operations = [migrations.RunPython(keep_their_rules, migrations.RunPython.noop)]
