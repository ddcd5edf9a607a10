"""A sheet's history, JSON export and import, and a campaign's own trait lists.

Every view asks campaigns.permissions first: non-members get 404, members without
the right 403.
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models import Count, Q, prefetch_related_objects
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from campaigns.permissions import (
    CampaignAccess,
    campaign_access,
    character_access,
    may_create_character,
    require,
)
from characters import services
from characters.forms.transfer import ImportForm, TraitAddForm, TraitEditForm, TraitKeyForm
from characters.history import FieldNames
from characters.models import Trait
from characters.transfer import MAX_FILE_BYTES, export_character, export_filename, parse_upload
from mechanics.systems.registry import get_system

HISTORY_PAGE_SIZE = 25


@login_required
@require_GET
def character_history(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """Every recorded change to the sheet, newest first, 25 a page."""
    access = character_access(request.user, campaign_id, character_id)
    require(access.can_view_history)
    character, campaign = access.character, access.access.campaign
    if get_system(campaign.system).editable_trait_lists:
        prefetch_related_objects([campaign], "trait_lists")
    changes = character.changes.select_related("user").order_by("-at", "-pk")
    page = Paginator(changes, HISTORY_PAGE_SIZE).get_page(request.GET.get("page"))
    names = FieldNames(character, services.ratings_of(character))
    context = {
        "access": access,
        "campaign": campaign,
        "character": character,
        "page": page,
        "rows": [names.row(change) for change in page.object_list],
    }
    template = "characters/history.html"
    return render(request, f"{template}#changes" if request.htmx else template, context)


@login_required
@require_GET
def character_export(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """The sheet as a JSON file to download (format in characters/transfer.py)."""
    access = character_access(request.user, campaign_id, character_id)
    require(access.can_view_full)
    character = access.character
    prefetch_related_objects(
        [character], "traits", "specialties", "merits", "resources", "aspects", "items"
    )
    body = json.dumps(export_character(character), ensure_ascii=False, indent=2)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, export_filename(character))
    return response


def _import_refusal(access: CampaignAccess, user) -> str | None:
    if may_create_character(access, None if access.is_gm else user.pk):
        return None
    if not access.is_player:
        return _("Observers follow the campaign but cannot import characters.")
    return _(
        "You already have the most characters this campaign allows per player (%(limit)s). "
        "Ask a GM if you need another one."
    ) % {"limit": access.campaign.max_characters_per_player}


@login_required
@require_http_methods(["GET", "POST"])
def character_import(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Upload an exported sheet into this campaign (same system, checked whole)."""
    access = campaign_access(request.user, campaign_id)
    campaign = access.campaign
    context: dict = {"access": access, "campaign": campaign}
    refusal = _import_refusal(access, request.user)
    if refusal:
        return render(
            request, "characters/import.html", {**context, "refusal": refusal}, status=403
        )
    if campaign.game_system.editable_trait_lists:
        prefetch_related_objects([campaign], "trait_lists")
    form = ImportForm(request.POST or None, request.FILES or None, campaign=campaign, access=access)
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        owner = form.owner_for(request.user)
        require(may_create_character(access, None if owner is None else owner.pk))
        try:
            data = parse_upload(form.cleaned_data["file"].read(MAX_FILE_BYTES + 1))
            character = services.character_import(
                campaign=campaign,
                user=request.user,
                owner=owner,
                data=data,
                approve_over_budget=access.is_gm,
                owner_limit=None if access.is_gm else campaign.max_characters_per_player,
            )
        except ValidationError as error:
            problems = error.messages
        else:
            if character.approved_over_budget:
                messages.warning(
                    request,
                    _("%(name)s was imported and approved over budget.") % {"name": character.name},
                )
            else:
                messages.success(request, _("%(name)s was imported.") % {"name": character.name})
            return redirect(character.get_absolute_url())
    context.update({"form": form, "problems": problems, "system": get_system(campaign.system)})
    return render(request, "characters/import.html", context)


# Trait lists ------------------------------------------------------------------------------

_MOVES = {"up": -1, "down": 1}


def _trait_lists_access(request: HttpRequest, campaign_id: int) -> CampaignAccess:
    access = campaign_access(request.user, campaign_id)
    if not get_system(access.campaign.system).editable_trait_lists:
        raise Http404
    require(access.can_manage)
    return access


