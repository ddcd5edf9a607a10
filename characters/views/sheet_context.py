"""What the sheet template shows: trait rows, pools, health, derived values, and the
sections its system declares (`GameSystem.sheet_sections`), in a constant number of queries;
and the answers the sheet's views share.

Used by the sheet's views (`characters.views.sheet`, `characters.views.sheet_lists`) and
by the views above characters that answer with a piece of the sheet.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.contrib import messages
from django.db.models import Prefetch
from django.db.models.query import prefetch_related_objects
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from campaigns.fragments import cached_htmls, cached_value, fragment_key, viewer
from campaigns.permissions import CharacterAccess
from characters import services
from characters.advancement import advancement_of
from characters.forms.sheet import DetailsForm
from characters.models import Resource, Trait
from characters.sheet_panels import sheet_panels_context
from mechanics.systems.base import GameSystem, PoolAction, SheetSection, TraitSpec

# Up to this maximum a rating is drawn as dots; above it (0–20 ratings) as a number.
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
    def untrained(self) -> bool:
        return self.spec.kind == "skill" and self.rating == 0

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
    # The system's actions on this pool that the viewer may take: (action, pending).
    actions: tuple[tuple[PoolAction, bool], ...] = ()

    @property
    def dots(self) -> tuple[bool, ...]:
        """Filled/empty marks for small pools with a maximum (willpower)."""
        if self.maximum is None or self.maximum > MAX_DOTS:
            return ()
        return tuple(index < self.current for index in range(self.maximum))


def _dots(spec: TraitSpec, rating: int) -> tuple[Dot, ...]:
    return _dots_of(spec.minimum, spec.maximum, rating) if spec.maximum <= MAX_DOTS else ()


# A sheet draws dots for dozens of traits of a few kinds: each row of dots (immutable) is
# worked out once per process.
@lru_cache(maxsize=1024)
def _dots_of(minimum: int, maximum: int, rating: int) -> tuple[Dot, ...]:
    dots = []
    for position in range(1, maximum + 1):
        target = position - 1 if position == rating else position
        dots.append(Dot(position, position <= rating, max(target, minimum)))
    return tuple(dots)


def _trait_rows(
    system: GameSystem, campaign, character, specialties_by_skill: Mapping[str, list[str]]
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


def pools_of(system: GameSystem, access: CharacterAccess, ratings: Mapping[str, int]) -> list[Pool]:
    character = access.character
    specs = system.resource_specs(ratings, character.details, character.campaign.rules)
    labels = {spec.key: spec.label for spec in specs}
    order = {spec.key: index for index, spec in enumerate(specs)}
    resources = sorted(character.resources.all(), key=lambda r: (order.get(r.key, 99), r.key))
    return [
        Pool(
            r.key,
            labels.get(r.key, r.key),
            r.current,
            r.maximum,
            tuple(
                (action, action.pending(character))
                for action in system.pool_actions
                if action.pool == r.key and getattr(access, action.permission)
            ),
        )
        for r in resources
    ]


def _reads(sections: tuple[SheetSection, ...]) -> set[str]:
    return {name for section in sections for name in section.reads}


def _prefetch(access: CharacterAccess, sections: tuple[SheetSection, ...]) -> None:
    # The sheet maps its traits and pools by key: no join to the character for their
    # models' ordering.
    unordered = [
        Prefetch("traits", queryset=Trait.objects.order_by()),
        Prefetch("resources", queryset=Resource.objects.order_by()),
    ]
    prefetch_related_objects([access.character], *unordered, "owner", *sorted(_reads(sections)))
    campaign = access.character.campaign
    if campaign.game_system.editable_trait_lists:
        # A campaign's own attribute and skill lists are read by the adapter.
        prefetch_related_objects([campaign], "trait_lists")


def _rights(access: CharacterAccess) -> tuple:
    """Every right the viewer has on this sheet (the grid shows controls by them)."""
    names = sorted(name for name in dir(type(access)) if name.startswith(("can_", "is_")))
    return tuple((name, getattr(access, name)) for name in names)


# The sheet's grid in three pieces, each cached under its own key (`_grid_keys`): the
# status column's top (the pools), its health, derived traits and XP ("apart"), and the
# rest of the grid. A wound or an award renders the middle piece alone.
GRID_PIECES = ("sheet_grid_head", "sheet_apart", "sheet_grid_tail")


def _grid_keys(access: CharacterAccess, sections: tuple[SheetSection, ...]) -> dict[str, str]:
    """The cache key of each piece of the sheet's grid: the versions of its character (its
    own rows, its owner's name) and of its campaign (house rules, trait lists, members),
    which the database bumps at every write (`campaigns.versions`), and the viewer with
    their rights; the language is added. The head and the tail follow the character's
    `grid_version`, which its health and XP leave (unless a section shows its health);
    the piece that shows those follows its `version`."""
    character, campaign = access.character, access.character.campaign
    who = (viewer(access.access), _rights(access), (campaign.pk, campaign.version))
    reads_health = any(section.reads_health for section in sections)
    grid = (character.pk, character.version if reads_health else character.grid_version)
    return {
        "sheet_grid_head": fragment_key("sheet-grid-head", *who, grid),
        "sheet_apart": fragment_key("sheet-apart", *who, (character.pk, character.version)),
        "sheet_grid_tail": fragment_key("sheet-grid-tail", *who, grid),
    }


def _story_key(access: CharacterAccess) -> str:
    """The cache key of the sheet's header (`#story`): the character's own row and its
    owner's name, which its grid version follows (a wound or an award leaves it), the
    campaign's version, and the viewer with their rights (the links and notes they get)."""
    character, campaign = access.character, access.character.campaign
    who = (viewer(access.access), _rights(access), (campaign.pk, campaign.version))
    return fragment_key("sheet-story", *who, (character.pk, character.grid_version))


