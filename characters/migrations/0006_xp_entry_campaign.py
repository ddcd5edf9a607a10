"""XpEntry.campaign: the character's campaign, copied in, so the campaign's XP log reads
one index (campaign, newest first). Existing entries take their character's."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def fill_campaign(apps, schema_editor):
    XpEntry = apps.get_model("characters", "XpEntry")
    Character = apps.get_model("characters", "Character")
    campaign = Character.objects.filter(pk=OuterRef("character_id")).values("campaign_id")
    XpEntry.objects.update(campaign_id=Subquery(campaign[:1]))


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0008_move_out_combat_and_diaries"),
        ("characters", "0005_move_in_diaries_move_out_health"),
    ]

    operations = [
        migrations.AddField(
            model_name="xpentry",
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
        migrations.RunPython(fill_campaign, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="xpentry",
            name="campaign",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="campaigns.campaign",
                verbose_name="campaign",
            ),
        ),
        migrations.AddIndex(
            model_name="xpentry",
            index=models.Index(
                fields=["campaign", "-created_at", "-id"], name="xp_entry_campaign_newest"
            ),
        ),
    ]
