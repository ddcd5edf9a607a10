"""3d6 + NdP rolls in words: the total to exceed, the wound a hit makes, and the progress
point (PdP) the d6 may earn."""

from __future__ import annotations

from django.utils.translation import gettext as _

from mechanics.systems.base import RollWords


class NdpWords(RollWords):
    def dice_lines(self, record: dict) -> list[str]:
        threshold = record.get("details", {}).get("threshold")
        if threshold is None or record["kind"] == "opposed":
            return []
        return [_("Needed %(threshold)s or more") % {"threshold": threshold}]

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
