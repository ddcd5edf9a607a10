"""The character sheet page and its inline edits.

One URL per action: an htmx request gets the piece of `characters/sheet.html` it
changes, a plain request a redirect (POST/redirect/GET) or the whole page with the
form and its errors. Every view asks `campaigns.permissions` first; writes go through
`characters.services`; what the rules say comes from the system adapter.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models.query import prefetch_related_objects
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from campaigns.permissions import CharacterAccess, character_access, require
from characters import services
from characters.forms_sheet import (
    ITEM_FORMS,
    AspectExhaustedForm,
    AspectForm,
    DetailsForm,
    MeritForm,
    PoolAdjustForm,
    SpecialtyForm,
    StoryForm,
    TraitRatingForm,
)
from characters.health_panel import health_context
from characters.models import Aspect, Item, Merit, Resource, Specialty
from characters.systems import SheetSystem, TraitSpec, get_system
from mechanics.rules.errors import RuleError
from mechanics.rules.hitos import catalogue as hitos_catalogue
from mechanics.rules.ndp import catalogue as ndp_catalogue
from mechanics.rules.ndp import equipment
from mechanics.rules.tinieblas import catalogue as tinieblas_catalogue

TEMPLATE = "characters/sheet.html"

# What each system's sheet has beyond traits, pools, health and derived values.
SECTIONS: dict[str, frozenset[str]] = {
    "tinieblas": frozenset({"virtue_vice", "specialties", "merits"}),
    "hitos": frozenset({"aspects"}),
    "ndp": frozenset({"equipment"}),
    "objetivo": frozenset({"specialization"}),
}
# Related rows each section reads, prefetched in one query each.
SECTION_PREFETCHES: dict[str, str] = {
    "specialties": "specialties",
    "merits": "merits",
    "aspects": "aspects",
    "equipment": "items",
}
# Up to this maximum a rating is drawn as dots; above it (NdP 0–20) as a number.
MAX_DOTS = 10


@dataclass(frozen=True)
class Dot:
    position: int
    filled: bool
    # The rating a GM sets by clicking this dot: its position, or one less when it is
    # the last filled dot (so a click can also take a dot away).
    target: int


@dataclass(frozen=True)
class TraitRow:
    spec: TraitSpec
    rating: int
    progress: int
    label: str
    dots: tuple[Dot, ...] = ()
    specialties: tuple[str, ...] = ()
    is_specialization: bool = False

    @property
    def as_dots(self) -> bool:
        return bool(self.dots)

    @property
    def can_lower(self) -> bool:
        return self.rating > self.spec.minimum

    @property
    def can_raise(self) -> bool:
        return self.rating < self.spec.maximum


@dataclass(frozen=True)
class Pool:
    key: str
    label: str
    current: int
    maximum: int | None

    @property
    def dots(self) -> tuple[bool, ...]:
        """Filled/empty marks for small pools with a maximum (willpower)."""
        if self.maximum is None or self.maximum > MAX_DOTS:
            return ()
        return tuple(index < self.current for index in range(self.maximum))


@dataclass
class Equipment:
    items: list[Item] = field(default_factory=list)
    armour: list[tuple[str, list[dict]]] = field(default_factory=list)
    unarmoured: list[str] = field(default_factory=list)
    weapons: list[dict] = field(default_factory=list)
    shields: list[dict] = field(default_factory=list)
    total_kg: float = 0.0
    load: equipment.LoadState | None = None


# Building the sheet


def _dots(spec: TraitSpec, rating: int) -> tuple[Dot, ...]:
    if spec.maximum > MAX_DOTS:
        return ()
    dots = []
    for position in range(1, spec.maximum + 1):
        target = position - 1 if position == rating else position
        dots.append(Dot(position, position <= rating, max(target, spec.minimum)))
    return tuple(dots)


def _trait_rows(
    system: SheetSystem, campaign, character, specialties_by_skill: Mapping[str, list[str]]
) -> tuple[list[tuple[str, list[TraitRow]]], dict[str, TraitRow]]:
    stored = {trait.key: trait for trait in character.traits.all()}
    specialization = character.details.get("specialization")
    groups, by_key = [], {}
    for label, specs in system.trait_groups(campaign):
        rows = []
        for spec in specs:
            trait = stored.get(spec.key)
            rating = trait.rating if trait else spec.minimum
            row = TraitRow(
                spec=spec,
                rating=rating,
                progress=trait.progress if trait else 0,
                label=system.rating_label(spec, rating) if rating else "",
                dots=_dots(spec, rating),
                specialties=tuple(specialties_by_skill.get(spec.key, ())),
                is_specialization=spec.key == specialization,
            )
            rows.append(row)
            by_key[spec.key] = row
        groups.append((label, rows))
    return groups, by_key


def _trait_sections(
    groups: list[tuple[str, list[TraitRow]]],
) -> list[tuple[str, list[tuple[str, list[TraitRow]]]]]:
    """Groups labelled "Atributos · Mentales" gather under one "Atributos" heading, so
    attributes and skills each get their own row of columns; plain groups share one."""
    sections: list[tuple[str, list[tuple[str, list[TraitRow]]]]] = []
    for label, rows in groups:
        section, _sep, sub = label.partition(" · ")
        heading, shown = (section, sub) if sub else ("", label)
        if sections and sections[-1][0] == heading:
            sections[-1][1].append((shown, rows))
        else:
            sections.append((heading, [(shown, rows)]))
    return sections


def _pools(system: SheetSystem, character, ratings: Mapping[str, int]) -> list[Pool]:
    specs = system.resource_specs(ratings, character.details, character.campaign.rules)
    labels = {spec.key: spec.label for spec in specs}
    order = {spec.key: index for index, spec in enumerate(specs)}
    resources = sorted(character.resources.all(), key=lambda r: (order.get(r.key, 99), r.key))
    return [Pool(r.key, labels.get(r.key, r.key), r.current, r.maximum) for r in resources]


def _moral_trait(lookup, key: str | None):
    """A Virtue or Vice from the catalogue, or None when unset or unknown."""
    if not key:
        return None
    try:
        return lookup(key)
    except RuleError:
        return None


def _merit_rows(character) -> list[dict]:
    rows = []
    for merit in character.merits.all():
        definition = tinieblas_catalogue.find_merit(merit.key) if merit.key else None
        ratings = definition.ratings if definition else tinieblas_catalogue.CUSTOM_MERIT_RATINGS
        top = max(ratings[-1], merit.rating)
        rows.append(
            {
                "merit": merit,
                "ratings_text": tinieblas_catalogue.format_ratings(ratings),
                "dots": tuple(index < merit.rating for index in range(top)),
                "description": definition.description if definition else "",
                "custom": definition is None,
            }
        )
    return rows


def _aspects(character) -> list[tuple[str, Aspect]]:
    """(kind name, aspect) in the sheet's order: Concepto, Cita, Hitos, Complicación,
    free and temporary aspects."""
    kinds = {k.key: (index, k.name) for index, k in enumerate(hitos_catalogue.ASPECT_KINDS)}
    aspects = sorted(
        character.aspects.all(),
        key=lambda a: (kinds.get(a.kind, (len(kinds), ""))[0], a.position, a.pk),
    )
    return [(kinds.get(aspect.kind, (0, aspect.kind))[1], aspect) for aspect in aspects]


def _engine_item(item: Item, kind):
    try:
        return kind.from_dict({"name": item.name, "weight_kg": float(item.weight_kg), **item.data})
    except (RuleError, TypeError, KeyError):
        return None


def _equipment(character, ratings: Mapping[str, int]) -> Equipment:
    result = Equipment()
    armour_by_part: dict[str, list[dict]] = {part.key: [] for part in ndp_catalogue.BODY_PARTS}
    for item in character.items.all():
        result.total_kg += float(item.weight_kg)
        if item.kind == Item.Kind.ARMOUR:
            piece = _engine_item(item, equipment.ArmourPiece)
            part = piece.part if piece else item.data.get("part", "")
            armour_by_part.setdefault(part, []).append({"item": item, "piece": piece})
        elif item.kind == Item.Kind.WEAPON:
            weapon = _engine_item(item, equipment.Weapon)
            skill = ndp_catalogue.SKILLS_BY_KEY.get(weapon.skill) if weapon else None
            damage_types = {t.key: t.name for t in ndp_catalogue.DAMAGE_TYPES}
            damage = damage_types.get(weapon.damage_type, "") if weapon else ""
            result.weapons.append(
                {
                    "item": item,
                    "weapon": weapon,
                    "skill": skill.name if skill else "",
                    "damage_type": damage,
                }
            )
        elif item.kind == Item.Kind.SHIELD:
            result.shields.append({"item": item, "shield": _engine_item(item, equipment.Shield)})
        else:
            result.items.append(item)
    names = {part.key: part.name for part in ndp_catalogue.BODY_PARTS}
    result.armour = [
        (names.get(part, part), pieces) for part, pieces in armour_by_part.items() if pieces
    ]
    result.unarmoured = [names[part] for part, pieces in armour_by_part.items() if not pieces]
    result.load = equipment.load_state(result.total_kg, ratings.get("fortitud", 0))
    return result


def _prefetch(access: CharacterAccess, sections: frozenset[str]) -> None:
    character = access.character
    lookups = ["traits", "resources", "owner"]
    lookups += [SECTION_PREFETCHES[name] for name in sections if name in SECTION_PREFETCHES]
    prefetch_related_objects([character], *lookups)
    # Campaign attribute and skill lists (Dado objetivo) are read by the adapter.
    prefetch_related_objects([access.character.campaign], "trait_lists")


def sheet_context(access: CharacterAccess, **extra: Any) -> dict[str, Any]:
    """Everything the sheet template shows, in a constant number of queries."""
    character, campaign = access.character, access.character.campaign
    system = get_system(campaign.system)
    sections = SECTIONS.get(system.key, frozenset())
    context: dict[str, Any] = {
        "access": access,
        "character": character,
        "campaign": campaign,
        "system": system,
        "sections": sections,
        "full": access.can_view_full,
        "can_edit_story": access.can_edit_story,
        "can_edit_traits": access.can_edit_traits,
    }
    if not access.can_view_full:
        prefetch_related_objects([character], "owner")
        context.update(extra)
        return context

    _prefetch(access, sections)
    rules = campaign.rules
    ratings = services.ratings_of(character)
    specialties_by_skill: dict[str, list[str]] = {}
    if "specialties" in sections:
        for specialty in character.specialties.all():
            specialties_by_skill.setdefault(specialty.skill_key, []).append(specialty.name)
    groups, rows = _trait_rows(system, campaign, character, specialties_by_skill)
    items = list(character.items.all()) if "equipment" in sections else []
    context.update(
        trait_sections=_trait_sections(groups),
        trait_rows=rows,
        pools=_pools(system, character, ratings),
        health=system.health_view(character.health, ratings, character.details, rules),
        derived=system.derived(ratings, character.details, rules, items=items),
        xp_balance=character.xp_balance,
    )
    context.update(health_context(access, ratings=ratings, health=context["health"]))
    if "virtue_vice" in sections:
        details = character.details
        context["virtue_vice"] = [
            ("Virtud", _moral_trait(tinieblas_catalogue.virtue, details.get("virtue"))),
            ("Vicio", _moral_trait(tinieblas_catalogue.vice, details.get("vice"))),
        ]
    if "specialties" in sections:
        context["specialties"] = [
            (specialty, rows[specialty.skill_key].spec.name if specialty.skill_key in rows else "")
            for specialty in character.specialties.all()
        ]
    if "merits" in sections:
        context["merits"] = _merit_rows(character)
    if "aspects" in sections:
        context["aspects"] = _aspects(character)
    if "equipment" in sections:
        context["equipment"] = _equipment(character, ratings)
    if "specialization" in sections:
        key = character.details.get("specialization")
        context["specialization"] = rows[key].spec.name if key in rows else None
    if access.can_edit_traits:
        context.setdefault(
            "details_form",
            DetailsForm(system=system, campaign=campaign, details=character.details),
        )
        skills = [row.spec for _label, group in groups for row in group if row.spec.kind == "skill"]
        context.setdefault("specialty_form", SpecialtyForm(skills=skills, ratings=ratings))
        context.setdefault("merit_form", MeritForm(system=system))
        context.setdefault("aspect_form", AspectForm())
        context.setdefault(
            "item_forms", {kind: form(system=system) for kind, form in ITEM_FORMS.items()}
        )
    for key, value in extra.items():
        if key == "item_forms":
            context["item_forms"] = {**context.get("item_forms", {}), **value}
        else:
            context[key] = value
    return context


# Views


def sheet_context_base(access: CharacterAccess) -> dict[str, Any]:
    """The few values every piece of the sheet reads, without loading the sheet."""
    return {
        "access": access,
        "character": access.character,
        "campaign": access.character.campaign,
        "can_edit_story": access.can_edit_story,
        "can_edit_traits": access.can_edit_traits,
    }


def _render(request: HttpRequest, partial: str, context: dict) -> HttpResponse:
    """The partial for htmx, the whole page otherwise."""
    template = f"{TEMPLATE}#{partial}" if request.htmx else TEMPLATE
    return render(request, template, context)


def _back_to(access: CharacterAccess, anchor: str = "") -> HttpResponse:
    url = access.character.get_absolute_url()
    return redirect(f"{url}#{anchor}" if anchor else url)


def _first_error(form) -> str:
    for errors in form.errors.values():
        return errors[0]
    return _("The form has errors.")


@login_required
@require_GET
@vary_on_headers("HX-Request")
def sheet(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    access = character_access(request.user, campaign_id, character_id)
    return _render(request, "sheet", sheet_context(access))


@login_required
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def story_edit(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """Name, concept, description and notes: the owner's and the GMs' to write."""
    access = character_access(request.user, campaign_id, character_id)
    require(access.can_edit_story)
    character = access.character
    form = StoryForm.for_character(character, request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        updated = services.character_update(
            character=character, user=request.user, **form.cleaned_data
        )
        for name in form.cleaned_data:
            setattr(character, name, getattr(updated, name))
        if request.htmx:
            return render(request, f"{TEMPLATE}#story", sheet_context(access))
        messages.success(request, _("Sheet saved."))
        return _back_to(access)
    return _render(request, "story_form", sheet_context(access, story_form=form))


@login_required
@require_POST
@vary_on_headers("HX-Request")
def pool_adjust(
    request: HttpRequest, campaign_id: int, character_id: int, key: str
) -> HttpResponse:
    """+/− on a resource pool (willpower, drama or destiny points, Prana, faith)."""
    access = character_access(request.user, campaign_id, character_id)
    require(access.can_edit_story)
    if not Resource.objects.filter(character=access.character, key=key).exists():
        raise Http404
    form = PoolAdjustForm(request.POST)
    error = None
    if not form.is_valid():
        error = _first_error(form)
    else:
        try:
            services.resource_adjust(
                character=access.character,
                user=request.user,
                key=key,
                delta=form.cleaned_data["delta"],
            )
        except ValidationError as exc:
            error = exc.messages[0]
    if request.htmx:
        system = get_system(access.character.campaign.system)
        prefetch_related_objects([access.character], "traits", "resources")
        pools = _pools(system, access.character, services.ratings_of(access.character))
        pool = next(pool for pool in pools if pool.key == key)
        context = {**sheet_context_base(access), "pool": pool, "pool_error": error}
        return render(request, f"{TEMPLATE}#pool", context)
    if error:
        messages.error(request, error)
    return _back_to(access, f"pool-{key}")


@login_required
@require_POST
@vary_on_headers("HX-Request")
def trait_set(request: HttpRequest, campaign_id: int, character_id: int, key: str) -> HttpResponse:
    """A GM sets a rating (a click on a dot, or −/+ for numbers)."""
    access = character_access(request.user, campaign_id, character_id)
    require(access.can_edit_traits)
    system = get_system(access.character.campaign.system)
    prefetch_related_objects([access.character.campaign], "trait_lists")
    if system.trait_spec(access.character.campaign, key) is None:
        raise Http404
    form = TraitRatingForm(request.POST)
    error = None
    if not form.is_valid():
        error = _first_error(form)
    else:
        try:
            services.trait_set(
                character=access.character,
                user=request.user,
                key=key,
                rating=form.cleaned_data["rating"],
            )
        except ValidationError as exc:
            error = exc.messages[0]
    if request.htmx:
        context = sheet_context(access, trait_error=error, oob=True)
        context["trait"] = context["trait_rows"][key]
        return render(request, f"{TEMPLATE}#trait_response", context)
    if error:
        messages.error(request, error)
    return _back_to(access, f"trait-{key}")


@login_required
@require_POST
@vary_on_headers("HX-Request")
def details_set(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """A GM changes Virtue, Vice and Tamaño, or the specialization; the sheet follows."""
    access = character_access(request.user, campaign_id, character_id)
    require(access.can_edit_traits)
    campaign = access.character.campaign
    prefetch_related_objects([campaign], "trait_lists")
    form = DetailsForm(
        request.POST,
        system=get_system(campaign.system),
        campaign=campaign,
        details=access.character.details,
    )
    if not form.has_fields:
        raise Http404
    if form.is_valid():
        try:
            updated = services.character_set_details(
                character=access.character, user=request.user, values=form.cleaned_data
            )
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            access.character.details = updated.details
            if not request.htmx:
                messages.success(request, _("Sheet saved."))
                return _back_to(access)
            return render(request, f"{TEMPLATE}#sheet", sheet_context(access))
    return _render(request, "sheet", sheet_context(access, details_form=form))


@login_required
@require_POST
@vary_on_headers("HX-Request")
def aspect_exhausted(
    request: HttpRequest, campaign_id: int, character_id: int, aspect_id: int
) -> HttpResponse:
    """The owner (or a GM) marks an aspect as exhausted, or available again."""
    access = character_access(request.user, campaign_id, character_id)
    require(access.can_edit_story)
    aspect = get_object_or_404(Aspect, pk=aspect_id, character=access.character)
    form = AspectExhaustedForm(request.POST)
    if form.is_valid():
        aspect.character = access.character
        services.aspect_set_exhausted(
            aspect=aspect, user=request.user, exhausted=form.cleaned_data["exhausted"]
        )
    if request.htmx:
        kinds = {kind.key: kind.name for kind in hitos_catalogue.ASPECT_KINDS}
        context = {
            **sheet_context_base(access),
            "aspect": aspect,
            "kind_name": kinds.get(aspect.kind, aspect.kind),
        }
        return render(request, f"{TEMPLATE}#aspect", context)
    if not form.is_valid():
        messages.error(request, _first_error(form))
    return _back_to(access, f"aspect-{aspect.pk}")


def _gm_section(access: CharacterAccess, section: str) -> None:
    """GMs only, and only for a list this system's sheet has."""
    require(access.can_edit_traits)
    if section not in SECTIONS.get(access.character.campaign.system, ()):
        raise Http404


