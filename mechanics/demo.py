"""Demo sheets for `seed_demo`, each system's own (`GameSystem.demo_characters`), made
through the services like any sheet. Safe to run again: a sheet that already exists (same
campaign, owner and name) is left alone."""

from __future__ import annotations

from characters import services
from characters.models import Character


def seed_characters(campaign, users: dict) -> list[Character]:
    """The campaign's demo sheets, created the first time only; returns the new ones."""
    created = []
    for sheet in campaign.game_system.demo_characters:
        owner = users[sheet["owner"]]
        if Character.objects.filter(campaign=campaign, owner=owner, name=sheet["name"]).exists():
            continue
        character = services.character_create(
            campaign=campaign,
            user=owner,
            owner=owner,
            name=sheet["name"],
            concept=sheet["concept"],
            description=sheet["description"],
            ratings=sheet["ratings"],
            details=sheet.get("details", {}),
            specialties=sheet.get("specialties", ()),
            merits=sheet.get("merits", ()),
            aspects=sheet.get("aspects", ()),
        )
        if sheet.get("notes"):
            services.character_update(character=character, user=owner, notes=sheet["notes"])
        for kind, name, weight, data in sheet.get("items", ()):
            services.item_add(
                character=character, user=owner, kind=kind, name=name, weight_kg=weight, data=data
            )
        if sheet.get("destiny_points"):
            services.resource_adjust(
                character=character,
                user=owner,
                key="destiny_points",
                delta=sheet["destiny_points"],
                # The demo's starting points, given as the GM would.
                may_raise_open=True,
            )
        created.append(character)
    return created
