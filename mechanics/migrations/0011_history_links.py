"""Rolls and health events under the keyed history scheme (issue 25): the hash also covers
the roll's character, scene and roller and the event's scene, roll and author, through
`links`, the ids as written; every existing chain is hashed again with the HMAC key, and
the triggers (recreated) refuse any change to `links` too.

Going back restores the old triggers but leaves the hashes as they are now: the chains
then verify only with this scheme's code."""

from django.db import migrations, models

from campaigns.history import rehash, trigger_sql

TABLES = {
    "mechanics_roll": (
        "Roll",
        (
            "id", "campaign_id", "group", "system", "kind", "label", "record", "result",
            "outcome", "secret", "created_at", "chain_seq", "content_hash", "chain_hash",
        ),
        ("character_id", "scene_id", "user_id"),
        (
            "group", "system", "kind", "label", "record", "result", "outcome", "secret",
            "created_at",
        ),
        ("character", "scene", "user"),
    ),
    "characters_healthevent": (
        "HealthEvent",
        (
            "id", "character_id", "campaign_id", "kind", "inputs", "summary", "reason",
            "health_before", "health_after", "undoes_id", "created_at", "chain_seq",
            "content_hash", "chain_hash",
        ),
        ("scene_id", "roll_id", "created_by_id"),
        (
            "character", "kind", "inputs", "summary", "reason", "health_before",
            "health_after", "undoes", "created_at",
        ),
        ("scene", "roll", "created_by"),
    ),
}  # fmt: skip


def _execute(schema_editor, statements) -> None:
    for statement in statements:
        schema_editor.execute(statement, None)


def forward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for table, (model, old_fixed, links, fields, history_links) in TABLES.items():
        _execute(schema_editor, trigger_sql(vendor, table, old_fixed, links)[1])
        rehash(apps.get_model("mechanics", model), fields, history_links)
        _execute(schema_editor, trigger_sql(vendor, table, (*old_fixed, "links"), links)[0])


def backward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for table, (_model, old_fixed, links, _fields, _history_links) in TABLES.items():
        _execute(schema_editor, trigger_sql(vendor, table, (*old_fixed, "links"), links)[1])
        _execute(schema_editor, trigger_sql(vendor, table, old_fixed, links)[0])


class Migration(migrations.Migration):
    dependencies = [
        ("mechanics", "0010_combat_attack_texts"),
    ]

    operations = [
        migrations.AddField(
            model_name="healthevent",
            name="links",
            field=models.JSONField(editable=False, null=True),
        ),
        migrations.AddField(
            model_name="roll",
            name="links",
            field=models.JSONField(editable=False, null=True),
        ),
        migrations.RunPython(forward, backward),
    ]
