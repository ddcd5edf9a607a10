"""Importing a sheet, and a campaign's own trait lists (Dado objetivo)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.signals import sheet_texts_written
from characters.models import (
    Aspect,
    CampaignTrait,
    Character,
    Item,
    Merit,
    Resource,
    Trait,
)
from characters.services.sheet import (
    _record,
    character_create,
)
from characters.transfer import validate_import
from mechanics.rules.catalogue import slug
from mechanics.systems.registry import get_system


@transaction.atomic
def character_import(
    *,
    campaign,
    user,
    owner,
    data: Any,
    approve_over_budget: bool = False,
    owner_limit: int | None = None,
) -> Character:
    """A sheet from an exported file, checked whole against this campaign's system
    first (characters/transfer.py): a file that fails anywhere writes nothing.

    A sheet that breaks the system's creation rules imports only when
    `approve_over_budget` (a GM importing), and is then marked approved over budget.
    """
    sheet = validate_import(data, campaign=campaign)
    system = get_system(campaign.system)
    problems = system.creation_problems(
        system.initial_ratings(campaign, sheet.ratings),
        sheet.details,
        sheet.specialties,
        [(key, name, rating) for key, name, rating, _notes in sheet.merits],
    )
    if problems and not approve_over_budget:
        raise ValidationError(
            [_("This sheet breaks the creation rules, so only a GM may import it."), *problems],
            code="over_budget",
        )
    character = character_create(
        campaign=campaign,
        user=user,
        owner=owner,
        name=sheet.name,
        concept=sheet.concept,
        description=sheet.description,
        is_npc=owner is None,
        ratings=sheet.ratings,
        details=sheet.details,
        specialties=sheet.specialties,
        approved_over_budget=bool(problems),
        owner_limit=owner_limit,
    )
    # What character_create does not take: notes, health, progress, pools, merit
    # notes, aspect state and equipment.
    Character.objects.filter(pk=character.pk).update(notes=sheet.notes, health=sheet.health)
    character.notes, character.health = sheet.notes, sheet.health
    for key, progress in sheet.progress.items():
        Trait.objects.filter(character=character, key=key).update(progress=progress)
    for key, current in sheet.resources.items():
        Resource.objects.filter(character=character, key=key).update(current=current)
    Merit.objects.bulk_create(
        Merit(character=character, key=key, name=name, rating=rating, notes=notes)
        for key, name, rating, notes in sheet.merits
    )
    Aspect.objects.bulk_create(
        Aspect(
            character=character,
            kind=kind,
            text=text,
            exhausted=exhausted,
            duration=duration,
            position=index,
        )
        for index, (kind, text, exhausted, duration) in enumerate(sheet.aspects)
    )
    Item.objects.bulk_create(
        Item(character=character, kind=kind, name=name, weight_kg=weight, data=data, position=index)
        for index, (kind, name, weight, data) in enumerate(sheet.items)
    )
    sheet_texts_written.send(sender=Character, character=character)
    _record(character, user, "imported", "", sheet.name)
    return character


# Campaign trait lists (Dado objetivo): the GM edits the campaign's attributes and
# skills. Until the first edit the campaign uses the system's starter list; the first
# edit copies it into CampaignTrait rows, then applies the change.


def _lock_trait_lists(campaign) -> list[CampaignTrait]:
    """Lock the campaign row (edits queue) and return its lists, copying the starter
    list the first time."""
    type(campaign).objects.select_for_update().only("pk").get(pk=campaign.pk)
    system = get_system(campaign.system)
    if not system.editable_trait_lists:
        raise ValidationError(
            _("This campaign's system has fixed trait lists."), code="fixed_lists"
        )
    rows = list(CampaignTrait.objects.filter(campaign=campaign).order_by("kind", "position"))
    if rows:
        return rows
    positions: dict[str, int] = {}
    for spec in system.trait_specs(campaign):
        positions[spec.kind] = positions.get(spec.kind, -1) + 1
        rows.append(
            CampaignTrait(
                campaign=campaign,
                kind=spec.kind,
                key=spec.key,
                name=spec.name,
                description=spec.description[:300],
                position=positions[spec.kind],
            )
        )
    return CampaignTrait.objects.bulk_create(rows)


def _clean_trait_name(rows: list[CampaignTrait], name: str, *, exclude=None) -> str:
    name = " ".join(name.split())
    if not name or not slug(name):
        raise ValidationError(_("A trait needs a name with letters or digits."), code="no_name")
    if len(name) > 80:
        raise ValidationError(_("A trait name has at most 80 characters."), code="too_long")
    for row in rows:
        if row is not exclude and row.name.casefold() == name.casefold():
            raise ValidationError(
                _("There is already a trait called %(name)s.") % {"name": row.name},
                code="duplicate",
            )
    return name


def _trait_row(rows: list[CampaignTrait], key: str) -> CampaignTrait:
    row = next((row for row in rows if row.key == key), None)
    if row is None:
        raise ValidationError(_("This campaign has no such trait."), code="unknown_trait")
    return row


@transaction.atomic
def campaign_trait_add(
    *, campaign, user, kind: str, name: str, description: str = ""
) -> CampaignTrait:
    """A new attribute or skill; every character of the campaign gets it at its minimum."""
    rows = _lock_trait_lists(campaign)
    if kind not in {row.kind for row in rows}:
        raise ValidationError(_("Choose attribute or skill."), code="unknown_kind")
    name = _clean_trait_name(rows, name)
    key = slug(name)[:60]
    if any(row.key == key for row in rows):
        raise ValidationError(
            _("There is already a trait called %(name)s.") % {"name": name}, code="duplicate"
        )
    row = CampaignTrait.objects.create(
        campaign=campaign,
        kind=kind,
        key=key,
        name=name,
        description=description.strip()[:300],
        position=1 + max((r.position for r in rows if r.kind == kind), default=-1),
    )
    spec = get_system(campaign.system).trait_spec(campaign, key)
    Trait.objects.bulk_create(
        (
            Trait(character=character, key=key, kind=kind, rating=spec.minimum)
            for character in campaign.characters.all()
        ),
        ignore_conflicts=True,
    )
    return row


@transaction.atomic
def campaign_trait_update(
    *, campaign, user, key: str, name: str, description: str = ""
) -> CampaignTrait:
    """Rename a trait or change its description; its key (what sheets rate) stays."""
    rows = _lock_trait_lists(campaign)
    row = _trait_row(rows, key)
    row.name = _clean_trait_name(rows, name, exclude=row)
    row.description = description.strip()[:300]
    row.save(update_fields=["name", "description"])
    return row


@transaction.atomic
def campaign_trait_remove(*, campaign, user, key: str) -> None:
    """Remove a trait nobody in the campaign has above its minimum (a rated trait would
    silently take points off a sheet); sheets at the minimum lose the row."""
    rows = _lock_trait_lists(campaign)
    row = _trait_row(rows, key)
    if sum(1 for r in rows if r.kind == row.kind) == 1:
        raise ValidationError(
            _("The list needs at least one trait; add another before removing %(name)s.")
            % {"name": row.name},
            code="last_trait",
        )
    spec = get_system(campaign.system).trait_spec(campaign, key)
    rated = Trait.objects.filter(
        character__campaign=campaign, key=key, rating__gt=spec.minimum
    ).select_related("character")
    names = sorted({trait.character.name for trait in rated})
    if names:
        raise ValidationError(
            _(
                "%(characters)s rate %(name)s above its minimum; lower it on their sheets "
                "before removing it."
            )
            % {"characters": ", ".join(names), "name": row.name},
            code="trait_in_use",
        )
    for trait in Trait.objects.filter(character__campaign=campaign, key=key).select_related(
        "character"
    ):
        _record(trait.character, user, f"trait:{key}", trait.rating, "")
        trait.delete()
    row.delete()
    siblings = [r for r in rows if r.kind == row.kind and r.pk != row.pk]
    for position, sibling in enumerate(siblings):
        sibling.position = position
    CampaignTrait.objects.bulk_update(siblings, ["position"])


@transaction.atomic
def campaign_trait_move(*, campaign, user, key: str, offset: int) -> None:
    """Move a trait up (offset -1) or down (+1) within its list."""
    rows = _lock_trait_lists(campaign)
    row = _trait_row(rows, key)
    siblings = [r for r in rows if r.kind == row.kind]
    index = siblings.index(row)
    target = max(0, min(len(siblings) - 1, index + offset))
    siblings.insert(target, siblings.pop(index))
    for position, sibling in enumerate(siblings):
        sibling.position = position
    CampaignTrait.objects.bulk_update(siblings, ["position"])
