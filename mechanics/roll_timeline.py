"""Rolls join the scene timeline (campaigns.chronicle), drawn with the roll log's card."""

from __future__ import annotations

from dataclasses import replace

from django.db.models import OuterRef
from django.utils.html import format_html

from campaigns.chronicle import TimelineItem, register_scene_count, register_timeline_pager
from campaigns.keyset import KeysetPage, keyset_page
from campaigns.models import Scene
from campaigns.permissions import CampaignAccess, visible_rolls
from mechanics.cards import attach_cards, keyed
from mechanics.models import Roll


@register_timeline_pager()
def roll_pages(
    access: CampaignAccess, scene: Scene, *, size: int, after=None, before=None
) -> KeysetPage:
    """A page of the scene's rolls, oldest first, on the (scene, created_at) index: the
    rolls set the pace of the scene's timeline pages."""
    rolls = visible_rolls(access, Roll.objects.filter(scene=scene, campaign_id=scene.campaign_id))
    page = keyset_page(keyed(rolls), size=size, after=after, before=before, newest_first=False)
    attach_cards(page.items, compact=True)
    items = [
        TimelineItem(
            at=roll.created_at,
            kind="roll",
            html=format_html('<div id="scene-roll-{}">{}</div>', roll.pk, roll.card),
        )
        for roll in page.items
    ]
    return replace(page, items=items)


@register_scene_count("roll_count")
def roll_count(access: CampaignAccess):
    return visible_rolls(access, Roll.objects.filter(scene=OuterRef("pk")))
