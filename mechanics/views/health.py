"""The health section of a sheet: damage, time passing, treatments, undo, and the poll
that keeps an open sheet up to date.

One URL per action; the treatments each system declares (`GameSystem.treatments`) share
one view, with a URL each, built from the registry when the URL configuration loads. An
htmx POST gets the health section back (`mechanics/health.html#health`) and an HX-Trigger
`cronica:health`, which the sheet's roll panel listens to so its odds follow the new wound
penalty; a plain POST is redirected to the sheet (POST/redirect/GET), or shown the sheet
again with the form and its errors. Every view asks `campaigns.permissions` first; writes
go through the health services (`mechanics.services.health`, and each system's own).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.core.paginator import Paginator
from django.db.models.query import prefetch_related_objects
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import trigger_client_event

from campaigns.forms.service import call_service
from campaigns.permissions import CharacterAccess, character_access, require
from campaigns.selectors import active_scene
from characters.services import ratings_of
from characters.views.sheet import sheet_context
from characters.views.sheet_context import cached_ratings
from mechanics.forms.health import DamageForm, TimeForm, UndoForm
from mechanics.health_panel import (
    HEALTH_EVENT,
    HEALTH_VERSION,
    event_rows,
    events_of,
    health_context,
    health_digest,
    health_version,
    latest_event_id,
    treatment_controls,
    undo_target_id,
)
from mechanics.models import HealthEvent
from mechanics.services import health as services
from mechanics.systems.base import Treatment, hours_in_words
from mechanics.systems.registry import all_systems, get_system

TEMPLATE = "mechanics/health.html"
SHEET = "characters/sheet.html"
TOOL_PAGE = "mechanics/health_tool.html"
HISTORY_PAGE_SIZE = 25


def _panel_context(access: CharacterAccess, **extra: Any) -> dict[str, Any]:
    """The health section's context without the rest of the sheet."""
    character = access.character
    ratings = cached_ratings(character)
    return {
        "access": access,
        "character": character,
        "campaign": character.campaign,
        "system": get_system(character.campaign.system),
        **health_context(access, ratings=ratings, **extra),
    }


def _derived(access: CharacterAccess, context: dict[str, Any]) -> list[tuple[str, str]]:
    character = access.character
    return context["system"].derived(
        cached_ratings(character),
        character.details,
        character.campaign.rules,
        items=list(character.items.all()),
        wound_penalty=context["health"].penalty,
    )


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
        access.character.refresh_from_db(fields=["health", "version", "grid_version"])
        context = _panel_context(
            access, health_open=opened, health_notice=done, health_error=error, **bound
        )
        if done:
            # Derived traits may count the wound penalty (Hitos Defensa): sent along.
            context.update(derived=_derived(access, context), derived_oob=True)
        response = render(request, f"{TEMPLATE}#health", context)
        if done:
            trigger_client_event(response, HEALTH_EVENT, {"character": access.character.pk})
        return response
    if done:
        messages.success(request, done)
        return redirect(_sheet_url(access))
    if error and not bound:
        messages.error(request, error)
        return redirect(_sheet_url(access))
    context = sheet_context(access, health_open=opened, health_error=error, **bound)
    return render(request, SHEET, context)


def _scene(access: CharacterAccess):
    """The open scene the character is in, so the event shows in its timeline."""
    return active_scene(campaign=access.character.campaign, character=access.character)


# --- Reading -------------------------------------------------------------------------------


