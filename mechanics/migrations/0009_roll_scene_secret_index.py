"""The scene list counts each shown scene's rolls a player may see (secret ones left
out): an index on (scene, secret, id) answers that from the index alone."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("mechanics", "0008_saved_rolls"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="roll",
            index=models.Index(fields=["scene", "secret", "id"], name="roll_scene_secret"),
        ),
    ]
