"""XP entries: every one in its campaign's chain, and triggers that refuse an UPDATE (but a
link set to NULL) and a DELETE outside a campaign's deletion, on SQLite and PostgreSQL."""

from django.db import migrations, models

from campaigns.history import trigger_sql

TABLE = "characters_xpentry"
FIXED = (
    "id", "character_id", "campaign_id", "kind", "amount", "balance_after", "reason",
    "breakdown", "created_at", "chain_seq", "content_hash", "chain_hash",
)  # fmt: skip
LINKS = ("scene_id", "created_by_id")


def create_triggers(apps, schema_editor):
    for statement in trigger_sql(schema_editor.connection.vendor, TABLE, FIXED, LINKS)[0]:
        schema_editor.execute(statement, None)


def drop_triggers(apps, schema_editor):
    for statement in trigger_sql(schema_editor.connection.vendor, TABLE, FIXED, LINKS)[1]:
        schema_editor.execute(statement, None)


class Migration(migrations.Migration):
    dependencies = [
        ("characters", "0010_xp_entry_history_backfill"),
    ]

    operations = [
        migrations.AlterField(
            model_name="xpentry",
            name="chain_seq",
            field=models.PositiveIntegerField(editable=False),
        ),
        migrations.AddConstraint(
            model_name="xpentry",
            constraint=models.UniqueConstraint(
                fields=("campaign", "chain_seq"), name="xp_entry_chain_position"
            ),
        ),
        migrations.RunPython(create_triggers, drop_triggers),
    ]
