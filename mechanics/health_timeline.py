"""Health events in a scene's timeline ("Group review"), registered from
MechanicsConfig.ready().

Damage, treatments and undos show one by one. Time passing for the whole scene (one
`scene_advance_time`) shows once, with every character it healed. Health is sheet
information: each member sees the events of the characters whose full sheet they may
see (`campaigns.permissions.visible_health_events`): GMs all, owners theirs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from campaigns.chronicle import TimelineItem, register_timeline_source
from campaigns.permissions import visible_health_events
from mechanics.models import HealthEvent
from mechanics.systems.base import hours_in_words

# What an item shows of an event.
SHOWN = (
    "kind", "created_at", "summary", "reason", "inputs",
    "character__name", "created_by__username",
)  # fmt: skip
# Events of one scene-wide time advance are written in one transaction, moments apart.
SAME_ADVANCE = timedelta(seconds=30)


@dataclass
class TimePassed:
    """One time advance in a scene: its hours, reason, who, and the events it made."""

    at: datetime
    hours: int
    reason: str
    by: object
    events: list[HealthEvent] = field(default_factory=list)

    @property
    def pk(self) -> int:
        return self.events[0].pk

    @property
    def duration(self) -> str:
        return hours_in_words(self.hours) if isinstance(self.hours, int) else ""


def _same_advance(group: TimePassed | None, event: HealthEvent) -> bool:
    return (
        group is not None
        and group.hours == event.inputs.get("hours")
        and group.reason == event.reason_text
        and group.by == event.created_by_id
        and event.created_at - group.events[-1].created_at <= SAME_ADVANCE
        and all(e.character_id != event.character_id for e in group.events)
    )


@register_timeline_source()
def health_source(access, scene) -> list[TimelineItem]:
    """Each event, or each time advance, as an item cached under its events' ids: they are
    append-only (`campaigns.history`), and the names they show follow the campaign's
    version, which is in every item's key."""
    events = (
        visible_health_events(
            access,
            HealthEvent.objects.filter(scene=scene, character__campaign_id=scene.campaign_id),
        )
        .select_related("character", "created_by")
        .only(*SHOWN)
        .order_by("created_at", "pk")
    )
    shown: list[HealthEvent | TimePassed] = []
    group: TimePassed | None = None
    for event in events:
        if event.kind != HealthEvent.Kind.TIME:
            shown.append(event)
            continue
        if not _same_advance(group, event):
            group = TimePassed(
                at=event.created_at,
                hours=event.inputs.get("hours"),
                reason=event.reason_text,
                by=event.created_by_id,
            )
            shown.append(group)
        group.events.append(event)
    return [
        TimelineItem(
            at=item.at,
            kind="time",
            template="mechanics/_time_item.html",
            obj=item,
            key=tuple(event.pk for event in item.events),
        )
        if isinstance(item, TimePassed)
        else TimelineItem(
            at=item.created_at,
            kind="health",
            template="mechanics/_health_item.html",
            obj=item,
            key=(item.pk,),
        )
        for item in shown
    ]
