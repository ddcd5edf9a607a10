"""XP ledger rows, cached: the XP log and a character's ledger read theirs in one go.

An XP entry never changes once stored (`campaigns.append_only`): its row is cached under
its id, whether it names its character, the names it reads and the language
(`fragment_key`). A page loads only what the keys read (`keyed`); the few entries whose
row is not cached are read whole, in one query, and rendered.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import QuerySet
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from campaigns.fragments import cached_pieces, fragment_key
from campaigns.models import Campaign
from characters import advancement
from characters.models import XpEntry

ROW = "characters/partials/xp_entry.html"
TIMEOUT = 86400
RELATIONS = ("scene", "created_by")
# What a row's key reads, and where a list places the entry (created_at).
KEY_FIELDS = (
    "id",
    "created_at",
    "campaign_id",
    "character_id",
    "scene_id",
    "created_by_id",
    "scene__title",
    "created_by__username",
)


def keyed(entries: QuerySet[XpEntry]) -> QuerySet[XpEntry]:
    """Load only what the entries' row keys read (`attach_rows` reads the others whole)."""
    return entries.select_related(*RELATIONS).only(*KEY_FIELDS)


def _key(entry: XpEntry, show_character: bool) -> str:
    # The names the row shows: the character's, set by the view from its own list.
    names = (
        entry.character.name if show_character else None,
        entry.scene.title if entry.scene_id else None,
        entry.created_by.username if entry.created_by_id else None,
    )
    return fragment_key("xp-entry", entry.pk, show_character, names)


def attach_rows(entries: Sequence[XpEntry], *, campaign: Campaign, show_character: bool) -> None:
    """Set each entry's `row` (entries of `campaign`): its HTML, from the cache or rendered
    (and stored) now."""

    def render(missing: list[XpEntry]) -> dict[XpEntry, str]:
        shown = {entry.pk: entry for entry in missing}
        rendered = {}
        whole = XpEntry.objects.filter(pk__in=list(shown)).select_related(*RELATIONS).order_by()
        for full in whole:
            full.character = shown[full.pk].character
            rendered[shown[full.pk]] = render_to_string(
                ROW,
                {
                    "entry": full,
                    "lines": advancement.rubric_lines(campaign, full.breakdown.get("rubric")),
                    "show_character": show_character,
                },
            )
        return rendered

    keys = {entry: _key(entry, show_character) for entry in entries}
    rows = cached_pieces(keys, render, timeout=TIMEOUT)
    for entry in entries:
        entry.row = mark_safe(rows[entry])  # rendered by our template, which escaped it
