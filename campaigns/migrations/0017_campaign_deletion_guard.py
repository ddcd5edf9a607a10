"""Only deleting a campaign marks it `deleting` (issue 25): the CampaignDeletion row the
deletion writes in its transaction, and the triggers that refuse the mark without one
(campaigns.history.DELETING_GUARD_SQL).

A later migration that rebuilds campaigns_campaign on SQLite drops these triggers: create
them again in it (tests/test_history_keyed.py fails otherwise)."""

import django.db.models.deletion
from django.db import migrations, models

from campaigns.history import DELETING_GUARD_SQL


def create_triggers(apps, schema_editor):
    for statement in DELETING_GUARD_SQL.get(schema_editor.connection.vendor, ([], []))[0]:
        schema_editor.execute(statement, None)


def drop_triggers(apps, schema_editor):
    for statement in DELETING_GUARD_SQL.get(schema_editor.connection.vendor, ([], []))[1]:
        schema_editor.execute(statement, None)


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0016_upload_allowance"),
    ]

    operations = [
        migrations.CreateModel(
            name="CampaignDeletion",
            fields=[
                (
                    "campaign",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="+",
                        serialize=False,
                        to="campaigns.campaign",
                    ),
                ),
                (
                    "unfinished",
                    models.ForeignKey(
                        default=0,
                        editable=False,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="campaigns.campaigndeletion",
                    ),
                ),
            ],
        ),
        migrations.RunPython(create_triggers, drop_triggers),
    ]