def _section_response(
    request: HttpRequest, access: CharacterAccess, partial: str, anchor: str, **extra: Any
) -> HttpResponse:
    """After a GM's change to a list: the list for htmx, back to the sheet otherwise."""
    if request.htmx:
        return render(request, f"{TEMPLATE}#{partial}", sheet_context(access, **extra))
    return _back_to(access, anchor)


def _list_add(
    request: HttpRequest,
    access: CharacterAccess,
    form,
    save,
    *,
    partial: str,
    anchor: str,
    success: str,
    failed_context: dict,
    error_field: str | None = None,
    **htmx_extra: Any,
) -> HttpResponse:
    """A GM adds to one of the sheet's lists: validate, call the service, and answer
    with the list (htmx) or the sheet; a refused form comes back with what was typed."""
    if form.is_valid():
        try:
            save(form.cleaned_data)
        except ValidationError as exc:
            form.add_error(error_field, exc)
    if form.is_valid():
        if not request.htmx:
            messages.success(request, success)
        return _section_response(request, access, partial, anchor, **htmx_extra)
    if request.htmx:
        context = sheet_context(access, **failed_context, **htmx_extra)
        return render(request, f"{TEMPLATE}#{partial}", context)
    return render(request, TEMPLATE, sheet_context(access, **failed_context))


