from django.db import migrations
from django.db.models import OuterRef, Subquery

from campaigns.history import backfill

ROLL_FIELDS = (
    "group", "system", "kind", "label", "record", "result", "outcome", "secret", "created_at"
)  # fmt: skip
HEALTH_EVENT_FIELDS = (
    "character", "kind", "inputs", "summary", "reason", "health_before", "health_after",
    "undoes", "created_at",
)  # fmt: skip


def chain(apps, schema_editor):
    HealthEvent = apps.get_model("mechanics", "HealthEvent")
    Character = apps.get_model("characters", "Character")
    HealthEvent._base_manager.update(
        campaign=Subquery(Character.objects.filter(pk=OuterRef("character")).values("campaign"))
    )
    backfill(apps.get_model("mechanics", "Roll"), ROLL_FIELDS)
    backfill(HealthEvent, HEALTH_EVENT_FIELDS)


class Migration(migrations.Migration):
    dependencies = [
        ("mechanics", "0004_history_fields"),
    ]

    operations = [
        migrations.RunPython(chain, migrations.RunPython.noop),
    ]
