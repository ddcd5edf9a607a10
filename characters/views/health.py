"""The health section of a sheet: damage, time passing, treatments, undo, and the poll
that keeps an open sheet up to date.

One URL per action. An htmx POST gets the health section back (`characters/health.html#
health`) and an HX-Trigger `cronica:health`, which the sheet's roll panel listens to so
its odds follow the new wound penalty; a plain POST is redirected to the sheet
(POST/redirect/GET), or shown the sheet again with the form and its errors. Every view
asks `campaigns.permissions` first; writes go through `characters.services`.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models.query import prefetch_related_objects
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import trigger_client_event

from campaigns.permissions import CharacterAccess, character_access, require
from characters import services
from characters.forms_health import (
    AuxiliarForm,
    DamageForm,
    DrugForm,
    FirstAidForm,
    SupervisionForm,
    TimeForm,
    UnconsciousForm,
    UndoForm,
)
from characters.health_panel import (
    HEALTH_EVENT,
    event_rows,
    events_of,
    health_context,
    health_version,
    latest_event_id,
    undo_target_id,
)
from characters.models import HealthEvent
from characters.systems import get_system
from characters.systems.base import hours_in_words
from characters.views.sheet import sheet_context
from mechanics.services import active_scene

TEMPLATE = "characters/health.html"
SHEET = "characters/sheet.html"
HISTORY_PAGE_SIZE = 25


def _panel_context(access: CharacterAccess, **extra: Any) -> dict[str, Any]:
    """The health section's context without the rest of the sheet."""
    character = access.character
    lookups = ["traits", "items"] if character.campaign.system == "ndp" else ["traits"]
    prefetch_related_objects([character], *lookups)
    ratings = services.ratings_of(character)
    return {
        "access": access,
        "character": character,
        "campaign": character.campaign,
        "system": get_system(character.campaign.system),
        **health_context(access, ratings=ratings, **extra),
    }


def _sheet_url(access: CharacterAccess) -> str:
    return f"{access.character.get_absolute_url()}#sheet-health"


def _answer(
    request: HttpRequest,
    access: CharacterAccess,
    *,
    opened: str,
    done: str | None,
    error: str | None = None,
    bound: dict[str, Any] | None = None,
) -> HttpResponse:
    """After a health action: the section for htmx (with the panel `opened` kept open),
    the sheet otherwise. `done` is the success message; None when nothing changed."""
    bound = bound or {}
    if request.htmx:
        access.character.refresh_from_db(fields=["health"])
        context = _panel_context(
            access, health_open=opened, health_notice=done, health_error=error, **bound
        )
        response = render(request, f"{TEMPLATE}#health", context)
        if done:
            trigger_client_event(response, HEALTH_EVENT, {"character": access.character.pk})
        patch_vary_headers(response, ("HX-Request",))
        return response
    if done:
        messages.success(request, done)
        return redirect(_sheet_url(access))
    if error and not bound:
        messages.error(request, error)
        return redirect(_sheet_url(access))
    context = sheet_context(access, health_open=opened, health_error=error, **bound)
    response = render(request, SHEET, context)
    patch_vary_headers(response, ("HX-Request",))
    return response


def _scene(access: CharacterAccess):
    """The open scene the character is in, so the event shows in its timeline."""
    return active_scene(campaign=access.character.campaign, character=access.character)


def _run(form, write) -> bool:
    """Call the service when the form is valid; its refusal becomes a form error."""
    if not form.is_valid():
        return False
    try:
        write(form.cleaned_data)
    except ValidationError as error:
        form.add_error(None, error)
        return False
    return True


def _system_only(access: CharacterAccess, system: str) -> None:
    if access.character.campaign.system != system:
        raise Http404


# --- Reading -------------------------------------------------------------------------------


