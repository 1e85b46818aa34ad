"""A table result's ranking becomes a row per player (``TableScore``) instead of a JSON list, so that the
standings and the reports read them with foreign keys, in one query.

Every stored result's list is copied into rows, in its order (``position``). Back: the rows are written into
the list again (``fill_the_lists``), so that going back to 0015 loses nothing. The list's column goes in 0017,
once the rows hold every result (a separate migration: PostgreSQL alters no table with rows just written in
the same transaction).
"""

import django.core.validators
import django.db.models.deletion
from django.db import migrations, models


def copy_the_lists(apps, schema_editor):
    TableResult = apps.get_model("tournament", "TableResult")
    TableScore = apps.get_model("tournament", "TableScore")
    Participant = apps.get_model("tournament", "Participant")
    known = set(Participant.objects.values_list("pk", flat=True))
    rows = []
    for result in TableResult.objects.order_by("pk").iterator():
        for position, row in enumerate(result.ranking or []):
            participant = row.get("participant")
            rows.append(
                TableScore(
                    result_id=result.pk,
                    position=position,
                    # a participant deleted since (the list kept his id): the row keeps his name only
                    participant_id=participant if participant in known else None,
                    name=row.get("name", ""),
                    role=row.get("role", ""),
                    rank=row["rank"],
                    score=row["score"],
                    points=row["points"],
                )
            )
    TableScore.objects.bulk_create(rows, batch_size=1000)


def fill_the_lists(apps, schema_editor):
    TableResult = apps.get_model("tournament", "TableResult")
    for result in TableResult.objects.prefetch_related("scores").iterator(chunk_size=500):
        ranking = []
        for s in sorted(result.scores.all(), key=lambda s: s.position):
            row = {
                "participant": s.participant_id,
                "name": s.name,
                "rank": s.rank,
                "score": s.score,
                "points": s.points,
            }
            if s.role:
                row["role"] = s.role
            ranking.append(row)
        result.ranking = ranking
        result.save(update_fields=["ranking"])


class Migration(migrations.Migration):
    dependencies = [("tournament", "0015_games_keep_their_anti_monopoly_rules")]

    operations = [
        migrations.CreateModel(
            name="TableScore",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "position",
                    models.PositiveSmallIntegerField(
                        validators=[django.core.validators.MaxValueValidator(32767)],
                        verbose_name="order in the result",
                    ),
                ),
                ("name", models.CharField(blank=True, max_length=120, verbose_name="name")),
                ("role", models.CharField(blank=True, max_length=12, verbose_name="role")),
                (
                    "rank",
                    models.PositiveSmallIntegerField(
                        validators=[django.core.validators.MaxValueValidator(32767)], verbose_name="place"
                    ),
                ),
                (
                    "score",
                    models.IntegerField(
                        validators=[
                            django.core.validators.MinValueValidator(-2147483647),
                            django.core.validators.MaxValueValidator(2147483647),
                        ],
                        verbose_name="score",
                    ),
                ),
                (
                    "points",
                    models.IntegerField(
                        validators=[django.core.validators.MaxValueValidator(1000)], verbose_name="points"
                    ),
                ),
                (
                    "participant",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="table_scores",
                        to="tournament.participant",
                        verbose_name="participant",
                    ),
                ),
                (
                    "result",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="scores",
                        to="tournament.tableresult",
                        verbose_name="table result",
                    ),
                ),
            ],
            options={
                "verbose_name": "player's score at a table",
                "verbose_name_plural": "players' scores at tables",
                "ordering": ["result", "position"],
                "constraints": [
                    models.UniqueConstraint(fields=("result", "position"), name="unique_score_position"),
                    models.CheckConstraint(condition=models.Q(("rank__gte", 1)), name="score_rank_from_1"),
                ],
            },
        ),
        # going back, the list's column comes back empty before ``fill_the_lists`` fills it
        migrations.AlterField(
            model_name="tableresult",
            name="ranking",
            field=models.JSONField(default=list, verbose_name="ranking"),
        ),
        migrations.RunPython(copy_the_lists, fill_the_lists),
    ]
