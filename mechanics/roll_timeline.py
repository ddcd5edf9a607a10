"""Rolls join the scene timeline (campaigns.chronicle), drawn with the roll log's card."""

from __future__ import annotations

from django.db.models import OuterRef
from django.utils.html import format_html

from campaigns.chronicle import (
    TimelineItem,
    TimelinePager,
    register_scene_count,
    register_timeline_pager,
)
from campaigns.models import Scene
from campaigns.permissions import CampaignAccess, visible_rolls
from mechanics.cards import cards_of
from mechanics.models import Roll

# A row: the pk and created_at the pages read, then the names the card's key reads.
ROW = ("pk", "created_at", "user__username", "character__name", "scene__title")


def roll_rows(access: CampaignAccess, scene: Scene, kind: str | None):
    """The scene's rolls the reader may see, on the (scene, created_at) index."""
    rolls = visible_rolls(access, Roll.objects.filter(scene=scene, campaign_id=scene.campaign_id))
    return rolls.values_list(*ROW)


def roll_items(access: CampaignAccess, scene: Scene, rows: list[tuple]) -> list[TimelineItem]:
    cards = cards_of([(pk, *names) for pk, _at, *names in rows], compact=True)
    return [
        TimelineItem(
            at=at, kind="roll", html=format_html('<div id="scene-roll-{}">{}</div>', pk, card)
        )
        for (pk, at, *_names), card in zip(rows, cards, strict=True)
    ]


# The card's names follow the campaign's version; the rows, the counter of new rolls.
register_timeline_pager(
    TimelinePager(
        rank=0,
        kinds=frozenset({"roll"}),
        rows=roll_rows,
        items=roll_items,
        versions=lambda campaign: (campaign.version, campaign.roll_seq),
    )
)


@register_scene_count("roll_count")
def roll_count(access: CampaignAccess):
    return visible_rolls(access, Roll.objects.filter(scene=OuterRef("pk")))
