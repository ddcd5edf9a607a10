"""3d6 + NdP rolls in words: the total to exceed, the wound a hit makes, and the progress
point (PdP) the d6 may earn."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from mechanics.rules.ndp.catalogue import adversity_level
from mechanics.systems.base import RollWords
from mechanics.templatetags.roll_panel import signed


class NdpWords(RollWords):
    no_target = gettext_lazy("No adversity set")

    def modifier_lines(self, record: dict) -> list[str]:
        """The d6 thrown and the NdP added, then the Gracias, Desgracias and bonus."""
        spec = record.get("spec") or {}
        if "dice" not in spec:
            return []
        parts = [f"{spec['dice']}d6 + NdP {spec.get('level', 0)}"]
        if spec.get("gracias"):
            parts.append(
                ngettext("%(count)s Gracia", "%(count)s Gracias", spec["gracias"])
                % {"count": spec["gracias"]}
            )
        if spec.get("desgracias"):
            parts.append(
                ngettext("%(count)s Desgracia", "%(count)s Desgracias", spec["desgracias"])
                % {"count": spec["desgracias"]}
            )
        if spec.get("bonus"):
            parts.append(signed(spec["bonus"]))
        return parts

    def target_lines(self, record: dict) -> list[str]:
        details = record.get("details", {})
        threshold = details.get("threshold")
        if threshold is None or record["kind"] == "opposed":
            return []
        line = _("Needed %(threshold)s or more") % {"threshold": threshold}
        if details.get("adversity_name"):
            # The band from the catalogue, not the stored name: rolls stored when an
            # adversity under 4 was called Fácil say so no longer
            # (docs/rules.md#ndp-low-adversity). A fixed adversity is the threshold - 1.
            level = adversity_level(threshold - 1)
            if level is not None:
                line += f" ({level.name})"
        return [line]

    def damage_tier(self, record: dict) -> str:
        tier = super().damage_tier(record)
        if not tier and record["kind"] == "attack":
            return " " + _("(no wound)")
        return tier

    def closing_lines(self, record: dict) -> list[str]:
        if "progress" in record.get("flags", []):
            return [_("The d6 reached the progression difficulty: +1 PdP.")]
        return []

    def applied_text(self, item: dict) -> str | None:
        if item.get("what") == "pdp":
            return _("%(skill)s: PdP %(old)s → %(new)s") % {
                "skill": item["label"],
                "old": item["old"],
                "new": item["new"],
            }
        if item.get("what") == "ndp":
            return _("%(skill)s rises to NdP %(new)s!") % {
                "skill": item["label"],
                "new": item["new"],
            }
        return None
