"""The GM's edits of the lists a system's sheet sections keep: aspects, specialties,
merits and equipment (`GameSystem.sheet_sections`).

A list URL answers 404 for a sheet whose system does not declare its section. The form
comes from the section; htmx gets the section back, a plain request the sheet.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from campaigns.confirm import ask_first
from campaigns.permissions import CharacterAccess, character_access, require
from characters import services
from characters.forms.sheet import AspectExhaustedForm
from characters.models import Aspect, Item, Merit, Specialty
from characters.views.sheet_context import (
    back_to_sheet,
    first_error,
    section_form,
    section_forms,
    sheet_context,
    sheet_context_base,
)
from mechanics.systems.base import SheetSection

TEMPLATE = "characters/sheet.html"


def _section(access: CharacterAccess, key: str) -> SheetSection:
    """The sheet's section `key`; 404 when its system has none."""
    for section in access.character.campaign.game_system.sheet_sections:
        if section.key == key:
            return section
    raise Http404


def _gm_section(access: CharacterAccess, key: str) -> SheetSection:
    """GMs only, and only for a list this system's sheet has."""
    require(access.can_edit_traits)
    return _section(access, key)


def _section_response(
    request: HttpRequest, access: CharacterAccess, section: SheetSection, anchor: str, **extra
) -> HttpResponse:
    """After a GM's change to a list: the section for htmx, back to the sheet otherwise."""
    if request.htmx:
        return render(request, section.template, sheet_context(access, **extra))
    return back_to_sheet(access, anchor)


def _list_add(
    request: HttpRequest,
    access: CharacterAccess,
    section: SheetSection,
    form,
    save,
    *,
    anchor: str,
    success: str,
    failed_context: dict,
    error_field: str | None = None,
    **htmx_extra: Any,
) -> HttpResponse:
    """A GM adds to one of the sheet's lists: validate, call the service, and answer
    with the section (htmx) or the sheet; a refused form comes back with what was typed."""
    if form.is_valid():
        try:
            save(form.cleaned_data)
        except ValidationError as exc:
            form.add_error(error_field, exc)
    if form.is_valid():
        if not request.htmx:
            messages.success(request, success)
        return _section_response(request, access, section, anchor, **htmx_extra)
    if request.htmx:
        context = sheet_context(access, **failed_context, **htmx_extra)
        return render(request, section.template, context)
    return render(request, TEMPLATE, sheet_context(access, **failed_context))


def _list_form(
    request: HttpRequest, access: CharacterAccess, section: SheetSection
) -> HttpResponse:
    return section_form(request, access, section.template, section_forms(access, section))


def _list_remove(
    request: HttpRequest,
    campaign_id: int,
    character_id: int,
    *,
    model,
    pk: int,
    section_key: str,
    remove,
    anchor: str,
    **htmx_extra: Any,
) -> HttpResponse:
    """A GM removes one row of the sheet's lists."""
    access = character_access(request.user, campaign_id, character_id)
    section = _gm_section(access, section_key)
    row = get_object_or_404(model, pk=pk, character=access.character)
    row.character = access.character
    names = {"name": getattr(row, "name", "") or str(row), "character": access.character.name}
    if asking := ask_first(
        request,
        question=_("Remove %(name)s from the sheet of %(character)s?") % names,
        button=_("Remove it"),
        cancel_url=f"{access.character.get_absolute_url()}#{anchor}",
    ):
        return asking
    remove(row, request.user)
    return _section_response(request, access, section, anchor, **htmx_extra)


# Aspects


@login_required
@require_POST
def aspect_exhausted(
    request: HttpRequest, campaign_id: int, character_id: int, aspect_id: int
) -> HttpResponse:
    """The owner (or a GM) marks an aspect as exhausted; only a GM makes it available
    again (docs/rules.md#hitos-sessions)."""
    access = character_access(request.user, campaign_id, character_id)
    require(access.can_edit_story)
    section = _section(access, "aspects")
    aspect = get_object_or_404(Aspect, pk=aspect_id, character=access.character)
    form = AspectExhaustedForm(request.POST)
    if form.is_valid():
        require(form.cleaned_data["exhausted"] or access.can_recover_aspects)
        aspect.character = access.character
        services.aspect_set_exhausted(
            aspect=aspect, user=request.user, exhausted=form.cleaned_data["exhausted"]
        )
    if request.htmx:
        context = {**sheet_context_base(access), **section.row_context(aspect)}
        return render(request, f"{section.template}#aspect", context)
    if not form.is_valid():
        messages.error(request, first_error(form))
    return back_to_sheet(access, f"aspect-{aspect.pk}")


