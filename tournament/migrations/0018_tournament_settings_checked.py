"""A tournament's own settings checked by the model (full_clean: the director's form, the admin): a table
of 3 to 6, placement points, the tie-break order. Validators only: nothing changes in the database."""

import django.core.validators
from django.db import migrations, models

import tournament.models.tournaments


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0017_results_without_the_list"),
    ]

    operations = [
        migrations.AlterField(
            model_name="tournament",
            name="placement_points",
            field=models.JSONField(
                default=tournament.models.tournaments._points,
                error_messages={"blank": "Whole numbers separated by commas, e.g. 4, 2, 1, 0."},
                validators=[tournament.models.tournaments.validate_placement_points],
                verbose_name="placement points",
            ),
        ),
        migrations.AlterField(
            model_name="tournament",
            name="table_size",
            field=models.PositiveSmallIntegerField(
                default=4,
                validators=[
                    django.core.validators.MaxValueValidator(32767),
                    tournament.models.tournaments.validate_table_size,
                ],
                verbose_name="players per table",
            ),
        ),
        migrations.AlterField(
            model_name="tournament",
            name="tie_breaks",
            field=models.JSONField(
                default=tournament.models.tournaments._tie_breaks,
                validators=[tournament.models.tournaments.validate_tie_breaks],
                verbose_name="tie-break order",
            ),
        ),
    ]
