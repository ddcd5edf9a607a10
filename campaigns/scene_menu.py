"""The scene menu of a log's filters (roll log, XP log): the campaign's latest scenes,
plus the one the filter names if it is older, so the menu (and the page) does not grow
with the chronicle. Older scenes are still a filter away by URL (?scene=<id>).

Scenes are the campaign's own rows: the menu is cached under the campaign's version
(`campaigns.versions`), which a new, renamed or deleted scene bumps."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q, QuerySet

from campaigns.fragments import cached_value, fragment_key
from campaigns.models import Scene

# Enough for the last months of weekly sessions.
MENU_SIZE = 30


@dataclass(frozen=True)
class SceneMenu:
    scenes: list[tuple[int, str]]  # (pk, title), newest first
    cut: bool  # the campaign has scenes the menu leaves out
    size: int = MENU_SIZE


def menu_rows(campaign, selected: str | None) -> QuerySet:
    """(pk, title) of the latest MENU_SIZE scenes (one more, to know whether there are
    older ones) and of the selected scene of this campaign, whatever its age."""
    newest = Scene.objects.filter(campaign_id=campaign.pk).order_by("-created_at", "-pk")
    wanted = Q(pk__in=newest.values("pk")[: MENU_SIZE + 1])
    if chosen := _selected(selected):
        wanted |= Q(pk__in=chosen)
    return newest.filter(wanted).values_list("pk", "title")


def _selected(selected: str | None) -> tuple[int, ...]:
    if selected and selected.isascii() and selected.isdigit() and len(selected) <= 18:
        return (int(selected),)
    return ()


def scene_menu(campaign, selected: str | None) -> SceneMenu:
    """The menu, in one query unless cached."""
    key = fragment_key("scene-menu", campaign.pk, campaign.version, _selected(selected))
    rows = cached_value(key, lambda: list(menu_rows(campaign, selected)))
    shown = [row for n, row in enumerate(rows) if n < MENU_SIZE or str(row[0]) == selected]
    # More rows than the menu's size: the 31st newest scene exists, so some are left out.
    return SceneMenu(scenes=[tuple(row) for row in shown], cut=len(rows) > MENU_SIZE)
