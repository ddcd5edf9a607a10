"""Narrative facts in a scene's timeline ("Group review"). A fact is declared aloud at
the table, so every member who sees the scene sees it. Only Hitos scenes have them, so
other systems' scene pages spend no query on them."""

from __future__ import annotations

from campaigns.chronicle import TimelineItem, register_timeline_source
from mechanics.models import NarrativeFact

KEY = "hitos"


@register_timeline_source()
def narrative_facts(access, scene) -> list[TimelineItem]:
    if access.campaign.system != KEY:
        return []
    facts = NarrativeFact.objects.filter(scene=scene).select_related("character", "drama_point_to")
    return [
        TimelineItem(
            at=fact.created_at, kind="fact", template="systems/hitos/fact_item.html", obj=fact
        )
        for fact in facts
    ]
