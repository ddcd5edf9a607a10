"""The change sequence but rolls (Campaign.nonroll_seq); the version triggers count it after
`migrate` (campaigns.versions). Adding the column rebuilds campaigns_campaign on SQLite,
which drops the deletion guard's triggers: they are made again here."""

from django.db import migrations, models

from campaigns.history import DELETING_GUARD_SQL


def remake_deleting_guard(apps, schema_editor):
    create, drop = DELETING_GUARD_SQL.get(schema_editor.connection.vendor, ([], []))
    for statement in (*drop, *create):
        schema_editor.execute(statement, None)


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0019_campaign_public_seq"),
    ]

    operations = [
        migrations.AddField(
            model_name="campaign",
            name="nonroll_seq",
            field=models.PositiveBigIntegerField(default=1, editable=False),
        ),
        migrations.RunPython(remake_deleting_guard, migrations.RunPython.noop),
    ]