@login_required
@require_http_methods(["GET", "POST"])
def aspect_add(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    access = character_access(request.user, campaign_id, character_id)
    section = _gm_section(access, "aspects")
    if request.method == "GET":
        return _list_form(request, access, section)
    form = section_forms(access, section, request.POST)["aspect_form"]
    return _list_add(
        request,
        access,
        section,
        form,
        lambda data: services.aspect_add(character=access.character, user=request.user, **data),
        anchor="sheet-aspects",
        success=_("Aspect added."),
        failed_context={"aspect_form": form},
    )


@login_required
@require_POST
def aspect_remove(
    request: HttpRequest, campaign_id: int, character_id: int, aspect_id: int
) -> HttpResponse:
    return _list_remove(
        request,
        campaign_id,
        character_id,
        model=Aspect,
        pk=aspect_id,
        section_key="aspects",
        remove=lambda aspect, user: services.aspect_remove(aspect=aspect, user=user),
        anchor="sheet-aspects",
    )


# Specialties


@login_required
@require_http_methods(["GET", "POST"])
def specialty_add(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    access = character_access(request.user, campaign_id, character_id)
    section = _gm_section(access, "specialties")
    if request.method == "GET":
        return _list_form(request, access, section)
    form = section_forms(access, section, request.POST)["specialty_form"]
    return _list_add(
        request,
        access,
        section,
        form,
        lambda data: services.specialty_add(
            character=access.character,
            user=request.user,
            skill_key=data["skill_key"],
            name=data["name"],
        ),
        anchor="specialties",
        success=_("Specialty added."),
        failed_context={"specialty_form": form},
        error_field="skill_key",
    )


@login_required
@require_POST
def specialty_remove(
    request: HttpRequest, campaign_id: int, character_id: int, specialty_id: int
) -> HttpResponse:
    return _list_remove(
        request,
        campaign_id,
        character_id,
        model=Specialty,
        pk=specialty_id,
        section_key="specialties",
        remove=lambda specialty, user: services.specialty_remove(specialty=specialty, user=user),
        anchor="specialties",
    )


# Merits


@login_required
@require_http_methods(["GET", "POST"])
def merit_set(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """Add a merit or change its dots (a merit with the same name is updated)."""
    access = character_access(request.user, campaign_id, character_id)
    section = _gm_section(access, "merits")
    if request.method == "GET":
        return _list_form(request, access, section)
    form = section_forms(access, section, request.POST)["merit_form"]
    return _list_add(
        request,
        access,
        section,
        form,
        lambda data: services.merit_set(
            character=access.character,
            user=request.user,
            key=data["key"],
            name=data["name"],
            rating=data["rating"],
            notes=data["notes"],
        ),
        anchor="merits",
        success=_("Merit saved."),
        failed_context={"merit_form": form},
        error_field="rating",
    )


@login_required
@require_POST
def merit_remove(
    request: HttpRequest, campaign_id: int, character_id: int, merit_id: int
) -> HttpResponse:
    return _list_remove(
        request,
        campaign_id,
        character_id,
        model=Merit,
        pk=merit_id,
        section_key="merits",
        remove=lambda merit, user: services.merit_remove(merit=merit, user=user),
        anchor="merits",
    )


# Equipment


@login_required
@require_POST
def item_add(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """Equipment of the kind the form names (its stats in Item.data)."""
    access = character_access(request.user, campaign_id, character_id)
    section = _gm_section(access, "equipment")
    forms = section_forms(access, section, request.POST)["item_forms"]
    form = forms.get(request.POST.get("kind", ""))
    if form is None:
        raise Http404
    return _list_add(
        request,
        access,
        section,
        form,
        lambda data: services.item_add(
            character=access.character,
            user=request.user,
            kind=form.kind,
            name=data["name"],
            weight_kg=data["weight_kg"],
            data=data["data"],
        ),
        anchor="equipment",
        success=_("Equipment added."),
        failed_context={"item_forms": {form.kind: form}},
        derived_oob=True,
    )


@login_required
@require_POST
def item_remove(
    request: HttpRequest, campaign_id: int, character_id: int, item_id: int
) -> HttpResponse:
    return _list_remove(
        request,
        campaign_id,
        character_id,
        model=Item,
        pk=item_id,
        section_key="equipment",
        remove=lambda item, user: services.item_remove(item=item, user=user),
        anchor="equipment",
        derived_oob=True,
    )


urlpatterns = [
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
