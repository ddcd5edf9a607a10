"""Dado objetivo rolls in words: the specialization and destiny points a roll used."""

from __future__ import annotations

from django.utils.translation import gettext as _

from mechanics.systems.base import RollWords
from mechanics.templatetags.roll_panel import signed


class ObjetivoWords(RollWords):
    def modifier_lines(self, record: dict) -> list[str]:
        """The bonus added to the kept die (the traits and every modifier)."""
        bonus = record.get("details", {}).get("bonus")
        return [signed(bonus)] if bonus is not None else []

    def applied_text(self, item: dict) -> str | None:
        if item.get("what") == "specialization":
            return _("Specialization used for this scene: %(skill)s") % {"skill": item["label"]}
        if item.get("what") == "destiny_penalty":
            return _("The destiny point handed back has been used.")
        return None