def _apart(
    access: CharacterAccess, ratings: Mapping[str, int], items: list, context: dict
) -> dict[str, Any]:
    """What the grid's health, derived traits and XP show, with the sheet's panels."""
    character, campaign = access.character, access.character.campaign
    system = campaign.game_system
    health = system.health_view(character.health, ratings, character.details, campaign.rules)
    apart = {
        "health": health,
        "derived": system.derived(
            ratings, character.details, campaign.rules, items=items, wound_penalty=health.penalty
        ),
        "xp_balance": character.xp_balance,
        # Whether the XP page offers anything to buy (the campaign's version follows it).
        "xp_purchases": advancement_of(campaign) is not None,
    }
    return {**apart, **sheet_panels_context(access, ratings, {**context, **apart})}


def cached_ratings(character) -> dict[str, int]:
    """The character's ratings, kept under its grid version (a trait's write moves it, a
    wound or an award leaves it): the health the sheet and its poll show after a wound
    reads them without loading the traits."""
    key = fragment_key("ratings", character.pk, character.grid_version)
    return cached_value(key, lambda: services.ratings_of(character))


def _owner(character, request: HttpRequest | None) -> list[str]:
    """What the header reads for its owner's name: nothing when the reader owns the sheet
    (the request has loaded their row already), the owner's row otherwise."""
    user = getattr(request, "user", None)
    if character.owner_id is not None and user is not None and character.owner_id == user.pk:
        character.owner = user
        return []
    return ["owner"]


def section_forms(access: CharacterAccess, section: SheetSection, data=None) -> dict:
    """A section's GM forms for this sheet, bound to `data` when it is given."""
    prefetch_related_objects([access.character], "traits")
    return section.forms(access.character, services.ratings_of(access.character), data)


def live_version(access: CharacterAccess) -> str:
    """What an open sheet's live refresh sends ({% live_refresh %}): the sheet shows its
    character's rows and its campaign's (the name, house rules and options a derived trait
    or a form reads), so it is stale when either version moves, by whatever write path."""
    return f"{access.character.version}.{access.access.campaign.version}"


