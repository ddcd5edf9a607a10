import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0013_campaign_deleting"),
        ("characters", "0008_render_stored_diaries"),
    ]

    operations = [
        migrations.AddField(
            model_name="xpentry",
            name="chain_seq",
            field=models.PositiveIntegerField(editable=False, null=True),
        ),
        migrations.AddField(
            model_name="xpentry",
            name="content_hash",
            field=models.CharField(default="", editable=False, max_length=64),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="xpentry",
            name="chain_hash",
            field=models.CharField(default="", editable=False, max_length=64),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="xpentry",
            name="character",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.RESTRICT,
                related_name="xp_entries",
                to="characters.character",
                verbose_name="character",
            ),
        ),
        migrations.AlterField(
            model_name="xpentry",
            name="created_at",
            field=models.DateTimeField(
                default=django.utils.timezone.now, editable=False, verbose_name="when"
            ),
        ),
    ]
