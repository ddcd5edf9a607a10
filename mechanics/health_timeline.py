"""Health events in a scene's timeline ("Group review"), registered from
MechanicsConfig.ready().

Damage, treatments and undos show one by one. Time passing for the whole scene (one
`scene_advance_time`) shows once, with every character it healed. Health is sheet
information: each member sees the events of the characters whose full sheet they may
see (`campaigns.permissions.visible_health_events`): GMs all, owners theirs.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import NamedTuple

from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from campaigns.chronicle import (
    ITEM_TIMEOUT,
    TimelineItem,
    TimelinePager,
    register_timeline_pager,
)
from campaigns.fragments import cached_pieces, fragment_key
from campaigns.permissions import visible_health_events
from mechanics.models import HealthEvent
from mechanics.systems.base import hours_in_words

# What the pages, the grouping and the keys read of an event, as a row: a long scene
# holds hundreds of them, a page 25, most of them cached.
ROW = ("pk", "created_at", "kind", "character_id", "created_by_id", "inputs", "reason")
# What an item shows of an event, read for the items not cached.
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


def health_rows(access, scene, kind: str | None):
    """The scene's events the reader may see (`kind` "time": time advances alone;
    "health": the others), on the (scene, created_at) index."""
    events = visible_health_events(
        access, HealthEvent.objects.filter(scene=scene, character__campaign_id=scene.campaign_id)
    )
    if kind == "time":
        events = events.filter(kind=HealthEvent.Kind.TIME)
    elif kind == "health":
        events = events.exclude(kind=HealthEvent.Kind.TIME)
    return events.values_list(*ROW)


def health_items(access, scene, rows: list[tuple]) -> list[TimelineItem]:
    """Each event, or each time advance, of a page's rows as an item with its HTML, cached
    under its events' ids: they are append-only (`campaigns.history`), the names they
    show follow the campaign's version, and an item shows the same to every reader who
    may see it (the query chooses those). Only the events of the items not cached are read
    whole. An advance cut by the end of a page shows on both, with the characters of each."""
    shown: list[_Event | TimePassed] = []
    group: TimePassed | None = None
    for pk, at, kind, *fields in rows:
        if kind != HealthEvent.Kind.TIME:
            shown.append(_Event(pk, at))
            continue
        # A time advance's events are grouped by what they hold: a few, read as rows.
        event = HealthEvent(
            id=pk, kind=kind, created_at=at, **dict(zip(ROW[3:], fields, strict=True))
        )
        if not _same_advance(group, event):
            group = TimePassed(
                at=event.created_at,
                hours=event.inputs.get("hours"),
                reason=event.reason_text,
                by=event.created_by_id,
            )
            shown.append(group)
        group.events.append(event)
    # One digest for what every item's key shares (the names' version, the language), and
    # the ids, which are plain digits, after it.
    campaign = access.campaign
    shared = fragment_key("health-item", campaign.pk, campaign.version)
    keys = {
        index: f"{shared}:{'-'.join(str(event.pk) for event in _events(item))}"
        for index, item in enumerate(shown)
    }
    pieces = cached_pieces(keys, lambda missing: _render(shown, missing), timeout=ITEM_TIMEOUT)
    return [
        TimelineItem(
            at=item.at,
            kind="time" if isinstance(item, TimePassed) else "health",
            html=mark_safe(pieces[index]),  # our templates escaped it
        )
        for index, item in enumerate(shown)
    ]


# Every write but a roll moves the campaign's sequence but rolls (a new event, a change of
# who may see a sheet); the names the items show follow its version, in their keys.
register_timeline_pager(
    TimelinePager(
        rank=1,
        kinds=frozenset({"health", "time"}),
        rows=health_rows,
        items=health_items,
        versions=lambda campaign: (campaign.nonroll_seq,),
    )
)


class _Event(NamedTuple):
    """An event shown alone, as its key and the timeline read it."""

    pk: int
    at: datetime


def _events(item: _Event | TimePassed) -> list:
    return item.events if isinstance(item, TimePassed) else [item]


def _render(shown: list[_Event | TimePassed], missing: list[int]) -> dict[int, str]:
    """The HTML of the items at `missing`, their events read whole in one query."""
    ids = [event.pk for index in missing for event in _events(shown[index])]
    whole = HealthEvent.objects.filter(pk__in=ids).select_related("character", "created_by")
    read = {event.pk: event for event in whole.only(*SHOWN).order_by()}
    rendered = {}
    for index in missing:
        item = shown[index]
        if isinstance(item, TimePassed):
            passed = replace(item, events=[read[event.pk] for event in item.events])
            shown_item = TimelineItem(at=item.at, kind="time", obj=passed)
            template = "mechanics/_time_item.html"
        else:
            shown_item = TimelineItem(at=item.at, kind="health", obj=read[item.pk])
            template = "mechanics/_health_item.html"
        rendered[index] = render_to_string(template, {"item": shown_item})
    return rendered
