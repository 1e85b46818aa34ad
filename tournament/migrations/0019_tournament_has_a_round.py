"""A tournament has at least one round (the model's validator: the director's form and the admin refuse 0).
A validator only: nothing changes in the database."""

import django.core.validators
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0018_tournament_settings_checked"),
    ]

    operations = [
        migrations.AlterField(
            model_name="tournament",
            name="rounds",
            field=models.PositiveSmallIntegerField(
                default=5,
                validators=[
                    django.core.validators.MinValueValidator(1),
                    django.core.validators.MaxValueValidator(32767),
                ],
                verbose_name="tournament rounds",
            ),
        ),
    ]
