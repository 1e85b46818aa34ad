"""The JSON list of a table result's ranking goes: its rows are in ``TableScore`` (migration 0016)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournament", "0016_table_scores")]

    operations = [migrations.RemoveField(model_name="tableresult", name="ranking")]
