"""Narrative facts in a scene's timeline ("Group review"). A fact is declared aloud at
the table, so every member who sees the scene sees it. Only Hitos scenes have them, so
other systems' scene pages spend no query on them."""

from __future__ import annotations

from django.db.models import QuerySet

from campaigns.chronicle import TimelineItem, register_timeline_source
from campaigns.fragments import linked_rows
from mechanics.models import NarrativeFact

KEY = "hitos"


def fact_rows(scene: int, campaign: int) -> list[QuerySet]:
    facts = NarrativeFact.objects.filter(scene_id=scene)
    return [facts, *linked_rows(facts, "character", "drama_point_to")]


@register_timeline_source(rows=fact_rows)
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