def _trait_lists_context(access: CampaignAccess, bound: dict | None = None) -> dict:
    """Both lists with their forms; `bound` holds a form that failed, to show again."""
    campaign = access.campaign
    prefetch_related_objects([campaign], "trait_lists")
    specs = get_system(campaign.system).trait_specs(campaign)
    minimums = {spec.kind: spec.minimum for spec in specs}
    above_minimum = Q()
    for kind, low in minimums.items():
        above_minimum |= Q(kind=kind, rating__gt=low)
    in_use = dict(
        Trait.objects.filter(above_minimum, character__campaign=campaign)
        .values("key")
        .annotate(sheets=Count("character_id", distinct=True))
        .values_list("key", "sheets")
    )
    bound = bound or {}
    lists = []
    for kind in minimums:
        rows = []
        kind_specs = [spec for spec in specs if spec.kind == kind]
        for index, spec in enumerate(kind_specs):
            edit = bound.get(("edit", spec.key)) or TraitEditForm(
                initial={"key": spec.key, "name": spec.name, "description": spec.description},
                prefix=f"edit-{spec.key}",
            )
            rows.append(
                {
                    "spec": spec,
                    "sheets": in_use.get(spec.key, 0),
                    "first": index == 0,
                    "last": index == len(kind_specs) - 1,
                    "form": edit,
                    "open": ("edit", spec.key) in bound,
                }
            )
        add = bound.get(("add", kind)) or TraitAddForm(initial={"kind": kind}, prefix=f"add-{kind}")
        lists.append({"kind": kind, "label": kind_specs[0].category, "rows": rows, "add_form": add})
    return {
        "access": access,
        "campaign": campaign,
        "lists": lists,
        "starter": not campaign.trait_lists.all(),
    }


def _apply_trait_change(request: HttpRequest, access: CampaignAccess) -> tuple[str, dict]:
    """Run the posted change; returns (success message or "", forms that failed)."""
    campaign, action, post = access.campaign, request.POST.get("action", ""), request.POST
    if action == "add":
        kind = post.get("kind", "")
        form = TraitAddForm(post, prefix=f"add-{kind}")
        if not form.is_valid() or form.cleaned_data["kind"] != kind:
            return "", {("add", kind): form}
        try:
            row = services.campaign_trait_add(
                campaign=campaign,
                user=request.user,
                kind=kind,
                name=form.cleaned_data["name"],
                description=form.cleaned_data["description"],
            )
        except ValidationError as error:
            form.add_error("name", error)
            return "", {("add", kind): form}
        return _("%(name)s added.") % {"name": row.name}, {}
    if action == "update":
        key = post.get("key", "")
        form = TraitEditForm(post, prefix=f"edit-{key}")
        if not form.is_valid() or form.cleaned_data["key"] != key:
            return "", {("edit", key): form}
        try:
            row = services.campaign_trait_update(
                campaign=campaign,
                user=request.user,
                key=key,
                name=form.cleaned_data["name"],
                description=form.cleaned_data["description"],
            )
        except ValidationError as error:
            form.add_error("name", error)
            return "", {("edit", key): form}
        return _("%(name)s saved.") % {"name": row.name}, {}
    form = TraitKeyForm(post)
    if action not in ("remove", *_MOVES) or not form.is_valid():
        raise ValidationError(_("Choose a change to make."))
    key = form.cleaned_data["key"]
    if action == "remove":
        spec = get_system(campaign.system).trait_spec(campaign, key)
        services.campaign_trait_remove(campaign=campaign, user=request.user, key=key)
        return _("%(name)s removed.") % {"name": spec.name if spec else key}, {}
    services.campaign_trait_move(
        campaign=campaign, user=request.user, key=key, offset=_MOVES[action]
    )
    return _("Order saved."), {}


@login_required
@require_http_methods(["GET", "POST"])
def trait_lists(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """A GM edits the campaign's attributes and skills (a system whose lists belong to the
    campaign: `GameSystem.editable_trait_lists`)."""
    access = _trait_lists_access(request, campaign_id)
    notice, error, bound = "", "", {}
    if request.method == "POST":
        try:
            notice, bound = _apply_trait_change(request, access)
        except ValidationError as problem:
            error = " ".join(problem.messages)
        if not request.htmx and not error and not bound:
            messages.success(request, notice)
            return redirect(reverse("characters:trait_lists", args=[campaign_id]))
    context = {**_trait_lists_context(access, bound), "notice": notice, "error": error}
    template = "characters/trait_lists.html"
    return render(request, f"{template}#lists" if request.htmx else template, context)


urlpatterns = [
    path("<id:character_id>/history/", character_history, name="history"),
    path("<id:character_id>/export.json", character_export, name="export"),
    path("import/", character_import, name="import"),
    path("trait-lists/", trait_lists, name="trait_lists"),
]
