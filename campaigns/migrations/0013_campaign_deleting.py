"""The mark a campaign carries while it is deleted, and PostgreSQL's trigger function that
keeps rolls, XP entries and health events append-only (the triggers come with each
table's own migration)."""

from django.db import migrations, models

from campaigns.history import POSTGRES_FUNCTION, POSTGRES_FUNCTION_DROP


def create_function(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(POSTGRES_FUNCTION, None)


def drop_function(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(POSTGRES_FUNCTION_DROP, None)


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0012_render_stored_markdown"),
    ]

    operations = [
        migrations.AddField(
            model_name="campaign",
            name="deleting",
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.RunPython(create_function, drop_function),
    ]
