"""The character sheet page and its inline edits of story, pools, ratings and details.

One URL per action: an htmx request gets the piece of `characters/sheet.html` it
changes, a plain request a redirect (POST/redirect/GET) or the whole page with the
form and its errors. Every view asks `campaigns.permissions` first; writes go through
`characters.services`; what the rules say comes from the system adapter. The lists a
system's sections keep (aspects, merits, …) are edited in `characters.views.sheet_lists`.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models.query import prefetch_related_objects
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from campaigns.htmx import unchanged
from campaigns.images import SIZES, image_response
from campaigns.permissions import character_access, require
from characters import services
from characters.forms.sheet import DetailsForm, PoolAdjustForm, StoryForm, TraitRatingForm
from characters.models import Resource
from characters.views.sheet_context import (
    back_to_sheet,
    first_error,
    live_version,
    pools_of,
    sheet_context,
    sheet_context_base,
)

TEMPLATE = "characters/sheet.html"


def _render(request: HttpRequest, partial: str, context: dict) -> HttpResponse:
    """The partial for htmx, the whole page otherwise."""
    template = f"{TEMPLATE}#{partial}" if request.htmx else TEMPLATE
    return render(request, template, context)


@login_required
@require_GET
def sheet(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    access = character_access(request.user, campaign_id, character_id)
    if up_to_date := unchanged(request, live_version(access)):
        return up_to_date
    return _render(request, "sheet", sheet_context(access, request))


@login_required
@require_http_methods(["GET", "POST"])
def story_edit(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """Name, concept, description and notes: the owner's and the GMs' to write."""
    access = character_access(request.user, campaign_id, character_id)
    require(access.can_edit_story)
    character = access.character
    posted = request.method == "POST"
    form = StoryForm.for_character(
        character,
        request.POST if posted else None,
        request.FILES if posted else None,
        uploader=request.user,
    )
    if posted and form.is_valid():
        updated = services.character_update(character=character, user=request.user, **form.story())
        changes_portrait, portrait = form.portrait_change()
        if changes_portrait:
            updated = services.character_set_portrait(
                character=character, user=request.user, image=portrait
            )
        for name in (*services.STORY_FIELDS, "portrait", "portrait_thumb"):
            setattr(character, name, getattr(updated, name))
        # Inline on the sheet the section swaps back; from the edit page itself the
        # browser goes to the sheet, as a plain POST would (POST/redirect/GET).
        if request.htmx and request.htmx.current_url_abs_path != request.path:
            # No page load shows the site's messages here: the notice goes to the page's
            # live region beside the section.
            context = sheet_context(access, story_notice=_("Sheet saved."))
            return render(request, f"{TEMPLATE}#story_saved", context)
        messages.success(request, _("Sheet saved."))
        if request.htmx:
            return HttpResponseClientRedirect(access.character.get_absolute_url())
        return back_to_sheet(access)
    return _render(request, "story_form", sheet_context(access, story_form=form))


@login_required
@require_POST
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
        error = first_error(form)
    else:
        try:
            services.resource_adjust(
                character=access.character,
                user=request.user,
                key=key,
                delta=form.cleaned_data["delta"],
                may_raise_open=access.can_raise_open_pools,
            )
        except ValidationError as exc:
            error = exc.messages[0]
    return _pool_answer(request, access, key, error=error)


@login_required
@require_POST
def pool_action(
    request: HttpRequest, campaign_id: int, character_id: int, key: str, action: str
) -> HttpResponse:
    """One of the system's actions on a pool (`mechanics.systems.base.PoolAction`)."""
    access = character_access(request.user, campaign_id, character_id)
    system = access.character.campaign.game_system
    found = next((a for a in system.pool_actions if (a.pool, a.key) == (key, action)), None)
    if found is None or not Resource.objects.filter(character=access.character, key=key).exists():
        raise Http404
    require(getattr(access, found.permission))
    error = notice = None
    try:
        notice = found.perform(character=access.character, user=request.user)
    except ValidationError as exc:
        error = exc.messages[0]
    back = request.POST.get("next", "")
    if not request.htmx and url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        # Taken from another page (the combat panel): back there, saying what happened.
        (messages.error if error else messages.success)(request, error or notice)
        return redirect(back)
    return _pool_answer(request, access, key, error=error, notice=notice)


