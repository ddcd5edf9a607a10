"""Indexes for the pages that grow with a campaign: the roll log and feed (campaign,
newest first, with the id for keyset pages), the scene page (scene, oldest first) and the
extended actions in progress (a partial index: only extended rolls with a group)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0008_move_out_combat_and_diaries"),
        ("characters", "0005_move_in_diaries_move_out_health"),
        ("mechanics", "0002_move_in_combat_and_health"),
    ]

    operations = [
        migrations.RemoveIndex(model_name="roll", name="mechanics_r_campaig_b0a399_idx"),
        migrations.AddIndex(
            model_name="roll",
            index=models.Index(
                fields=["campaign", "-created_at", "-id"], name="roll_campaign_newest"
            ),
        ),
        migrations.AddIndex(
            model_name="roll",
            index=models.Index(fields=["scene", "created_at", "id"], name="roll_scene_oldest"),
        ),
        migrations.AddIndex(
            model_name="roll",
            index=models.Index(
                condition=models.Q(("group__isnull", False), ("kind", "extended")),
                fields=["character", "-created_at", "-id"],
                name="roll_extended_actions",
            ),
        ),
    ]
