"""Rolls and health events: every one in its campaign's chain, and triggers that refuse
an UPDATE (but a link set to NULL) and a DELETE outside a campaign's deletion, on SQLite
and PostgreSQL."""

import django.db.models.deletion
from django.db import migrations, models

from campaigns.history import trigger_sql

TABLES = {
    "mechanics_roll": (
        (
            "id", "campaign_id", "group", "system", "kind", "label", "record", "result",
            "outcome", "secret", "created_at", "chain_seq", "content_hash", "chain_hash",
        ),
        ("character_id", "scene_id", "user_id"),
    ),
    "characters_healthevent": (
        (
            "id", "character_id", "campaign_id", "kind", "inputs", "summary", "reason",
            "health_before", "health_after", "undoes_id", "created_at", "chain_seq",
            "content_hash", "chain_hash",
        ),
        ("scene_id", "roll_id", "created_by_id"),
    ),
}  # fmt: skip


def create_triggers(apps, schema_editor):
    for table, (fixed, links) in TABLES.items():
        for statement in trigger_sql(schema_editor.connection.vendor, table, fixed, links)[0]:
            schema_editor.execute(statement, None)


def drop_triggers(apps, schema_editor):
    for table, (fixed, links) in TABLES.items():
        for statement in trigger_sql(schema_editor.connection.vendor, table, fixed, links)[1]:
            schema_editor.execute(statement, None)


class Migration(migrations.Migration):
    dependencies = [
        ("mechanics", "0005_history_backfill"),
    ]

    operations = [
        migrations.AlterField(
            model_name="roll",
            name="chain_seq",
            field=models.PositiveIntegerField(editable=False),
        ),
        migrations.AlterField(
            model_name="healthevent",
            name="chain_seq",
            field=models.PositiveIntegerField(editable=False),
        ),
        migrations.AlterField(
            model_name="healthevent",
            name="campaign",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="campaigns.campaign",
                verbose_name="campaign",
            ),
        ),
        migrations.AddConstraint(
            model_name="roll",
            constraint=models.UniqueConstraint(
                fields=("campaign", "chain_seq"), name="roll_chain_position"
            ),
        ),
        migrations.AddConstraint(
            model_name="healthevent",
            constraint=models.UniqueConstraint(
                fields=("campaign", "chain_seq"), name="health_event_chain_position"
            ),
        ),
        migrations.RunPython(create_triggers, drop_triggers),
    ]
