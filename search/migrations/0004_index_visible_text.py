"""Index the Markdown texts already stored as their readers see them (search.index reads
the sanitised HTML now, no longer the Markdown source): one rebuild, as 0002 made."""

from django.db import migrations


def index_visible_text(apps, schema_editor):
    from search.index import rebuild

    rebuild(get_model=apps.get_model)


class Migration(migrations.Migration):
    dependencies = [
        ("search", "0003_gin_without_pending_list"),
        ("campaigns", "0023_campaign_public_roll_seq"),
        ("characters", "0017_character_grid_version"),
        ("mechanics", "0012_merge_movement_history_links"),
    ]

    operations = [
        migrations.RunPython(index_visible_text, migrations.RunPython.noop, elidable=True),
    ]
