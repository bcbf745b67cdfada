"""Deliberations get a random public id for URLs and sockets; existing rows get one each."""

from django.db import migrations, models

import deliberation.models


def backfill(apps, schema_editor):  # type: ignore[no-untyped-def]
    Deliberation = apps.get_model("deliberation", "Deliberation")
    rows = list(Deliberation.objects.filter(public_id__isnull=True).only("pk"))
    for row in rows:
        row.public_id = deliberation.models.new_public_id()
    Deliberation.objects.bulk_update(rows, ["public_id"], batch_size=500)


class Migration(migrations.Migration):
    # The backfill updates rows of the table the last step alters: on PostgreSQL that cannot share
    # one transaction ("pending trigger events"), so each step commits on its own.
    atomic = False

    dependencies = [
        ("deliberation", "0005_deliberation_round_heartbeat_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="deliberation",
            name="public_id",
            field=models.CharField(max_length=32, null=True, editable=False),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="deliberation",
            name="public_id",
            field=models.CharField(
                default=deliberation.models.new_public_id, editable=False, max_length=32, unique=True
            ),
        ),
    ]
