"""XP awards in a scene's timeline ("Group review"), registered from CharactersConfig.ready().

Awards and their corrections show to the members who may see the character's full sheet
(`permissions.visible_sheet_rows`), as on the XP pages; spends never carry a scene, so a
purchase never shows up here.
"""

from __future__ import annotations

from campaigns.chronicle import TimelineItem, register_timeline_source
from campaigns.permissions import visible_sheet_rows
from characters import advancement
from characters.models import XpEntry

# What an item shows of an entry.
SHOWN = ("kind", "amount", "breakdown", "created_at", "character__name", "created_by__username")


@register_timeline_source()
def xp_award_source(access, scene) -> list[TimelineItem]:
    entries = (
        visible_sheet_rows(
            access, XpEntry.objects.filter(scene=scene, character__campaign_id=scene.campaign_id)
        )
        .exclude(kind=XpEntry.Kind.SPEND)
        .select_related("character", "created_by")
        .only(*SHOWN)
        .order_by("created_at", "pk")
    )
    items = []
    for entry in entries:
        stored = entry.breakdown.get("rubric")
        entry.rubric_lines = advancement.rubric_lines(access.campaign, stored)
        items.append(
            TimelineItem(
                at=entry.created_at,
                kind="xp",
                template="characters/_xp_item.html",
                obj=entry,
                # An entry never changes (append-only); the names it shows and the
                # rubric's captions follow the campaign's version, in every item's key.
                key=(entry.pk,),
            )
        )
    return items
