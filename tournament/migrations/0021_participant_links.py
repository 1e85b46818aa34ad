"""A private link per participant (``Participant.link_key``): every participant already entered gets his key,
each drawn afresh (a default alone would give them all one and the same); the director's log
keeps each link given anew or revoked."""

from django.db import migrations, models

import tournament.models.tournaments


def give_keys(apps, schema_editor):
    Participant = apps.get_model("tournament", "Participant")
    for participant in Participant.objects.filter(link_key__isnull=True).only("pk").iterator():
        participant.link_key = tournament.models.tournaments.new_link_key()
        participant.save(update_fields=["link_key"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0020_standings_changes"),
    ]

    operations = [
        migrations.AddField(
            model_name="participant",
            name="link_key",
            field=models.CharField(
                blank=True, editable=False, max_length=24, null=True, verbose_name="private link key"
            ),
        ),
        migrations.RunPython(give_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="participant",
            name="link_key",
            field=models.CharField(
                blank=True,
                default=tournament.models.tournaments.new_link_key,
                editable=False,
                max_length=24,
                null=True,
                unique=True,
                verbose_name="private link key",
            ),
        ),
        # the director's log says when a link was given anew or revoked
        migrations.RemoveConstraint(
            model_name="auditentry",
            name="audit_action_valid",
        ),
        migrations.AlterField(
            model_name="auditentry",
            name="action",
            field=models.CharField(
                choices=[
                    ("absent", "absent from the table"),
                    ("withdraw", "withdrawn from the tournament"),
                    ("move", "moved to another table"),
                    ("reseat", "round seated again"),
                    ("end_game", "game stopped by the director"),
                    ("hand_result", "result entered by hand"),
                    ("director_add", "director added"),
                    ("director_del", "director removed"),
                    ("link_new", "participant's private link given anew"),
                    ("link_revoke", "participant's private link revoked"),
                ],
                max_length=12,
                verbose_name="action",
            ),
        ),
        migrations.AddConstraint(
            model_name="auditentry",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    (
                        "action__in",
                        [
                            "absent",
                            "withdraw",
                            "move",
                            "reseat",
                            "end_game",
                            "hand_result",
                            "director_add",
                            "director_del",
                            "link_new",
                            "link_revoke",
                        ],
                    )
                ),
                name="audit_action_valid",
            ),
        ),
    ]
