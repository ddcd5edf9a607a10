"""A sheet's trait names as links that roll them (the roll panel with that trait chosen),
for those who may roll for the sheet."""

from __future__ import annotations

from collections.abc import Mapping

from django.urls import reverse

from campaigns.permissions import CharacterAccess
from characters.sheet_panels import register_sheet_panel


@register_sheet_panel
def roll_links(access: CharacterAccess, ratings: Mapping[str, int], context: dict) -> dict:
    """`trait_roll_base`: the roll panel's address, or "" when a click on a trait rolls
    nothing (the user may not roll, or the system has no roll panel). The trait rows add
    the trait, for the traits their system rolls (`GameSystem.trait_roll`)."""
    character = access.character
    if not access.can_roll or character.campaign.game_system.roll_setup is None:
        return {"trait_roll_base": ""}
    url = reverse("mechanics:roll", args=[character.campaign_id, character.pk])
    return {"trait_roll_base": url}
