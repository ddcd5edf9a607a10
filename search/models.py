"""One row per searchable text of a campaign, whatever it belongs to.

PostgreSQL keeps `document` (a tsvector of the title and body in the `cronica_es`
configuration: unaccent, then Spanish stems) through a trigger, under a GIN index; SQLite
keeps an FTS5 table (`search_fts`, accents removed) in step through triggers. Rolls and
XP entries come in through triggers too (search.sql), bulk inserts included; the rest
through search.index. Who may read a row is decided at query time by
campaigns.permissions.visible_search_entries, never stored here, so hiding a diary or
sharing the sheets takes effect at once.
"""

from __future__ import annotations

from django.contrib.postgres.search import SearchVectorField
from django.db import models
from django.utils.translation import gettext_lazy as _


class SearchEntry(models.Model):
    class Kind(models.TextChoices):
        # In the order the results page shows them.
        SCENE = "scene", _("Scenes")
        STORY = "story", _("Stories")
        DIARY = "diary", _("Diaries")
        NOTE = "note", _("GM notes")
        CHARACTER = "character", _("Characters")
        SHEET = "sheet", _("Sheet notes and aspects")
        ROLL = "roll", _("Rolls")
        XP = "xp", _("Experience")

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    object_id = models.BigIntegerField()
    story = models.ForeignKey(
        "campaigns.Story", on_delete=models.SET_NULL, null=True, related_name="+"
    )
    scene = models.ForeignKey(
        "campaigns.Scene", on_delete=models.SET_NULL, null=True, related_name="+"
    )
    character = models.ForeignKey(
        "characters.Character", on_delete=models.SET_NULL, null=True, related_name="+"
    )
    # A secret roll: GMs only (GM notes are GMs' only by their kind).
    secret = models.BooleanField(default=False)
    title = models.CharField(max_length=300, blank=True)
    body = models.TextField(blank=True)
    # When the text was written: the place of a diary or a roll in its scene's timeline.
    at = models.DateTimeField(null=True)
    document = SearchVectorField(null=True, editable=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kind", "object_id"], name="search_entry_unique")
        ]
        indexes = [models.Index(fields=["campaign", "kind"], name="search_entry_campaign_kind")]

    def __str__(self) -> str:
        return f"{self.kind} {self.object_id}"
