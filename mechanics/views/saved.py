"""Saved rolls: a roll panel's set-up kept under a name and rolled again in one tap from the
top of the sheet (the roll itself is the roll panel's POST with `saved=<id>`).

- POST .../roll/save/ keeps the panel's current choices (they must roll as they are);
- GET .../saved-rolls/ lists them to rename and delete (htmx `part=bar`: the sheet's bar);
- POST .../saved-rolls/<id>/rename/ and .../delete/ (which asks first, with or without JS).
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import trigger_client_event

from campaigns.confirm import ask_first
from campaigns.permissions import character_access, require
from mechanics.models import SavedRoll
from mechanics.services.saved_rolls import (
    saved_roll_create,
    saved_roll_delete,
    saved_roll_rename,
    setup_from_choices,
)
from mechanics.setup import load_sheet
from mechanics.views.roll import (
    PANEL,
    _kept_choices,
    _panel_context,
    _panel_form,
    _plan,
    _scene_form,
)

LIST = "mechanics/saved_rolls.html"
CHANGED = "cronica:saved-rolls"


def _list_url(character) -> str:
    return reverse("mechanics:saved_rolls", args=[character.campaign_id, character.pk])


@login_required
@require_POST
def saved_roll_save(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """Keep the roll panel's current set-up under the name typed next to it."""
    char_access = character_access(request.user, campaign_id, character_id)
    require(char_access.can_save_rolls)
    access = char_access.access
    character = char_access.character
    sheet = load_sheet(character, access.campaign, with_scene=False)
    setup = sheet.system.roll_setup
    if setup is None:
        raise Http404("This rule system has no rolls.")
    open_actions = setup.open_actions(character)
    scene_form = _scene_form(sheet, request.POST)
    form = _panel_form(sheet, request.POST, is_gm=access.is_gm, open_actions=open_actions)
    plan = _plan(sheet, form, open_actions, scene_form)
    saved = None
    if plan is not None:
        try:
            saved = saved_roll_create(
                character=character,
                user=request.user,
                name=request.POST.get("saved_name", ""),
                setup=setup_from_choices(dict(request.POST.lists()), form.one_off_fields()),
            )
        except ValidationError as error:
            form.add_error(None, " ".join(error.messages))
        else:
            # The panel answered holds the versions the save left (roll._live_version).
            character.refresh_from_db(fields=["version", "grid_version"])
            access.campaign.refresh_from_db(fields=["change_seq", "public_seq"])
    # A refused name is shown again to be corrected, not typed anew.
    refused_name = request.POST.get("saved_name", "") if saved is None else ""
    if not request.htmx:
        if saved is None:
            context = _panel_context(request, access, sheet, form, scene_form, plan)
            return render(request, PANEL, {**context, "saved_name": refused_name})
        messages.success(
            request,
            _("Saved «%(name)s»: roll it in one tap from the top of the sheet.")
            % {"name": saved.name},
        )
        kept = _kept_choices(request.POST, form.one_off_fields())
        roll_url = reverse("mechanics:roll", args=[character.campaign_id, character.pk])
        return redirect(f"{roll_url}?{urlencode(kept, doseq=True)}")
    context = _panel_context(request, access, sheet, form, scene_form, plan)
    context["saved_now"] = saved
    context["saved_name"] = refused_name
    response = render(request, f"{PANEL}#panel", context)
    if saved is not None:
        trigger_client_event(response, CHANGED, {"character": character.pk})
    return response


@login_required
@require_GET
def saved_rolls(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """The character's saved rolls, to rename and delete; for htmx `part=bar`, the bar at
    the top of the sheet (reloaded after a roll is saved)."""
    char_access = character_access(request.user, campaign_id, character_id)
    require(char_access.can_save_rolls)
    character = char_access.character
    context = {
        "access": char_access,
        "campaign": char_access.access.campaign,
        "character": character,
    }
    if request.htmx and request.GET.get("part") == "bar":
        return render(request, "mechanics/_saved_rolls.html#bar", context)
    context["saved_rolls"] = list(SavedRoll.objects.filter(character=character))
    return render(request, LIST, context)


def _saved_for(request, campaign_id: int, character_id: int, saved_id: int):
    char_access = character_access(request.user, campaign_id, character_id)
    require(char_access.can_save_rolls)
    saved = get_object_or_404(SavedRoll, pk=saved_id, character=char_access.character)
    return char_access, saved


@login_required
@require_POST
def saved_roll_rename_view(
    request: HttpRequest, campaign_id: int, character_id: int, saved_id: int
) -> HttpResponse:
    char_access, saved = _saved_for(request, campaign_id, character_id, saved_id)
    old = saved.name
    try:
        saved_roll_rename(saved=saved, name=request.POST.get("name", ""))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request, _("«%(old)s» is now «%(new)s».") % {"old": old, "new": saved.name}
        )
    return redirect(_list_url(char_access.character))


@login_required
@require_POST
def saved_roll_delete_view(
    request: HttpRequest, campaign_id: int, character_id: int, saved_id: int
) -> HttpResponse:
    char_access, saved = _saved_for(request, campaign_id, character_id, saved_id)
    asked = ask_first(
        request,
        question=_("Delete the saved roll «%(name)s»?") % {"name": saved.name},
        button=_("Delete it"),
        cancel_url=_list_url(char_access.character),
    )
    if asked is not None:
        return asked
    saved_roll_delete(saved=saved)
    messages.success(request, _("Saved roll «%(name)s» deleted.") % {"name": saved.name})
    return redirect(_list_url(char_access.character))
