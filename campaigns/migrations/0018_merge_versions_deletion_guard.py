"""Joins the versions' columns (0016_versions) and the deletion guard (0017). Adding the
columns rebuilds campaigns_campaign on SQLite, which drops the guard's triggers when 0017
ran first: they are made again here, whatever the order (campaigns.history)."""

from django.db import migrations

from campaigns.history import DELETING_GUARD_SQL


def remake_triggers(apps, schema_editor):
    create, drop = DELETING_GUARD_SQL.get(schema_editor.connection.vendor, ([], []))
    for statement in [*drop, *create]:
        schema_editor.execute(statement, None)


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0016_versions"),
        ("campaigns", "0017_campaign_deletion_guard"),
    ]

    operations = [migrations.RunPython(remake_triggers, migrations.RunPython.noop)]
