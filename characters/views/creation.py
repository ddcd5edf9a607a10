"""Character creation, with the form the campaign's system declares.

One URL: GET shows the form; POST either re-renders it with the points left ("Check
points", or the htmx `points_update` partial as dots are clicked, for a form with a
points panel) or saves the sheet through `characters.services.character_create` and
redirects to it.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import prefetch_related_objects
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from campaigns.permissions import CampaignAccess, campaign_access, may_create_character
from characters import services
from characters.forms.creation import CreationBaseForm, TraitsCreationForm

TEMPLATE = "characters/create.html"
# Sent by the form's htmx trigger: re-render only the points left.
POINTS_PARAM = "points"


def _refusal(access: CampaignAccess, user) -> str | None:
    """Why this member may not create a character here, or None if they may."""
    if may_create_character(access, None if access.is_gm else user.pk):
        return None
    if not access.is_player:
        return _("Observers follow the campaign but cannot create characters.")
    limit = access.campaign.max_characters_per_player
    return _(
        "You already have the most characters this campaign allows per player (%(limit)s). "
        "Ask a GM if you need another one."
    ) % {"limit": limit}


def _form(request: HttpRequest, access: CampaignAccess) -> CreationBaseForm:
    form_class = access.campaign.game_system.creation_form or TraitsCreationForm
    if request.method == "POST" and "check" in request.POST:
        # "Check points" shows the counts for what was entered, without error messages.
        return form_class(initial=request.POST.dict(), campaign=access.campaign, access=access)
    data = request.POST if request.method == "POST" else None
    return form_class(data, campaign=access.campaign, access=access)


def _save(request: HttpRequest, access: CampaignAccess, form: CreationBaseForm, approve: bool):
    owner = form.owner_for(request.user)
    return services.character_create(
        campaign=access.campaign,
        user=request.user,
        owner=owner,
        name=form.cleaned_data["name"],
        concept=form.cleaned_data["concept"],
        description=form.cleaned_data["description"],
        is_npc=owner is None,
        approved_over_budget=approve,
        owner_limit=None if access.is_gm else access.campaign.max_characters_per_player,
        **form.service_kwargs(),
    )


@login_required
@require_http_methods(["GET", "POST"])
def character_create(request: HttpRequest, campaign_id: int) -> HttpResponse:
    access = campaign_access(request.user, campaign_id)
    campaign = access.campaign
    refusal = _refusal(access, request.user)
    if refusal:
        context = {"campaign": campaign, "access": access, "refusal": refusal}
        return render(request, "characters/create_refused.html", context, status=403)
    if campaign.game_system.editable_trait_lists:
        # The campaign's trait lists are read many times while building and saving.
        prefetch_related_objects([campaign], "trait_lists")

    form = _form(request, access)
    problems: list[tuple[str, str]] = []  # (message, id of the form section)
    if request.method == "POST" and form.points_template and request.POST.get(POINTS_PARAM):
        context = {"form": form, **form.display_context(), "oob": True}
        return render(request, f"{form.points_template}#points_update", context)
    if request.method == "POST" and "check" not in request.POST:
        valid = form.is_valid()
        problems = form.blocking_problems()
        if valid and not problems:
            approve = form.approves_over_budget()
            try:
                character = _save(request, access, form, approve)
            except ValidationError as error:
                problems += [(message, "") for message in error.messages]
            else:
                if approve:
                    messages.warning(
                        request,
                        _("%(name)s was created and approved over budget.")
                        % {"name": character.name},
                    )
                else:
                    messages.success(request, _("%(name)s was created.") % {"name": character.name})
                return redirect(character.get_absolute_url())

    context = {
        "campaign": campaign,
        "access": access,
        "form": form,
        "problems": problems,
        "checked": request.method == "POST" and "check" in request.POST,
        **form.display_context(),
    }
    return render(request, TEMPLATE, context)


urlpatterns = [path("new/", character_create, name="create")]
