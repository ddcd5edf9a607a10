"""New rolls players may see, counted apart (Campaign.public_roll_seq); the version
triggers count it after `migrate` (campaigns.versions). Adding the column rebuilds
campaigns_campaign on SQLite, which drops the deletion guard's triggers: they are made
again here."""

from django.db import migrations, models

from campaigns.history import remake_deleting_guard


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0022_campaign_roll_seq"),
    ]

    operations = [
        migrations.AddField(
            model_name="campaign",
            name="public_roll_seq",
            field=models.PositiveBigIntegerField(default=1, editable=False),
        ),
        migrations.RunPython(remake_deleting_guard, migrations.RunPython.noop),
    ]
