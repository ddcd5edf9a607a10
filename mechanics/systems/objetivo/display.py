"""Dado objetivo rolls in words: the specialization and destiny points a roll used."""

from __future__ import annotations

from django.utils.translation import gettext as _

from mechanics.systems.base import RollWords
from mechanics.systems.objetivo.rolls import SKILL_KINDS
from mechanics.templatetags.roll_panel import signed


class ObjetivoWords(RollWords):
    def modifier_lines(self, record: dict) -> list[str]:
        """A skill roll with no skill says so (else it reads as an attribute roll); then
        the bonus added to the kept die (the traits and every modifier)."""
        details = record.get("details", {})
        traits = details.get("traits")
        lines = []
        if record["kind"] in SKILL_KINDS and traits and "skill" not in traits:
            lines.append(_("No skill"))
        bonus = details.get("bonus")
        return [*lines, signed(bonus)] if bonus is not None else lines

    def applied_text(self, item: dict) -> str | None:
        if item.get("what") == "specialization":
            return _("Specialization used for this scene: %(skill)s") % {"skill": item["label"]}
        if item.get("what") == "destiny_penalty":
            return _("The destiny point handed back has been used.")
        return None
