from django.db import migrations, models


def digests(apps, schema_editor):
    from tournament.models.boards import data_digest

    BoardEdition = apps.get_model("tournament", "BoardEdition")
    for edition in BoardEdition.objects.all():
        edition.digest = data_digest(edition.data)
        edition.save(update_fields=["digest"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0008_director_changes"),
    ]

    operations = [
        migrations.AddField(
            model_name="boardedition",
            name="digest",
            field=models.CharField(default="", editable=False, max_length=64, verbose_name="digest"),
        ),
        migrations.RunPython(digests, migrations.RunPython.noop),
    ]
