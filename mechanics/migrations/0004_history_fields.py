import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


def chain_fields(model_name):
    return [
        migrations.AddField(
            model_name=model_name,
            name="chain_seq",
            field=models.PositiveIntegerField(editable=False, null=True),
        ),
        migrations.AddField(
            model_name=model_name,
            name="content_hash",
            field=models.CharField(default="", editable=False, max_length=64),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name=model_name,
            name="chain_hash",
            field=models.CharField(default="", editable=False, max_length=64),
            preserve_default=False,
        ),
    ]


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0013_campaign_deleting"),
        ("characters", "0006_xp_entry_campaign"),
        ("mechanics", "0003_roll_indexes_for_pages"),
    ]

    operations = [
        *chain_fields("roll"),
        *chain_fields("healthevent"),
        migrations.AddField(
            model_name="healthevent",
            name="campaign",
            field=models.ForeignKey(
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="campaigns.campaign",
                verbose_name="campaign",
            ),
        ),
        migrations.AlterField(
            model_name="healthevent",
            name="character",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.RESTRICT,
                related_name="health_events",
                to="characters.character",
                verbose_name="character",
            ),
        ),
        migrations.AlterField(
            model_name="healthevent",
            name="undoes",
            field=models.OneToOneField(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.RESTRICT,
                related_name="undone_by",
                to="mechanics.healthevent",
                verbose_name="undoes",
            ),
        ),
        migrations.AlterField(
            model_name="healthevent",
            name="created_at",
            field=models.DateTimeField(
                default=django.utils.timezone.now, editable=False, verbose_name="when"
            ),
        ),
        migrations.AlterField(
            model_name="roll",
            name="created_at",
            field=models.DateTimeField(
                db_index=True, default=django.utils.timezone.now, editable=False, verbose_name="when"
            ),
        ),
    ]