def _list_remove(
    request: HttpRequest,
    campaign_id: int,
    character_id: int,
    *,
    model,
    pk: int,
    section: str,
    remove,
    partial: str,
    anchor: str,
    **htmx_extra: Any,
) -> HttpResponse:
    """A GM removes one row of the sheet's lists."""
    access = character_access(request.user, campaign_id, character_id)
    _gm_section(access, section)
    row = get_object_or_404(model, pk=pk, character=access.character)
    row.character = access.character
    remove(row, request.user)
    return _section_response(request, access, partial, anchor, **htmx_extra)


@login_required
@require_POST
@vary_on_headers("HX-Request")
def aspect_add(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    access = character_access(request.user, campaign_id, character_id)
    _gm_section(access, "aspects")
    form = AspectForm(request.POST)
    return _list_add(
        request,
        access,
        form,
        lambda data: services.aspect_add(character=access.character, user=request.user, **data),
        partial="aspects",
        anchor="sheet-aspects",
        success=_("Aspect added."),
        failed_context={"aspect_form": form},
    )


@login_required
@require_POST
@vary_on_headers("HX-Request")
def aspect_remove(
    request: HttpRequest, campaign_id: int, character_id: int, aspect_id: int
) -> HttpResponse:
    return _list_remove(
        request,
        campaign_id,
        character_id,
        model=Aspect,
        pk=aspect_id,
        section="aspects",
        remove=lambda aspect, user: services.aspect_remove(aspect=aspect, user=user),
        partial="aspects",
        anchor="sheet-aspects",
    )


@login_required
@require_POST
@vary_on_headers("HX-Request")
def specialty_add(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    access = character_access(request.user, campaign_id, character_id)
    _gm_section(access, "specialties")
    system = get_system(access.character.campaign.system)
    skills = [
        spec for spec in system.trait_specs(access.character.campaign) if spec.kind == "skill"
    ]
    prefetch_related_objects([access.character], "traits")
    form = SpecialtyForm(request.POST, skills=skills, ratings=services.ratings_of(access.character))
    return _list_add(
        request,
        access,
        form,
        lambda data: services.specialty_add(
            character=access.character,
            user=request.user,
            skill_key=data["skill_key"],
            name=data["name"],
        ),
        partial="specialties",
        anchor="specialties",
        success=_("Specialty added."),
        failed_context={"specialty_form": form},
        error_field="skill_key",
    )


@login_required
@require_POST
@vary_on_headers("HX-Request")
def specialty_remove(
    request: HttpRequest, campaign_id: int, character_id: int, specialty_id: int
) -> HttpResponse:
    return _list_remove(
        request,
        campaign_id,
        character_id,
        model=Specialty,
        pk=specialty_id,
        section="specialties",
        remove=lambda specialty, user: services.specialty_remove(specialty=specialty, user=user),
        partial="specialties",
        anchor="specialties",
    )


@login_required
@require_POST
@vary_on_headers("HX-Request")
def merit_set(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """Add a merit or change its dots (a merit with the same name is updated)."""
    access = character_access(request.user, campaign_id, character_id)
    _gm_section(access, "merits")
    form = MeritForm(request.POST, system=get_system(access.character.campaign.system))
    return _list_add(
        request,
        access,
        form,
        lambda data: services.merit_set(
            character=access.character,
            user=request.user,
            key=data["key"],
            name=data["name"],
            rating=data["rating"],
            notes=data["notes"],
        ),
        partial="merits",
        anchor="merits",
        success=_("Merit saved."),
        failed_context={"merit_form": form},
        error_field="rating",
    )


@login_required
@require_POST
@vary_on_headers("HX-Request")
def merit_remove(
    request: HttpRequest, campaign_id: int, character_id: int, merit_id: int
) -> HttpResponse:
    return _list_remove(
        request,
        campaign_id,
        character_id,
        model=Merit,
        pk=merit_id,
        section="merits",
        remove=lambda merit, user: services.merit_remove(merit=merit, user=user),
        partial="merits",
        anchor="merits",
    )


@login_required
@require_POST
@vary_on_headers("HX-Request")
def item_add(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """Equipment: a plain item, an armour piece, a weapon or a shield (stats in Item.data)."""
    access = character_access(request.user, campaign_id, character_id)
    _gm_section(access, "equipment")
    form_class = ITEM_FORMS.get(request.POST.get("kind", ""))
    if form_class is None:
        raise Http404
    form = form_class(request.POST, system=get_system(access.character.campaign.system))
    return _list_add(
        request,
        access,
        form,
        lambda data: services.item_add(
            character=access.character,
            user=request.user,
            kind=form.kind,
            name=data["name"],
            weight_kg=data["weight_kg"],
            data=data["data"],
        ),
        partial="equipment",
        anchor="equipment",
        success=_("Equipment added."),
        failed_context={"item_forms": {form.kind: form}},
        derived_oob=True,
    )


@login_required
@require_POST
@vary_on_headers("HX-Request")
def item_remove(
    request: HttpRequest, campaign_id: int, character_id: int, item_id: int
) -> HttpResponse:
    return _list_remove(
        request,
        campaign_id,
        character_id,
        model=Item,
        pk=item_id,
        section="equipment",
        remove=lambda item, user: services.item_remove(item=item, user=user),
        partial="equipment",
        anchor="equipment",
        derived_oob=True,
    )


urlpatterns = [
    path("<id:character_id>/", sheet, name="sheet"),
    path("<id:character_id>/edit/", story_edit, name="edit"),
    path("<id:character_id>/details/", details_set, name="details_set"),
    path("<id:character_id>/pools/<slug:key>/", pool_adjust, name="pool_adjust"),
    path("<id:character_id>/traits/<slug:key>/", trait_set, name="trait_set"),
    path(
        "<id:character_id>/aspects/<id:aspect_id>/exhausted/",
        aspect_exhausted,
        name="aspect_exhausted",
    ),
    path("<id:character_id>/aspects/", aspect_add, name="aspect_add"),
    path(
        "<id:character_id>/aspects/<id:aspect_id>/remove/",
        aspect_remove,
        name="aspect_remove",
    ),
    path("<id:character_id>/specialties/", specialty_add, name="specialty_add"),
    path(
        "<id:character_id>/specialties/<id:specialty_id>/remove/",
        specialty_remove,
        name="specialty_remove",
    ),
    path("<id:character_id>/merits/", merit_set, name="merit_set"),
    path("<id:character_id>/merits/<id:merit_id>/remove/", merit_remove, name="merit_remove"),
    path("<id:character_id>/items/", item_add, name="item_add"),
    path("<id:character_id>/items/<id:item_id>/remove/", item_remove, name="item_remove"),
]
