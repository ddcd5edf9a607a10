"""PostgreSQL's `history_tip()`: lock a campaign and read a history chain's tip in one
round trip (campaigns.history.TIP_FUNCTION)."""

from django.db import migrations

from campaigns.history import TIP_FUNCTION, TIP_FUNCTION_DROP


def create_function(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(TIP_FUNCTION, None)


def drop_function(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(TIP_FUNCTION_DROP, None)


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0013_campaign_deleting"),
    ]

    operations = [
        migrations.RunPython(create_function, drop_function),
    ]
