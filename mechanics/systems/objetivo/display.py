"""Dado objetivo rolls in words: the specialization and destiny points a roll used, a skill
roll with no skill, and a shot's difficulty."""

from __future__ import annotations

from django.utils.translation import gettext as _

from mechanics.systems.base import RollWords
from mechanics.systems.objetivo.combat import range_words
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

    def target_lines(self, record: dict) -> list[str]:
        """A shot's difficulty is named as the shot's, with its range: the seed's target of
        a ranged weapon "no puede esquivarlas ni tiene capacidad de defensa"
        (docs/rules.md#objetivo-shot-card)."""
        details = record.get("details", {})
        shot = details.get("shot")
        if record["kind"] != "attack" or shot is None or details.get("difficulty") is None:
            return super().target_lines(record)
        difficulty = details.get("defensa", details["difficulty"])
        line = _("Shot difficulty %(difficulty)s") % {"difficulty": difficulty}
        return [f"{line} ({range_words(shot)})" if shot else line]

    def applied_text(self, item: dict) -> str | None:
        if item.get("what") == "specialization":
            return _("Specialization used for this scene: %(skill)s") % {"skill": item["label"]}
        if item.get("what") == "destiny_penalty":
            return _("The destiny point handed back has been used.")
        return None
