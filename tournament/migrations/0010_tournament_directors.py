"""A tournament belongs to its directors: the ``directors`` many-to-many (co-directors), each existing
tournament directed by its creator; the director's log keeps a co-director added or removed."""

from django.conf import settings
from django.db import migrations, models


def creators_direct(apps, schema_editor):
    Tournament = apps.get_model("tournament", "Tournament")
    Directors = Tournament.directors.through
    Directors.objects.bulk_create(
        [
            Directors(tournament_id=pk, user_id=user)
            for pk, user in Tournament.objects.exclude(created_by=None).values_list("pk", "created_by")
        ],
        ignore_conflicts=True,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0009_board_edition_digest"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="auditentry",
            name="audit_action_valid",
        ),
        migrations.AddField(
            model_name="tournament",
            name="directors",
            field=models.ManyToManyField(
                blank=True,
                related_name="directed_tournaments",
                to=settings.AUTH_USER_MODEL,
                verbose_name="directors",
            ),
        ),
        migrations.RunPython(creators_direct, migrations.RunPython.noop),
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
                        ],
                    )
                ),
                name="audit_action_valid",
            ),
        ),
    ]
