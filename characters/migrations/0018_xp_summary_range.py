from django.db import migrations, models

from characters import xp_summary


def summarise_the_ledgers(apps, schema_editor):
    """The trigger first, then the entries already there: in this migration's
    transaction, so an entry written meanwhile is neither missed nor counted twice. Every
    row is summed again: the new columns, and the span of one second, the chart's finest."""
    xp_summary.install(schema_editor.connection)
    xp_summary.fill(schema_editor.connection)


def drop_the_trigger(apps, schema_editor):
    xp_summary.uninstall(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [
        ("characters", "0017_character_grid_version"),
    ]

    operations = [
        # SQLite rebuilds the summary's table to add a column, which the trigger on the
        # entries names: it goes first, and comes back with the new columns.
        migrations.RunPython(drop_the_trigger, migrations.RunPython.noop),
        migrations.AddField(
            model_name="xpsummary",
            name="entries",
            field=models.PositiveIntegerField(default=0),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="xpsummary",
            name="low",
            field=models.IntegerField(default=0),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="xpsummary",
            name="peak",
            field=models.IntegerField(default=0),
            preserve_default=False,
        ),
        # Backwards, the trigger goes before the columns it writes; the release migrated
        # back to makes its own after `migrate`.
        migrations.RunPython(summarise_the_ledgers, drop_the_trigger),
    ]
