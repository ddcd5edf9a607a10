"""Writes to character sheets: one transaction each, locking the character row, and
every change recorded in the sheet history (who, when, field, old → new).

Callers (views, forms, imports) validate input for the user's benefit; these
functions re-check ranges against the system adapter so no path can store a
rating the rules don't allow.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from characters.advancement import PurchaseSpec, Quote
from characters.advancement import quote as quote_purchase
from characters.models import (
    Aspect,
    CampaignTrait,
    Character,
    HealthEvent,
    Item,
    Merit,
    Resource,
    SheetChange,
    Specialty,
    Trait,
    WillpowerGrant,
    XpEntry,
    XpPurchase,
)
from characters.systems import DamageInput, get_system
from characters.systems.hitos import DRAMA_POINTS
from characters.transfer import validate_import
from mechanics.rules.catalogue import slug
from mechanics.rules.dice import RollRecord
from mechanics.rules.errors import RuleError
from mechanics.rules.tinieblas.advancement import SceneAward, award_total
from mechanics.services import RollSide, roll_perform, roll_store

STORY_FIELDS = ("name", "concept", "description", "notes")


def _lock(character: Character) -> Character:
    return Character.objects.select_for_update().select_related("campaign").get(pk=character.pk)


def _record(character: Character, user, field: str, old: Any, new: Any) -> None:
    if old != new:
        SheetChange.objects.create(
            character=character,
            user=user,
            field=field,
            old_value="" if old is None else str(old),
            new_value="" if new is None else str(new),
        )


def record_change(character: Character, user, field: str, old: Any, new: Any) -> None:
    """Record a change made outside these services (the admin) in the same history."""
    _record(character, user, field, old, new)


def _check_rating(system, campaign, key: str, rating: int):
    spec = system.trait_spec(campaign, key)
    if spec is None:
        raise ValidationError(_("Unknown trait: %(key)s.") % {"key": key}, code="unknown_trait")
    if not spec.minimum <= rating <= spec.maximum:
        raise ValidationError(
            _("%(name)s must be between %(low)s and %(high)s.")
            % {"name": spec.name, "low": spec.minimum, "high": spec.maximum},
            code="out_of_range",
        )
    return spec


def ratings_of(character: Character) -> dict[str, int]:
    return {trait.key: trait.rating for trait in character.traits.all()}


@transaction.atomic
def character_create(
    *,
    campaign,
    user,
    owner,
    name: str,
    concept: str = "",
    description: str = "",
    is_npc: bool = False,
    ratings: Mapping[str, int] | None = None,
    details: Mapping | None = None,
    specialties: Iterable[tuple[str, str]] = (),
    merits: Iterable[tuple[str, str, int]] = (),
    aspects: Iterable[tuple[str, str]] = (),
    approved_over_budget: bool = False,
    owner_limit: int | None = None,
) -> Character:
    """A new sheet with every trait of its system (unset ones at their minimum),
    its resource pools full and an unhurt health state.

    `owner_limit` (a player creating their own sheet) refuses a sheet that would give
    the owner more characters here than that; the campaign row is locked first so two
    submissions at once cannot both pass the count."""
    if owner_limit is not None and owner is not None:
        type(campaign).objects.select_for_update().only("pk").get(pk=campaign.pk)
        if Character.objects.filter(campaign=campaign, owner=owner).count() >= owner_limit:
            raise ValidationError(
                _("You already have the most characters this campaign allows per player."),
                code="character_limit",
            )
    system = get_system(campaign.system)
    for key, rating in (ratings or {}).items():
        _check_rating(system, campaign, key, rating)
    values = system.initial_ratings(campaign, ratings)
    details = dict(details or {})
    rules = campaign.rules
    character = Character.objects.create(
        campaign=campaign,
        owner=owner,
        is_npc=is_npc,
        name=name,
        concept=concept,
        description=description,
        details=details,
        health=system.new_health(values, details, rules),
        approved_over_budget=approved_over_budget,
        approved_by=user if approved_over_budget else None,
    )
    specs = {spec.key: spec for spec in system.trait_specs(campaign)}
    Trait.objects.bulk_create(
        Trait(character=character, key=key, kind=specs[key].kind, rating=rating)
        for key, rating in values.items()
    )
    Resource.objects.bulk_create(
        Resource(character=character, key=spec.key, current=spec.initial, maximum=spec.maximum)
        for spec in system.resource_specs(values, details, rules)
    )
    Specialty.objects.bulk_create(
        Specialty(character=character, skill_key=skill, name=text) for skill, text in specialties
    )
    Merit.objects.bulk_create(
        Merit(character=character, key=key, name=merit_name, rating=rating)
        for key, merit_name, rating in merits
    )
    Aspect.objects.bulk_create(
        Aspect(character=character, kind=kind, text=text, position=index)
        for index, (kind, text) in enumerate(aspects)
    )
    _record(character, user, "created", "", name)
    return character


@transaction.atomic
def character_update(*, character: Character, user, **fields: str) -> Character:
    """Change story fields (name, concept, description, notes)."""
    unknown = set(fields) - set(STORY_FIELDS)
    if unknown:
        raise ValidationError(_("These fields cannot be edited here."), code="forbidden_field")
    locked = _lock(character)
    for field, value in fields.items():
        _record(locked, user, field, getattr(locked, field), value)
        setattr(locked, field, value)
    locked.save(update_fields=[*fields, "updated_at"])
    return locked


@transaction.atomic
def character_set_details(*, character: Character, user, values: Mapping[str, Any]) -> Character:
    """A GM changes single system values kept in `details` (Virtue, Vice, Tamaño, the
    specialization), checked by the system adapter; pools follow what they derive from."""
    locked = _lock(character)
    system = get_system(locked.campaign.system)
    try:
        cleaned = system.clean_details({**locked.details, **values}, locked.campaign)
    except RuleError as error:
        raise ValidationError(error.translated(_), code="bad_detail") from None
    for key in sorted(values):
        _record(locked, user, f"details:{key}", locked.details.get(key), cleaned.get(key))
    locked.details = cleaned
    locked.save(update_fields=["details", "updated_at"])
    _sync_resource_maximums(locked, user)
    return locked


def _sync_resource_maximums(character: Character, user) -> None:
    """After a trait change, pools whose maximum derives from traits follow it."""
    system = get_system(character.campaign.system)
    ratings = ratings_of(character)
    for spec in system.resource_specs(ratings, character.details, character.campaign.rules):
        resource, created = Resource.objects.get_or_create(
            character=character,
            key=spec.key,
            defaults={"current": spec.initial, "maximum": spec.maximum},
        )
        if not created and resource.maximum != spec.maximum:
            current = resource.current
            if spec.maximum is not None:
                current = min(current, spec.maximum)
            _record(character, user, f"max:{spec.key}", resource.maximum, spec.maximum)
            Resource.objects.filter(pk=resource.pk).update(maximum=spec.maximum, current=current)


@transaction.atomic
def trait_set(*, character: Character, user, key: str, rating: int) -> Trait:
    """Set a rating (a GM's edit; players raise traits only by spending XP)."""
    locked = _lock(character)
    system = get_system(locked.campaign.system)
    spec = _check_rating(system, locked.campaign, key, rating)
    trait, _created = Trait.objects.get_or_create(
        character=locked, key=key, defaults={"kind": spec.kind, "rating": spec.minimum}
    )
    _record(locked, user, f"trait:{key}", trait.rating, rating)
    trait.rating = rating
    trait.save(update_fields=["rating"])
    _sync_resource_maximums(locked, user)
    return trait


@transaction.atomic
def resource_adjust(*, character: Character, user, key: str, delta: int) -> Resource:
    """Add delta to a pool, refusing to go below 0 or above its maximum."""
    locked = _lock(character)
    resource = Resource.objects.select_for_update().filter(character=locked, key=key).first()
    if resource is None:
        raise ValidationError(_("This sheet has no such pool."), code="unknown_resource")
    new = resource.current + delta
    if new < 0:
        raise ValidationError(_("There are no points left to spend."), code="empty")
    if resource.maximum is not None and new > resource.maximum:
        raise ValidationError(_("The pool is already full."), code="full")
    Resource.objects.filter(pk=resource.pk).update(current=F("current") + delta)
    _record(locked, user, f"resource:{key}", resource.current, new)
    resource.current = new
    return resource


@transaction.atomic
def character_approve(*, character: Character, user) -> Character:
    """A GM accepts a sheet that breaks the creation budgets."""
    locked = _lock(character)
    _record(locked, user, "approved_over_budget", locked.approved_over_budget, True)
    locked.approved_over_budget = True
    locked.approved_by = user
    locked.save(update_fields=["approved_over_budget", "approved_by", "updated_at"])
    return locked


@transaction.atomic
def specialty_add(*, character: Character, user, skill_key: str, name: str) -> Specialty:
    locked = _lock(character)
    if not Trait.objects.filter(character=locked, key=skill_key, rating__gte=1).exists():
        raise ValidationError(
            _("A specialty needs a skill with at least one dot."), code="skill_without_dots"
        )
    specialty, created = Specialty.objects.get_or_create(
        character=locked, skill_key=skill_key, name=name.strip()
    )
    if created:
        _record(locked, user, f"specialty:{skill_key}", "", specialty.name)
    return specialty


@transaction.atomic
def specialty_remove(*, specialty: Specialty, user) -> None:
    locked = _lock(specialty.character)
    _record(locked, user, f"specialty:{specialty.skill_key}", specialty.name, "")
    specialty.delete()


@transaction.atomic
def merit_set(
    *, character: Character, user, key: str, name: str, rating: int, notes: str = ""
) -> Merit:
    """Add a merit, or change the rating of one the sheet already has."""
    locked = _lock(character)
    allowed = get_system(locked.campaign.system).merit_ratings(key)
    if rating not in allowed:
        raise ValidationError(
            _("%(name)s cannot have %(rating)s dots.") % {"name": name, "rating": rating},
            code="out_of_range",
        )
    merit = Merit.objects.filter(character=locked, key=key, name=name).first()
    old = merit.rating if merit else ""
    if merit is None:
        merit = Merit(character=locked, key=key, name=name)
    merit.rating = rating
    merit.notes = notes
    merit.save()
    _record(locked, user, f"merit:{name}", old, rating)
    return merit


@transaction.atomic
def merit_remove(*, merit: Merit, user) -> None:
    locked = _lock(merit.character)
    _record(locked, user, f"merit:{merit.name}", merit.rating, "")
    merit.delete()


@transaction.atomic
def aspect_add(*, character: Character, user, kind: str, text: str, duration: str = "") -> Aspect:
    """A GM gives a sheet an aspect, within the slots its system has (4 Hitos, ...)."""
    locked = _lock(character)
    slots = get_system(locked.campaign.system).aspect_slots()
    if kind not in slots:
        raise ValidationError(_("This sheet has no aspects of that kind."), code="aspect_kind")
    text = text.strip()
    if not text:
        raise ValidationError(_("Write the aspect."), code="aspect_text")
    taken = Aspect.objects.filter(character=locked, kind=kind).count()
    if slots[kind] is not None and taken >= slots[kind]:
        raise ValidationError(
            _("This sheet already has every aspect of that kind; remove one first."),
            code="aspect_full",
        )
    last = Aspect.objects.filter(character=locked).order_by("-position").first()
    aspect = Aspect.objects.create(
        character=locked,
        kind=kind,
        text=text,
        duration=duration,
        position=last.position + 1 if last else 0,
    )
    _record(locked, user, f"aspect:{kind}", "", text)
    return aspect


@transaction.atomic
def aspect_remove(*, aspect: Aspect, user) -> None:
    locked = _lock(aspect.character)
    _record(locked, user, f"aspect:{aspect.kind}", aspect.text, "")
    aspect.delete()


@transaction.atomic
def aspect_set_exhausted(*, aspect: Aspect, user, exhausted: bool) -> Aspect:
    locked = _lock(aspect.character)
    _record(locked, user, f"aspect:{aspect.text}", aspect.exhausted, exhausted)
    Aspect.objects.filter(pk=aspect.pk).update(exhausted=exhausted)
    aspect.exhausted = exhausted
    return aspect


@transaction.atomic
def item_add(
    *, character: Character, user, kind: str, name: str, weight_kg, data: Mapping | None = None
) -> Item:
    locked = _lock(character)
    system = get_system(locked.campaign.system)
    try:
        stats = system.clean_item(kind, name, float(weight_kg), dict(data or {}))
    except RuleError as error:
        raise ValidationError(error.translated(_), code="bad_item") from None
    item = Item.objects.create(
        character=locked, kind=kind, name=name, weight_kg=weight_kg, data=stats
    )
    _record(locked, user, f"item:{kind}", "", name)
    return item


@transaction.atomic
def item_remove(*, item: Item, user) -> None:
    locked = _lock(item.character)
    _record(locked, user, f"item:{item.kind}", item.name, "")
    item.delete()


# Resource pools a roll can spend, by the engine's Effects field.
_ROLL_POOLS = (
    ("willpower_spent", "willpower"),
    ("drama_points_spent", "drama_points"),
    ("destiny_points_spent", "destiny_points"),
    ("prana_spent", "prana"),
)


@transaction.atomic
def roll_apply_effects(*, character: Character, user, record, scene=None) -> list[dict]:
    """Apply what a roll changes on its own sheet, all or nothing.

    `record` is the engine's RollRecord. Pools are spent (refused when empty), aspects
    exhausted, PdP gained (every 6 PdP become +1 NdP), the Dado objetivo specialization
    marked used for `scene`, and a pending "destiny point handed back" cleared. Damage
    is not applied here. Returns what changed, as dicts (what, label, old, new), so the
    roll log can show it.
    """
    from mechanics.rules.ndp.rolls import add_pdp

    effects = record.effects
    locked = _lock(character)
    system = get_system(locked.campaign.system)
    labels = {spec.key: spec.label for spec in system.resource_specs({}, locked.details, {})}
    applied: list[dict] = []
    for field, key in _ROLL_POOLS:
        amount = getattr(effects, field)
        if not amount:
            continue
        resource = Resource.objects.select_for_update().filter(character=locked, key=key).first()
        new = resource.current - amount if resource is not None else -1
        if resource is None or new < 0:
            raise ValidationError(_("There are no points left to spend."), code="empty")
        if resource.maximum is not None:
            new = min(new, resource.maximum)
        Resource.objects.filter(pk=resource.pk).update(current=new)
        _record(locked, user, f"resource:{key}", resource.current, new)
        applied.append(
            {"what": key, "label": labels.get(key, key), "old": resource.current, "new": new}
        )
    for text in effects.aspects_exhausted:
        aspect = (
            Aspect.objects.select_for_update()
            .filter(character=locked, text=text, exhausted=False)
            .first()
        )
        if aspect is None:
            raise ValidationError(
                _("%(aspect)s is already exhausted.") % {"aspect": text}, code="exhausted"
            )
        Aspect.objects.filter(pk=aspect.pk).update(exhausted=True)
        _record(locked, user, f"aspect:{text}", False, True)
        applied.append({"what": "aspect", "label": text, "old": False, "new": True})
    for key, gained in effects.pdp_gained.items():
        trait = Trait.objects.select_for_update().filter(character=locked, key=key).first()
        if trait is None or gained <= 0:
            continue
        level, pdp = add_pdp(trait.rating, trait.progress, gained)
        Trait.objects.filter(pk=trait.pk).update(rating=level, progress=pdp)
        spec = system.trait_spec(locked.campaign, key)
        label = spec.name if spec else (trait.name or key)
        _record(locked, user, f"pdp:{key}", trait.progress, pdp)
        applied.append({"what": "pdp", "label": label, "old": trait.progress, "new": pdp})
        if level != trait.rating:
            _record(locked, user, f"trait:{key}", trait.rating, level)
            applied.append({"what": "ndp", "label": label, "old": trait.rating, "new": level})
    details = dict(locked.details)
    if effects.specialization_used and system.key == "objetivo":
        # Once per scene: remember the scene it was used in (None outside scenes).
        details["specialization_used_scene"] = scene.pk if scene is not None else None
        skill = system.trait_spec(locked.campaign, details.get("specialization", ""))
        applied.append(
            {
                "what": "specialization",
                "label": skill.name if skill else "",
                "old": None,
                "new": details["specialization_used_scene"],
            }
        )
    if record.details.get("destiny_penalty_consumed") and details.get("destiny_returned"):
        details["destiny_returned"] = False
        applied.append({"what": "destiny_penalty", "label": "", "old": True, "new": False})
    if details != locked.details:
        for key in sorted(set(details) | set(locked.details)):
            _record(locked, user, f"details:{key}", locked.details.get(key), details.get(key))
        locked.details = details
        locked.save(update_fields=["details", "updated_at"])
    return applied


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


# XP: the ledger, per-scene awards and purchases -------------------------------------------
#
# Every write moves `Character.xp_balance` with a conditional F() update on the locked
# character row and appends its entry (with the balance it leaves) in the same
# transaction; the database refuses a negative balance.

# A plain award (campaigns without the rubric): the rubric's own maximum is 19.
SCENE_AWARD_MAX = 50


def _lock_characters(ids: Iterable[int]) -> dict[int, Character]:
    """Lock several sheets, always in primary-key order so two writers never deadlock."""
    rows = (
        Character.objects.select_for_update()
        .select_related("campaign")
        .filter(pk__in=sorted(set(ids)))
        .order_by("pk")
    )
    return {character.pk: character for character in rows}


def _ledger_add(
    *,
    character: Character,
    user,
    kind: str,
    amount: int,
    scene=None,
    reason: str = "",
    breakdown: Mapping | None = None,
) -> XpEntry:
    """Append one entry for a character the caller has locked, moving its balance."""
    moved = Character.objects.filter(pk=character.pk, xp_balance__gte=-amount).update(
        xp_balance=F("xp_balance") + amount
    )
    if not moved:
        if kind == XpEntry.Kind.SPEND:
            message = _("%(name)s has %(balance)s XP; this costs %(cost)s.") % {
                "name": character.name,
                "balance": character.xp_balance,
                "cost": -amount,
            }
        else:
            message = _(
                "%(name)s has already spent that XP: the change would leave a negative balance."
            ) % {"name": character.name}
        raise ValidationError(message, code="insufficient_xp")
    character.xp_balance += amount
    return XpEntry.objects.create(
        character=character,
        scene=scene,
        kind=kind,
        amount=amount,
        balance_after=character.xp_balance,
        reason=reason[:200],
        breakdown=dict(breakdown or {}),
        created_by=user,
    )


@transaction.atomic
def xp_adjust(*, character: Character, user, amount: int, reason: str) -> XpEntry:
    """A GM gives XP outside a scene (starting XP, a bonus) or takes some back."""
    if isinstance(amount, bool) or not isinstance(amount, int) or amount == 0:
        raise ValidationError(_("Give or take at least 1 XP."), code="zero_amount")
    if not reason.strip():
        raise ValidationError(_("Say why."), code="no_reason")
    locked = _lock(character)
    kind = XpEntry.Kind.AWARD if amount > 0 else XpEntry.Kind.CORRECTION
    return _ledger_add(character=locked, user=user, kind=kind, amount=amount, reason=reason)


def _award_value(value) -> tuple[int, dict]:
    """(total XP, what the breakdown keeps) for one character's award in a scene."""
    if isinstance(value, SceneAward):
        return award_total(value), {"rubric": value.to_dict()}
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValidationError(_("An award is a rubric or a whole number of XP."), code="invalid")
    if not 0 <= value <= SCENE_AWARD_MAX:
        raise ValidationError(
            _("An award is between 0 and %(max)s XP.") % {"max": SCENE_AWARD_MAX},
            code="out_of_range",
        )
    return value, {}


def scene_award_totals(scene) -> dict[int, dict]:
    """What each character has been given for a scene so far: total and latest breakdown."""
    given: dict[int, dict] = {}
    for entry in XpEntry.objects.filter(scene=scene).order_by("created_at", "pk"):
        current = given.setdefault(entry.character_id, {"total": 0, "breakdown": {}})
        current["total"] += entry.amount
        current["breakdown"] = entry.breakdown
    return given


@transaction.atomic
def scene_award_xp(
    *, scene, user, awards: Mapping[int, SceneAward | int], willpower: Iterable[int] = ()
) -> list[XpEntry]:
    """Award a scene's XP to everyone at once: {character id: SceneAward or XP}.

    The first award for a character is an "award" entry; a later submit that changes
    the total or the rubric records a "correction" with the difference (0 when only
    the rubric moved), so nothing is ever overwritten and submitting the same values
    again records nothing. `willpower` lists the characters who regain 1 Willpower for
    acting by their Virtue or Vice (Mundo de Tinieblas), once per scene each.
    """
    willpower = set(willpower)
    participants = set(scene.participants.values_list("pk", flat=True))
    awarded_before = set(XpEntry.objects.filter(scene=scene).values_list("character_id", flat=True))
    if not set(awards) | willpower <= participants | awarded_before:
        raise ValidationError(
            _("Only the characters taking part in the scene receive its awards."),
            code="not_participant",
        )
    if willpower and scene.campaign.system != "tinieblas":
        raise ValidationError(
            _("Only Mundo de Tinieblas grants Willpower at the end of a scene."),
            code="no_willpower",
        )
    locked = _lock_characters(set(awards) | willpower)
    given = scene_award_totals(scene)
    entries = []
    for character_id in sorted(awards):
        total, breakdown = _award_value(awards[character_id])
        breakdown = {"scene": scene.title, "total": total, **breakdown}
        before = given.get(character_id)
        if before is None:
            if total == 0:
                continue
            kind, amount = XpEntry.Kind.AWARD, total
        else:
            previous = before["breakdown"]
            unchanged = total == before["total"] and previous.get("rubric") == breakdown.get(
                "rubric"
            )
            if unchanged:
                continue
            kind, amount = XpEntry.Kind.CORRECTION, total - before["total"]
            breakdown["previous"] = before["total"]
        entries.append(
            _ledger_add(
                character=locked[character_id],
                user=user,
                kind=kind,
                amount=amount,
                scene=scene,
                breakdown=breakdown,
            )
        )
    granted = set(
        WillpowerGrant.objects.filter(scene=scene, character_id__in=willpower).values_list(
            "character_id", flat=True
        )
    )
    for character_id in sorted(willpower - granted):
        _grant_willpower(locked[character_id], user, scene)
    return entries


def _grant_willpower(character: Character, user, scene) -> WillpowerGrant:
    resource = (
        Resource.objects.select_for_update().filter(character=character, key="willpower").first()
    )
    points = 0
    if resource is not None and (resource.maximum is None or resource.current < resource.maximum):
        Resource.objects.filter(pk=resource.pk).update(current=F("current") + 1)
        _record(character, user, "resource:willpower", resource.current, resource.current + 1)
        points = 1
    return WillpowerGrant.objects.create(
        character=character, scene=scene, points=points, granted_by=user
    )


def _apply_purchase(character: Character, user, quote: Quote) -> XpEntry | None:
    """Pay for a checked purchase and raise the trait, in the caller's transaction.

    Every write is conditional on the values the quote was made from, so a purchase
    applied twice, or against a sheet that changed meanwhile, is refused whole.
    """
    changed = _("The sheet changed meanwhile; look at the price again.")
    entry = None
    if quote.uses_drama_points:
        paid = Resource.objects.filter(
            character=character, key=DRAMA_POINTS, current__gte=quote.cost
        ).update(current=F("current") - quote.cost)
        if not paid:
            raise ValidationError(_("There are no drama points left."), code="no_drama_points")
        _record(character, user, f"resource:{DRAMA_POINTS}", "", f"-{quote.cost}")
    else:
        entry = _ledger_add(
            character=character,
            user=user,
            kind=XpEntry.Kind.SPEND,
            amount=-quote.cost,
            reason=quote.label,
            breakdown={
                "purchase": {
                    "kind": quote.kind,
                    "key": quote.key,
                    "name": quote.name,
                    "current": quote.current,
                    "target": quote.target,
                }
            },
        )
    if quote.kind == XpPurchase.Kind.SPECIALTY:
        _specialty, created = Specialty.objects.get_or_create(
            character=character, skill_key=quote.key, name=quote.name
        )
        if not created:
            raise ValidationError(changed, code="sheet_changed")
        _record(character, user, f"specialty:{quote.key}", "", quote.name)
    elif quote.kind == XpPurchase.Kind.MERIT:
        if quote.merit_id is None:
            Merit.objects.create(
                character=character, key=quote.key, name=quote.name, rating=quote.target
            )
        elif not Merit.objects.filter(pk=quote.merit_id, rating=quote.current).update(
            rating=quote.target
        ):
            raise ValidationError(changed, code="sheet_changed")
        _record(character, user, f"merit:{quote.name}", quote.current or "", quote.target)
    else:
        raised = Trait.objects.filter(
            character=character, key=quote.key, rating=quote.current
        ).update(rating=quote.target)
        if not raised:
            raise ValidationError(changed, code="sheet_changed")
        _record(character, user, f"trait:{quote.key}", quote.current, quote.target)
        _sync_resource_maximums(character, user)
    return entry


def _checked_quote(character: Character, purchase: PurchaseSpec, expected_cost) -> Quote:
    checked = quote_purchase(character, purchase)
    if expected_cost is not None and checked.cost != expected_cost:
        raise ValidationError(
            _("The price changed to %(cost)s; look at it again.") % {"cost": checked.cost},
            code="price_changed",
        )
    return checked


@transaction.atomic
def xp_spend(
    *, character: Character, user, purchase: PurchaseSpec, expected_cost: int | None = None
) -> XpEntry | None:
    """Buy at once: the trait goes up and the ledger takes the engine's cost.

    `expected_cost` is the price the player saw; a different price now is refused.
    Returns the ledger entry (None for a Hitos drama point, which is no XP).
    """
    locked = _lock(character)
    return _apply_purchase(locked, user, _checked_quote(locked, purchase, expected_cost))


@transaction.atomic
def xp_purchase_request(
    *,
    character: Character,
    user,
    purchase: PurchaseSpec,
    apply_now: bool,
    expected_cost: int | None = None,
) -> XpPurchase:
    """A purchase applied at once (`apply_now`) or left for a GM to approve.

    A pending purchase reserves its cost: the player cannot queue more than the
    balance (or the drama pool) covers.
    """
    locked = _lock(character)
    checked = _checked_quote(locked, purchase, expected_cost)
    fields = {
        "character": locked,
        "kind": checked.kind,
        "key": checked.key,
        "name": checked.name,
        "current": checked.current,
        "target": checked.target,
        "cost": checked.cost,
        "requested_by": user,
    }
    if apply_now:
        entry = _apply_purchase(locked, user, checked)
        return XpPurchase.objects.create(
            **fields,
            status=XpPurchase.Status.APPLIED,
            decided_by=user,
            decided_at=timezone.now(),
            entry=entry,
        )
    pending = XpPurchase.objects.filter(character=locked, status=XpPurchase.Status.PENDING)
    if pending.filter(kind=checked.kind, key=checked.key, name=checked.name).exists():
        raise ValidationError(
            _("That purchase is already waiting for the GM."), code="already_pending"
        )
    if checked.uses_drama_points:
        reserved = sum(p.cost for p in pending if p.kind == XpPurchase.Kind.DRAMA)
        pool = Resource.objects.filter(character=locked, key=DRAMA_POINTS).first()
        if pool is None or pool.current - reserved < checked.cost:
            raise ValidationError(_("There are no drama points left."), code="no_drama_points")
    else:
        reserved = sum(p.cost for p in pending if p.kind != XpPurchase.Kind.DRAMA)
        if locked.xp_balance - reserved < checked.cost:
            raise ValidationError(
                _(
                    "%(name)s has %(balance)s XP (%(reserved)s waiting for approval); "
                    "this costs %(cost)s."
                )
                % {
                    "name": locked.name,
                    "balance": locked.xp_balance,
                    "reserved": reserved,
                    "cost": checked.cost,
                },
                code="insufficient_xp",
            )
    return XpPurchase.objects.create(**fields)


def _lock_pending(purchase: XpPurchase) -> tuple[Character, XpPurchase]:
    locked = _lock(purchase.character)
    row = XpPurchase.objects.select_for_update().get(pk=purchase.pk)
    if row.status != XpPurchase.Status.PENDING:
        raise ValidationError(_("That purchase has already been decided."), code="decided")
    return locked, row


@transaction.atomic
def xp_purchase_approve(*, purchase: XpPurchase, user) -> XpPurchase:
    """A GM approves a pending purchase: it is applied now, at the price requested."""
    locked, row = _lock_pending(purchase)
    spec = PurchaseSpec(kind=row.kind, key=row.key, name=row.name)
    checked = quote_purchase(locked, spec)
    if (checked.current, checked.cost) != (row.current, row.cost):
        raise ValidationError(
            _("The sheet changed since this was requested; reject it and ask again."),
            code="sheet_changed",
        )
    entry = _apply_purchase(locked, user, checked)
    XpPurchase.objects.filter(pk=row.pk, status=XpPurchase.Status.PENDING).update(
        status=XpPurchase.Status.APPLIED,
        decided_by=user,
        decided_at=timezone.now(),
        entry=entry,
    )
    row.refresh_from_db()
    return row


def _close_pending(purchase: XpPurchase, user, status: str, note: str = "") -> XpPurchase:
    _locked, row = _lock_pending(purchase)
    XpPurchase.objects.filter(pk=row.pk, status=XpPurchase.Status.PENDING).update(
        status=status, decided_by=user, decided_at=timezone.now(), note=note[:200]
    )
    row.refresh_from_db()
    return row


@transaction.atomic
def xp_purchase_reject(*, purchase: XpPurchase, user, note: str = "") -> XpPurchase:
    return _close_pending(purchase, user, XpPurchase.Status.REJECTED, note)


@transaction.atomic
def xp_purchase_cancel(*, purchase: XpPurchase, user) -> XpPurchase:
    """The player withdraws a purchase still waiting for the GM."""
    return _close_pending(purchase, user, XpPurchase.Status.CANCELLED)


# --- Health: damage, time, treatments and undo -----------------------------------------


def _health_context(character: Character):
    """The system adapter and what it needs to read this character's health."""
    system = get_system(character.campaign.system)
    return system, ratings_of(character), character.details, character.campaign.rules


def _health_event(
    character: Character,
    user,
    *,
    kind: str,
    after: dict,
    summary: str,
    inputs: Mapping | None = None,
    reason: str = "",
    scene=None,
    roll=None,
    undoes: HealthEvent | None = None,
) -> HealthEvent:
    event = HealthEvent.objects.create(
        character=character,
        scene=scene,
        kind=kind,
        inputs=dict(inputs or {}),
        summary=summary[:200],
        reason=reason[:200],
        health_before=character.health,
        health_after=after,
        roll=roll,
        undoes=undoes,
        created_by=user,
    )
    Character.objects.filter(pk=character.pk).update(health=after)
    character.health = after
    _sync_health_aspects(character, user)
    return event


def _sync_health_aspects(character: Character, user) -> None:
    """Hitos: the aspects a health state grants (painkillers, medical supervision) are
    kept on the sheet as temporary aspects, so rolls can use them; each is added when the
    state grants it and removed when it no longer does."""
    if character.campaign.system != "hitos":
        return
    from mechanics.rules.hitos.catalogue import DRUG_KINDS, MEDICAL_SUPERVISION_ASPECT

    managed = {MEDICAL_SUPERVISION_ASPECT} | {kind.aspect for kind in DRUG_KINDS if kind.aspect}
    system, ratings, details, rules = _health_context(character)
    granted = set(system.health_view(character.health, ratings, details, rules).states) & managed
    present = {
        aspect.text: aspect
        for aspect in Aspect.objects.filter(character=character, kind="temporal", text__in=managed)
    }
    for text in sorted(granted - present.keys()):
        aspect_add(character=character, user=user, kind="temporal", text=text)
    for text in sorted(present.keys() - granted):
        present[text].character = character
        aspect_remove(aspect=present[text], user=user)


def _rule_error(error: RuleError) -> ValidationError:
    return ValidationError(error.translated(_), code="rules")


@transaction.atomic
def character_apply_damage(
    *, character: Character, user, damage: DamageInput, reason: str = "", scene=None, rng=None
) -> HealthEvent:
    """Hurt a character by its system's rules; the row lock makes simultaneous hits add up."""
    locked = _lock(character)
    system, ratings, details, rules = _health_context(locked)
    try:
        change = system.apply_damage(locked.health, ratings, details, rules, damage, rng)
    except RuleError as error:
        raise _rule_error(error) from error
    roll = None
    if isinstance(change.roll, RollRecord):
        roll = roll_store(
            campaign=locked.campaign,
            user=user,
            record=change.roll,
            character=locked,
            scene=scene,
            label=_("Massive damage test"),
        )
    return _health_event(
        locked,
        user,
        kind=HealthEvent.Kind.DAMAGE,
        after=change.health,
        summary=change.summary,
        inputs=asdict(damage),
        reason=reason,
        scene=scene,
        roll=roll,
    )


@transaction.atomic
def character_advance_time(
    *, character: Character, user, hours: int, reason: str = "", scene=None
) -> HealthEvent:
    """Let in-game time pass for one character: it heals by its system's rules."""
    if hours <= 0:
        raise ValidationError(_("Time to advance must be at least one hour."), code="hours")
    locked = _lock(character)
    system, ratings, details, rules = _health_context(locked)
    try:
        change = system.advance_time(locked.health, ratings, details, rules, hours)
    except RuleError as error:
        raise _rule_error(error) from error
    return _health_event(
        locked,
        user,
        kind=HealthEvent.Kind.TIME,
        after=change.health,
        summary=change.summary,
        inputs={"hours": hours},
        reason=reason,
        scene=scene,
    )


@transaction.atomic
def scene_advance_time(*, scene, user, hours: int, reason: str = "") -> list[HealthEvent]:
    """Advance time for every participant of a scene, all or none."""
    return [
        character_advance_time(
            character=character, user=user, hours=hours, reason=reason, scene=scene
        )
        for character in scene.participants.select_related("campaign").order_by("pk")
    ]


def _undo_target(character: Character) -> HealthEvent | None:
    """The newest event still in force: undos and what they undid are skipped."""
    for event in character.health_events.select_related("undone_by").order_by("-created_at", "-pk"):
        if event.kind == HealthEvent.Kind.UNDO or hasattr(event, "undone_by"):
            continue
        return event
    return None


@transaction.atomic
def health_event_undo(
    *, character: Character, user, reason: str = "", expected: int | None = None
) -> HealthEvent:
    """Undo the last event in force, recorded as a new compensating event.

    `expected` is the id of the event the user saw as the last one: if another event
    arrived meanwhile, nothing is undone."""
    locked = _lock(character)
    target = _undo_target(locked)
    if target is None:
        raise ValidationError(_("There is nothing to undo."), code="nothing_to_undo")
    if expected is not None and target.pk != expected:
        raise ValidationError(
            _("The health changed meanwhile; look at the events again before undoing."),
            code="changed",
        )
    return _health_event(
        locked,
        user,
        kind=HealthEvent.Kind.UNDO,
        after=target.health_before,
        summary=_("Undone: %(summary)s") % {"summary": target.summary},
        inputs={"event": target.pk},
        reason=reason,
        scene=target.scene,
        undoes=target,
    )


# --- Health treatments: first aid, medical supervision, painkillers, Auxiliar ------------


def _lock_patient_and_healer(character: Character, healer: Character) -> tuple:
    """Both sheets locked (in primary-key order); the healer must be of the same campaign."""
    rows = _lock_characters({character.pk, healer.pk})
    patient, healer_row = rows[character.pk], rows.get(healer.pk)
    if healer_row is None or healer_row.campaign_id != patient.campaign_id:
        raise ValidationError(
            _("The healer must be a character of this campaign."), code="healer_elsewhere"
        )
    if healer_row.pk == patient.pk:
        healer_row = patient
    return patient, healer_row


def _require_system(character: Character, system: str, message: str) -> None:
    if character.campaign.system != system:
        raise ValidationError(message, code="wrong_system")


def _able_penalty(character: Character) -> int:
    """The wound penalty on a roll this character makes; refused if it cannot act."""
    system, ratings, details, rules = _health_context(character)
    shown = system.health_view(character.health, ratings, details, rules)
    if shown.cannot_act or shown.dead or shown.unconscious:
        raise ValidationError(
            _("%(name)s cannot act in this state.") % {"name": character.name},
            code="cannot_act",
        )
    return shown.penalty


def _treatment_roll(healer: Character, user, record, scene, label: str):
    """Store the healer's roll with its effects on the healer's sheet (PdP in 3d6 + NdP)."""
    [roll] = roll_perform(
        campaign=healer.campaign,
        user=user,
        sides=[RollSide(record=record, character=healer, scene=scene, label=label)],
    )
    return roll


@transaction.atomic
def character_first_aid(
    *,
    character: Character,
    user,
    healer: Character,
    proper_kit: bool = False,
    reason: str = "",
    scene=None,
    rng=None,
) -> HealthEvent:
    """Mundo de Tinieblas first aid, rolled on the server: the healer's Inteligencia +
    Medicina, −2 without proper kit, with the engine's modifier for the patient's state.
    The engine's table heals one lethal level on enough successes; fewer lock first aid
    until the patient is fully healed, and a dramatic failure also adds 1 L."""
    from mechanics.rules.tinieblas import health as tinieblas_health
    from mechanics.rules.tinieblas.rolls import PoolSpec, roll_pool

    patient, healer = _lock_patient_and_healer(character, healer)
    _require_system(patient, "tinieblas", _("First aid is a Mundo de Tinieblas treatment."))
    system, ratings, details, rules = _health_context(patient)
    track = system.track(patient.health, ratings, details, rules)
    try:
        needed, state_modifier = tinieblas_health.first_aid_requirement(track)
    except RuleError as error:
        raise _rule_error(error) from error
    penalty = _able_penalty(healer)
    healer_ratings = ratings_of(healer) if healer.pk != patient.pk else ratings
    kit_modifier = 0 if proper_kit else -2
    spec = PoolSpec(
        attribute=healer_ratings.get("inteligencia", 1),
        skill=healer_ratings.get("medicina", 0),
        skill_category="mental",
        attribute_key="inteligencia",
        modifiers=tuple(m for m in (state_modifier, kit_modifier) if m),
        wound_penalty=penalty,
        unskilled_penalty=bool(rules.get("unskilled_penalty", True)),
    )
    record = roll_pool(spec, rng)
    dramatic = record.outcome == "dramatic_failure"
    new = tinieblas_health.first_aid(track, record.result, dramatic)
    label = _("First aid for %(name)s") % {"name": patient.name}
    roll = _treatment_roll(healer, user, record, scene, label)
    values = {"healer": healer.name, "successes": record.result, "needed": needed}
    if dramatic:
        summary = _(
            "First aid by %(healer)s: dramatic failure, one more lethal level; "
            "no more first aid until fully healed"
        )
    elif record.result >= needed:
        summary = _(
            "First aid by %(healer)s: %(successes)s of %(needed)s successes, "
            "one lethal level healed"
        )
    else:
        summary = _(
            "First aid by %(healer)s: %(successes)s of %(needed)s successes; "
            "no more first aid until fully healed"
        )
    return _health_event(
        patient,
        user,
        kind=HealthEvent.Kind.TREATMENT,
        after=new.to_dict(),
        summary=summary % values,
        inputs={"treatment": "first_aid", "healer": healer.pk, "proper_kit": proper_kit},
        reason=reason,
        scene=scene,
        roll=roll,
    )


@transaction.atomic
def character_medical_supervision(
    *,
    character: Character,
    user,
    supervisor: Character,
    characteristic: str,
    skill: str,
    reason: str = "",
    scene=None,
    rng=None,
) -> HealthEvent:
    """Hitos medical supervision for one healing period, rolled on the server: the
    supervisor's characteristic + skill against the engine's difficulty for the patient's
    state. Success grants «Bajo supervisión médica» (kept on the sheet as an aspect),
    failure removes it."""
    from mechanics.rules.hitos import health as hitos_health
    from mechanics.rules.hitos.catalogue import CHARACTERISTICS

    patient, supervisor = _lock_patient_and_healer(character, supervisor)
    _require_system(patient, "hitos", _("Medical supervision is a Hitos treatment."))
    system, ratings, _details, rules = _health_context(patient)
    supervisor_ratings = ratings_of(supervisor) if supervisor.pk != patient.pk else ratings
    if characteristic not in {c.key for c in CHARACTERISTICS}:
        raise ValidationError(_("Choose one of the four characteristics."), code="characteristic")
    if skill not in supervisor_ratings or skill in {c.key for c in CHARACTERISTICS}:
        raise ValidationError(
            _("%(name)s has no such skill.") % {"name": supervisor.name}, code="skill"
        )
    penalty = _able_penalty(supervisor)
    state = system.state(patient.health, ratings)
    try:
        spec = hitos_health.supervision_spec(
            state,
            supervisor_ratings[characteristic],
            supervisor_ratings[skill],
            wound_penalty=penalty,
            equal_succeeds=bool(rules.get("equal_succeeds")),
        )
        new, record = hitos_health.medical_supervision(state, spec, rng)
    except RuleError as error:
        raise _rule_error(error) from error
    label = _("Medical supervision of %(name)s") % {"name": patient.name}
    roll = _treatment_roll(supervisor, user, record, scene, label)
    values = {"name": supervisor.name, "total": record.result, "difficulty": spec.difficulty}
    if record.succeeded:
        summary = _("Medical supervision by %(name)s: %(total)s against %(difficulty)s, success")
    else:
        summary = _("Medical supervision by %(name)s: %(total)s against %(difficulty)s, failure")
    return _health_event(
        patient,
        user,
        kind=HealthEvent.Kind.TREATMENT,
        after=new.to_dict(),
        summary=summary % values,
        inputs={
            "treatment": "medical_supervision",
            "supervisor": supervisor.pk,
            "characteristic": characteristic,
            "skill": skill,
        },
        reason=reason,
        scene=scene,
        roll=roll,
    )


@transaction.atomic
def character_take_drug(
    *, character: Character, user, kind: str, reason: str = "", scene=None
) -> HealthEvent:
    """Hitos painkillers ("suave" or "fuerte"): they act after an hour of game time and
    cancel penalty points for some hours; the strong one brings «Bajo el efecto de las
    drogas» while it acts (kept on the sheet as an aspect)."""
    from mechanics.rules.hitos import health as hitos_health
    from mechanics.rules.hitos.catalogue import DRUG_KINDS_BY_KEY

    locked = _lock(character)
    _require_system(locked, "hitos", _("These painkillers are a Hitos treatment."))
    system = get_system(locked.campaign.system)
    try:
        new = hitos_health.take_drug(system.state(locked.health, ratings_of(locked)), kind)
    except RuleError as error:
        raise _rule_error(error) from error
    return _health_event(
        locked,
        user,
        kind=HealthEvent.Kind.TREATMENT,
        after=new.to_dict(),
        summary=_("%(drug)s taken; it acts in an hour") % {"drug": DRUG_KINDS_BY_KEY[kind].name},
        inputs={"treatment": "drug", "drug": kind},
        reason=reason,
        scene=scene,
    )


@transaction.atomic
def character_auxiliar(
    *,
    character: Character,
    user,
    healer: Character,
    adversity: int,
    part: str = "",
    reason: str = "",
    scene=None,
    rng=None,
) -> HealthEvent:
    """3d6 + NdP Auxiliar, rolled on the server: the healer's Auxiliar against the
    adversity the GM sets; success stops the bleeding (of one part, or all) and wakes
    the patient. The healer may be the patient."""
    from mechanics.rules.ndp import health as ndp_health
    from mechanics.rules.ndp.rolls import NdpSpec, roll_check

    patient, healer = _lock_patient_and_healer(character, healer)
    _require_system(patient, "ndp", _("Auxiliar is a 3d6 + NdP skill."))
    system = get_system(patient.campaign.system)
    try:
        state = system.state(patient.health)
        if part:
            state.part(part)
        spec = NdpSpec(
            level=ratings_of(healer).get("auxiliar", 0), adversity=adversity, skill="auxiliar"
        )
    except RuleError as error:
        raise _rule_error(error) from error
    bleeding = [p for p in state.bleeding_parts if not part or p == part]
    if state.dead or not (bleeding or state.unconscious):
        raise ValidationError(
            _("There is nothing for Auxiliar to treat: no Hemorragia and not unconscious."),
            code="nothing_to_treat",
        )
    _able_penalty(healer)
    record = roll_check(spec, rng)
    success = record.outcome == "success"
    new = ndp_health.auxiliar(state, part or None) if success else state
    roll = _treatment_roll(
        healer, user, record, scene, _("Auxiliar for %(name)s") % {"name": patient.name}
    )
    values = {"name": healer.name, "total": record.result, "adversity": adversity}
    if success:
        summary = _("Auxiliar by %(name)s: %(total)s against %(adversity)s, treated")
    else:
        summary = _("Auxiliar by %(name)s: %(total)s against %(adversity)s, no effect")
    return _health_event(
        patient,
        user,
        kind=HealthEvent.Kind.TREATMENT,
        after=new.to_dict(),
        summary=summary % values,
        inputs={"treatment": "auxiliar", "healer": healer.pk, "adversity": adversity, "part": part},
        reason=reason,
        scene=scene,
        roll=roll,
    )


@transaction.atomic
def character_bleed_round(
    *, character: Character, user, reason: str = "", scene=None
) -> HealthEvent:
    """3d6 + NdP: one round of bleeding, a wound on each bleeding part."""
    from mechanics.rules.ndp import health as ndp_health

    locked = _lock(character)
    _require_system(locked, "ndp", _("Bleeding by rounds is a 3d6 + NdP rule."))
    state = get_system(locked.campaign.system).state(locked.health)
    if not state.bleeding_parts or state.dead:
        raise ValidationError(_("Nothing is bleeding."), code="not_bleeding")
    return _health_event(
        locked,
        user,
        kind=HealthEvent.Kind.DAMAGE,
        after=ndp_health.bleed_round(state).to_dict(),
        summary=_("One round of bleeding"),
        inputs={"bleed_round": 1},
        reason=reason,
        scene=scene,
    )


@transaction.atomic
def character_set_unconscious(
    *, character: Character, user, unconscious: bool, reason: str = "", scene=None
) -> HealthEvent:
    """3d6 + NdP: the seed never says when a character falls unconscious; the GM marks
    it (Auxiliar wakes them)."""
    from mechanics.rules.ndp import health as ndp_health

    locked = _lock(character)
    _require_system(locked, "ndp", _("Marking unconsciousness by hand is a 3d6 + NdP rule."))
    state = get_system(locked.campaign.system).state(locked.health)
    if state.unconscious == unconscious:
        raise ValidationError(_("Nothing changes."), code="unchanged")
    return _health_event(
        locked,
        user,
        kind=HealthEvent.Kind.DAMAGE if unconscious else HealthEvent.Kind.TREATMENT,
        after=ndp_health.set_unconscious(state, unconscious).to_dict(),
        summary=_("Falls unconscious") if unconscious else _("Comes round"),
        inputs={"unconscious": unconscious},
        reason=reason,
        scene=scene,
    )
