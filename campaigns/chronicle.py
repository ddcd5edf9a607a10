"""The scene timeline ("Group review"): everything that happened in one scene, in order.

Each kind of event comes from a *source*: a function `(access, scene) -> items` that
runs a constant number of queries and applies the visibility rules of
`campaigns.permissions` itself. Diaries and rolls are built in. Other apps add theirs
(damage events, XP awards) from their AppConfig.ready() without this module knowing
their models:

    from campaigns.chronicle import TimelineItem, register_timeline_source

    @register_timeline_source
    def xp_awards(access, scene):
        return [TimelineItem(at=a.created_at, kind="xp", template="characters/_xp_item.html",
                             obj=a) for a in ...]

The item's template is included with `item` (the TimelineItem), `access` and `scene`.
Rolls use the roll log's own card (`mechanics/_roll.html`), so they read the same here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from campaigns.models import DiaryEntry, Scene
from campaigns.permissions import CampaignAccess, visible_diaries, visible_rolls
from mechanics.models import Roll


@dataclass(frozen=True)
class TimelineItem:
    at: datetime
    kind: str  # "diary", "roll", "damage", "xp", ...
    template: str
    obj: Any


TimelineSource = Callable[[CampaignAccess, Scene], Iterable[TimelineItem]]

_sources: list[TimelineSource] = []


def register_timeline_source(source: TimelineSource) -> TimelineSource:
    """Add a source of scene timeline items (usable as a decorator; idempotent)."""
    if source not in _sources:
        _sources.append(source)
    return source


def scene_timeline(access: CampaignAccess, scene: Scene) -> list[TimelineItem]:
    """Every item the viewer may see, oldest first."""
    items = [item for source in _sources for item in source(access, scene)]
    items.sort(key=lambda item: item.at)
    return items


@register_timeline_source
def diary_source(access: CampaignAccess, scene: Scene) -> list[TimelineItem]:
    entries = visible_diaries(
        access, DiaryEntry.objects.filter(scene=scene).select_related("character", "author")
    )
    return [
        TimelineItem(
            at=entry.published_at or entry.updated_at,
            kind="diary",
            template="campaigns/timeline/diary.html",
            obj=entry,
        )
        for entry in entries
    ]


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
