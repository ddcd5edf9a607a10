"""Fill the stored HTML of the Markdown texts written before it was stored."""

from django.db import migrations

from campaigns.rendered import fill_rendered

MODELS = ("Campaign", "Story", "Scene", "SceneNote")


def render_existing(apps, schema_editor):
    for name in MODELS:
        fill_rendered(apps.get_model("campaigns", name))


class Migration(migrations.Migration):

    dependencies = [
        ("campaigns", "0011_stored_markdown_html_and_limits"),
    ]

    operations = [
        migrations.RunPython(render_existing, migrations.RunPython.noop, elidable=True),
    ]
