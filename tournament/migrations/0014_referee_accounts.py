"""Referee accounts managed in the app: the ``referees`` group on every install (before, only the demo made
it, and a fresh install had no account a table could be given), and the referees' one-time login links."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

REFEREES_GROUP = (
    "referees"  # tournament.permissions.REFEREES_GROUP, as it was when this migration was written
)


def referees_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.get_or_create(name=REFEREES_GROUP)


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0013_verbose_names"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="LoginLink",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("digest", models.CharField(max_length=64, unique=True, verbose_name="digest of the secret")),
                (
                    "created_at",
                    models.DateTimeField(
                        default=django.utils.timezone.now, editable=False, verbose_name="given"
                    ),
                ),
                ("expires_at", models.DateTimeField(verbose_name="valid until")),
                ("used_at", models.DateTimeField(blank=True, null=True, verbose_name="used")),
                (
                    "created_by",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="given by",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="login_links",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="account",
                    ),
                ),
            ],
            options={
                "verbose_name": "one-time login link",
                "verbose_name_plural": "one-time login links",
                "ordering": ["-created_at", "-pk"],
            },
        ),
        migrations.RunPython(referees_group, migrations.RunPython.noop),
    ]
