"""Rolls join the scene timeline (campaigns.chronicle), drawn with the roll log's card."""

from __future__ import annotations

from django.db.models import OuterRef

from campaigns.chronicle import TimelineItem, register_scene_count, register_timeline_source
from campaigns.models import Scene
from campaigns.permissions import CampaignAccess, visible_rolls
from mechanics.models import Roll


@register_timeline_source
def roll_source(access: CampaignAccess, scene: Scene) -> list[TimelineItem]:
    rolls = visible_rolls(
        access,
        Roll.objects.filter(scene=scene, campaign_id=scene.campaign_id).select_related(
            "character", "user"
        ),
    )
    items = []
    for roll in rolls:
        roll.scene = scene  # already loaded: the roll card reads its title
        items.append(
            TimelineItem(
                at=roll.created_at, kind="roll", template="campaigns/timeline/roll.html", obj=roll
            )
        )
    return items


@register_scene_count("roll_count")
def roll_count(access: CampaignAccess):
    return visible_rolls(access, Roll.objects.filter(scene=OuterRef("pk")))
