"""Sheet writes: creating a character, story fields, ratings, pools, lists, roll effects.

One transaction each, locking the character row, and every change recorded in the
sheet history (who, when, field, old → new). Callers validate input for the user's
benefit; these functions re-check ranges against the system adapter so no path can
store a rating the rules don't allow.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from campaigns.images import CleanImage, delete_after_commit, store_image
from campaigns.signals import sheet_texts_written
from characters.models import (
    Aspect,
    Character,
    Item,
    Merit,
    Resource,
    SheetChange,
    Specialty,
    Trait,
)
from mechanics.rules.errors import RuleError
from mechanics.systems.registry import get_system

STORY_FIELDS = ("name", "concept", "description", "notes")


# FOR NO KEY UPDATE (here and wherever a row that history rows point to is locked): it
# serialises writers as FOR UPDATE does, but lets another transaction insert a row that
# references the locked one. With FOR UPDATE, a roll holding its campaign's history lock
# (campaigns.history) and inserting a row that points to a sheet locked by an XP spend
# waiting for that campaign would deadlock on PostgreSQL.
def _lock(character: Character) -> Character:
    return (
        Character.objects.select_for_update(no_key=True)
        .select_related("campaign")
        .get(pk=character.pk)
    )


def _lock_characters(ids: Iterable[int]) -> dict[int, Character]:
    """Lock several sheets, always in primary-key order so two writers never deadlock."""
    rows = (
        Character.objects.select_for_update(no_key=True)
        .select_related("campaign")
        .filter(pk__in=sorted(set(ids)))
        .order_by("pk")
    )
    return {character.pk: character for character in rows}


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
    if Aspect.objects.bulk_create(
        Aspect(character=character, kind=kind, text=text, position=index)
        for index, (kind, text) in enumerate(aspects)
    ):
        sheet_texts_written.send(sender=Character, character=character)
    _record(character, user, "created", "", name)
    return character


@transaction.atomic
def character_update(*, character: Character, user, **fields: str) -> Character:
    """Change story fields (name, concept, description, notes)."""
    unknown = set(fields) - set(STORY_FIELDS)
    if unknown:
        raise ValidationError(_("These fields cannot be edited here."), code="forbidden_field")
    locked = _lock(character)
    concept_was = locked.concept
    for field, value in fields.items():
        _record(locked, user, field, getattr(locked, field), value)
        setattr(locked, field, value)
    locked.save(update_fields=[*fields, "updated_at"])
    if locked.concept != concept_was:
        _concept_aspect_follows(locked, user)
    return locked


def _concept_aspect_follows(locked: Character, user) -> None:
    """The aspect that is the character's concept (`GameSystem.concept_aspect`) takes its
    new text: made if there was none, removed with the concept."""
    kind = get_system(locked.campaign.system).concept_aspect
    if kind is None:
        return
    aspect = Aspect.objects.filter(character=locked, kind=kind).first()
    text = locked.concept.strip()
    if aspect is None:
        if text:
            _create_aspect(locked, user, kind=kind, text=text)
    elif not text:
        _record(locked, user, f"aspect:{kind}", aspect.text, "")
        aspect.delete()
    elif aspect.text != text:
        _record(locked, user, f"aspect:{kind}", aspect.text, text)
        Aspect.objects.filter(pk=aspect.pk).update(text=text)


def _concept_follows(locked: Character, user, kind: str, text: str) -> None:
    """The character's concept takes the text of the aspect that is its concept, added or
    removed on the sheet (`GameSystem.concept_aspect`)."""
    if kind != get_system(locked.campaign.system).concept_aspect or locked.concept == text:
        return
    _record(locked, user, "concept", locked.concept, text)
    locked.concept = text
    locked.save(update_fields=["concept", "updated_at"])


@transaction.atomic
def character_set_portrait(*, character: Character, user, image: CleanImage | None) -> Character:
    """Store a new portrait (None removes it); the old files go once this commits."""
    locked = _lock(character)
    old = locked.portrait.name
    replaced = store_image(locked, image, full="portrait", thumb="portrait_thumb")
    _record(locked, user, "portrait", _file_stem(old), _file_stem(locked.portrait.name))
    locked.save(update_fields=["portrait", "portrait_thumb", "updated_at"])
    delete_after_commit(Character.portrait.field, replaced)
    return locked


def _file_stem(name: str) -> str:
    return name.rsplit("/", 1)[-1].removesuffix(".webp")


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
def resource_adjust(
    *, character: Character, user, key: str, delta: int, may_raise_open: bool = False
) -> Resource:
    """Add delta to a pool, refusing to go below 0 or above its maximum.

    A pool with no maximum (drama or destiny points) is raised only when the caller says
    the user may (`CharacterAccess.can_raise_open_pools`: the GM) or a rule adds to it."""
    locked = _lock(character)
    resource = Resource.objects.select_for_update().filter(character=locked, key=key).first()
    if resource is None:
        raise ValidationError(_("This sheet has no such pool."), code="unknown_resource")
    if delta > 0 and resource.maximum is None and not may_raise_open:
        raise ValidationError(
            _("Only the GM can add points to this pool; you can spend them."),
            code="open_pool_raise",
        )
    new = resource.current + delta
    if new < 0:
        raise ValidationError(_("There are no points left to spend."), code="empty")
    if resource.maximum is not None and new > resource.maximum:
        raise ValidationError(_("The pool is already full."), code="full")
    return _resource_write(locked, user, resource, delta)


def _resource_write(locked: Character, user, resource: Resource, delta: int) -> Resource:
    """Store a checked change of a locked sheet's pool and its history line."""
    new = resource.current + delta
    Resource.objects.filter(pk=resource.pk).update(current=F("current") + delta)
    _record(locked, user, f"resource:{resource.key}", resource.current, new)
    resource.current = new
    return resource