def _pool_answer(
    request: HttpRequest, access, key: str, *, error: str | None, notice: str | None = None
) -> HttpResponse:
    """The pool again for htmx, with what happened; the sheet otherwise."""
    if request.htmx:
        access.character.refresh_from_db(fields=["details"])
        system = access.character.campaign.game_system
        prefetch_related_objects([access.character], "traits", "resources")
        pools = pools_of(system, access, services.ratings_of(access.character))
        pool = next(pool for pool in pools if pool.key == key)
        context = {
            **sheet_context_base(access),
            "pool": pool,
            "pool_error": error,
            # A pending action says it by the pool already.
            "pool_notice": None if any(pending for _a, pending in pool.actions) else notice,
        }
        return render(request, f"{TEMPLATE}#pool", context)
    if error:
        messages.error(request, error)
    elif notice:
        messages.success(request, notice)
    return back_to_sheet(access, f"pool-{key}")


@login_required
@require_POST
def trait_set(request: HttpRequest, campaign_id: int, character_id: int, key: str) -> HttpResponse:
    """A GM sets a rating (a click on a dot, or −/+ for numbers)."""
    access = character_access(request.user, campaign_id, character_id)
    require(access.can_edit_traits)
    system = access.character.campaign.game_system
    prefetch_related_objects([access.character.campaign], "trait_lists")
    if system.trait_spec(access.character.campaign, key) is None:
        raise Http404
    form = TraitRatingForm(request.POST)
    error = None
    if not form.is_valid():
        error = first_error(form)
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
    return back_to_sheet(access, f"trait-{key}")


@login_required
@require_http_methods(["GET", "POST"])
def details_set(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """A GM changes Virtue, Vice and Tamaño, or the specialization; the sheet follows.
    A GET gives the form, which the sheet loads when it is opened (`#gm_add_form`)."""
    access = character_access(request.user, campaign_id, character_id)
    require(access.can_edit_traits)
    campaign = access.character.campaign
    prefetch_related_objects([campaign], "trait_lists")
    form = DetailsForm(
        request.POST if request.method == "POST" else None,
        system=campaign.game_system,
        campaign=campaign,
        details=access.character.details,
    )
    if not form.has_fields:
        raise Http404
    if request.method == "GET":
        if request.htmx:
            context = {**sheet_context_base(access), "details_form": form, "gm_open": request.path}
            return render(request, f"{TEMPLATE}#details_form", context)
        return render(request, TEMPLATE, sheet_context(access, gm_open=request.path))
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
                return back_to_sheet(access)
            return render(request, f"{TEMPLATE}#sheet", sheet_context(access))
    return _render(request, "sheet", sheet_context(access, details_form=form))


@require_GET
def portrait(request: HttpRequest, campaign_id: int, character_id: int, size: str) -> FileResponse:
    """The portrait, to whoever may open the sheet; 404 to anyone else, signed in or not."""
    access = character_access(request.user, campaign_id, character_id)
    if not access.can_view_portrait or size not in SIZES:
        raise Http404
    character = access.character
    return image_response(character.portrait if size == "full" else character.portrait_thumb)


urlpatterns = [
    path("<id:character_id>/", sheet, name="sheet"),
    path("<id:character_id>/edit/", story_edit, name="edit"),
    path("<id:character_id>/portrait/<slug:size>/", portrait, name="portrait"),
    path("<id:character_id>/details/", details_set, name="details_set"),
    path("<id:character_id>/pools/<slug:key>/", pool_adjust, name="pool_adjust"),
    path("<id:character_id>/pools/<slug:key>/<slug:action>/", pool_action, name="pool_action"),
    path("<id:character_id>/traits/<slug:key>/", trait_set, name="trait_set"),
]
