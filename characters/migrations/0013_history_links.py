"""XP entries under the keyed history scheme (issue 25): the hash also covers the scene
and the author, through `links`, the ids as written; every existing chain is hashed again
with the HMAC key, and the triggers (recreated) refuse any change to `links` too.

Going back restores the old triggers but leaves the hashes as they are now: the chains
then verify only with this scheme's code."""

from django.db import migrations, models

from campaigns.history import rehash, trigger_sql

TABLE = "characters_xpentry"
OLD_FIXED = (
    "id", "character_id", "campaign_id", "kind", "amount", "balance_after", "reason",
    "breakdown", "created_at", "chain_seq", "content_hash", "chain_hash",
)  # fmt: skip
FIXED = (*OLD_FIXED, "links")
LINKS = ("scene_id", "created_by_id")
HISTORY_FIELDS = (
    "character", "kind", "amount", "balance_after", "reason", "breakdown", "created_at"
)  # fmt: skip
HISTORY_LINKS = ("scene", "created_by")


def _execute(schema_editor, statements) -> None:
    for statement in statements:
        schema_editor.execute(statement, None)


def forward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    _execute(schema_editor, trigger_sql(vendor, TABLE, OLD_FIXED, LINKS)[1])
    rehash(apps.get_model("characters", "XpEntry"), HISTORY_FIELDS, HISTORY_LINKS)
    _execute(schema_editor, trigger_sql(vendor, TABLE, FIXED, LINKS)[0])


def backward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    _execute(schema_editor, trigger_sql(vendor, TABLE, FIXED, LINKS)[1])
    _execute(schema_editor, trigger_sql(vendor, TABLE, OLD_FIXED, LINKS)[0])


class Migration(migrations.Migration):
    dependencies = [
        ("characters", "0012_character_portrait"),
    ]

    operations = [
        migrations.AddField(
            model_name="xpentry",
            name="links",
            field=models.JSONField(editable=False, null=True),
        ),
        migrations.RunPython(forward, backward),
    ]
