from django.db import migrations

from campaigns.history import backfill

FIELDS = ("character", "kind", "amount", "balance_after", "reason", "breakdown", "created_at")


def chain(apps, schema_editor):
    backfill(apps.get_model("characters", "XpEntry"), FIELDS)


class Migration(migrations.Migration):
    dependencies = [
        ("characters", "0009_xp_entry_history_fields"),
    ]

    operations = [
        migrations.RunPython(chain, migrations.RunPython.noop),
    ]