@transaction.atomic
def resource_regain(*, character: Character, user, key: str, points: int) -> int:
    """A rule gives back up to `points` of a pool, never past its maximum; how many came
    back (0 when the sheet has no such pool or it is full)."""
    locked = _lock(character)
    resource = Resource.objects.select_for_update().filter(character=locked, key=key).first()
    if resource is None or resource.maximum is None or points <= 0:
        return 0
    gained = min(points, resource.maximum - resource.current)
    if gained > 0:
        _resource_write(locked, user, resource, gained)
    return max(gained, 0)


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


def _create_aspect(locked: Character, user, *, kind: str, text: str, duration: str = "") -> Aspect:
    text = text.strip()
    if not text:
        raise ValidationError(_("Write the aspect."), code="aspect_text")
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
def aspect_add(*, character: Character, user, kind: str, text: str, duration: str = "") -> Aspect:
    """A GM gives a sheet an aspect, within the slots its system has (4 Hitos, ...)."""
    locked = _lock(character)
    slots = get_system(locked.campaign.system).aspect_slots()
    if kind not in slots:
        raise ValidationError(_("This sheet has no aspects of that kind."), code="aspect_kind")
    taken = Aspect.objects.filter(character=locked, kind=kind).count()
    if slots[kind] is not None and taken >= slots[kind]:
        raise ValidationError(
            _("This sheet already has every aspect of that kind; remove one first."),
            code="aspect_full",
        )
    aspect = _create_aspect(locked, user, kind=kind, text=text, duration=duration)
    _concept_follows(locked, user, kind, aspect.text)
    return aspect