@login_required
@require_GET
def health(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """The live part of the health section, polled by htmx every 3 seconds.

    A poll carries `since`, the version it shows: unchanged, the answer is 204 No Content
    after a handful of small queries (If-None-Match gets 304 the same way). Changed, it
    is the new state and events, with HX-Trigger `cronica:health` so the roll panel
    refreshes its odds. A plain request is sent to the sheet.
    """
    access = character_access(request.user, campaign_id, character_id)
    require(access.can_view_full)
    if not request.htmx:
        return redirect(_sheet_url(access))
    version = health_version(access.character, latest_event_id(access.character))
    etag = f'"health-{access.character.pk}-{version}-{get_language() or ""}"'
    since = request.GET.get("since")
    if since == version:
        return _poll_headers(HttpResponse(status=204), etag)
    not_modified = get_conditional_response(request, etag=etag)
    if not_modified is not None:
        return _poll_headers(not_modified, etag)
    context = _panel_context(access, health_announce=since is not None)
    response = render(request, f"{TEMPLATE}#health_live", context)
    if since is not None:
        trigger_client_event(response, HEALTH_EVENT, {"character": access.character.pk})
    return _poll_headers(response, etag)


def _poll_headers(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    patch_vary_headers(response, ("HX-Request", "Cookie", "Accept-Language"))
    return response


@login_required
@require_GET
def health_history(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """Every health event of a character, newest first, 25 to a page."""
    access = character_access(request.user, campaign_id, character_id)
    require(access.can_view_full)
    character = access.character
    page = Paginator(events_of(character), HISTORY_PAGE_SIZE).get_page(request.GET.get("page"))
    prefetch_related_objects([character], "traits")
    ratings = services.ratings_of(character)
    # The Undo button sits on the event it takes back, on whichever page that is.
    target = undo_target_id(character) if access.can_manage_health else None
    context = {
        "access": access,
        "character": character,
        "campaign": character.campaign,
        "system": get_system(character.campaign.system),
        "page": page,
        "rows": event_rows(access, page.object_list, ratings, undo_target=target),
        "history_page": True,
        "can_manage_health": access.can_manage_health,
    }
    return render(request, TEMPLATE, context)


# --- Damage and time -----------------------------------------------------------------------


@login_required
@require_POST
def damage(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """Hurt the character by its system's rules (the engine rolls any test itself)."""
    access = character_access(request.user, campaign_id, character_id)
    require(access.can_apply_damage)
    system = get_system(access.character.campaign.system)
    form = DamageForm(request.POST, system=system)
    events: list[HealthEvent] = []

    def write(data):
        events.append(
            services.character_apply_damage(
                character=access.character,
                user=request.user,
                damage=form.damage(),
                reason=data["reason"],
                scene=_scene(access),
            )
        )

    if _run(form, write):
        done = _("Damage applied: %(summary)s") % {"summary": events[0].summary}
        return _answer(request, access, opened="damage", done=done)
    return _answer(request, access, opened="damage", done=None, bound={"damage_form": form})


@login_required
@require_POST
def advance_time(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """Let game time pass for this character: it heals by its system's rules."""
    access = character_access(request.user, campaign_id, character_id)
    require(access.can_manage_health)
    form = TimeForm(request.POST)

    def write(data):
        services.character_advance_time(
            character=access.character,
            user=request.user,
            hours=data["hours"],
            reason=data["reason"],
            scene=_scene(access),
        )

    if _run(form, write):
        done = _("Time passes: %(time)s.") % {"time": hours_in_words(form.cleaned_data["hours"])}
        return _answer(request, access, opened="time", done=done)
    return _answer(request, access, opened="time", done=None, bound={"time_form": form})


@login_required
@require_POST
def undo(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """Undo the last event in force (the one the GM saw), as a new compensating event."""
    access = character_access(request.user, campaign_id, character_id)
    require(access.can_manage_health)
    form = UndoForm(request.POST)
    error = None
    if not form.is_valid():
        error = _("Choose the event to undo.")
    else:
        try:
            event = services.health_event_undo(
                character=access.character,
                user=request.user,
                expected=form.cleaned_data["event"],
            )
        except ValidationError as exc:
            error = exc.messages[0]
    if request.POST.get("next") == "history" and not request.htmx:
        if error:
            messages.error(request, error)
        else:
            messages.success(request, event.summary)
        return redirect(reverse("characters:health_history", args=[campaign_id, character_id]))
    if error:
        return _answer(request, access, opened="", done=None, error=error)
    return _answer(request, access, opened="", done=event.summary)


# --- Treatments ----------------------------------------------------------------------------


def _treatment(
    request: HttpRequest,
    access: CharacterAccess,
    *,
    name: str,
    form,
    write,
) -> HttpResponse:
    events: list[HealthEvent] = []
    if _run(form, lambda data: events.append(write(data))):
        return _answer(request, access, opened=name, done=events[0].summary)
    return _answer(request, access, opened=name, done=None, bound={f"{name}_form": form})


@login_required
@require_POST
def first_aid(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """Mundo de Tinieblas first aid by a character of the campaign, rolled on the server."""
    access = character_access(request.user, campaign_id, character_id)
    require(access.can_heal)
    _system_only(access, "tinieblas")
    form = FirstAidForm(request.POST, campaign=access.character.campaign)
    return _treatment(
        request,
        access,
        name="first_aid",
        form=form,
        write=lambda data: services.character_first_aid(
            character=access.character,
            user=request.user,
            healer=data["healer"],
            proper_kit=data["proper_kit"],
            reason=data["reason"],
            scene=_scene(access),
        ),
    )


@login_required
@require_POST
def supervision(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """Hitos medical supervision for one healing period, rolled on the server."""
    access = character_access(request.user, campaign_id, character_id)
    require(access.can_heal)
    _system_only(access, "hitos")
    form = SupervisionForm(request.POST, campaign=access.character.campaign)
    return _treatment(
        request,
        access,
        name="supervision",
        form=form,
        write=lambda data: services.character_medical_supervision(
            character=access.character,
            user=request.user,
            supervisor=data["healer"],
            characteristic=data["characteristic"],
            skill=data["skill"],
            reason=data["reason"],
            scene=_scene(access),
        ),
    )


@login_required
@require_POST
def drug(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """Hitos painkillers."""
    access = character_access(request.user, campaign_id, character_id)
    require(access.can_heal)
    _system_only(access, "hitos")
    form = DrugForm(request.POST)
    return _treatment(
        request,
        access,
        name="drug",
        form=form,
        write=lambda data: services.character_take_drug(
            character=access.character,
            user=request.user,
            kind=data["drug"],
            reason=data["reason"],
            scene=_scene(access),
        ),
    )


@login_required
@require_POST
def auxiliar(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """3d6 + NdP Auxiliar by a character of the campaign, rolled on the server."""
    access = character_access(request.user, campaign_id, character_id)
    require(access.can_heal)
    _system_only(access, "ndp")
    form = AuxiliarForm(request.POST, campaign=access.character.campaign)
    return _treatment(
        request,
        access,
        name="auxiliar",
        form=form,
        write=lambda data: services.character_auxiliar(
            character=access.character,
            user=request.user,
            healer=data["healer"],
            adversity=data["adversity"],
            part=data["part"],
            reason=data["reason"],
            scene=_scene(access),
        ),
    )


def _gm_ndp_action(request: HttpRequest, campaign_id: int, character_id: int, write):
    access = character_access(request.user, campaign_id, character_id)
    require(access.can_manage_health)
    _system_only(access, "ndp")
    try:
        event = write(access)
    except ValidationError as exc:
        return _answer(request, access, opened="", done=None, error=exc.messages[0])
    return _answer(request, access, opened="", done=event.summary)


@login_required
@require_POST
def bleed(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """3d6 + NdP: the GM bleeds the character one round."""
    return _gm_ndp_action(
        request,
        campaign_id,
        character_id,
        lambda access: services.character_bleed_round(
            character=access.character, user=request.user, scene=_scene(access)
        ),
    )


@login_required
@require_POST
def unconscious(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """3d6 + NdP: the GM marks the character unconscious, or awake again."""
    form = UnconsciousForm(request.POST)

    def write(access):
        if not form.is_valid():
            raise ValidationError(_("Nothing changes."))
        return services.character_set_unconscious(
            character=access.character,
            user=request.user,
            unconscious=form.cleaned_data["unconscious"],
            scene=_scene(access),
        )

    return _gm_ndp_action(request, campaign_id, character_id, write)


urlpatterns = [
    path("<id:character_id>/health/", health, name="health"),
    path("<id:character_id>/health/events/", health_history, name="health_history"),
    path("<id:character_id>/health/damage/", damage, name="health_damage"),
    path("<id:character_id>/health/time/", advance_time, name="health_time"),
    path("<id:character_id>/health/undo/", undo, name="health_undo"),
    path("<id:character_id>/health/first-aid/", first_aid, name="health_first_aid"),
    path("<id:character_id>/health/supervision/", supervision, name="health_supervision"),
    path("<id:character_id>/health/drug/", drug, name="health_drug"),
    path("<id:character_id>/health/auxiliar/", auxiliar, name="health_auxiliar"),
    path("<id:character_id>/health/bleed/", bleed, name="health_bleed"),
    path("<id:character_id>/health/unconscious/", unconscious, name="health_unconscious"),
]