@login_required
@require_GET
def health(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """The live part of the health section, asked again at each change (live.js).

    A poll carries `since`, the version it shows: unchanged, the answer is 204 No Content
    after the access check alone, or after one small query when the character changed but
    not its health (If-None-Match gets 304 the same way). Changed, it is the new state
    and events (a changed health is drawn without that query), with HX-Trigger
    `cronica:health` so the roll panel refreshes its odds. A plain request is sent to the
    sheet.
    """
    access = character_access(request.user, campaign_id, character_id)
    require(access.can_view_full)
    if not request.htmx:
        return redirect(_sheet_url(access))
    character = access.character
    since = request.GET.get("since")
    drawn_at, _dot, shown = (since or "").partition(".")
    if drawn_at == str(character.version) and HEALTH_VERSION.fullmatch(shown):
        # Nothing of the character's changed since the section was drawn (every health
        # change moves its version): the health it shows is current, without a query.
        return _poll_headers(HttpResponse(status=204), _etag(character, shown))
    if shown.rpartition("-")[2] == health_digest(character) or "If-None-Match" in request.headers:
        # The health is as drawn but an event may be new (one that changed nothing), or
        # the browser asks whether its copy is current: the newest event tells.
        version = health_version(character, latest_event_id(character))
        etag = _etag(character, version)
        if shown == version:
            return _poll_headers(HttpResponse(status=204), etag)
        not_modified = get_conditional_response(request, etag=etag)
        if not_modified is not None:
            return _poll_headers(not_modified, etag)
    # Changed (after a wound, at once: the events the section lists give its version).
    context = _panel_context(access, health_announce=since is not None)
    etag = _etag(character, context["health_version"].partition(".")[2])
    response = render(request, f"{TEMPLATE}#health_live", context)
    if since is not None:
        trigger_client_event(response, HEALTH_EVENT, {"character": access.character.pk})
    return _poll_headers(response, etag)


def _etag(character, version: str) -> str:
    return f'"health-{character.pk}-{version}-{get_language() or ""}"'


def _poll_headers(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    patch_vary_headers(response, ("Cookie", "Accept-Language"))
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
    ratings = ratings_of(character)
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


def _tool(
    request: HttpRequest, access: CharacterAccess, partial: str, **context: Any
) -> HttpResponse:
    """A GET of a health tool: its form, which the sheet asks for the first time the tool
    is opened (`#tool`); without htmx, a page with the form, which posts back as the
    sheet's does."""
    context.update(campaign=access.character.campaign, character=access.character)
    if request.htmx:
        return render(request, f"{TEMPLATE}#{partial}", context)
    return render(request, TOOL_PAGE, {**context, "partial_template": f"{TEMPLATE}#{partial}"})


@login_required
@require_http_methods(["GET", "POST"])
def damage(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """Hurt the character by its system's rules (the engine rolls any test itself)."""
    access = character_access(request.user, campaign_id, character_id)
    require(access.can_apply_damage)
    system = get_system(access.character.campaign.system)
    if request.method == "GET":
        form = DamageForm(system=system, character=access.character)
        return _tool(request, access, "damage_form", label=_("Apply damage"), damage_form=form)
    form = DamageForm(request.POST, system=system, character=access.character)
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

    if call_service(form, write):
        done = _("Damage applied: %(summary)s") % {"summary": events[0].summary}
        return _answer(request, access, opened="damage", done=done)
    return _answer(request, access, opened="damage", done=None, bound={"damage_form": form})


@login_required
@require_http_methods(["GET", "POST"])
def advance_time(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """Let game time pass for this character: it heals by its system's rules."""
    access = character_access(request.user, campaign_id, character_id)
    require(access.can_manage_health)
    system = get_system(access.character.campaign.system)
    if request.method == "GET":
        form = TimeForm(presets=system.time_presets, rest_question=system.rest_question)
        return _tool(
            request, access, "time_form", label=_("Advance time"),
            time_form=form, time_presets=system.time_presets,
        )  # fmt: skip
    form = TimeForm(request.POST, presets=system.time_presets, rest_question=system.rest_question)

    def write(data):
        services.character_advance_time(
            character=access.character,
            user=request.user,
            hours=data["hours"],
            reason=data["reason"],
            scene=_scene(access),
            rested=data["rested"],
        )

    if call_service(form, write):
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
        return redirect(reverse("mechanics:health_history", args=[campaign_id, character_id]))
    if error:
        return _answer(request, access, opened="", done=None, error=error)
    return _answer(request, access, opened="", done=event.summary)


# --- Treatments ----------------------------------------------------------------------------


def _treatment_of(access: CharacterAccess, key: str) -> Treatment:
    """The treatment `key` of the character's system; a system without it has no such page."""
    system = get_system(access.character.campaign.system)
    for treatment in system.treatments:
        if treatment.key == key:
            return treatment
    raise Http404


@login_required
@require_http_methods(["GET", "POST"])
def treatment(request: HttpRequest, campaign_id: int, character_id: int, key: str) -> HttpResponse:
    """Give one of the treatments the character's system declares, through its form and
    service (first aid, Auxiliar, a GM's bleed-a-round button, ...)."""
    access = character_access(request.user, campaign_id, character_id)
    chosen = _treatment_of(access, key)
    require(getattr(access, chosen.permission))
    if request.method == "GET":
        # With the form's choices (its odds following them, or "Update the odds" without
        # JavaScript) the form is bound to them.
        bound = {}
        if set(request.GET) - {"part"}:
            bound[f"{key}_form"] = chosen.form(request.GET, character=access.character)
        controls = treatment_controls(access, bound=bound, opened=key)
        offered = [c for c in controls if c.treatment.key == key]
        if not offered or chosen.button:
            raise Http404
        if request.htmx and request.GET.get("part") == "odds":
            return render(request, f"{TEMPLATE}#treatment_odds", {"control": offered[0]})
        return _tool(request, access, "treatment_form", label=chosen.label, control=offered[0])
    form = chosen.form(request.POST, character=access.character)
    events: list[HealthEvent] = []

    def write(data):
        events.append(
            chosen.perform(
                character=access.character,
                user=request.user,
                scene=_scene(access),
                **form.arguments(),
            )
        )

    opened = "" if chosen.button else key
    if call_service(form, write):
        return _answer(request, access, opened=opened, done=events[0].summary)
    if chosen.button:
        error = next(message for errors in form.errors.values() for message in errors)
        return _answer(request, access, opened=opened, done=None, error=error)
    return _answer(request, access, opened=opened, done=None, bound={f"{key}_form": form})


def _treatment_urls() -> list:
    """A URL per treatment key any registered system declares (`mechanics:health_<key>`)."""
    systems = all_systems()
    if not systems:
        raise ImproperlyConfigured("The health URLs load before any rule system registered.")
    by_key = {t.key: t for system in systems for t in system.treatments}
    return [
        path(
            f"characters/<id:character_id>/health/{t.slug}/",
            treatment,
            {"key": t.key},
            name=f"health_{t.key}",
        )
        for t in by_key.values()
    ]


urlpatterns = [
    path("characters/<id:character_id>/health/", health, name="health"),
    path("characters/<id:character_id>/health/events/", health_history, name="health_history"),
    path("characters/<id:character_id>/health/damage/", damage, name="health_damage"),
    path("characters/<id:character_id>/health/time/", advance_time, name="health_time"),
    path("characters/<id:character_id>/health/undo/", undo, name="health_undo"),
    *_treatment_urls(),
]