@transaction.atomic
def roll_temporary_aspect(*, character: Character, user, roll, text: str) -> Aspect:
    """The temporary aspect a Hitos double or triple (crítico or pifia) offers: for a scene
    or a session, as the roll says, and once per roll."""
    locked = _lock(character)
    duration = (roll.record.get("effects") or {}).get("temporary_aspect")
    if roll.character_id != locked.pk or duration not in ("scene", "session"):
        raise ValidationError(_("This roll offers no temporary aspect."), code="no_aspect")
    used = locked.details.get("aspect_rolls", [])
    if roll.pk in used:
        raise ValidationError(
            _("This roll's temporary aspect is already on the sheet."), code="aspect_taken"
        )
    aspect = _create_aspect(locked, user, kind="temporal", text=text, duration=duration)
    locked.details = {**locked.details, "aspect_rolls": [*used, roll.pk]}
    locked.save(update_fields=["details", "updated_at"])
    return aspect


@transaction.atomic
def aspect_remove(*, aspect: Aspect, user) -> None:
    locked = _lock(aspect.character)
    _record(locked, user, f"aspect:{aspect.kind}", aspect.text, "")
    aspect.delete()
    _concept_follows(locked, user, aspect.kind, "")


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


@transaction.atomic
def item_wear(*, item: Item, user, loss: int = 1) -> int:
    """An item loses integrity (a blow, an interception), never below 0; returns what is
    left. The sheet's lock serialises it with every other edit of the sheet's items."""
    locked = _lock(item.character)
    current = Item.objects.filter(pk=item.pk, character=locked).first()
    if current is None or not isinstance(current.data.get("integrity"), int):
        raise ValidationError(_("%(name)s has no integrity to lose.") % {"name": item.name})
    old = current.data["integrity"]
    new = max(0, old - loss)
    Item.objects.filter(pk=current.pk).update(data={**current.data, "integrity": new})
    _record(locked, user, f"item:{current.name}:integrity", old, new)
    return new


# Resource pools a roll can spend, by the engine's Effects field.
_ROLL_POOLS = (
    ("willpower_spent", "willpower"),
    ("drama_points_spent", "drama_points"),
    ("destiny_points_spent", "destiny_points"),
    ("prana_spent", "prana"),
)


def _changes_the_sheet(record) -> bool:
    """Whether a roll's record asks roll_apply_effects to write anything at all."""
    effects = record.effects
    return bool(
        any(getattr(effects, field) for field, _key in _ROLL_POOLS)
        or effects.aspects_exhausted
        or effects.pdp_gained
        or effects.specialization_used
        or record.details.get("destiny_penalty_consumed")
    )


# No savepoint of its own: a refusal aborts the caller's whole transaction (roll_perform's),
# which is what it wants, and most rolls then cost no more than their own row.
@transaction.atomic(savepoint=False)
def roll_apply_effects(*, character: Character, user, record, scene=None) -> list[dict]:
    """Apply what a roll changes on its own sheet, all or nothing.

    `record` is the engine's RollRecord. Pools are spent (refused when empty), aspects
    exhausted, progress points gained (the system's `add_progress` says when they raise
    the rating), a once-per-scene specialization marked used for `scene`, and a
    pending "destiny point handed back" cleared. Damage is not applied here. Returns what
    changed, as dicts (what, label, old, new), so the roll log can show it.
    """

    if not _changes_the_sheet(record):
        return []  # nothing to write, so nothing to lock
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
        if new == resource.current:
            continue  # a regain at full: nothing changes, so nothing to log
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
        level, pdp = system.add_progress(trait.rating, trait.progress, gained)
        Trait.objects.filter(pk=trait.pk).update(rating=level, progress=pdp)
        spec = system.trait_spec(locked.campaign, key)
        label = spec.name if spec else (trait.name or key)
        _record(locked, user, f"pdp:{key}", trait.progress, pdp)
        applied.append({"what": "pdp", "label": label, "old": trait.progress, "new": pdp})
        if level != trait.rating:
            _record(locked, user, f"trait:{key}", trait.rating, level)
            applied.append(
                {
                    "what": system.level_up_effect,
                    "label": label,
                    "old": trait.rating,
                    "new": level,
                }
            )
    details = dict(locked.details)
    if effects.specialization_used and system.specialization_once_per_scene:
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