def sheet_context(
    access: CharacterAccess, request: HttpRequest | None = None, **extra: Any
) -> dict[str, Any]:
    """Everything the sheet template shows, in a constant number of queries.

    `extra` adds to it or replaces what it holds; a dict of forms (the equipment's, by
    kind) is merged, so one bound form stands in for its unbound twin.

    Given the `request` (the plain sheet, nothing bound or flagged in `extra`), the header
    and each piece of the grid of sections are rendered once per key (`_story_key`,
    `_grid_keys`): `<piece>` holds it when cached, `<piece>_key` says where the template
    stores it otherwise; only what the missing pieces show is loaded."""
    character, campaign = access.character, access.character.campaign
    system = campaign.game_system
    sections = system.sheet_sections
    context: dict[str, Any] = {
        "access": access,
        "character": character,
        "campaign": campaign,
        "system": system,
        "sheet_sections": sections,
        "sheet_section_templates": {section.key: section.template for section in sections},
        "full": access.can_view_full,
        "can_edit_story": access.can_edit_story,
        "can_edit_traits": access.can_edit_traits,
        "can_recover_aspects": access.can_recover_aspects,
        "live_version": live_version(access),
    }
    cached = request is not None and not extra
    if cached:
        # The header and the grid's pieces in one `get_many` (`_story_key`, `_grid_keys`).
        keys = {"sheet_story": _story_key(access)}
        if access.can_view_full:
            keys.update(_grid_keys(access, sections))
        found = cached_htmls(request, list(keys.values()))
        for piece, key in keys.items():
            if key in found:
                context[piece] = found[key]
            else:
                context[f"{piece}_key"] = key
    # Only the header shows the owner's name.
    owner = [] if "sheet_story" in context else _owner(character, request)
    if not access.can_view_full:
        prefetch_related_objects([character], *owner)
        context.update(extra)
        return context

    reads = _reads(sections)
    if cached:
        if all(piece in context for piece in GRID_PIECES):
            prefetch_related_objects([character], *owner)
            return context
        if [piece for piece in GRID_PIECES if piece not in context] == ["sheet_apart"]:
            # After a wound or an award: the head and the tail are cached.
            prefetch_related_objects([character], *owner, *(["items"] if "items" in reads else []))
            ratings = cached_ratings(character)
            items = list(character.items.all()) if "items" in reads else []
            context.update(_apart(access, ratings, items, context))
            return context
    _prefetch(access, sections)
    ratings = services.ratings_of(character)
    specialties_by_skill: dict[str, list[str]] = {}
    if "specialties" in reads:
        for specialty in character.specialties.all():
            specialties_by_skill.setdefault(specialty.skill_key, []).append(specialty.name)
    groups, rows = _trait_rows(system, campaign, character, specialties_by_skill)
    items = list(character.items.all()) if "items" in reads else []
    context.update(
        trait_sections=_trait_sections(groups),
        trait_rows=rows,
        pools=pools_of(system, access, ratings),
    )
    # The panels see what `extra` asks of them (a tool to show open, a refused form).
    context.update(_apart(access, ratings, items, {**context, **extra}))
    names = {key: row.spec.name for key, row in rows.items()}
    for section in sections:
        context.update(section.context(character, ratings, names))
    if access.can_edit_traits:
        context.setdefault(
            "details_form",
            DetailsForm(system=system, campaign=campaign, details=character.details),
        )
        for section in sections:
            # On a plain sheet (`cached`: no form refused or asked open) they are closed.
            if cached and section.closed_forms:
                continue
            for name, form in section.forms(character, ratings).items():
                context.setdefault(name, form)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(context.get(key), dict):
            context[key] = {**context[key], **value}
        else:
            context[key] = value
    return context


def sheet_context_base(access: CharacterAccess) -> dict[str, Any]:
    """The few values every piece of the sheet reads, without loading the sheet."""
    return {
        "access": access,
        "character": access.character,
        "campaign": access.character.campaign,
        "can_edit_story": access.can_edit_story,
        "can_edit_traits": access.can_edit_traits,
        "can_recover_aspects": access.can_recover_aspects,
    }


def back_to_sheet(access: CharacterAccess, anchor: str = "") -> HttpResponse:
    url = access.character.get_absolute_url()
    return redirect(f"{url}#{anchor}" if anchor else url)


def section_answer(
    request: HttpRequest,
    access: CharacterAccess,
    section: str,
    template: str,
    *,
    error: str = "",
    done: str = "",
    forms: Mapping[str, Any] | None = None,
) -> HttpResponse:
    """A sheet section's answer to one of its forms: the section again for htmx, with
    the refusal or the news (`<section>_error`, `<section>_done`) and the forms to show
    again; the sheet at the section otherwise, the same words as a message."""
    if request.htmx:
        access.character.refresh_from_db(fields=["details"])
        extra = {f"{section}_error": error, f"{section}_done": done, **(forms or {})}
        return render(request, template, sheet_context(access, **extra))
    if error:
        messages.error(request, error)
    elif done:
        messages.success(request, done)
    return back_to_sheet(access, section)


def section_form(
    request: HttpRequest, access: CharacterAccess, template: str, forms: Mapping[str, Any]
) -> HttpResponse:
    """A GET of a section's form, which the sheet loads the first time its panel is
    opened (`#gm_add_form`): the section (`template`) with the form shown, for htmx to
    pick it from; without htmx, the sheet with that panel open."""
    context = sheet_context(access, **forms, gm_open=request.path)
    return render(request, template if request.htmx else "characters/sheet.html", context)


def first_error(form) -> str:
    for errors in form.errors.values():
        return errors[0]
    return _("The form has errors.")
