"""Fill the stored HTML of the diary entries written before it was stored."""

from django.db import migrations

from campaigns.rendered import fill_rendered


def render_existing(apps, schema_editor):
    fill_rendered(apps.get_model("characters", "DiaryEntry"))


class Migration(migrations.Migration):

    dependencies = [
        ("characters", "0007_diary_html_hiding_and_limits"),
    ]

    operations = [
        migrations.RunPython(render_existing, migrations.RunPython.noop, elidable=True),
    ]
