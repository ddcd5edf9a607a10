"""A 3d6 + NdP character's XP page also lists the rolls that gained PdP."""

from __future__ import annotations

from campaigns.permissions import visible_rolls
from mechanics.models import Roll
from mechanics.systems.base import XpSection

PDP_ROLLS_SHOWN = 50


class PdpRolls(XpSection):
    template = "systems/ndp/xp_pdp_rolls.html"

    def context(self, access, character) -> dict:
        """The rolls that gained PdP (the engine's effects), newest first."""
        rolls = visible_rolls(
            access, Roll.objects.filter(character=character).select_related("scene")
        ).exclude(record__effects__pdp_gained={})
        campaign = character.campaign
        names = {spec.key: spec.name for spec in campaign.game_system.trait_specs(campaign)}
        shown = list(rolls.order_by("-created_at", "-pk")[:PDP_ROLLS_SHOWN])
        for roll in shown:
            gained = roll.record.get("effects", {}).get("pdp_gained") or {}
            roll.pdp = [(names.get(key, key), amount) for key, amount in gained.items()]
        return {"pdp_rolls": shown}


SECTIONS = (PdpRolls(),)
