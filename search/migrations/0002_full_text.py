"""The full-text structures and triggers of each engine (search.sql), then the index of
what the database already holds."""

from django.db import migrations

from search.sql import statements


def install(apps, schema_editor):
    connection = schema_editor.connection
    with connection.cursor() as cursor:
        for statement in statements(connection.vendor):
            cursor.execute(statement)


def uninstall(apps, schema_editor):
    connection = schema_editor.connection
    with connection.cursor() as cursor:
        for statement in statements(connection.vendor, reverse=True):
            cursor.execute(statement)


def index_existing(apps, schema_editor):
    from search.index import rebuild

    rebuild(get_model=apps.get_model)


class Migration(migrations.Migration):
    dependencies = [
        ("search", "0001_initial"),
        ("mechanics", "0010_combat_attack_texts"),
        ("characters", "0012_character_portrait"),
    ]

    operations = [
        migrations.RunPython(install, uninstall),
        migrations.RunPython(index_existing, migrations.RunPython.noop),
    ]
