"""Games stored before the engine followed RULES.md's newer Anti-Monopoly decisions keep the rules they were
played by.

The income tax's percentage is now valued when the token lands (a mortgage or a sale made before the choice
lowered it), and a monopolist in Prison now earns nothing in the end's count (the two-hour game's step C, Game
B's rule 25: he was paid and counted as any owner). A game already stored gets the options under which its log
replays as it was played (``rules.variants.RULE_CHANGES[3]``), in its options and in its stored state, so that
an undo, a report or a backup replays it the same. Like migration 0007, every game gets them (they change
nothing in a game without roles), and an option a game set stays.
"""

from django.db import migrations

#: as of this migration
PREVIOUS_RULES = {"income_tax_valued_at": "choice", "prison_rule_in_final_count": False}


def keep_their_rules(apps, schema_editor):
    Game = apps.get_model("tournament", "Game")
    for game in Game.objects.all().iterator():
        game.options = {**PREVIOUS_RULES, **(game.options or {})}
        if game.state and "variant" in game.state:
            game.state["variant"] = {**game.state["variant"], **{k: game.options[k] for k in PREVIOUS_RULES}}
        game.save(update_fields=["options", "state"])


class Migration(migrations.Migration):
    dependencies = [("tournament", "0014_referee_accounts")]

    operations = [migrations.RunPython(keep_their_rules, migrations.RunPython.noop)]
